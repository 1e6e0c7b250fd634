SELECT name FROM item
SELECT specie FROM animal
SELECT name, qty FROM item JOIN sale ON item.id = sale.item_id
