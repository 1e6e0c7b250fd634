-- Seed 003, App. B Example B.5: the gold SQL is right (the generated one
-- drops the major condition); nothing to flag.
SELECT T2.college FROM member AS T1 INNER JOIN major AS T2 ON T2.major_id = T1.link_to_major
WHERE T1.link_to_major = 'rec1' AND T1.first_name = 'Katy';
