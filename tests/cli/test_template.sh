#!/usr/bin/env bash
# test_template.sh -- squint template extract (docs/squint-template.md):
# usage errors; the template pass in 'squint passes' and 'squint opt';
# the JSON form checked against SQLite (template_check.py: every
# placeholder is a slot's, and the template with its values put back
# returns the query's own rows on a database with data); a benchmark
# file's items carry their db_id and question_id; Spider dev's gold
# (../shared/corpora, SQUINT_CORPORA; skipped without it) checked the
# same way on its databases.  Prints TAP lines.
# run.sh: first (one of the longest: started before the rest)
cd "$(dirname "$0")/../.." || exit 2
. tests/cli/lib.sh
S=tests/golden/template.schema.sql
C=${SQUINT_CORPORA:-../shared/corpora}

# ---- usage ------------------------------------------------------------------
expect_exit 2 "template without a command" -- "$SQUINT" template
expect_grep "a command is needed" "$TMP/err" "... says a command is needed"
expect_exit 2 "template with an unknown command" -- "$SQUINT" template frob
expect_grep "no command 'frob'" "$TMP/err" "... names it"
expect_exit 2 "extract without a schema" -- "$SQUINT" template extract /dev/null
expect_exit 2 "extract with a bad --format" -- "$SQUINT" template extract --format sql --schema $S /dev/null
expect_exit 0 "template extract --help" -- "$SQUINT" template extract --help
expect_grep "--keep-superlatives" "$TMP/out" "... documents --keep-superlatives"

# ---- the pass -----------------------------------------------------------------
expect_exit 0 "squint passes" -- "$SQUINT" passes
expect_grep "^template " "$TMP/out" "... lists the template pass"
echo "SELECT name FROM customer WHERE city = 'Oslo' ORDER BY joined DESC LIMIT 2" >"$TMP/q.sql"
expect_exit 0 "opt --passes template" -- "$SQUINT" opt --passes template --schema $S "$TMP/q.sql"
expect_grep "^--   :value_1  value  = 'Oslo'  column customer.city" "$TMP/out" "... prints the slots"
expect_exit 0 "opt --passes template --format json" -- "$SQUINT" opt --passes template --format json --schema $S "$TMP/q.sql"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); k=[s["kind"] for s in d[0]["template"]["slots"]]; sys.exit(k != ["value","order-col","order-dir","limit"])' "$TMP/out" &&
    ok "... the same slots as JSON" || not_ok "... the same slots as JSON"

