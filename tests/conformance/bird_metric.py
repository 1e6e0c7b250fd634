# bird_metric.py -- BIRD's published execution metric, restated: a
# prediction is correct when set(its rows) == set(the gold's rows), both
# run with Python's sqlite3 module as BIRD's evaluation.py runs them (one
# cursor.execute() each, the prediction first); any exception is 0.
# Prints one line per item, 1 or 0.
#
# Usage: python3 bird_metric.py DEV_JSON DB_ROOT PREDICTIONS
# (Spider's layout: DB_ROOT/ID/ID.sqlite; one prediction per line, the
# text after a tab ignored.)
import json
import sqlite3
import sys

dev_json, db_root, pred_path = sys.argv[1:4]
dev = json.load(open(dev_json))
preds = [line.rstrip('\n').split('\t')[0] for line in open(pred_path)]
for item, pred in zip(dev, preds):
    path = '%s/%s/%s.sqlite' % (db_root, item['db_id'], item['db_id'])
    try:
        conn = sqlite3.connect('file:%s?mode=ro' % path, uri=True)
        cur = conn.cursor()
        cur.execute(pred)
        pred_rows = cur.fetchall()
        cur.execute(item['query'])
        gold_rows = cur.fetchall()
        print(1 if set(pred_rows) == set(gold_rows) else 0)
        conn.close()
    except Exception:
        print(0)
