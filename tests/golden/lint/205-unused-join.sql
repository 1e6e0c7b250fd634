-- unused-join: a joined table that contributes nothing.
SELECT e.name FROM emp AS e LEFT JOIN dept AS d ON d.id = e.dept_id; -- expect: unused-join
SELECT p.title FROM project AS p JOIN dept AS d ON d.id = p.dept_id; -- expect: unused-join
SELECT DISTINCT e.name FROM emp AS e LEFT JOIN note AS n ON n.emp_id = e.id; -- expect: unused-join
-- not flagged
SELECT e.name, d.name FROM emp AS e LEFT JOIN dept AS d ON d.id = e.dept_id;
SELECT e.name FROM emp AS e LEFT JOIN note AS n ON n.emp_id = e.id;
SELECT e.name FROM emp AS e JOIN dept AS d ON d.id = e.dept_id;
SELECT e.name FROM emp AS e LEFT JOIN dept AS d ON d.id = e.dept_id WHERE d.city IS NULL;
