#!/usr/bin/env bash
# run.sh -- run every squint test and print "N passed, N failed" last.
#
# Usage: tests/run.sh [--update]       (BUILD=dir selects the build, default build;
#                                      TEST_JOBS=n jobs at a time; TEST_TIMES=file
#                                      gets each background job's wall seconds)
#
# Six kinds of tests:
#   unit    tests/unit/test_*.c, cmocka binaries in $BUILD/tests/, TAP output
#   golden  tests/golden/<suite>/NNN-slug.sql with NNN-slug.expected; the
#           suite's `cmd` file holds the squint arguments (the .sql path is
#           appended).  .expected is stdout, then "--- stderr" and stderr when
#           there is any, then "--- exit N".  Byte-exact.  --update rewrites
#           the .expected files from the current output.
#   bind    tests/bind/cases*.sql: the binder against SQLite, case by case
#   passes  tests/passes/NAME.cases: rewrites checked by execution
#   cli     tests/cli/*.sh, each printing TAP lines ("ok - ..." / "not ok - ...")
#   source  tests/source/*.sh, checks of the source tree itself (the layering),
#           TAP lines as the cli scripts
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
SQUINT=$BUILD/squint
UPDATE=0
[ "${1:-}" = "--update" ] && UPDATE=1
export SQUINT BUILD

pass=0
fail=0
skip=0
failures=()

record() { # record STATUS NAME
    if [ "$1" = ok ]; then pass=$((pass + 1)); else
        fail=$((fail + 1)); failures+=("$2"); fi
}

# Count TAP lines from a test program's output.
count_tap() { # count_tap PREFIX < output
    local prefix=$1 line
    while IFS= read -r line; do
        case "$line" in
            *"# SKIP"*) skip=$((skip + 1)) ;;
            "ok "*) record ok "$prefix: ${line#ok }" ;;
            "not ok "*) record fail "$prefix: ${line#not ok }"; echo "$line" ;;
            "#"*) [ "$line" != "${line#\# }" ] && case "$line" in *[Ff]ail*|*[Ee]rror*|*assert*) echo "$line" ;; esac ;;
        esac
    done
}

# ---- the slow kinds run in the background ---------------------------
# Unit binaries and CLI scripts run $TEST_JOBS at a time (default: the
# number of processors), each into its own file; their results are
# counted in a fixed order once all have ended, so the output does not
# depend on which finished first.  A CLI script whose header says
# "run.sh: --parts" is run once per part it prints for --parts (e.g.
# test_equiv.sh: one case file each), so one long script does not hold up
# the run.  No test reads the clock, so running them side by side changes
# no verdict, only the wall time.
JOBS=${TEST_JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)}
JOBDIR=$(mktemp -d)
trap 'rm -rf "$JOBDIR"' EXIT
# the column-profile cache of squint equiv and eval: the run's, never $HOME's
export SQUINT_CACHE="$JOBDIR/squint-cache"
job_names=()
job_kinds=()

