/*
** cmd_parse.c -- `squint parse`: print the syntax tree of SQL files.
**
** Layer: cli.  Statements are parsed, printed and dropped one at a time,
** so memory stays bounded by the largest statement whatever the file size.
*/
#include <stdlib.h>
#include <string.h>

#include "grammar/ast_print.h"
#include "grammar/parse.h"
#include "cli/cli.h"
#include "cli/cli_config.h"

static const char usage[] =
    "usage: squint parse [options] FILE...\n"
    "       squint parse [options] -e SQL\n"
    "\n"
    "Parse SQLite-dialect SQL and print its syntax tree.  FILE may be '-' for\n"
    "standard input.  Syntax errors are reported with file:line:col and a caret;\n"
    "a statement with an error is skipped and parsing resumes after its ';'.\n"
    "\n"
    "options:\n"
    "  -f, --format FMT   sexp (default) or json; json also holds the diagnostics\n"
    "  -e, --sql SQL      parse SQL given on the command line\n"
    "  -q, --quiet        print no tree, only diagnostics (a syntax check)\n"
    "      --color WHEN   color diagnostics: auto (default), always, never\n"
    "  -h, --help         show this help\n"
    "      --version      print the version and exit\n"
    "\n"
    "exit status: 0 all statements parsed, 1 syntax errors, 2 usage or I/O error\n"
    CLI_EXIT_OOM;

typedef struct ParseOpts {
    SqFormat format;
    int quiet;
    int color;
    const char *inline_sql;
} ParseOpts;

typedef struct ParseRun {
    ParseOpts opt;
    SqSrcSet srcs;
    SqInterner *names;
    SqBuf out;
    SqJsonWriter jw;
    int io_failed;
    size_t n_errors;
} ParseRun;

const CliOpt cli_opts_parse[] = {
    {"format", 'f', 1}, {"sql", 'e', 1}, {"quiet", 'q', 0},
    {"color", 0, 1},    {"help", 'h', 0}, {NULL, 0, 0}};

/* Returns -1 to go on, or an exit code. */
static int parse_options(CliArgs *a, ParseOpts *o) {
    const char *name, *val;
    o->format = SQ_FMT_SEXP;
    o->color = cli_stderr_color_default();
    while ((name = cli_next_opt(a, cli_opts_parse, &val)) != NULL) {
        if (strcmp(name, "help") == 0) {
            fputs(usage, stdout);
            cli_help_common(stdout, cli_opts_parse, 1);
            return SQ_EXIT_OK;
        } else if (strcmp(name, "format") == 0) {
            if (!cli_parse_format("parse", val, SQ_FMT_BIT(SQ_FMT_JSON) | SQ_FMT_BIT(SQ_FMT_SEXP), &o->format)) return SQ_EXIT_USAGE;
        } else if (strcmp(name, "sql") == 0) {
            o->inline_sql = val;
        } else if (strcmp(name, "quiet") == 0) {
            o->quiet = 1;
        } else if (strcmp(name, "color") == 0) {
            if (!cli_color_setting(val, &o->color)) {
                fprintf(stderr, "squint parse: --color takes auto, always or never\n");
                return SQ_EXIT_USAGE;
            }
        } else {
            return SQ_EXIT_USAGE;   /* "?": cli_next_opt said why */
        }
    }
    if (a->i >= a->argc && !o->inline_sql) {
        fputs("squint parse: no FILE and no --sql\n", stderr);
        return cli_usage_hint("parse");
    }
    if (o->color < 0) o->color = cli_stderr_color_default();
    return -1;
}

static void emit_stmt(ParseRun *r, const AstStmt *stmt) {
    if (r->opt.quiet) return;
    if (r->opt.format == SQ_FMT_JSON) ast_print_json(&r->jw, stmt);
    else ast_print_sexp(&r->out, stmt);
    cli_flush(&r->out, stdout);
}

static void emit_diags_json(ParseRun *r, const SqDiags *d) {
    sq_jw_key(&r->jw, "diagnostics");
    sq_jw_arr_begin(&r->jw);
    for (size_t i = 0; i < d->n; i++) sq_diag_render_json(d, d->items[i], &r->jw);
    sq_jw_arr_end(&r->jw);
}

/* Parse one source, streaming statements out. */
static void parse_source(ParseRun *r, const SqSrc *src) {
    SqDiags diags;
    sq_diags_init(&diags, &r->srcs);
    SqParser *p = sq_parser_new(src, r->names, &diags);
    SqArena *arena = sq_arena_new();
    int json = r->opt.format == SQ_FMT_JSON;
    size_t printed = 0, failed = 0;
    SqParseResult res;
    SqParseStatus st;
    if (json) {
        sq_jw_obj_begin(&r->jw);
        sq_jw_key(&r->jw, "file");
        sq_jw_str(&r->jw, src->name);
        sq_jw_key(&r->jw, "statements");
        sq_jw_arr_begin(&r->jw);
    }
    while ((st = sq_parser_next(p, arena, &res)) != SQ_PARSE_END) {
        if (st == SQ_PARSE_OK) emit_stmt(r, res.stmt);
        else failed++;
        if (!json) {
            cli_print_diags_text(&diags, printed, r->opt.color);
            printed = diags.n;
        }
        sq_arena_reset(arena);
    }
    if (!json) cli_print_diags_text(&diags, printed, r->opt.color);
    if (json) {
        sq_jw_arr_end(&r->jw);
        sq_jw_key(&r->jw, "failed");
        sq_jw_int(&r->jw, (int64_t)failed);
        emit_diags_json(r, &diags);
        sq_jw_obj_end(&r->jw);
        cli_flush(&r->out, stdout);
    }
    r->n_errors += diags.n_errors;
    sq_arena_free(arena);
    sq_parser_free(p);
    sq_diags_free(&diags);
}

static void parse_operand(ParseRun *r, const char *path) {
    int err;
    SqSrc *src = sq_src_add_file(&r->srcs, path, &err);
    if (!src) {
        cli_io_error("parse", path, err);
        r->io_failed = 1;
        return;
    }
    parse_source(r, src);
}

int cmd_parse(int argc, char **argv) {
    ParseRun r;
    memset(&r, 0, sizeof r);
    CliArgs a;
    cli_args_init(&a, argc, argv, "parse");
    a.operands = CLI_OPERANDS_FILES;
    int rc = parse_options(&a, &r.opt);
    if (rc >= 0) return rc;
    sq_srcset_init(&r.srcs);
    r.names = sq_interner_new();
    sq_jw_init(&r.jw, &r.out, 1);
    if (r.opt.format == SQ_FMT_JSON) {
        sq_jw_obj_begin(&r.jw);
        sq_jw_key(&r.jw, "files");
        sq_jw_arr_begin(&r.jw);
    }
    if (r.opt.inline_sql)
        parse_source(&r, sq_src_add_copy(&r.srcs, "<sql>", r.opt.inline_sql,
                                         strlen(r.opt.inline_sql)));
    for (int i = a.i; i < a.argc; i++) parse_operand(&r, a.argv[i]);
    if (r.opt.format == SQ_FMT_JSON) {
        sq_jw_arr_end(&r.jw);
        sq_jw_obj_end(&r.jw);
        sq_buf_putc(&r.out, '\n');
        cli_flush(&r.out, stdout);
    }
    sq_buf_free(&r.out);
    sq_interner_free(r.names);
    sq_srcset_free(&r.srcs);
    if (r.io_failed) return SQ_EXIT_USAGE;
    return r.n_errors ? SQ_EXIT_FINDINGS : SQ_EXIT_OK;
}
