/*
** ask.c -- one step of the SynSQL loop put to the model: a task's
** built-in template rendered for each request, the requests sent together
** through backend/llm (so the three selectors run at once), each reply
** read into the task's fields by backend/prompt/reply.c, the same reader
** `squint llm import` uses.
*/
#include <stdlib.h>
#include <string.h>

#include "backend/synsql/synsql_int.h"
#include "runtime/arena.h"
#include "runtime/util.h"

/* The run's side: the requests still to give, the outcomes by request. */
typedef struct AskRun {
    const char *task;
    SynAsk *asks;
    SqLlmRequest **reqs;    /* reqs[i] is asks[i]'s while it is out */
    size_t n, next;
} AskRun;

static SqLlmRequest *give(void *ctx, int *stop) {
    (void)stop;
    AskRun *a = ctx;
    return a->next < a->n ? a->reqs[a->next++] : NULL;
}

/* The reply's message content, or NULL. */
static char *content_of(const char *reply, size_t n) {
    cJSON *root = cJSON_ParseWithLength(reply, n);
    const cJSON *choices = cJSON_GetObjectItemCaseSensitive(root, "choices");
    const cJSON *msg = cJSON_GetObjectItemCaseSensitive(cJSON_IsArray(choices) ? choices->child : NULL, "message");
    const cJSON *content = cJSON_GetObjectItemCaseSensitive(msg, "content");
    char *text = cJSON_IsString(content) ? sq_strdup(content->valuestring) : NULL;
    cJSON_Delete(root);
    return text;
}

static void take(void *ctx, const SqLlmOutcome *o) {
    AskRun *a = ctx;
    size_t i = 0;
    while (i < a->n && a->reqs[i] != o->req) i++;
    if (i == a->n) return;
    a->reqs[i] = NULL;   /* freed by the run */
    SynAsk *k = &a->asks[i];
    if (o->status != SQ_LLM_OK) {
        sq_buf_printf(&k->why, "the request failed: %s", o->error_message ? o->error_message : o->error_code);
        return;
    }
    char *text = content_of(o->reply, o->reply_len);
    SqBuf fields = SQ_BUF_INIT;
    SqJsonWriter w;
    sq_jw_init(&w, &fields, 0);
    sq_jw_obj_begin(&w);
    if (text && sq_prompt_reply_parse(a->task, text, strlen(text), &w, &k->why) == 0) {
        sq_jw_obj_end(&w);
        k->reply = cJSON_Parse(fields.data);
    }
    free(text);
    sq_buf_free(&fields);
}

/* The request line of one ask, read back as the client takes it. */
static SqLlmRequest *make_request(const SqSynsqlConfig *cfg, const SqPromptTask *task, const SqPromptTemplate *t,
                                  SynAsk *k, SqBuf *why) {
    SqBuf sys = SQ_BUF_INIT, user = SQ_BUF_INIT, line = SQ_BUF_INIT;
    SqPromptSlot missing;
    SqLlmRequest *r = NULL;
    if (sq_prompt_render(t, k->values, &sys, &user, &missing) < 0) {
        sq_buf_printf(why, "%s: the slot '%s' has no value", task->name, sq_prompt_slot_name(missing));
    } else {
        SqPromptParams p = {cfg->model, k->temperature, k->seed, task->max_tokens};
        sq_prompt_request_json(&line, k->custom_id, &p, sq_buf_str(&sys), sq_buf_str(&user));
        r = sq_llm_request_parse(line.data, line.len - 1, NULL, why);
    }
    sq_buf_free(&sys);
    sq_buf_free(&user);
    sq_buf_free(&line);
    return r;
}

int syn_ask(const SqSynsqlConfig *cfg, const char *task_name, SynAsk *asks, size_t n, SqBuf *why) {
    const SqPromptTask *task = sq_prompt_task_find(task_name);
    const SqPromptText *text = sq_prompt_builtin(task_name);
    SqArena *arena = sq_arena_new();
    SqPromptTemplate t;
    int rc = task && text && text->text ? 0 : -1;
    if (rc < 0) sq_buf_printf(why, "no built-in template for %s", task_name);
    if (rc == 0) rc = sq_prompt_template_parse(arena, text->path, text->text, strlen(text->text), &t, why);
    AskRun a = {task_name, asks, sq_calloc(n + 1, sizeof *a.reqs), n, 0};
    for (size_t i = 0; i < n && rc == 0; i++)
        if (!(a.reqs[i] = make_request(cfg, task, &t, &asks[i], why))) rc = -1;
    if (rc == 0) {
        SqLlmConfig llm = cfg->llm;
        llm.jobs = (int)n;
        SqLlmCallbacks cb = {&a, give, take, NULL, NULL};
        rc = sq_llm_run(&llm, &cb, why);
    }
    for (size_t i = a.next; i < n; i++) sq_llm_request_free(a.reqs[i]);   /* never given to the run */
    free(a.reqs);
    sq_arena_free(arena);
    return rc;
}

void syn_ask_free(SynAsk *asks, size_t n) {
    for (size_t i = 0; i < n; i++) {
        cJSON_Delete(asks[i].reply);
        sq_buf_free(&asks[i].why);
    }
}
