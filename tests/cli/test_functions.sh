#!/usr/bin/env bash
# test_functions.sh -- `squint equiv --list-functions` against the tables it
# is made from and against what the search does.  Prints TAP lines.
#   - every function of frontend/functions.def is listed once per kind, and
#     every row of passes/smt/smt_funcs.def shows as exact or partial;
#   - a function listed "constants" is computed by SQLite on constant
#     arguments: its call equals SQLite's value and differs from another;
#   - a function listed "unsupported" makes the verdict unknown.
cd "$(dirname "$0")/../.." || exit 2
. tests/cli/lib.sh
"$SQUINT" equiv --list-functions >"$TMP/list" 2>"$TMP/err"
st=$?
[ $st -eq 0 ] && [ -s "$TMP/list" ] && ok "list-functions: exit 0, a list" ||
    { not_ok "list-functions: exit 0, a list (exit $st)"; exit 1; }

# functions.def: FUNC("name", min, max, KIND, ...); one line per name and kind
sed -n 's/^FUNC("\([a-z0-9_]*\)", *[-0-9]*, *[-0-9]*, *F_\([A-Z]*\),.*/\1 \2/p' frontend/functions.def |
    sed 's/ SCALAR$/ scalar/; s/ AGG$/ aggregate/; s/ WINDOW$/ window/' | sort -u >"$TMP/want"
awk '{print $1, $2}' "$TMP/list" | sort >"$TMP/got"
if cmp -s "$TMP/want" "$TMP/got"; then ok "list-functions: every function of functions.def once per kind"
else not_ok "list-functions: every function of functions.def once per kind"; diff "$TMP/want" "$TMP/got" | head -5; fi

bad=""
while read -r name kind; do
    grep -qE "^$name +$kind +(exact|partial)( |\$)" "$TMP/list" || bad="$bad $name/$kind"
done < <(sed -n 's/^SMT_FUNC([A-Z_]*, *"\([a-z0-9_]*\)", *F_\([A-Z]*\),.*/\1 \2/p' passes/smt/smt_funcs.def |
         sed 's/ SCALAR$/ scalar/; s/ AGG$/ aggregate/; s/ WINDOW$/ window/')
[ -z "$bad" ] && ok "list-functions: every row of smt_funcs.def is exact or partial" ||
    not_ok "list-functions: rows not shown as modelled:$bad"

printf 'CREATE TABLE t (id INTEGER PRIMARY KEY, x TEXT);\n' >"$TMP/s.sql"
# constants: the call against SQLite's own value, and against another value
const_case() { # const_case CALL
    local call=$1 value
    grep -qE "^${call%%(*} +scalar +constants " "$TMP/list" ||
        { not_ok "constants: ${call%%(*} is listed as constants"; return; }
    value=$(sqlite3 :memory: "SELECT quote($call)")
    expect_exit 0 "constants: $call is SQLite's $value" -- \
        "$SQUINT" equiv --schema "$TMP/s.sql" --rlimit 40000000 --timeout 0 "SELECT $call FROM t" "SELECT $value FROM t"
    expect_exit 1 "constants: $call is not $value || 'z'" -- \
        "$SQUINT" equiv --schema "$TMP/s.sql" --rlimit 40000000 --timeout 0 "SELECT $call FROM t" "SELECT $value || 'z' FROM t"
}
if command -v sqlite3 >/dev/null; then
    const_case "hex('ab')"
    const_case "unicode('é')"
    const_case "quote(1.5)"
    const_case "char(72, 105)"
    const_case "sqrt(2)"
else
    echo "ok - constants: skipped (no sqlite3 shell; scripts/deps.sh installs it)"
fi

grep -qE "^random +scalar +unsupported +not deterministic" "$TMP/list" &&
    ok "list-functions: random() is unsupported" || not_ok "list-functions: random() is unsupported"
expect_exit 3 "unsupported: random() makes the verdict unknown" -- \
    "$SQUINT" equiv --schema "$TMP/s.sql" --rlimit 40000000 --timeout 0 "SELECT random() FROM t" "SELECT 1 FROM t"
grep -qE "^ntile +window +unsupported" "$TMP/list" &&
    ok "list-functions: ntile() is unsupported" || not_ok "list-functions: ntile() is unsupported"
