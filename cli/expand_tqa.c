/*
** expand_tqa.c -- `squint expand --tqa`: for each query, its linker table
** and the words of its question and evidence that name it (seed 001's
** textual query augmentation, the detection half; passes/expand/tqa.h has
** the rules), in text or JSON, and a summary of how often the words are
** there.
**
** Layer: cli.  The join query graph is the plan's (made after unnesting,
** as for the expansions); the schema graph, which breaks ties, is the
** catalog's.
*/
#include <string.h>

#include "cli/expand_int.h"
#include "ir/graph/querygraph.h"
#include "passes/expand/tqa.h"

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
        SqBuf b = SQ_BUF_INIT;
        sq_buf_put(&b, text + m[i].start, m[i].end - m[i].start);
        sq_jw_str(w, sq_buf_str(&b));
        sq_buf_free(&b);
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

void expand_tqa_query(ExpandRun *r, const ExpandQuery *eq) {
    CliQuery *q = eq->q;
    const char *question = q->item ? q->item->question : NULL, *evidence = q->item ? q->item->evidence : NULL;
    int node = -1, tie = 0;
    const char *table = NULL, *why = eq->why;
    SqTqaSegment *segs = NULL;
    SqTqaMatch *qm = NULL, *em = NULL;
    uint32_t n_segs = 0, n_qm = 0, n_em = 0;
    if (eq->p) {
        node = sq_tqa_linker(eq->p->query, sq_schema_graph(q->arena, q->cat), &tie);
        if (node < 0) why = "its join query graph has three tables or fewer";
    }
    if (node >= 0) {
        const SqGraphNode *n = &eq->p->query->nodes[node];
        table = n->table ? n->table : n->name;
        n_segs = sq_tqa_segments(q->arena, table, &segs);
        n_qm = sq_tqa_references(q->arena, segs, n_segs, question, 0, q->cat, &qm);
        n_em = sq_tqa_references(q->arena, segs, n_segs, evidence, 1, q->cat, &em);
        r->n_linker++;
        r->n_linker_q += n_qm > 0;
        r->n_linker_e += n_em > 0;
        count_refs(qm, n_qm, n_segs, &r->n_words_q, &r->n_segs_q);
        count_refs(em, n_em, n_segs, &r->n_words_e, &r->n_segs_e);
    }
    if (r->format == SQ_FMT_JSON) {
        SqJsonWriter *w = &r->jw;
        sq_jw_obj_begin(w);
        cli_query_json_head(w, &r->cq, q, eq->orig);
        sq_jw_key(w, "linker_table");
        sq_jw_str(w, table);
        sq_jw_key(w, "why");
        sq_jw_str(w, table ? NULL : why);
        sq_jw_key(w, "tie_broken_by_schema");
        sq_jw_bool(w, tie);
        sq_jw_key(w, "segments");
        sq_jw_arr_begin(w);
        for (uint32_t i = 0; i < n_segs; i++) {
            sq_jw_obj_begin(w);
            sq_jw_key(w, "text");
            sq_jw_str(w, segs[i].text);
            sq_jw_key(w, "abbreviation");
            sq_jw_bool(w, segs[i].abbr);
            sq_jw_obj_end(w);
        }
        sq_jw_arr_end(w);
        json_refs(w, "question_refs", question, segs, qm, n_qm);
        json_refs(w, "evidence_refs", evidence, segs, em, n_em);
        sq_jw_obj_end(w);
        return;
    }
    SqBuf *out = &r->out;
    sq_buf_puts(out, "-- ");
    cli_query_where(out, q);
    sq_buf_putc(out, '\n');
    if (!table) {
        sq_buf_printf(out, "-- no linker table: %s\n", why);
        return;
    }
    sq_buf_printf(out, "-- linker table: %s%s; segments:", table, tie ? " (a tie broken by the schema graph)" : "");
    for (uint32_t i = 0; i < n_segs; i++) sq_buf_printf(out, " %s%s", segs[i].text, segs[i].abbr ? " (abbreviation)" : "");
    sq_buf_putc(out, '\n');
    text_refs(out, "question", question, segs, qm, n_qm);
    text_refs(out, "evidence", evidence, segs, em, n_em);
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
