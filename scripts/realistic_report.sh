#!/usr/bin/env bash
# realistic_report.sh -- docs/realistic-report.md: squint eval --realistic
# over Spider dev and the ten public prediction files on the dev databases
# (EX-test, EX-verified exact and realistic, refutations by kind).  Run by
# `make realistic-report`.
#
# Usage: scripts/realistic_report.sh BUILD_DIR > docs/realistic-report.md
# The records go to BUILD_DIR/realistic-eval.jsonl.  squint eval resumes
# from them, so a run that was stopped goes on where it was (only items
# without a record are evaluated); REALISTIC_REUSE=1 evaluates nothing and
# writes the page from the records as they are.  REALISTIC_JOBS=N
# processes (default 2).  Needs python3 for the page.
set -eu
jobs=${REALISTIC_JOBS:-2}
. "$(dirname "$0")/report_lib.sh"
report_needs realistic_report.sh "$S"
out=$build/realistic-eval.jsonl
seconds=-
if [ "${REALISTIC_REUSE:-0}" != 1 ] || [ ! -e "$out" ]; then
    preds=()
    for f in "$S"/predictions/model_*.sql; do preds+=(--pred "$(basename "$f" .sql)=$f"); done
    t0=$(date +%s)
    "$sq" eval -q -j "$jobs" --realistic --gold "$S/dev.json" --db-root "$S/database" "${preds[@]}" \
        --out "$out" > "$build/realistic-eval.summary"
    seconds=$(($(date +%s) - t0))
    echo "$seconds" > "$build/realistic-eval.seconds"
elif [ -e "$build/realistic-eval.seconds" ]; then
    seconds=$(cat "$build/realistic-eval.seconds")
fi
python3 "$(dirname "$0")/realistic_report.py" "$out" "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)" \
    "$seconds" "$jobs"
