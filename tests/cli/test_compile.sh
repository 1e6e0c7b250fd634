#!/usr/bin/env bash
# test_compile.sh -- squint compile (issue 22, first part): annotated query
# files into a typed JSON manifest.  Prints TAP lines.
#   - each inference rule, checked in the manifest: parameters numbered as
#     SQLite numbers them (?, ?N, :name, @name), named and typed from a
#     comparison, IN, BETWEEN, LIKE, LIMIT and OFFSET; result columns with
#     their types, nullability (LEFT JOIN, max() of an empty input,
#     count(*), coalesce, CASE without ELSE) and table columns, through a
#     subquery, GROUP BY keys and a compound;
#   - the names SQLite gives result columns, checked against SQLite itself
#     (python3's sqlite3 module): E0599 never fires on correct input;
#   - every mistake of an annotated file with its code and place, and
#     nothing written; an existing file not ours is not replaced;
#   - Spider dev and BIRD dev (when ../shared/corpora is there): every gold
#     query compiles and SQLite agrees on every result column.
cd "$(dirname "$0")/../.." || exit 2
. tests/cli/lib.sh
F=tests/cli/fixtures/compile
S=examples/eval-demo/schema.sql
C=${SQUINT_CORPORA:-../shared/corpora}
if ! command -v python3 >/dev/null; then echo "ok - compile: skipped (no python3)"; exit 0; fi

expect_exit 0 "compile: the library queries" -- "$SQUINT" compile --schema $S --out "$TMP" --name library $F/library.sql
expect_grep "7 queries written to" "$TMP/err" "compile: ... 7 queries in the manifest"
if python3 - "$TMP/queries.json" $S 2>"$TMP/check.err" <<'PY'; then ok "compile: every inference rule, and SQLite's own column names"; else not_ok "compile: the manifest's inferences"; tail -5 "$TMP/check.err"; fi
import json, sqlite3, sys
m = json.load(open(sys.argv[1]))
assert m["squint_compile"] == 3 and m["package"] == "library"
q = {x["name"]: x for x in m["queries"]}
def P(name): return [(p["index"], p["name"], p["written"], p["type"], p["nullable"], p["table"], p["column"], p["inferred_from"]) for p in q[name]["params"]]
def C(name): return [(c["name"], c["type"], c["nullable"], c["table"], c["column"]) for c in q[name]["columns"]]
assert q["GetAuthor"]["cmd"] == ":one" and q["GetAuthor"]["line"] == 2
assert P("GetAuthor") == [(1, "author_id", "?", "INTEGER", False, "authors", "author_id", "comparison")]
assert C("GetAuthor") == [("author_id", "INTEGER", False, "authors", "author_id"), ("name", "TEXT", False, "authors", "name"),
                          ("country", "TEXT", True, "authors", "country")]
assert P("ListBooksByAuthor") == [(1, "since", ":since", "INTEGER", False, "books", "pub_year", "comparison"),
                                  (2, "p2", "?", "TEXT", False, None, None, "like"),
                                  (3, "limit", "?", "INTEGER", False, None, None, "limit"),
                                  (4, "offset", "?", "INTEGER", False, None, None, "limit")], P("ListBooksByAuthor")
assert C("ListBooksByAuthor") == [("title", "TEXT", False, "books", "title"), ("price", "REAL", True, "books", "price"),
                                  ("author", "TEXT", True, "authors", "name")]   # LEFT JOIN: nullable
assert [p[1] for p in P("Stats")] == ["genre", "genre_2"] and P("Stats")[0][7] == "in"
assert C("Stats") == [("count(*)", "INTEGER", False, None, None), ("max(pages)", "INTEGER", True, None, None),
                      ("avg(price)", "REAL", True, None, None), ("latest", "INTEGER", False, None, None)], C("Stats")
assert [p[:4] for p in P("Loans")] == [(1, "from", "@from", "TEXT"), (2, "to", "@to", "TEXT")] and P("Loans")[0][7] == "between"
assert C("Loans")[2] == ("state", "TEXT", True, None, None)   # CASE without ELSE
# ?2 ?1 ? :g :g -> 2, 1, 3, 4 (the name keeps its number)
assert [(p[0], p[1], p[2]) for p in P("Numbering")] == [(1, "price", "?1"), (2, "pages", "?2"), (3, "pub_year", "?"), (4, "g", ":g")], P("Numbering")
assert C("FromSubquery") == [("name", "TEXT", False, "authors", "name"), ("n", "INTEGER", False, None, None)], C("FromSubquery")
assert C("Compound")[0][0] == "name" and P("Compound")[0][1:4] == ("pattern", ":pattern", "TEXT")
db = sqlite3.connect(":memory:")
db.executescript(open(sys.argv[2]).read())
for x in m["queries"]:   # the names SQLite gives, as the manifest says
    st = db.execute(x["sql"], [0] * len(x["params"]))
    assert [d[0] for d in st.description] == [c["name"] for c in x["columns"]], (x["name"], st.description)
