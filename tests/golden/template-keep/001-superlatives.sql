-- With --keep-superlatives, the LIMIT 1 of an ORDER BY stays as written;
-- another LIMIT, and a LIMIT 1 without ORDER BY, are still slots.
SELECT name FROM customer ORDER BY vip DESC LIMIT 1; -- expect-slots: order-col, order-dir
SELECT name FROM customer ORDER BY vip DESC LIMIT 2; -- expect-slots: order-col, order-dir, limit
SELECT name FROM customer LIMIT 1; -- expect-slots: limit
