/*
** cmd_check.c -- `squint check`: report every problem in SQL and benchmark
** files.
**
** Layer: cli.  Reads each FILE as a benchmark file (a SQL script, Spider or
** BIRD dev.json, SQL<TAB>db_id lines, BIRD predictions, one SQL per line;
** frontend/bench_input.h), parses each item's statements and, when a
** schema option is given (cli_schema.h), binds each statement against the
** schema of the item's db_id, reporting SQLite's name-resolution errors.
** Statements squint accepts but does not analyse (PRAGMA, transaction
** control, ...) get a note.  Diagnostics are the command's result, so they
** go to standard output.
*/
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "frontend/bench_input.h"
#include "frontend/bind.h"
#include "grammar/parse.h"
#include "backend/sqlite/db.h"
#include "cli/cli.h"
#include "cli/cli_config.h"
#include "cli/cli_queries.h"
#include "cli/cli_schema.h"

static const char usage_head[] =
    "usage: squint check [options] FILE...\n"
    "\n"
    "Check SQLite-dialect SQL and report every problem found, each with\n"
    "file:line:col, a message and the source line with a caret.  FILE is a SQL\n"
    "script or a benchmark file (format detected from the content); '-' is\n"
    "standard input.  With a schema option every statement is also bound: table,\n"
    "column and function names, scopes, aggregates, as SQLite resolves them.\n"
    "Without one, only syntax is checked.\n"
    "\n"
    "input:\n"
    "      --input-format F   auto (default), sql (one script), spider (dev.json),\n"
    "                         bird (dev.json), tsv (SQL<TAB>db_id lines),\n"
    "                         bird-pred (BIRD prediction JSON), lines (one SQL\n"
    "                         per line)\n"
    "      --db-id-from FILE  take each item's db_id from the item at the same\n"
    "                         position in FILE (a gold file the predictions are\n"
    "                         aligned with); plain text FILEs are then read as\n"
    "                         one SQL per line\n"
    "\n"
    "schema (at most one of --schema, --db, --db-root, --tables):\n";

static const char usage_tail[] =
    "\n"
    "output:\n"
    "  -f, --format FMT       text (default), json, jsonl (a diagnostic per line;\n"
    "                         also json-lines), gcc (gcc's 'file:line:col: error:\n"
    "                         message [code]' lines), github (GitHub Actions\n"
    "                         annotations) or junit (JUnit XML)\n"
    "      --color WHEN       color the text output: auto (default), always, never\n"
    "  -o, --output FILE      write the report to FILE instead of standard output\n"
    "                         (an existing FILE only when it is a report squint\n"
    "                         wrote, or with --force; never an input)\n"
    "      --force            let --output replace any file but an input\n"
    "      --exit-zero        exit 0 even with errors in the SQL (2 still for\n"
    "                         bad input)\n"
    "      --stdin-filename NAME  the name of the text read from '-' (standard\n"
    "                         input) in every message and output, for editors\n"
    "  -h, --help             show this help\n"
    "      --version          print the version and exit\n"
    "\n"
    "exit status: 0 no errors, 1 errors found in the SQL (syntax, names, db_ids),\n"
    "2 usage error, or an input squint cannot read: a missing or unreadable\n"
    "file, an empty or invalid JSON file, a malformed benchmark item, an\n"
    "unreadable schema\n"
    CLI_EXIT_OOM;

typedef struct CheckOpts {
    SqFormat format;
    int color;                 /* -1 until decided */
    SqInputFormat input_format;
    const char *db_id_from;    /* --db-id-from, or NULL */
    const char *output;        /* -o FILE, or NULL: stdout */
    int force, exit_zero;      /* --force, --exit-zero */
} CheckOpts;

/* A FILE as it was read. */
typedef struct CheckedFile {
    const char *path;          /* argv (not owned) */
    SqInputFormat format;      /* as detected or given */
    uint32_t n_items;
} CheckedFile;

