-- A scalar subquery is NULL when it returns no row, and has the affinity of
-- its column; EXISTS is never NULL; x IN (SELECT ...) is NULL when x is, or
-- when the subquery's column may be NULL.
SELECT (SELECT d.name FROM dept d WHERE d.id = e.dept_id) AS dname,
       (SELECT d.floor FROM dept d LIMIT 1) AS fl,
       (SELECT max(d.budget) FROM dept d) AS mb FROM emp e;
-- An aggregate subquery without GROUP BY always returns exactly one row.
SELECT (SELECT count(*) FROM dept d) AS nd,
       (SELECT count(*) FROM dept d WHERE d.id = e.dept_id) AS nd_corr,
       (SELECT 1) AS one FROM emp e;
SELECT EXISTS (SELECT 1 FROM dept) AS ex,
       NOT EXISTS (SELECT 1 FROM dept d WHERE d.id = e.dept_id) AS nex FROM emp e;
SELECT e.id IN (SELECT id FROM dept) AS in1, e.dept_id IN (SELECT id FROM dept) AS in2,
       e.id IN (SELECT budget FROM dept) AS in3, e.id NOT IN (SELECT id FROM dept) AS nin FROM emp e;
