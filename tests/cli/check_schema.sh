#!/usr/bin/env bash
# check_schema.sh -- `squint check` with schemas: every schema option, every
# benchmark input format, positions inside JSON strings, unknown db_ids and
# usage errors.  Fixtures: tests/cli/fixtures/check_schema/ (shop.sql is the
# DDL of root/shop/shop.sqlite; tables.json holds "shop" and "zoo").
cd "$(dirname "$0")/../.."
. tests/cli/lib.sh

F=tests/cli/fixtures/check_schema
CHECK=("$SQUINT" check --color=never)

expect_absent() { # expect_absent PATTERN FILE NAME
    if grep -qE -- "$1" "$2"; then not_ok "$3 ('$1' in output)"; else ok "$3"; fi
}

# ---- every schema option -------------------------------------------------

expect_exit 1 "--schema DDL: binds and finds the bad column" -- \
    "${CHECK[@]}" --schema $F/shop.sql $F/queries.sql
expect_grep "queries.sql:6:8: error\[E0302\]: no such column: nme$" "$TMP/out" "--schema DDL: file:line:col"
expect_grep "did you mean 'name'" "$TMP/out" "--schema DDL: suggestion"
expect_grep "^3 statements checked: 1 error, 0 warnings \(1 item; schema from --schema " \
    "$TMP/out" "--schema DDL: summary"

expect_exit 1 "--schema .sqlite" -- "${CHECK[@]}" --schema $F/root/shop/shop.sqlite $F/queries.sql
expect_grep "queries.sql:6:8: error\[E0302\]" "$TMP/out" "--schema .sqlite: same finding"
cp $F/root/shop/shop.sqlite "$TMP/really_a_db.sql"
cp $F/shop.sql "$TMP/really_ddl.sqlite"
expect_exit 1 "--schema: a database named .sql is read as a database" -- \
    "${CHECK[@]}" --schema "$TMP/really_a_db.sql" $F/queries.sql
expect_grep "^1 error|: 1 error" "$TMP/out" "--schema by content (database)"
expect_exit 1 "--schema: DDL named .sqlite is read as DDL" -- \
    "${CHECK[@]}" --schema "$TMP/really_ddl.sqlite" $F/queries.sql
expect_grep "queries.sql:6:8: error\[E0302\]" "$TMP/out" "--schema by content (DDL)"

expect_exit 1 "--db" -- "${CHECK[@]}" --db $F/root/shop/shop.sqlite $F/queries.sql
expect_grep "queries.sql:6:8: error\[E0302\]" "$TMP/out" "--db: finding"
expect_exit 1 "--db takes a SQL script (a fixture)" -- "${CHECK[@]}" --db $F/shop.sql $F/queries.sql
expect_grep "queries.sql:6:8: error\[E0302\]" "$TMP/out" "--db script: its DDL is the schema"

expect_exit 1 "--db-root with --db-id" -- "${CHECK[@]}" --db-root $F/root --db-id shop $F/queries.sql
expect_grep "queries.sql:6:8: error\[E0302\]" "$TMP/out" "--db-root: finding"
expect_exit 1 "--db-root with dev.json db_ids" -- "${CHECK[@]}" --db-root $F/root $F/spider_dev.json
expect_grep "spider_dev.json:3:14: error\[E0207\]: unknown db_id 'zoo': there is no '$F/root/zoo/zoo.sqlite'" \
    "$TMP/out" "--db-root: unknown db_id points at the item's db_id"
expect_grep "spider_dev.json:4:64: error\[E0302\]: no such column: qty \[item 2\]" "$TMP/out" \
    "--db-root: other items still bound"
expect_grep "1 item not bound: no schema for their db_id" "$TMP/out" "--db-root: unbound count"
expect_exit 2 "--db-root with a wrong --db-id" -- "${CHECK[@]}" --db-root $F/root --db-id shpo $F/queries.sql
expect_grep "error\[E0207\]: unknown db_id 'shpo'" "$TMP/out" "--db-root: unknown --db-id"
expect_grep "did you mean 'shop'\?" "$TMP/out" "--db-root: suggestion from the directory"

expect_exit 1 "--tables with --db-id" -- "${CHECK[@]}" --tables $F/tables.json --db-id shop $F/queries.sql
expect_grep "queries.sql:6:8: error\[E0302\]" "$TMP/out" "--tables --db-id: finding"
expect_exit 2 "--tables with an unknown --db-id" -- \
    "${CHECK[@]}" --tables $F/tables.json --db-id zoos $F/queries.sql
expect_grep "error\[E0207\]: unknown db_id 'zoos'" "$TMP/out" "--tables: unknown --db-id reported"
expect_grep "note: the db_id was given with --db-id" "$TMP/out" "--tables: says it came from --db-id"
expect_grep "did you mean 'zoo'\?" "$TMP/out" "--tables: suggestion"
expect_exit 2 "--tables with two databases needs a db_id" -- \
    "${CHECK[@]}" --tables $F/tables.json $F/queries.sql
expect_grep "error\[E0208\]: no db_id for this input, and --tables '$F/tables.json' holds 2 databases" \
    "$TMP/out" "--tables: missing db_id explained"
