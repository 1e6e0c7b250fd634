/*
** bind.h -- the binder: an AST statement plus a catalog in, a bound and
** typed query out, with SQLite's name-resolution rules and errors.
**
** Layer: frontend.  The binder follows SQLite 3.40's own phases: expand the
** FROM clause (tables, views, CTEs, subqueries; NATURAL and USING; the *
** wildcards), then resolve names clause by clause in SQLite's order, then
** the checks SQLite makes when it generates code (aggregates in the wrong
** place, compound column counts, subquery widths).  It reports the first
** error of a statement, as SQLite does, so a statement binds exactly when
** sqlite3_prepare_v2 would accept it.
**
** The result keeps SQL's block structure (a BndSelect per SELECT core,
** VALUES list or compound); ir/lower.c turns it into relations.  Columns
** are named by SqColRef ids handed out here: one per FROM item, and per
** query block one for its aggregation outputs, one for its window
** functions and one for its result columns.
**
** Everything lives in the arena passed to sq_bind_stmt().
*/
#ifndef SQ_BIND_H
#define SQ_BIND_H

#include "grammar/ast.h"
#include "runtime/arena.h"
#include "runtime/diag.h"
#include "frontend/catalog.h"
#include "frontend/expr.h"

typedef struct BndSelect BndSelect;
typedef struct BndCte BndCte;
typedef struct BndWinDef BndWinDef; /* a WINDOW clause entry (bind_func.c) */

typedef enum BndSourceKind {
    BND_TABLE,    /* a catalog table */
    BND_SUBQUERY, /* (SELECT ...), a view, or a parenthesized join */
    BND_CTE,      /* a reference to a WITH entry */
} BndSourceKind;

/* BndSource.flags */
enum {
    BSF_ALIAS = 1 << 0,     /* an alias was written */
    BSF_VIEW = 1 << 1,      /* a view expanded as a subquery */
    BSF_NULLABLE = 1 << 2,  /* on the NULL-filled side of an outer join */
    BSF_NATURAL = 1 << 3,   /* joined with NATURAL (using holds the columns) */
    BSF_USING = 1 << 4,     /* joined with USING (or NATURAL) */
    BSF_NESTED = 1 << 5,    /* a parenthesized join */
    BSF_TVF = 1 << 6,       /* table-valued function call */
};

/* One FROM item. */
typedef struct BndSource {
    uint32_t id;           /* SqColRef.rel of its columns */
    uint8_t kind;          /* BndSourceKind */
    uint8_t join;          /* AST_JT_* of the join that brought it in; 0 first */
    uint16_t flags;        /* BSF_* */
    const char *alias;     /* the name it is known by (alias, else table) */
    const SqName *key;
    CatTable *table;       /* BND_TABLE (and the view for views) */
    BndSelect *query;      /* BND_SUBQUERY */
    BndCte *cte;           /* BND_CTE */
    SqColumnList cols;     /* its columns */
    SqExpr *on;            /* ON condition, bound (USING: the equalities) */
    const AstExpr *on_ast; /* ON condition as written */
    AstNameList using;     /* USING columns (written or from NATURAL) */
    SqExprList args;       /* table-valued function arguments, bound */
    const AstExprList *args_ast; /* as written (NULL: no argument list) */
    SrcSpan span;
    SrcSpan join_span;
} BndSource;

typedef struct BndWith {
    uint8_t recursive;
    BndCte **ctes;
    uint32_t n_ctes, cap_ctes;
} BndWith;

struct BndCte {
    const char *name;
    const SqName *key;
    SqColumnList cols;
    uint8_t has_col_list;
    uint8_t materialized;  /* AstMaterialized */
    uint8_t recursive;     /* the body references the CTE itself */
    BndSelect *body;
    SrcSpan span;
    const char *busy;      /* while its body is bound: the error a reference
                              from there is ("circular reference: %s") */
};

/* BndSelect.flags */
enum {
    BSEL_DISTINCT = 1 << 0,
    BSEL_AGGREGATE = 1 << 1,   /* GROUP BY or aggregate functions */
    BSEL_LIMIT_COMMA = 1 << 2,
    BSEL_MINMAX_AGG = 1 << 3,  /* a min() or max() aggregate is present */
};

/* A query block: a SELECT core, a VALUES list, or a compound. */
struct BndSelect {
    uint8_t kind;          /* AstSelectKind */
    uint8_t op;            /* compound: AstSetOp */
    uint16_t flags;        /* BSEL_* */
    SrcSpan span;
    const AstSelect *ast;
    BndWith *with;
    /* SELECT core */
    BndSource *sources;
    uint32_t n_sources, cap_sources;
    SqExpr *where;         /* WHERE only; ON conditions stay on sources */
    uint32_t agg_id;       /* SqColRef.rel of the aggregation outputs */
    SqAggItem *aggs;       /* calls as met, GROUP BY keys, bare columns */
    uint32_t n_aggs, cap_aggs;
    uint32_t n_keys;       /* how many of aggs are GROUP BY keys */
    SqExpr *having;
    uint32_t win_id;       /* SqColRef.rel of the window function outputs */
    SqWinCall *wins;
    uint32_t n_wins, cap_wins;
    BndWinDef *win_defs;   /* the WINDOW clause, chained as SQLite does */
    uint32_t n_win_defs;
    /* VALUES */
    SqExprList *rows;
    uint32_t n_rows, cap_rows;
    /* compound */
    BndSelect *left, *right;
    /* every kind */
    uint32_t result_id;    /* SqColRef.rel of the result columns */
    SqExprList results;    /* per column; hidden ones only serve ORDER BY */
    SqColumnList cols;     /* names and types, hidden flags */
    SqSortKey *order;      /* ORDER BY; keys name result columns */
    uint32_t n_order, cap_order;
    SqExpr *limit, *offset;
};

typedef struct BndStmt {
    const AstStmt *ast;
    BndSelect *select;     /* SELECT statements (others: NULL) */
    uint32_t n_ids;        /* ids handed out: 1 .. n_ids-1 */
} BndStmt;

/* How the SQLite that runs the queries was built, where it changes what
** binds.  All zero is stock SQLite. */
typedef struct SqBindOptions {
    int no_dq_strings;     /* refuse "x" as a string (SQLite built with DQS=0) */
    int rowid_in_view;     /* views and subqueries have a rowid
                              (SQLITE_ALLOW_ROWID_IN_VIEW, as Debian builds it) */
} SqBindOptions;

/* Bind one statement.  NULL when it has an error (reported to diags).
** Statements other than SELECT bind their queries where they have any
** (INSERT ... SELECT, CREATE VIEW/TABLE AS) and otherwise succeed with no
** select. */
BndStmt *sq_bind_stmt(SqArena *arena, const Catalog *cat, SqInterner *names,
                      SqDiags *diags, const AstStmt *stmt,
                      const SqBindOptions *opt);

#endif
