/*
** task.c -- the tasks `squint prompt` knows, the slots their templates
** may name, and the request line each rendered prompt becomes.
**
** Layer: backend/prompt.  One table row per task (its template is the
** built-in text of the same name, scripts/embed_prompts.sh), one X-macro
** row per slot (prompt.h).  The request is written with runtime/jsonw.h,
** so it is the same bytes for the same arguments.
**
** Sections: slots; tasks; requests.
*/
#include "backend/prompt/prompt.h"

#include <string.h>

#include "backend/sqlite/result.h"
#include "runtime/json.h"
#include "runtime/jsonw.h"

/* ------------------------------------------------------------------ */
/* Slots                                                               */
/* ------------------------------------------------------------------ */

/* One slot: the X-macro row of prompt.h. */
typedef struct SlotRow {
    const char *name, *doc, *why;
} SlotRow;

static const SlotRow slots[SQ_SLOT__COUNT] = {
#define SQ_PROMPT_SLOT_ROW(id, name, doc, why) {name, doc, why},
    SQ_PROMPT_SLOTS(SQ_PROMPT_SLOT_ROW)
#undef SQ_PROMPT_SLOT_ROW
};

const char *sq_prompt_slot_name(SqPromptSlot s) { return slots[s].name; }
const char *sq_prompt_slot_doc(SqPromptSlot s) { return slots[s].doc; }
const char *sq_prompt_slot_why(SqPromptSlot s) { return slots[s].why; }

int sq_prompt_slot_find(const char *name, size_t n) {
    for (int s = 0; s < SQ_SLOT__COUNT; s++)
        if (strlen(slots[s].name) == n && memcmp(slots[s].name, name, n) == 0) return s;
    return -1;
}

/* ------------------------------------------------------------------ */
/* Tasks                                                               */
/* ------------------------------------------------------------------ */

/* The generation tasks sample at 0.7 so that reruns with other seeds
** give other wordings; the judging tasks answer at 0. */
static const SqPromptTask tasks[] = {
    {"sql-to-question", "3 to 5 questions whose whole answer is the gold query's result", SQ_PROMPT_IN_GOLD,
     0.7, 1024, "<analysis>...</analysis> then 3-5 <question>...</question>"},
    {"paraphrase", "3 rewordings of the question that the same query answers", SQ_PROMPT_IN_GOLD, 0.7, 512,
     "3 <paraphrase>...</paraphrase>"},
    {"question-check", "does the gold query answer the question exactly (yes or no, and why)", SQ_PROMPT_IN_GOLD,
     0.0, 512, "<verdict>yes|no</verdict> <reason>...</reason>"},
    {"explain-difference", "which reading of the question each of two differing queries takes (eval records)",
     SQ_PROMPT_IN_RECORDS, 0.0, 1024, "<explanation>...</explanation> <reading>A|B|both|neither</reading>"},
    {"synsql-selector", "SynSQL schema selector: the columns test data for the question needs", SQ_PROMPT_IN_GOLD,
     0.0, 1024, "<column>table.column</column> per column"},
    {"synsql-expansion", "SynSQL expansion: columns related to the chosen ones", SQ_PROMPT_IN_LOOP, 0.0, 1024,
     "<column>table.column</column> per column, or none"},
    {"synsql-synthesizer", "SynSQL synthesizer: INSERT statements of test data for the question", SQ_PROMPT_IN_LOOP,
     0.7, 4096, "<sql>INSERT ...;</sql>"},
    {"synsql-critic", "SynSQL critic: the test data scored 1-10 on six dimensions, with feedback", SQ_PROMPT_IN_LOOP,
     0.0, 1024, "<alignment>N</alignment> ... <relevance>N</relevance> <feedback>...</feedback>"},
    {"expand-question", "the question and evidence of a gold query that one more table was joined into",
     SQ_PROMPT_IN_EXPAND, 0.7, 1024, "<analysis>...</analysis> <question>...</question> <evidence>...</evidence>"},
    {"tqa-synonym", "TQA synonym replacement: another word for each word that names the linker table",
     SQ_PROMPT_IN_TQA, 0.7, 512, "[{\"token\": \"...\", \"position\": N}, ...]"},
    {"tqa-backtranslate", "TQA back-translation: the text through French, the linker table's words replaced",
     SQ_PROMPT_IN_TQA, 0.7, 1024, "<translation>...</translation> <text>...</text>"},
    {"tqa-context", "TQA contextual augmentation: the linker table's words masked, then filled from context",
     SQ_PROMPT_IN_TQA, 0.7, 1024, "<masked>...</masked> <text>...</text>"},
};

