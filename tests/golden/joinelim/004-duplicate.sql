-- The same equality twice, in either orientation.
SELECT e.name FROM emp e JOIN dept d ON e.dept_id = d.id WHERE d.id = e.dept_id;
SELECT e.name FROM emp e JOIN dept d ON e.dept_id = d.id AND e.dept_id = d.id;
SELECT e.name, d.city FROM emp e LEFT JOIN dept d ON e.dept_id = d.id AND d.id = e.dept_id;
