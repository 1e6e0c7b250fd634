#!/usr/bin/env bash
# demo.sh -- squint's main job on the bundled example (run by `make demo`).
#
# Checks examples/demo/gold.sql against examples/demo/schema.sql: every
# statement is parsed with SQLite's exact grammar and bound with SQLite's
# name-resolution rules, and each problem is shown with its location, a
# caret and, where it can, a suggestion.  Then shows one query's typed
# relational IR and the SQL squint emits from it.
set -u
SQUINT=${1:-build/squint}
cd "$(dirname "$0")/.."
echo "== squint check --schema examples/demo/schema.sql examples/demo/gold.sql"
"$SQUINT" check --color=never --schema examples/demo/schema.sql examples/demo/gold.sql
echo "(exit status $?: 1 means problems were found)"
q="SELECT T2.name, count(*) FROM concert AS T1 JOIN stadium AS T2 ON T1.stadium_id = T2.stadium_id WHERE T1.year = 2014 GROUP BY T1.stadium_id"
echo
echo "== squint ir: the typed relational IR of one query"
echo "$q" | "$SQUINT" ir --schema examples/demo/schema.sql -
echo
echo "== squint ir --format sql: the SQL squint emits from that IR"
echo "$q" | "$SQUINT" ir --format sql --schema examples/demo/schema.sql -
