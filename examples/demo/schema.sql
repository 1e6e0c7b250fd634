-- Schema of the demo benchmark database (singers, stadiums, concerts).
CREATE TABLE stadium (
    stadium_id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    location TEXT,
    capacity INT
);
CREATE TABLE singer (
    singer_id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    country TEXT,
    song_name TEXT,
    song_release_year TEXT,
    age INT
);
CREATE TABLE concert (
    concert_id INTEGER PRIMARY KEY,
    concert_name TEXT,
    stadium_id INT REFERENCES stadium(stadium_id),
    year INT
);
CREATE TABLE singer_in_concert (
    concert_id INT REFERENCES concert(concert_id),
    singer_id INT REFERENCES singer(singer_id),
    PRIMARY KEY (concert_id, singer_id)
);
