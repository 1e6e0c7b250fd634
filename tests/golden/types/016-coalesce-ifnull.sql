-- coalesce/ifnull: the union of the argument classes, NULL only when every
-- argument may be; nullif may always be NULL; iif is a CASE.
SELECT coalesce(bonus, 0) AS c1, coalesce(bonus, salary) AS c2, coalesce(bonus, NULL) AS c3,
       coalesce(age, bonus, 1.5) AS c4 FROM emp;
SELECT ifnull(age, 'x') AS i1, ifnull(age, dept_id) AS i2, coalesce(NULL, NULL) AS i3 FROM emp;
SELECT nullif(age, 0) AS n1, nullif(name, 'x') AS n2 FROM emp;
SELECT iif(age > 1, 'a', 'b') AS f1, iif(age > 1, 1, 2.0) AS f2 FROM emp;