printf '[{"db_id": "solo", "table_names_original": ["item"],\n  "column_names_original": [[0, "name"]]}]\n' \
    >"$TMP/one.json"
expect_exit 0 "--tables with one database needs no db_id" -- \
    "${CHECK[@]}" --tables "$TMP/one.json" --input-format sql - <<<"SELECT name FROM item;"

# ---- every input format ------------------------------------------------

expect_exit 1 "Spider dev.json" -- "${CHECK[@]}" --tables $F/tables.json $F/spider_dev.json
expect_grep "spider_dev.json:4:64: error\[E0302\]: no such column: qty \[item 2\]" "$TMP/out" \
    "Spider dev.json: position after \\\" and \\n escapes"
expect_grep '^ 4 \| .*WHERE qty > 1' "$TMP/out" "Spider dev.json: shows the JSON line"
expect_grep '^   \| {64}\^~~$' "$TMP/out" "Spider dev.json: caret under the column"
expect_grep "3 statements checked: 1 error, 0 warnings \(3 items; schema from --tables" "$TMP/out" \
    "Spider dev.json: summary counts items"

expect_exit 1 "BIRD dev.json" -- "${CHECK[@]}" --tables $F/tables.json $F/bird_dev.json
expect_grep "bird_dev.json:15:123: error\[E0302\]: no such column: T2.qtty \[question_id 1\]" "$TMP/out" \
    "BIRD dev.json: position after a \\t escape, labelled by question_id"

expect_exit 1 "gold TSV" -- "${CHECK[@]}" --tables $F/tables.json $F/gold.tsv
expect_grep "gold.tsv:4:8: error\[E0302\]: no such column: nam$" "$TMP/out" "gold TSV: line 4 after an empty line"
expect_grep "3 statements checked: 1 error" "$TMP/out" "gold TSV: the empty line is no item"

expect_exit 1 "prediction lines with --db-id-from" -- \
    "${CHECK[@]}" --tables $F/tables.json --db-id-from $F/spider_dev.json $F/pred.sql
expect_grep "pred.sql:2:8: error\[E0302\]: no such column: specie$" "$TMP/out" \
    "lines: line 2 bound against item 1's db_id (zoo)"
expect_grep "3 statements checked: 1 error, 0 warnings \(3 items;" "$TMP/out" "lines: three items"
head -2 $F/pred.sql >"$TMP/short.sql"
expect_exit 2 "--db-id-from with a different item count (input error, as in lint)" -- \
    "${CHECK[@]}" --tables $F/tables.json --db-id-from $F/spider_dev.json "$TMP/short.sql"
expect_grep "error\[E0003\]: '$TMP/short.sql' has 2 items but '$F/spider_dev.json' has 3" "$TMP/out" \
    "--db-id-from: count mismatch reported"

expect_exit 1 "BIRD predictions JSON" -- "${CHECK[@]}" --tables $F/tables.json $F/predict_dev.json
expect_grep "predict_dev.json:3:48: error\[E0302\]: no such column: T1.prise \[question_id 1\]" "$TMP/out" \
    "BIRD predictions: SQL before the separator"
expect_grep "predict_dev.json:4:10: warning\[W0001\]: question_id 2 has no SQL \(its value is 0, not a string\)" \
    "$TMP/out" "BIRD predictions: a 0 placeholder is a warning"
expect_grep "predict_dev.json:5:39: error\[E0207\]: unknown db_id 'shopp'" "$TMP/out" \
    "BIRD predictions: db_id after the separator, located"
expect_grep "did you mean 'shop'\?" "$TMP/out" "BIRD predictions: db_id suggestion"

expect_exit 1 "--input-format sql reads predictions as one script" -- \
    "${CHECK[@]}" --input-format sql $F/pred.sql
expect_grep "pred.sql:2:1: error\[E0103\]" "$TMP/out" "--input-format sql: no ';' between lines"
expect_exit 0 "--input-format lines" -- "${CHECK[@]}" --input-format lines $F/pred.sql
expect_grep "3 statements checked: 0 errors, 0 warnings \(3 items; syntax only" "$TMP/out" \
    "--input-format lines: an item per line"
expect_exit 2 "--input-format spider on a text file" -- "${CHECK[@]}" --input-format spider $F/pred.sql
expect_grep "error\[E0002\]: invalid JSON" "$TMP/out" "--input-format spider: JSON expected"
expect_exit 2 "--input-format with an unknown name" -- "${CHECK[@]}" --input-format csv $F/pred.sql
expect_grep "unknown input format 'csv'" "$TMP/err" "--input-format: names the bad value"

# ---- syntax only -------------------------------------------------------

expect_exit 0 "no schema: a benchmark file is checked for syntax" -- "${CHECK[@]}" $F/spider_dev.json
expect_grep "^3 statements checked: 0 errors, 0 warnings \(3 items; syntax only: no schema given\)$" \
    "$TMP/out" "no schema: the summary says so once"
