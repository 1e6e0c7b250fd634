/*
** cmd_compile.c -- `squint compile`: annotated query files, sqlc's way
** ("-- name: GetAuthor :one"), compiled against a schema into a JSON
** manifest of typed queries (docs/squint-compile.md).
**
** Each file is read for its annotations (backend/cbind/annot.c), then
** compiled statement by statement (api/); each query's signature is
** inferred from its IR and checked against SQLite itself: the statement
** is prepared on an empty database of the schema, and a count or name of
** result columns that differs from squint's is an internal error,
** reported loudly, so the types can never drift from SQLite.
**
** SELECT, INSERT, UPDATE and DELETE (these through their probe SELECT,
** backend/cbind/dml.c), with sqlc's macros (the query files are read
** with SQ_SRC_SQLC_MACROS).  Beside the manifest, the C bindings P.h and
** P.c (backend/cbind/emit_c.c), all written or none.
*/
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "api/squint.h"
#include "backend/cbind/cbind.h"
#include "backend/fixture/fixture.h"
#include "backend/sqlite/db.h"
#include "backend/sqlite/prepq.h"
#include "frontend/bind.h"
#include "cli/cli.h"
#include "cli/cli_schema.h"
#include "cli/cli_config.h"
#include "cli/cli_walk.h"
#include "cli/compile_config.h"
#include "runtime/safewrite.h"
#include "runtime/strmap.h"
#include "runtime/task.h"
#include "runtime/util.h"

static const char usage_head[] =
    "usage: squint compile [options] [-f squint.json]\n"
    "       squint compile [options] SCHEMA-OPTION QUERIES...\n"
    "\n"
    "Compile annotated query files, as sqlc reads them ('-- name: GetAuthor :one'\n"
    "before each statement; :one, :many, :exec, :execrows, :execlastid), against a\n"
    "schema, and write DIR/queries.json: per query its parameters (numbered as\n"
    "SQLite numbers them, named and typed from where they are used) and its result\n"
    "columns (type, nullability, the table column they come from); and the C\n"
    "bindings DIR/NAME.h and DIR/NAME.c, a function per query over SQLite.  Each\n"
    "query is also prepared by SQLite on the schema, and any difference in its\n"
    "result columns is reported as an internal error.  docs/squint-compile.md.\n"
    "\n"
    "The first form compiles the packages of a config file (-f FILE, or\n"
    "./squint.json when neither -f nor a schema option is given); the second one\n"
    "package from the command line.  QUERIES are files or directories (their\n"
    "*.sql files, in name order).\n"
    "\n"
    "options:\n"
    "  -f, --file FILE        the config file (docs/squint-compile.md)\n"
    "      --out DIR          where queries.json, NAME.h and NAME.c go (default: the\n"
    "                         current directory; made when missing); an existing\n"
    "                         file is replaced only when squint compile wrote it\n"
    "                         (or --force), and left alone when it already holds\n"
    "                         what this run writes\n"
    "      --name NAME        the package's name: the manifest's, the C files', the\n"
    "                         prefix of the C symbols (a C identifier; default queries)\n"
    "      --force            replace the outputs whatever they hold\n"
    "      --check            write nothing; exit 1 when an output is missing or not\n"
    "                         what this run would write (for CI)\n"
    "      --strict           warnings are errors (config: \"strict\": true)\n"
    "      --emit-json        the manifest only, no C (config: \"emit_json\": true)\n"
    "      --color WHEN       color diagnostics: auto (default), always, never\n"
    "  -h, --help             show this help\n"
    "      --version          print the version and exit\n"
    "\n";

static const char usage_tail[] =
    "\n"
    "Query files may use sqlc's macros sqlc.arg(x), sqlc.narg(x), sqlc.slice(x).\n"
    "\n"
    "exit status: 0 every query compiled; 1 errors in the queries or their\n"
    "annotations, or two queries whose C names clash (diagnostics on stderr;\n"
    "nothing is written), or with --check an output that is missing or out of\n"
    "date; 2 bad usage, a file\n"
    "or schema that cannot be read, an output that may not be written; 3 squint\n"
    "and SQLite disagree on a query (an internal error, E0599).\n" CLI_EXIT_OOM;

