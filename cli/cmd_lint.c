/*
** cmd_lint.c -- `squint lint`: find likely bugs in SQL and benchmark gold
** queries.
**
** Layer: cli.  Every query of every FILE (read as `squint check` reads
** them) is bound, lowered and given to the lint rules (passes/lint); with
** a database (--db, --db-root) the data rules run on it too
** (backend/lint/lint_data.h).  Syntax and binding errors are findings as
** well, the name errors under the binder rules' names.  Then the findings
** are filtered -- rules turned off, `-- noqa` comments, the ignore entries
** and threshold of the configuration (lint_config.h), --severity -- sorted
** by position and written as text, JSON or SARIF (lint_output.h).
** Problems with the input itself (unreadable files, schemas,
** configurations) go to standard error and make the exit status 2.
*/
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/lint/lint_data.h"
#include "backend/lint/lint_prove.h"
#include "cli/cli.h"
#include "cli/cli_queries.h"
#include "backend/lint/lint_config.h"
#include "cli/cli_config.h"
#include "cli/cli_walk.h"
#include "backend/lint/lint_noqa.h"
#include "backend/lint/lint_output.h"

static const char usage_head[] =
    "usage: squint lint [options] FILE...\n"
    "\n"
    "Find likely bugs in SQL: in .sql files and in benchmark files (Spider or BIRD\n"
    "dev.json, SQL<TAB>db_id lines, BIRD predictions), as 'squint check' reads\n"
    "them.  Each finding names its rule, the exact expression and what to do;\n"
    "docs/rules.md explains every rule.  With --db or --db-root the rules that need\n"
    "the data run too: each query is run read-only on its database.\n"
    "\n"
    "rules:\n"
    "      --rules LIST       run only these rules (names or ids, comma-separated)\n"
    "      --disable LIST     do not run these rules\n"
    "      --severity LEVEL   report findings at or above LEVEL: info (default),\n"
    "                         warning or error\n"
    "      --config FILE      read this configuration instead of the nearest\n"
    "                         .squint.json above each FILE\n"
    "      --no-config        read no configuration file\n"
    "      --no-data          do not run queries on the database, even when one is\n"
    "                         given (schema rules only)\n"
    "      --timeout SEC      time limit for each query run on the database\n"
    "                         (default 10)\n"
    "      --prove            also run the rules that ask the solver\n"
    "                         (gold-always-empty): a search per query\n"
    "      --prove-rlimit N   z3's resource units per query for them (default\n"
    "                         10000000; the findings do not depend on the\n"
    "                         machine's speed)\n"
    "      --list-rules       list the rules and exit\n"
    "\n"
    "output:\n"
    "  -f, --format FMT       text (default), json, sarif (SARIF 2.1.0), jsonl (a\n"
    "                         finding per line; also json-lines), gcc (gcc's\n"
    "                         'file:line:col: warning: message [rule]' lines),\n"
    "                         github (GitHub Actions annotations) or junit (JUnit\n"
    "                         XML)\n"
    "  -o, --output FILE      write the report to FILE instead of standard output\n"
    "                         (an existing FILE only when it is a report squint\n"
    "                         wrote, or with --force; never an input)\n"
    "      --force            let --output replace any file but an input\n"
    "      --exit-zero        exit 0 even with findings (2 still for bad input)\n"
    "  -h, --help             show this help\n"
    "      --version          print the version and exit\n"
    "\n"
    "input:\n";

static const char usage_tail[] =
    "\n"
    "exit status: 0 no findings at or above the threshold, 1 findings, 2 usage\n"
    "error, or an input squint cannot read: a missing or unreadable file, an\n"
    "empty or invalid JSON file, a malformed benchmark item, a schema that\n"
    "cannot be read or lacks an item's db_id, a configuration it cannot use\n"
    CLI_EXIT_OOM;

