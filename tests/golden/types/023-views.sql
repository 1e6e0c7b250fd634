-- A view's columns keep the affinity of plain column references, and its
-- expressions' classes; views used on the right of a LEFT JOIN are nullable.
SELECT id, name, pay FROM rich;
SELECT dept, n, top, mean FROM dept_stats;
SELECT emp_name, dept_name FROM staff;
SELECT d.name, r.pay FROM dept d LEFT JOIN rich r ON r.id = d.id;
-- Subqueries in FROM work the same way.
SELECT s.n, s.d FROM (SELECT count(*) AS n, dept_id AS d FROM emp GROUP BY dept_id) s;
SELECT s.m FROM (SELECT max(salary) AS m FROM emp) s;
