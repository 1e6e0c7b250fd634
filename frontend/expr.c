/*
** expr.c -- bound expression nodes: construction, equality, walking.
**
** Layer: frontend.
*/
#include "frontend/expr.h"

#include <string.h>

SqExpr *sq_expr_new(SqArena *a, SqExprKind kind, SrcSpan span, SqType type) {
    SqExpr *e = sq_arena_alloc(a, sizeof *e);
    e->kind = (uint8_t)kind;
    e->span = span;
    e->type = type;
    return e;
}

SqExpr *sq_expr_int(SqArena *a, SrcSpan span, SqType type, int64_t i) {
    SqExpr *e = sq_expr_new(a, SQX_LITERAL, span, type);
    e->u.lit.vtype = SQ_VAL_INTEGER;
    e->u.lit.i = i;
    return e;
}

void sq_expr_list_add(SqArena *a, SqExprList *l, SqExpr *e) {
    *SQ_ARENA_PUSH(a, l) = e;
}

const char *sq_expr_kind_name(SqExprKind k) {
    static const char *const names[SQX__COUNT] = {
        "literal", "column", "param", "unary", "binary", "is", "isnull", "like",
        "between", "in-list", "in-subquery", "exists", "subquery", "case",
        "cast", "collate", "function", "vector", "ctime", "raise"};
    return (unsigned)k < SQX__COUNT ? names[k] : "?";
}

typedef struct EqCtx {
    SqColEqFn col_eq;
    SqNodeEqFn node_eq; /* asked first about every pair of nodes, or NULL */
    void *arg;
    int across; /* the trees come from different queries: ids mean nothing */
} EqCtx;

static int eq(const SqExpr *a, const SqExpr *b, const EqCtx *c);

static int list_equal(const SqExprList *a, const SqExprList *b, const EqCtx *c) {
    if (a->n != b->n) return 0;
    for (uint32_t i = 0; i < a->n; i++)
        if (!eq(a->items[i], b->items[i], c)) return 0;
    return 1;
}

