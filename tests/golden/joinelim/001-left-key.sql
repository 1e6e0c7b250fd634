-- LEFT JOINs that bind a key of a table nothing else reads can go,
-- exactly: each row matches at most one row and is kept either way.
SELECT e.name FROM emp e LEFT JOIN dept d ON d.id = e.dept_id;
SELECT e.name FROM emp e LEFT JOIN dept d ON e.dept_id = d.id AND d.city = 'Paris';
SELECT n.body FROM note n LEFT JOIN pair p ON p.a = n.nid AND p.b = 1;
SELECT e.name FROM emp e LEFT JOIN word w ON w.rowid = e.id;
-- Read elsewhere (WHERE, a subquery): kept.
SELECT e.name FROM emp e LEFT JOIN dept d ON d.id = e.dept_id WHERE d.city IS NULL;
SELECT e.name, (SELECT count(*) FROM project p WHERE p.dept_id = d.id) FROM emp e LEFT JOIN dept d ON d.id = e.dept_id;
