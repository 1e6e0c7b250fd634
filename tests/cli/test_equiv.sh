#!/usr/bin/env bash
# test_equiv.sh -- squint equiv against the cases of tests/equiv/*.cases
# (their format: tests/equiv/README.md).  Prints TAP lines:
#   equiv/FILE: well-formed        each case file parses (else "malformed")
#   equiv/FILE/CASE                the verdict line, the exit status and, for
#                                  `different`, the counterexample's size and
#                                  its replay in the sqlite3 shell
#   equiv/usage/...                column count and usage errors
# Usage: tests/cli/test_equiv.sh [usage] [FILE.cases...]
#   With no argument, every case file and the usage checks; else only the
#   case files named, and the usage checks when `usage` is named.
#   --parts prints the parts one per line (tests/run.sh runs them side by
#   side).
# run.sh: --parts
# Every run is bounded by z3's resource limit, not by time, so that a
# verdict does not depend on how loaded the machine is (issue 18, finding
# 7): --timeout 0 --rlimit $EQUIV_RLIMIT for each pair (default 40
# million units, well above what the hungriest case spends; squint equiv
# -f json reports "rlimit_used").  EQUIV_TIMEOUT=S runs with --timeout S
# instead, to see how the cases fare under the default time limit.
# EQUIV_VALUES=typed runs the cases that do not say `-- values:` with
# typed values (make sanitize: the same code paths for less solver time);
# a case that needs every storage class says `-- values: any`.
# EQUIV_WRAP="CMD ARGS" runs each case's squint under CMD (make leaks:
# valgrind, whose error status then fails the case).

