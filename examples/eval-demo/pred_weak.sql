SELECT name FROM members WHERE city = 'Springfield'
SELECT count(*) FROM books
SELECT title FROM books WHERE pub_year < 2000
SELECT avg(price) FROM books WHERE genre = 'Mystery'
SELECT DISTINCT genre FROM books
SELECT name FROM members WHERE email = NULL
SELECT title FROM books WHERE title LIKE '%Night%'
SELECT max(price) FROM books
SELECT genre, count(*) FROM books GROUP BY genre
SELECT T1.title, T2.name FROM books AS T1 JOIN authors AS T2 ON T1.author_id = T2.author_id
SELECT loan_id, loan_date FROM loans WHERE loan_date LIKE '2024-03%'
SELECT T1.name FROM authors AS T1 JOIN books AS T2 ON T1.author_id = T2.author_id GROUP BY T1.author_id HAVING count(*) >= 2
SELECT name FROM members ORDER BY join_date LIMIT 3
SELECT sum(T1.pages) FROM books AS T1 JOIN authors AS T2 ON T1.author_id = T2.author_id WHERE T2.country = 'United Kingdom'
SELECT title FROM books WHERE book_id NOT IN (SELECT book_id FROM loans)
SELECT T1.name FROM members AS T1 JOIN loans AS T2 ON T1.member_id = T2.member_id JOIN books AS T3 ON T2.book_id = T3.book_id WHERE T3.genre = 'Science Fiction'
SELECT T1.name, count(*) FROM authors AS T1 JOIN books AS T2 ON T1.author_id = T2.author_id GROUP BY T1.author_id
SELECT T2.name, T3.title FROM loans AS T1 JOIN members AS T2 ON T1.member_id = T2.member_id JOIN books AS T3 ON T1.book_id = T3.book_id WHERE T1.return_dt IS NULL
SELECT title, price FROM books WHERE price > (SELECT avg(price) FROM books) ORDER BY price DESC
SELECT genre, avg(price) FROM books GROUP BY genre HAVING sum(price) > 15
