-- Cases that once differed from SQLite (nested joins, folding, view columns).
select p.x from p join (q join v on q.x = v.x) on p.x = q.x
select * from p join (q join v on 1) on p.x = q.x
select p.x, q.x, v.x from p join (q join v using (x)) using (x)
select q.w from p join (q join v using (x)) using (x)
select * from (p join q on p.x = q.x) as s join v on v.x = p.x
select * from (p as a join q on a.x = q.x) as s
select * from (p join q on 1) as s
select [x:1] from (p join q on 1) as s
select p.x from (p join q using (x)) as s
select q.w from (p join q on 1) as s
select * from t left join (u join v on v.x = t.a) on 1
select a from t where nosuch and -0
select * from json_each('[1,2]')
select key, value from json_each('[1,2]')
select nosuch from json_each('[1,2]')
select * from json_tree('{}')
select * from t, json_each(t.b)
select * from t join json_each(t.b) j on j.key = t.a
select a from t where a in json_each('[1]')