typedef struct CheckRun {
    CheckOpts opt;
    CliSchema schema;
    SqSrcSet srcs;
    SqInterner *names;
    SqDiags diags;
    SqArena *stmt_arena;       /* one statement's AST and binding */
    SqArena *from_arena;       /* the --db-id-from items */
    SqBench from;
    int has_from;
    size_t n_items, n_stmts, n_failed;
    size_t n_bound_items, n_unbound_items, n_bind_failed;
    int all_scripts;           /* every FILE was a plain SQL script */
    CheckedFile *files;        /* per FILE read, for the JSON summary */
    size_t n_files, cap_files;
    int input_failed;          /* a FILE could not be read (exit 2) */
} CheckRun;

const CliOpt cli_opts_check[] = {
    {"format", 'f', 1},       {"color", 0, 1},  {"input-format", 0, 1},
    {"db-id-from", 0, 1},     {"help", 'h', 0}, {"output", 'o', 1}, {"force", 0, 0},
    {"exit-zero", 0, 0},      {"stdin-filename", 0, 1}, CLI_SCHEMA_OPTIONS,
    {NULL, 0, 0}};

static void print_usage(FILE *f) { cli_schema_usage(f, usage_head, usage_tail); }

/* ------------------------------------------------------------------ */
/* Options                                                             */
/* ------------------------------------------------------------------ */

/* One option of check's own; returns -1 to go on, or an exit code. */
static int own_option(void *ctx, const char *name, const char *val) {
    CheckRun *r = ctx;
    if (strcmp(name, "help") == 0) {
        print_usage(stdout);
        cli_help_common(stdout, cli_opts_check, 1);
        return SQ_EXIT_OK;
    } else if (strcmp(name, "format") == 0) {
        unsigned formats = CLI_TEXT_OR_JSON | SQ_FMT_BIT(SQ_FMT_JSONL) | SQ_FMT_BIT(SQ_FMT_GCC) |
                           SQ_FMT_BIT(SQ_FMT_GITHUB) | SQ_FMT_BIT(SQ_FMT_JUNIT);
        if (!cli_parse_format("check", val, formats, &r->opt.format)) return SQ_EXIT_USAGE;
    } else if (strcmp(name, "color") == 0) {
        if (!cli_color_setting(val, &r->opt.color)) {
            fprintf(stderr, "squint check: --color takes auto, always or never\n");
            return SQ_EXIT_USAGE;
        }
    } else if (strcmp(name, "input-format") == 0) {
        if (!sq_input_format_parse(val, &r->opt.input_format)) {
            fprintf(stderr, "squint check: unknown input format '%s' (use auto, sql, "
                    "spider, bird, tsv, bird-pred or lines)\n", val);
            return SQ_EXIT_USAGE;
        }
    } else if (strcmp(name, "db-id-from") == 0) {
        r->opt.db_id_from = val;
    } else if (strcmp(name, "output") == 0) {
        r->opt.output = val;
    } else if (strcmp(name, "force") == 0) {
        r->opt.force = 1;
    } else if (strcmp(name, "exit-zero") == 0) {
        r->opt.exit_zero = 1;
    } else if (strcmp(name, "stdin-filename") == 0) {
        r->srcs.stdin_name = val;
    } else {
        return SQ_EXIT_USAGE;   /* "?": cli_next_opt said why */
    }
    return -1;
}

/* Returns -1 to go on, or an exit code. */
static int check_options(CliArgs *a, CheckRun *r) {
    r->opt.format = SQ_FMT_TEXT;
    r->opt.color = -1;
    return cli_schema_read_options(&r->schema, a, cli_opts_check, own_option, r);
}

/* ------------------------------------------------------------------ */
/* Checking                                                            */
/* ------------------------------------------------------------------ */

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

/* The schema of the item, looked up when its first statement needs it
** (an item with no statements needs none). */
typedef struct ItemSchema {
    const SqBenchItem *item;
    const Catalog *cat;
    int looked_up;
} ItemSchema;

/* Where an item's db_id problems are reported: its db_id, else its start. */
static SrcSpan db_id_site(const SqBenchItem *it) {
    if (it->db_id_span.file) return it->db_id_span;
    return sq_span(it->span.file, it->span.start, it->span.start);
}

static const Catalog *item_catalog(CheckRun *r, ItemSchema *is) {
    if (is->looked_up || !cli_schema_given(&r->schema)) return is->cat;
    is->looked_up = 1;
    is->cat = cli_schema_resolve(&r->schema, is->item->db_id, db_id_site(is->item));
    if (is->cat) r->n_bound_items++;
    else r->n_unbound_items++;
    return is->cat;
}

