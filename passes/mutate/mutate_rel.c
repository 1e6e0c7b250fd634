/*
** mutate_rel.c -- near-miss queries: the mutations of operators.
**
** Layer: passes.  For one query block: aggregate calls swapped, DISTINCT
** added or removed, GROUP BY keys moved or dropped, HAVING dropped, join
** types swapped, ORDER BY keys turned or moved, LIMIT moved or dropped,
** result columns moved, set operators swapped, a lone min or max taken
** by sorting instead.  An operator taken out of
** its chain is a patch of the field that holds it; one put in is made
** beforehand and linked by such a patch.
*/
#include <string.h>

#include "passes/mutate/mutate_int.h"

/* Take r out of its chain: the field at slot, which holds r, gets r's
** input.  A WITH clause sits on a block's top operator: it moves down. */
static void unlink_rel(MutCtx *m, SqMutation *mu, IrRel **slot, IrRel *r) {
    mut_patch_ptr(mu, slot, r->input);
    if (slot == m->top && r->with) mut_patch_ptr(mu, &r->input->with, r->with);
}

/* ------------------------------------------------------------------ */
/* Aggregate calls                                                     */
/* ------------------------------------------------------------------ */

/* The calls a near miss uses instead: sums for averages and counts,
** the other extreme. */
static const struct {
    const char *from, *to[2];
} agg_swaps[] = {
    {"sum", {"avg", "count"}},
    {"avg", {"sum", "max"}},
    {"min", {"max", NULL}},
    {"max", {"min", NULL}},
};

/* name in the case the query wrote its call in */
static const char *same_case(MutCtx *m, const char *written, const char *name) {
    if (!(written[0] >= 'A' && written[0] <= 'Z')) return name;
    char *s = sq_arena_strdup(m->a, name);
    for (char *p = s; *p; p++)
        if (*p >= 'a' && *p <= 'z') *p = (char)(*p - 'a' + 'A');
    return s;
}

static void agg_flag(MutCtx *m, SqAggItem *it, uint8_t *field, const char *what) {
    SqMutation mu = mut_begin(SQ_MUT_AGGREGATE, it->span, what);
    mut_patch_u8(&mu, field, (uint8_t)!*field);
    mut_add(m, &mu);
}

static void agg_rename(MutCtx *m, SqAggItem *it, const char *to) {
    int exists;
    const SqFuncDef *def = sq_func_resolve(to, 1, &exists);
    if (!def) return;
    const char *name = same_case(m, it->name, to);
    const char *d = it->distinct ? "DISTINCT " : "";
    SqMutation mu = mut_begin(SQ_MUT_AGGREGATE, it->span,
                              sq_arena_printf(m->a, "%s(%s...) becomes %s(%s...)", it->name, d,
                                              name, d));
    mut_patch_ptr(&mu, &it->name, name);
    mut_patch_ptr(&mu, &it->def, def);
    mut_add(m, &mu);
}

static void agg_call(MutCtx *m, SqAggItem *it) {
    if (it->kind != SQ_AGG_CALL || it->star || !it->def || it->args.n != 1) return;
    const char *fn = it->def->name;
    if (strcmp(fn, "count") == 0) {
        const char *n = it->name;
        if (it->distinct) {
            agg_flag(m, it, &it->distinct,
                     sq_arena_printf(m->a, "%s(DISTINCT ...) becomes %s(...)", n, n));
            return;
        }
        agg_flag(m, it, &it->distinct,
                 sq_arena_printf(m->a, "%s(...) becomes %s(DISTINCT ...)", n, n));
        agg_flag(m, it, &it->star, sq_arena_printf(m->a, "%s(...) becomes %s(*)", n, n));
        return;
    }
    for (size_t i = 0; i < SQ_ARRAY_LEN(agg_swaps); i++) {
        if (strcmp(fn, agg_swaps[i].from) != 0) continue;
        if (it->distinct)
            agg_flag(m, it, &it->distinct, sq_arena_printf(m->a, "%s(DISTINCT ...) becomes %s(...)",
                                                           it->name, it->name));
        for (int k = 0; k < 2 - it->distinct && agg_swaps[i].to[k]; k++)
            agg_rename(m, it, agg_swaps[i].to[k]);
    }
}

