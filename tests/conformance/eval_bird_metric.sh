#!/usr/bin/env bash
# eval_bird_metric.sh -- `squint eval --semantics bird` against BIRD's
# published metric run by Python's sqlite3 (tests/conformance/bird_metric.py),
# item by item.  The corpus has no BIRD databases, so both run on Spider
# dev's databases with a Spider prediction file.  Skips when python3 or
# the corpus is absent.
#
# Usage: tests/conformance/eval_bird_metric.sh BUILD_DIR
set -u
BUILD=${1:-build}
S=${SQUINT_CORPORA:-../shared/corpora}/spider-dev
pred=$S/predictions/model_10.sql
if [ ! -f "$pred" ]; then echo "eval-bird-metric: no $pred; skipped"; exit 0; fi
if ! command -v python3 >/dev/null; then echo "eval-bird-metric: no python3; skipped"; exit 0; fi
out=$BUILD/conformance/eval-bird-metric
mkdir -p "$out"
rm -f "$out/records.jsonl"
"$BUILD/squint" eval --gold "$S/dev.json" --pred "$pred" --db-root "$S/database" --semantics bird \
    --no-verify -q -j 2 --out "$out/records.jsonl" > /dev/null || { echo "eval-bird-metric: squint eval failed"; exit 1; }
python3 tests/conformance/bird_metric.py "$S/dev.json" "$S/database" "$pred" > "$out/python.items"
# squint's outcome per item, in item order
sed -n 's/^{"item":\([0-9]*\),.*"ex":"\([a-z-]*\)".*/\1 \2/p' "$out/records.jsonl" | sort -n |
    awk '{ print ($2 == "correct") ? 1 : 0 }' > "$out/squint.items"
n=$(wc -l < "$out/python.items")
ours=$(grep -c '^1$' "$out/squint.items")
theirs=$(grep -c '^1$' "$out/python.items")
if cmp -s "$out/squint.items" "$out/python.items"; then
    echo "eval-bird-metric: model_10 under BIRD's metric: $ours of $n, Python's sqlite3 gives the same items"
else
    bad=$(paste -d' ' "$out/squint.items" "$out/python.items" | awk '$1 != $2 { c++ } END { print c + 0 }')
    echo "eval-bird-metric: squint $ours of $n, Python $theirs: $bad items differ ($out)"
    exit 1
fi
