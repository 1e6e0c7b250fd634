/*
** lower.c -- from the binder's query blocks to IR relations.
**
** Layer: ir.  Each bound block becomes the operator chain described in
** ir.h.  The binder already named every column by (id, index): a FROM item
** by its source id, aggregation outputs by the block's agg_id, window
** outputs by its win_id and result columns by its result_id; the relations
** built here take exactly those ids, so the bound expressions are reused
** unchanged.  Subquery expressions get their IR subtree and the list of
** outer columns they read (their correlation variables).
*/
#include <string.h>

#include "ir/ir.h"

typedef struct CteLink {
    const BndCte *bound;
    IrCte *ir;
} CteLink;

typedef struct SubLink {
    const BndSelect *bound;
    IrRel *ir;
} SubLink;

typedef struct Lower {
    IrQuery *q;
    CteLink *ctes;
    uint32_t n_ctes, cap_ctes;
    SubLink *subs;           /* subqueries already lowered (alias copies share) */
    uint32_t n_subs, cap_subs;
} Lower;

static IrRel *lower_select(Lower *L, BndSelect *s);

/* ------------------------------------------------------------------ */
/* Subquery expressions                                                */
/* ------------------------------------------------------------------ */

typedef struct IdSet {
    uint8_t *bits;
    uint32_t n;
} IdSet;

static void idset_add(IdSet *s, uint32_t id) {
    if (id < s->n) s->bits[id / 8] |= (uint8_t)(1u << (id % 8));
}

static int idset_has(const IdSet *s, uint32_t id) {
    return id < s->n && (s->bits[id / 8] >> (id % 8)) & 1;
}

typedef struct Corr {
    IrQuery *q;
    IdSet defined;
    SqColRef *refs;
    uint32_t n_refs, cap_refs;
    int pass; /* 0: collect definitions, 1: collect outer references */
} Corr;

static int corr_rel(IrRel *r, void *arg);

static int corr_expr_cb(SqExpr *e, void *arg) {
    Corr *c = arg;
    if (e->kind == SQX_COLUMN && c->pass == 1 && !idset_has(&c->defined, e->u.col.rel)) {
        for (uint32_t i = 0; i < c->n_refs; i++)
            if (c->refs[i].rel == e->u.col.rel && c->refs[i].col == e->u.col.col) return 0;
        *SQ_ARENA_APPEND(c->q->arena, c->refs, c->n_refs, c->cap_refs) = e->u.col;
    }
    if ((e->kind == SQX_SUBQUERY || e->kind == SQX_EXISTS || e->kind == SQX_IN_SUBQUERY) &&
        e->u.sub.rel)
        ir_walk_rels(e->u.sub.rel, corr_rel, c);
    return 0;
}

static int corr_slot(SqExpr **slot, void *arg) {
    sq_expr_walk(*slot, corr_expr_cb, arg);
    return 0;
}

static int corr_rel(IrRel *r, void *arg) {
    Corr *c = arg;
    if (c->pass == 0) idset_add(&c->defined, r->id);
    ir_rel_exprs(r, corr_slot, c);
    if (r->with)
        for (uint32_t i = 0; i < r->with->n_ctes; i++)
            ir_walk_rels(r->with->ctes[i]->body, corr_rel, c);
    return 0;
}

/* The columns a subquery reads from outside itself. */
static void correlation(Lower *L, SqExpr *e) {
    Corr c;
    memset(&c, 0, sizeof c);
    c.q = L->q;
    c.defined.n = L->q->next_id + 1;
    c.defined.bits = sq_arena_alloc(L->q->arena, c.defined.n / 8 + 1);
    ir_walk_rels(e->u.sub.rel, corr_rel, &c);
    c.pass = 1;
    ir_walk_rels(e->u.sub.rel, corr_rel, &c);
    e->u.sub.outer = c.refs;
    e->u.sub.n_outer = c.n_refs;
}

static int lower_sub_cb(SqExpr *e, void *arg) {
    Lower *L = arg;
    if ((e->kind == SQX_SUBQUERY || e->kind == SQX_EXISTS || e->kind == SQX_IN_SUBQUERY) &&
        e->u.sub.query && !e->u.sub.rel) {
        e->u.sub.rel = lower_select(L, e->u.sub.query);
        correlation(L, e);
    }
    return 0;
}

static int lower_slot(SqExpr **slot, void *arg) {
    sq_expr_walk(*slot, lower_sub_cb, arg);
    return 0;
}

/* Register r's expressions' subqueries; returns r. */
static IrRel *finish(Lower *L, IrRel *r) {
    ir_rel_exprs(r, lower_slot, L);
    return r;
}

