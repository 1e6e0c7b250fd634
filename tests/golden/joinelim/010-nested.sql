-- Every SELECT core: subqueries, FROM-item subqueries and CTE bodies.
WITH x AS (SELECT e.name FROM emp e LEFT JOIN dept d ON d.id = e.dept_id) SELECT * FROM x;
SELECT s.name FROM (SELECT e.name FROM emp e JOIN dept d ON e.dept_id = d.id WHERE d.id = e.dept_id) AS s;
SELECT name FROM dept WHERE id IN (SELECT d.id FROM dept d JOIN project p ON p.dept_id = d.id GROUP BY d.id HAVING count(*) > 1);