spawn() { # spawn KIND NAME CMD...: run CMD in the background
    local kind=$1 name=$2 i=${#job_names[@]}
    shift 2
    while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n; done
    job_names+=("$name")
    job_kinds+=("$kind")
    (
        start=$SECONDS
        "$@" >"$JOBDIR/$i.out" 2>&1
        echo $? >"$JOBDIR/$i.status"
        echo "$((SECONDS - start)) $name" >"$JOBDIR/$i.time"
    ) &
}

# spawn_script FILE: a CLI or source script, once per part it has
spawn_script() {
    local t=$1 kind
    kind=$(basename "$(dirname "$t")")
    if grep -q '^# run.sh: --parts' "$t"; then
        while IFS= read -r part; do
            spawn "$kind" "$kind/$(basename "$t") $part" bash "$t" "$part"
        done < <(bash "$t" --parts)
    else
        spawn "$kind" "$kind/$(basename "$t")" bash "$t"
    fi
}

# The scripts whose header says "run.sh: first" (the longest, minutes
# each) start before the rest, so that none of them is left running alone
# at the end while the other processors idle.
for t in tests/cli/*.sh; do
    grep -q '^# run.sh: first' "$t" && spawn_script "$t"
done
for t in "$BUILD"/tests/test_*; do
    [ -x "$t" ] || continue
    spawn unit "unit/$(basename "$t")" env CMOCKA_MESSAGE_OUTPUT=TAP "$t"
done
for t in tests/cli/*.sh tests/source/*.sh; do
    [ -e "$t" ] || continue
    grep -q '^# run.sh: first' "$t" || spawn_script "$t"
done

# Count one background job's TAP lines, and a failure when it ended badly
# without a "not ok" line to say so.
collect() { # collect I
    local i=$1 out status name=${job_names[$1]}
    out=$(cat "$JOBDIR/$i.out")
    status=$(cat "$JOBDIR/$i.status" 2>/dev/null || echo 255)
    count_tap "${name%% *}" <<<"$out"
    if [ "$status" -ne 0 ] && ! grep -q "^not ok" <<<"$out"; then
        record fail "$name (exit $status)"
        printf '%s\n' "$out" | tail -20
    fi
}

# ---- golden -------------------------------------------------------------
run_golden() { # run_golden SUITE_DIR SQL_FILE -> prints the observed result
    local dir=$1 sql=$2 args out err status
    args=$(cat "$dir/cmd")
    out=$(mktemp)
    err=$(mktemp)
    # shellcheck disable=SC2086
    (cd "$dir" && "$OLDPWD/$SQUINT" $args "$(basename "$sql")") >"$out" 2>"$err"
    status=$?
    cat "$out"
    if [ -s "$err" ]; then echo "--- stderr"; cat "$err"; fi
    echo "--- exit $status"
    rm -f "$out" "$err"
}

# Lint suites also check annotations: every finding must be announced by
# a "-- expect: rule[, rule...]" comment on the line it is reported at,
# and every announced finding must come.  So a golden cannot quietly
# accept a wrong finding or lose a right one.
expected_findings() { # expected_findings SQL_FILE -> "line rule" lines
    awk '{ if (match($0, /-- expect: *[a-zA-Z0-9, -]+/)) {
             s = substr($0, RSTART, RLENGTH); sub(/-- expect: */, "", s)
             n = split(s, a, /[ ,]+/)
             for (i = 1; i <= n; i++) if (a[i] != "") print NR, a[i] } }' "$1" | sort -u
}
reported_findings() { # reported_findings < output -> "line rule" lines
    grep -oE '^[^ ]+\.sql:[0-9]+:[0-9]+: [a-z]+\[[a-zA-Z0-9-]+\]' |
        sed -E 's/^[^:]+:([0-9]+):[0-9]+: [a-z]+\[([a-zA-Z0-9-]+)\]/\1 \2/' | sort -u
}

# Template suites likewise: a query's "-- expect-slots: kind[, kind...]"
# comment lists the kinds of its slots in text order (no comment: none).
expected_slots() { # expected_slots SQL_FILE -> "line kind kind..." lines
    awk '/^[ \t]*--/ { next }
         /;/ { k = ""; if (match($0, /-- expect-slots: *[a-z, -]+/)) {
                 s = substr($0, RSTART, RLENGTH); sub(/-- expect-slots: */, "", s)
                 n = split(s, a, /[ ,]+/)
                 for (i = 1; i <= n; i++) if (a[i] != "") k = k " " a[i] }
               print NR k }' "$1"
}
reported_slots() { # reported_slots < text output -> "line kind kind..." lines
    awk '/^-- [^ ]+\.sql:[0-9]+:[0-9]+/ { if (line != "") print line k
                                           split($2, p, ":"); line = p[2]; k = ""; next }
         /^--   :[a-z_0-9]+  / { k = k " " $3 }
         END { if (line != "") print line k }'
}

