-- compare-null: comparisons with NULL are NULL, never true.
SELECT name FROM emp WHERE tag = NULL; -- expect: compare-null
SELECT name FROM emp WHERE NULL <> tag; -- expect: compare-null
SELECT name FROM emp WHERE salary > NULL; -- expect: compare-null
SELECT name FROM emp WHERE tag IN ('x', NULL); -- expect: compare-null
SELECT name FROM emp WHERE tag NOT IN ('x', NULL); -- expect: compare-null
SELECT CASE tag WHEN NULL THEN 'none' END FROM emp; -- expect: compare-null
-- not flagged
SELECT name FROM emp WHERE tag IS NULL OR tag IS NOT NULL;
SELECT name FROM emp WHERE tag IS NOT 'x';
SELECT CASE WHEN tag IS NULL THEN 'none' END FROM emp;
SELECT coalesce(tag, 'none') FROM emp;
