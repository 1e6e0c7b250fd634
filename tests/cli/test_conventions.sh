#!/usr/bin/env bash
# test_conventions.sh -- the command-line conventions every command shares
# (docs/cli.md): --version, one line and a hint for a usage error,
# abbreviated long options, clusters of short options, an option's value
# attached to its letter, options after operands.  Prints TAP lines.
cd "$(dirname "$0")/../.." || exit 2
. tests/cli/lib.sh
S=examples/eval-demo/schema.sql
Q=tests/cli/fixtures/compile/library.sql
want_version="squint $("$SQUINT" version | sed 's/^squint //')"
cmds=$("$SQUINT" help | awk '/^commands:/{f=1; next} f && /^  [a-z]+ /{print $1}' | grep -v -e '^help$' -e '^version$')

# ---- --version and --help, on every command ------------------------------------------
for c in $cmds; do
    out=$("$SQUINT" $c --version 2>&1); rc=$?
    [ $rc = 0 ] && [ "$out" = "$want_version" ] && ok "--version: squint $c" ||
        not_ok "--version: squint $c (exit $rc: $out)"
    "$SQUINT" $c --help >"$TMP/help" 2>&1
    grep -q -- '--version  *print the version and exit' "$TMP/help" && ok "--help: squint $c lists --version" ||
        not_ok "--help: squint $c lists --version"
done
for sub in "llm run" "llm import" "fixture --llm" "template extract"; do
    out=$("$SQUINT" $sub --version 2>&1); rc=$?
    [ $rc = 0 ] && [ "$out" = "$want_version" ] && ok "--version: squint $sub" || not_ok "--version: squint $sub ($out)"
done
expect_exit 0 "squint version -h" -- "$SQUINT" version -h
expect_grep '^usage: squint version' "$TMP/out" "... prints its help"
expect_exit 0 "squint help version" -- "$SQUINT" help version
expect_grep '^usage: squint version' "$TMP/out" "... the same help"
expect_exit 2 "squint version with an operand" -- "$SQUINT" version now
expect_grep "^try 'squint version --help'$" "$TMP/err" "... a line and the hint"

# ---- a usage error: one line and the hint, for every command -------------------------
two_lines() { # two_lines NAME FIRST-LINE HINT-CMD: $TMP/err is exactly these two lines
    local hint="try 'squint $3 --help'"
    [ -z "$3" ] && hint="try 'squint --help'"
    if [ "$(wc -l <"$TMP/err")" = 2 ] && [ "$(head -1 "$TMP/err")" = "$2" ] &&
        [ "$(tail -1 "$TMP/err")" = "$hint" ] && [ ! -s "$TMP/out" ]
    then ok "$1: one line and the hint"
    else not_ok "$1: one line and the hint"; cat "$TMP/err"; fi
}
for c in $cmds; do
    case $c in emit) args=(sql --bogus) ;; prompt) args=(paraphrase --bogus) ;; llm) continue ;; *) args=(--bogus) ;; esac
    expect_exit 2 "unknown option: squint $c" -- "$SQUINT" $c "${args[@]}"
    two_lines "... squint $c" "squint $c: unknown option '--bogus'" $c
done
expect_exit 2 "unknown option: squint llm run" -- "$SQUINT" llm run --bogus
two_lines "... squint llm run" "squint llm run: unknown option '--bogus'" "llm run"
expect_exit 2 "unknown option: squint template extract" -- "$SQUINT" template extract --bogus
two_lines "... squint template extract" "squint template extract: unknown option '--bogus'" "template extract"
expect_exit 2 "an unknown command" -- "$SQUINT" frobnicate
two_lines "... squint frobnicate" "squint: unknown command 'frobnicate'" ""
expect_exit 2 "an option missing its value, after an operand (which is not taken for it)" -- "$SQUINT" lint $Q --schema
two_lines "... squint lint --schema" "squint lint: option '--schema' needs a value" lint
expect_exit 2 "an option missing its value" -- "$SQUINT" lint --schema
two_lines "... squint lint --schema alone" "squint lint: option '--schema' needs a value" lint
expect_exit 2 "a value given to an option that takes none" -- "$SQUINT" lint --no-data=yes $Q
two_lines "... --no-data=yes" "squint lint: option '--no-data' takes no value" lint
expect_exit 2 "no input file" -- "$SQUINT" lint --schema $S
two_lines "... squint lint" "squint lint: no input FILE" lint
expect_exit 2 "an unknown option of compile is an error (it was ignored)" -- \
    "$SQUINT" compile --schema $S --out "$TMP/c" --chek $Q
[ ! -e "$TMP/c" ] && ok "... and nothing is written" || not_ok "... and nothing is written"

# ---- getopt_long's ways -----------------------------------------------------------------
"$SQUINT" lint --no-data --schema $S -f json $Q >"$TMP/full" 2>/dev/null
expect_exit 1 "an abbreviated long option (--form for --format, --sch for --schema)" -- \
    "$SQUINT" lint --no-data --sch $S --form json $Q
