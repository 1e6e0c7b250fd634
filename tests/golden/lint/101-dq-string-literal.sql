-- dq-string-literal: "x" naming no column becomes a string; a string that
-- names a column is compared as text.
SELECT name FROM emp WHERE code = "A1"; -- expect: dq-string-literal
SELECT name FROM emp WHERE "Paris" = tag; -- expect: dq-string-literal
SELECT e.name FROM emp AS e WHERE e.code = 'e.tag'; -- expect: dq-string-literal
SELECT name FROM emp WHERE code = 'dept_id'; -- expect: dq-string-literal
-- not flagged
SELECT "name" FROM emp WHERE "code" = 'A1';
SELECT name FROM emp WHERE code = 'name';
SELECT name FROM emp WHERE tag = 'x.y';
