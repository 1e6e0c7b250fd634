-- What must not be a slot: a literal compared with a key in a join's ON
-- condition, CASE labels (THEN, ELSE, the WHEN values of CASE x WHEN),
-- a literal compared with a CASE, LIKE patterns, a function's other
-- arguments, NULL and TRUE, a comparison of two constants, an aggregate
-- over an expression (its inner slots are its own).
SELECT o.id FROM orders o JOIN customer c ON c.id = o.customer_id AND c.id = 3;
SELECT o.id FROM orders o JOIN product p ON p.code = o.product_code AND o.product_code = 'X1';
SELECT CASE WHEN vip THEN 'gold' ELSE 'plain' END FROM customer;
SELECT CASE status WHEN 'p' THEN 'paid' WHEN 's' THEN 'sent' END FROM orders;
SELECT id FROM orders WHERE (CASE WHEN qty THEN 'many' ELSE 'none' END) = 'many';
SELECT name FROM customer WHERE name LIKE 'A%';
SELECT substr(name, 1, 3) FROM customer;
SELECT name FROM customer WHERE city IS NULL OR vip = TRUE;
SELECT name FROM customer WHERE 1 = 1;
SELECT sum(CASE WHEN status = 'paid' THEN 1 ELSE 0 END) FROM orders; -- expect-slots: value
SELECT o.id FROM orders o JOIN product p ON p.code = o.product_code AND p.price > 10; -- expect-slots: threshold
