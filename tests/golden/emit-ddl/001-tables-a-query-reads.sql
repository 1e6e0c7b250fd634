-- The ddl emitter: the tables a query reads, and those their foreign
-- keys reference, referenced tables first; nothing else.
SELECT name FROM dept;
SELECT e.name, d.name FROM emp e JOIN dept d ON d.id = e.dept_id;
SELECT title FROM proj WHERE pid IN (SELECT pid FROM works WHERE hours > 10);
WITH t AS (SELECT emp_id FROM works) SELECT count(*) FROM t;
SELECT 1;
