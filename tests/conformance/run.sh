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

# The lanes' output is printed once both have ended; each step is also
# announced on the terminal as it starts (fd 3), so that a run stopped
# from outside shows which steps were under way.
exec 3>&2
step() { # step CMD ARGS...: run CMD, announced
    echo "conformance: $(date -u +%T) started $(basename "$1")${2:+ $2}${3:+ $3}" >&3
    "$@"
}

# Each group runs its steps in order and fails when one of them does; two
# lanes run side by side (each one process at a time): the parsing group
# then the verdicts, and the equivalence group; their output is printed in
# that order once both have ended.
parsing() { # the parser, the binder, the emitter and the passes
    local ok=0 report=$BUILD/conformance/parity-mismatches.txt
    step "$BUILD/tools/parity" --negative --report "$report" ||
        { ok=1; echo "conformance: mismatches listed in $report"; }
    report=$BUILD/conformance/bindparity-mismatches.txt
    step "$BUILD/tools/bindparity" --report "$report" ||
        { ok=1; echo "conformance: binding mismatches listed in $report"; }
    report=$BUILD/conformance/roundtrip-failures.txt
    step "$BUILD/tools/roundtrip" --report "$report" ||
        { ok=1; echo "conformance: round-trip failures listed in $report"; }
    step tests/conformance/check_gold.sh "$BUILD" || ok=1
    step "$BUILD/tools/roundtrip" --passes unnest --passes joinelim-rewrite \
        --report "$BUILD/conformance/rewrite-failures.txt" || ok=1
    step tests/conformance/graphs.sh "$BUILD" || ok=1
    return $ok
}

equivalence() { # squint equiv over the corpus
    local ok=0
    # every gold query against its emitted SQL, every unnest
    # rewrite against its original (a validated difference fails), and the
    # Calcite pairs (reported; only a spurious counterexample fails)
    step "$BUILD/tools/equivcorpus" --self --bound 3 --timeout 2 --report "$BUILD/conformance/equiv-self.txt" || ok=1
    step "$BUILD/tools/equivcorpus" --unnest --bound 3 --timeout 2 --report "$BUILD/conformance/equiv-unnest.txt" || ok=1
    # ... and every rewrite proved equivalent at bound 2, under a resource
    # limit rather than a clock, so that a loaded machine cannot fail it
    step "$BUILD/tools/equivcorpus" --unnest --strict --bound 2 --timeout 0 --rlimit 50000000 \
        --report "$BUILD/conformance/equiv-unnest-strict.txt" || ok=1
    step "$BUILD/tools/equivcorpus" --calcite --bound 4 --timeout 5 --report "$BUILD/conformance/equiv-calcite.txt" || ok=1
    # ... and every BIRD (gold, prediction) pair whose normal forms prove it
    # equivalent, searched as well: the search must find no difference the
    # proof rules out
    step "$BUILD/tools/equivcorpus" --forms --bound 2 --timeout 2 --report "$BUILD/conformance/equiv-forms.txt" || ok=1
    step tests/conformance/equiv_seed.sh "$BUILD" || ok=1
    step tests/conformance/equiv_seed.sh "$BUILD" tests/equiv/bird_regressions.cases || ok=1
    return $ok
}

verdicts() { # verdicts against SQLite and the official scripts
    local ok=0
    # squint equiv's `equivalent` against the real databases: a pair whose
    # results differ there must not be called equivalent (a sample of the
    # Spider pairs; tests/soundness/run.sh, docs/soundness.md)
    step tests/soundness/run.sh real "$BUILD" || ok=1
    # squint eval's EX-test against the official Spider script, item by item
    step tests/conformance/eval_spider.sh "$BUILD" || ok=1
    # ... and its BIRD metric against BIRD's, run by Python's sqlite3
    step tests/conformance/eval_bird_metric.sh "$BUILD" || ok=1
    return $ok
}

# the verdicts follow the parsing in its lane: the equivalence lane is the
# longer one, and they would leave a core idle after it
checks() {
    local ok=0
    parsing || ok=1
    verdicts || ok=1
    return $ok
}

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
checks >"$out/checks" 2>&1 &
p1=$!
equivalence >"$out/equivalence" 2>&1 &
p2=$!
wait $p1
s1=$?
wait $p2
s2=$?
cat "$out/checks" "$out/equivalence"
[ $s1 -eq 0 ] && [ $s2 -eq 0 ]
