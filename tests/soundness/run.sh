#!/usr/bin/env bash
# run.sh -- the soundness checks of squint equiv (docs/soundness.md).
#
# Usage: tests/soundness/run.sh MODE BUILD_DIR
#   full  (make soundness) every distinct Spider dev (gold, prediction) pair
#         under spider and set semantics, on its real database and on
#         $SOUNDNESS_DBS random databases per equivalent verdict; every gold
#         query against itself, its emitted SQL and its unnest and
#         joinelim-rewrite rewrites; every equivalent and
#         different-under-ties case of tests/equiv/*.cases.  Report in
#         BUILD/soundness/.
#   ci    (make soundness-ci) the tests/equiv cases and every
#         $SOUNDNESS_SAMPLE-th Spider pair, $SOUNDNESS_DBS random databases
#         each (default 4 here).
#   real  (make conformance) every $SOUNDNESS_REAL_SAMPLE-th Spider pair
#         (default 8; 1 for all) whose results on its real database differ
#         must not be called equivalent.
# Fails on a finding that tests/soundness/known.txt does not list.  The
# Spider pairs are skipped with a message when the corpus directory
# ($SQUINT_CORPORA, default ../shared/corpora) is absent.  The solver's
# budget is z3's resource limit, not a clock: the verdicts do not depend
# on the machine's load.
set -u
MODE=${1:-}
BUILD=${2:-build}
JOBS=${SOUNDNESS_JOBS:-2}
SEED=${SOUNDNESS_SEED:-1}
BOUND=${SOUNDNESS_BOUND:-3}
RLIMIT=${SOUNDNESS_RLIMIT:-20000000}
out=$BUILD/soundness
mkdir -p "$out"
tool=$BUILD/tools/soundness
common=(--bound "$BOUND" --rlimit "$RLIMIT" --seed "$SEED" -j "$JOBS" --known tests/soundness/known.txt)
cases=()
for f in tests/equiv/*.cases; do cases+=(--cases "$f"); done
case $MODE in
full)
    "$tool" "${common[@]}" --spider --self --rewrites --real --dbs "${SOUNDNESS_DBS:-20}" "${cases[@]}" \
        --report "$out/full-findings.txt" --verdicts "$out/full-verdicts.txt"
    ;;
ci)
    "$tool" "${common[@]}" --dbs "${SOUNDNESS_DBS:-4}" "${cases[@]}" --report "$out/ci-cases-findings.txt"
    s1=$?
    "$tool" "${common[@]}" --spider --sample "${SOUNDNESS_SAMPLE:-40}" --dbs "${SOUNDNESS_DBS:-4}" \
        --report "$out/ci-spider-findings.txt"
    s2=$?
    [ $s1 -eq 0 ] && [ $s2 -eq 0 ]
    ;;
real)
    "$tool" "${common[@]}" --spider --real-only --sample "${SOUNDNESS_REAL_SAMPLE:-8}" \
        --report "$out/real-findings.txt"
    ;;
*)
    echo "usage: tests/soundness/run.sh full|ci|real BUILD_DIR" >&2
    exit 2
    ;;
esac
status=$?
[ $status -ne 0 ] && echo "soundness: findings not in tests/soundness/known.txt; details in $out/"
exit $status
