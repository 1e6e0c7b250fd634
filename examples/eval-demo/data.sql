-- Contents of the "library" demo database (all names and titles invented).
-- loans.return_date is NULL while a book is still out.

INSERT INTO authors (author_id, name, country, birth_year) VALUES
    (1, 'Mara Quill',       'United Kingdom', 1950),
    (2, 'Tomas Ferreira',   'Portugal',       1968),
    (3, 'Helen Okafor',     'Nigeria',        1975),
    (4, 'Arthur Penhallow', 'United Kingdom', 1942),
    (5, 'Li Wen',           'China',          1981),
    (6, 'Sofia Brandt',     'Germany',        1990);

INSERT INTO books (book_id, title, author_id, genre, pub_year, pages, price) VALUES
    (1,  'The Night Ferry',           1, 'Mystery',         1987, 312, 14.50),
    (2,  'Salt and Silence',          1, 'Mystery',         1995, 280, 12.00),
    (3,  'Clockwork Harbour',         1, 'Fantasy',         2003, 450, 18.75),
    (4,  'Rivers of the Old Kingdom', 4, 'History',         1979, 520, 22.00),
    (5,  'The Quiet Fleet',           4, 'History',         1984, 390, 16.50),
    (6,  'Night Trains to Porto',     2, 'Mystery',         2009, 298, 13.25),
    (7,  'The Glass Cartographer',    2, 'Fantasy',         2015, 410, 17.00),
    (8,  'Signals from Kepler',       3, 'Science Fiction', 2011, 356, 15.50),
    (9,  'The Lagos Protocol',        3, 'Science Fiction', 2018, 344, 19.25),
    (10, 'Seven Moons of Arden',      5, 'Science Fiction', 2020, 402, 21.50),
    (11, 'Paper Lanterns',            5, 'Fantasy',         2006, 230,  9.75),
    (12, 'Winter Ledger',             6, 'Mystery',         2021, 265, 11.00);

INSERT INTO members (member_id, name, city, join_date, email) VALUES
    (1, 'Ada Brooks',   'Springfield', '2021-04-12', 'ada@example.org'),
    (2, 'Ben Carter',   'Shelbyville', '2022-09-03', NULL),
    (3, 'Chloe Diaz',   'Springfield', '2020-01-27', 'chloe@example.org'),
    (4, 'Dev Patel',    'Ogdenville',  '2023-06-15', 'dev@example.org'),
    (5, 'Emma Fischer', 'Springfield', '2023-11-02', NULL),
    (6, 'Farid Haddad', 'Shelbyville', '2024-02-19', 'farid@example.org'),
    (7, 'Grace Ito',    'Ogdenville',  '2019-08-30', 'grace@example.org'),
    (8, 'Hugo Janssen', 'Springfield', '2024-05-08', 'hugo@example.org');

INSERT INTO loans (loan_id, book_id, member_id, loan_date, return_date) VALUES
    (1,  1,  1, '2023-12-04', '2023-12-20'),
    (2,  8,  3, '2024-01-10', '2024-01-28'),
    (3,  9,  3, '2024-02-02', '2024-02-25'),
    (4,  4,  7, '2024-02-14', '2024-03-01'),
    (5,  6,  2, '2024-03-01', '2024-03-18'),
    (6,  10, 4, '2024-03-05', '2024-03-26'),
    (7,  3,  1, '2024-03-12', '2024-04-02'),
    (8,  2,  5, '2024-03-20', NULL),
    (9,  7,  6, '2024-03-31', '2024-04-15'),
    (10, 8,  4, '2024-04-01', '2024-04-19'),
    (11, 1,  4, '2024-04-09', NULL),
    (12, 11, 2, '2024-04-22', '2024-05-06'),
    (13, 9,  6, '2024-05-03', NULL),
    (14, 3,  8, '2024-05-17', '2024-05-30'),
    (15, 10, 3, '2024-06-02', NULL);
