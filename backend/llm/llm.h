/*
** llm.h -- the client of an OpenAI-compatible chat completions API: send
** the requests `squint prompt` writes (OpenAI's batch format, one per
** line), a bounded number at once, retry what a server or network fails
** transiently, keep each reply in a disk cache, and hand every request's
** outcome to the caller as one record.
**
** Layer: backend.  The one place squint uses libcurl (its multi
** interface: one thread, many transfers) and the place that turns a
** server's reply into a record.  Prints nothing and writes no file but
** the cache: the command (cli/cmd_llm.c) owns the requests file, the
** records file and the terminal.
**
** The API key is a secret: it goes into the Authorization header and
** nowhere else.  Every text this module gives back (records, messages,
** cache files) has passed through sq_llm_redact.
*/
#ifndef SQ_LLM_H
#define SQ_LLM_H

#include <stddef.h>
#include <stdint.h>

#include "runtime/sha256.h"
#include "runtime/strbuf.h"

/* ---- requests ---------------------------------------------------------- */

/* One request line, read and checked, ready to send. */
typedef struct SqLlmRequest {
    char *custom_id;
    char *body;                     /* the body as sent: canonical JSON */
    size_t body_len;
    char cache_key[SQ_SHA256_HEX];  /* SHA-256 of body */
    char *model;                    /* body.model */
    char *temperature;              /* body.temperature as JSON text, or NULL */
    char *seed;                     /* body.seed as JSON text, or NULL */
} SqLlmRequest;

/* Read one line of the batch format: a JSON object with a non-empty
** string custom_id, an optional method (POST) and url (ending in
** /chat/completions), and a body object with a messages array.  model
** (when not NULL) replaces body.model.  The body becomes canonical JSON
** (object keys sorted, no spaces), the text that is sent and hashed.  A
** fresh request, or NULL with the reason in why. */
SqLlmRequest *sq_llm_request_parse(const char *line, size_t n, const char *model, SqBuf *why);
void sq_llm_request_free(SqLlmRequest *r);

/* Whether a line holds only blanks (skipped in a requests file). */
int sq_llm_blank_line(const char *line, size_t n);

/* ---- the run ----------------------------------------------------------- */

typedef struct SqLlmConfig {
    const char *endpoint;       /* base URL; /chat/completions is appended */
    const char *api_key;        /* NULL or "": no Authorization header */
    int jobs;                   /* requests in progress at once, >= 1 */
    double timeout;             /* seconds per attempt; 0: none */
    int retries;                /* attempts after the first, on transient failures */
    double backoff;             /* seconds before the first retry; doubles each time */
    double backoff_max;         /* cap of that delay (a Retry-After is honoured whole) */
    uint64_t seed;              /* of the backoff's jitter */
    const char *cache_dir;      /* NULL: no cache */
    size_t max_reply;           /* bytes; a longer reply fails */
} SqLlmConfig;

/* What became of one request. */
typedef enum SqLlmStatus {
    SQ_LLM_OK,          /* a reply with a message */
    SQ_LLM_FAILED,      /* none, for the reason given */
} SqLlmStatus;

typedef struct SqLlmOutcome {
    const SqLlmRequest *req;
    SqLlmStatus status;
    int cached;                 /* the reply came from the cache */
    long http_status;           /* of the last attempt; 0: no HTTP reply */
    const char *reply;          /* the last reply's body (may be NULL) */
    size_t reply_len;
    const char *error_code;     /* when failed: http_error, timeout, connection, malformed_reply, too_large, cache */
    const char *error_message;  /* when failed: what went wrong (redacted) */
    int attempts;               /* sent this many times (0 from the cache) */
    double latency;             /* seconds of the last attempt */
    double elapsed;             /* seconds from the first attempt to the outcome */
    int64_t prompt_tokens, completion_tokens;   /* usage as returned; -1: none */
} SqLlmOutcome;

/* The caller's side of a run.  next() gives the next request to send
** (ownership passes to the run), NULL when there are no more; it may set
** *stop to end the run with an error.  done() receives each outcome
** (the request is freed after it returns); flush() is called after each
** round of outcomes, to make them durable together. */
typedef struct SqLlmCallbacks {
    void *ctx;
    SqLlmRequest *(*next)(void *ctx, int *stop);
    void (*done)(void *ctx, const SqLlmOutcome *o);
    int (*flush)(void *ctx);    /* 0, or -1 to end the run */
    void (*tick)(void *ctx, size_t in_progress, size_t waiting);   /* progress, often */
} SqLlmCallbacks;

/* Run every request next() gives.  0 when all have an outcome, -1 with
** the reason in err when the run could not go on (libcurl failed to
** start, a callback stopped it). */
int sq_llm_run(const SqLlmConfig *cfg, const SqLlmCallbacks *cb, SqBuf *err);

/* ---- records ----------------------------------------------------------- */

/* Every record line starts with this, so that a line cut short by a kill
** is still known as ours. */
#define SQ_LLM_RECORD_PREFIX "{\"id\":\"squint-llm-"

/* A line (without its newline) read back as a record: it starts with
** the prefix, is JSON and has a string custom_id.  The parsed record
** (cJSON_Delete it), or NULL. */
struct cJSON *sq_llm_record_parse(const char *line, size_t n);

/* The record of an outcome, one line of JSON with its newline: OpenAI's
** batch output (id, custom_id, response with status_code and body,
** error) and a "squint" object (status, model, temperature and seed as
** sent, usage, latency, attempts, cached, cache_key). */
void sq_llm_record(SqBuf *out, const SqLlmOutcome *o, const char *secret);

/* Replace every occurrence of secret (when not NULL or "") in b with
** "[redacted]". */
void sq_llm_redact(SqBuf *b, const char *secret);

/* Check an API key for what an HTTP header can carry: printable ASCII,
** no blank, no quote or backslash (so that it is never altered by JSON
** escaping and redaction finds it).  0, or -1 with the reason in why
** (which never quotes the key). */
int sq_llm_key_check(const char *key, SqBuf *why);

/* ---- the disk cache ---------------------------------------------------- */

/* The reply cached under key in dir (heap, *n its length), or NULL. */
char *sq_llm_cache_get(const char *dir, const char *key, size_t *n);

/* Keep a reply under key: written to a temporary file and renamed, so a
** reader sees all of it or nothing.  0, or -1 with errno in *err. */
int sq_llm_cache_put(const char *dir, const char *key, const char *reply, size_t n, int *err);

/* Create dir (and its parents) when missing.  0, or -1 with errno in *err. */
int sq_llm_cache_open(const char *dir, int *err);

#endif