# ---- templates against SQLite -------------------------------------------------
python3 - "$TMP/data.sqlite" "$S" <<'EOF'
import sqlite3, sys
con = sqlite3.connect(sys.argv[1])
con.executescript(open(sys.argv[2]).read())
con.executescript("""
INSERT INTO customer VALUES (1,'ann','Paris','2011-02-03',1),(2,'bob','Oslo','2012-07-08',0),
  (3,'cid',NULL,NULL,0),(4,'dee','Paris','2013-01-01',1);
INSERT INTO product VALUES ('A','apple','food',1.5,0.2),('B','book','books',12,1.1),
  ('C','car','toys',30,NULL),('D','dice','toys',2,0.01);
INSERT INTO orders VALUES (1,1,'A','2012-06-01',3,4.5,'paid'),(2,1,'B','2012-06-02 10:00:00',1,12,'sent'),
  (3,2,'C','2013-03-04',2,60,'paid'),(4,4,NULL,'2011-12-31',5,NULL,NULL),(5,2,'D','2012-06-01',7,14,'paid');
""")
con.commit()
EOF
cat tests/golden/template/*.sql tests/golden/template-keep/*.sql tests/golden/template-json/*.sql >"$TMP/all.sql"
expect_exit 0 "extract --format json of every golden query" -- \
    "$SQUINT" template extract --format json --schema $S "$TMP/all.sql"
cp "$TMP/out" "$TMP/all.json"
python3 tests/cli/template_check.py "$TMP/all.json" --db "$TMP/data.sqlite"

# ---- sample -------------------------------------------------------------------------
G=$TMP/gold.sql
cat >"$G" <<'EOF'
SELECT c.name FROM customer c JOIN orders o ON o.customer_id = c.id WHERE o.amount > 10 AND c.city = 'Paris' ORDER BY o.placed DESC LIMIT 5;
SELECT category, avg(price) FROM product WHERE weight < 2 GROUP BY category;
SELECT count(*) FROM orders WHERE placed >= '2012-06-01' AND status = 'paid';
SELECT min(price) FROM product WHERE code = 'A';
SELECT id FROM orders WHERE placed BETWEEN '2011-01-01' AND '2012-12-31' AND qty > 1;
SELECT count(*) FROM orders WHERE placed >= date('now', '-7 days') AND qty > 1;
EOF
D=$TMP/data.sqlite
expect_exit 2 "sample without --out" -- "$SQUINT" template sample --gold "$G" --db "$D"
expect_grep "--out FILE is needed" "$TMP/err" "... says so"
expect_exit 2 "sample without --gold" -- "$SQUINT" template sample --out "$TMP/s.jsonl" --db "$D"
expect_exit 2 "sample with --out the gold" -- "$SQUINT" template sample --gold "$G" --out "$G" --db "$D"
expect_grep "never writes over its inputs" "$TMP/err" "... refused: it is an input"
printf 'my notes\n' >"$TMP/notes.txt"
expect_exit 2 "sample with --out a file it did not write" -- \
    "$SQUINT" template sample --gold "$G" --out "$TMP/notes.txt" --db "$D"
[ "$(cat "$TMP/notes.txt")" = "my notes" ] && ok "... refused, the file untouched" || not_ok "... the file untouched"
expect_exit 1 "sample with a schema and no database" -- \
    "$SQUINT" template sample --gold "$G" --out "$TMP/x.jsonl" --schema $S
expect_grep "no database to sample from" "$TMP/err" "... says there is no database"

R="--reference-date 2013-06-01"
expect_exit 2 "sample with a malformed --reference-date" -- \
    "$SQUINT" template sample --gold "$G" --out "$TMP/x.jsonl" --db "$D" --reference-date 2013-13-01
expect_grep "reference-date takes a UTC date" "$TMP/err" "... says what it takes"
expect_exit 0 "sample --n 10 --seed 3" -- "$SQUINT" template sample --gold "$G" --out "$TMP/s1.jsonl" --db "$D" --n 10 --seed 3 $R
expect_grep "instances, [0-9]+ valid" "$TMP/err" "... a summary on stderr"
"$SQUINT" template extract --format json --db "$D" "$G" >"$TMP/g.json"
python3 tests/cli/template_sample_check.py "$TMP/s1.jsonl" "$TMP/g.json" "$D" 2013-06-01
"$SQUINT" template sample --gold "$G" --out "$TMP/s2.jsonl" --db "$D" --n 10 --seed 3 -q -j 3 $R
cmp -s "$TMP/s1.jsonl" "$TMP/s2.jsonl" && ok "the same seed gives the same file, with -j 3 as with -j 1" ||
    not_ok "the same seed gives the same file, with -j 3 as with -j 1"
# one source alone: the same records as in the whole run; another seed, others
head -n 1 "$G" >"$TMP/gold1.sql"
grep '"source_id":"0"' "$TMP/s1.jsonl" >"$TMP/s1-0.jsonl"
"$SQUINT" template sample --gold "$TMP/gold1.sql" --out "$TMP/s3.jsonl" --db "$D" --n 10 --seed 3 -q $R
cmp -s "$TMP/s1-0.jsonl" "$TMP/s3.jsonl" && ok "a source's instances do not depend on the others" ||
    not_ok "a source's instances do not depend on the others"
"$SQUINT" template sample --gold "$TMP/gold1.sql" --out "$TMP/s3b.jsonl" --db "$D" --n 10 --seed 4 -q $R
cmp -s "$TMP/s3.jsonl" "$TMP/s3b.jsonl" && not_ok "another seed gives another file" || ok "another seed gives another file"
# a run stopped in the middle of a source: its records cut short, the last line half written
n=$(wc -l <"$TMP/s1.jsonl")
head -n $((n - 3)) "$TMP/s1.jsonl" >"$TMP/s4.jsonl"
sed -n "$((n - 2))p" "$TMP/s1.jsonl" | head -c 40 >>"$TMP/s4.jsonl"
expect_exit 0 "a stopped run is resumed" -- "$SQUINT" template sample --gold "$G" --out "$TMP/s4.jsonl" --db "$D" --n 10 --seed 3 $R
cmp -s "$TMP/s1.jsonl" "$TMP/s4.jsonl" && ok "... into the file a whole run writes" || not_ok "... into the file a whole run writes"
expect_exit 0 "a finished run run again" -- "$SQUINT" template sample --gold "$G" --out "$TMP/s4.jsonl" --db "$D" --n 10 --seed 3 $R
expect_grep "6 sources \(6 done before" "$TMP/err" "... does nothing more"
cmp -s "$TMP/s1.jsonl" "$TMP/s4.jsonl" && ok "... and leaves the file as it was" || not_ok "... and leaves the file as it was"
expect_exit 2 "resuming with another seed" -- "$SQUINT" template sample --gold "$G" --out "$TMP/s4.jsonl" --db "$D" --n 10 --seed 9 $R
expect_grep "made with other options \(n=10 seed=3 " "$TMP/err" "... is refused, naming the options"
expect_exit 2 "resuming with another reference date" -- "$SQUINT" template sample --gold "$G" --out "$TMP/s4.jsonl" --db "$D" --n 10 --seed 3
expect_grep "reference-date=2013-06-01; this run" "$TMP/err" "... is refused, naming it"
cmp -s "$TMP/s1.jsonl" "$TMP/s4.jsonl" && ok "... the file untouched" || not_ok "... the file untouched"

# ---- a benchmark file ----------------------------------------------------------
cat >"$TMP/dev.json" <<'EOF'
[{"question_id": 7, "db_id": "shop", "question": "q", "SQL": "SELECT count(*) FROM orders WHERE qty > 2"}]
EOF
mkdir -p "$TMP/root/shop" && cp "$TMP/data.sqlite" "$TMP/root/shop/shop.sqlite"
expect_exit 0 "extract of a BIRD-style file" -- \
    "$SQUINT" template extract --format json --db-root "$TMP/root" "$TMP/dev.json"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))[0]; sys.exit(not (d["db_id"]=="shop" and d["question_id"]==7 and len(d["slots"])==2))' "$TMP/out" &&
    ok "... its items carry db_id and question_id" || not_ok "... its items carry db_id and question_id"

# ---- the witnesses of squint fixture as the data -------------------------------
cat >"$TMP/dev2.json" <<'EOF'
[{"question_id": 7, "db_id": "shop", "question": "q", "SQL": "SELECT count(*) FROM orders WHERE qty > 2 AND status = 'paid'"},
 {"question_id": 9, "db_id": "shop", "question": "q", "SQL": "SELECT category, avg(price) FROM product WHERE weight < 2 GROUP BY category"},
 {"question_id": 11, "db_id": "shop", "question": "q", "SQL": "SELECT name FROM customer WHERE city = 'Oslo'"}]
EOF
"$SQUINT" fixture --gold "$TMP/dev2.json" --schema $S --out "$TMP/fx" --rlimit 20000000 --witness-timeout 0 \
    --timeout 0 --max-mutants 2 >/dev/null 2>&1
rm -rf "$TMP/fx/11"
expect_exit 1 "sample --fixtures, one question without a witness" -- \
    "$SQUINT" template sample --gold "$TMP/dev2.json" --schema $S --fixtures "$TMP/fx" --out "$TMP/fx.jsonl" --n 4
expect_grep "source 11: no witness in --fixtures" "$TMP/err" "... names the question that has none"
python3 - "$TMP/fx.jsonl" "$TMP/fx" <<'EOF' && ok "... each instance ran on its own question's witness" || not_ok "... each instance ran on its own question's witness"
import json, sqlite3, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
assert {r["source_id"] for r in recs} == {"7", "9"}, recs
for r in recs:
    if not r["valid"]:
        continue
    db = sqlite3.connect("file:%s/%s/00.sqlite?mode=ro" % (sys.argv[2], r["source_id"]), uri=True)
    rows = db.execute(r["sql"]).fetchall()
    assert len(rows) == r["result_rows"] and rows, r
    for name, v in r["slots"].items():       # a drawn literal is one of the witness's values
        if v.startswith("'"):
            lit = v[1:-1].replace("''", "'")
            found = any(lit in (row or ()) for t in ("orders", "product", "customer")
                        for row in db.execute("SELECT * FROM " + t).fetchall())
            assert found, (r["id"], v)
assert sum(r["valid"] for r in recs) > 0
EOF

# ---- the suite's other databases tell instances apart before the solver ----------
# 00.sqlite, the witness, holds qty 5 and 7; 01.sqlite also 2 and 3: "qty >= 2"
# and "qty > 2" give the same count on the first and not on the second.
mkdir -p "$TMP/suite/7"
python3 - "$TMP/suite/7" "$S" <<'EOF'
import sqlite3, sys
for name, qtys in (("00", [5, 7]), ("01", [5, 7, 2, 3])):
    con = sqlite3.connect("%s/%s.sqlite" % (sys.argv[1], name))
    con.executescript(open(sys.argv[2]).read())
    for i, q in enumerate(qtys):
        con.execute("INSERT INTO orders VALUES (?, 1, 'P1', ?, ?, ?, 'paid')", (i + 1, "2012-01-0%d" % (i + 1), q, 10.0 * q))
    con.commit()
EOF
echo '[{"question_id": 7, "db_id": "shop", "question": "q", "SQL": "SELECT count(*) FROM orders WHERE qty > 2"}]' >"$TMP/suite.json"
expect_exit 0 "sample --fixtures with a suite of two databases" -- \
    "$SQUINT" template sample --gold "$TMP/suite.json" --schema $S --fixtures "$TMP/suite" --out "$TMP/suite.jsonl" --n 10
python3 - "$TMP/suite.jsonl" "$TMP/suite/7" >"$TMP/check" 2>&1 <<'EOF' && ok "... distinct_by is the costliest proof each needed, checked on both databases ($(cat "$TMP/check"))" || { not_ok "... distinct_by is the costliest proof each needed"; cat "$TMP/check"; }
import collections, json, sqlite3, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
recs = [r for r in recs if r.get("record") == "template-instance"]
dbs = [sqlite3.connect("file:%s/%s.sqlite?mode=ro" % (sys.argv[2], n), uri=True) for n in ("00", "01")]
rows = lambda sql, db: sorted(db.execute(sql).fetchall())
known = ["SELECT count(*) FROM orders WHERE qty > 2"]
cost = {"result": 0, "suite": 1, "counterexample": 2, "variant": 2, "solver": 2}
told = collections.Counter()
for r in recs:
    if not r["valid"]:
        continue
    need = 0
    for k in known:
        if rows(k, dbs[0]) != rows(r["sql"], dbs[0]):
            continue
        need = max(need, 1 if rows(k, dbs[1]) != rows(r["sql"], dbs[1]) else 2)
    if cost[r["distinct_by"]] != need:
        print("instance", r["instance"], r["sql"], r["distinct_by"], "needed", need)
        sys.exit(1)
    told[r["distinct_by"]] += 1
    known.append(r["sql"])
print(" ".join("%s=%d" % kv for kv in sorted(told.items())))
sys.exit(told["suite"] == 0)
EOF

# ---- Spider dev's gold on its databases -----------------------------------------
SP=$C/spider-dev
if [ -f "$SP/dev.json" ] && [ -d "$SP/database" ]; then
    "$SQUINT" template extract --format json --db-root "$SP/database" "$SP/dev.json" >"$TMP/spider.json" 2>"$TMP/err"
    [ -s "$TMP/spider.json" ] && ok "extract of Spider dev's gold" || not_ok "extract of Spider dev's gold"
    python3 tests/cli/template_check.py "$TMP/spider.json" --db-root "$SP/database"
else
    ok "Spider dev's gold: skipped (no $SP)"
fi
