-- Adversarial binder cases: common table expressions: column lists, scoping, circular and recursive references.
with c(x) as (select 1, 2) select x from c
with c(x, y) as (select 1) select x from c
with c(x, y) as (select 1, 2) select * from c
with c(x, x) as (select 1, 2) select x from c
with c(x, X) as (select 1, 2) select * from c
with c as (select 1 as k), c as (select 2 as k) select k from c
with c as (select 1 as k) select k from c, c
with c as (select 1 as k) select c.k from c, c
with c as (select 1 as k) select c1.k, c2.k from c c1, c c2
with t as (select 1 as k) select k from t
with t as (select 1 as k) select a from t
with t as (select a from t) select a from t
with t as (select * from t) select b from t
with tv as (select 1 as k) select k from tv
with c as (select 1 as k) select * from tv
with t as (select 1 as zz) select * from tv
with t as (select 1 as zz) select a, bee from tv
with c as (select 1 as k) select (select k from c)
with c as (select 1 as k) select k from (select k from c)
select k from (with c as (select 1 as k) select k from c)
select (with c as (select t.a as k) select k from c) from t
select (with c as (select a as k) select k from c) from t
select a from t where a in (with c as (select 1 as k) select k from c)
with c as (select 1 as k) select k from c where k in (with c as (select 2 as j) select j from c)
with c as (select 1 as k) select k from c where k in (with d as (select k from c) select k from d)
with c as (select 1 as k) select (with c as (select k + 1 as k from c) select k from c)
with c as (with d as (select 1 as k) select k from d) select k from c
with c as (with d as (select 1 as k) select k from d) select k from d
with c as (select 1 as k), d as (select k from c), e as (select k from d) select k from e
with e as (select k from d), d as (select k from c), c as (select 1 as k) select k from e
with c as (select k from c) select 1
with recursive c(n) as (select 1 union all select n + 1 from c where n < 3) select * from c
with recursive c(n) as (select 1 union select n + 1 from c where n < 3) select * from c
with recursive c(n) as (select 1 intersect select n + 1 from c where n < 3) select * from c
with recursive c(n) as (select 1 except select n + 1 from c) select * from c
with recursive c(n) as (select n from c union all select 1) select * from c
with recursive c(n) as (select 1 union all select n from c union all select n from c) select * from c
with recursive c(n) as (select 1 union all select 2 union all select n + 1 from c where n < 3) select * from c
with recursive c(n) as (select 1 union all select n + 1 from c where n < 3 order by 1) select * from c
with recursive c(n) as (select 1 union all select n + 1 from c where n < 3 limit 5) select * from c
with recursive c(n) as (select 1 union all select n + 1 from c limit n) select * from c
with recursive c(n) as (select 1 union all select n + 1 from c order by n) select * from c
with recursive c(n) as (select 1 union all select n + 1 from c order by nosuch) select * from c
with recursive c(n) as (select 1 union all select n + 1 from c order by 2) select * from c
with recursive c(n) as (select 1 union all select max(n) from c) select * from c
with recursive c(n) as (select 1 union all select n from c group by n) select * from c
with recursive c(n) as (select 1 union all select row_number() over () from c) select * from c
with recursive c(n) as (select 1 union all select n + 1 from c where n < (select max(n) from c)) select * from c
with recursive c(n) as (select 1 union all select n + 1 from c where exists (select 1 from c)) select * from c
with recursive c(n) as (select 1 union all select n + 1 from (select n from c)) select * from c
with recursive c(n) as (select 1 union all select n + 1 from c join c c2 on 1) select * from c
with recursive c(n) as (select 1 union all select c.n + 1 from t join c on t.a = c.n) select * from c
with recursive c(n) as (select 1 union all select c.n + 1 from t left join c on t.a = c.n) select * from c
with recursive c(n) as (select 1 union all select c2.n + 1 from c c2 where c2.n < 3) select * from c
with recursive c(n) as (select 1 union all select c.n + 1 from c c2 where c2.n < 3) select * from c
with recursive c(n) as (select 1 union all select n + 1 from c) select n from c limit 3
with recursive c(n) as (select 1 union all select n + 1 from c), d(m) as (select n from c) select m from d limit 3
with recursive c(n) as (select 1 union all select (select n from c) from t) select 1 from c
with recursive c(n) as (values (1) union all select n + 1 from c where n < 3) select * from c
with recursive c(n) as (values (1), (2) union all select n + 1 from c where n < 3) select * from c
with recursive c(n) as (select 1 union all values (2)) select * from c
with recursive c(n) as (select 1 union all select n + 1 from c where n < 3) select count(*) from c
with recursive c(n) as (select 1, 2 union all select n + 1 from c) select * from c
with recursive c(n, m) as (select 1, 2 union all select n + 1 from c) select * from c
with recursive c(n) as (select 1 union all select n + 1, 2 from c) select * from c
with recursive c as (select 1 as n union all select n + 1 from c where n < 3) select n from c
with recursive c as (select 1 union all select c.'1' + 1 from c) select * from c
with recursive c(n) as (select 1 union all select n + 1 from c where n < 3) select * from c as c2 where c2.n = 1
with recursive c(n) as (select 1 union all select n + 1 from c where n < 3) select * from c where c.n = 1
with recursive a(x) as (select 1 union all select x + 1 from a), b(y) as (select 1 union all select y + 1 from b, a) select 1
with recursive a(x) as (select 1 union all select x + 1 from a), b(y) as (select 1 union all select y + 1 from b, a) select * from b
with c as materialized (select 1 as k) select k from c
with c as not materialized (select 1 as k) select k from c
with c(k) as (select a from t order by b) select k from c
with c(k) as (select a from t order by k) select k from c
with c(k) as (select a as j from t order by j) select k from c
with c as (select a as j from t) select j from c order by k
with c as (select a, a from t) select * from c
with c as (select a, a from t) select "a:1" from c
with c as (select a as "x:1", a as x, a as x from t) select * from c
with c(x) as (select 1) select c.* from c
with c(x) as (select 1) select d.* from c
with c(x) as (select 1) select x from c as d
with c(x) as (select 1) select c.x from c as d
with c(x) as (select 1) select rowid from c
with c(x) as (select 1) select c.rowid from c
