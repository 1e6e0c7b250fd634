SELECT DISTINCT dept_id FROM emp;
SELECT DISTINCT dept_id FROM emp ORDER BY salary;
SELECT name FROM emp ORDER BY bonus NULLS FIRST, age DESC NULLS LAST, id;
SELECT name FROM emp ORDER BY name COLLATE NOCASE, lower(name) DESC;
SELECT name AS n, salary FROM emp ORDER BY 2, n;
SELECT dept_id, count(*) FROM emp GROUP BY dept_id ORDER BY count(*) DESC, max(salary);
SELECT name FROM emp ORDER BY id LIMIT 1, 2;
SELECT name FROM emp ORDER BY id LIMIT 3 OFFSET 1;
