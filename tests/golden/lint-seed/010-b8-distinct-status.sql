-- Seed 003, App. B Example B.8 (ambiguous question): DISTINCT or not is a
-- reading of the question, not a bug; nothing to flag.
SELECT DISTINCT T2.status FROM cards AS T1 INNER JOIN legalities AS T2 ON T1.uuid = T2.uuid
WHERE T1.type = 'Artifact' AND T2.format = 'vintage' AND T1.side IS NULL;
