-- Adversarial binder cases: unknown collations: where SQLite looks them up (compare, sort, DISTINCT, compounds, subquery columns).
select a from ci where a = 'x'
select a from ci order by a
select a from ci where a collate bogus = 'x'
select a collate bogus from ci
select a from ci where a in (select b collate bogus from t)
select a from t where a in (select b collate bogus from t)
select a from t where b in (select b collate bogus from t)
select a from t where b collate bogus in (select b from t)
select a from t where b in (select b from t) collate bogus
select a from t where b not in ('x' collate bogus)
select a from t where 'x' collate bogus in (b)
select a from t where b in ('x', 'y' collate bogus)
select a from t where b collate nocase collate bogus = 'x'
select a from t where b collate bogus collate nocase = 'x'
select a from t where (b collate bogus) collate nocase = 'x'
select a from t where b = 'x' collate bogus collate nocase
select a from t where b||'x' collate bogus = 'y'
select a from t where (b||'x') collate bogus = 'y'
select a from t where b collate bogus||'x' = 'y'
select a from t where -b collate bogus = 1
select a from t where +b collate bogus = 1
select a from t where cast(b collate bogus as text) = 'x'
select a from t where cast(b as text) collate bogus = 'x'
select a from t where abs(b collate bogus) = 1
select a from t where coalesce(b collate bogus, 'x') = 'y'
select a from t where (select b collate bogus) = 'y'
select a from t where (select b collate bogus from t) = 'y'
select a from t where case when 1 then b collate bogus end = 'x'
select a from t where case b collate bogus when 'x' then 1 end = 1
select a from t where case b when 'x' collate bogus then 1 end = 1
select a from t where case b when 'x' then 'y' collate bogus end = 'z'
select a from t where b is 'x' collate bogus
select a from t where b is not null collate bogus
select a from t where b collate bogus is not null
select a from t where b collate bogus notnull
select a from t where b like 'x' collate bogus
select a from t where b glob 'x' collate bogus
select a from t where b between 'a' collate bogus and 'b'
select a from t where b between 'a' and 'b' collate bogus
select a from t where b collate bogus > 'a' and 0
select a from t where 0 and b collate bogus > 'a'
select a from t where b collate bogus and 1
select a from t where not b collate bogus
select a from t where exists (select 1 from u where d collate bogus = 'x')
select a from t where b collate nocase = d collate rtrim
select min(b collate bogus, 'x') from t
select max('x', b collate bogus) from t
select max(b collate bogus) over () from t
select count(distinct b collate bogus) from t
select group_concat(distinct b collate bogus) from t
select sum(distinct a collate bogus) from t
select a from t group by 1, b collate bogus
select distinct a, b collate bogus from t
select distinct * from t
select a from t order by b collate bogus desc
select a from t order by 1 collate nocase, b collate bogus
select b collate bogus as x from t order by x
select b collate bogus as x from t order by 1
select b collate bogus as x from t group by x
select b collate bogus as x from t where x = 'y'
select b collate bogus from t intersect select d from u
select b from t except select d collate bogus from u
select b from t union all select d collate bogus from u order by 1
select b from t union all select d from u order by 1 collate bogus
select * from (select b collate bogus as x from t) where x = 'y'
select * from (select b collate bogus as x from t) order by x
select * from (select b collate bogus as x from t)
with c as (select b collate bogus as x from t) select x from c where x > 'a'
select a from t where b collate "nocase" = 'x'
select a from t where b collate 'nocase' = 'x'
select a from t where b collate [binary] = 'x'
select a from t where b collate NoCase = 'x'
select a from t where b collate "no case" = 'x'
select a from t where b collate rtrim = 'x'
select a from t where b collate binary in ('x')
select a from t join u on b collate bogus = d
select a from t join u using (a) where b collate bogus = d
select a from t where 1 collate bogus = a
select a from t where 1 collate bogus = 1
select a from t where null collate bogus = 1
select a from t where b = (select d collate bogus from u)
select a from t where b in (select d from u order by d collate bogus)
select (select d from u order by d collate bogus) from t
select sum(a) over (partition by b collate nocase order by c collate rtrim) from t
select a from t order by (b collate bogus)
select a from t order by b collate bogus || 'x'
select a from t order by (select b collate bogus)
select 1 union select d collate bogus from u
select null union select d collate bogus from u
select 'x' union select d collate bogus from u
select a from t union select d collate bogus from u
select 1 except select d collate bogus from u
select 1 union all select d collate bogus from u
select b from t union select 1 union select d collate bogus from u
select 1 union select 2 union select d collate bogus from u
select a from t where a in (1) and b in ('x' collate bogus)
select a from t where b in ('x' collate bogus, 'y')
select a from t where b in (c collate bogus, 'y')
select a from t where b in (c collate bogus)
