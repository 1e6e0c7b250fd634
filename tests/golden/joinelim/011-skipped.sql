-- Not analysed: a core with a RIGHT or FULL join (inner conditions do not
-- hold on every row), joins of subqueries and views.
SELECT e.name FROM emp e JOIN dept d ON d.id = e.dept_id RIGHT JOIN project p ON p.dept_id = d.id AND p.dept_id = e.dept_id;
SELECT e.name FROM emp e FULL JOIN dept d ON d.id = e.dept_id;
SELECT e.name FROM emp e LEFT JOIN (SELECT id FROM dept) AS d ON d.id = e.dept_id;
