#!/usr/bin/env bash
# test_prompt.sh -- squint prompt: requests for a language model in the
# OpenAI batch format.  Prints TAP lines.
#   - every line is a JSON request with the keys and values the batch
#     format needs, custom_ids unique, no slot left unfilled;
#   - the same inputs give the same bytes;
#   - --format text shows the SQL, the schema, the sample rows; BIRD's
#     evidence is in its section when the item has one;
#   - a slot the template needs that an item lacks is an error naming it,
#     and nothing is written (--keep-going writes the rest);
#   - template mistakes, usage errors and --out's refusals exit 2;
#   - explain-difference reads squint eval's records;
#   - over Spider dev and BIRD dev (when ../shared/corpora is there):
#     1,034 and 1,534 valid requests, BIRD's evidence in each that has one.
cd "$(dirname "$0")/../.." || exit 2
. tests/cli/lib.sh
D=examples/eval-demo
F=tests/cli/fixtures/prompt
C=${SQUINT_CORPORA:-../shared/corpora}
eval_demo_db prompt

# check_requests FILE N TASK -- N valid request lines of TASK in FILE
check_requests() {
    python3 - "$1" "$2" "$3" <<'EOF'
import json, sys
path, want, task = sys.argv[1], int(sys.argv[2]), sys.argv[3]
ids = set()
lines = open(path, encoding="utf-8").read().split("\n")
assert lines[-1] == "", "the last line ends with a newline"
for n, line in enumerate(lines[:-1], 1):
    r = json.loads(line)
    assert list(r) == ["custom_id", "method", "url", "body"], f"line {n}: keys {list(r)}"
    assert r["method"] == "POST" and r["url"] == "/v1/chat/completions", f"line {n}"
    assert r["custom_id"].startswith(task + "/") and r["custom_id"] not in ids, f"line {n}: {r['custom_id']}"
    ids.add(r["custom_id"])
    b = r["body"]
    assert list(b) == ["model", "messages", "temperature", "seed", "max_tokens"], f"line {n}: body {list(b)}"
    assert isinstance(b["model"], str) and b["model"], f"line {n}: model"
    assert isinstance(b["temperature"], float) and isinstance(b["seed"], int) and isinstance(b["max_tokens"], int)
    assert [m["role"] for m in b["messages"]] == ["system", "user"], f"line {n}: roles"
    for m in b["messages"]:
        assert isinstance(m["content"], str) and m["content"].strip(), f"line {n}: empty {m['role']}"
        assert "{{" not in m["content"], f"line {n}: a slot left in the {m['role']} message"
assert len(ids) == want, f"{len(ids)} requests, want {want}"
EOF
}

# ---- a bundled benchmark: valid, deterministic -----------------------------
expect_exit 0 "prompt: sql-to-question over the eval demo (--db-root)" -- \
    "$SQUINT" prompt sql-to-question --db-root "$TMP/db" $D/dev.json
cp "$TMP/out" "$TMP/a.jsonl"
if check_requests "$TMP/a.jsonl" 20 sql-to-question 2>"$TMP/err"; then ok "prompt: 20 valid requests"
else not_ok "prompt: 20 valid requests"; tail -3 "$TMP/err"; fi
"$SQUINT" prompt sql-to-question --db-root "$TMP/db" $D/dev.json >"$TMP/b.jsonl" 2>/dev/null
cmp -s "$TMP/a.jsonl" "$TMP/b.jsonl" && ok "prompt: a rerun gives the same bytes" ||
    not_ok "prompt: a rerun gives the same bytes"
head -1 "$TMP/a.jsonl" | grep -q '^{"custom_id":"sql-to-question/item-0","method":"POST","url":"/v1/chat/completions","body":{"model":"squint-placeholder","messages":\[{"role":"system"' &&
    ok "prompt: the request's bytes as documented" || not_ok "prompt: the request's bytes as documented"
grep -q '"temperature":0.7,"seed":0,"max_tokens":1024}}$' "$TMP/a.jsonl" &&
    ok "prompt: the task's defaults (temperature 0.7, seed 0, max_tokens 1024)" ||
    not_ok "prompt: the task's defaults (temperature 0.7, seed 0, max_tokens 1024)"
