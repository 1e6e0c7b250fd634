-- join-not-on-key: equalities between columns that are in no key and that
-- no foreign key (declared, or by name) relates.
SELECT a.name FROM emp AS a JOIN emp AS b ON a.tag = b.tag; -- expect: join-not-on-key
SELECT e.name FROM emp AS e JOIN project AS p ON p.budget = e.salary; -- expect: join-not-on-key
-- not flagged
SELECT e.name FROM emp AS e JOIN dept AS d ON d.id = e.dept_id;
SELECT e.name FROM emp AS e JOIN project AS p ON p.dept_id = e.dept_id;
SELECT e.name FROM emp AS e JOIN note AS n ON n.emp_id = e.id;
SELECT a.name FROM emp AS a JOIN emp AS b ON b.id = a.boss;