static void check_stmt(CheckRun *r, ItemSchema *is, const AstStmt *stmt) {
    SqBindOptions bind_opt = sq_db_bind_options();
    note_ignored(r, stmt);
    const Catalog *cat = item_catalog(r, is);
    if (cat && !sq_bind_stmt(r->stmt_arena, cat, r->names, &r->diags, stmt, &bind_opt))
        r->n_bind_failed++;
}

/* Parse the item statement by statement; bind each when there is a schema.
** Not sq_ctx_compile_script (api/squint.h): check notes an ignored
** statement before the item's schema is looked up, so its diagnostics
** keep their order, and it needs no IR. */
static void check_item(CheckRun *r, const SqBenchItem *it) {
    ItemSchema is = {it, NULL, 0};
    SqParser *p = sq_parser_new(it->sql, r->names, &r->diags);
    SqParseResult res;
    SqParseStatus st;
    r->n_items++;
    while ((st = sq_parser_next(p, r->stmt_arena, &res)) != SQ_PARSE_END) {
        r->n_stmts++;
        if (st == SQ_PARSE_OK) check_stmt(r, &is, res.stmt);
        else r->n_failed++;
        sq_arena_reset(r->stmt_arena);
    }
    sq_parser_free(p);
}

static void check_file(CheckRun *r, const char *path) {
    int err;
    SqSrc *src = sq_src_add_file(&r->srcs, path, &err);
    if (!src) {
        cli_io_error("check", path, err);
        r->input_failed = 1;
        return;
    }
    SqArena *items = sq_arena_new();
    SqBench b;
    size_t errors = r->diags.n_errors;
    if (sq_bench_read(&b, items, &r->srcs, src, cli_file_format(r->opt.input_format, r->has_from),
                      &r->diags) < 0)
        r->input_failed = 1;
    if (b.format != SQ_INPUT_SQL) r->all_scripts = 0;
    if (r->n_files == r->cap_files) {
        r->cap_files = r->cap_files ? 2 * r->cap_files : 8;
        r->files = sq_realloc(r->files, r->cap_files * sizeof *r->files);
    }
    r->files[r->n_files++] = (CheckedFile){path, (SqInputFormat)b.format, b.n_items};
    if (r->has_from) sq_bench_take_db_ids(&b, &r->from, &r->diags);
    /* a file squint cannot read as it is (a malformed item, items that do
    ** not pair with --db-id-from's) is an input error, as in every command;
    ** its readable items are still checked */
    if (r->diags.n_errors > errors) r->input_failed = 1;
    for (uint32_t i = 0; i < b.n_items; i++) check_item(r, &b.items[i]);
    sq_arena_free(items);
}

/* Read --db-id-from; returns -1 to go on, or an exit code. */
static int read_db_id_source(CheckRun *r) {
    if (!r->opt.db_id_from) return -1;
    r->has_from = 1;
    return cli_read_db_id_source("check", r->opt.db_id_from, &r->srcs, &r->diags, &r->from_arena,
                                 &r->from);
}

/* ------------------------------------------------------------------ */
/* Output                                                              */
/* ------------------------------------------------------------------ */

static const char *plural(size_t n) { return n == 1 ? "" : "s"; }

static void summary_text(const CheckRun *r, SqBuf *b) {
    sq_buf_printf(b, "%zu statement%s checked: %zu error%s, %zu warning%s", r->n_stmts,
                  plural(r->n_stmts), r->diags.n_errors, plural(r->diags.n_errors),
                  r->diags.n_warnings, plural(r->diags.n_warnings));
    /* Plain SQL files without a schema keep the classic line, which the
    ** golden tests pin (see the report to the lead). */
    if (!cli_schema_given(&r->schema) && r->all_scripts) {
        sq_buf_putc(b, '\n');
        return;
    }
    sq_buf_printf(b, " (%zu item%s", r->n_items, plural(r->n_items));
    if (!cli_schema_given(&r->schema)) {
        sq_buf_puts(b, "; syntax only: no schema given)\n");
        return;
    }
    sq_buf_printf(b, "; schema from %s '%s'", r->schema.option, r->schema.path);
    if (r->n_unbound_items)
        sq_buf_printf(b, "; %zu item%s not bound: no schema for their db_id",
                      r->n_unbound_items, plural(r->n_unbound_items));
    sq_buf_puts(b, ")\n");
}

