/*
** llm_expand.c -- `squint llm import expand-question RECORDS --attach X`:
** the questions a model wrote for the expansions of `squint expand
** --requests`, made benchmark items.
**
** Layer: cli.  X is what squint expand wrote beside the requests: its
** JSON (--format json, an array of queries, each with its "expansions")
** or its records (--out, one expansion a line).  An expansion whose
** "question_request_id" has a reply taken becomes an item in BIRD's
** dev.json form: the expansion's SQL, the question and evidence of the
** reply (no evidence: ""), the query's db_id; question_id = N * 1000 + K
** for the request expand-question/qid-N/x-K (an item-N or line-N source:
** N too), and "expansion_of" naming the source and what was joined.
*/
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/llm_out.h"
#include "runtime/util.h"

/* Expansion numbers past this do not fit question_id's three digits. */
#define MAX_EXPANSION 999

/* N and K of a request id TASK/qid-N/x-K (or item-N, line-N); 0, or -1. */
static int request_numbers(const char *id, long long *n, long *k) {
    const char *s = strchr(id, '/');
    const char *dash = s ? strchr(s, '-') : NULL;
    const char *x = dash ? strstr(dash, "/x-") : NULL;
    if (!x) return -1;
    char *end;
    *n = strtoll(dash + 1, &end, 10);
    if (end != x) return -1;
    *k = strtol(x + 3, &end, 10);
    return *end || *k < 0 ? -1 : 0;
}

/* The item made of expansion x (of source src, which may be x itself)
** and its reply, or NULL when its number does not fit. */
static cJSON *item_of(const cJSON *src, const cJSON *x, const cJSON *reply, const char *id) {
    long long n;
    long k;
    if (request_numbers(id, &n, &k) < 0 || k > MAX_EXPANSION) return NULL;
    const char *q = llm_str(reply, "question"), *e = llm_str(reply, "evidence");
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "question_id", (double)(n * 1000 + k));
    const char *db = llm_str(src, "db_id");
    if (db) cJSON_AddStringToObject(o, "db_id", db);
    else cJSON_AddNullToObject(o, "db_id");
    cJSON_AddStringToObject(o, "question", q ? q : "");
    cJSON_AddStringToObject(o, "evidence", e ? e : "");
    cJSON_AddStringToObject(o, "SQL", llm_str(x, "sql"));
    cJSON *of = cJSON_CreateObject();
    const cJSON *qid = cJSON_GetObjectItemCaseSensitive(src, "question_id");
    if (cJSON_IsNumber(qid)) cJSON_AddNumberToObject(of, "question_id", qid->valuedouble);
    else cJSON_AddNullToObject(of, "question_id");
    cJSON_AddNumberToObject(of, "expansion", (double)k);
    cJSON_AddItemToObject(of, "added_table", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(x, "added_table"), 1));
    cJSON_AddItemToObject(of, "join_conditions",
                          cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(x, "join_conditions"), 1));
    cJSON_AddItemToObject(of, "changes_original_result",
                          cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(x, "changes_original_result"), 1));
    cJSON_AddItemToObject(o, "expansion_of", of);
    return o;
}

/* Expansion x of source src into res when its request has a reply. */
static void attach_one(const cJSON *src, const cJSON *x, const LlmImported *got, const SqStrMap *taken, cJSON *res,
                       size_t *asked, size_t *made) {
    const char *id = llm_str(x, "question_request_id");
    if (!id || !llm_str(x, "sql")) return;
    (*asked)++;
    const int *k = sq_strmap_get(taken, id);
    if (!k) return;
    cJSON *reply = cJSON_Parse(got[*k - 1].line);
    cJSON *item = item_of(src, x, reply, id);
    if (item) {
        cJSON_AddItemToArray(res, item);
        (*made)++;
    } else {
        fprintf(stderr, "squint llm import: %s: its expansion number does not fit a question_id; left out\n", id);
    }
    cJSON_Delete(reply);
}

int llm_expand_attach(const char *gold, const char *out, int quiet, const LlmImported *got, size_t n_got) {
    cJSON *doc = llm_read_gold(gold, 1);
    if (!doc) return SQ_EXIT_USAGE;
    SqStrMap *taken = llm_taken_replies(got, n_got);
    cJSON *res = cJSON_CreateArray();
    size_t asked = 0, made = 0;
    for (const cJSON *it = doc->child; it; it = it->next) {
        const cJSON *xs = cJSON_GetObjectItemCaseSensitive(it, "expansions");
        if (cJSON_IsArray(xs))
            for (const cJSON *x = xs->child; x; x = x->next) attach_one(it, x, got, taken, res, &asked, &made);
        else attach_one(it, it, got, taken, res, &asked, &made); /* a record of --out */
    }
    int rc = llm_write_gold(out, res);
    if (rc == 0 && !quiet)
        fprintf(stderr, "squint llm import: %zu of %zu expansions asked about have a question: %zu items written "
                        "to %s\n", made, asked, made, out);
    cJSON_Delete(res);
    cJSON_Delete(doc);
    sq_strmap_free(taken);
    return rc < 0 ? SQ_EXIT_USAGE : SQ_EXIT_OK;
}
