#!/usr/bin/env bash
# test_expand.sh -- squint expand (docs/squint-expand.md): usage errors;
# the text and JSON of seed 001's example queries, every expansion's SQL
# checked against SQLite (expand_check.py: it prepares with its query's
# columns and one JOIN more; on a database, it returns the rows its record
# says, a taken one at least one); the shape classes over the run (--n);
# the execution filter on a database, on a fixture's witness (--fixtures)
# and off (--no-run); a column of the joined table shown (--add-column)
# and a filter on it (--add-filter); the records of --out, resumed;
# the question requests (--requests,
# expand_requests_check.py); -j against -j 1; the linker table and the
# words naming it (--tqa); Spider dev's first items on their databases
# (../shared/corpora, SQUINT_CORPORA; skipped without it).  Prints TAP
# lines.
cd "$(dirname "$0")/../.." || exit 2
. tests/cli/lib.sh
S=tests/golden/expand.schema.sql
Q=tests/golden/expand/001-stages.sql
C=${SQUINT_CORPORA:-../shared/corpora}
check() { python3 tests/cli/expand_check.py "$@" >"$TMP/check" 2>&1; }

# ---- usage ------------------------------------------------------------------
expect_exit 2 "expand without a schema" -- "$SQUINT" expand "$Q"
expect_exit 2 "expand with a bad --format" -- "$SQUINT" expand --format sql --schema $S "$Q"
expect_exit 2 "expand --n -1" -- "$SQUINT" expand --n -1 --schema $S "$Q"
expect_grep "squint expand: --n" "$TMP/err" "... says what --n takes"
expect_exit 0 "expand --help" -- "$SQUINT" expand --help
expect_grep "--fixtures DIR" "$TMP/out" "... documents --fixtures"

# ---- the expansions, without a database -------------------------------------------------
expect_exit 0 "expand seed 001's examples (one per shape)" -- "$SQUINT" expand --schema $S "$Q"
expect_grep "^-- \+ bond: molecule.molecule_id = bond.molecule_id  \(3, 2\) \+0.33$" "$TMP/out" \
    "... the first expansion of the running example, taken"
expect_grep "^SELECT COUNT\(DISTINCT molecule.molecule_id\) FROM molecule JOIN atom ON atom.molecule_id = molecule.molecule_id JOIN bond ON molecule.molecule_id = bond.molecule_id WHERE" \
    "$TMP/out" "... its SQL: bond joined INNER on molecule_id"
expect_grep "^-- - connected: atom.atom_id = connected.atom_id  \(3, 2\) \+0.33: class-full" "$TMP/out" \
    "... the next one of the same shape left for its class"
expect_grep "^-- no expansion: a WITH clause" "$TMP/out" "... a query with no plan says why"
expect_grep "^--   changes the query's result: different$" "$TMP/out" "... whether each taken one changes the result"
expect_grep "none run \(no database\); of the taken" "$TMP/out" "... and the summary says nothing was run, and how many change the result"
expect_exit 0 "expand --no-equiv" -- "$SQUINT" expand --no-equiv --schema $S "$Q"
grep -q "the query's result" "$TMP/out" && not_ok "... decides nothing about the result" ||
    ok "... decides nothing about the result"
expect_exit 2 "expand --bound 0" -- "$SQUINT" expand --bound 0 --schema $S "$Q"
expect_exit 0 "expand --format json --n 0 (every expansion)" -- "$SQUINT" expand --format json --n 0 --schema $S "$Q"
check "$TMP/out" $S 0 && ok "... every expansion prepares with its query's columns and one JOIN more ($(cat "$TMP/check"))" ||
    { not_ok "... every expansion prepares with its query's columns and one JOIN more"; cat "$TMP/check"; }
grep -q "class-full" "$TMP/check" && not_ok "... --n 0 leaves no class full" || ok "... --n 0 leaves no class full"
expect_grep '"equiv": "different on the counterexample of another expansion of the query: ' "$TMP/out" \
    "... some told on the solver's counterexample for another expansion of their query (checked above)"
