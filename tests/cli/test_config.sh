#!/usr/bin/env bash
# test_config.sh -- the project file (docs/config.md): found by walking
# up, --config and --no-config, options per command overridden by the
# command line, paths relative to the file, errors with positions, the
# "files" and "exclude" members, directories as operands, eval --lint
# honouring the lint settings, and -q/-v on every command.  Prints TAP lines.
cd "$(dirname "$0")/../.." || exit 2
. tests/cli/lib.sh
S=$(cd "$(dirname "$SQUINT")" && pwd)/$(basename "$SQUINT")
ROOT=$PWD

# A project: a schema, queries in a tree, a file to leave out.
P=$TMP/proj
mkdir -p "$P/q/sub" "$P/q/.hidden" "$P/build" "$P/deep/er"
cat > "$P/schema.sql" <<'SQL'
CREATE TABLE singer (id INTEGER PRIMARY KEY, name TEXT, age INTEGER);
SQL
echo 'SELECT * FROM singer;' > "$P/q/a.sql"
echo 'SELECT nme FROM singer;' > "$P/q/sub/b.sql"
echo 'SELECT name FROM singer;' > "$P/q/skip_me.sql"
echo 'SELECT bad FROM nowhere;' > "$P/q/.hidden/h.sql"
echo 'SELECT bad FROM nowhere;' > "$P/build/c.sql"
echo '[]' > "$P/q/tables.json"
echo '{"name": "x"}' > "$P/q/package.json"
cat > "$P/.squint.json" <<'JSON'
{
  "schema": "schema.sql",
  "files": ["q"],
  "exclude": ["build", "q/skip_*.sql"],
  "lint": {"disable": ["select-star"], "format": "gcc"}
}
JSON

# ---- found by walking up; paths relative to the file -------------------------
(cd "$P/deep/er" && "$S" check ../../q/a.sql >"$TMP/out" 2>"$TMP/err"); rc=$?
[ $rc = 0 ] && ok "config: found from a subdirectory; its schema path is relative to the file" \
    || { not_ok "config: walk up (exit $rc)"; head -3 "$TMP/err"; }
(cd "$P/deep/er" && "$S" check ../../q/sub/b.sql >"$TMP/out" 2>"$TMP/err"); rc=$?
[ $rc = 1 ] && ok "config: the file's schema finds the misspelt column" || not_ok "config: schema from the file (exit $rc)"
(cd "$P/deep/er" && "$S" check --no-config ../../q/sub/b.sql >"$TMP/out" 2>"$TMP/err"); rc=$?
[ $rc = 0 ] && ok "config: --no-config reads none (no schema: names unchecked)" \
    || not_ok "config: --no-config (exit $rc)"
cp "$P/.squint.json" "$TMP/elsewhere.json"
sed -i 's|"schema.sql"|"proj/schema.sql"|' "$TMP/elsewhere.json"
(cd / && "$S" check --no-config --config "$TMP/elsewhere.json" "$P/q/sub/b.sql" >"$TMP/out" 2>"$TMP/err"); rc=$?
[ $rc = 0 ] && ok "config: --no-config wins over --config" || not_ok "config: --no-config with --config (exit $rc)"
(cd / && "$S" check --config "$TMP/elsewhere.json" "$P/q/sub/b.sql" >"$TMP/out" 2>"$TMP/err"); rc=$?
[ $rc = 1 ] && ok "config: --config FILE names the file (paths relative to it)" \
    || { not_ok "config: --config (exit $rc)"; head -3 "$TMP/err"; }

# ---- the command line replaces the file's options ----------------------------
echo 'CREATE TABLE other (x INTEGER);' > "$TMP/other.sql"
echo 'SELECT x FROM other;' > "$TMP/other_q.sql"
(cd "$P" && "$S" check --schema "$TMP/other.sql" "$TMP/other_q.sql" >"$TMP/out" 2>"$TMP/err"); rc=$?
[ $rc = 0 ] && ok "config: a schema option on the command line replaces the file's" \
    || { not_ok "config: override schema (exit $rc)"; head -3 "$TMP/err"; }