"$SQUINT" prompt sql-to-question --model m-1 --temperature 0.25 --seed 7 --max-tokens 99 --db-root "$TMP/db" \
    $D/dev.json 2>/dev/null | head -1 >"$TMP/o"
grep -q '"model":"m-1",.*"temperature":0.25,"seed":7,"max_tokens":99}}$' "$TMP/o" &&
    ok "prompt: --model, --temperature, --seed, --max-tokens" ||
    not_ok "prompt: --model, --temperature, --seed, --max-tokens"

# ---- the prompts as text ---------------------------------------------------
expect_exit 0 "prompt: --format text" -- \
    "$SQUINT" prompt sql-to-question -f text --db-root "$TMP/db" $D/dev.json
expect_grep "^=== sql-to-question/item-0 ===$" "$TMP/out" "prompt: text heads each prompt with its custom_id"
expect_grep "^SELECT name FROM members WHERE city = 'Springfield'$" "$TMP/out" "prompt: text shows the SQL as written"
expect_grep "^CREATE TABLE members \($" "$TMP/out" "prompt: text shows the schema"
expect_grep "^\| 1 +\| 'Ada Brooks' " "$TMP/out" "prompt: text shows sample rows of the database"
"$SQUINT" prompt sql-to-question -f text --schema $D/schema.sql $D/dev.json >"$TMP/o" 2>&1
grep -q "first rows" "$TMP/o" && not_ok "prompt: no database, no sample rows section" ||
    ok "prompt: no database, no sample rows section"
"$SQUINT" prompt sql-to-question -f text --db-root "$TMP/db" --sample-rows 0 $D/dev.json >"$TMP/o" 2>&1
grep -q "first rows" "$TMP/o" && not_ok "prompt: --sample-rows 0" || ok "prompt: --sample-rows 0"
# the schema slot holds the tables the query reads and those they reference
"$SQUINT" prompt sql-to-question -f text --db-root "$TMP/db" $D/dev.json 2>/dev/null |
    awk '/^=== sql-to-question\/item-0 ===$/{f=1} /^=== sql-to-question\/item-1 ===$/{f=0} f' >"$TMP/item0"
[ "$(grep -c '^CREATE TABLE' "$TMP/item0")" = 1 ] && ok "prompt: the schema is reduced to the query's tables" ||
    not_ok "prompt: the schema is reduced to the query's tables"

# ---- BIRD: evidence and question ids ----------------------------------------
expect_exit 0 "prompt: question-check over a BIRD dev.json" -- \
    "$SQUINT" prompt question-check -f text --schema $D/schema.sql $F/bird_dev.json
expect_grep "^=== question-check/qid-7 ===$" "$TMP/out" "prompt: BIRD items are named by question_id"
expect_grep "^the average book refers to AVG\(price\)$" "$TMP/out" "prompt: the evidence slot is filled"
[ "$(grep -c 'Domain knowledge' "$TMP/out")" = 1 ] && ok "prompt: an empty evidence leaves its section out" ||
    not_ok "prompt: an empty evidence leaves its section out"
expect_grep "^How many books cost more than the average book\?$" "$TMP/out" "prompt: the question slot is filled"

# ---- a slot that is not known ------------------------------------------------
printf 'SELECT title FROM books;\n' >"$TMP/q.sql"
expect_exit 2 "prompt: paraphrase of a SQL script (no question) exits 2" -- \
    "$SQUINT" prompt paraphrase --schema $D/schema.sql "$TMP/q.sql"
expect_grep "q.sql:1:1: no slot 'question'" "$TMP/err" "prompt: the error names the slot and the item"
[ -s "$TMP/out" ] && not_ok "prompt: nothing written when a slot is missing" || ok "prompt: nothing written when a slot is missing"
printf '@user\n{{sql}} with {{evidence}}\n' >"$TMP/ev.txt"
expect_exit 2 "prompt: a template that needs evidence, over Spider items" -- \
    "$SQUINT" prompt sql-to-question --template "$TMP/ev.txt" --schema $D/schema.sql $D/dev.json
expect_grep "dev.json:[0-9]+:[0-9]+ \(item 0\): no slot 'evidence' for $TMP/ev.txt" "$TMP/err" \
    "prompt: the error names the slot, the item and the template"
