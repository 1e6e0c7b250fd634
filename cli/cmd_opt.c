/*
** cmd_opt.c -- `squint opt`: run a chain of passes on each query and print
** the result.
**
** Layer: cli.  Every query of every FILE (as `squint ir` reads them) is
** bound, lowered, and given to the passes named by --passes, in order
** (each preceded by the passes it needs).  The output is the IR after the
** passes (text or JSON) or the SQL the backend emits from it, followed by
** what the analysis passes found.  Notes from the passes (why a rewrite
** was not made) go to standard error with the other diagnostics.
*/
#include <stdlib.h>
#include <string.h>

#include "backend/sqlite/db.h"
#include "backend/emit/emit.h"
#include "passes/pass.h"
#include "cli/cli.h"
#include "cli/cli_config.h"
#include "cli/cli_queries.h"

static const char usage_head[] =
    "usage: squint opt --passes NAME[,NAME...] [options] FILE...\n"
    "\n"
    "Run passes over every SELECT in FILE (a SQL script or a benchmark file, as\n"
    "'squint check' reads them; '-' is standard input) and print the result.\n"
    "'squint passes' lists the passes.\n"
    "\n"
    "options:\n"
    "  -p, --passes LIST      the passes to run, in order, comma-separated\n"
    "  -f, --format FMT       sql (default): the SQL emitted from the rewritten IR;\n"
    "                         text or json: the IR itself; analyses' findings follow\n"
    "      --notes WHEN       show the passes' notes (why a rewrite was not made):\n"
    "                         always (default) or never\n"
    "  -h, --help             show this help\n"
    "      --version          print the version and exit\n";

static const char usage_tail[] =
    "\n"
    "exit status: 0 done, 1 a statement has errors, 2 usage error, unreadable\n"
    "input or schema, a malformed benchmark item\n"
    CLI_EXIT_OOM;


typedef struct OptRun {
    SqFormat format;
    int notes;
    const char **passes;
    size_t n_passes;
    CliQueries cq;
    SqBuf out;
    SqJsonWriter jw;
    size_t n_rewrites;
} OptRun;

/* The formats --format takes. */
#define OPT_FORMATS (SQ_FMT_BIT(SQ_FMT_SQL) | SQ_FMT_BIT(SQ_FMT_TEXT) | SQ_FMT_BIT(SQ_FMT_JSON))

const CliOpt cli_opts_opt[] = {
    {"passes", 'p', 1}, {"format", 'f', 1},    {"notes", 0, 1},
    {"help", 'h', 0},   CLI_QUERIES_OPTIONS, {NULL, 0, 0}};

/* --passes a,b,c: each name must be a pass. */
static int parse_passes(OptRun *r, const char *list) {
    char *copy = sq_strdup(list);
    size_t cap = 1;
    for (const char *p = list; *p; p++) cap += *p == ',';
    r->passes = sq_malloc(cap * sizeof *r->passes);
    for (char *tok = strtok(copy, ","); tok; tok = strtok(NULL, ",")) {
        const SqPass *p = sq_pass_find(tok);
        if (!p) {
            fprintf(stderr, "squint opt: no pass named '%s' (see 'squint passes')\n", tok);
            free(copy);
            return 0;
        }
        r->passes[r->n_passes++] = p->name;
    }
    free(copy);
    return r->n_passes > 0;
}

static int own_option(void *ctx, const char *name, const char *val) {
    OptRun *r = ctx;
    if (strcmp(name, "help") == 0) {
        cli_queries_usage(stdout, usage_head, usage_tail);
        cli_help_common(stdout, cli_opts_opt, 1);
        return SQ_EXIT_OK;
    }
    if (strcmp(name, "passes") == 0) {
        if (!parse_passes(r, val)) return SQ_EXIT_USAGE;
    } else if (strcmp(name, "format") == 0) {
        if (!cli_parse_format("opt", val, OPT_FORMATS, &r->format)) return SQ_EXIT_USAGE;
    } else if (strcmp(name, "notes") == 0) {
        if (strcmp(val, "always") != 0 && strcmp(val, "never") != 0) {
            fprintf(stderr, "squint opt: --notes takes always or never\n");
            return SQ_EXIT_USAGE;
        }
        r->notes = strcmp(val, "always") == 0;
    } else {
        return SQ_EXIT_USAGE;   /* "?": cli_next_opt said why */
    }
    return -1;
}

