SELECT e.name, d.name FROM emp e JOIN dept d ON d.id = e.dept_id;
SELECT e.name, d.name FROM emp e LEFT JOIN dept d ON d.id = e.dept_id AND d.floor > 1;
SELECT e.name, d.name FROM emp e RIGHT JOIN dept d ON d.id = e.dept_id;
SELECT e.name, d.name FROM emp e FULL JOIN dept d ON d.id = e.dept_id;
SELECT e.name, d.name FROM emp e, dept d WHERE d.id = e.dept_id;
SELECT * FROM emp NATURAL JOIN dept;
SELECT * FROM works JOIN proj USING (pid);
SELECT * FROM emp FULL JOIN dept USING (id);
SELECT x.name, d.name, e.name FROM emp e JOIN (dept d JOIN emp x ON x.dept_id = d.id) ON d.id = e.dept_id;
