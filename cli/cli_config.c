/*
** cli_config.c -- the project file every command reads (cli_config.h).
**
** Layer: cli.  Three jobs, in the order a command meets them: find the
** options the command line gives and load the file (cli_config_begin),
** hand out the file's options that the command line does not replace
** (cli_config_next), and expand the operands of commands that read query
** files (cli_config_operands, in cli_walk.c).  Checking the file is
** cli_config_check_file's, shared with squint lint, which also reads the
** lint settings of files nearer its inputs.
*/
#include "cli/cli_config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli_walk.h"
#include "runtime/json.h"
#include "runtime/util.h"

int cli_verbosity;

/* ------------------------------------------------------------------ */
/* What the file may hold                                              */
/* ------------------------------------------------------------------ */

/* Each command's options, by section: the key is the command's name; a
** command with two option tables (a mode, a subcommand) lists both. */
typedef struct Section {
    const char *name;
    const CliOpt *tables[2];
} Section;

static const Section sections[] = {
    {"parse", {cli_opts_parse, NULL}},     {"check", {cli_opts_check, NULL}},
    {"ir", {cli_opts_ir, NULL}},           {"emit", {cli_opts_emit, NULL}},
    {"passes", {cli_opts_passes, NULL}},   {"opt", {cli_opts_opt, NULL}},
    {"graph", {cli_opts_graph, NULL}},     {"lint", {cli_opts_lint, NULL}},
    {"equiv", {cli_opts_equiv, NULL}},     {"eval", {cli_opts_eval, NULL}},
    {"merge", {cli_opts_merge, NULL}},     {"fixture", {cli_opts_fixture, cli_opts_fixture_llm}},
    {"prompt", {cli_opts_prompt, NULL}},   {"llm", {cli_opts_llm_run, cli_opts_llm_import}},
    {"compile", {cli_opts_compile, NULL}},  {"template", {cli_opts_template_extract, cli_opts_template_sample}},
    {"expand", {cli_opts_expand, NULL}},
};
#define N_SECTIONS (sizeof sections / sizeof *sections)

/* The schema options, which the file gives at its top level for every
** command that takes them; the first four name a schema source. */
static const char *const schema_keys[] = {"schema", "db", "db-root", "tables", "db-id", NULL};
#define N_SOURCE_KEYS 4

/* The lint section's settings (lint_config.h), read there, not options. */
static const char *const lint_settings[] = {"rules", "disable", "severity", "threshold", "ignore", NULL};

/* Options that mean one run, never a project's default (fixture's --llm
** chooses the command's mode before options are read). */
static const char *const cli_only[] = {"help", "version", "config", "no-config", "force", "output",
                                       "stdin-filename", "llm", NULL};

/* Options whose value is a path: relative to the file, not to the
** current directory. */
static const char *const path_options[] = {
    "schema",   "db",      "db-root", "tables",        "metadata",  "gold",      "pred",   "out",
    "suite",    "cache",   "report",  "profile-cache", "llm-cache", "fixtures",  "fixture-out",
    "template", "notes",   "file",    "dump-smt",      "db-id-from", "records",  "out-dir", "items",
    "attach",   NULL};

static int in_list(const char *const *list, const char *s) {
    for (; *list; list++)
        if (strcmp(*list, s) == 0) return 1;
    return 0;
}

static const Section *section_named(const char *name) {
    for (size_t i = 0; i < N_SECTIONS; i++)
        if (strcmp(sections[i].name, name) == 0) return &sections[i];
    return NULL;
}

static const CliOpt *table_find(const CliOpt *t, const char *name) {
    for (; t && t->long_name; t++)
        if (strcmp(t->long_name, name) == 0) return t;
    return NULL;
}

static const CliOpt *section_find(const Section *s, const char *name) {
    const CliOpt *o = table_find(s->tables[0], name);
    return o ? o : table_find(s->tables[1], name);
}

/* ------------------------------------------------------------------ */
/* Checking a file                                                     */
/* ------------------------------------------------------------------ */

