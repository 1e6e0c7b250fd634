/*
** squint.h -- the library's façade: one context, and the calls that take a
** schema and SQL text to IR, passes, an equivalence verdict and an
** evaluation record.
**
** Layer: api (above backend, below cli).  The CLI, the benchmarks and the
** conformance tools build the pipeline parse -> bind -> lower through these
** calls instead of by hand.  Everything below stays reachable: a context's
** fields are the sources, names and diagnostics the lower layers take.
**
** Memory: a context owns its arena, the catalogs it loads and the
** tables.json files it reads, and (unless it was attached to a caller's)
** its sources, interner and diagnostics; sq_ctx_free() releases all of
** them.  A compiled query lives in the arena the caller passes.
**
** Errors: every call that can fail on its input adds diagnostics to
** ctx->diags and says so in its return value; nothing here prints.
**
**   SqContext c;
**   sq_ctx_init(&c);
**   const Catalog *cat = sq_ctx_load_schema(&c, "schema.sql", 0, NULL);
**   SqArena *a = sq_arena_new();
**   SqCompileStatus st;
**   IrQuery *q = cat ? sq_ctx_compile_text(&c, a, cat, "q", sql, strlen(sql), &st) : NULL;
**   ...
**   sq_arena_free(a);
**   sq_ctx_free(&c);
*/
#ifndef SQ_SQUINT_H
#define SQ_SQUINT_H

#include "runtime/arena.h"
#include "runtime/diag.h"
#include "runtime/intern.h"
#include "runtime/src.h"
#include "frontend/bind.h"
#include "frontend/catalog.h"
#include "ir/ir.h"
#include "passes/pass.h"
#include "backend/equiv/equiv.h"
#include "backend/eval/item.h"

/* ---- the context ---------------------------------------------------- */

/* A schema loaded by the context: where it came from, its catalog. */
typedef struct SqCtxSchema {
    const char *key;            /* the path or name it was loaded from (arena) */
    Catalog *cat;               /* owned */
} SqCtxSchema;

/* A tables.json read once, for each db_id asked of it. */
typedef struct SqCtxTables {
    const char *path;           /* (arena) */
    const SqSrc *src;           /* NULL when it could not be read */
    const SqJson *doc;          /* NULL when it could not be read or parsed */
} SqCtxTables;

/* One session of the library: what the layers below share. */
typedef struct SqContext {
    SqSrcSet *srcs;             /* every text read: schemas, queries */
    SqInterner *names;          /* identifiers, shared by all catalogs */
    SqDiags *diags;             /* everything reported */
    SqBindOptions bind_opt;     /* as the linked SQLite was built */
    SqArena *arena;             /* the context's own allocations */
    SqCtxSchema *schemas;       /* loaded, in order (heap) */
    size_t n_schemas, cap_schemas;
    SqCtxTables *tables;        /* tables.json files read (heap) */
    size_t n_tables, cap_tables;
    SqArena *stmt_arena;        /* a script's statements, one at a time;
                                   made on first use, kept for the next */
    uint8_t in_script;          /* stmt_arena is in use (a nested script
                                   gets an arena of its own) */
    SqSrcSet own_srcs;          /* srcs, unless attached */
    SqDiags own_diags;          /* diags, unless attached */
    uint8_t is_attached;        /* srcs, names, diags are a caller's */
} SqContext;

/* A context with its own sources, interner and diagnostics. */
void sq_ctx_init(SqContext *c);
/* A context over a caller's sources, names and diagnostics, which it
** uses and does not free (a command that has them already). */
void sq_ctx_attach(SqContext *c, SqSrcSet *srcs, SqInterner *names, SqDiags *diags);
/* Release what the context owns (the loaded catalogs too). */
void sq_ctx_free(SqContext *c);

/* A point to go back to: the sources and diagnostics added after it are
** dropped by sq_ctx_rewind (a tool that compiles many queries keeps
** only the schemas'). */
typedef struct SqCtxMark {
    uint32_t n_srcs;
    size_t n_diags;
} SqCtxMark;
SqCtxMark sq_ctx_mark(const SqContext *c);
void sq_ctx_rewind(SqContext *c, SqCtxMark m);
/* The message of the last diagnostic added since m, or NULL. */
const char *sq_ctx_last_message(const SqContext *c, SqCtxMark m);