expect_exit 2 "prompt: --keep-going still exits 2" -- \
    "$SQUINT" prompt sql-to-question --keep-going --template "$TMP/ev.txt" --schema $D/schema.sql $F/bird_dev.json
[ "$(wc -l <"$TMP/out")" = 1 ] && grep -q '"content":"SELECT COUNT' "$TMP/out" &&
    ok "prompt: --keep-going writes the items that have every slot" ||
    not_ok "prompt: --keep-going writes the items that have every slot"

# ---- templates ----------------------------------------------------------------
printf 'notes\n@system\nbe brief\n@user\n{{#evidence}}\nhint: {{evidence}}\n{{/evidence}}\nQ: {{question}}\n' >"$TMP/t.txt"
expect_exit 0 "prompt: --template with a section" -- \
    "$SQUINT" prompt paraphrase -f text --template "$TMP/t.txt" --schema $D/schema.sql $F/bird_dev.json
printf '%s\n' "=== paraphrase/qid-7 ===" "--- system" "be brief" "--- user" "hint: the average book refers to AVG(price)" \
    "Q: How many books cost more than the average book?" "" "=== paraphrase/qid-9 ===" "--- system" "be brief" \
    "--- user" "Q: List the names of the members who live in Springfield." >"$TMP/want"
cmp -s "$TMP/out" "$TMP/want" && ok "prompt: sections kept and dropped, notes not sent" ||
    { not_ok "prompt: sections kept and dropped, notes not sent"; diff "$TMP/out" "$TMP/want" | head -5; }
for bad in '@user\n{{questoin}}\n:no slot named .questoin.' '@user\n{{#evidence}}x\n:a section is never closed' \
           '@user\n{{/sql}}\n:closes no open section' 'no message at all\n:no @user message' \
           '@user\na\n@user\nb\n:a second @user message'; do
    printf "${bad%:*}" >"$TMP/bad.txt"
    expect_exit 2 "prompt: template error: ${bad##*:}" -- \
        "$SQUINT" prompt paraphrase --template "$TMP/bad.txt" --schema $D/schema.sql $F/bird_dev.json
    grep -qE "bad.txt:[0-9]+: .*${bad##*:}" "$TMP/err" || not_ok "prompt: template error names the line: ${bad##*:}"
done

# the built-in templates are the files of prompts/, byte for byte
for t in sql-to-question paraphrase question-check; do
    "$SQUINT" prompt $t --db-root "$TMP/db" $D/dev.json >"$TMP/built" 2>&1
    "$SQUINT" prompt $t --template prompts/$t.txt --db-root "$TMP/db" $D/dev.json >"$TMP/file" 2>&1
    cmp -s "$TMP/built" "$TMP/file" && [ -s "$TMP/built" ] && ok "prompt: $t: the built-in template is prompts/$t.txt" ||
        not_ok "prompt: $t: the built-in template is prompts/$t.txt"
done

# ---- --list, --help, usage errors ----------------------------------------------
expect_exit 0 "prompt: --list" -- "$SQUINT" prompt --list
for t in sql-to-question paraphrase question-check explain-difference; do
    grep -q "^$t " "$TMP/out" || not_ok "prompt: --list names $t"
done
expect_grep "^  slots:    schema, sql, question$" "$TMP/out" "prompt: --list shows each task's slots"
expect_grep "^  sample_rows " "$TMP/out" "prompt: --list describes the slots"
expect_exit 0 "prompt: --help" -- "$SQUINT" prompt --help
expect_grep "^exit status: 0" "$TMP/out" "prompt: --help states the exit statuses"
expect_exit 2 "prompt: no task" -- "$SQUINT" prompt
expect_exit 2 "prompt: an unknown task" -- "$SQUINT" prompt questions --schema $D/schema.sql $D/dev.json
expect_exit 2 "prompt: no schema option" -- "$SQUINT" prompt sql-to-question $D/dev.json
expect_exit 2 "prompt: no FILE" -- "$SQUINT" prompt sql-to-question --schema $D/schema.sql
expect_exit 2 "prompt: two FILEs" -- "$SQUINT" prompt sql-to-question --schema $D/schema.sql $D/dev.json $D/dev.json
expect_exit 2 "prompt: --temperature out of range" -- \
    "$SQUINT" prompt sql-to-question --temperature 2.5 --schema $D/schema.sql $D/dev.json
