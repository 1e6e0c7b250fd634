/*
** unnest.c -- the `unnest` pass: subqueries in WHERE become joins, where
** that is exact in SQLite, NULLs included.
**
** Layer: passes.  Each SELECT core is visited bottom-up (its subqueries
** first), and each top-level conjunct of its WHERE is tried:
**
**   x IN (SELECT y ...)         semi-join on x = y: as a WHERE conjunct,
**                               NULL and false both drop the row;
**   x NOT IN (SELECT y ...)     anti-join on x = y, only when x and y can
**                               never be NULL (NOT IN is NULL otherwise);
**   [NOT] EXISTS (SELECT ...)   semi-join (anti-join) on the subquery's
**                               correlated conditions;
**   x op (SELECT agg(...) ...)  a join with the subquery as a derived
**                               table: an aggregate without GROUP BY gives
**                               exactly one row.  When correlated by
**                               equalities, the derived table is grouped
**                               by them, which is exact only for
**                               aggregates that are NULL on no rows (so
**                               not COUNT or TOTAL) and equalities whose
**                               sides compare the same way grouped.
**
** Subqueries in FROM are merged into the query that reads them where
** exact (merge_derived.c).
**
** A correlated subquery is unnested by moving its correlated WHERE
** conjuncts into the join condition; the inner columns they read become
** extra output columns of the subquery.  That needs a plain SELECT (no
** aggregate, LIMIT or window) correlated nowhere else.  The joined
** subquery becomes a FROM item (a renaming PROJECT), so the right side of
** a semi-join is a relation like any other.  Anything not exact is left
** alone with a note saying why.
*/
#include <string.h>

#include "passes/passes.h"

typedef struct Unnest {
    SqPassCtx *ctx;
    IrQuery *q;
    uint32_t n_done;
} Unnest;

static void note(Unnest *u, SrcSpan at, const char *fmt, const char *what) {
    sq_diag_add(u->ctx->diags, SQ_SEV_NOTE, SQ_N_PASS, at, fmt, what);
}

static int is_sub(const SqExpr *e) {
    return e->kind == SQX_SUBQUERY || e->kind == SQX_EXISTS || e->kind == SQX_IN_SUBQUERY;
}

/* ------------------------------------------------------------------ */
/* Pulling correlated conditions out of a subquery                     */
/* ------------------------------------------------------------------ */

/* A subquery ready to join: its core, its relation ids, and the
** conditions pulled out of its WHERE. */
typedef struct Pull {
    IrRel *root;
    IrCore core;
    IrIdSet inner;
    SqExprList pulled;     /* correlated conjuncts, moved out */
    SqExprList kept;       /* the rest of its WHERE */
} Pull;

/* The inner column e (a reference below the subquery's PROJECT) as an
** output column of the PROJECT, added when missing. */
static SqExpr *export_column(Unnest *u, IrRel *project, const SqExpr *e) {
    for (uint32_t i = 0; i < project->u.project.exprs.n; i++)
        if (sq_expr_equal(project->u.project.exprs.items[i], e)) {
            SqExpr *r = sq_expr_new(u->q->arena, SQX_COLUMN, e->span, e->type);
            r->u.col.rel = project->id;
            r->u.col.col = i;
            return r;
        }
    sq_expr_list_add(u->q->arena, &project->u.project.exprs, sq_expr_copy(u->q->arena, e));
    SqColumn *c = SQ_ARENA_PUSH(u->q->arena, &project->cols);
    c->name = sq_arena_printf(u->q->arena, "_k%u", project->cols.n);
    c->type = e->type;
    c->table_col = -2;
    SqExpr *r = sq_expr_new(u->q->arena, SQX_COLUMN, e->span, e->type);
    r->u.col.rel = project->id;
    r->u.col.col = project->cols.n - 1;
    return r;
}

typedef struct Export {
    Unnest *u;
    IrRel *project;
    const IrIdSet *inner;
} Export;

