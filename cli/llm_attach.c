/*
** llm_attach.c -- `squint llm import TASK RECORDS --attach GOLD`: the
** replies put back into the gold they were asked about.
**
** Layer: cli.  Two tasks make new benchmark items from their replies:
**
**   sql-to-question  each item of GOLD becomes one item per question the
**                    model wrote for its SQL (seed 004's generation step):
**                    the question filled in, "question_of" naming the item
**                    it came from, question_id = that item's id * 10 + k;
**   question-check   each item of GOLD gets "check": the model's verdict
**                    on whether its SQL answers its question, and why (the
**                    seed's validation step); --drop-rejected leaves out
**                    the items whose verdict is not yes.
**
** The tqa tasks attach to the JSON of squint expand --tqa instead
** (cli/llm_tqa.c), and expand-question to what squint expand wrote
** (cli/llm_expand.c), through the helpers below.
**
** A reply is an item's when its custom_id is the one `squint prompt` gives
** that item: TASK/qid-N for an item with a question_id, else
** TASK/item-N (its 0-based place).  Only a gold that is a JSON array of
** objects (Spider's and BIRD's dev.json) can take the replies back.
*/
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/llm_out.h"
#include "runtime/safewrite.h"
#include "runtime/strmap.h"
#include "runtime/util.h"

/* The member that marks a gold this command wrote, per task. */
static const char *mark_of(const char *task) {
    return strcmp(task, "sql-to-question") == 0   ? "question_of"
           : strcmp(task, "expand-question") == 0 ? "expansion_of"
           : llm_tqa_task(task)                   ? "tqa"
                                                  : "check";
}

int llm_attach_task(const char *task) {
    return strcmp(task, "sql-to-question") == 0 || strcmp(task, "question-check") == 0 ||
           strcmp(task, "expand-question") == 0 || llm_tqa_task(task);
}

/* The item's own number: its question_id, or its place. */
static long long item_number(const cJSON *item, int i) {
    const cJSON *qid = cJSON_GetObjectItemCaseSensitive(item, "question_id");
    return cJSON_IsNumber(qid) ? (long long)qid->valuedouble : i;
}

/* The custom_id squint prompt gives item i of a JSON gold. */
static void item_id(const char *task, const cJSON *item, int i, char *buf, size_t n) {
    int has_qid = cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(item, "question_id"));
    snprintf(buf, n, "%s/%s-%lld", task, has_qid ? "qid" : "item", item_number(item, i));
}

/* text as JSON Lines of objects, made one array; NULL when a line is not
** an object. */
static cJSON *parse_lines(char *text) {
    cJSON *doc = cJSON_CreateArray();
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        cJSON *o = cJSON_Parse(line);
        if (!cJSON_IsObject(o)) {
            cJSON_Delete(o);
            cJSON_Delete(doc);
            return NULL;
        }
        cJSON_AddItemToArray(doc, o);
    }
    return doc;
}

cJSON *llm_read_gold(const char *path, int lines_too) {
    size_t len;
    int err;
    char *text = sq_read_file(path, &len, &err);
    if (!text) {
        fprintf(stderr, "squint llm import: --attach: cannot read '%s': %s\n", path, strerror(err));
        return NULL;
    }
    cJSON *doc = cJSON_ParseWithLength(text, len);
    if (!cJSON_IsArray(doc) && lines_too) {
        cJSON_Delete(doc);
        doc = parse_lines(text);
    }
    free(text);
    int ok = cJSON_IsArray(doc);
    for (const cJSON *it = doc ? doc->child : NULL; ok && it; it = it->next) ok = cJSON_IsObject(it);
    if (!ok) {
        if (lines_too)
            fprintf(stderr, "squint llm import: --attach: '%s' is neither a JSON array of objects nor JSON Lines "
                            "of them\n", path);
        else
            fprintf(stderr, "squint llm import: --attach: '%s' is not a gold file of JSON items (Spider's or "
                            "BIRD's dev.json form)\n", path);
        cJSON_Delete(doc);
        return NULL;
    }
    return doc;
}

/* Whether path holds a gold this command wrote for task (every item has
** the task's mark), or nothing. */
static int is_attach_output(const char *task, const char *path) {
    size_t len;
    int err;
    char *text = sq_read_file(path, &len, &err);
    if (!text) return 0;
    cJSON *doc = len ? cJSON_ParseWithLength(text, len) : NULL;
    int ours = !len || cJSON_IsArray(doc);
    for (const cJSON *it = doc ? doc->child : NULL; ours && it; it = it->next)
        ours = cJSON_HasObjectItem(it, mark_of(task));
    cJSON_Delete(doc);
    free(text);
    return ours;
}

int llm_attach_check_out(const char *task, const char *gold, const char *records, const char *out, int force) {
    if (!out) {
        fputs("squint llm import: --attach writes a gold file: give --out FILE\n", stderr);
        return SQ_EXIT_USAGE;
    }
    SqOutInput in[2] = {{records, "RECORDS"}, {gold, "--attach"}};
    if (!force && !sq_out_input_of(out, in, 2) && sq_path_exists(out) && !sq_path_is_special(out) &&
        !is_attach_output(task, out)) {
        fprintf(stderr, "squint llm import: --out: '%s' exists and is not a gold that --attach wrote for %s; "
                        "pass --force to replace it\n", out, task);
        return SQ_EXIT_USAGE;
    }
    SqBuf why = SQ_BUF_INIT;
    int rc = sq_out_check(out, 1, in, 2, &why);
    if (rc < 0) fprintf(stderr, "squint llm import: --out: %s\n", sq_buf_str(&why));
    sq_buf_free(&why);
    return rc < 0 ? SQ_EXIT_USAGE : -1;
}

