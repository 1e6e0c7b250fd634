SELECT dept_id, count(*) AS n, count(DISTINCT age) AS ages,
       sum(salary) FILTER (WHERE age > 30) AS senior_pay FROM emp GROUP BY dept_id;
SELECT max(salary) AS top, name FROM emp;
SELECT substr(name, 1, 1) AS initial, avg(salary) FROM emp GROUP BY 1;
SELECT dept_id, count(*) FROM emp GROUP BY dept_id HAVING count(*) > 1 AND max(age) < 60;
SELECT count(*) FROM emp HAVING sum(salary) > 0;