static int export_cb(SqExpr *e, void *arg) {
    Export *x = arg;
    if (e->kind != SQX_COLUMN || !ir_idset_has(x->inner, e->u.col.rel)) return 0;
    *e = *export_column(x->u, x->project, e);
    return 0;
}

/* Split the subquery's WHERE into correlated and other conjuncts.
** Returns 0 (with *why) when the subquery cannot be joined. */
static int plan_pull(Unnest *u, IrRel *root, Pull *p, const char **why) {
    memset(p, 0, sizeof *p);
    p->root = root;
    IrRel *top = root;
    if (!ir_core_split(&top, &p->core)) {
        *why = "it is not a plain SELECT";
        return 0;
    }
    ir_idset_init(u->q, &p->inner);
    ir_idset_add_tree(&p->inner, root);
    if (p->core.where) ir_conjuncts(u->q->arena, p->core.where->u.filter.pred, &p->kept);
    SqExprList rest = {0};
    for (uint32_t i = 0; i < p->kept.n; i++) {
        SqExpr *c = p->kept.items[i];
        if (ir_expr_reads_outside(c, &p->inner)) sq_expr_list_add(u->q->arena, &p->pulled, c);
        else sq_expr_list_add(u->q->arena, &rest, c);
    }
    p->kept = rest;
    if (!p->pulled.n) return 1; /* not correlated through WHERE */
    if (p->core.limit || p->core.window || p->core.having) {
        *why = "it is correlated and limits its rows";
        return 0;
    }
    if (ir_tree_reads_outside(root, &p->inner, p->core.where ? p->core.where->u.filter.pred : NULL)) {
        *why = "it is correlated outside its WHERE conjuncts";
        return 0;
    }
    return 1;
}

/* The subquery's WHERE without the pulled conjuncts. */
static void drop_pulled(Pull *p, SqArena *a) {
    SqExpr *rest = ir_and(a, &p->kept);
    if (rest) p->core.where->u.filter.pred = rest;
    else *p->core.where_slot = p->core.where->input;
}

/* Conditions moved out of an aggregating subquery would change what it
** aggregates; only grouping (below) can do that. */
static int plain_pull(const Pull *p, const char **why) {
    if (p->pulled.n && p->core.agg) {
        *why = "it is correlated and aggregates";
        return 0;
    }
    return 1;
}

/* Move the pulled conjuncts out: the subquery keeps the rest of its WHERE,
** and each pulled conjunct reads the subquery's outputs instead of its
** inner columns. */
static void apply_pull(Unnest *u, Pull *p) {
    if (!p->pulled.n) return;
    drop_pulled(p, u->q->arena);
    Export x = {u, p->core.project, &p->inner};
    for (uint32_t i = 0; i < p->pulled.n; i++) {
        p->pulled.items[i] = sq_expr_copy(u->q->arena, p->pulled.items[i]);
        sq_expr_walk(p->pulled.items[i], export_cb, &x);
    }
}

/* ------------------------------------------------------------------ */
/* Joins                                                               */
/* ------------------------------------------------------------------ */

/* References to the subquery's output become references to the FROM item
** wrapping it (same columns, the item's id). */
static void retarget(SqExpr *e, uint32_t from, uint32_t to);

static int retarget_cb(SqExpr *e, void *arg) {
    const uint32_t *ids = arg;
    if (e->kind == SQX_COLUMN && e->u.col.rel == ids[0]) e->u.col.rel = ids[1];
    return 0;
}

static void retarget(SqExpr *e, uint32_t from, uint32_t to) {
    uint32_t ids[2] = {from, to};
    sq_expr_walk(e, retarget_cb, ids);
}

static SqExpr *equality(Unnest *u, SqExpr *l, SqExpr *r, SrcSpan at) { return ir_equal(u->q->arena, l, r, at); }

