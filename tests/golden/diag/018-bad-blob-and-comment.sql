SELECT 1;
SELECT * FROM t WHERE a = x'abc';
SELECT 2 /* unterminated comment
