-- missing-join-predicate: tables that no condition connects.
SELECT e.name, d.name FROM emp AS e, dept AS d; -- expect: missing-join-predicate
SELECT e.name FROM emp AS e CROSS JOIN project AS p WHERE p.budget > 100; -- expect: missing-join-predicate
SELECT e.name FROM emp AS e JOIN dept AS d WHERE e.salary > 10; -- expect: missing-join-predicate
-- not flagged
SELECT e.name, d.name FROM emp AS e, dept AS d WHERE e.dept_id = d.id;
SELECT e.name FROM emp AS e, dept AS d WHERE d.id = 1;
SELECT e.name FROM emp AS e, (SELECT max(salary) AS m FROM emp) AS x WHERE e.salary = x.m;
SELECT e.name FROM emp AS e JOIN (SELECT avg(budget) AS b FROM dept) AS x;
