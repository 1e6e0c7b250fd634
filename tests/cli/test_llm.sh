#!/usr/bin/env bash
# test_llm.sh -- squint llm run against a real HTTP server on 127.0.0.1
# (tests/llm/server.py): nothing is mocked inside squint.  Prints TAP lines.
#   - every request answered, each custom_id recorded exactly once, the
#     records in OpenAI's batch output shape with squint's fields;
#   - never more requests in progress than -j;
#   - the faults: 500, 503 and 429 (+ Retry-After) are retried, a reset
#     connection and a truncated body too; a timeout is retried and then
#     fails; a malformed 200, a 200 without choices and a 400 fail at once
#     with the reason; a huge reply arrives whole, or fails past
#     --max-reply-bytes; a server that is not there fails as a connection
#     error; the server's attempt counts match the records' attempts;
#   - the API key is sent as the Authorization header and appears nowhere
#     else (records, stderr, cache), even when a server echoes it back;
#   - kill -9 midway and a rerun: every request recorded once, a record cut
#     short is removed and its request sent again;
#   - the cache: a rerun sends nothing, a changed request is sent;
#   - files squint did not write are never appended to or cut; usage
#     errors and bad request lines exit 2 before anything is sent.
cd "$(dirname "$0")/../.." || exit 2
. tests/cli/lib.sh
if ! command -v python3 >/dev/null; then
    echo "ok - llm: skipped (no python3 for the test server; scripts/deps.sh installs it)"
    exit 0
fi

. tests/cli/llm_server.sh

# stats EXPR -- a Python expression over the server's /stats (s), printed
stats() {
    python3 -c "import json, urllib.request as u
s = json.load(u.urlopen('http://127.0.0.1:$PORT/stats'))
print($1)"
}
reset_stats() { python3 -c "import urllib.request as u; u.urlopen(u.Request('http://127.0.0.1:$PORT/stats/reset', data=b''))"; }

# requests FILE ID:CONTENT... -- one request line per argument
requests() {
    local f=$1
    shift
    python3 - "$@" >"$f" <<'EOF'
import json, sys
for arg in sys.argv[1:]:
    cid, content = arg.split(":", 1)
    body = {"model": "m1", "messages": [{"role": "system", "content": "test"},
            {"role": "user", "content": f"key={cid} {content}"}], "temperature": 0, "seed": 7, "max_tokens": 16}
    print(json.dumps({"custom_id": cid, "method": "POST", "url": "/v1/chat/completions", "body": body}))
EOF
}

# check NAME FILE PYTHON -- assertions over the records of FILE: r maps
# each custom_id to its record (a second record of an id fails), lines is
# the list of records in file order
check() {
    local name=$1 file=$2
    if python3 - "$file" "$3" 2>"$TMP/check.err" <<'EOF'; then ok "$name"; else not_ok "$name"; tail -3 "$TMP/check.err"; fi
import json, sys
raw = open(sys.argv[1], encoding="utf-8").read()
assert raw.endswith("\n"), "the file ends with a newline"
lines = [json.loads(l) for l in raw.split("\n")[:-1]]
r = {}
for l in lines:
    assert l["custom_id"] not in r, "recorded twice: " + l["custom_id"]
    r[l["custom_id"]] = l
def content(cid):
    return r[cid]["response"]["body"]["choices"][0]["message"]["content"]
exec(sys.argv[2])
EOF
}

start_server

# ---- answers, records, concurrency ----------------------------------------
ids=()
for i in $(seq 1 40); do ids+=("n$i:fault=slow delay=0.05 times=all"); done
requests "$TMP/req.jsonl" "${ids[@]}"
expect_exit 0 "llm: 40 requests at -j 4 all answered" -- \
    "$SQUINT" llm run "$TMP/req.jsonl" --endpoint "$URL" --out "$TMP/a.jsonl" -j 4 --quiet
check "llm: one record per request, in the batch output shape" "$TMP/a.jsonl" '
assert len(r) == 40, len(r)
for cid, l in r.items():
    assert list(l) == ["id", "custom_id", "response", "error", "squint"], list(l)
    assert l["id"].startswith("squint-llm-") and l["error"] is None
    assert l["response"]["status_code"] == 200 and content(cid) == f"<question>Echo {cid}?</question>"
    s = l["squint"]
    assert s["status"] == "ok" and s["model"] == "m1" and s["temperature"] == 0 and s["seed"] == 7, s
    assert s["attempts"] == 1 and s["cached"] is False and len(s["cache_key"]) == 64, s
    assert s["usage"]["prompt_tokens"] > 0 and s["latency_ms"] >= 50, s
'
[ "$(stats 's["requests"]')" = 40 ] && ok "llm: the server saw 40 requests" ||
    not_ok "llm: the server saw 40 requests ($(stats 's["requests"]'))"
m=$(stats 's["max_in_flight"]')
[ "$m" -ge 1 ] && [ "$m" -le 4 ] && ok "llm: at most 4 in progress at -j 4 ($m)" || not_ok "llm: at most 4 in progress at -j 4 ($m)"
reset_stats
expect_exit 0 "llm: the same at -j 1" -- \
    "$SQUINT" llm run "$TMP/req.jsonl" --endpoint "$URL" --out "$TMP/a1.jsonl" -j 1 --quiet
[ "$(stats 's["max_in_flight"]')" = 1 ] && ok "llm: one at a time at -j 1" ||
    not_ok "llm: one at a time at -j 1 ($(stats 's["max_in_flight"]'))"