# Case files named on the command line, made absolute before the cd.
files=()
run_usage=0
for a in "$@"; do
    case $a in
        --parts) cd "$(dirname "$0")/../.." && printf '%s\n' usage tests/equiv/*.cases; exit ;;
        usage) run_usage=1 ;;
        /*) files+=("$a") ;;
        *) files+=("$PWD/$a") ;;
    esac
done
cd "$(dirname "$0")/../.." || exit 2
. tests/cli/lib.sh
if [ $# -eq 0 ]; then files=(tests/equiv/*.cases); run_usage=1; fi

fails=0
bad() { not_ok "$@"; fails=$((fails + 1)); }

# ---- the case file parser ---------------------------------------------------
# awk -v dir=DIR: writes DIR/schema.sql, DIR/K.q1.sql and DIR/K.q2.sql for
# the K-th case, and prints one line per case on stdout:
#   K|NAME|SEMANTICS|EXPECT|MAX_ROWS|BOUND|PROOF|VALUES   (MAX_ROWS empty when not given)
# On a malformed file: "FILE:LINE: message" on stderr, exit status 1.
# shellcheck disable=SC2016
PARSE='
function fail(ln, msg) { printf "%s:%d: %s\n", FILENAME, ln, msg > "/dev/stderr"; failed = 1; exit 1 }
function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t\r]+$/, "", s); return s }
function finish() {
    if (!incase) return
    if (inq) fail(qline, "case \"" name "\": query not ended by a line ending in \";\"")
    if (nq != 2) fail(cline, "case \"" name "\": " nq " queries, want 2")
    if (expect == "") fail(cline, "case \"" name "\": no \"-- expect:\" line")
    close(dir "/" k ".q1.sql"); close(dir "/" k ".q2.sql")
    if (proof == "normal-form" && expect != "equivalent")
        fail(cline, "case \"" name "\": \"-- proof: normal-form\" without \"-- expect: equivalent\"")
    print k "|" name "|" sem "|" expect "|" maxrows "|" bound "|" proof "|" values
    incase = 0
}
BEGIN { state = "pre"; k = 0; nschema = 0 }
{
    line = $0; sub(/\r$/, "", line); t = trim(line)
    if (t == "-- schema:") {
        if (state != "pre") fail(NR, "a second \"-- schema:\" line")
        state = "schema"; next
    }
    if (t ~ /^-- case:/) {
        if (state == "pre") fail(NR, "\"-- case:\" before \"-- schema:\"")
        finish()
        state = "case"; incase = 1; k++; cline = NR
        name = trim(substr(t, 9))
        if (name !~ /^[A-Za-z0-9_.-]+$/) fail(NR, "bad case name \"" name "\" (want letters, digits, _ . -)")
        if (name in seen) fail(NR, "case \"" name "\" named twice (also line " seen[name] ")")
        seen[name] = NR
        sem = "set"; expect = ""; maxrows = ""; bound = 3; proof = "search"; values = ""; nq = 0; inq = 0
        delete given
        next
    }
    directive = (t ~ /^-- (semantics|expect|max-rows|bound|proof|values):/)
    if (state == "pre") {
        if (t == "" || t ~ /^--/) next
        fail(NR, "SQL before the \"-- schema:\" line")
    }
    if (state == "schema") {
        if (directive) fail(NR, "directive in the schema, before any \"-- case:\"")
        print line > (dir "/schema.sql")
        if (t != "" && t !~ /^--/) nschema++
        next
    }
    # state == "case"
    if (directive) {
        if (nq > 0 || inq) fail(NR, "case \"" name "\": directive after its queries began")
        key = t; sub(/^-- /, "", key); sub(/:.*/, "", key)
        val = t; sub(/^-- [a-z-]+:/, "", val); val = trim(val)
        if (key in given) fail(NR, "case \"" name "\": a second \"-- " key ":\" line")
        given[key] = 1
        if (key == "semantics") {
            if (val !~ /^(set|bag|list|spider)$/) fail(NR, "bad semantics \"" val "\" (set, bag, list or spider)")
            sem = val
        } else if (key == "expect") {
            if (val !~ /^(equivalent|different|different-under-ties|unknown)$/)
                fail(NR, "bad expectation \"" val "\" (equivalent, different, different-under-ties or unknown)")
            expect = val
        } else if (key == "proof") {
            if (val !~ /^(search|search-only|normal-form)$/)
                fail(NR, "bad proof \"" val "\" (search, search-only or normal-form)")
            proof = val
        } else if (key == "values") {
            if (val !~ /^(any|typed)$/) fail(NR, "bad values \"" val "\" (any or typed)")
            values = val
        } else if (key == "max-rows") {
            if (val !~ /^[0-9]+$/) fail(NR, "bad max-rows \"" val "\" (a number)")
            maxrows = val + 0
        } else {
            if (val !~ /^[1-9][0-9]*$/) fail(NR, "bad bound \"" val "\" (a positive number)")
            bound = val + 0
        }
        next
    }
    if (t ~ /^--/) next                       # a comment (witness lines too)
    if (t == "") { if (inq) print line > (dir "/" k ".q" (nq + 1) ".sql"); next }
    if (nq >= 2) fail(NR, "case \"" name "\": a third query")
    if (!inq) qline = NR
    print line > (dir "/" k ".q" (nq + 1) ".sql")
    inq = 1
    if (t ~ /;$/) { nq++; inq = 0 }
}
END {
    if (failed) exit 1
    if (state == "pre") fail(NR, "no \"-- schema:\" line")
    if (nschema == 0) fail(NR, "empty schema")
    finish()
    if (k == 0) fail(NR, "no cases")
}'

