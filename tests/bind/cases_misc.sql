-- Adversarial binder cases: parse-time folding (x AND 0, x IN ()), VALUES, CAST/CASE/EXISTS/HAVING, table-valued functions, INDEXED BY.
select a from t where nosuch = 1 and 0
select nosuch and 0 from t
select a from t where 0 and nosuch
select t.a from t join u on nosuch and 0
select a from t where nosuch and false
select a from t where nosuch and 0x0
select a from t where nosuch and 00
select a from t where nosuch and (0)
select a from t where nosuch and 0.0
select a from t where (nosuch and 0) or 1
select a from t group by a having nosuch and 0
select a from t where count(*) and 0
select a from t where nosuch() and 0
select a from t where (select nosuch) and 0
select a from t where (a, b) and 0
select a from t where nosuch in ()
select a from t where nosuch not in ()
select a from t where (a, b) in ()
select a from t where (select a, b from t) in ()
select a from t where count(*) in ()
select nosuch in () from t
select a from t where a in (select nosuch)
select a from t where a = ?100000
select cast(a as integer), cast(b as nosuchtype), cast(c as varchar(10)), cast(a as) from t
select 1 order by 2
select 1 group by 2
select * from t where 1 order by 4
select distinct a from t order by c
select distinct a, count(*) from t group by a
select all a from t
select distinct count(*) from t
select count(*) from (select distinct a from t)
values (1, 2), (3, nosuch)
values (nosuch)
values ((select count(*) from t))
select * from (values (1, 2), (3, 4)) where column1 = column2
select column3 from (values (1, 2))
select x.column1 from (values (1)) x
select column1 from (values (1) union values (2))
select * from (values (1), ('a' collate bogus))
values ('a' collate bogus) union values ('b')
values ('a') union values ('b' collate bogus)
values ('a'), ('b' collate bogus) union values ('c')
select a from t where a in (values (1), (2) union select 3)
select (values (1) union select 2)
select a from t where a = (values (nosuch))
select (select a from t limit 1) from t
select (select max(a) from t t2 where t2.a < t.a) from t
select * from t where a > (select avg(a) from t)