/* ------------------------------------------------------------------ */
/* GROUP BY and HAVING                                                 */
/* ------------------------------------------------------------------ */

/* A key that is a column of one of the block's FROM items. */
static IrRel *key_column(const MutCtx *m, const SqAggItem *it, uint32_t *col) {
    const SqExpr *e = it->expr;
    if (!e || e->kind != SQX_COLUMN || (e->flags & SQXF_ROWID)) return NULL;
    IrRel *leaf = mut_leaf(m, e->u.col.rel);
    if (!leaf || e->u.col.col >= leaf->cols.n) return NULL;
    *col = e->u.col.col;
    return leaf;
}

typedef struct KeyPick {
    const MutCtx *m;
    const IrRel *agg;
} KeyPick;

/* Refuse the columns already grouped on. */
static int is_key(void *arg, const IrRel *leaf, uint32_t col) {
    const KeyPick *k = arg;
    for (uint32_t i = 0; i < k->agg->u.agg.n_items; i++) {
        const SqAggItem *it = &k->agg->u.agg.items[i];
        uint32_t c;
        if (it->kind == SQ_AGG_KEY && key_column(k->m, it, &c) == leaf && c == col) return 1;
    }
    return 0;
}

/* Key i grouped on another column: the items again with key i a bare
** column (what the result, HAVING and ORDER BY read of it stays) and the
** new key last. */
static void regroup(MutCtx *m, IrRel *agg, uint32_t i, IrRel *leaf, uint32_t col,
                    const char *from) {
    uint32_t n = agg->u.agg.n_items;
    SqAggItem *items = sq_arena_alloc(m->a, (n + 1) * sizeof *items);
    memcpy(items, agg->u.agg.items, n * sizeof *items);
    items[i].kind = SQ_AGG_BARE;
    SqAggItem *key = &items[n];
    key->kind = SQ_AGG_KEY;
    key->expr = mut_col_expr(m, leaf, col, agg->u.agg.items[i].expr->span);
    key->type = leaf->cols.items[col].type;
    key->span = agg->u.agg.items[i].span;
    SqMutation mu = mut_begin(SQ_MUT_GROUP_BY, mut_span(agg->u.agg.items[i].expr, agg->span),
                              sq_arena_printf(m->a, "GROUP BY %s becomes %s", from,
                                              mut_col_name(m, leaf, col)));
    mut_patch_ptr(&mu, &agg->u.agg.items, items);
    uint32_t n1 = n + 1;
    mut_patch(&mu, &agg->u.agg.n_items, &n1, sizeof n1);
    mut_add(m, &mu);
}

static void group_by(MutCtx *m, IrRel *agg) {
    uint32_t nth = 0;
    for (uint32_t i = 0; i < agg->u.agg.n_items; i++) {
        SqAggItem *it = &agg->u.agg.items[i];
        if (it->kind != SQ_AGG_KEY) continue;
        nth++;
        uint32_t col;
        IrRel *leaf = key_column(m, it, &col);
        const char *from = leaf ? mut_col_name(m, leaf, col) : sq_arena_printf(m->a, "key %u", nth);
        SrcSpan at = mut_span(it->expr, agg->span);
        if (agg->u.agg.n_keys > 1) {
            SqMutation mu = mut_begin(SQ_MUT_GROUP_BY, at,
                                      sq_arena_printf(m->a, "GROUP BY %s dropped", from));
            mut_patch_u8(&mu, &it->kind, SQ_AGG_BARE);
            mut_add(m, &mu);
        }
        if (!leaf) continue;
        IrRel *alts[MUT_MAX_ALTS];
        uint32_t cols[MUT_MAX_ALTS];
        KeyPick kp = {m, agg};
        uint32_t n = mut_pick_cols(m, leaf, col, 1, is_key, &kp, alts, cols, MUT_MAX_ALTS);
        for (uint32_t k = 0; k < n; k++) regroup(m, agg, i, alts[k], cols[k], from);
    }
}

