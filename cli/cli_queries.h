/*
** cli_queries.h -- every query of the FILEs a command was given, parsed,
** bound against its item's schema and lowered to IR.
**
** Layer: cli.  `ir`, `opt` and `graph` all read SQL scripts and benchmark
** files (frontend/bench_input.h) the same way: item by item, statement by
** statement, each bound against the schema of the item's db_id
** (cli_schema.h).  They differ only in what they do with each query, which
** a callback gets.  Diagnostics go to the command's SqDiags.
*/
#ifndef SQ_CLI_QUERIES_H
#define SQ_CLI_QUERIES_H

#include "frontend/bench_input.h"
#include "frontend/bind.h"
#include "ir/ir.h"
#include "cli/cli_schema.h"

/* One bound query, for the callback.  Everything in it lives in arena,
** which is reset after the callback returns. */
typedef struct CliQuery {
    const SqBenchItem *item;
    const AstStmt *stmt;
    const Catalog *cat;
    IrQuery *ir;
    SqArena *arena;
    SqSrcPos pos;          /* where the statement starts, in the user's file */
} CliQuery;

typedef void (*CliQueryFn)(void *ctx, CliQuery *q);

/* A command session over query files: the sources, diagnostics and names
** of the run, the schema options, and the options every such command
** takes (--input-format, --color). */
typedef struct CliQueries {
    const char *cmd;       /* for messages */
    CliSchema schema;
    SqSrcSet srcs;
    SqInterner *names;
    SqDiags diags;
    SqInputFormat input_format;
    int color;             /* diagnostics on stderr; -1 until decided */
    int operands_optional; /* a command that may run with no FILE */
    size_t n_items;        /* benchmark items read (a script is one) */
    size_t n_stmts;        /* statements parsed */
    size_t n_queries;      /* of those, SELECTs that bound */
    int input_failed;      /* a FILE could not be read */
    const char *db_id_from;/* --db-id-from FILE, or NULL */
    const char *stdin_name;/* --stdin-filename NAME, or NULL */
    SqArena *from_arena;   /* its items */
    SqBench from;
} CliQueries;

/* Option table entries and --help lines of the shared options (schema
** options included). */
#define CLI_QUERIES_OPTIONS \
    {"input-format", 0, 1}, {"db-id-from", 0, 1}, {"color", 0, 1}, {"stdin-filename", 0, 1}, CLI_SCHEMA_OPTIONS
extern const char cli_queries_help[];

void cli_queries_init(CliQueries *cq, const char *cmd);
/* A command's usage: its head (ending with its own options), the shared
** options, the schema options, its tail. */
void cli_queries_usage(FILE *f, const char *head, const char *tail);
/* Read the options up to the operands: the shared ones here, the
** command's own through own (see cli_schema_read_options).  A schema
** option is required.  Returns -1 to go on, or an exit code. */
int cli_queries_read_options(CliQueries *cq, CliArgs *a, const CliOpt *opts, CliOwnOptionFn own,
                             void *ctx);
/* Set up sources, diagnostics and the schema; 0, or -1 (usage error). */
int cli_queries_start(CliQueries *cq);
/* Read --db-id-from's FILE (a gold file) into *from, its items in a new
** *arena; -1 to go on, or an exit code after a message.  `squint check`
** uses it too. */
int cli_read_db_id_source(const char *cmd, const char *path, SqSrcSet *srcs, SqDiags *diags,
                          SqArena **arena, SqBench *from);
/* The format to read a FILE as: with --db-id-from, plain text is one
** query per line (a prediction file aligned with the gold). */
SqInputFormat cli_file_format(SqInputFormat given, int has_db_id_source);

/* The members every command's JSON object for a query opens with: its
** span (file, line, col, ...), db_id and question_id (null for a script's
** statement), and sql, the query as the SQL backend writes it: sql when
** the caller has written it already, else written here. */
void cli_query_json_head(SqJsonWriter *w, const CliQueries *cq, const CliQuery *q, const char *sql);

/* The id of q's item, after prefix and a '/': qid-N (BIRD's question_id),
** item-N (0-based, Spider), line-N (a line of SQL<TAB>db_id or of SQL
** lines; in a script, the line the query starts on).  The custom_id of
** the requests made for it. */
void cli_query_item_id(SqBuf *b, const char *prefix, const CliQuery *q);
/* "dev.json:3:12 (question_id 7)": where q is, its item's label after its
** position when it has one; appended to b. */
void cli_query_where(SqBuf *b, const CliQuery *q);

/* The id of q as the source of generated records (template sample's
** instances, expand's expansions): BIRD's question_id when its item has
** one, else n, its place among the run's queries.  Written into buf. */
const char *cli_query_source_id(const CliQuery *q, uint64_t n, char buf[32]);

/* Read path and call fn on each query in it. */
void cli_queries_file(CliQueries *cq, const char *path, CliQueryFn fn, void *ctx);
/* Print the diagnostics (stderr) and give the exit code: 2 for unreadable
** input or schema, 1 for errors, else 0. */
int cli_queries_finish(CliQueries *cq);
void cli_queries_free(CliQueries *cq);

#endif
