-- Queries for the shop schema.
SELECT name, price FROM item WHERE price > 10;
SELECT i.name, sum(s.qty)
FROM item AS i JOIN sale AS s ON s.item_id = i.id
GROUP BY i.name;
SELECT nme FROM item;