PY

# ---- INSERT, UPDATE, DELETE ----------------------------------------------------
expect_exit 0 "compile: INSERT, UPDATE, DELETE" -- "$SQUINT" compile --schema $S --out "$TMP/dml" $F/dml.sql
if python3 - "$TMP/dml/queries.json" $S 2>"$TMP/check.err" <<'PY'; then ok "compile: DML parameters, RETURNING columns, sqlc macros; SQLite runs each"; else not_ok "compile: DML inferences"; tail -5 "$TMP/check.err"; fi
import json, re, sqlite3, sys
m = json.load(open(sys.argv[1]))
q = {x["name"]: x for x in m["queries"]}
def P(name): return [(p["index"], p["name"], p["type"], p["nullable"], p["table"], p["column"], p["inferred_from"]) for p in q[name]["params"]]
def C(name): return [(c["name"], c["type"], c["nullable"], c["table"], c["column"]) for c in q[name]["columns"]]
# INSERT: a value's parameter takes its column's type and nullability
assert P("AddAuthor") == [(1, "name", "TEXT", False, "authors", "name", "assignment"),
                          (2, "country", "TEXT", True, "authors", "country", "assignment"),
                          (3, "birth_year", "INTEGER", True, "authors", "birth_year", "assignment")], P("AddAuthor")
assert C("AddAuthor") == [] and q["AddAuthor"]["sql"].endswith("VALUES (?1, ?2, ?3)")
# RETURNING: the table's columns as declared (the rowid alias is never NULL)
assert C("AddBookReturning") == [("book_id", "INTEGER", False, "books", "book_id"), ("title", "TEXT", False, "books", "title"),
                                 ("pages", "INTEGER", True, "books", "pages"), ("price", "REAL", True, "books", "price")]
assert P("AddBookReturning")[2][:3] == (3, "pages", "INTEGER") and P("AddBookReturning")[2][6] == "arithmetic"
# two rows: the second row's parameter is the column's too, named apart
assert [p[1] for p in P("AddTwoMembers")] == ["name", "join_date", "name_3"] and P("AddTwoMembers")[2][5] == "name"
# UPDATE: SET's value, arithmetic with the column, WHERE's comparison
assert P("RenameAuthor") == [(1, "name", "TEXT", False, "authors", "name", "assignment"),
                             (2, "birth_year", "INTEGER", False, "authors", "birth_year", "arithmetic"),
                             (3, "id", "INTEGER", False, "authors", "author_id", "comparison")], P("RenameAuthor")
# sqlc.narg is nullable, sqlc.slice is a list of the IN's column type
assert P("ReturnAll") == [(1, "returned", "TEXT", True, "loans", "return_date", "assignment"),
                          (2, "ids", "INTEGER", False, "loans", "loan_id", "in")], P("ReturnAll")
assert q["ReturnAll"]["params"][1]["slice"] is True and "IN (/*SLICE:ids*/?2)" in q["ReturnAll"]["sql"]
assert [c[0] for c in C("ReturnAll")] == ["loan_id", "book_id", "member_id", "loan_date", "return_date"]
assert C("ReturnAll")[4][2] is True and C("ReturnAll")[0][2] is False
assert P("DropLoans")[1][:3] == (2, "before", "TEXT") and q["DropLoans"]["params"][1]["written"] == "sqlc.arg(before)"
# UPSERT: excluded.name is typed as name; NULL into the rowid alias picks a rowid
assert P("UpsertAuthor")[0][:4] == (1, "author_id", "INTEGER", True) and P("UpsertAuthor")[2][2] == "TEXT"
assert P("UpsertAuthor")[3][:4] == (4, "country", "TEXT", True)
assert C("UpsertAuthor") == [("id", "INTEGER", False, "authors", "author_id"), ("name", "TEXT", False, "authors", "name"),
                             ("country", "TEXT", True, "authors", "country")]
# WITH ... INSERT ... SELECT: the CTE's parameter, and a SELECT column's
assert P("CopyBooks") == [(1, "pub_year", "INTEGER", False, "books", "pub_year", "comparison"),
                          (2, "author_id", "INTEGER", True, "books", "author_id", "assignment")], P("CopyBooks")
assert P("MoveLoans") == [(1, "email", "TEXT", False, "members", "email", "comparison"),
                          (2, "book_id", "INTEGER", False, "loans", "book_id", "comparison")], P("MoveLoans")
