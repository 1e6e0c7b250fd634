-- unresolved-name: tables, columns and functions the schema does not have.
SELECT nme FROM emp; -- expect: unresolved-name
SELECT name FROM employee; -- expect: unresolved-name
SELECT lenght(name) FROM emp; -- expect: unresolved-name
SELECT e.name FROM emp AS x; -- expect: unresolved-name
-- not flagged
SELECT name FROM emp;
SELECT length(name) FROM emp AS e WHERE e.id = 1;
SELECT "name" FROM emp;
