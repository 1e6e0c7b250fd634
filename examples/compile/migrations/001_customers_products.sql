-- 001: customers and the catalogue of products.
-- +goose Up
CREATE TABLE customers (
    customer_id INTEGER PRIMARY KEY,          -- the rowid
    email       TEXT NOT NULL UNIQUE,         -- UpsertCustomer's conflict target
    name        TEXT NOT NULL,
    phone       TEXT                          -- may be NULL
);

CREATE TABLE products (
    product_id INTEGER PRIMARY KEY,
    sku        TEXT NOT NULL UNIQUE,
    title      TEXT NOT NULL,
    price      REAL NOT NULL CHECK (price >= 0),
    stock      INTEGER NOT NULL DEFAULT 0,
    thumbnail  BLOB                           -- a small image, may be NULL
);

-- +goose Down
DROP TABLE products;
DROP TABLE customers;