static void having(MutCtx *m, const IrCore *c) {
    IrRel **slot = c->window ? &c->window->input : &c->project->input;
    if (*slot != c->having) return;
    SqMutation mu = mut_begin(SQ_MUT_HAVING, mut_span(c->having->u.filter.pred, c->having->span),
                              "HAVING dropped");
    unlink_rel(m, &mu, slot, c->having);
    mut_add(m, &mu);
}

/* ------------------------------------------------------------------ */
/* DISTINCT                                                            */
/* ------------------------------------------------------------------ */

/* Not where copies of rows make no difference (under EXISTS, IN, UNION),
** nor to an aggregate without GROUP BY (one row). */
static void distinct(MutCtx *m, const IrCore *c) {
    if (m->site->copies_ignored) return;
    IrRel **slot = c->sort ? &c->sort->input : c->limit ? &c->limit->input : m->top;
    SqMutation mu;
    if (c->distinct) {
        mu = mut_begin(SQ_MUT_DISTINCT, c->distinct->span, "DISTINCT removed");
        unlink_rel(m, &mu, slot, c->distinct);
    } else {
        if (c->agg && c->agg->u.agg.n_keys == 0) return;
        IrRel *d = sq_arena_alloc(m->a, sizeof *d); /* id 0: names no columns */
        d->kind = IR_DISTINCT;
        d->span = c->project->span;
        d->input = c->project;
        mu = mut_begin(SQ_MUT_DISTINCT, c->project->span, "DISTINCT added");
        mut_patch_ptr(&mu, slot, d);
        if (slot == m->top && c->project->with) {
            d->with = c->project->with;
            mut_patch_ptr(&mu, &c->project->with, NULL);
        }
    }
    mut_add(m, &mu);
}

/* ------------------------------------------------------------------ */
/* Joins                                                               */
/* ------------------------------------------------------------------ */

static void join_types(MutCtx *m, IrRel *r) {
    if (r->kind != IR_JOIN) return;
    join_types(m, r->u.join.left);
    join_types(m, r->u.join.right);
    uint8_t to;
    const char *what;
    if (r->u.join.type == IR_JOIN_INNER && r->u.join.cond && !(r->u.join.written & AST_JT_CROSS)) {
        to = IR_JOIN_LEFT;
        what = "LEFT JOIN instead of JOIN";
    } else if (r->u.join.type == IR_JOIN_LEFT) {
        to = IR_JOIN_INNER;
        what = "JOIN instead of LEFT JOIN";
    } else {
        return;
    }
    SqMutation mu = mut_begin(SQ_MUT_JOIN_TYPE, r->span, what);
    mut_patch_u8(&mu, &r->u.join.type, to);
    mut_add(m, &mu);
}

/* ------------------------------------------------------------------ */
/* ORDER BY and LIMIT                                                  */
/* ------------------------------------------------------------------ */

/* A result column's name, with its position when another has the name. */
static const char *out_name(MutCtx *m, const IrRel *out, uint32_t col) {
    const char *name = col < out->cols.n ? out->cols.items[col].name : NULL;
    if (!name) return sq_arena_printf(m->a, "column %u", col + 1);
    for (uint32_t i = 0; i < out->cols.n; i++)
        if (i != col && out->cols.items[i].name && strcmp(out->cols.items[i].name, name) == 0)
            return sq_arena_printf(m->a, "%s (column %u)", name, col + 1);
    return name;
}

static int sorted_on(const IrRel *sort, uint32_t col) {
    for (uint32_t i = 0; i < sort->u.sort.n_keys; i++) {
        const SqExpr *e = sort->u.sort.keys[i].expr;
        if (e && e->kind == SQX_COLUMN && e->u.col.col == col) return 1;
    }
    return 0;
}