const CliOpt cli_opts_lint[] = {
    {"rules", 0, 1},   {"disable", 0, 1},  {"severity", 0, 1},   {"config", 0, 1},
    {"no-config", 0, 0}, {"no-data", 0, 0}, {"timeout", 0, 1},   {"list-rules", 0, 0},
    {"prove", 0, 0},   {"prove-rlimit", 0, 1},
    {"format", 'f', 1}, {"output", 'o', 1}, {"force", 0, 0}, {"exit-zero", 0, 0},
    {"help", 'h', 0},   CLI_QUERIES_OPTIONS, {NULL, 0, 0}};

/* An open database, by path. */
typedef struct OpenDb {
    char *path;
    SqDb *db;             /* NULL when it could not be opened (reported) */
} OpenDb;

/* What applies to the findings of one FILE. */
typedef struct FileSettings {
    const char *path;                        /* absolute when it can be resolved */
    const SqLintFile *config;                /* NULL: none */
    SqLintConfig rules;                      /* the configuration's, then the options' */
    int threshold;                           /* SqSeverity */
} FileSettings;

typedef struct LintRun {
    CliQueries cq;
    SqFormat format;
    uint8_t only[SQ_LINT__COUNT], has_only;  /* --rules */
    uint8_t disable[SQ_LINT__COUNT];        /* --disable */
    int threshold;                           /* --severity, or -1 */
    const char *config_path;                 /* --config */
    int no_config, no_data;
    double timeout;
    int prove;                               /* --prove */
    const char *output;                      /* -o FILE, or NULL: stdout */
    int force, exit_zero;                    /* --force, --exit-zero */
    uint64_t prove_rlimit;                   /* --prove-rlimit */
    SqArena *arena;                          /* configurations, paths */
    SqLintFile *configs;                     /* one per distinct file read */
    uint32_t n_configs, cap_configs;
    uint8_t *config_ok;                      /* per configuration: it could be used */
    uint32_t n_config_ok, cap_config_ok;
    int config_failed;
    FileSettings *cur;                       /* the current FILE's */
    OpenDb *dbs;
    uint32_t n_dbs, cap_dbs;
    SqLintTotals totals;
    const char **paths;                      /* each FILE, for totals.paths (arena) */
    uint32_t n_paths, cap_paths;
    int color;                               /* findings on stdout in color */
    size_t first_diag;                       /* diagnostics before this are not the FILE's */
    const FileSettings **diag_file;          /* per diagnostic: its FILE's settings */
    size_t n_tagged;
} LintRun;

/* ------------------------------------------------------------------ */
/* Options                                                             */
/* ------------------------------------------------------------------ */

static int rule_list(const char *opt, const char *list, uint8_t *set) {
    char *copy = sq_strdup(list);
    int ok = 1;
    for (char *tok = strtok(copy, ", "); tok; tok = strtok(NULL, ", ")) { /* blanks too, as in -- noqa */
        int r = sq_lint_rule_find(tok);
        if (r < 0) {
            fprintf(stderr, "squint lint: %s: no rule named '%s' (see squint lint --list-rules)\n",
                    opt, tok);
            ok = 0;
            break;
        }
        set[r] = 1;
    }
    free(copy);
    return ok;
}

static void list_rules(void) {
    printf("%-6s %-26s %-8s %-7s %s\n", "id", "name", "severity", "level", "summary");
    for (int i = 0; i < SQ_LINT__COUNT; i++) {
        const SqLintRule *r = sq_lint_rule((SqLintRuleId)i);
        printf("%-6s %-26s %-8s %-7s %s\n", r->id, r->name, sq_severity_name((SqSeverity)r->sev),
               sq_lint_level_name((SqLintLevel)r->level), r->summary);
    }
}

