/*
** cmd_ir.c -- `squint ir`: print the relational IR of each query.
**
** Layer: cli.  Every statement of every item of every FILE (a SQL script or
** a benchmark file, as `check` reads them) is parsed, bound against the
** item's schema and lowered to IR, then printed as an indented tree
** (text), as JSON, or as the SQLite SQL the backend emits from the IR
** (sql).  The output is stable, for golden tests.  Diagnostics go to
** standard error; a statement with an error prints nothing.
*/
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../backend/sqlite/db.h"
#include "../backend/sqlite/emit.h"
#include "../frontend/bench_input.h"
#include "../frontend/bind.h"
#include "../grammar/parse.h"
#include "../ir/ir.h"
#include "cli.h"
#include "cli_schema.h"

static const char usage_head[] =
    "usage: squint ir [options] FILE...\n"
    "\n"
    "Print the relational IR of every SELECT in FILE (a SQL script or a benchmark\n"
    "file, as 'squint check' reads them; '-' is standard input), bound against\n"
    "the schema.  Statements without a query (DDL, PRAGMA, ...) print nothing.\n"
    "\n"
    "options:\n"
    "  -f, --format FMT       text (default): an indented operator tree with the\n"
    "                         type of every column; json: the same as JSON; sql:\n"
    "                         the SQLite SQL the backend emits from the IR\n"
    "      --input-format F   as for 'squint check' (auto, sql, spider, bird, tsv,\n"
    "                         bird-pred, lines)\n"
    "      --color WHEN       color diagnostics on stderr: auto, always, never\n"
    "  -h, --help             show this help\n"
    "\n"
    "schema (one is required):\n";

static const char usage_tail[] =
    "\n"
    "exit status: 0 every statement printed, 1 a statement has errors, 2 usage\n"
    "error, unreadable input or schema\n";

typedef enum IrFormat { IRF_TEXT, IRF_JSON, IRF_SQL } IrFormat;

typedef struct IrRun {
    IrFormat format;
    int color;
    SqInputFormat input_format;
    CliSchema schema;
    SqSrcSet srcs;
    SqInterner *names;
    SqDiags diags;
    SqBindOptions bind_opt;
    SqBuf out;
    SqJsonWriter jw;
    size_t n_printed;
    int input_failed;
} IrRun;

static const CliOpt ir_opts[] = {
    {"format", 'f', 1}, {"input-format", 0, 1}, {"color", 0, 1}, {"help", 'h', 0},
    CLI_SCHEMA_OPTIONS, {NULL, 0, 0}};

static void print_usage(FILE *f) { cli_schema_usage(f, usage_head, usage_tail); }

/* One option of ir's own; returns -1 to go on, or an exit code. */
static int own_option(void *ctx, const char *name, const char *val) {
    IrRun *r = ctx;
    if (strcmp(name, "help") == 0) {
        print_usage(stdout);
        return SQ_EXIT_OK;
    }
    if (strcmp(name, "format") == 0) {
        if (strcmp(val, "text") == 0) r->format = IRF_TEXT;
        else if (strcmp(val, "json") == 0) r->format = IRF_JSON;
        else if (strcmp(val, "sql") == 0) r->format = IRF_SQL;
        else {
            fprintf(stderr, "squint ir: --format takes text, json or sql\n");
            return SQ_EXIT_USAGE;
        }
    } else if (strcmp(name, "input-format") == 0) {
        if (!sq_input_format_parse(val, &r->input_format)) {
            fprintf(stderr, "squint ir: unknown input format '%s'\n", val);
            return SQ_EXIT_USAGE;
        }
    } else if (strcmp(name, "color") == 0) {
        if (!cli_color_setting(val, &r->color)) {
            fprintf(stderr, "squint ir: --color takes auto, always or never\n");
            return SQ_EXIT_USAGE;
        }
    } else {
        print_usage(stderr);
        return SQ_EXIT_USAGE;
    }
    return -1;
}

static int ir_options(CliArgs *a, IrRun *r) {
    r->color = -1;
    int rc = cli_schema_read_options(&r->schema, a, ir_opts, own_option, r, usage_head,
                                     usage_tail);
    if (rc >= 0) return rc;
    if (!cli_schema_given(&r->schema)) {
        fprintf(stderr, "squint ir: a schema is needed (--schema, --db, --db-root or --tables)\n");
        return SQ_EXIT_USAGE;
    }
    return -1;
}

/* ------------------------------------------------------------------ */
/* Printing                                                            */
/* ------------------------------------------------------------------ */

