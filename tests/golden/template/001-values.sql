-- Literals compared with a column: =, <>, an IN list, text ordered by <,
-- a literal on the left (its operator is read from the column's side), a
-- signed number, a comparison inside a searched CASE's WHEN.
SELECT name FROM customer WHERE city = 'Paris'; -- expect-slots: value
SELECT name FROM customer WHERE city <> 'Oslo' AND vip = 1; -- expect-slots: value, value
SELECT title FROM product WHERE category IN ('toys', 'books', 'food'); -- expect-slots: value, value, value
SELECT name FROM customer WHERE name < 'M'; -- expect-slots: value
SELECT title FROM product WHERE 5 < price; -- expect-slots: threshold
SELECT id FROM orders WHERE amount > -2.5; -- expect-slots: threshold
SELECT id FROM orders WHERE CASE WHEN status = 'paid' THEN qty > 2 ELSE 0 END; -- expect-slots: value, threshold
SELECT id FROM orders WHERE customer_id = 7; -- expect-slots: value
