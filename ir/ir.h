/*
** ir.h -- squint's relational IR: operators over rows, typed expressions.
**
** Layer: ir.  The binder (frontend/bind*.c) builds it from a bound AST;
** passes analyse and rewrite it; backends emit SQL, SMT formulas or
** fixtures from it.
**
** Relations (IrRel) form trees.  Every relation has a query-unique id.  A
** column is named by an SqColRef (rel id, column index) of the relation
** that produces it: SCAN, VALUES, PROJECT, AGGREGATE, SETOP, CTEREF and
** WINDOW produce columns; FILTER, JOIN, DISTINCT, SORT and LIMIT pass their
** inputs' columns through unchanged.  So an expression above a join can
** name a column of a scan deep below it, and a rewrite that reorders joins
** leaves the references valid.  A reference to a relation outside the
** subquery being evaluated is a correlated reference.
**
** A SELECT core lowers to this chain (optional parts in brackets):
**
**   [LIMIT] <- [SORT] <- [DISTINCT] <- PROJECT <- [WINDOW] <- [FILTER having]
**     <- [AGGREGATE] <- [FILTER where] <- FROM tree (JOINs over SCAN,
**        VALUES, CTEREF and subquery roots)
**
** and the SQL emitter turns such a chain back into one SELECT.  SORT keys
** always name PROJECT outputs; ORDER BY terms that are not result columns
** become hidden PROJECT outputs.
**
** Everything lives in the IrQuery's arena.
*/
#ifndef SQ_IR_H
#define SQ_IR_H

#include <stdint.h>

#include "frontend/bind.h"
#include "frontend/catalog.h"
#include "frontend/expr.h"
#include "frontend/functions.h"
#include "frontend/types.h"
#include "grammar/ast.h"
#include "runtime/arena.h"
#include "runtime/jsonw.h"
#include "runtime/strbuf.h"

typedef struct IrRel IrRel;
typedef struct IrCte IrCte;

/* ------------------------------------------------------------------ */
/* Relations                                                           */
/* ------------------------------------------------------------------ */

typedef enum IrRelKind {
    IR_SCAN,      /* a base table */
    IR_VALUES,    /* literal rows; one empty row stands for "no FROM" */
    IR_FILTER,    /* WHERE or HAVING */
    IR_PROJECT,   /* result columns */
    IR_JOIN,
    IR_AGGREGATE, /* GROUP BY and aggregate functions */
    IR_DISTINCT,
    IR_SORT,
    IR_LIMIT,
    IR_SETOP,     /* UNION [ALL], INTERSECT, EXCEPT */
    IR_CTEREF,    /* a reference to a common table expression */
    IR_WINDOW,    /* window function evaluation */
    IR__COUNT
} IrRelKind;

typedef enum IrJoinType {
    IR_JOIN_INNER, IR_JOIN_LEFT, IR_JOIN_RIGHT, IR_JOIN_FULL, IR_JOIN_CROSS,
    IR_JOIN_SEMI, IR_JOIN_ANTI
} IrJoinType;

/* IrRel.flags */
enum {
    IRF_HAVING = 1 << 0,      /* FILTER from HAVING (not WHERE) */
    IRF_COMMA = 1 << 1,       /* JOIN written as a comma */
    IRF_NATURAL = 1 << 2,     /* JOIN written NATURAL */
    IRF_USING = 1 << 3,       /* JOIN written with USING */
    IRF_FROM_ITEM = 1 << 4,   /* a FROM item: has an alias in scope */
    IRF_LIMIT_COMMA = 1 << 5, /* LIMIT written "offset, count" */
    IRF_ALIAS_WRITTEN = 1 << 6, /* the FROM item's alias was written */
    IRF_VIEW = 1 << 7,        /* a view expanded in place */
    IRF_NESTED = 1 << 8,      /* a parenthesized join used as a FROM item */
};

typedef struct IrWith {
    uint8_t recursive;
    IrCte **ctes;
    uint32_t n_ctes, cap_ctes;
} IrWith;

struct IrCte {
    const char *name;
    const SqName *key;
    SqColumnList cols;       /* the CTE's columns (names, types) */
    uint8_t has_col_list;    /* columns named in WITH x(a, b) */
    uint8_t materialized;    /* AstMaterialized */
    uint8_t recursive;       /* references itself */
    IrRel *body;             /* the defining query */
    SrcSpan span;
};

