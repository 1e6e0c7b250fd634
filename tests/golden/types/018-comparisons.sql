-- Comparisons, LIKE, GLOB, BETWEEN, IN lists and logic are INTEGER 0/1,
-- NULL when an operand is; IS / IS NOT / ISNULL / NOTNULL never are.
SELECT age > 1 AS gt, name = 'x' AS eq, salary < bonus AS lt, age BETWEEN 1 AND 2 AS btw FROM emp;
SELECT age IS NULL AS isn, age IS NOT NULL AS isnn, age IS 1 AS is1, name IS NOT name AS isnot,
       age ISNULL AS is_null, age NOTNULL AS not_null FROM emp;
SELECT name LIKE 'a%' AS lk, name GLOB 'a*' AS gl, name LIKE NULL AS lkn,
       name LIKE 'a' ESCAPE '\' AS lke FROM emp;
SELECT age IN (1, 2) AS in1, name NOT IN ('a') AS in2, id IN (1, NULL) AS in3, id IN () AS in4 FROM emp;
SELECT NOT age AS n, age AND id AS a, age OR 1 AS o, 0 AND age AS folded,
       salary > 0 AND id > 0 AS both_notnull FROM emp;
SELECT name COLLATE NOCASE AS nc, name COLLATE NOCASE = 'ANN' AS nceq FROM emp;
