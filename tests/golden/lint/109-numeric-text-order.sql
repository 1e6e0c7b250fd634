-- numeric-text-order (schema part): without the data, a TEXT column
-- between number-like strings of different lengths is the one sure case.
SELECT name FROM emp WHERE grade BETWEEN '2' AND '10'; -- expect: numeric-text-order, unsat-or-tautology
SELECT name FROM emp WHERE grade BETWEEN '5' AND '15'; -- expect: numeric-text-order, unsat-or-tautology
SELECT name FROM emp WHERE grade BETWEEN '-1' AND '-5'; -- expect: numeric-text-order
-- not flagged: same lengths compare as numbers do; one bound says nothing
-- about the column's values (the data part decides, with a database)
SELECT name FROM emp WHERE grade BETWEEN '10' AND '20';
SELECT name FROM emp WHERE grade > '9';
SELECT name FROM emp WHERE grade = '9';
SELECT name FROM emp WHERE code BETWEEN 'A' AND 'C';
SELECT name FROM emp WHERE CAST(grade AS INTEGER) BETWEEN 2 AND 10;