static int str_equal(const char *a, const char *b) {
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static int literal_equal(const SqExpr *a, const SqExpr *b) {
    if (a->u.lit.vtype != b->u.lit.vtype) return 0;
    switch (a->u.lit.vtype) {
    case SQ_VAL_INTEGER: return a->u.lit.i == b->u.lit.i;
    case SQ_VAL_REAL: return a->u.lit.r == b->u.lit.r;
    case SQ_VAL_TEXT:
    case SQ_VAL_BLOB:
        return a->u.lit.n == b->u.lit.n && memcmp(a->u.lit.s, b->u.lit.s, a->u.lit.n) == 0;
    default: return 1;
    }
}

static int case_equal(const SqExpr *a, const SqExpr *b, const EqCtx *c) {
    if (a->u.cas.n_arms != b->u.cas.n_arms || !eq(a->u.cas.operand, b->u.cas.operand, c) ||
        !eq(a->u.cas.else_, b->u.cas.else_, c))
        return 0;
    for (uint32_t i = 0; i < a->u.cas.n_arms; i++)
        if (!eq(a->u.cas.arms[i].when, b->u.cas.arms[i].when, c) ||
            !eq(a->u.cas.arms[i].then, b->u.cas.arms[i].then, c))
            return 0;
    return 1;
}

/* Same shape, same operators, same constants, same columns.  Subqueries
** are equal only when they are the same bound query. */
static int eq(const SqExpr *a, const SqExpr *b, const EqCtx *c) {
    if (a == b) return 1;
    if (a && b && c->node_eq) {
        int r = c->node_eq(a, b, c->arg);
        if (r >= 0) return r;
    }
    if (!a || !b || a->kind != b->kind || a->op != b->op) return 0;
    if ((a->flags ^ b->flags) & (SQXF_NOT | SQXF_DISTINCT_FROM)) return 0;
    switch ((SqExprKind)a->kind) {
    case SQX_LITERAL: return literal_equal(a, b);
    case SQX_COLUMN:
        if (!c->across && a->u.col.rel == b->u.col.rel && a->u.col.col == b->u.col.col) return 1;
        return c->col_eq ? c->col_eq(a, b, c->arg) : 0;
    case SQX_PARAM: return str_equal(a->u.lit.text, b->u.lit.text);
    case SQX_UNARY: case SQX_ISNULL: return eq(a->u.bin.l, b->u.bin.l, c);
    case SQX_BINARY: case SQX_IS:
        return eq(a->u.bin.l, b->u.bin.l, c) && eq(a->u.bin.r, b->u.bin.r, c);
    case SQX_LIKE:
        return eq(a->u.like.x, b->u.like.x, c) &&
               eq(a->u.like.pattern, b->u.like.pattern, c) &&
               eq(a->u.like.escape, b->u.like.escape, c);
    case SQX_BETWEEN:
        return eq(a->u.between.x, b->u.between.x, c) &&
               eq(a->u.between.lo, b->u.between.lo, c) &&
               eq(a->u.between.hi, b->u.between.hi, c);
    case SQX_IN_LIST:
        return eq(a->u.in.x, b->u.in.x, c) && list_equal(&a->u.in.list, &b->u.in.list, c);
    case SQX_IN_SUBQUERY: case SQX_EXISTS: case SQX_SUBQUERY:
        return a->u.sub.query == b->u.sub.query && eq(a->u.sub.x, b->u.sub.x, c);
    case SQX_CASE: return case_equal(a, b, c);
    case SQX_CAST:
        return a->u.cast.aff == b->u.cast.aff && eq(a->u.cast.x, b->u.cast.x, c);
    case SQX_COLLATE:
        return eq(a->u.collate.x, b->u.collate.x, c) &&
               strcmp(a->u.collate.name, b->u.collate.name) == 0;
    case SQX_FUNC:
        return a->u.func.def == b->u.func.def && list_equal(&a->u.func.args, &b->u.func.args, c);
    case SQX_VECTOR: return list_equal(&a->u.list, &b->u.list, c);
    default: return 1;
    }
}

int sq_expr_int_constant(const SqExpr *e, int64_t *v) {
    if (!e) return 0;
    if (e->kind == SQX_LITERAL && e->u.lit.vtype == SQ_VAL_INTEGER) {
        *v = e->u.lit.i;
        return 1;
    }
    if (e->kind == SQX_UNARY && e->op == AST_OP_NEG && sq_expr_int_constant(e->u.bin.l, v) && *v != INT64_MIN) {
        *v = -*v;
        return 1;
    }
    return 0;
}

int sq_expr_node_reads_clock(const SqExpr *e) {
    switch ((SqExprKind)e->kind) {
    case SQX_LITERAL:
        return e->u.lit.vtype == SQ_VAL_TEXT && e->u.lit.n == 3 && sq_strnicmp(e->u.lit.s, "now", 3) == 0;
    case SQX_CTIME: return 1;
    case SQX_FUNC: return e->u.func.def && (e->u.func.def->flags & FL_DATE) && e->u.func.args.n == 0;
    default: return 0;
    }
}

int sq_expr_equal(const SqExpr *a, const SqExpr *b) {
    EqCtx c = {NULL, NULL, NULL, 0};
    return eq(a, b, &c);
}

int sq_expr_equal_by(const SqExpr *a, const SqExpr *b, SqColEqFn col_eq, void *arg) {
    EqCtx c = {col_eq, NULL, arg, 0};
    return eq(a, b, &c);
}

int sq_expr_equal_across(const SqExpr *a, const SqExpr *b, SqColEqFn col_eq, SqNodeEqFn node_eq, void *arg) {
    EqCtx c = {col_eq, node_eq, arg, 1};
    return eq(a, b, &c);
}

static int each_in(SqExprList *l, int (*fn)(SqExpr **slot, void *arg), void *arg) {
    for (uint32_t i = 0; i < l->n; i++)
        if (fn(&l->items[i], arg)) return 1;
    return 0;
}

/* Absent optional children (NULL) are skipped. */
#define EACH(slot) if ((slot) && fn(&(slot), arg)) return 1

int sq_expr_each_child(SqExpr *e, int (*fn)(SqExpr **slot, void *arg), void *arg) {
    switch ((SqExprKind)e->kind) {
    case SQX_UNARY: case SQX_ISNULL: EACH(e->u.bin.l); return 0;
    case SQX_BINARY: case SQX_IS: EACH(e->u.bin.l); EACH(e->u.bin.r); return 0;
    case SQX_LIKE: EACH(e->u.like.x); EACH(e->u.like.pattern); EACH(e->u.like.escape); return 0;
    case SQX_BETWEEN: EACH(e->u.between.x); EACH(e->u.between.lo); EACH(e->u.between.hi); return 0;
    case SQX_IN_LIST: EACH(e->u.in.x); return each_in(&e->u.in.list, fn, arg);
    case SQX_IN_SUBQUERY: case SQX_EXISTS: case SQX_SUBQUERY: EACH(e->u.sub.x); return 0;
    case SQX_CASE:
        EACH(e->u.cas.operand);
        for (uint32_t i = 0; i < e->u.cas.n_arms; i++) {
            EACH(e->u.cas.arms[i].when);
            EACH(e->u.cas.arms[i].then);
        }
        EACH(e->u.cas.else_);
        return 0;
    case SQX_CAST: EACH(e->u.cast.x); return 0;
    case SQX_COLLATE: EACH(e->u.collate.x); return 0;
    case SQX_FUNC: return each_in(&e->u.func.args, fn, arg);
    case SQX_VECTOR: return each_in(&e->u.list, fn, arg);
    default: return 0;
    }
}

#undef EACH

typedef struct WalkCtx {
    int (*fn)(SqExpr *, void *);
    void *arg;
} WalkCtx;

static int walk_slot(SqExpr **slot, void *arg) {
    WalkCtx *w = arg;
    return sq_expr_walk(*slot, w->fn, w->arg);
}

int sq_expr_walk(SqExpr *e, int (*fn)(SqExpr *, void *), void *arg) {
    if (!e) return 0;
    if (fn(e, arg)) return 1;
    WalkCtx w = {fn, arg};
    return sq_expr_each_child(e, walk_slot, &w);
}

/* ------------------------------------------------------------------ */
/* Copies                                                              */
/* ------------------------------------------------------------------ */

static void copy_list(SqArena *a, SqExprList *to, const SqExprList *from) {
    memset(to, 0, sizeof *to);
    for (uint32_t i = 0; i < from->n; i++) sq_expr_list_add(a, to, sq_expr_copy(a, from->items[i]));
}

SqExpr *sq_expr_copy(SqArena *a, const SqExpr *e) {
    if (!e) return NULL;
    SqExpr *c = sq_arena_alloc(a, sizeof *c);
    *c = *e;
    switch ((SqExprKind)e->kind) {
    case SQX_UNARY: case SQX_ISNULL: c->u.bin.l = sq_expr_copy(a, e->u.bin.l); break;
    case SQX_BINARY: case SQX_IS:
        c->u.bin.l = sq_expr_copy(a, e->u.bin.l);
        c->u.bin.r = sq_expr_copy(a, e->u.bin.r);
        break;
    case SQX_LIKE:
        c->u.like.x = sq_expr_copy(a, e->u.like.x);
        c->u.like.pattern = sq_expr_copy(a, e->u.like.pattern);
        c->u.like.escape = sq_expr_copy(a, e->u.like.escape);
        break;
    case SQX_BETWEEN:
        c->u.between.x = sq_expr_copy(a, e->u.between.x);
        c->u.between.lo = sq_expr_copy(a, e->u.between.lo);
        c->u.between.hi = sq_expr_copy(a, e->u.between.hi);
        break;
    case SQX_IN_LIST:
        c->u.in.x = sq_expr_copy(a, e->u.in.x);
        copy_list(a, &c->u.in.list, &e->u.in.list);
        break;
    case SQX_IN_SUBQUERY: case SQX_EXISTS: case SQX_SUBQUERY:
        c->u.sub.x = sq_expr_copy(a, e->u.sub.x);
        break;
    case SQX_CASE:
        c->u.cas.operand = sq_expr_copy(a, e->u.cas.operand);
        c->u.cas.arms = sq_arena_alloc(a, (e->u.cas.n_arms + 1) * sizeof *c->u.cas.arms);
        for (uint32_t i = 0; i < e->u.cas.n_arms; i++) {
            c->u.cas.arms[i].when = sq_expr_copy(a, e->u.cas.arms[i].when);
            c->u.cas.arms[i].then = sq_expr_copy(a, e->u.cas.arms[i].then);
        }
        c->u.cas.else_ = sq_expr_copy(a, e->u.cas.else_);
        break;
    case SQX_CAST: c->u.cast.x = sq_expr_copy(a, e->u.cast.x); break;
    case SQX_COLLATE: c->u.collate.x = sq_expr_copy(a, e->u.collate.x); break;
    case SQX_FUNC: copy_list(a, &c->u.func.args, &e->u.func.args); break;
    case SQX_VECTOR: copy_list(a, &c->u.list, &e->u.list); break;
    default: break;
    }
    return c;
}
