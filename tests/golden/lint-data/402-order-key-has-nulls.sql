-- order-key-has-nulls: ascending ORDER BY ... LIMIT whose kept rows have a
-- NULL key.
SELECT name FROM emp ORDER BY dept_id LIMIT 1; -- expect: order-key-has-nulls
SELECT name FROM emp ORDER BY bonus LIMIT 1; -- expect: order-key-has-nulls, order-limit-ties
-- not flagged
SELECT name FROM emp ORDER BY bonus DESC LIMIT 1;
SELECT name FROM emp ORDER BY bonus NULLS LAST LIMIT 1;
SELECT name FROM emp WHERE bonus IS NOT NULL ORDER BY bonus LIMIT 1;
SELECT name FROM emp ORDER BY dept_id LIMIT 1 OFFSET 1; -- expect: order-limit-ties
