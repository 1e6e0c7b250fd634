/*
** cmd_template.c -- `squint template extract`: every query's template, its
** SQL with a named placeholder for each slot, and the slots' kinds,
** values, columns, types and domains (passes/template/template.h).
**
** Layer: cli.  Queries are read as `squint opt` reads them (cli_queries.h);
** the template's SQL is the SQL emitter's text with the slots' marks
** (sq_emit_sqlite_marked), so it names columns as every generated
** instance will.
*/
#include <stdlib.h>
#include <string.h>

#include "backend/emit/emit.h"
#include "passes/template/template.h"
#include "cli/cli.h"
#include "cli/cli_config.h"
#include "cli/cli_queries.h"
#include "cli/template_int.h"

static const char template_usage[] =
    "usage: squint template extract [options] FILE...\n"
    "       squint template sample --gold FILE --out FILE [options]\n"
    "\n"
    "Turn queries into templates with typed slots, and templates into new,\n"
    "checked items (docs/squint-template.md).\n"
    "\n"
    "commands:\n"
    "  extract  print each query's template and its slots\n"
    "  sample   new items from each query's template, every one checked\n"
    "\n"
    "'squint template COMMAND --help' describes each.\n"
    "\n"
    "options:\n"
    "  -h, --help             show this help\n"
    "      --version          print the version and exit\n"
    "\n"
    "exit status: the command's (0 done, 1 a statement has errors); 2 bad usage or\n"
    "an unknown command.\n" CLI_EXIT_OOM;

static const char extract_head[] =
    "usage: squint template extract [options] FILE...\n"
    "\n"
    "Find the slots of every SELECT in FILE (a SQL script or a benchmark file, as\n"
    "'squint check' reads them; '-' is standard input): the literals compared with a\n"
    "column, thresholds, dates and periods, time references relative to now, LIMIT,\n"
    "the aggregates of the result list (metrics), GROUP BY and ORDER BY columns and\n"
    "ORDER BY directions.  Print each query's template, its SQL with a named\n"
    "placeholder (:threshold_1, :since_1, :metric_1, ...) for each slot, and the\n"
    "slots with their kinds, values, columns, types and domains (the alternative\n"
    "columns, the aggregates that fit).\n"
    "\n"
    "options:\n"
    "  -f, --format FMT       text (default) or json (one array, an object per query)\n"
    "      --keep-superlatives  the LIMIT 1 of an ORDER BY (\"the highest ...\") is not\n"
    "                         a slot\n"
    "  -h, --help             show this help\n"
    "      --version          print the version and exit\n";

static const char extract_tail[] =
    "\n"
    "exit status: 0 done, 1 a statement has errors, 2 usage error, unreadable\n"
    "input or schema, a malformed benchmark item\n"
    CLI_EXIT_OOM;

#define TEMPLATE_FORMATS (SQ_FMT_BIT(SQ_FMT_TEXT) | SQ_FMT_BIT(SQ_FMT_JSON))

const CliOpt cli_opts_template_extract[] = {
    {"format", 'f', 1}, {"keep-superlatives", 0, 0}, {"help", 'h', 0}, CLI_QUERIES_OPTIONS,
    {NULL, 0, 0}};

typedef struct ExtractRun {
    SqFormat format;
    SqTemplateOptions opt;
    CliQueries cq;
    SqBuf out;
    SqJsonWriter jw;
    size_t n_slots, n_with_slots;
} ExtractRun;

static int own_option(void *ctx, const char *name, const char *val) {
    ExtractRun *r = ctx;
    if (strcmp(name, "help") == 0) {
        cli_queries_usage(stdout, extract_head, extract_tail);
        cli_help_common(stdout, cli_opts_template_extract, 1);
        return SQ_EXIT_OK;
    }
    if (strcmp(name, "format") == 0) {
        if (!cli_parse_format("template extract", val, TEMPLATE_FORMATS, &r->format)) return SQ_EXIT_USAGE;
    } else if (strcmp(name, "keep-superlatives") == 0) {
        r->opt.keep_superlatives = 1;
    } else {
        return SQ_EXIT_USAGE; /* "?": cli_next_opt said why */
    }
    return -1;
}

