-- Join query graphs: a path, a triangle, a self-join, a query with none.
SELECT e.name FROM emp e JOIN dept d ON d.id = e.dept_id JOIN project p ON p.dept_id = d.id;
SELECT e.name FROM emp e, dept d, project p WHERE d.id = e.dept_id AND p.dept_id = d.id AND p.lead = e.id;
SELECT a.name, b.name FROM emp a JOIN emp b ON b.id = a.boss;
SELECT name FROM emp WHERE tag = 'a' OR id IN (SELECT lead FROM project);
WITH x AS (SELECT 1) SELECT * FROM x;