grep -q "changes=" "$TMP/check" && grep -q "keeps=" "$TMP/check" &&
    ok "... some change the query's result (a counterexample shows it), some keep it" ||
    not_ok "... some change the query's result (a counterexample shows it), some keep it"
cp "$TMP/out" "$TMP/all.json"
expect_exit 0 "expand --format json --n 2" -- "$SQUINT" expand --format json --n 2 --schema $S "$Q"
check "$TMP/out" $S 2 && ok "... at most two of each shape taken ($(cat "$TMP/check"))" ||
    { not_ok "... at most two of each shape taken"; cat "$TMP/check"; }
python3 - "$TMP/all.json" "$TMP/out" <<'PY' && ok "... taken: the first two of each shape, in order" || not_ok "... taken: the first two of each shape, in order"
import collections, json, sys
every = [x for q in json.load(open(sys.argv[1])) for x in q["expansions"] if x["fate"] == "taken"]
two = [x for q in json.load(open(sys.argv[2])) for x in q["expansions"] if x["fate"] == "taken"]
seen, want = collections.Counter(), []
for x in every:
    seen[x["pattern"]] += 1
    if seen[x["pattern"]] <= 2:
        want.append(x["sql"])
sys.exit([x["sql"] for x in two] != want)
PY

# ---- the execution filter ---------------------------------------------------------------
python3 - "$TMP/data.sqlite" "$S" <<'PY'
import sqlite3, sys
con = sqlite3.connect(sys.argv[1])
con.executescript(open(sys.argv[2]).read())
con.executescript("""
INSERT INTO molecule VALUES ('TR000', '-'), ('TR001', '+');
INSERT INTO atom VALUES ('A1', 'TR000', 'cl'), ('A2', 'TR000', 'c'), ('A3', 'TR001', 'o');
INSERT INTO bond VALUES ('B1', 'TR000', '-');
""")
con.commit()
PY
expect_exit 0 "expand --db (a database with no row in connected)" -- \
    "$SQUINT" expand --format json --n 0 --db "$TMP/data.sqlite" "$Q"
check "$TMP/out" $S 0 "$TMP/data.sqlite" && ok "... each run returns the rows its record says ($(cat "$TMP/check"))" ||
    { not_ok "... each run returns the rows its record says"; cat "$TMP/check"; }
grep -q "no-rows=" "$TMP/check" && ok "... an expansion through connected returns no row and is dropped" ||
    not_ok "... an expansion through connected returns no row and is dropped"
expect_exit 0 "expand --add-column --db (a column of each joined table shown)" -- \
    "$SQUINT" expand --format json --n 0 --add-column --db "$TMP/data.sqlite" "$Q"
check "$TMP/out" $S 0 "$TMP/data.sqlite" && ok "... its rows are the join's with one column more, that column's values ($(cat "$TMP/check"))" ||
    { not_ok "... its rows are the join's with one column more, that column's values"; cat "$TMP/check"; }
grep -q "column=" "$TMP/check" && ok "... some expansions show a column" || not_ok "... some expansions show a column"
python3 - "$TMP/out" <<'PY' && ok "... bond_type for bond (no key), none where the query aggregates" || not_ok "... bond_type for bond (no key), none where the query aggregates"
import json, sys
xs = [(q, x) for q in json.load(open(sys.argv[1])) for x in q["expansions"] if x["sql"]]
agg = [x for q, x in xs if "COUNT(" in q["sql"]]
plain = [x for q, x in xs if q["sql"] == "SELECT molecule.label FROM molecule"]
ok = agg and all(x["added_column"] is None and "aggregates" in x["added_column_why"] for x in agg)
ok = ok and any(x["added_column"] == "bond.bond_type" for x in plain)
ok = ok and all(x["join_sql"] is not None for q, x in xs if x["added_column"])
sys.exit(0 if ok else 1)
PY
expect_exit 0 "expand --add-column --add-filter --db (a value of that column kept)" -- \
    "$SQUINT" expand --format json --n 0 --add-column --add-filter --db "$TMP/data.sqlite" "$Q"
