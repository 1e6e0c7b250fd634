/*
** client.c -- the run: a fixed number of slots, each carrying one request
** through all its attempts, driven by one libcurl multi handle.
**
** A slot is free, sending (its easy handle in the multi handle) or
** waiting (between attempts, until its due time).  Counting waiting
** slots against -j keeps the work in memory bounded by -j whatever the
** length of the input, and keeps a server that asked for a pause (429)
** from being sent new requests in the meantime by the same run.
**
** An attempt fails transiently on a connection error, a timeout, a 429
** or a 5xx: it is sent again after a delay, the server's Retry-After when
** it gave one, else an exponential backoff with jitter (half to all of
** backoff * 2^(k-1), capped).  Any other status fails at once, with the
** server's message; so does a 200 whose body is not a chat completion,
** since sending the same request again is not known to help and costs
** tokens.  The easy handles are kept for the whole run, and the multi
** handle's connection cache keeps connections alive between requests.
*/
#include <curl/curl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backend/llm/llm.h"
#include "backend/llm/llm_int.h"
#include "runtime/util.h"

/* A slot's reply buffer above this size is freed after its outcome,
** rather than kept for the next request. */
#define KEEP_BUFFER (1u << 20)

typedef struct Slot {
    CURL *easy;
    SqLlmRequest *req;      /* NULL: free */
    int sending, waiting;
    double due;             /* waiting: when to send again */
    int attempts;
    double t_first, t_attempt;
    SqBuf reply;            /* the current attempt's body */
    int too_large;          /* the body passed max_reply */
    struct Run *run;
    char errbuf[CURL_ERROR_SIZE];
} Slot;

typedef struct Run {
    const SqLlmConfig *cfg;
    const SqLlmCallbacks *cb;
    CURLM *multi;
    struct curl_slist *headers;
    char *url;
    Slot *slots;
    size_t n_slots, n_sending, n_waiting;
    uint64_t rng;
    int eof, stopped, outcomes;     /* outcomes: since the last flush */
    SqBuf *err;
} Run;

static size_t on_body(char *data, size_t size, size_t n, void *arg) {
    Slot *s = arg;
    size_t len = size * n;
    if (s->reply.len + len > s->run->cfg->max_reply) {
        s->too_large = 1;
        return 0;   /* ends the transfer with CURLE_WRITE_ERROR */
    }
    sq_buf_put(&s->reply, data, len);
    return len;
}

/* The options that are the same for every request of the run. */
static int slot_init(Run *run, Slot *s) {
    s->run = run;
    s->easy = curl_easy_init();
    if (!s->easy) return -1;
    CURL *e = s->easy;
    const SqLlmConfig *cfg = run->cfg;
    curl_easy_setopt(e, CURLOPT_URL, run->url);
    curl_easy_setopt(e, CURLOPT_HTTPHEADER, run->headers);
    curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(e, CURLOPT_WRITEDATA, s);
    curl_easy_setopt(e, CURLOPT_ERRORBUFFER, s->errbuf);
    curl_easy_setopt(e, CURLOPT_PRIVATE, s);
    curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 0L);   /* the key must not follow a redirect */
    curl_easy_setopt(e, CURLOPT_TCP_KEEPALIVE, 1L);
    if (cfg->timeout > 0) {
        long ms = (long)ceil(cfg->timeout * 1000);
        curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, ms);
        curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, ms < 30000 ? ms : 30000L);
    }
    return 0;
}

static int send_attempt(Run *run, Slot *s) {
    sq_buf_reset(&s->reply);
    s->too_large = 0;
    s->errbuf[0] = '\0';
    s->attempts++;
    s->t_attempt = sq_monotonic_seconds();
    if (s->attempts == 1) s->t_first = s->t_attempt;
    curl_easy_setopt(s->easy, CURLOPT_POSTFIELDS, s->req->body);
    curl_easy_setopt(s->easy, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)s->req->body_len);
    if (curl_multi_add_handle(run->multi, s->easy) != CURLM_OK) return -1;
    s->sending = 1;
    run->n_sending++;
    return 0;
}

/* Hand an outcome to the caller and free the slot. */
static void settle(Run *run, Slot *s, SqLlmOutcome *o) {
    o->req = s->req;
    o->attempts = s->attempts;
    if (!o->cached) {
        o->latency = sq_monotonic_seconds() - s->t_attempt;
        o->elapsed = sq_monotonic_seconds() - s->t_first;
    }
    run->cb->done(run->cb->ctx, o);
    run->outcomes++;
    sq_llm_request_free(s->req);
    s->req = NULL;
    s->attempts = 0;
    if (s->reply.cap > KEEP_BUFFER) sq_buf_free(&s->reply);
}

