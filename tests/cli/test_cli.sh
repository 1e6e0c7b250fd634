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

# ---- one rule: an input squint cannot read is exit 2, in every command ------
printf 'CREATE TABLE t(a INTEGER);\n' > "$TMP/schema.sql"
printf '[{"db_id": "x", "query": "SELECT a FROM t"}, {"db_id": "x", "question": "no query"}]\n' \
    > "$TMP/malformed.json"
echo 'SELECT a FROM t' > "$TMP/p2.sql"; echo 'SELECT a FROM t' >> "$TMP/p2.sql"
expect_exit 2 "check: a malformed benchmark item is an input error" -- \
    "$SQUINT" check --color=never --schema "$TMP/schema.sql" "$TMP/malformed.json"
expect_grep 'item 1 has no "query" string' "$TMP/out" "check: ... which is reported"
expect_grep '1 statement checked' "$TMP/out" "check: ... and the readable item still checked"
expect_exit 2 "lint: the same item, exit 2" -- "$SQUINT" lint --color=never --schema "$TMP/schema.sql" "$TMP/malformed.json"
expect_exit 2 "eval: the same item, exit 2" -- "$SQUINT" eval -q --no-verify --schema "$TMP/schema.sql" \
    --gold "$TMP/malformed.json" --pred "$TMP/p2.sql"
: > "$TMP/dev.json"
expect_exit 2 "check: a 0-byte dev.json is an input error" -- "$SQUINT" check --color=never "$TMP/dev.json"
expect_grep 'dev.json:1:1: error\[E0003\]: the file is empty' "$TMP/out" "check: ... the file is empty, it says"
expect_exit 2 "lint: a 0-byte dev.json" -- "$SQUINT" lint --color=never --schema "$TMP/schema.sql" "$TMP/dev.json"
printf 'SELECT a FROM t\n' > "$TMP/notjson.json"
expect_exit 2 "check: a .json file that is not JSON is an input error" -- "$SQUINT" check --color=never "$TMP/notjson.json"
expect_grep 'error\[E0002\]: invalid JSON' "$TMP/out" "check: ... invalid JSON, at its place"
: > "$TMP/empty.sql"
expect_exit 0 "check: an empty SQL script is still no error" -- "$SQUINT" check "$TMP/empty.sql"
for cmd in check lint eval merge; do
    expect_exit 0 "$cmd --help" -- "$SQUINT" $cmd --help
    sed -n '/^exit status:/,$p' "$TMP/out" | tr '\n' ' ' > "$TMP/status"
    expect_grep '^exit status: 0 .*2 usage.*input' "$TMP/status" "$cmd --help: the exit statuses"
done
