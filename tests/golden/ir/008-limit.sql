-- limit with an optional offset; "LIMIT a, b" is offset a, count b.
SELECT name FROM emp ORDER BY id LIMIT 3;
SELECT name FROM emp ORDER BY id LIMIT 3 OFFSET 1;
SELECT name FROM emp ORDER BY id LIMIT 1, 2;
SELECT name FROM emp LIMIT (SELECT count(*) FROM dept) OFFSET 1 + 1;
