-- Seed 001's example: candidates bond and connected; bond joined to both
-- molecule and atom on molecule_id is redundant (the toxicology triangle);
-- connected joined twice to atom is two conditions between two tables.
SELECT COUNT(DISTINCT molecule.molecule_id) FROM molecule JOIN atom ON atom.molecule_id = molecule.molecule_id WHERE molecule.label = '-' AND atom.element = 'cl';
-- One table: every neighbour is a candidate, one condition each.
SELECT label FROM molecule;
-- A self-join (atom twice): molecule joined to both atoms closes the
-- cycle molecule - a1 - c - a2 - molecule on molecule_id at molecule.
SELECT c.bond_id FROM connected c JOIN atom a1 ON a1.atom_id = c.atom_id JOIN atom a2 ON a2.atom_id = c.atom_id2;
-- A table that references itself: emp's boss is no candidate (emp is
-- read).  project joined to both e and d closes the cycle project - e - d
-- - project, on which d's two edges both use d.id: pruned by the thesis's
-- rule, as its own cycle with the same column at one table is.
SELECT e.name FROM emp e JOIN dept d ON d.id = e.dept_id;
-- Every table of the schema graph's component read: no candidate.
SELECT 1 FROM emp e JOIN dept d ON d.id = e.dept_id JOIN project p ON p.dept_id = d.id;
-- After unnesting, the IN subquery is a join, so bond is read.
SELECT label FROM molecule WHERE molecule_id IN (SELECT molecule_id FROM bond);
-- No join query graph.
WITH x AS (SELECT 1) SELECT * FROM x;
