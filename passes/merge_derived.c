/*
** merge_derived.c -- part of the `unnest` pass: a derived table in FROM
** merged into the query that reads it, where that is exact.
**
** Layer: passes.  `FROM (SELECT e1 AS a, ... FROM t WHERE p) AS s` becomes
** `FROM t` with `p` moved to the outer WHERE and every `s.a` replaced by
** `e1`.  Exact when the derived table is a plain SELECT (no aggregate,
** DISTINCT, window, ORDER BY or LIMIT: each of its rows is one row of its
** FROM), when it sits where its filter can move to the outer WHERE (joined
** by inner or cross joins, or on the kept side of a LEFT JOIN; no RIGHT or
** FULL join in the query), and when its outputs are plain expressions (no
** subquery, whose copies would be shared) that nothing reads as a rowid.
** Two placements are handled: the derived table is the first FROM item
** (its FROM tree takes its place at the bottom of the join chain), or it is
** the right side of an inner or cross join and reads one table.
*/
#include <string.h>

#include "passes/passes.h"

typedef struct Merge {
    SqPassCtx *ctx;
    IrQuery *q;
} Merge;

static int has_outer_join(const IrRel *r, int right_or_full_only) {
    if (r->kind != IR_JOIN) return 0;
    uint8_t t = r->u.join.type;
    if (t == IR_JOIN_RIGHT || t == IR_JOIN_FULL) return 1;
    if (!right_or_full_only && t == IR_JOIN_LEFT) return 1;
    return has_outer_join(r->u.join.left, right_or_full_only) ||
           has_outer_join(r->u.join.right, right_or_full_only);
}

static int sub_cb(SqExpr *e, void *arg) {
    (void)arg;
    return e->kind == SQX_SUBQUERY || e->kind == SQX_EXISTS || e->kind == SQX_IN_SUBQUERY;
}

typedef struct RowidUse {
    uint32_t rel, n_cols;
} RowidUse;

static int rowid_cb(SqExpr *e, void *arg) {
    const RowidUse *u = arg;
    return e->kind == SQX_COLUMN && e->u.col.rel == u->rel && e->u.col.col >= u->n_cols;
}

static int rowid_slot(SqExpr **slot, void *arg) {
    return sq_expr_walk(*slot, rowid_cb, arg);
}

static int rowid_rel(IrRel *r, void *arg) {
    return ir_rel_exprs(r, rowid_slot, arg);
}

/* Whether the derived table d, with core dc, may be merged at all. */
static const char *mergeable(Merge *m, IrRel *d, IrRel **inner_top, IrCore *dc) {
    if (d->flags & IRF_VIEW) return "it is a view";
    if ((*inner_top)->with) return "it has a WITH clause";
    if (!ir_core_split(inner_top, dc)) return "it is a compound SELECT";
    if (dc->agg || dc->distinct || dc->window || dc->sort || dc->limit)
        return "it aggregates, sorts, limits or removes duplicates";
    if (has_outer_join(dc->from, 1)) return "it has a RIGHT or FULL JOIN";
    for (uint32_t i = 0; i < dc->project->u.project.exprs.n; i++)
        if (sq_expr_walk(dc->project->u.project.exprs.items[i], sub_cb, NULL))
            return "an output column holds a subquery";
    RowidUse use = {d->id, d->cols.n};
    if (ir_walk_rels(m->q->root, rowid_rel, &use)) return "its rowid is read";
    return NULL;
}

/* Add p to the outer core's WHERE (made when missing). */
static void add_to_where(Merge *m, IrCore *c, SqExpr *p) {
    if (!p) return;
    if (c->where) {
        SqExprList l = {0};
        sq_expr_list_add(m->q->arena, &l, c->where->u.filter.pred);
        sq_expr_list_add(m->q->arena, &l, p);
        c->where->u.filter.pred = ir_and(m->q->arena, &l);
        return;
    }
    IrRel *f = ir_rel_new(m->q, IR_FILTER, 0, p->span);
    f->u.filter.pred = p;
    f->input = *c->where_slot;
    *c->where_slot = f;
    c->where = f;
    if (c->from_slot == c->where_slot) c->from_slot = &f->input;
}

/* Merge the derived table held by *slot (a FROM item of core c). */
static int merge_one(Merge *m, IrCore *c, IrRel **slot, int first) {
    IrRel *d = *slot;
    IrCore dc;
    const char *why = mergeable(m, d, &d->input, &dc);
    if (!why && !first && dc.from->kind != IR_SCAN)
        why = "it joins several tables and is not the first FROM item";
    if (why) {
        sq_diag_add(m->ctx->diags, SQ_SEV_NOTE, SQ_N_PASS, d->span,
                    "subquery in FROM kept: %s", why);
        return 0;
    }
    SqExpr *filter = dc.where ? dc.where->u.filter.pred : NULL;
    *slot = dc.from;
    ir_substitute(m->q, m->q->root, d->id, dc.project->u.project.exprs.items);
    add_to_where(m, c, filter);
    return 1;
}

/* The derived tables of c's FROM chain that may move: the first item, and
** right sides of inner or cross joins. */
static uint32_t merge_chain(Merge *m, IrCore *c, IrRel **slot, int under_left_join) {
    IrRel *r = *slot;
    if (r->kind != IR_JOIN) {
        int derived = r->kind == IR_PROJECT && (r->flags & IRF_FROM_ITEM);
        return derived && merge_one(m, c, slot, 1);
    }
    uint32_t n = merge_chain(m, c, &r->u.join.left, under_left_join);
    IrRel *right = r->u.join.right;
    int inner = r->u.join.type == IR_JOIN_INNER || r->u.join.type == IR_JOIN_CROSS;
    if (inner && !under_left_join && right->kind == IR_PROJECT && (right->flags & IRF_FROM_ITEM))
        n += (uint32_t)merge_one(m, c, &r->u.join.right, 0);
    return n;
}

uint32_t sq_unnest_merge_derived(SqPassCtx *ctx, IrQuery *q, IrCore *c) {
    Merge m = {ctx, q};
    if (has_outer_join(c->from, 1)) return 0;
    /* below a LEFT JOIN only the left-most item keeps its rows whatever
    ** happens; merge_chain moves filters of right-hand items only when no
    ** LEFT JOIN is in the chain */
    return merge_chain(&m, c, c->from_slot, has_outer_join(c->from, 0));
}
