#!/usr/bin/env bash
# test_lint.sh -- squint lint's command line: exit codes, rule selection,
# severities, -- noqa, .squint.json discovery and ignores, input kinds,
# JSON output, the pre-commit hook file.  Prints TAP lines.
cd "$(dirname "$0")/../.." || exit 2
. tests/cli/lib.sh
FIX=tests/golden/lint.fixture.sql
L=("$SQUINT" lint)

# ---- a SQL file with one finding of each of three rules -----------------
mkdir -p "$TMP/repo/queries"
cat >"$TMP/repo/queries/q.sql" <<'SQL'
SELECT name FROM emp WHERE code != '-' OR '+-';
SELECT name FROM emp ORDER BY salary DESC LIMIT 1;
SELECT * FROM emp;
SQL
Q=$TMP/repo/queries/q.sql

expect_exit 1 "findings: exit 1" -- "${L[@]}" --no-config --schema $FIX "$Q"
expect_grep "q.sql:1:43: error\[string-as-boolean\]" "$TMP/out" "gcc-style location and rule"
expect_grep "q.sql:2:31: warning\[order-limit-ties\]" "$TMP/out" "second finding"
expect_grep "q.sql:3:8: info\[select-star\]" "$TMP/out" "info finding"
expect_grep "^3 findings \(1 error, 1 warning, 1 info\) in 3 queries of 1 file$" "$TMP/out" "summary line"

expect_exit 0 "clean file: exit 0" -- "${L[@]}" --no-config --schema $FIX <(echo "SELECT name FROM emp WHERE id = 1;")
expect_grep "^0 findings in 1 query of 1 file$" "$TMP/out" "clean summary"

# options may follow the operands; `--` ends the options
expect_exit 1 "options after FILE" -- "${L[@]}" "$Q" --no-config --schema $FIX --rules select-star
expect_grep "^1 finding \(1 info\) in 3 queries of 1 file$" "$TMP/out" "options after FILE: all applied"
cp "$Q" "$TMP/-q.sql"
expect_exit 1 "-- ends the options" -- "${L[@]}" --no-config --schema $FIX -- "$TMP/-q.sql"
expect_grep "^3 findings" "$TMP/out" "-- ends the options: file starting with '-' read"
expect_exit 2 "unknown option after FILE" -- "${L[@]}" "$Q" --no-config --schema $FIX --bogus
expect_grep "unknown option '--bogus'" "$TMP/err" "unknown option after FILE: named"

# ---- selection and thresholds --------------------------------------------
expect_exit 1 "--rules with blanks" -- "${L[@]}" --no-config --rules "select-star, L0302" --schema $FIX "$Q"
expect_grep "^2 findings \(1 warning, 1 info\)" "$TMP/out" "--rules a, b: both rules run"

expect_exit 1 "--rules keeps one rule" -- "${L[@]}" --no-config --rules select-star --schema $FIX "$Q"
if grep -q "string-as-boolean" "$TMP/out"; then not_ok "--rules drops the others"; else ok "--rules drops the others"; fi
expect_exit 1 "--rules takes ids" -- "${L[@]}" --no-config --rules L0307 --schema $FIX "$Q"
expect_grep "^1 finding " "$TMP/out" "--rules L0307: one finding"
expect_exit 1 "--disable" -- "${L[@]}" --no-config --disable select-star,order-limit-ties --schema $FIX "$Q"
expect_grep "^1 finding \(1 error\)" "$TMP/out" "--disable leaves one"
expect_exit 1 "--severity warning hides info" -- "${L[@]}" --no-config --severity warning --schema $FIX "$Q"
expect_grep "^2 findings \(1 error, 1 warning\)" "$TMP/out" "--severity warning: two"
expect_exit 0 "--severity error and --disable: clean" -- "${L[@]}" --no-config --severity error --disable string-as-boolean --schema $FIX "$Q"
expect_exit 2 "unknown rule: usage error" -- "${L[@]}" --rules no-such-rule --schema $FIX "$Q"
expect_grep "no rule named 'no-such-rule'" "$TMP/err" "unknown rule: says which"
expect_exit 2 "bad --severity" -- "${L[@]}" --severity loud --schema $FIX "$Q"
expect_exit 2 "no schema: usage error" -- "${L[@]}" "$Q"
expect_exit 2 "unreadable FILE" -- "${L[@]}" --no-config --schema $FIX "$TMP/none.sql"
expect_exit 0 "--list-rules" -- "${L[@]}" --list-rules
expect_grep "^L0102 +string-as-boolean +error +schema " "$TMP/out" "--list-rules: a row per rule"
n=$(grep -c "^L0" "$TMP/out")
want=$(grep -c '^LINT_RULE(' passes/lint/rules.def)
if [ "$n" = "$want" ] && [ "$n" -ge 30 ]; then ok "--list-rules: a row per rule of rules.def ($n)"
else not_ok "--list-rules: $want rules in rules.def (got $n)"; fi
expect_exit 0 "--help" -- "${L[@]}" --help
expect_grep "^usage: squint lint" "$TMP/out" "--help: usage"

