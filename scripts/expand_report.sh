#!/usr/bin/env bash
# expand_report.sh -- docs/expand-report.md: squint expand (join query
# expansion, seed 001) over BIRD dev (its tables.json) and Spider dev (its
# databases), the plan-level numbers beside the thesis's Tables 3.1-3.4,
# then the execution filter and the verdicts on the result, timed.  Run by
# `make expand-report`; BIRD's execution part needs the witnesses of `make
# template-report` over all of BIRD dev, or EXPAND_FIXTURES=DIR.
#
# Usage: scripts/expand_report.sh BUILD_DIR > docs/expand-report.md
# Needs python3 for the numbers (skipped with a message without it).
set -eu
. "$(dirname "$0")/report_lib.sh"
report_needs expand_report.sh "$S" "$B"
out=$build/expand-report
rm -rf "$out"
mkdir -p "$out"
# every expansion each plan keeps (--n 0), then the first of each shape
# over the run (--n 1): the plan alone, nothing run nor decided
t0=$(date +%s%N)
"$sq" expand --format json --n 0 --no-run --no-equiv --tables "$B/dev_tables.json" "$B/dev.json" \
    >"$out/bird-all.json" 2>"$out/bird-all.err" || true
t1=$(date +%s%N)
echo $(((t1 - t0) / 1000000)) >"$out/bird-all.ms"
"$sq" expand --format json --n 1 --no-run --no-equiv --tables "$B/dev_tables.json" "$B/dev.json" \
    >"$out/bird-n1.json" 2>/dev/null || true
"$sq" expand --format json --n 0 --no-run --no-equiv --db-root "$S/database" "$S/dev.json" \
    >"$out/spider-all.json" 2>/dev/null || true
"$sq" expand --format json --n 1 --no-run --no-equiv --db-root "$S/database" "$S/dev.json" \
    >"$out/spider-n1.json" 2>/dev/null || true
# the linker tables of seed 001's TQA and the words naming them
"$sq" expand --tqa --format json --tables "$B/dev_tables.json" "$B/dev.json" >"$out/bird-tqa.json" 2>/dev/null || true
# then the execution filter and the verdicts (does the join change the
# query's result?), -j 2, timed: over Spider dev on its databases, and
# over BIRD dev on the witnesses `make template-report` built for every
# question (EXPAND_FIXTURES=DIR names others; without them that part is
# left out and the report says so)
timed() {
    local name=$1
    shift
    local t0 t1
    t0=$(date +%s%N)
    "$sq" expand --format json -j 2 "$@" >"$out/$name.json" 2>"$out/$name.err" || true
    t1=$(date +%s%N)
    echo $(((t1 - t0) / 1000000)) >"$out/$name.ms"
}
timed spider-run --n 0 --db-root "$S/database" "$S/dev.json"
fx=${EXPAND_FIXTURES:-$build/template-report/bird-fixtures}
limit=$(cat "$build/template-report/bird.limit" 2>/dev/null || echo 0)
if [ -d "$fx" ] && { [ -n "${EXPAND_FIXTURES:-}" ] || [ "$limit" = 0 ]; }; then
    echo "$fx" >"$out/bird-fixtures.path"
    timed bird-run --n 0 --fixtures "$fx" --tables "$B/dev_tables.json" "$B/dev.json"
    timed bird-run-n1 --n 1 --fixtures "$fx" --tables "$B/dev_tables.json" "$B/dev.json"
    timed bird-run-noequiv --n 0 --no-equiv --fixtures "$fx" --tables "$B/dev_tables.json" "$B/dev.json"
fi
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
python3 "$(dirname "$0")/expand_report.py" "$out" "$commit"
