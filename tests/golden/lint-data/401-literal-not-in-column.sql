-- literal-not-in-column: a string compared with a column in which it never
-- occurs (with --db: the rows of ../lint.fixture.sql).
SELECT id FROM emp WHERE name = 'ada'; -- expect: literal-not-in-column, gold-empty-result
SELECT id FROM emp WHERE name = 'Adda'; -- expect: literal-not-in-column, gold-empty-result
SELECT id FROM emp WHERE name = ' Bob'; -- expect: literal-not-in-column, gold-empty-result
SELECT id FROM emp WHERE tag IN ('x', 'q'); -- expect: literal-not-in-column
SELECT name FROM dept WHERE city = 'Berlin'; -- expect: literal-not-in-column, gold-empty-result
SELECT id FROM emp WHERE code <> 'Z9'; -- expect: literal-not-in-column
-- not flagged
SELECT id FROM emp WHERE name = 'Ada';
SELECT id FROM emp WHERE name = 'ada' COLLATE NOCASE;
SELECT id FROM emp WHERE name COLLATE NOCASE = 'ADA';
SELECT id FROM emp WHERE salary = '4000';
SELECT id FROM emp WHERE name LIKE 'ad%';
