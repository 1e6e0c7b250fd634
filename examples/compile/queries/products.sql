-- Products: a BLOB written and read, RETURNING, aggregates with GROUP
-- BY and CASE, CAST, a slice, ?N parameters.

-- name: AddProduct :one
INSERT INTO products (sku, title, price, stock, thumbnail)
VALUES (?, ?, ?, ?, ?)
RETURNING product_id, sku, price, stock, thumbnail;

-- name: GetThumbnail :one
SELECT thumbnail, CAST(thumbnail AS BLOB) AS image, length(thumbnail) AS size
FROM products
WHERE sku = ?;

-- name: ProductsByIds :many
SELECT product_id, sku, price, discount,
       round(price * (1 - coalesce(discount, 0.0)), 2) AS final_price
FROM products
WHERE product_id IN (sqlc.slice(ids))
ORDER BY product_id;

-- name: SetDiscount :exec
UPDATE products SET discount = sqlc.narg(discount) WHERE sku = sqlc.arg(sku);

-- name: Restock :many
UPDATE products SET stock = stock + ?2
WHERE stock < ?1
RETURNING sku, stock;

-- name: PriceBands :many
SELECT CASE WHEN price < 10 THEN 'cheap' WHEN price < 100 THEN 'mid' ELSE 'dear' END AS band,
       count(*) AS n,
       min(price) AS lowest,
       max(price) AS highest,
       avg(price) AS mean,
       CAST(round(avg(price)) AS INTEGER) AS mean_rounded,
       sum(stock) AS stock,
       group_concat(sku, ',') AS skus
FROM (SELECT sku, price, stock FROM products ORDER BY sku)
GROUP BY band
ORDER BY min(price);
