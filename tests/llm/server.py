#!/usr/bin/env python3
"""server.py -- an OpenAI-compatible chat server that misbehaves on request,
for testing and benchmarking `squint llm run`.

Usage: server.py --port-file FILE [--replies FILE] [--log FILE]

Listens on 127.0.0.1 at a free port and, once it accepts connections, writes
the port number to FILE (FILE.tmp, then a rename, so a reader never sees half
a number).  Serves until SIGTERM, SIGINT or POST /shutdown, then exits 0.
Only the standard library is used, so the tests need nothing but python3.

POST <anything>/chat/completions takes an OpenAI chat request.  The text of
the last message whose role is "user" may hold directives: whitespace-
separated name=value tokens, anywhere in the text (the last one of a name
wins).
    key=K          the request's identity, for counting its attempts
                   (default: the hex SHA-256 of the raw body)
    fault=KIND     what goes wrong (below)
    times=N|all    how many first attempts of the key get the fault (1)
    retry_after=S  the Retry-After header of fault=429, verbatim (1)
    delay=S        the sleep of fault=slow, in seconds (2)
    size=BYTES     the content length of fault=huge (8000000)
Attempt n of a key (counting from 1) gets the fault when n <= times, the
normal answer after that; so `fault=503 times=2` tests two retries.
    500, 503       that status with an OpenAI error object
    429            the same, with a Retry-After header
    400            the same, its message quoting the request's Authorization
                   header verbatim, to test that the client redacts it
    slow           the normal answer after a sleep
    malformed      200 with a body that is not JSON
    truncated      200 whose Content-Length exceeds the bytes sent before
                   the connection is closed
    reset          the head and half the body, then a TCP reset
    huge           the normal answer with `size` bytes of content
    nochoices      200 with a JSON object that has no "choices"
The normal answer is a chat.completion.  Its content is that of the first
--replies rule (JSON Lines of {"match": SUBSTRING, "content": TEXT}) whose
match is in the user text, else "<question>Echo K?</question>" with K the
key's first 16 characters.  The id derives from the key and `created` is
fixed, so a rerun gets the same bytes.  A body that is not a JSON object, or
a bad directive, gets 400.

GET /stats gives {"requests": chat POSTs received, "by_key": {key:
attempts}, "max_in_flight": most chat requests handled at once (from the
body read to the reply sent), "authorization": the distinct Authorization
values seen, sorted, "" for none}; POST /stats/reset zeroes it.  Anything
else gets 404.

Every reply carries a correct Content-Length (but truncated's) and keeps the
connection open (but truncated's and reset's), as the client's connection
reuse is part of what is measured.
"""
import argparse
import contextlib
import hashlib
import json
import os
import signal
import socket
import socketserver
import struct
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

CREATED = 1700000000
DEFAULTS = {"key": None, "fault": None, "times": "1", "retry_after": "1",
            "delay": "2", "size": "8000000"}
MALFORMED = b'{"choices": [ {"message": '
FILLER = "The quick brown fox jumps over the lazy dog. "


class BadRequest(Exception):
    """A request refused with 400; the message says why."""


# ---- counters ---------------------------------------------------------

class Stats:
    """What GET /stats reports, shared by the handler threads under one lock."""

    def __init__(self):
        self.lock = threading.Lock()
        self.in_flight = 0      # never reset: running requests would drive it negative
        self.zero()

    def zero(self):
        self.requests = 0
        self.by_key = {}
        self.max_in_flight = 0
        self.authorization = set()

    def reset(self):
        with self.lock:
            self.zero()

    def received(self, auth):
        with self.lock:
            self.requests += 1
            self.authorization.add(auth)

    def attempt(self, key):
        """Counts an attempt of KEY and returns its number, from 1."""
        with self.lock:
            n = self.by_key[key] = self.by_key.get(key, 0) + 1
            return n

    @contextlib.contextmanager
    def flight(self):
        with self.lock:
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            yield
        finally:
            with self.lock:
                self.in_flight -= 1

    def snapshot(self):
        with self.lock:
            return {"requests": self.requests, "by_key": dict(self.by_key),
                    "max_in_flight": self.max_in_flight,
                    "authorization": sorted(self.authorization)}


# ---- reading a chat request -------------------------------------------