expect_exit 2 "prompt: --max-tokens 0" -- "$SQUINT" prompt sql-to-question --max-tokens 0 --schema $D/schema.sql $D/dev.json
expect_exit 2 "prompt: --format json (jsonl or text)" -- \
    "$SQUINT" prompt sql-to-question -f json --schema $D/schema.sql $D/dev.json
expect_exit 2 "prompt: an unreadable FILE" -- "$SQUINT" prompt sql-to-question --schema $D/schema.sql "$TMP/none.json"
expect_exit 2 "prompt: a db_id the schema lacks" -- "$SQUINT" prompt sql-to-question --db-root "$TMP/db" $F/../check_schema/spider_dev.json

# ---- a query with errors ----------------------------------------------------------
printf 'SELECT title FROM books;\nSELECT nme FROM members;\n' >"$TMP/err.sql"
expect_exit 1 "prompt: a query that does not bind exits 1" -- \
    "$SQUINT" prompt sql-to-question --schema $D/schema.sql "$TMP/err.sql"
[ -s "$TMP/out" ] && not_ok "prompt: nothing written after a query error" || ok "prompt: nothing written after a query error"
expect_exit 1 "prompt: --keep-going after a query error" -- \
    "$SQUINT" prompt sql-to-question --keep-going --schema $D/schema.sql "$TMP/err.sql"
[ "$(grep -c '"custom_id":"sql-to-question/line-1"' "$TMP/out")" = 1 ] && ok "prompt: --keep-going writes the query that binds" ||
    not_ok "prompt: --keep-going writes the query that binds"

# ---- --out -----------------------------------------------------------------------
expect_exit 0 "prompt: --out" -- "$SQUINT" prompt sql-to-question --db-root "$TMP/db" --out "$TMP/req.jsonl" $D/dev.json
cmp -s "$TMP/req.jsonl" "$TMP/a.jsonl" && ok "prompt: --out holds what standard output gets" ||
    not_ok "prompt: --out holds what standard output gets"
expect_exit 0 "prompt: --out replaces its own output" -- \
    "$SQUINT" prompt sql-to-question --db-root "$TMP/db" --out "$TMP/req.jsonl" $D/dev.json
echo "my notes" >"$TMP/notes.txt"
expect_exit 2 "prompt: --out refuses a file squint did not write" -- \
    "$SQUINT" prompt sql-to-question --db-root "$TMP/db" --out "$TMP/notes.txt" $D/dev.json
[ "$(cat "$TMP/notes.txt")" = "my notes" ] && ok "prompt: the foreign file is unchanged" ||
    not_ok "prompt: the foreign file is unchanged"
expect_grep "pass --force" "$TMP/err" "prompt: the refusal says how to overrule it"
expect_exit 0 "prompt: --force replaces it" -- \
    "$SQUINT" prompt sql-to-question --force --db-root "$TMP/db" --out "$TMP/notes.txt" $D/dev.json
cmp -s "$TMP/notes.txt" "$TMP/a.jsonl" && ok "prompt: --force wrote the requests" || not_ok "prompt: --force wrote the requests"
cp $D/dev.json "$TMP/dev.json"
expect_exit 2 "prompt: --out never names the input, --force or not" -- \
    "$SQUINT" prompt sql-to-question --force --db-root "$TMP/db" --out "$TMP/dev.json" "$TMP/dev.json"
cmp -s "$TMP/dev.json" $D/dev.json && ok "prompt: the input is unchanged" || not_ok "prompt: the input is unchanged"

# ---- explain-difference over squint eval's records ------------------------------------
python3 - "$D" "$TMP" <<'EOF'
import json, sys
d, tmp = sys.argv[1], sys.argv[2]
gold = json.load(open(f"{d}/dev.json"))
pred = open(f"{d}/pred_good.sql").read().split("\n")
json.dump([gold[2], gold[7]], open(f"{tmp}/g2.json", "w"), indent=1)
open(f"{tmp}/p2.sql", "w").write(pred[2] + "\n" + pred[7] + "\n")
EOF
"$SQUINT" eval --gold "$TMP/g2.json" --pred good="$TMP/p2.sql" --db-root "$TMP/db" "${EVAL_BUDGET[@]}" \
    --out "$TMP/records.jsonl" >/dev/null 2>&1