# ---- faults ---------------------------------------------------------------
reset_stats
requests "$TMP/faults.jsonl" "e500:fault=500 times=2" "e503:fault=503 times=1" \
    "e429:fault=429 times=1 retry_after=1" "trunc:fault=truncated times=1" "reset:fault=reset times=1" \
    "bad:fault=malformed times=1" "nochoice:fault=nochoices times=1" "e400:fault=400 times=1" \
    "always:fault=500 times=all" "huge:fault=huge size=3000000 times=all"
expect_exit 1 "llm: a run with failures exits 1" -- \
    "$SQUINT" llm run "$TMP/faults.jsonl" --endpoint "$URL" --out "$TMP/f.jsonl" -j 4 --backoff 0.01 \
    --retries 2
check "llm: each fault is retried or failed as it should be" "$TMP/f.jsonl" '
assert len(r) == 10, sorted(r)
def att(c): return r[c]["squint"]["attempts"]
def st(c): return r[c]["squint"]["status"]
def code(c): return r[c]["error"] and r[c]["error"]["code"]
assert st("e500") == "ok" and att("e500") == 3, r["e500"]
assert st("e503") == "ok" and att("e503") == 2
assert st("e429") == "ok" and att("e429") == 2
assert r["e429"]["squint"]["elapsed_ms"] >= 1000, "Retry-After: 1 was waited for"
assert st("trunc") == "ok" and att("trunc") == 2, r["trunc"]
assert st("reset") == "ok" and att("reset") == 2, r["reset"]
assert st("bad") == "failed" and code("bad") == "malformed_reply" and att("bad") == 1
assert "not JSON" in r["bad"]["error"]["message"] and "body_text" in r["bad"]["response"]
assert st("nochoice") == "failed" and code("nochoice") == "malformed_reply" and att("nochoice") == 1
assert "no choices" in r["nochoice"]["error"]["message"]
assert st("e400") == "failed" and code("e400") == "http_error" and att("e400") == 1
assert r["e400"]["error"]["message"].startswith("HTTP 400: ")
assert st("always") == "failed" and code("always") == "http_error" and att("always") == 3
assert r["always"]["response"]["status_code"] == 500
assert st("huge") == "ok" and len(content("huge")) == 3000000
'
if [ "$(stats 'sorted(s["by_key"].items())')" = \
     "[('always', 3), ('bad', 1), ('e400', 1), ('e429', 2), ('e500', 3), ('e503', 2), ('huge', 1), ('nochoice', 1), ('reset', 2), ('trunc', 2)]" ]; then
    ok "llm: the server counted exactly the attempts the records say"
else not_ok "llm: the server counted exactly the attempts the records say: $(stats 'sorted(s["by_key"].items())')"; fi
# a server slower than --timeout: every attempt times out (the reply
# would take 8 s, so no load makes this pass by luck)
requests "$TMP/slow.jsonl" "slow:fault=slow delay=8 times=all"
expect_exit 1 "llm: a reply slower than --timeout fails" -- \
    "$SQUINT" llm run "$TMP/slow.jsonl" --endpoint "$URL" --out "$TMP/s.jsonl" --timeout 1 --retries 1 --backoff 0.01
check "llm: ... as a timeout, after the retries" "$TMP/s.jsonl" '
assert r["slow"]["error"]["code"] == "timeout" and r["slow"]["squint"]["attempts"] == 2, r["slow"]'
requests "$TMP/huge.jsonl" "big:fault=huge size=3000000 times=all"
expect_exit 1 "llm: a reply past --max-reply-bytes fails" -- \
    "$SQUINT" llm run "$TMP/huge.jsonl" --endpoint "$URL" --out "$TMP/h.jsonl" --max-reply-bytes 1000000 --quiet
check "llm: ... as too_large" "$TMP/h.jsonl" 'assert r["big"]["error"]["code"] == "too_large", r["big"]["error"]'
python3 -c "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])" >"$TMP/free"
expect_exit 1 "llm: no server at the endpoint: failed records" -- \
    "$SQUINT" llm run "$TMP/huge.jsonl" --endpoint "http://127.0.0.1:$(cat "$TMP/free")/v1" --out "$TMP/c.jsonl" \
    --retries 1 --backoff 0.01 --quiet
check "llm: ... a connection error after 2 attempts" "$TMP/c.jsonl" '
assert r["big"]["error"]["code"] == "connection" and r["big"]["squint"]["attempts"] == 2, r["big"]
assert r["big"]["response"] is None'

# ---- the API key ----------------------------------------------------------
reset_stats
KEY=sk-test-7f3a9c1e5b2d4f6a8c0e
requests "$TMP/key.jsonl" "k1:hello" "k2:fault=400 times=all" "k3:fault=500 times=all"
SQUINT_API_KEY=$KEY "$SQUINT" llm run "$TMP/key.jsonl" --endpoint "$URL" --out "$TMP/k.jsonl" \
    --cache "$TMP/kcache" --retries 1 --backoff 0.01 >"$TMP/k.out" 2>"$TMP/k.err"
[ "$(stats 's["authorization"]')" = "['Bearer $KEY']" ] && ok "llm: the key is sent as the Authorization header" ||
    not_ok "llm: the key is sent as the Authorization header: $(stats 's["authorization"]')"
if grep -rqF "$KEY" "$TMP/k.jsonl" "$TMP/k.out" "$TMP/k.err" "$TMP/kcache"; then
    not_ok "llm: the key is in no record, message or cache file"
