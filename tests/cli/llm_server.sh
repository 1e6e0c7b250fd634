# llm_server.sh -- the test LLM server (tests/llm/server.py) for CLI tests
# (sourced after lib.sh).  Sets the EXIT trap to stop it and remove TMP.
#   start_server [ARGS]   the server on a free port, with ARGS (e.g.
#                         --replies FILE); sets PORT and URL
#   stop_server           stop it (nothing when none runs)
SERVER_PID=
stop_server() { [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null; }
trap 'stop_server; rm -rf "$TMP"' EXIT

start_server() {
    rm -f "$TMP/port"
    python3 tests/llm/server.py --port-file "$TMP/port" "$@" 2>"$TMP/server.err" &
    SERVER_PID=$!
    for _ in $(seq 300); do [ -s "$TMP/port" ] && break; sleep 0.1; done
    if [ ! -s "$TMP/port" ]; then not_ok "the test LLM server starts"; cat "$TMP/server.err"; exit 1; fi
    PORT=$(cat "$TMP/port")
    URL=http://127.0.0.1:$PORT/v1
}
