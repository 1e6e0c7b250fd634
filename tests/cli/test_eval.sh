#!/usr/bin/env bash
# test_eval.sh -- squint eval on the bundled benchmark (examples/eval-demo):
# EX-test and EX-verified counts, the records, resume after kill -9,
# shards, the read-only guarantee, and usage errors.  Prints TAP lines.
# run.sh: first (one of the longest: started before the rest)
cd "$(dirname "$0")/../.." || exit 2
. tests/cli/lib.sh
eval_demo_db "eval"
run() { "$SQUINT" eval "${EVAL_BUDGET[@]}" --gold $D/dev.json --pred good=$D/pred_good.sql --pred weak=$D/pred_weak.sql \
        --db-root "$TMP/db" -q "$@"; }

# ---- usage ------------------------------------------------------------------
expect_exit 2 "eval: no arguments" -- "$SQUINT" eval
expect_exit 0 "eval: --help" -- "$SQUINT" eval --help
expect_grep 'cross-check' "$TMP/out" "eval: --help lists --cross-check"
expect_exit 2 "eval: no --pred" -- "$SQUINT" eval "${EVAL_BUDGET[@]}" --gold $D/dev.json --db-root "$TMP/db"
expect_exit 2 "eval: no database or schema" -- "$SQUINT" eval "${EVAL_BUDGET[@]}" --gold $D/dev.json --pred $D/pred_good.sql
expect_exit 2 "eval: bad --shard" -- run --shard 3/3
expect_exit 2 "eval: bad --semantics" -- run --semantics mysql
expect_exit 2 "eval: bad --values" -- run --values strict
expect_grep "squint eval: --values takes any or typed" "$TMP/err" "eval: ... says what it takes"
head -5 $D/pred_good.sql > "$TMP/short.sql"
expect_exit 2 "eval: fewer predictions than gold items" -- \
    "$SQUINT" eval "${EVAL_BUDGET[@]}" --gold $D/dev.json --pred "$TMP/short.sql" --db-root "$TMP/db"
expect_grep 'has 5 predictions for the 20 items' "$TMP/err" "eval: the count mismatch is explained"
expect_exit 2 "eval: same system name twice" -- \
    "$SQUINT" eval "${EVAL_BUDGET[@]}" --gold $D/dev.json --pred $D/pred_good.sql --pred $D/pred_good.sql --db-root "$TMP/db"

expect_exit 2 "eval: a gold file that does not exist" -- run --gold "$TMP/nope.json"
expect_grep 'nope.json' "$TMP/err" "eval: ... is named"
printf '[{"db_id": "library", "query": ' > "$TMP/bad.json"
expect_exit 2 "eval: a gold file that is not JSON" -- \
    "$SQUINT" eval "${EVAL_BUDGET[@]}" --gold "$TMP/bad.json" --pred $D/pred_good.sql --db-root "$TMP/db"
expect_exit 2 "eval: a prediction file that does not exist" -- \
    "$SQUINT" eval "${EVAL_BUDGET[@]}" --gold $D/dev.json --pred "$TMP/nope.sql" --db-root "$TMP/db"
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
# (bound 2: searches slow enough to be killed midway, and cheap under the
# sanitizers)
expect_exit 0 "eval: rerun with the same --out" -- run --cross-check -j 2 --out "$TMP/all.jsonl"
[ "$(wc -l < "$TMP/all.jsonl")" = 20 ] && ok "eval: rerun added nothing" || not_ok "eval: rerun added records"
# exec: $! must be squint itself, not a subshell around it
(exec "$SQUINT" eval "${EVAL_BUDGET[@]}" --gold $D/dev.json --pred good=$D/pred_good.sql --pred weak=$D/pred_weak.sql \
    --db-root "$TMP/db" -q --bound 2 -j 1 --out "$TMP/killed.jsonl" >/dev/null 2>&1) &
pid=$!
for _ in $(seq 1 100); do
    [ -s "$TMP/killed.jsonl" ] && [ "$(wc -l < "$TMP/killed.jsonl")" -ge 3 ] && break
    sleep 0.1