expect_exit 0 "prompt: explain-difference over eval records" -- \
    "$SQUINT" prompt explain-difference --db-root "$TMP/db" "$TMP/records.jsonl"
if check_requests "$TMP/out" 2 explain-difference 2>"$TMP/err"; then ok "prompt: one valid request per counterexample"
else not_ok "prompt: one valid request per counterexample"; tail -3 "$TMP/err"; fi
expect_grep '"custom_id":"explain-difference/item-0/good"' "$TMP/out" "prompt: custom_id names the item and the system"
expect_exit 0 "prompt: explain-difference as text" -- \
    "$SQUINT" prompt explain-difference -f text --db-root "$TMP/db" "$TMP/records.jsonl"
expect_grep "^SELECT title FROM books WHERE pub_year > 2000$" "$TMP/out" "prompt: the prediction is query B"
expect_grep "^What query B returns on it:$" "$TMP/out" "prompt: both results are shown"
expect_grep "^\| book_id \| title " "$TMP/out" "prompt: the counterexample's tables are shown"
{ cat "$TMP/records.jsonl"; head -c 300 "$TMP/records.jsonl"; } >"$TMP/cut.jsonl"
expect_exit 0 "prompt: a last record cut off mid-write" -- \
    "$SQUINT" prompt explain-difference --db-root "$TMP/db" "$TMP/cut.jsonl"
[ "$(wc -l <"$TMP/out")" = 2 ] && grep -q "warning: a last line cut off" "$TMP/err" &&
    ok "prompt: ... is left out with a warning" || not_ok "prompt: ... is left out with a warning"
expect_exit 2 "prompt: explain-difference refuses a file that is not records" -- \
    "$SQUINT" prompt explain-difference --db-root "$TMP/db" $D/dev.json
expect_grep "not a record of squint eval" "$TMP/err" "prompt: ... and says so"

# ---- --metadata: column descriptions in the schema slot ----------------------
cat >"$TMP/meta.json" <<'EOF'
[{"name": "library", "tables": [{"name": "members", "columns": [
  {"name": "city", "original_name": "home city", "description": "where the member lives",
   "value_description": "a town name */ DROP TABLE x; /*"},
  {"name": "email", "original_name": null, "description": "email", "value_description": null}]}]}]
EOF
expect_exit 0 "prompt: --metadata" -- \
    "$SQUINT" prompt sql-to-question --db-root "$TMP/db" --metadata "$TMP/meta.json" $D/dev.json
python3 - "$TMP/out" <<'EOF' && ok "prompt: --metadata: a column's human name, description and values as a comment that cannot be closed early; none where it adds nothing" || not_ok "prompt: --metadata: the column notes"
import json, sqlite3, sys
r = json.loads(open(sys.argv[1]).readline())
user = r["body"]["messages"][1]["content"]
line = [l for l in user.split("\n") if l.strip().startswith("city ")][0]
assert line.strip() == "city TEXT /* home city; where the member lives; a town name * / DROP TABLE x; /* */,", line
assert [l for l in user.split("\n") if l.strip().startswith("email ")][0].strip() == "email TEXT", user
ddl = user.split("CREATE TABLE statements:\n\n")[1].split("\n\nThe ")[0]
sqlite3.connect(":memory:").executescript(ddl)   # the comments leave the statements valid
EOF
expect_exit 2 "prompt: --metadata naming a file that is not dev_metadata.json" -- \
    "$SQUINT" prompt sql-to-question --db-root "$TMP/db" --metadata $D/dev.json $D/dev.json
expect_grep "not BIRD's dev_metadata.json" "$TMP/err" "prompt: ... says so"

# ---- --fixtures: sample rows from squint fixture's witnesses -----------------
"$SQUINT" fixture --gold $D/dev.json --db-root "$TMP/db" --out "$TMP/fx" --limit 2 -q >/dev/null 2>&1
expect_exit 0 "prompt: --fixtures with a schema alone" -- \
    "$SQUINT" prompt sql-to-question --schema $D/schema.sql --fixtures "$TMP/fx" $D/dev.json
