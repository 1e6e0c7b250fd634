-- scan, filter (WHERE) and project: FROM-item columns print as alias.col,
-- produced columns as $id.index.
SELECT name, salary * 12 AS yearly FROM emp WHERE dept_id = 1 AND salary > 1000;
SELECT * FROM dept;
SELECT d.*, rowid FROM dept AS d WHERE d.budget IS NOT NULL;
