-- gold-empty-result: no rows, or only NULLs, on the database.
SELECT name FROM emp WHERE salary > 9000; -- expect: gold-empty-result
SELECT max(salary) FROM emp WHERE hired > '2030-01-01'; -- expect: gold-empty-result
-- not flagged
SELECT count(*) FROM emp WHERE salary > 9000;
SELECT name FROM emp WHERE salary > 4000;
SELECT tag FROM emp WHERE id = 4 OR id = 5;
