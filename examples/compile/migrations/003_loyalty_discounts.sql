-- 003: loyalty points, discounts, and an index for a customer's orders.
-- +goose Up
ALTER TABLE customers ADD COLUMN loyalty_points INTEGER NOT NULL DEFAULT 0;
ALTER TABLE products ADD COLUMN discount REAL;   -- a fraction off the price, NULL for none
CREATE INDEX orders_by_customer ON orders (customer_id, placed_at);

-- +goose Down
DROP INDEX orders_by_customer;
ALTER TABLE products DROP COLUMN discount;
ALTER TABLE customers DROP COLUMN loyalty_points;
