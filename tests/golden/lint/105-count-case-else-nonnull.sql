-- count-case-else-nonnull: COUNT counts every value that is not NULL.
SELECT count(CASE WHEN salary > 3500 THEN id ELSE 0 END) FROM emp; -- expect: count-case-else-nonnull
SELECT count(DISTINCT CASE WHEN salary > 10 THEN dept_id ELSE 0 END) FROM emp; -- expect: count-case-else-nonnull
SELECT count(iif(tag = 'x', 1, 0)) FROM emp; -- expect: count-case-else-nonnull
SELECT count(CASE tag WHEN 'x' THEN 'yes' ELSE 'no' END) FROM emp; -- expect: count-case-else-nonnull
-- not flagged
SELECT count(CASE WHEN salary > 3500 THEN id END) FROM emp;
SELECT count(CASE WHEN salary > 3500 THEN id ELSE NULL END) FROM emp;
SELECT sum(CASE WHEN salary > 3500 THEN 1 ELSE 0 END) FROM emp;
SELECT count(CASE WHEN salary > 3500 THEN NULL ELSE 1 END) FROM emp;
SELECT count(iif(tag = 'x', 1, NULL)) FROM emp;
