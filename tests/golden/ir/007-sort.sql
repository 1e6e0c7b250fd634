-- sort keys name project outputs; an ORDER BY term that is not a result
-- column becomes a hidden project output.
SELECT name, salary FROM emp ORDER BY salary DESC, name;
SELECT name FROM emp ORDER BY bonus NULLS FIRST, age DESC NULLS LAST;
SELECT name FROM emp ORDER BY name COLLATE NOCASE, lower(name) DESC;
SELECT name AS n, salary FROM emp ORDER BY 2, n;
SELECT dept_id, count(*) FROM emp GROUP BY dept_id ORDER BY count(*) DESC, max(salary);
