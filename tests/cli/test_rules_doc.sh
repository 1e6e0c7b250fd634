#!/usr/bin/env bash
# test_rules_doc.sh -- docs/rules.md against the rules it documents.
#
# Every rule of passes/lint/rules.def must have exactly one "## ID NAME"
# section, in id order, a row in the summary table and its help text; no
# section may name a rule that does not exist.  Each section's examples are
# run through squint lint with only that rule on, on the lint fixture: the
# bad example must be reported with the line the doc shows for it, the
# fixed one must give no finding.  Prints TAP lines.
#
# The examples are fenced blocks inside a rule's section:
#   ```sql bad        the query the rule reports
#   ```text           the first line squint prints for it, as run on a file
#                     named bad.sql (the first text block after the bad one)
#   ```sql fixed      the corrected query
# each SQL block one statement ending in ';'.  They run with --schema, or
# with --db when the section has a "<!-- level: data -->" line, with --prove
# --schema when it has "<!-- level: prove -->".  A section
# may add a second example that always runs with --db: "```sql bad data",
# its text block, and "```sql fixed data".
cd "$(dirname "$0")/../.." || exit 2
. tests/cli/lib.sh
failed=0
not_ok() { failed=1; echo "not ok - $*"; } # as lib.sh's, and remembered for the exit status
DOC=docs/rules.md
DEF=passes/lint/rules.def
FIX=$PWD/tests/golden/lint.fixture.sql
case $SQUINT in /*) SQ=$SQUINT ;; *) SQ=$PWD/$SQUINT ;; esac

if [ ! -x "$SQ" ]; then not_ok "$SQ is built"; exit 1; fi
if [ ! -f "$DOC" ]; then not_ok "$DOC exists"; exit 1; fi

# ---- the rules: id, name, severity, level, summary, help (tab-separated) ----
# A LINT_RULE( line starts each rule; its quoted strings are, in order, the
# id, the name, the summary and the help, and the two bare words after the
# name are the severity and the level.
awk '
function strings(s,    out) {
    out = ""
    while (match(s, /"[^"]*"/)) {
        out = out "\t" substr(s, RSTART + 1, RLENGTH - 2)
        s = substr(s, RSTART + RLENGTH)
    }
    return out
}
function flush() { if (rec != "") print rec; rec = "" }
/^LINT_RULE\(/ {
    flush()
    split($0, w, /[ ,()]+/)          # LINT_RULE ENUM "id" "name" SEV LEVEL
    rec = substr(strings($0), 2) "\t" tolower(w[5]) "\t" tolower(w[6])
    next
}
rec != "" { rec = rec strings($0) }
/\)[ \t]*$/ { flush() }
END { flush() }' "$DEF" >"$TMP/rules.tsv"

n_rules=$(wc -l <"$TMP/rules.tsv")
n_listed=$("$SQ" lint --list-rules </dev/null | grep -c '^L0')
if [ "$n_rules" -gt 0 ] && [ "$n_rules" = "$n_listed" ]; then
    ok "rules.def: $n_rules rules, as --list-rules lists"
else
    not_ok "rules.def: $n_rules rules parsed, --list-rules lists $n_listed"
fi

# ---- the doc, split: $TMP/doc/ID/{bad,fixed,bad-data,fixed-data}.sql, ----
# {bad,bad-data}.msg, blocks (kinds in order), level, help; headings, table
mkdir -p "$TMP/doc"
awk -v T="$TMP/doc" '
function put(f, s) { print s >> f; close(f) }
inblk && /^```/ { inblk = 0; if (file != "") close(file); file = ""; next }
inblk { if (file != "") print > file; next }
/^```/ {
    inblk = 1; file = ""; info = substr($0, 4)
    if (dir == "") next
    kind = ""
    if (info == "sql bad" || info == "sql fixed" || info == "sql bad data" ||
        info == "sql fixed data") {
        kind = substr(info, 5); gsub(/ /, "-", kind)
        file = dir "/" kind ".sql"
        if (kind ~ /^bad/) pending = kind
    } else if (info == "text" && pending != "") {
        kind = pending "-msg"; file = dir "/" pending ".msg"; pending = ""
    }
    if (kind != "") put(dir "/blocks", kind)
    next
}
/^## / {
    dir = ""; pending = ""
    if ($0 ~ /^## L/) put(T "/headings", $0)
    if ($0 ~ /^## L[0-9][0-9][0-9][0-9] [a-z0-9-]+$/) {
        dir = T "/" $2; system("mkdir -p \"" dir "\""); put(dir "/blocks", "section")
    }
    next
}
dir != "" && /^<!-- level: data -->$/ { put(dir "/level", "data") }
dir != "" && /^<!-- level: prove -->$/ { put(dir "/level", "prove") }
dir != "" && /^\*\*Help:\*\* / { put(dir "/help", substr($0, 11)) }
/^\| L[0-9][0-9][0-9][0-9] \|/ { put(T "/table", $0) }
' "$DOC"
touch "$TMP/doc/headings" "$TMP/doc/table"

# ---- sections: none unknown, in id order --------------------------------------
awk -F'\t' '{ print "## " $1 " " $2 }' "$TMP/rules.tsv" >"$TMP/want_headings"
unknown=$(grep -vxF -f "$TMP/want_headings" "$TMP/doc/headings")
if [ -z "$unknown" ]; then ok "no section for a rule that does not exist"; else
    not_ok "no section for a rule that does not exist"; printf '%s\n' "$unknown" | head -5; fi
if cmp -s "$TMP/want_headings" "$TMP/doc/headings"; then ok "one section per rule, in id order"; else
    not_ok "one section per rule, in id order"
    diff "$TMP/want_headings" "$TMP/doc/headings" | head -5; fi

# ---- the examples --------------------------------------------------------------
# The number of statements in a SQL file (';' outside strings and comments),
# and 1 when something other than blanks and comments follows the last.
statements() {
    awk '{ text = text $0 "\n" }
    END {
        n = 0; tail = 0; st = ""
        for (i = 1; i <= length(text); i++) {
            ch = substr(text, i, 1); nx = substr(text, i + 1, 1)
            if (st == "q") { if (ch == "\047") st = ""; continue }
            if (st == "d") { if (ch == "\"") st = ""; continue }
            if (st == "c") { if (ch == "\n") st = ""; continue }
            if (st == "b") { if (ch == "*" && nx == "/") { st = ""; i++ } continue }
            if (ch == "-" && nx == "-") st = "c"
            else if (ch == "/" && nx == "*") st = "b"
            else if (ch == ";") { n++; tail = 0 }
            else if (ch !~ /[ \t\r\n]/) {
                tail = 1
                if (ch == "\047") st = "q"; else if (ch == "\"") st = "d"
            }
        }
        print n " " tail
    }' "$1"
}

# lint_in DIR MODE NAME FILE: squint lint FILE from DIR with only rule NAME;
# output in $TMP/out, exit status in $status.
lint_in() {
    # shellcheck disable=SC2086 # the mode may be two words (--prove --schema)
    (cd "$1" && "$SQ" lint --no-config --rules "$3" $2 "$FIX" "$4") \
        >"$TMP/out" 2>"$TMP/err" </dev/null
    status=$?
}

# check_example ID NAME DIR KIND MODE: the KIND (bad, bad-data) example and
# its fixed counterpart.
check_example() {
    local id=$1 name=$2 d=$3 kind=$4 mode=$5 what="$1 $2: ${4/bad/example}"
    local fixed=${kind/bad/fixed} tag="[$2]: "
    mkdir -p "$d/$kind"
    cp "$d/$kind.sql" "$d/$kind/bad.sql"
    cp "$d/$fixed.sql" "$d/$kind/fixed.sql"
    if [ "$(statements "$d/$kind.sql")" = "1 0" ] && [ "$(statements "$d/$fixed.sql")" = "1 0" ]; then
        ok "$what: one statement each, ending in ';'"
    else
        not_ok "$what: one statement each, ending in ';'"
    fi

    lint_in "$d/$kind" "$mode" "$name" bad.sql
    local got want
    got=$(grep -m1 -F -- "$tag" "$TMP/out")
    want=$(head -1 "$d/$kind.msg")
    if [ "$status" = 1 ] && [ -n "$got" ]; then ok "$what: bad reported ($mode)"; else
        not_ok "$what: bad reported ($mode; exit $status)"; head -5 "$TMP/out" "$TMP/err"; fi
    if [ -n "$got" ] && [ "${got#*"$tag"}" = "${want#*"$tag"}" ] && [ "$want" != "${want#*"$tag"}" ]; then
        ok "$what: message as the doc shows it"
    else
        not_ok "$what: message as the doc shows it"
        printf '# doc:    %s\n# squint: %s\n' "$want" "$got"
    fi
    if [ -n "$got" ] && [ "${got%%"$tag"*}" = "${want%%"$tag"*}" ]; then
        ok "$what: position and severity as the doc shows them"
    else
        not_ok "$what: position and severity as the doc shows them"
        printf '# doc:    %s\n# squint: %s\n' "${want%%"$tag"*}" "${got%%"$tag"*}"
    fi

    lint_in "$d/$kind" "$mode" "$name" fixed.sql
    if [ "$status" = 0 ] && ! grep -qF -- "[$name]" "$TMP/out" &&
        grep -q " in 1 query of 1 file$" "$TMP/out"; then
        ok "$what: fixed gives no finding ($mode)"
    else
        not_ok "$what: fixed gives no finding ($mode; exit $status)"; head -5 "$TMP/out" "$TMP/err"
    fi
}

while IFS=$'\t' read -r -u 3 id name sev level summary help; do
    d=$TMP/doc/$id
    n=$(grep -cxF "## $id $name" "$TMP/doc/headings")
    if [ "$n" = 1 ]; then ok "$id $name: one section"; else
        not_ok "$id $name: one section (found $n)"; continue; fi

    row="| $id | $name | $sev | $level | $summary |"
    if grep -qxF -- "$row" "$TMP/doc/table"; then ok "$id $name: row in the summary table"; else
        not_ok "$id $name: row in the summary table"; echo "# want: $row"; fi

    if [ -f "$d/help" ] && [ "$(cat "$d/help")" = "$help" ]; then ok "$id $name: help text"; else
        not_ok "$id $name: help text"; echo "# want: **Help:** $help"; fi

    marked=schema
    [ -f "$d/level" ] && marked=$(cat "$d/level")
    if [ "$marked" = "$level" ]; then ok "$id $name: level marker ($level)"; else
        not_ok "$id $name: level marker (rule is $level, section says $marked)"; fi

    blocks=$(LC_ALL=C sort "$d/blocks" | uniq -c | awk '{ printf "%s%s=%s", (NR > 1 ? " " : ""), $2, $1 }')
    case $blocks in
        "bad=1 bad-msg=1 fixed=1 section=1" | \
        "bad=1 bad-data=1 bad-data-msg=1 bad-msg=1 fixed=1 fixed-data=1 section=1")
            ok "$id $name: bad, message and fixed blocks" ;;
        *)
            not_ok "$id $name: bad, message and fixed blocks ($blocks)"; continue ;;
    esac

    mode=--schema
    [ "$marked" = data ] && mode=--db
    [ "$marked" = prove ] && mode="--prove --schema"
    check_example "$id" "$name" "$d" bad "$mode"
    [ -f "$d/bad-data.sql" ] && check_example "$id" "$name" "$d" bad-data --db
done 3<"$TMP/rules.tsv"
exit $failed
