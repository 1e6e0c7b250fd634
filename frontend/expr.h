/*
** expr.h -- bound, typed scalar expressions.
**
** Layer: frontend.  The binder turns AST expressions into SqExpr trees:
** names are resolved to column references, functions to their table
** entries, double-quoted strings and TRUE/FALSE to constants, and every
** node carries its SqType.  The IR (ir/) keeps these trees inside its
** relations; passes and backends read them.
**
** A column reference is an SqColRef: the id of the source that produces
** the column (a FROM item, or an aggregate / window / result list of a
** query block, or a set operation) and the column's index there.  The
** binder hands out the ids; the IR reuses them as relation ids, so a
** reference stays valid when the IR is rewritten.
*/
#ifndef SQ_EXPR_H
#define SQ_EXPR_H

#include <stdint.h>

#include "grammar/ast.h"
#include "runtime/arena.h"
#include "frontend/catalog.h"
#include "frontend/functions.h"
#include "frontend/types.h"

struct BndSelect;
struct IrRel;
typedef struct SqExpr SqExpr;

typedef struct SqColRef {
    uint32_t rel; /* id of the producing relation */
    uint32_t col; /* output column index */
} SqColRef;

/* ------------------------------------------------------------------ */
/* Expressions                                                         */
/* ------------------------------------------------------------------ */

typedef enum SqExprKind {
    SQX_LITERAL,     /* constant; u.lit */
    SQX_COLUMN,      /* u.col */
    SQX_PARAM,       /* bind parameter; u.lit.text */
    SQX_UNARY,       /* op: AST_OP_NOT/NEG/POS/BITNOT; u.bin.l */
    SQX_BINARY,      /* op: AstOp; u.bin */
    SQX_IS,          /* IS / IS NOT (flag SQXF_NOT); u.bin */
    SQX_ISNULL,      /* ISNULL / NOTNULL (flag SQXF_NOT); u.bin.l */
    SQX_LIKE,        /* op: LIKE/GLOB/REGEXP/MATCH; u.like */
    SQX_BETWEEN,     /* u.between */
    SQX_IN_LIST,     /* u.in */
    SQX_IN_SUBQUERY, /* u.sub (x = left side) */
    SQX_EXISTS,      /* u.sub */
    SQX_SUBQUERY,    /* scalar subquery; u.sub */
    SQX_CASE,        /* u.cas */
    SQX_CAST,        /* u.cast */
    SQX_COLLATE,     /* u.collate */
    SQX_FUNC,        /* scalar function call; u.func */
    SQX_VECTOR,      /* row value; u.list */
    SQX_CTIME,       /* CURRENT_DATE/TIME/TIMESTAMP; op */
    SQX_RAISE,       /* RAISE(...) in triggers */
    SQX__COUNT
} SqExprKind;

/* SqExpr.flags */
enum {
    SQXF_NOT = 1 << 0,          /* NOT LIKE, NOT BETWEEN, NOT IN, IS NOT, NOTNULL */
    SQXF_DISTINCT_FROM = 1 << 1, /* IS [NOT] DISTINCT FROM spelling */
    SQXF_DQ_STRING = 1 << 2,    /* a "double-quoted" name that became a string */
    SQXF_BOOL_NAME = 1 << 3,    /* TRUE or FALSE written as a name */
    SQXF_PAREN = 1 << 4,        /* written in parentheses */
    SQXF_ROWID = 1 << 5,        /* column is the rowid (rowid/oid/_rowid_) */
    SQXF_CORRELATED = 1 << 6,   /* subquery references outer columns */
    SQXF_AGG_REF = 1 << 7,      /* column names an aggregation output */
    SQXF_WIN_REF = 1 << 8,      /* column names a window function output */
    SQXF_RESULT_REF = 1 << 9,   /* column names a result column (ORDER BY) */
    SQXF_STAR = 1 << 10,        /* f(*) */
    SQXF_DISTINCT = 1 << 11,    /* f(DISTINCT ...) on a scalar function */
    SQXF_FOLDED = 1 << 12,      /* constant SQLite's parser folds "x AND 0" or
                                   "x IN ()" to, x never being looked at */
    SQXF_IPK = 1 << 13,         /* column is its table's INTEGER PRIMARY KEY */
};


typedef struct SqCaseArm {
    SqExpr *when, *then;
} SqCaseArm;

typedef struct SqExprList {
    SqExpr **items;
    uint32_t n, cap;
} SqExprList;

struct SqExpr {
    uint8_t kind;   /* SqExprKind */
    uint8_t op;     /* AstOp for unary/binary/like/ctime */
    uint16_t flags; /* SQXF_* */
    SrcSpan span;
    SqType type;
    union {
        struct {
            uint8_t vtype;    /* SqValueType */
            uint32_t n;       /* bytes at s */
            union {
                int64_t i;    /* SQ_VAL_INTEGER */
                double r;     /* SQ_VAL_REAL */
            };
            const char *s;    /* SQ_VAL_TEXT/SQ_VAL_BLOB bytes (blob: raw bytes) */
            const char *text; /* as written: numbers' spelling, or NULL */
        } lit;                /* i and r share storage: read the one vtype names */
        SqColRef col;
        struct { SqExpr *l, *r; } bin;
        struct { SqExpr *x, *pattern, *escape; } like;
        struct { SqExpr *x, *lo, *hi; } between;
        struct { SqExpr *x; SqExprList list; } in;
        struct {
            SqExpr *x;              /* IN_SUBQUERY: left side */
            struct BndSelect *query; /* the bound subquery */
            struct IrRel *rel;      /* its root, once lowered to IR */
            SqColRef *outer;        /* correlated references it makes */
            uint32_t n_outer;
        } sub;
        struct { SqExpr *operand; SqCaseArm *arms; uint32_t n_arms; SqExpr *else_; } cas;
        struct { SqExpr *x; const char *type_name; uint8_t aff; } cast;
        struct { SqExpr *x; const char *name; } collate;
        struct { const SqFuncDef *def; const char *name; SqExprList args; } func;
        SqExprList list;
        struct { const char *msg; } raise;
    } u;
};