# ---- -- noqa ----------------------------------------------------------------
cat >"$TMP/noqa.sql" <<'SQL'
SELECT name FROM emp WHERE code != '-' OR '+-'; -- noqa
SELECT name FROM emp ORDER BY salary DESC LIMIT 1; -- noqa: select-star
SELECT * FROM emp ORDER BY salary DESC LIMIT 1; -- noqa: select-star, L0302
SQL
expect_exit 1 "noqa" -- "${L[@]}" --no-config --schema $FIX "$TMP/noqa.sql"
expect_grep "^1 finding \(1 warning\)" "$TMP/out" "noqa: only the unlisted rule is left"
expect_grep "noqa.sql:2:.*order-limit-ties" "$TMP/out" "noqa: the rule not listed on line 2 stays"

# ---- .squint.json: found above the file, rules, severity, threshold -------
cat >"$TMP/repo/.squint.json" <<'JSON'
{ "lint": { "disable": ["select-star"],
            "severity": {"order-limit-ties": "error"} } }
JSON
expect_exit 1 "config found above the file" -- "${L[@]}" --schema $FIX "$Q"
expect_grep "q.sql:2:31: error\[order-limit-ties\]" "$TMP/out" "config severity override"
if grep -q "select-star" "$TMP/out"; then not_ok "config disable"; else ok "config disable"; fi
expect_exit 1 "--no-config ignores it" -- "${L[@]}" --no-config --schema $FIX "$Q"
expect_grep "select-star" "$TMP/out" "--no-config: select-star back"
expect_exit 1 "--rules overrides the config's disable" -- "${L[@]}" --rules select-star --schema $FIX "$Q"
expect_grep "select-star" "$TMP/out" "--rules wins"

cat >"$TMP/repo/.squint.json" <<'JSON'
{ "lint": { "threshold": "error", "rules": ["string-as-boolean", "select-star"] } }
JSON
expect_exit 1 "config threshold" -- "${L[@]}" --schema $FIX "$Q"
expect_grep "^1 finding \(1 error\)" "$TMP/out" "config rules + threshold"

printf '{ "lint": { "disable": ["no-such-rule"], "bogus": 1 } }' >"$TMP/repo/.squint.json"
expect_exit 2 "bad config: exit 2" -- "${L[@]}" --schema $FIX "$Q"
expect_grep "\.squint\.json:1:.*E0004.*unknown lint rule 'no-such-rule'" "$TMP/err" "bad config: position and reason"
expect_grep "unknown key 'bogus'" "$TMP/err" "bad config: unknown key"
# a repeated key is an error, not a merge (two "items" once overran the list)
printf '{ "lint": { "ignore": [ {"items": [1], "items": [2, 3, 4, 5]} ] } }' >"$TMP/repo/.squint.json"
expect_exit 2 "repeated key in an ignore entry: exit 2" -- "${L[@]}" --schema $FIX "$Q"
expect_grep "\.squint\.json:1:.*the key 'items' appears twice" "$TMP/err" "repeated key: position and reason"
printf '{ "lint": {}, "lint": { "disable": ["select-star"] } }' >"$TMP/repo/.squint.json"
expect_exit 2 "repeated top-level key: exit 2" -- "${L[@]}" --schema $FIX "$Q"
expect_grep "the key 'lint' appears twice" "$TMP/err" "repeated top-level key: reason"
printf '{ "lint": ' >"$TMP/repo/.squint.json"
expect_exit 2 "config that is not JSON" -- "${L[@]}" --schema $FIX "$Q"
rm "$TMP/repo/.squint.json"

