#!/usr/bin/env bash
# test_eval.sh -- squint eval on the bundled benchmark (examples/eval-demo):
# EX-test and EX-verified counts, the records, resume after kill -9,
# shards, the read-only guarantee, and usage errors.  Prints TAP lines.
cd "$(dirname "$0")/../.." || exit 2
. tests/cli/lib.sh
eval_demo_db "eval"
run() { "$SQUINT" eval --gold $D/dev.json --pred good=$D/pred_good.sql --pred weak=$D/pred_weak.sql \
        --db-root "$TMP/db" -q "$@"; }

# ---- usage ------------------------------------------------------------------
expect_exit 2 "eval: no arguments" -- "$SQUINT" eval
expect_exit 0 "eval: --help" -- "$SQUINT" eval --help
expect_grep 'cross-check' "$TMP/out" "eval: --help lists --cross-check"
expect_exit 2 "eval: no --pred" -- "$SQUINT" eval --gold $D/dev.json --db-root "$TMP/db"
expect_exit 2 "eval: no database or schema" -- "$SQUINT" eval --gold $D/dev.json --pred $D/pred_good.sql
expect_exit 2 "eval: bad --shard" -- run --shard 3/3
expect_exit 2 "eval: bad --semantics" -- run --semantics mysql
head -5 $D/pred_good.sql > "$TMP/short.sql"
expect_exit 2 "eval: fewer predictions than gold items" -- \
    "$SQUINT" eval --gold $D/dev.json --pred "$TMP/short.sql" --db-root "$TMP/db"
expect_grep 'has 5 predictions for the 20 items' "$TMP/err" "eval: the count mismatch is explained"
expect_exit 2 "eval: same system name twice" -- \
    "$SQUINT" eval --gold $D/dev.json --pred $D/pred_good.sql --pred $D/pred_good.sql --db-root "$TMP/db"

expect_exit 2 "eval: a gold file that does not exist" -- run --gold "$TMP/nope.json"
expect_grep 'nope.json' "$TMP/err" "eval: ... is named"
printf '[{"db_id": "library", "query": ' > "$TMP/bad.json"
expect_exit 2 "eval: a gold file that is not JSON" -- \
    "$SQUINT" eval --gold "$TMP/bad.json" --pred $D/pred_good.sql --db-root "$TMP/db"
expect_exit 2 "eval: a prediction file that does not exist" -- \
    "$SQUINT" eval --gold $D/dev.json --pred "$TMP/nope.sql" --db-root "$TMP/db"
mkdir -p "$TMP/adir"
expect_exit 2 "eval: --out is a directory" -- run --no-verify --out "$TMP/adir"
printf '\001\002binary\n' > "$TMP/binary.jsonl"
expect_exit 2 "eval: --out holds something else" -- run --no-verify --out "$TMP/binary.jsonl"
expect_grep 'use another --out file' "$TMP/err" "eval: ... and says so"
[ "$(cat "$TMP/binary.jsonl" | wc -c)" = 9 ] && ok "eval: ... and leaves it alone" || not_ok "eval: --out was changed"

# ---- EX-test only -----------------------------------------------------------
expect_exit 0 "eval: EX-test" -- run --no-verify --format json
expect_grep '"name": "good"' "$TMP/out" "eval: JSON names the systems"
# pred_good matches the gold on 17 of 20 items, pred_weak on 11 (README);
# Spider's metric deletes DISTINCT, which makes pred_weak's line 16 (no
# DISTINCT) count too: 12
expect_grep '"correct": 17,' "$TMP/out" "eval: pred_good EX-test 17 of 20"
expect_grep '"correct": 12,' "$TMP/out" "eval: pred_weak EX-test 12 of 20 (DISTINCT deleted)"
expect_exit 0 "eval: EX-test, DISTINCT kept" -- run --no-verify --keep-distinct --format json
expect_grep '"correct": 11,' "$TMP/out" "eval: pred_weak EX-test 11 of 20 with --keep-distinct"
expect_grep '"error": 1,' "$TMP/out" "eval: pred_weak's unknown column is an error"