const CliOpt cli_opts_compile[] = {
    {"out", 0, 1}, {"name", 0, 1}, {"force", 0, 0}, {"check", 0, 0}, {"color", 0, 1}, {"help", 'h', 0},
    {"file", 'f', 1}, {"strict", 0, 0}, {"emit-json", 0, 0},
    CLI_SCHEMA_OPTIONS,
    {NULL, 0, 0},
};

typedef struct CompileRun {
    SqSrcSet srcs;
    SqDiags diags;
    SqInterner *names;
    SqArena *arena;         /* annotations and signatures */
    const char *config;     /* -f FILE */
    int force, check, color, disagreements, input_failed;
    /* the package being compiled: the options', or one of the config's */
    CliSchema schema;
    const char *out_dir, *package;
    int strict, emit_json;
    SqStrMap *seen;         /* query names across its files */
    SqCompiledQuery *queries;
    size_t n, cap;
    SqPrepQueue *sqlite;    /* SQLite's view: every compiled query, queued */
    /* the file being compiled */
    const SqSrc *src;
    SqAnnotator anns;
} CompileRun;

static int own_option(void *ctx, const char *name, const char *val) {
    CompileRun *r = ctx;
    if (strcmp(name, "?") == 0) return SQ_EXIT_USAGE;   /* cli_next_opt said why */
    if (strcmp(name, "help") == 0) {
        cli_schema_usage(stdout, usage_head, usage_tail);
        cli_help_common(stdout, cli_opts_compile, 0);
        return SQ_EXIT_OK;
    }
    if (strcmp(name, "name") == 0 && !sq_cbind_is_c_identifier(val, strlen(val))) {
        fprintf(stderr, "squint compile: --name '%s' is no C identifier: it is the prefix of the generated C "
                        "symbols\n", val);
        return SQ_EXIT_USAGE;
    }
    if (strcmp(name, "out") == 0) r->out_dir = val;
    else if (strcmp(name, "name") == 0) r->package = val;
    else if (strcmp(name, "force") == 0) r->force = 1;
    else if (strcmp(name, "check") == 0) r->check = 1;
    else if (strcmp(name, "file") == 0) r->config = val;
    else if (strcmp(name, "strict") == 0) r->strict = 1;
    else if (strcmp(name, "emit-json") == 0) r->emit_json = 1;
    else if (strcmp(name, "color") == 0 && !cli_color_setting(val, &r->color)) {
        fputs("squint compile: --color takes auto, always or never\n", stderr);
        return SQ_EXIT_USAGE;
    }
    return -1;
}

/* ---- SQLite's view ------------------------------------------------------- */

/* Queue the query to SQLite, whose database is the schema's empty
** fixture, started with the package's first query.  Query i of the package
** is the queue's statement i. */
static void queue_for_sqlite(CompileRun *r, const Catalog *cat, const SqAnnotation *a, const SqSignature *sig) {
    if (!r->sqlite) {
        SqFixture empty;
        sq_fixture_init(&empty, cat);
        SqBuf script = SQ_BUF_INIT;
        sq_fixture_sql(&empty, &script);
        r->sqlite = sq_prepq_start(sq_buf_str(&script));
        sq_buf_free(&script);
        sq_fixture_free(&empty);
    }
    sq_prepq_add(r->sqlite, sq_cbind_sql(r->src, a->stmt, sig, SQ_SQL_FOR_SQLITE, r->arena));
}

/* Where squint's parameters differ from SQLite's (its names: as written,
** NULL for "?"; squint's keys are the same with sqlc's macros as :name):
** a sentence into why. */
static void params_differ(const SqSignature *sig, const SqDbParams *sp, SqBuf *why) {
    uint32_t max = 0;
    for (uint32_t i = 0; i < sig->n_params; i++)
        if (sig->params[i].index > max) max = sig->params[i].index;
    if (max != sp->n) {
        sq_buf_printf(why, "SQLite numbers %u parameters, squint %u", sp->n, max);
        return;
    }
    for (uint32_t i = 0; i < sig->n_params && !why->len; i++) {
        const SqParamInfo *p = &sig->params[i];
        const char *theirs = sp->names[p->index - 1];
        if (strcmp(theirs ? theirs : "?", p->key) != 0)
            sq_buf_printf(why, "SQLite names parameter %u '%s', squint '%s'", p->index, theirs ? theirs : "?", p->key);
    }
}