(cd "$P" && "$S" lint q/sub/b.sql >"$TMP/out" 2>"$TMP/err")
grep -qE '^q/sub/b.sql:1:8: error: .*\[unresolved-name\]$' "$TMP/out" \
    && ok "config: the lint section's format (gcc) applies" || { not_ok "config: lint format from the file"; cat "$TMP/out"; }
(cd "$P" && "$S" lint --format json q/sub/b.sql >"$TMP/out" 2>"$TMP/err")
head -c1 "$TMP/out" | grep -q '[{[]' && ok "config: --format on the command line replaces the file's" \
    || not_ok "config: --format override"

# ---- files, exclude, directories ---------------------------------------------
(cd "$P" && "$S" lint >"$TMP/out" 2>"$TMP/err"); rc=$?
lines=$(cat "$TMP/out")
[ $rc = 1 ] && [ "$(grep -c . "$TMP/out")" = 1 ] && grep -q '^q/sub/b.sql:' "$TMP/out" \
    && ok "config: no operand reads \"files\"; select-star disabled; skip_me.sql, .hidden, tables.json, package.json left out" \
    || { not_ok "config: files (exit $rc)"; echo "$lines" | head -5; head -3 "$TMP/err"; }
(cd "$P" && "$S" parse --format json q >"$TMP/out" 2>"$TMP/err")
files=$(grep -o '"file": *"[^"]*"' "$TMP/out" | sed 's/.*: *"//; s/"$//' | sort -u | tr '\n' ' ')
[ "$files" = "q/a.sql q/sub/b.sql " ] && ok "config: a directory operand is walked in name order, patterns applied" \
    || not_ok "config: walked files were '$files'"
(cd "$P" && "$S" check -v build/c.sql q/a.sql >"$TMP/out" 2>"$TMP/err"); rc=$?
[ $rc = 0 ] && grep -q "build/c.sql: left out (exclude pattern 'build')" "$TMP/err" \
    && ok "config: a named file is left out by a pattern too, and -v says so" \
    || { not_ok "config: named file excluded (exit $rc)"; cat "$TMP/err"; }
(cd "$P" && "$S" check build/c.sql >"$TMP/out" 2>"$TMP/err"); rc=$?
[ $rc = 0 ] && grep -q 'no query file to read (1 left out' "$TMP/err" \
    && ok "config: every input left out: a message and status 0" || not_ok "config: all excluded (exit $rc)"
(cd "$P" && "$S" check --exclude 'a.sql' --exclude sub q >"$TMP/out" 2>"$TMP/err"); rc=$?
[ $rc = 0 ] && grep -q 'no query file to read' "$TMP/err" \
    && ok "config: --exclude adds patterns (a name, a directory)" || { not_ok "config: --exclude (exit $rc)"; cat "$TMP/err"; }
mkdir -p "$TMP/empty"
(cd "$P" && "$S" check q/a.sql "$TMP/empty" >"$TMP/out" 2>"$TMP/err"); rc=$?
[ $rc = 0 ] && grep -q 'warning: no query files under' "$TMP/err" \
    && ok "config: an empty directory warns" || not_ok "config: empty directory (exit $rc)"
mkdir -p "$P/q/link_target" && ln -s "$P/q" "$P/q/loop"
(cd "$P" && "$S" parse --format json q >"$TMP/out" 2>"$TMP/err"); rc=$?
n=$(grep -c '"file": *"q/a.sql"' "$TMP/out")
[ $rc = 0 ] && [ "$n" = 1 ] && ok "config: a symbolic link to a directory is not entered (no loop)" || not_ok "config: symlink loop (exit $rc)"
rm "$P/q/loop"
mkdir -p "$TMP/bench" && printf '[{"db_id":"x","query":"SELECT name FROM singer","question":"q"}]' > "$TMP/bench/dev.json"
printf '[]' > "$TMP/bench/dev_tables.json"
"$S" check --no-config "$TMP/bench" >"$TMP/out" 2>"$TMP/err"
cat "$TMP/out" "$TMP/err" | grep -q '^1 statement checked.*(1 item' && ok "config: a walked directory gives its dev.json (not its tables.json)" \
    || { not_ok "config: dev.json walked"; cat "$TMP/err"; }

