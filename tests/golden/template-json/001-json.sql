-- The JSON form: the template, every slot with its location, column,
-- type and domain.
SELECT c.city, avg(o.amount) FROM customer c JOIN orders o ON o.customer_id = c.id WHERE o.placed >= '2012-06-01' AND c.vip = 1 GROUP BY c.city ORDER BY avg(o.amount) DESC LIMIT 5; -- slots: metric, date, value, group-col, order-dir, limit
