/*
** bench_lint.c -- `squint lint`'s schema rules against sqlite3_prepare_v2,
** on the same gold queries, in the same run.
**
** Benchmark (`make bench`).  Takes the gold queries of Spider dev and BIRD
** dev from the corpus, then for R rounds times (a) squint parsing,
** binding, lowering and linting each query with every schema rule
** (passes/lint), and (b) sqlite3_prepare_v2 on the query's database (BIRD:
** its schema in memory).  Each side's time is the best of its rounds.
** Reports the ratio lint / prepare and the findings per round (the same
** every round: a check that the work was done).
*/
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/squint.h"
#include "passes/lint/lint.h"
#include "runtime/util.h"
#include "tests/conformance/corpus.h"

typedef struct Gold {
    const CorpusQuery *q;
    sqlite3 *db;        /* borrowed from the cache */
    Catalog *cat;       /* borrowed from the catalog cache */
    uint32_t src;       /* its source id */
} Gold;

typedef struct Bench {
    Corpus c;
    Gold *gold;
    size_t n;
    CorpusDbs dbs;
    CorpusCatalogs cats;
    SqContext ctx;      /* the queries' sources first, then one round's diagnostics */
    SqLintConfig cfg;
} Bench;

static int is_gold(const CorpusQuery *q) {
    return strncmp(q->origin, "spider/dev.json#", 16) == 0 ||
           strncmp(q->origin, "bird/dev.json#", 14) == 0;
}

/* Lint one statement of a gold query when it is a query. */
static int lint_stmt(void *ud, SqCompiled *s) {
    Bench *b = ud;
    if (s->status != SQ_COMPILE_OK) return 0;
    SqPassCtx pc;
    sq_pass_ctx_init(&pc, s->arena, s->cat, b->ctx.names, b->ctx.diags);
    SqLint l;
    sq_lint_init(&l, &pc, s->ir, &b->cfg, b->ctx.srcs, 0);
    sq_lint_query(&l);
    return 0;
}

/* Lint every gold query once; returns the findings. */
static size_t lint_round(Bench *b) {
    SqCtxMark m = sq_ctx_mark(&b->ctx);
    for (size_t i = 0; i < b->n; i++) {
        const Gold *g = &b->gold[i];
        sq_ctx_compile_script(&b->ctx, sq_src_get(b->ctx.srcs, g->src), g->cat, NULL, 0, lint_stmt, b);
    }
    size_t n = b->ctx.diags->n - m.n_diags;
    sq_ctx_rewind(&b->ctx, m);
    return n;
}

static size_t prepare_round(Bench *b) {
    size_t n = 0;
    for (size_t i = 0; i < b->n; i++) {
        sqlite3_stmt *st = NULL;
        if (sqlite3_prepare_v2(b->gold[i].db, b->gold[i].q->sql, -1, &st, NULL) == SQLITE_OK && st)
            n++;
        sqlite3_finalize(st);
    }
    return n;
}

static void setup(Bench *b) {
    b->gold = sq_malloc(b->c.n * sizeof *b->gold);
    sq_ctx_init(&b->ctx);
    sq_lint_config_init(&b->cfg);
    for (size_t i = 0; i < b->c.n; i++) {
        const CorpusQuery *q = &b->c.q[i];
        if (!is_gold(q)) continue;
        Gold *g = &b->gold[b->n++];
        g->q = q;
        g->db = corpus_db(&b->dbs, &b->c, q);
        g->src = sq_src_add_copy(b->ctx.srcs, q->origin, q->sql, q->len)->id;
        g->cat = corpus_catalog(&b->cats, &b->c, q, &b->ctx);
    }
    sq_diags_truncate(b->ctx.diags, 0); /* the schemas' */
}

static void teardown(Bench *b) {
    corpus_catalogs_free(&b->cats);
    sq_ctx_free(&b->ctx);
    corpus_dbs_close(&b->dbs);
    free(b->gold);
    corpus_free(&b->c);
}

int main(int argc, char **argv) {
    int rounds = argc > 1 ? atoi(argv[1]) : 5;
    if (rounds < 1) rounds = 1;
    Bench b;
    memset(&b, 0, sizeof b);
    if (corpus_load(&b.c) <= 0) {
        printf("bench lint: no corpus at %s; skipped\n", b.c.root);
        corpus_free(&b.c);
        return 0;
    }
    setup(&b);
    double best_lint = 1e30, best_prep = 1e30;
    size_t findings = 0, prepared = 0;
    for (int r = 0; r < rounds; r++) {
        double t0 = sq_monotonic_seconds();
        findings = lint_round(&b);
        double t1 = sq_monotonic_seconds();
        prepared = prepare_round(&b);
        double t2 = sq_monotonic_seconds();
        if (t1 - t0 < best_lint) best_lint = t1 - t0;
        if (t2 - t1 < best_prep) best_prep = t2 - t1;
    }
    printf("bench lint: %zu gold queries (Spider dev, BIRD dev), best of %d rounds\n", b.n, rounds);
    printf("  squint parse+bind+lint %8.2f us/query  %7.3f s in all  (%zu diagnostics)\n",
           best_lint / (double)b.n * 1e6, best_lint, findings);
    printf("  sqlite3_prepare_v2     %8.2f us/query  %7.3f s in all  (%zu prepared)\n",
           best_prep / (double)b.n * 1e6, best_prep, prepared);
    printf("  ratio lint/prepare         %8.3f\n", best_lint / best_prep);
    teardown(&b);
    return 0;
}
