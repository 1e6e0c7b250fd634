-- Data for the pass execution cases (tests/passes/*.cases): every rewrite
-- must give the same rows as the original on it.  NULLs and duplicates
-- on purpose: the traps of NOT IN, EXISTS and semi-joins.
CREATE TABLE dept (id INTEGER PRIMARY KEY, name TEXT NOT NULL, city TEXT);
CREATE TABLE emp (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    dept_id INTEGER REFERENCES dept(id),
    salary REAL NOT NULL,
    boss INTEGER REFERENCES emp(id),
    tag TEXT
);
CREATE TABLE project (pid INTEGER PRIMARY KEY, dept_id INTEGER NOT NULL REFERENCES dept(id),
                      lead INTEGER REFERENCES emp(id), budget REAL);
CREATE TABLE nums (k INTEGER NOT NULL, v INTEGER);
INSERT INTO dept VALUES (1, 'sales', 'Paris'), (2, 'ops', NULL), (3, 'dev', 'Oslo'),
                        (4, 'empty', 'Rome');
INSERT INTO emp VALUES (1, 'ann', 1, 100, NULL, 'a'), (2, 'bob', 1, 200, 1, NULL),
                       (3, 'cid', 2, 150, 1, 'a'), (4, 'dee', NULL, 120, 2, 'b'),
                       (5, 'eve', 3, 300, NULL, NULL), (6, 'fay', 3, 300, 5, 'b');
INSERT INTO project VALUES (10, 1, 1, 5.0), (11, 1, 2, NULL), (12, 3, 5, 7.5),
                           (13, 3, NULL, 7.5);
INSERT INTO nums VALUES (1, 1), (1, 1), (2, NULL), (3, 3);
-- joinelim: keys of other kinds (TEXT, UNIQUE, composite, rowid), NOT NULL
-- foreign keys, one that a row breaks (note 5 -> emp 99), and the traps
-- of affinity and collation: a TEXT key compared with numbers ('1' and
-- '01' both equal 1), a BINARY key compared under NOCASE ('a' and 'A').
CREATE TABLE badge (code TEXT PRIMARY KEY, emp_id INTEGER UNIQUE REFERENCES emp(id), label TEXT);
CREATE TABLE word (w TEXT UNIQUE, n INTEGER);
CREATE TABLE note (nid INTEGER PRIMARY KEY, emp_id INTEGER NOT NULL REFERENCES emp(id),
                   body TEXT COLLATE NOCASE, pid INTEGER REFERENCES project(pid));
CREATE TABLE pair (a INTEGER NOT NULL, b INTEGER NOT NULL, v TEXT, PRIMARY KEY (a, b));
INSERT INTO badge VALUES ('1', 1, 'gold'), ('01', 2, 'silver'), ('x', NULL, 'none'),
                         ('3', 3, NULL), ('a', NULL, 'tag'), ('2', NULL, 'A');
INSERT INTO word VALUES ('a', 1), ('A', 2), ('b', 3), (NULL, 4), (NULL, 5), ('c', 1), ('1', 6);
INSERT INTO note VALUES (1, 1, 'A', 10), (2, 1, 'b', NULL), (3, 3, 'a', 12), (4, 6, NULL, 13),
                        (5, 99, 'c', NULL);
INSERT INTO pair VALUES (1, 1, 'x'), (1, 2, 'y'), (2, 1, 'z');
