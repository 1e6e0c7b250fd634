-- Adversarial binder cases: correlated references at several depths, result-set aliases per clause, schema-qualified names, double-quoted fallback.
select a from t where exists (select 1 from u where exists (select 1 from v where v.x = t.a and v.y = u.a))
select a from t where exists (select 1 from u where exists (select 1 from v where x = a))
select (select (select t.b from v) from u) from t
select (select (select b from v) from u) from t
select (select (select d from v) from u) from t
select (select (select nosuch from v) from u) from t
select (select (select t.nosuch from v) from u) from t
select (select (select u.b from v) from u) from t
select (select x from v where x = (select max(a) from u)) from t
select a from t where a = (select a)
select (select a) from t
select (select u.a) from t
select a as q from t where exists (select 1 from u where q = u.a)
select a as q, (select q) from t
select a as q from t order by (select q)
select a as q from t group by (select q)
select a as q from t group by a having (select q) > 1
select a as q from t join u on q = u.a
select t.a as q from t join u on (select q) = u.a where q > 0
select a from t t1 where exists (select 1 from t t2 where t2.a = t1.a and exists (select 1 from t t3 where t3.b = t1.b))
select a from t t1 where exists (select 1 from t where t.a = t1.a)
select a from t t1, t t2
select t1.a, t2.b from t t1, t t2
select main.t.a from t
select main.t.a from t x
select main.x.a from t x
select temp.t.a from t
select nosuchdb.t.a from t
select main.s.a from (select a from t) s
select main.tv.a from tv
with c as (select 1 as k) select main.c.k from c
select main.a from t
select t.t.a from t
select * from main.t
select * from temp.t
select * from main.nosuch
select * from nosuchdb.t
select "a", "b", "nosuch" from t
select "t"."a" from t
select "t".nosuch from t
select t."nosuch" from t
select "nosuch".a from t
select a from t where "b" = 'x'
select a from t where b = "x"
select a from t group by "nosuch"
select a from t order by "nosuch"
select a from t order by "a"
select count(*) from t group by "x" having "y" = 'y'
select "x" as x from t where x = 'x'
select a from t join u on "nosuch" = 1
select a from t limit "nosuch"
select "a" from (select 1 as b)
select ("nosuch")
select upper("nosuch") from t
select count("nosuch") from t
select a from t where exists (select "nosuch" from u)
select a from t where a in (select "a" from u)
select [nosuch] from t
select `nosuch` from t
select 'a' from t
select [true] from t
select `false` from t
select "true", "false" from t
select True, FALSE from t
select true from (select 1 as "true")
select x.true from (select 1 as "true") x
select ?, ?1, ?2, :a, @b, $c, $d::e from t
select count(*) as n from t where exists (select 1 from u where n > 1)
select count(*) as n from t group by b having exists (select 1 from u where n > 1)
select count(*) as n from t order by exists (select 1 from u where n > 1)
select a as n from t where exists (select count(*) as n from u where n > 1)
select row_number() over () as r from t group by r
select row_number() over () as r from t order by r + 1
select row_number() over () as r from t where r > 1
select row_number() over () as r from t order by (select r)
select a from t group by (select count(t.a))
select a from t group by (select count(*) from u)
select a from t group by (select count(u.a) from u where u.a = t.a)
select (select 1 from u join v on count(t.a) > 0) from t
with c as (select 1) select a from t where a in c
select a from t where a in tv
select a from t where a in tv2
select a from t where a in main.u
select a from t where a in main.nosuch
select a from t where a in vagg
select a from t not indexed
select a from t as t
select t.a from (select 1 as a) t, t
select * from (select 1 as a) t, t
select t.*, * from t
select *, * from t
select t.* from t, t
select t.a from t, t
select * from t join t using (a)
select x.a from (t) x
select t.a from (t) x
select t.a from (t)
select t.a from ((t))
select a from ((t join u using (a)))
select u.* from t
select a, (select count(*) from u where u.a = t.a) as cnt from t order by cnt desc
select a, (select count(*) from u where u.a = t.a) as cnt from t where cnt > 0
select a, (select count(*) from u where u.a = t.a) as cnt from t group by cnt
select sum(a) as s, (select s) from t
select sum(a) as s from t order by (select s)
select sum(a) as s from t group by b having (select s) > 1
select a as q from t where (select q + 1) > 2
select a, b from t where (a, b) = (select max(a), min(b) from t)
select t.* from t where t.a = (select min(a) from t t2 where t2.b = t.b)
select a from t where a = (select a from u where u.a = t.a union select 1)
select a from t where a in (select a from u where u.d = t.b order by t.c)
select a from t where a in (select a from u where u.d = t.b group by t.c)
select a from t where a in (select a from u limit t.a)
select (select t.a + u.a from u limit 1) from t
select (select count(*) from u where u.a = t.a and u.d = (select t.b)) from t
select (select (select count(t.a) from v) from u) from t
select (select (select count(u.a) from v) from u) from t
select (select (select count(v.x) + count(t.a) from v) from u) from t
select (select (select count(u.a + t.a) from v) from u) from t
