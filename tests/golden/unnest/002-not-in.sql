-- NOT IN becomes an anti-join only when neither side can be NULL.
SELECT name FROM dept WHERE id NOT IN (SELECT dept_id FROM project);
SELECT name FROM emp WHERE id NOT IN (SELECT lead FROM project);