/* A request whose reply the cache holds: its outcome now.  1 when it
** was there. */
static int from_cache(Run *run, Slot *s) {
    if (!run->cfg->cache_dir) return 0;
    size_t n;
    char *text = sq_llm_cache_get(run->cfg->cache_dir, s->req->cache_key, &n);
    if (!text) return 0;
    SqLlmOutcome o = {.status = SQ_LLM_OK, .cached = 1, .http_status = 200, .reply = text, .reply_len = n};
    SqBuf why = SQ_BUF_INIT;
    int usable = llm_reply_check(text, n, &o.prompt_tokens, &o.completion_tokens, &why) == 0;
    sq_buf_free(&why);
    if (usable) settle(run, s, &o);
    free(text);
    return usable;   /* a damaged entry is a miss, replaced by the next reply */
}

/* Give free slots the next requests. */
static int fill(Run *run) {
    for (size_t i = 0; i < run->n_slots && !run->eof; i++) {
        Slot *s = &run->slots[i];
        while (!s->req && !run->eof) {
            int stop = 0;
            s->req = run->cb->next(run->cb->ctx, &stop);
            if (stop) run->stopped = 1;
            if (!s->req) {
                run->eof = 1;
                break;
            }
            if (from_cache(run, s)) continue;
            if (send_attempt(run, s) < 0) return -1;
        }
    }
    return 0;
}

/* Seconds to wait before the next attempt of s. */
static double retry_delay(Run *run, Slot *s) {
    curl_off_t after = -1;
    if (curl_easy_getinfo(s->easy, CURLINFO_RETRY_AFTER, &after) == CURLE_OK && after > 0)
        return (double)after;
    double d = run->cfg->backoff * pow(2, s->attempts - 1);
    if (d > run->cfg->backoff_max) d = run->cfg->backoff_max;
    double u = (double)(sq_rand_next(&run->rng) >> 11) / 9007199254740992.0;   /* [0, 1) */
    return d * (0.5 + 0.5 * u);
}

/* A transient failure: wait and send again, or fail for good when the
** attempts are spent. */
static void retry_or_fail(Run *run, Slot *s, SqLlmOutcome *o) {
    if (s->attempts <= run->cfg->retries) {
        s->waiting = 1;
        s->due = sq_monotonic_seconds() + retry_delay(run, s);
        run->n_waiting++;
        return;
    }
    settle(run, s, o);
}

static void fail_transfer(Run *run, Slot *s, CURLcode code) {
    SqBuf msg = SQ_BUF_INIT;
    sq_buf_puts(&msg, curl_easy_strerror(code));
    if (s->errbuf[0]) sq_buf_printf(&msg, ": %s", s->errbuf);
    sq_buf_printf(&msg, " (attempt %d)", s->attempts);
    sq_llm_redact(&msg, run->cfg->api_key);
    SqLlmOutcome o = {.status = SQ_LLM_FAILED, .prompt_tokens = -1, .completion_tokens = -1,
                      .error_code = code == CURLE_OPERATION_TIMEDOUT ? "timeout" : "connection",
                      .error_message = msg.data};
    retry_or_fail(run, s, &o);
    sq_buf_free(&msg);
}

static void finish_http(Run *run, Slot *s, long status) {
    SqLlmOutcome o = {.http_status = status, .reply = s->reply.data, .reply_len = s->reply.len};
    SqBuf msg = SQ_BUF_INIT;
    int ok = 0;
    if (status >= 200 && status < 300) {
        ok = llm_reply_check(s->reply.data, s->reply.len, &o.prompt_tokens, &o.completion_tokens, &msg) == 0;
        o.error_code = "malformed_reply";
    } else {
        o.prompt_tokens = o.completion_tokens = -1;
        llm_error_text(status, s->reply.data, s->reply.len, &msg);
        o.error_code = "http_error";
    }
    sq_llm_redact(&msg, run->cfg->api_key);
    o.error_message = msg.data;
    if (ok) {
        o.status = SQ_LLM_OK;
        o.error_code = NULL;
        o.error_message = NULL;
        int err;
        if (run->cfg->cache_dir)   /* a failed write only costs a later run a request */
            (void)sq_llm_cache_put(run->cfg->cache_dir, s->req->cache_key, s->reply.data, s->reply.len, &err);
        settle(run, s, &o);
    } else if (status == 429 || status >= 500) {
        o.status = SQ_LLM_FAILED;
        retry_or_fail(run, s, &o);
    } else {
        o.status = SQ_LLM_FAILED;
        settle(run, s, &o);
    }
    sq_buf_free(&msg);
}

static void finish(Run *run, Slot *s, CURLcode code) {
    curl_multi_remove_handle(run->multi, s->easy);
    s->sending = 0;
    run->n_sending--;
    if (s->too_large) {
        SqBuf msg = SQ_BUF_INIT;
        sq_buf_printf(&msg, "the reply is longer than %zu bytes", run->cfg->max_reply);
        SqLlmOutcome o = {.status = SQ_LLM_FAILED, .prompt_tokens = -1, .completion_tokens = -1,
                          .error_code = "too_large", .error_message = msg.data};
        settle(run, s, &o);
        sq_buf_free(&msg);
        return;
    }
    if (code != CURLE_OK) {
        fail_transfer(run, s, code);
        return;
    }
    long status = 0;
    curl_easy_getinfo(s->easy, CURLINFO_RESPONSE_CODE, &status);
    finish_http(run, s, status);
}