/* ------------------------------------------------------------------ */
/* FROM                                                                */
/* ------------------------------------------------------------------ */

static IrCte *find_cte(Lower *L, const BndCte *c) {
    for (uint32_t i = 0; i < L->n_ctes; i++)
        if (L->ctes[i].bound == c) return L->ctes[i].ir;
    return NULL;
}

/* A subquery FROM item: a PROJECT with the item's id renaming the
** query's visible result columns to the item's column names. */
static IrRel *lower_subquery_item(Lower *L, BndSource *src) {
    IrRel *r = ir_wrap_item(L->q, lower_select(L, src->query), src->id, src->span);
    if (src->flags & BSF_VIEW) {
        r->flags |= IRF_VIEW;
        r->view = src->table;
    }
    if (src->flags & BSF_NESTED) r->flags |= IRF_NESTED;
    return r;
}

static IrRel *lower_source(Lower *L, BndSource *src) {
    IrRel *r;
    switch ((BndSourceKind)src->kind) {
    case BND_TABLE:
        r = ir_rel_new(L->q, IR_SCAN, src->id, src->span);
        r->u.scan.table = src->table;
        r->u.scan.args = src->args;
        r->u.scan.tvf = (src->flags & BSF_TVF) != 0;
        finish(L, r);
        break;
    case BND_CTE:
        r = ir_rel_new(L->q, IR_CTEREF, src->id, src->span);
        r->u.cteref.cte = find_cte(L, src->cte);
        break;
    default:
        r = lower_subquery_item(L, src);
        break;
    }
    r->cols = src->cols;
    r->alias = src->alias;
    r->flags |= IRF_FROM_ITEM;
    if (src->flags & BSF_ALIAS) r->flags |= IRF_ALIAS_WRITTEN;
    return r;
}

static uint8_t join_type(const BndSource *src) {
    int l = (src->join & AST_JT_LEFT) != 0, r = (src->join & AST_JT_RIGHT) != 0;
    if (l && r) return IR_JOIN_FULL;
    if (l) return IR_JOIN_LEFT;
    if (r) return IR_JOIN_RIGHT;
    return src->on ? IR_JOIN_INNER : IR_JOIN_CROSS;
}

static IrRel *lower_from(Lower *L, BndSelect *s) {
    if (!s->n_sources) { /* SELECT without FROM: one row of no columns */
        IrRel *one = ir_rel_new(L->q, IR_VALUES, 0, s->span);
        *SQ_ARENA_APPEND(L->q->arena, one->u.values.rows, one->u.values.n_rows,
                         one->u.values.cap_rows) = (SqExprList){0};
        return one;
    }
    IrRel *acc = lower_source(L, &s->sources[0]);
    for (uint32_t i = 1; i < s->n_sources; i++) {
        BndSource *src = &s->sources[i];
        IrRel *j = ir_rel_new(L->q, IR_JOIN, 0, src->join_span);
        j->u.join.left = acc;
        j->u.join.right = lower_source(L, src);
        j->u.join.type = join_type(src);
        j->u.join.cond = src->on;
        j->u.join.written = src->join;
        if (src->join & AST_JT_COMMA) j->flags |= IRF_COMMA;
        if (src->flags & BSF_NATURAL) j->flags |= IRF_NATURAL;
        else if (src->flags & BSF_USING) j->flags |= IRF_USING;
        acc = finish(L, j);
    }
    return acc;
}

/* ------------------------------------------------------------------ */
/* Blocks                                                              */
/* ------------------------------------------------------------------ */

static IrRel *unary(Lower *L, IrRelKind kind, uint32_t id, IrRel *input, SrcSpan at) {
    IrRel *r = ir_rel_new(L->q, kind, id, at);
    r->input = input;
    return r;
}