static int own_option(void *ctx, const char *name, const char *val) {
    LintRun *r = ctx;
    if (strcmp(name, "help") == 0) {
        cli_queries_usage(stdout, usage_head, usage_tail);
        cli_help_common(stdout, cli_opts_lint, 1);
        return SQ_EXIT_OK;
    } else if (strcmp(name, "list-rules") == 0) {
        list_rules();
        return SQ_EXIT_OK;
    } else if (strcmp(name, "rules") == 0) {
        r->has_only = 1;
        if (!rule_list("--rules", val, r->only)) return SQ_EXIT_USAGE;
    } else if (strcmp(name, "disable") == 0) {
        if (!rule_list("--disable", val, r->disable)) return SQ_EXIT_USAGE;
    } else if (strcmp(name, "severity") == 0) {
        r->threshold = sq_lint_severity_parse(val);
        if (r->threshold < SQ_SEV_INFO) {
            fprintf(stderr, "squint lint: --severity takes info, warning or error\n");
            return SQ_EXIT_USAGE;
        }
    } else if (strcmp(name, "config") == 0) {
        r->config_path = val;
    } else if (strcmp(name, "no-config") == 0) {
        r->no_config = 1;
    } else if (strcmp(name, "no-data") == 0) {
        r->no_data = 1;
    } else if (strcmp(name, "output") == 0) {
        r->output = val;
    } else if (strcmp(name, "force") == 0) {
        r->force = 1;
    } else if (strcmp(name, "exit-zero") == 0) {
        r->exit_zero = 1;
    } else if (strcmp(name, "prove") == 0) {
        r->prove = 1;
    } else if (strcmp(name, "prove-rlimit") == 0) {
        char *end;
        unsigned long long n = strtoull(val, &end, 10);
        if (*end || !*val || val[0] == '-' || n == 0) {
            fprintf(stderr, "squint lint: --prove-rlimit takes a number of units above 0\n");
            return SQ_EXIT_USAGE;
        }
        r->prove_rlimit = n;
    } else if (strcmp(name, "timeout") == 0) {
        char *end;
        r->timeout = strtod(val, &end);
        if (*end || r->timeout <= 0) {
            fprintf(stderr, "squint lint: --timeout takes a number of seconds above 0\n");
            return SQ_EXIT_USAGE;
        }
    } else if (strcmp(name, "format") == 0) {
        unsigned formats = SQ_FMT_BIT(SQ_FMT_TEXT) | SQ_FMT_BIT(SQ_FMT_JSON) | SQ_FMT_BIT(SQ_FMT_SARIF) |
                           SQ_FMT_BIT(SQ_FMT_JSONL) | SQ_FMT_BIT(SQ_FMT_GCC) | SQ_FMT_BIT(SQ_FMT_GITHUB) |
                           SQ_FMT_BIT(SQ_FMT_JUNIT);
        if (!cli_parse_format("lint", val, formats, &r->format)) return SQ_EXIT_USAGE;
    } else {
        return SQ_EXIT_USAGE;   /* "?": cli_next_opt said why */
    }
    return -1;
}

/* ------------------------------------------------------------------ */
/* Configuration                                                       */
/* ------------------------------------------------------------------ */

/* The configuration at path, read once (a bad one is reported once and
** stays NULL). */
static const SqLintFile *config_at(LintRun *r, const char *path) {
    for (size_t i = 0; i < r->n_configs; i++)
        if (strcmp(r->configs[i].path, path) == 0) return r->config_ok[i] ? &r->configs[i] : NULL;
    SqLintFile *c = SQ_ARENA_APPEND(r->arena, r->configs, r->n_configs, r->cap_configs);
    int ok = cli_config_check_file(path, r->arena, &r->cq.srcs, &r->cq.diags, c) == 0;
    c->path = sq_arena_strdup(r->arena, path); /* the key, even when loading failed */
    *SQ_ARENA_APPEND(r->arena, r->config_ok, r->n_config_ok, r->cap_config_ok) = (uint8_t)ok;
    if (!ok) r->config_failed = 1;
    return ok ? c : NULL;
}

/* The rules for one FILE: the configuration's, then the options'. */
static void settle(LintRun *r, FileSettings *f) {
    const SqLintFile *c = f->config;
    sq_lint_config_init(&f->rules);
    if (c) sq_lint_file_apply(c, &f->rules);
    for (int i = 0; i < SQ_LINT__COUNT; i++) {
        if (r->has_only) f->rules.enabled[i] = r->only[i];
        if (r->disable[i]) f->rules.enabled[i] = 0;
    }
    f->threshold = r->threshold >= 0 ? r->threshold
                   : c && c->threshold >= 0 ? c->threshold : SQ_SEV_INFO;
}