# an ignore entry names a file relative to the configuration's directory,
# whatever directory squint runs in
cat >"$TMP/repo/.squint.json" <<'JSON'
{ "lint": { "ignore": [ {"file": "queries/q.sql", "rules": ["select-star", "order-limit-ties"]} ] } }
JSON
expect_exit 1 "ignore by path" -- bash -c "cd '$TMP/repo/queries' && '$PWD/$SQUINT' lint --schema '$PWD/$FIX' q.sql"
expect_grep "^1 finding \(1 error\)" "$TMP/out" "ignore by path, run from the file's directory"
expect_exit 1 "ignore by path, from elsewhere" -- "${L[@]}" --schema $FIX "$Q"
expect_grep "^1 finding \(1 error\)" "$TMP/out" "ignore by path, run from the repository"
rm "$TMP/repo/.squint.json"

# ---- benchmark files: item ids, per-item ignores ----------------------------
cat >"$TMP/repo/dev.json" <<'JSON'
[
  {"question_id": 7, "db_id": "shop", "SQL": "SELECT name FROM emp WHERE tag = NULL"},
  {"question_id": 8, "db_id": "shop", "SQL": "SELECT name FROM emp WHERE id = 1"},
  {"question_id": 9, "db_id": "shop", "SQL": "SELECT name FROM emp WHERE code = NULL"}
]
JSON
expect_exit 1 "BIRD-style dev.json" -- "${L[@]}" --schema $FIX "$TMP/repo/dev.json"
expect_grep "dev.json:2:74: error\[compare-null\]: .* \[question_id 7\]" "$TMP/out" "position in the JSON file and item id"
expect_grep "dev.json:4:74: error\[compare-null\]: .* \[question_id 9\]" "$TMP/out" "second item"
cat >"$TMP/repo/.squint.json" <<'JSON'
{ "lint": { "ignore": [ {"file": "dev.json", "items": [9], "rules": ["compare-null"],
                         "reason": "checked by hand"} ] } }
JSON
expect_exit 1 "ignore one item" -- "${L[@]}" --schema $FIX "$TMP/repo/dev.json"
if grep -q "question_id 9" "$TMP/out"; then not_ok "item 9 ignored"; else ok "item 9 ignored"; fi
expect_grep "question_id 7" "$TMP/out" "item 7 still reported"
cat >"$TMP/repo/.squint.json" <<'JSON'
{ "lint": { "ignore": [ {"file": "other.json"}, {"items": [7, 9]} ] } }
JSON
expect_exit 0 "ignore entries for all rules" -- "${L[@]}" --schema $FIX "$TMP/repo/dev.json"
rm "$TMP/repo/.squint.json"

# TSV and one-query-per-line files: the item is the line
printf 'SELECT name FROM emp WHERE tag = NULL\tshop\nSELECT name FROM emp\tshop\nSELECT name FROM emp WHERE id = NULL\tshop\n' >"$TMP/repo/gold.sql"
printf '{ "lint": { "ignore": [ {"file": "gold.sql", "items": [3]} ] } }' >"$TMP/repo/.squint.json"
expect_exit 1 "TSV items are lines" -- "${L[@]}" --schema $FIX "$TMP/repo/gold.sql"
expect_grep "gold.sql:1:28: error\[compare-null\]" "$TMP/out" "TSV line 1 reported"
if grep -q "gold.sql:3:" "$TMP/out"; then not_ok "TSV line 3 ignored"; else ok "TSV line 3 ignored"; fi
rm "$TMP/repo/.squint.json"