static IrRel *lower_core(Lower *L, BndSelect *s) {
    IrRel *r = lower_from(L, s);
    if (s->where) {
        r = unary(L, IR_FILTER, 0, r, s->where->span);
        r->u.filter.pred = s->where;
        finish(L, r);
    }
    if (s->flags & BSEL_AGGREGATE) {
        r = unary(L, IR_AGGREGATE, s->agg_id, r, s->span);
        r->u.agg.items = s->aggs;
        r->u.agg.n_items = s->n_aggs;
        r->u.agg.n_keys = s->n_keys;
        r->u.agg.minmax = (s->flags & BSEL_MINMAX_AGG) != 0;
        for (uint32_t i = 0; i < s->n_aggs; i++) {
            SqColumn *c = SQ_ARENA_PUSH(L->q->arena, &r->cols);
            const SqAggItem *it = &s->aggs[i];
            c->name = it->kind == SQ_AGG_CALL ? it->name : it->kind == SQ_AGG_KEY ? "key" : "bare";
            c->type = it->type;
            c->table_col = -2;
        }
        finish(L, r);
    }
    if (s->having) {
        r = unary(L, IR_FILTER, 0, r, s->having->span);
        r->flags |= IRF_HAVING;
        r->u.filter.pred = s->having;
        finish(L, r);
    }
    if (s->n_wins) {
        r = unary(L, IR_WINDOW, s->win_id, r, s->span);
        r->u.window.calls = s->wins;
        r->u.window.n_calls = s->n_wins;
        for (uint32_t i = 0; i < s->n_wins; i++) {
            SqColumn *c = SQ_ARENA_PUSH(L->q->arena, &r->cols);
            c->name = s->wins[i].name;
            c->type = s->wins[i].type;
            c->table_col = -2;
        }
        finish(L, r);
    }
    r = unary(L, IR_PROJECT, s->result_id, r, s->span);
    r->u.project.exprs = s->results;
    r->cols = s->cols;
    finish(L, r);
    if (s->flags & BSEL_DISTINCT) r = unary(L, IR_DISTINCT, 0, r, s->span);
    return r;
}

static IrRel *lower_values(Lower *L, BndSelect *s) {
    IrRel *r = ir_rel_new(L->q, IR_VALUES, s->result_id, s->span);
    r->u.values.rows = s->rows;
    r->u.values.n_rows = s->n_rows;
    r->cols = s->cols;
    return finish(L, r);
}

static IrRel *lower_compound(Lower *L, BndSelect *s) {
    IrRel *r = ir_rel_new(L->q, IR_SETOP, s->result_id, s->span);
    r->u.setop.op = s->op;
    r->u.setop.left = lower_select(L, s->left);
    r->u.setop.right = lower_select(L, s->right);
    r->cols = s->cols;
    return r;
}

/* WITH: every CTE gets its IrCte first (bodies may name any of them),
** then the bodies that were bound (a CTE never referenced is never
** bound, as in SQLite, and stays without a body). */
static IrWith *lower_with(Lower *L, BndWith *w) {
    IrWith *iw = sq_arena_alloc(L->q->arena, sizeof *iw);
    iw->recursive = w->recursive;
    for (uint32_t i = 0; i < w->n_ctes; i++) {
        const BndCte *b = w->ctes[i];
        IrCte *c = sq_arena_alloc(L->q->arena, sizeof *c);
        c->name = b->name;
        c->key = b->key;
        c->cols = b->cols;
        c->has_col_list = b->has_col_list;
        c->materialized = b->materialized;
        c->recursive = b->recursive;
        c->span = b->span;
        *SQ_ARENA_APPEND(L->q->arena, iw->ctes, iw->n_ctes, iw->cap_ctes) = c;
        CteLink *link = SQ_ARENA_APPEND(L->q->arena, L->ctes, L->n_ctes, L->cap_ctes);
        link->bound = b;
        link->ir = c;
    }
    for (uint32_t i = 0; i < w->n_ctes; i++)
        if (w->ctes[i]->body) iw->ctes[i]->body = lower_select(L, w->ctes[i]->body);
    return iw;
}

static IrRel *lower_select(Lower *L, BndSelect *s) {
    for (uint32_t i = 0; i < L->n_subs; i++)
        if (L->subs[i].bound == s) return L->subs[i].ir;
    IrWith *with = s->with ? lower_with(L, s->with) : NULL;
    IrRel *r = s->kind == AST_SEL_CORE ? lower_core(L, s)
             : s->kind == AST_SEL_VALUES ? lower_values(L, s)
             : lower_compound(L, s);
    if (s->n_order) {
        r = unary(L, IR_SORT, 0, r, s->span);
        r->u.sort.keys = s->order;
        r->u.sort.n_keys = s->n_order;
    }
    if (s->limit) {
        r = unary(L, IR_LIMIT, 0, r, s->limit->span);
        r->u.limit.count = s->limit;
        r->u.limit.offset = s->offset;
        if (s->flags & BSEL_LIMIT_COMMA) r->flags |= IRF_LIMIT_COMMA;
        finish(L, r);
    }
    r->with = with;
    SubLink *link = SQ_ARENA_APPEND(L->q->arena, L->subs, L->n_subs, L->cap_subs);
    link->bound = s;
    link->ir = r;
    return r;
}

IrQuery *ir_lower(SqArena *a, const BndStmt *st) {
    IrQuery *q = ir_query_new(a, st->n_ids);
    q->stmt = st->ast;
    if (!st->select) return q;
    Lower L;
    memset(&L, 0, sizeof L);
    L.q = q;
    q->root = lower_select(&L, st->select);
    return q;
}
