/*
** bind_int.h -- binder internals shared by the bind_*.c files.
**
** Layer: frontend (private).  A Scope is SQLite's NameContext: the FROM
** items of one query block, the flags saying what may appear in the clause
** being resolved, the result-set aliases when they may be used, and a link
** to the enclosing query's scope for correlated references.
*/
#ifndef SQ_BIND_INT_H
#define SQ_BIND_INT_H

#include "frontend/bind.h"

/* Scope.flags (SQLite's NC_* flags that matter here). */
enum {
    SC_ALLOW_AGG = 1 << 0,  /* aggregate functions allowed */
    SC_ALLOW_WIN = 1 << 1,  /* window functions allowed */
    SC_UELIST = 1 << 2,     /* result-set aliases may be referenced */
    SC_HAS_AGG = 1 << 3,    /* an aggregate belonging to this block was seen */
    SC_MINMAX = 1 << 4,     /* that aggregate is min() or max() */
    SC_IN_AGG_ARG = 1 << 5, /* inside an aggregate's arguments */
};

/* Which clause of a block is being resolved; aggregates are computed only
** for the result list, HAVING and ORDER BY (SQLite's aggregate analysis). */
typedef enum Clause {
    CL_NONE, CL_RESULT, CL_WHERE, CL_HAVING, CL_ORDER, CL_GROUP, CL_LIMIT,
    CL_OTHER
} Clause;

/* One result column while a block is being bound. */
typedef struct ResultItem {
    const AstExpr *ast;      /* the written expression, or NULL after * */
    const char *alias;       /* AS name, or NULL */
    const SqName *alias_key;
    SqExpr *bound;           /* bound expression (over the block's sources) */
    SrcSpan span;
    int from_star;           /* produced by * or t.* */
    int star_source;         /* for *: which source it came from */
    int star_col;            /*        and which of its columns */
} ResultItem;

typedef struct Scope {
    struct Scope *outer;     /* the enclosing query's scope, or NULL */
    BndSelect *sel;          /* whose FROM items are visible (NULL: none) */
    uint32_t flags;          /* SC_* */
    Clause clause;           /* clause being resolved */
    ResultItem *results;     /* result list, for aliases (SC_UELIST) */
    uint32_t n_results;
    uint32_t n_ref;          /* names resolved here or in an outer scope */
} Scope;

/* An aggregate call waiting for its block's kind to be known: it is
** valid only in the result list, HAVING or ORDER BY of an aggregate
** block. */
typedef struct PendingAgg {
    BndSelect *owner;
    Clause clause;
    const char *name;
    SrcSpan span;
    uint8_t distinct;   /* DISTINCT: SQLite wants exactly one argument */
    uint32_t n_args;
} PendingAgg;

/* Visible WITH clauses, innermost first. */
typedef struct WithScope {
    struct WithScope *outer;
    BndWith *with;
    const AstWith *ast;
    uint32_t bound;          /* CTEs of this clause bound so far (scoping) */
} WithScope;

typedef struct Binder {
    SqArena *arena;
    const Catalog *cat;
    SqInterner *names;
    SqDiags *diags;
    const SqBindOptions *opt;
    uint32_t next_id;        /* next SqColRef.rel id */
    int failed;              /* an error was reported: stop */
    WithScope *with;         /* visible CTEs */
    PendingAgg *pending;
    uint32_t n_pending, cap_pending;
    uint32_t view_depth;     /* views expanding views */
    const char **busy_views; /* views being expanded (cycle check) */
    uint32_t n_busy_views;
    BndCte *recursive_cte;   /* the CTE whose recursive terms are being bound */
    BndSelect *recursive_term; /* the recursive term being bound */
    int recursive_used;      /* it already named the CTE */
    BndSelect **owners;      /* by agg_id: the block owning those outputs */
    uint32_t n_owners, cap_owners;
    Clause cur_clause;       /* clause being bound (for alias copies) */
    uint32_t n_agg_calls;    /* aggregate calls written so far (not copies) */
    int quiet;               /* trial binding: errors fail but are not shown */
} Binder;

/* ---- errors and helpers (bind_names.c) ------------------------------ */

SqDiag *bind_error(Binder *b, SqDiagCode code, SrcSpan at, const char *fmt, ...)
    SQ_PRINTF(4, 5);
uint32_t bind_new_id(Binder *b);
/* Text of a span in its source (for result column names). */
const char *bind_span_text(Binder *b, SrcSpan span);
/* "did you mean" help: the closest of the candidates to name, if close. */
void bind_suggest(SqDiag *g, const char *name, const char *const *cands,
                  size_t n);
/* Resolve [schema.][table.]column in scope s (SQLite's lookupName). */
SqExpr *bind_column(Binder *b, Scope *s, const AstExpr *e);
/* Record that a reference resolved in scope 'found' was made from s. */
void bind_count_ref(Scope *s, Scope *found);
/* A column reference expression to source column i of src. */
SqExpr *bind_source_col(Binder *b, const BndSource *src, uint32_t i, SrcSpan at);
/* Which scope, from s outward, owns the source with this id (NULL: none). */
Scope *bind_scope_of(Scope *s, uint32_t rel);
/* Does e (not looking into subqueries) reference a column with this
** SQXF_* flag (SQXF_AGG_REF, SQXF_WIN_REF)? */
int bind_has_ref(const SqExpr *e, uint16_t flag);

