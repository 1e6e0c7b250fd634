#!/usr/bin/env bash
# test_formats.sh -- the output formats are one table, and every JSON
# output places source text with one key set that points at the right bytes.
#
# --format: every command names its choices from the table and answers a
# wrong name with the same message.  Spans: check, lint, ir, opt (and the
# join-elimination findings) write file, line, column, end_line,
# end_column, offset, length; this test reads the bytes they name back out
# of the file and checks them, and checks line and column against offset.
# Prints TAP lines.
. tests/cli/lib.sh

F=tests/cli/fixtures/check_schema

# ---- --format: one table, one message ---------------------------------------
bad_format() { # CMD WANT: a wrong --format answers with exit 2 and the names
    local cmd=$1 want=$2
    expect_exit 2 "$cmd --format bogus: exit 2" -- "$SQUINT" $cmd --format bogus --schema $F/shop.sql $F/queries.sql
    if grep -qxF "squint $cmd: unknown format 'bogus' (use $want)" "$TMP/err"; then
        ok "$cmd --format bogus: names $want"
    else
        not_ok "$cmd --format bogus: names $want"; cat "$TMP/err"
    fi
}
bad_format check "text, json, jsonl, gcc, github or junit"
bad_format parse "json or sexp"
bad_format opt "text, json or sql"
bad_format graph "text, json, dot or svg"
bad_format lint "text, json, sarif, jsonl, gcc, github or junit"
bad_format equiv "text or json"
bad_format ir "text, json, sql or ddl"
expect_exit 2 "passes --format bogus: exit 2" -- "$SQUINT" passes --format bogus
expect_grep "^squint passes: unknown format 'bogus' \(use text or json\)$" "$TMP/err" "passes: the same message"
expect_exit 2 "merge --format bogus: exit 2" -- "$SQUINT" merge --format bogus x.jsonl
expect_grep "^squint merge: unknown format 'bogus' \(use text or json\)$" "$TMP/err" "merge: the same message"
expect_exit 2 "prompt --format bogus: exit 2" -- "$SQUINT" prompt sql-to-question --format bogus --schema $F/shop.sql $F/queries.sql
expect_grep "^squint prompt: unknown format 'bogus' \(use text or jsonl\)$" "$TMP/err" "prompt: the same message"
expect_exit 2 "eval --format bogus: exit 2" -- "$SQUINT" eval --format bogus --gold x.sql x.sql
expect_grep "^squint eval: unknown format 'bogus' \(use text or json\)$" "$TMP/err" "eval: the same message"
# a format another command takes is still refused where it means nothing
expect_exit 2 "check --format sarif: refused" -- "$SQUINT" check --format sarif $F/queries.sql
expect_grep "unknown format 'sarif' \(use text, json, jsonl, gcc, github or junit\)" "$TMP/err" "check --format sarif: names check's formats"

# ---- spans: the bytes they name ------------------------------------------------
# spans JSON: one "file line column end_line end_column offset length"
# line per span of a pretty-printed JSON output (members come in that order).
spans() {
    awk '/"file": /        { f = $2; gsub(/[",]/, "", f) }
         /"line": /        { l = $2 + 0 }
         /"column": /      { c = $2 + 0 }
         /"end_line": /    { el = $2 + 0 }
         /"end_column": /  { ec = $2 + 0 }
         /"offset": /      { o = $2 + 0 }
         /"length": /      { print f, l, c, el, ec, o, $2 + 0 }' "$1"
}
bytes() { tail -c +$(($2 + 1)) "$1" | head -c "$3"; } # FILE OFFSET LENGTH
# position FILE OFFSET -> "line column" of that byte (both from 1)
position() {
    local before line
    before=$(head -c "$2" "$1"; echo x)
    line=$(printf '%s' "${before%x}" | wc -l)
    local last=${before%x}
    last=${last##*$'\n'}
    echo "$((line + 1)) $((${#last} + 1))"
}
# check_spans NAME JSON WANT...: every span's line/column agree with its
# offset, its end with offset+length, and the texts are WANT in order
check_spans() {
    local name=$1 json=$2 n=0 bad=0 got=()
    shift 2
    while read -r file line col eline ecol off len; do
        n=$((n + 1))
        [ "$(position "$file" "$off")" = "$line $col" ] || { bad=1; echo "# start $line:$col, offset $off is at $(position "$file" "$off")"; }
        [ "$(position "$file" $((off + len)))" = "$eline $ecol" ] || { bad=1; echo "# end $eline:$ecol, offset $((off + len)) is at $(position "$file" $((off + len)))"; }
        got+=("$(bytes "$file" "$off" "$len")")
    done < <(spans "$json")
    if [ $n -eq 0 ]; then not_ok "$name: no spans in the output"; return; fi
    if [ $bad = 0 ]; then ok "$name: $n spans, line and column agree with the offset"; else not_ok "$name: positions"; fi
    if [ "${got[*]}" = "$*" ]; then ok "$name: the spans name the right text"
    else not_ok "$name: the spans name '${got[*]}', want '$*'"; fi
}

printf 'SELECT name\n  FROM item;\n\n   SELECT count(*) FROM sale WHERE id > 1;\n' >"$TMP/two.sql"
expect_exit 0 "ir --format json" -- "$SQUINT" ir --format json --schema $F/shop.sql "$TMP/two.sql"
cp "$TMP/out" "$TMP/ir.json"
check_spans "ir json: statements" "$TMP/ir.json" "SELECT name
  FROM item" "SELECT count(*) FROM sale WHERE id > 1"

expect_exit 0 "opt --format json" -- "$SQUINT" opt --passes unnest --format json --schema $F/shop.sql "$TMP/two.sql"
cp "$TMP/out" "$TMP/opt.json"
check_spans "opt json: statements" "$TMP/opt.json" "SELECT name
  FROM item" "SELECT count(*) FROM sale WHERE id > 1"

# a binding error inside a dev.json: the span is in the dev.json, escapes
# counted as written
expect_exit 1 "check --format json on a dev.json" -- "$SQUINT" check --format json --tables $F/tables.json $F/spider_dev.json
cp "$TMP/out" "$TMP/check.json"
check_spans "check json: in the dev.json" "$TMP/check.json" "qty"

printf 'SELECT *\nFROM emp e LEFT JOIN dept d ON d.id = e.dept_id\nORDER BY e.id LIMIT 1;\n' >"$TMP/lint.sql"
expect_exit 1 "lint --format json" -- "$SQUINT" lint --no-config --rules select-star --format json --schema tests/passes/schema.sql "$TMP/lint.sql"
cp "$TMP/out" "$TMP/lint.json"
check_spans "lint json: findings" "$TMP/lint.json" "*"

printf 'SELECT e.name\n  FROM emp e LEFT JOIN dept d ON d.id = e.dept_id;\n' >"$TMP/je.sql"
expect_exit 0 "opt --passes joinelim --format json" -- "$SQUINT" opt --passes joinelim --format json --schema tests/passes/schema.sql "$TMP/je.sql"
cp "$TMP/out" "$TMP/je.json"
check_spans "joinelim json: statement, join, finding" "$TMP/je.json" "SELECT e.name
  FROM emp e LEFT JOIN dept d ON d.id = e.dept_id" "LEFT JOIN" "LEFT JOIN"
