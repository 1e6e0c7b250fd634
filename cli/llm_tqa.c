/*
** llm_tqa.c -- `squint llm import TASK RECORDS --attach TQA` for the three
** tasks of seed 001's textual query augmentation (tqa-synonym,
** tqa-backtranslate, tqa-context): the rewritten questions and evidence
** put back into the items that `squint expand --tqa --format json` wrote
** (TQA), each new text checked for words that still name the query's
** linker table.
**
** Layer: cli.  A text's reply is the one whose custom_id is
** TASK/KEY/question (or /evidence), KEY the item's "request_key".  A
** synonym reply's substitutions go in place, deterministically: each
** must be at the position of a word the request gave, and every such
** word must have one; the other tasks' replies are the new text itself.
** The check is the detection's own (passes/expand/tqa.h) run on the new
** text with the item's segments; for the evidence it leaves out the
** column names of the schema when a schema option gives one (else every
** word is looked at, which can only find more).
**
** The output is a gold in BIRD's dev.json form, one item per item of TQA
** all of whose texts that named the table were rewritten: question_id,
** db_id, question, evidence, SQL (the gold's own text) and "tqa", what
** was done and what is left.
*/
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_schema.h"
#include "cli/llm_out.h"
#include "passes/expand/tqa.h"
#include "runtime/arena.h"
#include "runtime/util.h"

/* Rejections listed on stderr before the rest are only counted. */
#define MAX_SHOWN 10

static const char *const kinds[2] = {"question", "evidence"};

int llm_tqa_task(const char *task) { return strncmp(task, "tqa-", 4) == 0; }

/* The run over TQA's items. */
typedef struct TqaAttach {
    const char *task;
    int synonym;                /* the replies are substitutions */
    CliSchema *schema;          /* given: the evidence check leaves column names out */
    const LlmImported *got;
    const SqStrMap *taken;
    SqArena *arena;
    size_t n_linked, n_done, n_missing, n_bad;
    size_t n_texts[2], n_hidden[2];
} TqaAttach;

/* The item's segments, for the detection. */
static uint32_t item_segments(TqaAttach *t, const cJSON *item, SqTqaSegment **out) {
    const cJSON *segs = cJSON_GetObjectItemCaseSensitive(item, "segments");
    uint32_t n = (uint32_t)cJSON_GetArraySize(segs), k = 0;
    *out = sq_arena_alloc(t->arena, (n + 1) * sizeof **out);
    for (const cJSON *s = segs ? segs->child : NULL; s; s = s->next) {
        const char *text = llm_str(s, "text");
        if (!text) continue;
        (*out)[k].text = sq_arena_strdup(t->arena, text);
        (*out)[k++].abbr = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(s, "abbreviation"));
    }
    return k;
}

/* The substitution of reply subs at position pos, or NULL. */
static const char *substitute_at(const cJSON *subs, double pos) {
    for (const cJSON *s = subs ? subs->child : NULL; s; s = s->next) {
        const cJSON *p = cJSON_GetObjectItemCaseSensitive(s, "position");
        if (cJSON_IsNumber(p) && p->valuedouble == pos) return llm_str(s, "token");
    }
    return NULL;
}

/* Whether reply subs has a substitution at a position no word of refs is
** at; its position into *pos. */
static int stray_position(const cJSON *subs, const cJSON *refs, double *pos) {
    for (const cJSON *s = subs ? subs->child : NULL; s; s = s->next) {
        const cJSON *sp = cJSON_GetObjectItemCaseSensitive(s, "position");
        double p = cJSON_IsNumber(sp) ? sp->valuedouble : -1;
        const cJSON *r = refs ? refs->child : NULL;
        while (r && !(cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(r, "start")) &&
                      cJSON_GetObjectItemCaseSensitive(r, "start")->valuedouble == p))
            r = r->next;
        if (!r) {
            *pos = p;
            return 1;
        }
    }
    return 0;
}

