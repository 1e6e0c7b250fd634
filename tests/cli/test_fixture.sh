#!/usr/bin/env bash
# test_fixture.sh -- squint fixture on a schema with composite keys, a
# two-column foreign key, a table that refers to itself, CHECK and NOT NULL:
# the suites pass SQLite's integrity and foreign-key checks and the CHECKs,
# every kill and non-kill in the records is what SQLite says (suitecheck),
# equivalent mutants are reported as proved, unsatisfiable golds as empty,
# runs are reproducible, resume after kill -9 loses and repeats nothing, and
# the output directory never takes a file squint did not write.  Prints TAP.
# run.sh: first (one of the longest: started before the rest)
cd "$(dirname "$0")/../.." || exit 2
. tests/cli/lib.sh
F=tests/cli/fixtures/fixture
CHECK=${BUILD:-build}/tools/suitecheck
# z3's resource units, not seconds: the suites do not depend on the machine
BUDGET=(--timeout 0 --witness-timeout 0 --rlimit 4000000)
run() { "$SQUINT" fixture "${BUDGET[@]}" --gold $F/gold.json --schema $F/schema.sql -q "$@"; }
field() { # field QUESTION KEY -- a top-level value of a record, as JSON text
    grep "\"question\":$1," "$2" | head -1 | grep -o "\"$3\":\"[^\"]*\"" | head -1 | cut -d'"' -f4
}

# ---- usage --------------------------------------------------------------------
expect_exit 2 "fixture: no arguments" -- "$SQUINT" fixture
expect_exit 0 "fixture: --help" -- "$SQUINT" fixture --help
expect_grep 'max-mutants' "$TMP/out" "fixture: --help lists --max-mutants"
expect_exit 2 "fixture: no --out" -- "$SQUINT" fixture --gold $F/gold.json --schema $F/schema.sql
expect_exit 2 "fixture: no schema" -- "$SQUINT" fixture --gold $F/gold.json --out "$TMP/o"
expect_exit 2 "fixture: bad --rows" -- run --out "$TMP/o" --rows 0
expect_grep 'squint fixture: --rows takes a number from 1 to 8' "$TMP/err" "fixture: ... says what it takes"
expect_exit 2 "fixture: bad --format" -- run --out "$TMP/o" --format sarif
expect_exit 2 "fixture: a gold file that does not exist" -- \
    "$SQUINT" fixture --gold "$TMP/nope.json" --schema $F/schema.sql --out "$TMP/o"
[ -e "$TMP/o" ] && not_ok "fixture: a failed start made --out" || ok "fixture: a failed start makes no --out"

# ---- a run ----------------------------------------------------------------------
expect_exit 0 "fixture: a run" -- run --out "$TMP/a" --sql
cp "$TMP/out" "$TMP/summary.txt"
expect_grep '^questions +7$' "$TMP/summary.txt" "fixture: the summary counts the questions"
expect_grep '^  suite +4 ' "$TMP/summary.txt" "fixture: four questions get a suite"
expect_grep 'no witness +2 \(of which the gold is empty on every database: 2\)' "$TMP/summary.txt" \
    "fixture: the two unsatisfiable golds are found empty"
expect_grep '^  not loaded +1$' "$TMP/summary.txt" "fixture: the gold naming no table is not loaded"
[ "$(wc -l < "$TMP/a/fixture.jsonl")" = 7 ] && ok "fixture: one record per question" ||
    not_ok "fixture: $(wc -l < "$TMP/a/fixture.jsonl") records for 7 questions"
expect_exit 0 "fixture: suitecheck finds the records true" -- "$CHECK" "$TMP/a"
expect_grep '^4 suites, ([0-9]+) databases, [1-9][0-9]* kills checked, 0 problems$' "$TMP/out" \
    "fixture: ... over every database and kill"

# the checker can fail: a kill removed from a record is found
sed 's/"kills":\[\([0-9]*\),/"kills":[/' "$TMP/a/fixture.jsonl" > "$TMP/tampered.jsonl"
mkdir -p "$TMP/t" && cp -r "$TMP/a/"[0-9]* "$TMP/t/" && cp "$TMP/tampered.jsonl" "$TMP/t/fixture.jsonl"
expect_exit 1 "fixture: suitecheck finds a kill the record leaves out" -- "$CHECK" "$TMP/t"

