-- Seed 003, App. B Example B.1 (gold SQL incorrect): the evidence's typo
-- turned "UA <= 6.5" into "UA > 6.5".  The operator's direction needs the
-- question to judge; what lint sees is the tie that LIMIT 1 breaks
-- arbitrarily (two laboratory rows with UA 7.0).
SELECT T3.`aCL IgG`, T3.`aCL IgM`, T3.`aCL IgA` FROM Patient AS T1
INNER JOIN Laboratory AS T2 ON T1.ID = T2.ID INNER JOIN Examination AS T3 ON T3.ID = T2.ID
WHERE T1.SEX = 'F' AND T2.UA > 6.5 ORDER BY T2.UA DESC LIMIT 1; -- expect: order-limit-ties
