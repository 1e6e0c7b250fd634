-- order-limit-ties (schema part): ORDER BY keys that rows can share.
SELECT name FROM emp ORDER BY salary DESC LIMIT 1; -- expect: order-limit-ties
SELECT dept_id, count(*) FROM emp GROUP BY dept_id ORDER BY count(*) DESC LIMIT 1; -- expect: order-limit-ties
SELECT e.name FROM emp AS e JOIN note AS n ON n.emp_id = e.id ORDER BY e.id LIMIT 1; -- expect: order-limit-ties
SELECT name FROM dept WHERE id = (SELECT dept_id FROM project ORDER BY budget LIMIT 1); -- expect: order-limit-ties
-- not flagged
SELECT name FROM emp ORDER BY salary DESC, id LIMIT 1;
SELECT name FROM dept ORDER BY name LIMIT 2;
SELECT dept_id, count(*) FROM emp GROUP BY dept_id ORDER BY dept_id LIMIT 1;
SELECT e.name FROM emp AS e JOIN dept AS d ON d.id = e.dept_id ORDER BY e.id LIMIT 1;
SELECT a.hours FROM assignment AS a ORDER BY a.emp_id, a.pid LIMIT 1;
SELECT name FROM emp WHERE salary = 4000 ORDER BY salary LIMIT 1 OFFSET 0; -- expect: order-limit-ties
SELECT max(salary) FROM emp ORDER BY 1 LIMIT 1;
