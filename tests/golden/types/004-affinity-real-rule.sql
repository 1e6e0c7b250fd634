-- Rule 4: REAL, FLOA or DOUB gives REAL affinity: DOUBLE PRECISION is REAL,
-- but FLOATING POINT is INTEGER (rule 1 wins, see 001).
SELECT c_real, c_double, c_dblprec, c_float FROM decl;
