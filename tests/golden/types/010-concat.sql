-- || always gives TEXT, NULL when either side is; no affinity.
SELECT name || name AS nn, name || age AS na, age || salary AS ns FROM emp;
SELECT name || NULL AS n_null, 1 || 2 AS digits, x'41' || 'b' AS blob_text FROM emp;
SELECT name || coalesce(bonus, '') AS safe FROM emp;
