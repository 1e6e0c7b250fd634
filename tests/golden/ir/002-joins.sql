-- join kinds: inner, left, right, full, cross, and a comma (a cross join
-- whose condition stays in WHERE).
SELECT e.name, d.name FROM emp e JOIN dept d ON d.id = e.dept_id;
SELECT e.name, d.name FROM emp e LEFT JOIN dept d ON d.id = e.dept_id AND d.floor > 1;
SELECT e.name, d.name FROM emp e RIGHT JOIN dept d ON d.id = e.dept_id;
SELECT e.name, d.name FROM emp e FULL OUTER JOIN dept d ON d.id = e.dept_id;
SELECT e.name, d.name FROM emp e CROSS JOIN dept d;
SELECT e.name, d.name FROM emp e, dept d WHERE d.id = e.dept_id;
