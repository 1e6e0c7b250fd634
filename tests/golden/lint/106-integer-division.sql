-- integer-division: a ratio of two integers truncates.
SELECT sum(salary) / count(id) FROM emp; -- expect: integer-division
SELECT count(CASE WHEN tag = 'x' THEN 1 END) * 100 / count(*) FROM emp; -- expect: integer-division
SELECT name FROM dept WHERE budget / (SELECT count(*) FROM emp) > 100; -- expect: integer-division
-- not flagged
SELECT CAST(sum(salary) AS REAL) / count(id) FROM emp;
SELECT sum(salary) * 1.0 / count(id) FROM emp;
SELECT salary / 100 FROM emp;
SELECT CAST(salary / dept_id AS INTEGER) FROM emp;
SELECT avg(salary) / count(*) FROM emp;
