-- fanout-aggregate: COUNT, SUM, AVG of a table's rows over a join that
-- repeats them.
SELECT count(d.id) FROM dept AS d JOIN emp AS e ON e.dept_id = d.id WHERE e.salary > 3000; -- expect: fanout-aggregate
SELECT sum(d.budget) FROM dept AS d JOIN project AS p ON p.dept_id = d.id; -- expect: fanout-aggregate
SELECT d.name, avg(d.budget) FROM dept AS d JOIN emp AS e ON e.dept_id = d.id GROUP BY e.tag; -- expect: fanout-aggregate, bare-column-in-aggregate
-- not flagged
SELECT count(DISTINCT d.id) FROM dept AS d JOIN emp AS e ON e.dept_id = d.id;
SELECT count(e.id) FROM dept AS d JOIN emp AS e ON e.dept_id = d.id;
SELECT d.name, count(e.id) FROM dept AS d JOIN emp AS e ON e.dept_id = d.id GROUP BY d.id;
SELECT count(*) FROM dept AS d JOIN emp AS e ON e.dept_id = d.id;
SELECT sum(d.budget) FROM dept AS d JOIN emp AS e ON e.dept_id = d.id GROUP BY e.id;
SELECT sum(a.hours) FROM assignment AS a JOIN emp AS e ON e.id = a.emp_id JOIN project AS p ON p.pid = a.pid WHERE e.salary > p.budget;
