-- Rule 3: BLOB, or no declared type at all, gives BLOB affinity ("none"):
-- the text form prints no affinity, and the column may hold any class.
SELECT c_blob, c_none FROM decl;
SELECT c_none || 'x' AS cat, c_blob + 0 AS num FROM decl;
