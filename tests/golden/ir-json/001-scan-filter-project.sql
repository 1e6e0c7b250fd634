-- JSON: one object per statement (file, line, ir); every relation has kind
-- and id, FROM items an alias, producers a column list with types.
SELECT name, salary * 12 AS yearly FROM emp WHERE dept_id = 1;