# a JSON object that is no benchmark (package.json) is an input problem
printf '{"name": "x", "version": "1.0.0"}\n' >"$TMP/package.json"
expect_exit 2 "non-benchmark JSON" -- "${L[@]}" --no-config --schema $FIX "$TMP/package.json"
expect_grep "not a BIRD prediction file" "$TMP/err" "non-benchmark JSON: says why"

# ---- noqa details -------------------------------------------------------------
cat >"$TMP/noqa2.sql" <<'SQL'
SELECT * FROM emp WHERE tag = NULL; -- noqa : select-star
SELECT * FROM emp WHERE tag = NULL; -- noqa:compare-null,select-star
SELECT * FROM emp; -- noqab
SQL
expect_exit 1 "noqa with blanks and without" -- "${L[@]}" --no-config --schema $FIX "$TMP/noqa2.sql"
expect_grep "noqa2.sql:1:.*compare-null" "$TMP/out" "noqa : select-star keeps compare-null"
if grep -q "noqa2.sql:2:" "$TMP/out"; then not_ok "noqa:a,b covers both"; else ok "noqa:a,b covers both"; fi
expect_grep "noqa2.sql:3:.*select-star" "$TMP/out" "-- noqab is not noqa"
printf 'SELECT nme FROM emp; -- noqa: E0302\nSELECT nme FROM emp; -- noqa: L0001\nSELECT nme FROM emp;\n' >"$TMP/noqa3.sql"
expect_exit 1 "noqa of a binding error" -- "${L[@]}" --no-config --schema $FIX "$TMP/noqa3.sql"
expect_grep "^1 finding \(1 error\)" "$TMP/out" "noqa: a binder code and its rule's id both work"
expect_grep "noqa3.sql:3:8: error\[unresolved-name\]" "$TMP/out" "noqa: the line without one is reported"
# any case, no blank, and the near misses, which are warned about (W0002)
cat >"$TMP/noqa4.sql" <<'SQL'
SELECT * FROM emp; -- NOQA
SELECT * FROM emp; --noqa
SELECT * FROM emp; -- NoQa: SELECT-STAR
SELECT * FROM emp; -- noqs
SELECT * FROM emp; -- nqoa: select-star
SELECT * FROM emp; -- noqa: select-stra
SELECT '-- noqs' FROM emp; -- no qualms here
SQL
expect_exit 1 "noqa in any case and without a blank; near misses" -- "${L[@]}" --no-config -f gcc --schema $FIX "$TMP/noqa4.sql"
grep -q "noqa4.sql:[123]:" "$TMP/out" && not_ok "noqa: -- NOQA, --noqa, -- NoQa: SELECT-STAR all silence" ||
    ok "noqa: -- NOQA, --noqa, -- NoQa: SELECT-STAR all silence"
expect_grep "^$TMP/noqa4.sql:4:20: warning: 'noqs' is not 'noqa': this comment silences nothing \[W0002\]$" "$TMP/out" \
    "noqa: a misspelling (noqs) is a warning"
expect_grep "^$TMP/noqa4.sql:5:20: warning: 'nqoa' is not 'noqa'" "$TMP/out" "noqa: ... two letters swapped (nqoa) too"
expect_grep "^$TMP/noqa4.sql:6:29: warning: 'select-stra' in this noqa is no rule and no code" "$TMP/out" \
    "noqa: a rule name that is none is a warning"
[ "$(grep -c 'W0002' "$TMP/out")" = 3 ] && ok "noqa: nothing else warned (not a string, not '-- no')" ||
    not_ok "noqa: nothing else warned ($(grep -c W0002 "$TMP/out"))"
[ "$(grep -c 'select-star\]$' "$TMP/out")" = 3 ] && ok "noqa: the three near misses silenced nothing" ||
    not_ok "noqa: the three near misses silenced nothing"

