#!/usr/bin/env python3
"""expand_report.py OUT COMMIT -- docs/expand-report.md from the JSON that
scripts/expand_report.sh made: join query graphs, their expansions, and
the pruning by shape, beside seed 001's Tables 3.1-3.4."""
import collections
import json
import re
import sys

THESIS_ORIG = {(2, 1): 901, (1, 0): 348, (3, 2): 195, (4, 3): 29, (4, 4): 4, (2, 0): 2, (5, 4): 1}
THESIS_DELTA = [(0.33, 3910), (0.17, 1356), (1.00, 1166), (0.10, 226), (0.67, 145), (0.50, 32), (0.00, 27),
                (0.07, 8), (0.40, 2), (0.90, 1)]


def load(path):
    try:
        return json.load(open(path))
    except (OSError, ValueError):
        return []


def pct(a, b):
    return "%.2f %%" % (100.0 * a / b) if b else "-"


def stats(queries):
    planned = [q for q in queries if q.get("shape")]
    xs = [(q, x) for q in planned for x in q["expansions"]]
    return planned, xs


def thesis_pruned(planned, xs):
    """The thesis's pruned set: expansions whose graph is isomorphic to no
    original graph, one per new shape."""
    orig = {q["pattern"] for q in planned}
    seen = {}
    for q, x in xs:
        if x["pattern"] and x["pattern"] not in orig and x["pattern"] not in seen:
            seen[x["pattern"]] = (q, x)
    return list(seen.values())


def section(name, queries, n1, thesis):
    planned, xs = stats(queries)
    print("## %s\n" % name)
    whys = collections.Counter(q["why"] for q in queries if not q.get("shape"))
    print("- %d gold queries; **%d with a join query graph**%s%s." % (
        len(queries), len(planned), " (thesis: 1480)" if thesis else "",
        "; none for " + ", ".join("%d (%s)" % (n, w) for w, n in whys.most_common()) if whys else ""))
    shapes = collections.Counter(tuple(q["shape"]) for q in planned)
    avg = sum(q["avg_degree"] for q in planned) / len(planned) if planned else 0
    cyc = sum(1 for q in planned if q["cyclic"])
    print("- Average degree %.2f%s; %d cyclic (%s%s)." % (avg, " (thesis: 0.82)" if thesis else "", cyc,
          pct(cyc, len(planned)), "; thesis: 0.27 %" if thesis else ""))
    print("\nThe original graphs by shape (V, E), E the pairs of tables joined:\n")
    print("| (V, E) | queries |%s" % (" thesis |" if thesis else ""))
    print("|---|---:|%s" % ("---:|" if thesis else ""))
    keys = sorted(set(shapes) | (set(THESIS_ORIG) if thesis else set()), key=lambda k: (-shapes.get(k, 0), k))
    for k in keys:
        print("| (%d, %d) | %d |%s" % (k[0], k[1], shapes.get(k, 0), (" %d |" % THESIS_ORIG.get(k, 0)) if thesis else ""))
    print()
    xavg = sum(q["avg_degree"] + x["delta_avg_degree"] for q, x in xs) / len(xs) if xs else 0
    xcyc = sum(1 for _, x in xs if x["cyclic"])
    with_x = sum(1 for q in planned if q["expansions"])
    print("- **%d expansions** kept by the plans of %d queries%s, average degree %.2f%s, %d cyclic (%s%s)." % (
        len(xs), with_x, " (thesis: 6873)" if thesis else "", xavg, " (thesis: 1.35)" if thesis else "", xcyc,
        pct(xcyc, len(xs)), "; thesis: 4.31 %" if thesis else ""))
    groups = collections.defaultdict(collections.Counter)
    for q, x in xs:
        groups["%.2f" % x["delta_avg_degree"]][(tuple(x["shape"]), tuple(q["shape"]))] += 1
    print("\nThe expansions by the change of average degree (Table 3.2):\n")
    print("| delta | expansions |%s (V, E) expanded from (V, E): count |" % (" thesis |" if thesis else ""))
    print("|---:|---:|%s---|" % ("---:|" if thesis else ""))
    tdelta = {("%.2f" % d): n for d, n in THESIS_DELTA}
    for d in sorted(groups, key=lambda d: -sum(groups[d].values())):
        parts = ", ".join("(%d, %d) from (%d, %d): %d" % (a[0], a[1], b[0], b[1], n)
                          for (a, b), n in groups[d].most_common(4))
        more = len(groups[d]) - 4
        print("| %s | %d |%s %s%s |" % (d, sum(groups[d].values()), (" %d |" % tdelta.get(d, 0)) if thesis else "",
                                        parts, " and %d more" % more if more > 0 else ""))
    pruned = thesis_pruned(planned, xs)
    pc = sum(1 for _, x in pruned if x["cyclic"])
    print("\n- The thesis's pruning (an expanded graph isomorphic to no original one, one per new shape): "
          "**%d expansions from %d queries**%s, %d cyclic (%s%s)." % (
              len(pruned), len({id(q) for q, _ in pruned}), " (thesis: 58 from 30)" if thesis else "", pc,
              pct(pc, len(pruned)), "; thesis: 51.72 %" if thesis else ""))
    _, t1 = stats(n1)
    taken = [(q, x) for q, x in t1 if x["fate"] == "taken"]
    print("- squint expand's default pruning (`--n 1`: the first expansion of each shape over the run, the "
          "original shapes not excluded): %d expansions from %d queries.\n" % (
              len(taken), len({id(q) for q, _ in taken})))


