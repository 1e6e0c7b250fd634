-- 002: orders and their lines.
-- +goose Up
CREATE TABLE orders (
    order_id    INTEGER PRIMARY KEY,
    customer_id INTEGER NOT NULL REFERENCES customers (customer_id),
    placed_at   TEXT NOT NULL,                -- ISO 8601, e.g. '2024-03-01'
    status      TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
    note        TEXT
);

CREATE TABLE order_items (
    order_id   INTEGER NOT NULL REFERENCES orders (order_id) ON DELETE CASCADE,
    product_id INTEGER NOT NULL REFERENCES products (product_id),
    quantity   INTEGER NOT NULL CHECK (quantity > 0),
    unit_price REAL NOT NULL,
    PRIMARY KEY (order_id, product_id)
);

-- +goose Down
DROP TABLE order_items;
DROP TABLE orders;