else ok "llm: the key is in no record, message or cache file"; fi
expect_grep 'Bearer \[redacted\]' "$TMP/k.jsonl" "llm: a server that echoes the key gets it redacted in the record"
reset_stats
OPENAI_API_KEY=sk-other "$SQUINT" llm run "$TMP/key.jsonl" --endpoint "$URL" --out "$TMP/k2.jsonl" \
    --retries 0 --quiet 2>/dev/null
[ "$(stats 's["authorization"]')" = "['Bearer sk-other']" ] && ok "llm: OPENAI_API_KEY when SQUINT_API_KEY is unset" ||
    not_ok "llm: OPENAI_API_KEY when SQUINT_API_KEY is unset: $(stats 's["authorization"]')"
reset_stats
env -u SQUINT_API_KEY -u OPENAI_API_KEY "$SQUINT" llm run "$TMP/key.jsonl" --endpoint "$URL" \
    --out "$TMP/k3.jsonl" --retries 0 --quiet 2>/dev/null
[ "$(stats 's["authorization"]')" = "['']" ] && ok "llm: no key, no Authorization header" ||
    not_ok "llm: no key, no Authorization header: $(stats 's["authorization"]')"
expect_exit 2 "llm: a key with a blank is refused" -- \
    env SQUINT_API_KEY="sk bad$KEY" "$SQUINT" llm run "$TMP/key.jsonl" --endpoint "$URL" --out "$TMP/k4.jsonl"
if grep -qF "$KEY" "$TMP/err"; then not_ok "llm: ... without quoting it"; else ok "llm: ... without quoting it"; fi

# ---- kill -9 and resume ---------------------------------------------------
reset_stats
ids=()
for i in $(seq 1 300); do ids+=("r$i:fault=slow delay=0.05 times=all"); done
requests "$TMP/many.jsonl" "${ids[@]}"
"$SQUINT" llm run "$TMP/many.jsonl" --endpoint "$URL" --out "$TMP/m.jsonl" -j 4 --quiet &
pid=$!
for _ in $(seq 600); do
    [ -f "$TMP/m.jsonl" ] && [ "$(wc -l <"$TMP/m.jsonl")" -ge 40 ] && break
    sleep 0.05
done
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
n1=$(wc -l <"$TMP/m.jsonl")
[ "$n1" -ge 40 ] && [ "$n1" -lt 300 ] && ok "llm: killed midway ($n1 of 300 recorded)" ||
    not_ok "llm: killed midway ($n1 of 300 recorded)"
# a record cut short, as a kill inside write() would leave it
printf '{"id":"squint-llm-0123456789abcdef01234567","custom_id":"r300","respo' >>"$TMP/m.jsonl"
expect_exit 0 "llm: the rerun finishes" -- \
    "$SQUINT" llm run "$TMP/many.jsonl" --endpoint "$URL" --out "$TMP/m.jsonl" -j 4 --quiet
expect_grep "record cut short" "$TMP/err" "llm: ... says it removed the record cut short"
check "llm: after kill -9 and rerun, each of 300 recorded exactly once" "$TMP/m.jsonl" '
assert sorted(r) == sorted(f"r{i}" for i in range(1, 301)), len(r)
assert all(l["squint"]["status"] == "ok" for l in lines)'
sent=$(stats 's["requests"]')
[ "$sent" -ge 300 ] && [ "$sent" -le $((300 + 4)) ] &&
    ok "llm: at most the -j requests in progress at the kill were sent twice ($sent sent)" ||
    not_ok "llm: at most the -j requests in progress at the kill were sent twice ($sent sent)"
reset_stats
expect_exit 0 "llm: a third run has nothing to send" -- \
    "$SQUINT" llm run "$TMP/many.jsonl" --endpoint "$URL" --out "$TMP/m.jsonl"
[ "$(stats 's["requests"]')" = 0 ] && ok "llm: ... and sends nothing" || not_ok "llm: ... and sends nothing"
expect_grep "300 answered before" "$TMP/err" "llm: ... and says all 300 were answered before"

# ---- failed requests on a rerun -------------------------------------------
requests "$TMP/once.jsonl" "o1:fault=400 times=1" "o2:hello"
expect_exit 1 "llm: a 400 fails" -- "$SQUINT" llm run "$TMP/once.jsonl" --endpoint "$URL" --out "$TMP/o.jsonl" --quiet
before=$(stats 's["requests"]')   # not reset: the server's fault counts its attempts of o1
expect_exit 1 "llm: a rerun does not send a failed request again, and still exits 1" -- \
    "$SQUINT" llm run "$TMP/once.jsonl" --endpoint "$URL" --out "$TMP/o.jsonl"
expect_grep "retry-failed" "$TMP/err" "llm: ... and names --retry-failed"
[ "$(stats 's["requests"]')" = "$before" ] && ok "llm: ... sends nothing" || not_ok "llm: ... sends nothing"
expect_exit 0 "llm: --retry-failed sends it again" -- \
    "$SQUINT" llm run "$TMP/once.jsonl" --endpoint "$URL" --out "$TMP/o.jsonl" --retry-failed --quiet
[ "$(stats 's["requests"]')" = $((before + 1)) ] && ok "llm: ... only it" || not_ok "llm: ... only it"
python3 - "$TMP/o.jsonl" <<'EOF' && ok "llm: ... its new record appended after the failed one" || not_ok "llm: ... its new record appended after the failed one"
import json, sys
st = [(r["custom_id"], r["squint"]["status"]) for r in map(json.loads, open(sys.argv[1]))]
assert st == [("o2", "ok"), ("o1", "failed"), ("o1", "ok")] or st == [("o1", "failed"), ("o2", "ok"), ("o1", "ok")], st
EOF