/* Join the FROM tree of core c with item: FROM := JOIN(type, FROM, item). */
static void join_in(Unnest *u, IrCore *c, IrRel *item, IrJoinType type, SqExpr *cond,
                    SrcSpan at) {
    IrRel *j = ir_rel_new(u->q, IR_JOIN, 0, at);
    j->u.join.left = *c->from_slot;
    j->u.join.right = item;
    j->u.join.type = (uint8_t)type;
    j->u.join.cond = cond;
    *c->from_slot = j;
    c->from = j;
    u->n_done++;
}

/* The subquery root as a FROM item; the pulled conditions and extra
** conditions (conds, over the subquery's outputs) read the item. */
static IrRel *as_item(Unnest *u, Pull *p, SqExprList *conds, SrcSpan at) {
    IrRel *out = ir_output_rel(p->root);
    IrRel *item = ir_wrap_item(u->q, p->root, 0, at);
    item->alias = "sub";
    for (uint32_t i = 0; i < p->pulled.n; i++) sq_expr_list_add(u->q->arena, conds, p->pulled.items[i]);
    for (uint32_t i = 0; i < conds->n; i++) retarget(conds->items[i], out->id, item->id);
    return item;
}

static int nullable_parts(const SqExpr *x) {
    if (x->kind != SQX_VECTOR) return x->type.nullable;
    for (uint32_t i = 0; i < x->u.list.n; i++)
        if (x->u.list.items[i]->type.nullable) return 1;
    return 0;
}

static const SqExpr *part(const SqExpr *x, uint32_t i) {
    return x->kind == SQX_VECTOR ? x->u.list.items[i] : x;
}

/* x [NOT] IN (SELECT ...): a semi-join (anti-join) on x = the outputs. */
static int try_in(Unnest *u, IrCore *c, SqExpr *e) {
    const char *why = NULL;
    Pull p;
    if (!plan_pull(u, e->u.sub.rel, &p, &why) || !plain_pull(&p, &why)) {
        note(u, e->span, "IN (SELECT ...) kept: %s", why);
        return 0;
    }
    IrRel *out = ir_output_rel(p.root);
    int anti = (e->flags & SQXF_NOT) != 0;
    if (anti) {
        int nullable = nullable_parts(e->u.sub.x);
        for (uint32_t i = 0; i < out->cols.n; i++)
            nullable |= !out->cols.items[i].hidden && out->cols.items[i].type.nullable;
        if (nullable) {
            note(u, e->span, "NOT IN kept: %s", "a side can be NULL, and NOT IN is then NULL "
                                                 "where an anti-join would keep the row");
            return 0;
        }
    }
    apply_pull(u, &p);
    SqExprList conds = {0};
    uint32_t k = 0;
    for (uint32_t i = 0; i < out->cols.n; i++) {
        if (out->cols.items[i].hidden) continue;
        SqExpr *l = sq_expr_copy(u->q->arena, part(e->u.sub.x, k++));
        SqExpr *r = sq_expr_new(u->q->arena, SQX_COLUMN, e->span, out->cols.items[i].type);
        r->u.col.rel = out->id;
        r->u.col.col = i;
        sq_expr_list_add(u->q->arena, &conds, equality(u, l, r, e->span));
    }
    IrRel *item = as_item(u, &p, &conds, e->span);
    join_in(u, c, item, anti ? IR_JOIN_ANTI : IR_JOIN_SEMI, ir_and(u->q->arena, &conds), e->span);
    return 1;
}

/* [NOT] EXISTS (SELECT ...): a semi-join (anti-join) on its correlation. */
static int try_exists(Unnest *u, IrCore *c, SqExpr *ex, int negated, SrcSpan at) {
    const char *why = NULL;
    Pull p;
    if (!plan_pull(u, ex->u.sub.rel, &p, &why) || !plain_pull(&p, &why)) {
        note(u, at, "EXISTS kept: %s", why);
        return 0;
    }
    apply_pull(u, &p);
    SqExprList conds = {0};
    IrRel *item = as_item(u, &p, &conds, at);
    join_in(u, c, item, negated ? IR_JOIN_ANTI : IR_JOIN_SEMI, ir_and(u->q->arena, &conds), at);
    return 1;
}