/* Key i on up to MUT_MAX_ALTS other result columns that no key sorts on. */
static void order_col(MutCtx *m, IrRel *sort, uint32_t i, const IrRel *out, SrcSpan at) {
    SqSortKey *k = &sort->u.sort.keys[i];
    uint32_t made = 0;
    for (uint32_t col = 0; col < out->cols.n && made < MUT_MAX_ALTS; col++) {
        if (out->cols.items[col].hidden || sorted_on(sort, col)) continue;
        SqExpr *e = sq_expr_copy(m->a, k->expr);
        e->u.col.col = col;
        SqMutation mu = mut_begin(SQ_MUT_ORDER_COL, at,
                                  sq_arena_printf(m->a, "ORDER BY %s instead of %s",
                                                  out_name(m, out, col),
                                                  out_name(m, out, k->expr->u.col.col)));
        mut_patch_ptr(&mu, &k->expr, e);
        mut_add(m, &mu);
        made++;
    }
}

static void order_by(MutCtx *m, IrRel *sort, const IrRel *out) {
    for (uint32_t i = 0; i < sort->u.sort.n_keys; i++) {
        SqSortKey *k = &sort->u.sort.keys[i];
        if (!k->expr || k->expr->kind != SQX_COLUMN) continue;
        SrcSpan at = mut_span(k->expr, sort->span);
        SqMutation mu = mut_begin(SQ_MUT_ORDER_DIR, at,
                                  k->desc ? "DESC becomes ASC" : "ASC becomes DESC");
        mut_patch_u8(&mu, &k->desc, (uint8_t)!k->desc);
        mut_add(m, &mu);
        order_col(m, sort, i, out, at);
    }
}

static void limit_to(MutCtx *m, IrRel *limit, int64_t n, int64_t to) {
    SqExpr *count = limit->u.limit.count;
    SqExpr *e = sq_expr_int(m->a, count->span, count->type, to);
    SqMutation mu = mut_begin(SQ_MUT_LIMIT, mut_span(count, limit->span),
                              sq_arena_printf(m->a, "LIMIT %lld becomes %lld", (long long)n,
                                              (long long)to));
    mut_patch_ptr(&mu, &limit->u.limit.count, e);
    mut_add(m, &mu);
}

/* LIMIT n: n + 1, n - 1 (when at least 1), and no LIMIT (when there is
** no OFFSET, which SQLite writes only with a LIMIT). */
static void limit(MutCtx *m, IrRel *limit) {
    int64_t n;
    SqExpr *count = limit->u.limit.count;
    if (!count) return;
    int known = sq_expr_int_constant(count, &n);
    if (known && n < INT64_MAX) limit_to(m, limit, n, n + 1);
    if (known && n > 1) limit_to(m, limit, n, n - 1);
    if (limit->u.limit.offset || *m->top != limit) return;
    SqMutation mu = mut_begin(SQ_MUT_LIMIT, mut_span(count, limit->span),
                              known ? sq_arena_printf(m->a, "LIMIT %lld dropped", (long long)n)
                                    : "LIMIT dropped");
    unlink_rel(m, &mu, m->top, limit);
    mut_add(m, &mu);
}

/* ------------------------------------------------------------------ */
/* An extreme by sorting                                               */
/* ------------------------------------------------------------------ */

/* The one min or max call a block's result is, alone and without GROUP
** BY, HAVING, ORDER BY or LIMIT; *desc: 1 for max. */
static const SqAggItem *lone_extreme(const IrCore *c, int *desc) {
    if (!c->agg || c->agg->u.agg.n_keys || c->agg->u.agg.n_items != 1 || c->having ||
        c->window || c->distinct || c->sort || c->limit)
        return NULL;
    const IrRel *proj = c->project;
    if (proj->cols.n != 1 || proj->u.project.exprs.n != 1) return NULL;
    const SqExpr *e = proj->u.project.exprs.items[0];
    if (e->kind != SQX_COLUMN || e->u.col.rel != c->agg->id || e->u.col.col != 0) return NULL;
    const SqAggItem *it = &c->agg->u.agg.items[0];
    if (it->kind != SQ_AGG_CALL || it->star || it->filter || !it->def || it->args.n != 1)
        return NULL;
    if (strcmp(it->def->name, "max") == 0) *desc = 1;
    else if (strcmp(it->def->name, "min") == 0) *desc = 0;
    else return NULL;
    return it;
}