static void put_template_sql(IrQuery *q, SqTemplate *t, SqBuf *out) {
    sq_emit_sqlite_marked(q, sq_template_mark, t, out);
}

static void extract_text(ExtractRun *r, CliQuery *cq, SqTemplate *t) {
    SqBuf *out = &r->out;
    sq_buf_printf(out, "-- %s:%u:%u", cq->pos.file->name, cq->pos.line, cq->pos.col);
    if (cq->item && cq->item->label) sq_buf_printf(out, " (%s)", cq->item->label);
    sq_buf_putc(out, '\n');
    put_template_sql(cq->ir, t, out);
    sq_buf_puts(out, ";\n");
    sq_template_print_slots(t, out);
}

static void extract_json(ExtractRun *r, CliQuery *cq, SqTemplate *t) {
    SqJsonWriter *w = &r->jw;
    sq_jw_obj_begin(w);
    cli_query_json_head(w, &r->cq, cq, NULL);
    SqBuf b = SQ_BUF_INIT;
    put_template_sql(cq->ir, t, &b);
    sq_jw_key(w, "template");
    sq_jw_str(w, sq_buf_str(&b));
    sq_buf_free(&b);
    sq_template_slots_json(t, &r->cq.srcs, w);
    sq_jw_obj_end(w);
}

static void extract_query(void *arg, CliQuery *cq) {
    ExtractRun *r = arg;
    SqTemplate *t = sq_template_slots(cq->ir, cq->cat, &r->opt);
    r->n_slots += t->n_slots;
    r->n_with_slots += t->n_slots > 0;
    if (r->format == SQ_FMT_JSON) extract_json(r, cq, t);
    else extract_text(r, cq, t);
    cli_flush(&r->out, stdout);
}

static int extract(int argc, char **argv) {
    ExtractRun r;
    memset(&r, 0, sizeof r);
    r.format = SQ_FMT_TEXT;
    cli_queries_init(&r.cq, "template extract");
    CliArgs a;
    cli_args_init(&a, argc, argv, "template extract");
    a.operands = CLI_OPERANDS_FILES;
    int rc = cli_queries_read_options(&r.cq, &a, cli_opts_template_extract, own_option, &r);
    if (rc < 0 && cli_queries_start(&r.cq) < 0) rc = SQ_EXIT_USAGE;
    if (rc < 0) {
        sq_jw_init(&r.jw, &r.out, 1);
        if (r.format == SQ_FMT_JSON) sq_jw_arr_begin(&r.jw);
        for (int i = a.i; i < a.argc; i++) cli_queries_file(&r.cq, a.argv[i], extract_query, &r);
        if (r.format == SQ_FMT_JSON) {
            sq_jw_arr_end(&r.jw);
            sq_buf_putc(&r.out, '\n');
        } else {
            sq_buf_printf(&r.out, "-- %zu quer%s, %zu with slots, %zu slot%s\n", r.cq.n_queries,
                          r.cq.n_queries == 1 ? "y" : "ies", r.n_with_slots, r.n_slots,
                          r.n_slots == 1 ? "" : "s");
        }
        cli_flush(&r.out, stdout);
        rc = cli_queries_finish(&r.cq);
    }
    sq_buf_free(&r.out);
    cli_queries_free(&r.cq);
    return rc;
}

int cmd_template(int argc, char **argv) {
    const char *sub = argc > 1 ? argv[1] : NULL;
    if (sub && (strcmp(sub, "--help") == 0 || strcmp(sub, "-h") == 0)) {
        fputs(template_usage, stdout);
        return SQ_EXIT_OK;
    }
    if (sub && strcmp(sub, "--version") == 0) return cli_version();
    if (sub && strcmp(sub, "extract") == 0) return extract(argc - 1, argv + 1);
    if (sub && strcmp(sub, "sample") == 0) return template_sample(argc - 1, argv + 1);
    if (sub && sub[0] == '-') fprintf(stderr, "squint template: unknown option '%s'\n", sub);
    else if (sub) fprintf(stderr, "squint template: no command '%s' (there are extract and sample)\n", sub);
    else fputs("squint template: a command is needed (extract or sample)\n", stderr);
    fputs("try 'squint template --help'\n", stderr);
    return SQ_EXIT_USAGE;
}
