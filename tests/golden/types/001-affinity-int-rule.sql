-- Rule 1: a declared type containing "INT" has INTEGER affinity, wherever
-- the letters occur: FLOATING POINT and POINT contain INT, and so does CHARINT
-- (rule 1 is tried before rule 2).
SELECT c_int, c_integer, c_bigint, c_tinyint, c_int8 FROM decl;
SELECT c_floating, c_point, c_charint FROM decl;