done
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
printf '{"item":19,"lab' >> "$TMP/killed.jsonl"   # a record cut off mid-write
before=$(grep -c . "$TMP/killed.jsonl")
expect_exit 0 "eval: resume after kill -9" -- run --bound 2 --out "$TMP/killed.jsonl"
items=$(grep -o '^{"item":[0-9]*' "$TMP/killed.jsonl" | sort | uniq | wc -l)
lines=$(wc -l < "$TMP/killed.jsonl")
if [ "$items" = 20 ] && [ "$lines" = 20 ]; then
    ok "eval: after resume every item once ($before lines before)"
else
    not_ok "eval: after resume $items items in $lines lines"
fi
expect_exit 2 "eval: --out of other systems is refused" -- \
    "$SQUINT" eval "${EVAL_BUDGET[@]}" --gold $D/dev.json --pred other=$D/pred_good.sql --db-root "$TMP/db" --out "$TMP/killed.jsonl"

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
    "$SQUINT" eval "${EVAL_BUDGET[@]}" --gold $D/dev.json --pred evil="$TMP/evil.sql" --db-root "$TMP/db" --no-verify -q \
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
expect_exit 0 "eval --lint: runs" -- "$SQUINT" eval "${EVAL_BUDGET[@]}" --gold "$TMP/gold.tsv" --pred "$TMP/p.sql" --db-root "$TMP/db" \
    -q --lint --out "$TMP/lint.jsonl" --report "$TMP/lint.html"
expect_grep 'gold linter: 1 gold query with findings' "$TMP/out" "eval --lint: the summary counts the flagged gold"
n=$(grep -c '"rule":"compare-null"' "$TMP/lint.jsonl")
[ "$n" = 1 ] && ok "eval --lint: the finding is in its item's record" || not_ok "eval --lint: $n records with it"
expect_grep 'Gold queries with findings of the gold linter \(1\)' "$TMP/lint.html" "eval --lint: the report lists it"
expect_exit 0 "eval: no --lint" -- "$SQUINT" eval "${EVAL_BUDGET[@]}" --gold "$TMP/gold.tsv" --pred "$TMP/p.sql" --db-root "$TMP/db" \
    -q --out "$TMP/nolint.jsonl"
# (the findings member; the records' options say "lint":false)
if grep -q '"lint":\[' "$TMP/nolint.jsonl"; then not_ok "eval: lint without --lint"; else ok "eval: no lint without --lint"; fi

# ---- --db: one database (a file or a SQL script) for every item -------------
cat $D/schema.sql $D/data.sql > "$TMP/library.sql"
expect_exit 0 "eval --db: a SQL script" -- "$SQUINT" eval "${EVAL_BUDGET[@]}" --gold $D/dev.json --pred $D/pred_good.sql \
    --db "$TMP/library.sql" -q --no-verify --format json
expect_grep '"correct": 17,' "$TMP/out" "eval --db: the script's data gives pred_good's 17 of 20"
expect_exit 0 "eval --db: a database file" -- "$SQUINT" eval "${EVAL_BUDGET[@]}" --gold $D/dev.json --pred $D/pred_good.sql \
    --db "$DB" -q --no-verify --format json
expect_grep '"correct": 17,' "$TMP/out" "eval --db: the file gives the same"

# ---- --out: only squint's own records file is ever appended to or cut -------
# (issue 18, finding 2: a minified dev.json was taken for a record cut off
# mid-write, truncated and overwritten)
python_free_minify() { tr -d '\n' < "$1"; }
python_free_minify $D/dev.json > "$TMP/min.json"
cp "$TMP/min.json" "$TMP/min.orig"
expect_exit 2 "eval --out: a one-line JSON file is refused" -- run --no-verify --out "$TMP/min.json"
expect_grep "min.json' is not a squint eval records file" "$TMP/err" "eval --out: ... the file is named, and why"
cmp -s "$TMP/min.json" "$TMP/min.orig" && ok "eval --out: ... and left byte for byte" || not_ok "eval --out: min.json changed"
printf 'SELECT 1' > "$TMP/oneline.sql"
expect_exit 2 "eval --out: a one-line prediction file without newline is refused" -- \
    run --no-verify --out "$TMP/oneline.sql"
