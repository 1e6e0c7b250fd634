-- gold-exec-error: SQLite fails to run the query on the database.
SELECT json_extract(name, '$.a') FROM emp; -- expect: gold-exec-error
SELECT name FROM emp WHERE id = (SELECT abs(-9223372036854775807 - 1)); -- expect: gold-exec-error
-- not flagged
SELECT json_extract('{"a": 1}', '$.a') FROM emp;
SELECT abs(-5) FROM emp;