static int opt_options(CliArgs *a, OptRun *r) {
    r->notes = 1;
    int rc = cli_queries_read_options(&r->cq, a, cli_opts_opt, own_option, r);
    if (rc >= 0) return rc;
    if (!r->n_passes) {
        fprintf(stderr, "squint opt: --passes is needed (see 'squint passes')\n");
        return SQ_EXIT_USAGE;
    }
    return -1;
}

/* ------------------------------------------------------------------ */
/* Each query                                                          */
/* ------------------------------------------------------------------ */

static void print_findings(OptRun *r, SqPassCtx *ctx, IrQuery *q) {
    for (size_t i = 0; i < r->n_passes; i++) {
        const SqPass *p = sq_pass_find(r->passes[i]);
        if (p->print && r->format != SQ_FMT_JSON) p->print(ctx, q, &r->out);
        if (p->print_json && r->format == SQ_FMT_JSON) {
            sq_jw_key(&r->jw, p->name);
            sq_jw_obj_begin(&r->jw);
            p->print_json(ctx, q, &r->jw);
            sq_jw_obj_end(&r->jw);
        }
    }
}

static void opt_query(void *arg, CliQuery *cq) {
    OptRun *r = arg;
    size_t keep = r->cq.diags.n;
    SqPassCtx ctx;
    sq_pass_ctx_init(&ctx, cq->arena, cq->cat, r->cq.names, &r->cq.diags);
    if (sq_pass_run(&ctx, cq->ir, r->passes, r->n_passes) < 0) return;
    if (!r->notes) sq_diags_truncate(&r->cq.diags, keep);
    r->n_rewrites += ctx.n_rewrites;
    switch (r->format) {
    case SQ_FMT_SQL:
        sq_emit_sqlite(cq->ir, &r->out);
        sq_buf_puts(&r->out, ";\n");
        print_findings(r, &ctx, cq->ir);
        break;
    case SQ_FMT_TEXT:
        sq_buf_printf(&r->out, "-- %s:%u:%u\n", cq->pos.file->name, cq->pos.line, cq->pos.col);
        ir_print_text(cq->ir, &r->out);
        print_findings(r, &ctx, cq->ir);
        break;
    default: /* SQ_FMT_JSON: OPT_FORMATS has no other */
        sq_jw_obj_begin(&r->jw);
        sq_json_span_members(&r->jw, &r->cq.srcs, cq->stmt->span);
        sq_jw_key(&r->jw, "rewrites");
        sq_jw_int(&r->jw, (int64_t)ctx.n_rewrites);
        sq_jw_key(&r->jw, "ir");
        ir_print_json(cq->ir, &r->jw);
        print_findings(r, &ctx, cq->ir);
        sq_jw_obj_end(&r->jw);
        break;
    }
    cli_flush(&r->out, stdout);
}

int cmd_opt(int argc, char **argv) {
    OptRun r;
    memset(&r, 0, sizeof r);
    r.format = SQ_FMT_SQL;
    cli_queries_init(&r.cq, "opt");
    CliArgs a;
    cli_args_init(&a, argc, argv, "opt");
    a.operands = CLI_OPERANDS_FILES;
    int rc = opt_options(&a, &r);
    if (rc < 0 && cli_queries_start(&r.cq) < 0) rc = SQ_EXIT_USAGE;
    if (rc < 0) {
        sq_jw_init(&r.jw, &r.out, 1);
        if (r.format == SQ_FMT_JSON) sq_jw_arr_begin(&r.jw);
        for (int i = a.i; i < a.argc; i++) cli_queries_file(&r.cq, a.argv[i], opt_query, &r);
        if (r.format == SQ_FMT_JSON) {
            sq_jw_arr_end(&r.jw);
            sq_buf_putc(&r.out, '\n');
        }
        cli_flush(&r.out, stdout);
        rc = cli_queries_finish(&r.cq);
    }
    sq_buf_free(&r.out);
    free(r.passes);
    cli_queries_free(&r.cq);
    return rc;
}
