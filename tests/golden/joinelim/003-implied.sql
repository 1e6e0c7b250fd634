-- Equalities that follow from others by transitivity, in ON and WHERE.
SELECT e.name, p.pid FROM emp e JOIN dept d ON d.id = e.dept_id JOIN project p ON p.dept_id = d.id AND p.dept_id = e.dept_id;
SELECT e.name FROM emp e, dept d, project p WHERE e.dept_id = d.id AND p.dept_id = d.id AND e.dept_id = p.dept_id;
SELECT e.name FROM emp e JOIN project p ON p.lead = e.id JOIN note n ON n.emp_id = p.lead WHERE n.emp_id = e.id AND n.pid = p.pid;
