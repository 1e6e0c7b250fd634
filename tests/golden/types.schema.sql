-- Schema for the golden suites types/, ir/, ir-json/ and ir-sql/ (kept
-- outside the suite directories: every *.sql inside one is a test).

-- Declared types and SQLite's five affinity rules (datatype3.html 3.1).
CREATE TABLE decl(
  c_int INT,
  c_integer INTEGER,
  c_bigint BIGINT,
  c_tinyint TINYINT,
  c_int8 INT8,
  c_varchar VARCHAR(20),
  c_nchar NCHAR(55),
  c_nvarchar "NATIVE CHARACTER"(70),
  c_clob CLOB,
  c_text TEXT,
  c_blob BLOB,
  c_none,
  c_real REAL,
  c_double DOUBLE,
  c_dblprec DOUBLE PRECISION,
  c_float FLOAT,
  c_floating "FLOATING POINT",
  c_numeric NUMERIC,
  c_decimal DECIMAL(10,5),
  c_boolean BOOLEAN,
  c_date DATE,
  c_datetime DATETIME,
  c_string STRING,
  c_charint CHARINT,
  c_point POINT,
  c_blobchar BLOBCHAR
);

-- Nullability: NOT NULL, primary keys, rowid aliases.
CREATE TABLE k_rowid(id INTEGER PRIMARY KEY, v TEXT);
CREATE TABLE k_int(id INT PRIMARY KEY, v TEXT);
CREATE TABLE k_desc(id INTEGER PRIMARY KEY DESC, v TEXT);
CREATE TABLE k_tbl(id INTEGER, v TEXT, PRIMARY KEY(id));
CREATE TABLE k_norowid(id INT PRIMARY KEY, v TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE k_strict(id INTEGER PRIMARY KEY, n INT NOT NULL, r REAL, t TEXT, a ANY) STRICT;
CREATE TABLE k_default(id INTEGER PRIMARY KEY, n INT NOT NULL DEFAULT 0, u TEXT UNIQUE);

-- A small company, for joins, aggregates and subqueries.
CREATE TABLE dept(
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  budget REAL,
  floor INT NOT NULL
);
CREATE TABLE emp(
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  dept_id INT REFERENCES dept(id),
  salary REAL NOT NULL,
  bonus REAL,
  age INT,
  hired DATETIME,
  manager_id INT REFERENCES emp(id)
);
CREATE TABLE proj(
  pid INTEGER PRIMARY KEY,
  title TEXT NOT NULL,
  dept_id INT NOT NULL,
  cost NUMERIC,
  started DATE
);
CREATE TABLE works(emp_id INT NOT NULL, pid INT NOT NULL, hours REAL, PRIMARY KEY(emp_id, pid));

CREATE VIEW rich AS SELECT id, name, salary + coalesce(bonus, 0) AS pay FROM emp WHERE salary > 1000;
CREATE VIEW dept_stats(dept, n, top, mean) AS
  SELECT dept_id, count(*), max(salary), avg(salary) FROM emp GROUP BY dept_id;
CREATE VIEW staff AS SELECT e.name AS emp_name, d.name AS dept_name FROM emp e LEFT JOIN dept d ON d.id = e.dept_id;
