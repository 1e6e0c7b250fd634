-- Literals: INTEGER, REAL, TEXT, BLOB, NULL; TRUE/FALSE are 1/0; an integer
-- literal too large for 64 bits is REAL.
SELECT 1, 'a', 2.5, NULL, x'00', -1, 1e3, 0x10, TRUE, FALSE, 9223372036854775808;
-- VALUES: a column's class is the union over the rows, NULL if any row is.
VALUES (1, 'a', NULL, 1.5), (2, NULL, 3, 2);
SELECT * FROM (VALUES (1, 'a'), (2.5, 'b')) AS v;
SELECT column1, column2 FROM (VALUES (1, NULL), (2, 'x'));
