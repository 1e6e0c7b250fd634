/*
** expand_tqa.c -- `squint expand --tqa`: for each query, its linker table
** and the words of its question and evidence that name it (seed 001's
** textual query augmentation; passes/expand/tqa.h has the rules), in text
** or JSON, and a summary of how often the words are there.  With
** --requests, three requests per text that has such words: synonym
** replacement, back-translation and contextual augmentation (tasks
** tqa-synonym, tqa-backtranslate, tqa-context), whose replies squint llm
** import --attach puts back (cli/llm_tqa.c).
**
** Layer: cli.  The join query graph is the one after unnesting, as for
** the expansions; the schema graph, which breaks ties, is the catalog's.
*/
#include <string.h>

#include "cli/expand_int.h"
#include "passes/expand/tqa.h"

const char *const expand_tqa_tasks[EXPAND_TQA_TASKS] = {"tqa-synonym", "tqa-backtranslate", "tqa-context"};

/* What one query's detection found. */
typedef struct TqaFound {
    const char *table;            /* the linker table, or NULL */
    int tie;
    SqTqaSegment *segs;
    uint32_t n_segs;
    const char *text[2];          /* the question, the evidence */
    SqTqaMatch *m[2];
    uint32_t n[2];
} TqaFound;

static const char *const text_kinds[2] = {"question", "evidence"};

/* One text's references: how many words, and how many segments they
** name. */
static void count_refs(const SqTqaMatch *m, uint32_t n, uint32_t n_segs, size_t *words, size_t *segs) {
    *words += n;
    for (uint32_t s = 0; s < n_segs; s++)
        for (uint32_t i = 0; i < n; i++)
            if (m[i].segment == s) {
                (*segs)++;
                break;
            }
}

static void text_refs(SqBuf *out, const char *what, const char *text, const SqTqaSegment *segs, const SqTqaMatch *m,
                      uint32_t n) {
    sq_buf_printf(out, "-- %s:", what);
    if (!text || !*text) sq_buf_puts(out, " (none)");
    else if (!n) sq_buf_puts(out, " no word names it");
    for (uint32_t i = 0; i < n; i++)
        sq_buf_printf(out, "%s \"%.*s\" (%s)", i ? "," : "", (int)(m[i].end - m[i].start), text + m[i].start,
                      segs[m[i].segment].text);
    sq_buf_putc(out, '\n');
}

static void json_refs(SqJsonWriter *w, const char *key, const char *text, const SqTqaSegment *segs,
                      const SqTqaMatch *m, uint32_t n) {
    sq_jw_key(w, key);
    sq_jw_arr_begin(w);
    for (uint32_t i = 0; i < n; i++) {
        sq_jw_obj_begin(w);
        sq_jw_key(w, "text");
        sq_jw_strn(w, text + m[i].start, m[i].end - m[i].start);
        sq_jw_key(w, "start");
        sq_jw_int(w, m[i].start);
        sq_jw_key(w, "end");
        sq_jw_int(w, m[i].end);
        sq_jw_key(w, "segment");
        sq_jw_str(w, segs[m[i].segment].text);
        sq_jw_obj_end(w);
    }
    sq_jw_arr_end(w);
}

/* The segments as the tqa prompts show them: "lap, times", each
** abbreviation marked. */
static void segments_text(SqBuf *b, const TqaFound *f) {
    for (uint32_t i = 0; i < f->n_segs; i++)
        sq_buf_printf(b, "%s%s%s", i ? ", " : "", f->segs[i].text, f->segs[i].abbr ? " (an abbreviation)" : "");
}

/* The words of text k as the tokens slot: a JSON array of
** {"token", "position"}, position the word's byte offset in the text. */
static void tokens_text(SqBuf *b, const TqaFound *f, int k) {
    SqJsonWriter w;
    sq_jw_init(&w, b, 0);
    sq_jw_arr_begin(&w);
    for (uint32_t i = 0; i < f->n[k]; i++) {
        const SqTqaMatch *m = &f->m[k][i];
        sq_jw_obj_begin(&w);
        sq_jw_key(&w, "token");
        sq_jw_strn(&w, f->text[k] + m->start, m->end - m->start);
        sq_jw_key(&w, "position");
        sq_jw_int(&w, m->start);
        sq_jw_obj_end(&w);
    }
    sq_jw_arr_end(&w);
}

