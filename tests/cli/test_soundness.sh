#!/usr/bin/env bash
# test_soundness.sh -- the soundness tool (tests/soundness/, docs/soundness.md)
# on the planted pairs of tests/soundness/planted.cases: the random
# databases find the pair that is equivalent only up to one row and say
# so, leave the truly equivalent pair alone, check the ties
# counterexample, honour the known-findings list, and give the same
# output on every run.  Prints TAP lines.
cd "$(dirname "$0")/../.." || exit 2
. tests/cli/lib.sh
TOOL=${BUILD:-build}/tools/soundness
P=tests/soundness/planted.cases
if [ ! -x "$TOOL" ]; then
    not_ok "soundness: $TOOL not built (make $TOOL)"
    exit 0
fi

expect_exit 1 "soundness/planted: a finding fails the run" -- "$TOOL" --cases $P --dbs 6 --report "$TMP/report"
cp "$TMP/out" "$TMP/out1"
cp "$TMP/report" "$TMP/report1"
expect_grep '^soundness: random cases/planted/two-rows set: needs more than 1 rows \(t has 2 after shrinking\)$' \
    "$TMP/out1" "soundness/planted: the pair equivalent up to one row is found, and why"
if grep -q 'cases/planted/same' "$TMP/out1"; then
    not_ok "soundness/planted: no finding for the equivalent pair"
else
    ok "soundness/planted: no finding for the equivalent pair"
fi
expect_grep '^soundness: 1 findings, 1 not in the known list$' "$TMP/out1" "soundness/planted: one finding"
expect_grep 'different-under-ties counterexamples checked for two tie orders: 2$' "$TMP/out1" \
    "soundness/planted: the ties counterexamples are checked (and show two orders, one by a tie-breaker)"
expect_grep '^\| INSERT INTO "t"\("id", "a", "b"\) VALUES$' "$TMP/report1" \
    "soundness/planted: the report holds the database as SQL"
expect_grep '^\| difference: ' "$TMP/report1" "soundness/planted: ... and the difference of the results"

# the same run again: the same output, byte for byte (a seed, no clock)
"$TOOL" --cases $P --dbs 6 --report "$TMP/report2" | grep -v '^  solver time' >"$TMP/out2"
grep -v '^  solver time' "$TMP/out1" >"$TMP/out1b"
if cmp -s "$TMP/out1b" "$TMP/out2" && cmp -s "$TMP/report1" "$TMP/report2"; then
    ok "soundness/planted: deterministic"
else
    not_ok "soundness/planted: deterministic"
fi

printf '# a known finding\nrandom cases/planted/two-rows set   needs two rows; bound 1\n' >"$TMP/known"
expect_exit 0 "soundness/planted: a known finding passes" -- "$TOOL" --cases $P --dbs 6 --known "$TMP/known"
expect_grep '^soundness: random cases/planted/two-rows set \(known\): ' "$TMP/out" "soundness/planted: marked known"

expect_exit 2 "soundness/usage: no pairs" -- "$TOOL" --dbs 3
expect_exit 2 "soundness/usage: bad option" -- "$TOOL" --cases $P --frobnicate
expect_exit 2 "soundness/usage: missing cases file" -- "$TOOL" --cases "$TMP/nothing.cases"
expect_exit 2 "soundness/usage: unwritable report, before any work" -- "$TOOL" --cases $P --report /nonexistent/dir/r
expect_exit 0 "soundness/corpus: skipped without the corpus" -- env SQUINT_CORPORA="$TMP/no-corpus" "$TOOL" --spider
expect_grep 'no corpus at .*; Spider pairs skipped' "$TMP/out" "soundness/corpus: says it skipped"
expect_exit 2 "soundness/usage: unreadable known list" -- "$TOOL" --cases $P --known "$TMP/no-such-list"
