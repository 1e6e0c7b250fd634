#!/usr/bin/env bash
# test_profile.sh -- squint equiv tags a counterexample with its kinds when
# it has the real data: a database (--db, here a SQL script of DDL and
# INSERTs) or BIRD-style metadata (--metadata).  Each kind on a pair that
# needs it, robust on a pair whose difference needs nothing unusual, the
# JSON members, the profile cache (under $TMP: nothing is written to
# $HOME) and the options.  Prints TAP.
cd "$(dirname "$0")/../.." || exit 2
. tests/cli/lib.sh
F=tests/cli/fixtures/profile
# z3's resource units, not seconds: verdicts do not depend on the machine
B=(--timeout 0 --rlimit 40000000)
export SQUINT_CACHE="$TMP/cache"
unset XDG_CACHE_HOME
eq() { "$SQUINT" equiv "${B[@]}" "$@"; }

# ---- kinds --------------------------------------------------------------------
expect_exit 1 "profile: needs-null" -- eq --db $F/club.sql 'SELECT count(*) FROM singer' 'SELECT count(age) FROM singer'
expect_grep '^kinds: needs-null$' "$TMP/out" "profile: needs-null is the kind"
expect_grep '^  needs-null: a NULL in singer\.age, which holds none in the database$' "$TMP/out" \
    "profile: needs-null says where"

expect_exit 1 "profile: robust" -- eq --db $F/club.sql 'SELECT name FROM singer WHERE age > 30' \
    'SELECT name FROM singer WHERE age >= 30'
expect_grep '^kinds: robust \(nothing the real data never shows\)$' "$TMP/out" "profile: a difference at age 30 is robust"

expect_exit 1 "profile: degenerate" -- eq --db $F/club.sql 'SELECT max(age) FROM singer WHERE age > 100' \
    'SELECT age FROM singer WHERE age > 100'
expect_grep '^kinds: degenerate-empty-vs-null$' "$TMP/out" "profile: an aggregate against nothing is degenerate"
expect_grep '^  degenerate-empty-vs-null: Q1 returns one row of NULLs, Q2 no row$' "$TMP/out" \
    "profile: degenerate says which query returns what"

expect_exit 1 "profile: needs-duplicates" -- eq --db $F/club.sql --semantics bag 'SELECT DISTINCT name FROM singer' \
    'SELECT name FROM singer'
expect_grep '^kinds: needs-duplicates$' "$TMP/out" "profile: a repeated name needs duplicates"
expect_grep '^  needs-duplicates: .* more than once in singer\.name, whose values are all distinct in the database$' \
    "$TMP/out" "profile: needs-duplicates says where"

expect_exit 1 "profile: needs-format" -- eq --db $F/club.sql "SELECT name FROM singer WHERE date(born) > '1985'" \
    "SELECT name FROM singer WHERE born > '1985'"
expect_grep '^kinds: needs-format$' "$TMP/out" "profile: a born that is no date needs a format"
expect_grep '^  needs-format: .* in singer\.born, whose values in the database are all of shape date$' "$TMP/out" \
    "profile: needs-format says where and which shapes"

# ---- JSON and the cache ----------------------------------------------------------
rm -rf "$TMP/cache"
expect_exit 1 "profile: JSON" -- eq -f json --db $F/club.sql 'SELECT count(*) FROM singer' 'SELECT count(age) FROM singer'
tr -d ' \n' <"$TMP/out" >"$TMP/flat"
expect_grep '"kinds":\["needs-null"\],"kinds_where":\[\{"kind":"needs-null","table":"singer","column":"age","value":null\}\],"kinds_tested":true' \
    "$TMP/flat" "profile: JSON kinds, kinds_where, kinds_tested"
expect_grep '"profile":\{"source":"database","origin":"tests/cli/fixtures/profile/club.sql","cached":false\}' \
    "$TMP/flat" "profile: JSON profile, scanned the first time"
n=$(ls "$TMP/cache" 2>/dev/null | grep -c '^profile-[0-9a-f]*\.json$')
[ "$n" = 1 ] && ok "profile: one cache file under \$SQUINT_CACHE" || not_ok "profile: cache files: $n"
eq -f json --db $F/club.sql 'SELECT count(*) FROM singer' 'SELECT count(age) FROM singer' | tr -d ' \n' >"$TMP/flat"
expect_grep '"cached":true' "$TMP/flat" "profile: the second run reads the cache"

expect_exit 1 "profile: --profile-cache" -- eq --profile-cache "$TMP/pc" --db $F/club.sql 'SELECT count(*) FROM singer' \
    'SELECT count(age) FROM singer'
n=$(ls "$TMP/pc" 2>/dev/null | grep -c '^profile-')
[ "$n" = 1 ] && ok "profile: --profile-cache DIR takes the cache file" || not_ok "profile: files in --profile-cache: $n"

# ---- metadata, no data, options ---------------------------------------------------
expect_exit 1 "profile: --metadata" -- eq --tables $F/tables.json --db-id club --metadata $F/metadata.json \
    'SELECT count(*) FROM singer' 'SELECT count(age) FROM singer'
expect_grep '^  needs-null: a NULL in singer\.age, which holds none in the metadata$' "$TMP/out" \
    "profile: --metadata gives needs-null"