expect_exit 0 "no schema: a SQL script keeps the classic summary" -- "${CHECK[@]}" $F/shop.sql
expect_grep "^2 statements checked: 0 errors, 0 warnings$" "$TMP/out" "no schema: classic summary"

# ---- bad input files -----------------------------------------------------

printf '[\n  {"db_id": "shop", "query": "SELECT 1"}\n  {"db_id": "shop"}\n]\n' >"$TMP/broken.json"
expect_exit 2 "invalid JSON input" -- "${CHECK[@]}" "$TMP/broken.json"
expect_grep "broken.json:3:3: error\[E0002\]: invalid JSON" "$TMP/out" "invalid JSON input: located"
printf '[{"db_id": "shop", "table_names_original": ["t"],,]\n' >"$TMP/bad_tables.json"
expect_exit 2 "invalid tables.json" -- "${CHECK[@]}" --tables "$TMP/bad_tables.json" --db-id shop $F/queries.sql
expect_grep "bad_tables.json:1:50: error\[E0002\]" "$TMP/out" "invalid tables.json: located"
expect_exit 2 "tables.json given as the input" -- "${CHECK[@]}" $F/tables.json
expect_grep "looks like a tables.json" "$TMP/out" "tables.json as input: recognised"

# ---- JSON output -------------------------------------------------------

expect_exit 1 "--format json" -- "$SQUINT" check --format json --tables $F/tables.json $F/spider_dev.json
expect_grep '"format": "spider"' "$TMP/out" "json: detected format"
expect_grep '"item": "item 2"' "$TMP/out" "json: item label"
expect_grep '"line": 4,' "$TMP/out" "json: line in dev.json"
expect_grep '"column": 64,' "$TMP/out" "json: column in dev.json"
expect_grep '"mode": "bind"' "$TMP/out" "json: mode"
expect_grep '"items": 3,' "$TMP/out" "json: item count"
expect_grep '"bound_items": 3,' "$TMP/out" "json: bound items"

# ---- usage errors ------------------------------------------------------

expect_exit 2 "two schema options" -- "${CHECK[@]}" --schema $F/shop.sql --tables $F/tables.json $F/queries.sql
expect_grep "\-\-schema and --tables both give a schema; use only one" "$TMP/err" "two schema options: message"
expect_exit 2 "--db and --db-root" -- "${CHECK[@]}" --db $F/root/shop/shop.sqlite --db-root $F/root $F/queries.sql
expect_exit 2 "--db-id without --tables or --db-root" -- "${CHECK[@]}" --db-id shop $F/queries.sql
expect_grep "\-\-db-id picks a database of --tables or --db-root" "$TMP/err" "--db-id alone: message"
expect_exit 2 "--db-id with --schema" -- "${CHECK[@]}" --schema $F/shop.sql --db-id shop $F/queries.sql
expect_exit 2 "--db-id twice" -- "${CHECK[@]}" --tables $F/tables.json --db-id shop --db-id zoo $F/queries.sql
expect_exit 2 "--schema with a missing file" -- "${CHECK[@]}" --schema "$TMP/nope.sql" $F/queries.sql
expect_grep "cannot read --schema '$TMP/nope.sql'" "$TMP/err" "--schema missing: message"
expect_exit 2 "--tables with a missing file" -- "${CHECK[@]}" --tables "$TMP/nope.json" $F/queries.sql
expect_exit 2 "--db-root that is not a directory" -- "${CHECK[@]}" --db-root $F/shop.sql $F/queries.sql
expect_grep "is not a directory" "$TMP/err" "--db-root: message"
expect_exit 2 "--db-id-from a file without db_ids" -- \
    "${CHECK[@]}" --tables $F/tables.json --db-id-from $F/pred.sql $F/pred.sql
expect_grep "holds no db_ids" "$TMP/err" "--db-id-from: message"
expect_exit 2 "--db-id-from a missing file" -- "${CHECK[@]}" --db-id-from "$TMP/nope.json" $F/pred.sql
expect_absent "checked" "$TMP/out" "usage error: no summary printed"

# ---- clean runs ----------------------------------------------------------

head -2 $F/gold.tsv >"$TMP/good.tsv"
expect_exit 0 "clean gold TSV binds with no errors" -- "${CHECK[@]}" --tables $F/tables.json "$TMP/good.tsv"
expect_grep "2 statements checked: 0 errors, 0 warnings \(2 items; schema from --tables" "$TMP/out" \
    "clean gold TSV: summary"
expect_exit 0 "clean query against the database" -- \
    "${CHECK[@]}" --db $F/root/shop/shop.sqlite --input-format sql - <<<"SELECT item_id, qty FROM sale;"

# ---- help ----------------------------------------------------------------

expect_exit 0 "check --help" -- "$SQUINT" check --help
for flag in --schema --db --db-root --tables --db-id --input-format --db-id-from --format --color --help; do
    expect_grep "^ +(-[a-z], )?$flag " "$TMP/out" "check --help documents $flag"
done
for fmt in auto sql spider bird tsv bird-pred lines; do
    expect_grep "[ (]$fmt[ ,(]" "$TMP/out" "check --help names input format $fmt"
done
