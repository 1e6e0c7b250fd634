-- Rule 2: CHAR, CLOB or TEXT gives TEXT affinity; BLOBCHAR contains CHAR and
-- rule 2 is tried before rule 3.
SELECT c_varchar, c_nchar, c_nvarchar, c_clob, c_text FROM decl;
SELECT c_blobchar FROM decl;
