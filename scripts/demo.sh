#!/usr/bin/env bash
# demo.sh -- squint's main job on the bundled example (run by `make demo`).
#
# First scores the bundled benchmark examples/eval-demo (20 questions,
# gold and two prediction sets) with squint eval: EX-test, EX-verified and
# a counterexample for a prediction that only looked right.  Then builds
# the test suite of one question with squint fixture.  Then checks
# examples/demo/gold.sql against examples/demo/schema.sql: every
# statement is parsed with SQLite's exact grammar and bound with SQLite's
# name-resolution rules, and each problem is shown with its location, a
# caret and, where it can, a suggestion.  Then lints the same gold file
# for likely bugs, shows one query's typed relational IR and the SQL squint
# emits from it, and asks squint equiv whether a model's prediction means
# the same as a gold query: it finds a database on which they differ and
# runs both queries on it.  Last, makes three new benchmark items from a
# gold query with squint template, and the prompts that ask for their
# questions.
set -u
SQUINT=${1:-build/squint}
cd "$(dirname "$0")/.."
# The main job: score two prediction sets of the bundled benchmark
# (examples/eval-demo) by execution, then verify each accepted prediction
# with a counterexample search, and show one that EX-test wrongly accepts.
D=examples/eval-demo
db=$(mktemp -d)
trap 'rm -rf "$db"' EXIT
sh $D/build.sh "$db" >/dev/null
echo "== squint eval --gold $D/dev.json --pred $D/pred_good.sql --pred $D/pred_weak.sql --db-root DB --cross-check --show 1"
"$SQUINT" eval --gold $D/dev.json --pred $D/pred_good.sql --pred $D/pred_weak.sql --db-root "$db" \
    --cross-check --show 1 -j 2 -q
echo
# A test suite for one gold query: a witness database on which it returns
# rows, the near-miss queries (mutants), and the databases that tell each
# apart, every kill shown by SQLite (squint fixture).
echo "== squint fixture --gold $D/dev.json --db-root DB --out SUITES --limit 1 --show 1"
"$SQUINT" fixture --gold $D/dev.json --db-root "$db" --out "$db/suites" --limit 1 --show 1 -q
echo
echo "== squint check --schema examples/demo/schema.sql examples/demo/gold.sql"
"$SQUINT" check --color=never --schema examples/demo/schema.sql examples/demo/gold.sql
echo "(exit status $?: 1 means problems were found)"
echo
echo "== squint lint --schema examples/demo/schema.sql examples/demo/gold.sql"
"$SQUINT" lint --no-config --color=never --schema examples/demo/schema.sql examples/demo/gold.sql
echo "(exit status $?: 1 means findings)"
gold="SELECT name FROM stadium WHERE stadium_id NOT IN (SELECT stadium_id FROM concert WHERE year = 2014)"
pred="SELECT s.name FROM stadium AS s LEFT JOIN concert AS c ON c.stadium_id = s.stadium_id AND c.year = 2014 WHERE c.concert_id IS NULL"
echo
echo "== squint equiv: gold and a prediction that differ only when a concert has no stadium"
echo "gold: $gold"
echo "pred: $pred"
"$SQUINT" equiv --schema examples/demo/schema.sql "$gold" "$pred"
echo "(exit status $?: 1 means they differ)"
q="SELECT T2.name, count(*) FROM concert AS T1 JOIN stadium AS T2 ON T1.stadium_id = T2.stadium_id WHERE T1.year = 2014 GROUP BY T1.stadium_id"
echo
echo "== squint ir: the typed relational IR of one query"
echo "$q" | "$SQUINT" ir --schema examples/demo/schema.sql -
echo
echo "== squint ir --format sql: the SQL squint emits from that IR"
echo "$q" | "$SQUINT" ir --format sql --schema examples/demo/schema.sql -
# New benchmark items from a gold query (squint template): its slots, three
# instances with values drawn from the database, each checked (it binds,
# returns rows, and is not the same query as the source or another), and
# the requests that would ask a language model for their questions.
T=$D/template.sql
L=$db/library/library.sqlite
echo
echo "== squint template extract: the slots of one gold query"
"$SQUINT" template extract --db "$L" $T
echo
echo "== squint template sample --n 3: three new items, each checked (one JSON record each)"
"$SQUINT" template sample --gold $T --db "$L" --n 3 --seed 2 --out "$db/instances.jsonl" \
    --items "$db/items.json"
cat "$db/instances.jsonl"
echo
echo "== squint prompt sql-to-question: the requests for their questions (as text)"
"$SQUINT" prompt sql-to-question --format text --sample-rows 0 --db "$L" "$db/items.json"
