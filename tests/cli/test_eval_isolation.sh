#!/usr/bin/env bash
# test_eval_isolation.sh -- a solver that fails on one system's query costs
# that system's verdict on that item, and nothing else (issue 18, finding
# 5).  squint eval runs each search in a process of its own; the failure is
# injected with SQUINT_TEST_SOLVER_FAULT (backend/equiv/equiv_child.c).
# Prints TAP lines.
cd "$(dirname "$0")/../.." || exit 2
. tests/cli/lib.sh
eval_demo_db "eval isolation"

cat >"$TMP/gold.json" <<'JSON'
[{"db_id": "library", "query": "SELECT name FROM members WHERE city = 'Springfield'"},
 {"db_id": "library", "query": "SELECT count(*) FROM books"}]
JSON
printf '%s\n' "SELECT name FROM members WHERE city = 'Springfield'" "SELECT count(*) FROM books" >"$TMP/a.sql"
printf '%s\n' "SELECT name FROM members WHERE 'Springfield' = city /* crash-me */" \
    "SELECT count(*) FROM books" >"$TMP/b.sql"
run() {
    SQUINT_TEST_SOLVER_FAULT=abort:crash-me "$SQUINT" eval "${EVAL_BUDGET[@]}" --gold "$TMP/gold.json" --pred a="$TMP/a.sql" \
        --pred b="$TMP/b.sql" --db-root "$TMP/db" -q --out "$TMP/rec.jsonl" "$@"
}
expect_exit 0 "eval isolation: the run ends normally" -- run
[ "$(wc -l <"$TMP/rec.jsonl")" = 2 ] && ok "eval isolation: a record per item" ||
    not_ok "eval isolation: a record per item"
first=$(head -n 1 "$TMP/rec.jsonl")
grep -q '"name":"b"[^}]*"verdict":"solver-failed"' <<<"$first" &&
    ok "eval isolation: b's verdict on item 1 is solver-failed" ||
    not_ok "eval isolation: b's verdict on item 1 is solver-failed ($first)"
grep -q '"name":"a"[^}]*"verdict":"equivalent"' <<<"$first" &&
    ok "eval isolation: a's verdict on item 1 is kept" || not_ok "eval isolation: a's verdict on item 1 is kept"
n=$(tail -n 1 "$TMP/rec.jsonl" | grep -o '"verdict":"equivalent"' | wc -l)
[ "$n" = 2 ] && ok "eval isolation: item 2 verified for both" || not_ok "eval isolation: item 2 verified for both ($n)"