check "$TMP/out" $S 0 "$TMP/data.sqlite" && ok "... each value is the column's, every row shows it, the rows are the join's ($(cat "$TMP/check"))" ||
    { not_ok "... each value is the column's, every row shows it, the rows are the join's"; cat "$TMP/check"; }
grep -q "filter=" "$TMP/check" && ok "... some expansions keep a filter" || not_ok "... some expansions keep a filter"
expect_grep "\"added_filter\": \"bond.bond_type = '-'\"" "$TMP/out" \
    "... the counting query filters on the bond type its joined rows hold"
expect_grep "the expansion's rows hold no value of connected" "$TMP/out" "... and says why where there is none"
expect_exit 0 "expand --add-filter --no-run" -- "$SQUINT" expand --add-filter --no-run --schema $S "$Q"
expect_grep "^--   no filter added: no database to draw its value from$" "$TMP/out" "... needs a database, and says so"
expect_exit 0 "expand --db --no-run" -- "$SQUINT" expand --no-run --n 0 --db "$TMP/data.sqlite" "$Q"
expect_grep "none run \(--no-run\); of the taken" "$TMP/out" "... runs nothing"
# a benchmark item and its fixture's witness (DIR/<question_id>/00.sqlite)
python3 - "$TMP/gold.json" <<'PY'
import json, sys
json.dump([{"question_id": 7, "db_id": "tox", "SQL": "SELECT molecule.label FROM molecule WHERE molecule.molecule_id = 'TR000'"}],
          open(sys.argv[1], "w"))
PY
mkdir -p "$TMP/fx/7" && cp "$TMP/data.sqlite" "$TMP/fx/7/00.sqlite"
expect_exit 0 "expand --fixtures (the item's witness)" -- \
    "$SQUINT" expand --format json --n 0 --schema $S --fixtures "$TMP/fx" "$TMP/gold.json"
check "$TMP/out" $S 0 "$TMP/data.sqlite" && ok "... run on the witness: the rows its records say ($(cat "$TMP/check"))" ||
    { not_ok "... run on the witness"; cat "$TMP/check"; }
python3 -c 'import json,sys; q=json.load(open(sys.argv[1]))[0]; sys.exit(not (q["question_id"] == 7 and all(x["rows"] is not None for x in q["expansions"])))' "$TMP/out" &&
    ok "... every expansion of question 7 was run" || not_ok "... every expansion of question 7 was run"
rm "$TMP/fx/7/00.sqlite"
expect_exit 0 "expand --fixtures without the item's witness" -- \
    "$SQUINT" expand --n 0 --schema $S --fixtures "$TMP/fx" "$TMP/gold.json"
expect_grep "^-- not run: no witness in --fixtures for it" "$TMP/out" "... says so, and runs nothing"

# ---- verdicts told on the database and on its variants -----------------------------------
# data.sqlite: one bond for TR000, needed by no reference, so the database without it
# tells the join that drops rows; data2.sqlite: that bond needed by a connected row, so
# only the database with each bond twice tells (the join multiplies rows).  A query with
# a LIMIT is told on a database only by its count of rows (which rows it keeps depends on
# ties, how many does not).
cp "$TMP/data.sqlite" "$TMP/data2.sqlite"
python3 -c 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute("INSERT INTO connected VALUES (\x27A1\x27, \x27A2\x27, \x27B1\x27)"); c.commit()' "$TMP/data2.sqlite"
printf '%s\n' "SELECT molecule.label FROM molecule WHERE molecule.molecule_id = 'TR000';" \
    "SELECT molecule.label FROM molecule ORDER BY molecule.label LIMIT 1;" >"$TMP/told.sql"