/* ------------------------------------------------------------------ */
/* Scalar aggregate subqueries                                         */
/* ------------------------------------------------------------------ */

/* The subquery's one output column, when it is an aggregate call of a
** block without GROUP BY; NULL otherwise. */
static const SqAggItem *scalar_agg(const Pull *p) {
    const IrCore *c = &p->core;
    if (!c->agg || c->agg->u.agg.n_keys || c->window || c->limit || c->distinct) return NULL;
    if (c->project->cols.n != 1) return NULL;
    const SqExpr *e = c->project->u.project.exprs.items[0];
    if (e->kind != SQX_COLUMN || !(e->flags & SQXF_AGG_REF) || e->u.col.rel != c->agg->id) return NULL;
    const SqAggItem *it = &c->agg->u.agg.items[e->u.col.col];
    return it->kind == SQ_AGG_CALL ? it : NULL;
}

/* An aggregate without GROUP BY gives one row (none after HAVING); LIMIT
** 0 or 1 gives at most one.  Either way the subquery joins exactly: no row
** makes both the scalar (NULL) comparison and the join drop the row. */
static int at_most_one_row(const Pull *p) {
    const IrCore *c = &p->core;
    if (c->project->cols.n < 1) return 0;
    uint32_t visible = 0;
    for (uint32_t i = 0; i < c->project->cols.n; i++) visible += !c->project->cols.items[i].hidden;
    if (visible != 1) return 0;
    if (c->agg && !c->agg->u.agg.n_keys && !c->window) return 1;
    const SqExpr *n = c->limit ? c->limit->u.limit.count : NULL;
    return n && n->kind == SQX_LITERAL && n->u.lit.vtype == SQ_VAL_INTEGER && n->u.lit.i >= 0 &&
           n->u.lit.i <= 1;
}

static int null_on_empty(const SqAggItem *it) {
    const char *n = it->def->name;
    return strcmp(n, "max") == 0 || strcmp(n, "min") == 0 || strcmp(n, "sum") == 0 ||
           strcmp(n, "avg") == 0 || strcmp(n, "group_concat") == 0;
}

/* inner = outer, each side a plain column of one side of the correlation,
** with the same affinity and no COLLATE: grouping by the inner side then
** splits rows exactly as the comparison does. */
static int grouping_safe(const SqExpr *c, const IrIdSet *inner, SqExpr **in, SqExpr **out) {
    if (c->kind != SQX_BINARY || c->op != AST_OP_EQ) return 0;
    SqExpr *l = c->u.bin.l, *r = c->u.bin.r;
    if (l->kind != SQX_COLUMN || r->kind != SQX_COLUMN) return 0;
    int li = ir_idset_has(inner, l->u.col.rel), ri = ir_idset_has(inner, r->u.col.rel);
    if (li == ri || l->type.aff != r->type.aff || l->type.aff == SQ_AFF_BLOB) return 0;
    *in = li ? l : r;
    *out = li ? r : l;
    return 1;
}

