#!/usr/bin/env bash
# test_lint_sarif.sh -- `squint lint --format sarif` writes valid SARIF 2.1.0.
#
# Each log is validated by tests/tools/sarif_validate.py against the
# official SARIF 2.1.0 schema (fetched once from the npm registry into
# $BUILD/vendor, checked against a pinned SHA-256; python3-jsonschema),
# plus what a schema cannot state: each ruleIndex names its ruleId's rule,
# each uriBaseId is defined, URIs are encoded, relative URIs name files
# under the root, and each rule's helpUri is a heading of docs/rules.md.
# So that the check cannot pass vacuously, copies of a log broken in one
# way each must be rejected, each for its own reason.
cd "$(dirname "$0")/../.." || exit 2
. tests/cli/lib.sh
: "${BUILD:=build}"
ROOT=$PWD
CACHE=${SQUINT_SARIF_CACHE:-$ROOT/$BUILD/vendor}
case $SQUINT in /*) SQ=$SQUINT ;; *) SQ=$PWD/$SQUINT ;; esac

# A Python that has jsonschema: python3, else Debian's own.
PY=
for p in python3 /usr/bin/python3; do
    if command -v "$p" >/dev/null && "$p" -c 'import jsonschema' 2>/dev/null; then PY=$p; break; fi
done
if [ -z "$PY" ]; then
    echo "ok - sarif: skipped (no python3 jsonschema module; scripts/deps.sh installs python3-jsonschema)"
    exit 0
fi
validate() { "$PY" tests/tools/sarif_validate.py --cache "$CACHE" --rules-doc docs/rules.md "$@"; }

# ---- a log with lint findings, a syntax error and non-ASCII text ------------

mkdir -p "$TMP/repo/w"
mkdir "$TMP/repo/.git"   # a repository's root: %SRCROOT%
printf 'CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL);\n' >"$TMP/repo/w/schema.sql"
printf "SELECT name FROM t WHERE name != '-' OR '+-';\nSELECT FROM;\n" >"$TMP/repo/w/q.sql"
# 'x' is at byte column 44 but code-point column 43 (columnKind).
NAIVE=$'na\xc3\xafve q.sql'
printf "SELECT name FROM t WHERE name = 'caf\xc3\xa9' OR 'x';\n" >"$TMP/repo/w/$NAIVE"
mkdir -p "$TMP/elsewhere"
printf "SELECT name FROM t WHERE 'x';\n" >"$TMP/elsewhere/far.sql"

lint_sarif() { (cd "$TMP/repo/w" && "$SQ" lint --no-config --format sarif --schema schema.sql "$@"); }
expect_exit 1 "lint --format sarif exits 1 on errors" -- lint_sarif q.sql "$NAIVE" "$TMP/repo/w/q.sql" "$TMP/elsewhere/far.sql"
cp "$TMP/out" "$TMP/log.sarif"
expect_grep '"ruleId": "L0102"' "$TMP/log.sarif" "sarif: a lint finding names its rule id"
expect_grep '"ruleId": "E0103"' "$TMP/log.sarif" "sarif: the syntax error is a result"
expect_grep '"uri": "w/na%C3%AFve%20q.sql"' "$TMP/log.sarif" "sarif: non-ASCII and space percent-encoded"
grep -A8 '"uri": "w/na%C3%AFve%20q.sql"' "$TMP/log.sarif" >"$TMP/naive"
expect_grep '"startColumn": 43,' "$TMP/naive" "sarif: columns count code points"
expect_grep '"uriBaseId": "%SRCROOT%"' "$TMP/naive" "sarif: a file in the repository is relative to %SRCROOT%"
n=$(grep -c '"uri": "w/q.sql"' "$TMP/log.sarif")
[ "$n" -ge 2 ] && ok "sarif: a file named by an absolute path inside the repository is repository-relative too" \
    || not_ok "sarif: absolute path in the repository ($n URIs w/q.sql)"
expect_grep "\"uri\": \"file://$TMP/repo/\"" "$TMP/log.sarif" "sarif: originalUriBaseIds gives %SRCROOT% as the repository's root"
expect_grep "\"uri\": \"file://$TMP/elsewhere/far.sql\"" "$TMP/log.sarif" "sarif: a file outside the repository keeps an absolute file:// URI"
grep -B1 -A1 "file://$TMP/elsewhere/far.sql" "$TMP/log.sarif" | grep -q uriBaseId \
    && not_ok "sarif: an absolute URI has no uriBaseId" || ok "sarif: an absolute URI has no uriBaseId"
n=$(grep -c '"helpUri": "https://[^"]*/rules.md#l[0-9]*-[a-z-]*"' "$TMP/log.sarif")
rules=$("$SQ" lint --list-rules | grep -c "^L[0-9]")
[ "$n" = "$rules" ] && ok "sarif: every rule ($rules) has a helpUri into rules.md" || not_ok "sarif: $n helpUris for $rules rules"

validate --root "$TMP/repo" "$TMP/log.sarif" >"$TMP/out" 2>&1; rc=$?
if [ $rc = 77 ]; then
    echo "ok - sarif: validation skipped ($(head -1 "$TMP/out"))"
    exit 0