/* ------------------------------------------------------------------ */
/* Columns, sort keys, aggregates and window calls                      */
/* ------------------------------------------------------------------ */

/* An output column of a query, FROM item or relation. */
typedef struct SqColumn {
    const char *name;   /* SQLite's name for it (alias, column name, text) */
    const SqName *key;  /* interned name, for lookups */
    SqType type;
    uint8_t hidden;     /* only for ORDER BY: not part of the result */
    uint8_t is_alias;   /* name is an AS alias */
    CatTable *table;    /* when the column is a table column (also through */
    int32_t table_col;  /* subqueries): which one; table_col -1 = rowid */
    const SqName *origin; /* column of a parenthesized join: the inner FROM */
    const SqName *inner;  /* item it comes from and its name there, which */
                          /* qualified names can still reach (SQLite) */
} SqColumn;

typedef struct SqColumnList {
    SqColumn *items;
    uint32_t n, cap;
} SqColumnList;

typedef struct SqSortKey {
    SqExpr *expr;     /* names a result column (PROJECT or SETOP output) */
    uint8_t desc;
    uint8_t nulls;    /* AstNulls */
    const char *collation; /* COLLATE written on the ORDER BY term, or NULL */
} SqSortKey;

/* One aggregate or bare column computed by an aggregation. */
typedef enum SqAggKind { SQ_AGG_KEY, SQ_AGG_CALL, SQ_AGG_BARE } SqAggKind;
typedef struct SqAggItem {
    uint8_t kind;          /* SqAggKind */
    uint8_t distinct;      /* f(DISTINCT x) */
    uint8_t star;          /* count(*) */
    const SqFuncDef *def;  /* SQ_AGG_CALL */
    const char *name;      /* function name as written */
    SqExprList args;       /* SQ_AGG_CALL arguments (over the input) */
    SqExpr *expr;          /* SQ_AGG_KEY / SQ_AGG_BARE: the input expression */
    SqExpr *filter;        /* FILTER (WHERE ...) */
    SqType type;           /* of the output */
    SrcSpan span;
} SqAggItem;

typedef struct SqWinFrame {
    uint8_t unit;          /* AstFrameUnit */
    uint8_t exclude;       /* AstExclude */
    uint8_t has_between;
    uint8_t start_kind, end_kind; /* AstBoundKind */
    SqExpr *start, *end;
} SqWinFrame;

typedef struct SqWinCall {
    const SqFuncDef *def;
    const char *name;
    uint8_t star;
    SqExprList args;
    SqExpr *filter;
    SqExprList partition;
    SqSortKey *order;
    uint32_t n_order;
    SqWinFrame frame;
    const char *window_name; /* OVER name, or the base window, as written */
    SqType type;             /* of the output */
    SrcSpan span;
} SqWinCall;

/* ------------------------------------------------------------------ */

SqExpr *sq_expr_new(SqArena *a, SqExprKind kind, SrcSpan span, SqType type);
/* An INTEGER literal i of the given type. */
SqExpr *sq_expr_int(SqArena *a, SrcSpan span, SqType type, int64_t i);
void sq_expr_list_add(SqArena *a, SqExprList *l, SqExpr *e);
const char *sq_expr_kind_name(SqExprKind k);

/* Structural equality (same tree, same constants, same references), as
** SQLite's sqlite3ExprCompare uses to match GROUP BY terms. */
int sq_expr_equal(const SqExpr *a, const SqExpr *b);
/* The same, asking col_eq about column references that name different
** columns (the binder uses it to see two aggregate outputs as equal when
** they compute the same call). */
typedef int (*SqColEqFn)(const SqExpr *a, const SqExpr *b, void *arg);
int sq_expr_equal_by(const SqExpr *a, const SqExpr *b, SqColEqFn col_eq, void *arg);
/* The same for trees of two different queries, whose relation ids are
** unrelated: every pair of column references is asked of col_eq.  When
** node_eq is not NULL it is asked first about every pair of nodes: 1 or 0
** decides, -1 lets the nodes be compared as above (a caller's notion of
** two spellings of one expression). */
typedef int (*SqNodeEqFn)(const SqExpr *a, const SqExpr *b, void *arg);
int sq_expr_equal_across(const SqExpr *a, const SqExpr *b, SqColEqFn col_eq, SqNodeEqFn node_eq, void *arg);

/* Whether e is an integer constant (an INTEGER literal, maybe negated):
** 1 and its value in *v. */
int sq_expr_int_constant(const SqExpr *e, int64_t *v);

/* Whether the node e itself (not below it) reads the clock: CURRENT_*,
** the text 'now' (a date function's argument), or a date function called
** with no argument. */
int sq_expr_node_reads_clock(const SqExpr *e);

/* A copy of e in a: every node below it too, but not the subqueries it
** holds, which the copy shares. */
SqExpr *sq_expr_copy(SqArena *a, const SqExpr *e);

/* Call fn on e and every node below it (not into subqueries), parents
** first; stop and return nonzero when fn returns nonzero. */
int sq_expr_walk(SqExpr *e, int (*fn)(SqExpr *e, void *arg), void *arg);
/* Call fn on the slot of each direct child of e (not into subqueries),
** in written order; stop and return nonzero when fn does. */
int sq_expr_each_child(SqExpr *e, int (*fn)(SqExpr **slot, void *arg), void *arg);

#endif