/* The three requests for text k of q (which has words naming the table):
** custom_id TASK/qid-N/question (or /evidence). */
static void tqa_requests(ExpandRun *r, CliQuery *q, const TqaFound *f, int k) {
    SqBuf segs = SQ_BUF_INIT, toks = SQ_BUF_INIT, id = SQ_BUF_INIT, sys = SQ_BUF_INIT, user = SQ_BUF_INIT;
    segments_text(&segs, f);
    tokens_text(&toks, f, k);
    SqPromptValues v = {{NULL}};
    v.v[SQ_SLOT_DB_ID] = q->item ? q->item->db_id : NULL;
    v.v[SQ_SLOT_LINKER_TABLE] = f->table;
    v.v[SQ_SLOT_SEGMENTS] = sq_buf_str(&segs);
    v.v[SQ_SLOT_TEXT] = f->text[k];
    v.v[SQ_SLOT_TEXT_KIND] = text_kinds[k];
    v.v[SQ_SLOT_TOKENS] = sq_buf_str(&toks);
    for (int t = 0; t < EXPAND_TQA_TASKS; t++) {
        sq_buf_reset(&id);
        sq_buf_reset(&sys);
        sq_buf_reset(&user);
        cli_query_item_id(&id, expand_tqa_tasks[t], q);
        sq_buf_printf(&id, "/%s", text_kinds[k]);
        SqPromptSlot missing;
        if (sq_prompt_render(&r->tqa_tpl[t], &v, &sys, &user, &missing) < 0) continue;
        sq_prompt_request_json(&r->req, sq_buf_str(&id), &r->tqa_params[t], sq_buf_str(&sys), sq_buf_str(&user));
        r->n_requests++;
    }
    sq_buf_free(&segs);
    sq_buf_free(&toks);
    sq_buf_free(&id);
    sq_buf_free(&sys);
    sq_buf_free(&user);
}

/* q's linker table and the words that name it, counted into r. */
static void detect(ExpandRun *r, const ExpandQuery *eq, TqaFound *f, const char **why) {
    CliQuery *q = eq->q;
    memset(f, 0, sizeof *f);
    f->text[0] = q->item ? q->item->question : NULL;
    f->text[1] = q->item ? q->item->evidence : NULL;
    int node = eq->g ? sq_tqa_linker(eq->g, q->arena, q->cat, &f->tie) : -1;
    if (eq->g && node < 0) *why = "its join query graph has three tables or fewer";
    if (node < 0) return;
    const SqGraphNode *n = &eq->g->nodes[node];
    f->table = n->table ? n->table : n->name;
    f->n_segs = sq_tqa_segments(q->arena, f->table, &f->segs);
    for (int k = 0; k < 2; k++)
        f->n[k] = sq_tqa_references(q->arena, f->segs, f->n_segs, f->text[k], k, q->cat, &f->m[k]);
    r->n_linker++;
    r->n_linker_q += f->n[0] > 0;
    r->n_linker_e += f->n[1] > 0;
    count_refs(f->m[0], f->n[0], f->n_segs, &r->n_words_q, &r->n_segs_q);
    count_refs(f->m[1], f->n[1], f->n_segs, &r->n_words_e, &r->n_segs_e);
}

/* The statement's text as the input writes it: a benchmark item's SQL,
** or the statement of a script. */
static void json_sql_as_written(SqJsonWriter *w, const CliQueries *cq, const CliQuery *q) {
    const SqSrc *src = q->item && q->item->sql ? q->item->sql : sq_src_get(&cq->srcs, q->stmt->span.file);
    sq_jw_key(w, "gold_sql");
    if (!src) sq_jw_null(w);
    else if (q->item && q->item->sql) sq_jw_str(w, src->text);
    else sq_jw_strn(w, src->text + q->stmt->span.start, q->stmt->span.end - q->stmt->span.start);
}