/* Where SQLite's outcome for a query differs from squint's signature: a
** sentence into why. */
static void outcome_differs(const SqPrepOutcome *o, const SqSignature *sig, SqBuf *why) {
    if (!o->ok) {
        sq_buf_printf(why, "SQLite does not prepare it (%s), squint compiled it", o->err ? o->err : "?");
    } else if (o->cols.n_cols != sig->n_cols) {
        sq_buf_printf(why, "SQLite gives it %u result columns, squint %u", o->cols.n_cols, sig->n_cols);
    } else {
        for (uint32_t i = 0; i < sig->n_cols && !why->len; i++)
            if (strcmp(o->cols.col_names[i], sig->cols[i].name) != 0)
                sq_buf_printf(why, "SQLite names result column %u '%s', squint '%s'", i + 1, o->cols.col_names[i],
                              sig->cols[i].name);
        if (!why->len) params_differ(sig, &o->params, why);
    }
}

/* Whether SQLite gave every query of the package the columns and
** parameters squint found: an E0599 error for each that it did not (after
** the package's other diagnostics, since SQLite's answers are collected
** at its end).  A schema SQLite does not load is reported once. */
static void collect_sqlite_view(CompileRun *r) {
    if (!r->sqlite) return;
    char *open_err = NULL;
    size_t n = sq_prepq_finish(r->sqlite, &open_err);
    if (n == (size_t)-1) {
        fprintf(stderr, "squint compile: internal error: SQLite does not load the schema squint read (%s); "
                        "this is a bug in squint; please report it with the schema\n", open_err);
        free(open_err);
        r->disagreements++;
        return;
    }
    SqBuf why = SQ_BUF_INIT;
    for (size_t i = 0; i < n; i++) {
        const SqCompiledQuery *q = &r->queries[i];
        sq_buf_reset(&why);
        outcome_differs(sq_prepq_outcome(r->sqlite, i), &q->sig, &why);
        if (!why.len) continue;
        SqDiag *g = sq_diag_add(&r->diags, SQ_SEV_ERROR, SQ_E_SQLITE_DIFFERS, q->ann->stmt, "internal error: %s",
                                why.data);
        sq_diag_help(g, "this is a bug in squint; please report it with the query and the schema");
        r->disagreements++;
    }
    sq_buf_free(&why);
}

/* ---- one file --------------------------------------------------------------- */

static int is_dml(uint8_t kind) {
    return kind == AST_STMT_INSERT || kind == AST_STMT_UPDATE || kind == AST_STMT_DELETE;
}

/* An INSERT, UPDATE or DELETE bound and lowered through its probe (a
** SELECT of its expressions, backend/cbind/dml.c); NULL after errors. */
static IrQuery *compile_dml(CompileRun *r, SqCompiled *s, SqDmlProbe *probe) {
    SqContext *c = &r->schema.ctx;
    if (sq_cbind_dml_probe(s->stmt, s->cat, c->names, s->arena, &r->diags, probe) < 0) return NULL;
    const BndStmt *b = sq_bind_stmt(s->arena, s->cat, c->names, &r->diags, probe->stmt, &c->bind_opt);
    return b ? ir_lower(s->arena, b) : NULL;
}