# ---- rows per table in a counterexample script -----------------------------
# Prints "COUNT TABLE" for every table an INSERT ... VALUES fills: the number
# of parenthesized tuples after VALUES, summed over its INSERT statements.
# Strings, quoted identifiers and comments are skipped.
# shellcheck disable=SC2016
ROWS='
function tok(w, quoted,   lw) {
    lw = tolower(w); ntok++
    if (ntok == 1) { ins = (!quoted && (lw == "insert" || lw == "replace")); return }
    if (!ins) return
    if (want_table) { table = tolower(w); want_table = 0; seen[table] += 0; return }
    if (!quoted && lw == "into" && table == "") { want_table = 1; return }
    if (!quoted && lw == "values" && depth == 0) vals = 1
}
function endword() { if (word != "") { tok(word, 0); word = "" } }
{ buf = buf $0 "\n" }
END {
    n = length(buf); i = 1
    while (i <= n) {
        c = substr(buf, i, 1); d = substr(buf, i + 1, 1)
        if (c == "'"'"'" || c == "\"" || c == "`" || c == "[") {
            endword()
            close_c = (c == "[") ? "]" : c
            j = i + 1; s = ""
            while (j <= n) {
                e = substr(buf, j, 1)
                if (e == close_c) {
                    if (close_c != "]" && substr(buf, j + 1, 1) == close_c) { s = s e; j += 2; continue }
                    break
                }
                s = s e; j++
            }
            if (c != "'"'"'") tok(s, 1)
            i = j + 1; continue
        }
        if (c == "-" && d == "-") { endword(); while (i <= n && substr(buf, i, 1) != "\n") i++; continue }
        if (c == "/" && d == "*") {
            endword(); i += 2
            while (i <= n && !(substr(buf, i, 1) == "*" && substr(buf, i + 1, 1) == "/")) i++
            i += 2; continue
        }
        if (c ~ /[A-Za-z0-9_$]/) { word = word c; i++; continue }
        endword()
        if (c == "(") { if (ins && vals && depth == 0 && table != "") seen[table]++; depth++ }
        else if (c == ")") depth--
        else if (c == ";") { ntok = 0; ins = 0; vals = 0; table = ""; want_table = 0; depth = 0 }
        i++
    }
    for (t in seen) print seen[t], t
}'

# ---- parse every case file ------------------------------------------------
n=0
declare -a dirs=() bases=()
for f in "${files[@]}"; do
    base=$(basename "$f" .cases)
    n=$((n + 1))
    dir=$TMP/cases/$n
    mkdir -p "$dir"
    if [ ! -r "$f" ]; then bad "equiv/$base: cannot read $f"; continue; fi
    if awk -v dir="$dir" "$PARSE" "$f" >"$dir/index" 2>"$dir/err"; then
        ok "equiv/$base: well-formed ($(wc -l <"$dir/index") cases)"
        dirs+=("$dir"); bases+=("$base")
    else
        bad "equiv/$base: malformed: $(head -1 "$dir/err")"
        echo "test_equiv.sh: $(head -1 "$dir/err")" >&2
    fi
done

# ---- is there a command to test? ------------------------------------------
if ! "$SQUINT" equiv --help >/dev/null 2>&1; then
    not_ok "squint equiv missing"
    exit 1
fi

# ---- run the cases --------------------------------------------------------
EQUIV_RLIMIT=${EQUIV_RLIMIT:-40000000}
timeout_args=(--timeout 0 --rlimit "$EQUIV_RLIMIT")
[ -n "${EQUIV_TIMEOUT:-}" ] && timeout_args=(--timeout "$EQUIV_TIMEOUT")

# replay CX Q1 Q2 SEM: run both query files on the counterexample script CX
# in the sqlite3 shell, values quoted (so 1, 1.0 and '1' differ); 0 when the
# results differ under SEM (set: as sets of lines, bag: as multisets,
# list: in order), 1 when they do not, 2 when the shell failed.
replay() {
    local cx=$1 q1=$2 q2=$3 sem=$4 o1 o2 norm
    case $sem in set) norm=(sort -u) ;; bag) norm=(sort) ;; *) norm=(cat) ;; esac
    o1=$( { cat "$cx"; echo ".mode quote"; cat "$q1"; } | sqlite3 -batch -bail :memory: 2>&1) || return 2
    o2=$( { cat "$cx"; echo ".mode quote"; cat "$q2"; } | sqlite3 -batch -bail :memory: 2>&1) || return 2
    [ "$(printf '%s\n' "$o1" | LC_ALL=C "${norm[@]}")" != "$(printf '%s\n' "$o2" | LC_ALL=C "${norm[@]}")" ]
}