static void jw_count(SqJsonWriter *w, const char *key, size_t n) {
    sq_jw_key(w, key);
    sq_jw_int(w, (int64_t)n);
}

static void files_json(const CheckRun *r, SqJsonWriter *w) {
    sq_jw_key(w, "files");
    sq_jw_arr_begin(w);
    for (size_t i = 0; i < r->n_files; i++) {
        sq_jw_obj_begin(w);
        sq_jw_key(w, "file");
        sq_jw_str(w, r->files[i].path);
        sq_jw_key(w, "format");
        sq_jw_str(w, sq_input_format_name(r->files[i].format));
        jw_count(w, "items", r->files[i].n_items);
        sq_jw_obj_end(w);
    }
    sq_jw_arr_end(w);
}

static void summary_json(const CheckRun *r, SqJsonWriter *w) {
    files_json(r, w);
    sq_jw_key(w, "summary");
    sq_jw_obj_begin(w);
    jw_count(w, "items", r->n_items);
    jw_count(w, "statements", r->n_stmts);
    jw_count(w, "failed", r->n_failed);
    jw_count(w, "bind_failed", r->n_bind_failed);
    jw_count(w, "bound_items", r->n_bound_items);
    jw_count(w, "unbound_items", r->n_unbound_items);
    jw_count(w, "errors", r->diags.n_errors);
    jw_count(w, "warnings", r->diags.n_warnings);
    sq_jw_key(w, "mode");
    sq_jw_str(w, cli_schema_given(&r->schema) ? "bind" : "syntax");
    sq_jw_key(w, "schema");
    if (!cli_schema_given(&r->schema)) {
        sq_jw_null(w);
    } else {
        sq_jw_obj_begin(w);
        sq_jw_key(w, "option");
        sq_jw_str(w, r->schema.option);
        sq_jw_key(w, "path");
        sq_jw_str(w, r->schema.path);
        sq_jw_obj_end(w);
    }
    sq_jw_obj_end(w);
}

/* A diagnostic's place in the output: by file, then offset in the file
** the user has (items of one JSON file interleave with its read-time
** warnings); ties and unplaced diagnostics keep the order of reporting. */
typedef struct DiagOrder {
    uint32_t file, offset;
    size_t seq;
    const SqDiag *g;
} DiagOrder;

