/*
** request.c -- a line of OpenAI's batch format read into a request: the
** checks a line must pass before anything is sent, and the body's
** canonical form.
**
** The body is sent as canonical JSON (every object's keys in byte order,
** no blank space) and the cache key is the SHA-256 of that text: two
** lines that ask the same thing in another key order or spacing are one
** request to the cache, and a request that differs in any value (the
** model, the temperature, the seed, a message) is another.
*/
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "backend/llm/llm.h"
#include "runtime/util.h"

int sq_llm_blank_line(const char *line, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (!strchr(" \t\r\n", line[i])) return 0;
    return 1;
}

static int by_key(const void *a, const void *b) {
    const cJSON *x = *(cJSON *const *)a, *y = *(cJSON *const *)b;
    return strcmp(x->string, y->string);
}

/* Sort the keys of every object in v, in place. */
static void canonicalize(cJSON *v) {
    size_t n = 0;
    for (cJSON *c = v->child; c; c = c->next) {
        canonicalize(c);
        n++;
    }
    if (!cJSON_IsObject(v) || n < 2) return;
    cJSON **kids = sq_malloc(n * sizeof *kids);
    size_t i = 0;
    for (cJSON *c = v->child; c; c = c->next) kids[i++] = c;
    qsort(kids, n, sizeof *kids, by_key);
    for (i = 0; i < n; i++) {
        kids[i]->prev = i ? kids[i - 1] : kids[n - 1];  /* cJSON: the head's prev is the tail */
        kids[i]->next = i + 1 < n ? kids[i + 1] : NULL;
    }
    v->child = kids[0];
    free(kids);
}

/* A number or string member as JSON text (heap), or NULL when absent. */
static char *member_text(const cJSON *obj, const char *key) {
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!m || cJSON_IsNull(m)) return NULL;
    char *t = cJSON_PrintUnformatted(m);
    if (!t) sq_oom();
    char *copy = sq_strdup(t);
    cJSON_free(t);
    return copy;
}

/* The checks of the line's envelope; NULL or what is wrong. */
static const char *envelope_problem(const cJSON *line) {
    if (!cJSON_IsObject(line)) return "not a JSON object";
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(line, "custom_id");
    if (!cJSON_IsString(id) || !id->valuestring[0]) return "no custom_id (a non-empty string)";
    const cJSON *method = cJSON_GetObjectItemCaseSensitive(line, "method");
    if (method && !(cJSON_IsString(method) && strcmp(method->valuestring, "POST") == 0))
        return "method is not POST";
    const cJSON *url = cJSON_GetObjectItemCaseSensitive(line, "url");
    if (url && !(cJSON_IsString(url) && sq_ends_with(url->valuestring, "/chat/completions", 0)))
        return "url is not a chat completions URL (only /v1/chat/completions is supported)";
    const cJSON *body = cJSON_GetObjectItemCaseSensitive(line, "body");
    if (!cJSON_IsObject(body)) return "no body object";
    const cJSON *msgs = cJSON_GetObjectItemCaseSensitive(body, "messages");
    if (!cJSON_IsArray(msgs) || !msgs->child) return "body has no messages (a non-empty array)";
    return NULL;
}

/* Set body.model to model (when given); a body must name one. */
static int set_model(cJSON *body, const char *model) {
    if (model) {
        cJSON *m = cJSON_CreateString(model);
        if (!m) sq_oom();
        if (cJSON_GetObjectItemCaseSensitive(body, "model"))
            cJSON_ReplaceItemInObjectCaseSensitive(body, "model", m);
        else
            cJSON_AddItemToObject(body, "model", m);
    }
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(body, "model");
    return cJSON_IsString(m) && m->valuestring[0] ? 0 : -1;
}

SqLlmRequest *sq_llm_request_parse(const char *line, size_t n, const char *model, SqBuf *why) {
    cJSON *root = cJSON_ParseWithLength(line, n);
    if (!root) {
        sq_buf_puts(why, "not JSON");
        return NULL;
    }
    const char *problem = envelope_problem(root);
    cJSON *body = cJSON_GetObjectItemCaseSensitive(root, "body");
    if (!problem && set_model(body, model) < 0) problem = "body names no model (give --model)";
    if (problem) {
        sq_buf_puts(why, problem);
        cJSON_Delete(root);
        return NULL;
    }
    canonicalize(body);
    char *text = cJSON_PrintUnformatted(body);
    if (!text) sq_oom();
    SqLlmRequest *r = sq_calloc(1, sizeof *r);
    r->custom_id = sq_strdup(cJSON_GetObjectItemCaseSensitive(root, "custom_id")->valuestring);
    r->body = sq_strdup(text);
    r->body_len = strlen(text);
    cJSON_free(text);
    sq_sha256_hex(r->body, r->body_len, r->cache_key);
    r->model = sq_strdup(cJSON_GetObjectItemCaseSensitive(body, "model")->valuestring);
    r->temperature = member_text(body, "temperature");
    r->seed = member_text(body, "seed");
    cJSON_Delete(root);
    return r;
}

void sq_llm_request_free(SqLlmRequest *r) {
    if (!r) return;
    free(r->custom_id);
    free(r->body);
    free(r->model);
    free(r->temperature);
    free(r->seed);
    free(r);
}