run_case() { # run_case DIR BASE K NAME SEM EXPECT MAXROWS BOUND PROOF VALUES
    local dir=$1 base=$2 k=$3 name=$4 sem=$5 expect=$6 maxrows=$7 bound=$8 proof=$9 values=${10}
    local tag="equiv/$base/$name" cx=$TMP/cx.sql status first want_status want_line
    rm -f "$cx"
    local only=()
    [ "$proof" = search-only ] && only=(--search-only)
    # shellcheck disable=SC2086
    $EQUIV_WRAP "$SQUINT" equiv --schema "$dir/schema.sql" --semantics "$sem" --bound "$bound" \
        --values "${values:-${EQUIV_VALUES:-any}}" "${only[@]}" \
        "${timeout_args[@]}" --fixture-out "$cx" "@$dir/$k.q1.sql" "@$dir/$k.q2.sql" \
        </dev/null >"$TMP/out" 2>"$TMP/err"
    status=$?
    first=$(head -n 1 "$TMP/out")
    case $expect in
        equivalent) want_status=0; want_line="equivalent (up to bound $bound)"
            [ "$proof" = normal-form ] && want_line="equivalent (on every database: the same normal form)" ;;
        different) want_status=1; want_line="different" ;;
        different-under-ties) want_status=1; want_line="different-under-ties" ;;
        unknown) want_status=3; want_line="unknown: ..." ;;
    esac
    local line_ok=0
    if [ "$expect" = unknown ]; then
        # neither a model SQLite does not confirm nor a search whose
        # process failed (a crash, an abort, a leak under make leaks) is
        # an answer a case expects
        case $first in "unknown: spurious"*|"unknown: solver failed"*) ;; "unknown: "*) line_ok=1 ;; esac
    elif [ "$first" = "$want_line" ]; then
        line_ok=1
    elif [ "$expect" = equivalent ] && [ "$proof" != normal-form ]; then
        # a vacuous bound, searched again with one table larger
        case $first in "equivalent (up to bound $bound, "*" up to "*" rows)") line_ok=1 ;; esac
    fi
    if [ $line_ok = 0 ] || [ "$status" != "$want_status" ]; then
        bad "$tag (exit $status '$first', want $want_status '$want_line')"
        sed -n '1,3s/^/#   /p' "$TMP/err"
        return
    fi
    if [ "$expect" = different ]; then
        local limit=${maxrows:-$bound} over="" t c
        if [ ! -s "$cx" ]; then
            bad "$tag (no counterexample written to --fixture-out)"; return
        fi
        if ! grep -qi 'create table' "$cx"; then
            bad "$tag (counterexample script has no CREATE TABLE)"; return
        fi
        while read -r c t; do
            [ "$c" -le "$limit" ] || over="$over $t:$c"
        done < <(awk "$ROWS" "$cx")
        if [ -n "$over" ]; then
            bad "$tag (counterexample has more than $limit rows in:$over)"; return
        fi
        # SQLite itself, outside squint, must see the difference (not for
        # spider's column permutations, nor for queries that read the clock
        # squint pins)
        if [ "$sem" != spider ] && ! grep -qiE "now|current_" "$dir/$k.q1.sql" "$dir/$k.q2.sql"; then
            replay "$cx" "$dir/$k.q1.sql" "$dir/$k.q2.sql" "$sem"
            case $? in
                1) bad "$tag (the sqlite3 shell finds no difference on the counterexample)"; return ;;
                2) bad "$tag (the sqlite3 shell cannot run the counterexample)"; return ;;
            esac
        fi
    fi
    ok "$tag"
}

for i in "${!dirs[@]}"; do
    while IFS='|' read -r k name sem expect maxrows bound proof values; do
        run_case "${dirs[$i]}" "${bases[$i]}" "$k" "$name" "$sem" "$expect" "$maxrows" "$bound" "$proof" "$values"
    done <"${dirs[$i]}/index"
done

if [ $run_usage = 0 ]; then [ "$fails" -eq 0 ]; exit; fi

# ---- column count and usage errors ------------------------------------------
U=$TMP/usage.sql
cat >"$U" <<'SQL'
CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL, x INTEGER);
SQL
usage() { # usage NAME WANT_STATUS ARGS...  (the budget of the cases first; ARGS may override it)
    local name=$1 want=$2
    shift 2
    "$SQUINT" equiv "${timeout_args[@]}" "$@" </dev/null >"$TMP/out" 2>"$TMP/err"
    local got=$?
    if [ "$got" = "$want" ]; then ok "equiv/usage/$name"; else
        bad "equiv/usage/$name (exit $got, want $want)"; fi
}
usage "column count" 1 --schema "$U" "SELECT id FROM t" "SELECT id, name FROM t"
if head -n 1 "$TMP/out" | grep -q '^different: column count'; then ok "equiv/usage/column count: verdict line"; else
    bad "equiv/usage/column count: verdict line (got '$(head -n 1 "$TMP/out")')"; fi
