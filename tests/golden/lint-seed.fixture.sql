-- lint-seed.fixture.sql -- small versions of the five BIRD databases behind
-- the gold queries of seed 003 (SpotIt, Fig. 1 and App. B.1-B.9), written
-- for tests/golden/lint-seed: the tables and keys those queries touch, with
-- the kinds of rows the paper's counterexample databases hold (a patient
-- with several laboratory rows and examinations, tied scores and times, a
-- major name spelled correctly).
-- thrombosis_prediction
CREATE TABLE Patient (ID INTEGER PRIMARY KEY, SEX TEXT, Birthday DATE, Description DATE,
                      `First Date` DATE, Admission TEXT, Diagnosis TEXT);
CREATE TABLE Laboratory (ID INTEGER REFERENCES Patient(ID), Date DATE, RNP TEXT, UA REAL,
                         PLT INTEGER, PRIMARY KEY (ID, Date));
CREATE TABLE Examination (ID INTEGER REFERENCES Patient(ID), `Examination Date` DATE,
                          `aCL IgG` REAL, `aCL IgM` REAL, `aCL IgA` INTEGER, Diagnosis TEXT);
-- debit_card_specializing
CREATE TABLE gasstations (GasStationID INTEGER PRIMARY KEY, ChainID INTEGER, Country TEXT,
                          Segment TEXT);
CREATE TABLE transactions_1k (TransactionID INTEGER PRIMARY KEY, Date DATE, Time TEXT,
                              CustomerID INTEGER, CardID INTEGER, GasStationID INTEGER,
                              ProductID INTEGER, Amount INTEGER, Price REAL);
-- student_club
CREATE TABLE major (major_id TEXT PRIMARY KEY, major_name TEXT, department TEXT, college TEXT);
CREATE TABLE member (member_id TEXT PRIMARY KEY, first_name TEXT, last_name TEXT, position TEXT,
                     link_to_major TEXT REFERENCES major(major_id));
-- card_games
CREATE TABLE cards (id INTEGER PRIMARY KEY, uuid TEXT, name TEXT, type TEXT, side TEXT);
CREATE TABLE legalities (id INTEGER PRIMARY KEY, format TEXT, status TEXT,
                         uuid TEXT REFERENCES cards(uuid));
-- codebase_community
CREATE TABLE posts (Id INTEGER PRIMARY KEY, ViewCount INTEGER, Score INTEGER, Title TEXT);
CREATE TABLE comments (Id INTEGER PRIMARY KEY, PostId INTEGER REFERENCES posts(Id),
                       Score INTEGER, Text TEXT, UserId INTEGER);

INSERT INTO Patient VALUES (1, 'F', '1989-08-28', NULL, '1997-01-27', '-', 'SLE'),
                           (2, 'M', '1960-01-01', NULL, '1994-02-01', '-', 'Behcet'),
                           (3, 'F', '1989-08-28', NULL, '1990-05-05', '+', 'MCTD');
INSERT INTO Laboratory VALUES (1, '1991-01-01', '+-', 6.5, 100),
                              (1, '1992-01-01', '0', 7.0, 250),
                              (3, '1993-01-01', 'negative', 7.0, 400),
                              (3, '1994-01-01', '-', 5.0, 300);
INSERT INTO Examination VALUES (2, '1995-03-03', 11, 12, 0, 'Behcet'),
                               (2, '1996-04-04', 14, 15, 0, 'Behcet'),
                               (1, '1997-01-27', 1, 1, 1, 'SLE'),
                               (3, '1993-01-01', 2, 2, 2, 'MCTD');
INSERT INTO gasstations VALUES (10, 1, 'CZE', 'Premium'), (11, 2, 'SVK', 'Value');
INSERT INTO transactions_1k VALUES (1, '2012-01-01', '09:00:00', 7, 70, 10, 2, 1, 10.0),
                                   (2, '2012-08-25', '10:00:00', 7, 70, 10, 2, 1, 10.0),
                                   (3, '2012-08-25', '10:00:00', 8, 80, 11, 2, 2, 20.0);
INSERT INTO major VALUES ('rec1', 'Environmental Engineering', 'Civil', 'Engineering'),
                         ('rec2', 'Physics', 'Physics', 'Science');
INSERT INTO member VALUES ('m1', 'Katy', 'Ward', 'Member', 'rec1'),
                          ('m2', 'Ali', 'Reed', 'President', 'rec1');
INSERT INTO cards VALUES (1, 'u1', 'Ornithopter', 'Artifact', NULL), (2, 'u2', 'Opt', 'Instant', NULL);
INSERT INTO legalities VALUES (1, 'vintage', 'Legal', 'u1'), (2, 'legacy', 'Legal', 'u1'),
                              (3, 'vintage', 'Legal', 'u1');
INSERT INTO posts VALUES (1, 120, 5, 'a'), (2, 140, 3, 'b'), (3, 900, 9, 'c');
INSERT INTO comments VALUES (1, 1, 7, 'first', 1), (2, 2, 7, 'second', 2), (3, 3, 9, 'third', 3);