static int each_statement(void *ctx, SqCompiled *s) {
    CompileRun *r = ctx;
    if (s->status == SQ_COMPILE_END) {
        sq_cbind_annot_end(&r->anns, s->comments, s->n_comments);
        return 0;
    }
    const SqAnnotation *a = sq_cbind_annot_next(&r->anns, s->span, s->stmt, s->comments, s->n_comments);
    if (!a) return 0;   /* its annotation's error, or its syntax error, is reported */
    IrQuery *ir = s->ir;
    SqDmlProbe probe, *dml = NULL;
    if (s->status == SQ_COMPILE_NOT_QUERY && is_dml(s->stmt->kind)) {
        if (!(ir = compile_dml(r, s, &probe))) return 0;
        dml = &probe;
    } else if (s->status == SQ_COMPILE_NOT_QUERY) {
        sq_diag_add(&r->diags, SQ_SEV_ERROR, SQ_E_NOT_COMPILED, a->stmt,
                    "not a query: a query file holds SELECT, INSERT, UPDATE and DELETE statements");
        return 0;
    } else if (s->status != SQ_COMPILE_OK) {
        return 0;   /* the compiler reported it */
    }
    if (r->n == r->cap) r->queries = sq_realloc(r->queries, (r->cap = r->cap ? 2 * r->cap : 16) * sizeof *r->queries);
    SqCompiledQuery *q = &r->queries[r->n++];
    q->ann = a;
    q->src = r->src;
    sq_cbind_infer(ir, dml, r->arena, &r->diags, &q->sig);
    q->sql = sq_cbind_sql(r->src, a->stmt, &q->sig, SQ_SQL_NUMBERED, r->arena);
    queue_for_sqlite(r, s->cat, a, &q->sig);
    SqCbindWarnCtx w = {s->cat, r->schema.ctx.names, &r->srcs, &r->diags};
    sq_cbind_warn(&w, a, s->stmt, ir, &q->sig);
    return 0;
}

static void compile_file(CompileRun *r, const char *path, const Catalog *cat) {
    int err;
    SqSrc *src = sq_src_add_file(&r->srcs, path, &err);
    if (!src) {
        cli_io_error("compile", path, err);
        r->input_failed = 1;
        return;
    }
    src->flags |= SQ_SRC_SQLC_MACROS;
    r->src = src;
    sq_cbind_annot_init(&r->anns, src, r->seen, &r->diags, r->arena);
    sq_ctx_compile_script(&r->schema.ctx, src, cat, NULL, SQ_SCRIPT_END_CALL, each_statement, r);
}

/* ---- the outputs --------------------------------------------------------------- */
/* DIR/queries.json, and unless --emit-json the C bindings DIR/P.h and
** DIR/P.c: all written or none, each replacing only a file squint compile
** wrote (or any, --force); with --check, each compared instead. */

/* One file squint compile writes. */
typedef struct OutFile {
    SqBuf path, text;
} OutFile;

/* What an output's path holds now: nothing, exactly the output's text, an
** older file squint compile wrote (a manifest, or C that opens with its
** mark), or anything else (also a file that cannot be read). */
typedef enum OutState { OUT_MISSING, OUT_SAME, OUT_OURS, OUT_FOREIGN } OutState;

/* The file is read once, for both questions, and only as far as needed. */
static OutState out_state(const OutFile *f) {
    char head[64];
    int err;
    int same = sq_file_holds(f->path.data, f->text.data, f->text.len, head, sizeof head, &err);
    if (same < 0) return err == ENOENT ? OUT_MISSING : OUT_FOREIGN;
    if (same) return OUT_SAME;
    if (strncmp(head, "{\"squint_compile\":", 18) == 0 || strncmp(head, "{\n  \"squint_compile\":", 21) == 0 ||
        strncmp(head, SQ_CBIND_C_MARK, strlen(SQ_CBIND_C_MARK)) == 0)
        return OUT_OURS;
    return OUT_FOREIGN;
}

/* --check: whether f's file holds exactly its text.  0, or -1 after a
** message saying it is missing or out of date. */
static int check_file(const OutFile *f) {
    OutState st = out_state(f);
    if (st == OUT_SAME) {
        fprintf(stderr, "squint compile: %s is up to date\n", f->path.data);
        return 0;
    }
    fprintf(stderr, "squint compile: %s is %s; run squint compile without --check to write it\n", f->path.data,
            st != OUT_MISSING ? "out of date" : "missing");
    return -1;
}

/* The outputs' paths and texts into out (3 at most); 0, or -1 after a
** message when two names of the C bindings clash. */
typedef struct ManifestJob {
    const CompileRun *r;
    SqBuf *out;
} ManifestJob;

static void manifest_job(void *arg) {
    ManifestJob *j = arg;
    SqJsonWriter w;
    sq_jw_init(&w, j->out, 1);
    sq_cbind_manifest(&w, j->r->package, j->r->queries, j->r->n);
    sq_buf_putc(j->out, '\n');
}

