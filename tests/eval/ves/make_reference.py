#!/usr/bin/env python3
# make_reference.py -- the expected values of ves_matches_the_official_script
# (tests/unit/test_eval.c): BIRD Mini-Dev's own evaluation_ves.py run on
# scripted timings.  Run it in a scratch directory that holds that script
# (README.md); nothing of the script is kept in this repository.
import sys
sys.path.insert(0, '.')
import evaluation_ves as V

def lcg_ratios(seed, n, scale):
    x = seed & 0xffffffff
    out = []
    for i in range(n):
        x = (1664525 * x + 1013904223) & 0xffffffff
        r = scale * (0.2 + 3.8 * x / 4294967296.0)
        if x % 17 == 0:
            r *= 40.0          # an outlier now and then
        out.append(r)
    return out

def official(ratios):
    times = []
    for r in ratios:
        times += [1.0, r]      # the prediction runs first, then the gold
    it = iter(times)
    def fake_exec(sql, db, dialect, return_time=False):
        return next(it) if return_time else [(1,)]
    V.execute_sql = fake_exec
    reward = V.execute_model("p", "g", "db", 0, len(ratios), 30.0, "SQLite")["reward"]
    try:
        kept = V.clean_abnormal(ratios)
        ratio = sum(kept) / len(kept)
    except ZeroDivisionError:
        ratio = 0
    return ratio, reward

cases = [(1, 100, 0.05), (2, 100, 0.1), (3, 100, 0.2), (4, 50, 0.3), (5, 10, 0.45), (6, 3, 0.6),
         (7, 2, 0.9), (8, 100, 1.0), (9, 100, 1.5), (10, 1, 1.0), (11, 100, 3.0), (12, 7, 0.8)]
for s, n, k in cases:
    ratio, reward = official(lcg_ratios(s, n, k))
    print("    {%d, %d, %.17g, %.17g, %.17g}," % (s, n, k, ratio, reward))
# equal ratios: no deviation, the script's division by zero
ratio, reward = official([1.5] * 5)
print("    /* five equal ratios */ %.17g %.17g" % (ratio, reward))