# ---- EX-verified, cross-check, a counterexample shown ----------------------
expect_exit 0 "eval: EX-verified" -- run --cross-check --show 1 -j 2 --out "$TMP/all.jsonl"
expect_grep '^good +20 +85\.0 % +[0-9.]+ %' "$TMP/out" "eval: summary row of good"
# lines 3, 8 and 17 of pred_good agree on the data but not in general
n=$(grep -c '"name":"good"[^}]*"ex":"correct"[^}]*"verdict":"different"' "$TMP/all.jsonl")
[ "$n" = 3 ] && ok "eval: three false positives of good refuted" || not_ok "eval: good refuted $n, want 3"
expect_grep 'EX-test correct, but the queries differ' "$TMP/out" "eval: --show prints a disagreement"
expect_grep '\| pub_year \|' "$TMP/out" "eval: ... with its counterexample table"
[ "$(wc -l < "$TMP/all.jsonl")" = 20 ] && ok "eval: one record per item" || not_ok "eval: records"

# ---- resume: a rerun skips finished items; kill -9 loses and duplicates none
expect_exit 0 "eval: rerun with the same --out" -- run --no-verify --out "$TMP/all.jsonl"
[ "$(wc -l < "$TMP/all.jsonl")" = 20 ] && ok "eval: rerun added nothing" || not_ok "eval: rerun added records"
# exec: $! must be squint itself, not a subshell around it
(exec "$SQUINT" eval --gold $D/dev.json --pred good=$D/pred_good.sql --pred weak=$D/pred_weak.sql \
    --db-root "$TMP/db" -q --bound 4 -j 1 --out "$TMP/killed.jsonl" >/dev/null 2>&1) &
pid=$!
for _ in $(seq 1 100); do
    [ -s "$TMP/killed.jsonl" ] && [ "$(wc -l < "$TMP/killed.jsonl")" -ge 3 ] && break
    sleep 0.1
done
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
printf '{"item":19,"lab' >> "$TMP/killed.jsonl"   # a record cut off mid-write
before=$(grep -c . "$TMP/killed.jsonl")
expect_exit 0 "eval: resume after kill -9" -- run --out "$TMP/killed.jsonl"
items=$(grep -o '^{"item":[0-9]*' "$TMP/killed.jsonl" | sort | uniq | wc -l)
lines=$(wc -l < "$TMP/killed.jsonl")
if [ "$items" = 20 ] && [ "$lines" = 20 ]; then
    ok "eval: after resume every item once ($before lines before)"
else
    not_ok "eval: after resume $items items in $lines lines"
fi
expect_exit 2 "eval: --out of other systems is refused" -- \
    "$SQUINT" eval --gold $D/dev.json --pred other=$D/pred_good.sql --db-root "$TMP/db" --out "$TMP/killed.jsonl"

# ---- shards cover the items once ---------------------------------------------
expect_exit 0 "eval: shard 0/2" -- run --no-verify --shard 0/2 --out "$TMP/s0.jsonl"
expect_exit 0 "eval: shard 1/2" -- run --no-verify --shard 1/2 --out "$TMP/s1.jsonl"
n=$(cat "$TMP/s0.jsonl" "$TMP/s1.jsonl" | grep -o '^{"item":[0-9]*' | sort | uniq | wc -l)
[ "$n" = 20 ] && [ "$(wc -l < "$TMP/s0.jsonl")" = 10 ] && ok "eval: two shards, 10 items each, 20 in all" ||
    not_ok "eval: shards cover $n items"

# ---- read-only: a prediction that writes is refused, the file is unchanged ---
sum=$(cksum < "$DB")
for i in $(seq 1 20); do
    case $i in
    1) echo "DROP TABLE books" ;;
    2) echo "UPDATE books SET price = 0" ;;
    3) echo "DELETE FROM loans" ;;
    4) echo "SELECT 1; DROP TABLE authors" ;;
    5) echo "INSERT INTO authors VALUES (99, 'x', 'y', 1900)" ;;
    6) echo "CREATE TABLE t(x)" ;;
    7) echo "PRAGMA journal_mode = DELETE" ;;
    8) echo "ATTACH '$TMP/evil.db' AS e" ;;
    9) echo "VACUUM INTO '$TMP/copy.db'" ;;
    *) echo "SELECT 1" ;;
    esac
done > "$TMP/evil.sql"
expect_exit 0 "eval: predictions that write" -- \
    "$SQUINT" eval --gold $D/dev.json --pred evil="$TMP/evil.sql" --db-root "$TMP/db" --no-verify -q \
    --out "$TMP/evil.jsonl"
[ "$(cksum < "$DB")" = "$sum" ] && ok "eval: the database is unchanged" || not_ok "eval: the database changed"
[ ! -e "$TMP/copy.db" ] && [ ! -e "$TMP/evil.db" ] && ok "eval: no file written beside it" ||
    not_ok "eval: a file was written"
