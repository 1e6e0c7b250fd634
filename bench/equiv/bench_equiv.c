/*
** bench_equiv.c -- time to a verdict of `squint equiv` on benchmark pairs:
** Spider dev gold against each prediction file, on Spider's schemas.
**
** For every pair whose prediction differs in text from the gold (equal
** texts need no solver) the benchmark runs the search (set semantics, the
** default bound 4 and a 10 s limit unless told otherwise) and, as the
** reference measured in the same run, SQLite running both queries on the
** real database: what an execution-based check costs.  Reports the
** median, p95 and mean time per pair, their ratio to the reference, the
** coverage (pairs whose verdict is not unknown), and the verdicts.
**
** Usage: bench_equiv [--pairs N] [--bound K] [--timeout S] [--slow S]
** (--pairs: the first N pairs in corpus order, default all; --slow: print
** each pair that takes longer than S seconds).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/squint.h"
#include "backend/equiv/equiv.h"
#include "backend/sqlite/db.h"
#include "tests/conformance/corpus.h"

typedef struct Bench {
    Corpus c;
    SqContext ctx;
    CorpusCatalogs catalogs;
    SqEquivOptions opt;
    size_t max_pairs;
    double slow;       /* print the pairs that take longer (seconds); 0: none */
    double *t_equiv, *t_exec;
    size_t n, cap, not_loaded, verdicts[SQ_VERDICT_COUNT];
} Bench;

/* The gold query of a prediction: same index in spider/dev.json. */
static const CorpusQuery *gold_of(const Bench *b, const CorpusQuery *p, const CorpusQuery **gold, size_t n_gold) {
    const char *hash = strrchr(p->origin, '#');
    size_t i = hash ? (size_t)strtoul(hash + 1, NULL, 10) : n_gold;
    (void)b;
    return i < n_gold ? gold[i] : NULL;
}

/* Both queries on the real database: the reference. */
static double exec_pair(const Bench *b, const CorpusQuery *g, const CorpusQuery *p) {
    char *path = corpus_spider_db(&b->c, g->db_id);
    SqDb *db = sq_db_open(path, NULL);
    free(path);
    if (!db) return 0;
    SqExecLimits lim = {0};
    lim.timeout_sec = 10;
    SqResult r;
    sq_result_init(&r);
    double t0 = sq_monotonic_seconds();
    sq_db_query(db, g->sql, &lim, &r, NULL);
    sq_db_query(db, p->sql, &lim, &r, NULL);
    double t = sq_monotonic_seconds() - t0;
    sq_result_free(&r);
    sq_db_close(db);
    return t;
}

static void pair(Bench *b, const CorpusQuery *g, const CorpusQuery *p) {
    SqCtxMark m = sq_ctx_mark(&b->ctx);
    SqArena *a = sq_arena_new();
    const Catalog *cat = corpus_catalog(&b->catalogs, &b->c, g, &b->ctx);
    SqCompileStatus st;
    IrQuery *q1 = cat ? sq_ctx_compile_text(&b->ctx, a, cat, g->origin, g->sql, g->len, &st) : NULL;
    IrQuery *q2 = q1 ? sq_ctx_compile_text(&b->ctx, a, cat, p->origin, p->sql, p->len, &st) : NULL;
    if (!q1 || !q2) {
        b->not_loaded++;
    } else {
        SqEquivResult v;
        double t0 = sq_monotonic_seconds();
        sq_ctx_equiv(&b->ctx, cat, q1, g->sql, q2, p->sql, &b->opt, &v);
        double t = sq_monotonic_seconds() - t0;
        b->verdicts[v.verdict]++;
        if (b->slow > 0 && t > b->slow)
            printf("bench equiv: slow %.1f s on %s: %s\n  gold: %s\n  pred: %s\n", t, p->origin,
                   sq_verdict_name(v.verdict), g->sql, p->sql);
        if (v.verdict == SQ_VERDICT_SPURIOUS) /* a bug of the encoding: show it */
            printf("bench equiv: spurious on %s (%s)\n  gold: %s\n  pred: %s\n", p->origin,
                   v.detail ? v.detail : "", g->sql, p->sql);
        sq_equiv_result_free(&v);
        if (b->n == b->cap) {
            b->cap = b->cap ? 2 * b->cap : 1024;
            b->t_equiv = sq_realloc(b->t_equiv, b->cap * sizeof *b->t_equiv);
            b->t_exec = sq_realloc(b->t_exec, b->cap * sizeof *b->t_exec);
        }
        b->t_equiv[b->n] = t;
        b->t_exec[b->n++] = exec_pair(b, g, p);
    }
    sq_arena_free(a);
    sq_ctx_rewind(&b->ctx, m);
}

