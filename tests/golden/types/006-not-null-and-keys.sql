-- Nullability from the schema: NOT NULL, INTEGER PRIMARY KEY (a rowid alias,
-- never NULL), INT PRIMARY KEY and INTEGER PRIMARY KEY DESC (not aliases: a
-- rowid table's primary key may hold NULL), a table-level PRIMARY KEY on an
-- INTEGER column (an alias), WITHOUT ROWID keys (NOT NULL), UNIQUE and
-- DEFAULT (no effect on NULL).
SELECT id, v FROM k_rowid;
SELECT id FROM k_int;
SELECT id FROM k_desc;
SELECT id FROM k_tbl;
SELECT id, v FROM k_norowid;
SELECT id, n, u FROM k_default;
SELECT rowid, oid, _rowid_ FROM k_int;
SELECT e.id, e.name, e.dept_id, e.salary, e.bonus FROM emp e;
