-- Seed 003, Fig. 1 / Example 3.2 (ambiguous question): COUNT(T1.ID) over
-- Patient joined with Examination, whose ID is no key: a patient with two
-- examinations counts twice.
SELECT COUNT(T1.ID) FROM Patient AS T1 INNER JOIN Examination AS T2 ON T1.ID = T2.ID -- expect: fanout-aggregate
WHERE T2.Diagnosis = 'Behcet' AND T1.SEX = 'M'
AND STRFTIME('%Y', T2.`Examination Date`) BETWEEN '1995' AND '1997' AND T1.Admission = '-';
-- counting patients, as the generated SQL does
SELECT COUNT(DISTINCT T1.ID) FROM Patient AS T1 INNER JOIN Examination AS T2 ON T1.ID = T2.ID
WHERE T2.Diagnosis = 'Behcet' AND T1.SEX = 'M'
AND T2.`Examination Date` BETWEEN '1995-01-01' AND '1997-12-31' AND T1.Admission = '-';
