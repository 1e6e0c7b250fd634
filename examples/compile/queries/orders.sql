-- Orders: INSERT ... SELECT, LEFT JOIN, scalar subqueries, a CTE,
-- UPDATE ... RETURNING, DELETE, BETWEEN.

-- name: PlaceOrder :execlastid
INSERT INTO orders (customer_id, placed_at, note) VALUES (?, ?, sqlc.narg(note));

-- name: AddOrderItem :execrows
INSERT INTO order_items (order_id, product_id, quantity, unit_price)
SELECT :order_id, product_id, :quantity, round(price * (1 - coalesce(discount, 0.0)), 2)
FROM products
WHERE sku = :sku;

-- name: GetOrder :one
SELECT o.order_id, o.status, o.note, c.name AS customer,
       (SELECT count(*) FROM order_items i WHERE i.order_id = o.order_id) AS n_items,
       (SELECT sum(i.quantity * i.unit_price) FROM order_items i WHERE i.order_id = o.order_id) AS total
FROM orders o
JOIN customers c ON c.customer_id = o.customer_id
WHERE o.order_id = ?;

-- name: OrderLines :many
SELECT p.sku, p.title, i.quantity, i.unit_price, i.quantity * i.unit_price AS amount
FROM order_items i
JOIN products p ON p.product_id = i.product_id
WHERE i.order_id = ?
ORDER BY p.sku;

-- name: CustomerSummary :many
SELECT c.customer_id, c.name,
       count(DISTINCT o.order_id) AS n_orders,
       sum(i.quantity * i.unit_price) AS spent,
       max(o.placed_at) AS last_placed
FROM customers c
LEFT JOIN orders o ON o.customer_id = c.customer_id
LEFT JOIN order_items i ON i.order_id = o.order_id
GROUP BY c.customer_id
ORDER BY c.customer_id;

-- name: ProductSales :many
SELECT p.sku, i.order_id, i.quantity
FROM products p
LEFT JOIN order_items i ON i.product_id = p.product_id
WHERE p.sku LIKE :pattern
ORDER BY p.sku, i.order_id;

-- name: TopSpenders :many
WITH spend AS (
    SELECT o.customer_id, sum(i.quantity * i.unit_price) AS total
    FROM orders o
    JOIN order_items i ON i.order_id = o.order_id
    GROUP BY o.customer_id
)
SELECT c.name, s.total
FROM spend s
JOIN customers c ON c.customer_id = s.customer_id
WHERE s.total >= :min_total
ORDER BY s.total DESC
LIMIT :n;

-- name: CloseOrder :one
UPDATE orders SET status = 'closed', note = sqlc.narg(note)
WHERE order_id = ? AND status = 'open'
RETURNING order_id, status, note;

-- name: CountByStatus :many
SELECT status, count(*) AS n
FROM orders
WHERE placed_at BETWEEN @from AND @to
GROUP BY status
ORDER BY status;

-- name: DeleteOpenOrdersBefore :execrows
DELETE FROM orders WHERE status = 'open' AND placed_at < ?;
