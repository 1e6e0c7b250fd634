-- string-as-boolean: a condition that is a string, a number other than 0
-- and 1, or a TEXT expression.
SELECT name FROM emp WHERE code != '-' OR '+-'; -- expect: string-as-boolean
SELECT name FROM emp WHERE tag = 'x' OR '0' AND salary > 10; -- expect: string-as-boolean, and-or-precedence
SELECT name FROM emp WHERE '1x'; -- expect: string-as-boolean
SELECT name FROM emp WHERE salary > 10 AND 2; -- expect: string-as-boolean
SELECT name FROM emp WHERE -2; -- expect: string-as-boolean
SELECT name FROM emp WHERE NOT tag; -- expect: string-as-boolean
SELECT CASE WHEN code THEN 1 ELSE 0 END FROM emp; -- expect: string-as-boolean
SELECT iif(name, 'a', 'b') FROM emp; -- expect: string-as-boolean
SELECT name FROM emp WHERE upper(tag); -- expect: string-as-boolean
-- not flagged
SELECT name FROM emp WHERE code NOT IN ('-', '+-');
SELECT name FROM emp WHERE 1 AND salary > 0;
SELECT name FROM emp WHERE salary;
SELECT name FROM emp WHERE tag IS NULL OR 0;
SELECT CASE code WHEN 'A1' THEN 1 END FROM emp;
SELECT name || tag FROM emp;
