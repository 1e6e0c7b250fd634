/*
** expand_sql.c -- an expansion made a query: its table joined into the
** IR of the query the plan was made from (expand.h, sq_expansion_join).
**
** Layer: passes.  The join is built on the IR, never by pasting text: a
** new FROM item scanning the table, joined INNER to the top SELECT core's
** FROM tree with the AND of the expansion's conditions, each a column of
** a FROM item equal to a column of the table.  The only change to the
** existing IR is one pointer, the core's FROM slot, made through an
** IrPatch so that the caller can undo it; the new nodes stay in the arena.
** The SQL backend then writes the query (with statement-unique aliases).
** A column of the table added to the result (sq_expansion_add_column) is
** two more patches, the result's expression and column lists replaced by
** copies one longer.
*/
#include <string.h>

#include "passes/expand/expand.h"
#include "runtime/util.h"

/* The catalog's table named name (any case), or NULL. */
static CatTable *table_named(const Catalog *cat, const char *name) {
    for (uint32_t i = 0; i < cat->n_tables; i++)
        if (sq_stricmp(cat->tables[i]->name, name) == 0) return cat->tables[i];
    return NULL;
}

/* The index of the column named name among cols, or -1. */
static int32_t column_named(const SqColumnList *cols, const char *name) {
    for (uint32_t i = 0; i < cols->n; i++)
        if (cols->items[i].name && sq_stricmp(cols->items[i].name, name) == 0) return (int32_t)i;
    return -1;
}

/* A FROM item scanning t, with t's columns as the binder gives them. */
static IrRel *scan_of(IrQuery *q, CatTable *t, SrcSpan at) {
    IrRel *s = ir_rel_new(q, IR_SCAN, 0, at);
    s->u.scan.table = t;
    s->alias = t->name;
    s->flags |= IRF_FROM_ITEM;
    for (uint32_t i = 0; i < t->n_cols; i++) {
        const CatColumn *cc = &t->cols[i];
        SqColumn *c = SQ_ARENA_PUSH(q->arena, &s->cols);
        c->name = cc->name;
        c->key = cc->key;
        c->type = sq_type(sq_class_of_affinity((SqAffinity)cc->affinity), (SqAffinity)cc->affinity, !cc->not_null);
        c->hidden = cc->hidden;
        c->table = t;
        c->table_col = (int32_t)i;
    }
    return s;
}

/* The equalities of condition c between the query's FROM item and the new
** item s, appended to out; NULL, or why they cannot be made. */
static const char *equalities(IrQuery *q, const IrCore *core, const SqExpandPlan *p, const SqExpandCond *c,
                              IrRel *s, SqExprList *out) {
    const SqGraphNode *n = &p->query->nodes[c->node];
    IrRel *item = ir_rel(q, n->rel);
    if (!item || !ir_rel_binds(core->from, n->rel))
        return sq_arena_printf(q->arena, "%s is not a FROM item of the query's top SELECT (a subquery's)", n->name);
    for (uint32_t k = 0; k < c->n_cols; k++) {
        int32_t qc = column_named(&item->cols, c->q_cols[k]), tc = column_named(&s->cols, c->t_cols[k]);
        if (qc < 0 || tc < 0)
            return sq_arena_printf(q->arena, "no column %s.%s", qc < 0 ? n->name : s->alias,
                                   qc < 0 ? c->q_cols[k] : c->t_cols[k]);
        sq_expr_list_add(q->arena, out,
                         ir_equal(q->arena, ir_column_ref(q->arena, item, (uint32_t)qc, core->from->span),
                                  ir_column_ref(q->arena, s, (uint32_t)tc, core->from->span), core->from->span));
    }
    return NULL;
}

int sq_expansion_join(IrQuery *q, const Catalog *cat, const SqExpandPlan *p, const SqExpansion *x, IrPatch *patch,
                      const char **why) {
    IrCore core;
    memset(&core, 0, sizeof core);
    *why = NULL;
    if (!q->root || !ir_core_split(&q->root, &core)) {
        *why = "the query's top is no SELECT with a FROM clause (a compound query or VALUES)";
        return -1;
    }
    CatTable *t = table_named(cat, x->table);
    if (!t) {
        *why = sq_arena_printf(q->arena, "no table %s in the catalog", x->table);
        return -1;
    }
    SrcSpan at = core.from->span;
    IrRel *s = scan_of(q, t, at);
    SqExprList eqs = {0};
    for (uint32_t i = 0; i < x->n_conds && !*why; i++) *why = equalities(q, &core, p, x->conds[i], s, &eqs);
    if (*why) return -1;
    IrRel *j = ir_rel_new(q, IR_JOIN, 0, at);
    j->u.join.left = core.from;
    j->u.join.right = s;
    j->u.join.type = IR_JOIN_INNER;
    j->u.join.cond = ir_and(q->arena, &eqs);
    ir_patch_set(patch, core.from_slot, &j, sizeof j);
    ir_patch_apply(patch, 1);
    return 0;
}

/* Whether column i of t is in one of its keys or foreign keys. */
static int in_a_key(const CatTable *t, uint32_t i) {
    if (t->cols[i].pk || t->cols[i].unique) return 1;
    for (uint32_t k = 0; k < t->n_keys; k++)
        for (uint32_t c = 0; c < t->keys[k].n_cols; c++)
            if (t->keys[k].cols[c] == i) return 1;
    for (uint32_t f = 0; f < t->n_fks; f++)
        for (uint32_t c = 0; c < t->fks[f].n_cols; c++)
            if (t->fks[f].cols[c] == i) return 1;
    return 0;
}

