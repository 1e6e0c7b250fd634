-- In a STRICT table the declared type is enforced: INT holds only INTEGER,
-- REAL only REAL, TEXT only TEXT; ANY holds any class, unconverted.
SELECT id, n, r, t, a FROM k_strict;
SELECT a + 1 AS a1, a || '' AS at FROM k_strict;
