-- Binder oracle: each line is one query; squint's verdict and message must
-- equal SQLite's (sqlite3_prepare_v2 on schema.sql).
select a, b, c from t
select x from t
select t.x from t
select z.a from t
select a from t, u
select t.a, u.a from t, u
select * from t, u
select * from t, t
select t.* from t, u
select q.* from t
select *
select a from t join u using (a)
select a from t join u using (b)
select a from t natural join u
select * from t natural join u
select a from t left join u using (a) right join v on 1
select a from t full join u using (a)
select * from t full join u using (a)
select rowid from t
select rowid from w
select rowid from t, u
select t.rowid, oid, _rowid_ from t
select "a" from t
select "nosuch" from t
select 'x' from t where "nosuch" = 1
select true, false from t
select "true" from t
select a as q from t where q > 1
select a as q from t group by q
select a+1 as a from t group by a
select a as q from t order by q
select count(*) as n from t where n > 1
select count(*) as n from t group by a having n > 1
select a as n from t having n > 1
select count(*) from t having count(*) > 1
select count(*) from t where count(*) > 1
select a from t where count(*) > 1
select a from t order by count(*)
select count(*) from t order by count(*)
select count(count(*)) from t
select sum(a) from t group by sum(a)
select a from t group by count(*)+1
select a, count(*) from t group by 2
select a, count(*) from t group by 3
select a from t group by 0
select a from t order by 2
select a from t order by -1
select a from t order by 0x1
select a from t order by 0x5
select a from t limit a
select a from t limit (select count(*) from u)
select a from t limit count(*)
select (select count(t.a) from u) from t
select a from t where (select count(t.a) from u) > 1
select (select t.a from u order by t.a) from t
select (select u.a from u order by t.a) from t
select (select 1 from u group by t.a) from t
select a from t where exists (select 1 from u where u.a = t.a)
select a from t where a in (select a, d from u)
select a from t where (a, b) in (select a, d from u)
select a from t where (a, b) = (1, 2)
select a from t where (a, b) = 1
select (a, b) from t
select (select a, b from t)
select a from t where a in t
select a from t where a in u
select a from t where a in nosuch
select nosuch(a) from t
select lenght(b) from t
select substr(b) from t
select substr(b, 1, 2, 3) from t
select count(a, b) from t
select count(distinct a, b) from t
select count(distinct a) from t
select group_concat(distinct a, ',') from t
select upper(b) filter (where a > 1) from t
select count(*) filter (where a > 1) from t
select max(a, c) from t
select max(a) from t
select likelihood(a, 0.5) from t
select likelihood(a, 2) from t
select likelihood(a, b) from t
select a from t order by b collate nocase
select a from t order by b collate bogus
select b collate bogus from t
select row_number() from t
select row_number() over () from t
select upper(b) over () from t
select a from t where row_number() over () > 1
select sum(a) over w from t
select sum(a) over w from t window w as (order by a)
select sum(a) over (w order by b) from t window w as (order by a)
select sum(a) over (w partition by b) from t window w as (order by a)
select sum(a) over (w rows 1 preceding) from t window w as (partition by b)
select a from t order by sum(a) over ()
select a from t group by sum(a) over ()
select sum(count(*)) over () from t
select a, b from t union select a from u
select a from t union select a from u order by c
select a from t union select a from u order by 1
select a from t union select a from u order by 2
select a as q from t union select a from u order by q
select a from t union select d from u order by d
select a from t union select a from u order by a+1
values (1), (2, 3)
values (1, 2), (3, 4)
select 1 union values (1, 2)
select column1 from (values (1), (2))
select column2 from (values (1), (2))
with c as (select 1 as k) select k from c
with c(k, l) as (select 1) select k from c
with c as (select * from c) select 1 from c
with c as (select 1) select 1
with c as (select nosuch from t) select 1
with c as (select nosuch from t) select * from c
with recursive c(n) as (select 1 union all select n+1 from c where n < 5) select n from c
with recursive c(n) as (select 1 union all select n+1 from c, c) select n from c
with recursive c(n) as (select 1 union all select (select n from c)) select n from c
with recursive c(n) as (select 1 union all select count(*) from c) select n from c
with c as (select 1 as k), d as (select k from c) select k from d
with d as (select k from c), c as (select 1 as k) select k from d
select a, bee from tv
select b from tv
select p, q from tv2
select a from tv2
select a from (select a from t) s
select s.a from (select a from t) s
select t.a from (select a from t) s
select a from (select a, a from t)
select * from (select a, a from t)
select "a:1" from (select a, a from t)
select id, "from" from "order"
select k, v from nok
select a from t join u on t.a = u.a
select t.a from t join u on t.a = v.x join v on 1
select t.a from t left join u on u.a = v.x join v on 1
select t.a from t right join u on t.a = u.a
select a from t where b like 'x%' escape 1
select cast(a as text) from t
select a from t where a between 1 and 2
select case a when 1 then 'x' else b end from t
select distinct a from t order by b
select a from t x where x.a = 1
select t.a from t x
select a, count(*) from t
select a, max(c) from t group by b
select date('now'), strftime('%Y', 'now'), julianday('now') from t
select strftime('%Y') from t
select json_extract('{}', '$.a') from t
select iif(a, 1, 2) from t
select coalesce(a) from t
select ifnull(a, b) from t
select printf('%d', a) from t
select nosuch.a from t join u on nosuch.a = 1
select a from t where a = ?1 and b = :b and c = @c
select total(a), avg(c), min(b) from t
select * from t where a in (select * from u)
select (select * from u) from t
select a from t where exists (select * from u)
select a from t order by (select count(*) from u)
select a from t group by a order by count(*)
select max(a) as m from t order by m
select a as x, x + 1 from t
select b as a from t where a = 1
select count(*) as c from t group by c
select sum(a) as s from t where s > 1
select a from t where b collate bogus = 'x'
select a from t where 'x' = b collate bogus
select upper(b collate bogus) from t
select a from t where upper(b collate bogus) = 'x'
select a from t group by b collate bogus
select distinct b collate bogus from t
select b collate bogus from t union select d from u
select b collate bogus from t union all select d from u
select min(b collate bogus) from t
select count(b collate bogus) from t
select a from t where b collate bogus in ('x')
select a from t where b collate bogus like 'x'
select a from t where b collate bogus between 'a' and 'b'
select case b collate bogus when 'x' then 1 end from t
select a from t where b collate bogus is null
select a from t order by upper(b collate bogus)
select a from t order by b collate nocase, 1 collate rtrim