/* The project file nearest input (a file, or "-" for the current
** directory): NULL when there is none, "" after a message. */
static const char *config_near(LintRun *r, const char *input) {
    char *dir = NULL;
    if (strcmp(input, "-") == 0 || !strchr(input, '/')) {
        dir = getcwd(NULL, 0);
    } else {
        char *copy = sq_arena_strdup(r->arena, input);
        *strrchr(copy, '/') = 0;
        dir = realpath(*copy ? copy : "/", NULL);
    }
    const char *found = dir ? cli_config_find(r->arena, dir) : NULL;
    free(dir);
    return found;
}

static int start_file(LintRun *r, const char *path) {
    if (strcmp(path, "-") == 0 && r->cq.stdin_name) path = r->cq.stdin_name;   /* its configuration */
    const char *cfg = r->config_path;
    if (!cfg && !r->no_config) cfg = config_near(r, path);
    if (cfg && !*cfg) return r->config_failed = 1, -1;   /* two in one directory (told) */
    FileSettings *f = sq_arena_alloc(r->arena, sizeof *f);
    memset(f, 0, sizeof *f);
    char *abs = strcmp(path, "-") == 0 ? NULL : realpath(path, NULL);
    f->path = abs ? sq_arena_strdup(r->arena, abs) : path;
    free(abs);
    f->config = cfg ? config_at(r, cfg) : NULL;
    settle(r, f);
    r->cur = f;
    return cfg && !f->config ? -1 : 0;
}

/* ------------------------------------------------------------------ */
/* Each query                                                          */
/* ------------------------------------------------------------------ */

static SqDb *database(LintRun *r, const char *db_id) {
    const char *path = r->no_data ? NULL : cli_schema_db_path(&r->cq.schema, db_id);
    if (!path) return NULL;
    for (size_t i = 0; i < r->n_dbs; i++)
        if (strcmp(r->dbs[i].path, path) == 0) return r->dbs[i].db;
    OpenDb *o = SQ_ARENA_APPEND(r->arena, r->dbs, r->n_dbs, r->cap_dbs);
    o->path = sq_arena_strdup(r->arena, path);
    char *err = NULL;
    o->db = sq_db_open_file(path, &err);
    if (!o->db) {
        fprintf(stderr, "squint lint: %s: %s (data rules skipped)\n", path, err ? err : "cannot open");
        free(err);
    }
    return o->db;
}

static void lint_query(void *ctx, CliQuery *q) {
    LintRun *r = ctx;
    SqDb *db = database(r, q->item->db_id);
    SqPassCtx pc;
    sq_pass_ctx_init(&pc, q->arena, q->cat, r->cq.names, &r->cq.diags);
    SqLint l;
    sq_lint_init(&l, &pc, q->ir, &r->cur->rules, &r->cq.srcs, db != NULL);
    sq_lint_query(&l);
    if (db) {
        const SqSrc *src = q->item->sql;
        const char *sql = sq_arena_strndup(q->arena, src->text + q->stmt->span.start,
                                           q->stmt->span.end - q->stmt->span.start);
        SqLintDataOptions opt = {r->timeout};
        sq_lint_data(&l, db, sql, q->stmt->span, &opt);
    }
    if (r->prove) {
        SqLintProveOptions po = {3, r->prove_rlimit, 0};
        sq_lint_prove(&l, q->stmt->span, &po);
    }
}

/* Remember which FILE's settings the new diagnostics fall under. */
static void tag_diags(LintRun *r, const FileSettings *f) {
    size_t n = r->cq.diags.n;
    r->diag_file = sq_realloc(r->diag_file, (n + 1) * sizeof *r->diag_file);
    for (size_t i = r->n_tagged; i < n; i++) r->diag_file[i] = f;
    r->n_tagged = n;
}

/* ------------------------------------------------------------------ */
/* Filtering                                                           */
/* ------------------------------------------------------------------ */