# ---- the cache ------------------------------------------------------------
reset_stats
requests "$TMP/c.jsonl" "c1:one" "c2:two" "c3:three"
"$SQUINT" llm run "$TMP/c.jsonl" --endpoint "$URL" --out "$TMP/c1.jsonl" --cache "$TMP/cache" --quiet
reset_stats
expect_exit 0 "llm: a second run with the cache" -- \
    "$SQUINT" llm run "$TMP/c.jsonl" --endpoint "$URL" --out "$TMP/c2.jsonl" --cache "$TMP/cache" --quiet
[ "$(stats 's["requests"]')" = 0 ] && ok "llm: ... sends nothing" || not_ok "llm: ... sends nothing ($(stats 's["requests"]'))"
check "llm: ... every record from the cache, the same replies" "$TMP/c2.jsonl" '
import os   # c1.jsonl beside it (not a replace in the whole path: $TMP may hold "c2")
first = {l["custom_id"]: l for l in map(json.loads, open(os.path.join(os.path.dirname(sys.argv[1]), "c1.jsonl")))}
for cid, l in r.items():
    assert l["squint"]["cached"] is True and l["squint"]["attempts"] == 0, l["squint"]
    assert l["response"]["body"] == first[cid]["response"]["body"]
    assert l["squint"]["cache_key"] == first[cid]["squint"]["cache_key"]'
expect_exit 0 "llm: another model is another request" -- \
    "$SQUINT" llm run "$TMP/c.jsonl" --endpoint "$URL" --out "$TMP/c3.jsonl" --cache "$TMP/cache" --model m2 --quiet
[ "$(stats 's["requests"]')" = 3 ] && ok "llm: ... sent, not taken from the cache" ||
    not_ok "llm: ... sent, not taken from the cache ($(stats 's["requests"]'))"
check "llm: --model is what the records say was sent" "$TMP/c3.jsonl" '
assert all(l["squint"]["model"] == "m2" and l["response"]["body"]["model"] == "m2" for l in lines)'
python3 - "$TMP/c.jsonl" >"$TMP/c-reordered.jsonl" <<'EOF'
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    r["body"] = dict(reversed(list(r["body"].items())))
    print(json.dumps(r, indent=None, separators=(" , ", " : ")))
EOF
reset_stats
"$SQUINT" llm run "$TMP/c-reordered.jsonl" --endpoint "$URL" --out "$TMP/c4.jsonl" --cache "$TMP/cache" --quiet
[ "$(stats 's["requests"]')" = 0 ] && ok "llm: the same body in another key order and spacing is a cache hit" ||
    not_ok "llm: the same body in another key order and spacing is a cache hit"

# ---- files squint did not write -------------------------------------------
printf '[{"question":"q","query":"SELECT 1","db_id":"x"}]' >"$TMP/dev.json"
cp "$TMP/dev.json" "$TMP/dev.json.orig"
expect_exit 2 "llm: --out naming a one-line JSON file is refused" -- \
    "$SQUINT" llm run "$TMP/c.jsonl" --endpoint "$URL" --out "$TMP/dev.json"
cmp -s "$TMP/dev.json" "$TMP/dev.json.orig" && ok "llm: ... and the file is untouched" || not_ok "llm: ... and the file is untouched"
expect_grep "not a records file" "$TMP/err" "llm: ... saying why"
cp "$TMP/c.jsonl" "$TMP/c.copy"
expect_exit 2 "llm: --out naming a requests file is refused" -- \
    "$SQUINT" llm run "$TMP/c.copy" --endpoint "$URL" --out "$TMP/c.jsonl"
cmp -s "$TMP/c.jsonl" "$TMP/c.copy" && ok "llm: ... untouched" || not_ok "llm: ... untouched"
expect_exit 2 "llm: --out naming REQUESTS itself is refused" -- \
    "$SQUINT" llm run "$TMP/c.jsonl" --endpoint "$URL" --out "$TMP/./c.jsonl"
printf '{"id":"squint-llm-0","custom_id":"x"}\n{"a":' >"$TMP/mixed.jsonl"
cp "$TMP/mixed.jsonl" "$TMP/mixed.orig"
expect_exit 2 "llm: a last line without newline that is not a record is not cut" -- \
    "$SQUINT" llm run "$TMP/c.jsonl" --endpoint "$URL" --out "$TMP/mixed.jsonl"
cmp -s "$TMP/mixed.jsonl" "$TMP/mixed.orig" && ok "llm: ... untouched" || not_ok "llm: ... untouched"

# ---- usage and bad requests -----------------------------------------------
reset_stats
{ cat "$TMP/c.jsonl"; echo '{"custom_id":"c1","body":{"model":"m","messages":[{"role":"user","content":"x"}]}}'
  echo 'not json'; echo '{"custom_id":"z","body":{"messages":[]}}'; } >"$TMP/badreq.jsonl"
expect_exit 2 "llm: bad request lines exit 2" -- \
    "$SQUINT" llm run "$TMP/badreq.jsonl" --endpoint "$URL" --out "$TMP/bad.jsonl"
expect_grep "badreq.jsonl:4: custom_id 'c1' is used again" "$TMP/err" "llm: ... a repeated custom_id, with its line"
expect_grep "badreq.jsonl:5: not JSON" "$TMP/err" "llm: ... a line that is not JSON"
expect_grep "badreq.jsonl:6: body has no messages" "$TMP/err" "llm: ... a body without messages"
[ "$(stats 's["requests"]')" = 0 ] && ok "llm: ... and nothing was sent" || not_ok "llm: ... and nothing was sent"
expect_exit 2 "llm: a request without a model, and no --model" -- \
    sh -c "echo '{\"custom_id\":\"a\",\"body\":{\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}}' >'$TMP/nomodel.jsonl' &&
           '$SQUINT' llm run '$TMP/nomodel.jsonl' --endpoint '$URL' --out '$TMP/nm.jsonl'"