struct IrRel {
    uint8_t kind;       /* IrRelKind */
    uint16_t flags;     /* IRF_* */
    SrcSpan span;
    uint32_t id;
    SqColumnList cols;  /* produced columns (for the producing kinds) */
    IrRel *input;       /* unary operators; a subquery FROM item's query */
    const char *alias;  /* FROM items: alias or table/CTE name */
    CatTable *view;     /* IRF_VIEW: the view this FROM item expands */
    IrWith *with;       /* WITH clause written on this query */
    union {
        struct { CatTable *table; SqExprList args; uint8_t tvf; } scan; /* args: json_each(...) */
        struct { SqExprList *rows; uint32_t n_rows, cap_rows; } values;
        struct { SqExpr *pred; } filter;
        struct { SqExprList exprs; } project;   /* one per column */
        struct { IrRel *left, *right; uint8_t type; SqExpr *cond;
                 uint8_t written; } join;        /* written: AST_JT_* */
        struct { SqAggItem *items; uint32_t n_items; uint32_t n_keys;
                 uint8_t minmax; } agg;          /* cols: one per item */
        struct { SqSortKey *keys; uint32_t n_keys, cap_keys; } sort;
        struct { SqExpr *count, *offset; } limit;
        struct { IrRel *left, *right; uint8_t op; } setop; /* AstSetOp */
        struct { IrCte *cte; } cteref;
        struct { SqWinCall *calls; uint32_t n_calls, cap_calls; } window;
    } u;
};

/* A bound statement: the root relation and where it came from. */
typedef struct IrQuery {
    SqArena *arena;      /* everything below lives here (not owned) */
    IrRel *root;
    IrRel **rels;        /* by id; NULL where an id names no relation */
    uint32_t n_rels, cap_rels;
    uint32_t next_id;    /* first id not yet used */
    const AstStmt *stmt; /* the statement it was bound from */
} IrQuery;

/* ---- construction (ir.c) ------------------------------------------- */

/* An empty query whose fresh ids start at first_id (ids below it are the
** binder's). */
IrQuery *ir_query_new(SqArena *a, uint32_t first_id);
/* A relation with the given id, or a fresh one when id is 0. */
IrRel *ir_rel_new(IrQuery *q, IrRelKind kind, uint32_t id, SrcSpan span);
IrRel *ir_rel(const IrQuery *q, uint32_t id);
/* The column a reference names, or NULL. */
const SqColumn *ir_column(const IrQuery *q, SqColRef ref);
/* Whether r produces the columns with this id, itself or through the
** operators that pass their inputs' columns on (FILTER, JOIN, DISTINCT,
** SORT, LIMIT). */
int ir_rel_binds(const IrRel *r, uint32_t id);

/* Kinds of type for "type-compatible" (a column that could stand for
** another): a column's affinity when it has one, else the class of its
** values. */
typedef enum IrTypeKind { IR_TK_NUMERIC, IR_TK_TEXT, IR_TK_BLOB, IR_TK_OTHER } IrTypeKind;
IrTypeKind ir_type_kind(SqType t);
/* Whether a query could name the column: not a table's hidden
** (generated) one, nor a nameless one. */
int ir_column_nameable(const SqColumn *c);

/* Every relation of the tree under r (r first, inputs before siblings,
** not into subquery expressions or CTE bodies). */
typedef int (*IrRelFn)(IrRel *r, void *arg);
int ir_walk_rels(IrRel *r, IrRelFn fn, void *arg);
/* Every expression held directly by r (not by its inputs). */
int ir_rel_exprs(IrRel *r, int (*fn)(SqExpr **slot, void *arg), void *arg);
/* Every node of every expression of every relation of q (subqueries'
** and CTE bodies' included), until fn returns nonzero: that value. */
int ir_query_walk(IrQuery *q, int (*fn)(SqExpr *e, void *arg), void *arg);

/* ---- SELECT cores (ir_core.c) ------------------------------------------ */

/* The operators of one SELECT core, top to bottom (see the chain at the
** top of this file); absent ones are NULL.  The slots are the fields that
** hold an operator, so a rewrite can replace or insert one: *from_slot
** holds the FROM tree, *where_slot the place a WHERE filter sits (or
** would be inserted). */
typedef struct IrCore {
    IrRel *limit, *sort, *distinct, *project, *window, *having, *agg, *where, *from;
    IrRel **from_slot;
    IrRel **where_slot;
} IrCore;

/* Split the chain whose top is *top into a core; 0 when it is not a
** SELECT core (a compound, a VALUES list). */
int ir_core_split(IrRel **top, IrCore *out);

/* How the rows of a query block are used by what holds it. */
typedef enum IrCoreUse {
    IR_USE_ROOT,   /* the statement's result */
    IR_USE_FROM,   /* a derived table in a FROM clause */
    IR_USE_CTE,    /* the body of a common table expression */
    IR_USE_SCALAR, /* a scalar subquery: its first row's first value */
    IR_USE_EXISTS, /* EXISTS: only whether there is a row */
    IR_USE_IN,     /* IN (subquery): the set of its values */
} IrCoreUse;