typedef struct Checker {
    const SqSrc *src;
    SqDiags *diags;
    size_t errors;
} Checker;

static SrcSpan span_of(const Checker *c, const SqJson *v) { return sq_span(c->src->id, v->start, v->end); }

static SqDiag *problem(Checker *c, SrcSpan at, const char *fmt, const char *arg) {
    c->errors++;
    return sq_diag_add(c->diags, SQ_SEV_ERROR, SQ_E_CONFIG, at, fmt, arg);
}

static SrcSpan key_span(const Checker *c, const SqJson *obj, uint32_t i) {
    uint32_t s, e;
    sq_json_key_place(c->src->text, obj, i, &s, &e);
    return sq_span(c->src->id, s, e);
}

/* A repeated key, reported; the later one is not read. */
static int repeated(Checker *c, const SqJson *obj, uint32_t i) {
    if (!sq_json_key_repeats(obj, i)) return 0;
    problem(c, key_span(c, obj, i), "the key '%s' appears twice in one object", obj->keys[i]);
    return 1;
}

/* A value that is an option's: a flag takes true or false; an option
** with a value takes a string, a number or an array of them (the option
** given once per element). */
static void check_value(Checker *c, const CliOpt *o, const SqJson *v) {
    if (!o->has_value) {
        if (v->kind != SQ_JSON_TRUE && v->kind != SQ_JSON_FALSE)
            problem(c, span_of(c, v), "--%s takes no value: write true or false", o->long_name);
        return;
    }
    uint32_t n = v->kind == SQ_JSON_ARRAY ? v->n : 1;
    for (uint32_t i = 0; i < n; i++) {
        const SqJson *x = v->kind == SQ_JSON_ARRAY ? v->items[i] : v;
        if (x->kind != SQ_JSON_STRING && x->kind != SQ_JSON_NUMBER)
            problem(c, span_of(c, x), "--%s takes a string or a number (or an array of them)", o->long_name);
        else if (x->kind == SQ_JSON_STRING && !x->str[0])
            problem(c, span_of(c, x), "--%s takes a value, not an empty string", o->long_name);
    }
    if (v->kind == SQ_JSON_ARRAY && !v->n) problem(c, span_of(c, v), "--%s: an empty array", o->long_name);
}

/* The closest of the names of s (and of the lint settings) to key, for
** a hint; NULL when none is close. */
static const char *closest_option(const Section *s, const char *key) {
    const char *best = NULL;
    size_t best_d = 3;
    for (int t = 0; t < 2; t++)
        for (const CliOpt *o = s->tables[t]; o && o->long_name; o++) {
            size_t d = sq_edit_distance(key, strlen(key), o->long_name, strlen(o->long_name), best_d);
            if (d < best_d) best_d = d, best = o->long_name;
        }
    return best;
}

static void check_section(Checker *c, const Section *s, const SqJson *v) {
    if (v->kind != SQ_JSON_OBJECT) {
        problem(c, span_of(c, v), "\"%s\" holds an object of the command's options", s->name);
        return;
    }
    int is_lint = strcmp(s->name, "lint") == 0;
    for (uint32_t i = 0; i < v->n; i++) {
        if (repeated(c, v, i)) continue;
        const char *k = v->keys[i];
        if (is_lint && in_list(lint_settings, k)) continue;   /* lint_config.c checks these */
        const CliOpt *o = section_find(s, k);
        if (!o) {
            SqDiag *g = sq_diag_add(c->diags, SQ_SEV_ERROR, SQ_E_CONFIG, key_span(c, v, i),
                                    "unknown key '%s' in \"%s\"", k, s->name);
            c->errors++;
            const char *near = closest_option(s, k);
            if (near) sq_diag_help(g, "did you mean '%s'?", near);
            else sq_diag_help(g, "the keys of \"%s\" are the long options of squint %s", s->name, s->name);
        } else if (in_list(cli_only, k)) {
            problem(c, key_span(c, v, i), "--%s is for the command line only, not for the project file", k);
        } else {
            check_value(c, o, v->items[i]);
        }
    }
}

