-- RIGHT JOIN makes every table to its left nullable; FULL JOIN both sides.
SELECT e.name, d.name FROM emp e RIGHT JOIN dept d ON d.id = e.dept_id;
SELECT e.name, d.name, p.title FROM emp e JOIN dept d ON d.id = e.dept_id RIGHT JOIN proj p ON p.dept_id = d.id;
SELECT e.name, d.name FROM emp e FULL JOIN dept d ON d.id = e.dept_id;
-- USING: RIGHT JOIN takes the right column, FULL JOIN coalesces both.
SELECT id, emp.name, dept.name FROM emp RIGHT JOIN dept USING (id);
SELECT id, emp.name, dept.name FROM emp FULL JOIN dept USING (id);
SELECT id, name FROM emp NATURAL FULL JOIN dept;
-- A nested join on the right of a LEFT JOIN: all of it is nullable.
SELECT e.name, d.name AS dname, p.title FROM emp e LEFT JOIN (dept d JOIN proj p ON p.dept_id = d.id) ON d.id = e.dept_id;
-- A LEFT JOIN inside a nested join: p stays nullable.
SELECT p.title, p.pid FROM emp e JOIN (dept d LEFT JOIN proj p ON p.dept_id = d.id) ON d.id = e.dept_id;