/* The manifest is written on a thread of its own while the C bindings are
** written here: it only reads the compiled queries (and their sources'
** line tables, built first). */
static int make_outputs(CompileRun *r, OutFile *out, size_t *n) {
    memset(out, 0, 3 * sizeof *out);
    for (size_t i = 0; i < r->n; i++) sq_src_index(r->queries[i].src);
    ManifestJob job = {r, &out[0].text};
    SqTask *t = sq_task_start(manifest_job, &job);
    sq_buf_printf(&out[0].path, "%s/queries.json", r->out_dir);
    *n = 1;
    int rc = 0;
    size_t first = r->diags.n;
    if (!r->emit_json) rc = sq_cbind_emit_c(&out[1].text, &out[2].text, r->package, r->queries, r->n, &r->diags);
    sq_task_join(t);
    if (r->emit_json) return 0;
    if (rc < 0) {
        cli_print_diags_text(&r->diags, first, r->color);
        fprintf(stderr, "squint compile: the C names clash; nothing written for %s\n", r->package);
    }
    sq_buf_printf(&out[1].path, "%s/%s.h", r->out_dir, r->package);
    sq_buf_printf(&out[2].path, "%s/%s.c", r->out_dir, r->package);
    *n = 3;
    return rc;
}

/* mkdir -p: dir and the directories above it that are missing. */
static int make_dirs(const char *dir) {
    char *path = sq_strdup(dir);
    int rc = 0;
    for (char *p = path + 1; rc == 0 && *p; p++) {
        if (*p != '/') continue;
        *p = 0;
        if (mkdir(path, 0777) < 0 && errno != EEXIST) rc = -1;
        *p = '/';
    }
    if (rc == 0 && mkdir(path, 0777) < 0 && errno != EEXIST) rc = -1;
    free(path);
    return rc;
}

/* Whether every output may be written, given what each path holds now:
** 0, or -1 after a message. */
static int may_write(const CompileRun *r, const OutFile *out, const OutState *st, size_t n) {
    if (make_dirs(r->out_dir) < 0) {
        fprintf(stderr, "squint compile: --out: cannot make '%s': %s\n", r->out_dir, strerror(errno));
        return -1;
    }
    int rc = 0;
    for (size_t i = 0; i < n && !r->force; i++) {
        if (st[i] != OUT_FOREIGN) continue;
        fprintf(stderr, "squint compile: '%s' exists and is not a file squint compile wrote; pass --force to "
                        "replace it\n", out[i].path.data);
        rc = -1;
    }
    return rc;
}

static int write_file(const OutFile *f) {
    int err;
    if (sq_write_replace(f->path.data, f->text.data, f->text.len, &err) == 0) return 0;
    fprintf(stderr, "squint compile: cannot write '%s': %s\n", f->path.data, strerror(err));
    return -1;
}

/* --check: 0 every output up to date, else SQ_EXIT_FINDINGS after a
** message for each that is not. */
static int check_outputs(const OutFile *out, size_t n) {
    int rc = 0;
    for (size_t i = 0; i < n; i++)
        if (check_file(&out[i]) < 0) rc = SQ_EXIT_FINDINGS;
    return rc;
}

/* The paths of the outputs whose flag in which is set, as "A", "A and B"
** or "A, B and C". */
static void list_paths(const OutFile *out, const int *which, size_t n, int set) {
    size_t total = 0, k = 0;
    for (size_t i = 0; i < n; i++) total += which[i] == set;
    for (size_t i = 0; i < n; i++) {
        if (which[i] != set) continue;
        fprintf(stderr, "%s%s", k == 0 ? "" : k + 1 < total ? ", " : " and ", out[i].path.data);
        k++;
    }
}

