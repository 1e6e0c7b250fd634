-- Seed 003, App. B Example B.7 (ambiguous question: "members"): the gold
-- also spells the major 'Enviormental Engineering', which the data never
-- holds, so it returns nothing.
SELECT T2.last_name, T1.department, T1.college FROM major AS T1 -- expect: gold-empty-result
INNER JOIN member AS T2 ON T1.major_id = T2.link_to_major
WHERE T2.position = 'Member' AND T1.major_name = 'Enviormental Engineering'; -- expect: literal-not-in-column
