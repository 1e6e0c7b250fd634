-- order-limit-ties (data part): reported only when the rows at the LIMIT's
-- edge really tie on the database.
SELECT name FROM emp ORDER BY salary DESC LIMIT 2; -- expect: order-limit-ties
SELECT dept_id, count(*) FROM emp GROUP BY dept_id ORDER BY count(*) DESC LIMIT 1; -- expect: order-limit-ties
SELECT name FROM emp ORDER BY salary DESC LIMIT 1 OFFSET 1; -- expect: order-limit-ties
SELECT name FROM emp ORDER BY tag DESC LIMIT 1 OFFSET 2; -- expect: order-limit-ties
-- not flagged: the schema allows ties, the data has none at the edge
SELECT name FROM emp ORDER BY salary DESC LIMIT 1;
SELECT name FROM emp ORDER BY salary DESC LIMIT 3;
SELECT title FROM project ORDER BY budget DESC LIMIT 1;
