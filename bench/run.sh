#!/usr/bin/env bash
# run.sh -- run the benchmarks in bench/ and print their ratios.
#
# Usage: bench/run.sh BUILD_DIR [ROUNDS]
# Every benchmark compares squint with a reference measured in the same run
# (SQLite itself) and reports the ratio; absolute times alone mean little on
# a shared machine.  Skips with a message when ../shared/corpora is absent.
set -eu
BUILD=${1:-build}
ROUNDS=${2:-5}
CORPORA=${SQUINT_CORPORA:-../shared/corpora}
"$BUILD/tools/bench_parse" "$ROUNDS"
"$BUILD/tools/bench_long" "$ROUNDS"
"$BUILD/tools/bench_lint" "$ROUNDS"
# squint equiv on Spider gold vs predictions (EQUIV_PAIRS=0: every pair)
"$BUILD/tools/bench_equiv" --pairs "${EQUIV_PAIRS:-1000}"

# The whole command, as a user runs it: best wall time of ROUNDS runs.
best_of() { # best_of CMD... -> seconds
    local best="" t0 t1 t
    for _ in $(seq "$ROUNDS"); do
        t0=$(date +%s.%N)
        "$@" >/dev/null 2>&1 || true
        t1=$(date +%s.%N)
        t=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
        if [ -z "$best" ] || awk -v t="$t" -v b="$best" 'BEGIN { exit !(t < b) }'; then best=$t; fi
    done
    printf '%.3f' "$best"
}
S=$CORPORA/spider-dev
B=$CORPORA/bird-dev
if [ -f "$S/dev.json" ] && [ -f "$B/dev.json" ]; then
    echo "bench lint (command line), best of $ROUNDS runs:"
    t1=$(best_of "$BUILD/squint" lint --no-config --no-data --db-root "$S/database" "$S/dev.json")
    t2=$(best_of "$BUILD/squint" lint --no-config --tables "$B/dev_tables.json" "$B/dev.json")
    t3=$(best_of "$BUILD/squint" lint --no-config --db-root "$S/database" "$S/dev.json")
    echo "  schema rules, Spider dev (1,034 queries)      $t1 s"
    echo "  schema rules, BIRD dev (1,534 queries)        $t2 s"
    echo "  schema rules, both sets                        $(awk -v a="$t1" -v b="$t2" 'BEGIN { printf "%.3f", a + b }') s  (goal < 0.2 s)"
    echo "  schema and data rules, Spider dev (databases)  $t3 s"
fi