# ---- mistakes in the file: errors at their place -----------------------------
bad() {   # bad NAME JSON PATTERN
    printf '%s\n' "$2" > "$TMP/badproj/.squint.json"
    (cd "$TMP/badproj" && "$S" check x.sql >"$TMP/out" 2>"$TMP/err"); local rc=$?
    if [ $rc = 2 ] && grep -qE -- "$3" "$TMP/err"; then ok "config error: $1"; else
        not_ok "config error: $1 (exit $rc)"; head -4 "$TMP/err"; fi
}
mkdir -p "$TMP/badproj" && echo 'SELECT 1;' > "$TMP/badproj/x.sql"
bad "an unknown top-level key, with its line and column" '{
  "tabels": "t.json"}' '\.squint\.json:2:3: error\[E0004\]: unknown key .tabels.'
bad "an unknown key in a command section, with a suggestion" '{"eval": {"jbos": 2}}' \
    "unknown key 'jbos' in \"eval\".*|did you mean 'jobs'"
bad "a section is checked whichever command runs" '{"graph": {"max-cycle": 3}}' "did you mean 'max-cycles'"
bad "a flag takes true or false" '{"eval": {"lint": "yes"}}' '--lint takes no value: write true or false'
bad "an option with a value takes a string or number" '{"eval": {"jobs": true}}' '--jobs takes a string or a number'
bad "a command-line-only option" '{"lint": {"force": true}}' '--force is for the command line only'
bad "fixture's mode is for the command line" '{"fixture": {"llm": true}}' '--llm is for the command line only'
bad "a repeated key" '{"db": "a", "db": "b"}' "the key 'db' appears twice"
bad "a lint setting is checked" '{"lint": {"disable": ["no-such-rule"]}}' "unknown lint rule 'no-such-rule'"
bad "not JSON" '{"db": }' 'E0004'
bad "not an object" '[1]' 'a project file holds one JSON object'
bad "a wrong version" '{"version": 2}' 'this squint reads "version": 1'
printf '{}' > "$TMP/badproj/squint.json"
printf '{}' > "$TMP/badproj/.squint.json"
(cd "$TMP/badproj" && "$S" check x.sql >"$TMP/out" 2>"$TMP/err"); rc=$?
[ $rc = 2 ] && grep -q 'has both .squint.json and squint.json' "$TMP/err" \
    && ok "config error: two project files in one directory" || not_ok "config error: two files (exit $rc)"
rm "$TMP/badproj/squint.json"

# ---- every command reads it; -q and -v everywhere ----------------------------
printf '{"eval": {"jbos": 1}}\n' > "$TMP/badproj/.squint.json"
for cmd in parse check ir opt graph lint equiv eval merge fixture "prompt sql-to-question" compile passes "llm run"; do
    (cd "$TMP/badproj" && "$S" $cmd x.sql >"$TMP/out" 2>"$TMP/err"); rc=$?
    if [ $rc = 2 ] && grep -q "unknown key 'jbos'" "$TMP/err"; then ok "config: squint $cmd reads the project file"
    else not_ok "config: squint $cmd did not read it (exit $rc)"; head -2 "$TMP/err"; fi
done
rm "$TMP/badproj/.squint.json"
for cmd in parse check ir opt graph lint equiv eval merge fixture "prompt sql-to-question" compile passes "llm run" "llm import"; do
    "$S" $cmd -q --help >/dev/null 2>"$TMP/err" && "$S" $cmd --verbose --help >/dev/null 2>>"$TMP/err" \
        && ok "-q and -v: squint $cmd takes them" || { not_ok "-q/-v: squint $cmd"; head -2 "$TMP/err"; }