[ "$(cat "$TMP/oneline.sql")" = "SELECT 1" ] && ok "eval --out: ... and left alone" || not_ok "eval --out: oneline.sql changed"
# a run killed while writing its very first record: that line is squint's, and cut
run --no-verify --out "$TMP/fresh.jsonl" > /dev/null
head -c 60 "$TMP/fresh.jsonl" > "$TMP/cut.jsonl"
expect_exit 0 "eval --out: a first record cut off mid-write is cut and redone" -- \
    run --no-verify --out "$TMP/cut.jsonl"
[ "$(wc -l < "$TMP/cut.jsonl")" = 20 ] && cmp -s <(head -c 60 "$TMP/cut.jsonl") <(head -c 60 "$TMP/fresh.jsonl") &&
    ok "eval --out: ... 20 whole records" || not_ok "eval --out: cut.jsonl has $(wc -l < "$TMP/cut.jsonl") lines"
# records of the format before 2 (no "squint_eval", "inputs", "options"):
# squint merge reads them, a run does not resume from them
sed 's/"squint_eval":2,"inputs":"[0-9a-f]*","options":{[^}]*},//' "$TMP/fresh.jsonl" > "$TMP/old.jsonl"
cp "$TMP/old.jsonl" "$TMP/old.orig"
expect_exit 2 "eval --out: records of the older format are not resumed" -- run --no-verify --out "$TMP/old.jsonl"
expect_grep 'records of an older squint' "$TMP/err" "eval --out: ... and says why"
cmp -s "$TMP/old.jsonl" "$TMP/old.orig" && ok "eval --out: ... and leaves them" || not_ok "eval --out: old.jsonl changed"
expect_exit 0 "merge: reads records of the older format" -- "$SQUINT" merge "$TMP/old.jsonl"
expect_grep '^good +20 ' "$TMP/out" "merge: ... all 20 items"
# an output that is an input, by another name: refused before anything runs
ln -s "$(cd $D && pwd)/dev.json" "$TMP/gold-link.json"
expect_exit 2 "eval --out: the gold file by a symbolic link" -- run --no-verify --out "$TMP/gold-link.json"
expect_grep "is the gold file" "$TMP/err" "eval --out: ... is named as the gold file"
cp $D/pred_weak.sql "$TMP/weak.sql"
ln "$TMP/weak.sql" "$TMP/weak-hardlink.jsonl"
expect_exit 2 "eval --out: a prediction file by a hard link" -- \
    "$SQUINT" eval "${EVAL_BUDGET[@]}" --gold $D/dev.json --pred weak="$TMP/weak.sql" --db-root "$TMP/db" -q --no-verify \
    --out "$TMP/weak-hardlink.jsonl"
cmp -s "$TMP/weak.sql" $D/pred_weak.sql && ok "eval --out: ... left unchanged" || not_ok "eval --out: the prediction changed"
sum=$(cksum < "$DB")
expect_exit 2 "eval --out: the database, spelled another way" -- \
    run --no-verify --out "$TMP/db/library/../library/library.sqlite"
expect_grep "is a database" "$TMP/err" "eval --out: ... is named as a database"
expect_exit 2 "eval --report: the database" -- run --no-verify --report "$DB"
[ "$(cksum < "$DB")" = "$sum" ] && ok "eval: ... the database is unchanged" || not_ok "eval: the database changed"

# ---- --out: a record is computed from its inputs and options (finding 3) -----
sed '3s/.*/SELECT title FROM books WHERE 0/' $D/pred_good.sql > "$TMP/good2.sql"
run2() { "$SQUINT" eval "${EVAL_BUDGET[@]}" --gold $D/dev.json --pred good="$TMP/good2.sql" --pred weak=$D/pred_weak.sql \
         --db-root "$TMP/db" -q --no-verify "$@"; }
cp $D/pred_good.sql "$TMP/good2.sql"
expect_exit 0 "eval: records of the first predictions" -- run2 --out "$TMP/st.jsonl"
sed -i '3s/.*/SELECT title FROM books WHERE 0/' "$TMP/good2.sql"   # the prediction of item 2 changes
cp "$TMP/st.jsonl" "$TMP/st.orig"
expect_exit 2 "eval: a changed prediction is not resumed from its old record" -- run2 --out "$TMP/st.jsonl"
expect_grep "record of item 2 is stale: the prediction of 'good' changed" "$TMP/err" \
    "eval: ... the item and what changed are named"