expect_grep "give --model" "$TMP/err" "llm: ... says to give --model"
expect_exit 0 "llm: ... --model supplies it" -- \
    "$SQUINT" llm run "$TMP/nomodel.jsonl" --endpoint "$URL" --out "$TMP/nm.jsonl" --model m3 --quiet
expect_exit 2 "llm: --endpoint is required" -- "$SQUINT" llm run "$TMP/c.jsonl" --out "$TMP/x.jsonl"
expect_grep "try 'squint llm run --help'" "$TMP/err" "llm: ... with the hint"
expect_exit 2 "llm: -j 0 is refused" -- "$SQUINT" llm run "$TMP/c.jsonl" --endpoint "$URL" --out "$TMP/x.jsonl" -j 0
expect_exit 2 "llm: an unknown command" -- "$SQUINT" llm launch
expect_exit 0 "llm run --help" -- "$SQUINT" llm run --help
expect_grep "SQUINT_API_KEY" "$TMP/out" "llm run --help names the key's variables"
expect_exit 0 "llm --help" -- "$SQUINT" llm --help

# ---- squint llm import ----------------------------------------------------
stop_server
python3 - >"$TMP/replies.jsonl" <<'EOF2'
import json
rules = [
    ("q-good", "<analysis>It counts.</analysis>\n<question>How many?</question>\n<question> Count them. </question>\n<question>What is the number?</question>"),
    ("q-json", "```json\n{\"questions\": [\"A?\", \"B?\", \"C?\", \"D?\"]}\n```"),
    ("q-two", "<question>A?</question><question>B?</question>"),
    ("q-six", "".join(f"<question>Q{i}?</question>" for i in range(6))),
    ("q-open", "<question>A?</question><question>B?"),
    ("q-empty", "<question>A?</question><question> </question><question>C?</question>"),
    ("check-yes", "<verdict>Yes</verdict>\n<reason>It returns what is asked.</reason>"),
    ("check-maybe", "<verdict>maybe</verdict><reason>unsure</reason>"),
    ("Reply with the <analysis> element", "<analysis>demo</analysis><question>One?</question><question>Two?</question><question>Three?</question>"),
]
for m, c in rules:
    print(json.dumps({"match": m, "content": c}))
EOF2
start_server --replies "$TMP/replies.jsonl"
requests "$TMP/imp.jsonl" "sql-to-question/item-10:q-good" "sql-to-question/item-2:q-json" \
    "sql-to-question/item-3:q-two" "sql-to-question/item-4:q-six" "sql-to-question/item-5:q-open" \
    "sql-to-question/item-6:q-empty" "sql-to-question/item-7:fault=400 times=all" "paraphrase/item-1:q-good"
"$SQUINT" llm run "$TMP/imp.jsonl" --endpoint "$URL" --out "$TMP/imp-rec.jsonl" --quiet
expect_exit 1 "llm import: some replies rejected, exit 1" -- \
    "$SQUINT" llm import sql-to-question "$TMP/imp-rec.jsonl"
cp "$TMP/out" "$TMP/imp-out.jsonl"
check_import() {
    if python3 - "$TMP/imp-out.jsonl" 2>"$TMP/check.err" <<'EOF2'; then ok "$1"; else not_ok "$1"; tail -3 "$TMP/check.err"; fi
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
ids = [l["custom_id"] for l in lines]
assert ids == ["paraphrase/item-1"] + [f"sql-to-question/item-{i}" for i in (2, 3, 4, 5, 6, 7, 10)], ids
r = {l["custom_id"]: l for l in lines}
p = "sql-to-question/item-"
assert r[p + "10"] == {"custom_id": p + "10", "task": "sql-to-question", "status": "ok", "analysis": "It counts.",
                       "questions": ["How many?", "Count them.", "What is the number?"]}, r[p + "10"]
assert r[p + "2"]["questions"] == ["A?", "B?", "C?", "D?"] and "analysis" not in r[p + "2"]
want = {"3": "2 <question> elements, the task asks for 3 to 5", "4": "more than 5 <question> elements",
        "5": "a <question> element is not closed", "6": "an empty <question> element"}
for k, why in want.items():
    assert r[p + k]["status"] == "rejected" and r[p + k]["reason"] == why, r[p + k]
assert r[p + "7"]["reason"].startswith("the request failed: HTTP 400"), r[p + "7"]
assert r["paraphrase/item-1"]["reason"] == "a reply to the task paraphrase, not sql-to-question"
EOF2
}
check_import "llm import: questions from elements and from JSON; each rejection with its reason; sorted by id"
expect_grep "6 rejected" "$TMP/err" "llm import: ... and the count on stderr"
requests "$TMP/chk.jsonl" "question-check/item-0:check-yes" "question-check/item-1:check-maybe"
"$SQUINT" llm run "$TMP/chk.jsonl" --endpoint "$URL" --out "$TMP/chk-rec.jsonl" --quiet
"$SQUINT" llm import question-check "$TMP/chk-rec.jsonl" >"$TMP/chk-out.jsonl" 2>/dev/null
python3 - "$TMP/chk-out.jsonl" <<'EOF2' && ok "llm import: question-check's verdict, its case normalized; a verdict not yes or no rejected" || not_ok "llm import: question-check's verdict"
import json, sys
r = {l["custom_id"]: l for l in map(json.loads, open(sys.argv[1]))}
assert r["question-check/item-0"]["verdict"] == "yes" and r["question-check/item-0"]["reason"] == "It returns what is asked."
assert r["question-check/item-1"]["reason"] == "<verdict> is 'maybe', not one of yes, no", r["question-check/item-1"]
EOF2
expect_exit 2 "llm import: RECORDS that are not records" -- "$SQUINT" llm import sql-to-question "$TMP/imp.jsonl"
expect_grep "imp.jsonl:1: not a record of squint llm run" "$TMP/err" "llm import: ... named with the line"
expect_exit 2 "llm import: a task whose replies squint does not read" -- \
    "$SQUINT" llm import no-such-task "$TMP/imp-rec.jsonl"
