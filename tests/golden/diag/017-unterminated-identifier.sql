SELECT "abc FROM t;