# check_announced SQL TAG WHAT EXPECTED_FN REPORTED_FN OUTPUT: what OUTPUT
# reports must be exactly what SQL's comments announce.
check_announced() {
    local sql=$1 tag=$2 what=$3 want=$4 got=$5 actual=$6
    if diff <("$want" "$sql") <("$got" <<<"$actual") >/dev/null; then
        record ok "$tag/$sql"
    else
        record fail "$tag/$sql"
        echo "$what of $sql differ from its -- $tag: comments (< expected, > reported):"
        diff <("$want" "$sql") <("$got" <<<"$actual") | head -20
    fi
}

for dir in tests/golden/*/; do
    dir=${dir%/}
    [ -f "$dir/cmd" ] || continue
    for sql in "$dir"/*.sql; do
        [ -e "$sql" ] || continue
        expected=${sql%.sql}.expected
        actual=$(run_golden "$dir" "$sql")
        if grep -q '^template extract' "$dir/cmd" && ! grep -q -- '--format' "$dir/cmd"; then
            check_announced "$sql" expect-slots slots expected_slots reported_slots "$actual"
        fi
        if grep -q '^lint ' "$dir/cmd"; then
            check_announced "$sql" expect findings expected_findings reported_findings "$actual"
        fi
        if [ $UPDATE = 1 ]; then
            printf '%s\n' "$actual" >"$expected"
            record ok "golden/$sql"
        elif [ -f "$expected" ] && [ "$actual" = "$(cat "$expected")" ]; then
            record ok "golden/$sql"
        else
            record fail "golden/$sql"
            if [ -f "$expected" ]; then
                diff <(printf '%s\n' "$actual") "$expected" | head -20
            else
                echo "missing $expected"
            fi
        fi
    done
done

# ---- binder oracle --------------------------------------------------------
# Each line of tests/bind/cases*.sql must bind (or fail, with the same
# message) exactly as sqlite3_prepare_v2 does on tests/bind/schema.sql.
for cases in tests/bind/cases*.sql; do
    [ -e "$cases" ] || continue
    out=$("$BUILD/tools/bindparity" --schema tests/bind/schema.sql --cases "$cases" --tap 2>&1)
    status=$?
    count_tap "bind/$(basename "$cases")" <<<"$out"
    if [ $status -ne 0 ] && ! grep -q "^not ok" <<<"$out"; then
        record fail "bind/$(basename "$cases") (exit $status)"
        printf '%s\n' "$out" | tail -20
    fi
done

# ---- pass execution cases -------------------------------------------------
# tests/passes/NAME.cases: each query, rewritten by pass NAME or left alone
# as the line says, must give the original's rows on tests/passes/schema.sql.
for cases in tests/passes/*.cases; do
    [ -e "$cases" ] || continue
    pname=$(basename "$cases" .cases)
    out=$("$BUILD/tools/roundtrip" --schema tests/passes/schema.sql --cases "$cases" \
          --passes "$pname" 2>&1)
    status=$?
    count_tap "passes/$pname" <<<"$out"
    if [ $status -ne 0 ] && ! grep -q "^not ok" <<<"$out"; then
        record fail "passes/$pname (exit $status)"
        printf '%s\n' "$out" | tail -20
    fi
done

# ---- the background jobs' results ------------------------------------------
wait
for i in "${!job_names[@]}"; do collect "$i"; done
# TEST_TIMES=FILE: each background job's wall seconds, slowest first (to
# see where the time goes; nothing is judged by it)
if [ -n "${TEST_TIMES:-}" ]; then
    cat "$JOBDIR"/*.time 2>/dev/null | sort -rn >"$TEST_TIMES"
fi

if [ ${#failures[@]} -gt 0 ]; then
    echo "failed:"
    printf '  %s\n' "${failures[@]}"
fi
[ "$skip" -gt 0 ] && echo "$skip skipped (missing optional inputs)"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
