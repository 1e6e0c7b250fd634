-- An inner join from a NOT NULL foreign key to its key: lossless only if
-- the foreign key holds (SQLite does not enforce it by default).
SELECT p.pid FROM project p JOIN dept d ON d.id = p.dept_id;
SELECT p.pid FROM dept d JOIN project p ON d.id = p.dept_id;
SELECT n.nid, p.budget FROM note n, emp e, project p WHERE e.id = n.emp_id AND p.pid = n.nid;
-- Not lossless: emp.dept_id can be NULL; the condition says more.
SELECT e.name FROM emp e JOIN dept d ON d.id = e.dept_id;
SELECT p.pid FROM project p JOIN dept d ON d.id = p.dept_id AND p.budget > 6;
