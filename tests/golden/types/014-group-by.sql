-- GROUP BY keys keep their type (and affinity); every group has a row, so
-- bare columns keep their nullability.  Without GROUP BY a bare column is
-- NULL on an empty table.
SELECT dept_id, count(*) AS n, name FROM emp GROUP BY dept_id;
SELECT id, name, max(salary) AS top FROM emp GROUP BY id, name;
SELECT age + 1 AS a1, count(*) AS n FROM emp GROUP BY age + 1;
SELECT max(salary) AS top, name FROM emp;
-- ... and so is every expression over bare columns.
SELECT count(*) AS n, name || id AS label, length(name) AS len, CAST(name AS INTEGER) AS i FROM emp;
-- Inside a group, an aggregate of a NOT NULL column cannot be NULL.
SELECT dept_id, min(id) AS lo, sum(salary) AS s, avg(salary) AS a FROM emp GROUP BY dept_id;
SELECT name FROM emp GROUP BY name HAVING count(*) > 1;