/* text with each word of refs replaced by the substitution at its start,
** into out; 0, or -1 with why. */
static int apply_substitutions(const char *text, const cJSON *refs, const cJSON *subs, SqBuf *out, SqBuf *why) {
    double stray;
    if (stray_position(subs, refs, &stray)) {
        sq_buf_printf(why, "a substitution at position %.0f, where no word given starts", stray);
        return -1;
    }
    size_t at = 0, len = strlen(text);
    for (const cJSON *r = refs ? refs->child : NULL; r; r = r->next) {
        const cJSON *a = cJSON_GetObjectItemCaseSensitive(r, "start"), *b = cJSON_GetObjectItemCaseSensitive(r, "end");
        if (!cJSON_IsNumber(a) || !cJSON_IsNumber(b) || a->valuedouble < (double)at || b->valuedouble > (double)len ||
            b->valuedouble < a->valuedouble) {
            sq_buf_puts(why, "the item's words are not in order inside its text: is it squint expand --tqa's?");
            return -1;
        }
        const char *sub = substitute_at(subs, a->valuedouble);
        if (!sub) {
            sq_buf_printf(why, "no substitution for '%s' at position %.0f", llm_str(r, "text"), a->valuedouble);
            return -1;
        }
        size_t start = (size_t)a->valuedouble;
        sq_buf_put(out, text + at, start - at);
        sq_buf_puts(out, sub);
        at = (size_t)b->valuedouble;
    }
    sq_buf_puts(out, text + at);
    return 0;
}

/* Text k of item rewritten by its reply into out: 0, 1 when the text had
** no word naming the table (kept as it is), -1 with why (no reply: why
** empty). */
static int rewrite(TqaAttach *t, const cJSON *item, int k, SqBuf *out, SqBuf *why) {
    const char *text = llm_str(item, kinds[k]);
    char key[32];
    snprintf(key, sizeof key, "%s_refs", kinds[k]);
    const cJSON *refs = cJSON_GetObjectItemCaseSensitive(item, key);
    if (!text || !cJSON_GetArraySize(refs)) {
        if (text) sq_buf_puts(out, text);
        return 1;
    }
    SqBuf id = SQ_BUF_INIT;
    sq_buf_printf(&id, "%s/%s/%s", t->task, llm_str(item, "request_key"), kinds[k]);
    const int *got = sq_strmap_get(t->taken, sq_buf_str(&id));
    sq_buf_free(&id);
    if (!got) return -1;
    cJSON *reply = cJSON_Parse(t->got[*got - 1].line);
    int rc = 0;
    if (t->synonym) {
        rc = apply_substitutions(text, refs, cJSON_GetObjectItemCaseSensitive(reply, "substitutions"), out, why);
    } else {
        const char *nt = llm_str(reply, "text");
        if (nt) sq_buf_puts(out, nt);
        else rc = -1, sq_buf_puts(why, "the reply has no text");
    }
    cJSON_Delete(reply);
    return rc;
}

/* The words of text k (new, with the item's segments) that still name the
** linker table, as a JSON array. */
static cJSON *words_left(TqaAttach *t, const cJSON *item, int k, const char *text, int *n_left) {
    SqTqaSegment *segs;
    uint32_t n_segs = item_segments(t, item, &segs);
    const Catalog *cat = NULL;
    if (k == 1 && cli_schema_given(t->schema)) {
        size_t first = t->schema->diags->n; /* a schema that does not load is said once, by its first item */
        cat = cli_schema_resolve(t->schema, llm_str(item, "db_id"), sq_span(0, 0, 0));
        cli_print_diags_text(t->schema->diags, first, cli_stderr_color_default());
    }
    SqTqaMatch *m;
    uint32_t n = sq_tqa_references(t->arena, segs, n_segs, text, k == 1, cat, &m);
    cJSON *a = cJSON_CreateArray();
    for (uint32_t i = 0; i < n; i++) {
        char *w = sq_strndup(text + m[i].start, m[i].end - m[i].start);
        cJSON_AddItemToArray(a, cJSON_CreateString(w));
        free(w);
    }
    *n_left = (int)n;
    return a;
}

static void add_text(cJSON *o, const char *key, const char *s) {
    if (s) cJSON_AddStringToObject(o, key, s);
    else cJSON_AddNullToObject(o, key);
}

/* The gold item made of item and its two new texts. */
static cJSON *augmented(TqaAttach *t, const cJSON *item, SqBuf text[2], const int changed[2]) {
    cJSON *o = cJSON_CreateObject(), *tqa = cJSON_CreateObject();
    const cJSON *qid = cJSON_GetObjectItemCaseSensitive(item, "question_id");
    if (cJSON_IsNumber(qid)) cJSON_AddNumberToObject(o, "question_id", qid->valuedouble);
    add_text(o, "db_id", llm_str(item, "db_id"));
    int hidden = 1;
    cJSON_AddStringToObject(tqa, "task", t->task);
    add_text(tqa, "linker_table", llm_str(item, "linker_table"));
    for (int k = 0; k < 2; k++) {
        const char *before = llm_str(item, kinds[k]);
        add_text(o, kinds[k], before ? sq_buf_str(&text[k]) : k == 1 ? "" : NULL); /* dev.json's evidence is a string */
        char key[32];
        snprintf(key, sizeof key, "%s_before", kinds[k]);
        add_text(tqa, key, before);
        snprintf(key, sizeof key, "%s_left", kinds[k]);
        int n_left = 0;
        cJSON_AddItemToObject(tqa, key, words_left(t, item, k, before ? sq_buf_str(&text[k]) : NULL, &n_left));
        if (!changed[k]) continue;
        t->n_texts[k]++;
        t->n_hidden[k] += n_left == 0;
        hidden &= n_left == 0;
    }
    cJSON_AddBoolToObject(tqa, "hidden", hidden);
    add_text(o, "SQL", llm_str(item, "gold_sql"));
    cJSON_AddItemToObject(o, "tqa", tqa);
    return o;
}

