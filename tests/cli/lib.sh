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

# c_toolchain -- can generated C be built here?  0 when cc compiles and
# links a program against SQLite (else 1: the caller prints a skip line and
# says why in C_MISSING).  Sets CFLAGS to the strict flags generated code
# must pass, SAN to ASan+UBSan's flags when they link and run here (else
# empty), and HOW to say which of the two the build used.
c_toolchain() {
    CFLAGS=(-std=c11 -Wall -Wextra -Werror -pedantic)
    if ! command -v cc >/dev/null; then C_MISSING="no cc"; return 1; fi
    printf '#include <sqlite3.h>\nint main(void) { return sqlite3_libversion_number() > 0 ? 0 : 1; }\n' >"$TMP/probe.c"
    if ! cc -o "$TMP/probe" "$TMP/probe.c" -lsqlite3 2>/dev/null; then
        C_MISSING="no sqlite3.h or libsqlite3 to link; libsqlite3-dev has them"; return 1
    fi
    SAN=(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
    export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1
    if cc "${SAN[@]}" -o "$TMP/probe_san" "$TMP/probe.c" -lsqlite3 2>/dev/null && "$TMP/probe_san" 2>/dev/null; then
        HOW="under ASan+UBSan"
    else
        SAN=()
        HOW="without sanitizers (ASan+UBSan do not link or run here)"
    fi
    return 0
}
