-- Adversarial binder cases: row values and subquery widths in every position.
select a from t where (a, b) = (select a, d from u)
select a from t where (a, b) = (select a from u)
select a from t where (a, b) < (1, 2)
select a from t where (a, b) <> (1, 2, 3)
select a from t where (a, (b, c)) = (1, (2, 3))
select a from t where (a, (b, c)) = (1, 2, 3)
select a from t where (a, b) is (1, 2)
select a from t where (a, b) is not (1, 2)
select a from t where (a, b) is null
select a from t where (a, b) isnull
select a from t where (a, b) not null
select a from t where (a, b) between (1, 2) and (3, 4)
select a from t where (a, b) between (1, 2) and 3
select a from t where a between (1, 2) and (3, 4)
select a from t where (a, b) in ((1, 2), (3, 4))
select a from t where (a, b) in ((1, 2), 3)
select a from t where (a, b) in (1, 2)
select a from t where a in ((1, 2))
select a from t where (a, b) in (select 1, 2)
select a from t where (a, b) in (select 1, 2, 3)
select a from t where (a, b) in (select * from u)
select a from t where (a, b, c) in (select * from u)
select a from t where (a, b) in (values (1, 2))
select a from t where (a, b) in u
select a from t where (a, b, c) in u
select a from t where (a) in (select a from u)
select a from t where (select a, b from t) in (select a, d from u)
select a from t where (select a, b from t) = (1, 2)
select a from t where (select a, b from t) = (select 1, 2)
select a from t where (select a, b from t) is null
select a from t where exists (select a, b from t)
select a from t where not exists (select * from u)
select (1, 2) = (1, 2)
select (1, 2) < (1, 3) from t
select ((1, 2)) = (1, 2)
select (1, 2) + 1
select -(1, 2)
select not (1, 2)
select (1, 2) and 1
select (1, 2) || 'x'
select (1, 2) like 'x'
select 'x' like (1, 2)
select (1, 2) collate nocase
select (1, 2) collate nocase = (1, 2)
select cast((1, 2) as text)
select case (1, 2) when (1, 2) then 1 end
select case 1 when (1, 2) then 1 end
select case when (1, 2) then 1 end
select case when 1 then (1, 2) end
select case when 1 then 1 else (1, 2) end
select abs((1, 2))
select count((1, 2)) from t
select a from t order by (a, b)
select a from t group by (a, b)
select a from t where (a, b)
select a from t having (a, b)
select a from t group by a having (a, b) = (1, 2)
select a from t limit (1, 2)
select a from t limit 1 offset (1, 2)
select a from t order by (1, 2) = (1, 2)
select (a, b) as x from t order by x
select (select a, b from t) as x from t
select a as x from t where (x, b) = (1, 2)
select a from t where (a, b) = (select a, b from t limit 1)
select a from t join u on (t.a, t.b) = (u.a, u.d)
select a from t join u on (t.a, t.b) = u.a
select sum(a) over (partition by (a, b)) from t
select sum(a) over (order by (a, b)) from t
select a from t where a in ((select a, b from t))
select a from t where (a, b) in ((select a, b from t))
select a from t where (select a, b) = (1, 2)
select (select 1, 2) from t
select (select (1, 2))
select (values (1, 2))
select a from t where a = (values (1))
select a from t where a = (values (1, 2))
select a from t where a in (values (1), (2))
select a from t where a in (values (1, 2))
select a from t where (a, b) in (values (1, 2), (3, 4))
select (a, b) is (1, 2) from t
select (a, b) = (select 1, 2 union select 3, 4) from t
select a from t where (a, b) != ((select 1), 2)
select a from t where (a, b) = (?, ?)
select a from t where (a, b) in (select ?, ?)
select a from t where ((a, b), c) in (select (1, 2), 3)
select (a, b) = (1, 2) and c from t
select x from (select (1, 2) as x)
select (1, 2) from (select 1)
select * from (select (1, 2))
select max((1, 2), 3)
select coalesce((1, 2), 3)
select a from t where (a, b) = (a, b) collate nocase
select a from t where (a, b) = (1, 2 collate bogus)
select a from t where (a, b collate bogus) = (1, 2)
select a from t where (a, b) = (1, 2) collate bogus
select a from t where (a, b) in (select 1, 2 collate bogus)
select a from t where (a, b) between (1, 2) and (3, 4 collate bogus)
select a from t where (a, b, c) = (select * from u)
select a from t where (a, b, c) = (select * from t)
select a from t where (select * from u) = (a, b, c)
select a from t where (a, b, c) between (select * from u) and (1, 2, 3)
select a from t where (a, b, c) is (select * from u)
select a from t where (a, b) = (select * from v)
select a from t where (a, b) = (select v.* from v)
select a from t where (a, b) = (select 1, 2 union select 3, 4)
select a from t where (a, b) = (select x, y from v order by 1)
select a from t where (select * from v) = (select * from v)
select a from t where (select x, y from v) = (select * from v)
select a from t where (a, b) = (with c as (select 1, 2) select * from c)
