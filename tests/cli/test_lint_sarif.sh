#!/usr/bin/env bash
# test_lint_sarif.sh -- `squint lint --format sarif` writes valid SARIF 2.1.0.
#
# The log is checked by $BUILD/tools/sarifcheck (tests/tools/sarifcheck.c,
# built by `make test`) against tests/lint/sarif-2.1.0-subset.schema.json,
# plus the rule references a schema cannot state.  So that the check cannot
# pass vacuously, copies of the log broken in one way each must be rejected,
# each for its own reason.
cd "$(dirname "$0")/../.."
. tests/cli/lib.sh
: "${BUILD:=build}"

SCHEMA=tests/lint/sarif-2.1.0-subset.schema.json
CHECKER=$BUILD/tools/sarifcheck
if [ ! -x "$CHECKER" ]; then
    not_ok "sarif output validates: $CHECKER not built (make test builds it)"
    exit 1
fi
case $SQUINT in /*) SQ=$SQUINT ;; *) SQ=$PWD/$SQUINT ;; esac

# ---- a log with lint findings, a syntax error and non-ASCII text ------------

mkdir "$TMP/w"
printf 'CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL);\n' >"$TMP/w/schema.sql"
printf "SELECT name FROM t WHERE name != '-' OR '+-';\nSELECT FROM;\n" >"$TMP/w/q.sql"
# 'x' is at byte column 44 but code-point column 43 (columnKind).
NAIVE=$'na\xc3\xafve q.sql'
printf "SELECT name FROM t WHERE name = 'caf\xc3\xa9' OR 'x';\n" >"$TMP/w/$NAIVE"

lint_sarif() { (cd "$TMP/w" && "$SQ" lint --no-config --format sarif --schema schema.sql "$@"); }
expect_exit 1 "lint --format sarif exits 1 on errors" -- lint_sarif q.sql "$NAIVE"
cp "$TMP/out" "$TMP/log.sarif"
expect_grep '"ruleId": "L0102"' "$TMP/log.sarif" "sarif: a lint finding names its rule id"
expect_grep '"ruleId": "E0103"' "$TMP/log.sarif" "sarif: the syntax error is a result"
expect_grep '"uri": "na%C3%AFve%20q.sql"' "$TMP/log.sarif" "sarif: non-ASCII and space percent-encoded"
grep -A8 '"uri": "na%C3%AFve%20q.sql"' "$TMP/log.sarif" >"$TMP/naive"
expect_grep '"startColumn": 43,' "$TMP/naive" "sarif: columns count code points"

expect_exit 0 "sarif log validates against the SARIF 2.1.0 subset schema" -- \
    "$CHECKER" "$SCHEMA" "$TMP/log.sarif"
expect_grep '^ok$' "$TMP/out" "sarifcheck prints ok"

# ---- broken copies must each be rejected -----------------------------------

# reject NAME PATTERN FILTER... -- the log run through FILTER fails the check
# with a line matching PATTERN.
reject() {
    local name=$1 pattern=$2
    shift 2
    "$@" <"$TMP/log.sarif" >"$TMP/broken.sarif"
    if cmp -s "$TMP/log.sarif" "$TMP/broken.sarif"; then
        not_ok "rejects $name (the edit changed nothing)"
        return
    fi
    expect_exit 1 "rejects $name" -- "$CHECKER" "$SCHEMA" "$TMP/broken.sarif"
    expect_grep "$pattern" "$TMP/out" "rejects $name: says why"
}

reject 'version "2.0"' '^/version: "2\.0" is not "2\.1\.0"$' \
    sed 's/^  "version": "2.1.0"/  "version": "2.0"/'
reject 'result level "info"' \
    '^/runs/0/results/[0-9]+/level: "info" is not one of none, note, warning, error$' \
    sed -E 's/"level": "(error|warning|note)"/"level": "info"/'
reject 'ruleIndex naming another rule' \
    '^/runs/0/results/0/ruleIndex: rules\[[0-9]+\] is "L[0-9]+", but ruleId is "L0102"$' \
    awk '/"ruleIndex": [0-9]+/ && !done { n = $2 + 0; sub(/[0-9]+/, n == 0 ? 1 : 0); done = 1 } { print }'
reject 'ruleIndex past the rules' '^/runs/0/results/0/ruleIndex: 9999 is past the end' \
    sed -E 's/"ruleIndex": [0-9]+/"ruleIndex": 9999/'
reject 'startLine 0' '/region/startLine: 0 is less than the minimum 1$' \
    sed -E 's/"startLine": [0-9]+/"startLine": 0/'
reject 'a driver without a name' '^/runs/0/tool/driver: missing required property "name"$' \
    sed '/"name": "squint",/d'
reject 'a message without text' \
    '^/runs/0/results/[0-9]+/message: matches none of anyOf: missing required property "text"' \
    awk 'm && /"text":/ { m = 0; next } /"message": \{/ { m = 1 } { print }'
reject 'a property SARIF does not define' '^/runs/0/columns: property not allowed here$' \
    sed 's/"columnKind"/"columns"/'
reject 'a uri with a raw space' '/artifactLocation/uri: "q q\.sql" is not a valid uri-reference$' \
    sed 's/"uri": "q.sql"/"uri": "q q.sql"/'

# ---- the checker refuses what it cannot check ------------------------------

printf '{"type": "object", "minProperties": 1}\n' >"$TMP/unsupported.json"
expect_exit 2 "sarifcheck refuses a schema keyword it does not implement" -- \
    "$CHECKER" "$TMP/unsupported.json" "$TMP/log.sarif"
expect_grep 'minProperties: unsupported keyword' "$TMP/err" "sarifcheck names the keyword"
printf '{"version": "2.1.0", "runs": [' >"$TMP/truncated.sarif"
expect_exit 2 "sarifcheck: malformed JSON is an error" -- "$CHECKER" "$SCHEMA" "$TMP/truncated.sarif"
