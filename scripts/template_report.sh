#!/usr/bin/env bash
# template_report.sh -- docs/template-report.md: squint template extract over
# Spider dev (on its databases) and BIRD dev (its tables.json), and squint
# template sample (--n 10, seed 1) over Spider dev on its databases and over
# BIRD dev on witnesses built by squint fixture (its databases are not in
# the corpora).  Run by `make template-report`.
#
# Usage: scripts/template_report.sh BUILD_DIR > docs/template-report.md
# TEMPLATE_BIRD_LIMIT=N: only BIRD dev's first N questions (default: all);
# TEMPLATE_JOBS=N processes (default 2); TEMPLATE_REUSE=1 keeps the Spider
# run of the last one (BUILD_DIR/template-report/spider-sample.*) when it is
# there and measures BIRD again.
# Needs python3 for the numbers (skipped with a message without it).
set -eu
. "$(dirname "$0")/report_lib.sh"
report_needs template_report.sh "$S" "$B"
out=$build/template-report
jobs=${TEMPLATE_JOBS:-2}
reuse=0
if [ "${TEMPLATE_REUSE:-0}" = 1 ] && [ -s "$out/spider-sample.seconds" ]; then
    reuse=1
    rm -rf "$out/bird-"*
else
    rm -rf "$out"
fi
mkdir -p "$out"
"$sq" template extract --format json --db-root "$S/database" "$S/dev.json" >"$out/spider-extract.json"
"$sq" template extract --format json --tables "$B/dev_tables.json" "$B/dev.json" >"$out/bird-extract.json"
if [ $reuse = 0 ]; then
    t0=$(date +%s)
    "$sq" template sample --gold "$S/dev.json" --db-root "$S/database" --n 10 --seed 1 -j "$jobs" \
        --out "$out/spider-sample.jsonl" 2>"$out/spider-sample.summary" || true
    echo $(($(date +%s) - t0)) >"$out/spider-sample.seconds"
fi
# BIRD: a suite per question (squint fixture, one mutant each), then the
# instances sampled from and checked on its witness, the suite's other
# databases telling instances apart before the solver
limit=${TEMPLATE_BIRD_LIMIT:-0}
python3 - "$B/dev.json" "$limit" >"$out/bird-gold.json" <<'EOF'
import json, sys
items = json.load(open(sys.argv[1]))
n = int(sys.argv[2])
json.dump(items[:n] if n else items, sys.stdout, indent=1)
EOF
echo "$limit" >"$out/bird.limit"
t0=$(date +%s)
"$sq" fixture -q -j "$jobs" --gold "$out/bird-gold.json" --tables "$B/dev_tables.json" \
    --metadata "$B/dev_metadata.json" --max-mutants 1 --timeout 0.5 --out "$out/bird-fixtures" >/dev/null || true
echo $(($(date +%s) - t0)) >"$out/bird-fixtures.seconds"
t0=$(date +%s)
"$sq" template sample --gold "$out/bird-gold.json" --tables "$B/dev_tables.json" --fixtures "$out/bird-fixtures" \
    --n 10 --seed 1 -j "$jobs" --out "$out/bird-sample.jsonl" 2>"$out/bird-sample.summary" || true
echo $(($(date +%s) - t0)) >"$out/bird-sample.seconds"
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
python3 "$(dirname "$0")/template_report.py" "$out" "$commit"