for d in data data2; do
    expect_exit 0 "expand --db $d.sqlite (verdicts told on a database)" -- \
        "$SQUINT" expand --format json --n 0 --db "$TMP/$d.sqlite" "$TMP/told.sql"
    cp "$TMP/out" "$TMP/told-$d.json"
    check "$TMP/out" $S 0 "$TMP/$d.sqlite" && ok "... each counterexample keeps the foreign keys and gives other rows ($(cat "$TMP/check"))" ||
        { not_ok "... each counterexample keeps the foreign keys and gives other rows"; cat "$TMP/check"; }
done
python3 - "$TMP/told-data.json" "$TMP/told-data2.json" <<'PY' && ok "... bond's join told without the unneeded bond, then with each bond twice; the LIMIT query by counts" || not_ok "... bond's join told without the unneeded bond, then with each bond twice; the LIMIT query by counts"
import json, sys
def verdict(path, qi, table):
    q = json.load(open(path))[qi]
    return [x["equiv"] for x in q["expansions"] if x["added_table"] == table and x["fate"] == "taken"]
ok = verdict(sys.argv[1], 0, "bond") == ["different on the database without the rows of bond no foreign key needs: " + v.split(": ", 1)[1] for v in verdict(sys.argv[1], 0, "bond")]
ok = ok and verdict(sys.argv[2], 0, "bond")[0].startswith("different on the database with each row of bond twice: ")
ok = ok and verdict(sys.argv[1], 0, "atom")[0].startswith("different on the database: ")
limit = [x["equiv"] for x in json.load(open(sys.argv[1]))[1]["expansions"] if x["fate"] == "taken"]
ok = ok and limit and all(v.startswith("different on") and ": 1 rows against 0 (" in v for v in limit)
sys.exit(0 if ok else 1)
PY

# ---- records (--out) and resuming -------------------------------------------------------
expect_exit 0 "expand --out (a record per expansion, as JSON Lines)" -- \
    "$SQUINT" expand --n 1 --out "$TMP/x.jsonl" --requests "$TMP/xr.jsonl" --db "$TMP/data.sqlite" "$Q"
[ ! -s "$TMP/out" ] && ok "... writes nothing on standard output" || not_ok "... writes nothing on standard output"
expect_grep "^-- [0-9]+ queries, " "$TMP/err" "... its summary on standard error"
"$SQUINT" expand --n 1 --format json --requests "$TMP/jr.jsonl" --db "$TMP/data.sqlite" "$Q" >"$TMP/x.json" 2>/dev/null
python3 - "$TMP/x.jsonl" "$TMP/x.json" <<'PY' && ok "... the records are the JSON output's expansions, with the format's fields" || not_ok "... the records are the JSON output's expansions, with the format's fields"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
want = [(q, x) for q in json.load(open(sys.argv[2])) for x in q["expansions"]]
fields = ["record", "id", "source_id", "expansion", "of", "options", "db_id", "question_id", "original_sql", "sql",
          "added_table", "join_conditions", "fate", "shape", "delta_avg_degree", "cyclic", "changes_original_result",
          "counterexample", "question_request_id"]
ok = len(recs) == len(want) and all(f in r for r in recs for f in fields)
for r, (q, x) in zip(recs, want):
    ok = ok and r["record"] == "expansion" and r["original_sql"] == q["sql"] and r["id"] == "%s/x-%d" % (r["source_id"], r["expansion"])
    ok = ok and all(r[k] == x[k] for k in x) and r["of"] == len(q["expansions"])
