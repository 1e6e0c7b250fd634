#!/usr/bin/env bash
# fixture_report.sh -- docs/fixture-report.md: squint fixture over Spider dev
# (on its databases) and BIRD dev (schemas only), every suite checked by
# SQLite (suitecheck), and the Spider suites used to score the public
# prediction files (squint eval --suite).  Run by `make fixture-report`.
#
# Usage: scripts/fixture_report.sh BUILD_DIR > docs/fixture-report.md
# FIXTURE_JOBS=N processes (default 2); FIXTURE_LIMIT_BIRD=N only the first
# N BIRD questions (default: all); FIXTURE_REUSE=1 keeps the suites and
# records of the last run (BUILD_DIR/fixture-*: each stage whose output is
# there is skipped) and rewrites the page.
# Needs python3 for the numbers (skipped with a message without it).
set -eu
jobs=${FIXTURE_JOBS:-2}
. "$(dirname "$0")/report_lib.sh"
report_needs fixture_report.sh "$S" "$B"

# stage NAME OUTPUT CMD...: run CMD (its summary into $build/NAME.summary,
# its wall seconds into $build/NAME.seconds), unless FIXTURE_REUSE=1 and
# OUTPUT is there
stage() {
    local name=$1 out=$2 t0
    shift 2
    if [ "${FIXTURE_REUSE:-0}" = 1 ] && [ -e "$out" ]; then return; fi
    rm -rf "$out"
    t0=$(date +%s)
    "$@" > "$build/$name.summary"
    echo $(($(date +%s) - t0)) > "$build/$name.seconds"
    git rev-parse --short HEAD > "$build/$name.commit" 2>/dev/null || echo unknown > "$build/$name.commit"
}

limit=()
[ -n "${FIXTURE_LIMIT_BIRD:-}" ] && limit=(--limit "$FIXTURE_LIMIT_BIRD")
preds=()
for f in "$S"/predictions/model_*.sql; do n=$(basename "$f" .sql); preds+=(--pred "$n=$f"); done
stage fixture-spider "$build/fixture-spider" "$sq" fixture -q -j "$jobs" --gold "$S/dev.json" \
    --db-root "$S/database" --out "$build/fixture-spider"
# EX-test, EX-verified and EX-suite (the suite and the original database)
stage eval-db "$build/fixture-eval-db.jsonl" "$sq" eval -q -j "$jobs" --gold "$S/dev.json" \
    --db-root "$S/database" --suite "$build/fixture-spider" "${preds[@]}" --out "$build/fixture-eval-db.jsonl"
# the suites alone: schemas from tables.json, no original database
stage eval-suite "$build/fixture-eval-suite.jsonl" "$sq" eval -q -j "$jobs" --gold "$S/dev.json" \
    --tables "$S/tables.json" --no-verify --suite "$build/fixture-spider" "${preds[@]}" \
    --out "$build/fixture-eval-suite.jsonl"
# BIRD last: the longest, and the Spider numbers do not wait for it
stage fixture-bird "$build/fixture-bird" "$sq" fixture -q -j "$jobs" --gold "$B/dev.json" \
    --tables "$B/dev_tables.json" --metadata "$B/dev_metadata.json" --out "$build/fixture-bird" "${limit[@]}"
"$build/tools/suitecheck" "$build/fixture-spider" > "$build/fixture-spider.check" || true
"$build/tools/suitecheck" "$build/fixture-bird" > "$build/fixture-bird.check" || true
python3 "$(dirname "$0")/fixture_report.py" "$build" "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)" "$jobs" \
    "${FIXTURE_LIMIT_BIRD:-}"
