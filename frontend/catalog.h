/*
** catalog.h -- a database schema: tables, columns, keys, foreign keys, views.
**
** Layer: frontend.  A catalog is built from CREATE statements (a DDL file,
** or the sqlite_schema of a .sqlite file, parsed with squint's own parser)
** or from a Spider/BIRD tables.json entry (catalog_json.c).  The binder resolves names
** against it.  Names are interned (case-insensitive, as in SQLite) and keep
** their declared spelling for output.
**
** The catalog owns everything in its arena, including the ASTs of views;
** the sources those ASTs point into must outlive it (they live in the
** SqSrcSet the caller passed).
*/
#ifndef SQ_CATALOG_H
#define SQ_CATALOG_H

#include <stdint.h>

#include "grammar/ast.h"
#include "runtime/arena.h"
#include "runtime/diag.h"
#include "runtime/intern.h"
#include "runtime/json.h"
#include "frontend/types.h"

typedef struct CatTable CatTable;

typedef struct CatColumn {
    const char *name;      /* declared spelling */
    const SqName *key;
    const char *decl_type; /* declared type text, or NULL */
    uint8_t affinity;      /* SqAffinity of decl_type */
    uint8_t not_null;      /* NOT NULL, or a rowid alias */
    uint8_t pk;            /* 1-based position in the primary key, 0 if not */
    uint8_t rowid_alias;   /* INTEGER PRIMARY KEY of a rowid table */
    uint8_t unique;        /* a single-column UNIQUE or PRIMARY KEY */
    uint8_t hidden;        /* generated or hidden: not in SELECT * */
    const char *collation; /* declared collation, or NULL for BINARY */
    const AstExpr *default_value; /* DEFAULT, or NULL */
    SrcSpan span;
} CatColumn;

/* A primary key or a UNIQUE constraint (table constraint or unique index). */
typedef struct CatKey {
    uint32_t *cols;
    uint32_t n_cols;
    uint32_t cap_cols;
    uint8_t is_pk;
} CatKey;

typedef struct CatForeignKey {
    uint32_t *cols;          /* columns of this table */
    uint32_t n_cols, cap_cols;
    const char *ref_table;   /* as written */
    const SqName *ref_key;
    const char **ref_cols;   /* as written; NULL entries: the referenced PK */
    uint32_t n_ref_cols, cap_ref_cols;
    CatTable *target;        /* resolved by sq_catalog_link, or NULL */
    uint32_t *target_cols;   /* resolved column indexes, n_cols of them */
} CatForeignKey;

struct CatTable {
    const char *name;        /* declared spelling */
    const SqName *key;
    CatColumn *cols;
    uint32_t n_cols, cap_cols;
    CatKey *keys;            /* the primary key first, if any */
    uint32_t n_keys, cap_keys;
    CatForeignKey *fks;
    uint32_t n_fks, cap_fks;
    const char **checks;     /* CHECK constraints: each expression's text */
    uint32_t n_checks, cap_checks;
    uint8_t is_view;
    uint8_t without_rowid;
    uint8_t strict;          /* STRICT: declared types are enforced */
    uint8_t tvf_max_args;    /* table-valued function: arguments it takes */
    uint8_t is_virtual;      /* CREATE VIRTUAL TABLE */
    AstSelect *view_select;  /* views: the defining query */
    AstNameList view_cols;   /* views: the column list, if written */
    SrcSpan span;            /* where it was declared */
};

typedef struct Catalog {
    SqArena *arena;          /* owns everything below */
    SqInterner *names;       /* shared, not owned */
    const char *db_id;       /* benchmark database id, or NULL */
    const char *origin;      /* where it was loaded from, for messages */
    CatTable **tables;
    uint32_t n_tables, cap_tables;
    CatTable **slots;        /* hash of tables by key (open addressing) */
    uint32_t n_slots;
    CatTable *eponymous[2];  /* json_each, json_tree (catalog_builtin.c) */
} Catalog;

Catalog *sq_catalog_new(SqInterner *names, const char *origin);
void sq_catalog_free(Catalog *c);

