-- distinct sits between the project and the sort.
SELECT DISTINCT dept_id FROM emp;
SELECT DISTINCT dept_id, age FROM emp ORDER BY age DESC;
SELECT count(DISTINCT dept_id) AS n FROM emp;
