-- IN becomes a semi-join (written back as EXISTS); the join query graph
-- then has both tables.
SELECT name FROM emp WHERE dept_id IN (SELECT id FROM dept WHERE city = 'Paris');
SELECT name FROM emp WHERE (dept_id, tag) IN (SELECT dept_id, tag FROM emp WHERE salary > 100);
