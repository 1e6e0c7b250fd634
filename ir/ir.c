/*
** ir.c -- building and walking IR relations.
**
** Layer: ir.  Relations are registered in their query by id, so that a
** column reference (rel id, column) leads to the SqColumn it names.
*/
#include <string.h>

#include "ir/ir.h"

IrQuery *ir_query_new(SqArena *a, uint32_t first_id) {
    IrQuery *q = sq_arena_alloc(a, sizeof *q);
    q->arena = a;
    q->next_id = first_id ? first_id : 1;
    return q;
}

static void register_rel(IrQuery *q, IrRel *r) {
    if (r->id >= q->cap_rels) {
        uint32_t cap = q->cap_rels ? q->cap_rels : 64;
        while (cap <= r->id) cap *= 2;
        IrRel **rels = sq_arena_alloc(q->arena, cap * sizeof *rels);
        if (q->n_rels) memcpy(rels, q->rels, q->n_rels * sizeof *rels);
        q->rels = rels;
        q->cap_rels = cap;
    }
    q->rels[r->id] = r;
    if (r->id >= q->n_rels) q->n_rels = r->id + 1;
}

IrRel *ir_rel_new(IrQuery *q, IrRelKind kind, uint32_t id, SrcSpan span) {
    IrRel *r = sq_arena_alloc(q->arena, sizeof *r);
    r->kind = (uint8_t)kind;
    r->span = span;
    r->id = id ? id : q->next_id++;
    if (r->id >= q->next_id) q->next_id = r->id + 1;
    register_rel(q, r);
    return r;
}

IrRel *ir_rel(const IrQuery *q, uint32_t id) {
    return id < q->n_rels ? q->rels[id] : NULL;
}

const SqColumn *ir_column(const IrQuery *q, SqColRef ref) {
    const IrRel *r = ir_rel(q, ref.rel);
    return r && ref.col < r->cols.n ? &r->cols.items[ref.col] : NULL;
}

int ir_rel_binds(const IrRel *r, uint32_t id) {
    while (r) {
        if (r->id == id) return 1;
        switch ((IrRelKind)r->kind) {
        case IR_FILTER: case IR_DISTINCT: case IR_SORT: case IR_LIMIT:
            r = r->input;
            break;
        case IR_JOIN:
            if (ir_rel_binds(r->u.join.left, id)) return 1;
            r = r->u.join.right;
            break;
        default:
            return 0;
        }
    }
    return 0;
}

int ir_walk_rels(IrRel *r, IrRelFn fn, void *arg) {
    if (!r) return 0;
    if (fn(r, arg)) return 1;
    switch ((IrRelKind)r->kind) {
    case IR_JOIN:
        return ir_walk_rels(r->u.join.left, fn, arg) || ir_walk_rels(r->u.join.right, fn, arg);
    case IR_SETOP:
        return ir_walk_rels(r->u.setop.left, fn, arg) || ir_walk_rels(r->u.setop.right, fn, arg);
    default:
        return ir_walk_rels(r->input, fn, arg);
    }
}

static int slot(SqExpr **e, int (*fn)(SqExpr **, void *), void *arg) {
    return *e && fn(e, arg);
}

static int slots(SqExprList *l, int (*fn)(SqExpr **, void *), void *arg) {
    for (uint32_t i = 0; i < l->n; i++)
        if (slot(&l->items[i], fn, arg)) return 1;
    return 0;
}

static int window_exprs(IrRel *r, int (*fn)(SqExpr **, void *), void *arg) {
    for (uint32_t i = 0; i < r->u.window.n_calls; i++) {
        SqWinCall *w = &r->u.window.calls[i];
        if (slots(&w->args, fn, arg) || slot(&w->filter, fn, arg) ||
            slots(&w->partition, fn, arg) || slot(&w->frame.start, fn, arg) ||
            slot(&w->frame.end, fn, arg))
            return 1;
        for (uint32_t k = 0; k < w->n_order; k++)
            if (slot(&w->order[k].expr, fn, arg)) return 1;
    }
    return 0;
}

