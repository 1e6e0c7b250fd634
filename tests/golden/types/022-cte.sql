-- A CTE's columns have the types of its body; a LEFT JOIN to it makes them
-- nullable; a recursive CTE's columns are those of its first SELECT.
WITH c AS (SELECT dept_id, count(*) AS n, max(bonus) AS mb FROM emp GROUP BY dept_id)
SELECT d.name, c.n, c.mb, c.dept_id FROM dept d LEFT JOIN c ON c.dept_id = d.id;
WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 5)
SELECT i, i * 1.5 AS half FROM r;
WITH c(x, y) AS (VALUES (1, 'a')) SELECT x, y FROM c;
WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x || 'a' FROM r WHERE length(x) < 3)
SELECT x FROM r;
WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT CASE WHEN x < 3 THEN x + 1 END FROM r WHERE x IS NOT NULL)
SELECT x FROM r;
