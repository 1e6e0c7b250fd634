-- The right side of a LEFT JOIN becomes nullable, NOT NULL and keys
-- included; the left side keeps its nullability.
SELECT e.name, d.id, d.name, d.budget FROM emp e LEFT JOIN dept d ON d.id = e.dept_id;
-- A later inner join keeps d nullable (squint does not narrow on ON terms).
SELECT e.name, d.name, p.title FROM emp e LEFT JOIN dept d ON d.id = e.dept_id JOIN proj p ON p.dept_id = e.dept_id;
SELECT e.name, d.name, p.title FROM emp e LEFT JOIN dept d ON d.id = e.dept_id LEFT JOIN proj p ON p.dept_id = d.id;
-- USING and NATURAL: the unqualified column is the left one.
SELECT id, emp.name, dept.name FROM emp LEFT JOIN dept USING (id);
SELECT id, name, floor FROM emp NATURAL LEFT JOIN dept;
-- count of a nullable column is still never NULL; max of it is.
SELECT count(d.id) AS n, max(d.floor) AS f FROM emp e LEFT JOIN dept d ON d.id = e.dept_id;
