/*
** fuzz_check.c -- libFuzzer target: any bytes through what `squint check`
** and `squint ir` do with a statement: parse, bind against a fixed schema
** (tests/bind/schema.sql, loaded once), lower to IR, print the IR, run the
** rewriting passes and emit SQL (ir/ir_sql.c through backend/emit/sql.c).
**
** Built by tests/fuzz/run.sh with clang -fsanitize=fuzzer,address,undefined.
** Besides crashes, leaks and undefined behaviour, two properties abort:
**   1. the SQL emitted for a bound query loads again (parses, binds and
**      lowers against the same schema): squint must read what it writes;
**   2. when SQLite prepares the original statement on the schema, it
**      prepares the emitted SQL too: what squint writes is SQLite's SQL.
** Either failure prints the input, the emitted SQL and the reason.
*/
#include <sqlite3.h>

#include "backend/sqlite/db.h"
#include "backend/emit/emit.h"
#include "frontend/bind.h"
#include "grammar/parse.h"
#include "ir/ir.h"
#include "passes/pass.h"
#include "tests/fuzz/fuzz_util.h"

static FuzzSchema G;
static sqlite3 *G_db;          /* the schema in SQLite, for prepare only */
static SqBindOptions G_opt;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc, (void)argv;
    fuzz_schema_load(&G, "tests/bind/schema.sql");
    G_opt = sq_db_bind_options();
    if (sqlite3_open(":memory:", &G_db) != SQLITE_OK) abort();
    /* statement by statement: the schema holds views SQLite refuses */
    const char *tail = G.script;
    while (tail && *tail) {
        sqlite3_stmt *st = NULL;
        if (sqlite3_prepare_v2(G_db, tail, -1, &st, &tail) != SQLITE_OK) {
            /* skip to the next statement */
            const char *semi = strchr(tail, ';');
            tail = semi ? semi + 1 : NULL;
            continue;
        }
        if (st) sqlite3_step(st);
        sqlite3_finalize(st);
    }
    return 0;
}

/* Whether SQLite prepares sql as one statement (nothing but blanks after). */
static int sqlite_prepares(const char *sql, size_t len) {
    sqlite3_stmt *st = NULL;
    const char *tail = NULL;
    int ok = sqlite3_prepare_v2(G_db, sql, (int)len, &st, &tail) == SQLITE_OK && st;
    sqlite3_finalize(st);
    return ok;
}

static void fail(const char *sql, size_t len, const char *emitted, const char *why) {
    fprintf(stderr, "fuzz_check: %s\n  input:   %.*s\n  emitted: %s\n", why, (int)len, sql, emitted);
    abort();
}

/* Property 1 and 2 for one statement's emitted SQL. */
static void check_emitted(const char *sql, size_t len, const char *emitted) {
    SqSrc *src = sq_src_add_copy(&G.srcs, "<emitted>", emitted, strlen(emitted));
    SqArena *a = sq_arena_new();
    const char *why = NULL;
    size_t keep = G.diags.n;
    IrQuery *q = ir_load_query(a, src, G.cat, G.names, &G.diags, &G_opt, &why);
    if (!q) {
        char msg[512];
        snprintf(msg, sizeof msg, "the emitted SQL does not load: %s: %s", why ? why : "?",
                 G.diags.n > keep ? G.diags.items[G.diags.n - 1]->msg : "");
        fail(sql, len, emitted, msg);
    }
    SqBuf again = SQ_BUF_INIT;
    sq_emit_sqlite(q, &again);
    sq_buf_free(&again);
    sq_arena_free(a);
    if (sqlite_prepares(sql, len) && !sqlite_prepares(emitted, strlen(emitted)))
        fail(sql, len, emitted, sqlite3_errmsg(G_db));
}

/* Lower b, print its IR, emit it; then again after the rewriting passes. */
static void lower_and_emit(SqArena *a, const BndStmt *b, const char *sql, size_t len) {
    static const char *const passes[] = {"unnest", "joinelim", "joinelim-rewrite", "jqg"};
    SqBuf out = SQ_BUF_INIT;
    SqJsonWriter w;
    sq_jw_init(&w, &out, 0);
    for (int pass = 0; pass < 2; pass++) {
        IrQuery *q = ir_lower(a, b);
        if (!q || !q->root) break;
        if (pass) {
            SqPassCtx ctx;
            sq_pass_ctx_init(&ctx, a, G.cat, G.names, &G.diags);
            sq_pass_run(&ctx, q, passes, SQ_ARRAY_LEN(passes));
        }
        ir_print_text(q, &out);
        ir_print_json(q, &w);
        sq_buf_reset(&out);
        if (sq_emit_sqlite(q, &out)) check_emitted(sql, len, sq_buf_str(&out));
        sq_buf_reset(&out);
    }
    sq_buf_free(&out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    uint32_t keep_srcs = G.srcs.n;
    size_t keep_diags = G.diags.n;
    SqSrc *src = sq_src_add_copy(&G.srcs, "<fuzz>", (const char *)data, size);
    SqParser *p = sq_parser_new(src, G.names, &G.diags);
    SqArena *arena = sq_arena_new();
    SqParseResult r;
    SqParseStatus st;
    while ((st = sq_parser_next(p, arena, &r)) != SQ_PARSE_END) {
        if (st != SQ_PARSE_OK) continue;
        BndStmt *b = sq_bind_stmt(arena, G.cat, G.names, &G.diags, r.stmt, &G_opt);
        if (b && b->select) {
            const char *sql = src->text + r.stmt->span.start;
            lower_and_emit(arena, b, sql, r.stmt->span.end - r.stmt->span.start);
        }
        sq_arena_reset(arena);
    }
    fuzz_render_diags(&G.diags, keep_diags);
    sq_arena_free(arena);
    sq_parser_free(p);
    sq_diags_truncate(&G.diags, keep_diags);
    sq_srcset_truncate(&G.srcs, keep_srcs);
    return 0;
}