/* Send again the waiting slots whose time has come; the time until the
** next one is due in *next (seconds, or a second when none waits). */
static int resend_due(Run *run, double *next) {
    double now = sq_monotonic_seconds();
    *next = 1;
    for (size_t i = 0; i < run->n_slots; i++) {
        Slot *s = &run->slots[i];
        if (!s->waiting) continue;
        if (s->due <= now) {
            s->waiting = 0;
            run->n_waiting--;
            if (send_attempt(run, s) < 0) return -1;
        } else if (s->due - now < *next) {
            *next = s->due - now;
        }
    }
    return 0;
}

static void collect(Run *run) {
    CURLMsg *m;
    int left;
    while ((m = curl_multi_info_read(run->multi, &left))) {
        if (m->msg != CURLMSG_DONE) continue;
        Slot *s;
        curl_easy_getinfo(m->easy_handle, CURLINFO_PRIVATE, (char **)&s);
        finish(run, s, m->data.result);
    }
}

/* One turn of the loop: wait for sockets or a due retry, move transfers
** on, settle what finished. */
static int turn(Run *run) {
    double next;
    if (resend_due(run, &next) < 0) return -1;
    int ms = (int)(next * 1000) + 1;
    int running;
    if (curl_multi_poll(run->multi, NULL, 0, ms, NULL) != CURLM_OK) return -1;
    if (curl_multi_perform(run->multi, &running) != CURLM_OK) return -1;
    collect(run);
    if (fill(run) < 0) return -1;
    if (run->outcomes && run->cb->flush && run->cb->flush(run->cb->ctx) < 0) {
        run->stopped = 1;
        run->eof = 1;
    }
    run->outcomes = 0;
    if (run->cb->tick) run->cb->tick(run->cb->ctx, run->n_sending, run->n_waiting);
    return 0;
}

static int run_setup(Run *run) {
    const SqLlmConfig *cfg = run->cfg;
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) return -1;
    run->multi = curl_multi_init();
    if (!run->multi) return -1;
    curl_multi_setopt(run->multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, (long)cfg->jobs);
    curl_multi_setopt(run->multi, CURLMOPT_MAXCONNECTS, (long)cfg->jobs);
    size_t n = strlen(cfg->endpoint);
    while (n && cfg->endpoint[n - 1] == '/') n--;
    SqBuf url = SQ_BUF_INIT;
    sq_buf_put(&url, cfg->endpoint, n);
    sq_buf_puts(&url, "/chat/completions");
    run->url = sq_buf_detach(&url);
    run->headers = curl_slist_append(NULL, "Content-Type: application/json");
    run->headers = curl_slist_append(run->headers, "Expect:");   /* no 100-continue round trip */
    if (cfg->api_key && cfg->api_key[0]) {
        SqBuf h = SQ_BUF_INIT;
        sq_buf_printf(&h, "Authorization: Bearer %s", cfg->api_key);
        run->headers = curl_slist_append(run->headers, h.data);
        memset(h.data, 0, h.len);   /* no second copy of the key left in the heap */
        sq_buf_free(&h);
    }
    if (!run->headers) return -1;
    run->n_slots = (size_t)cfg->jobs;
    run->slots = sq_calloc(run->n_slots, sizeof *run->slots);
    for (size_t i = 0; i < run->n_slots; i++)
        if (slot_init(run, &run->slots[i]) < 0) return -1;
    return 0;
}

static void run_free(Run *run) {
    for (size_t i = 0; run->slots && i < run->n_slots; i++) {
        Slot *s = &run->slots[i];
        if (s->sending) curl_multi_remove_handle(run->multi, s->easy);
        if (s->easy) curl_easy_cleanup(s->easy);
        sq_llm_request_free(s->req);
        sq_buf_free(&s->reply);
    }
    free(run->slots);
    if (run->multi) curl_multi_cleanup(run->multi);
    curl_slist_free_all(run->headers);
    free(run->url);
    curl_global_cleanup();
}

int sq_llm_run(const SqLlmConfig *cfg, const SqLlmCallbacks *cb, SqBuf *err) {
    Run run = {.cfg = cfg, .cb = cb, .rng = cfg->seed, .err = err};
    int rc = run_setup(&run);
    if (rc < 0) sq_buf_puts(err, "libcurl could not be set up");
    if (rc == 0) rc = fill(&run);
    while (rc == 0 && (!run.eof || run.n_sending || run.n_waiting)) {
        rc = turn(&run);
        if (rc < 0) sq_buf_puts(err, "libcurl failed while sending");
    }
    if (rc == 0 && run.outcomes && cb->flush && cb->flush(cb->ctx) < 0) run.stopped = 1;
    if (rc == 0 && run.stopped) {
        sq_buf_puts(err, "stopped");
        rc = -1;
    }
    run_free(&run);
    return rc;
}
