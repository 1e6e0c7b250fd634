-- lint.fixture.sql -- the schema (and, for the data rules, the rows) the
-- lint golden tests run on: tests/golden/lint (--schema: schema rules),
-- tests/golden/lint-data (--db: the same script run into an in-memory
-- database, so the data rules run too).
CREATE TABLE dept (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    city TEXT,
    budget INTEGER,
    zip TEXT
);
CREATE TABLE emp (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    dept_id INTEGER REFERENCES dept(id),
    boss INTEGER REFERENCES emp(id),
    salary INTEGER,
    bonus REAL,
    hired DATE,
    code TEXT,
    grade TEXT,
    tag TEXT
);
CREATE TABLE project (
    pid INTEGER PRIMARY KEY,
    dept_id INTEGER NOT NULL REFERENCES dept(id),
    title TEXT,
    budget INTEGER
);
CREATE TABLE assignment (
    emp_id INTEGER NOT NULL REFERENCES emp(id),
    pid INTEGER NOT NULL REFERENCES project(pid),
    hours INTEGER,
    PRIMARY KEY (emp_id, pid)
);
CREATE TABLE note (
    nid INTEGER PRIMARY KEY,
    emp_id INTEGER REFERENCES emp(id),
    body TEXT
);
INSERT INTO dept VALUES (1, 'Research', 'Paris', 900, '75001'), (2, 'Sales', 'Lyon', 300, '69001'),
                        (3, 'Support', NULL, 300, NULL);
INSERT INTO emp VALUES
    (1, 'Ada',   1, NULL, 5000, 0.5, '2019-03-01', 'A1', '10', 'x'),
    (2, 'Bob',   1, 1,    4000, NULL, '2020-07-15', 'B2', '9', 'y'),
    (3, 'Cy',    2, 1,    4000, 0.2, '2021-01-10', 'C3', '12', 'x'),
    (4, 'Dee',   2, 3,    3000, NULL, '2018-11-30', 'D4', '2', NULL),
    (5, 'Eve',   NULL, 1, NULL, 0.1, '2022-05-05', 'E5', '7', 'z');
INSERT INTO project VALUES (10, 1, 'Atlas', 500), (11, 1, 'Boreas', 200), (12, 2, 'Cirrus', 200);
INSERT INTO assignment VALUES (1, 10, 20), (2, 10, 10), (2, 11, 5), (3, 12, 40);
INSERT INTO note VALUES (100, 1, 'hello'), (101, 1, 'again'), (102, 4, NULL);
