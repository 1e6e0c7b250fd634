-- unused-cte: a CTE that nothing reads.
WITH rich AS (SELECT id FROM emp WHERE salary > 4000) SELECT name FROM emp; -- expect: unused-cte
WITH a AS (SELECT 1 AS x), b AS (SELECT x FROM a) SELECT x FROM a; -- expect: unused-cte
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3) SELECT 1; -- expect: unused-cte
-- not flagged
WITH rich AS (SELECT id FROM emp WHERE salary > 4000) SELECT name FROM emp WHERE id IN (SELECT id FROM rich);
WITH a AS (SELECT 1 AS x), b AS (SELECT x FROM a) SELECT x FROM b;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3) SELECT i FROM n;
