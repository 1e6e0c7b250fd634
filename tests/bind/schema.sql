-- Schema for the binder oracle cases (cases.sql): squint and SQLite both
-- load it, then must agree on every case.
CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT NOT NULL, c REAL);
CREATE TABLE u(a INT, d TEXT, e BLOB);
CREATE TABLE v(x INT, y INT, UNIQUE(x, y));
CREATE TABLE w(a INT PRIMARY KEY, b INT) WITHOUT ROWID;
CREATE TABLE "order"(id INT, "from" TEXT);
CREATE TABLE nok(k INT PRIMARY KEY, v TEXT) WITHOUT ROWID;
CREATE VIEW tv AS SELECT a, b AS bee FROM t;
CREATE VIEW tv2(p, q) AS SELECT a, d FROM u;
-- Appended for the adversarial cases_*.sql files.
CREATE TABLE p(x INT, y TEXT, z INT);
CREATE TABLE q(x INT, y TEXT, w INT);
CREATE TABLE r(rowid TEXT, k INT);
CREATE TABLE r2(oid INT, _rowid_ INT, k INT);
CREATE TABLE g(a INT, b INT AS (a*2), c INT GENERATED ALWAYS AS (a+1) STORED);
CREATE TABLE tf("true" INT, "false" INT, n INT);
CREATE TABLE mc("MixedCase" INT, "with space" INT, "a.b" INT, "x:1" INT);
CREATE TABLE ci(a TEXT COLLATE NOCASE, b TEXT COLLATE RTRIM);
CREATE VIEW vw AS SELECT a+1, b FROM t;
CREATE VIEW vn AS SELECT * FROM t NATURAL JOIN u;
CREATE VIEW vv AS SELECT p, q FROM tv2;
CREATE VIEW vwr AS SELECT * FROM w;
CREATE VIEW vagg AS SELECT b, count(*) AS n FROM t GROUP BY b;
CREATE VIEW vdup AS SELECT a, a FROM t;
CREATE VIEW vbad AS SELECT nosuch FROM t;
CREATE VIEW vbadcols(x, y) AS SELECT a FROM t;
CREATE VIEW vself AS SELECT * FROM vself;
CREATE VIEW vcte AS WITH c AS (SELECT a FROM t) SELECT a FROM c;
CREATE VIEW vunion AS SELECT a FROM t UNION SELECT x FROM v;
CREATE VIEW vwin AS SELECT a, row_number() OVER (ORDER BY a) AS rn FROM t;
