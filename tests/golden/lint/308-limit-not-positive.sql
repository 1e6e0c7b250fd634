-- limit-not-positive: LIMIT 0 (no rows) and a negative LIMIT (no limit).
SELECT name FROM emp ORDER BY id LIMIT 0; -- expect: limit-not-positive
SELECT name FROM emp ORDER BY id LIMIT -1; -- expect: limit-not-positive
SELECT name FROM emp ORDER BY id LIMIT 0 OFFSET 2; -- expect: limit-not-positive
SELECT id FROM emp UNION SELECT id FROM dept ORDER BY 1 LIMIT 0; -- expect: limit-not-positive
SELECT name FROM emp WHERE dept_id IN (SELECT id FROM dept ORDER BY id LIMIT - 2); -- expect: limit-not-positive
-- not flagged
SELECT name FROM emp ORDER BY id LIMIT 1;
SELECT name FROM emp ORDER BY id LIMIT 1 + 0;
SELECT name FROM emp ORDER BY id LIMIT ?;
