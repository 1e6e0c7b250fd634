-- Seed 003, App. B Example B.3 (gold SQL incorrect): "first paid customer"
-- ordered DESC instead of ASC.  The direction needs the question; lint
-- sees that two transactions share the time LIMIT 1 picks from.
SELECT T2.Country FROM transactions_1k AS T1
INNER JOIN gasstations AS T2 ON T1.GasStationID = T2.GasStationID
WHERE T1.Date = '2012-08-25' ORDER BY T1.Time DESC LIMIT 1; -- expect: order-limit-ties