static int diag_order_cmp(const void *pa, const void *pb) {
    const DiagOrder *a = pa, *b = pb;
    if (a->file != b->file) return a->file < b->file ? -1 : 1;
    if (a->offset != b->offset) return a->offset < b->offset ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* The diagnostics in output order (caller frees the array). */
static DiagOrder *sorted_diags(const CheckRun *r) {
    DiagOrder *v = sq_malloc((r->diags.n + 1) * sizeof *v);
    uint32_t file = 0, offset = 0;
    for (size_t i = 0; i < r->diags.n; i++) {
        const SqDiag *g = r->diags.items[i];
        const SqSrc *src = sq_src_get(&r->srcs, g->span.file);
        if (src) { /* an unplaced diagnostic stays after the one before it */
            SqSrcPos p = sq_src_locate(src, g->span.start);
            file = p.file->id;
            offset = p.offset;
        }
        v[i] = (DiagOrder){file, offset, i, g};
    }
    qsort(v, r->diags.n, sizeof *v, diag_order_cmp);
    return v;
}

/* Print the report to stdout or -o FILE: 0, or -1 when FILE cannot be
** written (said). */
static int report(CheckRun *r) {
    SqBuf b = SQ_BUF_INIT;
    DiagOrder *order = sorted_diags(r);
    if (r->opt.format == SQ_FMT_JSON) {
        SqJsonWriter w;
        sq_jw_init(&w, &b, 1);
        sq_jw_obj_begin(&w);
        sq_jw_key(&w, "format_version");
        sq_jw_int(&w, SQ_JSON_FORMAT_VERSION);
        sq_jw_key(&w, "diagnostics");
        sq_jw_arr_begin(&w);
        for (size_t i = 0; i < r->diags.n; i++) sq_diag_render_json(&r->diags, order[i].g, &w);
        sq_jw_arr_end(&w);
        summary_json(r, &w);
        sq_jw_obj_end(&w);
        sq_buf_putc(&b, '\n');
    } else if (r->opt.format == SQ_FMT_JSONL) {
        for (size_t i = 0; i < r->diags.n; i++) {
            SqJsonWriter w;
            sq_jw_init(&w, &b, 0);
            sq_diag_render_json(&r->diags, order[i].g, &w);
            sq_buf_putc(&b, '\n');
        }
    } else if (r->opt.format == SQ_FMT_GCC || r->opt.format == SQ_FMT_GITHUB) {
        for (size_t i = 0; i < r->diags.n; i++)
            (r->opt.format == SQ_FMT_GCC ? sq_diag_render_gcc : sq_diag_render_github)(&r->diags, order[i].g, &b);
    } else if (r->opt.format == SQ_FMT_JUNIT) {
        const SqDiag **g = sq_malloc((r->diags.n + 1) * sizeof *g);
        const char **paths = sq_malloc((r->n_files + 1) * sizeof *paths);
        for (size_t i = 0; i < r->diags.n; i++) g[i] = order[i].g;
        for (size_t i = 0; i < r->n_files; i++) paths[i] = r->files[i].path;
        sq_diag_render_junit(&b, "squint check", &r->diags, g, r->diags.n, paths, r->n_files);
        free(paths);
        free(g);
    } else {
        for (size_t i = 0; i < r->diags.n; i++)
            sq_diag_render_text(&r->diags, order[i].g, &b, r->opt.color ? SQ_RENDER_COLOR : 0);
        summary_text(r, &b);
    }
    free(order);
    int rc = cli_report_write("check", r->opt.output, &b);
    sq_buf_free(&b);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Entry                                                               */
/* ------------------------------------------------------------------ */

static void run_init(CheckRun *r) {
    memset(r, 0, sizeof *r);
    cli_schema_init(&r->schema, "check");
    sq_srcset_init(&r->srcs);
    sq_diags_init(&r->diags, &r->srcs);
    r->names = sq_interner_new();
    r->stmt_arena = sq_arena_new();
    r->all_scripts = 1;
}

static void run_free(CheckRun *r) {
    cli_schema_free(&r->schema);
    sq_arena_free(r->stmt_arena);
    if (r->from_arena) sq_arena_free(r->from_arena);
    free(r->files);
    sq_interner_free(r->names);
    sq_diags_free(&r->diags);
    sq_srcset_free(&r->srcs);
}

/* Whether -o FILE may be written: never a FILE, the schema or the
** --db-id-from file. */
static int output_check(CheckRun *r, const CliArgs *a) {
    const SqOutInput more[] = {{r->schema.path, r->schema.option}, {r->opt.db_id_from, "--db-id-from"}};
    return cli_report_check("check", r->opt.output, r->opt.force, a, more, SQ_ARRAY_LEN(more));
}

/* Check every FILE operand, print the report; returns the exit code. */
static int run_files(CheckRun *r, const CliArgs *a) {
    for (int i = a->i; i < a->argc; i++) check_file(r, a->argv[i]);
    if (report(r) < 0 || r->input_failed || r->schema.n_failures) return SQ_EXIT_USAGE;
    return r->diags.n_errors && !r->opt.exit_zero ? SQ_EXIT_FINDINGS : SQ_EXIT_OK;
}

int cmd_check(int argc, char **argv) {
    CheckRun r;
    run_init(&r);
    CliArgs a;
    cli_args_init(&a, argc, argv, "check");
    a.operands = CLI_OPERANDS_PROJECT;
    int rc = check_options(&a, &r);
    if (r.opt.color < 0) r.opt.color = r.opt.output ? 0 : cli_stdout_color_default();
    if (rc < 0 && r.opt.output && output_check(&r, &a) < 0) rc = SQ_EXIT_USAGE;
    if (rc < 0 && cli_schema_start(&r.schema, &r.srcs, r.names, &r.diags) < 0)
        rc = SQ_EXIT_USAGE;
    if (rc < 0) rc = read_db_id_source(&r);
    if (rc < 0) rc = run_files(&r, &a);
    else if (r.diags.n) report(&r); /* why --db-id-from could not be read */
    run_free(&r);
    return rc;
}
