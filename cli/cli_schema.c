/*
** cli_schema.c -- the shared schema options and the per-db_id resolver.
**
** Layer: cli.  Takes the schema options of any command; gives catalogs,
** loaded on first use with the library's loaders (api/squint.h: DDL,
** .sqlite, tables.json, a Spider db root), and cached per db_id.  Usage
** errors go to stderr when the options are read; problems found while
** loading are diagnostics, reported once each.  See cli_schema.h for the API and ownership.
*/
#include "cli/cli_schema.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char cli_schema_help[] =
    "      --schema FILE      schema from a DDL script or a .sqlite file (told\n"
    "                         apart by content), or a directory of migrations\n"
    "                         (its *.sql files, run by SQLite in name order)\n"
    "      --db FILE          a SQLite database: its schema (and its data, for\n"
    "                         commands that run queries)\n"
    "      --db-root DIR      Spider layout: db_id X is DIR/X/X.sqlite\n"
    "      --tables FILE      a Spider/BIRD tables.json: db_id X is its entry X\n"
    "      --db-id ID         the db_id of items that name none (with --tables\n"
    "                         or --db-root)\n";

/* The options that name a schema source, and their kinds. */
static const struct {
    const char *name;
    CliSchemaKind kind;
} sources[] = {
    {"schema", CLI_SCHEMA_FILE},
    {"db", CLI_SCHEMA_DB},
    {"db-root", CLI_SCHEMA_DB_ROOT},
    {"tables", CLI_SCHEMA_TABLES},
};

void cli_schema_init(CliSchema *s, const char *cmd) {
    memset(s, 0, sizeof *s);
    s->cmd = cmd;
    s->arena = sq_arena_new();
}

void cli_schema_free(CliSchema *s) {
    for (size_t i = 0; i < s->n_entries; i++) free(s->entries[i].key);
    free(s->entries);
    sq_ctx_free(&s->ctx);
    sq_arena_free(s->arena);
    s->entries = NULL;
    s->arena = NULL;
    s->n_entries = s->cap_entries = 0;
}

int cli_schema_given(const CliSchema *s) { return s->kind != CLI_SCHEMA_NONE; }

/* ------------------------------------------------------------------ */
/* Options                                                             */
/* ------------------------------------------------------------------ */

int cli_schema_option(CliSchema *s, const char *name, const char *value) {
    if (strcmp(name, "db-id") == 0) {
        if (s->db_id) {
            fprintf(stderr, "squint %s: --db-id given twice\n", s->cmd);
            return -1;
        }
        s->db_id = value;
        return 1;
    }
    for (size_t i = 0; i < SQ_ARRAY_LEN(sources); i++) {
        if (strcmp(name, sources[i].name) != 0) continue;
        if (s->kind != CLI_SCHEMA_NONE) {
            fprintf(stderr, "squint %s: %s and --%s both give a schema; use only one "
                    "of --schema, --db, --db-root, --tables\n", s->cmd, s->option, name);
            return -1;
        }
        s->kind = sources[i].kind;
        s->option = sq_arena_printf(s->arena, "--%s", name);
        s->path = value;
        return 1;
    }
    return 0;
}

/* The option's file must be readable (a directory for --db-root; either
** for --schema, where a directory holds migrations). */
static int check_path(CliSchema *s) {
    struct stat st;
    int want_dir = s->kind == CLI_SCHEMA_DB_ROOT;
    if (s->kind == CLI_SCHEMA_FILE && stat(s->path, &st) == 0 && S_ISDIR(st.st_mode)) want_dir = 1;
    if (stat(s->path, &st) != 0 || access(s->path, R_OK) != 0) {
        fprintf(stderr, "squint %s: cannot read %s '%s': %s\n", s->cmd, s->option,
                s->path, strerror(errno));
        return -1;
    }
    if (want_dir != (S_ISDIR(st.st_mode) != 0)) {
        fprintf(stderr, "squint %s: %s '%s' is %s\n", s->cmd, s->option, s->path,
                want_dir ? "not a directory" : "a directory; it needs a file");
        return -1;
    }
    return 0;
}

int cli_schema_start(CliSchema *s, SqSrcSet *srcs, SqInterner *names, SqDiags *diags) {
    s->srcs = srcs;
    s->names = names;
    s->diags = diags;
    sq_ctx_attach(&s->ctx, srcs, names, diags);
    if (s->db_id && s->kind != CLI_SCHEMA_TABLES && s->kind != CLI_SCHEMA_DB_ROOT) {
        fprintf(stderr, "squint %s: --db-id picks a database of --tables or --db-root%s\n",
                s->cmd, s->kind == CLI_SCHEMA_NONE ? ", and neither was given"
                                                   : "; --schema and --db hold one schema");
        return -1;
    }
    return s->kind == CLI_SCHEMA_NONE ? 0 : check_path(s);
}