/* ---- expressions (bind_expr.c) -------------------------------------- */

SqExpr *bind_expr(Binder *b, Scope *s, const AstExpr *e);
SqExpr *bind_literal_int(Binder *b, int64_t v, SrcSpan at);
/* sqlite3ExprIsInteger on a written term: a 32-bit integer literal under
** any number of unary signs (ORDER BY 2, GROUP BY -1, x AND 0). */
int bind_ast_int32(const AstExpr *e, int64_t *v);
int bind_vector_size(const SqExpr *e);
/* A row value or a many-column subquery where one value is needed is an
** error (SQLite's two messages); returns 0 after reporting it. */
int bind_need_scalar(Binder *b, const SqExpr *e);
/* ---- collating sequences (bind_coll.c) ------------------------------- */

/* BINARY, NOCASE and RTRIM: the collating sequences SQLite always has. */
int bind_known_collation(const char *name);
/* An unknown collating sequence where e is compared or sorted is an
** error; these return 0 after reporting it. */
int bind_check_collation(Binder *b, const SqExpr *e);
/* l compared with r: the collation SQLite picks for the comparison. */
int bind_check_compare_collation(Binder *b, const SqExpr *l, const SqExpr *r);
int bind_check_compound_collation(Binder *b, const BndSelect *q, uint32_t n_cols);
int bind_check_column_collations(Binder *b, const BndSelect *q);
/* Whether e has a collation at all (a COLLATE, or is a column). */
int bind_has_collation(const SqExpr *e);
/* Whether e reads a column or a subquery (is not a constant). */
int bind_has_column(const SqExpr *e);
/* Copy an expression (for alias substitution) into a clause of the block
** that owns the alias; its aggregates are checked again there. */
SqExpr *bind_expr_copy(Binder *b, const SqExpr *e, Clause clause);

/* Function calls of every kind (bind_func.c). */
SqExpr *bind_function(Binder *b, Scope *s, const AstExpr *e);
/* The block's WINDOW clause, checked and chained as SQLite's parser does. */
int bind_window_defs(Binder *b, BndSelect *sel, const AstSelect *ast);

/* ---- walking bound trees (bind_walk.c) ------------------------------ */

/* Call fn on e and every node below it, going into subqueries; stop and
** return nonzero when fn does. */
int bind_walk_deep(SqExpr *e, int (*fn)(SqExpr *e, void *arg), void *arg);
/* The same over every expression of a query block and its subqueries. */
int bind_walk_select(BndSelect *q, int (*fn)(SqExpr *e, void *arg), void *arg);

/* ---- FROM clauses (bind_from.c) ------------------------------------- */

int bind_from(Binder *b, BndSelect *sel, const AstSelect *ast, Scope *outer);
int bind_expand_results(Binder *b, BndSelect *sel, const AstSelect *ast,
                        ResultItem **out, uint32_t *n);
/* Columns of a bound query block as seen from outside (names made unique
** the way SQLite does for subqueries). */
void bind_query_columns(Binder *b, BndSelect *q, SqColumnList *out);
BndCte *bind_find_cte(Binder *b, const SqName *key, WithScope **where);
int bind_with(Binder *b, BndWith **out, const AstWith *ast);

/* ---- aggregation (bind_agg.c) ---------------------------------------- */

/* Remember an aggregate call to check once its block's kind is known. */
void bind_pending_agg(Binder *b, BndSelect *owner, Clause cl, const char *name,
                      SrcSpan at, int distinct, uint32_t n_args);
/* Check an aggregate block's calls and rewrite its post-aggregation
** expressions to read the aggregation's outputs: GROUP BY keys, and bare
** columns for the rest.  0 after an error. */
int bind_finish_aggregate(Binder *b, BndSelect *sel);
/* Settle the pending aggregate checks (SQLite's "misuse of aggregate"). */
int bind_check_pending(Binder *b);
/* Whether two bound expressions compute the same value (sq_expr_equal,
** with equal aggregate calls counting as equal). */
int bind_expr_same(Binder *b, const SqExpr *x, const SqExpr *y);
/* An earlier call (index < before) of sel's aggregation computing the same
** as it, or -1: one output serves every use of the same call. */
int bind_agg_find(Binder *b, const BndSelect *sel, const SqAggItem *it, uint32_t before);
/* The block that owns the aggregation outputs with this id, or NULL. */
BndSelect *bind_agg_owner(Binder *b, uint32_t agg_id);
void bind_register_owner(Binder *b, uint32_t agg_id, BndSelect *sel);

/* ---- query blocks (bind_select.c) ----------------------------------- */

BndSelect *bind_query(Binder *b, const AstSelect *ast, Scope *outer);
/* One SELECT core or VALUES term; 'recursive': a recursive term of the CTE
** being bound, whose FROM may name it once. */
BndSelect *bind_term(Binder *b, const AstSelect *ast, Scope *outer, int recursive);
/* Join two bound queries with a set operator (column counts must agree). */
BndSelect *bind_compound(Binder *b, BndSelect *l, BndSelect *r, uint8_t op, SrcSpan at);
/* ORDER BY and LIMIT written after a compound. */
int bind_tail(Binder *b, BndSelect *q, const AstSelect *ast);
/* The result column name SQLite gives an expression. */
const char *bind_result_name(Binder *b, const ResultItem *r);

#endif
