-- CTEs that name each other: a circular reference, never an endless expansion.
with c as (select k from d), d as (select k from c) select * from c
with recursive c as (select k from d), d as (select k from c) select * from c