cmp -s "$TMP/st.jsonl" "$TMP/st.orig" && ok "eval: ... the records are left as they are" || not_ok "eval: st.jsonl changed"
expect_exit 0 "eval: the changed predictions, from scratch" -- run2 --format json
cp "$TMP/out" "$TMP/fresh-summary.json"
expect_exit 0 "eval --rerun-changed: redoes the stale item" -- run2 --rerun-changed --format json --out "$TMP/st.jsonl"
cmp -s "$TMP/out" "$TMP/fresh-summary.json" && ok "eval --rerun-changed: ... summary as a fresh run's" ||
    { not_ok "eval --rerun-changed: summaries differ"; diff "$TMP/out" "$TMP/fresh-summary.json" | head -5; }
[ "$(wc -l < "$TMP/st.jsonl")" = 21 ] && ok "eval --rerun-changed: ... one record appended" ||
    not_ok "eval --rerun-changed: $(wc -l < "$TMP/st.jsonl") lines"
expect_exit 0 "eval: resumed again, the last record of item 2 counts" -- run2 --format json --out "$TMP/st.jsonl"
cmp -s "$TMP/out" "$TMP/fresh-summary.json" && ok "eval: ... same summary" || not_ok "eval: resumed summary differs"
expect_exit 0 "merge: the last record of an item counts" -- "$SQUINT" merge --format json "$TMP/st.jsonl"
cmp -s "$TMP/out" "$TMP/fresh-summary.json" && ok "merge: ... summary as the fresh run's" ||
    { not_ok "merge: summary differs"; diff "$TMP/out" "$TMP/fresh-summary.json" | head -5; }
sed 's/SELECT name FROM members WHERE city = /SELECT name FROM members WHERE city <> /' $D/dev.json > "$TMP/dev2.json"
expect_exit 2 "eval: a changed gold query is not resumed" -- \
    "$SQUINT" eval "${EVAL_BUDGET[@]}" --gold "$TMP/dev2.json" --pred good="$TMP/good2.sql" --pred weak=$D/pred_weak.sql \
    --db-root "$TMP/db" -q --no-verify --out "$TMP/st.jsonl"
expect_grep "record of item 0 is stale: the gold query changed" "$TMP/err" "eval: ... named"
expect_exit 2 "eval: other options are not resumed (--keep-distinct)" -- run2 --keep-distinct --out "$TMP/st.jsonl"
expect_grep "keep_distinct was false, is true in this run" "$TMP/err" "eval: ... the option is named"
expect_exit 2 "eval: other options are not resumed (--timeout)" -- run2 --timeout 7 --out "$TMP/st.jsonl"
expect_grep "timeout was 30, is 7 in this run" "$TMP/err" "eval: ... with both values"
cmp -s <(head -20 "$TMP/st.jsonl") "$TMP/st.orig" && ok "eval: ... and nothing of the file is changed" ||
    not_ok "eval: st.jsonl changed"
expect_exit 0 "eval: shard 1/2 with --keep-distinct" -- run --no-verify --keep-distinct --shard 1/2 --out "$TMP/s1k.jsonl"
expect_exit 2 "merge: shards of other options are not merged" -- "$SQUINT" merge "$TMP/s0.jsonl" "$TMP/s1k.jsonl"
expect_grep "computed with other options" "$TMP/err" "merge: ... says so"

# ---- --item-timeout: the time limit of an item (finding 6) -------------------
expect_exit 0 "eval --help" -- "$SQUINT" eval --help
expect_grep 'no limit when --timeout or --verify-timeout is 0' "$TMP/out" "eval --help: when there is no item limit"
printf 'SELECT count(*) FROM books\tlibrary\n' > "$TMP/one.tsv"
echo 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c' > "$TMP/endless.sql"
# --timeout 0 leaves the query unlimited; --item-timeout still ends the item
expect_exit 0 "eval --timeout 0 --item-timeout 1: an endless query" -- timeout 120 \
    "$SQUINT" eval "${EVAL_BUDGET[@]}" --gold "$TMP/one.tsv" --pred "$TMP/endless.sql" --db-root "$TMP/db" -q --no-verify \
    --timeout 0 --item-timeout 1 --out "$TMP/endless.jsonl"
