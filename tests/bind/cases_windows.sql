-- Adversarial binder cases: window functions: frames, WINDOW chaining/override rules, unknown windows, arity of window functions, FILTER.
select sum(a) over (rows between current row and 1 preceding) from t
select sum(a) over (rows between 1 following and current row) from t
select sum(a) over (rows between 1 following and 1 preceding) from t
select sum(a) over (rows between 1 following and 2 following) from t
select sum(a) over (range between 1 preceding and current row) from t
select sum(a) over (order by a range between 1 preceding and current row) from t
select sum(a) over (order by a, b range between 1 preceding and current row) from t
select sum(a) over (order by a, b range between unbounded preceding and current row) from t
select sum(a) over (range 1 preceding) from t
select sum(a) over (order by a range current row) from t
select sum(a) over (groups 1 preceding) from t
select sum(a) over (order by a groups between 1 preceding and 1 following) from t
select sum(a) over (rows nosuch preceding) from t
select sum(a) over (rows t.nosuch preceding) from t
select sum(a) over (rows a preceding) from t
select sum(a) over (rows nosuchfunc(1) preceding) from t
select sum(a) over (rows abs() preceding) from t
select sum(a) over (rows (select 1) preceding) from t
select sum(a) over (rows (select nosuch) preceding) from t
select sum(a) over (rows count(*) preceding) from t
select sum(a) over (rows -1 preceding) from t
select sum(a) over (rows 'x' preceding) from t
select sum(a) over (rows (1, 2) preceding) from t
select sum(a) over (rows ? preceding) from t
select sum(a) over (rows "x" preceding) from t
select sum(a) over (rows 1 collate bogus preceding) from t
select sum(a) over (rows between 1 preceding and nosuch following) from t
select sum(a) over (order by a range nosuch preceding) from t
select sum(a) over (range nosuch preceding) from t
select a from t window w2 as (w1), w1 as (order by a)
select sum(a) over w2 from t window w2 as (w1), w1 as (order by a)
select sum(a) over w2 from t window w1 as (order by a), w2 as (w1)
select sum(a) over w3 from t window w1 as (partition by b), w2 as (w1 order by a), w3 as (w2 rows 1 preceding)
select sum(a) over (w3) from t window w1 as (partition by b), w2 as (w1 order by a), w3 as (w2 rows 1 preceding)
select sum(a) over (w2 order by c) from t window w1 as (partition by b), w2 as (w1 order by a)
select sum(a) over (w1 order by c) from t window w1 as (partition by b), w2 as (w1 order by a)
select a from t window w as (w0)
select a from t window w1 as (rows 1 preceding), w2 as (w1)
select a from t window w1 as (rows 1 preceding), w2 as (w1 order by a)
select a from t window w1 as (order by a), w2 as (w1 order by b)
select a from t window w1 as (order by a), w2 as (w1 partition by b)
select a from t window w as (order by nosuch)
select sum(a) over w from t window w as (order by nosuch)
select sum(a) over w from t window w as (order by a), w as (partition by b)
select sum(a) over w from t window w as (order by a), W as (partition by b)
select sum(a) over W from t window w as (order by a)
select sum(a) over w from t window w as (partition by count(*))
select sum(a) over w from t group by a window w as (partition by count(*))
select sum(a) over (partition by count(*)) from t
select sum(a) over (partition by a order by count(*)) from t group by a
select ntile(2) over () from t
select ntile() over () from t
select ntile(1, 2) over () from t
select ntile(a) over () from t
select ntile(0) over () from t
select lag(a) over () from t
select lag(a, 1) over () from t
select lag(a, 1, 0) over () from t
select lag(a, 1, 0, 4) over () from t
select lag() over () from t
select lead(a) over (), lead(a, 2) over (), lead(a, 2, 'x') over () from t
select lead(a, 1, 2, 3) over () from t
select nth_value(a, 2) over () from t
select nth_value(a) over () from t
select nth_value(a, 0) over () from t
select first_value(a) over (), last_value(a) over () from t
select first_value() over () from t
select first_value(a, b) over () from t
select last_value(a, 1) over () from t
select row_number(a) over () from t
select rank() over (), dense_rank() over (), percent_rank() over (), cume_dist() over () from t
select rank(a) over () from t
select percent_rank(1) over () from t
select cume_dist() from t
select rank() from t
select ntile(2) from t
select lag(a) from t
select nth_value(a, 1) from t
select first_value(a) from t
select rank() filter (where a > 1) over () from t
select sum(a) filter (where a > 1) over (order by a) from t
select count(*) filter (where row_number() over () > 1) over () from t
select count(*) filter (where count(*) > 1) over () from t
select count(*) filter (where count(*) > 1) over () from t group by a
select sum(a) over (order by row_number() over ()) from t
select sum(a) over (partition by rank() over ()) from t
select row_number() over (order by (select row_number() over () from u)) from t
select sum(row_number() over ()) over () from t
select sum(row_number() over ()) from t
select max(a) over (), min(a) over (order by b) from t
select group_concat(b) over (order by a), group_concat(b, ';') over () from t
select total(a) over (), avg(a) over (), count(a) over (), count(*) over () from t
select count(distinct a) over () from t
select sum(a) over (order by a rows between unbounded preceding and unbounded following exclude current row) from t
select sum(a) over (order by a rows between unbounded preceding and unbounded following exclude group) from t
select sum(a) over (order by a rows between unbounded preceding and unbounded following exclude ties) from t
select sum(a) over (order by a rows between unbounded preceding and unbounded following exclude no others) from t
select a, sum(a) over w from t window w as (partition by b order by c rows between 1 preceding and 1 following)
select sum(a) over w from t window w as (order by b collate nocase)
select sum(a) over w from t window w as (order by b collate bogus)
select sum(a) over w from t window w as (partition by b collate bogus)
select sum(a) over (partition by b collate bogus) from t
select sum(a) over (order by b collate bogus) from t
select a from t window w as (partition by b collate bogus)
select sum(a) over w from t window w as (w0)
select sum(a) over (w) from t window w as (w0)
select sum(a) over (w order by a) from t window w as (w0)
select a from t window x as (order by a), w as (w0)
select sum(a) over w from t window x as (order by a), w as (w0)
select sum(a) over w from t window w as (order by a), w as (partition by nosuch)
select sum(a) over w from t window w as (partition by nosuch), w as (order by a)
select sum(a) over (w order by b) from t window w as (order by a), w as (partition by c)
select sum(a) over (w order by b) from t window w as (partition by c), w as (order by a)
select a from t window w as (partition by b), w as (order by a), x as (w order by c)
select a from t window w as (order by a), w as (partition by b), x as (w order by c)
select sum(a) over w2 from t window w1 as (partition by nosuch), w2 as (w1)
select sum(a) over w2 from t window w2 as (w1), w1 as (partition by nosuch)
select sum(a) over (w1 rows 1 preceding) from t window w1 as (order by a)
select sum(a) over (w1 rows 1 preceding) from t window w1 as (order by a rows 2 preceding)
select sum(a) over (w1) from t window w1 as (order by a rows 2 preceding)
select sum(a) over w1 from t window w1 as (order by a rows 2 preceding)
select sum(a) over (w1) from t window w1 as (partition by b)
select sum(a) over (w1 partition by c) from t window w1 as (order by a)
select (select sum(x) over w from v) from t window w as (order by a)
select (select sum(x) over (partition by t.a) from v) from t
select (select sum(x) over (order by t.a) from v) from t
select a from t order by (select row_number() over (order by t.a) from v)
select row_number() over () as r, sum(a) over (partition by r) from t
select sum(a) over (partition by b) from t group by b
select sum(a) over (partition by c) from t group by b
select sum(sum(a)) over (partition by b order by count(*)) from t group by b
select count(*) over (order by (select count(t.a) from u)) from t
select count(*) over (order by (select count(t.a) from u)) from t group by b
select sum(a) over win from t window win as ()
select sum(a) over (win) from t window win as ()
select sum(a) over (win partition by b) from t window win as ()
select sum(a) over (win order by b) from t window win as ()
select sum(a) over (win rows 1 preceding) from t window win as ()
select sum(a) over (win rows 1 preceding) from t window win as (partition by b)
select sum(a) over (win rows 1 preceding) from t window win as (order by b)
select sum(a) over win from t window win as (rows between unbounded preceding and current row)
select lag(a) over win, lead(a) over win from t window win as (order by a)
select a from t window w as (order by a), v as (w)
select sum(a) over (order by a groups between 1 preceding and 1 following exclude current row) from t
select sum(a) over (range between unbounded preceding and unbounded following) from t
select sum(a) over (range between current row and unbounded following) from t
select sum(a) over (order by b range between 'x' preceding and current row) from t
select ntile(a + 1) over (order by a) from t
select nth_value(a, b) over () from t
select lag(a, nosuch) over () from t
select lead(a, 1, nosuch) over () from t
select ntile(nosuch) over () from t
select ntile(count(*)) over () from t
select ntile(row_number() over ()) over () from t
select lag(a, count(*)) over () from t group by a
