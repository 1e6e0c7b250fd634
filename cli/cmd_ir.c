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

#include "backend/sqlite/db.h"
#include "backend/sqlite/emit.h"
#include "cli/cli.h"
#include "cli/cli_queries.h"

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
    "  -h, --help             show this help\n";

static const char usage_tail[] =
    "\n"
    "exit status: 0 every statement printed, 1 a statement has errors, 2 usage\n"
    "error, unreadable input or schema\n"
    CLI_EXIT_OOM;

typedef enum IrFormat { IRF_TEXT, IRF_JSON, IRF_SQL } IrFormat;

typedef struct IrRun {
    IrFormat format;
    CliQueries cq;
    SqBuf out;
    SqJsonWriter jw;
    size_t n_printed;
} IrRun;

static const CliOpt ir_opts[] = {
    {"format", 'f', 1}, {"help", 'h', 0}, CLI_QUERIES_OPTIONS, {NULL, 0, 0}};

static void print_usage(FILE *f) { cli_queries_usage(f, usage_head, usage_tail); }

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
    } else {
        print_usage(stderr);
        return SQ_EXIT_USAGE;
    }
    return -1;
}

/* ------------------------------------------------------------------ */
/* Printing                                                            */
/* ------------------------------------------------------------------ */

static void print_query(void *ctx, CliQuery *cq) {
    IrRun *r = ctx;
    const SqBenchItem *it = cq->item;
    IrQuery *q = cq->ir;
    SqSrcPos pos = cq->pos;
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

int cmd_ir(int argc, char **argv) {
    IrRun r;
    memset(&r, 0, sizeof r);
    cli_queries_init(&r.cq, "ir");
    CliArgs a;
    cli_args_init(&a, argc, argv, "ir");
    int rc = cli_queries_read_options(&r.cq, &a, ir_opts, own_option, &r, usage_head, usage_tail);
    if (rc < 0 && cli_queries_start(&r.cq) < 0) rc = SQ_EXIT_USAGE;
    if (rc < 0) {
        sq_jw_init(&r.jw, &r.out, 1);
        if (r.format == IRF_JSON) sq_jw_arr_begin(&r.jw);
        for (int i = a.i; i < argc; i++) cli_queries_file(&r.cq, argv[i], print_query, &r);
        if (r.format == IRF_JSON) {
            sq_jw_arr_end(&r.jw);
            sq_buf_putc(&r.out, '\n');
        }
        cli_flush(&r.out, stdout);
        rc = cli_queries_finish(&r.cq);
    }
    sq_buf_free(&r.out);
    cli_queries_free(&r.cq);
    return rc;
}
