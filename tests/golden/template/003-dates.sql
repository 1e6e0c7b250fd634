-- Time references: date and datetime literals (fixed), a range, a year
-- or month picked out with strftime or substr (periods), and references
-- relative to now.
SELECT id FROM orders WHERE placed >= '2012-06-01'; -- expect-slots: date
SELECT id FROM orders WHERE placed < '2012-06-01 12:30:00'; -- expect-slots: date
SELECT id FROM orders WHERE placed BETWEEN '2012-01-01' AND '2012-12-31'; -- expect-slots: date, date
SELECT id FROM orders WHERE strftime('%Y', placed) = '2013'; -- expect-slots: period
SELECT id FROM orders WHERE CAST(strftime('%m', placed) AS INTEGER) > 6; -- expect-slots: period
SELECT id FROM orders WHERE substr(placed, 1, 4) = '2011'; -- expect-slots: period
SELECT id FROM orders WHERE date(placed) = '2012-03-04'; -- expect-slots: date
SELECT name FROM customer WHERE joined > date('now', '-7 days'); -- expect-slots: relative
SELECT name FROM customer WHERE joined <= CURRENT_DATE; -- expect-slots: relative