CatTable *sq_catalog_table(const Catalog *c, const SqName *key);
/* Position of t in c->tables; c->n_tables when it is not there. */
uint32_t sq_catalog_pos(const Catalog *c, const CatTable *t);
/* Whether t holds rows a database stores: not a view, a virtual table, a
** table-valued function or a table whose columns are unknown (CREATE
** TABLE ... AS SELECT before it is bound). */
int sq_catalog_is_stored(const CatTable *t);
/* json_each or json_tree, which every database has without declaring them
** (built on first use); NULL for other names. */
CatTable *sq_catalog_eponymous(const Catalog *c, const SqName *key);
CatTable *sq_catalog_add_table(Catalog *c, const char *name, SrcSpan span);
/* Index of a column by key, or -1. */
int sq_table_column(const CatTable *t, const SqName *key);
CatColumn *sq_table_add_column(Catalog *c, CatTable *t, const char *name,
                               const char *decl_type, SrcSpan span);
/* Whether cols (n indexes) include all columns of some key of t. */
int sq_table_cols_unique(const CatTable *t, const uint32_t *cols, uint32_t n);

/* Resolve foreign-key targets; reports unknown tables or columns as
** warnings with the given code prefix.  Call after loading. */
void sq_catalog_link(Catalog *c, SqDiags *diags);

/* ---- loaders -------------------------------------------------------- */

/* Every CREATE TABLE / VIEW / INDEX / VIRTUAL TABLE statement of a parsed
** source.  Syntax errors are reported; other statements are ignored.
** Returns the number of errors. */
size_t sq_catalog_load_ddl(Catalog *c, const SqSrc *src, SqDiags *diags);

/* The schema of a .sqlite file, opened read-only: each sqlite_schema entry
** becomes a source in srcs (named path:sqlite_schema:name) and is loaded
** as DDL.  Returns 0 on success, -1 if the file cannot be opened (a
** diagnostic says why). */
int sq_catalog_load_sqlite(Catalog *c, const char *path, SqSrcSet *srcs,
                           SqDiags *diags);

/* Apply one CREATE statement. */
void sq_catalog_apply(Catalog *c, const AstStmt *stmt, SqDiags *diags);

/* ---- Spider/BIRD tables.json (catalog_json.c) ------------------------ */

/* Parse a tables.json source (an array of per-database entries) into arena
** a.  NULL when it is not valid JSON (E0002, at the offending byte) or not
** an array (E0206). */
const SqJson *sq_tables_json_parse(SqArena *a, const SqSrc *src,
                                   SqDiags *diags);

/* The db_id of every entry, in file order (entries without a string db_id
** are left out).  The array lives in a; *n is set. */
const char **sq_tables_json_db_ids(SqArena *a, const SqJson *doc, uint32_t *n);

/* The entry whose db_id is exactly db_id, or NULL. */
const SqJson *sq_tables_json_find(const SqJson *doc, const char *db_id);

/* Load one entry (an object with table_names_original,
** column_names_original, column_types, primary_keys, foreign_keys) of the
** tables.json held in src.  Spans of tables and columns point at their
** names in src.  Problems in the entry's shape are E0206 errors at the
** offending value; returns -1 when the entry cannot be used at all, else 0.
** Foreign keys name their targets: call sq_catalog_link() afterwards. */
int sq_catalog_load_tables_entry(Catalog *c, const SqSrc *src,
                                 const SqJson *entry, SqDiags *diags);

/* The entry of doc (parsed from src) named db_id.  An unknown db_id is an
** E0207 error at 'at' (the place that asked for it; file 0 for none), with
** a "did you mean" help; returns -1 then, or when the entry is unusable. */
int sq_catalog_load_tables_json(Catalog *c, const SqSrc *src, const SqJson *doc,
                                const char *db_id, SrcSpan at, SqDiags *diags);

/* The candidate closest to name by edit distance (insertions, deletions,
** substitutions and swaps of neighbours; ASCII case ignored), if it is
** close enough to be a likely typo (at most a third of name's length, at
** least 1, edits); else NULL.  For "did you mean" help on db_ids. */
const char *sq_suggest_name(const char *name, const char *const *cands, size_t n);

#endif
