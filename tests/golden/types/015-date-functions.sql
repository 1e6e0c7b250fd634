-- date/time/datetime/strftime are TEXT, julianday REAL, unixepoch INTEGER;
-- all NULL on a malformed date.  CURRENT_* are never NULL.
SELECT strftime('%Y', hired) AS y, strftime('%s', hired) AS s, date(hired) AS d,
       time(hired) AS t, datetime(hired, '+1 day') AS dt FROM emp;
SELECT julianday(hired) AS jd, julianday('2020-01-01') AS jl, unixepoch(hired) AS ue FROM emp;
SELECT date('now') AS today, strftime('%Y-%m', 'now') AS ym, current_date AS cd,
       current_time AS ct, current_timestamp AS cts FROM emp;
