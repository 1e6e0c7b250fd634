#!/usr/bin/env bash
# equiv_seed.sh -- the seed 003 pairs (tests/equiv/seed003.cases) against
# BIRD's own schemas: each case again with --tables dev_tables.json and the
# db_id its comment names, instead of the file's hand-written DDL.  The
# verdict must be the one the case expects.  The budget is z3's resource
# units, as in tests/cli/test_equiv.sh, not a clock: a loaded machine once
# timed a case out here (issue 18, finding 7).
#
# Usage: tests/conformance/equiv_seed.sh BUILD_DIR [CASES_FILE]
set -u
BUILD=${1:-build}
cases=${2:-tests/equiv/seed003.cases}
root=${SQUINT_CORPORA:-../shared/corpora}
tables=$root/bird-dev/dev_tables.json
[ -f "$tables" ] || { echo "equiv_seed: no $tables; skipped"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# One line per case: db_id TAB name TAB semantics TAB expect TAB q1 TAB q2
awk '
    /^-- [a-z0-9_]+, question_id [0-9]+/ { db = $2; sub(/,$/, "", db); next }
    /^-- case: / { name = $3; sem = "set"; want = ""; n = 0; q[0] = q[1] = ""; incase = 1; next }
    incase && /^-- semantics: / { sem = $3; next }
    incase && /^-- expect: / { want = $3; next }
    incase && /^--/ { next }
    incase && NF {
        q[n] = q[n] (q[n] == "" ? "" : " ") $0
        if ($0 ~ /;[ \t]*$/) { n++ }
        if (n == 2) { printf "%s\t%s\t%s\t%s\t%s\t%s\n", db, name, sem, want, q[0], q[1]; incase = 0 }
    }
' "$cases" >"$tmp/cases"
pass=0 fail=0
while IFS=$'\t' read -r db name sem exp q1 q2; do
    got=$("$BUILD/squint" equiv --tables "$tables" --db-id "$db" --semantics "$sem" --bound 3 \
        --timeout 0 --rlimit "${EQUIV_RLIMIT:-40000000}" "$q1" "$q2" 2>&1 | head -1)
    verdict=${got%% *}
    verdict=${verdict%:}
    if [ "$verdict" = "$exp" ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "equiv_seed: $name ($db): expected $exp, got: $got"
    fi
done <"$tmp/cases"
echo "equiv_seed: $(basename "$cases") pairs on BIRD's dev_tables.json: $pass as expected, $fail not"
[ $fail -eq 0 ] && [ $pass -gt 0 ]
