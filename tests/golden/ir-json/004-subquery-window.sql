-- Subquery expressions are listed under "subqueries" of the relation that
-- uses them; window calls carry their OVER clause; an error statement is
-- left out (exit 1).
SELECT name, rank() OVER (PARTITION BY dept_id ORDER BY salary DESC) AS r,
       (SELECT d.name FROM dept d WHERE d.id = e.dept_id) AS dname
FROM emp e WHERE EXISTS (SELECT 1 FROM works w WHERE w.emp_id = e.id);
SELECT nosuch FROM emp;
