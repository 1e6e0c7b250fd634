-- affinity-mismatch: TEXT against numbers where SQLite's affinity rules
-- make the comparison never true, or textual.
SELECT name FROM emp WHERE strftime('%Y', hired) = 2019; -- expect: affinity-mismatch
SELECT name FROM emp WHERE substr(code, 2) > 1; -- expect: affinity-mismatch
SELECT name FROM emp WHERE grade > 9; -- expect: affinity-mismatch
SELECT name FROM emp WHERE grade BETWEEN 2 AND 10; -- expect: affinity-mismatch, unsat-or-tautology
SELECT name FROM emp WHERE salary = 'high'; -- expect: affinity-mismatch
SELECT name FROM emp WHERE bonus < 'abc'; -- expect: affinity-mismatch
-- not flagged
SELECT name FROM emp WHERE strftime('%Y', hired) = '2019';
SELECT name FROM emp WHERE CAST(strftime('%Y', hired) AS INTEGER) = 2019;
SELECT name FROM emp WHERE grade = 9;
SELECT name FROM emp WHERE CAST(grade AS INTEGER) > 9;
SELECT name FROM emp WHERE salary = '4000';
SELECT name FROM emp WHERE hired > '2020-01-01';
