/*
** record.c -- the line `squint llm run` keeps per request, and what goes
** into it: the server's reply judged, its error message, the secret
** taken out.
**
** The line is OpenAI's batch output record (id, custom_id, response,
** error), so tools that read batch results read it, followed by a
** "squint" object with what squint adds (docs/llm.md).  Its first bytes
** are always SQ_LLM_RECORD_PREFIX: a resumed run knows a line cut short
** by a kill as its own, and a file that starts otherwise as not.
*/
#define _GNU_SOURCE   /* memmem */
#include <cjson/cJSON.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "backend/llm/llm.h"
#include "backend/llm/llm_int.h"
#include "runtime/jsonw.h"
#include "runtime/util.h"

/* At most this much of a body that is not JSON goes into a record or a
** message. */
#define TEXT_KEEP 1000

static int64_t usage_of(const cJSON *usage, const char *key) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(usage, key);
    return cJSON_IsNumber(v) && v->valuedouble >= 0 ? (int64_t)v->valuedouble : -1;
}

int llm_reply_check(const char *body, size_t n, int64_t *prompt, int64_t *completion, SqBuf *why) {
    *prompt = *completion = -1;
    cJSON *root = body ? cJSON_ParseWithLength(body, n) : NULL;
    const char *problem = NULL;
    if (!root) {
        problem = n ? "the reply is not JSON" : "the reply is empty";
    } else {
        const cJSON *choices = cJSON_GetObjectItemCaseSensitive(root, "choices");
        const cJSON *first = cJSON_IsArray(choices) ? choices->child : NULL;
        const cJSON *msg = cJSON_GetObjectItemCaseSensitive(first, "message");
        const cJSON *content = cJSON_GetObjectItemCaseSensitive(msg, "content");
        if (!first)
            problem = "the reply has no choices";
        else if (!cJSON_IsString(content))
            problem = "the reply's first choice has no message content";
        const cJSON *usage = cJSON_GetObjectItemCaseSensitive(root, "usage");
        *prompt = usage_of(usage, "prompt_tokens");
        *completion = usage_of(usage, "completion_tokens");
    }
    cJSON_Delete(root);
    if (!problem) return 0;
    sq_buf_puts(why, problem);
    return -1;
}

/* The first bytes of a text, cut at TEXT_KEEP. */
static void put_text_start(SqBuf *b, const char *s, size_t n) {
    sq_buf_put(b, s, n < TEXT_KEEP ? n : TEXT_KEEP);
    if (n > TEXT_KEEP) sq_buf_puts(b, "...");
}

void llm_error_text(long status, const char *body, size_t n, SqBuf *msg) {
    sq_buf_printf(msg, "HTTP %ld", status);
    cJSON *root = body ? cJSON_ParseWithLength(body, n) : NULL;
    const cJSON *err = cJSON_GetObjectItemCaseSensitive(root, "error");
    const cJSON *text = cJSON_IsString(err) ? err : cJSON_GetObjectItemCaseSensitive(err, "message");
    if (cJSON_IsString(text)) {
        sq_buf_puts(msg, ": ");
        put_text_start(msg, text->valuestring, strlen(text->valuestring));
    } else if (n) {
        sq_buf_puts(msg, ": ");
        put_text_start(msg, body, n);
    }
    cJSON_Delete(root);
}

/* ---- the secret --------------------------------------------------------- */

int sq_llm_key_check(const char *key, SqBuf *why) {
    for (const unsigned char *p = (const unsigned char *)key; *p; p++) {
        if (*p <= ' ' || *p >= 127 || *p == '"' || *p == '\\') {
            sq_buf_puts(why, "the API key holds a character an HTTP header cannot carry "
                             "(a blank, a control character, a quote, a backslash or a non-ASCII byte)");
            return -1;
        }
    }
    return 0;
}

void sq_llm_redact(SqBuf *b, const char *secret) {
    size_t k = secret ? strlen(secret) : 0;
    if (!k || !b->data) return;
    static const char mask[] = "[redacted]";
    char *hit = memmem(b->data, b->len, secret, k);
    if (!hit) return;
    SqBuf clean = SQ_BUF_INIT;
    const char *at = b->data, *end = b->data + b->len;
    for (; hit; hit = memmem(at, (size_t)(end - at), secret, k)) {
        sq_buf_put(&clean, at, (size_t)(hit - at));
        sq_buf_puts(&clean, mask);
        at = hit + k;
    }
    sq_buf_put(&clean, at, (size_t)(end - at));
    sq_buf_reset(b);
    sq_buf_put(b, clean.data, clean.len);
    sq_buf_free(&clean);
}

/* ---- the record --------------------------------------------------------- */

