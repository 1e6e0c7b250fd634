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