expect_grep '"failed":"the item.s process ran out of time"' "$TMP/endless.jsonl" "eval --item-timeout: ... the item is recorded as failed"
expect_exit 2 "eval --item-timeout: a bad value" -- run --item-timeout soon

# ---- --report is checked before any item runs, and written whole (11) -------
expect_exit 2 "eval --report in a directory that does not exist" -- run --no-verify --out "$TMP/rep.jsonl" \
    --report "$TMP/nodir/r.html"
expect_grep "cannot write the report" "$TMP/err" "eval --report: ... says so"
[ ! -e "$TMP/rep.jsonl" ] && ok "eval --report: ... before any item ran" || not_ok "eval --report: items ran first"
expect_exit 2 "eval --report: a file that is not a report is left alone" -- run --no-verify --report "$TMP/min.json"
cmp -s "$TMP/min.json" "$TMP/min.orig" && ok "eval --report: ... unchanged" || not_ok "eval --report: min.json changed"
expect_exit 0 "eval --report: a report is replaced" -- run --no-verify --report "$TMP/r.html"
expect_exit 0 "eval --report: ... again" -- run --no-verify --report "$TMP/r.html"
expect_grep '<title>squint eval report</title>' "$TMP/r.html" "eval --report: ... the page is there"
ls "$TMP" | grep -q squint-tmp && not_ok "eval --report: a temporary file was left" || ok "eval --report: no temporary file left"

# ---- an empty gold file says so (11) ------------------------------------------
: > "$TMP/empty-gold.json"
expect_exit 2 "eval: an empty gold .json file" -- \
    "$SQUINT" eval "${EVAL_BUDGET[@]}" --gold "$TMP/empty-gold.json" --pred $D/pred_good.sql --tables "$TMP/none.json"
: > "$TMP/empty-gold.sql"
expect_exit 2 "eval: an empty gold file" -- \
    "$SQUINT" eval "${EVAL_BUDGET[@]}" --gold "$TMP/empty-gold.sql" --pred $D/pred_good.sql --db-root "$TMP/db"
expect_grep "the gold file '.*empty-gold.sql' is empty" "$TMP/err" "eval: ... is said to be empty"
if grep -q 'db_id' "$TMP/err"; then not_ok "eval: the empty gold file is blamed on a db_id"; else ok "eval: ... not on a db_id"; fi

# ---- load_extension is denied, not an error (11) ------------------------------
printf "SELECT load_extension('%s/nothing.so')\n" "$TMP" > "$TMP/ext.sql"
printf 'SELECT name FROM members\tlibrary\n' > "$TMP/ext.tsv"
expect_exit 0 "eval: a prediction calling load_extension" -- "$SQUINT" eval "${EVAL_BUDGET[@]}" --gold "$TMP/ext.tsv" \
    --pred "$TMP/ext.sql" --db-root "$TMP/db" -q --no-verify --out "$TMP/ext.jsonl"
expect_grep '"ex":"denied"' "$TMP/ext.jsonl" "eval: ... counts as denied"

# ---- --fail-under: a gate for CI --------------------------------------------
# On the demo, good's EX-test is above weak's (60 %).  The gates read the
# records of the verified run above (the same options, so nothing is run
# again): the metrics are the records', as they are on any rerun.
gate() { run --cross-check -j 2 --out "$TMP/all.jsonl" --fail-under "$@"; }
expect_exit 0 "eval --fail-under ex=50: every system reaches it" -- gate ex=50
expect_exit 1 "eval --fail-under ex=70: weak does not" -- gate ex=70
expect_grep '^squint eval: weak: EX-test 60\.00 % is under 70 % \(--fail-under ex=70\)$' "$TMP/err" \
    "eval --fail-under: names the system, the metric and both numbers"
grep -q '^squint eval: good:' "$TMP/err" && not_ok "eval --fail-under: good reaches 70 % (it was named)" \
    || ok "eval --fail-under: a system that reaches the gate is not named"
