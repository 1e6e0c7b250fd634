SELECT name, row_number() OVER (PARTITION BY dept_id ORDER BY salary DESC, id) AS rn FROM emp;
SELECT name, sum(salary) OVER w AS running, lag(name) OVER w AS prev
FROM emp WINDOW w AS (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW);
SELECT dept_id, count(*) AS n, rank() OVER (ORDER BY count(*) DESC) AS r FROM emp GROUP BY dept_id;
SELECT name, count(*) FILTER (WHERE age > 30) OVER (PARTITION BY dept_id) AS seniors FROM emp;
SELECT name, sum(salary) OVER (PARTITION BY dept_id ORDER BY id RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE CURRENT ROW) AS s FROM emp;