# every statement runs on SQLite as the manifest gives it, a slice expanded
db = sqlite3.connect(":memory:")
db.executescript(open(sys.argv[2]).read())
db.execute("INSERT INTO authors VALUES (1, 'A', NULL, 1900)")
db.execute("INSERT INTO members VALUES (1, 'M', NULL, '2020-01-01', 'm@x')")
db.execute("INSERT INTO books VALUES (1, 'B', 1, 'novel', 1950, 10, 1.5)")
db.execute("INSERT INTO loans VALUES (1, 1, 1, '2020-02-02', NULL), (2, 1, 1, '2020-03-03', NULL)")
vals = {"INTEGER": 1, "TEXT": "2021-01-01", "REAL": 1.0}
for x in m["queries"]:
    sql, args = x["sql"], {}
    top = max([p["index"] for p in x["params"]] + [0])
    for p in x["params"]:
        if p.get("slice"):   # two values: ?N and one more number
            sql = sql.replace("/*SLICE:%s*/?%d" % (p["name"], p["index"]), "?%d, ?%d" % (p["index"], top + 1))
            args[top + 1] = 2
        args[p["index"]] = vals[p["type"]] if p["type"] in vals else None
    seq = [args.get(i) for i in range(1, max(args) + 1)] if args else []
    st = db.execute(sql, seq)
    rows = st.fetchall()
    assert [d[0] for d in st.description or []] == [c["name"] for c in x["columns"]], (x["name"], st.description)
    if x["name"] == "ReturnAll":
        assert sorted(r[0] for r in rows) == [1, 2], rows   # the slice reached both loans
PY
cat >"$TMP/baddml.sql" <<'EOF2'
-- name: NoColumn :exec
INSERT INTO authors (name, shoe_size) VALUES (?, ?);
-- name: Short :exec
INSERT INTO authors (name, country) VALUES (?);
-- name: ShortAll :exec
INSERT INTO authors VALUES (1, 'x');
-- name: SetNoColumn :exec
UPDATE authors SET shoe_size = 1;
-- name: SliceAlone :many
SELECT name FROM authors WHERE author_id = sqlc.slice(ids);
-- name: NoTable :exec
DELETE FROM shelves WHERE id = ?;
EOF2
expect_exit 1 "compile: DML mistakes exit 1" -- "$SQUINT" compile --schema $S --out "$TMP/baddml" "$TMP/baddml.sql"
expect_grep "baddml.sql:2:28: error\[E0302\]: table authors has no column named shoe_size" "$TMP/err" "compile: an INSERT column the table lacks (E0302)"
expect_grep "baddml.sql:4:37: error\[E0310\]: 1 values for 2 columns" "$TMP/err" "compile: a row short of values (E0310)"
expect_grep "baddml.sql:6:21: error\[E0310\]: table authors has 4 columns but 2 values were supplied" "$TMP/err" "compile: ... without a column list, as SQLite says it"
expect_grep "baddml.sql:8:20: error\[E0302\]: table authors has no column named shoe_size" "$TMP/err" "compile: a SET column the table lacks (E0302)"
expect_grep "baddml.sql:10:44: error\[E0506\]: sqlc.slice\(\) stands for a list" "$TMP/err" "compile: sqlc.slice outside IN (E0506)"
expect_grep "baddml.sql:12:13: error\[E0301\]: no such table: shelves" "$TMP/err" "compile: a DML target the schema lacks (E0301)"
"$SQUINT" parse -q -e "SELECT sqlc.arg(x)" >"$TMP/out" 2>"$TMP/err"
expect_grep "syntax error" "$TMP/err" "compile: sqlc's macros are read in query files only (squint parse rejects them, as SQLite does)"

# ---- the sqlc reports of the docs' comparison table --------------------------------
expect_exit 0 "compile: the sqlc reports' queries" -- "$SQUINT" compile --schema $F/sqlc_issues_schema.sql --out "$TMP/si" --emit-json $F/sqlc_issues.sql
if python3 - "$TMP/si/queries.json" <<'PY'; then ok "compile: each sqlc report, as docs/squint-compile.md's table says squint types it"; else not_ok "compile: the sqlc reports"; fi
import json, sys
q = {x["name"]: x for x in json.load(open(sys.argv[1]))["queries"]}
col = lambda n, i=0: (q[n]["columns"][i]["type"], q[n]["columns"][i]["nullable"])
par = lambda n, i=0: (q[n]["params"][i]["name"], q[n]["params"][i]["type"])
assert col("MaxPrice") == ("REAL", True)                       # sqlc #3918: interface{}
assert col("CharColumn") == ("TEXT", False) and par("CharColumn") == ("code", "TEXT")   # #3754
assert col("JsonDate") == ("TEXT", True)                       # #3383
assert [par("InList", i) for i in (0, 1)] == [("id", "INTEGER"), ("id_2", "INTEGER")]   # #1829
assert par("InSlice") == ("ids", "INTEGER") and q["InSlice"]["params"][0]["slice"] is True
assert col("LeftJoin", 0) == ("TEXT", False) and col("LeftJoin", 1) == ("TEXT", True)   # #733, #983
assert par("SubqueryAlias") == ("price", "REAL")               # #3639
PY
[ ! -e "$TMP/si/queries.h" ] && ok "compile --emit-json: the manifest only" || not_ok "compile --emit-json wrote C"