def read_ms(path):
    try:
        return int(open(path).read())
    except (OSError, ValueError):
        return None


def told_by(verdict):
    """Which database told a verdict that the join changes the result."""
    head = verdict.split(": ", 1)[0]
    if head == "different on the database":
        return "db"
    if head.startswith("different on a sample of the database"):
        return "sample"
    for prefix, suffix, name in (("different on the database without the rows of ", " and those that referred to them",
                                  "cascade"),
                                 ("different on the database without the rows of ", "", "without"),
                                 ("different on the database with each row of ", "", "twice"),
                                 ("different on the database with ", " NULL in every row", "null"),
                                 ("different on the counterexample of another expansion", "", "kept")):
        if head.startswith(prefix) and head.endswith(suffix):
            return name
    return "solver"


def run_section(name, queries, ms, n1=None, thesis=False, filter_ms=None):
    """The execution filter and the verdicts of one run (--n 0, -j 2)."""
    planned, xs = stats(queries)
    fates = collections.Counter(x["fate"] for _, x in xs)
    taken = [x for _, x in xs if x["fate"] == "taken"]
    ch = collections.Counter(x.get("changes_original_result") for x in taken)
    print("### %s\n" % name)
    print("- %d expansions kept by the plans of %d queries; run on the data: **%d taken** (they run and return a "
          "row)%s, %d return no row, %d do not run, %d not joinable as written." % (
              len(xs), len(planned), len(taken), " (thesis, on BIRD's databases: 6873)" if thesis else "",
              fates["no-rows"], fates["failed"], fates["not-joinable"]))
    print("- Of the taken, whether the join changes the query's result (squint equiv between the query and "
          "the expansion, the thesis does not measure it): **%d change it (%s)**, %d keep it (%s), %d not "
          "decided (%s)." % (ch[True], pct(ch[True], len(taken)), ch[False], pct(ch[False], len(taken)),
                             ch[None], pct(ch[None], len(taken))))
    src = collections.Counter(told_by(x.get("equiv") or "") for x in taken if x.get("changes_original_result"))
    print("- Of those that change it, %d were told on the database of the execution filter (the two results "
          "differ there, so no search was made), %d on that database without the added table's rows no "
          "foreign key needs, %d on it with each of the added table's rows twice, %d on it without any of "
          "the added table's rows and the rows that referred to them, %d on it with a column of a join "
          "condition NULL in every row, %d on a sample of a database too large to be a counterexample "
          "(or on a variant of the sample), %d on the solver's counterexample for another expansion of the "
          "same query, and %d by the solver's search." % (
              src["db"], src["without"], src["twice"], src["cascade"], src["null"], src["sample"], src["kept"],
              src["solver"]))
    if ms is not None:
        print("- Time for the whole set with `-j 2`, the plans, the runs and every verdict included: **%.1f s**%s."
              % (ms / 1000.0, " (goal: under 60 s)" if thesis else ""))
    if filter_ms is not None:
        print("- The plans and the execution filter alone (`--no-equiv`), `-j 2`: **%.1f s**; the verdicts take the "
              "rest." % (filter_ms / 1000.0))
    if n1 is not None:
        _, x1 = stats(n1)
        t1 = [x for _, x in x1 if x["fate"] == "taken"]
        c1 = collections.Counter(x.get("changes_original_result") for x in t1)
        print("- With squint's default pruning (`--n 1`, the first taken of each shape over the run): %d taken, "
              "%d change the query's result, %d keep it, %d not decided." % (len(t1), c1[True], c1[False], c1[None]))
    print()


