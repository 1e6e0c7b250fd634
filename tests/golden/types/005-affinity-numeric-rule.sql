-- Rule 5: anything else is NUMERIC: DECIMAL, BOOLEAN, DATE, DATETIME and
-- STRING (which is not TEXT!).
SELECT c_numeric, c_decimal, c_boolean FROM decl;
SELECT c_date, c_datetime, c_string FROM decl;