/* Group the subquery by the inner sides of its correlation equalities:
** each becomes a GROUP BY key and an output of the subquery, and conds
** gets outer side = that output.  0 (nothing changed) when a condition is
** not a grouping-safe equality. */
static int group_by_correlation(Unnest *u, Pull *p, SqExprList *conds, const char **why) {
    enum { MAX_KEYS = 16 };
    SqExpr *ins[MAX_KEYS], *outs[MAX_KEYS];
    if (p->pulled.n > MAX_KEYS) return 0;
    for (uint32_t i = 0; i < p->pulled.n; i++)
        if (!grouping_safe(p->pulled.items[i], &p->inner, &ins[i], &outs[i])) {
            *why = "its correlation is not equalities between columns of the same affinity";
            return 0;
        }
    drop_pulled(p, u->q->arena);
    IrRel *agg = p->core.agg, *project = p->core.project;
    uint32_t n = agg->u.agg.n_items, k = p->pulled.n;
    SqAggItem *items = sq_arena_alloc(u->q->arena, (n + k) * sizeof *items);
    memcpy(items, agg->u.agg.items, n * sizeof *items);
    for (uint32_t i = 0; i < k; i++) {
        SqAggItem *key = &items[n + i];
        memset(key, 0, sizeof *key);
        key->kind = SQ_AGG_KEY;
        key->expr = sq_expr_copy(u->q->arena, ins[i]);
        key->type = ins[i]->type;
        key->span = ins[i]->span;
        SqColumn *kc = SQ_ARENA_PUSH(u->q->arena, &agg->cols);
        kc->name = "key";
        kc->type = ins[i]->type;
        kc->table_col = -2;
        SqExpr *ref = sq_expr_new(u->q->arena, SQX_COLUMN, ins[i]->span, ins[i]->type);
        ref->u.col.rel = agg->id;
        ref->u.col.col = n + i;
        ref->flags |= SQXF_AGG_REF;
        SqExpr *out = export_column(u, project, ref);
        sq_expr_list_add(u->q->arena, conds, equality(u, sq_expr_copy(u->q->arena, outs[i]), out,
                                                       outs[i]->span));
    }
    agg->u.agg.items = items;
    agg->u.agg.n_items = n + k;
    agg->u.agg.n_keys += k;
    p->pulled.n = 0;
    return 1;
}

static int try_scalar(Unnest *u, IrCore *c, SqExpr *e) {
    int sub_left = e->u.bin.l->kind == SQX_SUBQUERY;
    SqExpr *sub = sub_left ? e->u.bin.l : e->u.bin.r, *other = sub_left ? e->u.bin.r : e->u.bin.l;
    if (other->kind == SQX_SUBQUERY) return 0;
    const char *why = NULL;
    Pull p;
    if (!plan_pull(u, sub->u.sub.rel, &p, &why)) {
        note(u, e->span, "scalar subquery kept: %s", why);
        return 0;
    }
    const SqAggItem *it = scalar_agg(&p);
    if (!p.pulled.n && !at_most_one_row(&p)) {
        note(u, e->span, "scalar subquery kept: %s",
             "it may give several rows, of which SQLite uses the first");
        return 0;
    }
    if (p.pulled.n && !it) {
        note(u, e->span, "scalar subquery kept: %s",
             "it is correlated and is not one aggregate without GROUP BY");
        return 0;
    }
    if (p.pulled.n && !null_on_empty(it)) {
        note(u, e->span, "scalar subquery kept: %s",
             "it is correlated and its aggregate is not NULL on no rows (the COUNT bug)");
        return 0;
    }
    IrRel *out = ir_output_rel(p.root);
    SqExprList conds = {0};
    if (p.pulled.n && !group_by_correlation(u, &p, &conds, &why)) {
        note(u, e->span, "scalar subquery kept: %s", why);
        return 0;
    }
    SqExpr *cmp = sq_expr_copy(u->q->arena, e);
    SqExpr *val = sq_expr_new(u->q->arena, SQX_COLUMN, sub->span, out->cols.items[0].type);
    val->u.col.rel = out->id;
    val->u.col.col = 0;
    if (sub_left) cmp->u.bin.l = val;
    else cmp->u.bin.r = val;
    sq_expr_list_add(u->q->arena, &conds, cmp);
    IrRel *item = as_item(u, &p, &conds, e->span);
    join_in(u, c, item, IR_JOIN_INNER, ir_and(u->q->arena, &conds), e->span);
    return 1;
}

