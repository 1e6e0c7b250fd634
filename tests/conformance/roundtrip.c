/*
** roundtrip.c -- does the SQL squint emits run with the original's results?
**
** Test tool for `make conformance`.  For every Spider dev query (gold and
** every prediction file) that SQLite runs on its real database, squint
** parses, binds, lowers to IR and emits SQL (backend/emit/sql.c); the
** emitted SQL must run on the same database and give the same rows: in
** the same order when the query sorts at the top level (list semantics),
** as the same multiset otherwise (bag semantics).  Queries SQLite cannot
** run (errors, or over the time and row limits) are counted and skipped.
**
** Prints counts and exits 1 if any query differs; failures are listed by
** origin in the report file with both SQL texts and the first difference.
**
** With --passes NAME (repeatable) the passes rewrite the IR before it is
** emitted: the same test then checks every rewrite by execution.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/squint.h"
#include "backend/sqlite/db.h"
#include "backend/emit/emit.h"
#include "tests/conformance/corpus.h"

typedef struct DbEntry {
    char *db_id;
    SqDb *db;
    const Catalog *cat;
} DbEntry;

typedef struct Run {
    Corpus c;
    DbEntry *dbs;
    size_t n_dbs, cap_dbs;
    SqContext ctx;
    CorpusCatalogs catalogs;
    FILE *report;
    SqExecLimits lim;
    size_t queries, distinct, not_run, failed, same, listed;
    size_t not_run_error, not_run_limit; /* why SQLite did not run a query */
    size_t undecided; /* the emitted SQL timed out: no verdict */
    size_t show, shown; /* --show N: print the first N round trips */
    const char *passes[8]; /* --passes: run these before emitting */
    size_t n_passes;
    size_t rewritten;     /* queries the passes changed */
} Run;

static DbEntry *get_db(Run *r, const CorpusQuery *q) {
    const char *db_id = q->db_id;
    for (size_t i = 0; i < r->n_dbs; i++)
        if (strcmp(r->dbs[i].db_id, db_id) == 0) return &r->dbs[i];
    if (r->n_dbs == r->cap_dbs) {
        r->cap_dbs = r->cap_dbs ? 2 * r->cap_dbs : 32;
        r->dbs = sq_realloc(r->dbs, r->cap_dbs * sizeof *r->dbs);
    }
    DbEntry *e = &r->dbs[r->n_dbs++];
    char *path = corpus_spider_db(&r->c, db_id);
    e->db_id = sq_strdup(db_id);
    e->db = sq_db_open(path, NULL);
    e->cat = corpus_catalog(&r->catalogs, &r->c, q, &r->ctx);
    free(path);
    return e;
}

/* Whether the query's rows come out sorted: a SORT at the top of the
** root chain (under a LIMIT at most). */
static int sorted(const IrQuery *q) {
    const IrRel *r = q->root;
    if (r && r->kind == IR_LIMIT) r = r->input;
    return r && r->kind == IR_SORT;
}

/* What emit() asks of the first statement, and what it gets. */
typedef struct Emit {
    Run *r;
    int *ordered;
    char *sql;
} Emit;

/* The first statement only (the corpus holds one per query): its SQL
** after the passes. */
static int emit_first(void *ud, SqCompiled *s) {
    Emit *e = ud;
    if (s->status != SQ_COMPILE_OK) return 1;
    *e->ordered = sorted(s->ir); /* the original's order, before any pass */
    if (e->r->n_passes) {
        SqPassCtx pc; /* a pass that fails after a rewrite still counts it */
        sq_ctx_run_passes(&e->r->ctx, s->arena, s->cat, s->ir, e->r->passes, e->r->n_passes, &pc);
        if (pc.n_rewrites) e->r->rewritten++;
    }
    SqBuf b = SQ_BUF_INIT;
    if (sq_emit_sqlite(s->ir, &b)) e->sql = sq_buf_detach(&b);
    sq_buf_free(&b);
    return 1;
}

/* squint's SQL for the query, or NULL (reason in *why). */
static char *emit(Run *r, const DbEntry *d, const CorpusQuery *q, int *ordered, char *why,
                  size_t cap) {
    SqCtxMark m = sq_ctx_mark(&r->ctx);
    SqSrc *src = sq_src_add_copy(r->ctx.srcs, q->origin, q->sql, q->len);
    Emit e = {r, ordered, NULL};
    sq_ctx_compile_script(&r->ctx, src, d->cat, NULL, 0, emit_first, &e);
    const char *last = sq_ctx_last_message(&r->ctx, m);
    snprintf(why, cap, "%s", !e.sql && last ? last : "no statement");
    sq_ctx_rewind(&r->ctx, m);
    return e.sql;
}

