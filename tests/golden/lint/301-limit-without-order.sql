-- limit-without-order: LIMIT keeps arbitrary rows without ORDER BY.
SELECT name FROM emp LIMIT 3; -- expect: limit-without-order
SELECT name FROM emp WHERE id = (SELECT emp_id FROM note LIMIT 1); -- expect: limit-without-order
SELECT name FROM emp UNION SELECT name FROM dept LIMIT 2; -- expect: limit-without-order
SELECT city FROM dept WHERE name = 'research' COLLATE NOCASE LIMIT 2; -- expect: limit-without-order
-- not flagged
SELECT city FROM dept WHERE name = 'Research' LIMIT 2;
SELECT name FROM emp ORDER BY id LIMIT 3;
SELECT count(*) FROM emp LIMIT 1;
SELECT name FROM emp WHERE id = 3 LIMIT 1;
SELECT name FROM emp AS e WHERE EXISTS (SELECT 1 FROM note AS n WHERE n.emp_id = e.id LIMIT 1);
SELECT name FROM emp LIMIT -1; -- expect: limit-not-positive
