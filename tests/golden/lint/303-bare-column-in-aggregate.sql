-- bare-column-in-aggregate: a column neither grouped nor aggregated.
SELECT tag, count(*) FROM emp GROUP BY dept_id; -- expect: bare-column-in-aggregate
SELECT name, count(*) FROM emp; -- expect: bare-column-in-aggregate
SELECT d.name, count(*) FROM dept AS d JOIN emp AS e ON e.dept_id = d.id GROUP BY e.tag; -- expect: bare-column-in-aggregate
SELECT name, max(salary), min(salary) FROM emp; -- expect: bare-column-in-aggregate
-- not flagged
SELECT d.name, count(*) FROM dept AS d JOIN emp AS e ON e.dept_id = d.id GROUP BY d.id;
SELECT name, max(salary) FROM emp;
SELECT dept_id, count(*) FROM emp GROUP BY dept_id;
SELECT e.name, count(*) FROM emp AS e JOIN note AS n ON n.emp_id = e.id GROUP BY n.emp_id;
SELECT 'all', count(*) FROM emp;
