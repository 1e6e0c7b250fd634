-- Seed 003, App. B Example B.4 (gold SQL incorrect): the evidence says
-- PLT > 100 and PLT < 400, the gold uses the inclusive BETWEEN.  The
-- bounds are fine SQL: only the evidence text says they are wrong.
SELECT T2.PLT FROM Patient AS T1 INNER JOIN Laboratory AS T2 ON T1.ID = T2.ID
WHERE T1.Diagnosis = 'MCTD' AND T2.PLT BETWEEN 100 AND 400;
