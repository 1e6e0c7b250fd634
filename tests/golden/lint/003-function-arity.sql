-- function-arity: a known function with the wrong number of arguments.
SELECT substr(name) FROM emp; -- expect: function-arity
SELECT round(salary, 1, 2) FROM emp; -- expect: function-arity
SELECT count(id, name) FROM emp; -- expect: function-arity
-- not flagged
SELECT substr(name, 2), round(salary), max(salary, 10) FROM emp;
SELECT count(*), min(bonus) FROM emp;
