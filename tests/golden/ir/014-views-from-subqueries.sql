-- Views expand in place ("project $id view NAME AS alias"); subqueries in
-- FROM are "project $id subquery AS alias".
SELECT name, pay FROM rich WHERE pay > 2000;
SELECT s.emp_name, t.n FROM staff s JOIN dept_stats t ON t.dept = 1;
SELECT x.dept_id, x.total FROM (SELECT dept_id, sum(salary) AS total FROM emp GROUP BY dept_id) AS x
WHERE x.total > 1000;
SELECT * FROM (SELECT * FROM (SELECT id, name FROM dept) AS inner1) AS outer1;
