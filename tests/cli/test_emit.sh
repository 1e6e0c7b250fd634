#!/usr/bin/env bash
# test_emit.sh -- squint emit and the emitters, checked against SQLite
# (the sqlite3 shell).  Prints TAP lines.
#   - every emitter `emit --list` names gives what `ir --format NAME` gives;
#   - ddl: for each query, the CREATE TABLE statements load, the query
#     runs on them, each table has the columns (names, declared types,
#     NOT NULL, primary key position), the unique and primary key indexes
#     and the foreign keys it has in the schema the query was bound
#     against, and the tables written are those the query reads plus the
#     ones their foreign keys reference;
#   - usage: an unknown emitter, no emitter, --list.
cd "$(dirname "$0")/../.." || exit 2
. tests/cli/lib.sh
S=tests/golden/types.schema.sql
if ! command -v sqlite3 >/dev/null; then
    echo "ok - emit: skipped (no sqlite3 shell; scripts/deps.sh installs it)"
    exit 0
fi
sqlite3 "$TMP/orig.db" <"$S" || { not_ok "emit: the schema loads in sqlite3"; exit 1; }

# ---- every emitter, by both names ------------------------------------------
names=$("$SQUINT" emit --list | awk '{print $1}')
[ -n "$names" ] && ok "emit --list names the emitters" || not_ok "emit --list names the emitters"
for n in $names; do
    for f in tests/golden/ir-sql/*.sql; do
        "$SQUINT" emit "$n" --schema "$S" "$f" >"$TMP/a" 2>&1
        "$SQUINT" ir --format "$n" --schema "$S" "$f" >"$TMP/b" 2>&1
        cmp -s "$TMP/a" "$TMP/b" || { not_ok "emit $n = ir --format $n ($f)"; continue 2; }
    done
    ok "emit $n = ir --format $n (tests/golden/ir-sql)"
done

# ---- ddl against SQLite -----------------------------------------------------
# What SQLite says of table T in database DB: columns, key indexes, foreign keys.
describe() { # describe DB T
    sqlite3 "$1" "SELECT name, type, \"notnull\", pk FROM pragma_table_xinfo('$2') ORDER BY cid;
                  SELECT '-', \"unique\", origin, partial FROM pragma_index_list('$2') ORDER BY 2, 3, 4;
                  SELECT '>', \"table\", \"from\", \"to\" FROM pragma_foreign_key_list('$2') ORDER BY 2, 3, 4;"
}

ddl_case() { # ddl_case NAME "QUERY" "TABLES WRITTEN (sorted, space-separated)"
    local name=$1 query=$2 want=$3 got t bad=""
    printf '%s;\n' "$query" >"$TMP/q.sql"
    "$SQUINT" emit ddl --schema "$S" "$TMP/q.sql" >"$TMP/ddl.sql" 2>"$TMP/err"
    local st=$?
    [ $st -eq 0 ] || { not_ok "ddl/$name: squint emit ddl (exit $st)"; head -3 "$TMP/err"; return; }
    rm -f "$TMP/new.db"
    if ! sqlite3 -bail "$TMP/new.db" <"$TMP/ddl.sql" >"$TMP/err" 2>&1; then
        not_ok "ddl/$name: the DDL loads"; head -3 "$TMP/err"; return
    fi
    got=$(sqlite3 "$TMP/new.db" "SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name" | xargs)
    [ "$got" = "$want" ] || { not_ok "ddl/$name: tables written '$got', want '$want'"; return; }
    if ! sqlite3 -bail "$TMP/new.db" <"$TMP/q.sql" >/dev/null 2>"$TMP/err"; then
        not_ok "ddl/$name: the query runs on the DDL"; head -3 "$TMP/err"; return
    fi
    for t in $got; do
        [ "$(describe "$TMP/orig.db" "$t")" = "$(describe "$TMP/new.db" "$t")" ] || bad="$bad $t"
    done
    [ -z "$bad" ] && ok "ddl/$name" || not_ok "ddl/$name: differs from the schema in:$bad"
}

ddl_case one-table "SELECT name FROM dept" "dept"
ddl_case join "SELECT e.name, d.name FROM emp e JOIN dept d ON d.id = e.dept_id" "dept emp"
ddl_case references "SELECT salary FROM emp" "dept emp"
ddl_case subquery "SELECT title FROM proj WHERE pid IN (SELECT pid FROM works WHERE hours > 10)" "proj works"
ddl_case cte "WITH t AS (SELECT emp_id FROM works) SELECT count(*) FROM t" "works"
ddl_case scalar-subquery "SELECT (SELECT max(budget) FROM dept), title FROM proj" "dept proj"
ddl_case declared-types "SELECT * FROM decl" "decl"
ddl_case keys "SELECT * FROM k_rowid, k_int, k_desc, k_tbl" "k_desc k_int k_rowid k_tbl"
ddl_case without-rowid-strict "SELECT * FROM k_norowid, k_strict, k_default" "k_default k_norowid k_strict"
ddl_case no-table "SELECT 1" ""

# Declared types with quotes: SQLite records them its own way (a quoted
# token loses its first and last characters, then a leading quoted part is
# dequoted), and takes the affinity from what it records.  The DDL must
# give the same recorded types, and squint's affinity must be SQLite's:
# '1.0' stored in each column has the class that affinity gives it.
S=$TMP/quoted.sql
cat >"$S" <<'SQL'
CREATE TABLE q (a "A"B, b [A]B, c 'A'B, d `A`B, e "A""B"C, f [AB], g "NATIVE CHARACTER"(70),
                h [A]BC, i [REAL]TEXT, j "X" INT, k [A] B, m "A" B, n INT, o [TEXT],
                p """x""", r 'quoted', t [br ack], u "text[]");
SQL
rm -f "$TMP/orig.db"
sqlite3 "$TMP/orig.db" <"$S"
ddl_case quoted-types "SELECT * FROM q" "q"
cols="a b c d e f g h i j k m n o p r t u"
sqlite3 "$TMP/orig.db" "INSERT INTO q VALUES ($(echo $cols | sed "s/[a-z]/'1.0'/g; s/ /, /g"))"
printf 'SELECT * FROM q;\n' >"$TMP/q.sql"
"$SQUINT" ir --schema "$S" "$TMP/q.sql" >"$TMP/ir" 2>&1
bad=""
for c in $cols; do
    aff=$(grep -o "\$[0-9.]* $c: [A-Z]* [a-z ]*affinity [A-Z]*" "$TMP/ir" | awk '{print $NF}')
    case $aff in INTEGER|NUMERIC) want=integer ;; REAL) want=real ;; TEXT|BLOB) want=text ;; *) want="?" ;; esac
    got=$(sqlite3 "$TMP/orig.db" "SELECT typeof($c) FROM q")
    [ "$got" = "$want" ] || bad="$bad $c:$aff/$got"
done
[ -z "$bad" ] && ok "quoted declared types: squint's affinity is SQLite's" ||
    not_ok "quoted declared types: affinity differs from SQLite's for:$bad"
S=tests/golden/types.schema.sql

# ---- usage ----------------------------------------------------------------
expect_exit 2 "emit: an unknown emitter" -- "$SQUINT" emit nope --schema "$S" "$TMP/q.sql"
expect_grep "no emitter 'nope'" "$TMP/err" "emit: an unknown emitter is named in the message"
expect_exit 2 "emit: no emitter" -- "$SQUINT" emit
expect_exit 2 "ir --format: an unknown format" -- "$SQUINT" ir --format nope --schema "$S" "$TMP/q.sql"
expect_grep "text, json, sql" "$TMP/err" "ir --format: the message lists the emitters"