/* "response": the status and the body, as JSON when it is JSON. */
static void put_response(SqJsonWriter *w, const SqLlmOutcome *o) {
    sq_jw_key(w, "response");
    if (!o->http_status) {
        sq_jw_null(w);
        return;
    }
    sq_jw_obj_begin(w);
    sq_jw_key(w, "status_code");
    sq_jw_int(w, o->http_status);
    cJSON *root = o->reply ? cJSON_ParseWithLength(o->reply, o->reply_len) : NULL;
    const cJSON *rid = cJSON_GetObjectItemCaseSensitive(root, "id");
    sq_jw_key(w, "request_id");
    sq_jw_str(w, cJSON_IsString(rid) ? rid->valuestring : NULL);
    if (root) {
        char *text = cJSON_PrintUnformatted(root);
        if (!text) sq_oom();
        sq_jw_key(w, "body");
        sq_jw_raw(w, text);
        cJSON_free(text);
    } else if (o->reply_len) {
        SqBuf start = SQ_BUF_INIT;
        put_text_start(&start, o->reply, o->reply_len);
        sq_jw_key(w, "body_text");
        sq_jw_strn(w, start.data, start.len);
        sq_buf_free(&start);
    }
    cJSON_Delete(root);
    sq_jw_obj_end(w);
}

static void put_error(SqJsonWriter *w, const SqLlmOutcome *o) {
    sq_jw_key(w, "error");
    if (o->status == SQ_LLM_OK) {
        sq_jw_null(w);
        return;
    }
    sq_jw_obj_begin(w);
    sq_jw_key(w, "code");
    sq_jw_str(w, o->error_code);
    sq_jw_key(w, "message");
    sq_jw_str(w, o->error_message);
    sq_jw_obj_end(w);
}

static void put_raw_or_null(SqJsonWriter *w, const char *key, const char *raw) {
    sq_jw_key(w, key);
    if (raw)
        sq_jw_raw(w, raw);
    else
        sq_jw_null(w);
}

static void put_usage(SqJsonWriter *w, const SqLlmOutcome *o) {
    sq_jw_key(w, "usage");
    if (o->prompt_tokens < 0 && o->completion_tokens < 0) {
        sq_jw_null(w);
        return;
    }
    sq_jw_obj_begin(w);
    sq_jw_key(w, "prompt_tokens");
    sq_jw_int(w, o->prompt_tokens);
    sq_jw_key(w, "completion_tokens");
    sq_jw_int(w, o->completion_tokens);
    sq_jw_obj_end(w);
}

/* Milliseconds with one decimal. */
static void put_ms(SqJsonWriter *w, const char *key, double seconds) {
    char t[32];
    snprintf(t, sizeof t, "%.1f", seconds * 1000);
    sq_jw_key(w, key);
    sq_jw_raw(w, t);
}

static void put_squint(SqJsonWriter *w, const SqLlmOutcome *o) {
    const SqLlmRequest *r = o->req;
    sq_jw_key(w, "squint");
    sq_jw_obj_begin(w);
    sq_jw_key(w, "format");
    sq_jw_int(w, 1);
    sq_jw_key(w, "status");
    sq_jw_str(w, o->status == SQ_LLM_OK ? "ok" : "failed");
    sq_jw_key(w, "model");
    sq_jw_str(w, r->model);
    put_raw_or_null(w, "temperature", r->temperature);
    put_raw_or_null(w, "seed", r->seed);
    put_usage(w, o);
    put_ms(w, "latency_ms", o->latency);
    put_ms(w, "elapsed_ms", o->elapsed);
    sq_jw_key(w, "attempts");
    sq_jw_int(w, o->attempts);
    sq_jw_key(w, "cached");
    sq_jw_bool(w, o->cached);
    sq_jw_key(w, "cache_key");
    sq_jw_str(w, r->cache_key);
    sq_jw_obj_end(w);
}

cJSON *sq_llm_record_parse(const char *line, size_t n) {
    size_t k = strlen(SQ_LLM_RECORD_PREFIX);
    if (n < k || memcmp(line, SQ_LLM_RECORD_PREFIX, k) != 0) return NULL;
    cJSON *rec = cJSON_ParseWithLength(line, n);
    if (cJSON_IsString(cJSON_GetObjectItemCaseSensitive(rec, "custom_id"))) return rec;
    cJSON_Delete(rec);
    return NULL;
}

void sq_llm_record(SqBuf *out, const SqLlmOutcome *o, const char *secret) {
    char hex[SQ_SHA256_HEX], id[64];
    sq_sha256_hex(o->req->custom_id, strlen(o->req->custom_id), hex);
    snprintf(id, sizeof id, "squint-llm-%.24s", hex);
    SqBuf line = SQ_BUF_INIT;
    SqJsonWriter w;
    sq_jw_init(&w, &line, 0);
    sq_jw_obj_begin(&w);    /* compact: the line starts with SQ_LLM_RECORD_PREFIX */
    sq_jw_key(&w, "id");
    sq_jw_str(&w, id);
    sq_jw_key(&w, "custom_id");
    sq_jw_str(&w, o->req->custom_id);
    put_response(&w, o);
    put_error(&w, o);
    put_squint(&w, o);
    sq_jw_obj_end(&w);
    sq_buf_putc(&line, '\n');
    sq_llm_redact(&line, secret);
    sq_buf_put(out, line.data, line.len);
    sq_buf_free(&line);
}
