-- Seed 003, Fig. 1 / Example 3.1 (gold SQL incorrect): "youngest patient
-- with an abnormal anti-ribonuclear protein level".  T2.RNP != '-' OR '+-'
-- is T2.RNP != '-' OR FALSE: a string literal used as a condition.
SELECT T1.Birthday FROM Patient AS T1 INNER JOIN Laboratory AS T2 ON T1.ID = T2.ID
WHERE T2.RNP != '-' OR '+-' -- expect: string-as-boolean
ORDER BY T1.Birthday DESC LIMIT 1; -- expect: order-limit-ties
-- fixed: both values excluded; one row per patient, youngest first
SELECT T1.Birthday FROM Patient AS T1
WHERE T1.ID IN (SELECT T2.ID FROM Laboratory AS T2 WHERE T2.RNP NOT IN ('-', '+-'))
ORDER BY T1.Birthday DESC, T1.ID LIMIT 1;
