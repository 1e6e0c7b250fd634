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

#include "frontend/bind_int.h"

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
    SqExpr *c = sq_expr_copy(b->arena, e);
    RecheckArg r = {b, clause};
    sq_expr_walk(c, recheck_cb, &r);
    return c;
}

