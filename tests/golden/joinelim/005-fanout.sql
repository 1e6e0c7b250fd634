-- COUNT, SUM, AVG over a join that can multiply rows.
SELECT d.name, count(*) FROM dept d JOIN emp e ON e.dept_id = d.id GROUP BY d.name;
SELECT sum(d.id) FROM dept d JOIN project p ON p.dept_id = d.id;
SELECT avg(e.salary) FROM emp e CROSS JOIN dept d;
-- Not flagged: one row per match, DISTINCT aggregates, MIN/MAX, grouped by
-- the fanning table's key.
SELECT count(*) FROM emp e JOIN dept d ON d.id = e.dept_id;
SELECT count(DISTINCT d.id), max(e.salary) FROM dept d JOIN emp e ON e.dept_id = d.id;
SELECT e.id, count(*) FROM dept d JOIN emp e ON e.dept_id = d.id GROUP BY e.id;
