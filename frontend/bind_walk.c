/*
** bind_walk.c -- walking and copying bound trees.
**
** Layer: frontend.  Walks that go into subqueries (sq_expr_walk stops at
** them), and the copy made when a result-set alias is used in another
** clause: SQLite copies the aliased expression there, so its aggregates
** must be checked again in their new place.
*/
#include <stdio.h>
#include <string.h>

#include "bind_int.h"

/* ------------------------------------------------------------------ */
/* Walking bound trees                                                 */
/* ------------------------------------------------------------------ */

typedef struct DeepWalk {
    int (*fn)(SqExpr *e, void *arg);
    void *arg;
} DeepWalk;

static int deep_cb(SqExpr *e, void *arg) {
    DeepWalk *w = arg;
    if (w->fn(e, w->arg)) return 1;
    if ((e->kind == SQX_SUBQUERY || e->kind == SQX_EXISTS || e->kind == SQX_IN_SUBQUERY) &&
        e->u.sub.query)
        return bind_walk_select(e->u.sub.query, w->fn, w->arg);
    return 0;
}

int bind_walk_deep(SqExpr *e, int (*fn)(SqExpr *e, void *arg), void *arg) {
    DeepWalk w = {fn, arg};
    return sq_expr_walk(e, deep_cb, &w);
}

static int walk_list(SqExprList *l, int (*fn)(SqExpr *, void *), void *arg) {
    for (uint32_t i = 0; i < l->n; i++)
        if (bind_walk_deep(l->items[i], fn, arg)) return 1;
    return 0;
}

static int walk_aggs_wins(BndSelect *q, int (*fn)(SqExpr *, void *), void *arg) {
    for (uint32_t i = 0; i < q->n_aggs; i++) {
        SqAggItem *a = &q->aggs[i];
        if (walk_list(&a->args, fn, arg) || bind_walk_deep(a->expr, fn, arg) ||
            bind_walk_deep(a->filter, fn, arg))
            return 1;
    }
    for (uint32_t i = 0; i < q->n_wins; i++) {
        SqWinCall *w = &q->wins[i];
        if (walk_list(&w->args, fn, arg) || walk_list(&w->partition, fn, arg) ||
            bind_walk_deep(w->filter, fn, arg) || bind_walk_deep(w->frame.start, fn, arg) ||
            bind_walk_deep(w->frame.end, fn, arg))
            return 1;
        for (uint32_t k = 0; k < w->n_order; k++)
            if (bind_walk_deep(w->order[k].expr, fn, arg)) return 1;
    }
    return 0;
}

