#!/usr/bin/env bash
# test_realistic.sh -- --realistic in squint equiv and squint eval: a
# difference that needs a NULL where the data holds none becomes
# equivalent-on-realistic-data (never plain 'equivalent'), a difference
# data like the database's shows stays different, a normal-form proof is
# still for every database, and --realistic without data to profile is a
# usage error.  Eval's records, summary (text and JSON), options and
# report carry the realistic verdict beside the exact one.  The data is
# tests/cli/fixtures/profile/club.sql (singer.age never NULL, singer.name
# unique, singer.born dates).  z3 resource units, not seconds: the
# verdicts do not depend on the machine.  Prints TAP.
cd "$(dirname "$0")/../.." || exit 2
. tests/cli/lib.sh
P=tests/cli/fixtures/profile
F=tests/cli/fixtures/realistic
B=(--timeout 0 --rlimit 40000000)
export SQUINT_CACHE="$TMP/cache"
unset XDG_CACHE_HOME
eq() { "$SQUINT" equiv "${B[@]}" "$@"; }

# ---- squint equiv ------------------------------------------------------------------
# count(age) differs from count(*) only with a NULL age, which the data never shows
expect_exit 0 "realistic: needs-null, exit 0 when asked" -- eq --realistic --db $P/club.sql \
    'SELECT count(*) FROM singer' 'SELECT count(age) FROM singer'
expect_grep '^equivalent-on-realistic-data: the same results on realistic data \(databases of up to 4 rows per table whose columns keep the 1 fact of tests/cli/fixtures/profile/club\.sql\)$' \
    "$TMP/out" "realistic: the label and the promise on the first line"
grep -q '^equivalent ' "$TMP/out" && not_ok "realistic: never plain 'equivalent'" || ok "realistic: never plain 'equivalent'"
expect_grep '^realistic: the search kept to the 1 column fact of tests/cli/fixtures/profile/club\.sql$' "$TMP/out" \
    "realistic: says the search was realistic"
expect_grep '^note: not a promise for every database' "$TMP/out" "realistic: ... and that it is no promise for every database"

# age 35 against age > 35 and >= 35: an integer, no NULL, no duplicate
expect_exit 1 "realistic: a robust difference stays different" -- eq --realistic --db $P/club.sql \
    'SELECT name FROM singer WHERE age > 35' 'SELECT name FROM singer WHERE age >= 35'
expect_grep '^different$' "$TMP/out" "realistic: ... verdict different"
expect_grep '^note: the counterexample keeps these facts' "$TMP/out" "realistic: ... on data like the database's"
expect_grep '^\| [0-9]+ +\| .* \| 35 +\| ' "$TMP/out" "realistic: ... an age of 35 tells them apart"

# the normal forms prove this pair on every database: no realistic search
expect_exit 0 "realistic: a normal-form proof" -- eq --realistic --db $P/club.sql \
    'SELECT name FROM singer WHERE age > 30' 'SELECT name FROM singer WHERE 30 < age'
expect_grep '^equivalent \(on every database: the same normal form\)$' "$TMP/out" \
    "realistic: ... is still an equivalence on every database"
expect_grep '^realistic: not needed' "$TMP/out" "realistic: ... and says the facts played no part"

expect_exit 0 "realistic: JSON" -- eq -f json --realistic --db $P/club.sql 'SELECT count(*) FROM singer' \
    'SELECT count(age) FROM singer'
tr -d '\n' <"$TMP/out" | sed 's/  */ /g' >"$TMP/flat"
expect_grep '"verdict": "equivalent-on-realistic-data",' "$TMP/flat" "realistic: JSON verdict is the label"
expect_grep '"promise": "on realistic data \(databases of up to 4 rows per table whose columns keep the 1 fact of [^"]*club\.sql\)", "realistic": \{ "facts": 1, "origin": "tests/cli/fixtures/profile/club\.sql", "source": "database" \}' \
    "$TMP/flat" "realistic: JSON promise and realistic"
expect_exit 1 "realistic: JSON without --realistic" -- eq -f json --db $P/club.sql 'SELECT count(*) FROM singer' \
    'SELECT count(age) FROM singer'
tr -d '\n' <"$TMP/out" | sed 's/  */ /g' >"$TMP/flat"
expect_grep '"verdict": "different", .*"promise": null, "realistic": null,' "$TMP/flat" \
    "realistic: JSON without it: promise and realistic null"

expect_exit 0 "realistic: --metadata" -- eq --realistic --tables $P/tables.json --db-id club --metadata $P/metadata.json \
    'SELECT count(*) FROM singer' 'SELECT count(age) FROM singer'
expect_grep '^equivalent-on-realistic-data: .*fact[s]? of tests/cli/fixtures/profile/metadata\.json\)$' "$TMP/out" \
    "realistic: ... the metadata's facts"

expect_exit 2 "realistic: no data to profile" -- eq --realistic --tables $P/tables.json --db-id club \
    'SELECT count(*) FROM singer' 'SELECT count(age) FROM singer'
