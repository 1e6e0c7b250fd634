/*
** cli_schema.h -- the schema options every command takes, and the
** resolver that turns a benchmark item's db_id into its Catalog.
**
** Layer: cli.  A command adds CLI_SCHEMA_OPTIONS to its option table,
** passes each option to cli_schema_option(), calls cli_schema_start()
** once options are read, then cli_schema_resolve(db_id) per item.
** Schemas are loaded on first use and cached per db_id; a problem loading
** one is reported once, as diagnostics in the command's SqDiags, and every
** later request for it gets NULL.  docs/schema-options.md is the user's
** view.
**
**   --schema FILE   a DDL script or a .sqlite file (told apart by the
**                   SQLite header, not the extension): one schema
**   --db FILE       a SQLite database, or a SQL script of DDL and INSERTs:
**                   one schema, and its data for commands that run
**                   queries (cli_schema_db_path; sq_db_open_file)
**   --db-root DIR   Spider's layout: db_id X is DIR/X/X.sqlite
**   --tables FILE   a Spider/BIRD tables.json; db_id X is its entry X
**   --db-id ID      the db_id of items that name none
**
** The loading itself is the library's (api/squint.h: sq_ctx_load_*); this
** file picks the loader for the option, caches per db_id and words the
** messages that name options.
**
** Memory: the resolver owns its context (attached to the command's
** sources, names and diagnostics), which owns the catalogs and the parsed
** tables.json, and the paths it builds; cli_schema_free() releases them.
** Sources it reads go into the command's SqSrcSet.
*/
#ifndef SQ_CLI_SCHEMA_H
#define SQ_CLI_SCHEMA_H

#include "api/squint.h"
#include "backend/profile/profile.h"
#include "frontend/bench_input.h"
#include "frontend/catalog.h"
#include "cli/cli.h"

typedef enum CliSchemaKind {
    CLI_SCHEMA_NONE,    /* no schema option: names are not checked */
    CLI_SCHEMA_FILE,    /* --schema */
    CLI_SCHEMA_DB,      /* --db */
    CLI_SCHEMA_DB_ROOT, /* --db-root */
    CLI_SCHEMA_TABLES,  /* --tables */
} CliSchemaKind;

/* One loaded (or failed) schema. */
typedef struct CliSchemaEntry {
    char *key;          /* db_id, or "" for the single schema (heap) */
    Catalog *cat;       /* NULL when loading failed (already reported);
                           owned by the resolver's context */
} CliSchemaEntry;

typedef struct CliSchema {
    CliSchemaKind kind;
    const char *option;     /* "--tables", ..., for messages */
    const char *path;       /* the option's value (argv, not owned) */
    const char *db_id;      /* --db-id, or NULL */
    const char *cmd;        /* command name, for messages */
    SqSrcSet *srcs;         /* the command's (not owned) */
    SqInterner *names;      /* the command's (not owned) */
    SqDiags *diags;         /* the command's (not owned) */
    SqContext ctx;          /* the loader; attached by cli_schema_start */
    SqArena *arena;         /* built paths, db_id lists */
    const SqSrc *tables_src;/* --tables: the file, once read */
    const SqJson *tables;   /* --tables: its parsed array, or NULL */
    uint8_t tables_read;    /* --tables: reading was tried */
    uint8_t no_db_id_told;  /* the missing-db_id error was reported */
    CliSchemaEntry *entries;
    size_t n_entries, cap_entries;
    size_t n_failures;      /* the schema options themselves failed: a
                               schema that cannot be read, an unknown
                               --db-id (commands exit 2) */
} CliSchema;

/* Entries for a command's CliOpt table (before its {NULL} end). */
#define CLI_SCHEMA_OPTIONS \
    {"schema", 0, 1}, {"db", 0, 1}, {"db-root", 0, 1}, {"tables", 0, 1}, {"db-id", 0, 1}

/* Lines for a command's --help, one per option, indented as the others. */
extern const char cli_schema_help[];

void cli_schema_init(CliSchema *s, const char *cmd);
void cli_schema_free(CliSchema *s);

/* A command's usage text: its head, the schema options, its tail. */
void cli_schema_usage(FILE *f, const char *head, const char *tail);

/* Read a command's options up to its operands: schema options go to s,
** the others to own(ctx, name, value), which returns -1 to go on or an
** exit code.  No operand is a usage error (a line and the hint on stderr).
** Returns -1 to go on, or the exit code to stop with. */
typedef int (*CliOwnOptionFn)(void *ctx, const char *name, const char *value);
int cli_schema_read_options(CliSchema *s, CliArgs *a, const CliOpt *opts, CliOwnOptionFn own,
                            void *ctx);

/* Handle option name (as cli_next_opt returned it) with value.  Returns 1
** when it was a schema option, 0 when it is not one, -1 on a usage error
** (printed to stderr: two schema sources, an option given twice). */
int cli_schema_option(CliSchema *s, const char *name, const char *value);

/* Check the options together and that the named files exist, and bind
** the command's sources, names and diagnostics.  Returns 0, or -1 after a
** usage error printed to stderr. */
int cli_schema_start(CliSchema *s, SqSrcSet *srcs, SqInterner *names, SqDiags *diags);

/* Whether any schema option was given. */
int cli_schema_given(const CliSchema *s);

/* The catalog for db_id (NULL: --db-id, or the only database there is).
** at is where the item names its db_id (file 0: nowhere), for the
** diagnostics.  NULL when no schema was given or it cannot be loaded. */
const Catalog *cli_schema_resolve(CliSchema *s, const char *db_id, SrcSpan at);

/* Every db_id the schema option offers: --db-id's, the entries of a
** tables.json, the directories under --db-root (sorted); one NULL entry
** for --schema or --db.  In the resolver's arena. */
const char **cli_schema_db_ids(CliSchema *s, size_t *n);

/* The database file holding db_id's data: --db's file, or DIR/X/X.sqlite
** under --db-root; NULL otherwise.  The string lives in the resolver. */
const char *cli_schema_db_path(CliSchema *s, const char *db_id);

/* The witness `squint fixture --out DIR` built for item: DIR/<id>/00.sqlite,
** <id> its question_id or else its position in the gold.  The path in a,
** or NULL when there is no such file (a question with no witness). */
const char *cli_fixture_db_path(SqArena *a, const char *dir, const SqBenchItem *item);

/* Database k of that suite (DIR/<id>/NN.sqlite, NN = k in two digits; 0
** is the witness), or NULL when the suite has no such file. */
const char *cli_fixture_suite_path(SqArena *a, const char *dir, const SqBenchItem *item, unsigned k);

/* The column profile of db_id's real data, into *p: BIRD's metadata when
** metadata (a dev_metadata.json) is given, else the database of
** cli_schema_db_path, through the profile cache under cache (NULL: the
** default, see backend/profile/profile.h).  1 when *p was filled, 0 when
** there is no data to profile, -1 on failure with *err (malloc'd). */
int cli_schema_profile(CliSchema *s, const char *db_id, const char *metadata, const char *cache, const Catalog *cat,
                       SqProfile *p, char **err);

#endif
