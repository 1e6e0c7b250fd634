-- + - * / %: INTEGER op INTEGER is INTEGER, a REAL operand makes REAL, TEXT,
-- BLOB and NUMERIC operands give NUMERIC (converted at run time).
SELECT age + 1 AS i1, id * id AS i2, age * 1.0 AS r1, salary + age AS r2, salary - id AS r3 FROM emp;
SELECT name + 1 AS t1, '3' + '4' AS t2, hired + 0 AS n1, -name AS neg_text, +name AS plus_text FROM emp;
-- Division and modulo by zero are NULL, so / and % are nullable.
SELECT id / 2 AS q, id / id AS qq, 5 / 2 AS lit, 5.0 / 2 AS rq, id % 3 AS m, salary % 2 AS rm, id / 0 AS by_zero FROM emp;
-- Bitwise operators are always INTEGER.
SELECT id & 1 AS band, age | id AS bor, ~id AS bnot, id << 2 AS shl, salary >> 1 AS shr, name & 1 AS tband FROM emp;
