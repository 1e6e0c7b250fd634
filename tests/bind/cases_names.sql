-- Adversarial binder cases: column names of subqueries/CTEs/views, rowid aliases, TRUE/FALSE names.
select [a:4] from (select a, a, a, a, a from t)
select [a:3] from (select a, a, a, a, a from t)
select [x:2] from (select a as x, a as x, a as "x:1" from t)
select [x:1:1] from (select a as x, a as x, a as "x:1" from t)
select [X:1] from (select a as x, a as X from t)
select [a:1] from (select a, a from t)
select [a:1] from vdup
select * from vdup
select b from (select likely(b) from t)
select b from (select unlikely(b) from t)
select b from (select likelihood(b, 0.5) from t)
select b from (select b collate nocase from t)
select b from (select (b collate nocase) from t)
select b from (select (b) from t)
select b from (select ((b)) from t)
select b from (select +b from t)
select "+b" from (select +b from t)
select [+b] from (select +b from t)
select a from (select rowid from t)
select rowid from (select rowid from t)
select rowid from (select rowid from u)
select rowid from (select oid from u)
select _rowid_ from (select oid from u)
select oid from (select _rowid_ from u)
select a from (select t.rowid from t)
select a from (select oid from t)
select [t.a] from (select t.a from t)
select a from (select t.a from t)
select a from (select main.t.a from t)
select [a+1] from (select a+1 from t)
select [a  +  1] from (select a  +  1 from t)
select [count(*)] from (select count(*) from t)
select [COUNT(*)] from (select COUNT(*) from t)
select [count(*)] from (select COUNT(*) from t)
select k from (select a as k from t)
select [a] from (select a as [a] from t)
select [1] from (select 1)
select [NULL] from (select null)
select [x'00'] from (select x'00')
select ['s'] from (select 's')
select ["b"] from (select "b" from t)
select b from (select "b" from t)
select ["nosuch"] from (select "nosuch" from t)
select [?] from (select ?)
select column1 from (select 1)
select [(select 1)] from (select (select 1))
select [a] from (select a from t union select d from u)
select [d] from (select a from t union select d from u)
select [a:1] from (select * from t, u)
select * from (select * from t, u)
select [a:1] from (select * from t join u using (a))
select rowid from tv
select rowid from vwr
select oid from nok
select rowid from r
select r.rowid from r
select oid from r
select _rowid_ from r
select rowid from r2
select oid from r2
select _rowid_ from r2
select r2.rowid from r2
select rowid from r, r2
select rowid from r, u
select rowid from t, w
select rowid from w, nok
select rowid from t join w using (a)
select rowid from t natural join u
select t.rowid from t natural join u
select rowid from (select 1) s, t
select rowid from t left join u on 1
select rowid from u right join t on 1
select rowid from g
select b, c from g
select * from g
select count(*) from g where b > 1
select rowid from (t)
select rowid from (t, u)
select rowid from (t join w on 1)
select t.rowid from (t, u)
select x.rowid from t x
select t.rowid from t x
select "rowid" from w
select "rowid" from t
select [rowid] from w
select ROWID, OID, _ROWID_ from u
select _rowid from t
with c as (select oid from u) select oid from c
with c as (select _rowid_ from u) select _rowid_ from c
with c as (select rowid from t) select rowid from c
with c as (select rowid from t) select a from c
with c as (select t.rowid from t) select rowid from c
select [_rowid_] from (select _rowid_ from u)
select x.[oid] from (select oid from u) x
select x.oid from (select oid from u) x
select x.rowid from (select oid from u) x
select s.[true] from (select a as [true] from t) s
select column1 from (select a as [true] from t)
select column2 from (select a, b as [false] from t)
select column1 from (select true)
select [true] from (select true)
select x.column1 from (select true) x
select x.column1 from (select "true") x
select x.column1 from (select [false] from tf) x
select x.false from (select [false] from tf) x
select [false] from tf
select false from tf
select true from tf
select "true" from tf
select tf.true from tf
select n from tf where true
select n from tf where "false" = 1
select * from tf
select x.column1 from (select 1 as TRUE) x
with c as (select 1 as "true") select column1 from c
with c as (select 1 as "true") select c.true from c
with c(k) as (select 1 as "true") select k from c
select a from (select rowid as a from t)
select a from t where a is true
select a from t where a is not false
select a from t where a is nosuch
select a from t where a is "a"
select a from t where a = true
select a from t where true = false
select true + 1, false * 2
select a from t order by true
select a from t group by false
select a from t order by tf
select count(*) from t group by true
