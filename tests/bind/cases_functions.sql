-- Adversarial binder cases: function arity for every family, likelihood(), internal/special functions, MATCH/GLOB/REGEXP.
select upper(distinct b) from t
select abs(distinct a) from t
select upper(*) from t
select coalesce(*) from t
select nosuch(*) from t
select count(*), COUNT(*), Count(a) from t
select "upper"(b) from t
select [upper](b) from t
select `upper`(b) from t
select UPPER(b, 1) from t
select LENGTH() from t
select NoSuchFunc(b) from t
select sqlite_rename_column(1, 2, 3, 4, 5, 6, 7, 8, 9) from t
select affinity(a) from t
select implies_nonnull_row(1, 2) from t
select expr_compare(1, 2) from t
select sqlite_drop_column(1, 2, 3) from t
select date(), time(), datetime(), julianday(), unixepoch(), strftime() from t
select date(a, 'start of month', '+1 day', '-1 hour', 'utc', 'localtime') from t
select current_date, current_time, current_timestamp from t
select json(b), json_valid(b), json_type(b), json_type(b, '$'), json_quote(a) from t
select json() from t
select json(a, b) from t
select json_type(a, b, c) from t
select json_array_length(b, '$', 1) from t
select json_extract() from t
select json_extract(b) from t
select json_object('a') from t
select json_array(), json_object(), json_insert(), json_set(), json_replace(), json_remove() from t
select json_patch(b) from t
select json_group_array(a), json_group_object(b, a) from t
select json_group_array(a, b) from t
select json_group_object(b) from t
select json_group_array(a) over () from t
select json_group_object(b, a) over (order by a) from t
select b -> '$.x', b ->> '$.y' from t
select b -> nosuch from t
select pi(), sqrt(a), pow(a, 2), power(a, 2), mod(a, 3), log(a), log(2, a), log10(a), log2(a), ln(a), exp(a) from t
select pi(1) from t
select log(1, 2, 3) from t
select mod(a) from t
select trunc(a, 2) from t
select round(c), round(c, 1) from t
select round(c, 1, 2) from t
select ceil(c), ceiling(c), floor(c), sign(c), degrees(c), radians(c) from t
select sin(a), cos(a), tan(a), asin(a), acos(a), atan(a), atan2(a, c), sinh(a), cosh(a), tanh(a), asinh(a), acosh(a), atanh(a) from t
select atan2(a) from t
select substr(b, 1), substring(b, 1, 2), instr(b, 'x'), replace(b, 'a', 'b'), trim(b), trim(b, 'x'), ltrim(b), rtrim(b, 'y') from t
select replace(b, 'a') from t
select instr(b) from t
select trim(b, 'x', 'y') from t
select char(), char(65), char(65, 66, 67) from t
select hex(b), unhex(b) from t
select quote(a), typeof(a), unicode(b), soundex(b), zeroblob(a), randomblob(a), random() from t
select random(1) from t
select lower() from t
select glob('a*', b), like('a%', b), like('a%', b, '\') from t
select glob('a*') from t
select like('a%') from t
select like('a%', b, 'x', 'y') from t
select nullif(a, 1), ifnull(a, 1), iif(a, 1, 0), coalesce(a, b, c) from t
select nullif(a) from t
select iif(a, 1) from t
select iif(a, 1, 2, 3) from t
select ifnull(a) from t
select ifnull(a, b, c) from t
select printf(), format(), printf('%s'), format('%d %d', a, a) from t
select changes(), total_changes(), last_insert_rowid(), sqlite_version(), sqlite_source_id() from t
select changes(1) from t
select sqlite_compileoption_used('X'), sqlite_compileoption_get(0) from t
select sqlite_compileoption_used() from t
select subtype(a) from t
select likely(a), unlikely(a), likelihood(a, 0.25) from t
select likelihood(a, 1.0), likelihood(a, 0.0), likelihood(a, 1e0), likelihood(a, .5) from t
select likelihood(a, 1) from t
select likelihood(a, 0) from t
select likelihood(a, -0.5) from t
select likelihood(a, 1.0000001) from t
select likelihood(a, (0.5)) from t
select likelihood(a, 0.5 + 0) from t
select likelihood(a, ?) from t
select likelihood(a, '0.5') from t
select likelihood(a, 1e-1) from t
select likelihood(a, 2e-1) from t
select likelihood(a, 5e-1 collate nocase) from t
select LIKELIHOOD(a, 2) from t
select likely(a, 0.5) from t
select unlikely() from t
select likelihood(a) from t
select a from t where likely(a > 1) and unlikely(b = 'x')
select a from t order by likelihood(a, 0.5)
select a from t group by likely(a)
select count(*) from t group by likely(1)
select a from t group by likely(2)
select likely(count(*)) from t
select likely(row_number() over ()) from t
select likely(a) over () from t
select coalesce(a) over () from t
select count(a) filter (where likely(a > 1)) from t
select snippet(b) from t
select highlight(b, 1, 2, 3) from t
select bm25(b) from t
select offsets(b) from t
select matchinfo(b) from t
select matchinfo(b, 'x', 'y') from t
select optimize(b) from t
select fts5(b) from t
select fts5_source_id() from t
select fts3_tokenizer(b) from t
select rtreedepth(b), rtreenode(a, b), rtreecheck(b) from t
select match(b, 'x') from t
select a from t where b match 'x'
select a from t where b glob 'x'
select a from t where b regexp 'x'
select a from t where b not regexp 'x'
select load_extension('x') from t
select sqlite_log(1, 'x') from t
select sum(a) over (), total(a) over (), avg(a) over () from t
select count(*) from t where exists (select count(*) from u)
select avg(*) from t
select sum(*) from t
select max(*) from t
select group_concat(*) from t
select row_number(*) over () from t
select count(*) over (), count() over () from t
select unhex(b, 'x') from t
select octet_length(b) from t
select concat(b, b) from t
select concat_ws(',', b) from t
select string_agg(b) from t
select timediff(a, a) from t
select median(a) from t
select percentile(a, 50) from t
select regexp('x', b) from t
select abs() over () from t
select upper(b, b) over () from t
select max() over () from t
select min() over () from t
select max(a, b) over () from t
select count(a, b) over () from t
select sum(a, b) over () from t
select nosuch() over () from t
select likelihood(a) over () from t
select upper() filter (where a > 1) from t
select abs(a) filter (where a > 1) over () from t
select a from t where max() over () > 1
select a from t where upper() over () > 1
select a from t where count(a, b) > 1
select a from t where row_number(1) over () > 1
select a from t where ntile(1) over () > 1
select min(a, b) filter (where 1) from t
select a from t where b not match 'x'
select a from t where b not glob 'x' escape 'y'
select a from t where b glob 'x' escape 'y'
select a from t where b match 'x' escape 'y'
select a from t where b regexp 'x' escape 'y'
