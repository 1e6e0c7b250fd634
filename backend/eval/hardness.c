/*
** hardness.c -- Spider's eval_hardness() on squint's syntax tree
** (hardness.h).
*/
#include "backend/eval/hardness.h"

#include <string.h>

#include "runtime/util.h"

/* The counts eval_hardness() looks at. */
typedef struct Counts {
    int comp1, comp2, others;
} Counts;

/* One condition of a flattened AND/OR chain. */
typedef struct Conds {
    const AstExpr *leaf[64];
    int n, n_or;
} Conds;

/* Flatten e's AND/OR tree into leaves (Spider reads conditions as a flat
** list joined by and/or). */
static void flatten(Conds *c, const AstExpr *e) {
    if (!e) return;
    if (e->kind == AE_BINARY && (e->op == AST_OP_AND || e->op == AST_OP_OR)) {
        flatten(c, e->u.bin.l);
        c->n_or += e->op == AST_OP_OR;
        flatten(c, e->u.bin.r);
        return;
    }
    if (c->n < (int)SQ_ARRAY_LEN(c->leaf)) c->leaf[c->n++] = e;
}

static int is_aggregate(const AstExpr *e) {
    static const char *const aggs[] = {"max", "min", "count", "sum", "avg"};
    if (!e || e->kind != AE_FUNC || e->u.func.over || !e->u.func.name.text) return 0;
    for (size_t k = 0; k < SQ_ARRAY_LEN(aggs); k++)
        if (sq_stricmp(e->u.func.name.text, aggs[k]) == 0) return 1;
    return 0;
}

/* A condition Spider reads with its not_op set. */
static int negated(const AstExpr *e) {
    if (e->kind == AE_UNARY && e->op == AST_OP_NOT) return 1;
    return (e->kind == AE_LIKE || e->kind == AE_BETWEEN || e->kind == AE_IN_LIST || e->kind == AE_IN_SELECT) &&
           (e->flags & AEF_NOT);
}

/* Nested queries a condition compares with (its val1 and val2). */
static int nested_in(const AstExpr *e) {
    if (e->kind == AE_UNARY && e->op == AST_OP_NOT) return nested_in(e->u.bin.l);
    if (e->kind == AE_IN_SELECT || e->kind == AE_EXISTS) return 1;
    if (e->kind == AE_BINARY) return (e->u.bin.l && e->u.bin.l->kind == AE_SUBQUERY) +
                                     (e->u.bin.r && e->u.bin.r->kind == AE_SUBQUERY);
    if (e->kind == AE_BETWEEN) return (e->u.between.lo && e->u.between.lo->kind == AE_SUBQUERY) +
                                      (e->u.between.hi && e->u.between.hi->kind == AE_SUBQUERY);
    return 0;
}

static int is_like(const AstExpr *e) {
    if (e->kind == AE_UNARY && e->op == AST_OP_NOT) return is_like(e->u.bin.l);
    return e->kind == AE_LIKE && e->op == AST_OP_LIKE;
}

/* A condition list's share of component1 and component2. */
static void conditions(Counts *c, const Conds *cs) {
    c->comp1 += cs->n_or;
    for (int k = 0; k < cs->n; k++) {
        c->comp1 += is_like(cs->leaf[k]);
        c->comp2 += nested_in(cs->leaf[k]);
    }
}

/* The table units of a FROM (nested joins flattened) and their ON
** conditions. */
static int from_units(const AstFrom *f, Conds *on) {
    int n = 0;
    for (uint32_t k = 0; f && k < f->n; k++) {
        const AstFromItem *it = f->items[k];
        n += it->kind == AST_FROM_NESTED ? from_units(it->nested, on) : 1;
        flatten(on, it->on);
    }
    return n;
}

/* The first core of a compound; *rest tells there is a compound. */
static const AstSelect *main_core(const AstSelect *s, int *compound) {
    *compound = 0;
    while (s && s->kind == AST_SEL_COMPOUND) {
        *compound = 1;
        s = s->left;
    }
    return s;
}

static int order_aggregates(const AstOrderList *o) {
    int n = 0;
    for (uint32_t k = 0; k < o->n; k++) {
        const AstExpr *e = o->items[k].expr;
        if (e && e->kind == AE_BINARY && !(e->op == AST_OP_AND || e->op == AST_OP_OR))
            n += is_aggregate(e->u.bin.l) + is_aggregate(e->u.bin.r);
        else n += is_aggregate(e);
    }
    return n;
}

static Counts count(const AstSelect *top) {
    Counts c = {0, 0, 0};
    int compound;
    const AstSelect *s = main_core(top, &compound);
    if (!s || s->kind != AST_SEL_CORE) return c;
    /* a compound's ORDER BY and LIMIT belong to its last query in Spider's
    ** parse, which is the nested one */
    const AstOrderList *order = compound ? &s->order_by : &top->order_by;
    const AstExpr *limit = compound ? s->limit : top->limit;
    Conds where = {{0}, 0, 0}, having = {{0}, 0, 0}, on = {{0}, 0, 0};
    flatten(&where, s->where);
    flatten(&having, s->having);
    int units = from_units(s->from, &on);
    c.comp1 = (s->where != NULL) + (s->group_by.n > 0) + (order->n > 0) + (limit != NULL) + (units > 0 ? units - 1 : 0);
    conditions(&c, &on);
    conditions(&c, &where);
    conditions(&c, &having);
    c.comp2 += compound;
    int aggs = 0;
    for (uint32_t k = 0; k < s->cols.n; k++) aggs += s->cols.items[k].kind == AST_RC_EXPR && is_aggregate(s->cols.items[k].expr);
    for (int k = 0; k < where.n; k++) aggs += negated(where.leaf[k]);
    aggs += order_aggregates(order);
    for (int k = 0; k < having.n; k++) aggs += negated(having.leaf[k]);
    aggs += having.n > 1 ? having.n - 1 : 0; /* each and/or token */
    c.others = (aggs > 1) + (s->cols.n > 1) + (where.n > 1) + (s->group_by.n > 1);
    return c;
}

const char *sq_spider_hardness(const AstStmt *st) {
    if (!st || st->kind != AST_STMT_SELECT || !st->u.select) return NULL;
    Counts c = count(st->u.select);
    if (c.comp1 <= 1 && c.others == 0 && c.comp2 == 0) return "easy";
    if ((c.others <= 2 && c.comp1 <= 1 && c.comp2 == 0) || (c.comp1 <= 2 && c.others < 2 && c.comp2 == 0))
        return "medium";
    if ((c.others > 2 && c.comp1 <= 2 && c.comp2 == 0) || (c.comp1 > 2 && c.comp1 <= 3 && c.others <= 2 && c.comp2 == 0) ||
        (c.comp1 <= 1 && c.others == 0 && c.comp2 <= 1))
        return "hard";
    return "extra";
}
