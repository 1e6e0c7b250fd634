-- The SQL emitted from the IR: columns qualified, aliases made unique,
-- result names kept with AS where they would change.
SELECT name, salary * 12 AS yearly FROM emp WHERE dept_id = 1 AND salary > 1000;
SELECT * FROM dept;
SELECT d.*, rowid FROM dept AS d WHERE d.budget IS NOT NULL;
SELECT upper(name), length(name) FROM emp;
