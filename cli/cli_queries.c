/*
** cli_queries.c -- the query loop `ir`, `opt` and `graph` share.
**
** Layer: cli.  Reads the FILEs and resolves each item's schema; the
** parse -> bind -> lower of each statement is the library's
** (sq_ctx_compile_script, api/squint.h).
*/
#include "cli/cli_queries.h"

#include <stdio.h>
#include <string.h>

#include "backend/emit/emit.h"

const char cli_queries_help[] =
    "      --input-format F   auto (default), sql, spider, bird, tsv, bird-pred,\n"
    "                         lines (as for 'squint check')\n"
    "      --db-id-from FILE  take each item's db_id from the item at the same\n"
    "                         position in FILE (a gold file); plain text FILEs are\n"
    "                         then read as one SQL per line\n"
    "      --color WHEN       color diagnostics on stderr: auto (default), always,\n"
    "                         never\n"
    "      --stdin-filename NAME  the name of the text read from '-' (standard\n"
    "                         input) in every message and output, for editors\n";

void cli_queries_init(CliQueries *cq, const char *cmd) {
    memset(cq, 0, sizeof *cq);
    cq->cmd = cmd;
    cq->color = -1;
    cli_schema_init(&cq->schema, cmd);
}

typedef struct OwnChain {
    CliQueries *cq;
    CliOwnOptionFn own;
    void *ctx;
} OwnChain;

/* --input-format and --color, then the command's own options. */
static int shared_option(void *arg, const char *name, const char *val) {
    OwnChain *oc = arg;
    CliQueries *cq = oc->cq;
    if (strcmp(name, "input-format") == 0) {
        if (sq_input_format_parse(val, &cq->input_format)) return -1;
        fprintf(stderr, "squint %s: unknown input format '%s' (use auto, sql, spider, bird, "
                        "tsv, bird-pred or lines)\n", cq->cmd, val);
        return SQ_EXIT_USAGE;
    }
    if (strcmp(name, "db-id-from") == 0) {
        cq->db_id_from = val;
        return -1;
    }
    if (strcmp(name, "stdin-filename") == 0) {
        cq->stdin_name = val;
        return -1;
    }
    if (strcmp(name, "color") == 0) {
        if (cli_color_setting(val, &cq->color)) return -1;
        fprintf(stderr, "squint %s: --color takes auto, always or never\n", cq->cmd);
        return SQ_EXIT_USAGE;
    }
    return oc->own(oc->ctx, name, val);
}

void cli_queries_usage(FILE *f, const char *head, const char *tail) {
    fputs(head, f);
    fputs(cli_queries_help, f);
    fputs("\nschema (one is required):\n", f);
    fputs(cli_schema_help, f);
    fputs(tail, f);
}

int cli_queries_read_options(CliQueries *cq, CliArgs *a, const CliOpt *opts, CliOwnOptionFn own,
                             void *ctx) {
    OwnChain oc = {cq, own, ctx};
    const char *name, *val;
    while ((name = cli_next_opt(a, opts, &val)) != NULL) {
        int handled = cli_schema_option(&cq->schema, name, val);
        if (handled < 0) return SQ_EXIT_USAGE;
        if (handled) continue;
        int rc = shared_option(&oc, name, val);
        if (rc >= 0) return rc;
    }
    if (a->i >= a->argc && !cq->operands_optional) {
        fprintf(stderr, "squint %s: no input FILE\n", cq->cmd);
        return cli_usage_hint(cq->cmd);
    }
    if (!cli_schema_given(&cq->schema)) {
        fprintf(stderr, "squint %s: a schema is needed (--schema, --db, --db-root or --tables)\n",
                cq->cmd);
        return cli_usage_hint(cq->cmd);
    }
    return -1;
}

int cli_queries_start(CliQueries *cq) {
    if (cq->color < 0) cq->color = cli_stderr_color_default();
    sq_srcset_init(&cq->srcs);
    cq->srcs.stdin_name = cq->stdin_name;
    sq_diags_init(&cq->diags, &cq->srcs);
    cq->names = sq_interner_new();
    if (cli_schema_start(&cq->schema, &cq->srcs, cq->names, &cq->diags) < 0) return -1;
    if (cq->db_id_from && cli_read_db_id_source(cq->cmd, cq->db_id_from, &cq->srcs, &cq->diags,
                                                &cq->from_arena, &cq->from) >= 0)
        return -1;
    return 0;
}

int cli_read_db_id_source(const char *cmd, const char *path, SqSrcSet *srcs, SqDiags *diags,
                          SqArena **arena, SqBench *from) {
    int err;
    SqSrc *src = sq_src_add_file(srcs, path, &err);
    if (!src) {
        cli_io_error(cmd, path, err);
        return SQ_EXIT_USAGE;
    }
    *arena = sq_arena_new();
    if (sq_bench_read(from, *arena, srcs, src, SQ_INPUT_AUTO, diags) < 0) return SQ_EXIT_USAGE;
    if (from->format == SQ_INPUT_SQL || from->format == SQ_INPUT_LINES) {
        fprintf(stderr, "squint %s: --db-id-from '%s' holds no db_ids (give a Spider or BIRD "
                "dev.json, SQL<TAB>db_id lines or BIRD predictions)\n", cmd, path);
        return SQ_EXIT_USAGE;
    }
    return -1;
}

