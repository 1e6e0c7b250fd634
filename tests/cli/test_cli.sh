#!/usr/bin/env bash
# test_cli.sh -- squint's commands: help, exit codes, output formats.
cd "$(dirname "$0")/../.."
. tests/cli/lib.sh

expect_exit 2 "no command is a usage error" -- "$SQUINT"
expect_exit 2 "unknown command is a usage error" -- "$SQUINT" frobnicate
expect_exit 0 "squint help" -- "$SQUINT" help
expect_grep "parse" "$TMP/out" "help lists parse"
expect_exit 0 "squint version" -- "$SQUINT" version
for cmd in parse check; do
    expect_exit 0 "$cmd --help" -- "$SQUINT" $cmd --help
    expect_grep "^usage: squint $cmd" "$TMP/out" "$cmd --help shows usage"
    expect_exit 0 "help $cmd" -- "$SQUINT" help $cmd
    expect_exit 2 "$cmd without files is a usage error" -- "$SQUINT" $cmd
    expect_exit 2 "$cmd with an unknown option" -- "$SQUINT" $cmd --bogus x.sql
    expect_exit 2 "$cmd with a missing file" -- "$SQUINT" $cmd "$TMP/does-not-exist.sql"
    expect_grep "cannot read" "$TMP/err" "$cmd names the unreadable file"
    expect_exit 2 "$cmd with a bad --format" -- "$SQUINT" $cmd --format yaml x.sql
done

printf 'SELECT 1;\nSELECT a FROM t;\n' >"$TMP/good.sql"
printf 'SELECT 1;\nSELECT FROM;\nSELECT 2;\n' >"$TMP/bad.sql"
expect_exit 0 "check: clean file exits 0" -- "$SQUINT" check "$TMP/good.sql"
expect_grep "2 statements checked: 0 errors" "$TMP/out" "check: summary line"
expect_exit 1 "check: syntax error exits 1" -- "$SQUINT" check --color=never "$TMP/bad.sql"
expect_grep "bad.sql:2:8: error\[E0103\]" "$TMP/out" "check: file:line:col and code"
expect_grep "^ *\| +\^~~~" "$TMP/out" "check: caret line"
expect_exit 1 "check --format json" -- "$SQUINT" check --format json "$TMP/bad.sql"
expect_grep '"code": "E0103"' "$TMP/out" "check json: code"
expect_grep '"line": 2' "$TMP/out" "check json: line"
expect_grep '"failed": 1' "$TMP/out" "check json: summary"
expect_exit 0 "check reads stdin" -- sh -c "printf 'SELECT 1' | '$SQUINT' check -"
printf 'PRAGMA foreign_keys = ON;\nBEGIN;\nCOMMIT;\n' >"$TMP/pragma.sql"
expect_exit 0 "check: PRAGMA/BEGIN/COMMIT accepted" -- "$SQUINT" check --color=never "$TMP/pragma.sql"
expect_grep "note\[N0101\]: PRAGMA statement accepted and ignored" "$TMP/out" "check: PRAGMA note"
expect_grep "note\[N0101\]: transaction control statement accepted and ignored" "$TMP/out" "check: BEGIN note"

expect_exit 0 "parse -e" -- "$SQUINT" parse -e "SELECT a FROM t"
expect_grep "\(from \(table \(name t\)\)\)" "$TMP/out" "parse prints the tree"
expect_exit 0 "parse --format json" -- "$SQUINT" parse --format json -e "SELECT a FROM t"
expect_grep '"kind": "select-stmt"' "$TMP/out" "parse json: statement kind"
expect_grep '"span": \[' "$TMP/out" "parse json: spans"
expect_exit 1 "parse: syntax error exits 1" -- "$SQUINT" parse -e "SELECT FROM"
expect_exit 0 "parse --quiet prints no tree" -- "$SQUINT" parse -q -e "SELECT 1"
if [ -s "$TMP/out" ]; then not_ok "parse --quiet output is empty"; else ok "parse --quiet output is empty"; fi
