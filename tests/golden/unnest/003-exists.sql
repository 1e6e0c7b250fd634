-- Correlated EXISTS / NOT EXISTS: the correlation moves into the join.
SELECT name FROM dept d WHERE EXISTS (SELECT 1 FROM emp e WHERE e.dept_id = d.id AND e.salary > 150);
SELECT name FROM dept d WHERE NOT EXISTS (SELECT 1 FROM emp e WHERE e.dept_id = d.id);
SELECT name FROM emp e WHERE EXISTS (SELECT count(*) FROM project p WHERE p.lead = e.id HAVING count(*) > 0);
