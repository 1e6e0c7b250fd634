#!/usr/bin/env bash
# test_server.sh -- a self-check of tests/llm/server.py, the test server of
# squint llm: the normal answer, every fault once, attempt counting, /stats,
# --replies, --log, and both ways of stopping it.
#
# Usage: tests/llm/test_server.sh       (TAP lines; exits 1 on a failure)
# Needs python3 and curl; without curl it prints a skip line and exits 0.
set -u
cd "$(dirname "$0")/../.." || exit 1
if ! command -v curl >/dev/null; then
    echo "ok - test_server: skipped (no curl; apt-get install curl)"
    exit 0
fi
TMP=$(mktemp -d)
PIDS=()
cleanup() {
    for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
    rm -rf "$TMP"
}
trap cleanup EXIT
failed=0
CHATS=0         # chat POSTs sent to the first server, for /stats

ok() { echo "ok - $*"; }
not_ok() { echo "not ok - $*"; failed=1; }
check() { # check NAME CMD...: ok when CMD succeeds
    local name=$1
    shift
    if "$@"; then ok "$name"; else not_ok "$name"; fi
}
is_py() { # is_py EXPR [FILE]: EXPR true of d, FILE's JSON (default: the last reply)
    python3 -c 'import hashlib, json, sys
d = json.load(open(sys.argv[2], "rb"))
sys.exit(0 if eval(sys.argv[1]) else 1)' "$1" "${2:-$TMP/reply}" 2>/dev/null
}
is_code() { [ "$CODE" = "$1" ] || { echo "# status $CODE, want $1, curl exit $RC"; return 1; }; }

# start_server DIR [ARGS...]: sets PID and URL; a server that writes no
# port file within 10 s ends the test.
start_server() {
    local dir=$1
    shift
    mkdir -p "$dir"
    python3 tests/llm/server.py --port-file "$dir/port" "$@" 2>"$dir/stderr" &
    PID=$!
    PIDS+=("$PID")
    for _ in $(seq 100); do
        [ -s "$dir/port" ] && break
        kill -0 "$PID" 2>/dev/null || break
        sleep 0.1
    done
    if ! grep -qE '^[0-9]+$' "$dir/port" 2>/dev/null; then
        not_ok "server started (no port file after 10 s)"
        cat "$dir/stderr"
        exit 1
    fi
    URL=http://127.0.0.1:$(cat "$dir/port")
}

# post BODY [CURL-ARGS...]: POST BODY to the chat path; sets CODE, TIME and
# RC (curl's exit); the reply is in $TMP/reply, its head in $TMP/head.
post() {
    local out
    printf '%s' "$1" >"$TMP/body"
    shift
    CHATS=$((CHATS + 1))
    out=$(curl -s -o "$TMP/reply" -D "$TMP/head" -w '%{http_code} %{time_total}' "$@" \
        -H 'Content-Type: application/json' --data-binary @"$TMP/body" "$URL/v1/chat/completions")
    RC=$?
    read -r CODE TIME <<<"$out"
}
# chat TEXT [CURL-ARGS...]: post a system message and a user message TEXT
chat() {
    local text=$1
    shift
    post "{\"model\":\"test-model\",\"messages\":[{\"role\":\"system\",\"content\":\"be brief\"},{\"role\":\"user\",\"content\":\"$text\"}]}" "$@"
}
content_length_right() {
    local want
    want=$(tr -d '\r' <"$TMP/head" | awk -F': ' 'tolower($1) == "content-length" { print $2 }')
    [ "$want" = "$(wc -c <"$TMP/reply")" ]
}
stats() { curl -s -o "$TMP/stats" "$URL/stats"; }

# ---- the normal answer ------------------------------------------------
start_server "$TMP/s1"
S1=$PID
chat "key=k1 hello"
check "normal: 200" is_code 200
check "normal: echo content" is_py 'd["choices"][0]["message"] == {"role": "assistant", "content": "<question>Echo k1?</question>"}'
check "normal: id, object, created, model, finish_reason" is_py \
    'd["id"] == "chatcmpl-" + hashlib.sha256(b"k1").hexdigest()[:12] and d["object"] == "chat.completion" and d["created"] == 1700000000 and d["model"] == "test-model" and d["choices"][0]["finish_reason"] == "stop"'
check "normal: usage from every message" is_py 'd["usage"] == {"prompt_tokens": 5, "completion_tokens": 7, "total_tokens": 12}'
check "normal: Content-Length right" content_length_right
chat "no directives here"
check "default key: the body's SHA-256" is_py "d['id'] == 'chatcmpl-' + hashlib.sha256(b'$(sha256sum "$TMP/body" | cut -c1-64)').hexdigest()[:12]"
post '{"model":"m","messages":[{"role":"user","content":[{"type":"text","text":"key=parts fault=503"}]}]}'
check "directives in content parts" is_code 503