static void check_strings(Checker *c, const char *key, const SqJson *v) {
    uint32_t n = v->kind == SQ_JSON_ARRAY ? v->n : 1;
    for (uint32_t i = 0; i < n; i++) {
        const SqJson *x = v->kind == SQ_JSON_ARRAY ? v->items[i] : v;
        if (x->kind != SQ_JSON_STRING || !x->str[0])
            problem(c, span_of(c, x), "\"%s\" takes a string or an array of strings", key);
    }
}

static void check_top_key(Checker *c, const SqJson *top, uint32_t i) {
    const char *k = top->keys[i];
    const SqJson *v = top->items[i];
    const Section *s = section_named(k);
    if (s) {
        check_section(c, s, v);
    } else if (in_list(schema_keys, k)) {
        if (v->kind != SQ_JSON_STRING || !v->str[0]) problem(c, span_of(c, v), "\"%s\" takes a string", k);
    } else if (strcmp(k, "files") == 0 || strcmp(k, "exclude") == 0) {
        check_strings(c, k, v);
    } else if (strcmp(k, "version") == 0) {
        if (v->kind != SQ_JSON_NUMBER || !v->is_int || v->inum != 1)
            problem(c, span_of(c, v), "%sthis squint reads \"version\": 1", "");
    } else if (strcmp(k, "packages") != 0) {   /* squint compile reads those (compile_config.c) */
        SqDiag *g = problem(c, key_span(c, top, i), "unknown key '%s'", k);
        sq_diag_help(g, "%s", "the top level holds the schema options (schema, db, db-root, tables, db-id), "
                              "files, exclude, version, packages, and a section per command (lint, eval, ...)");
    }
}

/* cli_config_check_file, giving also the file's text and its parsed
** document (when it is valid: *top is NULL otherwise). */
static int check_file(const char *path, SqArena *arena, SqSrcSet *srcs, SqDiags *diags, SqLintFile *lint,
                      const SqSrc **src_out, const SqJson **top_out) {
    *top_out = NULL;
    int err;
    const SqSrc *src = sq_src_add_file(srcs, path, &err);
    *src_out = src;
    if (!src) {
        sq_diag_add(diags, SQ_SEV_ERROR, SQ_E_CONFIG, sq_span(0, 0, 0), "cannot read %s: %s", path, strerror(err));
        return -1;
    }
    SqJsonError jerr;
    const SqJson *top = sq_json_parse(arena, src->text, src->len, &jerr);
    if (!top) {
        sq_diag_add(diags, SQ_SEV_ERROR, SQ_E_CONFIG, sq_span(src->id, jerr.offset, jerr.offset), "%s", jerr.msg);
        return -1;
    }
    Checker c = {src, diags, 0};
    if (top->kind != SQ_JSON_OBJECT) {
        problem(&c, span_of(&c, top), "%sa project file holds one JSON object", "");
        return -1;
    }
    for (uint32_t i = 0; i < top->n; i++)
        if (!repeated(&c, top, i)) check_top_key(&c, top, i);
    SqLintFile scratch;
    if (sq_lint_file_read(lint ? lint : &scratch, arena, path, src, diags) < 0) c.errors++;
    if (c.errors) return -1;
    *top_out = top;
    return 0;
}

int cli_config_check_file(const char *path, SqArena *arena, SqSrcSet *srcs, SqDiags *diags, SqLintFile *lint) {
    const SqSrc *src;
    const SqJson *top;
    return check_file(path, arena, srcs, diags, lint, &src, &top);
}

/* ------------------------------------------------------------------ */
/* The file of this run                                                */
/* ------------------------------------------------------------------ */

typedef struct Project {
    int loaded;             /* cli_config_begin ran once */
    int failed;             /* the file has errors (told) */
    const char *path;       /* absolute, or NULL: none */
    const char *dir;        /* its directory, absolute */
    SqArena *arena;
    SqSrcSet srcs;
    const SqSrc *src;       /* the file's text */
    const SqJson *top;
} Project;

