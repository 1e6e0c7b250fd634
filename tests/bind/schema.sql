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
