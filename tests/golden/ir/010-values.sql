-- values: literal rows; a SELECT without FROM reads one empty row.
VALUES (1, 'one'), (2, 'two');
SELECT 1 + 1 AS two, 'x' AS x;
SELECT v.column2 FROM (VALUES (1, 'a'), (2, 'b')) AS v WHERE v.column1 > 1;
SELECT * FROM dept WHERE id IN (VALUES (1), (2));
