-- numeric-text-order (schema part): a TEXT column ordered against a string
-- that looks like a number compares as text.
SELECT name FROM emp WHERE grade > '9'; -- expect: numeric-text-order
SELECT name FROM emp WHERE grade BETWEEN '2' AND '10'; -- expect: numeric-text-order, unsat-or-tautology
-- not flagged
SELECT name FROM emp WHERE grade = '9';
SELECT name FROM emp WHERE code > 'B';
SELECT name FROM emp WHERE CAST(grade AS INTEGER) > 9;
SELECT name FROM emp WHERE salary > '9';
