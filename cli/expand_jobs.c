/*
** expand_jobs.c -- `squint expand -j N`: the queries' equivalence checks
** in worker processes, their output written in the queries' order.
**
** Layer: cli.  Everything that depends on the queries before (which
** expansion takes its shape's class's place) is judged in this process,
** in order; only what follows from one query alone, whether each taken
** expansion changes the query's result, and the query's output, is done
** in a worker forked for it (runtime/pool.h), which sees the query as it
** was judged.  A worker writes a line of its three counts (changes,
** keeps, not decided) and then the query's output; the output is emitted
** when every query before it has been, so that -j N writes what -j 1
** writes.  A worker that ends without its output leaves its query out
** (null in its place in the JSON array) and makes the exit status 1.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/expand_int.h"

/* In a worker: decide r->cur and write its counts and its output. */
static int run_query(void *ctx, size_t task, SqBuf *out) {
    ExpandRun *r = ctx;
    size_t counts[3];
    if (r->cur.orig) sq_equiv_test_fault(r->cur.orig, 0); /* a worker that dies, for the tests */
    expand_decide(r, &r->cur, counts);
    sq_buf_printf(out, "%zu %zu %zu\n", counts[0], counts[1], counts[2]);
    if (r->out_path) {
        expand_render(r, &r->cur, out);
        return 0;
    }
    /* the JSON array's items are separated as if the queries before had
    ** been written by this process: one object each */
    if (r->format == SQ_FMT_JSON && r->jw.depth) r->jw.count[r->jw.depth - 1] = task > 0;
    sq_buf_reset(&r->out);
    expand_render(r, &r->cur, NULL);
    sq_buf_put(out, r->out.data ? r->out.data : "", r->out.len);
    return 0;
}

/* A query's turn: its counts added, its output emitted; a worker that
** ended without it is said on stderr. */
static void write_query(ExpandRun *r, ExpandEnded *e) {
    const char *text = e->out.data ? e->out.data : "";
    const char *nl = memchr(text, '\n', e->out.len);
    size_t counts[3];
    if (e->end != SQ_TASK_OK || !nl || sscanf(text, "%zu %zu %zu", &counts[0], &counts[1], &counts[2]) != 3) {
        fprintf(stderr, "squint expand: query %s: its process %s (%d); its output is missing\n", e->sid,
                e->end == SQ_TASK_OK ? "wrote no counts" : sq_task_end_name(e->end), e->detail);
        r->n_failed_jobs++;
        if (r->format == SQ_FMT_JSON && !r->out_path) { /* null in its place: the later workers count it */
            sq_jw_null(&r->jw);
            cli_flush(&r->out, stdout);
        }
        return;
    }
    expand_count_verdicts(r, counts);
    size_t skip = (size_t)(nl + 1 - text);
    expand_emit(r, e->req.data, e->req.len, text + skip, e->out.len - skip);
    if (r->format == SQ_FMT_JSON && !r->out_path && r->jw.depth) r->jw.count[r->jw.depth - 1] = 1;
}

/* In this process, as a worker ends: its output kept, and every query
** whose turn has come written. */
static int query_done(void *ctx, size_t task, SqTaskEnd end, int detail, const char *out, size_t n) {
    ExpandRun *r = ctx;
    ExpandEnded *e = &r->ended[task];
    e->ready = 1;
    e->end = end;
    e->detail = detail;
    sq_buf_put(&e->out, out ? out : "", n);
    while (r->next_write < r->n_ended && r->ended[r->next_write].ready) {
        ExpandEnded *w = &r->ended[r->next_write++];
        write_query(r, w);
        sq_buf_free(&w->out);
        sq_buf_free(&w->req);
    }
    return 0;
}

void expand_jobs_start(ExpandRun *r) {
    if (r->pool.jobs > 1) r->workers = sq_pool_new(&r->pool, run_query, query_done, r);
}

void expand_jobs_submit(ExpandRun *r, const ExpandQuery *eq) {
    if (r->n_ended == r->cap_ended) {
        r->cap_ended = r->cap_ended ? 2 * r->cap_ended : 64;
        r->ended = sq_realloc(r->ended, r->cap_ended * sizeof *r->ended);
    }
    ExpandEnded *e = &r->ended[r->n_ended];
    memset(e, 0, sizeof *e);
    snprintf(e->sid, sizeof e->sid, "%s", eq->sid);
    if (r->out_path) { /* its requests go with its records */
        sq_buf_put(&e->req, r->req.data ? r->req.data : "", r->req.len);
        sq_buf_reset(&r->req);
    }
    r->cur = *eq;
    sq_pool_add(r->workers, r->n_ended++);
}

void expand_jobs_finish(ExpandRun *r) {
    if (!r->workers) return;
    sq_pool_finish(r->workers);
    r->workers = NULL;
    free(r->ended);
    r->ended = NULL;
}
