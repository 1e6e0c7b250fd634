WITH big AS (SELECT id, name FROM emp WHERE salary > 2000)
SELECT b.name, d.name FROM big b JOIN dept d ON d.id = b.id;
WITH a(x) AS (SELECT 1), b AS (SELECT x + 1 AS y FROM a)
SELECT a.x, b.y FROM a, b, a AS a2;
WITH RECURSIVE boss(id, name, depth) AS (
  SELECT id, name, 0 FROM emp WHERE manager_id IS NULL
  UNION ALL
  SELECT e.id, e.name, b.depth + 1 FROM emp e JOIN boss b ON e.manager_id = b.id)
SELECT name, depth FROM boss ORDER BY depth, name;
WITH m AS MATERIALIZED (SELECT max(salary) AS top FROM emp) SELECT top FROM m;
