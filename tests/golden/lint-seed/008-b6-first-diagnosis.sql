-- Seed 003, App. B Example B.6: the gold SQL is right (the generated one
-- misses the first-visit condition); nothing to flag.
SELECT T1.Diagnosis FROM Patient AS T1 INNER JOIN Examination AS T2 ON T1.ID = T2.ID
WHERE T1.ID = (SELECT ID FROM Examination WHERE `Examination Date` = '1997-01-27' AND Diagnosis = 'SLE')
AND T2.`Examination Date` = T1.`First Date`;
