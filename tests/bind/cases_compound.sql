-- Adversarial binder cases: ORDER BY/GROUP BY numeric terms and compound ORDER BY matching, column counts.
select a from t union select a from u order by - -1
select a from t union select a from u order by +-1
select a from t union select a from u order by -(-1)
select a from t union select a from u order by +1
select a from t union select a from u order by (1)
select a from t union select a from u order by 0x01
select a from t union select a from u order by 0x7fffffff
select a from t union select a from u order by 0x80000000
select a from t union select a from u order by 4294967297
select a from t union select a from u order by 1.0
select 1.0 union select 2 order by 1.0
select 1.5 union select 2 order by 1.5
select a from t union select a from u order by 65536
select a from t order by 65536
select a from t order by 65535
select a from t group by 65536
select a from t order by 2147483648
select a from t order by -2147483648
select a from t order by 9223372036854775807
select a from t order by 99999999999999999999
select a from t order by 0x7fffffff
select a from t order by 0x00000000001
select a from t order by 0x0000000002
select a from t order by 000001
select a from t order by 000002
select a from t order by 1e0
select a from t order by '1'
select a from t order by 1 collate nocase
select a from t order by 2 collate nocase
select a from t order by +1
select a from t order by +2
select a from t order by - -1
select a from t order by -+-1
select a from t group by - -2
select a from t group by +-1
select a from t group by -0
select a from t order by -0
select a from t order by ~1
select a from t order by not 1
select a from t order by likely(1)
select a from t order by likely(2)
select a from t union select a from u order by likely(1)
select a from t union select a from u order by likely(a)
select a from t union select a from u order by unlikely(a)
select a from t union select a from u order by a collate nocase
select a from t union select a from u order by a collate bogus
select a from t union select a from u order by 1 collate bogus
select a from t order by 1 collate bogus
select a from t group by 1 collate bogus
select b from t union select d from u order by b collate nocase
select b from t union select d from u order by d collate rtrim
select b from t union select d from u order by d||'x'
select * from t union select * from u order by d
select * from t union select * from u order by e
select * from t union select * from u order by nosuch
select * from t union select * from u order by t.a
select * from t union select * from u order by u.d
select t.* from t union select * from u order by u.e
select a, b as x from t union select a, d as y from u order by y
select a, b as x from t union select a, d as y from u order by x
select a, b as x from t union select a, d as x from u order by x
select a, b from t union select d as b, a from u order by b
select a as b, b as a from t union select a, d from u order by a
select a+1 from t union select a from u order by a+1
select a+1 from t union select a+1 from u order by a+1
select a+1 from t union select a from u order by a
select a from t union select a+1 from u order by a+1
select a from t union select a from u union select x from v order by x
select a from t union select a from u union select x from v order by x+0
select a from t union select a from u order by count(*)
select count(*) from t union select count(*) from u order by count(*)
select count(*) from t union select a from u order by count(*)
select a from t union select count(*) from u order by count(*)
select max(a) from t union select a from u order by max(a)
select a from t union select a from u order by (select 1)
select a from t union select a from u order by (select a)
select a from t union select a from u order by a in (select 1)
select a from t union select a from u order by 1, 2
select a, b from t union select a, d from u order by 2, 1, 3
select a, b from t union select a, d from u order by b, d
select a, b from t union select a, d from u order by c
select a from t union all select a from u order by a limit 1 offset 2
select a from t union all select a from u limit a
select a from t intersect select a from u order by a
select a from t except select a from u order by 1 desc
select a from t union select a from u order by a nulls first
select a from t union select a, b from u
select a, b from t union all select a from u
select a from t intersect select a, b from u
select a from t except select a, b from u
select a from t union select a from u union select a, d from u
select a, b from t union select a, d from u union select a from u
select * from t union select * from u
select * from t union select * from v
select * from t union select *, 1 from v
values (1) union select a from t
select a from t union values (1, 2)
values (1, 2) union values (1)
values (1) union values (1, 2)
select a from t union select a from u order by row_number() over ()
select a from t union select row_number() over () from u order by row_number() over ()
select a, row_number() over () as rn from t union select a, 1 from u order by rn
select a from t order by a union select a from u
select a from (select a from t order by a union select a from u)
select a from t union select a from u limit 1
select a from t union select a from u order by "a"
select a from t union select a from u order by "nosuch"
select a as "x y" from t union select a from u order by "x y"
select a from t union select a from u order by [a]
select a from t union select a from u order by `a`
select ?0
select ?250001
select ?250000
select ?1, ?250000, ?
select 0x1ffffffffffffffff
select 0xffffffffffffffff
select 0x00000000000000000001
select 18446744073709551616
select -9223372036854775808
select a from t order by 0x00000000000000000001
select a from t order by 0x100000001
select a from t order by 4294967297
select a from t group by 4294967297
select a from t order by -4294967295
select 1 from t limit 0x1ffffffffffffffff
select 1 from t where a = 1e999
select distinct a as x from t order by x
select distinct b collate nocase from t order by 1
select a from t group by a order by b
select a from t group by a order by sum(b)
select a, b from t group by a order by count(distinct b)
select count(*) from t order by a
select count(*) from t order by a, count(*)
select * from t order by - -5
select a from t order by +-1
select a from t order by -(-(2))
