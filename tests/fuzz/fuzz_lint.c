/*
** fuzz_lint.c -- libFuzzer target: any bytes through what `squint lint
** --db` does with a statement: parse, bind against a fixed schema, lower,
** run every lint rule (passes/lint), then answer the data probes on a
** small database (backend/lint/lint_data.c).
**
** The schema and its rows are tests/golden/lint.fixture.sql, loaded once
** into the catalog and into an in-memory SQLite database.  Each statement
** the data rules run gets a quarter of a second (a recursive CTE that
** never ends must not stall the fuzzer); that is the only use of the
** clock, and it only cuts a run short.
**
** Built by tests/fuzz/run.sh with clang -fsanitize=fuzzer,address,undefined.
** The property is the robustness one: no crash, leak, hang or undefined
** behaviour on any input, and every finding renders in text and JSON.
*/
#include "backend/sqlite/db.h"
#include "backend/lint/lint_data.h"
#include "frontend/bind.h"
#include "grammar/parse.h"
#include "ir/ir.h"
#include "passes/lint/lint.h"
#include "tests/fuzz/fuzz_util.h"

static FuzzSchema G;
static SqDb *G_db;
static SqBindOptions G_opt;
static SqLintConfig G_rules;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc, (void)argv;
    fuzz_schema_load(&G, "tests/golden/lint.fixture.sql");
    char *err = NULL;
    G_db = sq_db_open_memory(G.script, &err);
    if (!G_db) {
        fprintf(stderr, "fuzz_lint: the fixture does not load: %s\n", err ? err : "?");
        abort();
    }
    G_opt = sq_db_bind_options();
    sq_lint_config_init(&G_rules);
    return 0;
}

/* Lint one bound query; with the data rules when with_data. */
static void lint_one(SqArena *a, const BndStmt *b, const SqSrc *src, const AstStmt *stmt, int with_data) {
    IrQuery *q = ir_lower(a, b);
    if (!q || !q->root) return;
    SqPassCtx pc;
    sq_pass_ctx_init(&pc, a, G.cat, G.names, &G.diags);
    SqLint l;
    sq_lint_init(&l, &pc, q, &G_rules, &G.srcs, with_data);
    sq_lint_query(&l);
    if (!with_data) return;
    const char *sql = sq_arena_strndup(a, src->text + stmt->span.start, stmt->span.end - stmt->span.start);
    SqLintDataOptions opt = {0.25};
    sq_lint_data(&l, G_db, sql, stmt->span, &opt);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) return 0;
    /* the first byte: schema rules only (even), or the data rules too (odd) */
    int with_data = data[0] & 1;
    uint32_t keep_srcs = G.srcs.n;
    size_t keep_diags = G.diags.n;
    SqSrc *src = sq_src_add_copy(&G.srcs, "<fuzz>", (const char *)data + 1, size - 1);
    SqParser *p = sq_parser_new(src, G.names, &G.diags);
    SqArena *arena = sq_arena_new();
    SqParseResult r;
    SqParseStatus st;
    while ((st = sq_parser_next(p, arena, &r)) != SQ_PARSE_END) {
        if (st != SQ_PARSE_OK) continue;
        BndStmt *b = sq_bind_stmt(arena, G.cat, G.names, &G.diags, r.stmt, &G_opt);
        if (b && b->select) lint_one(arena, b, src, r.stmt, with_data);
        sq_arena_reset(arena);
    }
    fuzz_render_diags(&G.diags, keep_diags);
    sq_arena_free(arena);
    sq_parser_free(p);
    sq_diags_truncate(&G.diags, keep_diags);
    sq_srcset_truncate(&G.srcs, keep_srcs);
    return 0;
}
