-- Aggregates without GROUP BY return one row even on an empty table:
-- COUNT is never NULL, SUM/MIN/MAX/AVG/GROUP_CONCAT are NULL there, TOTAL is
-- 0.0.  SUM keeps INTEGER or REAL; AVG and TOTAL are REAL.
SELECT count(*) AS c, count(bonus) AS cb, count(DISTINCT age) AS cd FROM emp;
SELECT sum(age) AS si, sum(salary) AS sr, sum(hired) AS sn, sum(name) AS st FROM emp;
SELECT avg(age) AS a, total(age) AS ti, total(bonus) AS tr FROM emp;
SELECT min(age) AS mi, max(name) AS mx, min(salary) AS ms, max(id) AS mid FROM emp;
SELECT group_concat(name) AS g1, group_concat(age, ';') AS g2 FROM emp;
SELECT count(*) FILTER (WHERE age > 30) AS cf, sum(age) FILTER (WHERE age > 30) AS sf FROM emp;
SELECT sum(1) AS s1, sum(1.5) AS s2, avg(1) AS a1, count(NULL) AS c0, sum(NULL) AS sn, max(NULL) AS mn FROM emp;