/* Whether a "-- noqa" comment on the finding's line covers it. */
static int noqa(const SqDiags *d, const SqDiag *g, const char *code, const SqLintRule *rule) {
    const SqSrc *src = sq_src_get(d->srcs, g->span.file);
    if (!src) return 0;
    SqSrcPos p = sq_src_locate(src, g->span.start);
    const char *line = p.file->text + p.offset - (p.col - 1);
    const char *nl = strchr(line, '\n');
    const char *end = nl ? nl : line + strlen(line);
    return sq_noqa_covers(line, end, rule, code);
}

/* The item's number: a JSON item's id (question_id 12, item 3), the line
** of a TSV or one-query-per-line file's item; -1 in a SQL script. */
static int64_t item_number(const SqDiags *d, const SqDiag *g) {
    const SqSrc *src = sq_src_get(d->srcs, g->span.file);
    if (!src || (!src->item && !src->parent)) return -1;
    if (!src->item) return sq_src_locate(src, 0).line; /* the item is a line of the file */
    return sq_lint_item_number(src->item);
}

/* Give binder errors their rule's name and every rule's finding its
** configured severity; 0 when the finding is dropped. */
static int keep(LintRun *r, size_t i, int *is_problem) {
    SqDiag *g = r->cq.diags.items[i];
    const FileSettings *f = i < r->n_tagged ? r->diag_file[i] : NULL;
    *is_problem = sq_diag_is_input_problem(g) || !f;
    if (*is_problem) return 0;
    const char *code = g->code; /* a binder error's own code, for -- noqa */
    int rule = sq_lint_rule_of_finding(g->code);
    if (rule >= 0) g->code = sq_lint_rule((SqLintRuleId)rule)->name; /* a binder code: its rule's name */
    if (rule >= 0) {
        if (!f->rules.enabled[rule]) return 0;
        if (f->rules.sev[rule] != g->sev)
            sq_diag_set_severity(&r->cq.diags, g, (SqSeverity)f->rules.sev[rule]);
    }
    if ((int)g->sev < f->threshold) return 0;
    if (noqa(&r->cq.diags, g, code, rule >= 0 ? sq_lint_rule((SqLintRuleId)rule) : NULL)) return 0;
    return !(f->config &&
             sq_lint_file_ignores(f->config, f->path, item_number(&r->cq.diags, g), rule));
}

typedef struct Sorted {
    SqDiag *g;
    const SqSrc *file;
    uint32_t offset;
    size_t index;
} Sorted;

