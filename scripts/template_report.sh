#!/usr/bin/env bash
# template_report.sh -- docs/template-report.md: squint template extract over
# Spider dev (on its databases) and BIRD dev (its tables.json), and squint
# template sample over Spider dev (--n 10, seed 1).  Run by
# `make template-report`.
#
# Usage: scripts/template_report.sh BUILD_DIR > docs/template-report.md
# Needs python3 for the numbers (skipped with a message without it).
set -eu
build=${1:-build}
root=${SQUINT_CORPORA:-../shared/corpora}
S=$root/spider-dev
B=$root/bird-dev
sq=$build/squint
if [ ! -d "$S" ] || [ ! -d "$B" ]; then
    echo "template_report.sh: $root has no spider-dev or bird-dev: nothing to measure" >&2
    exit 0
fi
if ! command -v python3 >/dev/null; then
    echo "template_report.sh: python3 is needed for the numbers (apt-get install python3)" >&2
    exit 0
fi
out=$build/template-report
rm -rf "$out"
mkdir -p "$out"
"$sq" template extract --format json --db-root "$S/database" "$S/dev.json" >"$out/spider-extract.json"
"$sq" template extract --format json --tables "$B/dev_tables.json" "$B/dev.json" >"$out/bird-extract.json"
t0=$(date +%s)
"$sq" template sample --gold "$S/dev.json" --db-root "$S/database" --n 10 --seed 1 \
    --out "$out/spider-sample.jsonl" 2>"$out/spider-sample.summary" || true
echo $(($(date +%s) - t0)) >"$out/spider-sample.seconds"
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
python3 "$(dirname "$0")/template_report.py" "$out" "$commit"