if command -v sqlite3 >/dev/null; then
    bad=0 n=0
    for db in "$TMP"/a/[0-3]/*.sqlite; do
        n=$((n + 1))
        [ "$(sqlite3 "$db" 'PRAGMA integrity_check')" = ok ] || bad=$((bad + 1))
        [ -z "$(sqlite3 "$db" 'PRAGMA foreign_key_check')" ] || bad=$((bad + 1))
        # the CHECK constraints hold, and NOT NULL does
        v=$(sqlite3 "$db" "SELECT (SELECT count(*) FROM dept WHERE NOT (budget >= 0))
            + (SELECT count(*) FROM emp WHERE NOT (salary > 0) OR name IS NULL OR dept_id IS NULL)
            + (SELECT count(*) FROM assignment WHERE NOT (hours BETWEEN 1 AND 40))
            + (SELECT count(*) FROM project WHERE code IS NULL OR dept_id IS NULL)")
        [ "$v" = 0 ] || bad=$((bad + 1))
        # the script beside it rebuilds the same rows
        [ "$(sqlite3 "$db" .dump | grep INSERT)" = "$(sqlite3 :memory: ".read ${db%.sqlite}.sql" .dump | grep INSERT)" ] ||
            bad=$((bad + 1))
    done
    [ $bad = 0 ] && [ $n -ge 4 ] && ok "fixture: $n databases pass integrity, foreign-key, CHECK and NOT NULL checks; --sql rebuilds them" ||
        not_ok "fixture: $bad problems in $n databases"
    # the witness of the self-join: the gold returns rows on it
    rows=$(sqlite3 "$TMP/a/2/00.sqlite" "SELECT count(*) FROM (SELECT e.name FROM emp AS e JOIN emp AS m ON e.manager_id = m.id WHERE m.salary < e.salary)")
    [ "$rows" -ge 1 ] && ok "fixture: the self-referencing gold returns rows on its witness" ||
        not_ok "fixture: the self-join's witness gives $rows rows"
    # the witness uses the bound: every table of the composite-key gold has rows
    t=$(sqlite3 "$TMP/a/3/00.sqlite" "SELECT (SELECT count(*) FROM project) * (SELECT count(*) FROM assignment)")
    [ "$t" -ge 4 ] && ok "fixture: the composite-key witness has several rows per table" ||
        not_ok "fixture: the composite-key witness is thin ($t)"
else
    ok "fixture: database checks skipped (no sqlite3 shell; scripts/deps.sh installs it)"
fi

# equivalent mutants are proved, and reported as such
grep '"question":1,' "$TMP/a/fixture.jsonl" > "$TMP/q1.json"
expect_grep '"what":"LEFT JOIN instead of JOIN","at":\{[^}]*\},"sql":"[^"]*","fate":"equivalent","killed_by":null,"why":"no difference up to 3 rows per table"' \
    "$TMP/q1.json" "fixture: LEFT JOIN over a NOT NULL foreign key is proved equivalent, not a survivor"
expect_grep '"equivalent":[1-9]' "$TMP/q1.json" "fixture: ... and counted as equivalent"
expect_grep '"status":"no-witness","why":"the query returns no row on any database of up to 3 rows per table"' \
    "$TMP/a/fixture.jsonl" "fixture: a contradictory WHERE is reported empty, with the reason"
grep '"question":5,' "$TMP/a/fixture.jsonl" > "$TMP/q5.json"
expect_grep '"witness":\{"status":"empty"' "$TMP/q5.json" "fixture: budget < 0 against CHECK (budget >= 0) is empty"
expect_grep '"status":"not-loaded","why":"a binding error: no such table: staff","at":\{"file":"[^"]*gold.json","line":' \
    "$TMP/a/fixture.jsonl" "fixture: an unknown table is reported with its position in the gold file"
[ -d "$TMP/a/4" ] && [ "$(ls "$TMP/a/4")" = suite.json ] && ok "fixture: a question with no suite writes its record, no database" ||
    not_ok "fixture: question 4's folder holds $(ls "$TMP/a/4" 2>/dev/null)"

# ---- values that read like data ------------------------------------------------
if command -v sqlite3 >/dev/null; then
    w=$TMP/a/0/00.sqlite
    e=$(sqlite3 "$w" "SELECT count(*) FROM emp WHERE name = '' OR name GLOB '*[^A-Za-z ]*'")
    p=$(sqlite3 "$w" "SELECT count(*) FROM emp WHERE name GLOB '[A-Z]* [A-Z]*'")
    [ "$e" = 0 ] && [ "$p" -ge 1 ] && ok "fixture: a witness's names read like people's names" ||
        not_ok "fixture: the witness's names: $(sqlite3 "$w" 'SELECT name FROM emp')"
    expect_exit 0 "fixture: --solver-values" -- run --out "$TMP/raw" --limit 1 --solver-values
    r=$(sqlite3 "$TMP/raw/0/00.sqlite" "SELECT count(*) FROM emp WHERE name GLOB '[A-Z]* [A-Z]*'")
    [ "$r" = 0 ] && ok "fixture: ... keeps the solver's values" || not_ok "fixture: --solver-values changed names"
    # numbers by the column's name: salaries from 30,000 in steps of 1,500
    paid() { # paid DIR...: salaries in a salary's made-up range, over every database of the suites
        for db in "$@"; do sqlite3 "$db" "SELECT count(*) FROM emp WHERE salary >= 30000 AND salary % 1500 = 0"; done |
            awk '{ s += $1 } END { print s + 0 }'
    }
    expect_exit 0 "fixture: --solver-values, three questions" -- run --out "$TMP/raw3" --limit 3 --solver-values
    [ "$(paid "$TMP"/a/2/*.sqlite)" -ge 2 ] && [ "$(paid "$TMP"/raw3/2/*.sqlite)" = 0 ] &&
        ok "fixture: numbers read like the column's: salaries made up in a salary's range" ||
        not_ok "fixture: salaries $(sqlite3 "$TMP/a/2/00.sqlite" 'SELECT group_concat(salary) FROM emp'), solver's $(sqlite3 "$TMP/raw3/2/00.sqlite" 'SELECT group_concat(salary) FROM emp')"
    cat $F/schema.sql $F/data.sql > "$TMP/real.sql"
    expect_exit 0 "fixture: values from a real database (--db)" -- \
        "$SQUINT" fixture "${BUDGET[@]}" --gold $F/gold.json --db "$TMP/real.sql" -q --out "$TMP/real" --limit 4
    expect_exit 0 "fixture: ... and the suites are true" -- "$CHECK" "$TMP/real"
    real=$(sqlite3 "$TMP/real/0/00.sqlite" "SELECT count(*) FROM emp WHERE name IN ('Ysolde Brannigan',
        'Thaddeus Okonkwo', 'Marisol Vantongeren', 'Leopold Szymanski', 'Henrietta Achebe')")
    all=$(sqlite3 "$TMP/real/0/00.sqlite" "SELECT count(*) FROM emp")
    [ "$real" = "$all" ] && [ "$all" -ge 2 ] && ok "fixture: ... the witness's names are the real ones" ||
        not_ok "fixture: $real of $all names are real: $(sqlite3 "$TMP/real/0/00.sqlite" 'SELECT name FROM emp')"
    d=$(sqlite3 "$TMP/real/3/00.sqlite" "SELECT count(*) FROM project WHERE code NOT IN ('QW-7', 'HB-2', 'KR-1')")
    [ "$d" = 0 ] && ok "fixture: ... across a two-column foreign key too" ||
        not_ok "fixture: project codes $(sqlite3 "$TMP/real/3/00.sqlite" 'SELECT code FROM project')"
    expect_grep '"values":"real"' "$TMP/real/fixture.jsonl" "fixture: ... and the records say where values came from"
    # --realistic: the suites keep to what the data shows (emp.hired never
    # NULL and always a date, salaries integers, names each once), where
    # the run without it breaks one of them somewhere
    offending() { # the rows of every suite database the data would not have
        for db in "$1"/*/*.sqlite; do
            sqlite3 "$db" "SELECT (SELECT count(*) FROM emp WHERE hired IS NULL OR hired NOT GLOB
                '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]') + (SELECT count(*) FROM emp WHERE
                typeof(salary) <> 'integer') + (SELECT count(*) FROM (SELECT name FROM emp GROUP BY name
                HAVING count(*) > 1))"
        done | awk '{ s += $1 } END { print s + 0 }'
    }
    expect_exit 0 "fixture: --realistic" -- \
        "$SQUINT" fixture "${BUDGET[@]}" --gold $F/gold.json --db "$TMP/real.sql" -q --realistic --out "$TMP/realistic"
    expect_exit 0 "fixture: ... whose suites are true" -- "$CHECK" "$TMP/realistic"
    [ "$(offending "$TMP/realistic")" = 0 ] && [ "$(offending "$TMP/real")" -gt 0 ] &&
        ok "fixture: ... keep to the data's profile, as the suites without it do not" ||
        not_ok "fixture: --realistic suites break the profile ($(offending "$TMP/realistic") rows; without: $(offending "$TMP/real"))"
    expect_grep '"realistic":"database"' "$TMP/realistic/fixture.jsonl" "fixture: ... and the records say so"
    expect_grep 'on realistic data' "$TMP/realistic/fixture.jsonl" "fixture: ... as do mutants equivalent on such data"