static Project project;

const char *cli_config_path(void) { return project.path; }

static int is_file(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The project file in dir (absolute), or NULL; two are an error, since
** either could be meant. */
static const char *file_in(SqArena *a, const char *dir, int *two) {
    const char *sep = strcmp(dir, "/") == 0 ? "" : "/";
    const char *hidden = sq_arena_printf(a, "%s%s%s", dir, sep, CLI_CONFIG_HIDDEN_NAME);
    const char *plain = sq_arena_printf(a, "%s%s%s", dir, sep, CLI_CONFIG_NAME);
    int h = is_file(hidden), p = is_file(plain);
    if (h && p) *two = 1;
    return h ? hidden : p ? plain : NULL;
}

const char *cli_config_find(SqArena *a, const char *start) {
    char *dir = sq_arena_strdup(a, start);
    do {
        int two = 0;
        const char *f = file_in(a, dir, &two);
        if (two) {
            fprintf(stderr, "squint: %s has both %s and %s: keep one (it is the project file)\n", dir,
                    CLI_CONFIG_HIDDEN_NAME, CLI_CONFIG_NAME);
            return "";
        }
        if (f) return f;
    } while (sq_path_up(dir));
    return NULL;
}

/* Print the file's diagnostics; the run stops with status 2. */
static void tell(SqDiags *d) {
    cli_print_diags_text(d, 0, cli_stderr_color_default());
}

static int project_load(const char *given, int none) {
    project.loaded = 1;
    if (none) return 0;
    cli_config_arena();
    sq_srcset_init(&project.srcs);
    const char *path = given;
    if (!path) {
        char cwd[4096];
        if (!getcwd(cwd, sizeof cwd)) return 0;   /* a directory gone: no project */
        path = cli_config_find(project.arena, cwd);
        if (path && !*path) return project.failed = 1, -1;
        if (!path) return 0;
    }
    char *abs = realpath(path, NULL);
    project.path = sq_arena_strdup(project.arena, abs ? abs : path);
    free(abs);
    const char *slash = strrchr(project.path, '/');
    project.dir = slash ? sq_arena_strndup(project.arena, project.path,
                                           (size_t)(slash - project.path) + (slash == project.path))
                        : ".";
    SqDiags d;
    sq_diags_init(&d, &project.srcs);
    int rc = check_file(project.path, project.arena, &project.srcs, &d, NULL, &project.src, &project.top);
    if (rc < 0) {
        tell(&d);
        project.failed = 1;
    }
    sq_diags_free(&d);
    if (rc == 0 && cli_verbosity > 0) fprintf(stderr, "squint: project file %s\n", project.path);
    return rc;
}

int cli_config_lint(SqArena *arena, SqSrcSet *srcs, SqDiags *diags, SqLintFile *lint) {
    if (!project.path) return 0;
    if (project.failed) return -1;
    return sq_lint_file_load(lint, arena, project.path, srcs, diags) < 0 ? -1 : 1;
}

/* ------------------------------------------------------------------ */
/* The command line, scanned                                           */
/* ------------------------------------------------------------------ */

/* The options every command takes, when its own table lacks them. */
static const CliOpt generic_opts[] = {
    {"config", 0, 1}, {"no-config", 0, 0}, {"quiet", 'q', 0}, {"verbose", 'v', 0}, {NULL, 0, 0},
};
static const CliOpt exclude_opt = {"exclude", 0, 1};

/* a->opts: the command's table with the generic options it lacks. */
static void effective_table(CliArgs *a, const CliOpt *opts) {
    size_t n = 0;
    while (opts[n].long_name) n++;
    CliOpt *t = sq_arena_alloc(cli_config_arena(), (n + 8) * sizeof *t);
    memcpy(t, opts, n * sizeof *t);
    for (const CliOpt *g = generic_opts; g->long_name; g++)
        if (!table_find(opts, g->long_name)) {
            t[n] = *g;
            for (const CliOpt *o = opts; o->long_name; o++)
                if (g->short_name && o->short_name == g->short_name) t[n].short_name = 0;
            n++;
        }
    if (a->operands && !table_find(opts, "exclude")) t[n++] = exclude_opt;
    memset(&t[n], 0, sizeof t[n]);
    a->cmd_opts = opts;
    a->opts = t;
}

typedef struct Scan {
    const char *config;     /* --config's value */
    int no_config;
} Scan;

static void saw(CliArgs *a, Scan *s, const CliOpt *o, const char *value) {
    a->given[o - a->opts] = 1;
    if (strcmp(o->long_name, "config") == 0) s->config = value;
    else if (strcmp(o->long_name, "no-config") == 0) s->no_config = 1;
    else if (strcmp(o->long_name, "quiet") == 0) cli_verbosity = -1;
    else if (strcmp(o->long_name, "verbose") == 0) cli_verbosity = 1;
}

/* Which options argv gives, as the parser will read them, without
** moving anything. */
static void scan_argv(CliArgs *a, Scan *s) {
    size_t n = 0;
    while (a->opts[n].long_name) n++;
    a->given = sq_arena_alloc(project.arena, n + 1);
    memset(a->given, 0, n + 1);
    for (int i = 1; i < a->argc; i++) {
        const char *w = a->argv[i];
        if (strcmp(w, "--") == 0) break;
        if (w[0] != '-' || !w[1]) continue;
        if (w[1] == '-') {
            const char *eq = strchr(w + 2, '=');
            int several;
            const CliOpt *o = cli_opt_long(a->opts, w + 2, eq ? (size_t)(eq - w - 2) : strlen(w + 2), &several);
            if (!o) continue;
            const char *v = eq ? eq + 1 : o->has_value && i + 1 < a->argc ? a->argv[++i] : NULL;
            saw(a, s, o, v);
            continue;
        }
        for (const char *p = w + 1; *p; p++) {
            const CliOpt *o = cli_opt_short(a->opts, *p);
            if (!o) break;
            if (!o->has_value) {
                saw(a, s, o, NULL);
                continue;
            }
            saw(a, s, o, p[1] ? p + 1 : i + 1 < a->argc ? a->argv[++i] : NULL);
            break;
        }
    }
}

static int given(const CliArgs *a, const char *name) {
    for (size_t i = 0; a->opts[i].long_name; i++)
        if (strcmp(a->opts[i].long_name, name) == 0) return a->given[i];
    return 0;
}

int cli_args_gave_schema(const CliArgs *a) {
    for (int k = 0; schema_keys[k]; k++)
        if (given(a, schema_keys[k])) return 1;
    return 0;
}

/* ------------------------------------------------------------------ */
/* The file's options, handed out                                      */
/* ------------------------------------------------------------------ */

static const char *value_text(const SqJson *v, const char *name) {
    const char *s = v->kind == SQ_JSON_NUMBER
                        ? sq_arena_strndup(project.arena, project.src->text + v->start, v->end - v->start)
                                              : v->str;
    if (v->kind == SQ_JSON_STRING && in_list(path_options, name) && s[0] != '/')
        s = sq_arena_printf(project.arena, "%s%s%s", project.dir, strcmp(project.dir, "/") ? "/" : "", s);
    return s;
}

static void queue(CliArgs *a, const CliOpt *o, const SqJson *v) {
    uint32_t n = v->kind == SQ_JSON_ARRAY ? v->n : 1;
    for (uint32_t i = 0; i < n; i++) {
        const SqJson *x = v->kind == SQ_JSON_ARRAY ? v->items[i] : v;
        if (!o->has_value && x->kind != SQ_JSON_TRUE) continue;   /* false: not given */
        CliQueued *q = SQ_ARENA_APPEND(project.arena, a->queued, a->n_queued, a->cap_queued);
        q->name = o->long_name;
        q->value = o->has_value ? value_text(x, o->long_name) : NULL;
    }
}

/* Whether the command line replaces the file's option name: it gives the
** option, or (for a schema source) any schema source. */
static int replaced(const CliArgs *a, const char *name) {
    if (given(a, name)) return 1;
    for (int k = 0; k < N_SOURCE_KEYS; k++)
        if (strcmp(schema_keys[k], name) == 0)
            for (int j = 0; j < N_SOURCE_KEYS; j++)
                if (given(a, schema_keys[j])) return 1;
    return 0;
}

static void queue_options(CliArgs *a) {
    const SqJson *top = project.top;
    for (uint32_t i = 0; i < top->n; i++) {
        const CliOpt *o = table_find(a->cmd_opts, top->keys[i]);
        if (o && in_list(schema_keys, top->keys[i]) && !replaced(a, o->long_name)) queue(a, o, top->items[i]);
    }
    char section[32];
    snprintf(section, sizeof section, "%s", a->cmd);
    section[strcspn(section, " ")] = 0;
    const SqJson *s = sq_json_get(top, section);
    int is_lint = strcmp(section, "lint") == 0;
    for (uint32_t i = 0; s && i < s->n; i++) {
        if (is_lint && in_list(lint_settings, s->keys[i])) continue;
        const CliOpt *o = table_find(a->cmd_opts, s->keys[i]);
        if (o && !replaced(a, o->long_name)) queue(a, o, s->items[i]);
    }
}

int cli_config_begin(CliArgs *a, const CliOpt *opts) {
    effective_table(a, opts);
    Scan s = {NULL, 0};
    scan_argv(a, &s);
    if (!project.loaded && project_load(s.config, s.no_config) < 0) return -1;
    if (project.failed) return -1;
    if (project.top) queue_options(a);
    return 0;
}

const char *cli_config_next(CliArgs *a, const char **value) {
    if (a->next_queued >= a->n_queued) return NULL;
    const CliQueued *q = &a->queued[a->next_queued++];
    *value = q->value;
    return q->name;
}

int cli_config_generic(CliArgs *a, const char *name, const char *value) {
    if (strcmp(name, "exclude") == 0 && !table_find(a->cmd_opts, "exclude")) {
        cli_walk_exclude(a, value, NULL);
        return 1;
    }
    if (table_find(a->cmd_opts, name)) return 0;
    return table_find(generic_opts, name) != NULL;   /* read by the scan */
}

/* The file's "files" and "exclude", for cli_walk.c. */
const SqJson *cli_config_member(const char *key) { return project.top ? sq_json_get(project.top, key) : NULL; }
const char *cli_config_dir(void) { return project.dir; }
SqArena *cli_config_arena(void) { return project.arena ? project.arena : (project.arena = sq_arena_new()); }

const char *cli_config_text(const SqJson *v, size_t *n) {
    if (!v || !project.src) return NULL;
    *n = v->end - v->start;
    return project.src->text + v->start;
}

void cli_help_common(FILE *f, const CliOpt *opts, int walks) {
    static const char *const lines[][2] = {
        {"config", "      --config FILE      the project file (default: the nearest .squint.json or\n"
                   "                         squint.json at or above the current directory)\n"},
        {"no-config", "      --no-config        read no project file\n"},
        {"quiet", "  -q, --quiet            no notes or warnings on standard error, errors only\n"},
        {"verbose", "  -v, --verbose          say which project file and which files are read\n"},
    };
    fputs("\nproject file and messages (every command; docs/config.md):\n", f);
    for (size_t i = 0; i < sizeof lines / sizeof *lines; i++)
        if (!table_find(opts, lines[i][0])) fputs(lines[i][1], f);
    if (walks && !table_find(opts, "exclude"))
        fputs("      --exclude PATTERN  leave out files and directories that match (repeatable);\n"
              "                         a directory FILE is walked for .sql and benchmark files\n", f);
}