expect_exit 0 "eval --fail-under good:ex=70: only good is gated" -- gate good:ex=70
expect_exit 1 "eval --fail-under weak:ex-verified=100" -- gate weak:ex-verified=100
expect_exit 2 "eval --fail-under: an unknown metric" -- gate exact=3
expect_grep 'METRIC one of ex, ex-verified, ex-cross' "$TMP/err" "eval --fail-under: lists the metrics"
expect_exit 2 "eval --fail-under: a percent over 100" -- gate ex=101
expect_exit 2 "eval --fail-under: a system no --pred names" -- gate nobody:ex=1
expect_exit 2 "eval --fail-under ex-cross without --cross-check" -- run --fail-under ex-cross=1
expect_exit 2 "eval --fail-under ex-verified with --no-verify" -- run --no-verify --fail-under ex-verified=1
expect_exit 1 "merge --fail-under: the shards' merged summary gates too" -- \
    "$SQUINT" merge --fail-under weak:ex=70 "$TMP/merged.jsonl"
expect_grep '^squint merge: weak: EX-test 60\.00 % is under 70 % \(--fail-under weak:ex=70\)$' "$TMP/err" \
    "merge --fail-under: says which system"
expect_exit 0 "merge --fail-under ex=50: reached" -- "$SQUINT" merge --fail-under ex=50 "$TMP/merged.jsonl"

# ---- --em: Spider's exact set match ------------------------------------------
# The expected values are the official evaluation.py's (test-suite-sql-eval,
# --etype match, run item by item on this demo as tests/eval/spider-em/README.md
# describes): 1 exact, 0 not, - where the script cannot read the gold (its
# IS NULL and IS NOT NULL: the whole official run stops on item 6).
em_of() {   # em_of K FILE: system K's "em" per item, in item order
    awk -v k="$1" '{
        match($0, /^\{"item":[0-9]+/); item = substr($0, 9, RLENGTH - 8)
        n = 0; line = $0
        while (match(line, /"em":(0|1|null)/)) {
            n++; v = substr(line, RSTART + 5, RLENGTH - 5); line = substr(line, RSTART + RLENGTH)
            if (n == k) print item, (v == "null" ? "-" : v)
        }
    }' "$2" | sort -n | cut -d' ' -f2 | tr '\n' ' '
}
expect_exit 0 "eval --em: exact set match per item" -- run --no-verify --em $D/tables.json --out "$TMP/em.jsonl"
[ "$(em_of 1 "$TMP/em.jsonl")" = "1 1 0 1 1 - 1 0 1 1 0 0 1 0 0 1 - - 0 0 " ] \
    && ok "eval --em: good's items as the official script scores them" \
    || not_ok "eval --em: good's items: $(em_of 1 "$TMP/em.jsonl")"
[ "$(em_of 2 "$TMP/em.jsonl")" = "1 1 0 0 1 - 1 0 1 1 0 0 0 1 1 1 - - 1 0 " ] \
    && ok "eval --em: weak's items as the official script scores them" \
    || not_ok "eval --em: weak's items: $(em_of 2 "$TMP/em.jsonl")"
expect_grep "^EM \(Spider's exact set match\): good 52\.9, weak 58\.8 \(up to 3 items unscored" "$TMP/out" \
    "eval --em: the summary's EM over the scored items, and how many were not"
expect_grep '"em_detail":"the script cannot read the gold query' "$TMP/em.jsonl" "eval --em: an unscored item says why"
expect_grep '^EM components \(F1\) +select' "$TMP/out" "eval --em: the component table"
expect_grep '^good +0\.970 +0\.970 +0\.526 ' "$TMP/out" "eval --em: good's component F1s (the official select, select(no AGG), where)"
expect_exit 0 "eval --em --report" -- run --no-verify --em $D/tables.json --report "$TMP/em.html"
expect_grep '<th>EX-test</th><th>EM</th>' "$TMP/em.html" "eval --em: the report's summary has an EM column"
expect_grep '>good</a></td><td class=num>20</td><td class=num>85\.0 %</td><td class=num>52\.9 %</td>' "$TMP/em.html" \
    "eval --em: ... with good's EM"
