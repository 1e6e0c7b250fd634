#!/usr/bin/env python3
"""expand_requests_check.py -- check the question requests of
`squint expand --format json --requests FILE` against its JSON.

usage: expand_requests_check.py EXPAND.json REQUESTS.jsonl GOLD.json

Every taken expansion has exactly one request, named by its
question_request_id and no other expansion's; each request's user message
holds the expansion's SQL, the original query's SQL, the table joined with
its conditions, the CREATE TABLE of that table, the item's question and
(when it has one) its evidence; an empty evidence gets no section; the
model is the default placeholder at the task's temperature.  Prints the
number of requests, or each problem (exit 1).
"""
import json
import sys


def main():
    queries = json.load(open(sys.argv[1]))
    reqs = [json.loads(l) for l in open(sys.argv[2])]
    gold = {g["question_id"]: g for g in json.load(open(sys.argv[3]))}
    by_id = {r["custom_id"]: r for r in reqs}
    bad = []
    if len(by_id) != len(reqs):
        bad.append("custom_ids repeat")
    n = 0
    for q in queries:
        g = gold[q["question_id"]]
        for x in q["expansions"]:
            rid = x["question_request_id"]
            if x["fate"] != "taken":
                if rid is not None:
                    bad.append("a request for an expansion not taken: %s" % rid)
                continue
            n += 1
            if not rid or not rid.startswith("expand-question/qid-%d/x-" % q["question_id"]) or rid not in by_id:
                bad.append("no request for %s" % x["sql"])
                continue
            body = by_id[rid]["body"]
            user = [m["content"] for m in body["messages"] if m["role"] == "user"][0]
            want = [x["sql"], q["sql"], "the table %s on %s" % (x["added_table"], x["join_conditions"]), g["question"],
                    "CREATE TABLE %s" % x["added_table"]]
            if g["evidence"]:
                want.append(g["evidence"])
            elif "domain knowledge that came with" in user:
                bad.append("%s: an empty evidence is given a section" % rid)
            bad += ["%s: the prompt lacks %r" % (rid, w) for w in want if w not in user]
            if body["model"] != "squint-placeholder" or body["temperature"] != 0.7:
                bad.append("%s: model %s, temperature %s" % (rid, body["model"], body["temperature"]))
    if n != len(reqs) or n == 0:
        bad.append("%d taken expansions, %d requests" % (n, len(reqs)))
    print("\n".join(bad) if bad else "%d requests" % n)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
