/*
** ir_edit.c -- small tools for passes that rewrite the IR: conjuncts,
** substitution of column references, sets of relation ids.
**
** Layer: ir.
*/
#include <string.h>

#include "ir/ir.h"

void ir_conjuncts(SqArena *a, SqExpr *e, SqExprList *out) {
    if (!e) return;
    if (e->kind == SQX_BINARY && e->op == AST_OP_AND) {
        ir_conjuncts(a, e->u.bin.l, out);
        ir_conjuncts(a, e->u.bin.r, out);
        return;
    }
    sq_expr_list_add(a, out, e);
}

IrRel *ir_project_one(SqArena *a, const IrRel *proj, IrRel *input, SqExpr *e, const char *name) {
    IrRel *p = sq_arena_alloc(a, sizeof *p);
    *p = *proj;
    p->input = input;
    p->with = NULL;
    p->u.project.exprs = (SqExprList){NULL, 0, 0};
    sq_expr_list_add(a, &p->u.project.exprs, e);
    p->cols.items = sq_arena_alloc(a, sizeof *p->cols.items);
    p->cols.items[0].name = name;
    p->cols.items[0].type = e->type;
    p->cols.n = p->cols.cap = 1;
    return p;
}

SqExpr *ir_equal(SqArena *a, SqExpr *l, SqExpr *r, SrcSpan at) {
    SqExpr *e = sq_expr_new(a, SQX_BINARY, at, sq_type(SQ_TY_INTEGER, SQ_AFF_BLOB, l->type.nullable || r->type.nullable));
    e->op = AST_OP_EQ;
    e->u.bin.l = l;
    e->u.bin.r = r;
    return e;
}

SqExpr *ir_column_ref(SqArena *a, const IrRel *r, uint32_t col, SrcSpan at) {
    SqExpr *e = sq_expr_new(a, SQX_COLUMN, at, r->cols.items[col].type);
    e->u.col.rel = r->id;
    e->u.col.col = col;
    return e;
}

SqExpr *ir_and(SqArena *a, const SqExprList *l) {
    SqExpr *acc = NULL;
    for (uint32_t i = 0; i < l->n; i++) {
        if (!acc) {
            acc = l->items[i];
            continue;
        }
        SqExpr *x = sq_expr_new(a, SQX_BINARY, acc->span, acc->type);
        x->op = AST_OP_AND;
        x->u.bin.l = acc;
        x->u.bin.r = l->items[i];
        x->type.nullable = acc->type.nullable || l->items[i]->type.nullable;
        acc = x;
    }
    return acc;
}

/* ------------------------------------------------------------------ */
/* Walking every expression of a tree, subqueries included             */
/* ------------------------------------------------------------------ */

typedef struct DeepWalk {
    int (*fn)(SqExpr *e, void *arg);
    void *arg;
} DeepWalk;

static int deep_rel(IrRel *r, void *arg);

static int deep_expr(SqExpr *e, void *arg) {
    DeepWalk *w = arg;
    if (w->fn(e, w->arg)) return 1;
    if ((e->kind == SQX_SUBQUERY || e->kind == SQX_EXISTS || e->kind == SQX_IN_SUBQUERY) &&
        e->u.sub.rel)
        return ir_walk_rels(e->u.sub.rel, deep_rel, w);
    return 0;
}

static int deep_slot(SqExpr **slot, void *arg) {
    return sq_expr_walk(*slot, deep_expr, arg);
}

static int deep_rel(IrRel *r, void *arg) {
    if (r->with)
        for (uint32_t i = 0; i < r->with->n_ctes; i++)
            if (r->with->ctes[i]->body && ir_walk_rels(r->with->ctes[i]->body, deep_rel, arg))
                return 1;
    return ir_rel_exprs(r, deep_slot, arg);
}

/* fn on every expression node under r, into subqueries and CTE bodies. */
static int walk_deep(IrRel *r, int (*fn)(SqExpr *e, void *arg), void *arg) {
    DeepWalk w = {fn, arg};
    return ir_walk_rels(r, deep_rel, &w);
}

/* ------------------------------------------------------------------ */
/* Substitution                                                        */
/* ------------------------------------------------------------------ */

typedef struct Subst {
    IrQuery *q;
    uint32_t from;
    SqExpr *const *exprs;
} Subst;

static int subst_cb(SqExpr *e, void *arg) {
    Subst *s = arg;
    if (e->kind != SQX_COLUMN || e->u.col.rel != s->from) return 0;
    SrcSpan at = e->span;
    *e = *sq_expr_copy(s->q->arena, s->exprs[e->u.col.col]);
    e->span = at;
    return 0;
}

void ir_substitute(IrQuery *q, IrRel *r, uint32_t from, SqExpr *const *exprs) {
    Subst s = {q, from, exprs};
    walk_deep(r, subst_cb, &s);
}

/* ------------------------------------------------------------------ */
/* Sets of relation ids                                                */
/* ------------------------------------------------------------------ */