fi

expect_exit 2 "fixture: --realistic with no data to profile" -- run --out "$TMP/nodata" --realistic
expect_grep 'needs real data' "$TMP/err" "fixture: ... says what it needs"

# ---- values the question quotes ---------------------------------------------------
cat > "$TMP/hint.json" <<'EOF'
[{"question_id": 0, "db_id": "hr", "question": "Which departments spend more than 100?",
  "evidence": "the harbour office refers to name = 'Harbour Office'; kilns refers to name = 'Kiln Room'",
  "SQL": "SELECT name FROM dept WHERE budget > 100", "difficulty": "simple"}]
EOF
expect_exit 0 "fixture: a BIRD question with evidence" -- \
    "$SQUINT" fixture "${BUDGET[@]}" --gold "$TMP/hint.json" --schema $F/schema.sql -q --sql --out "$TMP/hint"
quoted=$(grep -c "'Harbour Office'\|'Kiln Room'" "$TMP/hint/0/00.sql")
[ "$quoted" = 2 ] && ok "fixture: ... the witness's names are those the evidence quotes" ||
    not_ok "fixture: the evidence's values are not in the witness: $(grep -A4 'INTO dept' "$TMP/hint/0/00.sql")"
expect_exit 0 "fixture: ... and its suite is true" -- "$CHECK" "$TMP/hint"
sed 's/"evidence": "[^"]*",//' "$TMP/hint.json" > "$TMP/nohint.json"
"$SQUINT" fixture "${BUDGET[@]}" --gold "$TMP/nohint.json" --schema $F/schema.sql -q --sql --out "$TMP/nohint" >/dev/null
[ "$(grep -c "'Harbour Office'\|'Kiln Room'" "$TMP/nohint/0/00.sql")" = 0 ] &&
    ok "fixture: ... which without the evidence are made up" || not_ok "fixture: the names came from elsewhere"