# ---- faults -------------------------------------------------------------
chat "key=f500 fault=500"
check "500: first attempt" is_code 500
check "500: OpenAI error object" is_py '"message" in d["error"] and "type" in d["error"]'
chat "key=f500 fault=500"
check "500: second attempt answered" is_code 200
for want in 503 503 200; do chat "key=f503 fault=503 times=2"; check "503 times=2: $want" is_code "$want"; done
for _ in 1 2 3; do chat "key=fall fault=500 times=all"; check "times=all: 500 again" is_code 500; done
chat "key=f429 fault=429 retry_after=7"
check "429: status" is_code 429
check "429: Retry-After: 7" grep -q '^Retry-After: 7' "$TMP/head"
chat "key=fslow fault=slow delay=0.4"
check "slow: 200" is_code 200
check "slow: took the delay (${TIME} s)" awk -v t="$TIME" 'BEGIN { exit !(t >= 0.4) }'
chat "key=fmal fault=malformed"
check "malformed: 200" is_code 200
check "malformed: not JSON" bash -c "! python3 -c 'import json,sys; json.load(open(sys.argv[1]))' $TMP/reply 2>/dev/null"
chat "key=ftrunc fault=truncated"
check "truncated: curl sees a partial transfer (exit 18, got $RC)" test "$RC" = 18
chat "key=freset fault=reset"
check "reset: curl sees a reset (exit 56, got $RC)" test "$RC" = 56
chat "key=fhuge fault=huge size=100000"
check "huge: 100000 bytes of content" is_py 'len(d["choices"][0]["message"]["content"]) == 100000'
check "huge: Content-Length right" content_length_right
chat "key=f400 fault=400" -H "Authorization: Bearer sk-test-secret"
check "400: status" is_code 400
check "400: message quotes the Authorization" is_py '"Bearer sk-test-secret" in d["error"]["message"]'
chat "key=fnoch fault=nochoices"
check "nochoices: 200, JSON without choices" is_py '"choices" not in d and d["object"] == "chat.completion"'

# ---- refusals -----------------------------------------------------------
post 'not json'
check "not JSON: 400 invalid_request_error" is_py 'd["error"]["type"] == "invalid_request_error"'
chat "fault=nosuch"
check "unknown fault: 400" is_code 400
chat "fault=500 times=many"
check "bad times: 400" is_code 400
CODE=$(curl -s -o "$TMP/reply" -w '%{http_code}' "$URL/nope")
check "GET /nope: 404 JSON" is_py '"error" in d'

# ---- /stats -------------------------------------------------------------
stats
check "stats: requests = $CHATS chat POSTs" is_py "d['requests'] == $CHATS" "$TMP/stats"
check "stats: attempts by key" is_py \
    'all(d["by_key"][k] == n for k, n in {"k1": 1, "f500": 2, "f503": 3, "fall": 3, "f429": 1}.items())' "$TMP/stats"
check "stats: authorization values, sorted" is_py 'd["authorization"] == ["", "Bearer sk-test-secret"]' "$TMP/stats"
check "stats: one at a time so far" is_py 'd["max_in_flight"] == 1' "$TMP/stats"
curl -s -X POST -o /dev/null "$URL/stats/reset"
stats
check "stats/reset zeroes" is_py 'd == {"requests": 0, "by_key": {}, "max_in_flight": 0, "authorization": []}' "$TMP/stats"

# four slow requests side by side are all in flight at once (in parallel
# mode curl 7.88 shows its meter despite -s; --no-progress-meter stops it)
printf '%s' '{"model":"m","messages":[{"role":"user","content":"key=par fault=slow delay=0.5 times=all"}]}' >"$TMP/body"
curl -s --no-progress-meter --parallel --parallel-immediate --data-binary @"$TMP/body" -o /dev/null -o /dev/null -o /dev/null -o /dev/null \
    "$URL/v1/chat/completions" "$URL/v1/chat/completions" "$URL/v1/chat/completions" "$URL/v1/chat/completions"
stats
check "max_in_flight: 4 parallel slow requests" is_py 'd["max_in_flight"] == 4 and d["by_key"] == {"par": 4}' "$TMP/stats"

# keep-alive: the second request of one curl reuses the first's connection
printf '%s' '{"model":"m","messages":[{"role":"user","content":"key=ka"}]}' >"$TMP/body"
out=$(curl -s -w '%{num_connects} ' --data-binary @"$TMP/body" -o /dev/null -o /dev/null \
    "$URL/v1/chat/completions" "$URL/v1/chat/completions")
check "keep-alive: one connection for two requests ($out)" test "$out" = "1 0 "
out=$(curl -s -w '%{num_connects} ' -o /dev/null -o /dev/null "$URL/nope" "$URL/stats")
check "keep-alive after a 404 ($out)" test "$out" = "1 0 "

kill -TERM "$S1"
wait "$S1"
check "SIGTERM: exit 0" test $? = 0

# ---- --replies, --log, /shutdown ----------------------------------------
printf '%s\n' '{"match": "capital of France", "content": "SELECT name FROM city"}' '' \
    '{"match": "France", "content": "second rule"}' >"$TMP/replies.jsonl"
start_server "$TMP/s2" --replies "$TMP/replies.jsonl" --log "$TMP/log"
chat "key=q1 what is the capital of France?"
check "replies: first matching rule" is_py 'd["choices"][0]["message"]["content"] == "SELECT name FROM city"'
chat "key=q2 what is the capital of Peru?"
check "replies: no match, echo" is_py 'd["choices"][0]["message"]["content"] == "<question>Echo q2?</question>"'
chat "key=q3 fault=503"
check "log: one line per request" grep -q 'key=q3 attempt=1 fault=503 status=503' "$TMP/log"
check "no stderr output" test ! -s "$TMP/s2/stderr"
out=$(curl -s -X POST "$URL/shutdown")
wait "$PID"
check "POST /shutdown: exit 0 (reply $out)" test $? = 0

exit $failed