# ---- a "name" that became a string is named as SQLite names it, quotes and all
printf -- '-- name: Dq :many\nSELECT "default", "name" FROM authors;\n' >"$TMP/dq.sql"
expect_exit 0 "compile: a double-quoted string in the result (SQLite names it with its quotes)" -- \
    "$SQUINT" compile --schema $S --out "$TMP/dq" "$TMP/dq.sql"
grep -q '"name": "\\"default\\""' "$TMP/dq/queries.json" && ok "compile: ... the manifest says so" || not_ok "compile: ... the manifest's name of a dq string"

# ---- an aggregate of a NOT NULL value per group is never NULL --------------------------
cat >"$TMP/groups.sql" <<'EOF2'
-- name: PerGenre :many
SELECT genre, max(pages), max(title), sum(book_id), avg(book_id), min(title) FILTER (WHERE pages > 1) FROM books GROUP BY genre;
-- name: Concat :many
SELECT genre, group_concat(title), group_concat(DISTINCT title), group_concat(title, NULL), group_concat(pages, '; ') FROM books GROUP BY genre;
-- name: Whole :one
SELECT max(title) FROM books;
-- name: Counts :many
SELECT name, (SELECT count(*) FROM books b WHERE b.author_id = a.author_id) AS n,
       (SELECT max(title) FROM books b WHERE b.author_id = a.author_id) AS top,
       (SELECT count(*) FROM books HAVING count(*) > 2) AS h
FROM authors a;
EOF2
expect_exit 0 "compile: aggregates per group" -- "$SQUINT" compile --schema $S --out "$TMP/groups" "$TMP/groups.sql"
if python3 - "$TMP/groups/queries.json" $S <<'PY'; then ok "compile: max/sum/avg/group_concat of a NOT NULL value per group, and a scalar (SELECT count(*) ...), are not null (FILTER, a nullable value, no GROUP BY, HAVING: nullable), and SQLite never gives NULL there"; else not_ok "compile: aggregate nullability per group"; fi
import json, sqlite3, sys
q = {x["name"]: x for x in json.load(open(sys.argv[1]))["queries"]}
assert [c["nullable"] for c in q["PerGenre"]["columns"]] == [False, True, False, False, False, True]
assert [c["nullable"] for c in q["Whole"]["columns"]] == [True]
assert [c["nullable"] for c in q["Concat"]["columns"]] == [False, False, False, False, True], q["Concat"]["columns"]
db = sqlite3.connect(":memory:")
db.executescript(open(sys.argv[2]).read())
db.executemany("INSERT INTO books (title, genre, pages) VALUES (?, ?, ?)",
               [("a", "x", None), ("b", "x", 3), ("c", "y", None), ("d", "z", 0)])
for name in ("PerGenre", "Concat"):
    for row in db.execute(q[name]["sql"]):
        for v, c in zip(row, q[name]["columns"]):
            assert v is not None or c["nullable"], (row, c["name"])
assert db.execute(q["Whole"]["sql"].replace("books", "books WHERE 0")).fetchone() == (None,)
assert [c["nullable"] for c in q["Counts"]["columns"]] == [False, False, True, True], q["Counts"]["columns"]
db.execute("INSERT INTO authors (name) VALUES ('nobody')")   # no book: count 0, max NULL
for row in db.execute(q["Counts"]["sql"]):
    for v, c in zip(row, q["Counts"]["columns"]):
        assert v is not None or c["nullable"], (row, c["name"])
PY

# ---- CAST, coalesce, a column of any type ---------------------------------------------
cat >"$TMP/rules.sql" <<'EOF2'
-- name: Cast :many
SELECT title FROM books WHERE pages > CAST(? AS INTEGER);
-- name: Fallback :exec
UPDATE loans SET return_date = coalesce(sqlc.narg(returned), return_date) WHERE loan_id = ?;
-- name: AnyColumn :exec
INSERT INTO blobs (data) VALUES (?);
EOF2
printf 'CREATE TABLE blobs (id INTEGER PRIMARY KEY, data BLOB);\n' | cat $S - >"$TMP/rules_schema.sql"
expect_exit 0 "compile: CAST, coalesce and an any column" -- "$SQUINT" compile --schema "$TMP/rules_schema.sql" --out "$TMP/rules" "$TMP/rules.sql"
! grep -q "W0501" "$TMP/err" && ok "compile: ... no W0501: each parameter is reached by a rule" || not_ok "compile: ... W0501 where a rule reached the parameter"
if python3 - "$TMP/rules/queries.json" <<'PY'; then ok "compile: CAST(? AS T) is T, coalesce(?, x) is x's type and nullable, a BLOB column's value is any"; else not_ok "compile: CAST/coalesce rules"; fi
import json, sys
q = {x["name"]: x["params"] for x in json.load(open(sys.argv[1]))["queries"]}
t = lambda n, i=0: (q[n][i]["type"], q[n][i]["nullable"], q[n][i]["inferred_from"])
assert t("Cast") == ("INTEGER", False, "cast"), t("Cast")
assert t("Fallback") == ("TEXT", True, "coalesce"), t("Fallback")
assert t("AnyColumn") == ("any", True, "assignment"), t("AnyColumn")
PY

