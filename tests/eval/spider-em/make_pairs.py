#!/usr/bin/env python3
# make_pairs.py -- the query pairs of pairs.tsv.gz (README.md): for every
# Spider dev item, four predictions (model_1, model_3, model_10,
# pred_example) against the gold, each changed by one random edit, and the
# gold against itself with an edit on each side.  The edits are the ones
# that decide how the official script reads a query: a token dropped,
# moved or inserted, "a=b" without blanks, commas without blanks, a final
# period or semicolon, double quotes, upper case, LEFT JOIN, an alias, a
# LIMIT, blanks around parentheses, AND as OR, DISTINCT, "> =".
# usage: make_pairs.py SPIDER_DEV_DIR > pairs.tsv   (db_id, gold, pred;
# the official results are appended as a fourth column, see README.md)
import json
import random
import sys

S = sys.argv[1]
random.seed(7)
dev = json.load(open(S + "/dev.json"))
systems = ["model_1", "model_3", "model_10", "pred_example"]
preds = {m: open(f"{S}/predictions/{m}.sql").read().split("\n") for m in systems}
WORDS = ["value", "not", "(", ")", "and", "as", "x", "1", '"a"', "'b'", "*", ".", "in", "between", "order", "by"]


def edit(q):
    t = q.split()
    r = random.random()
    if r < 0.1 and len(t) > 2:
        del t[random.randrange(len(t))]
    elif r < 0.2 and len(t) > 2:
        i, j = random.randrange(len(t)), random.randrange(len(t))
        t[i], t[j] = t[j], t[i]
    elif r < 0.3:
        return q.replace(" = ", "=", 1)
    elif r < 0.4:
        return q.replace(" , ", ",").replace(", ", ",")
    elif r < 0.45:
        return q + " ."
    elif r < 0.5:
        return q + " ;"
    elif r < 0.55:
        return q.replace("'", '"')
    elif r < 0.6:
        return q.upper()
    elif r < 0.65:
        return q.replace("JOIN", "LEFT JOIN", 1)
    elif r < 0.7:
        return q.replace(" AS ", " as ").replace("T1", "t1")
    elif r < 0.75:
        return q + " LIMIT 3"
    elif r < 0.8:
        return q.replace("(", " ( ").replace(")", " ) ")
    elif r < 0.85:
        return q.replace(" AND ", " OR ", 1)
    elif r < 0.9:
        return q.replace("SELECT", "SELECT DISTINCT", 1)
    elif r < 0.95:
        return q.replace(">", "> =", 1).replace("<", "< =", 1)
    else:
        t.insert(random.randrange(len(t) + 1), random.choice(WORDS))
    return " ".join(t)


rows = []
for i, it in enumerate(dev):
    g = it["query"].replace("\t", " ").replace("\n", " ")
    for m in systems:
        rows.append((it["db_id"], g, edit(preds[m][i].split("\t")[0])))
    rows.append((it["db_id"], edit(g), edit(g)))
rows.sort(key=lambda r: r[0])  # stable: by db_id, then in item order
for r in rows:
    print("\t".join(r))
