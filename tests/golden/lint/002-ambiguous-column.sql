-- ambiguous-column: a bare name that two tables in scope have.
SELECT name FROM emp JOIN dept ON emp.dept_id = dept.id; -- expect: ambiguous-column
SELECT dept_id FROM emp JOIN project ON emp.id = project.pid; -- expect: ambiguous-column
-- not flagged
SELECT emp.name FROM emp JOIN dept ON emp.dept_id = dept.id;
SELECT pid FROM emp JOIN project ON emp.dept_id = project.dept_id;
SELECT dept_id FROM emp JOIN project USING (dept_id);