# ---- NUMERIC affinity: typed by the declared name ----------------------------------------
expect_exit 0 "compile: columns of NUMERIC affinity (DATE, DATETIME, BOOL, DECIMAL, STRING)" -- \
    "$SQUINT" compile --schema $F/typed_schema.sql --out "$TMP/typed" --emit-json $F/typed.sql
! grep -q "W0501" "$TMP/err" && ok "compile: ... no W0501" || not_ok "compile: ... W0501 for a parameter over a DATE column"
if python3 - "$TMP/typed/queries.json" <<'PY2'; then ok "compile: DATE and DATETIME are TEXT, BOOL INTEGER, DECIMAL REAL, STRING any; min/max of one too; parameters alike"; else not_ok "compile: NUMERIC affinity by declared name"; fi
import json, sys
q = {x["name"]: x for x in json.load(open(sys.argv[1]))["queries"]}
cols = lambda n: [(c["name"], c["type"], c["affinity"], c["decl_type"]) for c in q[n]["columns"]]
params = lambda n: [(p["name"], p["type"]) for p in q[n]["params"]]
assert cols("Row") == [("n", "INTEGER", "INTEGER", "INTEGER"), ("r", "REAL", "REAL", "REAL"), ("t", "TEXT", "TEXT", "TEXT"),
                       ("d", "TEXT", "NUMERIC", "DATE"), ("at", "TEXT", "NUMERIC", "DATETIME"),
                       ("ok", "INTEGER", "NUMERIC", "BOOL"), ("amount", "REAL", "NUMERIC", "DECIMAL(10,2)"),
                       ("s", "any", "NUMERIC", "STRING")], cols("Row")
assert [c[:2] for c in cols("Newest")] == [("newest", "TEXT"), ("least", "REAL")], cols("Newest")
assert params("Newest") == [("d", "TEXT")], params("Newest")
assert params("Put") == [("id", "INTEGER"), ("d", "TEXT"), ("at", "TEXT"), ("ok", "INTEGER"), ("amount", "REAL")], params("Put")
PY2

# ---- warnings ----------------------------------------------------------------------
expect_exit 1 "compile: the warnings fixture (one error among them) exits 1" -- "$SQUINT" compile --schema $S --out "$TMP/w" $F/warn.sql
W=$F/warn.sql
expect_grep "warn.sql:3:1: warning\[W0504\]: the query 'ByCountry' is :one, but no key" "$TMP/err" "compile: :one without a key (W0504)"
expect_grep "warn.sql:9:1: warning\[W0504\]: the query 'DropGenre'" "$TMP/err" "compile: ... a DELETE ... RETURNING :one that can delete many (W0504)"
expect_grep "warn.sql:11:1: warning\[W0503\]: the query 'Ping' is :exec, but its statement returns rows" "$TMP/err" "compile: :exec over rows (W0503)"
expect_grep "warn.sql:13:1: error\[E0508\]: the query 'Gone' is :many, but its statement returns no columns" "$TMP/err" "compile: :many without columns (E0508)"
expect_grep "warn.sql:16:8: warning\[W0502\]: SELECT \* in a compiled query" "$TMP/err" "compile: SELECT * (W0502)"
expect_grep "warn.sql:18:1: warning\[W0505\]: parameter 2 of 'Third' is never used" "$TMP/err" "compile: a parameter number never used (W0505)"
expect_grep "warn.sql:20:48: warning\[string-as-boolean\]" "$TMP/err" "compile: squint lint's rules, at most warnings"
[ "$(grep -c "warning\|error" "$TMP/err")" = 9 ] && ! grep -q "'ById'\|'RenameOne'" "$TMP/err" && ok "compile: ... and nothing else: a key makes ById and RenameOne single rows" || { not_ok "compile: exactly the expected warnings"; cat "$TMP/err"; }

