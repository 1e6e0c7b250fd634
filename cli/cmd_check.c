/*
** cmd_check.c -- `squint check`: report every problem in SQL files.
**
** Layer: cli.  Parses each file statement by statement and reports syntax
** errors.  Statements squint accepts but does not analyse (PRAGMA,
** transaction control, ...) get a note.  Diagnostics are the command's
** result, so they go to standard output.
*/
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../grammar/parse.h"
#include "cli.h"

static const char usage[] =
    "usage: squint check [options] FILE...\n"
    "\n"
    "Check SQLite-dialect SQL files and report every problem found, each with\n"
    "file:line:col, a message and the source line with a caret.  FILE may be '-'\n"
    "for standard input.\n"
    "\n"
    "options:\n"
    "  -f, --format FMT   text (default) or json\n"
    "      --color WHEN   color the text output: auto (default), always, never\n"
    "  -h, --help         show this help\n"
    "\n"
    "exit status: 0 no errors, 1 errors found, 2 usage or I/O error\n";

typedef struct CheckRun {
    CliFormat format;
    int color;
    SqSrcSet srcs;
    SqInterner *names;
    SqDiags diags;
    size_t n_stmts, n_failed;
    int io_failed;
} CheckRun;

static const CliOpt check_opts[] = {
    {"format", 'f', 1}, {"color", 0, 1}, {"help", 'h', 0}, {NULL, 0, 0}};

static int check_options(CliArgs *a, CheckRun *r) {
    const char *name, *val;
    r->format = CLI_FMT_TEXT;
    r->color = -1;
    while ((name = cli_next_opt(a, check_opts, &val)) != NULL) {
        if (strcmp(name, "help") == 0) {
            fputs(usage, stdout);
            return SQ_EXIT_OK;
        } else if (strcmp(name, "format") == 0) {
            if (!cli_parse_format("check", val, 3u, &r->format)) return SQ_EXIT_USAGE;
        } else if (strcmp(name, "color") == 0) {
            if (!cli_color_setting(val, &r->color)) {
                fprintf(stderr, "squint check: --color takes auto, always or never\n");
                return SQ_EXIT_USAGE;
            }
        } else {
            fputs(usage, stderr);
            return SQ_EXIT_USAGE;
        }
    }
    if (a->i >= a->argc) {
        fputs(usage, stderr);
        return SQ_EXIT_USAGE;
    }
    return -1;
}

/* Statements squint parses but does not analyse get a note saying so. */
static void note_ignored(CheckRun *r, const AstStmt *s) {
    const char *what = NULL;
    switch ((AstStmtKind)s->kind) {
    case AST_STMT_PRAGMA: what = "PRAGMA"; break;
    case AST_STMT_TRANSACTION: what = "transaction control"; break;
    case AST_STMT_VACUUM: what = "VACUUM"; break;
    case AST_STMT_ANALYZE: what = "ANALYZE"; break;
    case AST_STMT_REINDEX: what = "REINDEX"; break;
    case AST_STMT_ATTACH: what = "ATTACH"; break;
    case AST_STMT_DETACH: what = "DETACH"; break;
    default: return;
    }
    sq_diag_add(&r->diags, SQ_SEV_NOTE, SQ_N_IGNORED, s->span,
                "%s statement accepted and ignored", what);
}

static void check_source(CheckRun *r, const SqSrc *src) {
    SqParser *p = sq_parser_new(src, r->names, &r->diags);
    SqArena *arena = sq_arena_new();
    SqParseResult res;
    SqParseStatus st;
    while ((st = sq_parser_next(p, arena, &res)) != SQ_PARSE_END) {
        r->n_stmts++;
        if (st == SQ_PARSE_OK) note_ignored(r, res.stmt);
        else r->n_failed++;
        sq_arena_reset(arena);
    }
    sq_arena_free(arena);
    sq_parser_free(p);
}

static void report(CheckRun *r) {
    SqBuf b = SQ_BUF_INIT;
    if (r->format == CLI_FMT_JSON) {
        SqJsonWriter w;
        sq_jw_init(&w, &b, 1);
        sq_jw_obj_begin(&w);
        sq_jw_key(&w, "diagnostics");
        sq_jw_arr_begin(&w);
        for (size_t i = 0; i < r->diags.n; i++)
            sq_diag_render_json(&r->diags, r->diags.items[i], &w);
        sq_jw_arr_end(&w);
        sq_jw_key(&w, "summary");
        sq_jw_obj_begin(&w);
        sq_jw_key(&w, "statements");
        sq_jw_int(&w, (int64_t)r->n_stmts);
        sq_jw_key(&w, "failed");
        sq_jw_int(&w, (int64_t)r->n_failed);
        sq_jw_key(&w, "errors");
        sq_jw_int(&w, (int64_t)r->diags.n_errors);
        sq_jw_key(&w, "warnings");
        sq_jw_int(&w, (int64_t)r->diags.n_warnings);
        sq_jw_obj_end(&w);
        sq_jw_obj_end(&w);
        sq_buf_putc(&b, '\n');
    } else {
        for (size_t i = 0; i < r->diags.n; i++)
            sq_diag_render_text(&r->diags, r->diags.items[i], &b,
                                r->color ? SQ_RENDER_COLOR : 0);
        sq_buf_printf(&b, "%zu statement%s checked: %zu error%s, %zu warning%s\n",
                      r->n_stmts, r->n_stmts == 1 ? "" : "s", r->diags.n_errors,
                      r->diags.n_errors == 1 ? "" : "s", r->diags.n_warnings,
                      r->diags.n_warnings == 1 ? "" : "s");
    }
    cli_flush(&b, stdout);
    sq_buf_free(&b);
}

int cmd_check(int argc, char **argv) {
    CheckRun r;
    memset(&r, 0, sizeof r);
    CliArgs a;
    cli_args_init(&a, argc, argv, "check");
    int rc = check_options(&a, &r);
    if (rc >= 0) return rc;
    if (r.color < 0) r.color = isatty(fileno(stdout)) && !getenv("NO_COLOR");
    sq_srcset_init(&r.srcs);
    sq_diags_init(&r.diags, &r.srcs);
    r.names = sq_interner_new();
    for (int i = a.i; i < argc; i++) {
        int err;
        SqSrc *src = sq_src_add_file(&r.srcs, argv[i], &err);
        if (!src) {
            cli_io_error("check", argv[i], err);
            r.io_failed = 1;
            continue;
        }
        check_source(&r, src);
    }
    report(&r);
    rc = r.io_failed ? SQ_EXIT_USAGE : r.diags.n_errors ? SQ_EXIT_FINDINGS : SQ_EXIT_OK;
    sq_interner_free(r.names);
    sq_diags_free(&r.diags);
    sq_srcset_free(&r.srcs);
    return rc;
}
