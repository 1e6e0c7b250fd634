-- Seed 003, App. B Example B.9 (ambiguous question): two comments share
-- the highest score, and LIMIT 1 keeps either.
SELECT Text FROM comments WHERE PostId IN (SELECT Id FROM posts WHERE ViewCount BETWEEN 100 AND 150)
ORDER BY Score DESC LIMIT 1; -- expect: order-limit-ties