expect_exit 0 "eval --em: the JSON summary" -- run --no-verify --em $D/tables.json --format json
expect_grep '"em_parts": {' "$TMP/out" "eval --em: JSON has every component's acc, rec and f1"
expect_exit 1 "eval --fail-under em=55: good is under it" -- run --no-verify --em $D/tables.json --fail-under em=55
expect_grep '^squint eval: good: EM 52\.94 % is under 55 %' "$TMP/err" "eval --fail-under em: names the system"
expect_exit 2 "eval --fail-under em without --em" -- run --no-verify --fail-under em=1
expect_grep 'EM needs --em TABLES' "$TMP/err" "eval --fail-under em: ... says what it needs"
expect_exit 2 "eval --em under bird semantics" -- run --no-verify --em $D/tables.json --semantics bird
expect_grep 'needs --semantics spider' "$TMP/err" "eval --em: ... is Spider's"
expect_exit 2 "eval --em without databases" -- \
    "$SQUINT" eval --gold $D/dev.json --pred $D/pred_good.sql --tables $D/tables.json --em $D/tables.json
expect_grep 'needs --db-root or --db' "$TMP/err" "eval --em: ... reads the names from the databases"
expect_exit 2 "eval --em: a file that is not tables.json" -- run --no-verify --em $D/dev.json
expect_grep 'not a Spider schema' "$TMP/err" "eval --em: ... says so"
expect_exit 2 "eval --em: a file that does not exist" -- run --no-verify --em "$TMP/none.json"
expect_exit 2 "eval --em: a resumed run without --em does not take the records" -- \
    run --no-verify --out "$TMP/em.jsonl"
expect_exit 0 "merge: EM from the records" -- "$SQUINT" merge "$TMP/em.jsonl"
expect_grep "^EM \(Spider's exact set match\): good 52\.9, weak 58\.8" "$TMP/out" "merge: the same EM"

# ---- --plug-value: the gold's values in a value-less prediction ---------------
printf '%s\tlibrary\n' "SELECT name FROM members WHERE city = 'Springfield'" \
    "SELECT title FROM books WHERE pub_year >= 2000 AND genre = 'Mystery'" \
    "SELECT COUNT(*) FROM books" > "$TMP/plug.tsv"
printf '%s\n' "SELECT name FROM members WHERE city = value" \
    "SELECT title FROM books WHERE pub_year >= value AND genre = value" \
    "SELECT COUNT(*) FROM loans" > "$TMP/plug.sql"
plug() { "$SQUINT" eval --gold "$TMP/plug.tsv" --pred "$TMP/plug.sql" --db-root "$TMP/db" -q --no-verify "$@"; }
expect_exit 0 "eval: value placeholders without --plug-value" -- plug --out "$TMP/noplug.jsonl"
[ "$(grep -c '"ex":"correct"' "$TMP/noplug.jsonl")" = 0 ] && ok "eval: ... are wrong" \
    || not_ok "eval: placeholders counted correct without plugging"
expect_exit 0 "eval --plug-value" -- plug --plug-value --out "$TMP/plug.jsonl"
[ "$(grep -c '"ex":"correct"' "$TMP/plug.jsonl")" = 2 ] && ok "eval --plug-value: the two placeholder items are correct, the wrong table still is not" \
    || not_ok "eval --plug-value: $(grep -c '"ex":"correct"' "$TMP/plug.jsonl") correct, want 2"
expect_grep "correct with the gold's values plugged in: select title from books where pub_year >= 2000 and genre = 'Mystery'" \
    "$TMP/plug.jsonl" "eval --plug-value: the record shows the rewriting that passed"
expect_grep '"plug_value":true' "$TMP/plug.jsonl" "eval --plug-value: part of the records' options"
expect_exit 2 "eval --plug-value under bird semantics" -- plug --plug-value --semantics bird

# ---- Soft-F1 (BIRD Mini-Dev) under bird semantics, checked against Python ----
# The reference below is written from the metric's definition
# (backend/eval/softf1.h): rows deduplicated in order and paired by
# position, cells matched with Python's ==, per-row shares of the gold
# row's width, precision and recall over their sums.
expect_exit 0 "eval --semantics bird: Soft-F1 per item" -- \
    run --no-verify --semantics bird --out "$TMP/f1.jsonl" --format json
