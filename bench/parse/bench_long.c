/*
** bench_long.c -- long tokens and long statements: squint against
** sqlite3_prepare_v2, same text, same run.
**
** Benchmark (`make bench`).  Builds statements with one long token (a 1 MB
** and a 4 MB identifier, a 4 MB quoted name, string and comment) and long
** lists (an IN list of 100,000 numbers, 60,000 VALUES rows), then
** for R rounds times squint parsing and binding each against the schema
** t(x, name) and sqlite3_prepare_v2 preparing it on the same schema.  Each
** side's time is the best of its rounds.  The ratio (squint / SQLite) is
** what matters: it stays flat from 1 MB to 4 MB when both are linear (it
** grew fourfold when squint's lexer was quadratic).  Needs no corpus.
*/
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/squint.h"
#include "runtime/strbuf.h"
#include "runtime/util.h"

static const char schema[] = "CREATE TABLE t(x INTEGER, name TEXT);";

/* Everything both sides need, made once. */
typedef struct Bench {
    sqlite3 *db;
    SqContext ctx;
    const Catalog *cat;
} Bench;

static void bench_open(Bench *b) {
    memset(b, 0, sizeof *b);
    if (sqlite3_open(":memory:", &b->db) != SQLITE_OK ||
        sqlite3_exec(b->db, schema, NULL, NULL, NULL) != SQLITE_OK) {
        fprintf(stderr, "bench long: cannot create the schema in SQLite\n");
        exit(2);
    }
    sq_ctx_init(&b->ctx);
    b->ctx.bind_opt = (SqBindOptions){0, 0}; /* stock SQLite, as this bench has always bound */
    b->cat = sq_ctx_load_ddl(&b->ctx, "schema.sql", schema, strlen(schema));
}

static void bench_close(Bench *b) {
    sq_ctx_free(&b->ctx);
    sqlite3_close(b->db);
}

/* The first statement only: whether it bound. */
static int first_bound(void *ud, SqCompiled *s) {
    *(int *)ud = s->bound != NULL;
    return 1;
}

/* Parse and bind src once; 1 when it bound. */
static int squint_once(Bench *b, const SqSrc *src) {
    int ok = 0;
    sq_ctx_compile_script(&b->ctx, src, b->cat, NULL, SQ_SCRIPT_NO_LOWER, first_bound, &ok);
    return ok;
}

static int sqlite_once(Bench *b, const SqBuf *sql) {
    sqlite3_stmt *st = NULL;
    int ok = sqlite3_prepare_v2(b->db, sql->data, (int)sql->len, &st, NULL) == SQLITE_OK;
    sqlite3_finalize(st);
    return ok;
}

/* Time one statement on both sides; prints a line. */
static void run_case(Bench *b, const char *what, SqBuf *sql, int rounds) {
    const SqSrc *src = sq_src_add_copy(b->ctx.srcs, what, sql->data, sql->len);
    double best_sq = 1e30, best_lite = 1e30;
    int ok_sq = 0, ok_lite = 0;
    for (int r = 0; r < rounds; r++) {
        double t0 = sq_monotonic_seconds();
        ok_sq = squint_once(b, src);
        double t1 = sq_monotonic_seconds();
        ok_lite = sqlite_once(b, sql);
        double t2 = sq_monotonic_seconds();
        if (t1 - t0 < best_sq) best_sq = t1 - t0;
        if (t2 - t1 < best_lite) best_lite = t2 - t1;
    }
    printf("  %-28s %5.1f MB  squint %8.2f ms  sqlite %8.2f ms  ratio %6.2f%s\n", what,
           (double)sql->len / (1 << 20), best_sq * 1e3, best_lite * 1e3, best_sq / best_lite,
           ok_sq && ok_lite ? "" : "  (a side rejected it)");
    sq_buf_free(sql);
}

/* "SELECT <open><n bytes of a><close> FROM t" */
static SqBuf one_token(const char *open, size_t n, const char *close) {
    SqBuf b = SQ_BUF_INIT;
    sq_buf_puts(&b, "SELECT ");
    sq_buf_puts(&b, open);
    sq_buf_repeat(&b, 'a', n);
    sq_buf_puts(&b, close);
    sq_buf_puts(&b, " FROM t");
    return b;
}

static SqBuf in_list(void) {
    SqBuf b = SQ_BUF_INIT;
    sq_buf_puts(&b, "SELECT x FROM t WHERE x IN (");
    for (int i = 0; i < 100000; i++) sq_buf_printf(&b, "%s%d", i ? ", " : "", 100000 + i);
    sq_buf_puts(&b, ")");
    return b;
}

static SqBuf values_rows(void) {
    SqBuf b = SQ_BUF_INIT;
    sq_buf_puts(&b, "VALUES ");
    for (int i = 0; i < 60000; i++) sq_buf_printf(&b, "%s(%d, 'v%d')", i ? ", " : "", i, i);
    return b;
}

int main(int argc, char **argv) {
    int rounds = argc > 1 ? atoi(argv[1]) : 5;
    if (rounds < 1) rounds = 1;
    Bench b;
    bench_open(&b);
    printf("bench long: parse+bind against sqlite3_prepare_v2, best of %d rounds (SQLite %s)\n",
           rounds, sqlite3_libversion());
    SqBuf s;
    s = one_token("1 AS ", 1 << 20, ""), run_case(&b, "1 MB identifier (alias)", &s, rounds);
    s = one_token("1 AS ", 4 << 20, ""), run_case(&b, "4 MB identifier (alias)", &s, rounds);
    s = one_token("1 AS \"", 4 << 20, "\""), run_case(&b, "4 MB quoted identifier", &s, rounds);
    s = one_token("'", 4 << 20, "'"), run_case(&b, "4 MB string literal", &s, rounds);
    s = one_token("1 /* ", 4 << 20, " */"), run_case(&b, "4 MB block comment", &s, rounds);
    s = in_list(), run_case(&b, "IN list, 100,000 numbers", &s, rounds);
    s = values_rows(), run_case(&b, "VALUES, 60,000 rows", &s, rounds);
    bench_close(&b);
    return 0;
}
