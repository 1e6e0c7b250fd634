#!/usr/bin/env bash
# test_report_output.sh -- where lint's and check's report goes, and how
# they end (docs/cli.md): -o FILE holds exactly what stdout would; it
# replaces a report squint wrote (in any format) but not a file of the
# user's (kept intact; --force replaces it) and never an input, even with
# --force; --exit-zero ends with 0 on findings but 2 on bad input;
# --stdin-filename names what '-' reads, and lint finds the .squint.json
# beside that name.  Prints TAP lines.
cd "$(dirname "$0")/../.." || exit 2
. tests/cli/lib.sh
S=examples/eval-demo/schema.sql
W=tests/cli/fixtures/compile/warn.sql
printf 'SELEC 1;\nSELECT nope FROM authors;\n' >"$TMP/bad.sql"
O=$TMP/out.d
mkdir -p "$O"

for cmd in lint check; do
    case $cmd in lint) args=(--no-data --schema $S $W) ;; check) args=(--schema $S "$TMP/bad.sql") ;; esac
    for f in text json gcc junit; do
        "$SQUINT" $cmd -f $f "${args[@]}" >"$TMP/stdout" 2>/dev/null
        expect_exit 1 "$cmd -o FILE -f $f" -- "$SQUINT" $cmd -f $f -o "$O/$cmd.report" "${args[@]}"
        [ ! -s "$TMP/out" ] && cmp -s "$TMP/stdout" "$O/$cmd.report" && ok "... FILE holds what stdout would, stdout nothing" ||
            not_ok "... FILE holds what stdout would"
    done   # each run replaced the report the last one wrote, in another format
    echo 'my own notes' >"$O/mine.txt"
    expect_exit 2 "$cmd -o: a file of the user's is refused" -- "$SQUINT" $cmd -o "$O/mine.txt" "${args[@]}"
    expect_grep "'$O/mine.txt' exists and is not a report squint wrote; pass --force to replace it" "$TMP/err" "... saying why"
    [ "$(cat "$O/mine.txt")" = 'my own notes' ] && ok "... and kept intact" || not_ok "... and kept intact"
    expect_exit 1 "$cmd -o --force replaces it" -- "$SQUINT" $cmd -o "$O/mine.txt" --force "${args[@]}"
    last=${args[${#args[@]}-1]}
    cp "$last" "$TMP/input.copy"
    expect_exit 2 "$cmd -o an input, even with --force" -- "$SQUINT" $cmd -o "$last" --force "${args[@]}"
    expect_grep "is an input of this run" "$TMP/err" "... refused, saying so"
    cmp -s "$last" "$TMP/input.copy" && ok "... the input untouched" || not_ok "... the input untouched"
    expect_exit 2 "$cmd -o the schema" -- "$SQUINT" $cmd -o "$S" --force "${args[@]}"
    expect_exit 0 "$cmd --exit-zero: 0 with findings" -- "$SQUINT" $cmd --exit-zero "${args[@]}"
    grep -q . "$TMP/out" && ok "... still reported" || not_ok "... still reported"
    expect_exit 2 "$cmd --exit-zero: still 2 for a file that cannot be read" -- "$SQUINT" $cmd --exit-zero "${args[@]}" "$TMP/none.sql"
done

# --stdin-filename
expect_exit 1 "check --stdin-filename" -- sh -c "'$SQUINT' check --schema $S -f gcc --stdin-filename src/q.sql - <'$TMP/bad.sql'"
expect_grep '^src/q.sql:2:8: error: no such column: nope \[E0302\]$' "$TMP/out" "... names what '-' read"
mkdir -p "$TMP/repo/queries"
printf '{"lint": {"disable": ["select-star"]}}\n' >"$TMP/repo/.squint.json"
printf 'SELECT * FROM authors;\n' >"$TMP/star.sql"
expect_exit 1 "lint of stdin, no name: select-star found" -- sh -c "'$SQUINT' lint --no-data --schema $S -f gcc - <'$TMP/star.sql'"
expect_grep '^<stdin>:1:8: note: .*\[select-star\]$' "$TMP/out" "... placed in <stdin>"
expect_exit 0 "lint --stdin-filename in a directory whose .squint.json disables it" -- \
    sh -c "cd / && '$PWD/$SQUINT' lint --no-data --schema '$PWD/$S' --stdin-filename '$TMP/repo/queries/q.sql' - <'$TMP/star.sql'"
grep -q 'select-star' "$TMP/out" && not_ok "... the configuration beside the name applies" ||
    ok "... the configuration beside the name applies"