/* ------------------------------------------------------------------ */
/* Loading                                                             */
/* ------------------------------------------------------------------ */

/* Read and parse --tables once; NULL (reported) when it cannot be used. */
static const SqJson *tables_doc(CliSchema *s) {
    if (s->tables_read) return s->tables;
    s->tables_read = 1;
    s->tables = sq_ctx_tables_json(&s->ctx, s->path, &s->tables_src);
    if (!s->tables) s->n_failures++;
    return s->tables;
}

/* --schema, --db: a .sqlite file or a script (for --db, DDL and INSERTs
** that commands running queries run into an in-memory database, named
** *.sql: any other file that is not a database is refused rather than
** read as SQL, whose errors would then seem to be the queries'). */
static Catalog *load_file(CliSchema *s) {
    SqLoadStatus st;
    unsigned flags = s->kind == CLI_SCHEMA_DB ? SQ_SCHEMA_DB_OR_SQL : 0;
    Catalog *cat = sq_ctx_load_schema(&s->ctx, s->path, flags, &st);
    if (st == SQ_LOAD_NOT_DATABASE) {
        SqDiag *g = sq_diag_add(s->diags, SQ_SEV_ERROR, SQ_E_SCHEMA, sq_span(0, 0, 0),
                                "--db '%s' is not a SQLite database", s->path);
        sq_diag_help(g, "--db takes a SQLite database, or a SQL script of DDL and INSERTs named *.sql; "
                        "for a DDL script give --schema");
    }
    return cat;
}

const char *cli_schema_db_path(CliSchema *s, const char *db_id) {
    if (s->kind == CLI_SCHEMA_DB) return s->path;
    if (s->kind != CLI_SCHEMA_DB_ROOT) return NULL;
    if (!db_id || !*db_id) db_id = s->db_id;
    return sq_db_root_path(s->arena, s->path, db_id);
}

const char *cli_fixture_suite_path(SqArena *a, const char *dir, const SqBenchItem *item, unsigned k) {
    long long id = item->qid >= 0 ? (long long)item->qid : (long long)item->index;
    const char *path = sq_arena_printf(a, "%s/%lld/%02u.sqlite", dir, id, k);
    return sq_path_exists(path) ? path : NULL;
}

const char *cli_fixture_db_path(SqArena *a, const char *dir, const SqBenchItem *item) {
    return cli_fixture_suite_path(a, dir, item, 0);
}

/* A new catalog for db_id ("" for the single schema), owned by the
** resolver's context; NULL on failure, with *unknown set when the failure
** is only that db_id is not there. */
static Catalog *load(CliSchema *s, const char *db_id, SrcSpan at, int *unknown) {
    SqLoadStatus st = SQ_LOAD_FAILED;
    Catalog *cat = NULL;
    switch (s->kind) {
    case CLI_SCHEMA_FILE:
    case CLI_SCHEMA_DB: cat = load_file(s); break;
    case CLI_SCHEMA_DB_ROOT: cat = sq_ctx_load_db_root(&s->ctx, s->path, db_id, at, &st); break;
    case CLI_SCHEMA_TABLES:
        if (tables_doc(s)) cat = sq_ctx_load_tables_json(&s->ctx, s->path, db_id, at, &st);
        break;
    case CLI_SCHEMA_NONE: break;
    }
    *unknown = st == SQ_LOAD_UNKNOWN_DB_ID;
    return cat;
}

/* ------------------------------------------------------------------ */
/* Resolving                                                           */
/* ------------------------------------------------------------------ */

static CliSchemaEntry *find(CliSchema *s, const char *key) {
    for (size_t i = 0; i < s->n_entries; i++)
        if (strcmp(s->entries[i].key, key) == 0) return &s->entries[i];
    return NULL;
}

static Catalog *remember(CliSchema *s, const char *key, Catalog *cat) {
    if (s->n_entries == s->cap_entries) {
        s->cap_entries = s->cap_entries ? s->cap_entries * 2 : 8;
        s->entries = sq_realloc(s->entries, s->cap_entries * sizeof *s->entries);
    }
    s->entries[s->n_entries].key = sq_strdup(key);
    s->entries[s->n_entries++].cat = cat;
    return cat;
}