# ---- migrations and the config file ----------------------------------------------
P="$TMP/proj"; mkdir -p "$P/mig" "$P/queries"
cat >"$P/mig/001_init.sql" <<'EOF2'
-- +goose Up
CREATE TABLE shelf (id INTEGER PRIMARY KEY, label TEXT NOT NULL);
CREATE TABLE item (id INTEGER PRIMARY KEY, shelf_id INTEGER REFERENCES shelf (id));
-- +goose Down
DROP TABLE item;
EOF2
cat >"$P/mig/002_more.sql" <<'EOF2'
ALTER TABLE shelf ADD COLUMN room TEXT;
ALTER TABLE item RENAME TO thing;
EOF2
printf -- '-- name: Shelves :many\nSELECT label, room FROM shelf WHERE room = ?;\n' >"$P/queries/a.sql"
printf -- '-- name: Things :many\nSELECT t.id, s.label FROM thing t LEFT JOIN shelf s ON s.id = t.shelf_id;\n' >"$P/queries/b.sql"
printf -- '-- name: Untyped :one\nSELECT abs(?) AS a;\n' >"$P/untyped.sql"
expect_exit 0 "compile: a directory of migrations (ALTER ... ADD COLUMN, RENAME; goose's Down part left out)" -- "$SQUINT" compile --schema "$P/mig" --out "$P/o1" "$P/queries"
if python3 - "$P/o1/queries.json" <<'PY'; then ok "compile: ... the migrated schema types the queries (a query directory in name order)"; else not_ok "compile: migrated schema"; fi
import json, sys
m = json.load(open(sys.argv[1]))
assert [q["name"] for q in m["queries"]] == ["Shelves", "Things"]
assert m["queries"][0]["params"][0]["column"] == "room" and m["queries"][0]["columns"][1]["type"] == "TEXT"
assert m["queries"][1]["columns"][1]["nullable"] is True   # LEFT JOIN over the renamed table
PY
printf 'ALTER TABLE shelf ADD COLUMN size INT;\n\nUPDATE shelf SET nosuch = 1;\n' >"$P/mig/003_bad.sql"
expect_exit 2 "compile: a migration SQLite refuses exits 2" -- "$SQUINT" compile --schema "$P/mig" --out "$P/o2" "$P/queries"
expect_grep "mig/003_bad.sql:3:1: error\[E0209\]: this migration fails in SQLite: no such column: nosuch" "$TMP/err" "compile: ... E0209 at the statement, with SQLite's message"
rm "$P/mig/003_bad.sql"
cat >"$P/squint.json" <<'EOF2'
{"version": 1,
 "packages": [
   {"name": "shelves", "schema": "mig", "queries": ["queries/a.sql", "queries/b.sql"], "out": "gen"},
   {"name": "loose", "schema": "mig", "queries": "untyped.sql", "out": "gen2", "strict": true}
 ]}
