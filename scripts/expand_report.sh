#!/usr/bin/env bash
# expand_report.sh -- docs/expand-report.md: squint expand (join query
# expansion, seed 001) over BIRD dev (its tables.json) and Spider dev (its
# databases), the plan-level numbers beside the thesis's Tables 3.1-3.4.
# Run by `make expand-report`.
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
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
python3 "$(dirname "$0")/expand_report.py" "$out" "$commit"
