-- A statement with an error prints nothing (its diagnostic goes to stderr
-- and the exit status is 1); the statements around it still print.
SELECT name FROM dept;
SELECT nosuch FROM emp;
SELECT e.salary FROM emp e JOIN dept d ON d.idd = e.dept_id;
SELECT 1;