/* The db_id an item without one gets: --db-id, or the only database of a
** tables.json; NULL (reported once) when there is none. */
static const char *default_db_id(CliSchema *s, SrcSpan at) {
    if (s->db_id) return s->db_id;
    const SqJson *doc = s->kind == CLI_SCHEMA_TABLES ? tables_doc(s) : NULL;
    if (doc && doc->n == 1) {
        const char *only = sq_json_string(sq_json_get(doc->items[0], "db_id"));
        if (only) return only;
    }
    if ((s->kind == CLI_SCHEMA_TABLES && !doc) || s->no_db_id_told) return NULL;
    s->no_db_id_told = 1;
    s->n_failures++;
    SqDiag *g;
    if (doc)
        g = sq_diag_add(s->diags, SQ_SEV_ERROR, SQ_E_NO_DB_ID, at,
                        "no db_id for this input, and --tables '%s' holds %u databases",
                        s->path, doc->n);
    else
        g = sq_diag_add(s->diags, SQ_SEV_ERROR, SQ_E_NO_DB_ID, at,
                        "no db_id for this input, and --db-root '%s' holds one database "
                        "per db_id", s->path);
    sq_diag_help(g, "pass --db-id ID, or --db-id-from FILE to take the db_ids of the "
                    "gold file a prediction file is aligned with");
    return NULL;
}

const Catalog *cli_schema_resolve(CliSchema *s, const char *db_id, SrcSpan at) {
    if (s->kind == CLI_SCHEMA_NONE) return NULL;
    int from_option = 0;
    if (s->kind == CLI_SCHEMA_FILE || s->kind == CLI_SCHEMA_DB) {
        db_id = "";
    } else if (!db_id || !*db_id) {
        from_option = s->db_id != NULL;
        db_id = default_db_id(s, at);
        if (!db_id) return NULL;
        if (from_option) at = sq_span(0, 0, 0);
    }
    CliSchemaEntry *e = find(s, db_id);
    if (e) return e->cat;
    int unknown;
    size_t before = s->diags->n;
    Catalog *cat = load(s, db_id, at, &unknown);
    if (!cat && from_option && unknown && s->diags->n > before)
        sq_diag_note(s->diags->items[s->diags->n - 1], sq_span(0, 0, 0),
                     "the db_id was given with --db-id");
    /* A schema source that cannot be read, or a wrong --db-id, is the
    ** command line's fault; an item's unknown db_id is the file's. */
    if (!cat && (from_option || !unknown)) s->n_failures++;
    return remember(s, db_id, cat);
}

void cli_schema_usage(FILE *f, const char *head, const char *tail) {
    fputs(head, f);
    fputs(cli_schema_help, f);
    fputs(tail, f);
}

int cli_schema_read_options(CliSchema *s, CliArgs *a, const CliOpt *opts, CliOwnOptionFn own,
                            void *ctx) {
    const char *name, *val;
    while ((name = cli_next_opt(a, opts, &val)) != NULL) {
        int handled = cli_schema_option(s, name, val);
        if (handled < 0) return SQ_EXIT_USAGE;
        if (handled) continue;
        int rc = own(ctx, name, val);
        if (rc >= 0) return rc;
    }
    if (a->i >= a->argc) {
        fprintf(stderr, "squint %s: no input FILE\n", a->cmd);
        return cli_usage_hint(a->cmd);
    }
    return -1;
}

const char **cli_schema_db_ids(CliSchema *s, size_t *n) {
    *n = 0;
    if (s->db_id) {
        const char **one = sq_arena_alloc(s->arena, sizeof *one);
        one[0] = s->db_id;
        *n = 1;
        return one;
    }
    if (s->kind == CLI_SCHEMA_TABLES) {
        const SqJson *doc = tables_doc(s);
        if (!doc) return NULL;
        uint32_t k;
        const char **ids = sq_tables_json_db_ids(s->arena, doc, &k);
        *n = k;
        return ids;
    }
    if (s->kind == CLI_SCHEMA_DB_ROOT) {
        const char **ids = sq_db_root_list(s->arena, s->path, n);
        if (ids) qsort(ids, *n, sizeof *ids, sq_cmp_cstr);
        return ids;
    }
    const char **one = sq_arena_alloc(s->arena, sizeof *one);
    one[0] = NULL; /* the single schema of --schema or --db */
    *n = s->kind == CLI_SCHEMA_NONE ? 0 : 1;
    return one;
}

int cli_schema_profile(CliSchema *s, const char *db_id, const char *metadata, const char *cache, const Catalog *cat,
                       SqProfile *p, char **err) {
    *err = NULL;
    return sq_profile_for(p, cat, metadata, metadata ? NULL : cli_schema_db_path(s, db_id), cache, err);
}
