-- not-in-nullable: NOT IN over a subquery column that can be NULL.
SELECT name FROM dept WHERE id NOT IN (SELECT dept_id FROM emp); -- expect: not-in-nullable
SELECT name FROM emp WHERE id NOT IN (SELECT boss FROM emp WHERE salary > 10); -- expect: not-in-nullable
-- not flagged
SELECT name FROM dept WHERE id NOT IN (SELECT dept_id FROM project);
SELECT name FROM dept WHERE id NOT IN (SELECT dept_id FROM emp WHERE dept_id IS NOT NULL);
SELECT name FROM dept WHERE id IN (SELECT dept_id FROM emp);
SELECT name FROM dept AS d WHERE NOT EXISTS (SELECT 1 FROM emp AS e WHERE e.dept_id = d.id);
SELECT name FROM dept WHERE id NOT IN (SELECT dept_id FROM emp GROUP BY dept_id HAVING dept_id IS NOT NULL);
