/*
** ir_core.c -- recognising the operator chain of one SELECT core.
**
** Layer: ir.  lower.c builds each SELECT core as a fixed chain (see ir.h);
** the emitter and the rewriting passes both need its parts back, with the
** fields that hold them so that a pass can insert or replace one.
** Analyses (joinelim, lint) visit every query block of a statement with
** ir_visit_cores, which also tells how each block's rows are used.
*/
#include "ir/ir.h"

static IrRel **take(IrRel **slot, IrRelKind kind, int having, IrRel **out) {
    IrRel *x = *slot;
    *out = NULL;
    if (!x || x->kind != kind ||
        (kind == IR_FILTER && ((x->flags & IRF_HAVING) != 0) != having))
        return slot;
    *out = x;
    return &x->input;
}

int ir_core_split(IrRel **top, IrCore *c) {
    IrRel **slot = top;
    slot = take(slot, IR_LIMIT, 0, &c->limit);
    slot = take(slot, IR_SORT, 0, &c->sort);
    slot = take(slot, IR_DISTINCT, 0, &c->distinct);
    slot = take(slot, IR_PROJECT, 0, &c->project);
    if (!c->project || (c->project->flags & IRF_FROM_ITEM)) return 0;
    slot = take(slot, IR_WINDOW, 0, &c->window);
    slot = take(slot, IR_FILTER, 1, &c->having);
    slot = take(slot, IR_AGGREGATE, 0, &c->agg);
    c->where_slot = slot;
    slot = take(slot, IR_FILTER, 0, &c->where);
    c->from_slot = slot;
    c->from = *slot;
    return c->from != NULL;
}

/* ------------------------------------------------------------------ */
/* Visiting every query block                                          */
/* ------------------------------------------------------------------ */

typedef struct CoreVisit {
    IrCoreFn fn;
    void *arg;
} CoreVisit;

static void visit_block(CoreVisit *v, IrRel **top, IrCoreSite site);

static int visit_sub(SqExpr *e, void *arg) {
    if ((e->kind != SQX_SUBQUERY && e->kind != SQX_EXISTS && e->kind != SQX_IN_SUBQUERY) ||
        !e->u.sub.rel)
        return 0;
    IrCoreSite site = {IR_USE_SCALAR, 0, e, NULL, NULL};
    if (e->kind == SQX_EXISTS) {
        site.use = IR_USE_EXISTS;
        site.copies_ignored = "EXISTS ignores them";
    } else if (e->kind == SQX_IN_SUBQUERY) {
        site.use = IR_USE_IN;
        site.copies_ignored = "IN ignores them";
    }
    visit_block(arg, &e->u.sub.rel, site);
    return 0;
}

static int visit_sub_slot(SqExpr **slot, void *arg) {
    sq_expr_walk(*slot, visit_sub, arg);
    return 0;
}

static void visit_from(CoreVisit *v, IrRel *r) {
    if (r->kind == IR_JOIN) {
        visit_from(v, r->u.join.left);
        visit_from(v, r->u.join.right);
        ir_rel_exprs(r, visit_sub_slot, v);
    } else if (r->kind == IR_PROJECT && (r->flags & IRF_FROM_ITEM) && !(r->flags & IRF_VIEW)) {
        IrCoreSite site = {IR_USE_FROM, 0, NULL, NULL, NULL};
        visit_block(v, &r->input, site);
    } else if (r->kind == IR_SCAN) {
        ir_rel_exprs(r, visit_sub_slot, v); /* table-valued function arguments */
    }
}

/* A compound other than UNION ALL gives each row once, whatever copies
** its terms give; under UNION ALL the terms keep what the compound has. */
static void visit_compound(CoreVisit *v, IrRel *top, IrCoreSite site) {
    static const char *const removes[] = {"UNION removes them", NULL, "INTERSECT removes them",
                                          "EXCEPT removes them"};
    IrRel *r = top;
    while (r && (r->kind == IR_LIMIT || r->kind == IR_SORT)) {
        ir_rel_exprs(r, visit_sub_slot, v);
        if (r->kind == IR_LIMIT) site.copies_ignored = NULL; /* LIMIT counts copies */
        r = r->input;
    }
    if (!r || r->kind != IR_SETOP) return;
    if (r->u.setop.op < SQ_ARRAY_LEN(removes) && removes[r->u.setop.op])
        site.copies_ignored = removes[r->u.setop.op];
    site.in_compound = 1;
    visit_block(v, &r->u.setop.left, site);
    visit_block(v, &r->u.setop.right, site);
}

static void visit_block(CoreVisit *v, IrRel **top, IrCoreSite site) {
    IrRel *r = *top;
    if (r->with)
        for (uint32_t i = 0; i < r->with->n_ctes; i++) {
            IrCte *cte = r->with->ctes[i];
            IrCoreSite cs = {IR_USE_CTE, 0, NULL, cte, NULL};
            if (cte->body) visit_block(v, &cte->body, cs);
        }
    IrCore c;
    if (!ir_core_split(top, &c)) {
        if (r->kind == IR_VALUES)
            ir_rel_exprs(r, visit_sub_slot, v);
        else
            visit_compound(v, r, site);
        v->fn(v->arg, top, NULL, &site);
        return;
    }
    visit_from(v, c.from);
    for (IrRel *x = *top; x && x != c.from; x = x->input) ir_rel_exprs(x, visit_sub_slot, v);
    v->fn(v->arg, top, &c, &site);
}

void ir_visit_cores(IrRel **top, IrCoreFn fn, void *arg) {
    CoreVisit v = {fn, arg};
    IrCoreSite site = {IR_USE_ROOT, 0, NULL, NULL, NULL};
    if (*top) visit_block(&v, top, site);
}
