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

#include "backend/sqlite/db.h"
#include "frontend/bind.h"
#include "grammar/parse.h"
#include "runtime/util.h"
#include "tests/conformance/corpus.h"

typedef struct Bench {
    Corpus c;
    sqlite3 **dbs;      /* per query, borrowed from the cache */
    CorpusDbs cache;
    SqSrcSet srcs;      /* one source per query, made once */
    SqInterner *names;
    SqArena *arena;
    Catalog **cats;     /* per query, borrowed from the catalog cache */
    CorpusCatalogs catalogs;
    SqBindOptions bind_opt;
} Bench;

/* Parse (and with bind, bind) every query once; returns the number of
** statements parsed (bound). */
static size_t squint_round(Bench *b, int bind) {
    size_t n = 0;
    SqDiags diags;
    sq_diags_init(&diags, &b->srcs);
    for (size_t i = 0; i < b->c.n; i++) {
        SqParser *p = sq_parser_new(sq_src_get(&b->srcs, (uint32_t)(i + 1)),
                                    b->names, &diags);
        SqParseResult r;
        SqParseStatus st;
        while ((st = sq_parser_next(p, b->arena, &r)) != SQ_PARSE_END) {
            if (st != SQ_PARSE_OK) continue;
            n += !bind || sq_bind_stmt(b->arena, b->cats[i], b->names, &diags, r.stmt,
                                       &b->bind_opt) != NULL;
        }
        sq_parser_free(p);
        sq_arena_reset(b->arena);
    }
    sq_diags_free(&diags);
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
    sq_srcset_init(&b.srcs);
    for (size_t i = 0; i < b.c.n; i++) {
        b.dbs[i] = corpus_db(&b.cache, &b.c, &b.c.q[i]);
        sq_src_add_copy(&b.srcs, b.c.q[i].origin, b.c.q[i].sql, b.c.q[i].len);
    }
    b.names = sq_interner_new();
    b.arena = sq_arena_new();
    b.bind_opt = sq_db_bind_options();
    b.cats = sq_malloc(b.c.n * sizeof *b.cats);
    SqDiags load_diags;
    sq_diags_init(&load_diags, &b.srcs);
    for (size_t i = 0; i < b.c.n; i++)
        b.cats[i] = corpus_catalog(&b.catalogs, &b.c, &b.c.q[i], &b.srcs, b.names, &load_diags);
    sq_diags_free(&load_diags);
    double best_sq = 1e30, best_bind = 1e30, best_lite = 1e30;
    size_t n_sq = 0, n_bind = 0, n_lite = 0;
    for (int r = 0; r < rounds; r++) {
        double t0 = sq_monotonic_seconds();
        n_sq = squint_round(&b, 0);
        double t1 = sq_monotonic_seconds();
        n_bind = squint_round(&b, 1);
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
    sq_interner_free(b.names);
    sq_srcset_free(&b.srcs);
    corpus_dbs_close(&b.cache);
    free(b.dbs);
    corpus_free(&b.c);
    return 0;
}