/* SELECT max(e) FROM ... becomes SELECT e FROM ... ORDER BY 1 DESC LIMIT
** 1 (min: ASC), the near miss of a question that asks for the largest.
** Both give the same value while e has one, but the aggregate gives a
** row of NULL where no row is left and the sort none, and min's NULLs
** are ignored where ASC puts them first.  Only for the statement's own
** result: as a scalar subquery the two are the same value. */
static void extreme(MutCtx *m, const IrCore *c) {
    int desc;
    const SqAggItem *it = lone_extreme(c, &desc);
    IrRel *proj = c->project;
    if (!it || m->site->use != IR_USE_ROOT || m->site->in_compound || *m->top != proj) return;
    SqExpr *val = sq_expr_copy(m->a, it->args.items[0]);
    /* named as the column it is, so that no AS is written; the same id as
    ** proj's: the sort key below names its column */
    IrRel *leaf = val->kind == SQX_COLUMN ? mut_leaf(m, val->u.col.rel) : NULL;
    const char *name = leaf && val->u.col.col < leaf->cols.n && !(val->flags & SQXF_ROWID)
                           ? leaf->cols.items[val->u.col.col].name
                           : proj->cols.items[0].name;
    IrRel *p = ir_project_one(m->a, proj, c->agg->input, val, name);

    IrRel *s = sq_arena_alloc(m->a, sizeof *s); /* id 0: names no columns */
    s->kind = IR_SORT;
    s->span = proj->span;
    s->input = p;
    s->u.sort.keys = sq_arena_alloc(m->a, sizeof *s->u.sort.keys);
    s->u.sort.n_keys = s->u.sort.cap_keys = 1;
    SqExpr *key = sq_expr_new(m->a, SQX_COLUMN, val->span, val->type);
    key->u.col.rel = p->id;
    s->u.sort.keys[0].expr = key;
    s->u.sort.keys[0].desc = (uint8_t)desc;

    IrRel *l = sq_arena_alloc(m->a, sizeof *l);
    l->kind = IR_LIMIT;
    l->span = proj->span;
    l->input = s;
    l->with = proj->with;
    l->u.limit.count = sq_expr_int(m->a, proj->span, sq_type(SQ_TY_INTEGER, SQ_AFF_INTEGER, 0), 1);

    SqMutation mu = mut_begin(SQ_MUT_EXTREME, it->span,
                              sq_arena_printf(m->a, "%s(...) becomes ORDER BY ... %s LIMIT 1",
                                              it->name, desc ? "DESC" : "ASC"));
    mut_patch_ptr(&mu, m->top, l);
    mut_add(m, &mu);
}

/* ------------------------------------------------------------------ */
/* Result columns                                                      */
/* ------------------------------------------------------------------ */

/* A result column that is a column of one of the block's FROM items,
** directly or as a GROUP BY key or bare column of its aggregate. */
static IrRel *plain_column(const MutCtx *m, const IrCore *c, const SqExpr *e, uint32_t *col) {
    if (e->kind != SQX_COLUMN || (e->flags & SQXF_ROWID)) return NULL;
    if (c->agg && e->u.col.rel == c->agg->id) {
        if (e->u.col.col >= c->agg->u.agg.n_items) return NULL;
        const SqAggItem *it = &c->agg->u.agg.items[e->u.col.col];
        if (it->kind == SQ_AGG_CALL) return NULL;
        return key_column(m, it, col);
    }
    IrRel *leaf = mut_leaf(m, e->u.col.rel);
    if (!leaf || e->u.col.col >= leaf->cols.n) return NULL;
    *col = e->u.col.col;
    return leaf;
}

typedef struct ResultPick {
    const MutCtx *m;
    const IrCore *c;
} ResultPick;

