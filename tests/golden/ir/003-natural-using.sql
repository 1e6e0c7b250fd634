-- NATURAL and USING become ON conditions; a parenthesized join used as a
-- FROM item becomes a subquery; three tables make a left-deep tree.
SELECT id, name FROM emp NATURAL JOIN dept;
SELECT emp_id, pid, title FROM works JOIN proj USING (pid);
SELECT e.name, p.title FROM emp e JOIN works w ON w.emp_id = e.id JOIN proj p ON p.pid = w.pid;
SELECT e.name, d.name AS dname, p.title
FROM emp e LEFT JOIN (dept d JOIN proj p ON p.dept_id = d.id) ON d.id = e.dept_id;