/* ---- schemas ---------------------------------------------------------- */

/* How a schema load went. */
typedef enum SqLoadStatus {
    SQ_LOAD_OK,
    SQ_LOAD_FAILED,             /* unreadable, or errors (reported) */
    SQ_LOAD_UNKNOWN_DB_ID,      /* the db_id is not there (reported) */
    SQ_LOAD_NOT_DATABASE,       /* SQ_SCHEMA_DB_OR_SQL: neither a database
                                   nor *.sql (not reported: the caller says
                                   what it expected) */
} SqLoadStatus;

/* sq_ctx_load_schema flags. */
#define SQ_SCHEMA_DB_OR_SQL 1u  /* a file that is not a SQLite database must
                                   be named *.sql to be read as a script */
#define SQ_SCHEMA_KEEP_ERRORS 2u /* a script's errors are reported and the
                                   rest of it kept (a corpus whose schemas
                                   may hold a statement squint refuses) */

/* Each loader returns a linked catalog the context owns, or NULL after
** diagnostics; *st (may be NULL) says why.  Loading the same thing twice
** loads it twice: callers that revisit a db_id keep what they got. */

/* A DDL script or a .sqlite file, told apart by SQLite's file header.  A
** script with an error is refused as a whole (a schema missing a table
** would make every query that reads it look wrong), unless flags has
** SQ_SCHEMA_KEEP_ERRORS. */
Catalog *sq_ctx_load_schema(SqContext *c, const char *path, unsigned flags, SqLoadStatus *st);
/* A DDL script in memory, named name; its errors are reported and the
** rest is kept (as sq_catalog_load_ddl does). */
Catalog *sq_ctx_load_ddl(SqContext *c, const char *name, const char *ddl, size_t len);
/* The schema of a SQLite database file. */
Catalog *sq_ctx_load_sqlite(SqContext *c, const char *path);
/* Entry db_id of a Spider/BIRD tables.json (read and parsed once per
** path).  at is where db_id was asked for (file 0: nowhere). */
Catalog *sq_ctx_load_tables_json(SqContext *c, const char *path, const char *db_id, SrcSpan at,
                                 SqLoadStatus *st);
/* The parsed tables.json at path (read once), or NULL (reported once);
** *src (may be NULL) is its source. */
const SqJson *sq_ctx_tables_json(SqContext *c, const char *path, const SqSrc **src);
/* Spider's layout: db_id X is DIR/X/X.sqlite. */
Catalog *sq_ctx_load_db_root(SqContext *c, const char *dir, const char *db_id, SrcSpan at,
                             SqLoadStatus *st);
/* DIR/X/X.sqlite in a, or NULL when db_id is not a plain directory name. */
const char *sq_db_root_path(SqArena *a, const char *dir, const char *db_id);
/* The names in dir (hidden ones left out), in a, in readdir's order. */
const char **sq_db_root_list(SqArena *a, const char *dir, size_t *n);
/* The paths ("dir/name") of dir's *.sql files in name order, not
** recursive: a directory of migrations, or of squint compile's queries.
** NULL (and *n 0) when dir cannot be read.  In a. */
const char **sq_dir_sql_files(SqArena *a, const char *dir, size_t *n);

/* ---- compiling -------------------------------------------------------- */

/* Which step stopped a statement (the first five are IrLoadStatus's). */
typedef enum SqCompileStatus {
    SQ_COMPILE_OK = IR_LOAD_OK,
    SQ_COMPILE_SYNTAX = IR_LOAD_SYNTAX,
    SQ_COMPILE_EMPTY = IR_LOAD_EMPTY,         /* sq_ctx_compile only */
    SQ_COMPILE_MANY = IR_LOAD_MANY,           /* sq_ctx_compile only */
    SQ_COMPILE_BIND = IR_LOAD_BIND,
    SQ_COMPILE_NOT_QUERY = IR_LOAD_NOT_QUERY, /* binds, but no SELECT */
    SQ_COMPILE_NO_SCHEMA,                     /* a script's: parsed, no catalog */
    SQ_COMPILE_END,                           /* SQ_SCRIPT_END_CALL's last call */
} SqCompileStatus;

