#!/usr/bin/env bash
# lint_report.sh -- count squint lint's findings per rule on the gold
# queries of Spider dev (with its databases: schema and data rules) and
# BIRD dev (schema only), as a Markdown table.
#
# Usage: scripts/lint_report.sh [BUILD_DIR] [--update docs/lint-report.md]
# With --update, the table replaces the lines between the markers
# "<!-- counts:begin -->" and "<!-- counts:end -->" of the file; without,
# it goes to standard output.  Skips with a message when the corpora
# (SQUINT_CORPORA, default ../shared/corpora) are absent.
set -eu
BUILD=${1:-build}
[ "${1:-}" = "--update" ] && BUILD=build
UPDATE=""
for ((i = 1; i <= $#; i++)); do
    [ "${!i}" = "--update" ] && { j=$((i + 1)); UPDATE=${!j}; }
done
C=${SQUINT_CORPORA:-../shared/corpora}
S=$C/spider-dev
B=$C/bird-dev
if [ ! -f "$S/dev.json" ] || [ ! -f "$B/dev.json" ]; then
    echo "lint report: no corpora at $C; skipped"
    exit 0
fi
SQUINT=$BUILD/squint
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$SQUINT" lint --no-config --db-root "$S/database" "$S/dev.json" >"$tmp/spider" 2>/dev/null || true
"$SQUINT" lint --no-config --tables "$B/dev_tables.json" "$B/dev.json" >"$tmp/bird" 2>/dev/null || true

# "rule count" lines from a text report
counts() { grep -oE '^[^ ]+: [a-z]+\[[a-zA-Z0-9-]+\]' "$1" | sed -E 's/.*\[(.*)\]/\1/' | sort | uniq -c; }
count_of() { awk -v r="$2" '$2 == r { print $1 }' "$1"; }
counts "$tmp/spider" >"$tmp/spider.n"
counts "$tmp/bird" >"$tmp/bird.n"
items() { # items with a finding of rule $2 in report $1
    grep -E "\\[$2\\]" "$1" | grep -oE '\[(item|question_id) [0-9]+\]$' | sort -u | wc -l
}

{
    echo "| id | rule | severity | Spider dev, with databases | BIRD dev, schema only | both |"
    echo "|---|---|---|---|---|---|"
    "$SQUINT" lint --list-rules | tail -n +2 | while read -r id name sev level _; do
        s=$(count_of "$tmp/spider.n" "$name"); s=${s:-0}
        b=$(count_of "$tmp/bird.n" "$name"); b=${b:-0}
        [ "$level" = data ] && b="-"
        tot=$((s + ${b/-/0}))
        si=""; bi=""
        [ "$s" != 0 ] && si=" ($(items "$tmp/spider" "$name"))"
        [ "$b" != 0 ] && [ "$b" != "-" ] && bi=" ($(items "$tmp/bird" "$name"))"
        echo "| $id | \`$name\` | $sev | $s$si | $b$bi | $tot |"
    done
    ns=$(tail -1 "$tmp/spider"); nb=$(tail -1 "$tmp/bird")
    echo
    echo "Spider: $ns.  BIRD: $nb.  In parentheses: the items (queries) with"
    echo "at least one finding of the rule.  Data rules need the database, which"
    echo "BIRD dev does not ship here (-)."
} >"$tmp/table"

if [ -n "$UPDATE" ]; then
    awk -v table="$tmp/table" '
        /<!-- counts:begin -->/ { print; while ((getline l < table) > 0) print l; skip = 1; next }
        /<!-- counts:end -->/ { skip = 0 }
        !skip { print }' "$UPDATE" >"$tmp/doc"
    cp "$tmp/doc" "$UPDATE"
    echo "lint report: updated $UPDATE"
else
    cat "$tmp/table"
fi
