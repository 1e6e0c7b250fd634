#!/usr/bin/env bash
# test_spider_em_data.sh -- the recorded official Spider exact-set-match
# results (tests/eval/spider-em, issue 23) hold together: for every
# prediction file, 1,034 items, the per-item exact matches average to the
# "exact match" of the table the script printed, and the per-item hardness
# levels count easy 248, medium 446, hard 174, extra 166 as the published
# dev split does.  The squint-side conformance compares against these files,
# so a truncated or mis-normalised file must fail here first.  Needs no
# corpus.
. tests/cli/lib.sh
R=tests/eval/spider-em
for t in "$R"/*.table; do
    name=$(basename "$t" .table)
    items=$R/$name.items.gz
    if [ ! -f "$items" ]; then not_ok "spider-em data: $name: no $items"; continue; fi
    n=$(gzip -dc "$items" | wc -l)
    if [ "$n" -ne 1034 ]; then not_ok "spider-em data: $name: $n items, want 1034"; continue; fi
    ours=$(gzip -dc "$items" | awk -F'\t' '{ s += $2 } END { printf "%.3f", s / NR }')
    theirs=$(awk '/^exact match/ { print $NF }' "$t")
    if [ "$ours" = "$theirs" ]; then ok "spider-em data: $name: EM $ours as printed"
    else not_ok "spider-em data: $name: items average $ours, table $theirs"; fi
    levels=$(gzip -dc "$items" | awk -F'\t' '{ c[$3]++ }
        END { printf "%d %d %d %d", c["easy"], c["medium"], c["hard"], c["extra"] }')
    if [ "$levels" = "248 446 174 166" ]; then ok "spider-em data: $name: hardness counts"
    else not_ok "spider-em data: $name: hardness counts $levels"; fi
    fields=$(gzip -dc "$items" | awk -F'\t' 'NF != 13 || ($2 != 0 && $2 != 1) { bad++ } END { print bad + 0 }')
    if [ "$fields" = 0 ]; then ok "spider-em data: $name: 13 fields, em 0 or 1"
    else not_ok "spider-em data: $name: $fields malformed lines"; fi
done
