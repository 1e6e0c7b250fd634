/*
** expand_out.c -- what `squint expand` writes besides its text: the JSON
** of --format json, the records of --out, and the requests of --requests
** (expand_int.h).
**
** Layer: cli.  A request asks a language model for the question and
** evidence of one taken expansion (task expand-question,
** prompts/expand-question.txt), filled from the expansion and the item
** it expands.  The records are JSON Lines, one per expansion a query's
** plan kept (every fate), a query's appended together and synced, so that
** a stopped run resumes where it was (cli_records.h): the queries whose
** records are all there are skipped, and their taken expansions count in
** their shapes' classes as they did.
*/
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/prompt/prompt_data.h"
#include "cli/cli_records.h"
#include "cli/expand_int.h"

const char *const expand_fate_names[] = {"taken", "class-full", "not-joinable", "does-not-run", "no-rows"};

/* ---- question requests (--requests) ----------------------------------------------- */

/* The built-in expand-question template, parsed; and may --requests be
** written?  -1 to go on, or 2 after a message. */
/* The files the run reads, for the checks of the files it writes. */
static size_t run_inputs(const ExpandRun *r, const CliArgs *a, SqArena *arena, SqOutInput **in) {
    size_t n = 0;
    *in = sq_arena_alloc(arena, ((size_t)(a->argc - a->i) + 3) * sizeof **in);
    for (int i = a->i; i < a->argc; i++) (*in)[n++] = (SqOutInput){a->argv[i], "a FILE"};
    if (r->cq.schema.path) (*in)[n++] = (SqOutInput){r->cq.schema.path, r->cq.schema.option};
    if (r->fixtures) (*in)[n++] = (SqOutInput){r->fixtures, "--fixtures"};
    return n;
}

/* The built-in template of task into *tpl, and its temperature and
** max_tokens into *params.  -1 to go on, or 2 after a message. */
static int load_template(ExpandRun *r, const char *task, SqPromptTemplate *tpl, SqPromptParams *params) {
    const SqPromptTask *t = sq_prompt_task_find(task);
    const SqPromptText *b = sq_prompt_builtin(task);
    SqBuf err = SQ_BUF_INIT;
    int rc = -1;
    if (!t || !b || !b->text) {
        fprintf(stderr, "squint expand: no template prompts/%s.txt was built into squint\n", task);
        rc = SQ_EXIT_USAGE;
    } else if (sq_prompt_template_parse(r->tpl_arena, b->path, b->text, strlen(b->text), tpl, &err) < 0) {
        fprintf(stderr, "squint expand: %s\n", sq_buf_str(&err));
        rc = SQ_EXIT_USAGE;
    } else {
        params->temperature = t->temperature;
        params->max_tokens = t->max_tokens;
    }
    sq_buf_free(&err);
    return rc;
}

