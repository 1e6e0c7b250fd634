-- Expressions print with explicit parentheses where precedence needs them,
-- and literals round-trip (quotes doubled, big and negative numbers, blobs).
SELECT -(-1) AS a, - -1 AS b, 1 - (2 - 3) AS c, (1 - 2) - 3 AS d, NOT (1 AND 0) AS e,
       'a' || 1 + 2 AS f, 1 << 2 + 1 AS g, 5 & (3 | 8) AS h, ~-1 AS i;
SELECT -9223372036854775808 AS lo, 9223372036854775807 AS hi, 1e999 AS inf, 0.1 AS tenth,
       'it''s' AS q, x'ABCD' AS bl;
SELECT name FROM emp WHERE (dept_id, age) = (1, 30) OR (dept_id, age) IN (SELECT id, floor FROM dept);
SELECT name FROM emp WHERE age NOT BETWEEN 20 AND 40 AND name NOT LIKE 'A%' ESCAPE '\' AND name NOT GLOB 'B*';
SELECT name FROM emp WHERE name = 'ann' COLLATE NOCASE;
SELECT CASE dept_id WHEN 1 THEN 'one' WHEN 2 THEN 'two' ELSE 'other' END AS d FROM emp;
-- IS DISTINCT FROM is IS NOT; IS NOT DISTINCT FROM is IS.
SELECT name FROM emp WHERE age IS DISTINCT FROM 30;
SELECT name FROM emp WHERE age IS NOT DISTINCT FROM NULL;
-- A double-quoted word that names no column is a string.
SELECT "nosuchcol", "name" FROM emp;
SELECT rowid, oid FROM dept;
