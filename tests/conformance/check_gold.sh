#!/usr/bin/env bash
# check_gold.sh -- acceptance: every gold query of the benchmark corpora
# binds against its schema with zero errors.
#
# Usage: tests/conformance/check_gold.sh BUILD_DIR
# Runs `squint check` over ../shared/corpora (override with SQUINT_CORPORA):
#   BIRD dev.json and dev_gold.sql against dev_tables.json,
#   Spider dev.json against tables.json and against the databases (--db-root).
# Prints each run's summary line; any error, warning or non-zero exit fails
# the run, and its diagnostics are shown.  Skips with a message, and
# succeeds, when the corpus directory is absent.
set -u
BUILD=${1:-build}
root=${SQUINT_CORPORA:-../shared/corpora}
if [ ! -d "$root" ]; then
    echo "check_gold: no corpus at $root (set SQUINT_CORPORA); skipped"
    exit 0
fi
failed=0

# gold NAME EXPECTED_ITEMS SQUINT-CHECK-ARGS... (the last is the input file)
gold() {
    local name=$1 want=$2 out status summary
    shift 2
    for f in "$@"; do
        case "$f" in -*) continue ;; esac
        if [ ! -e "$f" ]; then echo "$name: skipped ($f is absent)"; return; fi
    done
    out=$("$BUILD/squint" check --color=never "$@")
    status=$?
    summary=$(tail -n 1 <<<"$out")
    echo "$name: $summary"
    if [ $status -ne 0 ] || ! grep -qE "checked: 0 errors, 0 warnings \($want items;" <<<"$summary"; then
        failed=$((failed + 1))
        echo "check_gold: FAILED: $name (exit $status; want $want items, 0 errors, 0 warnings)"
        head -n 60 <<<"$out"
    fi
}

B=$root/bird-dev
S=$root/spider-dev
gold "BIRD dev.json / dev_tables.json" 1534 --tables "$B/dev_tables.json" "$B/dev.json"
gold "BIRD dev_gold.sql / dev_tables.json" 1534 --tables "$B/dev_tables.json" "$B/dev_gold.sql"
gold "Spider dev.json / tables.json" 1034 --tables "$S/tables.json" "$S/dev.json"
gold "Spider dev.json / --db-root database" 1034 --db-root "$S/database" "$S/dev.json"

if [ $failed -ne 0 ]; then
    echo "check_gold: $failed run(s) failed"
    exit 1
fi
echo "check_gold: every gold query binds with zero errors"
