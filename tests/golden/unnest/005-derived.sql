-- Derived tables merged into the query that reads them, where exact.
SELECT s.n FROM (SELECT name AS n, salary FROM emp WHERE salary > 120) AS s WHERE s.salary < 300;
SELECT d.name, s.n FROM dept d JOIN (SELECT name AS n, dept_id AS di FROM emp WHERE salary >= 150) AS s ON s.di = d.id;
SELECT d.name, s.c FROM dept d JOIN (SELECT dept_id, count(*) AS c FROM emp GROUP BY dept_id) AS s ON s.dept_id = d.id;
SELECT d.name, s.n FROM dept d LEFT JOIN (SELECT name AS n, dept_id FROM emp WHERE salary > 150) AS s ON s.dept_id = d.id;