/* The column of s (a scan) to show: the first in no key, else the first
** nameable one; -1 when there is none. */
static int32_t column_to_show(const IrRel *s) {
    const CatTable *t = s->u.scan.table;
    int32_t first = -1;
    for (uint32_t i = 0; i < s->cols.n; i++) {
        if (!ir_column_nameable(&s->cols.items[i])) continue;
        if (first < 0) first = (int32_t)i;
        if (i < t->n_cols && !in_a_key(t, i)) return (int32_t)i;
    }
    return first;
}

/* The scan of the table sq_expansion_join joined into q's top SELECT
** (whose operators go into *core), or NULL with *why. */
static IrRel *joined_scan(IrQuery *q, IrCore *core, const char **why) {
    memset(core, 0, sizeof *core);
    *why = NULL;
    if (!q->root || !ir_core_split(&q->root, core) || core->from->kind != IR_JOIN || !core->from->u.join.right ||
        core->from->u.join.right->kind != IR_SCAN) {
        *why = "no table was joined into the query's top SELECT";
        return NULL;
    }
    return core->from->u.join.right;
}

/* The scan just joined and the index of its column to show; -1 with *why. */
static int32_t joined_column(IrQuery *q, IrCore *core, IrRel **s, const char **why) {
    if (!(*s = joined_scan(q, core, why))) return -1;
    int32_t c = column_to_show(*s);
    if (c < 0) *why = sq_arena_printf(q->arena, "%s has no column a query can name", (*s)->alias);
    return c;
}

const char *sq_expansion_column(IrQuery *q, const char **why) {
    IrCore core;
    IrRel *s;
    int32_t c = joined_column(q, &core, &s, why);
    return c < 0 ? NULL : s->cols.items[c].name;
}

int sq_expansion_add_column(IrQuery *q, IrPatch patch[2], const char **col, const char **why) {
    IrCore core;
    IrRel *s;
    int32_t c = joined_column(q, &core, &s, why);
    if (c < 0) return -1;
    if (core.agg) {
        *why = "the query groups or aggregates: a column more would need a GROUP BY of its own";
        return -1;
    }
    IrRel *p = core.project;
    SqExprList exprs = {0};
    for (uint32_t i = 0; i < p->u.project.exprs.n; i++) sq_expr_list_add(q->arena, &exprs, p->u.project.exprs.items[i]);
    sq_expr_list_add(q->arena, &exprs, ir_column_ref(q->arena, s, (uint32_t)c, p->span));
    SqColumnList cols = {0};
    for (uint32_t i = 0; i < p->cols.n; i++) *SQ_ARENA_PUSH(q->arena, &cols) = p->cols.items[i];
    SqColumn *nc = SQ_ARENA_PUSH(q->arena, &cols);
    *nc = s->cols.items[c];
    nc->hidden = 0;
    nc->is_alias = 0;
    ir_patch_set(&patch[0], &p->u.project.exprs, &exprs, sizeof exprs);
    ir_patch_set(&patch[1], &p->cols, &cols, sizeof cols);
    ir_patch_apply(patch, 2);
    *col = s->cols.items[c].name;
    return 0;
}

int sq_expansion_probe(IrQuery *q, IrPatch *patch, const char **why) {
    IrCore core;
    IrRel *s;
    int32_t c = joined_column(q, &core, &s, why);
    if (c < 0) return -1;
    IrRel *p = ir_rel_new(q, IR_PROJECT, 0, core.project->span);
    p->input = *core.where_slot;
    p->with = q->root->with;
    sq_expr_list_add(q->arena, &p->u.project.exprs, ir_column_ref(q->arena, s, (uint32_t)c, p->span));
    SqColumn *nc = SQ_ARENA_PUSH(q->arena, &p->cols);
    *nc = s->cols.items[c];
    nc->hidden = 0;
    nc->is_alias = 0;
    ir_patch_set(patch, &q->root, &p, sizeof p);
    ir_patch_apply(patch, 1);
    return 0;
}

int sq_expansion_add_filter(IrQuery *q, SqExpr *value, IrPatch *patch, const char **why) {
    IrCore core;
    IrRel *s;
    int32_t c = joined_column(q, &core, &s, why);
    if (c < 0) return -1;
    SrcSpan at = core.from->span;
    SqExpr *eq = ir_equal(q->arena, ir_column_ref(q->arena, s, (uint32_t)c, at), value, at);
    if (core.where) {
        SqExprList both = {0};
        sq_expr_list_add(q->arena, &both, core.where->u.filter.pred);
        sq_expr_list_add(q->arena, &both, eq);
        SqExpr *pred = ir_and(q->arena, &both);
        ir_patch_set(patch, &core.where->u.filter.pred, &pred, sizeof pred);
    } else {
        IrRel *f = ir_rel_new(q, IR_FILTER, 0, at);
        f->input = core.from;
        f->u.filter.pred = eq;
        ir_patch_set(patch, core.where_slot, &f, sizeof f);
    }
    ir_patch_apply(patch, 1);
    return 0;
}
