/*
** emit.h -- the emitters: text generated from a bound query and its
** catalog, with nothing run.
**
** Layer: backend.  Emitting is kept apart from executing: an emitter
** depends on the IR and the catalog only, never on a database connection
** (running SQL is backend/sqlite/'s job).  Every emitter is one row of the
** table in registry.c ({name, summary, script, emit}, as passes/registry.c
** is for passes), which `squint emit NAME` and `squint ir --format NAME` reach by
** name; a new target is one row and one file (docs/architecture.md).
**
**   sql   the query as SQLite SQL (sql.c): deterministic, fully qualified
**   ddl   CREATE TABLE statements for the tables the query reads and
**         those they reference (ddl.c); a view is not written, the
**         tables it reads are
*/
#ifndef SQ_EMIT_H
#define SQ_EMIT_H

#include "ir/ir.h"
#include "runtime/strbuf.h"

typedef struct SqEmitter {
    const char *name;    /* lower case, stable: command lines name it */
    const char *summary; /* one line for `squint emit --list` */
    int script;          /* writes several statements per query: the command
                            heads each query's text with "-- FILE:LINE:COL" */
    /* Append the text for q (bound against cat) to out, ending in a
    ** newline; 0 when q has nothing to emit (out unchanged), else 1. */
    int (*emit)(const Catalog *cat, IrQuery *q, SqBuf *out);
} SqEmitter;

/* Every emitter, in the order `squint emit --list` shows them. */
const SqEmitter *sq_emitter_all(size_t *n);
/* The emitter called name, or NULL. */
const SqEmitter *sq_emitter_find(const char *name);

/* ---- sql.c --------------------------------------------------------- */

/* Append the SQL of q's query to out (no final ';').  Returns 0 (and
** appends nothing) when the statement has no query. */
int sq_emit_sqlite(IrQuery *q, SqBuf *out);
/* The same with mark(ctx, node)'s text, when not NULL, written instead
** of a node of q: an SqExpr, an SqAggItem (an aggregate or GROUP BY key
** wherever it is written), or the direction of an SqSortKey.  A
** template's placeholders (passes/template/template.h). */
int sq_emit_sqlite_marked(IrQuery *q, const char *(*mark)(void *ctx, const void *node), void *ctx,
                          SqBuf *out);
int sq_emit_sql(const Catalog *cat, IrQuery *q, SqBuf *out);

/* ---- ddl.c --------------------------------------------------------- */

/* The stored tables (sq_catalog_is_stored) of c whose catalog position i
** has keep[i] set (every one when keep is NULL), referenced tables first
** when the references have no cycle, else in catalog order; order has
** room for c->n_tables.  Returns the count. */
uint32_t sq_ddl_order(const Catalog *c, const uint8_t *keep, const CatTable **order);
/* Set keep[i] for every table q reads (in subqueries and CTE bodies too)
** and, through their foreign keys, every table those reference: the
** tables sq_emit_ddl writes.  keep has c->n_tables entries. */
void sq_ddl_keep_query(const Catalog *cat, const IrQuery *q, uint8_t *keep);
/* "CREATE TABLE ...;\n" for t. */
void sq_ddl_create_table(SqBuf *out, const CatTable *t);
/* The same with a note after each column whose notes[i] is not NULL or
** empty, as a block comment (a column's description for a reader; the
** statement still runs). */
void sq_ddl_create_table_notes(SqBuf *out, const CatTable *t, const char *const *notes);
/* The CREATE TABLE statements of the tables q reads and, through their
** foreign keys, the tables those reference: a schema q runs on. */
int sq_emit_ddl(const Catalog *cat, IrQuery *q, SqBuf *out);

#endif
