#!/usr/bin/env python3
"""template_report.py -- the numbers of docs/template-report.md from the
files scripts/template_report.sh leaves in OUT."""
import collections
import json
import re
import statistics
import sys

KINDS = ["value", "threshold", "date", "period", "relative", "limit", "metric", "group-col",
         "order-col", "order-dir"]


def pct(a, b):
    return "%.1f %%" % (100.0 * a / b) if b else "-"


def slots_table(name, items):
    n = len(items)
    with_slots = sum(1 for it in items if it["slots"])
    kinds = collections.Counter(s["kind"] for it in items for s in it["slots"])
    total = sum(kinds.values())
    print("**%s**: %d queries, %d with at least one slot (%s), %d slots, %.2f per query.\n"
          % (name, n, with_slots, pct(with_slots, n), total, total / n if n else 0))
    print("| kind | slots | per query | queries with one |")
    print("|---|---:|---:|---:|")
    for k in KINDS:
        q = sum(1 for it in items if any(s["kind"] == k for s in it["slots"]))
        print("| `%s` | %d | %.2f | %d (%s) |" % (k, kinds[k], kinds[k] / n if n else 0, q, pct(q, n)))
    print()


def instances(title, where, recs, summary, seconds):
    """The section of one sample run."""
    print("## Instances (`squint template sample`, %s)\n" % title)
    n = len(recs)
    valid = [r for r in recs if r["valid"]]
    sources = collections.Counter(r["source_id"] for r in recs)
    m = re.search(r"(\d+) sources \((\d+) done before, (\d+) failed\)", summary)
    n_sources, n_failed = (int(m.group(1)), int(m.group(3))) if m else (0, 0)
    print("- %d gold queries; %d could not be sampled (no %s, or the gold itself returns no row, or only NULL, "
          "on its %s); %d have instances; the other %d have no slot to vary, or every variant "
          "drawn was the SQL of another." % (n_sources, n_failed, where, where, len(sources),
                                             n_sources - n_failed - len(sources)))
    print("- %d instances, %.2f per query that has any (at most 10: a query whose slots run out of "
          "new variants gets fewer).  **%d valid: %s** (goal: 90 %%)." %
          (n, n / len(sources) if sources else 0, len(valid), pct(len(valid), n)))
    m = re.search(r"(\d+) draws made again", summary)
    if m:
        print("- %s draws were made again because their query returned no row, or only NULL, on its data "
              "(the eighth draw is kept and checked whatever it returns)." % m.group(1))
    m = re.search(r"median ([\d.]+) ms, mean ([\d.]+) ms", summary)
    if m:
        print("- Time per valid instance, checks included: median %s ms, mean %s ms (goal: median at "
              "most 50 ms); %d s for the whole run on this machine." % (m.group(1), m.group(2), seconds))
    print()
    print("Rejections, by the first check that failed:\n")
    print("| reason | instances | share of all |")
    print("|---|---:|---:|")
    reasons = collections.Counter()
    for r in recs:
        if not r["valid"]:
            why = re.sub(r"the instance \d+", "an instance", re.split(r"[:(]", r["reasons"][0])[0].strip())
            reasons[why] += 1
    for why, k in reasons.most_common():
        print("| %s | %d | %s |" % (why, k, pct(k, n)))
    print()
    caught = collections.Counter(r.get("caught_by") for r in recs if not r["valid"] and r.get("caught_by"))
    told = collections.Counter(r.get("distinct_by") for r in valid)
    print("Duplicates (instances that are the same query as the source or an accepted instance) "
          "caught by their text: %d, by normal form: %d, by the solver: %d.  Valid instances told "
          "apart from the source and the accepted ones (the costliest proof each needed): by their rows "
          "on the data: %d, on another database of the fixture's suite: %d, on the database of a "
          "counterexample found for an earlier instance of the same source: %d, on a one-cell variant of "
          "the data: %d, by a new counterexample the solver found: %d.\n"
          % (caught["text"], caught["normal form"], caught["solver"], told["result"], told["suite"],
             told["counterexample"], told["variant"], told["solver"]))
    distinct = collections.defaultdict(set)
    for r in valid:
        distinct[r["source_id"]].add(r["sql"])
    per = [len(v) for v in distinct.values()]
    if per:
        print("Diversity: %d valid queries over %d sources, %.2f per source (median %d, max %d).  Each "
              "was shown to differ from its source and from every valid instance of its source before it "
              "(other rows on the data, or a counterexample), so no two are equivalent and no two share a "
              "normal form: these are also the distinct normal forms per source.\n"
              % (sum(per), len(per), statistics.mean(per), statistics.median(per), max(per)))
    alts = collections.Counter(a["kind"] for r in recs for a in r["alterations"])
    vals = sum(1 for r in recs if r["slots"])
    print("What the instances change: %d write new values into slots; alterations:\n" % vals)
    print("| alteration | instances | valid |")
    print("|---|---:|---:|")
    for k, c in alts.most_common():
        v = sum(1 for r in valid for a in r["alterations"] if a["kind"] == k)
        print("| `%s` | %d | %d (%s) |" % (k, c, v, pct(v, c)))
    print()


def main():
    out, commit = sys.argv[1], sys.argv[2]
    spider = json.load(open(out + "/spider-extract.json"))
    bird = json.load(open(out + "/bird-extract.json"))
    recs = [json.loads(l) for l in open(out + "/spider-sample.jsonl")]
    summary = open(out + "/spider-sample.summary").read()
    seconds = int(open(out + "/spider-sample.seconds").read())

    print("# squint template: measured\n")
    print("Generated by `make template-report` (scripts/template_report.sh) at commit %s; "
          "do not edit by hand.\n" % commit)
    print("## Slots (`squint template extract`)\n")
    slots_table("Spider dev gold", spider)
    slots_table("BIRD dev gold", bird)

    instances("Spider dev, `--n 10 --seed 1`, on its databases", "database", recs, summary, seconds)
    brecs = [json.loads(l) for l in open(out + "/bird-sample.jsonl")]
    bsummary = open(out + "/bird-sample.summary").read()
    bseconds = int(open(out + "/bird-sample.seconds").read())
    limit = int(open(out + "/bird.limit").read())
    fixture_seconds = int(open(out + "/bird-fixtures.seconds").read())
    scope = "its first %d questions" % limit if limit else "all of it"
    instances("BIRD dev (%s), `--n 10 --seed 1`, on witnesses" % scope, "witness", brecs, bsummary, bseconds)
    print("BIRD's databases are not in the corpora: each question's data is the witness `squint fixture` "
          "built for it (`--max-mutants 1 --timeout 0.5`; %d s for them), a few rows per table on which the "
          "gold returns rows.  Values are drawn from those rows, and an instance must return rows on them; "
          "the suite's other databases (the empty one, the one with NULLs, the mutant's counterexample) "
          "only tell instances apart.\n" % fixture_seconds)
    told = collections.Counter(r.get("distinct_by") for r in brecs if r["valid"])
    print("On a witness most instances return the same rows as their source.  The suite's other databases, "
          "the databases of counterexamples found for earlier instances of the same source and the witness's "
          "one-cell variants (its first rows with one cell changed where no constraint can break) tell %d of "
          "the %d valid ones apart by running both queries; the solver was needed for %d.\n"
          % (told["suite"] + told["counterexample"] + told["variant"], sum(told.values()), told["solver"]))
    if limit:
        print("Only the first %d questions were measured (`TEMPLATE_BIRD_LIMIT=%d make template-report`).\n"
              % (limit, limit))

if __name__ == "__main__":
    main()
