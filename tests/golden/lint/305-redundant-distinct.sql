-- redundant-distinct: DISTINCT over rows already distinct.
SELECT DISTINCT id, name FROM emp; -- expect: redundant-distinct
SELECT DISTINCT dept_id, count(*) FROM emp GROUP BY dept_id; -- expect: redundant-distinct
SELECT name FROM dept WHERE id IN (SELECT DISTINCT dept_id FROM emp); -- expect: redundant-distinct
SELECT DISTINCT count(*) FROM emp; -- expect: redundant-distinct
-- not flagged
SELECT DISTINCT name FROM emp;
SELECT DISTINCT e.id FROM emp AS e JOIN note AS n ON n.emp_id = e.id;
SELECT DISTINCT tag FROM emp GROUP BY dept_id, tag;
SELECT DISTINCT dept_id FROM emp GROUP BY dept_id, tag;
