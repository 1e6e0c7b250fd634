-- Built-in scalar functions: result class and nullability.
SELECT upper(name) AS up, length(name) AS len, length(bonus) AS lenb, substr(name, 1, 2) AS sub,
       instr(name, 'a') AS ins, replace(name, 'a', 'b') AS rep, trim(name) AS tr FROM emp;
SELECT abs(age) AS ai, abs(salary) AS ar, abs(name) AS at, abs(hired) AS an,
       round(salary) AS r0, round(age) AS ri, round(salary, 2) AS r2 FROM emp;
SELECT hex(bonus) AS hx, quote(bonus) AS qt, typeof(bonus) AS ty, printf('%d', age) AS pf,
       char(65) AS ch, zeroblob(2) AS zb, random() AS rnd FROM emp;
SELECT max(age, salary) AS mx, min(name, 'z') AS mn FROM emp;
-- Math functions (SQLite 3.40 -DSQLITE_ENABLE_MATH_FUNCTIONS).
SELECT ceil(salary) AS c, floor(age) AS f, floor(name) AS ft, sqrt(age) AS sq, pow(age, 2) AS pw,
       mod(age, 2) AS md, sign(salary) AS sg FROM emp;
SELECT unicode(name) AS u FROM emp;
-- Math functions are NULL for an argument that is not a number ('abc').
SELECT cos(name) AS cs, exp(name) AS ex, trunc(name) AS tn, cos(salary) AS cr FROM emp;