expect_exit 1 "profile: a schema alone" -- eq --tables $F/tables.json --db-id club 'SELECT count(*) FROM singer' \
    'SELECT count(age) FROM singer'
grep -q '^kinds' "$TMP/out" && not_ok "profile: no kinds without data" || ok "profile: no kinds without data"
eq -f json --tables $F/tables.json --db-id club 'SELECT count(*) FROM singer' 'SELECT count(age) FROM singer' |
    tr -d ' \n' >"$TMP/flat"
expect_grep '"kinds":null,"kinds_where":null,"kinds_tested":null,"profile":null' "$TMP/flat" \
    "profile: JSON kinds are null without data"
expect_exit 1 "profile: --no-kinds" -- eq --no-kinds --db $F/club.sql 'SELECT count(*) FROM singer' \
    'SELECT count(age) FROM singer'
grep -q '^kinds' "$TMP/out" && not_ok "profile: --no-kinds shows none" || ok "profile: --no-kinds shows none"
expect_exit 1 "profile: a metadata file that is not there" -- eq --tables $F/tables.json --db-id club \
    --metadata "$TMP/none.json" 'SELECT count(*) FROM singer' 'SELECT count(age) FROM singer'
expect_grep 'warning: no column profile, so no kinds: .*none\.json' "$TMP/err" "profile: ... is a warning, the verdict stands"
expect_exit 2 "profile: --fixture-out over --metadata is refused" -- eq --tables $F/tables.json --db-id club \
    --metadata $F/metadata.json --fixture-out $F/metadata.json --force 'SELECT 1' 'SELECT 2'
expect_exit 0 "profile: --help" -- "$SQUINT" equiv --help
expect_grep 'profile-cache DIR' "$TMP/out" "profile: --help lists --profile-cache"
expect_grep 'metadata FILE' "$TMP/out" "profile: --help lists --metadata"

# ---- squint eval: records and the summary carry the kinds -----------------------------
expect_exit 0 "profile: eval" -- "$SQUINT" eval "${EVAL_BUDGET[@]}" --gold $F/gold.sql --pred p=$F/pred.sql \
    --db $F/club.sql -q --out "$TMP/eval.jsonl"
expect_grep '^kinds +tagged +robust +degenerate +null +format +dups +ties$' "$TMP/out" "profile: eval's summary has kinds"
# count(age) needs a NULL; age >= 31 against age > 30 needs an age of 30.5 (a REAL where the data holds
# integers), and with a NULL name it is degenerate too
expect_grep '^p +2 +0 +1 +1 +1 +0 +0$' "$TMP/out" "profile: ... two refutations, by kind"
expect_grep '"kinds":\["needs-null"\],"kinds_where":\[\{"kind":"needs-null","table":"singer","column":"age","value":null\}\],"kinds_tested":true' \
    "$TMP/eval.jsonl" "profile: eval's record carries the kinds"
expect_grep '"kinds":true' "$TMP/eval.jsonl" "profile: ... and its options say so"
expect_exit 0 "profile: eval --report" -- "$SQUINT" eval "${EVAL_BUDGET[@]}" --gold $F/gold.sql --pred p=$F/pred.sql \
    --db $F/club.sql -q --out "$TMP/eval.jsonl" --report "$TMP/report.html"
expect_grep '<caption>Kinds of the counterexamples</caption>.*<th>needs-ties</th></tr>' "$TMP/report.html" \
    "profile: the HTML report has the kinds table"
expect_grep '<tr><td>p</td><td class=num>2</td><td class=num>0</td><td class=num>1</td><td class=num>1</td><td class=num>1</td><td class=num>0</td><td class=num>0</td></tr>' \
    "$TMP/report.html" "profile: ... with the summary's counts"
expect_exit 0 "profile: eval -f json" -- "$SQUINT" eval "${EVAL_BUDGET[@]}" --gold $F/gold.sql --pred p=$F/pred.sql \
    --db $F/club.sql -q -f json
tr -d ' \n' <"$TMP/out" >"$TMP/flat"
expect_grep '"kinds":\{"tagged":2,"robust":0,"degenerate-empty-vs-null":1,"needs-null":1,"needs-format":1,"needs-duplicates":0,"needs-ties":0\}' \
    "$TMP/flat" "profile: eval's JSON summary counts the kinds"
expect_exit 0 "profile: eval --no-kinds" -- "$SQUINT" eval "${EVAL_BUDGET[@]}" --gold $F/gold.sql --pred p=$F/pred.sql \
    --db $F/club.sql -q --no-kinds --out "$TMP/eval2.jsonl"
grep -q '"kinds":\[' "$TMP/eval2.jsonl" && not_ok "profile: eval --no-kinds tags nothing" || ok "profile: eval --no-kinds tags nothing"
expect_exit 0 "profile: eval --report" -- "$SQUINT" eval "${EVAL_BUDGET[@]}" --gold $F/gold.sql --pred p=$F/pred.sql \
    --db $F/club.sql -q --report "$TMP/report.html"
expect_grep '<p class=kinds>Kinds: <b>needs-null</b> \(singer\.age\)</p>' "$TMP/report.html" \
    "profile: the report shows a disagreement's kinds and where"
