#!/usr/bin/env bash
# demo.sh -- squint's main job on the bundled example (run by `make demo`).
#
# Checks examples/demo/gold.sql: every statement is parsed with SQLite's
# exact grammar and each problem is shown with its location and a caret.
# Then prints the syntax tree of one query.
set -u
SQUINT=${1:-build/squint}
cd "$(dirname "$0")/.."
echo "== squint check examples/demo/gold.sql"
"$SQUINT" check --color=never examples/demo/gold.sql
echo "(exit status $?: 1 means problems were found)"
echo
echo "== squint parse: the tree of one query"
"$SQUINT" parse -e "SELECT name, country FROM singer WHERE age > 30 AND country = 'France' ORDER BY age DESC LIMIT 3"
