#!/usr/bin/env bash
# test_robust.sh -- bad input never crashes or hangs squint.
cd "$(dirname "$0")/../.."
. tests/cli/lib.sh

: >"$TMP/empty.sql"
expect_exit 0 "empty file" -- "$SQUINT" check "$TMP/empty.sql"
head -c 200000 /dev/urandom >"$TMP/junk.sql"
expect_exit 1 "binary junk: errors, no crash" -- timeout 30 "$SQUINT" check "$TMP/junk.sql"
printf "SELECT '\xff\xfe' AS \"\xc3\x28\" FROM t" >"$TMP/utf8.sql"
expect_exit 0 "invalid UTF-8 inside strings and names" -- "$SQUINT" parse "$TMP/utf8.sql"
expect_exit 0 "invalid UTF-8: JSON output" -- "$SQUINT" parse --format json "$TMP/utf8.sql"
expect_grep '\\u00ff' "$TMP/out" "invalid UTF-8 bytes escaped in JSON"
printf "SELECT 'abc\nFROM t" >"$TMP/unterminated.sql"
expect_exit 1 "unterminated string" -- "$SQUINT" check --color=never "$TMP/unterminated.sql"
expect_grep "E0102" "$TMP/out" "unterminated string code"
printf "SELECT 1 /* never closed" >"$TMP/comment.sql"
expect_exit 0 "unterminated comment is a warning" -- "$SQUINT" check --color=never "$TMP/comment.sql"
expect_grep "warning\[W0101\]" "$TMP/out" "unterminated comment warning"
printf 'SELECT a FROM t\0 WHERE 1' >"$TMP/nul.sql"
expect_exit 1 "NUL byte" -- "$SQUINT" check "$TMP/nul.sql"

# 100,000 nested parentheses: a clear error, not a stack overflow.
{ printf 'SELECT '; head -c 100000 /dev/zero | tr '\0' '('; printf 1;
  head -c 100000 /dev/zero | tr '\0' ')'; printf ';\nSELECT 2;\n'; } >"$TMP/deep.sql"
expect_exit 1 "100000 nested parentheses" -- timeout 60 "$SQUINT" check --color=never "$TMP/deep.sql"
expect_grep "E0105" "$TMP/out" "nesting too deep reported"
expect_grep "2 statements checked: 1 error" "$TMP/out" "the next statement still parses"

# A 100 MB file parses statement by statement in bounded memory.  Skipped
# under sanitizers, whose shadow memory defeats the address-space cap.
case "$SQUINT" in
*san*) ok "# SKIP 100 MB file under sanitizers" ;;
*)
    yes "SELECT a, b, count(*) FROM t JOIN u ON t.id = u.tid WHERE c > 1 GROUP BY a, b;" |
        head -n 1240000 >"$TMP/big.sql"
    expect_exit 0 "100 MB file within a 512 MB address-space cap" -- \
        bash -c "ulimit -v 524288; timeout 300 '$SQUINT' parse -q '$TMP/big.sql'"
    ;;
esac

# Long tokens.  A 4 MB identifier, string and comment parse in bounded
# memory (the lexer's work is linear: test_lexer counts it), and a message
# quoting a 1 MB name stays short: every line of the output is.
longest_line() { awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$1"; }
expect_short_lines() { # expect_short_lines FILE NAME
    local m
    m=$(longest_line "$1")
    if [ "$m" -le 200 ]; then ok "$2"; else not_ok "$2 (a line of $m bytes)"; fi
}
long() { head -c "$1" /dev/zero | tr '\0' a; }
printf 'CREATE TABLE t(x);\n' >"$TMP/t.sql"
{ printf 'SELECT '; long 1048576; printf ' FROM t;\n'; } >"$TMP/name1m.sql"
expect_exit 1 "1 MB unknown name" -- "$SQUINT" check --color=never --schema "$TMP/t.sql" "$TMP/name1m.sql"
expect_grep "no such column: a{41}\.\.\.a{20}$" "$TMP/out" "the name is cut in the middle"
expect_short_lines "$TMP/out" "no output line grows with the name"
{ printf 'SELECT 1'; long 1048576; printf ' FROM t;\n'; } >"$TMP/token1m.sql"
expect_exit 1 "1 MB bad token" -- "$SQUINT" check --color=never --format json "$TMP/token1m.sql"
expect_short_lines "$TMP/out" "1 MB bad token: short JSON diagnostics"
{ printf "SELECT '"; long 1048576; printf "' FROM nowhere;\n"; } >"$TMP/string1m.sql"
expect_exit 1 "1 MB string, unknown table" -- "$SQUINT" check --color=never --schema "$TMP/t.sql" "$TMP/string1m.sql"
expect_short_lines "$TMP/out" "1 MB string: short lines"
{ printf 'SELECT '; long 4194304; printf ', "'; long 4194304; printf '", '"'"; long 4194304;
  printf "' /* "; long 4194304; printf ' */ -- '; long 4194304; printf '\nFROM t;\n'; } >"$TMP/long4m.sql"
case "$SQUINT" in
*san*) ok "# SKIP 4 MB tokens under an address-space cap under sanitizers" ;;
*)
    expect_exit 0 "4 MB identifier, quoted name, string and comments: parse within 256 MB" -- \
        bash -c "ulimit -v 262144; timeout 120 '$SQUINT' parse -q '$TMP/long4m.sql'"
    expect_exit 1 "the same: check within 256 MB (no such column)" -- \
        bash -c "ulimit -v 262144; timeout 120 '$SQUINT' check --schema '$TMP/t.sql' '$TMP/long4m.sql'"
    expect_short_lines "$TMP/out" "4 MB tokens: short lines"
    ;;
esac
