-- degenerate-join-condition: a column compared with itself; an ON that
-- reads only one side of its join.
SELECT e.name FROM emp AS e JOIN dept AS d ON d.id = d.id; -- expect: degenerate-join-condition
SELECT e.name FROM emp AS e JOIN dept AS d ON e.dept_id = e.id; -- expect: degenerate-join-condition
SELECT e.name FROM emp AS e LEFT JOIN note AS n ON e.salary > 10; -- expect: degenerate-join-condition
SELECT name FROM emp WHERE id = id; -- expect: degenerate-join-condition
SELECT name FROM emp WHERE id IS id; -- expect: degenerate-join-condition
SELECT name FROM emp WHERE id IS NOT id; -- expect: degenerate-join-condition
-- not flagged
SELECT e.name FROM emp AS e JOIN dept AS d ON d.id = e.dept_id;
SELECT e.name FROM emp AS e JOIN dept AS d ON d.city = 'Paris' WHERE d.id = e.dept_id;
SELECT e.name FROM emp AS e LEFT JOIN note AS n ON n.emp_id = e.id AND e.salary > 10;
SELECT e.name FROM emp AS e JOIN dept AS d USING (id);
SELECT e.name FROM emp AS e JOIN dept AS d ON 1;
