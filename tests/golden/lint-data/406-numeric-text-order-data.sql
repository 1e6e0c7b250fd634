-- numeric-text-order (data part): ORDER BY, MIN, MAX or a comparison on a
-- TEXT column whose values are numbers.
SELECT name FROM emp ORDER BY grade DESC LIMIT 1; -- expect: numeric-text-order
SELECT max(grade) FROM emp; -- expect: numeric-text-order
SELECT name FROM emp WHERE grade > code; -- expect: numeric-text-order, gold-empty-result
-- not flagged: not numbers, or numbers of one length (text order is numeric order)
SELECT name FROM emp ORDER BY code LIMIT 1;
SELECT max(name) FROM emp;
SELECT name FROM emp ORDER BY CAST(grade AS INTEGER) DESC LIMIT 1;
SELECT name FROM dept ORDER BY zip DESC LIMIT 1;
SELECT max(zip) FROM dept;
SELECT name FROM dept WHERE zip > 70000;
SELECT name FROM emp WHERE grade > 9; -- expect: affinity-mismatch, gold-empty-result