/* Refuse the columns the result has already. */
static int in_result(void *arg, const IrRel *leaf, uint32_t col) {
    const ResultPick *p = arg;
    const IrRel *proj = p->c->project;
    for (uint32_t i = 0; i < proj->cols.n; i++) {
        uint32_t c;
        if (!proj->cols.items[i].hidden &&
            plain_column(p->m, p->c, proj->u.project.exprs.items[i], &c) == leaf && c == col)
            return 1;
    }
    return 0;
}

static void select_cols(MutCtx *m, const IrCore *c) {
    IrRel *proj = c->project;
    ResultPick rp = {m, c};
    for (uint32_t i = 0; i < proj->cols.n && i < proj->u.project.exprs.n; i++) {
        SqExpr **slot = &proj->u.project.exprs.items[i];
        uint32_t col;
        IrRel *leaf = proj->cols.items[i].hidden ? NULL : plain_column(m, c, *slot, &col);
        if (!leaf) continue;
        IrRel *alts[MUT_MAX_ALTS];
        uint32_t cols[MUT_MAX_ALTS];
        uint32_t n = mut_pick_cols(m, leaf, col, 0, in_result, &rp, alts, cols, MUT_MAX_ALTS);
        for (uint32_t k = 0; k < n; k++) {
            SqMutation mu = mut_begin(SQ_MUT_SELECT_COL, mut_span(*slot, proj->span),
                                      sq_arena_printf(m->a, "result column %s becomes %s",
                                                      mut_col_name(m, leaf, col),
                                                      mut_col_name(m, alts[k], cols[k])));
            mut_patch_ptr(&mu, slot, mut_col_expr(m, alts[k], cols[k], (*slot)->span));
            mut_add(m, &mu);
        }
    }
}

/* ------------------------------------------------------------------ */
/* Blocks                                                              */
/* ------------------------------------------------------------------ */

void mut_core_rels(MutCtx *m, const IrCore *c) {
    if (c->agg) {
        for (uint32_t i = 0; i < c->agg->u.agg.n_items; i++) agg_call(m, &c->agg->u.agg.items[i]);
        group_by(m, c->agg);
    }
    if (c->having) having(m, c);
    distinct(m, c);
    join_types(m, c->from);
    if (c->sort) order_by(m, c->sort, c->project);
    if (c->limit) limit(m, c->limit);
    select_cols(m, c);
    extreme(m, c);
}


/* The set operators a near miss uses instead, by AstSetOp. */
static const int8_t setop_swaps[][2] = {
    [AST_SET_UNION] = {AST_SET_UNION_ALL, AST_SET_INTERSECT},
    [AST_SET_UNION_ALL] = {AST_SET_UNION, -1},
    [AST_SET_INTERSECT] = {AST_SET_UNION, AST_SET_EXCEPT},
    [AST_SET_EXCEPT] = {AST_SET_INTERSECT, AST_SET_UNION},
};

static void setop(MutCtx *m, IrRel *r) {
    if (r->u.setop.op >= SQ_ARRAY_LEN(setop_swaps)) return;
    for (int k = 0; k < 2 && setop_swaps[r->u.setop.op][k] >= 0; k++) {
        uint8_t to = (uint8_t)setop_swaps[r->u.setop.op][k];
        SqMutation mu = mut_begin(SQ_MUT_SETOP, r->span,
                                  sq_arena_printf(m->a, "%s becomes %s", ast_set_op_sql((AstSetOp)r->u.setop.op),
                                                  ast_set_op_sql((AstSetOp)to)));
        mut_patch_u8(&mu, &r->u.setop.op, to);
        mut_add(m, &mu);
    }
}

void mut_compound(MutCtx *m) {
    IrCore c;
    memset(&c, 0, sizeof c);
    ir_core_split(m->top, &c); /* 0 for a compound, with its LIMIT and SORT */
    IrRel *body = c.sort ? c.sort->input : c.limit ? c.limit->input : *m->top;
    if (body->kind == IR_SETOP) setop(m, body);
    if (c.sort) order_by(m, c.sort, body);
    if (c.limit) limit(m, c.limit);
}
