/*
** bench_parse.c -- squint's parser and binder against sqlite3_prepare_v2,
** same queries, same run.
**
** Benchmark (`make bench`).  Loads every corpus query (Spider, BIRD,
** Calcite pairs), then for R rounds times (a) squint parsing each query,
** (b) squint parsing and binding it against its schema's catalog, and (c)
** sqlite3_prepare_v2 on the query's database.  Each side's time is the best
** of its rounds, which filters out noise from a shared machine.  The
** results are ratios (squint / SQLite) and per-query microseconds.
** prepare_v2 parses, resolves names and generates bytecode, so parse+bind
** against it compares the front ends doing comparable work.
*/
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/squint.h"
#include "grammar/parse.h"
#include "runtime/util.h"
#include "tests/conformance/corpus.h"

typedef struct Bench {
    Corpus c;
    sqlite3 **dbs;      /* per query, borrowed from the cache */
    CorpusDbs cache;
    SqContext ctx;      /* one source per query first, made once */
    SqArena *arena;     /* the parse-only rounds' */
    Catalog **cats;     /* per query, borrowed from the catalog cache */
    CorpusCatalogs catalogs;
} Bench;

/* Parse every query once (the parser alone: the façade has no
** parse-only call); returns the number of statements parsed. */
static size_t parse_round(Bench *b) {
    size_t n = 0;
    SqCtxMark m = sq_ctx_mark(&b->ctx);
    for (size_t i = 0; i < b->c.n; i++) {
        SqParser *p = sq_parser_new(sq_src_get(b->ctx.srcs, (uint32_t)(i + 1)), b->ctx.names,
                                    b->ctx.diags);
        SqParseResult r;
        SqParseStatus st;
        while ((st = sq_parser_next(p, b->arena, &r)) != SQ_PARSE_END) n += st == SQ_PARSE_OK;
        sq_parser_free(p);
        sq_arena_reset(b->arena);
    }
    sq_ctx_rewind(&b->ctx, m);
    return n;
}

static int count_bound(void *ud, SqCompiled *s) {
    *(size_t *)ud += s->bound != NULL;
    return 0;
}

/* Parse and bind every query once; returns the number of statements
** bound. */
static size_t bind_round(Bench *b) {
    size_t n = 0;
    SqCtxMark m = sq_ctx_mark(&b->ctx);
    for (size_t i = 0; i < b->c.n; i++)
        sq_ctx_compile_script(&b->ctx, sq_src_get(b->ctx.srcs, (uint32_t)(i + 1)), b->cats[i], NULL,
                              SQ_SCRIPT_NO_LOWER, count_bound, &n);
    sq_ctx_rewind(&b->ctx, m);
    return n;
}

static size_t sqlite_round(Bench *b) {
    size_t n = 0;
    for (size_t i = 0; i < b->c.n; i++) {
        const char *tail = b->c.q[i].sql;
        while (tail && *tail) {
            sqlite3_stmt *st = NULL;
            const char *next = NULL;
            if (sqlite3_prepare_v2(b->dbs[i], tail, -1, &st, &next) == SQLITE_OK && st) n++;
            sqlite3_finalize(st);
            if (!next || next == tail) break;
            tail = next;
        }
    }
    return n;
}

int main(int argc, char **argv) {
    int rounds = argc > 1 ? atoi(argv[1]) : 5;
    if (rounds < 1) rounds = 1;
    Bench b;
    memset(&b, 0, sizeof b);
    int lr = corpus_load(&b.c);
    if (lr <= 0) {
        printf("bench parse: no corpus at %s; skipped\n", b.c.root);
        corpus_free(&b.c);
        return 0;
    }
    b.dbs = sq_malloc(b.c.n * sizeof *b.dbs);
    sq_ctx_init(&b.ctx);
    for (size_t i = 0; i < b.c.n; i++) {
        b.dbs[i] = corpus_db(&b.cache, &b.c, &b.c.q[i]);
        sq_src_add_copy(b.ctx.srcs, b.c.q[i].origin, b.c.q[i].sql, b.c.q[i].len);
    }
    b.arena = sq_arena_new();
    b.cats = sq_malloc(b.c.n * sizeof *b.cats);
    for (size_t i = 0; i < b.c.n; i++)
        b.cats[i] = corpus_catalog(&b.catalogs, &b.c, &b.c.q[i], &b.ctx);
    sq_diags_truncate(b.ctx.diags, 0); /* the schemas' */
    double best_sq = 1e30, best_bind = 1e30, best_lite = 1e30;
    size_t n_sq = 0, n_bind = 0, n_lite = 0;
    for (int r = 0; r < rounds; r++) {
        double t0 = sq_monotonic_seconds();
        n_sq = parse_round(&b);
        double t1 = sq_monotonic_seconds();
        n_bind = bind_round(&b);
        double t2 = sq_monotonic_seconds();
        n_lite = sqlite_round(&b);
        double t3 = sq_monotonic_seconds();
        if (t1 - t0 < best_sq) best_sq = t1 - t0;
        if (t2 - t1 < best_bind) best_bind = t2 - t1;
        if (t3 - t2 < best_lite) best_lite = t3 - t2;
    }
    double n = (double)b.c.n;
    printf("bench parse: %zu queries, best of %d rounds (SQLite %s)\n", b.c.n, rounds,
           sqlite3_libversion());
    printf("  squint parse           %8.2f us/query  (%zu statements parsed)\n",
           best_sq / n * 1e6, n_sq);
    printf("  squint parse+bind      %8.2f us/query  (%zu statements bound)\n",
           best_bind / n * 1e6, n_bind);
    printf("  sqlite3_prepare_v2     %8.2f us/query  (%zu statements prepared)\n",
           best_lite / n * 1e6, n_lite);
    printf("  ratio parse/prepare        %8.3f\n", best_sq / best_lite);
    printf("  ratio parse+bind/prepare   %8.3f  (goal <= 1.0)\n", best_bind / best_lite);
    corpus_catalogs_free(&b.catalogs);
    free(b.cats);
    sq_arena_free(b.arena);
    sq_ctx_free(&b.ctx);
    corpus_dbs_close(&b.cache);
    free(b.dbs);
    corpus_free(&b.c);
    return 0;
}