/* Where a query block sits, for ir_visit_cores's callback. */
typedef struct IrCoreSite {
    uint8_t use;           /* IrCoreUse of the block, or of the compound it is a term of */
    uint8_t in_compound;   /* a term of a compound SELECT */
    const SqExpr *sub;     /* the subquery expression (SCALAR, EXISTS, IN), or NULL */
    const IrCte *cte;      /* IR_USE_CTE: the CTE */
    const char *copies_ignored; /* why copies of its rows make no difference
                                   (an enclosing EXISTS or IN, or a UNION,
                                   INTERSECT or EXCEPT that removes them), or NULL */
} IrCoreSite;

/* Called with c NULL for a block that is not a core (a compound or a
** VALUES list), after its terms. */
typedef void (*IrCoreFn)(void *arg, IrRel **top, const IrCore *c, const IrCoreSite *site);
/* Call fn on every query block of the tree at *top: CTE bodies, derived
** tables in FROM, subqueries in expressions and compound terms, each
** before the block that holds it.  Views expanded in place (IRF_VIEW) are
** not entered: their text is the schema's, not the statement's. */
void ir_visit_cores(IrRel **top, IrCoreFn fn, void *arg);

/* ---- editing (ir_edit.c) ------------------------------------------------ */

/* The conjuncts of an AND tree, left to right, appended to out. */
void ir_conjuncts(SqArena *a, SqExpr *e, SqExprList *out);
/* The AND of the expressions of l (NULL when l is empty). */
SqExpr *ir_and(SqArena *a, const SqExprList *l);
/* l = r, typed as SQLite types a comparison (an integer, NULL when either
** side may be). */
SqExpr *ir_equal(SqArena *a, SqExpr *l, SqExpr *r, SrcSpan at);
/* A reference to column col of the relation r. */
SqExpr *ir_column_ref(SqArena *a, const IrRel *r, uint32_t col, SrcSpan at);
/* A PROJECT of the one expression e over input, to stand in for proj: a
** copy of proj (its id, so what names proj's first column names this
** one's), with no WITH and one column, named name, of e's type.  Nothing
** of proj or of the query is changed. */
IrRel *ir_project_one(SqArena *a, const IrRel *proj, IrRel *input, SqExpr *e, const char *name);
/* Replace, everywhere under r (subqueries included), every reference to a
** column of relation `from` by a copy of exprs[col]. */
void ir_substitute(IrQuery *q, IrRel *r, uint32_t from, SqExpr *const *exprs);
/* Whether e (subqueries included) reads a column of a relation in ids. */
typedef struct IrIdSet {
    uint8_t *bits;
    uint32_t n;
} IrIdSet;
void ir_idset_init(IrQuery *q, IrIdSet *s);
void ir_idset_add(IrIdSet *s, uint32_t id);
int ir_idset_has(const IrIdSet *s, uint32_t id);
/* Every relation id under r (subqueries and CTE bodies included). */
void ir_idset_add_tree(IrIdSet *s, IrRel *r);
int ir_expr_reads(SqExpr *e, const IrIdSet *ids);
/* Whether e (subqueries included) reads a column of a relation NOT in
** inner: a correlated reference when inner holds a subquery's ids. */
int ir_expr_reads_outside(SqExpr *e, const IrIdSet *inner);
/* The same over every expression of the relations under r (not into CTE
** bodies), except the expression skip. */
int ir_tree_reads_outside(IrRel *r, const IrIdSet *inner, const SqExpr *skip);

/* The relation that produces a query root's columns (under its LIMIT,
** SORT and DISTINCT). */
IrRel *ir_output_rel(IrRel *root);
/* Whether a query root's rows come out in an order it asks for: a SORT at
** the top (under a LIMIT at most). */
int ir_root_sorted(const IrRel *root);

/* ---- whether the rows are fixed (ir_determined.c) ------------------------ */

/* NULL when q's rows, as a bag, are fixed by the database alone; else
** the first choice found that SQLite makes by the order it reads rows in
** (a LIMIT, a scalar subquery that may find several rows, a bare column,
** a window, group_concat, a sum of REAL values, random()).  Conservative:
** a query it names a choice for may still be determined. */
const char *ir_result_choice(IrQuery *q);
/* The same for the number of rows the statement returns, which the
** statement's own LIMIT, and its window functions, bare columns and
** ordered aggregates where no DISTINCT or HAVING reads them, leave fixed:
** NULL when the count is fixed by the database alone. */
const char *ir_count_choice(IrQuery *q);
/* A FROM item (a renaming PROJECT with IRF_FROM_ITEM) over a query root,
** with the root's visible columns; id 0 for a fresh one. */
IrRel *ir_wrap_item(IrQuery *q, IrRel *root, uint32_t id, SrcSpan at);

/* ---- patches (ir_edit.c) ------------------------------------------------ */

