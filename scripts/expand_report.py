#!/usr/bin/env python3
"""expand_report.py OUT COMMIT -- docs/expand-report.md from the JSON that
scripts/expand_report.sh made: join query graphs, their expansions, and
the pruning by shape, beside seed 001's Tables 3.1-3.4."""
import collections
import json
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
          "(`--no-equiv`).  The execution filter on BIRD's fixtures, the share of expansions that change the "
          "original's result, and the time with them are not measured yet (issue 25).  Planning and writing "
          "every expansion of BIRD dev took %.1f s (one process).\n" % (ms / 1000.0))
    section("BIRD dev (its tables.json), beside the thesis", bird, bird1, True)
    planned, _ = stats(bird)
    split = [q for q in planned if q["shape"][1] < q["shape"][0] - 1]
    print("The counts differ from the thesis's; they have not yet been traced query by query (issue 25).  "
          "%d of squint's graphs are disconnected (E < V - 1); those looked at so far are a query comparing "
          "with an uncorrelated scalar subquery (`x = (SELECT MAX(x) FROM t)`), which unnesting makes a "
          "derived table joined with no equality: a node with no edge, where the thesis's graph likely has "
          "the one table (its (2, 0) count is 2).  " % len(split) +
          "The differences of method known so far: squint's graph is made after unnesting, so the table of an "
          "IN or EXISTS subquery that becomes a semi-join is a node of it; a query that keeps a subquery "
          "expression, a WITH clause or a compound SELECT has no plan here; E counts the pairs of tables "
          "joined, so two conditions between the same two tables are one edge; and the thesis counts its "
          "expansions after running them on BIRD's databases (\"valid in terms of execution\"), which this "
          "report does not do: squint's count is of every expansion the plans keep.\n")
    section("Spider dev (its databases)", spider, spider1, False)


if __name__ == "__main__":
    main()