fi
[ $rc = 0 ] && grep -q '^ok$' "$TMP/out" && ok "sarif log validates against the official SARIF 2.1.0 schema and the cross-checks" \
    || { not_ok "sarif log validates (exit $rc)"; head -5 "$TMP/out"; }

# More logs: no findings, stdin with --stdin-filename, outside any repository.
printf 'SELECT name FROM t;\n' >"$TMP/repo/w/clean.sql"
lint_sarif clean.sql >"$TMP/clean.sarif"
(cd "$TMP/repo/w" && "$SQ" lint --no-config --format sarif --schema schema.sql --stdin-filename w/q.sql - <q.sql) >"$TMP/stdin.sarif"
grep -q '"uri": "w/w/q.sql"' "$TMP/stdin.sarif" && ok "sarif: stdin is named by --stdin-filename" || not_ok "sarif: stdin's name"
rmdir "$TMP/repo/.git"
lint_sarif q.sql >"$TMP/norepo.sarif"
grep -q '"uri": "q.sql"' "$TMP/norepo.sarif" && grep -q "\"uri\": \"file://$TMP/repo/w/\"" "$TMP/norepo.sarif" \
    && ok "sarif: outside a repository the root is the current directory" || not_ok "sarif: root without a repository"
validate "$TMP/clean.sarif" "$TMP/norepo.sarif" >"$TMP/out" 2>&1; rc=$?
[ $rc = 0 ] && [ "$(grep -c '^ok$' "$TMP/out")" = 2 ] && ok "sarif: a log without findings and one outside a repository validate" \
    || { not_ok "sarif: more logs (exit $rc)"; head -5 "$TMP/out"; }
mkdir "$TMP/repo/.git"

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
    expect_exit 1 "rejects $name" -- validate --root "$TMP/repo" "$TMP/broken.sarif"
    expect_grep "$pattern" "$TMP/out" "rejects $name: says why"
}

reject 'version "2.0"' "broken.sarif: /version: '2\.0' is not one of \['2\.1\.0'\]" \
    sed 's/^  "version": "2.1.0"/  "version": "2.0"/'
reject 'result level "info"' \
    "/runs/0/results/[0-9]+/level: 'info' is not one of \['none', 'note', 'warning', 'error'\]" \
    sed -E 's/"level": "(error|warning|note)"/"level": "info"/'
reject 'ruleIndex naming another rule' \
    '/runs/0/results/0/ruleIndex: rules\[[0-9]+\] is "L[0-9]+", but ruleId is "L0102"$' \
    awk '/"ruleIndex": [0-9]+/ && !done { n = $2 + 0; sub(/[0-9]+/, n == 0 ? 1 : 0); done = 1 } { print }'
reject 'ruleIndex past the rules' '/runs/0/results/0/ruleIndex: 9999 is past the end' \
    sed -E 's/"ruleIndex": [0-9]+/"ruleIndex": 9999/'
reject 'startLine 0' '/region/startLine: 0 is less than the minimum of 1$' \
    sed -E 's/"startLine": [0-9]+/"startLine": 0/'
reject 'a region past the file' '/region: past the [0-9]+ lines of the file' \
    sed -E '0,/"startLine": [0-9]+/s//"startLine": 900/'
reject 'a driver without a name' "/runs/0/tool/driver: 'name' is a required property" \
    sed '/"name": "squint",/d'
reject 'a message without text' "/runs/0/results/[0-9]+/message: .* is not valid under any of the given schemas" \
    awk 'm && /"text":/ { m = 0; next } /"message": \{/ { m = 1 } { print }'
reject 'a property SARIF does not define' "/runs/0: Additional properties are not allowed \('columns' was unexpected\)" \
    sed 's/"columnKind"/"columns"/'
reject 'a uri with a raw space' '/artifactLocation/uri: "w/q q\.sql" is not a valid URI reference$' \
    sed 's/"uri": "w\/q.sql"/"uri": "w\/q q.sql"/'
reject 'a uriBaseId nobody defines' '/uriBaseId: "%ELSEWHERE%" is not in originalUriBaseIds' \
    sed '0,/"uriBaseId": "%SRCROOT%"/s//"uriBaseId": "%ELSEWHERE%"/'
reject 'a relative uri naming no file' '/uri: "w/nowhere\.sql" names no file under' \
    sed '0,/"uri": "w\/q.sql"/s//"uri": "w\/nowhere.sql"/'
reject 'a helpUri into no heading' '/helpUri: no heading of the rules doc has the anchor #l0102-no-such-rule' \
    sed 's/rules.md#l0102-string-as-boolean/rules.md#l0102-no-such-rule/'
reject 'a base URI without its final slash' '/originalUriBaseIds/%SRCROOT%/uri: .* does not end with "/"' \
    sed -E "s|\"uri\": \"file://$TMP/repo/\"|\"uri\": \"file://$TMP/repo\"|"

printf '{"version": "2.1.0", "runs": [' >"$TMP/truncated.sarif"
expect_exit 1 "sarif_validate: malformed JSON is a problem" -- validate "$TMP/truncated.sarif"
expect_grep 'not JSON' "$TMP/out" "sarif_validate: says it is not JSON"