static void json_query(ExpandRun *r, const ExpandQuery *eq, const TqaFound *f, const char *why) {
    SqJsonWriter *w = &r->jw;
    CliQuery *q = eq->q;
    sq_jw_obj_begin(w);
    cli_query_json_head(w, &r->cq, q, eq->orig);
    json_sql_as_written(w, &r->cq, q);
    sq_jw_key(w, "request_key");
    if (q->item) {
        SqBuf id = SQ_BUF_INIT;
        cli_query_item_id(&id, "", q);
        sq_jw_str(w, sq_buf_str(&id) + 1);
        sq_buf_free(&id);
    } else {
        sq_jw_null(w);
    }
    for (int k = 0; k < 2; k++) {
        sq_jw_key(w, text_kinds[k]);
        sq_jw_str(w, f->text[k]);
    }
    sq_jw_key(w, "linker_table");
    sq_jw_str(w, f->table);
    sq_jw_key(w, "why");
    sq_jw_str(w, f->table ? NULL : why);
    sq_jw_key(w, "tie_broken_by_schema");
    sq_jw_bool(w, f->tie);
    sq_jw_key(w, "segments");
    sq_jw_arr_begin(w);
    for (uint32_t i = 0; i < f->n_segs; i++) {
        sq_jw_obj_begin(w);
        sq_jw_key(w, "text");
        sq_jw_str(w, f->segs[i].text);
        sq_jw_key(w, "abbreviation");
        sq_jw_bool(w, f->segs[i].abbr);
        sq_jw_obj_end(w);
    }
    sq_jw_arr_end(w);
    json_refs(w, "question_refs", f->text[0], f->segs, f->m[0], f->n[0]);
    json_refs(w, "evidence_refs", f->text[1], f->segs, f->m[1], f->n[1]);
    sq_jw_obj_end(w);
}

static void text_query(ExpandRun *r, const ExpandQuery *eq, const TqaFound *f, const char *why) {
    SqBuf *out = &r->out;
    sq_buf_puts(out, "-- ");
    cli_query_where(out, eq->q);
    sq_buf_putc(out, '\n');
    if (!f->table) {
        sq_buf_printf(out, "-- no linker table: %s\n", why);
        return;
    }
    sq_buf_printf(out, "-- linker table: %s%s; segments:", f->table,
                  f->tie ? " (a tie broken by the schema graph)" : "");
    for (uint32_t i = 0; i < f->n_segs; i++)
        sq_buf_printf(out, " %s%s", f->segs[i].text, f->segs[i].abbr ? " (abbreviation)" : "");
    sq_buf_putc(out, '\n');
    for (int k = 0; k < 2; k++) text_refs(out, text_kinds[k], f->text[k], f->segs, f->m[k], f->n[k]);
}

void expand_tqa_query(ExpandRun *r, const ExpandQuery *eq) {
    const char *why = eq->why;
    TqaFound f;
    detect(r, eq, &f, &why);
    if (r->requests && eq->q->item)
        for (int k = 0; k < 2; k++)
            if (f.n[k]) tqa_requests(r, eq->q, &f, k);
    if (r->format == SQ_FMT_JSON) json_query(r, eq, &f, why);
    else text_query(r, eq, &f, why);
}

static double per(size_t a, size_t b) { return b ? (double)a / (double)b : 0.0; }

void expand_tqa_summary(ExpandRun *r) {
    sq_buf_printf(&r->out,
                  "-- %zu quer%s, %zu with a linker table: %zu with a word of the question that names it "
                  "(%.2f segments and %.2f words a question), %zu with one in the evidence (%.2f and %.2f)\n",
                  r->cq.n_queries, r->cq.n_queries == 1 ? "y" : "ies", r->n_linker, r->n_linker_q,
                  per(r->n_segs_q, r->n_linker), per(r->n_words_q, r->n_linker), r->n_linker_e,
                  per(r->n_segs_e, r->n_linker), per(r->n_words_e, r->n_linker));
}
