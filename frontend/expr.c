/*
** expr.c -- bound expression nodes: construction, equality, walking.
**
** Layer: frontend.
*/
#include "expr.h"

#include <string.h>

SqExpr *sq_expr_new(SqArena *a, SqExprKind kind, SrcSpan span, SqType type) {
    SqExpr *e = sq_arena_alloc(a, sizeof *e);
    e->kind = (uint8_t)kind;
    e->span = span;
    e->type = type;
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

static int list_equal(const SqExprList *a, const SqExprList *b) {
    if (a->n != b->n) return 0;
    for (uint32_t i = 0; i < a->n; i++)
        if (!sq_expr_equal(a->items[i], b->items[i])) return 0;
    return 1;
}

static int str_equal(const char *a, const char *b) {
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static int literal_equal(const SqExpr *a, const SqExpr *b) {
    if (a->u.lit.vtype != b->u.lit.vtype) return 0;
    switch (a->u.lit.vtype) {
    case SQV_INTEGER: return a->u.lit.i == b->u.lit.i;
    case SQV_REAL: return a->u.lit.r == b->u.lit.r;
    case SQV_TEXT:
    case SQV_BLOB:
        return a->u.lit.n == b->u.lit.n && memcmp(a->u.lit.s, b->u.lit.s, a->u.lit.n) == 0;
    default: return 1;
    }
}

static int case_equal(const SqExpr *a, const SqExpr *b) {
    if (a->u.cas.n_arms != b->u.cas.n_arms || !sq_expr_equal(a->u.cas.operand, b->u.cas.operand) ||
        !sq_expr_equal(a->u.cas.else_, b->u.cas.else_))
        return 0;
    for (uint32_t i = 0; i < a->u.cas.n_arms; i++)
        if (!sq_expr_equal(a->u.cas.arms[i].when, b->u.cas.arms[i].when) ||
            !sq_expr_equal(a->u.cas.arms[i].then, b->u.cas.arms[i].then))
            return 0;
    return 1;
}

/* Same shape, same operators, same constants, same columns.  Subqueries
** are equal only when they are the same bound query. */
int sq_expr_equal(const SqExpr *a, const SqExpr *b) {
    if (a == b) return 1;
    if (!a || !b || a->kind != b->kind || a->op != b->op) return 0;
    if ((a->flags ^ b->flags) & (SQXF_NOT | SQXF_DISTINCT_FROM)) return 0;
    switch ((SqExprKind)a->kind) {
    case SQX_LITERAL: return literal_equal(a, b);
    case SQX_COLUMN: return a->u.col.rel == b->u.col.rel && a->u.col.col == b->u.col.col;
    case SQX_PARAM: return str_equal(a->u.lit.text, b->u.lit.text);
    case SQX_UNARY: case SQX_ISNULL: return sq_expr_equal(a->u.bin.l, b->u.bin.l);
    case SQX_BINARY: case SQX_IS:
        return sq_expr_equal(a->u.bin.l, b->u.bin.l) && sq_expr_equal(a->u.bin.r, b->u.bin.r);
    case SQX_LIKE:
        return sq_expr_equal(a->u.like.x, b->u.like.x) &&
               sq_expr_equal(a->u.like.pattern, b->u.like.pattern) &&
               sq_expr_equal(a->u.like.escape, b->u.like.escape);
    case SQX_BETWEEN:
        return sq_expr_equal(a->u.between.x, b->u.between.x) &&
               sq_expr_equal(a->u.between.lo, b->u.between.lo) &&
               sq_expr_equal(a->u.between.hi, b->u.between.hi);
    case SQX_IN_LIST:
        return sq_expr_equal(a->u.in.x, b->u.in.x) && list_equal(&a->u.in.list, &b->u.in.list);
    case SQX_IN_SUBQUERY: case SQX_EXISTS: case SQX_SUBQUERY:
        return a->u.sub.query == b->u.sub.query && sq_expr_equal(a->u.sub.x, b->u.sub.x);
    case SQX_CASE: return case_equal(a, b);
    case SQX_CAST:
        return a->u.cast.aff == b->u.cast.aff && sq_expr_equal(a->u.cast.x, b->u.cast.x);
    case SQX_COLLATE:
        return sq_expr_equal(a->u.collate.x, b->u.collate.x) &&
               strcmp(a->u.collate.name, b->u.collate.name) == 0;
    case SQX_FUNC:
        return a->u.func.def == b->u.func.def && list_equal(&a->u.func.args, &b->u.func.args);
    case SQX_VECTOR: return list_equal(&a->u.list, &b->u.list);
    default: return 1;
    }
}

static int walk_list(SqExprList *l, int (*fn)(SqExpr *, void *), void *arg) {
    for (uint32_t i = 0; i < l->n; i++)
        if (sq_expr_walk(l->items[i], fn, arg)) return 1;
    return 0;
}

int sq_expr_walk(SqExpr *e, int (*fn)(SqExpr *, void *), void *arg) {
    if (!e) return 0;
    if (fn(e, arg)) return 1;
    switch ((SqExprKind)e->kind) {
    case SQX_UNARY: case SQX_ISNULL: return sq_expr_walk(e->u.bin.l, fn, arg);
    case SQX_BINARY: case SQX_IS:
        return sq_expr_walk(e->u.bin.l, fn, arg) || sq_expr_walk(e->u.bin.r, fn, arg);
    case SQX_LIKE:
        return sq_expr_walk(e->u.like.x, fn, arg) || sq_expr_walk(e->u.like.pattern, fn, arg) ||
               sq_expr_walk(e->u.like.escape, fn, arg);
    case SQX_BETWEEN:
        return sq_expr_walk(e->u.between.x, fn, arg) || sq_expr_walk(e->u.between.lo, fn, arg) ||
               sq_expr_walk(e->u.between.hi, fn, arg);
    case SQX_IN_LIST: return sq_expr_walk(e->u.in.x, fn, arg) || walk_list(&e->u.in.list, fn, arg);
    case SQX_IN_SUBQUERY: case SQX_EXISTS: case SQX_SUBQUERY: return sq_expr_walk(e->u.sub.x, fn, arg);
    case SQX_CASE:
        if (sq_expr_walk(e->u.cas.operand, fn, arg)) return 1;
        for (uint32_t i = 0; i < e->u.cas.n_arms; i++)
            if (sq_expr_walk(e->u.cas.arms[i].when, fn, arg) ||
                sq_expr_walk(e->u.cas.arms[i].then, fn, arg))
                return 1;
        return sq_expr_walk(e->u.cas.else_, fn, arg);
    case SQX_CAST: return sq_expr_walk(e->u.cast.x, fn, arg);
    case SQX_COLLATE: return sq_expr_walk(e->u.collate.x, fn, arg);
    case SQX_FUNC: return walk_list(&e->u.func.args, fn, arg);
    case SQX_VECTOR: return walk_list(&e->u.list, fn, arg);
    default: return 0;
    }
}
