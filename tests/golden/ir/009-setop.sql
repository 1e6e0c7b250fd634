-- setop: union, union all, intersect, except; the left-most SELECT names
-- the columns; ORDER BY and LIMIT apply to the whole compound.
SELECT id, name FROM emp UNION SELECT id, name FROM dept;
SELECT name FROM emp UNION ALL SELECT title FROM proj ORDER BY 1 LIMIT 4;
SELECT dept_id FROM emp INTERSECT SELECT id FROM dept;
SELECT id FROM dept EXCEPT SELECT dept_id FROM emp;
SELECT 1 AS x UNION SELECT 2 UNION ALL SELECT 3 EXCEPT SELECT 2;
