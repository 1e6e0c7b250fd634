-- with (recursive), cteref, setop (left/right) and values rows.
WITH RECURSIVE cnt(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM cnt WHERE n < 3)
SELECT n FROM cnt UNION SELECT column1 FROM (VALUES (7), (8));