static void fail(Run *r, const CorpusQuery *q, const char *sql, const char *what) {
    r->failed++;
    if (r->report)
        fprintf(r->report, "%s\t%s\n  original: %s\n  emitted:  %s\n", q->origin, what, q->sql,
                sql ? sql : "-");
    if (r->listed++ < 20) printf("roundtrip: %s: %s\n", q->origin, what);
}

/* Prediction files repeat many queries: each (database, text) is run once.
** Queries are visited in (db_id, sql) order and repeats skipped. */
static int by_db_and_text(const void *a, const void *b) {
    const CorpusQuery *x = *(const CorpusQuery *const *)a, *y = *(const CorpusQuery *const *)b;
    int c = strcmp(x->db_id, y->db_id);
    return c ? c : strcmp(x->sql, y->sql);
}

static void one_on(Run *r, const DbEntry *d, const CorpusQuery *q);

static void one(Run *r, const CorpusQuery *q) {
    r->distinct++;
    one_on(r, get_db(r, q), q);
}

/* Run q and its emitted SQL on d's database and compare. */
static void one_on(Run *r, const DbEntry *d, const CorpusQuery *q) {
    SqResult want, got;
    sq_result_init(&want);
    sq_result_init(&got);
    SqExecStatus st0 = d->db ? sq_db_query(d->db, q->sql, &r->lim, &want, NULL) : SQ_EXEC_ERROR;
    if (st0 != SQ_EXEC_OK) {
        r->not_run++;
        if (st0 == SQ_EXEC_TIMEOUT || st0 == SQ_EXEC_TOO_BIG) r->not_run_limit++;
        else r->not_run_error++;
        sq_result_free(&want);
        return;
    }
    char why[512];
    int ordered = 0;
    char *sql = emit(r, d, q, &ordered, why, sizeof why);
    if (!sql) {
        fail(r, q, NULL, why);
    } else {
        char *err = NULL;
        SqExecLimits lim = r->lim; /* a busy machine must not fail the test */
        lim.timeout_sec *= 5;
        SqExecStatus st = sq_db_query(d->db, sql, &lim, &got, &err);
        if (st == SQ_EXEC_TIMEOUT) {
            r->undecided++;
            printf("roundtrip: %s: emitted SQL timed out (%gs); not compared\n", q->origin,
                   lim.timeout_sec);
        } else if (st != SQ_EXEC_OK) {
            char msg[600];
            snprintf(msg, sizeof msg, "emitted SQL: %s: %s", sq_exec_status_name(st),
                     err ? err : "");
            fail(r, q, sql, msg);
        } else if (!sq_result_equal(&want, &got, ordered ? SQ_CMP_LIST : SQ_CMP_BAG, ordered)) {
            SqBuf b = SQ_BUF_INIT;
            sq_result_diff(&want, &got, ordered ? SQ_CMP_LIST : SQ_CMP_BAG, ordered, &b);
            fail(r, q, sql, sq_buf_str(&b));
            sq_buf_free(&b);
        } else {
            r->same++;
            if (r->show && r->shown < r->show) {
                r->shown++;
                printf("%s\n  original: %s\n  emitted:  %s\n", q->origin, q->sql, sql);
            }
        }
        free(err);
    }
    free(sql);
    sq_result_free(&want);
    sq_result_free(&got);
}

/* ------------------------------------------------------------------ */
/* Case files                                                          */
/* ------------------------------------------------------------------ */

/* --schema SCRIPT --cases FILE: SCRIPT creates and fills an in-memory
** database (its CREATE statements are also the catalog); each line of FILE
** is "rewrites | SQL" or "keeps | SQL": the passes must (or must not)
** rewrite the query, and the emitted SQL must give the original's rows.
** TAP output. */
static int run_cases(Run *r, const char *script_path, const char *cases_path) {
    size_t len;
    int err;
    char *script = sq_read_file(script_path, &len, &err);
    char *cases = script ? sq_read_file(cases_path, &len, &err) : NULL;
    char *dberr = NULL;
    SqDb *db = cases ? sq_db_open_memory(script, &dberr) : NULL;
    if (!db) {
        fprintf(stderr, "roundtrip: cannot set up %s / %s: %s\n", script_path, cases_path,
                dberr ? dberr : "unreadable");
        free(dberr);
        free(script);
        free(cases);
        return 2;
    }
    Catalog *cat = sq_ctx_load_ddl(&r->ctx, script_path, script, strlen(script));
    DbEntry d = {NULL, db, cat};
    size_t n = 0, bad = 0;
    int line_no = 0;
    for (char *line = strtok(cases, "\n"); line; line = strtok(NULL, "\n")) {
        line_no++;
        char *bar = strchr(line, '|');
        if (!line[0] || strncmp(line, "--", 2) == 0 || !bar) continue;
        int want_rewrite = strncmp(line, "rewrites", 8) == 0;
        char *sql = bar + 1;
        while (*sql == ' ') sql++;
        char origin[600];
        snprintf(origin, sizeof origin, "%s:%d", cases_path, line_no);
        CorpusQuery q;
        memset(&q, 0, sizeof q);
        q.origin = origin;
        q.sql = sql;
        q.len = strlen(sql);
        size_t rewritten = r->rewritten, failed = r->failed, same = r->same;
        one_on(r, &d, &q);
        int ok = r->same > same && r->failed == failed &&
                 (r->rewritten > rewritten) == want_rewrite;
        n++;
        bad += !ok;
        printf("%s %zu - %s\n", ok ? "ok" : "not ok", n, sql);
        if (!ok)
            printf("# %s: %s\n", origin, r->failed > failed ? "results differ (see above)"
                                      : r->same == same ? "not run"
                                      : want_rewrite ? "expected a rewrite" : "expected no rewrite");
    }
    printf("# roundtrip cases: %zu, %zu failed\n", n, bad);
    sq_db_close(db);
    free(script);
    free(cases);
    return bad ? 1 : 0;
}

