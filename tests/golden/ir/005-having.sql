-- having: a filter above the aggregate; aggregates used only in HAVING
-- are computed by the aggregate too.
SELECT dept_id, count(*) AS n FROM emp GROUP BY dept_id HAVING count(*) > 1 AND max(age) < 60;
SELECT dept_id FROM emp GROUP BY dept_id HAVING dept_id IS NOT NULL;
SELECT count(*) FROM emp HAVING sum(salary) > 0;