n=$(head -9 "$TMP/evil.jsonl" | grep -c '"ex":"correct"')
[ "$n" = 0 ] && ok "eval: no writing prediction counts as correct" || not_ok "eval: $n writing predictions correct"
n=$(grep -c '"ex":"denied"' "$TMP/evil.jsonl")
[ "$n" -ge 6 ] && ok "eval: writes are denied ($n)" || not_ok "eval: only $n denied"

# ---- merge: the shards give the same summary as one run ---------------------
expect_exit 0 "eval: one run, EX-test" -- run --no-verify --format json
cp "$TMP/out" "$TMP/whole.json"
expect_exit 0 "merge: the two shards" -- "$SQUINT" merge --format json --out "$TMP/merged.jsonl" \
    "$TMP/s1.jsonl" "$TMP/s0.jsonl"
cmp -s "$TMP/out" "$TMP/whole.json" && ok "merge: the summary of the shards is the one run's" ||
    { not_ok "merge: summaries differ"; diff "$TMP/out" "$TMP/whole.json" | head -5; }
seq 0 19 > "$TMP/want"
grep -o '^{"item":[0-9]*' "$TMP/merged.jsonl" | cut -d: -f2 > "$TMP/got"
cmp -s "$TMP/got" "$TMP/want" && ok "merge: records in item order, each once" || not_ok "merge: record order"
expect_exit 0 "merge: a file twice counts each item once" -- "$SQUINT" merge "$TMP/s0.jsonl" "$TMP/s0.jsonl"
expect_grep '^good +10 ' "$TMP/out" "merge: 10 items from one shard given twice"
expect_exit 2 "merge: records of other systems" -- "$SQUINT" merge "$TMP/s0.jsonl" "$TMP/evil.jsonl"
expect_exit 2 "merge: no file" -- "$SQUINT" merge
echo 'not a record' > "$TMP/junk.jsonl"
expect_exit 2 "merge: a line that is not a record" -- "$SQUINT" merge "$TMP/junk.jsonl"


# ---- --lint: the gold linter's findings in records, summary and report ------
printf 'SELECT title FROM books WHERE price = NULL\tlibrary\nSELECT title FROM books ORDER BY price LIMIT 1\tlibrary\n' \
    > "$TMP/gold.tsv"
printf 'SELECT title FROM books WHERE price IS NULL\nSELECT title FROM books ORDER BY price LIMIT 1\n' > "$TMP/p.sql"
expect_exit 0 "eval --lint: runs" -- "$SQUINT" eval --gold "$TMP/gold.tsv" --pred "$TMP/p.sql" --db-root "$TMP/db" \
    -q --lint --out "$TMP/lint.jsonl" --report "$TMP/lint.html"
expect_grep 'gold linter: 1 gold query with findings' "$TMP/out" "eval --lint: the summary counts the flagged gold"
n=$(grep -c '"rule":"compare-null"' "$TMP/lint.jsonl")
[ "$n" = 1 ] && ok "eval --lint: the finding is in its item's record" || not_ok "eval --lint: $n records with it"
expect_grep 'Gold queries with findings of the gold linter \(1\)' "$TMP/lint.html" "eval --lint: the report lists it"
expect_exit 0 "eval: no --lint" -- "$SQUINT" eval --gold "$TMP/gold.tsv" --pred "$TMP/p.sql" --db-root "$TMP/db" \
    -q --out "$TMP/nolint.jsonl"
if grep -q '"lint"' "$TMP/nolint.jsonl"; then not_ok "eval: lint without --lint"; else ok "eval: no lint without --lint"; fi

# ---- --db: one database (a file or a SQL script) for every item -------------
cat $D/schema.sql $D/data.sql > "$TMP/library.sql"
expect_exit 0 "eval --db: a SQL script" -- "$SQUINT" eval --gold $D/dev.json --pred $D/pred_good.sql \
    --db "$TMP/library.sql" -q --no-verify --format json
expect_grep '"correct": 17,' "$TMP/out" "eval --db: the script's data gives pred_good's 17 of 20"
expect_exit 0 "eval --db: a database file" -- "$SQUINT" eval --gold $D/dev.json --pred $D/pred_good.sql \
    --db "$DB" -q --no-verify --format json
expect_grep '"correct": 17,' "$TMP/out" "eval --db: the file gives the same"