static int by_position(const void *a, const void *b) {
    const Sorted *x = a, *y = b;
    uint32_t fx = x->file ? x->file->id : 0, fy = y->file ? y->file->id : 0;
    if (fx != fy) return fx < fy ? -1 : 1;
    if (x->offset != y->offset) return x->offset < y->offset ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* Print the input problems to stderr and the kept findings to stdout;
** returns the exit status. */
static int report(LintRun *r) {
    SqDiags *d = &r->cq.diags;
    if (r->format == SQ_FMT_SARIF) r->totals.root = cli_source_root(r->arena, &r->totals.cwd);
    Sorted *s = sq_malloc((d->n + 1) * sizeof *s);
    size_t n = 0, problems = 0;
    SqBuf err = SQ_BUF_INIT;
    for (size_t i = 0; i < d->n; i++) {
        int is_problem;
        if (keep(r, i, &is_problem)) {
            const SqSrc *src = sq_src_get(d->srcs, d->items[i]->span.file);
            SqSrcPos p = src ? sq_src_locate(src, d->items[i]->span.start) : (SqSrcPos){0};
            s[n++] = (Sorted){d->items[i], p.file, p.offset, i};
        } else if (is_problem) {
            sq_diag_render_text(d, d->items[i], &err, r->cq.color > 0 ? SQ_RENDER_COLOR : 0);
            problems += d->items[i]->sev == SQ_SEV_ERROR;
        }
    }
    cli_flush(&err, stderr);
    sq_buf_free(&err);
    qsort(s, n, sizeof *s, by_position);
    SqDiag **f = sq_malloc((n + 1) * sizeof *f);
    for (size_t i = 0; i < n; i++) f[i] = s[i].g;
    SqBuf out = SQ_BUF_INIT;
    sq_lint_output(&out, r->format, d, f, n, &r->totals, r->format == SQ_FMT_TEXT && r->color);
    int written = cli_report_write("lint", r->output, &out);
    sq_buf_free(&out);
    free(f);
    free(s);
    if (problems || r->cq.input_failed || r->cq.schema.n_failures || r->config_failed || written < 0)
        return SQ_EXIT_USAGE;
    return n && !r->exit_zero ? SQ_EXIT_FINDINGS : SQ_EXIT_OK;
}

/* ------------------------------------------------------------------ */
/* The command                                                         */
/* ------------------------------------------------------------------ */

/* Whether -o FILE may be written: never a FILE, the schema or the
** configuration. */
static int output_check(LintRun *r, const CliArgs *a) {
    const SqOutInput more[] = {{r->cq.schema.path, r->cq.schema.option}, {r->config_path, "--config"}};
    return cli_report_check("lint", r->output, r->force, a, more, SQ_ARRAY_LEN(more));
}

/* The near-miss noqa comments of the SQL read from a FILE: the file's
** own text (the first source it added), or, when that holds items (a
** benchmark file), each item's. */
static void check_noqa(LintRun *r, uint32_t first, uint32_t after) {
    SqSrcSet *s = &r->cq.srcs;
    if (first >= after) return;
    int has_items = 0;
    for (uint32_t i = first + 1; i < after; i++) has_items |= s->srcs[i]->parent == s->srcs[first];
    if (!has_items) sq_noqa_check(&r->cq.diags, s->srcs[first]);
    for (uint32_t i = first + 1; i < after && has_items; i++)
        if (s->srcs[i]->parent == s->srcs[first]) sq_noqa_check(&r->cq.diags, s->srcs[i]);
}

static void lint_file(LintRun *r, const char *path) {
    size_t stmts = r->cq.n_stmts, queries = r->cq.n_queries, items = r->cq.n_items;
    uint32_t first = r->cq.srcs.n;
    tag_diags(r, NULL); /* a configuration's problems are input problems */
    r->totals.files++;
    *SQ_ARENA_APPEND(r->arena, r->paths, r->n_paths, r->cap_paths) = path;
    r->totals.paths = r->paths;
    if (start_file(r, path) == 0) {
        cli_queries_file(&r->cq, path, lint_query, r);
        check_noqa(r, first, r->cq.srcs.n);
    }
    r->totals.items += r->cq.n_items - items;
    r->totals.statements += r->cq.n_stmts - stmts;
    r->totals.queries += r->cq.n_queries - queries;
    tag_diags(r, r->cur);
}

int cmd_lint(int argc, char **argv) {
    LintRun r;
    memset(&r, 0, sizeof r);
    r.threshold = -1;
    r.timeout = 10;
    r.prove_rlimit = 10000000;
    r.arena = sq_arena_new();
    cli_queries_init(&r.cq, "lint");
    CliArgs a;
    cli_args_init(&a, argc, argv, "lint");
    a.operands = CLI_OPERANDS_PROJECT;
    int rc = cli_queries_read_options(&r.cq, &a, cli_opts_lint, own_option, &r);
    r.color = r.cq.color >= 0 ? r.cq.color : r.output ? 0 : cli_stdout_color_default(); /* --color, else stdout */
    if (rc < 0 && r.output && output_check(&r, &a) < 0) rc = SQ_EXIT_USAGE;
    if (rc < 0 && cli_queries_start(&r.cq) < 0) rc = SQ_EXIT_USAGE;
    if (rc < 0) {
        for (int i = a.i; i < a.argc; i++) lint_file(&r, a.argv[i]);
        rc = report(&r);
    }
    for (size_t i = 0; i < r.n_dbs; i++) sq_db_close(r.dbs[i].db);
    free(r.diag_file);
    cli_queries_free(&r.cq);
    sq_arena_free(r.arena);
    return rc;
}