int expand_requests_start(ExpandRun *r, const CliArgs *a) {
    if (!r->requests) return -1;
    if (!*r->params.model) {
        fprintf(stderr, "squint expand: --model takes a name\n");
        return SQ_EXIT_USAGE;
    }
    SqOutInput *in;
    size_t n = run_inputs(r, a, r->tpl_arena, &in);
    if (cli_requests_out_check("expand", "--requests", r->requests, r->force, in, n) < 0) return SQ_EXIT_USAGE;
    if (!r->tqa) return load_template(r, "expand-question", &r->tpl, &r->params);
    int rc = -1;
    for (int t = 0; t < EXPAND_TQA_TASKS && rc < 0; t++) {
        r->tqa_params[t] = r->params;
        rc = load_template(r, expand_tqa_tasks[t], &r->tqa_tpl[t], &r->tqa_params[t]);
    }
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
        o->request = sq_arena_strdup(q->arena, sq_buf_str(&id));
        if (!r->had_requests || !sq_strmap_get(r->had_requests, o->request)) {
            sq_prompt_request_json(&r->req, o->request, &r->params, sq_buf_str(&sys), sq_buf_str(&user));
            r->n_requests++;
        }
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

/* The members of an expansion's object, in the JSON output and in a
** record of --out alike. */
static void outcome_members(SqJsonWriter *w, const SqExpandPlan *p, const Outcome *o) {
    str_member(w, "added_table", o->x->table);
    SqBuf b = SQ_BUF_INIT;
    sq_expansion_text(p, o->x, &b);
    str_member(w, "join_conditions", sq_buf_str(&b));
    sq_buf_free(&b);
    str_member(w, "fate", expand_fate_names[o->fate]);
    str_member(w, "why", o->why);
    str_member(w, "sql", o->sql);
    sq_jw_key(w, "rows");
    if (o->rows >= 0) sq_jw_int(w, o->rows);
    else sq_jw_null(w);
    sq_jw_key(w, "shape");
    sq_jw_arr_begin(w);
    sq_jw_int(w, o->x->n_nodes);
    sq_jw_int(w, o->x->n_edges);
    sq_jw_arr_end(w);
    sq_jw_key(w, "delta_avg_degree");
    sq_jw_double(w, o->x->delta_avg_degree);
    sq_jw_key(w, "cyclic");
    sq_jw_bool(w, o->x->cyclic);
    str_member(w, "pattern", o->x->pattern);
    sq_jw_key(w, "changes_original_result");
    if (o->changes >= 0) sq_jw_bool(w, o->changes);
    else sq_jw_null(w);
    str_member(w, "equiv", o->verdict);
    str_member(w, "counterexample", o->counterexample);
    str_member(w, "added_column", o->column);
    str_member(w, "added_column_why", o->column_why);
    str_member(w, "added_filter", o->filter);
    str_member(w, "added_filter_why", o->filter_why);
    str_member(w, "join_sql", o->join_sql);
    str_member(w, "question_request_id", o->request);
}

static void json_outcome(SqJsonWriter *w, const SqExpandPlan *p, const Outcome *o) {
    sq_jw_obj_begin(w);
    outcome_members(w, p, o);
    sq_jw_obj_end(w);
}

/* The shape of the join query graph a plan expands: "shape" [V, E],
** "avg_degree", "cyclic" and "pattern", its canonical form (null without
** a plan, or past SQ_EXPAND_MAX_PATTERN tables). */
static void graph_members(SqJsonWriter *w, const SqExpandPlan *p) {
    SqGraphStats st;
    if (p) sq_graph_stats(p->query, 1, &st);
    sq_jw_key(w, "shape");
    if (p) {
        sq_jw_arr_begin(w);
        sq_jw_int(w, st.n_nodes);
        sq_jw_int(w, st.n_edges);
        sq_jw_arr_end(w);
    } else {
        sq_jw_null(w);
    }
    sq_jw_key(w, "avg_degree");
    if (p) sq_jw_double(w, st.avg_degree);
    else sq_jw_null(w);
    sq_jw_key(w, "cyclic");
    if (p) sq_jw_bool(w, st.cycles.total > 0);
    else sq_jw_null(w);
    SqBuf b = SQ_BUF_INIT;
    int named = p && sq_graph_canonical(p->query, SQ_EXPAND_MAX_PATTERN, &b);
    str_member(w, "pattern", named ? sq_buf_str(&b) : NULL);
    sq_buf_free(&b);
}

void expand_json_query(ExpandRun *r, const ExpandQuery *eq) {
    SqJsonWriter *w = &r->jw;
    CliQuery *q = eq->q;
    const char *orig = eq->orig, *why = eq->why, *db_why = eq->db_why;
    const SqExpandPlan *p = eq->p;
    const Outcome *os = eq->os;
    sq_jw_obj_begin(w);
    cli_query_json_head(w, &r->cq, q, orig);
    sq_jw_key(w, "why");
    if (!p) sq_jw_str(w, why);
    else sq_jw_null(w);
    sq_jw_key(w, "not_run");
    if (db_why) sq_jw_str(w, db_why);
    else sq_jw_null(w);
    graph_members(w, p);
    sq_jw_key(w, "candidates");
    sq_jw_int(w, p ? p->n_candidates : 0);
    sq_jw_key(w, "expansions");
    sq_jw_arr_begin(w);
    for (uint32_t i = 0; p && i < p->n_kept; i++) json_outcome(w, p, &os[i]);
    sq_jw_arr_end(w);
    sq_jw_obj_end(w);
}

/* ---- the records of --out --------------------------------------------------------- */

/* A record of an earlier run, of a source it finished: a taken expansion
** counts in its shape's class, as it did then. */
static void count_taken(void *ctx, const SqJson *rec) {
    ExpandRun *r = ctx;
    const char *fate = sq_json_string(sq_json_get(rec, "fate"));
    const char *pattern = sq_json_string(sq_json_get(rec, "pattern"));
    r->n_earlier++;
    if (fate && strcmp(fate, "taken") == 0 && pattern) (*sq_strmap_put(r->classes, pattern, NULL))++;
}

/* The custom_ids of the requests in --requests, into r->had_requests
** (a missing file holds none).  0, or -1 after a message. */
static int read_request_ids(ExpandRun *r) {
    size_t len;
    int err;
    char *text = sq_read_file(r->requests, &len, &err);
    if (!text) {
        if (err == ENOENT) return 0;
        cli_io_error("expand", r->requests, err);
        return -1;
    }
    SqArena *a = sq_arena_new();
    for (size_t off = 0; off < len;) {
        const char *line = text + off, *nl = memchr(line, '\n', len - off);
        size_t n = nl ? (size_t)(nl - line) : len - off;
        const SqJson *j = sq_json_parse(a, line, n, NULL);
        const char *id = j ? sq_json_string(sq_json_get(j, "custom_id")) : NULL;
        if (id && nl) sq_strmap_put(r->had_requests, id, NULL);
        off += n + 1;
    }
    sq_arena_free(a);
    free(text);
    return 0;
}

int expand_out_start(ExpandRun *r, const CliArgs *a) {
    if (!r->out_path) return -1;
    SqOutInput *in;
    size_t n = run_inputs(r, a, r->tpl_arena, &in);
    SqBuf why = SQ_BUF_INIT;
    int rc = sq_out_check(r->out_path, 1, in, n, &why);
    if (rc < 0) fprintf(stderr, "squint expand: --out: %s\n", sq_buf_str(&why));
    sq_buf_free(&why);
    if (rc < 0) return SQ_EXIT_USAGE;
    if (r->requests && (strcmp(r->requests, r->out_path) == 0 || sq_same_file(r->requests, r->out_path))) {
        fprintf(stderr, "squint expand: --out and --requests name the same file\n");
        return SQ_EXIT_USAGE;
    }
    snprintf(r->options, sizeof r->options,
             "n=%ld add-column=%d add-filter=%d run=%d equiv=%d bound=%d rlimit=%llu requests=%d", r->n,
             r->add_column, r->add_filter, !r->no_run, !r->no_equiv, r->equiv.bound,
             (unsigned long long)r->equiv.rlimit, r->requests != NULL);
    CliRecords f = {"expand", EXPAND_RECORD, "expansion", count_taken, r};
    if (cli_records_read(&f, r->out_path, r->options, r->done) < 0) return SQ_EXIT_USAGE;
    r->fd = open(r->out_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (r->fd < 0) {
        cli_io_error("expand", r->out_path, errno);
        return SQ_EXIT_USAGE;
    }
    if (!r->requests) return -1;
    if (r->n_earlier && read_request_ids(r) < 0) return SQ_EXIT_USAGE;
    r->req_fd = open(r->requests, O_WRONLY | O_CREAT | O_CLOEXEC | (r->n_earlier ? O_APPEND : O_TRUNC), 0644);
    if (r->req_fd < 0) {
        cli_io_error("expand", r->requests, errno);
        return SQ_EXIT_USAGE;
    }
    return -1;
}

void expand_out_records(ExpandRun *r, const ExpandQuery *eq, SqBuf *b) {
    const CliQuery *q = eq->q;
    const SqExpandPlan *p = eq->p;
    for (uint32_t i = 0; p && i < p->n_kept; i++) {
        SqJsonWriter w;
        sq_jw_init(&w, b, 0);
        sq_jw_obj_begin(&w);
        str_member(&w, "record", EXPAND_RECORD);
        sq_jw_key(&w, "id");
        SqBuf id = SQ_BUF_INIT;
        sq_buf_printf(&id, "%s/x-%u", eq->sid, i);
        sq_jw_str(&w, sq_buf_str(&id));
        sq_buf_free(&id);
        str_member(&w, "source_id", eq->sid);
        sq_jw_key(&w, "expansion");
        sq_jw_int(&w, i);
        sq_jw_key(&w, "of");
        sq_jw_int(&w, p->n_kept);
        str_member(&w, "options", r->options);
        str_member(&w, "db_id", q->item ? q->item->db_id : NULL);
        sq_jw_key(&w, "question_id");
        if (q->item && q->item->qid >= 0) sq_jw_int(&w, q->item->qid);
        else sq_jw_null(&w);
        str_member(&w, "original_sql", eq->orig);
        outcome_members(&w, p, &eq->os[i]);
        sq_jw_obj_end(&w);
        sq_buf_putc(b, '\n');
    }
}
