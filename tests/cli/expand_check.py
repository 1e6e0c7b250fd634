#!/usr/bin/env python3
"""expand_check.py JSON SCHEMA N [DB] -- check squint expand's JSON against
SQLite: every expansion's SQL prepares on the schema with the columns of
its query and one JOIN more; with DB, each one run returns the rows the
record says (a taken one at least one, a no-rows one none); over the run,
at most N taken per shape (pattern), and a class-full one comes after N
taken of its shape.  A taken one said to change the query's result has a
counterexample database, with every foreign key's reference found
(PRAGMA foreign_key_check), on which the two give other rows (as bags;
as lists when either sorts); one said to keep it gives the same bag of rows
on DB.  With --add-column, an expansion that shows a column
(added_column, "table.column") has one column more, its rows without
that column are the rows of the expansion without it (join_sql, as bags,
as sets under DISTINCT, on DB), and each value the column shows is one of that column's; the
verdict is about join_sql.  With --add-filter, the value an expansion
filters on (added_filter, "table.column = value") is one the column holds,
and where that column is also the one shown, every row shows the value
and the rest of the rows are some of join_sql's (as bags).  Prints what is wrong; exits 1 then, else 0
and the counts on stdout."""
import collections
import sqlite3
import sys


def columns(con, sql):
    return len(con.execute("SELECT * FROM (" + sql + ") LIMIT 0").description or [])


def check_change(q, x, schema, data, bad, counts):
    if x.get("changes_original_result") is True:
        counts["changes"] += 1
        con = sqlite3.connect(":memory:")
        con.executescript(open(schema).read() if "CREATE TABLE" not in x["counterexample"] else "")
        con.executescript(x["counterexample"])
        try:
            broken = con.execute("PRAGMA foreign_key_check").fetchall()
        except sqlite3.Error:  # a reference to no key: SQLite cannot check it
            broken = []
        if broken:
            bad.append("a counterexample that breaks a foreign key (%s): %s" % (broken[0][0], x["sql"]))
        sql = x.get("join_sql") or x["sql"]
        a, b = con.execute(q["sql"]).fetchall(), con.execute(sql).fetchall()
        sorts = " ORDER BY " in q["sql"] or " ORDER BY " in sql
        if (a == b) if sorts else (sorted(map(repr, a)) == sorted(map(repr, b))):
            bad.append("said to change the result, the same rows on its counterexample: " + x["sql"])
    elif x.get("changes_original_result") is False:
        counts["keeps"] += 1
        if data is not None:
            a, b = data.execute(q["sql"]).fetchall(), data.execute(x.get("join_sql") or x["sql"]).fetchall()
            if sorted(map(repr, a)) != sorted(map(repr, b)):
                bad.append("said to keep the result, other rows on the database: " + x["sql"])


def check_column(x, data, bad, counts):
    """The column an expansion shows, on DB: the rest of each row is the
    expansion's without it, and its values are the table column's."""
    counts["column"] += 1
    table, col = x["added_column"].split(".")
    rows = data.execute(x["sql"]).fetchall()
    without = data.execute(x["join_sql"]).fetchall()
    # as bags; as sets under DISTINCT, where the column more keeps rows apart
    group = set if x["sql"].startswith("SELECT DISTINCT ") else sorted
    if group(repr(r[:-1]) for r in rows) != group(map(repr, without)):
        bad.append("its rows without the column it shows are not the join's: " + x["sql"])
    values = set(v for (v,) in data.execute('SELECT "%s" FROM "%s"' % (col, table)))
    if any(r[-1] not in values for r in rows):
        bad.append("a value not in %s: %s" % (x["added_column"], x["sql"]))


def check_filter(x, data, bad, counts):
    """The filter an expansion adds, on DB."""
    counts["filter"] += 1
    target, literal = x["added_filter"].split(" = ", 1)
    table, col = target.split(".")
    if data.execute('SELECT count(*) FROM "%s" WHERE "%s" = %s' % (table, col, literal)).fetchone()[0] == 0:
        bad.append("filters on a value %s does not hold: %s" % (target, x["sql"]))
    if x.get("added_column") != target:
        return
    value = data.execute("SELECT " + literal).fetchone()[0]
    rows = data.execute(x["sql"]).fetchall()
    if any(r[-1] != value for r in rows):
        bad.append("a row whose %s is not %s: %s" % (target, literal, x["sql"]))
    left = collections.Counter(map(repr, data.execute(x["join_sql"]).fetchall()))
    left.subtract(collections.Counter(repr(r[:-1]) for r in rows))
    if not x["sql"].startswith("SELECT DISTINCT ") and min(left.values(), default=0) < 0:
        bad.append("rows that the join without the filter does not give: " + x["sql"])


def main():
    out, schema, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    db = sys.argv[4] if len(sys.argv) > 4 else None
    import json
    queries = json.load(open(out))
    empty = sqlite3.connect(":memory:")
    empty.executescript(open(schema).read())
    data = sqlite3.connect(db) if db else None
    bad, taken, counts = [], collections.Counter(), collections.Counter()
    for q in queries:
        for x in q["expansions"]:
            counts[x["fate"]] += 1
            sql = x["sql"]
            if x["fate"] == "class-full":
                if n and taken[x["pattern"]] < n:
                    bad.append("class-full with %d of its shape taken: %s" % (taken[x["pattern"]], x["join_conditions"]))
                continue
            if sql is None:
                if x["fate"] != "not-joinable":
                    bad.append("no SQL for a %s one" % x["fate"])
                continue
            try:
                more = 1 if x.get("added_column") else 0
                if columns(empty, sql) != columns(empty, q["sql"]) + more:
                    bad.append("other columns than its query's%s: %s" % (" and one more" if more else "", sql))
            except sqlite3.Error as e:
                bad.append("SQLite does not prepare %s: %s" % (sql, e))
                continue
            if sql.count(" JOIN ") != q["sql"].count(" JOIN ") + 1:
                bad.append("not one JOIN more: " + sql)
            if data is not None and x["rows"] is not None:
                got = len(data.execute(sql).fetchall())
                if got != x["rows"]:
                    bad.append("%d rows, the record says %d: %s" % (got, x["rows"], sql))
                if (x["fate"] == "taken") != (got > 0):
                    bad.append("%s with %d rows: %s" % (x["fate"], got, sql))
            if x.get("added_column") and data is not None and not x.get("added_filter"):
                check_column(x, data, bad, counts)
            if x.get("added_filter") and data is not None:
                check_filter(x, data, bad, counts)
            if x["fate"] == "taken":
                check_change(q, x, schema, data, bad, counts)
                taken[x["pattern"]] += 1
                if n and x["pattern"] is not None and taken[x["pattern"]] > n:
                    bad.append("more than %d of one shape taken: %s" % (n, x["pattern"]))
    for b in bad:
        print(b)
    if bad:
        sys.exit(1)
    print(" ".join("%s=%d" % kv for kv in sorted(counts.items())))


if __name__ == "__main__":
    main()
