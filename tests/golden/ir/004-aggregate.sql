-- aggregate: one column per key, call and bare column; the project above
-- reads them as $id.index.  DISTINCT and FILTER stay on the call.
SELECT dept_id, count(*) AS n, count(DISTINCT age) AS ages,
       sum(salary) FILTER (WHERE age > 30) AS senior_pay, name
FROM emp GROUP BY dept_id;
-- Without GROUP BY: one row; a bare column next to max() comes from its row.
SELECT max(salary) AS top, name FROM emp;
-- Keys that are expressions and ordinals.
SELECT substr(name, 1, 1) AS initial, age / 10 AS decade, avg(salary) AS pay
FROM emp GROUP BY 1, age / 10;
