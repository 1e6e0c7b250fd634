-- Seed 003, App. B Example B.2 (gold SQL incorrect): "after 2012/1/1"
-- written as >= (on the year).  Only the question says which is meant:
-- nothing here for lint to flag.
SELECT COUNT(T1.TransactionID) FROM transactions_1k AS T1
INNER JOIN gasstations AS T2 ON T1.GasStationID = T2.GasStationID
WHERE T2.Country = 'CZE' AND STRFTIME('%Y', T1.Date) >= '2012';
