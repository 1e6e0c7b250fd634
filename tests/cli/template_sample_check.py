#!/usr/bin/env python3
"""template_sample_check.py -- check `squint template sample`'s records
against SQLite.

usage: template_sample_check.py RECORDS.jsonl EXTRACT.json DB REFERENCE-DATE

EXTRACT.json is `squint template extract --format json` of the same gold
(its i-th query is source i).  Prints TAP lines:
  - every record has the fields of the format;
  - every valid instance returns a row that is not all NULL on DB, and
    either returns other rows than its source or was told apart by the
    solver (directly, or on the database of an earlier counterexample) or
    on a one-cell variant of DB;
  - the one-cell variants, rebuilt here by fixture_variants.c's rules,
    keep the schema's constraints, and each instance told apart on one
    ("variant") returns other rows than an earlier query of its source on
    one of them;
  - every value drawn for a value slot occurs in the slot's column; every
    date drawn is within the column's range of dates;
  - an instance rejected as equivalent returns, on DB, the rows of the
    query it is equivalent to;
  - a time reference made or drawn relative to now ('-K units') reaches
    back to a day of its column's range, now being REFERENCE-DATE, and a
    record says the reference date exactly when its SQL reads the clock.
Queries run with 'now' and CURRENT_DATE written as REFERENCE-DATE, the
instant squint pinned SQLite's clock at.
"""
import json
import sqlite3
import sys

FIELDS = ["record", "id", "source_id", "template_id", "instance", "of", "options", "db_id", "slots",
          "alterations", "sql", "result_rows", "valid", "reasons"]