def content_text(content):
    """A message's text: its string, or its text parts joined."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return " ".join(p["text"] for p in content
                        if isinstance(p, dict) and isinstance(p.get("text"), str))
    return ""


def messages(body):
    msgs = body.get("messages")
    if not isinstance(msgs, list):
        raise BadRequest("'messages' must be an array")
    return [m for m in msgs if isinstance(m, dict)]


def user_text(body):
    """The text of the last message whose role is "user", "" without one."""
    for m in reversed(messages(body)):
        if m.get("role") == "user":
            return content_text(m.get("content"))
    return ""


def parse_times(value):
    return float("inf") if value == "all" else int(value)


def directives(text, raw):
    """The directives of TEXT over the defaults, converted and checked."""
    d = dict(DEFAULTS)
    for token in text.split():
        name, eq, value = token.partition("=")
        if eq and name in d:
            d[name] = value
    if d["fault"] is not None and d["fault"] not in FAULTS:
        raise BadRequest(f"unknown fault '{d['fault']}'")
    try:
        d["times"] = parse_times(d["times"])
        d["delay"] = float(d["delay"])
        d["size"] = int(d["size"])
    except ValueError as e:
        raise BadRequest(f"bad directive: {e}") from None
    d["key"] = d["key"] or hashlib.sha256(raw).hexdigest()
    return d


def parse_chat(raw):
    """(body, user text, directives) of a raw request body."""
    try:
        body = json.loads(raw)
    except ValueError as e:
        raise BadRequest(f"the body is not JSON: {e}") from None
    if not isinstance(body, dict):
        raise BadRequest("the body is not a JSON object")
    text = user_text(body)
    return body, text, directives(text, raw)


# ---- building replies -------------------------------------------------

def error_json(message, kind):
    return json.dumps({"error": {"message": message, "type": kind}}).encode()


def completion(d, body, content):
    """The chat.completion object answering BODY with CONTENT."""
    prompt = sum(len(content_text(m.get("content"))) for m in messages(body))
    p, c = max(1, prompt // 4), max(1, len(content) // 4)
    return {
        "id": "chatcmpl-" + hashlib.sha256(d["key"].encode()).hexdigest()[:12],
        "object": "chat.completion",
        "created": CREATED,
        "model": body.get("model"),
        "choices": [{"index": 0,
                     "message": {"role": "assistant", "content": content},
                     "finish_reason": "stop"}],
        "usage": {"prompt_tokens": p, "completion_tokens": c, "total_tokens": p + c},
    }


def load_replies(path):
    """The --replies rules as (match, content) pairs, in file order."""
    rules = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                rule = json.loads(line)
                rules.append((rule["match"], rule["content"]))
            except (ValueError, KeyError, TypeError) as e:
                sys.exit(f"server.py: {path}:{n}: not a {{match, content}} rule: {e}")
    return rules


# ---- faults: each sends the whole reply and returns its status ----------

def fault_none(h, d, body, text):
    return h.send(200, h.answer(d, body, text))


def fault_500(h, d, body, text):
    return h.send(500, error_json("the server had an error (fault=500)", "server_error"))


def fault_503(h, d, body, text):
    return h.send(503, error_json("the engine is overloaded (fault=503)", "server_error"))


def fault_429(h, d, body, text):
    return h.send(429, error_json("rate limit reached (fault=429)", "rate_limit_error"),
                  [("Retry-After", d["retry_after"])])


def fault_400(h, d, body, text):
    auth = h.headers.get("Authorization", "")
    return h.send(400, error_json(f"invalid request (fault=400); authorization: {auth}",
                                  "invalid_request_error"))


def fault_slow(h, d, body, text):
    time.sleep(d["delay"])
    return fault_none(h, d, body, text)


def fault_malformed(h, d, body, text):
    return h.send(200, MALFORMED)


def fault_truncated(h, d, body, text):
    full = h.answer(d, body, text)
    h.close_connection = True
    h.wfile.write(h.head(200, len(full)) + full[:len(full) // 2])
    return 200


def fault_reset(h, d, body, text):
    full = h.answer(d, body, text)
    h.wfile.write(h.head(200, len(full)) + full[:len(full) // 2])
    h.abort()
    return 200


def fault_huge(h, d, body, text):
    content = (FILLER * (d["size"] // len(FILLER) + 1))[:d["size"]]
    return h.send(200, json.dumps(completion(d, body, content)).encode())


def fault_nochoices(h, d, body, text):
    reply = json.loads(h.answer(d, body, text))
    del reply["choices"]
    return h.send(200, json.dumps(reply).encode())


FAULTS = {"500": fault_500, "503": fault_503, "429": fault_429, "400": fault_400,
          "slow": fault_slow, "malformed": fault_malformed, "truncated": fault_truncated,
          "reset": fault_reset, "huge": fault_huge, "nochoices": fault_nochoices}


# ---- the HTTP side ----------------------------------------------------

class Handler(BaseHTTPRequestHandler):
    """One connection's requests, kept alive between them."""
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True     # truncated and reset write in pieces

    def do_GET(self):
        if self.route() == "/stats":
            self.finish_plain(self.send(200, json.dumps(self.server.stats.snapshot()).encode()))
        else:
            self.not_found()

    def do_POST(self):
        raw = self.read_body()
        if raw is None:
            return
        path = self.route()
        if path.endswith("/chat/completions"):
            self.chat(raw)
        elif path == "/stats/reset":
            self.server.stats.reset()
            self.finish_plain(self.send(200, b"{}"))
        elif path == "/shutdown":
            self.close_connection = True
            self.finish_plain(self.send(200, b"{}"))
            self.server.stop()
        else:
            self.not_found()

    def do_other(self):
        if self.read_body() is not None:
            self.not_found()

    do_PUT = do_DELETE = do_PATCH = do_other

    def chat(self, raw):
        stats = self.server.stats
        stats.received(self.headers.get("Authorization", ""))
        with stats.flight():
            try:
                body, text, d = parse_chat(raw)
            except BadRequest as e:
                status = self.send(400, error_json(str(e), "invalid_request_error"))
                self.server.log(f"{self.command} {self.path} key=- attempt=- fault=- status={status}")
                return
            n = stats.attempt(d["key"])
            fault = d["fault"] if d["fault"] and n <= d["times"] else None
            status = FAULTS.get(fault, fault_none)(self, d, body, text)
        self.server.log(f"{self.command} {self.path} key={d['key']} attempt={n} "
                        f"fault={fault or '-'} status={status}")

    def answer(self, d, body, text):
        """The normal reply's bytes."""
        content = next((c for m, c in self.server.replies if m in text), None)
        if content is None:
            content = f"<question>Echo {d['key'][:16]}?</question>"
        return json.dumps(completion(d, body, content)).encode()

    def route(self):
        return self.path.split("?", 1)[0]

    def read_body(self):
        """The request body, or None after refusing it (the connection closes)."""
        if "Transfer-Encoding" in self.headers:
            self.close_connection = True
            self.send(411, error_json("send a Content-Length", "invalid_request_error"))
            return None
        try:
            length = int(self.headers.get("Content-Length", "0"))
        except ValueError:
            length = -1
        if length < 0:
            self.close_connection = True
            self.send(400, error_json("bad Content-Length", "invalid_request_error"))
            return None
        raw = self.rfile.read(length)
        if len(raw) < length:           # the client went away mid-body
            self.close_connection = True
            return None
        return raw

    def head(self, status, length, extra=()):
        lines = [f"HTTP/1.1 {status} {self.responses[status][0]}",
                 "Content-Type: application/json", f"Content-Length: {length}"]
        lines += [f"{k}: {v}" for k, v in extra]
        if self.close_connection:
            lines.append("Connection: close")
        return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")

    def send(self, status, body, extra=()):
        # One write per reply: a head and body sent apart would wait on the
        # peer's delayed ACK, and the per-call overhead is what limits speed.
        self.wfile.write(self.head(status, len(body), extra) + body)
        return status

    def not_found(self):
        self.finish_plain(self.send(404, error_json(f"no route {self.command} {self.route()}",
                                                    "invalid_request_error")))

    def finish_plain(self, status):
        self.server.log(f"{self.command} {self.path} status={status}")

    def abort(self):
        """Closes the connection with a TCP reset (SO_LINGER 0) instead of a FIN."""
        self.close_connection = True
        self.wfile.flush()
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        # The fd closes only once rfile (a makefile() of the socket) has
        # closed too.  wfile is left open: http.server flushes it after the
        # request, and with nothing buffered that writes nothing.
        self.rfile.close()
        self.connection.close()

    def log_message(self, format, *args):
        self.server.log(format % args)