usage "queries as text" 0 --schema "$U" --bound 2 "SELECT id FROM t WHERE x > 1" "SELECT id FROM t WHERE 1 < x"
usage "no schema" 2 "SELECT id FROM t" "SELECT id FROM t"
usage "one query" 2 --schema "$U" "SELECT id FROM t"
usage "three queries" 2 --schema "$U" "SELECT id FROM t" "SELECT id FROM t" "SELECT id FROM t"
usage "unknown semantics" 2 --schema "$U" --semantics multiset "SELECT id FROM t" "SELECT id FROM t"
usage "bad bound" 2 --schema "$U" --bound zero "SELECT id FROM t" "SELECT id FROM t"
usage "missing @file" 2 --schema "$U" "@$TMP/none.sql" "SELECT id FROM t"
usage "syntax error" 2 --schema "$U" "SELECT id FROM t WHERE" "SELECT id FROM t"
usage "unknown table" 2 --schema "$U" "SELECT id FROM nosuch" "SELECT id FROM t"
# SQLite has UNION ALL but no INTERSECT ALL or EXCEPT ALL: a syntax error.
usage "INTERSECT ALL" 2 --schema "$U" "SELECT x FROM t INTERSECT ALL SELECT x FROM t" "SELECT x FROM t"
usage "EXCEPT ALL" 2 --schema "$U" "SELECT x FROM t EXCEPT ALL SELECT x FROM t" "SELECT x FROM t"

# ---- the clock: 'now' and CURRENT_* pinned by --now, in the search and in SQLite
usage "now: pinned" 0 --schema "$U" --bound 2 --now "2020-02-29 10:00:00" \
    "SELECT id, CURRENT_TIMESTAMP, strftime('%Y', 'now') FROM t" "SELECT id, '2020-02-29 10:00:00', '2020' FROM t"
if grep -q "^note: the queries read the clock.*'now' was 2020-02-29 10:00:00 UTC" "$TMP/out"; then
    ok "equiv/usage/now: note"; else bad "equiv/usage/now: note (got '$(cat "$TMP/out")')"; fi
usage "now: another instant differs" 1 --schema "$U" --bound 2 --now 2020-03-01 \
    "SELECT id, CURRENT_DATE FROM t" "SELECT id, '2020-02-29' FROM t"
if grep -q "^checked by execution" "$TMP/out"; then ok "equiv/usage/now: checked by execution"; else
    bad "equiv/usage/now: checked by execution (got '$(cat "$TMP/out")')"; fi
# SQLite's own result shows the pinned day, not today's.
if grep -q "| '2020-03-01' |" "$TMP/out"; then ok "equiv/usage/now: SQLite's clock pinned"; else
    bad "equiv/usage/now: SQLite's clock pinned (got '$(cat "$TMP/out")')"; fi
usage "now: default" 0 --schema "$U" --bound 2 "SELECT id FROM t WHERE CURRENT_DATE = '2026-06-15'" "SELECT id FROM t"
usage "now: no clock, no note" 0 --schema "$U" --bound 1 "SELECT id FROM t" "SELECT id FROM t"
if grep -q "read the clock" "$TMP/out"; then bad "equiv/usage/now: no clock, no note"; else
    ok "equiv/usage/now: no clock, no note (text)"; fi
usage "now: not a date" 2 --schema "$U" --now 2020-02-30 "SELECT 1" "SELECT 1"
usage "now: before 1970" 2 --schema "$U" --now 1969-12-31 "SELECT 1" "SELECT 1"
usage "now: garbage" 2 --schema "$U" --now yesterday "SELECT 1" "SELECT 1"

# ---- normal forms: the proof in JSON, and --search-only that skips it
usage "normal form: json" 0 --schema "$U" -f json "SELECT a.id FROM t a, t b WHERE a.id = b.id AND a.x > 1" \
    "SELECT b.id FROM t b, t a WHERE b.x > 1 AND b.id = a.id"
if grep -q '"proof": "normal form"' "$TMP/out" && grep -q '"normal_form": "the same"' "$TMP/out"; then
    ok "equiv/usage/normal form: proof"; else bad "equiv/usage/normal form: proof (got '$(cat "$TMP/out")')"; fi
