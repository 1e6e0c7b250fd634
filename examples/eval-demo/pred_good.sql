SELECT name FROM members WHERE city = 'Springfield'
SELECT count(*) FROM books
SELECT title FROM books WHERE pub_year > 2000
SELECT avg(pages) FROM books WHERE genre = 'Mystery'
SELECT DISTINCT genre FROM books
SELECT name FROM members WHERE email IS NULL
SELECT title FROM books WHERE title LIKE '%Night%'
SELECT title FROM books ORDER BY price DESC LIMIT 1
SELECT genre, count(*) FROM books GROUP BY genre
SELECT books.title, authors.name FROM authors JOIN books ON authors.author_id = books.author_id
SELECT loan_id, loan_date FROM loans WHERE loan_date >= '2024-03-01' AND loan_date <= '2024-04-01'
SELECT T1.name FROM authors AS T1 JOIN books AS T2 ON T1.author_id = T2.author_id GROUP BY T1.author_id HAVING count(*) >= 3
SELECT name FROM members ORDER BY join_date DESC LIMIT 3
SELECT sum(pages) FROM books WHERE author_id IN (SELECT author_id FROM authors WHERE country = 'United Kingdom')
SELECT title FROM books AS B WHERE NOT EXISTS (SELECT 1 FROM loans AS L WHERE L.book_id = B.book_id)
SELECT DISTINCT T1.name FROM members AS T1 JOIN loans AS T2 ON T1.member_id = T2.member_id JOIN books AS T3 ON T2.book_id = T3.book_id WHERE T3.genre = 'Science Fiction'
SELECT T1.name, count(*) FROM authors AS T1 JOIN books AS T2 ON T1.author_id = T2.author_id GROUP BY T1.author_id
SELECT T2.name, T3.title FROM loans AS T1 JOIN members AS T2 ON T1.member_id = T2.member_id JOIN books AS T3 ON T1.book_id = T3.book_id WHERE T1.return_date IS NULL
SELECT title, price FROM books WHERE price > (SELECT avg(price) FROM books) ORDER BY price ASC
SELECT genre, avg(price) FROM books WHERE price > 15 GROUP BY genre
