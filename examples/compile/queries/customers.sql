-- Customers: the commands, named and positional parameters, sqlc's
-- macros, UPSERT, a slice, LIMIT/OFFSET.

-- name: CreateCustomer :execlastid
INSERT INTO customers (email, name, phone) VALUES (:email, :name, sqlc.narg(phone));

-- name: GetCustomer :one
SELECT customer_id, email, name, phone, loyalty_points
FROM customers
WHERE customer_id = ?;

-- name: GetCustomerByEmail :one
SELECT customer_id, name, phone FROM customers WHERE email = @email;

-- name: UpsertCustomer :one
INSERT INTO customers (email, name, phone) VALUES (sqlc.arg(email), sqlc.arg(name), sqlc.narg(phone))
ON CONFLICT (email) DO UPDATE SET name = excluded.name, phone = coalesce(excluded.phone, phone)
RETURNING customer_id, email, name, phone;

-- name: ListCustomers :many
SELECT customer_id, name, coalesce(phone, '-') AS phone
FROM customers
ORDER BY name
LIMIT ? OFFSET ?;

-- name: AddLoyaltyPoints :execrows
UPDATE customers SET loyalty_points = loyalty_points + $points
WHERE customer_id IN (sqlc.slice(ids));

-- name: DeleteCustomerWithoutOrders :execrows
DELETE FROM customers
WHERE customer_id = ?
  AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = customers.customer_id);
