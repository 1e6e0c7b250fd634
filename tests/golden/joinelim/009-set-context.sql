-- The copies a LEFT JOIN adds do not matter under DISTINCT or in the body
-- of EXISTS and IN; they do under an aggregate or a LIMIT.
SELECT DISTINCT d.name FROM dept d LEFT JOIN emp e ON e.dept_id = d.id;
SELECT name FROM dept d WHERE EXISTS (SELECT 1 FROM project p LEFT JOIN emp e ON e.dept_id = p.dept_id WHERE p.dept_id = d.id);
SELECT name FROM emp WHERE id IN (SELECT p.lead FROM project p LEFT JOIN note n ON n.pid = p.pid);
SELECT DISTINCT count(*) FROM dept d LEFT JOIN emp e ON e.dept_id = d.id;
SELECT name FROM emp WHERE id IN (SELECT p.lead FROM project p LEFT JOIN note n ON n.pid = p.pid LIMIT 2 OFFSET 1);
SELECT d.name FROM dept d LEFT JOIN emp e ON e.dept_id = d.id UNION SELECT name FROM emp;
SELECT d.name FROM dept d LEFT JOIN emp e ON e.dept_id = d.id UNION ALL SELECT name FROM emp;
