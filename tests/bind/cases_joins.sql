-- Adversarial binder cases: NATURAL/USING/LEFT/RIGHT/FULL joins, nested (parenthesized) joins, * expansion, views.
select x from p natural join q
select y from p natural join q
select z, w from p natural join q
select * from p natural join q
select p.* from p natural join q
select q.* from p natural join q
select p.x, q.x from p natural join q
select x from p join q using (x)
select y from p join q using (x)
select x from p join q using (x, y)
select x from p join q using (z)
select x from p join q using (w)
select x from p join q using (nosuch)
select x from p join q using (x, x)
select * from p join q using (x, x)
select x from p join q using (x) join v using (x)
select y from p join q using (x) join v using (x)
select * from p join q using (x) join v using (x)
select x from p left join q using (x)
select * from p left join q using (x)
select x from p right join q using (x)
select * from p right join q using (x)
select y from p right join q using (x)
select x from p full join q using (x)
select * from p full join q using (x)
select * from p full join q using (x, y)
select x from p full join q using (x) full join v using (x)
select * from p full join q using (x) full join v using (x)
select x from p full join q using (x) join v using (x)
select x from p join q using (x) full join v using (x)
select x from p full join q using (x) right join v using (x)
select x from p left join q using (x) right join v using (x)
select * from p left join q using (x) right join v using (x)
select x from p natural full join q
select * from p natural full join q
select x from p natural right join q natural join v
select * from p natural left join q natural join v
select x, y from p natural join q natural join v
select x from p natural join q on p.x = q.x
select x from p natural join q using (x)
select x from p cross join q
select x from p, q using (x)
select x from p, q on p.x = q.x
select * from p, q using (x)
select p.x from p join q on x = 1
select p.x from p join q on z = w
select p.x from p join q on q.w = v.x join v on 1
select p.x from p left join q on q.w = v.x join v on 1
select p.x from p join q on q.w = v.x left join v on 1
select p.x from p, q on q.w = v.x, v
select p.x from p join q on p.x = (select v.x from v where v.y = q.w)
select p.x from p join q on (select count(*) from v where v.x = q.w) > 0
select p.x from p join (q join v on q.x = v.x) s on p.x = s.x
select * from p join (q join v on q.x = v.x) s on p.x = s.w
select * from (p join q using (x))
select x from (p join q using (x))
select x from (p join q using (x)) join v using (x)
select * from (p join q using (x)) join v using (x)
select x from p join (q join v using (x)) using (x)
select * from p join (q join v using (x)) using (x)
select x from p natural join (q natural join v)
select * from (p) natural join (q)
select * from (select * from p) natural join (select * from q)
select x from (select * from p) natural join (select * from q)
select * from (select x from p) a, (select x from q) b
select x from (select x from p) a, (select x from q) b
select a.x from (select x from p) a, (select x from q) b
select * from p a natural join p b
select * from p a join p b using (x, y, z)
select y from p a join p b using (x, y, z)
select a.y, b.y from p a join p b using (x, y, z)
select * from t join u using (a) join w using (a)
select a from t join u using (a) join w using (a)
select b from t join u using (a) join w using (a)
select b from t natural join w
select * from t natural join w
select * from t natural join tv
select * from t natural join tv2
select a from t join tv2 on 1
select p, q from tv2 natural join vv
select * from tv2 natural join vv
select * from vn
select a, b, c, d, e from vn
select * from vagg
select b, n from vagg where n > 1
select count(*) from vagg
select * from vw
select [a+1] from vw
select * from vv
select * from vcte
select * from vunion
select * from vwin
select rn from vwin where rn > 1
select * from vbad
select * from vbadcols
select 1 from vbadcols
select x from vbadcols
select * from vself
select 1 from t where a in (select * from vself)
select * from t where exists (select 1 from vbad)
select * from tv, tv
select a from tv, tv
select a from tv x, tv y
select x.a from tv x, tv y
select * from (select * from tv natural join tv2)
select * from t, u where t.a = u.a
select t.*, u.* from t, u
select t.*, nosuch.* from t
select nosuch.* from t
select t.* from t x
select x.* from t x
select x.*, t.* from t x, t
select * from t x, t
select a from t x, t
select t.a from t x, t
select tv.* from tv
select tv.a from tv
select tv2.* from tv2
select tv2.a from tv2
select tv2.p from tv2
select * from (select 1) s natural join (select 1) s2
select * from t join u using (a) where u.a > 1
select u.a from t right join u using (a)
select a from t right join u using (a)
select * from t right join u using (a)
select a from t full join u using (a) where a > 1
select a from t full join u using (a) group by a
select a from t full join u using (a) order by a
select t.a from t full join u using (a) order by a
select * from p join (q join v on 1) on nosuch = 1
select * from p join (q join v on 1) s on nosuch = 1
select * from p join (q join v on 1) on p.x = s.x
select * from p join (q join v using (x)) using (nosuch)
select * from p join (q join v using (x)) using (y)
select * from p join (q join v using (x)) using (w)
select y from p join (q join v using (x)) using (y)
select * from p natural join (q natural join v)
select y from p natural join (q natural join v)
select * from p left join (q join v using (x)) using (x)
select x from p left join (q join v using (x)) using (x)
select x from p right join (q join v using (x)) using (x)
select x from p full join (q join v using (x)) using (x)
select * from p full join (q join v using (x)) using (x)
select s.w from p join (q join v using (x)) s using (x)
select s.x from p join (q join v using (x)) s using (x)
select * from p join (q join v using (x)) s using (x)
select * from (q join v using (x)) natural join p
select x from (q join v using (x)) natural join p
select x from (q join v using (x)) s natural join p
select * from p join (q, v) using (x)
select * from p join (q, v)
select x from p join (q, v)
select * from p join (q) using (x)
select * from p join (q) s using (x)
select s.x from p join (q) s using (x)
select * from p join (q natural join v) on 1
select * from p join (select * from q natural join v) using (x)
select * from (p join q on p.x = q.x) join v on v.x = p.x
select * from (p join q on p.x = q.x) as s join v on v.x = s.x
select s.y from (p join q using (x)) as s
select s.x from (p join q using (x)) as s
select s.x from (p join q on 1) as s
select * from t join (u join w using (a)) using (a)
select * from v join (p left join q using (x)) using (x)
select s.w from (p join q on 1) as s
select w from (p join q on 1) as s
select * from (p join q using (x, y)) as s
select * from (p natural join q) as s
select s.z from (p natural join q) as s
select * from v, (p join q using (x)) s
select x from v, (p join q using (x)) s
select count(*) as n, a from t group by a having n > 1
select a as q from t left join u on q = u.a
select * from t left join u on u.a = v.x join v on 1
select * from t join u on u.a = v.x right join v on 1
select * from t join u on u.a = v.x full join v on 1
select * from t left join u on (select v.x) = 1 join v on 1
select * from t left join u on exists (select 1 where v.x = 1) join v on 1
select * from t left join u on u.a = (select max(x) from v) join v on 1
select * from t join u on u.a = 1 left join v on t.a = v.x
select * from t join u on v.x = 1 left join v on 1
select * from t left join u on t.a = u.a left join v on u.a = v.x
select * from t left join u on t.a = u.a left join v on v.x = w.a left join w on 1
select * from t right join u on t.a = u.a join v on v.x = t.a
select * from t cross join u on u.a = v.x join v on 1
select * from t left join u using (a) join v on v.x = u.a
select (select 1 from u left join v on v.x = t.a) from t
select (select 1 from u left join v on v.x = w.a, w) from t
select * from t natural left join u natural join v
select * from t, u left join v on v.x = t.a
select * from t left join u on u.a = t.a where v.x = 1
select * from t left outer join u on t.a = u.a
select * from t natural left outer join u
select * from t left natural join u
select * from t inner left join u on 1
select * from t natural cross join u
select * from t outer join u on 1