/* ------------------------------------------------------------------ */
/* Cores                                                               */
/* ------------------------------------------------------------------ */

static int try_conjunct(Unnest *u, IrCore *c, SqExpr *e) {
    if (e->kind == SQX_IN_SUBQUERY) return try_in(u, c, e);
    if (e->kind == SQX_EXISTS) return try_exists(u, c, e, (e->flags & SQXF_NOT) != 0, e->span);
    if (e->kind == SQX_UNARY && e->op == AST_OP_NOT && e->u.bin.l->kind == SQX_EXISTS)
        return try_exists(u, c, e->u.bin.l, !(e->u.bin.l->flags & SQXF_NOT), e->span);
    if (e->kind == SQX_BINARY && ast_op_is_comparison(e->op) &&
        (e->u.bin.l->kind == SQX_SUBQUERY || e->u.bin.r->kind == SQX_SUBQUERY))
        return try_scalar(u, c, e);
    return 0;
}

static void unnest_where(Unnest *u, IrCore *c) {
    if (!c->where) return;
    SqExprList conj = {0}, keep = {0};
    ir_conjuncts(u->q->arena, c->where->u.filter.pred, &conj);
    int changed = 0;
    for (uint32_t i = 0; i < conj.n; i++) {
        if (try_conjunct(u, c, conj.items[i])) changed = 1;
        else sq_expr_list_add(u->q->arena, &keep, conj.items[i]);
    }
    if (!changed) return;
    SqExpr *rest = ir_and(u->q->arena, &keep);
    if (rest) c->where->u.filter.pred = rest;
    else *c->where_slot = c->where->input;
}

static void visit(Unnest *u, IrRel **top);

static int visit_sub_cb(SqExpr *e, void *arg) {
    if (is_sub(e) && e->u.sub.rel) visit(arg, &e->u.sub.rel);
    return 0;
}

static int visit_slot(SqExpr **slot, void *arg) {
    sq_expr_walk(*slot, visit_sub_cb, arg);
    return 0;
}

static void visit_from(Unnest *u, IrRel **slot) {
    IrRel *r = *slot;
    if (r->kind == IR_JOIN) {
        visit_from(u, &r->u.join.left);
        visit_from(u, &r->u.join.right);
        ir_rel_exprs(r, visit_slot, u);
    } else if (r->kind == IR_PROJECT && (r->flags & IRF_FROM_ITEM) && !(r->flags & IRF_VIEW)) {
        visit(u, &r->input);
    }
}

/* Every relation of the chain from top down to (not into) stop. */
static void visit_chain_exprs(Unnest *u, IrRel *top, IrRel *stop) {
    for (IrRel *r = top; r && r != stop; r = r->input) ir_rel_exprs(r, visit_slot, u);
}

static void visit(Unnest *u, IrRel **top) {
    IrRel *r = *top;
    if (r->with)
        for (uint32_t i = 0; i < r->with->n_ctes; i++)
            if (r->with->ctes[i]->body) visit(u, &r->with->ctes[i]->body);
    IrCore c;
    if (!ir_core_split(top, &c)) {
        IrRel *body = c.sort ? c.sort->input : c.limit ? c.limit->input : r;
        if (body->kind == IR_SETOP) {
            visit(u, &body->u.setop.left);
            visit(u, &body->u.setop.right);
        }
        return;
    }
    visit_from(u, c.from_slot);
    visit_chain_exprs(u, *top, c.from);
    ir_core_split(top, &c); /* the subqueries' rewrites may have moved things */
    u->n_done += sq_unnest_merge_derived(u->ctx, u->q, &c);
    ir_core_split(top, &c);
    unnest_where(u, &c);
}

int sq_unnest_run(SqPassCtx *ctx, IrQuery *q) {
    if (!q->root) return 0;
    Unnest u = {ctx, q, 0};
    visit(&u, &q->root);
    ctx->n_rewrites += u.n_done;
    return 0;
}
