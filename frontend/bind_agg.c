/*
** bind_agg.c -- aggregate queries: which aggregate calls are allowed, and
** what an aggregate block's expressions read after grouping.
**
** Layer: frontend.  SQLite decides a block is an aggregate after its
** result list, but checks aggregate calls only when it generates code:
** a call is computed by its owning block's aggregation only when it sits
** in that block's result list, HAVING or ORDER BY; anywhere else (WHERE,
** ON, a non-aggregate block) it is "misuse of aggregate".  So calls are
** recorded as PendingAgg while binding and settled at the end.
**
** After grouping, a block's result list, HAVING, ORDER BY and window
** calls can only read the aggregation's outputs.  bind_finish_aggregate()
** rewrites them: an expression equal to a GROUP BY term reads that key;
** any other column of the block's FROM items reads a "bare" output, which
** SQLite takes from one row of the group.  The rewrite goes into
** correlated subqueries, which see the grouped row too.
*/
#include <string.h>

#include "frontend/bind_int.h"

void bind_register_owner(Binder *b, uint32_t id, BndSelect *sel) {
    if (id >= b->cap_owners) {
        uint32_t cap = b->cap_owners ? b->cap_owners : 64;
        while (cap <= id) cap *= 2;
        BndSelect **o = sq_arena_alloc(b->arena, cap * sizeof *o);
        if (b->n_owners) memcpy(o, b->owners, b->n_owners * sizeof *o);
        b->owners = o;
        b->cap_owners = cap;
    }
    b->owners[id] = sel;
    if (id >= b->n_owners) b->n_owners = id + 1;
}

BndSelect *bind_agg_owner(Binder *b, uint32_t agg_id) {
    return agg_id < b->n_owners ? b->owners[agg_id] : NULL;
}

void bind_pending_agg(Binder *b, BndSelect *owner, Clause cl, const char *name,
                      SrcSpan at, int distinct, uint32_t n_args) {
    PendingAgg *p = SQ_ARENA_APPEND(b->arena, b->pending, b->n_pending, b->cap_pending);
    p->owner = owner;
    p->clause = cl;
    p->name = name;
    p->span = at;
    p->distinct = (uint8_t)distinct;
    p->n_args = n_args;
}

static int same_call(Binder *b, const SqAggItem *p, const SqAggItem *q);

/* Two aggregate outputs of the same block are the same value when they
** are the same call (an ORDER BY term binds its own copy of a call). */
static int same_output(const SqExpr *x, const SqExpr *y, void *arg) {
    Binder *b = arg;
    if (!(x->flags & SQXF_AGG_REF) || !(y->flags & SQXF_AGG_REF) || x->u.col.rel != y->u.col.rel)
        return 0;
    const BndSelect *sel = bind_agg_owner(b, x->u.col.rel);
    return sel && same_call(b, &sel->aggs[x->u.col.col], &sel->aggs[y->u.col.col]);
}

static int same_call(Binder *b, const SqAggItem *p, const SqAggItem *q) {
    if (p->kind != SQ_AGG_CALL || q->kind != SQ_AGG_CALL || p->def != q->def ||
        p->distinct != q->distinct || p->star != q->star || p->args.n != q->args.n ||
        !sq_expr_equal_by(p->filter, q->filter, same_output, b))
        return 0;
    for (uint32_t i = 0; i < p->args.n; i++)
        if (!sq_expr_equal_by(p->args.items[i], q->args.items[i], same_output, b)) return 0;
    return 1;
}

int bind_agg_find(Binder *b, const BndSelect *sel, const SqAggItem *it, uint32_t before) {
    for (uint32_t j = 0; j < before; j++)
        if (same_call(b, &sel->aggs[j], it)) return (int)j;
    return -1;
}

int bind_expr_same(Binder *b, const SqExpr *x, const SqExpr *y) {
    return sq_expr_equal_by(x, y, same_output, b);
}

int bind_check_pending(Binder *b) {
    for (uint32_t i = 0; i < b->n_pending; i++) {
        const PendingAgg *p = &b->pending[i];
        int computed = (p->owner->flags & BSEL_AGGREGATE) &&
                       (p->clause == CL_RESULT || p->clause == CL_HAVING ||
                        p->clause == CL_ORDER);
        if (!computed) {
            SqDiag *g = bind_error(b, SQ_E_MISUSE_AGG, p->span, "misuse of aggregate: %s()",
                                   p->name);
            if (g && p->clause == CL_WHERE)
                sq_diag_help(g, "WHERE filters rows before they are grouped; a condition on "
                                "an aggregate belongs in HAVING");
            return 0;
        }
        if (p->distinct && p->n_args != 1) {
            bind_error(b, SQ_E_DISTINCT_AGG, p->span,
                       "DISTINCT aggregates must have exactly one argument");
            return 0;
        }
    }
    return 1;
}

/* ------------------------------------------------------------------ */
/* Reading the aggregation's outputs                                   */
/* ------------------------------------------------------------------ */

static int own_source(const BndSelect *sel, uint32_t rel) {
    for (uint32_t i = 0; i < sel->n_sources; i++)
        if (sel->sources[i].id == rel) return 1;
    return 0;
}