int bind_walk_select(BndSelect *q, int (*fn)(SqExpr *e, void *arg), void *arg) {
    if (!q) return 0;
    if (q->kind == AST_SEL_COMPOUND &&
        (bind_walk_select(q->left, fn, arg) || bind_walk_select(q->right, fn, arg)))
        return 1;
    for (uint32_t i = 0; i < q->n_sources; i++) {
        BndSource *s = &q->sources[i];
        if (bind_walk_deep(s->on, fn, arg) || walk_list(&s->args, fn, arg)) return 1;
        if (s->kind == BND_SUBQUERY && bind_walk_select(s->query, fn, arg)) return 1;
    }
    for (uint32_t i = 0; i < q->n_rows; i++)
        if (walk_list(&q->rows[i], fn, arg)) return 1;
    if (bind_walk_deep(q->where, fn, arg) || bind_walk_deep(q->having, fn, arg) ||
        walk_list(&q->results, fn, arg) || walk_aggs_wins(q, fn, arg) ||
        bind_walk_deep(q->limit, fn, arg) || bind_walk_deep(q->offset, fn, arg))
        return 1;
    for (uint32_t i = 0; i < q->n_order; i++)
        if (bind_walk_deep(q->order[i].expr, fn, arg)) return 1;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Copies (alias substitution)                                         */
/* ------------------------------------------------------------------ */

static SqExpr *copy_expr(Binder *b, const SqExpr *e);

static void copy_list(Binder *b, SqExprList *to, const SqExprList *from) {
    memset(to, 0, sizeof *to);
    for (uint32_t i = 0; i < from->n; i++) sq_expr_list_add(b->arena, to, copy_expr(b, from->items[i]));
}

static SqExpr *copy_expr(Binder *b, const SqExpr *e) {
    if (!e) return NULL;
    SqExpr *c = sq_arena_alloc(b->arena, sizeof *c);
    *c = *e;
    switch ((SqExprKind)e->kind) {
    case SQX_UNARY: case SQX_ISNULL: c->u.bin.l = copy_expr(b, e->u.bin.l); break;
    case SQX_BINARY: case SQX_IS:
        c->u.bin.l = copy_expr(b, e->u.bin.l);
        c->u.bin.r = copy_expr(b, e->u.bin.r);
        break;
    case SQX_LIKE:
        c->u.like.x = copy_expr(b, e->u.like.x);
        c->u.like.pattern = copy_expr(b, e->u.like.pattern);
        c->u.like.escape = copy_expr(b, e->u.like.escape);
        break;
    case SQX_BETWEEN:
        c->u.between.x = copy_expr(b, e->u.between.x);
        c->u.between.lo = copy_expr(b, e->u.between.lo);
        c->u.between.hi = copy_expr(b, e->u.between.hi);
        break;
    case SQX_IN_LIST:
        c->u.in.x = copy_expr(b, e->u.in.x);
        copy_list(b, &c->u.in.list, &e->u.in.list);
        break;
    case SQX_IN_SUBQUERY: case SQX_EXISTS: case SQX_SUBQUERY:
        c->u.sub.x = copy_expr(b, e->u.sub.x);
        break;
    case SQX_CASE:
        c->u.cas.operand = copy_expr(b, e->u.cas.operand);
        c->u.cas.arms = sq_arena_alloc(b->arena, (e->u.cas.n_arms + 1) * sizeof *c->u.cas.arms);
        for (uint32_t i = 0; i < e->u.cas.n_arms; i++) {
            c->u.cas.arms[i].when = copy_expr(b, e->u.cas.arms[i].when);
            c->u.cas.arms[i].then = copy_expr(b, e->u.cas.arms[i].then);
        }
        c->u.cas.else_ = copy_expr(b, e->u.cas.else_);
        break;
    case SQX_CAST: c->u.cast.x = copy_expr(b, e->u.cast.x); break;
    case SQX_COLLATE: c->u.collate.x = copy_expr(b, e->u.collate.x); break;
    case SQX_FUNC: copy_list(b, &c->u.func.args, &e->u.func.args); break;
    case SQX_VECTOR: copy_list(b, &c->u.list, &e->u.list); break;
    default: break;
    }
    return c;
}

/* An alias copied into another clause carries its aggregates there; each
** must be checked again in its new place (SQLite's resolveAlias). */
typedef struct RecheckArg {
    Binder *b;
    Clause clause;
} RecheckArg;

static int recheck_cb(SqExpr *e, void *arg) {
    RecheckArg *r = arg;
    if (e->kind != SQX_COLUMN || !(e->flags & SQXF_AGG_REF)) return 0;
    BndSelect *owner = bind_agg_owner(r->b, e->u.col.rel);
    if (!owner) return 0;
    const SqAggItem *it = &owner->aggs[e->u.col.col];
    if (it->kind == SQ_AGG_CALL)
        bind_pending_agg(r->b, owner, r->clause, it->name, e->span, it->distinct, it->args.n);
    return 0;
}

SqExpr *bind_expr_copy(Binder *b, const SqExpr *e, Clause clause) {
    SqExpr *c = copy_expr(b, e);
    RecheckArg r = {b, clause};
    sq_expr_walk(c, recheck_cb, &r);
    return c;
}

