/*
** cmd_ir.c -- `squint ir`: print the relational IR of each query, and
** `squint emit NAME`: what an emitter makes of it.
**
** Layer: cli.  Every statement of every item of every FILE (a SQL script or
** a benchmark file, as `check` reads them) is parsed, bound against the
** item's schema and lowered to IR, then printed as an indented tree
** (text), as JSON, or through an emitter of backend/emit (sql, ddl, ...:
** `ir --format NAME` and `emit NAME` are the same).  The output is stable,
** for golden tests.  Diagnostics go to standard error; a statement with
** an error prints nothing.
*/
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/sqlite/db.h"
#include "backend/emit/emit.h"
#include "cli/cli.h"
#include "cli/cli_config.h"
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
    "                         type of every column; json: the same as JSON; or an\n"
    "                         emitter's name ('squint emit --list'): sql, the\n"
    "                         SQLite SQL the backend emits from the IR; ddl, ...\n"
    "  -h, --help             show this help\n"
    "      --version          print the version and exit\n";

static const char emit_usage_head[] =
    "usage: squint emit NAME [options] FILE...\n"
    "       squint emit --list\n"
    "\n"
    "Run the emitter NAME on every SELECT in FILE (a SQL script or a benchmark\n"
    "file, as 'squint check' reads them; '-' is standard input), bound against\n"
    "the schema, and print what it makes: the same as 'squint ir --format NAME'.\n"
    "Statements without a query print nothing.\n"
    "\n"
    "options:\n"
    "      --list             list the emitters, one per line, and exit\n"
    "  -h, --help             show this help\n"
    "      --version          print the version and exit\n";

static const char usage_tail[] =
    "\n"
    "exit status: 0 every statement printed, 1 a statement has errors, 2 usage\n"
    "error, unreadable input or schema, a malformed benchmark item\n"
    CLI_EXIT_OOM;

typedef struct IrRun {
    const char *cmd;           /* "ir" or "emit" */
    SqFormat format;           /* text or json, when emitter is NULL */
    const char *usage_head;    /* ir's or emit's */
    const SqEmitter *emitter;  /* the emitter that prints, or NULL */
    CliQueries cq;
    SqBuf out;
    SqJsonWriter jw;
    size_t n_printed;
} IrRun;

const CliOpt cli_opts_ir[] = {
    {"format", 'f', 1}, {"help", 'h', 0}, CLI_QUERIES_OPTIONS, {NULL, 0, 0}};
const CliOpt cli_opts_emit[] = {{"help", 'h', 0}, CLI_QUERIES_OPTIONS, {NULL, 0, 0}};

static void print_usage(const IrRun *r, FILE *f) { cli_queries_usage(f, r->usage_head, usage_tail); }

/* "text, json, sql or ddl": the names --format takes (with_ir), or the
** emitters' alone. */
static void put_format_names(FILE *f, int with_ir) {
    size_t n;
    const SqEmitter *e = sq_emitter_all(&n);
    if (with_ir) fputs("text, json", f);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%s%s", i + 1 < n ? (i || with_ir ? ", " : "") : " or ", e[i].name);
}