done
(cd "$P" && "$S" passes -v >"$TMP/out" 2>"$TMP/err")
grep -q "project file $P/.squint.json" "$TMP/err" && ok "-v: names the project file" || not_ok "-v: project file"
(cd "$P" && "$S" passes -q >"$TMP/out" 2>"$TMP/err")
[ ! -s "$TMP/err" ] && ok "-q: nothing on stderr" || not_ok "-q: stderr was '$(head -1 "$TMP/err")'"

# ---- eval --lint honours the lint settings -----------------------------------
eval_demo_db "config"
mkdir -p "$TMP/ev"
printf 'SELECT title FROM books WHERE price = NULL\tlibrary\nSELECT title FROM books ORDER BY price LIMIT 1\tlibrary\n' \
    > "$TMP/ev/gold.tsv"
printf 'SELECT title FROM books WHERE price IS NULL\nSELECT title FROM books ORDER BY price LIMIT 1\n' > "$TMP/ev/p.sql"
evlint() {
    (cd "$TMP/ev" && "$S" eval "${EVAL_BUDGET[@]}" --gold gold.tsv --pred p.sql --db-root "$TMP/db" -q --lint \
        --out "$1" >"$TMP/out" 2>"$TMP/err")
}
evlint with.jsonl
n=$(grep -c '"rule":"compare-null"' "$TMP/ev/with.jsonl")
[ "$n" = 1 ] && ok "eval --lint: without settings, compare-null is found" || not_ok "eval --lint: $n records"
printf '{"lint": {"disable": ["compare-null"]}}\n' > "$TMP/ev/.squint.json"
evlint disabled.jsonl
n=$(grep -c '"rule":"compare-null"' "$TMP/ev/disabled.jsonl")
[ "$n" = 0 ] && ok "eval --lint: a rule the project disables is not reported" || not_ok "eval --lint: disabled rule in $n records"
printf '{"lint": {"ignore": [{"file": "gold.tsv", "items": [1], "rules": ["compare-null"]}]}}\n' > "$TMP/ev/.squint.json"
evlint ignored.jsonl
n=$(grep -c '"rule":"compare-null"' "$TMP/ev/ignored.jsonl")
[ "$n" = 0 ] && ok "eval --lint: an ignore entry for the item (line 1 of gold.tsv) applies" \
    || not_ok "eval --lint: ignored finding in $n records"
printf '{"lint": {"threshold": "error"}}\n' > "$TMP/ev/.squint.json"
evlint threshold.jsonl
n=$(grep -c '"severity":"warning"' "$TMP/ev/threshold.jsonl")
[ "$n" = 0 ] && ok "eval --lint: the threshold drops findings below it" || not_ok "eval --lint: $n warnings kept"
grep -q '"lint_settings":"' "$TMP/ev/threshold.jsonl" && ! grep -q '"lint_settings"' "$TMP/ev/with.jsonl" \
    && ok "eval --lint: the settings are part of the records' options (a resumed run with others recomputes)" \
    || not_ok "eval --lint: lint_settings in the options"
cd "$ROOT" || exit 2

# ---- --help names the options every command takes, once ---------------------
"$S" passes --help > "$TMP/h"
grep -q -- '--config FILE' "$TMP/h" && grep -q -- '-v, --verbose' "$TMP/h" && ! grep -q -- '--exclude' "$TMP/h" \
    && ok "--help: passes lists --config, -v (and no --exclude: it reads no query files)" || not_ok "--help: passes"
"$S" lint --help > "$TMP/h"
[ "$(grep -c -- '--config FILE' "$TMP/h")" = 1 ] && grep -q -- '--exclude PATTERN' "$TMP/h" \
    && ok "--help: lint lists --config once and --exclude" || not_ok "--help: lint"
