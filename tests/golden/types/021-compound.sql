-- Compound queries: each column is the union of both sides' classes and is
-- NULL if either side may be; the names and affinity come from the left.
SELECT id, name FROM emp UNION SELECT id, name FROM dept;
SELECT id, bonus FROM emp UNION ALL SELECT floor, name FROM dept;
SELECT name, salary FROM emp UNION ALL SELECT 'x', 1;
SELECT 1 AS one UNION SELECT NULL;
-- INTERSECT keeps only rows of both sides; EXCEPT only rows of the left.
SELECT age FROM emp INTERSECT SELECT id FROM dept;
SELECT id FROM emp EXCEPT SELECT budget FROM dept;