cmp -s "$TMP/out" "$TMP/full" && ok "... the same output" || not_ok "... the same output"
expect_exit 1 "an attached value (-fjson) and options after the operand" -- "$SQUINT" lint $Q -fjson --no-data --schema=$S
cmp -s "$TMP/out" "$TMP/full" && ok "... the same output" || not_ok "... the same output"
expect_exit 2 "an ambiguous abbreviation" -- "$SQUINT" lint --s $S $Q
two_lines "... names its candidates" "squint lint: option '--s' is ambiguous: --severity --stdin-filename --schema" lint
"$SQUINT" parse -q --format json --sql 'SELECT 1' >"$TMP/long" 2>&1
expect_exit 0 "a cluster of short options (-qf json)" -- "$SQUINT" parse -qf json --sql 'SELECT 1'
cmp -s "$TMP/out" "$TMP/long" && ok "... as -q --format json" || not_ok "... as -q --format json"
expect_exit 2 "a cluster with a letter no option has" -- "$SQUINT" parse -qz --sql 'SELECT 1'
two_lines "... names the letter" "squint parse: unknown option '-z'" parse
expect_exit 0 "an option's value that looks like an option (--sql '-- x' after --sql)" -- \
    "$SQUINT" parse --format=json --sql '-- only a comment'

# ---- color from the environment ------------------------------------------------------------
colored() { # colored NAME WANT(1|0) ENV... -- ARGS: whether squint parse's diagnostic is colored
    local name=$1 want=$2
    shift 2
    local envs=() args=()
    while [ $# -gt 0 ] && [ "$1" != -- ]; do envs+=("$1"); shift; done
    [ "${1:-}" = -- ] && shift && args=("$@")
    env -u NO_COLOR -u FORCE_COLOR -u CLICOLOR_FORCE TERM=xterm "${envs[@]}" "$SQUINT" parse "${args[@]}" \
        --sql 'SELEC 1' >/dev/null 2>"$TMP/err"
    local got=0
    grep -q $'\033\\[' "$TMP/err" && got=1
    [ $got = "$want" ] && ok "color: $name" || not_ok "color: $name (got $got)"
}
colored "none on a file by default" 0
colored "FORCE_COLOR=1 colors a file" 1 FORCE_COLOR=1
colored "CLICOLOR_FORCE=1 colors a file" 1 CLICOLOR_FORCE=1
colored "FORCE_COLOR=0 does not" 0 FORCE_COLOR=0
colored "FORCE_COLOR wins over NO_COLOR" 1 FORCE_COLOR=1 NO_COLOR=1
colored "--color never wins over FORCE_COLOR" 0 FORCE_COLOR=1 -- --color never
# on a terminal (script(1) gives one): colored, but not under TERM=dumb or NO_COLOR
if command -v script >/dev/null; then
    on_tty() { script -qec "env -u NO_COLOR -u FORCE_COLOR -u CLICOLOR_FORCE $* '$SQUINT' parse --sql 'SELEC 1'" /dev/null; }
    on_tty TERM=xterm | grep -q $'\033\\[' && ok "color: a terminal is colored" || not_ok "color: a terminal is colored"
    on_tty TERM=dumb | grep -q $'\033\\[' && not_ok "color: TERM=dumb is not" || ok "color: TERM=dumb is not"
    on_tty TERM=xterm NO_COLOR=1 | grep -q $'\033\\[' && not_ok "color: NO_COLOR on a terminal" ||
        ok "color: NO_COLOR on a terminal is not colored"
else
    echo "ok - color on a terminal: skipped (no script(1) here)"
fi

# ---- the same mistake, the same message, in every command that reads it ----
printf '[{"db_id":"x","query":"SELECT a FROM t"},{"db_id":"x","question":"q"}]' > "$TMP/mal.json"
printf 'CREATE TABLE t(a);' > "$TMP/mal.sql"
for cmd in check lint ir "graph --query" "prompt sql-to-question" eval fixture; do
    case $cmd in
        eval) args=(--gold "$TMP/mal.json" --pred "$TMP/mal.json") ;;
        fixture) args=(--gold "$TMP/mal.json" --out "$TMP/mal-fix") ;;
        *) args=("$TMP/mal.json") ;;
    esac
    "$SQUINT" $cmd -q --no-config --schema "$TMP/mal.sql" "${args[@]}" >"$TMP/out" 2>"$TMP/err"; rc=$?
    if [ $rc = 2 ] && cat "$TMP/out" "$TMP/err" | grep -q 'mal.json:1:42: error\[E0003\]: item 1 has no "query" string'; then
        ok "malformed item: squint $cmd says where and exits 2"
    else not_ok "malformed item: squint $cmd (exit $rc)"; head -3 "$TMP/err"; fi
done