EOF2
SQ=$SQUINT; case $SQ in /*) ;; *) SQ=$PWD/$SQ ;; esac
(cd / && "$SQ" compile -f "$P/squint.json") >"$TMP/out" 2>"$TMP/err"; rc=$?
[ $rc = 1 ] && [ -f "$P/gen/queries.json" ] && [ ! -e "$P/gen2/queries.json" ] && ok "compile -f: paths relative to the file; a strict package with a warning is not written (exit 1)" || not_ok "compile -f: two packages (rc=$rc)"
expect_grep "warnings count, --strict" "$TMP/err" "compile -f: ... says the warning counted"
sed -i 's/"strict": true/"strict": false/' "$P/squint.json"
(cd "$P" && "$SQ" compile) >"$TMP/out" 2>"$TMP/err" && [ -f "$P/gen2/queries.json" ] && ok "compile: ./squint.json is found without -f" || not_ok "compile: ./squint.json is found without -f"
# a migration that makes a compiled query ambiguous: --check fails on it
printf -- '-- name: Labels :many\nSELECT label FROM shelf JOIN thing ON thing.shelf_id = shelf.id;\n' >"$P/labels.sql"
expect_exit 0 "compile: a join query over the migrations" -- "$SQUINT" compile --schema "$P/mig" --out "$P/o3" "$P/labels.sql"
printf 'ALTER TABLE thing ADD COLUMN label TEXT;\n' >"$P/mig/003_label.sql"
expect_exit 1 "compile --check: a migration that makes a query's column ambiguous fails the check" -- \
    "$SQUINT" compile --schema "$P/mig" --out "$P/o3" --check "$P/labels.sql"
expect_grep "labels.sql:2:8: error\[E0303\]" "$TMP/err" "compile --check: ... at the column, E0303"
rm "$P/mig/003_label.sql"
cat >"$P/bad.json" <<'EOF2'
{"version": 1,
 "packages": [{"name": "x", "schema": "mig", "querys": "queries", "emit_json": "yes"}]}
EOF2
expect_exit 2 "compile -f: a config with mistakes exits 2" -- "$SQUINT" compile -f "$P/bad.json"
expect_grep "bad.json:2:46: error\[E0004\]: unknown key 'querys' in a package" "$TMP/err" "compile -f: an unknown key, at the key"
expect_grep "bad.json:2:15: error\[E0004\]: a package needs \"queries\"" "$TMP/err" "compile -f: a missing key, at its package"
expect_grep "bad.json:2:80: error\[E0004\]: \"emit_json\" takes true or false" "$TMP/err" "compile -f: a value of the wrong type"
expect_exit 2 "compile -f with a schema option is a usage error" -- "$SQUINT" compile -f "$P/squint.json" --schema $S

# ---- mistakes ------------------------------------------------------------------
cat >"$TMP/bad.sql" <<'EOF2'
SELECT 1;
-- name: 9lives :one
SELECT 2;
-- name: Ok :sometimes
SELECT 3;
-- name: Twice :many
SELECT 4;
SELECT 5;
-- name: Create :exec
CREATE TABLE t (x);
-- name: Dangling :one
EOF2
expect_exit 1 "compile: a file of mistakes exits 1" -- "$SQUINT" compile --schema $S --out "$TMP/bad" $F/../compile/library.sql "$TMP/bad.sql"
expect_grep "bad.sql:1:1: error\[E0501\]: a statement without a name" "$TMP/err" "compile: a statement without an annotation (E0501)"
expect_grep "bad.sql:2:1: error\[E0502\]: '9lives' is not a name a function can have" "$TMP/err" "compile: a name that is no C identifier (E0502)"
expect_grep "bad.sql:4:1: error\[E0502\]: unknown command ':sometimes'" "$TMP/err" "compile: an unknown command (E0502)"
expect_grep "bad.sql:8:1: error\[E0501\]: a second statement after the query 'Twice'" "$TMP/err" "compile: two statements under one name (E0501)"
expect_grep "bad.sql:10:1: error\[E0505\]: not a query" "$TMP/err" "compile: a CREATE TABLE is not a query (E0505)"
expect_grep "bad.sql:11:1: error\[E0504\]: the query 'Dangling' has no statement" "$TMP/err" "compile: an annotation without a statement (E0504)"
expect_grep "nothing written" "$TMP/err" "compile: ... and nothing written"
[ ! -e "$TMP/bad/queries.json" ] && ok "compile: ... really nothing" || not_ok "compile: ... really nothing"
printf -- '-- name: GetAuthor :one\nSELECT 1;\n' >"$TMP/dup.sql"
expect_exit 1 "compile: a name used in two files" -- "$SQUINT" compile --schema $S --out "$TMP" $F/library.sql "$TMP/dup.sql"
expect_grep "dup.sql:1:1: error\[E0503\]: a second query named 'GetAuthor'" "$TMP/err" "compile: ... is E0503 at the second"
printf -- '-- name: Abs :one\nSELECT abs(?) AS a;\n-- name: Broken :one\nSELECT nosuch FROM authors;\n' >"$TMP/warn.sql"
expect_exit 1 "compile: a binding error" -- "$SQUINT" compile --schema $S --out "$TMP/w" "$TMP/warn.sql"
expect_grep "warn.sql:2:12: warning\[W0501\]: the type of parameter 1 \(p1\) cannot be inferred" "$TMP/err" "compile: an untyped parameter is a warning (W0501), typed any"
expect_grep "warn.sql:4:8: error\[E0302\]" "$TMP/err" "compile: ... the binder's error at its place"
printf -- '-- name: Abs :one\nSELECT abs(?) AS a;\n' >"$TMP/warn2.sql"
expect_exit 0 "compile: warnings alone do not fail" -- "$SQUINT" compile --schema $S --out "$TMP/w2" "$TMP/warn2.sql"
mkdir -p "$TMP/mine" && echo '{"mine": true}' >"$TMP/mine/queries.json"
expect_exit 2 "compile: a queries.json squint did not write is not replaced" -- \
    "$SQUINT" compile --schema $S --out "$TMP/mine" $F/library.sql
grep -q '"mine"' "$TMP/mine/queries.json" && ok "compile: ... untouched" || not_ok "compile: ... untouched"
expect_exit 0 "compile: --force replaces it" -- "$SQUINT" compile --schema $S --out "$TMP/mine" --force $F/library.sql
expect_exit 0 "compile: its own manifest is replaced" -- "$SQUINT" compile --schema $S --out "$TMP/mine" $F/library.sql
expect_exit 0 "compile --check: an up-to-date manifest" -- "$SQUINT" compile --schema $S --out "$TMP/mine" --check $F/library.sql
expect_grep "is up to date" "$TMP/err" "compile --check: ... says so"
sed 's/WHERE author_id = ?;/WHERE name = ?;/' $F/library.sql >"$TMP/changed.sql"
cp "$TMP/mine/queries.json" "$TMP/before.json"
expect_exit 1 "compile --check: a changed query makes it out of date" -- \
    "$SQUINT" compile --schema $S --out "$TMP/mine" --check "$TMP/changed.sql"
cmp -s "$TMP/mine/queries.json" "$TMP/before.json" && ok "compile --check: ... and writes nothing" || not_ok "compile --check: ... and writes nothing"
sed 's/author_id  INTEGER PRIMARY KEY,/author_id  TEXT PRIMARY KEY,/' $S >"$TMP/migrated.sql"
expect_exit 1 "compile --check: a schema change that retypes a column makes it out of date" -- \
    "$SQUINT" compile --schema "$TMP/migrated.sql" --out "$TMP/mine" --check $F/library.sql
expect_exit 1 "compile --check: no manifest" -- "$SQUINT" compile --schema $S --out "$TMP/none" --check $F/library.sql
expect_grep "is missing" "$TMP/err" "compile --check: ... says it is missing"
expect_exit 2 "compile: no schema option" -- "$SQUINT" compile $F/library.sql
expect_grep "try 'squint compile --help'" "$TMP/err" "compile: ... with the hint"
expect_exit 0 "compile --help" -- "$SQUINT" compile --help

# ---- every gold query of Spider dev and BIRD dev -------------------------------------
gold_files() { # gold_files DEV.JSON SQLKEY DIR: one annotated file per db_id
    python3 - "$1" "$2" "$3" <<'PY'
import collections, json, sys
by = collections.defaultdict(list)
for i, d in enumerate(json.load(open(sys.argv[1]))):
    by[d["db_id"]].append((d.get("question_id", i), d[sys.argv[2]]))
for db, qs in by.items():
    with open(f"{sys.argv[3]}/{db}.sql", "w") as f:
        for i, q in qs:
            f.write(f"-- name: q{i} :many\n{q.strip().rstrip(';')};\n\n")
PY
}
typed_share() { # typed_share DIR: queries, columns, and the share typed
    python3 - "$1" <<'PY'
import glob, json, sys
q = n = typed = not_null = 0
for p in glob.glob(sys.argv[1] + "/*/queries.json"):
    for x in json.load(open(p))["queries"]:
        q += 1
        n += len(x["columns"])
        typed += sum(c["type"] != "any" for c in x["columns"])
        not_null += sum(c["nullable"] is False for c in x["columns"])