usage "normal form: search only" 0 --schema "$U" --bound 2 -f json --search-only \
    "SELECT a.id FROM t a, t b WHERE a.id = b.id AND a.x > 1" "SELECT b.id FROM t b, t a WHERE b.x > 1 AND b.id = a.id"
if grep -q '"proof": null' "$TMP/out" && grep -q '"normal_form": "not compared (--search-only)"' "$TMP/out"; then
    ok "equiv/usage/normal form: skipped"; else bad "equiv/usage/normal form: skipped (got '$(cat "$TMP/out")')"; fi
# t.x is no key: the IN stays a subquery, which has no normal form.
usage "normal form: why not" 0 --schema "$U" --bound 2 -f json "SELECT id FROM t WHERE x IN (SELECT x FROM t)" \
    "SELECT id FROM t WHERE x IS NOT NULL"
if grep -q '"proof": null' "$TMP/out" && grep -q '"normal_form": "a subquery"' "$TMP/out"; then
    ok "equiv/usage/normal form: why not"; else bad "equiv/usage/normal form: why not (got '$(cat "$TMP/out")')"; fi

# ---- 'localtime' and 'utc' depend on the time zone: the verdict names it
tz_set=${TZ+1} tz_was=${TZ-}
export TZ=UTC
usage "time zone: localtime" 0 --schema "$U" --bound 1 -f json \
    "SELECT id, datetime('2020-01-01', 'localtime') FROM t" "SELECT id, '2020-01-01 00:00:00' FROM t"
if grep -q '"time_zone": "UTC"' "$TMP/out"; then ok "equiv/usage/time zone: named"; else
    bad "equiv/usage/time zone: named (got '$(cat "$TMP/out")')"; fi
usage "time zone: none" 0 --schema "$U" --bound 1 -f json "SELECT id, datetime('2020-01-01') FROM t" \
    "SELECT id, '2020-01-01 00:00:00' FROM t"
if grep -q '"time_zone": null' "$TMP/out"; then ok "equiv/usage/time zone: not named"; else
    bad "equiv/usage/time zone: not named (got '$(cat "$TMP/out")')"; fi
if [ -n "$tz_set" ]; then export TZ=$tz_was; else unset TZ; fi

# ---- readable counterexamples: z3 gives the text of columns nothing reads
# characters from anywhere in Unicode ('\u{10af}' here, before squint made
# them letters); once SQLite has confirmed the difference, they are made
# printable ASCII where the queries still differ
D=$TMP/dates.sql
echo "CREATE TABLE ev (id INTEGER PRIMARY KEY, d DATE, ts DATETIME, name TEXT);" >"$D"
usage "readable: different" 1 --schema "$D" --bound 1 --fixture-out "$TMP/readable.sql" \
    "SELECT id FROM ev WHERE name BETWEEN 201101 AND 201112" "SELECT id FROM ev WHERE strftime('%Y', name) = '2011'"
if grep -q '^INSERT' "$TMP/readable.sql" && ! LC_ALL=C grep -q '[^ -~]' "$TMP/readable.sql"; then
    ok "equiv/usage/readable: printable ASCII"; else
    bad "equiv/usage/readable: printable ASCII (got '$(cat "$TMP/readable.sql")')"; fi

# ---- REAL arithmetic: exact in the search, rounded in SQLite.  The two
# conditions agree on the rationals only up to 0.8's double; the solver's
# difference needs huge heights, where SQLite's doubles round it away.
R=$TMP/round.sql
echo "CREATE TABLE hero (id INTEGER PRIMARY KEY, h INTEGER);" >"$R"
usage "rounding: unconfirmed" 3 --schema "$R" --bound 2 --values typed \
    "SELECT id FROM hero WHERE h * 100 > (SELECT AVG(h) FROM hero) * 80" \
    "SELECT id FROM hero WHERE h > (SELECT AVG(h) * 0.8 FROM hero)"
case $(head -n 1 "$TMP/out") in
    "unknown: unconfirmed difference at bound "*"(it needs REAL arithmetic without the rounding of SQLite's doubles)" |\
    "unknown: timeout"*)
        ok "equiv/usage/rounding: not spurious" ;;
    *) bad "equiv/usage/rounding: not spurious (got '$(head -n 1 "$TMP/out")')" ;;
esac

