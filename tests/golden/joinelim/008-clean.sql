-- Clean queries: every join is used, on a key, with no repeated condition.
SELECT name FROM emp;
SELECT e.name, d.name FROM emp e JOIN dept d ON d.id = e.dept_id;
SELECT p.pid, e.name, d.city FROM project p JOIN emp e ON e.id = p.lead LEFT JOIN dept d ON d.id = p.dept_id WHERE d.city IS NOT NULL;