# ---- reproducible ---------------------------------------------------------------
expect_exit 0 "fixture: the same run again" -- run --out "$TMP/b" --sql
same=1
for f in "$TMP"/a/*/*.sql; do cmp -s "$f" "$TMP/b/${f#$TMP/a/}" || same=0; done
sed 's/"seconds":[0-9.e+-]*//g' "$TMP/a/fixture.jsonl" > "$TMP/a.norm"
sed 's/"seconds":[0-9.e+-]*//g' "$TMP/b/fixture.jsonl" > "$TMP/b.norm"
cmp -s "$TMP/a.norm" "$TMP/b.norm" || same=0
[ $same = 1 ] && ok "fixture: two runs give the same databases and records (times aside)" ||
    not_ok "fixture: two runs differ"
expect_exit 0 "fixture: -j 2" -- run --out "$TMP/j" --sql -j 2
sort "$TMP/a.norm" > "$TMP/a.sorted"
sed 's/"seconds":[0-9.e+-]*//g' "$TMP/j/fixture.jsonl" | sort > "$TMP/j.sorted"
cmp -s "$TMP/a.sorted" "$TMP/j.sorted" && ok "fixture: ... and with two processes" || not_ok "fixture: -j 2 differs"

# --seed: the same seed, the same suites; another seed, other values that
# still do the suite's job (suitecheck re-runs every kill)
seeded() { run --limit 2 --sql --seed "$1" --out "$TMP/seed$2"; }
expect_exit 0 "fixture: --seed 7" -- seeded 7 a
expect_exit 0 "fixture: --seed 7 again" -- seeded 7 b
expect_exit 0 "fixture: --seed 8" -- seeded 8 c
dump() { for f in "$TMP/seed$1"/*/*.sql; do cat "$f"; done; }
[ -n "$(dump a)" ] && [ "$(dump a)" = "$(dump b)" ] && ok "fixture: ... the same seed gives the same databases" ||
    not_ok "fixture: two runs with --seed 7 differ"
[ "$(dump a)" != "$(dump c)" ] && ok "fixture: ... another seed other values" ||
    not_ok "fixture: --seed 7 and --seed 8 give the same databases"
[ "$(dump a)" != "$(for f in "$TMP"/a/0/*.sql "$TMP"/a/1/*.sql; do cat "$f"; done)" ] &&
    ok "fixture: ... and other values than with no seed" || not_ok "fixture: --seed 7 changed nothing"
expect_exit 0 "fixture: ... whose suites are true" -- "$CHECK" "$TMP/seedc"
expect_grep '"seed":8' "$TMP/seedc/fixture.jsonl" "fixture: ... and the records say which seed"
expect_exit 2 "fixture: a resume with another seed is refused" -- run --limit 2 --sql --seed 9 --out "$TMP/seedc"

# ---- an aggregate without GROUP BY: a witness where it reads rows, and the empty
# database, where it still returns its row (a query that sorts instead returns none)
cat > "$TMP/agg.json" <<'EOF'
[{"db_id": "co", "question": "How many employees earn over 70000?",
  "query": "SELECT count(*) FROM emp WHERE salary > 70000"},
 {"db_id": "co", "question": "The largest budget of a department named Sales?",
  "query": "SELECT max(budget) FROM dept WHERE name = 'Sales'"},
 {"db_id": "co", "question": "Employees paid over 70000.",
  "query": "SELECT name FROM emp WHERE salary > 70000"}]
EOF
expect_exit 0 "fixture: aggregates" -- "$SQUINT" fixture "${BUDGET[@]}" --gold "$TMP/agg.json" --schema $F/schema.sql \
    -q --out "$TMP/agg"
expect_exit 0 "fixture: ... whose suites are true" -- "$CHECK" "$TMP/agg"
if command -v sqlite3 >/dev/null; then
    n=$(sqlite3 "$TMP/agg/0/00.sqlite" "SELECT count(*) FROM emp WHERE salary > 70000")
    m=$(sqlite3 "$TMP/agg/1/00.sqlite" "SELECT count(*) FROM dept WHERE name = 'Sales' AND budget IS NOT NULL")
    [ "$n" -ge 1 ] && [ "$m" -ge 1 ] && ok "fixture: an aggregate's witness has rows for it to read" ||
        not_ok "fixture: the aggregates' witnesses give them $n and $m rows to read"
fi
db_of() { # db_of DIR QUESTION ORIGIN: the file of the suite's database whose origin starts with ORIGIN
    grep -o "\"file\":\"[0-9]*\\.sqlite\",\"origin\":\"$3[^\"]*\"" "$1/$2/suite.json" | cut -d'"' -f4
}
empty_db() { db_of "$TMP/agg" "$1" "empty: no rows in any table"; }
e=$(empty_db 1)
[ -n "$e" ] && [ -n "$(empty_db 0)" ] && [ -z "$(empty_db 2)" ] &&
    ok "fixture: the empty database is kept where the gold returns a row on it, and only there" ||
    not_ok "fixture: empty databases: '$(empty_db 0)' '$e' '$(empty_db 2)'"
if command -v sqlite3 >/dev/null && [ -n "$e" ]; then
    g=$(sqlite3 "$TMP/agg/1/$e" "SELECT count(*) FROM (SELECT max(budget) FROM dept WHERE name = 'Sales')")
    s=$(sqlite3 "$TMP/agg/1/$e" "SELECT count(*) FROM (SELECT budget FROM dept WHERE name = 'Sales' ORDER BY 1 DESC LIMIT 1)")
    [ "$g" = 1 ] && [ "$s" = 0 ] && ok "fixture: ... and there max() and ORDER BY ... LIMIT 1 differ, in SQLite" ||
        not_ok "fixture: on the empty database the gold gives $g rows, the sort $s"
fi
expect_grep '"kind":"extreme","what":"max\(...\) becomes ORDER BY ... DESC LIMIT 1","at":\{[^}]*\},"sql":"[^"]*","fate":"killed"' "$TMP/agg/1/suite.json" \
    "fixture: ... so the extreme mutant is killed"

# ---- the witness with NULLs, where the schema allows them: count(x) for count(*)
# and NOT IN for EXCEPT differ from the gold there and nowhere else in the suite
cat > "$TMP/nul.json" <<'EOF'
[{"db_id": "co", "question": "How many employees are there?", "query": "SELECT count(*) FROM emp"},
 {"db_id": "co", "question": "Employees who manage nobody.",
  "query": "SELECT id FROM emp EXCEPT SELECT manager_id FROM emp"}]
EOF
expect_exit 0 "fixture: nulls" -- "$SQUINT" fixture "${BUDGET[@]}" --gold "$TMP/nul.json" --schema $F/schema.sql \
    -q --out "$TMP/nul"
expect_exit 0 "fixture: ... whose suites are true (NOT NULL, keys and foreign keys hold)" -- "$CHECK" "$TMP/nul"
nulls_db() { db_of "$TMP/nul" "$1" "nulls: "; }
n0=$(nulls_db 0) n1=$(nulls_db 1)
[ -n "$n0" ] && [ -n "$n1" ] && ok "fixture: ... a database with NULLs is kept in each suite" ||
    not_ok "fixture: databases with NULLs: '$n0' '$n1'"
if command -v sqlite3 >/dev/null && [ -n "$n0" ] && [ -n "$n1" ]; then
    differs() { # differs DB Q1 Q2: 1 when SQLite gives the two queries other rows on DB
        local a b
        a=$(sqlite3 "$1" "$2" | sort) b=$(sqlite3 "$1" "$3" | sort)
        [ "$a" != "$b" ] && echo 1 || echo 0
    }
    c=$(differs "$TMP/nul/0/$n0" "SELECT count(*) FROM emp" "SELECT count(hired) FROM emp")
    x=$(differs "$TMP/nul/1/$n1" "SELECT id FROM emp EXCEPT SELECT manager_id FROM emp" \
        "SELECT id FROM emp WHERE id NOT IN (SELECT manager_id FROM emp)")
    w=$(differs "$TMP/nul/1/00.sqlite" "SELECT id FROM emp EXCEPT SELECT manager_id FROM emp" \
        "SELECT id FROM emp WHERE id NOT IN (SELECT manager_id FROM emp)")
    [ "$c" = 1 ] && [ "$x" = 1 ] && ok "fixture: ... where count(hired) and NOT IN differ from the gold, in SQLite" ||
        not_ok "fixture: on the databases with NULLs count(hired) differs: $c, NOT IN: $x"
    [ "$w" = 0 ] && ok "fixture: ... which the witness alone does not show" ||
        not_ok "fixture: the witness already tells NOT IN apart (the test shows nothing)"
fi

# ---- a witness search that runs out of its budget is searched again on realistic
# data when --metadata gives a profile: the date column's values as ISO dates make
# strftime exact (the same resource limit fails without the profile)
P=tests/cli/fixtures/profile
cat > "$TMP/when.json" <<'EOF'
[{"db_id": "club", "question": "Who over 25 was born in 1990?",
  "query": "SELECT name FROM singer WHERE strftime('%Y', born) = '1990' AND age > 25"}]
EOF
when() { "$SQUINT" fixture --timeout 0 --witness-timeout 0 --rlimit 1000000 --gold "$TMP/when.json" \
    --tables $P/tables.json -q "$@"; }
expect_exit 0 "fixture: a witness beyond its budget" -- when --out "$TMP/when"
expect_grep '"witness":\{"status":"unknown","needs_ties":false,"on_realistic_data":false' "$TMP/when/fixture.jsonl" \
    "fixture: ... is unknown without a profile"
expect_exit 0 "fixture: ... with --metadata" -- when --metadata $P/metadata.json --out "$TMP/whenm"
expect_grep '"witness":\{"status":"found","needs_ties":false,"on_realistic_data":true' "$TMP/whenm/0/suite.json" \
    "fixture: ... is found by the second search, on realistic data, and says so"
expect_exit 0 "fixture: ... a suite that is true" -- "$CHECK" "$TMP/whenm"
if command -v sqlite3 >/dev/null; then
    n=$(sqlite3 "$TMP/whenm/0/00.sqlite" "SELECT count(*) FROM singer WHERE strftime('%Y', born) = '1990' AND age > 25")
    [ "$n" -ge 1 ] && ok "fixture: ... on which SQLite gives the gold a row" || not_ok "fixture: the witness gives the gold $n rows"
fi

# ---- resume ------------------------------------------------------------------------
expect_exit 0 "fixture: a rerun of a finished run" -- run --out "$TMP/a" --sql
[ "$(wc -l < "$TMP/a/fixture.jsonl")" = 7 ] && ok "fixture: ... builds nothing again" || not_ok "fixture: the rerun added records"
expect_exit 2 "fixture: a rerun with other options" -- run --out "$TMP/a" --sql --bound 2
expect_grep 'made with other options' "$TMP/err" "fixture: ... is refused, saying why"

# a run killed mid-write: its last record cut off, a folder half written
head -2 "$TMP/a/fixture.jsonl" > "$TMP/k.jsonl"
mkdir -p "$TMP/k" && cp -r "$TMP/a/0" "$TMP/a/1" "$TMP/k/" && mkdir -p "$TMP/k/3"
cp "$TMP/a/3/00.sqlite" "$TMP/k/3/00.sqlite"
cp "$TMP/a/3/00.sqlite" "$TMP/k/3/07.sqlite"                  # more than the rerun writes
: > "$TMP/k/3/01.sqlite.squint-tmp-99-0"                        # a writer's temporary
{ cat "$TMP/k.jsonl"; printf '{"squint_fixture":1,"question":2,"inp'; } > "$TMP/k/fixture.jsonl"
expect_exit 0 "fixture: resume after a kill" -- run --out "$TMP/k" --sql
q=$(grep -o '^{"squint_fixture":1,"question":[0-9]*' "$TMP/k/fixture.jsonl" | sort | uniq | wc -l)
[ "$q" = 7 ] && [ "$(wc -l < "$TMP/k/fixture.jsonl")" = 7 ] && ok "fixture: ... every question once, none lost" ||
    not_ok "fixture: $q questions in $(wc -l < "$TMP/k/fixture.jsonl") lines"
[ ! -e "$TMP/k/3/07.sqlite" ] && [ ! -e "$TMP/k/3/01.sqlite.squint-tmp-99-0" ] &&
    [ "$(ls "$TMP/k/3" | sort)" = "$(ls "$TMP/a/3" | sort)" ] &&
    ok "fixture: ... a half-written folder is built again from empty" || not_ok "fixture: folder 3 holds $(ls "$TMP/k/3")"

# kill -9 while it runs: every question once after the rerun
(run --out "$TMP/kk" -j 1 --limit 4 >/dev/null 2>&1) &
pid=$!
for _ in $(seq 1 200); do
    [ -s "$TMP/kk/fixture.jsonl" ] && [ "$(wc -l < "$TMP/kk/fixture.jsonl")" -ge 2 ] && break
    sleep 0.05
done
kill -9 $pid 2>/dev/null
pkill -9 -f "$TMP/kk" 2>/dev/null
{ wait $pid; } 2>/dev/null
expect_exit 0 "fixture: resume after kill -9" -- run --out "$TMP/kk" --limit 4
q=$(grep -o '^{"squint_fixture":1,"question":[0-9]*' "$TMP/kk/fixture.jsonl" | sort | uniq | wc -l)
[ "$q" = 4 ] && [ "$(wc -l < "$TMP/kk/fixture.jsonl")" = 4 ] && ok "fixture: ... every question once" ||
    not_ok "fixture: $q questions in $(wc -l < "$TMP/kk/fixture.jsonl") lines"
expect_exit 0 "fixture: ... and the suites are true" -- "$CHECK" "$TMP/kk"

# a question whose process dies of signal 11 (z3 4.8.12 does, now and then, inside an
# incremental check) runs once more, its models refined on fresh solvers
SQUINT_TEST_SOLVER_FAULT='segv-once:salary > 50000' expect_exit 0 "fixture: a crash on the first try" -- \
    run --out "$TMP/segv1" --limit 2
[ "$(grep -c '"status":"ok"' "$TMP/segv1/fixture.jsonl")" = 2 ] && [ "$(wc -l < "$TMP/segv1/fixture.jsonl")" = 2 ] &&
    ok "fixture: ... is run again, one record each" || not_ok "fixture: after a crash: $(cut -c1-200 "$TMP/segv1/fixture.jsonl")"
SQUINT_TEST_SOLVER_FAULT='segv:salary > 50000' expect_exit 0 "fixture: a crash on both tries" -- \
    run --out "$TMP/segv2" --limit 2
expect_grep '"question":0,.*"status":"failed","why":"the question.s process was killed by signal 11"' \
    "$TMP/segv2/fixture.jsonl" "fixture: ... is a failed record, saying why"
[ "$(grep -c '"status":"ok"' "$TMP/segv2/fixture.jsonl")" = 1 ] && ok "fixture: ... and the other question has its suite" ||
    not_ok "fixture: $(grep -c '"status":"ok"' "$TMP/segv2/fixture.jsonl") suites after a crash"

# ---- never a file squint did not write -------------------------------------------
mkdir -p "$TMP/mine" && echo keep > "$TMP/mine/notes.txt"
expect_exit 2 "fixture: --out holding other files" -- run --out "$TMP/mine"
expect_grep 'holds files but no fixture.jsonl' "$TMP/err" "fixture: ... is refused, saying why"
[ "$(cat "$TMP/mine/notes.txt")" = keep ] && [ "$(ls "$TMP/mine")" = notes.txt ] &&
    ok "fixture: ... and left alone" || not_ok "fixture: --out was changed"
echo text > "$TMP/afile"
expect_exit 2 "fixture: --out is a file" -- run --out "$TMP/afile"
[ "$(cat "$TMP/afile")" = text ] && ok "fixture: ... left alone" || not_ok "fixture: the file was changed"
mkdir -p "$TMP/own" && head -1 "$TMP/a/fixture.jsonl" > "$TMP/own/fixture.jsonl"
mkdir -p "$TMP/own/2" && echo mine > "$TMP/own/2/readme.txt"
expect_exit 0 "fixture: a question folder holding a user's file" -- run --out "$TMP/own" --sql --limit 3
expect_grep '"question":2,.*"status":"failed","why":"[^"]*holds .readme.txt., which squint fixture did not write"' \
    "$TMP/own/fixture.jsonl" "fixture: ... the question is recorded failed, saying why"
[ "$(cat "$TMP/own/2/readme.txt")" = mine ] && ok "fixture: ... and the file is left alone" ||
    not_ok "fixture: the user's file was changed"
printf 'not json\n' > "$TMP/own2.jsonl"
mkdir -p "$TMP/own2" && cp "$TMP/own2.jsonl" "$TMP/own2/fixture.jsonl"
expect_exit 2 "fixture: a fixture.jsonl that is not records" -- run --out "$TMP/own2"
cmp -s "$TMP/own2.jsonl" "$TMP/own2/fixture.jsonl" && ok "fixture: ... is refused and left alone" ||
    not_ok "fixture: the records file was changed"

# ---- squint eval --suite: test-suite accuracy on the bundled benchmark ------------
eval_demo_db "fixture"     # exits here without the sqlite3 shell
expect_exit 0 "fixture: the demo benchmark's suites" -- \
    "$SQUINT" fixture "${BUDGET[@]}" --gold $D/dev.json --db-root "$TMP/db" --out "$TMP/ds" --limit 6 -q -j 2
ev() { "$SQUINT" eval "${EVAL_BUDGET[@]}" --gold $D/dev.json --pred good=$D/pred_good.sql --pred weak=$D/pred_weak.sql \
       --db-root "$TMP/db" --limit 6 -q "$@"; }
expect_exit 0 "fixture: eval --suite" -- ev --suite "$TMP/ds" --out "$TMP/ev.jsonl" --report "$TMP/ev.html"
expect_grep '^system +items +EX-test +EX-suite +EX-verified' "$TMP/out" "fixture: ... the summary shows EX-test, EX-suite and EX-verified"
expect_grep '<th>EX-test</th><th>EX-suite</th><th>EX-verified</th>' "$TMP/ev.html" "fixture: ... and so does the HTML report"
expect_grep '"ex_suite":"(correct|wrong)"' "$TMP/ev.jsonl" "fixture: ... the records carry EX-suite"
expect_grep '"ex":"correct"[^{}]*"ex_suite":"wrong","ex_suite_detail":"wrong on 0[0-9].sqlite"' "$TMP/ev.jsonl" \
    "fixture: ... a suite rejects a prediction EX-test accepts, naming the database"
if grep -qE '"ex_suite":"wrong"[^{}]*"verdict":"equivalent"' "$TMP/ev.jsonl"; then
    not_ok "fixture: ... a suite rejects a prediction proved equivalent"
else ok "fixture: ... no prediction proved equivalent is rejected by a suite"; fi
expect_exit 0 "fixture: eval --suite, JSON" -- ev --suite "$TMP/ds" --format json --no-verify
expect_grep '"ex_suite": [0-9.]+' "$TMP/out" "fixture: ... the JSON summary has ex_suite"
printf '{"squint_fixture":1,"question":0,"inputs":"0000000000000000","id":"0"}\n' > "$TMP/bad-suite.jsonl"
mkdir -p "$TMP/bs" && cp "$TMP/bad-suite.jsonl" "$TMP/bs/fixture.jsonl"
expect_exit 2 "fixture: eval --suite of another gold file" -- ev --suite "$TMP/bs"
expect_grep 'built for another gold query' "$TMP/err" "fixture: ... is refused, saying why"
expect_exit 2 "fixture: eval --suite of a directory without suites" -- ev --suite "$TMP/nothing"