cp "$TMP/imp.jsonl" "$TMP/keep.jsonl"
expect_exit 2 "llm import: --out naming another file is refused" -- \
    "$SQUINT" llm import sql-to-question "$TMP/imp-rec.jsonl" --out "$TMP/keep.jsonl"
cmp -s "$TMP/keep.jsonl" "$TMP/imp.jsonl" && ok "llm import: ... untouched" || not_ok "llm import: ... untouched"
"$SQUINT" llm import sql-to-question "$TMP/imp-rec.jsonl" --out "$TMP/imp2.jsonl" 2>/dev/null
expect_exit 1 "llm import: its own output is replaced" -- \
    "$SQUINT" llm import sql-to-question "$TMP/imp-rec.jsonl" --out "$TMP/imp2.jsonl"
cmp -s "$TMP/imp2.jsonl" "$TMP/imp-out.jsonl" && ok "llm import: ... with the same bytes as standard output" ||
    not_ok "llm import: ... with the same bytes as standard output"

# ---- llm import --attach: the replies back into the gold ----------------------
cat >"$TMP/items.json" <<'EOF2'
[{"question_id": 7000, "db_id": "shop", "question": "", "evidence": "", "SQL": "SELECT 1", "instance": "7-0"},
 {"question_id": 7001, "db_id": "shop", "question": "", "evidence": "Today is 2013-06-01.", "SQL": "SELECT 2"},
 {"question_id": 7002, "db_id": "shop", "question": "", "SQL": "SELECT 3"},
 {"question_id": 7003, "db_id": "shop", "question": "", "SQL": "SELECT 4"}]
EOF2
requests "$TMP/att.jsonl" "sql-to-question/qid-7000:q-good" "sql-to-question/qid-7001:q-json" \
    "sql-to-question/qid-7002:q-two"
"$SQUINT" llm run "$TMP/att.jsonl" --endpoint "$URL" --out "$TMP/att-rec.jsonl" --quiet
expect_exit 2 "llm import --attach: --out is required" -- \
    "$SQUINT" llm import sql-to-question "$TMP/att-rec.jsonl" --attach "$TMP/items.json"
expect_exit 2 "llm import --attach: not for a task that makes no items" -- \
    "$SQUINT" llm import paraphrase "$TMP/att-rec.jsonl" --attach "$TMP/items.json" --out "$TMP/x.json"
expect_exit 2 "llm import --attach: --out the gold is refused" -- \
    "$SQUINT" llm import sql-to-question "$TMP/att-rec.jsonl" --attach "$TMP/items.json" --out "$TMP/items.json"
expect_exit 2 "llm import --attach: --out a file it did not write is refused" -- \
    "$SQUINT" llm import sql-to-question "$TMP/att-rec.jsonl" --attach "$TMP/items.json" --out "$TMP/keep.jsonl"
cmp -s "$TMP/keep.jsonl" "$TMP/imp.jsonl" && ok "llm import --attach: ... untouched" || not_ok "llm import --attach: ... untouched"
expect_exit 1 "llm import --attach sql-to-question (one reply rejected)" -- \
    "$SQUINT" llm import sql-to-question "$TMP/att-rec.jsonl" --attach "$TMP/items.json" --out "$TMP/asked.json"
expect_grep "2 of 4 items have questions: 7 items written" "$TMP/err" "llm import --attach: ... counts them"
python3 - "$TMP/asked.json" <<'EOF2' && ok "llm import --attach: an item per question, each naming its item; the item's other members kept" ||
import json, sys
items = json.load(open(sys.argv[1]))
got = [(i["question_id"], i["question_of"], i["question"], i["SQL"]) for i in items]
assert got == [(70000, 7000, "How many?", "SELECT 1"), (70001, 7000, "Count them.", "SELECT 1"),
               (70002, 7000, "What is the number?", "SELECT 1"), (70010, 7001, "A?", "SELECT 2"),
               (70011, 7001, "B?", "SELECT 2"), (70012, 7001, "C?", "SELECT 2"), (70013, 7001, "D?", "SELECT 2")], got
assert items[0]["instance"] == "7-0" and items[3]["evidence"] == "Today is 2013-06-01."
EOF2
    not_ok "llm import --attach: an item per question"
requests "$TMP/att2.jsonl" "question-check/qid-70000:check-yes" "question-check/qid-70001:check-maybe" \
    "question-check/qid-70010:check-yes"
"$SQUINT" llm run "$TMP/att2.jsonl" --endpoint "$URL" --out "$TMP/att2-rec.jsonl" --quiet
"$SQUINT" llm import question-check "$TMP/att2-rec.jsonl" --attach "$TMP/asked.json" --out "$TMP/checked.json" 2>"$TMP/err"
expect_grep "2 of 7 items checked, 2 judged yes; 7 items written" "$TMP/err" "llm import --attach question-check: counts"
expect_exit 1 "llm import --attach question-check --drop-rejected over its own output" -- \
    "$SQUINT" llm import question-check "$TMP/att2-rec.jsonl" --attach "$TMP/asked.json" --out "$TMP/checked.json" --drop-rejected
