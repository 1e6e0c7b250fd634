-- A view is not written (its definition is a query, not a table); the
-- tables it reads are.
SELECT pay FROM rich;