python3 - "$TMP/out" "$TMP/fx" <<'EOF' && ok "prompt: --fixtures: each question's sample rows are its witness's; none for a question without one" || not_ok "prompt: --fixtures: sample rows from the witnesses"
import json, sqlite3, sys
users = [json.loads(l)["body"]["messages"][1]["content"] for l in open(sys.argv[1])]
for k, table in ((0, "members"), (1, "books")):
    db = sqlite3.connect(f"{sys.argv[2]}/{k}/00.sqlite")
    first = db.execute(f"SELECT * FROM {table} ORDER BY rowid LIMIT 1").fetchone()
    cell = first[1] if isinstance(first[1], str) else str(first[1])
    assert "The first rows of each table" in users[k] and f"'{cell}'" in users[k], (k, first)
assert all("The first rows of each table" not in u for u in users[2:])
EOF

# ---- conformance: Spider dev and BIRD dev ---------------------------------------------
if [ -f "$C/spider-dev/dev.json" ] && [ -d "$C/spider-dev/database" ]; then
    expect_exit 0 "prompt: sql-to-question over Spider dev" -- \
        "$SQUINT" prompt sql-to-question --db-root "$C/spider-dev/database" "$C/spider-dev/dev.json"
    if check_requests "$TMP/out" 1034 sql-to-question 2>"$TMP/err"; then ok "prompt: Spider dev: 1,034 valid requests"
    else not_ok "prompt: Spider dev: 1,034 valid requests"; tail -3 "$TMP/err"; fi
else
    echo "ok - prompt: Spider dev skipped (no $C/spider-dev)"
fi
if [ -f "$C/bird-dev/dev.json" ] && [ -f "$C/bird-dev/dev_tables.json" ]; then
    expect_exit 0 "prompt: sql-to-question over BIRD dev" -- \
        "$SQUINT" prompt sql-to-question --tables "$C/bird-dev/dev_tables.json" "$C/bird-dev/dev.json"
    if check_requests "$TMP/out" 1534 sql-to-question 2>"$TMP/err"; then ok "prompt: BIRD dev: 1,534 valid requests"
    else not_ok "prompt: BIRD dev: 1,534 valid requests"; tail -3 "$TMP/err"; fi
    expect_exit 0 "prompt: BIRD dev with --metadata" -- \
        "$SQUINT" prompt sql-to-question --tables "$C/bird-dev/dev_tables.json" --metadata "$C/bird-dev/dev_metadata.json" \
        "$C/bird-dev/dev.json"
    python3 - "$TMP/out" <<'EOF' && ok "prompt: BIRD dev: column descriptions in the schema slot" || not_ok "prompt: BIRD dev: column descriptions in the schema slot"
import json, sys
users = [json.loads(l)["body"]["messages"][1]["content"] for l in open(sys.argv[1])]
assert len(users) == 1534
noted = sum("/* " in u for u in users)
assert noted == 1534, noted
assert any("Segment TEXT /* client segment */" in u for u in users)
EOF
    # every item with an evidence has it in its prompt; the others have no section
    if python3 - "$C/bird-dev/dev.json" "$TMP/out" 2>"$TMP/err" <<'EOF'; then
import json, sys
dev = {d["question_id"]: d for d in json.load(open(sys.argv[1]))}
filled = 0
for line in open(sys.argv[2]):
    r = json.loads(line)
    d = dev[int(r["custom_id"].split("/qid-")[1])]
    user = r["body"]["messages"][1]["content"]
    ev = d["evidence"].strip()
    if ev:
        assert "Domain knowledge that comes with this query:\n" + ev + "\n" in user, r["custom_id"]
        filled += 1
    else:
        assert "Domain knowledge" not in user, r["custom_id"]
assert filled == sum(1 for d in dev.values() if d["evidence"].strip()), filled
EOF
        ok "prompt: BIRD dev: the evidence slot filled wherever dev.json has one"
    else
        not_ok "prompt: BIRD dev: the evidence slot filled wherever dev.json has one"; tail -3 "$TMP/err"
    fi
else
    echo "ok - prompt: BIRD dev skipped (no $C/bird-dev)"
fi
