-- unsat-or-tautology: conditions always false or always true; bounds
-- another bound implies.
SELECT name FROM emp WHERE salary > 5000 AND salary < 3000; -- expect: unsat-or-tautology
SELECT name FROM emp WHERE tag = 'x' AND tag = 'y'; -- expect: unsat-or-tautology
SELECT name FROM emp WHERE salary BETWEEN 400 AND 100; -- expect: unsat-or-tautology
SELECT name FROM emp WHERE salary > 10 AND salary > 5; -- expect: unsat-or-tautology
SELECT name FROM emp WHERE 1 = 0; -- expect: unsat-or-tautology
SELECT name FROM emp WHERE salary = 4000 AND salary >= 3000; -- expect: unsat-or-tautology
SELECT e.name FROM emp AS e JOIN dept AS d ON d.id = e.dept_id JOIN project AS p ON p.dept_id = d.id AND p.dept_id = e.dept_id; -- expect: unsat-or-tautology
-- not flagged
SELECT name FROM emp WHERE salary > 3000 AND salary < 5000;
SELECT name FROM emp WHERE salary BETWEEN 100 AND 400;
SELECT name FROM emp WHERE tag = 'x' OR tag = 'y';
SELECT name FROM emp WHERE grade > 9 AND grade < 10; -- expect: affinity-mismatch, unsat-or-tautology
SELECT name FROM emp WHERE code COLLATE NOCASE = 'a1' AND code = 'A1';
