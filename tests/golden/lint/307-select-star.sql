-- select-star: * in the statement's result.
SELECT * FROM emp; -- expect: select-star
SELECT e.* FROM emp AS e JOIN dept AS d ON d.id = e.dept_id; -- expect: select-star
SELECT id FROM emp UNION SELECT * FROM (SELECT id FROM dept); -- expect: select-star
-- not flagged
SELECT id, name FROM emp;
SELECT count(*) FROM emp;
SELECT name FROM emp AS e WHERE EXISTS (SELECT * FROM note AS n WHERE n.emp_id = e.id);
SELECT x.id FROM (SELECT * FROM emp) AS x;