/* One option of ir's own; returns -1 to go on, or an exit code. */
static int own_option(void *ctx, const char *name, const char *val) {
    IrRun *r = ctx;
    if (strcmp(name, "help") == 0) {
        print_usage(r, stdout);
        cli_help_common(stdout, strcmp(r->cmd, "ir") == 0 ? cli_opts_ir : cli_opts_emit, 1);
        return SQ_EXIT_OK;
    }
    if (strcmp(name, "format") == 0) {
        int f = sq_format_find(val, SQ_FMT_BIT(SQ_FMT_TEXT) | SQ_FMT_BIT(SQ_FMT_JSON));
        r->emitter = f < 0 ? sq_emitter_find(val) : NULL;
        if (f >= 0) r->format = (SqFormat)f;
        else if (!r->emitter) {
            fprintf(stderr, "squint ir: unknown format '%s' (use ", val);
            put_format_names(stderr, 1);
            fputs(")\n", stderr);
            return SQ_EXIT_USAGE;
        }
    } else {
        return SQ_EXIT_USAGE;   /* "?": cli_next_opt said why */
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
    if (r->emitter) {
        if (r->emitter->script) sq_buf_printf(&r->out, "-- %s:%u:%u\n", pos.file->name, pos.line, pos.col);
        r->emitter->emit(cq->cat, q, &r->out);
    } else if (r->format == SQ_FMT_TEXT) {
        sq_buf_printf(&r->out, "-- %s:%u:%u\n", pos.file->name, pos.line, pos.col);
        ir_print_text(q, &r->out);
    } else {
        sq_jw_obj_begin(&r->jw);
        sq_json_span_members(&r->jw, &r->cq.srcs, cq->stmt->span);
        if (it->db_id) {
            sq_jw_key(&r->jw, "db_id");
            sq_jw_str(&r->jw, it->db_id);
        }
        sq_jw_key(&r->jw, "ir");
        ir_print_json(q, &r->jw);
        sq_jw_obj_end(&r->jw);
    }
    r->n_printed++;
    cli_flush(&r->out, stdout);
}

/* ir and emit: the query loop, once the format is known. */
static int run(IrRun *r, int argc, char **argv, const CliOpt *opts) {
    cli_queries_init(&r->cq, r->cmd);
    CliArgs a;
    cli_args_init(&a, argc, argv, r->cmd);
    a.operands = CLI_OPERANDS_FILES;
    int rc = cli_queries_read_options(&r->cq, &a, opts, own_option, r);
    if (rc < 0 && cli_queries_start(&r->cq) < 0) rc = SQ_EXIT_USAGE;
    if (rc < 0) {
        sq_jw_init(&r->jw, &r->out, 1);
        int json = !r->emitter && r->format == SQ_FMT_JSON;
        if (json) sq_jw_arr_begin(&r->jw);
        for (int i = a.i; i < a.argc; i++) cli_queries_file(&r->cq, a.argv[i], print_query, r);
        if (json) {
            sq_jw_arr_end(&r->jw);
            sq_buf_putc(&r->out, '\n');
        }
        cli_flush(&r->out, stdout);
        rc = cli_queries_finish(&r->cq);
    }
    sq_buf_free(&r->out);
    cli_queries_free(&r->cq);
    return rc;
}

int cmd_ir(int argc, char **argv) {
    IrRun r;
    memset(&r, 0, sizeof r);
    r.cmd = "ir";
    r.usage_head = usage_head;
    return run(&r, argc, argv, cli_opts_ir);
}

int cmd_emit(int argc, char **argv) {
    IrRun r;
    memset(&r, 0, sizeof r);
    r.cmd = "emit";
    r.usage_head = emit_usage_head;
    const char *name = argc > 1 ? argv[1] : NULL;
    if (name && (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0)) {
        print_usage(&r, stdout);
        return SQ_EXIT_OK;
    }
    if (name && strcmp(name, "--list") == 0) {
        size_t n;
        const SqEmitter *e = sq_emitter_all(&n);
        for (size_t i = 0; i < n; i++) printf("%-8s %s\n", e[i].name, e[i].summary);
        return SQ_EXIT_OK;
    }
    if (name && strcmp(name, "--version") == 0) return cli_version();
    if (!name || name[0] == '-') {
        fputs(name ? "squint emit: the emitter's NAME comes first ('squint emit --list' lists them)\n"
                   : "squint emit: an emitter's NAME is needed ('squint emit --list' lists them)\n", stderr);
        return cli_usage_hint("emit");
    }
    if (!(r.emitter = sq_emitter_find(name))) {
        fprintf(stderr, "squint emit: no emitter '%s' (there are ", name);
        put_format_names(stderr, 0);
        fputs(")\n", stderr);
        return SQ_EXIT_USAGE;
    }
    argv[1] = argv[0]; /* the options and files follow NAME */
    return run(&r, argc - 1, argv + 1, cli_opts_emit);
}