cp "$TMP/out" "$TMP/f1-summary.json"
if python3 - "$TMP/f1.jsonl" "$DB" "$TMP/f1-summary.json" <<'PY'; then ok "Soft-F1: every item's score and the summary's mean agree with a Python reference on the database"; else not_ok "Soft-F1 against the Python reference"; fi
import json, sqlite3, sys
def soft_f1(pred, gold):
    if not pred and not gold:
        return 1.0
    pred = list(dict.fromkeys(pred)); gold = list(dict.fromkeys(gold))
    tp = fp = fn = 0.0
    for i, g in enumerate(gold):
        if i >= len(pred):
            fn += 1
            continue
        p = pred[i]; w = len(g)
        tp += sum(1 for v in p if v in g) / w
        fp += sum(1 for v in p if v not in g) / w
        fn += sum(1 for v in g if v not in p) / w
    for _ in range(len(pred) - len(gold)):
        fp += 1
    pr = tp / (tp + fp) if tp + fp else 0
    rc = tp / (tp + fn) if tp + fn else 0
    return 2 * pr * rc / (pr + rc) if pr + rc else 0
db = sqlite3.connect(sys.argv[2])
recs = [json.loads(l) for l in open(sys.argv[1])]
assert len(recs) == 20
sums = {}
seen_partial = False
for r in recs:
    gold = db.execute(r["gold"]).fetchall()
    for s in r["systems"]:
        try:
            want = soft_f1(db.execute(s["pred"]).fetchall(), gold)
        except sqlite3.Error:
            want = 0.0
        got = s.get("soft_f1")
        assert got is not None and abs(got - want) < 1e-12, (r["item"], s["name"], got, want)
        seen_partial |= 0 < want < 1
        sums[s["name"]] = sums.get(s["name"], 0) + want
assert seen_partial, "no item with partial credit: the check would not tell Soft-F1 from EX"
summary = json.load(open(sys.argv[3]))
for sy in summary["systems"]:
    assert abs(sy["all"]["soft_f1"] - sums[sy["name"]] / 20) < 1e-9, (sy["name"], sy["all"]["soft_f1"])
PY
expect_exit 1 "eval --fail-under soft-f1=90: weak's Soft-F1 is under it" -- \
    run --no-verify --semantics bird --fail-under soft-f1=90
expect_grep '^squint eval: weak: Soft-F1 [0-9.]+ % is under 90 %' "$TMP/err" "eval --fail-under soft-f1: names weak"
expect_exit 2 "eval --fail-under soft-f1 under spider semantics is a usage error" -- \
    run --no-verify --fail-under soft-f1=10

# ---- --ves: BIRD's VES and Mini-Dev's R-VES (timings: only their shape and
# the summary's arithmetic on the records are checked, never the numbers) --
expect_exit 0 "eval --ves 3: times the correct predictions" -- \
    run --no-verify --semantics bird --ves 3 --out "$TMP/ves.jsonl" --format json
cp "$TMP/out" "$TMP/ves-summary.json"
if python3 - "$TMP/ves.jsonl" "$TMP/ves-summary.json" <<'PY'; then ok "eval --ves: every system has a time ratio, 0 unless EX-test is correct, and the summary's VES and R-VES are the means of sqrt(ratio) and sqrt(reward)"; else not_ok "eval --ves: records and summary"; fi
import json, math, sys
def reward(r):
    return 0 if r == 0 else 1.25 if r >= 2 else 1 if r >= 1 else 0.75 if r >= 0.5 else 0.5 if r >= 0.25 else 0.25
ves, rves = {}, {}
for line in open(sys.argv[1]):
    rec = json.loads(line)
    assert rec["options"]["ves"] == 3
    for s in rec["systems"]:
        r = s["ves_ratio"]
        assert r >= 0
        if s["ex"] != "correct":
            assert r == 0, s
        ves[s["name"]] = ves.get(s["name"], 0) + math.sqrt(r)
        rves[s["name"]] = rves.get(s["name"], 0) + math.sqrt(reward(r))
for sy in json.load(open(sys.argv[2]))["systems"]:
    a = sy["all"]
    assert abs(a["ves"] - 100 * ves[sy["name"]] / 20) < 1e-6, (a["ves"], ves)
    assert abs(a["r_ves"] - 100 * rves[sy["name"]] / 20) < 1e-6, (a["r_ves"], rves)
PY
expect_exit 2 "eval --ves under spider semantics is a usage error" -- run --no-verify --ves 3
expect_exit 2 "eval --fail-under ves without --ves is a usage error" -- run --no-verify --semantics bird --fail-under ves=1