/* Every output written, but for those that already hold exactly their
** text: they are left alone, mtime included, so that a build that depends
** on them does nothing.  0, or -1 after a message. */
static int write_outputs(const CompileRun *r, const OutFile *out, size_t n) {
    OutState st[3];
    int same[3];
    size_t n_same = 0;
    for (size_t i = 0; i < n; i++) {
        st[i] = out_state(&out[i]);
        same[i] = st[i] == OUT_SAME;
        n_same += (size_t)same[i];
    }
    if (may_write(r, out, st, n) < 0) return -1;
    for (size_t i = 0; i < n; i++)
        if (!same[i] && write_file(&out[i]) < 0) return -1;
    fprintf(stderr, "squint compile: %zu quer%s", r->n, r->n == 1 ? "y" : "ies");
    if (n_same < n) {
        fputs(" written to ", stderr);
        list_paths(out, same, n, 0);
    }
    if (n_same) {
        fputs(n_same < n ? "; " : ": ", stderr);
        list_paths(out, same, n, 1);
        fputs(n_same == 1 ? " is already up to date" : " are already up to date", stderr);
    }
    fputc('\n', stderr);
    return 0;
}

/* The package's outputs: 0 written (or, with --check, up to date),
** SQ_EXIT_FINDINGS out of date or the C names clash, -1 not written. */
static int emit_outputs(CompileRun *r) {
    OutFile out[3];
    size_t n;
    int rc = make_outputs(r, out, &n) < 0 ? SQ_EXIT_FINDINGS : 0;
    if (rc == 0) rc = r->check ? check_outputs(out, n) : write_outputs(r, out, n);
    for (size_t i = 0; i < n; i++) {
        sq_buf_free(&out[i].path);
        sq_buf_free(&out[i].text);
    }
    return rc;
}

/* ---- the command ------------------------------------------------------------- */

/* QUERIES: a file, or a directory's *.sql files in name order. */
static void compile_path(CompileRun *r, const char *path, const Catalog *cat) {
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
        compile_file(r, path, cat);
        return;
    }
    size_t n;
    const char **files = sq_dir_sql_files(r->arena, path, &n);
    for (size_t i = 0; i < n; i++) compile_file(r, files[i], cat);
    if (!n) fprintf(stderr, "squint compile: the directory '%s' holds no query file (*.sql)\n", path);
}

/* One package: compile its files, then write (or --check) its outputs
** unless there are errors (warnings too, --strict).  Its exit code. */
static int run_package(CompileRun *r, const char *const *files, size_t n_files) {
    size_t first = r->diags.n, errors = r->diags.n_errors, warnings = r->diags.n_warnings;
    if (cli_schema_start(&r->schema, &r->srcs, r->names, &r->diags) < 0) return SQ_EXIT_USAGE;
    const Catalog *cat = cli_schema_resolve(&r->schema, NULL, sq_span(0, 0, 0));
    if (!cat) {
        cli_print_diags_text(&r->diags, first, r->color);
        return SQ_EXIT_USAGE;
    }
    for (size_t i = 0; i < n_files; i++) compile_path(r, files[i], cat);
    collect_sqlite_view(r);
    cli_print_diags_text(&r->diags, first, r->color);
    if (r->input_failed) return SQ_EXIT_USAGE;
    if (r->disagreements) return SQ_EXIT_UNKNOWN;
    size_t bad = r->diags.n_errors - errors + (r->strict ? r->diags.n_warnings - warnings : 0);
    if (bad) {
        fprintf(stderr, "squint compile: %zu error%s%s; nothing written for %s\n", bad, bad == 1 ? "" : "s",
                r->strict && r->diags.n_warnings > warnings ? " (warnings count, --strict)" : "", r->package);
        return SQ_EXIT_FINDINGS;
    }
    int wrote = emit_outputs(r);
    return wrote < 0 ? SQ_EXIT_USAGE : wrote;
}

/* Forget the package compiled last. */
static void end_package(CompileRun *r) {
    sq_prepq_free(r->sqlite);
    r->sqlite = NULL;
    r->n = 0;
    r->input_failed = r->disagreements = 0;
    cli_schema_free(&r->schema);
    cli_schema_init(&r->schema, "compile");
    sq_strmap_free(r->seen);
    r->seen = sq_strmap_new();
}

/* The worse of two exit codes: unknown (3) over usage (2) over findings. */
static int worse(int a, int b) {
    static const int rank[] = {[SQ_EXIT_OK] = 0, [SQ_EXIT_FINDINGS] = 1, [SQ_EXIT_USAGE] = 2, [SQ_EXIT_UNKNOWN] = 3};
    return rank[b] > rank[a] ? b : a;
}

