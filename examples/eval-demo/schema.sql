-- Schema of the "library" demo database for `squint eval`.
-- An invented lending library: authors write books, members borrow them.
-- Dates are stored as TEXT in the form 'YYYY-MM-DD', so they sort and
-- compare correctly as strings.

CREATE TABLE authors (
    author_id  INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    country    TEXT,
    birth_year INTEGER
);

CREATE TABLE books (
    book_id   INTEGER PRIMARY KEY,
    title     TEXT NOT NULL,
    author_id INTEGER,
    genre     TEXT NOT NULL,
    pub_year  INTEGER,
    pages     INTEGER,
    price     REAL,
    FOREIGN KEY (author_id) REFERENCES authors (author_id)
);

CREATE TABLE members (
    member_id INTEGER PRIMARY KEY,
    name      TEXT NOT NULL,
    city      TEXT,
    join_date TEXT NOT NULL,
    email     TEXT
);

CREATE TABLE loans (
    loan_id     INTEGER PRIMARY KEY,
    book_id     INTEGER NOT NULL,
    member_id   INTEGER NOT NULL,
    loan_date   TEXT NOT NULL,
    return_date TEXT,
    FOREIGN KEY (book_id) REFERENCES books (book_id),
    FOREIGN KEY (member_id) REFERENCES members (member_id)
);
