-- Schema of the template golden tests (tests/golden/template): numbers,
-- text, dates kept as TEXT and as DATE, keys and foreign keys.
CREATE TABLE customer (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    city TEXT,
    joined DATE,
    vip INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE product (
    code TEXT PRIMARY KEY,
    title TEXT NOT NULL,
    category TEXT,
    price REAL NOT NULL,
    weight REAL
);
CREATE TABLE orders (
    id INTEGER PRIMARY KEY,
    customer_id INTEGER NOT NULL REFERENCES customer(id),
    product_code TEXT REFERENCES product(code),
    placed TEXT NOT NULL,
    qty INTEGER NOT NULL,
    amount REAL,
    status TEXT
);