def tqa_section(queries):
    """The linker tables (--tqa) and the words naming them, beside the
    thesis's dev split (Table 4.2: components and tokens per query)."""
    linked = [q for q in queries if q.get("linker_table")]
    print("## Linker tables (`--tqa`, BIRD dev)\n")
    if not linked:
        print("No query of BIRD dev had a linker table (or the run failed).\n")
        return
    n = len(linked)

    def parts(q, key):
        return len({m["segment"] for m in q[key]})

    qn = sum(1 for q in linked if q["question_refs"])
    en = sum(1 for q in linked if q["evidence_refs"])
    ties = sum(1 for q in linked if q["tie_broken_by_schema"])
    tables = collections.Counter(q["linker_table"] for q in linked)
    print("- %d of %d gold queries have a linker table (a join graph of four tables or more); %d of them a tie "
          "that the schema graph broke.  The most frequent: %s." % (
              n, len(queries), ties, ", ".join("`%s` %d" % kv for kv in tables.most_common(6))))
    print("- Questions: %d (%s) have a word naming it; %.2f segments and %.2f words a query (thesis, its dev "
          "split: 1.2 components and 1.3 tokens)." % (
              qn, pct(qn, n), sum(parts(q, "question_refs") for q in linked) / n,
              sum(len(q["question_refs"]) for q in linked) / n))
    print("- Evidence: %d (%s) have one; %.2f segments and %.2f words a query (thesis: 0.49 and 0.58).\n" % (
        en, pct(en, n), sum(parts(q, "evidence_refs") for q in linked) / n,
        sum(len(q["evidence_refs"]) for q in linked) / n))
    print("The thesis splits all of BIRD (train and dev) its own way and matches lemmas with WordNet; squint "
          "measures BIRD dev as published, with a stemmer and a short list of same words instead "
          "(docs/squint-expand.md), so the figures are close in kind, not the same measurement.\n")


# Why a join query graph is disconnected, read from the query's SQL: the
# first pattern that matches names the cause.
CAUSES = [
    ("self", re.compile(r"\bON (\w+)\.\"?\w+\"? = \1\."),
     "a join condition between two columns of one table (a gold whose ON never reaches the joined table)"),
    ("derived", re.compile(r"JOIN \(SELECT"),
     "a derived table that aggregates, joined by its aggregate's value: the table it reads has no edge"),
    ("scalar", re.compile(r"(=|<|>|<=|>=|<>) \(SELECT"),
     "a comparison with an uncorrelated scalar subquery: the table it reads has no edge"),
]


def cause_of(sql):
    for name, pattern, _ in CAUSES:
        if pattern.search(sql):
            return name
    return "other"


def max_connected_gap(planned):
    """The largest difference between squint's count and the thesis's of
    a connected shape (E >= V - 1)."""
    ours = collections.Counter(tuple(q["shape"]) for q in planned)
    shapes = set(ours) | set(THESIS_ORIG)
    return max(abs(ours[s] - THESIS_ORIG.get(s, 0)) for s in shapes if s[1] >= s[0] - 1)


def disconnected_section(split):
    """Every disconnected graph of BIRD dev, one by one, with its cause."""
    by = collections.defaultdict(list)
    for q in split:
        by[cause_of(q["sql"])].append(q)
    print("%d of squint's graphs are disconnected (E < V - 1), where the thesis's Table 3.1 has 2 (its (2, 0) "
          "row).  Each is traced here, by the cause its SQL shows:\n" % len(split))
    print("| cause | queries | question_id (V, E) |")
    print("|---|---:|---|")
    for name, _, words in CAUSES + [("other", None, "none of these")]:
        qs = by.get(name, [])
        if qs:
            ids = ", ".join("%s (%d, %d)" % (q["question_id"], q["shape"][0], q["shape"][1]) for q in qs)
            print("| %s | %d | %s |" % (words, len(qs), ids))
    sub = [q for name in ("scalar", "derived") for q in by.get(name, [])]
    shapes = collections.Counter(tuple(q["shape"]) for q in split)
    sub_shapes = collections.Counter(tuple(q["shape"]) for q in sub)
    print("\nA table that a subquery reads only to compute a value (`x = (SELECT MAX(x) FROM t)`) is a node "
          "of squint's graph, since unnesting makes the subquery a relation of the query, but no column joins "
          "it; the thesis's graph, drawn from the tables the query joins, likely leaves it out, and the "
          "query's shape there is the one without it ((2, 0) would be (1, 0), (3, 1) would be (2, 1)).  "
          "Those are %d of the %d disconnected graphs: %s.  The graphs (2, 0) of other causes are %d "
          "(the thesis: 2).\n" % (len(sub), len(split),
                                   ", ".join("(%d, %d) %d of %d" % (v, e, sub_shapes[(v, e)], n)
                                             for (v, e), n in sorted(shapes.items())),
                                   shapes[(2, 0)] - sub_shapes[(2, 0)]))


