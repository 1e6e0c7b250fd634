-- Scalar subqueries: one row guaranteed (aggregate, LIMIT 1) or grouped
-- by the correlation when the aggregate is NULL on no rows.
SELECT name FROM emp WHERE salary = (SELECT max(salary) FROM emp);
SELECT name FROM emp WHERE id = (SELECT lead FROM project ORDER BY budget DESC LIMIT 1);
SELECT name FROM emp e WHERE salary = (SELECT max(salary) FROM emp x WHERE x.dept_id = e.dept_id);
SELECT name FROM emp e WHERE 2 > (SELECT count(*) FROM emp x WHERE x.dept_id = e.dept_id);
SELECT name FROM emp WHERE dept_id = (SELECT id FROM dept WHERE city IS NOT NULL);