static void make_output_ref(SqExpr *e, const BndSelect *sel, uint32_t k, SqType t) {
    SrcSpan at = e->span;
    uint16_t keep = e->flags & SQXF_PAREN;
    memset(e, 0, sizeof *e);
    e->kind = SQX_COLUMN;
    e->span = at;
    e->type = t;
    e->flags = (uint16_t)(SQXF_AGG_REF | keep);
    e->u.col.rel = sel->agg_id;
    e->u.col.col = k;
}

typedef struct Regroup {
    Binder *b;
    BndSelect *sel;
    int bare;       /* the expression read a bare column */
} Regroup;

static int regroup_cb(SqExpr *e, void *arg) {
    Regroup *r = arg;
    BndSelect *sel = r->sel;
    if (e->kind == SQX_COLUMN && (e->flags & (SQXF_AGG_REF | SQXF_WIN_REF | SQXF_RESULT_REF)))
        return 0;
    for (uint32_t k = 0; k < sel->n_aggs; k++) {
        const SqAggItem *it = &sel->aggs[k];
        if (it->kind == SQ_AGG_KEY && sq_expr_equal(it->expr, e)) {
            make_output_ref(e, sel, k, it->expr->type);
            return 0;
        }
    }
    if (e->kind != SQX_COLUMN || !own_source(sel, e->u.col.rel)) return 0;
    uint32_t k = 0;
    while (k < sel->n_aggs && !(sel->aggs[k].kind == SQ_AGG_BARE &&
                                sq_expr_equal(sel->aggs[k].expr, e)))
        k++;
    if (k == sel->n_aggs) {
        SqAggItem *it = SQ_ARENA_APPEND(r->b->arena, sel->aggs, sel->n_aggs, sel->cap_aggs);
        it->kind = SQ_AGG_BARE;
        it->expr = sq_arena_alloc(r->b->arena, sizeof *it->expr);
        *it->expr = *e;
        it->type = e->type;
        it->span = e->span;
    }
    SqType t = e->type;
    if (sel->n_keys == 0) { /* no rows: one group of NULLs */
        t.nullable = 1;
        sel->aggs[k].type.nullable = 1;
    }
    make_output_ref(e, sel, k, t);
    r->bare = 1;
    return 0;
}

/* Rewrite one expression; without GROUP BY one that reads a bare column
** is NULL on an empty input, whatever it computes from it. */
static void regroup_expr(Regroup *r, SqExpr *e) {
    r->bare = 0;
    bind_walk_deep(e, regroup_cb, r);
    if (e && r->bare && r->sel->n_keys == 0) e->type.nullable = 1;
}

static void regroup_list(Regroup *r, SqExprList *l) {
    for (uint32_t i = 0; i < l->n; i++) regroup_expr(r, l->items[i]);
}

typedef struct Nested {
    const BndSelect *sel;
    const SqExpr *found;
} Nested;

static int nested_cb(SqExpr *e, void *arg) {
    Nested *n = arg;
    if (e->kind != SQX_COLUMN || !(e->flags & SQXF_AGG_REF) || e->u.col.rel != n->sel->agg_id)
        return 0;
    n->found = e;
    return 1;
}

/* An aggregate of this block inside the arguments (or FILTER) of another
** one, through a subquery: SQLite's aggregate analysis never looks inside
** an aggregate's arguments, so the inner one is never computed. */
static int check_nested(Binder *b, BndSelect *sel) {
    for (uint32_t i = 0; i < sel->n_aggs; i++) {
        SqAggItem *it = &sel->aggs[i];
        if (it->kind != SQ_AGG_CALL) continue;
        Nested n = {sel, NULL};
        int hit = 0;
        for (uint32_t k = 0; k < it->args.n && !hit; k++) hit = bind_walk_deep(it->args.items[k], nested_cb, &n);
        if (!hit) hit = bind_walk_deep(it->filter, nested_cb, &n);
        if (hit) {
            bind_error(b, SQ_E_MISUSE_AGG, n.found->span, "misuse of aggregate: %s()",
                       sel->aggs[n.found->u.col.col].name);
            return 0;
        }
    }
    return 1;
}

int bind_finish_aggregate(Binder *b, BndSelect *sel) {
    if (!check_nested(b, sel)) return 0;
    Regroup r = {b, sel, 0};
    regroup_list(&r, &sel->results);
    regroup_expr(&r, sel->having);
    for (uint32_t i = 0; i < sel->n_wins; i++) {
        SqWinCall *w = &sel->wins[i];
        regroup_list(&r, &w->args);
        regroup_list(&r, &w->partition);
        regroup_expr(&r, w->filter);
        regroup_expr(&r, w->frame.start);
        regroup_expr(&r, w->frame.end);
        for (uint32_t k = 0; k < w->n_order; k++) regroup_expr(&r, w->order[k].expr);
    }
    for (uint32_t i = 0; i < sel->cols.n; i++) sel->cols.items[i].type = sel->results.items[i]->type;
    return 1;
}
