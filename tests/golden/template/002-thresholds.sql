-- Numbers a column is ordered against: each comparison, BETWEEN's two
-- bounds, HAVING over an aggregate (no column: the count is the subject),
-- and arithmetic over columns.
SELECT title FROM product WHERE price >= 10 AND weight < 2.5; -- expect-slots: threshold, threshold
SELECT title FROM product WHERE price BETWEEN 5 AND 20; -- expect-slots: threshold, threshold
SELECT category FROM product GROUP BY category HAVING count(*) > 3; -- expect-slots: group-col, threshold
SELECT id FROM orders WHERE qty * amount > 1000; -- expect-slots: threshold
