-- One gold query of the library benchmark, for squint template (make demo).
SELECT AVG(pages) FROM books WHERE genre = 'Mystery' AND pub_year >= 1990;