void ir_idset_init(IrQuery *q, IrIdSet *s) {
    s->n = q->next_id + 64; /* room for relations a pass adds later */
    s->bits = sq_arena_alloc(q->arena, s->n / 8 + 1);
}

void ir_idset_add(IrIdSet *s, uint32_t id) {
    if (id < s->n) s->bits[id / 8] |= (uint8_t)(1u << (id % 8));
}

int ir_idset_has(const IrIdSet *s, uint32_t id) {
    return id < s->n && (s->bits[id / 8] >> (id % 8)) & 1;
}

static int add_rel_id(IrRel *r, void *arg) {
    ir_idset_add(arg, r->id);
    return 0;
}

static int add_sub_ids(SqExpr *e, void *arg) {
    if ((e->kind == SQX_SUBQUERY || e->kind == SQX_EXISTS || e->kind == SQX_IN_SUBQUERY) &&
        e->u.sub.rel)
        ir_walk_rels(e->u.sub.rel, add_rel_id, arg);
    return 0;
}

void ir_idset_add_tree(IrIdSet *s, IrRel *r) {
    ir_walk_rels(r, add_rel_id, s);
    walk_deep(r, add_sub_ids, s);
}

typedef struct Reads {
    const IrIdSet *ids;
} Reads;

static int reads_cb(SqExpr *e, void *arg) {
    Reads *r = arg;
    return e->kind == SQX_COLUMN && ir_idset_has(r->ids, e->u.col.rel);
}

int ir_expr_reads(SqExpr *e, const IrIdSet *ids) {
    Reads r = {ids};
    DeepWalk w = {reads_cb, &r};
    return sq_expr_walk(e, deep_expr, &w);
}

/* ------------------------------------------------------------------ */
/* FROM items over subqueries                                          */
/* ------------------------------------------------------------------ */

IrRel *ir_output_rel(IrRel *root) {
    while (root && (root->kind == IR_LIMIT || root->kind == IR_SORT || root->kind == IR_DISTINCT))
        root = root->input;
    return root;
}

int ir_root_sorted(const IrRel *root) {
    if (root && root->kind == IR_LIMIT) root = root->input;
    return root && root->kind == IR_SORT;
}

IrRel *ir_wrap_item(IrQuery *q, IrRel *root, uint32_t id, SrcSpan at) {
    IrRel *out = ir_output_rel(root);
    IrRel *r = ir_rel_new(q, IR_PROJECT, id, at);
    r->input = root;
    r->flags |= IRF_FROM_ITEM;
    for (uint32_t j = 0; out && j < out->cols.n; j++) {
        const SqColumn *c = &out->cols.items[j];
        if (c->hidden) continue;
        SqExpr *e = sq_expr_new(q->arena, SQX_COLUMN, at, c->type);
        e->u.col.rel = out->id;
        e->u.col.col = j;
        sq_expr_list_add(q->arena, &r->u.project.exprs, e);
        *SQ_ARENA_PUSH(q->arena, &r->cols) = *c;
    }
    return r;
}

/* ------------------------------------------------------------------ */
/* Correlation                                                         */
/* ------------------------------------------------------------------ */

typedef struct Outside {
    const IrIdSet *inner;
} Outside;

static int outside_cb(SqExpr *e, void *arg) {
    Outside *o = arg;
    return e->kind == SQX_COLUMN && !ir_idset_has(o->inner, e->u.col.rel);
}

int ir_expr_reads_outside(SqExpr *e, const IrIdSet *inner) {
    Outside o = {inner};
    DeepWalk w = {outside_cb, &o};
    return sq_expr_walk(e, deep_expr, &w);
}

typedef struct TreeOutside {
    const IrIdSet *inner;
    const SqExpr *skip;   /* one expression not to look at (or NULL) */
    int found;
} TreeOutside;

static int tree_outside_slot(SqExpr **slot, void *arg) {
    TreeOutside *t = arg;
    if (*slot == t->skip) return 0;
    if (ir_expr_reads_outside(*slot, t->inner)) t->found = 1;
    return t->found;
}

static int tree_outside_rel(IrRel *r, void *arg) {
    return ir_rel_exprs(r, tree_outside_slot, arg);
}

int ir_tree_reads_outside(IrRel *r, const IrIdSet *inner, const SqExpr *skip) {
    TreeOutside t = {inner, skip, 0};
    ir_walk_rels(r, tree_outside_rel, &t);
    return t.found;
}

int ir_patch_set(IrPatch *p, void *addr, const void *now, size_t size) {
    if (size > sizeof p->now) return -1;
    p->addr = addr;
    p->size = (uint8_t)size;
    memcpy(p->now, now, size);
    memcpy(p->was, addr, size);
    return 0;
}

void ir_patch_apply(const IrPatch *p, size_t n) {
    for (size_t i = 0; i < n; i++) memcpy(p[i].addr, p[i].now, p[i].size);
}

void ir_patch_undo(const IrPatch *p, size_t n) {
    for (size_t i = n; i-- > 0;) memcpy(p[i].addr, p[i].was, p[i].size);
}