# ... and with every storage class, a real difference: h = '' is 0 in
# arithmetic but TEXT, above every number, when compared
usage "rounding: text in the column" 1 --schema "$R" --bound 2 \
    "SELECT id FROM hero WHERE h * 100 > (SELECT AVG(h) FROM hero) * 80" \
    "SELECT id FROM hero WHERE h > (SELECT AVG(h) * 0.8 FROM hero)"
grep -q "^note: only values of another storage class" "$TMP/out" && ok "equiv/usage/rounding: off-type note" ||
    bad "equiv/usage/rounding: off-type note (got '$(cat "$TMP/out")')"

# ---- --rlimit: a budget of solver work instead of time
usage "rlimit: enough" 0 --schema "$U" --bound 2 --timeout 0 --rlimit 50000000 --search-only \
    "SELECT id FROM t WHERE x > 1" "SELECT id FROM t WHERE 1 < x"
usage "rlimit: too small" 3 --schema "$U" --bound 3 --timeout 0 --rlimit 1 --search-only \
    "SELECT id FROM t WHERE x > 1" "SELECT id FROM t WHERE 1 < x"
if head -n 1 "$TMP/out" | grep -q '^unknown: resource limit (--rlimit) reached at bound [0-9]*$'; then
    ok "equiv/usage/rlimit: verdict line"; else
    bad "equiv/usage/rlimit: verdict line (got '$(head -n 1 "$TMP/out")')"; fi
usage "rlimit: negative" 2 --schema "$U" --rlimit -5 "SELECT 1" "SELECT 1"
usage "rlimit: not a number" 2 --schema "$U" --rlimit lots "SELECT 1" "SELECT 1"

# ---- outputs never harm the user's files (issue 18, finding 4) --------------
# --fixture-out once wrote over any file, the --db database it was reading
# included (the real database then held the counterexample).
DB=$TMP/input.sqlite
sqlite3 "$DB" "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL, x INTEGER); INSERT INTO t VALUES (1, 'a', 2);"
before=$(cksum <"$DB")
usage "outputs: not over --db" 2 --db "$DB" --fixture-out "$DB" "SELECT id FROM t" "SELECT x FROM t"
if [ "$(cksum <"$DB")" = "$before" ] && grep -q "is an input of this run (--db)" "$TMP/err"; then
    ok "equiv/usage/outputs: --db untouched"; else bad "equiv/usage/outputs: --db untouched ($(cat "$TMP/err"))"; fi
ln -sf "$DB" "$TMP/alias.sqlite"
usage "outputs: not over --db by another name, even forced" 2 --db "$DB" --force \
    --fixture-out "$TMP/alias.sqlite" "SELECT id FROM t" "SELECT x FROM t"
[ "$(cksum <"$DB")" = "$before" ] && ok "equiv/usage/outputs: --db untouched by its alias" ||
    bad "equiv/usage/outputs: --db untouched by its alias"
echo "SELECT id FROM t;" >"$TMP/q1.sql"
usage "outputs: not over a query file" 2 --schema "$U" --dump-smt "$TMP/q1.sql" "@$TMP/q1.sql" "SELECT x FROM t"
grep -q "^SELECT id FROM t;$" "$TMP/q1.sql" && ok "equiv/usage/outputs: query file untouched" ||
    bad "equiv/usage/outputs: query file untouched"
echo "keep me" >"$TMP/mine.sql"
usage "outputs: an existing file needs --force" 2 --schema "$U" --fixture-out "$TMP/mine.sql" \
    "SELECT id FROM t" "SELECT x FROM t"
if [ "$(cat "$TMP/mine.sql")" = "keep me" ] && grep -q "exists; pass --force" "$TMP/err"; then
    ok "equiv/usage/outputs: existing file kept"; else bad "equiv/usage/outputs: existing file kept"; fi
usage "outputs: --force replaces it" 1 --schema "$U" --bound 1 --force --fixture-out "$TMP/mine.sql" \
    "SELECT id FROM t" "SELECT x FROM t"
grep -qi "^CREATE TABLE" "$TMP/mine.sql" && ok "equiv/usage/outputs: replaced whole" ||
    bad "equiv/usage/outputs: replaced whole"
ls "$TMP"/mine.sql.tmp-* >/dev/null 2>&1 && bad "equiv/usage/outputs: no temporary left" ||
    ok "equiv/usage/outputs: no temporary left"
