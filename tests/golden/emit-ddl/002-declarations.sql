-- Declared types written so that SQLite sees the same type text; keys,
-- STRICT and WITHOUT ROWID kept.
SELECT * FROM decl;
SELECT * FROM k_desc, k_norowid, k_strict, k_default;