SqStrMap *llm_taken_replies(const LlmImported *got, size_t n) {
    SqStrMap *m = sq_strmap_new();
    for (size_t i = 0; i < n; i++)
        if (got[i].ok) *sq_strmap_put(m, got[i].custom_id, NULL) = (int)i + 1;
    return m;
}

/* The imported line of custom_id id, parsed, when its reply was taken. */
static cJSON *reply_of(const LlmImported *got, const SqStrMap *taken, const char *id) {
    const int *k = sq_strmap_get(taken, id);
    return k ? cJSON_Parse(got[*k - 1].line) : NULL;
}

/* sql-to-question: one item per question. */
static void add_questions(cJSON *out, const cJSON *item, int i, const cJSON *reply, size_t *made) {
    const cJSON *qs = cJSON_GetObjectItemCaseSensitive(reply, "questions");
    int k = 0;
    for (const cJSON *q = qs ? qs->child : NULL; q; q = q->next, k++) {
        if (!cJSON_IsString(q)) continue;
        cJSON *copy = cJSON_Duplicate(item, 1);
        cJSON_DeleteItemFromObjectCaseSensitive(copy, "question");
        cJSON_DeleteItemFromObjectCaseSensitive(copy, "question_id");
        cJSON_AddNumberToObject(copy, "question_id", (double)(item_number(item, i) * 10 + k));
        cJSON_AddNumberToObject(copy, "question_of", (double)item_number(item, i));
        cJSON_AddStringToObject(copy, "question", q->valuestring);
        cJSON_AddItemToArray(out, copy);
        (*made)++;
    }
}

/* question-check: the verdict on the item ("none" without a reply); 1
** when it is yes. */
static int add_check(cJSON *item, const cJSON *reply) {
    cJSON *check = cJSON_CreateObject();
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(reply, "verdict");
    const cJSON *why = cJSON_GetObjectItemCaseSensitive(reply, "reason");
    cJSON_AddStringToObject(check, "verdict", cJSON_IsString(v) ? v->valuestring : "none");
    if (cJSON_IsString(why)) cJSON_AddStringToObject(check, "reason", why->valuestring);
    else cJSON_AddNullToObject(check, "reason");
    cJSON_DeleteItemFromObjectCaseSensitive(item, "check");
    cJSON_AddItemToObject(item, "check", check);
    return cJSON_IsString(v) && strcmp(v->valuestring, "yes") == 0;
}

const char *llm_str(const cJSON *o, const char *key) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

int llm_write_gold(const char *out, const cJSON *res) {
    char *text = cJSON_Print(res);
    SqBuf all = SQ_BUF_INIT;
    sq_buf_puts(&all, text);
    sq_buf_putc(&all, '\n');
    int err = 0, rc = sq_write_replace(out, sq_buf_str(&all), all.len, &err);
    if (rc < 0) fprintf(stderr, "squint llm import: cannot write '%s': %s\n", out, strerror(err));
    sq_buf_free(&all);
    cJSON_free(text);
    return rc;
}

int llm_attach(const char *task, const char *gold, const char *out, int drop_rejected, int quiet,
               const LlmImported *got, size_t n_got) {
    cJSON *doc = llm_read_gold(gold, 0);
    if (!doc) return SQ_EXIT_USAGE;
    int questions = strcmp(task, "sql-to-question") == 0;
    cJSON *res = cJSON_CreateArray();
    SqStrMap *taken = llm_taken_replies(got, n_got);
    size_t answered = 0, made = 0, yes = 0;
    char id[96];
    int i = 0;
    for (const cJSON *it = doc->child; it; it = it->next, i++) {
        item_id(task, it, i, id, sizeof id);
        cJSON *reply = reply_of(got, taken, id);
        answered += reply != NULL;
        if (questions) {
            if (reply) add_questions(res, it, i, reply, &made);
        } else {
            cJSON *copy = cJSON_Duplicate(it, 1);
            int ok = add_check(copy, reply); /* no reply: verdict "none" */
            yes += (size_t)ok;
            if (ok || !drop_rejected) cJSON_AddItemToArray(res, copy);
            else cJSON_Delete(copy);
        }
        cJSON_Delete(reply);
    }
    int rc = llm_write_gold(out, res);
    if (rc == 0 && !quiet && questions)
        fprintf(stderr, "squint llm import: %zu of %d items have questions: %zu items written to %s\n", answered,
                i, made, out);
    else if (rc == 0 && !quiet)
        fprintf(stderr, "squint llm import: %zu of %d items checked, %zu judged yes; %zu items written to %s\n",
                answered, i, yes, drop_rejected ? yes : (size_t)i, out);
    cJSON_Delete(res);
    cJSON_Delete(doc);
    sq_strmap_free(taken);
    return rc < 0 ? SQ_EXIT_USAGE : SQ_EXIT_OK;
}
