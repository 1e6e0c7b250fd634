-- and-or-precedence: AND binds tighter than OR.
SELECT name FROM emp WHERE tag = 'x' AND salary > 10 OR bonus > 0; -- expect: and-or-precedence
SELECT name FROM emp WHERE tag = 'x' OR tag = 'y' AND salary > 10; -- expect: and-or-precedence
-- not flagged
SELECT name FROM emp WHERE (tag = 'x' AND salary > 10) OR bonus > 0;
SELECT name FROM emp WHERE (tag = 'x' OR tag = 'y') AND salary > 10;
SELECT name FROM emp WHERE tag = 'x' OR tag = 'y' OR tag = 'z';
SELECT name FROM emp WHERE tag = 'x' AND salary > 10 AND bonus > 0;