usage "outputs: refused before the search" 2 --schema "$U" --fixture-out "$TMP/mine.sql" --dump-smt "$TMP/mine.sql" \
    "SELECT id FROM t" "SELECT x FROM t"
[ ! -s "$TMP/out" ] && ok "equiv/usage/outputs: no verdict printed" || bad "equiv/usage/outputs: no verdict printed"

# ---- a solver that fails ends only its own process (finding 5) --------------
# z3 4.8 exits with status 114 on an internal error; the search runs in a
# child process, so that becomes a verdict.  The fault is injected
# (SQUINT_TEST_SOLVER_FAULT): z3's own takes minutes and gigabytes.
for fault in exit114 abort; do
    SQUINT_TEST_SOLVER_FAULT=$fault usage "solver failed: $fault" 3 --schema "$U" "SELECT id FROM t" "SELECT x FROM t"
    if head -n 1 "$TMP/out" | grep -q "^unknown: solver failed (.*)$"; then ok "equiv/usage/solver failed: $fault: verdict"
    else bad "equiv/usage/solver failed: $fault: verdict (got '$(head -n 1 "$TMP/out")')"; fi
done
grep -q "exit status 114" <(SQUINT_TEST_SOLVER_FAULT=exit114 "$SQUINT" equiv --schema "$U" "SELECT 1" "SELECT 2") &&
    ok "equiv/usage/solver failed: says how" || bad "equiv/usage/solver failed: says how"
SQUINT_TEST_SOLVER_FAULT=hang usage "solver failed: one that ignores its time limit is stopped" 3 --schema "$U" \
    --timeout 0.2 "SELECT id FROM t" "SELECT x FROM t"
# z3 4.8.12 crashes (signal 11) inside some incremental checks while it
# shrinks a counterexample; the search is tried again with shrinking on
# fresh solvers, which gives the verdict.  A crash on both tries is
# 'solver failed'.
SQUINT_TEST_SOLVER_FAULT=segv-once usage "a crash on the first try: the second try's verdict" 1 --schema "$U" \
    "SELECT id FROM t" "SELECT x FROM t"
head -n 1 "$TMP/out" | grep -qx "different" && ok "equiv/usage/segv-once: different" ||
    bad "equiv/usage/segv-once: different (got '$(head -n 1 "$TMP/out")')"
SQUINT_TEST_SOLVER_FAULT=segv usage "a crash on both tries: solver failed" 3 --schema "$U" "SELECT id FROM t" "SELECT x FROM t"
grep -q "^unknown: solver failed (the solver's process ended on signal 11" "$TMP/out" &&
    ok "equiv/usage/segv: says how" || bad "equiv/usage/segv: says how"
SQUINT_TEST_SOLVER_FAULT=abort usage "solver failed: json" 3 --schema "$U" -f json "SELECT id FROM t" "SELECT x FROM t"
grep -q '"detail": "unknown: solver failed' "$TMP/out" && ok "equiv/usage/solver failed: json detail" ||
    bad "equiv/usage/solver failed: json detail"

# ---- --db takes a database; a broken schema is an input error (finding 8) ---
echo '{"not": "a database"}' >"$TMP/notdb.json"
usage "db: not a database" 2 --db "$TMP/notdb.json" "SELECT 1" "SELECT 2"
if grep -q "error\[E0206\]: --db '.*notdb.json' is not a SQLite database" "$TMP/err" && [ ! -s "$TMP/out" ]; then
    ok "equiv/usage/db: not a database: message, no verdict"; else
    bad "equiv/usage/db: not a database: message, no verdict ($(cat "$TMP/err"))"; fi
printf 'CREATE TABLE t (a INT);\nCREATE TABL u (b);\n' >"$TMP/broken.sql"
usage "schema: a script with errors" 2 --schema "$TMP/broken.sql" "SELECT a FROM t" "SELECT a FROM t WHERE 0"
if grep -q "broken.sql:2:8: error" "$TMP/err" && [ ! -s "$TMP/out" ]; then
    ok "equiv/usage/schema: errors point into the schema, no verdict"; else
    bad "equiv/usage/schema: errors point into the schema, no verdict"; fi

[ "$fails" -eq 0 ]