class Server(ThreadingHTTPServer):
    """The listening socket; a thread per connection."""
    daemon_threads = True
    request_queue_size = 1024

    def __init__(self, replies, log_path):
        self.stats = Stats()
        self.replies = replies
        self.log_file = open(log_path, "a", buffering=1, encoding="utf-8") if log_path else None
        self.log_lock = threading.Lock()
        super().__init__(("127.0.0.1", 0), Handler)

    def server_bind(self):
        # HTTPServer's own looks the host name up, which can stall without DNS.
        socketserver.TCPServer.server_bind(self)
        self.server_name, self.server_port = self.server_address[:2]

    def log(self, line):
        if self.log_file:
            with self.log_lock:
                self.log_file.write(line + "\n")

    def stop(self):
        # shutdown() waits for serve_forever() to return, so never call it
        # from the thread that runs serve_forever (the signal handler's).
        threading.Thread(target=self.shutdown, daemon=True).start()

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], ConnectionError):  # a client going away is routine
            super().handle_error(request, client_address)


def write_port(path, port):
    with open(path + ".tmp", "w", encoding="ascii") as f:
        f.write(f"{port}\n")
    os.rename(path + ".tmp", path)


def main():
    ap = argparse.ArgumentParser(description="OpenAI-compatible test server for squint llm")
    ap.add_argument("--port-file", required=True)
    ap.add_argument("--replies")
    ap.add_argument("--log")
    args = ap.parse_args()
    server = Server(load_replies(args.replies) if args.replies else [], args.log)
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: server.stop())
    write_port(args.port_file, server.server_address[1])
    server.serve_forever(poll_interval=0.1)
    server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
