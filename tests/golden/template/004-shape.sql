-- The shape of the result: metrics (an aggregate of a column, COUNT(*)),
-- GROUP BY columns, ORDER BY columns that are not result columns and
-- every ORDER BY term's direction, LIMIT; a compound's ORDER BY and LIMIT.
SELECT category, avg(price) FROM product GROUP BY category; -- expect-slots: metric, group-col
SELECT count(*) FROM orders; -- expect-slots: metric
SELECT count(id), sum(qty) FROM orders; -- expect-slots: metric, metric
SELECT max(title) FROM product; -- expect-slots: metric
SELECT name FROM customer ORDER BY joined DESC LIMIT 3; -- expect-slots: order-col, order-dir, limit
SELECT name, vip FROM customer ORDER BY vip; -- expect-slots: order-dir
SELECT name FROM customer ORDER BY vip DESC LIMIT 1; -- expect-slots: order-col, order-dir, limit
SELECT name FROM customer UNION SELECT title FROM product ORDER BY 1 DESC LIMIT 10; -- expect-slots: order-dir, limit
SELECT c.name FROM customer c WHERE c.id IN (SELECT customer_id FROM orders WHERE qty > 5); -- expect-slots: threshold
