#!/usr/bin/env bash
# llm_bench.sh -- squint llm run's throughput and peak memory against the
# test server tests/llm/server.py, with the curl tool as the reference.
#
# Usage: bench/llm_bench.sh [BUILD_DIR]       (default build)
# LLM_BENCH_N small requests (default 5000) in the OpenAI batch format go
# through `squint llm run` at -j 8 and -j 64, and a tenth of them at -j 1;
# then the same N through `curl --parallel --parallel-max 64`, measured in
# the same run against the same server (skipped without curl), since the
# Python server on the same machine bounds both.  Last, LLM_BENCH_MEM_N
# requests (default 100000) at -j 64 for squint's peak RSS.  The goals are
# printed beside the numbers and missing one fails nothing; a squint that
# exits non-zero, or an --out file without one line per request, does.
set -eu
BUILD=${1:-build}
N=${LLM_BENCH_N:-5000}
MEM_N=${LLM_BENCH_MEM_N:-100000}
SQUINT=$BUILD/squint
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TMP=$(mktemp -d)
SERVER_PID=""
cleanup() {
    if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null || true; fi
    rm -rf "$TMP"
}
trap cleanup EXIT

# One request's body; %d is its number.  The same bytes go to squint (in
# a batch line) and to curl.
BODY='{"model":"bench","messages":[{"role":"user","content":"key=r-%d hello"}],"temperature":0,"seed":0,"max_tokens":16}'

die() { echo "bench llm: $*" >&2; exit 1; }

start_server() { # sets SERVER_PID and PORT
    python3 "$ROOT/tests/llm/server.py" --port-file "$TMP/port" &
    SERVER_PID=$!
    for _ in $(seq 100); do
        [ -s "$TMP/port" ] && break
        sleep 0.1
    done
    [ -s "$TMP/port" ] || die "tests/llm/server.py wrote no port file in 10 s"
    PORT=$(cat "$TMP/port")
}

reset_stats() { python3 -c 'import sys, urllib.request
urllib.request.urlopen(urllib.request.Request(sys.argv[1] + "/stats/reset", b"", method="POST"))' \
    "http://127.0.0.1:$PORT"; }

requests() { # requests N FILE: N batch lines, custom_id r-1 ... r-N
    awk -v n="$1" -v body="$BODY" 'BEGIN {
        for (i = 1; i <= n; i++)
            printf "{\"custom_id\":\"r-%d\",\"method\":\"POST\",\"url\":\"/v1/chat/completions\",\"body\":" body "}\n", i, i
    }' >"$2"
}

curl_config() { # curl_config N FILE: a curl -K block per request
    awk -v n="$1" -v body="$BODY" -v url="http://127.0.0.1:$PORT/v1/chat/completions" 'BEGIN {
        for (i = 1; i <= n; i++) {
            b = sprintf(body, i)
            gsub(/"/, "\\\"", b)
            if (i > 1) print "next"    # a "next" after the last block is an error
            print "url = \"" url "\""
            print "data-binary = \"" b "\""
            print "header = \"Content-Type: application/json\""
            print "output = \"/dev/null\""
            print "write-out = \"%{http_code}\\n\""
        }
    }' >"$2"
}

now() { date +%s.%N; }
rate() { awk -v n="$1" -v a="$2" -v b="$3" 'BEGIN { printf "%.0f", n / (b - a) }'; }

# run_squint J N REQS [WRAPPER...]: run squint llm run on REQS and print
# its requests/s; dies unless it exits 0 with one output line per request.
run_squint() {
    local j=$1 n=$2 reqs=$3 t0 t1 got
    shift 3
    rm -f "$TMP/out.jsonl"
    reset_stats
    t0=$(now)
    "$@" "$SQUINT" llm run "$reqs" --endpoint "http://127.0.0.1:$PORT/v1" -j "$j" \
        --out "$TMP/out.jsonl" --quiet >"$TMP/squint.out" 2>"$TMP/squint.err" ||
        { tail -5 "$TMP/squint.err" >&2; die "squint llm run -j $j exited non-zero"; }
    t1=$(now)
    got=$(wc -l <"$TMP/out.jsonl")
    [ "$got" -eq "$n" ] || die "squint llm run -j $j: $got output lines for $n requests"
    rate "$n" "$t0" "$t1"
}

# run_curl N: the same N requests through the curl tool, as requests/s
run_curl() {
    local n=$1 t0 t1 got
    curl_config "$n" "$TMP/curl.cfg"
    reset_stats
    t0=$(now)
    # --no-progress-meter: in parallel mode curl 7.88 draws its meter despite -s
    curl -s --no-progress-meter --parallel --parallel-max 64 -K "$TMP/curl.cfg" >"$TMP/curl.codes" ||
        die "curl exited non-zero"
    t1=$(now)
    got=$(grep -c '^200$' "$TMP/curl.codes" || true)
    [ "$got" -eq "$n" ] || die "curl: $got of $n requests answered 200"
    rate "$n" "$t0" "$t1"
}

# peak_rss FILE -- CMD...: run CMD, write its peak RSS in kB to FILE
peak_rss() {
    local file=$1
    shift 2
    if [ -x /usr/bin/time ]; then
        /usr/bin/time -f %M -o "$file" "$@"
    else
        python3 -c 'import resource, subprocess, sys
rc = subprocess.call(sys.argv[2:])
with open(sys.argv[1], "w") as f:
    f.write("%d\n" % resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
sys.exit(rc)' "$file" "$@"
    fi
}

[ -x "$SQUINT" ] || die "no $SQUINT; build it first (make)"
command -v python3 >/dev/null || die "needs python3 for tests/llm/server.py"
start_server
N1=$((N / 10 > 0 ? N / 10 : 1))
requests "$N" "$TMP/reqs.jsonl"
head -n "$N1" "$TMP/reqs.jsonl" >"$TMP/reqs1.jsonl"

row() { printf '  %-24s %8s requests/s%s\n' "$1" "$2" "${3:+  ($3)}"; }

echo "bench llm: squint llm run against tests/llm/server.py on 127.0.0.1, $N requests:"
r1=$(run_squint 1 "$N1" "$TMP/reqs1.jsonl")
r8=$(run_squint 8 "$N" "$TMP/reqs.jsonl")
r64=$(run_squint 64 "$N" "$TMP/reqs.jsonl")
row "-j 1 ($N1 requests)" "$r1"
row "-j 8" "$r8"
row "-j 64" "$r64" "goal >= 500 requests/s"
if command -v curl >/dev/null; then
    rc=$(run_curl "$N")
    row "curl, 64 in parallel" "$rc" "reference: the curl tool, same server"
    echo "  ratio squint -j 64 / curl: $(awk -v a="$r64" -v b="$rc" 'BEGIN { printf "%.2f", a / b }')"
else
    echo "  curl reference skipped: no curl (apt-get install curl)"
fi

requests "$MEM_N" "$TMP/reqs.jsonl"
rm64=$(run_squint 64 "$MEM_N" "$TMP/reqs.jsonl" peak_rss "$TMP/rss" --)
row "-j 64 ($MEM_N requests)" "$rm64"
printf '  peak RSS at -j 64 (%d requests): %.1f MB  (goal < 100 MB)\n' \
    "$MEM_N" "$(awk -v k="$(tail -n 1 "$TMP/rss")" 'BEGIN { print k / 1024 }')"
