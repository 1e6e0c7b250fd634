-- A few gold queries of a small text-to-SQL benchmark (singers and concerts).
-- `make demo` checks them against schema.sql; four have mistakes that squint
-- points at.

-- name: singers_by_age
SELECT name, country, age FROM singer ORDER BY age DESC;

-- name: stadiums_with_concerts_2014
SELECT T2.name, count(*)
FROM concert AS T1 JOIN stadium AS T2 ON T1.stadium_id = T2.stadium_id
WHERE T1.year = 2014
GROUP BY T1.stadium_id;

-- name: average_capacity (a parenthesis is never closed)
SELECT avg(capacity, max(capacity) FROM stadium;

-- name: french_singers (written with a not-equal from another language)
SELECT name FROM singer WHERE country ! = 'France';

-- name: youngest_singer_song
SELECT song_name, song_release_year FROM singer
WHERE age = (SELECT min(age) FROM singer);

-- name: concerts_per_singer (a column name misspelled)
SELECT T1.nme, count(*)
FROM singer AS T1 JOIN singer_in_concert AS T2 ON T1.singer_id = T2.singer_id
GROUP BY T1.singer_id;

-- name: big_stadiums (an aggregate in WHERE)
SELECT name FROM stadium WHERE capacity > avg(capacity);

-- name: stadiums_without_concerts
SELECT name FROM stadium
WHERE stadium_id NOT IN (SELECT stadium_id FROM concert WHERE year = 2014);