/* The reason as a phrase ("a syntax error", "no statement", "more than
** one statement", "a binding error", "not a query ..."); NULL for OK. */
const char *sq_compile_why(SqCompileStatus st);

/* The one query of src, bound against cat and lowered into a; NULL with
** *st saying why when src is not exactly one query. */
IrQuery *sq_ctx_compile(SqContext *c, SqArena *a, const Catalog *cat, const SqSrc *src,
                        SqCompileStatus *st);
/* The same for a text, added to the context's sources as name. */
IrQuery *sq_ctx_compile_text(SqContext *c, SqArena *a, const Catalog *cat, const char *name,
                             const char *sql, size_t len, SqCompileStatus *st);

/* One statement of a script, for sq_ctx_compile_script's callback. */
typedef struct SqCompiled {
    SqCompileStatus status;     /* OK, SYNTAX, BIND, NOT_QUERY, NO_SCHEMA */
    size_t index;               /* 0-based, among the script's statements */
    const AstStmt *stmt;        /* NULL after a syntax error */
    const BndStmt *bound;       /* OK and NOT_QUERY (unless SQ_SCRIPT_NO_BIND) */
    IrQuery *ir;                /* OK (unless SQ_SCRIPT_NO_LOWER) */
    const Catalog *cat;         /* what it was bound against, or NULL */
    SqArena *arena;             /* holds all of it; reset after the callback */
    SrcSpan span;               /* the statement, also when it did not parse */
    const AstComment *comments; /* the script's comments read so far, in order:
                                   every one before the statement (the parser's;
                                   valid during the callback) */
    size_t n_comments;
} SqCompiled;

/* Return 0 to go on to the next statement, anything else to stop. */
typedef int (*SqCompiledFn)(void *ud, SqCompiled *s);
/* The catalog for a script, asked for once, at its first statement that
** parses (a script that does not parse does not load its schema). */
typedef const Catalog *(*SqSchemaFn)(void *ud);

/* sq_ctx_compile_script flags. */
#define SQ_SCRIPT_NO_LOWER 1u   /* bind, do not lower (ir stays NULL) */
#define SQ_SCRIPT_END_CALL 2u   /* after the last statement, one more call with
                                   status SQ_COMPILE_END, no statement, and
                                   every comment of the script */

/* Parse src statement by statement; bind each against cat (or, when cat
** is NULL and schema is not, the catalog schema gives), lower each query,
** and call fn on every statement.  Returns the statements seen. */
size_t sq_ctx_compile_script(SqContext *c, const SqSrc *src, const Catalog *cat,
                             SqSchemaFn schema, unsigned flags, SqCompiledFn fn, void *ud);

/* ---- passes, equivalence, evaluation --------------------------------- */

/* Run the named passes on q (each after its dependencies; see
** passes/pass.h), results in a.  pc (may be NULL) receives the pass
** context, to read analyses' results.  Returns the rewrites made, or -1
** when a pass failed (reported) or a name is unknown. */
int sq_ctx_run_passes(SqContext *c, SqArena *a, const Catalog *cat, IrQuery *q,
                      const char *const *names, size_t n, SqPassCtx *pc);

/* squint equiv on two compiled queries and their texts; opt NULL is
** sq_equiv_options_default().  Free *v with sq_equiv_result_free(). */
void sq_ctx_equiv(SqContext *c, const Catalog *cat, IrQuery *q1, const char *sql1, IrQuery *q2,
                  const char *sql2, const SqEquivOptions *opt, SqEquivResult *v);
/* The same from two texts: 0 with *v filled, or -1 when a text is not one
** query (*st says why, *which is 1 or 2). */
int sq_ctx_equiv_sql(SqContext *c, const Catalog *cat, const char *sql1, const char *sql2,
                     const SqEquivOptions *opt, SqEquivResult *v, SqCompileStatus *st, int *which);

/* squint eval on one item (backend/eval/item.h): its record appended to
** out.  in->interner, when NULL, is the context's names. */
void sq_ctx_eval(SqContext *c, const SqEvalInput *in, const SqEvalConfig *cfg, SqBuf *out);

#endif
