SELECT a,
       b,
       c + * d
FROM t
WHERE a = 1;
