"""compile_fit.py -- the manifest's types against the values SQLite gives.

usage: compile_fit.py OUT_DIR DB_ROOT

OUT_DIR holds one directory per database (DB_ROOT/<db>/<db>.sqlite), each
with the queries.json squint compile wrote for that database's queries.
Every query is run on its database, and every value is checked against
its column's type as the C bindings read it (docs/squint-compile.md,
"Values of another class"): INTEGER takes an integer or a real with no
fraction, REAL and NUMERIC a number, TEXT anything but a blob.  A value
squint computed (a column with no table) must always fit; a table
column's value that does not fit is the data disagreeing with its own
schema (text in a BOOL column), which the bindings report as
SQLITE_MISMATCH: those are counted and named.

Prints one summary line; exits 1 when a query fails to run or a computed
value does not fit.
"""
import collections
import glob
import json
import os
import sqlite3
import sys


def fits(t, v):
    if v is None or t in ("any", "BLOB"):
        return True
    if t == "INTEGER":
        return isinstance(v, int) or (isinstance(v, float) and v.is_integer())
    if t in ("REAL", "NUMERIC"):
        return isinstance(v, (int, float))
    if t == "TEXT":
        return not isinstance(v, bytes)
    return False


def main(out, root):
    values = computed_bad = failed = 0
    data_bad = collections.Counter()
    for path in sorted(glob.glob(out + "/*/queries.json")):
        db = os.path.basename(os.path.dirname(path))
        con = sqlite3.connect(f"file:{root}/{db}/{db}.sqlite?mode=ro", uri=True)
        con.text_factory = lambda b: b.decode("utf-8", "replace")   # blobs stay bytes
        for q in json.load(open(path))["queries"]:
            try:
                rows = con.execute(q["sql"]).fetchall()
            except sqlite3.Error as e:
                failed += 1
                print(f"{db} {q['name']}: {e}", file=sys.stderr)
                continue
            for row in rows:
                for col, v in zip(q["columns"], row):
                    values += 1
                    if fits(col["type"], v):
                        continue
                    if col["table"]:
                        data_bad[f"{db}.{col['table']}.{col['column']} {col['decl_type']}"] += 1
                    else:
                        computed_bad += 1
                        print(f"{db} {q['name']}: {col['name']} is {col['type']}, SQLite gave {v!r}", file=sys.stderr)
    named = ", ".join(f"{k} ({n})" for k, n in sorted(data_bad.items())) or "none"
    print(f"{values} values, {computed_bad} computed ones not of their type, {failed} queries failed; "
          f"table values not of their declared type: {sum(data_bad.values())}: {named}")
    return 1 if computed_bad or failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
