SELECT name, (SELECT d.name FROM dept d WHERE d.id = e.dept_id) AS dname FROM emp e;
SELECT name FROM emp e WHERE EXISTS (SELECT 1 FROM works w WHERE w.emp_id = e.id);
SELECT name FROM emp WHERE dept_id NOT IN (SELECT id FROM dept) OR salary > (SELECT avg(salary) FROM emp);
SELECT d.name FROM dept d WHERE EXISTS (
  SELECT 1 FROM emp e WHERE e.dept_id = d.id AND EXISTS (
    SELECT 1 FROM proj p WHERE p.dept_id = d.id AND p.cost > e.salary));
SELECT dept_id, count(*) FROM emp e GROUP BY dept_id
HAVING count(*) >= (SELECT count(*) FROM proj p WHERE p.dept_id = e.dept_id);
SELECT name, pay FROM rich WHERE pay > 2000;
SELECT s.emp_name, t.n FROM staff s JOIN dept_stats t ON t.dept = 1;
SELECT * FROM (SELECT * FROM (SELECT id, name FROM dept) AS inner1) AS outer1;
