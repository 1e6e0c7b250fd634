#!/usr/bin/env bash
# test_eval_report.sh -- the HTML report of squint eval: its content, and
# that headless Chromium renders it.  Prints TAP lines.  Chromium is
# installed with scripts/deps.sh when it is missing (set SQUINT_NO_BROWSER=1
# to skip that); if it cannot be, the rendering test is skipped with a
# message.
cd "$(dirname "$0")/../.." || exit 2
. tests/cli/lib.sh
eval_demo_db "eval report"
R=$TMP/report.html
expect_exit 0 "eval report: written" -- "$SQUINT" eval "${EVAL_BUDGET[@]}" --gold $D/dev.json --pred good=$D/pred_good.sql \
    --pred weak=$D/pred_weak.sql --db-root "$TMP/db" -q -j 2 --cross-check --report "$R" --out "$TMP/r.jsonl"
expect_grep '^<!DOCTYPE html>' "$R" "eval report: an HTML page"
expect_grep '<svg xmlns=' "$R" "eval report: an inline SVG chart"
expect_grep "<rect class='ver'" "$R" "eval report: EX-verified bars"
expect_grep 'Disagreements \(5\)' "$R" "eval report: the five refuted predictions"
expect_grep '<caption>books</caption>' "$R" "eval report: a counterexample table"
if grep -qE '(src|href)=.(https?:)?//' "$R"; then not_ok "eval report: fetches from the network"; else
    ok "eval report: self-contained"; fi
expect_exit 0 "merge: report from the records" -- "$SQUINT" merge --report "$TMP/merged.html" "$TMP/r.jsonl"
cmp -s "$R" "$TMP/merged.html" && ok "merge: the same report as the run's" || not_ok "merge: report differs"

# ---- anchors, contents and links ------------------------------------------
# eval_report_check.py reads the page as a browser does and computes what it
# should hold from the records (skipped without python3)
check() { # check NAME CHECK: one TAP line from eval_report_check.py CHECK
    if ! command -v python3 >/dev/null; then ok "$1: skipped (no python3)"; return; fi
    local got
    if got=$(python3 tests/cli/eval_report_check.py "$2" "$R" "$TMP/r.jsonl" 2>&1); then ok "$1 ($got)"; else
        not_ok "$1 ($got)"; fi
}
check "eval report: unique ids, links resolve, contents list every item" anchors
check "eval report: each summary row links to exactly its system's disagreements" summary-links
check "eval report: items carry their filter attributes; without script every item is shown" filter-attrs

# ---- rendering ---------------------------------------------------------------
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ] && [ "${SQUINT_NO_BROWSER:-0}" != 1 ]; then
    scripts/deps.sh chromium >/dev/null 2>&1
    browser=$(command -v chromium || true)
fi
if [ -z "$browser" ]; then
    echo "ok - eval report: rendering skipped (chromium could not be installed)"
    exit 0
fi
chrome() { # chrome ARGS...: headless Chromium in $TMP, its own profile
    (cd "$TMP" && timeout 120 "$browser" --headless --no-sandbox --disable-gpu --user-data-dir="$TMP/profile" "$@")
}
shot() { # shot URL PNG [ARGS...]
    local url=$1 png=$2
    shift 2
    chrome --window-size=1200,1600 "$@" --screenshot="$png" "$url" >/dev/null 2>&1
}
# console URL: the page's console messages (Chromium logs each as a CONSOLE line)
console() { chrome --enable-logging=stderr --v=0 --dump-dom "$1" 2>&1 >/dev/null | grep ':CONSOLE' ; }
echo '<!DOCTYPE html><html><body><p>x</p><script>no_such_function();</script></body></html>' > "$TMP/broken.html"
if [ -z "$(console "file://$TMP/broken.html")" ]; then
    not_ok "eval report: the console check misses a script error on a broken page"
else
    msgs=$(console "file://$R")
    [ -z "$msgs" ] && ok "eval report: no console messages (a broken page's error is caught)" ||
        not_ok "eval report: console messages: $(head -3 <<<"$msgs")"
fi
shot() { # shot URL PNG
    (cd "$TMP" && timeout 120 "$browser" --headless --no-sandbox --disable-gpu --user-data-dir="$TMP/profile" \
        --window-size=1200,1600 --screenshot="$2" "$1" >/dev/null 2>&1)
}
echo '<!DOCTYPE html><html><body></body></html>' > "$TMP/blank.html"
shot "file://$TMP/blank.html" "$TMP/blank.png"
nonblank() { # nonblank PNG NAME: a rendered page of tables, bars and text
    # compresses far worse than a blank one
    if [ -s "$1" ] && [ -s "$TMP/blank.png" ]; then
        local r b
        r=$(wc -c < "$1")
        b=$(wc -c < "$TMP/blank.png")
        [ "$r" -gt $((8 * b)) ] && ok "$2 ($r bytes of PNG, blank page $b)" ||
            not_ok "$2: the screenshot looks blank ($r bytes, blank page $b)"
    else
        not_ok "$2: Chromium took no screenshot"
    fi
}
shot "file://$R" "$TMP/report.png"
nonblank "$TMP/report.png" "eval report: Chromium renders it"
shot "file://$R" "$TMP/noscript.png" --blink-settings=scriptEnabled=false
nonblank "$TMP/noscript.png" "eval report: Chromium renders it with script off"
for q in 'system=weak' 'verdict=different&difficulty=hard'; do
    command -v python3 >/dev/null || { ok "eval report: filters skipped (no python3)"; break; }
    chrome --dump-dom "file://$R?$q" > "$TMP/filtered.html" 2>/dev/null
    if got=$(python3 tests/cli/eval_report_check.py filtered "$TMP/filtered.html" "$q" 2>&1); then
        ok "eval report: the filters' script shows only what ?$q asks ($got)"
    else not_ok "eval report: filters ($got)"; fi
done
dom=$(chrome --dump-dom "file://$R" 2>/dev/null)
grep -q "Disagreements (5)" <<<"$dom" && grep -q '<svg' <<<"$dom" && ok "eval report: Chromium's DOM has the chart and the disagreements" ||
    not_ok "eval report: Chromium's DOM lacks the report"