/* Whether a text of item has words that name its linker table. */
static int names_table(const cJSON *item) {
    return llm_str(item, "linker_table") && llm_str(item, "request_key") &&
           (cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(item, "question_refs")) > 0 ||
            cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(item, "evidence_refs")) > 0);
}

/* One item of TQA: its augmented item into res, or a reason it has none. */
static void attach_item(TqaAttach *t, const cJSON *item, cJSON *res) {
    if (!names_table(item)) return;
    t->n_linked++;
    SqBuf text[2] = {SQ_BUF_INIT, SQ_BUF_INIT}, why = SQ_BUF_INIT;
    int changed[2] = {0, 0}, rc = 0, k;
    for (k = 0; k < 2 && rc >= 0; k++) {
        rc = rewrite(t, item, k, &text[k], &why);
        changed[k] = rc == 0;
    }
    if (rc < 0 && !why.len) {
        t->n_missing++;
    } else if (rc < 0) {
        if (t->n_bad++ < MAX_SHOWN)
            fprintf(stderr, "squint llm import: %s/%s/%s: %s\n", t->task, llm_str(item, "request_key"), kinds[k - 1],
                    sq_buf_str(&why));
    } else {
        cJSON_AddItemToArray(res, augmented(t, item, text, changed));
        t->n_done++;
    }
    for (k = 0; k < 2; k++) sq_buf_free(&text[k]);
    sq_buf_free(&why);
}

static double pct(size_t a, size_t b) { return b ? 100.0 * (double)a / (double)b : 0.0; }

static void summary(const TqaAttach *t, const char *out) {
    if (t->n_bad > MAX_SHOWN) fprintf(stderr, "squint llm import: ... and %zu more\n", t->n_bad - MAX_SHOWN);
    fprintf(stderr, "squint llm import: %zu of %zu items whose text names the linker table rewritten (%zu without "
                    "a reply taken, %zu whose reply does not fit): %zu items written to %s\n",
            t->n_done, t->n_linked, t->n_missing, t->n_bad, t->n_done, out);
    fprintf(stderr, "squint llm import: the table's words gone from %zu of %zu questions (%.1f %%) and %zu of %zu "
                    "evidence texts (%.1f %%)\n", t->n_hidden[0], t->n_texts[0], pct(t->n_hidden[0], t->n_texts[0]),
            t->n_hidden[1], t->n_texts[1], pct(t->n_hidden[1], t->n_texts[1]));
}

int llm_tqa_attach(const char *task, const char *gold, const char *out, int quiet, CliSchema *schema,
                   const LlmImported *got, size_t n_got) {
    cJSON *doc = llm_read_gold(gold, 0);
    if (!doc) return SQ_EXIT_USAGE;
    for (const cJSON *it = doc->child; it; it = it->next)
        if (!cJSON_HasObjectItem(it, "linker_table") || !cJSON_HasObjectItem(it, "question_refs")) {
            fprintf(stderr, "squint llm import: --attach: the replies of %s go back into the JSON of squint expand "
                            "--tqa --format json, which '%s' is not\n", task, gold);
            cJSON_Delete(doc);
            return SQ_EXIT_USAGE;
        }
    SqStrMap *taken = llm_taken_replies(got, n_got);
    TqaAttach t = {task, strcmp(task, "tqa-synonym") == 0, schema, got, taken, sq_arena_new(), 0, 0, 0, 0,
                   {0, 0}, {0, 0}};
    cJSON *res = cJSON_CreateArray();
    for (const cJSON *it = doc->child; it; it = it->next) attach_item(&t, it, res);
    int rc = llm_write_gold(out, res);
    if (rc == 0 && !quiet) summary(&t, out);
    cJSON_Delete(res);
    cJSON_Delete(doc);
    sq_strmap_free(taken);
    sq_arena_free(t.arena);
    return rc < 0 ? SQ_EXIT_USAGE : t.n_bad ? SQ_EXIT_FINDINGS : SQ_EXIT_OK;
}