SqInputFormat cli_file_format(SqInputFormat given, int has_db_id_source) {
    return given == SQ_INPUT_AUTO && has_db_id_source ? SQ_INPUT_AUTO_LINES : given;
}

int cli_queries_finish(CliQueries *cq) {
    cli_print_diags_text(&cq->diags, 0, cq->color);
    if (cq->input_failed || cq->schema.n_failures || sq_diags_have_input_problem(&cq->diags)) return SQ_EXIT_USAGE;
    return cq->diags.n_errors ? SQ_EXIT_FINDINGS : SQ_EXIT_OK;
}

void cli_queries_free(CliQueries *cq) {
    cli_schema_free(&cq->schema);
    if (cq->from_arena) sq_arena_free(cq->from_arena);
    if (!cq->names) return; /* never started */
    sq_interner_free(cq->names);
    sq_diags_free(&cq->diags);
    sq_srcset_free(&cq->srcs);
}

static SrcSpan db_id_site(const SqBenchItem *it) {
    if (it->db_id_span.file) return it->db_id_span;
    return sq_span(it->span.file, it->span.start, it->span.start);
}

/* One script's walk: the item, the command's callback. */
typedef struct ItemWalk {
    CliQueries *cq;
    const SqBenchItem *it;
    CliQueryFn fn;
    void *ctx;
} ItemWalk;

static const Catalog *item_schema(void *ud) {
    ItemWalk *w = ud;
    return cli_schema_resolve(&w->cq->schema, w->it->db_id, db_id_site(w->it));
}

static int each_compiled(void *ud, SqCompiled *s) {
    ItemWalk *w = ud;
    w->cq->n_stmts++;
    if (s->status != SQ_COMPILE_OK) return 0;
    CliQuery q = {w->it, s->stmt, s->cat, s->ir, s->arena,
                  sq_src_locate(w->it->sql, s->stmt->span.start)};
    w->cq->n_queries++;
    w->fn(w->ctx, &q);
    return 0;
}

static void each_statement(CliQueries *cq, const SqBenchItem *it, CliQueryFn fn, void *ctx) {
    ItemWalk w = {cq, it, fn, ctx};
    sq_ctx_compile_script(&cq->schema.ctx, it->sql, NULL, item_schema, 0, each_compiled, &w);
}

void cli_queries_file(CliQueries *cq, const char *path, CliQueryFn fn, void *ctx) {
    int err;
    SqSrc *src = sq_src_add_file(&cq->srcs, path, &err);
    if (!src) {
        cli_io_error(cq->cmd, path, err);
        cq->input_failed = 1;
        return;
    }
    SqArena *items = sq_arena_new();
    SqBench b;
    if (sq_bench_read(&b, items, &cq->srcs, src, cli_file_format(cq->input_format, cq->from_arena != NULL),
                      &cq->diags) < 0)
        cq->input_failed = 1;
    if (cq->from_arena) sq_bench_take_db_ids(&b, &cq->from, &cq->diags);
    cq->n_items += b.n_items;
    for (uint32_t i = 0; i < b.n_items; i++) each_statement(cq, &b.items[i], fn, ctx);
    sq_arena_free(items);
}

void cli_query_json_head(SqJsonWriter *w, const CliQueries *cq, const CliQuery *q, const char *sql) {
    sq_json_span_members(w, &cq->srcs, q->stmt->span);
    sq_jw_key(w, "db_id");
    if (q->item && q->item->db_id) sq_jw_str(w, q->item->db_id);
    else sq_jw_null(w);
    sq_jw_key(w, "question_id");
    if (q->item && q->item->qid >= 0) sq_jw_int(w, q->item->qid);
    else sq_jw_null(w);
    sq_jw_key(w, "sql");
    if (sql) {
        sq_jw_str(w, sql);
        return;
    }
    SqBuf b = SQ_BUF_INIT;
    sq_emit_sqlite(q->ir, &b);
    sq_jw_str(w, sq_buf_str(&b));
    sq_buf_free(&b);
}

void cli_query_item_id(SqBuf *b, const char *prefix, const CliQuery *q) {
    const SqBenchItem *it = q->item;
    if (it->qid >= 0) sq_buf_printf(b, "%s/qid-%lld", prefix, (long long)it->qid);
    else if (!it->label) sq_buf_printf(b, "%s/line-%u", prefix, q->pos.line);
    else if (strncmp(it->label, "line ", 5) == 0) sq_buf_printf(b, "%s/line-%u", prefix, it->index + 1);
    else sq_buf_printf(b, "%s/item-%u", prefix, it->index);
}

const char *cli_query_source_id(const CliQuery *q, uint64_t n, char buf[32]) {
    if (q->item && q->item->qid >= 0) snprintf(buf, 32, "%lld", (long long)q->item->qid);
    else snprintf(buf, 32, "%llu", (unsigned long long)n);
    return buf;
}

void cli_query_where(SqBuf *b, const CliQuery *q) {
    sq_buf_printf(b, "%s:%u:%u", q->pos.file->name, q->pos.line, q->pos.col);
    if (q->item && q->item->label) sq_buf_printf(b, " (%s)", q->item->label);
}