int ir_rel_exprs(IrRel *r, int (*fn)(SqExpr **slot, void *arg), void *arg) {
    switch ((IrRelKind)r->kind) {
    case IR_SCAN: return slots(&r->u.scan.args, fn, arg);
    case IR_VALUES:
        for (uint32_t i = 0; i < r->u.values.n_rows; i++)
            if (slots(&r->u.values.rows[i], fn, arg)) return 1;
        return 0;
    case IR_FILTER: return slot(&r->u.filter.pred, fn, arg);
    case IR_PROJECT: return slots(&r->u.project.exprs, fn, arg);
    case IR_JOIN: return slot(&r->u.join.cond, fn, arg);
    case IR_AGGREGATE:
        for (uint32_t i = 0; i < r->u.agg.n_items; i++) {
            SqAggItem *it = &r->u.agg.items[i];
            if (slots(&it->args, fn, arg) || slot(&it->expr, fn, arg) ||
                slot(&it->filter, fn, arg))
                return 1;
        }
        return 0;
    case IR_SORT:
        for (uint32_t i = 0; i < r->u.sort.n_keys; i++)
            if (slot(&r->u.sort.keys[i].expr, fn, arg)) return 1;
        return 0;
    case IR_LIMIT: return slot(&r->u.limit.count, fn, arg) || slot(&r->u.limit.offset, fn, arg);
    case IR_WINDOW: return window_exprs(r, fn, arg);
    default: return 0;
    }
}

typedef struct QueryWalk {
    int (*fn)(SqExpr *e, void *arg);
    void *arg;
} QueryWalk;

static int walk_slot(SqExpr **slot, void *arg) {
    const QueryWalk *w = arg;
    return *slot ? sq_expr_walk(*slot, w->fn, w->arg) : 0;
}

int ir_query_walk(IrQuery *q, int (*fn)(SqExpr *e, void *arg), void *arg) {
    QueryWalk w = {fn, arg};
    int r = 0;
    for (uint32_t id = 0; q && id < q->n_rels && !r; id++)
        if (q->rels[id]) r = ir_rel_exprs(q->rels[id], walk_slot, &w);
    return r;
}

const char *ir_rel_kind_name(IrRelKind k) {
    static const char *const names[IR__COUNT] = {
        "scan", "values", "filter", "project", "join", "aggregate",
        "distinct", "sort", "limit", "setop", "cteref", "window"};
    return k < IR__COUNT ? names[k] : "?";
}

const char *ir_join_type_name(IrJoinType t) {
    static const char *const names[] = {"inner", "left", "right", "full", "cross", "semi",
                                        "anti"};
    return t <= IR_JOIN_ANTI ? names[t] : "?";
}

IrTypeKind ir_type_kind(SqType t) {
    switch ((SqAffinity)t.aff) {
    case SQ_AFF_TEXT: return IR_TK_TEXT;
    case SQ_AFF_INTEGER: case SQ_AFF_REAL: case SQ_AFF_NUMERIC: return IR_TK_NUMERIC;
    case SQ_AFF_BLOB: break;
    }
    switch ((SqTypeClass)t.cls) {
    case SQ_TY_INTEGER: case SQ_TY_REAL: case SQ_TY_NUMERIC: return IR_TK_NUMERIC;
    case SQ_TY_TEXT: return IR_TK_TEXT;
    case SQ_TY_BLOB: return IR_TK_BLOB;
    default: return IR_TK_OTHER;
    }
}

int ir_column_nameable(const SqColumn *c) {
    if (c->hidden || !c->name) return 0;
    if (c->table && c->table_col >= 0 && (uint32_t)c->table_col < c->table->n_cols)
        return !c->table->cols[c->table_col].hidden;
    return 1;
}