int main(int argc, char **argv) {
    const char *report = NULL, *schema = NULL, *cases = NULL;
    size_t show = 0, n_passes = 0;
    const char *passes[8];
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--report") == 0 && i + 1 < argc) report = argv[++i];
        else if (strcmp(argv[i], "--show") == 0 && i + 1 < argc) show = (size_t)atol(argv[++i]);
        else if (strcmp(argv[i], "--passes") == 0 && i + 1 < argc && n_passes < 8)
            passes[n_passes++] = argv[++i];
        else if (strcmp(argv[i], "--schema") == 0 && i + 1 < argc) schema = argv[++i];
        else if (strcmp(argv[i], "--cases") == 0 && i + 1 < argc) cases = argv[++i];
        else {
            fprintf(stderr, "usage: roundtrip [--report FILE] [--show N] [--passes NAME]... "
                            "[--schema SCRIPT --cases FILE]\n");
            return 2;
        }
    }
    Run r;
    memset(&r, 0, sizeof r);
    r.show = show;
    for (size_t i = 0; i < n_passes; i++) {
        if (!sq_pass_find(passes[i])) {
            fprintf(stderr, "roundtrip: no pass named '%s'\n", passes[i]);
            return 2;
        }
        r.passes[r.n_passes++] = passes[i];
    }
    r.lim.timeout_sec = 2;
    r.lim.max_rows = 200000;
    if (schema || cases) {
        sq_ctx_init(&r.ctx);
        int status = schema && cases ? run_cases(&r, schema, cases) : 2;
        sq_ctx_free(&r.ctx);
        return status;
    }
    int rc = corpus_load(&r.c);
    if (rc == 0) {
        printf("roundtrip: no corpus (set SQUINT_CORPORA); skipped\n");
        return 0;
    }
    if (rc < 0) return 2;
    sq_ctx_init(&r.ctx);
    r.report = report ? fopen(report, "w") : NULL;
    for (size_t i = 0; i < r.c.n; i++) /* schemas first: their sources stay */
        if (r.c.q[i].set == CORPUS_SPIDER) get_db(&r, &r.c.q[i]);
    sq_diags_truncate(r.ctx.diags, 0);
    const CorpusQuery **order = sq_malloc((r.c.n + 1) * sizeof *order);
    size_t n = 0;
    for (size_t i = 0; i < r.c.n; i++)
        if (r.c.q[i].set == CORPUS_SPIDER) order[n++] = &r.c.q[i];
    qsort(order, n, sizeof *order, by_db_and_text);
    r.queries = n;
    for (size_t i = 0; i < n; i++)
        if (i == 0 || by_db_and_text(&order[i - 1], &order[i]) != 0) one(&r, order[i]);
    free(order);
    size_t run = r.distinct - r.not_run;
    if (r.n_passes) {
        printf("roundtrip: with passes");
        for (size_t i = 0; i < r.n_passes; i++) printf("%s %s", i ? "," : "", r.passes[i]);
        printf(": %zu distinct queries rewritten\n", r.rewritten);
    }
    printf("roundtrip spider: %zu queries, %zu distinct; %zu run by SQLite (skipped: %zu "
           "SQLite errors, %zu over %gs or %llu rows), %zu identical results (%.2f%%), %zu "
           "differ, %zu undecided (emitted SQL timed out)\n",
           r.queries, r.distinct, run, r.not_run_error, r.not_run_limit, r.lim.timeout_sec,
           (unsigned long long)r.lim.max_rows, r.same,
           run ? 100.0 * (double)r.same / (double)run : 100.0, r.failed, r.undecided);
    if (r.report) fclose(r.report);
    for (size_t i = 0; i < r.n_dbs; i++) {
        sq_db_close(r.dbs[i].db);
        free(r.dbs[i].db_id);
    }
    free(r.dbs);
    corpus_catalogs_free(&r.catalogs);
    sq_ctx_free(&r.ctx);
    corpus_free(&r.c);
    return r.failed ? 1 : 0;
}