static void print_query(IrRun *r, const SqBenchItem *it, const AstStmt *stmt, IrQuery *q) {
    SqSrcPos pos = sq_src_locate(it->sql, stmt->span.start);
    switch (r->format) {
    case IRF_TEXT:
        sq_buf_printf(&r->out, "-- %s:%u:%u\n", pos.file->name, pos.line, pos.col);
        ir_print_text(q, &r->out);
        break;
    case IRF_SQL:
        sq_emit_sqlite(q, &r->out);
        sq_buf_puts(&r->out, ";\n");
        break;
    case IRF_JSON:
        sq_jw_obj_begin(&r->jw);
        sq_jw_key(&r->jw, "file");
        sq_jw_str(&r->jw, pos.file->name);
        sq_jw_key(&r->jw, "line");
        sq_jw_int(&r->jw, pos.line);
        if (it->db_id) {
            sq_jw_key(&r->jw, "db_id");
            sq_jw_str(&r->jw, it->db_id);
        }
        sq_jw_key(&r->jw, "ir");
        ir_print_json(q, &r->jw);
        sq_jw_obj_end(&r->jw);
        break;
    }
    r->n_printed++;
    cli_flush(&r->out, stdout);
}

static SrcSpan db_id_site(const SqBenchItem *it) {
    if (it->db_id_span.file) return it->db_id_span;
    return sq_span(it->span.file, it->span.start, it->span.start);
}

static void ir_item(IrRun *r, const SqBenchItem *it) {
    const Catalog *cat = NULL;
    int looked_up = 0;
    SqParser *p = sq_parser_new(it->sql, r->names, &r->diags);
    SqArena *arena = sq_arena_new();
    SqParseResult res;
    SqParseStatus st;
    while ((st = sq_parser_next(p, arena, &res)) != SQ_PARSE_END) {
        if (st == SQ_PARSE_OK) {
            if (!looked_up) {
                cat = cli_schema_resolve(&r->schema, it->db_id, db_id_site(it));
                looked_up = 1;
            }
            BndStmt *b = cat ? sq_bind_stmt(arena, cat, r->names, &r->diags, res.stmt, &r->bind_opt)
                             : NULL;
            if (b && b->select) print_query(r, it, res.stmt, ir_lower(arena, b));
        }
        sq_arena_reset(arena);
    }
    sq_arena_free(arena);
    sq_parser_free(p);
}

static void ir_file(IrRun *r, const char *path) {
    int err;
    SqSrc *src = sq_src_add_file(&r->srcs, path, &err);
    if (!src) {
        cli_io_error("ir", path, err);
        r->input_failed = 1;
        return;
    }
    SqArena *items = sq_arena_new();
    SqBench b;
    if (sq_bench_read(&b, items, &r->srcs, src, r->input_format, &r->diags) < 0)
        r->input_failed = 1;
    for (uint32_t i = 0; i < b.n_items; i++) ir_item(r, &b.items[i]);
    sq_arena_free(items);
}

int cmd_ir(int argc, char **argv) {
    IrRun r;
    memset(&r, 0, sizeof r);
    cli_schema_init(&r.schema, "ir");
    CliArgs a;
    cli_args_init(&a, argc, argv, "ir");
    int rc = ir_options(&a, &r);
    if (rc >= 0) {
        cli_schema_free(&r.schema);
        return rc;
    }
    if (r.color < 0) r.color = cli_stderr_color_default();
    sq_srcset_init(&r.srcs);
    sq_diags_init(&r.diags, &r.srcs);
    r.names = sq_interner_new();
    r.bind_opt = sq_db_bind_options();
    if (cli_schema_start(&r.schema, &r.srcs, r.names, &r.diags) < 0) {
        rc = SQ_EXIT_USAGE;
    } else {
        sq_jw_init(&r.jw, &r.out, 1);
        if (r.format == IRF_JSON) sq_jw_arr_begin(&r.jw);
        for (int i = a.i; i < argc; i++) ir_file(&r, argv[i]);
        if (r.format == IRF_JSON) {
            sq_jw_arr_end(&r.jw);
            sq_buf_putc(&r.out, '\n');
        }
        cli_flush(&r.out, stdout);
        cli_print_diags_text(&r.diags, 0, r.color);
        rc = r.input_failed || r.schema.n_failures ? SQ_EXIT_USAGE
           : r.diags.n_errors ? SQ_EXIT_FINDINGS : SQ_EXIT_OK;
    }
    sq_buf_free(&r.out);
    cli_schema_free(&r.schema);
    sq_interner_free(r.names);
    sq_diags_free(&r.diags);
    sq_srcset_free(&r.srcs);
    return rc;
}
