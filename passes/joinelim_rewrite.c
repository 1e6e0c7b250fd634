/*
** joinelim_rewrite.c -- the `joinelim-rewrite` pass: what joinelim found
** and is exact in SQLite, applied to the IR.
**
** Layer: passes.  Reads the joinelim result (SqJoinElim, passes.h) of the
** IR as it is and changes the IR in place:
**
**   - a removable join marked exact (a LEFT JOIN whose ON binds a key of a
**     table nothing else reads, or whose copies DISTINCT, EXISTS or IN
**     ignore) is replaced by its left side: each row of the left side
**     comes out once either way, with the same values;
**   - an implied or duplicate equality is dropped from its ON or WHERE:
**     joinelim keeps a spanning forest of the equalities it uses, so the
**     ones that stay imply it, on every row where it would be tested (only
**     inner, cross and LEFT joins are there, and each such condition is a
**     filter that commutes with them); an inner join left without a
**     condition becomes a cross join.
**
** An inner join that only a foreign key makes lossless is not removed:
** SQLite does not enforce foreign keys unless PRAGMA foreign_keys=ON, so a
** row that breaks one would change the result.  A note says so.
*/
#include "passes/passes.h"

/* Where join j hangs on the left spine of the core's FROM tree, or NULL
** when an earlier change took it out. */
static IrRel **join_slot(IrRel **core, const IrRel *j) {
    IrCore c;
    if (!ir_core_split(core, &c)) return NULL;
    for (IrRel **slot = c.from_slot; *slot && (*slot)->kind == IR_JOIN;
         slot = &(*slot)->u.join.left)
        if (*slot == j) return slot;
    return NULL;
}

static int remove_join(const SqJeFinding *f) {
    IrRel **slot = join_slot(f->core, f->join);
    if (!slot) return 0;
    *slot = f->join->u.join.left;
    return 1;
}

/* The conjuncts of e without drop, ANDed again (NULL when none is left). */
static SqExpr *without(SqArena *a, SqExpr *e, const SqExpr *drop, int *found) {
    SqExprList all = {0}, keep = {0};
    ir_conjuncts(a, e, &all);
    for (uint32_t i = 0; i < all.n; i++) {
        if (all.items[i] == drop) *found = 1;
        else sq_expr_list_add(a, &keep, all.items[i]);
    }
    return ir_and(a, &keep);
}

static int drop_from_join(SqArena *a, IrRel *j, const SqExpr *drop) {
    int found = 0;
    SqExpr *rest = without(a, j->u.join.cond, drop, &found);
    if (!found) return 0;
    j->u.join.cond = rest;
    if (!rest && j->u.join.type == IR_JOIN_INNER) j->u.join.type = IR_JOIN_CROSS;
    return 1;
}

static int drop_from_where(SqArena *a, IrRel **core, IrRel *filter, const SqExpr *drop) {
    IrCore c;
    if (!ir_core_split(core, &c) || c.where != filter) return 0;
    int found = 0;
    SqExpr *rest = without(a, filter->u.filter.pred, drop, &found);
    if (!found) return 0;
    if (rest) filter->u.filter.pred = rest;
    else *c.where_slot = filter->input;
    return 1;
}

static int drop_condition(SqArena *a, const SqJeFinding *f) {
    if (f->holder->kind == IR_JOIN) return drop_from_join(a, f->holder, f->cond);
    return drop_from_where(a, f->core, f->holder, f->cond);
}

int sq_joinelim_rewrite_run(SqPassCtx *ctx, IrQuery *q) {
    const SqJoinElim *r = sq_joinelim_result(ctx);
    if (!r || !q->root) return 0;
    uint32_t n = 0;
    /* joins first: a condition dropped later may sit in a removed join */
    for (uint32_t i = 0; i < r->n_findings; i++) {
        const SqJeFinding *f = &r->findings[i];
        if (f->kind != SQ_JE_REMOVABLE) continue;
        if (f->is_exact) n += (uint32_t)remove_join(f);
        else
            sq_diag_add(ctx->diags, SQ_SEV_NOTE, SQ_N_PASS, f->span,
                        "join kept: %s", "it is lossless only if a foreign key holds, and SQLite "
                                         "does not enforce foreign keys by default");
    }
    for (uint32_t i = 0; i < r->n_findings; i++) {
        const SqJeFinding *f = &r->findings[i];
        if (f->kind == SQ_JE_IMPLIED || f->kind == SQ_JE_DUPLICATE)
            n += (uint32_t)drop_condition(q->arena, f);
    }
    ctx->n_rewrites += n;
    return 0;
}
