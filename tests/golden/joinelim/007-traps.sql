-- A TEXT key compared with numbers ('1' and '01' both equal 1), a BINARY
-- key compared under NOCASE: no key is bound, nothing is removable.
SELECT e.name FROM emp e LEFT JOIN badge b ON b.code = e.id;
SELECT n.nid FROM note n LEFT JOIN word w ON n.body = w.w;
-- ... but the key side's own collation decides when it is written first.
SELECT n.nid FROM note n LEFT JOIN word w ON w.w = n.body;
-- Equalities across affinities or collations are not transitive.
SELECT b.code FROM badge b, emp e, word w WHERE b.code = e.id AND e.id = w.w AND b.code = w.w;
SELECT n.nid FROM note n, word w, badge b WHERE n.body = w.w AND n.body = b.label AND w.w = b.label;
