-- CAST gives the class and the affinity of its type name (by the five rules);
-- it is NULL only when its operand is.
SELECT CAST(name AS INTEGER) AS i, CAST(name AS REAL) AS r, CAST(age AS TEXT) AS t,
       CAST(age AS BLOB) AS b, CAST(name AS NUMERIC) AS n FROM emp;
SELECT CAST(salary AS VARCHAR(10)) AS v, CAST(age AS "FLOATING POINT") AS fp,
       CAST(name AS DOUBLE PRECISION) AS dp, CAST(name AS DATETIME) AS dt,
       CAST(name AS BOOLEAN) AS bo FROM emp;
SELECT CAST(NULL AS INTEGER) AS null_int, CAST('12abc' AS INTEGER) AS lit FROM emp;