/* Every package of the config file, in order. */
static int run_config(CompileRun *r, const char *path) {
    CompileConfig cfg;
    size_t first = r->diags.n;
    int rc = 0;
    if (!cli_config_path() || strcmp(cli_config_path(), path) != 0)   /* -f: the rest of it checked too */
        rc = cli_config_check_file(path, r->arena, &r->srcs, &r->diags, NULL);
    if (rc == 0) rc = compile_config_read(path, &r->srcs, &r->diags, r->arena, &cfg);
    if (rc < 0) {
        cli_print_diags_text(&r->diags, first, r->color);
        if (rc == -1) fprintf(stderr, "squint compile: '%s' has errors; nothing compiled\n", path);
        return SQ_EXIT_USAGE;
    }
    int worst = SQ_EXIT_OK;
    for (size_t i = 0; i < cfg.n; i++) {
        const CompilePackage *p = &cfg.pkgs[i];
        cli_schema_option(&r->schema, "schema", p->schema);
        r->package = p->name;
        r->out_dir = p->out;
        r->strict = p->strict;
        r->emit_json = p->emit_json;
        worst = worse(worst, run_package(r, p->queries, p->n_queries));
        end_package(r);
    }
    return worst;
}

/* Options up to the operands (the schema options into r->schema); -1 to
** go on, or an exit code. */
static int read_options(CompileRun *r, CliArgs *a) {
    const char *name, *val;
    while ((name = cli_next_opt(a, cli_opts_compile, &val)) != NULL) {
        int handled = cli_schema_option(&r->schema, name, val);
        if (handled < 0) return SQ_EXIT_USAGE;
        if (handled) continue;
        int rc = own_option(r, name, val);
        if (rc >= 0) return rc;
    }
    return a->i > a->argc ? SQ_EXIT_USAGE : -1;
}

/* Which form the command line is: a config file (its path) or NULL for
** a package of the options; *rc an exit code when it is neither. */
static const char *config_path(CompileRun *r, const CliArgs *a, int *rc) {
    int given = cli_schema_given(&r->schema), operands = a->i < a->argc;
    int on_line = cli_args_gave_schema(a);   /* not only the project file */
    const SqJson *pkgs = cli_config_member("packages");
    *rc = -1;
    if (r->config && (given || operands)) {
        fputs("squint compile: -f takes the schema and the queries from the file; give no schema option "
              "or query file with it\n", stderr);
    } else if (r->config) {
        return r->config;
    } else if (!on_line && !operands && pkgs) {
        end_package(r);   /* the project's schema options: each package names its schema */
        return cli_config_path();
    } else if (!given) {
        fputs("squint compile: a schema option is needed (--schema FILE, --db FILE, ...), or a config file "
              "(-f squint.json)\ntry 'squint compile --help'\n", stderr);
    } else if (!operands) {
        fputs("squint compile: no query file\ntry 'squint compile --help'\n", stderr);
    } else {
        return NULL;
    }
    *rc = SQ_EXIT_USAGE;
    return NULL;
}

int cmd_compile(int argc, char **argv) {
    CompileRun r;
    memset(&r, 0, sizeof r);
    r.arena = sq_arena_new();
    r.names = sq_interner_new();
    r.seen = sq_strmap_new();
    r.out_dir = ".";
    r.package = "queries";
    r.color = -1;
    sq_srcset_init(&r.srcs);
    sq_diags_init(&r.diags, &r.srcs);
    cli_schema_init(&r.schema, "compile");
    CliArgs a;
    cli_args_init(&a, argc, argv, "compile");
    int rc = read_options(&r, &a);
    if (r.color < 0) r.color = cli_stderr_color_default();
    const char *config = rc < 0 ? config_path(&r, &a, &rc) : NULL;
    if (config) {
        rc = run_config(&r, config);
    } else if (rc < 0) {
        rc = run_package(&r, (const char *const *)a.argv + a.i, (size_t)(a.argc - a.i));
        end_package(&r);
    }
    free(r.queries);
    cli_schema_free(&r.schema);
    sq_diags_free(&r.diags);
    sq_srcset_free(&r.srcs);
    sq_strmap_free(r.seen);
    sq_interner_free(r.names);
    sq_arena_free(r.arena);
    return rc;
}
