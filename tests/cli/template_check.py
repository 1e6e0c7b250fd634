#!/usr/bin/env python3
"""template_check.py -- check `squint template extract --format json` against
SQLite.

usage: template_check.py EXTRACT.json (--db FILE | --db-root DIR) [--summary]

For every query of the extract:
  - each slot's placeholder occurs in the template, and every placeholder
    the template writes is a slot's;
  - the template with each slot's value put back in place is SQL that
    SQLite runs and that returns the rows the query itself ("sql") returns,
    in the same order, on the database (--db FILE, or DIR/DB_ID/DB_ID.sqlite
    for a benchmark's items with --db-root).
Prints one TAP line per check group (or, with --summary, counts only) and
exits 1 when a check fails.
"""
import json
import re
import sqlite3
import sys

PLACEHOLDER = re.compile(r":[a-z]+(?:_[a-z]+)*_[0-9]+\b")


def put_back(template, slots):
    values = {s["placeholder"]: s["value"] for s in slots}
    return PLACEHOLDER.sub(lambda m: values.get(m.group(0), m.group(0)), template)


def rows(con, sql):
    return con.execute(sql).fetchall()


def main():
    args = sys.argv[1:]
    summary = "--summary" in args
    args = [a for a in args if a != "--summary"]
    path, how, where = args[0], args[1], args[2]
    items = json.load(open(path))
    cons = {}

    def db_for(item):
        key = where if how == "--db" else "%s/%s/%s.sqlite" % (where, item["db_id"], item["db_id"])
        if key not in cons:
            cons[key] = sqlite3.connect("file:%s?mode=ro" % key, uri=True)
        return cons[key]

    bad_names = bad_runs = 0
    n = 0
    for item in items:
        n += 1
        where_at = "%s:%s" % (item["file"], item["line"])
        written = set(PLACEHOLDER.findall(item["template"]))
        named = {s["placeholder"] for s in item["slots"]}
        if written != named:
            bad_names += 1
            print("# %s: placeholders %s, slots %s" % (where_at, sorted(written), sorted(named)))
            continue
        sql = put_back(item["template"], item["slots"])
        con = db_for(item)
        try:
            want = rows(con, item["sql"])
        except sqlite3.Error as e:
            print("# %s: the query itself fails: %s" % (where_at, e))
            continue
        try:
            got = rows(con, sql)
        except sqlite3.Error as e:
            bad_runs += 1
            print("# %s: the template with its values fails: %s\n#   %s" % (where_at, e, sql))
            continue
        if got != want:
            bad_runs += 1
            print("# %s: the template with its values returns other rows\n#   %s" % (where_at, sql))
    if summary:
        print("%d queries, %d placeholder mismatches, %d templates that do not give the query back"
              % (n, bad_names, bad_runs))
    else:
        print("%s - every placeholder is a slot's and every slot's placeholder is written (%d queries)"
              % ("ok" if not bad_names else "not ok", n))
        print("%s - each template with its values put back returns the query's rows on the database"
              % ("ok" if not bad_runs else "not ok"))
    return 1 if bad_names or bad_runs else 0


if __name__ == "__main__":
    sys.exit(main())