def cell_variants(con):
    """The databases squint's sq_fixture_cell_variants makes of con: the
    first row of a table without CHECK has one cell changed, in a column
    in no key and no foreign key of several columns, that no foreign key
    refers to, to another row's value, else NULL where the column may be
    NULL.  Each is checked to keep the schema's constraints."""
    tables = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    ddl = {r[0]: r[1] for r in con.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table'")}
    info = {t: list(con.execute('PRAGMA table_info("%s")' % t)) for t in tables}
    fixed = {t: set() for t in tables}
    for t in tables:
        fixed[t] |= {c[1] for c in info[t] if c[5]}
        for idx in con.execute('PRAGMA index_list("%s")' % t):
            if idx[2]:
                fixed[t] |= {c[2] for c in con.execute('PRAGMA index_info("%s")' % idx[1])}
        fks = list(con.execute('PRAGMA foreign_key_list("%s")' % t))
        for fk in fks:
            if sum(1 for f in fks if f[0] == fk[0]) > 1:
                fixed[t].add(fk[3])
            fixed[fk[2]].add(fk[4] or [c[1] for c in info[fk[2]] if c[5]][0])
    data = {t: [list(r) for r in con.execute('SELECT * FROM "%s"' % t)] for t in tables}
    out = []
    for t in tables:
        if not data[t] or "CHECK" in ddl[t].upper():
            continue
        first = data[t][0]
        for i, c in enumerate(info[t]):
            if c[1] in fixed[t]:
                continue
            other = [r[i] for r in data[t][1:] if r[i] is not None and (type(r[i]), r[i]) != (type(first[i]), first[i])]
            if other:
                new = other[0]
            elif not c[3] and first[i] is not None:
                new = None
            else:
                continue
            db = sqlite3.connect(":memory:")
            for u in tables:
                db.execute(ddl[u])
            for u in tables:
                rows = [list(r) for r in data[u]]
                if u == t:
                    rows[0][i] = new
                if rows:
                    db.executemany('INSERT INTO "%s" VALUES (%s)' % (u, ",".join("?" * len(rows[0]))), rows)
            if list(db.execute("PRAGMA foreign_key_check")):
                raise SystemExit("not ok - the variant of %s.%s breaks a foreign key" % (t, c[1]))
            out.append(db)
    return out


def main():
    recs = [json.loads(l) for l in open(sys.argv[1])]
    extract = json.load(open(sys.argv[2]))
    con = sqlite3.connect("file:%s?mode=ro" % sys.argv[3], uri=True)
    ref = sys.argv[4]

    def at_ref(sql):
        return sql.replace("'now'", "'%s'" % ref).replace("CURRENT_DATE", "date('%s')" % ref)

    def rows(sql):
        return con.execute(at_ref(sql)).fetchall()

    def same(a, b, ordered):
        return a == b if ordered else sorted(map(repr, a)) == sorted(map(repr, b))

    bad = [r["id"] for r in recs if any(f not in r for f in FIELDS) or r["record"] != "template-instance"]
    print("%s - every record has the format's fields (%d records)" % ("not ok" if bad else "ok", len(recs)))

    by_id = {}
    for r in recs:
        by_id.setdefault(r["source_id"], []).append(r)
    bad = []
    for r in recs:
        if not r["valid"]:
            continue
        got = rows(r["sql"])
        src = extract[int(r["source_id"])]
        if not got or all(v is None for row in got for v in row):
            bad.append(r["id"] + " empty")
        elif same(got, rows(src["sql"]), "ORDER BY" in r["sql"]) and r.get("distinct_by") not in ("solver", "counterexample", "variant"):
            bad.append(r["id"] + " same rows as the source, and no counterexample")
    print("%s - valid instances return rows, other than their source's or told apart by the solver%s"
          % ("not ok" if bad else "ok", (": " + ", ".join(bad[:5])) if bad else ""))

    variants = cell_variants(con)
    on = lambda db, sql: db.execute(at_ref(sql)).fetchall()
    bad, n_told = [], 0
    for r in recs:
        if not r["valid"] or r.get("distinct_by") != "variant":
            continue
        n_told += 1
        ordered = "ORDER BY" in r["sql"]
        before = [extract[int(r["source_id"])]["sql"]] + [
            o["sql"] for o in by_id[r["source_id"]] if o["valid"] and o["instance"] < r["instance"]]
        got = rows(r["sql"])
        if not any(same(got, rows(k), ordered) and any(not same(on(v, r["sql"]), on(v, k), ordered) for v in variants)
                   for k in before):
            bad.append(r["id"])
    print("%s - instances told apart on a one-cell variant (%d) return other rows than an earlier query of their "
          "source on one of the %d variants rebuilt here%s"
          % ("not ok" if bad or not n_told else "ok", n_told, len(variants), (": " + ", ".join(bad[:5])) if bad else ""))

    bad, n_values, n_dates = [], 0, 0
    for r in recs:
        slots = {s["name"]: s for s in extract[int(r["source_id"])]["slots"]}
        drawn = list(r["slots"].items()) + [(a["slot"], a["to"]) for a in r["alterations"]
                                            if a["kind"] == "time-window"]
        for name, value in drawn:
            s = slots[name]
            col = s["column"]
            t, c = '"%s"' % col["table"], '"%s"' % col["table_column"]
            if s["kind"] in ("date", "relative") and (value.startswith("date") or value.startswith("'")):
                n_dates += 1
                lo, hi = rows("SELECT min(date(%s)), max(date(%s)) FROM %s" % (c, c, t))[0]
                d = rows("SELECT date(%s)" % value)[0][0]
                if not (lo <= d <= hi):
                    bad.append("%s %s=%s outside %s..%s" % (r["id"], name, value, lo, hi))
                continue
            if s["kind"] == "value":
                n_values += 1
                if rows("SELECT count(*) FROM %s WHERE %s = %s" % (t, c, value))[0][0] == 0:
                    bad.append("%s %s=%s not in %s.%s" % (r["id"], name, value, t, c))
    print("%s - drawn values occur in their columns (%d), drawn and moved dates lie in their column's range (%d)%s"
          % ("not ok" if bad or not n_values or not n_dates else "ok", n_values, n_dates,
             (": " + ", ".join(bad[:5])) if bad else ""))

    bad, n_equiv = [], 0
    for r in recs:
        if r["valid"] or not r["reasons"][0].startswith("equivalent to the "):
            continue
        n_equiv += 1
        other = r["same_as"]
        if other == "source":
            sql = extract[int(r["source_id"])]["sql"]
        else:
            k = int(other.split()[-1])
            sql = by_id[r["source_id"]][k]["sql"]
        if not same(rows(r["sql"]), rows(sql), False) or r.get("caught_by") not in ("normal form", "solver"):
            bad.append(r["id"])
    print("%s - instances rejected as equivalent (%d) say how, and return the rows of the query they are "
          "equivalent to%s" % ("not ok" if bad or not n_equiv else "ok", n_equiv,
                               (": " + ", ".join(bad[:5])) if bad else ""))

    bad, n_rel = [], 0
    for r in recs:
        moved = [a["to"] for a in r["alterations"] if a["kind"] == "time-window" and "'now'" in a["to"]]
        n_rel += len(moved) + sum("'now'" in v for v in r["slots"].values())
        clock = "'now'" in r["sql"] or "CURRENT_" in r["sql"]
        if (r.get("reference_date") == ref) != clock:
            bad.append(r["id"])
    print("%s - relative time references drawn or made (%d); a record names the reference date when its SQL "
          "reads the clock, and only then%s" % ("not ok" if bad or not n_rel else "ok", n_rel,
                                                 (": " + ", ".join(bad[:5])) if bad else ""))


if __name__ == "__main__":
    main()
