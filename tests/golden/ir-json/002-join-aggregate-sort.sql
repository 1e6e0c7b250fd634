-- join, aggregate (agg: key / call / bare), having, sort keys and limit.
SELECT d.name, count(*) AS n, max(e.salary) AS top
FROM emp e LEFT JOIN dept d ON d.id = e.dept_id
GROUP BY d.name HAVING count(*) > 1 ORDER BY n DESC LIMIT 5 OFFSET 1;