/* A few bytes of one IR node (an operator, a flag, a pointer) written
** over, with the bytes they replace: how a generator makes a variant of a
** query in place and undoes it (passes/mutate, passes/template). */
typedef struct IrPatch {
    void *addr;            /* the field changed */
    uint8_t size;          /* bytes (<= sizeof now) */
    unsigned char now[16], was[16];
} IrPatch;
/* Fill p for writing size bytes of now over addr (its present bytes go to
** was); 0, or -1 when size is more than 16 bytes. */
int ir_patch_set(IrPatch *p, void *addr, const void *now, size_t size);
/* Write the now[] bytes of p[0..n), in order; the was[] bytes back, in
** reverse order. */
void ir_patch_apply(const IrPatch *p, size_t n);
void ir_patch_undo(const IrPatch *p, size_t n);

/* ---- lowering (lower.c) --------------------------------------------- */

/* The IR of a bound statement (root NULL when it has no query). */
IrQuery *ir_lower(SqArena *a, const BndStmt *st);

/* ---- one query from its text (ir_load.c) ------------------------------ */

/* Which step of ir_load() failed, if one did. */
typedef enum IrLoadStatus {
    IR_LOAD_OK,            /* a query, lowered */
    IR_LOAD_SYNTAX,        /* a statement does not parse */
    IR_LOAD_EMPTY,         /* no statement */
    IR_LOAD_MANY,          /* more than one statement */
    IR_LOAD_BIND,          /* the statement does not bind */
    IR_LOAD_NOT_QUERY,     /* it binds, but is not a SELECT, VALUES or WITH */
} IrLoadStatus;

/* Parse src, which must hold exactly one statement, bind it against cat
** and lower it.  NULL when it cannot, with diagnostics in diags (none for
** EMPTY, MANY and NOT_QUERY) and *st saying which step failed. */
IrQuery *ir_load(SqArena *a, const SqSrc *src, const Catalog *cat, SqInterner *names,
                 SqDiags *diags, const SqBindOptions *opt, IrLoadStatus *st);
/* The reason as a phrase ("a syntax error", "more than one statement",
** "a binding error", "not a query ..."); NULL for IR_LOAD_OK. */
const char *ir_load_why(IrLoadStatus st);
/* ir_load() with the reason as ir_load_why()'s phrase. */
IrQuery *ir_load_query(SqArena *a, const SqSrc *src, const Catalog *cat, SqInterner *names,
                       SqDiags *diags, const SqBindOptions *opt, const char **why);

/* ---- SQL text of expressions (ir_sql.c) ------------------------------ */

/* How a printer writes column references and subqueries. */
typedef struct IrNaming {
    void *ctx;
    void (*column)(void *ctx, SqBuf *out, const SqExpr *col);
    /* the parenthesized subquery of SUBQUERY / EXISTS / IN_SUBQUERY */
    void (*subquery)(void *ctx, SqBuf *out, const SqExpr *sub);
    /* Optional (NULL: none): text written instead of a node of the query
    ** (an SqExpr, or the direction of an SqSortKey), or NULL to write the
    ** node itself.  A template's placeholders (passes/template). */
    const char *(*mark)(void *mark_ctx, const void *node);
    void *mark_ctx;
} IrNaming;

void ir_sql_expr(SqBuf *out, const SqExpr *e, const IrNaming *nm);
void ir_sql_list(SqBuf *out, const SqExprList *l, const IrNaming *nm);
void ir_sql_call(SqBuf *out, const char *name, int distinct, int star, const SqExprList *args,
                 const SqExpr *filter, const IrNaming *nm);
void ir_sql_window(SqBuf *out, const SqWinCall *w, const IrNaming *nm);
void ir_sql_sort_key(SqBuf *out, const SqSortKey *k, const IrNaming *nm);
/* The same with expr written for the key's expression (a result column's
** position, say); a mark is looked up for k itself. */
void ir_sql_sort_key_as(SqBuf *out, const SqSortKey *k, const SqExpr *expr, const IrNaming *nm);
/* An identifier, double-quoted when it is not a plain word or is a keyword. */
void ir_sql_ident(SqBuf *out, const char *name);
void ir_sql_string(SqBuf *out, const char *s, size_t n);
/* A statement-unique alias for every FROM item, indexed by rel id. */
const char **ir_sql_aliases(IrQuery *q);

/* ---- printers (ir_print.c) -------------------------------------------- */

/* The query as an indented operator tree, one relation per line. */
void ir_print_text(IrQuery *q, SqBuf *out);
/* The same as one JSON value (null when the statement has no query). */
void ir_print_json(IrQuery *q, SqJsonWriter *w);
/* "INTEGER notnull affinity INTEGER": class, nullability, affinity. */
void ir_type_text(SqBuf *out, SqType t);

const char *ir_rel_kind_name(IrRelKind k);
const char *ir_join_type_name(IrJoinType t);

#endif
