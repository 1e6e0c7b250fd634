# lib.sh -- helpers for CLI tests (sourced).  Prints TAP lines.
# expect_exit CODE NAME -- CMD...   run CMD, check its exit status
# expect_grep PATTERN FILE NAME     check FILE contains PATTERN (grep -E)
: "${SQUINT:=build/squint}"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# squint equiv and eval keep column profiles in a cache: never $HOME's
export SQUINT_CACHE="$TMP/squint-cache"

ok() { echo "ok - $*"; }
not_ok() { echo "not ok - $*"; }

expect_exit() {
    local want=$1 name=$2
    shift 3
    "$@" >"$TMP/out" 2>"$TMP/err"
    local got=$?
    if [ "$got" = "$want" ]; then ok "$name"; else
        not_ok "$name (exit $got, want $want)"; head -5 "$TMP/out" "$TMP/err"; fi
}

expect_grep() {
    if grep -qE -- "$1" "$2"; then ok "$3"; else not_ok "$3 (no '$1' in output)"; head -5 "$2"; fi
}

# eval_demo_db NAME -- build examples/eval-demo's database under $TMP/db
# (D is the demo's directory).  Without the sqlite3 shell it prints a
# skip line and exits the test script; a failed build is a failure.
eval_demo_db() {
    D=examples/eval-demo
    if ! command -v sqlite3 >/dev/null; then
        echo "ok - $1: skipped (no sqlite3 shell to build the demo database; scripts/deps.sh installs it)"
        exit 0
    fi
    sh $D/build.sh "$TMP/db" >/dev/null || { not_ok "$1: build the demo database"; exit 1; }
    DB=$TMP/db/library/library.sqlite
}

# The search's budget in tests that verify (squint eval): z3's resource
# units rather than seconds, so that a verdict does not depend on how
# loaded the machine is (issue 18, finding 7).
EVAL_BUDGET=(--verify-timeout 0 --rlimit 40000000)