def main():
    out, commit = sys.argv[1], sys.argv[2]
    bird, bird1 = load(out + "/bird-all.json"), load(out + "/bird-n1.json")
    spider, spider1 = load(out + "/spider-all.json"), load(out + "/spider-n1.json")
    try:
        ms = int(open(out + "/bird-all.ms").read())
    except (OSError, ValueError):
        ms = 0
    print("# squint expand: measured\n")
    print("Generated by `make expand-report` (scripts/expand_report.sh) at commit %s; do not edit by hand.\n" % commit)
    print("What is measured here is the plan: seed 001's Algorithm 1 up to the SQL (candidate tables, the "
          "combinations of join conditions, the transitivity rule, at most one condition between two tables), "
          "on the join query graph after unnesting, with nothing run (`--no-run`) and nothing decided "
          "(`--no-equiv`); the last section runs them and decides whether each changes the result.  Planning "
          "and writing every expansion of BIRD dev took %.1f s (one process).\n" % (ms / 1000.0))
    section("BIRD dev (its tables.json), beside the thesis", bird, bird1, True)
    planned, _ = stats(bird)
    split = [q for q in planned if q["shape"][1] < q["shape"][0] - 1]
    disconnected_section(split)
    print("The other differences of method: squint's graph is made after unnesting, so the table of an "
          "IN or EXISTS subquery that becomes a semi-join is a node of it; a query that keeps a subquery "
          "expression, a WITH clause or a compound SELECT has no plan here; E counts the pairs of tables "
          "joined, so two conditions between the same two tables are one edge; and the thesis counts its "
          "expansions after running them on BIRD's databases (\"valid in terms of execution\"), while this "
          "count is of every expansion the plans keep (the last section runs them, on witnesses).  The "
          "thesis gives its counts per shape, not per query, so the connected graphs cannot be traced one "
          "by one against it; their counts differ from the thesis's by at most %d queries a shape.\n"
          % max_connected_gap(planned))
    section("Spider dev (its databases)", spider, spider1, False)
    tqa_section(load(out + "/bird-tqa.json"))
    print("## The execution filter and the result\n")
    print("Each expansion the plans keep (`--n 0`) is run on data, and one that runs and returns a row is taken; "
          "for each taken, squint equiv decides whether the added join changes the query's result (it can "
          "multiply rows or drop them), under bag semantics, with z3's budget in resource units so that the "
          "verdicts are the same on every machine.\n")
    run_section("Spider dev, on its databases", load(out + "/spider-run.json"), read_ms(out + "/spider-run.ms"))
    bird_run = load(out + "/bird-run.json")
    if bird_run:
        run_section("BIRD dev, on the witnesses of `squint fixture`", bird_run, read_ms(out + "/bird-run.ms"),
                    load(out + "/bird-run-n1.json"), True, read_ms(out + "/bird-run-noequiv.ms"))
        print("BIRD's databases are not in the corpora, so each question's data is its witness (built by `make "
              "template-report`: a few rows per table on which the gold returns rows).  A witness holds rows "
              "only where its gold and the schema's constraints need them, so an inner join with another table "
              "often returns no row on it: expansions are dropped here that the thesis, running them on BIRD's "
              "databases, kept.  The count of taken expansions is therefore not comparable with the thesis's "
              "6873; the share that changes the result is measured on those the witnesses keep.\n")
    else:
        print("BIRD dev's part needs the witnesses of every question: run `make template-report` (over all of "
              "BIRD dev) first, or give EXPAND_FIXTURES=DIR.\n")


if __name__ == "__main__":
    main()
