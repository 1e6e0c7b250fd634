#!/usr/bin/env bash
# run.sh -- the squint compile benchmark (issue 22): BIRD dev's gold
# queries, one annotated ":many" file per database, compiled by the command
# in process and prepared by SQLite, in one run (bench_compile.c).
#
# Usage: bench/compile/run.sh BUILD_DIR [ROUNDS]
# Skips with a message when ../shared/corpora/bird-dev is absent.
set -eu
BUILD=${1:-build}
ROUNDS=${2:-5}
B=${SQUINT_CORPORA:-../shared/corpora}/bird-dev
if [ ! -f "$B/dev.json" ] || [ ! -d "$B/schemas" ]; then
    echo "bench compile: skipped (no $B)"
    exit 0
fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$TMP/queries" "$TMP/out"
python3 - "$B/dev.json" "$TMP/queries" <<'PY'
import collections, json, sys
by = collections.defaultdict(list)
for i, d in enumerate(json.load(open(sys.argv[1]))):
    by[d["db_id"]].append((d.get("question_id", i), d["SQL"]))
for db, qs in by.items():
    with open(f"{sys.argv[2]}/{db}.sql", "w") as f:
        for i, q in qs:
            f.write(f"-- name: q{i} :many\n{q.strip().rstrip(';')};\n\n")
PY
"$BUILD/tools/bench_compile" "$ROUNDS" "$B/schemas" "$TMP/queries" "$TMP/out"
