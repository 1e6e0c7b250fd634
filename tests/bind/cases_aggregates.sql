-- Adversarial binder cases: aggregate ownership (count(t.a) in subqueries), misuse in every clause, nesting, FILTER, DISTINCT, LIMIT/OFFSET.
select (select count(u.a) + count(t.a) from u) from t
select (select sum(t.a + u.a) from u) from t
select a from t group by a having (select count(t.b) from u) > 1
select a from t group by a having exists (select 1 from u where count(t.b) > 1)
select a from t group by a having exists (select 1 from u group by u.a having count(t.b) > 1)
select (select max(t.a) from u group by u.d) from t
select (select 1 from u order by count(t.a)) from t
select (select 1 from u group by count(t.a)) from t
select t.a, (select count(t.a)) from t
select a from t order by (select count(t.a) from u)
select count(*) from t order by (select count(t.a) from u)
select (select count(*) from u where u.a = count(t.a)) from t
select sum((select count(t.a) from u)) from t
select count((select count(t.a) from u)) from t
select (select count(t.a) from u where u.a = t.a) from t group by b
select a, (select count(t.a) from u) from t
select (select count(t.a) from u) from t where a > 1 group by b having count(*) > 0 order by 1
select a from t where count(*) over () > 1
select a from t group by a having count(*) over () > 1
select a from t group by row_number() over ()
select a from t order by row_number() over ()
select a from t order by count(*) over (order by a)
select a, count(*) over () from t group by a
select count(*) over (), count(*) from t
select sum(count(*)) over () from t group by a
select sum(count(*) over ()) from t
select count(*) over (partition by count(*)) from t
select count(*) over (partition by count(*)) from t group by a
select count(*) over (order by sum(a)) from t
select row_number() over (order by row_number() over ()) from t
select a from t join u on count(*) > 1
select a from t join u on count(*) over () > 1
select a from t limit row_number() over ()
select a from t limit 1 offset count(*)
select a from t limit 1 offset (select count(*) from u)
select a from t limit (select a)
select a from t limit (select t.a)
select a from t limit (select a from u)
select (select 1 from u limit t.a) from t
select a from t limit ?
select a from t limit :x offset @y
select a from t limit 'x'
select a from t limit 1, 2
select a from t limit a + 1
select a as q from t limit q
select a from t where a = max(b)
select a from t where max(a, c) > 1
select a from t where min(a) > 1
select a from t group by b having max(a, c) > 1
select a from t group by b having max(a) > 1
select min(a) from t group by max(a)
select a from t group by min(a, c)
select a from t group by b, count(*)
select a from t group by b having count(count(*)) > 1
select count(distinct a) filter (where b > 1) from t
select count(*) filter (where count(*) > 1) from t
select count(*) filter (where row_number() over () > 1) from t
select sum(a) filter (where a > 1) over () from t
select sum(a) filter (where (select count(t.a) from u) > 1) from t
select row_number() filter (where a > 1) over () from t
select lower(b) filter (where a > 1) from t
select abs(a) over () from t
select count(*) over w from t window w as ()
select total(a) over (w) from t window w as (order by a)
select avg(distinct a) from t
select avg(distinct a, b) from t
select sum(distinct a) over () from t
select count() from t
select count(a) from t where a in (select count(*) from u)
select group_concat(b) from t
select group_concat(b, ',') from t
select group_concat(b, ',', 'x') from t
select group_concat() from t
select group_concat(distinct b, ',') from t
select string_agg(b, ',') from t
select total() from t
select sum(a, b) from t
select avg() from t
select min() from t
select max() from t
select min(a, b, c) from t
select max(a) over () from t
select max(a, c) over () from t
select min(a) filter (where a > 1) from t
select max(a, c) filter (where a > 1) from t
select cast(nosuch as text) from t
select cast(count(*) as text) from t
select cast(count(*) as text) from t where cast(count(*) as int) > 1
select case when count(*) > 1 then 1 end from t
select case count(*) when 1 then 'x' else 'y' end from t group by b
select case a when 1 then count(*) end from t
select case nosuch when 1 then 1 end from t
select case when 1 then nosuch end from t
select case when 1 then 1 else nosuch end from t
select case when 1 then 1 end as k from t where k = 1
select exists (select 1), not exists (select 1 from t) from t
select exists (select nosuch from t)
select exists (select * from nosuch)
select exists (values (1), (2, 3))
select count(*) from t where exists (select count(*) from u having count(*) > 1)
select a from t where exists (select 1 from u having 1)
select a from t where exists (select count(*) from u having a > 1)
select count(*) from t having a > 1
select count(*) from t having b
select a from t having count(*) > 1
select a from t group by a having nosuch > 1
select a from t group by a having count(nosuch) > 1
select 1 having 1
select 1 group by 1 having 1
select count(*) having count(*) > 0
select 1 where 1
select 1 order by 1
select sum(a) as s from t group by s
select sum(a) as s from t group by s + 1
select sum(a) as s from t group by -s
select sum(a) as s from t group by (s)
select sum(a) as s from t group by s collate nocase
select sum(a) as s from t group by b, s
select sum(a) as s from t group by abs(s)
select max(a) as m from t group by m is null
select count(*) as n from t group by (select n)
select count(*) as n from t group by 1
select count(*) + 1 as n from t group by 1
select a, count(*) as n from t group by 2
select a, count(*) from t group by 2 + 0
