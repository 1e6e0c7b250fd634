#!/bin/sh
# Build the eval-demo database from schema.sql + data.sql.
#
# usage: examples/eval-demo/build.sh OUTDIR
#
# Creates OUTDIR/library/library.sqlite (the Spider layout
# <dir>/<db_id>/<db_id>.sqlite), replacing any existing file.
# Needs the sqlite3 command-line tool (override with $SQLITE3).
set -eu

if [ "$#" -ne 1 ]; then
    echo "usage: $0 OUTDIR" >&2
    exit 2
fi

here=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)
sqlite=${SQLITE3:-sqlite3}
db_id=library
dir="$1/$db_id"
out="$dir/$db_id.sqlite"
tmp="$out.tmp.$$"

if ! command -v "$sqlite" >/dev/null 2>&1; then
    echo "$0: sqlite3 command-line tool not found" >&2
    exit 1
fi

mkdir -p "$dir"
rm -f "$tmp"
trap 'rm -f "$tmp"' EXIT INT TERM

{
    echo "PRAGMA foreign_keys = ON;"
    echo "BEGIN;"
    cat "$here/schema.sql" "$here/data.sql"
    echo "COMMIT;"
} | "$sqlite" -bail "$tmp"

problems=$("$sqlite" "$tmp" "PRAGMA foreign_key_check;")
if [ -n "$problems" ]; then
    echo "$0: foreign key check failed:" >&2
    echo "$problems" >&2
    exit 1
fi

mv -f "$tmp" "$out"
trap - EXIT INT TERM
echo "$out"
