-- CASE: the union of the THEN/ELSE classes; without ELSE it may be NULL.
SELECT CASE WHEN age > 30 THEN 'old' END AS no_else,
       CASE WHEN age > 30 THEN 'old' ELSE 'young' END AS with_else FROM emp;
SELECT CASE age WHEN 1 THEN 1 WHEN 2 THEN 2.5 ELSE 3 END AS num,
       CASE WHEN id > 1 THEN name ELSE id END AS mixed,
       CASE WHEN id > 1 THEN bonus ELSE 0.0 END AS nullable_arm FROM emp;
SELECT CASE WHEN id > 1 THEN NULL ELSE 1 END AS null_arm,
       CASE dept_id WHEN 1 THEN name ELSE name END AS text_no_affinity FROM emp;
