#!/usr/bin/env bash
# graphs.sh -- schema graphs and join query graphs on the BIRD dev set.
#
# Usage: tests/conformance/graphs.sh BUILD_DIR
#  1. `squint graph --stats` on the 11 BIRD dev schemas (dev_tables.json)
#     must print tests/conformance/bird_schema_graphs.expected exactly
#     (docs/passes.md compares these numbers with the seed thesis).
#  2. Join query graphs of the 1,534 BIRD dev gold queries, before and
#     after unnesting: after must reach 1,480 (the thesis's count with an
#     LLM's help; squint's rewrites are all exact).
# Skips, and succeeds, when the corpus is absent.
set -u
BUILD=${1:-build}
root=${SQUINT_CORPORA:-../shared/corpora}
B=$root/bird-dev
if [ ! -f "$B/dev_tables.json" ]; then
    echo "graphs: no corpus at $root (set SQUINT_CORPORA); skipped"
    exit 0
fi
failed=0
expected=tests/conformance/bird_schema_graphs.expected
actual=$("$BUILD/squint" graph --stats --tables "$B/dev_tables.json")
if [ "$actual" = "$(cat "$expected")" ]; then
    echo "graphs: BIRD schema graph statistics as expected (11 schemas)"
else
    echo "graphs: BIRD schema graph statistics differ from $expected:"
    diff <(printf '%s\n' "$actual") "$expected"
    failed=1
fi
before=$("$BUILD/squint" graph --stats --query --tables "$B/dev_tables.json" "$B/dev.json" 2>/dev/null | tail -n 1)
after=$("$BUILD/squint" graph --stats --query --unnest --tables "$B/dev_tables.json" "$B/dev.json" 2>/dev/null | tail -n 1)
echo "graphs: BIRD dev gold, before unnesting: $before"
echo "graphs: BIRD dev gold, after unnesting:  $after"
n=$(sed -n 's/.*: \([0-9]*\) with a join query graph.*/\1/p' <<<"$after")
if [ -z "$n" ] || [ "$n" -lt 1480 ]; then
    echo "graphs: FAILED: ${n:-no} queries with a join query graph after unnesting (want >= 1480)"
    failed=1
fi
exit $failed
