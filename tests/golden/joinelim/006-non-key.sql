-- Joins on columns that are neither keys nor related by a foreign key.
SELECT e.name, b.name FROM emp e JOIN emp b ON e.tag = b.tag;
SELECT e.name FROM emp e, word w WHERE w.n = e.salary;
-- On a key, or a foreign key: not flagged.
SELECT e.name, b.name FROM emp e JOIN emp b ON b.id = e.boss;
SELECT p.pid FROM project p JOIN note n ON n.pid = p.pid;
SELECT p.pid FROM project p JOIN emp e ON e.dept_id = p.dept_id;
