/*
** expand_out.c -- what `squint expand` writes besides its text: the JSON
** of --format json, and the requests of --requests (expand_int.h).
**
** Layer: cli.  A request asks a language model for the question and
** evidence of one taken expansion (task expand-question,
** prompts/expand-question.txt), filled from the expansion and the item
** it expands.
*/
#include <stdlib.h>
#include <string.h>

#include "backend/prompt/prompt_data.h"
#include "cli/expand_int.h"

const char *const expand_fate_names[] = {"taken", "class-full", "not-joinable", "does-not-run", "no-rows"};

/* ---- question requests (--requests) ----------------------------------------------- */

/* The built-in expand-question template, parsed; and may --requests be
** written?  -1 to go on, or 2 after a message. */
int expand_requests_start(ExpandRun *r, const CliArgs *a) {
    if (!r->requests) return -1;
    if (!*r->params.model) {
        fprintf(stderr, "squint expand: --model takes a name\n");
        return SQ_EXIT_USAGE;
    }
    size_t n = 0;
    SqOutInput *in = sq_arena_alloc(r->tpl_arena, ((size_t)(a->argc - a->i) + 3) * sizeof *in);
    for (int i = a->i; i < a->argc; i++) in[n++] = (SqOutInput){a->argv[i], "a FILE"};
    if (r->cq.schema.path) in[n++] = (SqOutInput){r->cq.schema.path, r->cq.schema.option};
    if (r->fixtures) in[n++] = (SqOutInput){r->fixtures, "--fixtures"};
    if (cli_requests_out_check("expand", "--requests", r->requests, r->force, in, n) < 0) return SQ_EXIT_USAGE;
    const SqPromptTask *t = sq_prompt_task_find("expand-question");
    const SqPromptText *b = sq_prompt_builtin("expand-question");
    SqBuf err = SQ_BUF_INIT;
    int rc = -1;
    if (!t || !b || !b->text) {
        fprintf(stderr, "squint expand: no template prompts/expand-question.txt was built into squint\n");
        rc = SQ_EXIT_USAGE;
    } else if (sq_prompt_template_parse(r->tpl_arena, b->path, b->text, strlen(b->text), &r->tpl, &err) < 0) {
        fprintf(stderr, "squint expand: %s\n", sq_buf_str(&err));
        rc = SQ_EXIT_USAGE;
    } else {
        r->params.temperature = t->temperature;
        r->params.max_tokens = t->max_tokens;
    }
    sq_buf_free(&err);
    return rc;
}

/* The request for taken expansion o (the i-th the plan kept) of q, whose
** SQL as the backend writes it is orig. */
void expand_request(ExpandRun *r, CliQuery *q, const SqExpandPlan *p, uint32_t i, const char *orig, Outcome *o) {
    SqBuf id = SQ_BUF_INIT, join = SQ_BUF_INIT, sys = SQ_BUF_INIT, user = SQ_BUF_INIT;
    cli_query_item_id(&id, "expand-question", q);
    sq_buf_printf(&id, "/x-%u", i);
    sq_buf_printf(&join, "the table %s on ", o->x->table);
    sq_expansion_text(p, o->x, &join);
    SqPromptValues v = {{NULL}};
    v.v[SQ_SLOT_SCHEMA] = o->schema;
    v.v[SQ_SLOT_SQL] = o->sql;
    v.v[SQ_SLOT_ORIGINAL_SQL] = orig;
    v.v[SQ_SLOT_JOIN] = sq_buf_str(&join);
    v.v[SQ_SLOT_QUESTION] = q->item ? q->item->question : NULL;
    v.v[SQ_SLOT_EVIDENCE] = q->item ? q->item->evidence : NULL;
    v.v[SQ_SLOT_DB_ID] = q->item ? q->item->db_id : NULL;
    SqPromptSlot missing;
    if (sq_prompt_render(&r->tpl, &v, &sys, &user, &missing) == 0) {
        sq_prompt_request_json(&r->req, sq_buf_str(&id), &r->params, sq_buf_str(&sys), sq_buf_str(&user));
        o->request = sq_arena_strdup(q->arena, sq_buf_str(&id));
        r->n_requests++;
    }
    sq_buf_free(&id);
    sq_buf_free(&join);
    sq_buf_free(&sys);
    sq_buf_free(&user);
}


/* ---- the JSON ---------------------------------------------------------------- */

static void str_member(SqJsonWriter *w, const char *key, const char *s) {
    sq_jw_key(w, key);
    sq_jw_str(w, s);
}

static void json_outcome(SqJsonWriter *w, const SqExpandPlan *p, const Outcome *o) {
    sq_jw_obj_begin(w);
    sq_jw_key(w, "table");
    sq_jw_str(w, o->x->table);
    SqBuf b = SQ_BUF_INIT;
    sq_expansion_text(p, o->x, &b);
    sq_jw_key(w, "conditions");
    sq_jw_str(w, sq_buf_str(&b));
    sq_buf_free(&b);
    sq_jw_key(w, "fate");
    sq_jw_str(w, expand_fate_names[o->fate]);
    str_member(w, "why", o->why);
    str_member(w, "sql", o->sql);
    sq_jw_key(w, "rows");
    if (o->rows >= 0) sq_jw_int(w, o->rows);
    else sq_jw_null(w);
    sq_jw_key(w, "nodes");
    sq_jw_int(w, o->x->n_nodes);
    sq_jw_key(w, "edges");
    sq_jw_int(w, o->x->n_edges);
    sq_jw_key(w, "delta_avg_degree");
    sq_jw_double(w, o->x->delta_avg_degree);
    sq_jw_key(w, "cyclic");
    sq_jw_bool(w, o->x->cyclic);
    str_member(w, "pattern", o->x->pattern);
    sq_jw_key(w, "changes_result");
    if (o->changes >= 0) sq_jw_bool(w, o->changes);
    else sq_jw_null(w);
    str_member(w, "equiv", o->verdict);
    str_member(w, "counterexample", o->counterexample);
    str_member(w, "added_column", o->column);
    str_member(w, "added_column_why", o->column_why);
    str_member(w, "added_filter", o->filter);
    str_member(w, "added_filter_why", o->filter_why);
    str_member(w, "join_sql", o->join_sql);
    str_member(w, "question_request", o->request);
    sq_jw_obj_end(w);
}

void expand_json_query(ExpandRun *r, CliQuery *q, const char *orig, const SqExpandPlan *p, const Outcome *os,
                       const char *why, const char *db_why) {
    SqJsonWriter *w = &r->jw;
    sq_jw_obj_begin(w);
    cli_query_json_head(w, &r->cq, q, orig);
    sq_jw_key(w, "why");
    if (!p) sq_jw_str(w, why);
    else sq_jw_null(w);
    sq_jw_key(w, "not_run");
    if (db_why) sq_jw_str(w, db_why);
    else sq_jw_null(w);
    sq_jw_key(w, "candidates");
    sq_jw_int(w, p ? p->n_candidates : 0);
    sq_jw_key(w, "expansions");
    sq_jw_arr_begin(w);
    for (uint32_t i = 0; p && i < p->n_kept; i++) json_outcome(w, p, &os[i]);
    sq_jw_arr_end(w);
    sq_jw_obj_end(w);
}