static double mean(const double *v, size_t n) {
    double s = 0;
    for (size_t i = 0; i < n; i++) s += v[i];
    return n ? s / (double)n : 0;
}

static void report(Bench *b) {
    size_t n = b->n;
    if (!n) {
        printf("bench equiv: no pairs\n");
        return;
    }
    double m_equiv = mean(b->t_equiv, n), m_exec = mean(b->t_exec, n);
    qsort(b->t_equiv, n, sizeof *b->t_equiv, corpus_cmp_double);
    qsort(b->t_exec, n, sizeof *b->t_exec, corpus_cmp_double);
    size_t unknown = b->verdicts[SQ_VERDICT_UNSUPPORTED] + b->verdicts[SQ_VERDICT_TIMEOUT] +
                     b->verdicts[SQ_VERDICT_UNCONFIRMED] + b->verdicts[SQ_VERDICT_SPURIOUS];
    printf("bench equiv: Spider dev gold vs predictions, %zu pairs (bound %d, %.0f s limit, set semantics)\n", n,
           b->opt.bound, b->opt.timeout);
    printf("  time per pair      median %8.1f ms   p95 %8.1f ms   mean %8.1f ms\n", 1000 * b->t_equiv[n / 2],
           1000 * b->t_equiv[n * 95 / 100], 1000 * m_equiv);
    printf("  sqlite, both runs  median %8.1f ms   p95 %8.1f ms   mean %8.1f ms\n", 1000 * b->t_exec[n / 2],
           1000 * b->t_exec[n * 95 / 100], 1000 * m_exec);
    printf("  ratio of means (squint equiv / sqlite execution): %.1f\n", m_exec > 0 ? m_equiv / m_exec : 0);
    printf("  coverage (verdict not unknown): %.1f %% (goal: median <= 50 ms, coverage >= 99 %%)\n",
           100.0 * (double)(n - unknown) / (double)n);
    printf("  equivalent %zu, different %zu, different-under-ties %zu, column count %zu, unsupported %zu, "
           "timeout %zu, unconfirmed %zu, spurious %zu; %zu pairs not parsed or bound\n",
           b->verdicts[SQ_VERDICT_EQUIVALENT], b->verdicts[SQ_VERDICT_DIFFERENT],
           b->verdicts[SQ_VERDICT_DIFFERENT_TIES], b->verdicts[SQ_VERDICT_COLUMNS],
           b->verdicts[SQ_VERDICT_UNSUPPORTED], b->verdicts[SQ_VERDICT_TIMEOUT],
           b->verdicts[SQ_VERDICT_UNCONFIRMED], b->verdicts[SQ_VERDICT_SPURIOUS], b->not_loaded);
}

int main(int argc, char **argv) {
    Bench b;
    memset(&b, 0, sizeof b);
    b.opt = sq_equiv_options_default();
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--pairs") == 0) b.max_pairs = (size_t)atol(argv[i + 1]);
        else if (strcmp(argv[i], "--bound") == 0) b.opt.bound = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--timeout") == 0) b.opt.timeout = atof(argv[i + 1]);
        else if (strcmp(argv[i], "--slow") == 0) b.slow = atof(argv[i + 1]);
    }
    int loaded = corpus_load(&b.c);
    if (loaded <= 0) {
        printf("bench equiv: no corpus; skipped\n");
        return loaded < 0;
    }
    sq_ctx_init(&b.ctx);
    const CorpusQuery **gold = sq_calloc(b.c.n + 1, sizeof *gold);
    size_t n_gold = 0;
    for (size_t i = 0; i < b.c.n; i++)
        if (strncmp(b.c.q[i].origin, "spider/dev.json#", 16) == 0) gold[n_gold++] = &b.c.q[i];
    size_t seen = 0;
    for (size_t i = 0; i < b.c.n && (!b.max_pairs || seen < b.max_pairs); i++) {
        const CorpusQuery *p = &b.c.q[i];
        if (p->set != CORPUS_SPIDER || strncmp(p->origin, "spider/dev.json#", 16) == 0) continue;
        const CorpusQuery *g = gold_of(&b, p, gold, n_gold);
        if (!g || strcmp(g->sql, p->sql) == 0) continue;
        pair(&b, g, p);
        seen++;
    }
    report(&b);
    free(gold);
    free(b.t_equiv);
    free(b.t_exec);
    corpus_catalogs_free(&b.catalogs);
    sq_ctx_free(&b.ctx);
    corpus_free(&b.c);
    return 0;
}
