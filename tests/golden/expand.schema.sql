-- The toxicology schema of seed 001's running example (Ch. 3), and a
-- small company schema with a self-reference, for the expand golden tests.
CREATE TABLE molecule (molecule_id TEXT PRIMARY KEY, label TEXT);
CREATE TABLE atom (atom_id TEXT PRIMARY KEY, molecule_id TEXT NOT NULL REFERENCES molecule(molecule_id), element TEXT);
CREATE TABLE bond (bond_id TEXT PRIMARY KEY, molecule_id TEXT NOT NULL REFERENCES molecule(molecule_id), bond_type TEXT);
CREATE TABLE connected (atom_id TEXT NOT NULL REFERENCES atom(atom_id), atom_id2 TEXT NOT NULL REFERENCES atom(atom_id),
                        bond_id TEXT REFERENCES bond(bond_id), PRIMARY KEY (atom_id, atom_id2));
CREATE TABLE dept (id INTEGER PRIMARY KEY, name TEXT, city TEXT);
CREATE TABLE emp (id INTEGER PRIMARY KEY, name TEXT, dept_id INTEGER REFERENCES dept(id), boss INTEGER REFERENCES emp(id));
CREATE TABLE project (id INTEGER PRIMARY KEY, dept_id INTEGER REFERENCES dept(id), lead INTEGER REFERENCES emp(id));
