-- Ranking functions are INTEGER (percent_rank, cume_dist REAL) and never
-- NULL; lag/lead/first_value/last_value/nth_value may be NULL; aggregates
-- over a window type as aggregates.
SELECT row_number() OVER w AS rn, rank() OVER w AS rk, dense_rank() OVER w AS dr,
       percent_rank() OVER w AS pr, cume_dist() OVER w AS cd, ntile(3) OVER w AS nt
FROM emp WINDOW w AS (ORDER BY id);
SELECT lag(salary) OVER w AS lg, lead(name) OVER w AS ld, first_value(name) OVER w AS fv,
       last_value(salary) OVER w AS lv, nth_value(name, 2) OVER w AS nv
FROM emp WINDOW w AS (ORDER BY id);
-- The default of lag/lead is returned as is, with its own class.
SELECT lag(salary, 1, 0) OVER (ORDER BY id) AS lg0, lead(age, 1, 'none') OVER (ORDER BY id) AS ldn FROM emp;
SELECT count(*) OVER w AS c, sum(salary) OVER w AS s, avg(age) OVER w AS a, total(age) OVER w AS t,
       min(id) OVER (PARTITION BY dept_id) AS mn
FROM emp WINDOW w AS (ORDER BY id);
SELECT sum(salary) OVER (ORDER BY id ROWS BETWEEN 1 FOLLOWING AND 2 FOLLOWING) AS ahead FROM emp;