expect_grep 'needs the real data to profile' "$TMP/err" "realistic: ... says what it needs"
expect_exit 2 "realistic: a metadata file that is not there" -- eq --realistic --tables $P/tables.json --db-id club \
    --metadata "$TMP/none.json" 'SELECT count(*) FROM singer' 'SELECT count(age) FROM singer'
expect_grep 'realistic: no column profile: .*none\.json' "$TMP/err" "realistic: ... is an error, not a warning"
expect_exit 0 "realistic: equiv --help" -- "$SQUINT" equiv --help
expect_grep '^      --realistic ' "$TMP/out" "realistic: equiv --help lists --realistic"

# ---- squint eval -----------------------------------------------------------------------
# item 0: different, equivalent on realistic data; item 1: different on both; item 2: the
# same normal form, equivalent without a realistic search
ev() { "$SQUINT" eval "${EVAL_BUDGET[@]}" --gold $F/gold.sql --pred p=$F/pred.sql --db $P/club.sql -q "$@"; }
expect_exit 0 "realistic: eval" -- ev --realistic --out "$TMP/r.jsonl" --report "$TMP/r.html"
expect_grep '^system +items +EX-test EX-verified +\+cross EX-realistic +real-diff +different ' "$TMP/out" \
    "realistic: eval's summary has EX-realistic beside EX-verified"
expect_grep '^p +3 +100\.0 % +33\.3 % +33\.3 % +66\.7 % +1 +2 +0 +0 ' "$TMP/out" \
    "realistic: ... exact 1 of 3, realistic 2 of 3"
expect_grep '^EX-realistic: ' "$TMP/out" "realistic: ... and explains it"
r0=$(sed -n 1p "$TMP/r.jsonl"); r1=$(sed -n 2p "$TMP/r.jsonl"); r2=$(sed -n 3p "$TMP/r.jsonl")
echo "$r0" | grep -qE '"verdict":"different",.*"verdict_realistic":"equivalent-on-realistic-data","verdict_realistic_how":"search",.*"realistic_facts":1,.*"promise_realistic":"on realistic data \(' &&
    ok "realistic: eval record: a needs-null refutation is equivalent on realistic data" ||
    not_ok "realistic: eval record: a needs-null refutation is equivalent on realistic data"
echo "$r1" | grep -qE '"verdict":"different",.*"verdict_realistic":"different","verdict_realistic_how":"search",.*"counterexample_realistic":.*"explain_realistic":.*"kinds_realistic":\["robust"\]' &&
    ok "realistic: eval record: a robust refutation stays, with its counterexample" ||
    not_ok "realistic: eval record: a robust refutation stays, with its counterexample"
echo "$r2" | grep -qE '"verdict":"equivalent",.*"verdict_realistic":"equivalent","verdict_realistic_how":"exact"' &&
    ok "realistic: eval record: an exact equivalence needs no realistic search" ||
    not_ok "realistic: eval record: an exact equivalence needs no realistic search"
expect_grep '"options":\{[^}]*"realistic":true' "$TMP/r.jsonl" "realistic: eval's options say --realistic"
expect_grep '<th>EX-verified realistic</th>' "$TMP/r.html" "realistic: the report's table has EX-verified realistic"
expect_grep '<p class=realistic>On realistic data \(--realistic\): <b>equivalent-on-realistic-data</b>' "$TMP/r.html" \
    "realistic: the report says what realistic data made of a refutation"

# a resume with other options is refused, both ways
expect_exit 2 "realistic: resume without --realistic is refused" -- ev --out "$TMP/r.jsonl"
ev --out "$TMP/plain.jsonl" >/dev/null 2>&1
expect_exit 2 "realistic: resume with --realistic over exact records is refused" -- ev --realistic --out "$TMP/plain.jsonl"
grep -q 'verdict_realistic' "$TMP/plain.jsonl" && not_ok "realistic: no realistic verdict without it" ||
    ok "realistic: no realistic verdict without it"

# the summary of the records as they are, in JSON
expect_exit 0 "realistic: eval -f json" -- ev --realistic -f json --out "$TMP/r.jsonl"
tr -d ' \n' <"$TMP/out" >"$TMP/flat"
expect_grep '"ex_verified":0\.333[0-9]*,"ex_verified_cross":0\.333[0-9]*,"ex_verified_realistic":0\.666[0-9]*,' "$TMP/flat" \
    "realistic: JSON summary: ex_verified_realistic"
expect_grep '"realistic_known":3,"verified_realistic":2,"different_realistic":1,"unknown_realistic":0' "$TMP/flat" \
    "realistic: JSON summary: the realistic counts"

expect_exit 2 "realistic: eval without data to profile" -- "$SQUINT" eval "${EVAL_BUDGET[@]}" --gold $F/gold.sql \
    --pred p=$F/pred.sql --tables $P/tables.json -q --realistic
expect_grep 'needs the real data to profile' "$TMP/err" "realistic: ... says what it needs"
expect_exit 2 "realistic: eval --realistic --no-verify" -- ev --realistic --no-verify
expect_exit 0 "realistic: eval --help" -- "$SQUINT" eval --help
expect_grep '^      --realistic ' "$TMP/out" "realistic: eval --help lists --realistic"