python3 - "$TMP/checked.json" <<'EOF2' && ok "llm import --attach question-check: only the items judged yes, with the reason" ||
import json, sys
items = json.load(open(sys.argv[1]))
assert [(i["question_id"], i["check"]["verdict"]) for i in items] == [(70000, "yes"), (70010, "yes")], items
assert items[0]["check"]["reason"] == "It returns what is asked." and items[0]["question_of"] == 7000
EOF2
    not_ok "llm import --attach question-check: only the items judged yes"

# ---- end to end: squint prompt, llm run, llm import ------------------------
if command -v sqlite3 >/dev/null; then
    sh examples/eval-demo/build.sh "$TMP/db" >/dev/null
    "$SQUINT" prompt sql-to-question --db-root "$TMP/db" examples/eval-demo/dev.json >"$TMP/e2e-req.jsonl" 2>/dev/null
    expect_exit 0 "llm: squint prompt's 20 requests sent" -- \
        "$SQUINT" llm run "$TMP/e2e-req.jsonl" --endpoint "$URL" --out "$TMP/e2e-rec.jsonl" --quiet
    expect_exit 0 "llm import: every reply imported" -- \
        "$SQUINT" llm import sql-to-question "$TMP/e2e-rec.jsonl"
    python3 - "$TMP/out" <<'EOF2' && ok "llm import: 20 items, 3 questions each" || not_ok "llm import: 20 items, 3 questions each"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
assert [l["custom_id"] for l in lines] == [f"sql-to-question/item-{i}" for i in range(20)]
assert all(l["questions"] == ["One?", "Two?", "Three?"] for l in lines)
EOF2
else
    echo "ok - llm: end to end skipped (no sqlite3 shell for the demo database)"
fi

# ---- squint fixture --llm: the SynSQL loop against canned replies ----------
# Round 1's rows score 6 on average, so the critic's feedback goes to a
# second synthesizer round, whose rows (with Gus) score 9 and are accepted.
if command -v sqlite3 >/dev/null; then
stop_server
python3 - >"$TMP/synsql.jsonl" <<'EOF2'
import json
dims = ["alignment", "integrity", "coverage", "complexity", "variety", "relevance"]
r1 = """<sql>
INSERT INTO members (member_id, name, city, join_date) VALUES (1, 'Ada', 'Springfield', '2021-01-01'), (2, 'Ben', 'Shelbyville', '2022-02-02'), (1, 'Dup', 'Springfield', '2020-01-01');
INSERT INTO members (member_id, name, city, join_date, shoe_size) VALUES (3, 'Cy', 'Springfield', '2020-05-05', 42);
INSERT INTO members (member_id, name, city) VALUES (4, 'Dee', 'Ogdenville');
INSERT INTO nowhere VALUES (1);
DELETE FROM members;
INSERT INTO members (member_id, name, city, join_date) VALUES (5, 'Eve', 'Springfield');
INSERT INTO members (member_id, name, city, join_date) VALUES (6, 'Fay', 'Springfield', '2021-06-06', 'extra');
</sql>"""
r2 = r1.replace("</sql>", "INSERT INTO members (member_id, name, city, join_date) VALUES (7, 'Gus', 'Springfield', '2023-03-03');\n</sql>")
hi = "".join(f"<{d}>9</{d}>" for d in dims) + "<feedback>none</feedback>"
lo = "".join(f"<{d}>{v}</{d}>" for d, v in zip(dims, [5, 6, 7, 5, 6, 7])) + "<feedback>Add a member named Gus from Springfield.</feedback>"
rules = [("only-bad-rows", "<sql>INSERT INTO nowhere VALUES (1);</sql>"), ("'Gus'", hi), ("Score the data from 1", lo), ("A reviewer scored the previous attempt", r2),
         ("Write between 3 and 15 rows", r1),
         ("Name the other columns", "<column>members.member_id</column><column>members.join_date</column>"),
         ("List every column that answering", "<column>members.name</column><column>`members`.city</column><column>nosuch.col</column>")]
for m, c in rules:
    print(json.dumps({"match": m, "content": c}))
EOF2
start_server --replies "$TMP/synsql.jsonl"
sh examples/eval-demo/build.sh "$TMP/syndb" >/dev/null
expect_exit 0 "fixture --llm: one question built" -- \
    "$SQUINT" fixture --llm --endpoint "$URL" --model m --gold examples/eval-demo/dev.json --db-root "$TMP/syndb" \
    --out "$TMP/llmfix" --limit 1 --llm-cache "$TMP/syncache" -q
expect_grep "1 accepted by the critic" "$TMP/out" "fixture --llm: ... accepted by the critic"
if python3 - "$TMP/llmfix" 2>"$TMP/check.err" <<'EOF2'; then ok "fixture --llm: the loop's steps, the cleanup's reasons, the accepted round, a database that passes SQLite's checks"; else not_ok "fixture --llm: the loop's report and database"; tail -3 "$TMP/check.err"; fi
import json, sqlite3, sys
d = sys.argv[1]
assert [json.loads(l) for l in open(d + "/llm.jsonl")] == [{"id": "0", "db_id": "library", "status": "accepted", "database": d + "/0/llm.sqlite"}]
r = json.load(open(d + "/0/llm.json"))
assert r["selector"]["columns"] == ["members.name", "members.city"], r["selector"]
assert r["selector"]["not_in_schema"] == ["nosuch.col"] and r["expansion"]["added"] == 2
assert r["columns"] == ["members.member_id", "members.name", "members.city", "members.join_date"], r["columns"]
one, two = r["rounds"]
assert (one["rows_kept"], one["rows_dropped"], one["padded"], one["truncated"]) == (4, 5, 1, 1), one
whys = [x["why"] for x in one["dropped"]]
assert whys == ["UNIQUE constraint failed: members.member_id", "no column shoe_size in members: left out",
                "NOT NULL constraint failed: members.join_date", "no table nowhere in the schema",
                "not an INSERT statement", "NOT NULL constraint failed: members.join_date"], whys
