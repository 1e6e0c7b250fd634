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
-- a LEFT JOIN whose missing row makes the argument NULL matched in every row
-- the sum counts, so its ON holds both ways: each assignment is seen once
SELECT d.id, sum(a.hours) FROM dept AS d LEFT JOIN emp AS e ON e.dept_id = d.id LEFT JOIN assignment AS a ON a.emp_id = e.id GROUP BY d.id;
-- but another LEFT JOIN still repeats the counted rows
SELECT e.id, sum(a.hours) FROM emp AS e LEFT JOIN assignment AS a ON a.emp_id = e.id LEFT JOIN project AS p ON p.dept_id = e.dept_id GROUP BY e.id; -- expect: fanout-aggregate