print(f"{q} queries, {n} columns, {100 * typed / n:.2f} % typed, {100 * not_null / n:.2f} % proved not null")
PY
}
corpus() { # corpus NAME DEV.JSON SQLKEY WANT SCHEMA-OPTIONS...
    local name=$1 dev=$2 key=$3 want=$4 bad=0
    shift 4
    mkdir -p "$TMP/$name"
    gold_files "$dev" "$key" "$TMP/$name"
    for f in "$TMP/$name"/*.sql; do
        db=$(basename "$f" .sql)
        "$SQUINT" compile "$@" --db-id "$db" --out "$TMP/$name/$db" "$f" >/dev/null 2>"$TMP/$name/$db.err" || bad=1
    done
    local share
    share=$(typed_share "$TMP/$name")
    local pct=${share#*columns, }
    pct=${pct%%.*}
    if [ $bad = 0 ] && [ "${share%% queries*}" = "$want" ] && [ "$pct" -ge 99 ]
    then ok "compile: $name dev: every gold query compiles, SQLite agrees on every column, at least 99 % typed ($share)"
    else not_ok "compile: $name dev: $share"; cat "$TMP/$name"/*.err | grep -m5 error; fi
}
if [ -f "$C/spider-dev/dev.json" ] && [ -d "$C/spider-dev/database" ]; then
    corpus spider "$C/spider-dev/dev.json" query 1034 --db-root "$C/spider-dev/database"
    if fit=$(python3 tests/cli/compile_fit.py "$TMP/spider" "$C/spider-dev/database" 2>"$TMP/fit.err")
    then ok "compile: spider dev: run by SQLite, every computed value is of its manifest type ($fit)"
    else not_ok "compile: spider dev: values against their types: $fit"; head -5 "$TMP/fit.err"; fi
else echo "ok - compile: Spider dev skipped (no $C/spider-dev)"; fi
if [ -f "$C/bird-dev/dev.json" ] && [ -f "$C/bird-dev/dev_tables.json" ]; then
    corpus bird "$C/bird-dev/dev.json" SQL 1534 --tables "$C/bird-dev/dev_tables.json"
else echo "ok - compile: BIRD dev skipped (no $C/bird-dev)"; fi
