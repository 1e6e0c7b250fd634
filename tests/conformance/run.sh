#!/usr/bin/env bash
# run.sh -- corpus conformance: squint's parser against SQLite's.
#
# Usage: tests/conformance/run.sh BUILD_DIR
# Runs the parity tool over ../shared/corpora (override with SQUINT_CORPORA)
# including the derived negative corpus, then the binding-parity tool
# (squint's binder errors against SQLite's prepare errors), then the
# round trip (squint's emitted SQL gives the original's rows on Spider),
# then `squint check` over the Spider and BIRD gold (zero binding errors),
# the round trip again through the rewrite passes (unnest, then
# joinelim-rewrite: every rewrite checked by execution), the BIRD
# schema and join query graphs, and squint equiv over the corpus
# (tests/conformance/equivcorpus.c: the search, and the normal-form
# proofs checked against it), squint equiv's `equivalent` verdicts
# against the real databases (tests/soundness), and squint eval against the official
# Spider script (tests/conformance/eval_spider.sh).  Skips with a message, and
# succeeds, when the corpus directory is absent.
set -u
BUILD=${1:-build}
root=${SQUINT_CORPORA:-../shared/corpora}
if [ ! -d "$root" ]; then
    echo "conformance: no corpus at $root (set SQUINT_CORPORA); skipped"
    exit 0
fi
mkdir -p "$BUILD/conformance"
report=$BUILD/conformance/parity-mismatches.txt
"$BUILD/tools/parity" --negative --report "$report"
status=$?
[ $status -ne 0 ] && echo "conformance: mismatches listed in $report"
breport=$BUILD/conformance/bindparity-mismatches.txt
"$BUILD/tools/bindparity" --report "$breport"
bstatus=$?
[ $bstatus -ne 0 ] && echo "conformance: binding mismatches listed in $breport"
rreport=$BUILD/conformance/roundtrip-failures.txt
"$BUILD/tools/roundtrip" --report "$rreport"
rstatus=$?
[ $rstatus -ne 0 ] && echo "conformance: round-trip failures listed in $rreport"
tests/conformance/check_gold.sh "$BUILD"
gstatus=$?
"$BUILD/tools/roundtrip" --passes unnest --passes joinelim-rewrite \
    --report "$BUILD/conformance/rewrite-failures.txt"
ustatus=$?
tests/conformance/graphs.sh "$BUILD"
hstatus=$?
# squint equiv: every gold query against itself and its emitted SQL, every
# unnest rewrite against its original (a validated difference fails), and
# the Calcite pairs (reported; only a spurious counterexample fails).
"$BUILD/tools/equivcorpus" --self --bound 3 --timeout 2 --report "$BUILD/conformance/equiv-self.txt"
estatus=$?
"$BUILD/tools/equivcorpus" --unnest --bound 3 --timeout 2 --report "$BUILD/conformance/equiv-unnest.txt"
e2status=$?
# ... and every rewrite proved equivalent at bound 2, under a resource
# limit rather than a clock, so that a loaded machine cannot fail it
"$BUILD/tools/equivcorpus" --unnest --strict --bound 2 --timeout 0 --rlimit 50000000 \
    --report "$BUILD/conformance/equiv-unnest-strict.txt" || e2status=1
"$BUILD/tools/equivcorpus" --calcite --bound 4 --timeout 5 --report "$BUILD/conformance/equiv-calcite.txt"
e3status=$?
# ... and every BIRD (gold, prediction) pair whose normal forms prove it
# equivalent, searched as well: the search must find no difference the
# proof rules out
"$BUILD/tools/equivcorpus" --forms --bound 2 --timeout 2 --report "$BUILD/conformance/equiv-forms.txt"
e6status=$?
tests/conformance/equiv_seed.sh "$BUILD"
e4status=$?
tests/conformance/equiv_seed.sh "$BUILD" tests/equiv/bird_regressions.cases || e4status=1
# squint equiv's `equivalent` against the real databases: a pair whose
# results differ there must not be called equivalent (a sample of the
# Spider pairs; tests/soundness/run.sh, docs/soundness.md)
tests/soundness/run.sh real "$BUILD"
e7status=$?
# squint eval's EX-test against the official Spider script, item by item
tests/conformance/eval_spider.sh "$BUILD"
e5status=$?
# ... and its BIRD metric against BIRD's, run by Python's sqlite3
tests/conformance/eval_bird_metric.sh "$BUILD" || e5status=1
[ $status -eq 0 ] && [ $bstatus -eq 0 ] && [ $rstatus -eq 0 ] && [ $gstatus -eq 0 ] &&
    [ $ustatus -eq 0 ] && [ $hstatus -eq 0 ] && [ $estatus -eq 0 ] && [ $e2status -eq 0 ] &&
    [ $e3status -eq 0 ] && [ $e4status -eq 0 ] && [ $e5status -eq 0 ] && [ $e6status -eq 0 ] &&
    [ $e7status -eq 0 ]