# ---- JSON output ---------------------------------------------------------------
expect_exit 1 "--format json" -- "${L[@]}" --no-config --format json --schema $FIX "$TMP/repo/dev.json"
expect_grep '"rule": "compare-null"' "$TMP/out" "json: rule"
expect_grep '"id": "L0103"' "$TMP/out" "json: id"
expect_grep '"item": "question_id 7"' "$TMP/out" "json: item"
expect_grep '"line": 2,' "$TMP/out" "json: line"
expect_grep '"compare-null": 2' "$TMP/out" "json: by_rule"

# ---- prediction files with --db-id-from ------------------------------------------
printf 'SELECT name FROM emp WHERE tag = NULL\nSELECT 1\nSELECT 2\n' >"$TMP/pred.txt"
expect_exit 1 "--db-id-from" -- "${L[@]}" --no-config --schema $FIX --db-id-from "$TMP/repo/dev.json" "$TMP/pred.txt"
expect_grep "pred.txt:1:28: error\[compare-null\]" "$TMP/out" "prediction lines linted"

# ---- seed 003 gold queries without the data (BIRD's setting) ------------------------
S=tests/golden/lint-seed
expect_exit 1 "seed Fig. 1: string-as-boolean without data" -- "${L[@]}" --no-config --schema tests/golden/lint-seed.fixture.sql $S/001-fig1-rnp-string-as-boolean.sql
expect_grep "string-as-boolean" "$TMP/out" "seed Ex. 3.1 flagged"
expect_exit 1 "seed Fig. 1: fan-out without data" -- "${L[@]}" --no-config --schema tests/golden/lint-seed.fixture.sql $S/002-fig1-count-over-join.sql
expect_grep "fanout-aggregate" "$TMP/out" "seed Ex. 3.2 flagged"
expect_exit 1 "seed B.9: ties without data" -- "${L[@]}" --no-config --schema tests/golden/lint-seed.fixture.sql $S/011-b9-top-comment.sql
expect_grep "order-limit-ties\]: ORDER BY Score .* can tie" "$TMP/out" "seed B.9 flagged by the schema"

# ---- the pre-commit hook ----------------------------------------------------------
H=.pre-commit-hooks.yaml
expect_grep "^- id: squint-lint" $H "hook id"
expect_grep "language: system" $H "hook language"
expect_grep "^- id: squint-check" $H "hook id squint-check"   # tests/cli/test_precommit.sh runs both for real

# ---- --prove: the rules that ask the solver ------------------------------------------
cat > "$TMP/empty.sql" <<'SQL'
SELECT e.name FROM emp AS e JOIN dept AS d ON e.dept_id = d.id WHERE d.id IS NULL;
SELECT d.name FROM dept AS d JOIN emp AS e ON e.dept_id = d.id GROUP BY d.id HAVING count(*) > 5;
SELECT name FROM emp WHERE salary > 10;
SQL
expect_exit 1 "--prove: an always-empty query" -- "${L[@]}" --no-config --prove --rules gold-always-empty --schema $FIX "$TMP/empty.sql"
expect_grep '^.*empty.sql:1:1: error\[gold-always-empty\]' "$TMP/out" "--prove: ... reported on its statement"
[ "$(grep -c 'gold-always-empty\]' "$TMP/out")" = 1 ] && ok "--prove: ... and only it (not the HAVING count(*) > 5 the bound cannot reach, not a satisfiable one)" ||
    not_ok "--prove: $(grep -c 'gold-always-empty\]' "$TMP/out") findings"
expect_exit 0 "--prove off: no solver rule" -- "${L[@]}" --no-config --rules gold-always-empty --schema $FIX "$TMP/empty.sql"
expect_exit 2 "--prove-rlimit 0" -- "${L[@]}" --no-config --prove --prove-rlimit 0 --schema $FIX "$TMP/empty.sql"
expect_grep 'prove-rlimit takes a number of units above 0' "$TMP/err" "--prove-rlimit: ... says what it takes"