const SqPromptTask *sq_prompt_tasks(size_t *n) {
    *n = sizeof tasks / sizeof tasks[0];
    return tasks;
}

const SqPromptTask *sq_prompt_task_find(const char *name) {
    for (size_t i = 0; i < sizeof tasks / sizeof tasks[0]; i++)
        if (strcmp(tasks[i].name, name) == 0) return &tasks[i];
    return NULL;
}

const SqPromptText *sq_prompt_builtin(const char *name) {
    for (size_t i = 0; i < sq_prompt_n_builtins; i++)
        if (strcmp(sq_prompt_builtins[i].name, name) == 0) return &sq_prompt_builtins[i];
    return NULL;
}

/* ------------------------------------------------------------------ */
/* Requests                                                            */
/* ------------------------------------------------------------------ */

static void message(SqJsonWriter *w, const char *role, const char *content) {
    sq_jw_obj_begin(w);
    sq_jw_key(w, "role");
    sq_jw_str(w, role);
    sq_jw_key(w, "content");
    sq_jw_str(w, content);
    sq_jw_obj_end(w);
}

/* The shortest decimal that reads back as v (as Python's repr writes a
** float: 0.7, 1.0), through the backend's value printer. */
static void shortest_number(SqJsonWriter *w, double v) {
    SqBuf b = SQ_BUF_INIT;
    SqValue val = sq_value_real(v);
    sq_value_print(&val, &b);
    sq_jw_raw(w, sq_buf_str(&b));
    sq_buf_free(&b);
}

static void body(SqJsonWriter *w, const SqPromptParams *p, const char *system, const char *user) {
    sq_jw_obj_begin(w);
    sq_jw_key(w, "model");
    sq_jw_str(w, p->model);
    sq_jw_key(w, "messages");
    sq_jw_arr_begin(w);
    if (system && *system) message(w, "system", system);
    message(w, "user", user);
    sq_jw_arr_end(w);
    sq_jw_key(w, "temperature");
    shortest_number(w, p->temperature);
    sq_jw_key(w, "seed");
    sq_jw_int(w, p->seed);
    sq_jw_key(w, "max_tokens");
    sq_jw_int(w, p->max_tokens);
    sq_jw_obj_end(w);
}

void sq_prompt_request_json(SqBuf *out, const char *custom_id, const SqPromptParams *p, const char *system,
                            const char *user) {
    SqJsonWriter w;
    sq_jw_init(&w, out, 0);
    sq_jw_obj_begin(&w);
    sq_jw_key(&w, "custom_id");
    sq_jw_str(&w, custom_id);
    sq_jw_key(&w, "method");
    sq_jw_str(&w, "POST");
    sq_jw_key(&w, "url");
    sq_jw_str(&w, "/v1/chat/completions");
    sq_jw_key(&w, "body");
    body(&w, p, system, user);
    sq_jw_obj_end(&w);
    sq_buf_putc(out, '\n');
}

int sq_prompt_is_request(SqArena *a, const char *text, size_t n) {
    const SqJson *j = sq_json_parse(a, text, n, NULL);
    if (!j || j->kind != SQ_JSON_OBJECT) return 0;
    const char *method = sq_json_string(sq_json_get(j, "method"));
    const SqJson *b = sq_json_get(j, "body");
    return sq_json_string(sq_json_get(j, "custom_id")) && method && strcmp(method, "POST") == 0 &&
           sq_json_string(sq_json_get(j, "url")) && b && b->kind == SQ_JSON_OBJECT;
}