sys.exit(0 if ok and recs else 1)
PY
cp "$TMP/x.jsonl" "$TMP/full.jsonl"
cp "$TMP/xr.jsonl" "$TMP/fullr.jsonl"
cmp -s "$TMP/xr.jsonl" "$TMP/jr.jsonl" && ok "... the same requests as without --out" || not_ok "... the same requests as without --out"
# a run stopped after the first query's records, in the middle of a line of the second
python3 - "$TMP/x.jsonl" <<'PY'
import json, sys
lines = open(sys.argv[1]).read().split("\n")
first = [l for l in lines if l and json.loads(l)["source_id"] == json.loads(lines[0])["source_id"]]
rest = lines[len(first)]
open(sys.argv[1], "w").write("\n".join(first) + "\n" + rest[: len(rest) // 2])
PY
expect_exit 0 "expand --out again after a stopped run" -- \
    "$SQUINT" expand --n 1 --out "$TMP/x.jsonl" --requests "$TMP/xr.jsonl" --db "$TMP/data.sqlite" "$Q"
expect_grep "^-- 1 query skipped: its records are all in" "$TMP/err" "... skips the query whose records are all there"
cmp -s "$TMP/x.jsonl" "$TMP/full.jsonl" && ok "... and ends with the same records, the shapes taken before counted again" ||
    { not_ok "... and ends with the same records, the shapes taken before counted again"; diff "$TMP/x.jsonl" "$TMP/full.jsonl" | head -5; }
python3 - "$TMP/xr.jsonl" "$TMP/fullr.jsonl" <<'PY' && ok "... and the same requests, none twice" || not_ok "... and the same requests, none twice"
import json, sys
a = [json.loads(l)["custom_id"] for l in open(sys.argv[1])]
b = [json.loads(l)["custom_id"] for l in open(sys.argv[2])]
sys.exit(0 if sorted(a) == sorted(b) and len(set(a)) == len(a) else 1)
PY
expect_exit 0 "expand --out once more (every query done)" -- \
    "$SQUINT" expand --n 1 --out "$TMP/x.jsonl" --requests "$TMP/xr.jsonl" --db "$TMP/data.sqlite" "$Q"
cmp -s "$TMP/x.jsonl" "$TMP/full.jsonl" && ok "... changes nothing" || not_ok "... changes nothing"
expect_exit 2 "expand --out with other options than its records'" -- \
    "$SQUINT" expand --n 2 --out "$TMP/x.jsonl" --db "$TMP/data.sqlite" "$Q"
expect_grep "holds records made with other options" "$TMP/err" "... says so"
cmp -s "$TMP/x.jsonl" "$TMP/full.jsonl" && ok "... and leaves them" || not_ok "... and leaves them"
echo "my notes" >"$TMP/notes2.txt"
expect_exit 2 "expand --out over a file squint did not write" -- "$SQUINT" expand --out "$TMP/notes2.txt" --schema $S "$Q"
[ "$(cat "$TMP/notes2.txt")" = "my notes" ] && ok "... refuses, and leaves it as it was" || not_ok "... refuses, and leaves it as it was"
expect_exit 2 "expand --out naming its input" -- "$SQUINT" expand --out "$Q" --schema $S "$Q"

# ---- -j: the searches in worker processes, the same output -------------------------------------
for fmt in text json; do
    "$SQUINT" expand --n 0 --format $fmt --requests "$TMP/j1r.jsonl" --db "$TMP/data.sqlite" "$Q" >"$TMP/j1.$fmt" 2>/dev/null
    expect_exit 0 "expand -j 3 --format $fmt" -- \
        "$SQUINT" expand -j 3 --n 0 --format $fmt --requests "$TMP/j3r.jsonl" --db "$TMP/data.sqlite" "$Q"
    cmp -s "$TMP/out" "$TMP/j1.$fmt" && cmp -s "$TMP/j1r.jsonl" "$TMP/j3r.jsonl" &&
        ok "... writes what -j 1 writes, and the same requests" ||
        { not_ok "... writes what -j 1 writes, and the same requests"; diff "$TMP/out" "$TMP/j1.$fmt" | head -5; }
done
grep -q "change the query's result" "$TMP/j1.text" && ok "... (with verdicts to write)" || not_ok "... (with verdicts to write)"
rm -f "$TMP/j3.jsonl" "$TMP/j3r.jsonl"
expect_exit 0 "expand -j 2 --out" -- \
    "$SQUINT" expand -j 2 --n 1 --out "$TMP/j3.jsonl" --requests "$TMP/j3r.jsonl" --db "$TMP/data.sqlite" "$Q"
cmp -s "$TMP/j3.jsonl" "$TMP/full.jsonl" && cmp -s "$TMP/j3r.jsonl" "$TMP/fullr.jsonl" &&
    ok "... the records and requests of -j 1, in order" || not_ok "... the records and requests of -j 1, in order"
expect_grep "of the taken, [0-9]+ change the query's result" "$TMP/err" "... and its summary counts the workers' verdicts"
grep -o "of the taken.*" "$TMP/err" >"$TMP/j3.sum"
"$SQUINT" expand --n 1 --out "$TMP/j1b.jsonl" --db "$TMP/data.sqlite" "$Q" 2>&1 >/dev/null | grep -o "of the taken.*" >"$TMP/j1.sum"
cmp -s "$TMP/j1.sum" "$TMP/j3.sum" && ok "... the same counts as -j 1" || not_ok "... the same counts as -j 1"
expect_exit 2 "expand -j 0" -- "$SQUINT" expand -j 0 --schema $S "$Q"
# a worker that dies (SQUINT_TEST_SOLVER_FAULT, for the query reading e.name): its query is
# null in the JSON, said on stderr, and the exit status 1; the others as -j 1 writes them
SQUINT_TEST_SOLVER_FAULT=segv:"e.name FROM emp" expect_exit 1 "expand -j 2, a worker that crashes" -- \
    "$SQUINT" expand -j 2 --n 0 --format json --requests "$TMP/jcr.jsonl" --db "$TMP/data.sqlite" "$Q"
expect_grep "^squint expand: query .*: its process (crashed|was killed|ended by signal)" "$TMP/err" "... says which query's process ended, and how"
python3 - "$TMP/out" "$TMP/j1.json" <<'PY' && ok "... its query null, every other as -j 1 writes it" || not_ok "... its query null, every other as -j 1 writes it"
import json, sys
got, want = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
dead = [i for i, q in enumerate(got) if q is None]
ok = len(got) == len(want) and len(dead) == 1 and "e.name FROM emp" in want[dead[0]]["sql"]
ok = ok and all(g == w for g, w in zip(got, want) if g is not None)
sys.exit(0 if ok else 1)
PY

# ---- question requests (--requests) -------------------------------------------------------
python3 - "$TMP/qgold.json" <<'PY'
import json, sys
json.dump([{"question_id": 3, "db_id": "tox", "question": "How many molecules with chlorine are not carcinogenic?",
            "evidence": "label = '-' means not carcinogenic; element 'cl' is chlorine",
            "SQL": "SELECT COUNT(DISTINCT molecule.molecule_id) FROM molecule JOIN atom ON atom.molecule_id = molecule.molecule_id WHERE molecule.label = '-' AND atom.element = 'cl'"},
           {"question_id": 4, "db_id": "tox", "question": "List the labels of the molecules.", "evidence": "",
            "SQL": "SELECT label FROM molecule"}], open(sys.argv[1], "w"))
PY
expect_exit 0 "expand --requests (a question and evidence asked for each taken expansion)" -- \
    "$SQUINT" expand --format json --n 0 --requests "$TMP/req.jsonl" --schema $S "$TMP/qgold.json"
expect_grep "squint expand: [0-9]+ question requests written to" "$TMP/err" "... says how many it wrote"
python3 tests/cli/expand_requests_check.py "$TMP/out" "$TMP/req.jsonl" "$TMP/qgold.json" >"$TMP/check" 2>&1 &&
    ok "... one request per taken expansion, with both queries, the join, the question and evidence ($(cat "$TMP/check"))" ||
    { not_ok "... one request per taken expansion, with both queries, the join, the question and evidence"; cat "$TMP/check"; }
expect_exit 0 "expand --requests in text" -- "$SQUINT" expand --requests "$TMP/req2.jsonl" --model m1 --schema $S "$TMP/qgold.json"
expect_grep "^--   question request: expand-question/qid-3/x-[0-9]+$" "$TMP/out" "... names each request under its expansion"
grep -q '"model":"m1"' "$TMP/req2.jsonl" && ok "... --model names the model" || not_ok "... --model names the model"
echo "my notes" >"$TMP/notes.txt"
expect_exit 2 "expand --requests over a file squint did not write" -- \
    "$SQUINT" expand --requests "$TMP/notes.txt" --schema $S "$TMP/qgold.json"
expect_grep "holds other things than requests" "$TMP/err" "... refuses, and says why"
[ "$(cat "$TMP/notes.txt")" = "my notes" ] && ok "... and leaves it as it was" || not_ok "... and leaves it as it was"
expect_exit 2 "expand --requests naming its input" -- \
    "$SQUINT" expand --force --requests "$TMP/qgold.json" --schema $S "$TMP/qgold.json"
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$TMP/qgold.json" && ok "... the input is untouched" ||
    not_ok "... the input is untouched"
expect_exit 0 "expand --requests over requests it wrote before" -- \
    "$SQUINT" expand --requests "$TMP/req2.jsonl" --schema $S "$TMP/qgold.json"
expect_exit 2 "squint prompt expand-question" -- "$SQUINT" prompt expand-question --schema $S "$TMP/qgold.json"
expect_grep "squint expand --requests" "$TMP/err" "... says that squint expand writes its requests"
expect_exit 0 "squint prompt --list" -- "$SQUINT" prompt --list
expect_grep "^expand-question " "$TMP/out" "... lists expand-question"

# ---- --tqa: the linker table and the words that name it -------------------------------------
cp tests/cli/fixtures/tqa/movies.sql "$TMP/movies.sql"
python3 - "$TMP/tqa.json" <<'PY'
import json, sys
json.dump([{"question_id": 1, "db_id": "movies",
            "question": "Which actors played characters in movies that won an award?",
            "evidence": "the character's name is CharacterName; 'characters' is a value",
            "SQL": "SELECT a.Name FROM actor a JOIN characters c ON a.ActorID = c.ActorID "
                   "JOIN movie m ON m.MovieID = c.MovieID JOIN award w ON w.MovieID = m.MovieID"},
           {"question_id": 2, "db_id": "movies", "question": "Name the movies.", "evidence": "",
            "SQL": "SELECT Title FROM movie JOIN award ON award.MovieID = movie.MovieID"}], open(sys.argv[1], "w"))
PY
expect_exit 0 "expand --tqa --format json" -- "$SQUINT" expand --tqa --format json --schema "$TMP/movies.sql" "$TMP/tqa.json"
python3 - "$TMP/out" "$TMP/tqa.json" >"$TMP/check" 2>&1 <<'PY' && ok "... the hub of four tables (a tie the schema graph keeps), the words naming it at their offsets, quoted text and column names left out of the evidence" || { not_ok "... the linker table and its words"; cat "$TMP/check"; }
import json, sys
got = json.load(open(sys.argv[1]))
items = json.load(open(sys.argv[2]))
a, b = got
assert a["linker_table"] == "characters" and a["tie_broken_by_schema"], a
assert [s["text"] for s in a["segments"]] == ["characters"], a["segments"]
for key, text in (("question_refs", items[0]["question"]), ("evidence_refs", items[0]["evidence"])):
    for m in a[key]:
        assert text[m["start"]:m["end"]] == m["text"], (key, m)
assert [m["text"] for m in a["question_refs"]] == ["characters"], a["question_refs"]
assert [m["text"] for m in a["evidence_refs"]] == ["character"], a["evidence_refs"]
assert b["linker_table"] is None and "three tables or fewer" in b["why"], b
PY
expect_exit 0 "expand --tqa in text" -- "$SQUINT" expand --tqa --schema "$TMP/movies.sql" "$TMP/tqa.json"
expect_grep '^-- linker table: characters \(a tie broken by the schema graph\); segments: characters$' "$TMP/out" "... names the linker table and its segments"
expect_grep '^-- question: "characters" \(characters\)$' "$TMP/out" "... and the words of the question"
expect_grep "^-- 2 queries, 1 with a linker table: 1 with a word of the question that names it" "$TMP/out" "... and sums up"
expect_exit 2 "expand --tqa --out" -- "$SQUINT" expand --tqa --out "$TMP/t.jsonl" --schema "$TMP/movies.sql" "$TMP/tqa.json"
expect_grep "does not go with it" "$TMP/err" "... says --out does not go with --tqa"

# ---- Spider dev's first items on their databases -------------------------------------------
if [ -f "$C/spider-dev/dev.json" ] && [ -d "$C/spider-dev/database" ]; then
    python3 -c 'import json,sys; json.dump(json.load(open(sys.argv[1]))[:60], open(sys.argv[2], "w"))' \
        "$C/spider-dev/dev.json" "$TMP/spider.json"
    expect_exit 0 "expand Spider dev's first 60 items on their databases" -- \
        "$SQUINT" expand --format json --n 3 --db-root "$C/spider-dev/database" "$TMP/spider.json"
    python3 - "$TMP/out" "$C/spider-dev/database" >"$TMP/check" 2>&1 <<'PY' && ok "... every expansion prepares and runs as its record says ($(cat "$TMP/check"))" || { not_ok "... every expansion prepares and runs as its record says"; cat "$TMP/check"; }
import json, sqlite3, sys
n = bad = told = nulled = counted = 0
for q in json.load(open(sys.argv[1])):
    con = sqlite3.connect("file:%s/%s/%s.sqlite?mode=ro" % (sys.argv[2], q["db_id"], q["db_id"]), uri=True)
    for x in q["expansions"]:
        if x["sql"] is None or x["rows"] is None:
            continue
        n += 1
        got = con.execute(x["sql"]).fetchall()
        if len(got) != x["rows"] or (x["fate"] == "taken") != (len(got) > 0):
            bad += 1
            print("wrong:", x["sql"], len(got), x["rows"], x["fate"])
        if x.get("changes_original_result") is False and sorted(map(repr, got)) != sorted(map(repr, con.execute(q["sql"]).fetchall())):
            bad += 1
            print("said to keep the result, other rows:", x["sql"])
        if x.get("changes_original_result") is True:
            told += x["equiv"].startswith("different on the database: ")
            nulled += "NULL in every row: " in x["equiv"]
            counted += " rows against " in x["equiv"]
            cx = sqlite3.connect(":memory:")
            cx.executescript(x["counterexample"])
            try:
                broken = cx.execute("PRAGMA foreign_key_check").fetchall()
            except sqlite3.Error:  # a reference to no key: SQLite cannot check it
                broken = []
            if broken:
                bad += 1
                print("a counterexample that breaks a foreign key:", x["sql"])
            a, b = cx.execute(q["sql"]).fetchall(), cx.execute(x["sql"]).fetchall()
            if " rows against " in x["equiv"] and len(a) == len(b):
                bad += 1
                print("said to change the result's count, the same count on its counterexample:", x["sql"])
            if sorted(map(repr, a)) == sorted(map(repr, b)) and (" ORDER BY " not in q["sql"] or a == b):
                bad += 1
                print("said to change the result, same rows on its counterexample:", x["sql"])
print("%d expansions run, %d changes told on the database, %d on it with a column of a join condition NULL, "
      "%d by the count of rows of a query with a LIMIT" % (n, told, nulled, counted))
sys.exit(bad > 0 or n == 0 or told == 0 or nulled == 0 or counted == 0)
PY
else
    ok "# SKIP Spider dev: no $C/spider-dev"
fi
