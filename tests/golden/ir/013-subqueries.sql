-- Subquery expressions: (subquery $id), EXISTS $id, x IN $id; their trees
-- follow the relation that uses them, with the outer columns they read.
SELECT name, (SELECT d.name FROM dept d WHERE d.id = e.dept_id) AS dname FROM emp e;
SELECT name FROM emp e WHERE EXISTS (SELECT 1 FROM works w WHERE w.emp_id = e.id);
SELECT name FROM emp WHERE dept_id IN (SELECT id FROM dept WHERE floor > 1);
SELECT name FROM emp WHERE dept_id NOT IN (SELECT id FROM dept) OR salary > (SELECT avg(salary) FROM emp);
-- Correlated two levels up.
SELECT d.name FROM dept d WHERE EXISTS (
  SELECT 1 FROM emp e WHERE e.dept_id = d.id AND EXISTS (
    SELECT 1 FROM proj p WHERE p.dept_id = d.id AND p.cost > e.salary));
SELECT dept_id, count(*) FROM emp e GROUP BY dept_id
HAVING count(*) > (SELECT count(*) FROM proj p WHERE p.dept_id = e.dept_id);
