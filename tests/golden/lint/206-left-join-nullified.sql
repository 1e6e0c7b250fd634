-- left-join-nullified: a condition after a LEFT JOIN that drops the rows it
-- fills with NULLs.
SELECT e.name FROM emp AS e LEFT JOIN dept AS d ON d.id = e.dept_id WHERE d.city = 'Paris'; -- expect: left-join-nullified
SELECT e.name FROM emp AS e LEFT JOIN note AS n ON n.emp_id = e.id WHERE length(n.body) > 2; -- expect: left-join-nullified
SELECT e.name FROM emp AS e LEFT JOIN dept AS d ON d.id = e.dept_id WHERE NOT d.name IS NULL; -- expect: left-join-nullified
SELECT e.name FROM emp AS e LEFT JOIN dept AS d ON d.id = e.dept_id JOIN project AS p ON p.dept_id = d.id; -- expect: left-join-nullified
-- not flagged
SELECT e.name, d.name FROM emp AS e LEFT JOIN dept AS d ON d.id = e.dept_id AND d.city = 'Paris';
SELECT e.name FROM emp AS e LEFT JOIN dept AS d ON d.id = e.dept_id WHERE d.id IS NULL;
SELECT e.name FROM emp AS e LEFT JOIN dept AS d ON d.id = e.dept_id WHERE d.city = 'Paris' OR d.id IS NULL;
SELECT e.name FROM emp AS e LEFT JOIN dept AS d ON d.id = e.dept_id WHERE coalesce(d.city, 'Paris') = 'Paris';
SELECT e.name, d.name FROM emp AS e LEFT JOIN dept AS d ON d.id = e.dept_id WHERE e.salary > 10;
SELECT e.name FROM emp AS e LEFT JOIN dept AS d ON d.id = e.dept_id WHERE d.id NOT IN (SELECT dept_id FROM project WHERE budget > 1000);