assert one["critic"]["alignment"] == 5 and one["average"] == 6 and two["average"] == 9 and two["rows_kept"] == 5
assert r["kept_round"] == 2 and r["status"] == "accepted" and r["gold_rows"] == 4, r
db = sqlite3.connect(d + "/0/llm.sqlite")
assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
assert db.execute("PRAGMA foreign_key_check").fetchall() == []
assert [n for (n,) in db.execute("SELECT name FROM members ORDER BY member_id")] == ["Ada", "Ben", "Cy", "Fay", "Gus"]
tables = {n for (n,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
assert tables == {"authors", "books", "members", "loans"}, tables
EOF2
[ "$(stats 's["requests"]')" = 8 ] && ok "fixture --llm: 3 selectors, 1 expansion, 2 synthesizers, 2 critics sent" ||
    not_ok "fixture --llm: 8 requests sent ($(stats 's["requests"]'))"
reset_stats
expect_exit 0 "fixture --llm: a rerun into its own directory" -- \
    "$SQUINT" fixture --llm --endpoint "$URL" --model m --gold examples/eval-demo/dev.json --db-root "$TMP/syndb" \
    --out "$TMP/llmfix" --limit 1 --llm-cache "$TMP/syncache" -q
[ "$(stats 's["requests"]')" = 0 ] && ok "fixture --llm: ... answered from --llm-cache, nothing sent" ||
    not_ok "fixture --llm: ... answered from --llm-cache ($(stats 's["requests"]') sent)"
# the synthesizer's replies imported: the same cleanup, against a schema
requests "$TMP/syn-req.jsonl" "syn/1:Write between 3 and 15 rows" "syn/2:fault=400 times=all" "syn/3:only-bad-rows"
"$SQUINT" llm run "$TMP/syn-req.jsonl" --endpoint "$URL" --out "$TMP/syn-rec.jsonl" --quiet
expect_exit 1 "llm import synsql-synthesizer: rows checked against the schema" -- \
    "$SQUINT" llm import synsql-synthesizer "$TMP/syn-rec.jsonl" --schema examples/eval-demo/schema.sql
python3 - "$TMP/out" <<'EOF2' && ok "llm import synsql-synthesizer: the rows SQLite takes counted, each drop with its reason" || not_ok "llm import synsql-synthesizer: the rows"
import json, sys
r = {l["custom_id"]: l for l in map(json.loads, open(sys.argv[1]))}
one = r["syn/1"]
assert one["status"] == "ok" and (one["rows_kept"], one["rows_dropped"], one["padded"], one["truncated"]) == (4, 5, 1, 1), one
assert one["dropped"][0]["why"] == "UNIQUE constraint failed: members.member_id" and one["sql"].startswith("INSERT INTO members")
assert r["syn/2"]["status"] == "rejected" and r["syn/2"]["reason"].startswith("the request failed")
assert r["syn/3"]["status"] == "rejected" and r["syn/3"]["reason"].startswith("no row of the reply"), r["syn/3"]
EOF2
expect_exit 2 "llm import synsql-synthesizer: without a schema" -- \
    "$SQUINT" llm import synsql-synthesizer "$TMP/syn-rec.jsonl"
expect_exit 2 "llm import: a schema option for another task" -- \
    "$SQUINT" llm import paraphrase "$TMP/syn-rec.jsonl" --schema examples/eval-demo/schema.sql
mkdir -p "$TMP/other" && echo keep >"$TMP/other/notes.txt"
expect_exit 2 "fixture --llm: a directory of other files is refused" -- \
    "$SQUINT" fixture --llm --endpoint "$URL" --model m --gold examples/eval-demo/dev.json --db-root "$TMP/syndb" \
    --out "$TMP/other" --limit 1
expect_exit 2 "fixture --llm: --model is required" -- \
    "$SQUINT" fixture --llm --endpoint "$URL" --gold examples/eval-demo/dev.json --db-root "$TMP/syndb" --out "$TMP/x"
expect_exit 2 "prompt: the SynSQL loop's later steps are not squint prompt's" -- \
    "$SQUINT" prompt synsql-critic --db-root "$TMP/syndb" examples/eval-demo/dev.json
expect_exit 0 "prompt: synsql-selector over a gold file" -- \
    "$SQUINT" prompt synsql-selector --db-root "$TMP/syndb" examples/eval-demo/dev.json
python3 - "$TMP/out" <<'EOF2' && ok "prompt: ... the whole schema, never the gold SQL" || not_ok "prompt: ... the whole schema, never the gold SQL"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
assert len(lines) == 20
for l in lines:
    user = l["body"]["messages"][-1]["content"]
    assert all(f"CREATE TABLE {t}" in user for t in ("authors", "books", "members", "loans")), user[:300]
    assert "SELECT" not in user.upper().replace("SELECTOR", "")
EOF2
else
    echo "ok - fixture --llm: skipped (no sqlite3 shell for the demo database)"
fi
