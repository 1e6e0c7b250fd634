/*
** mutate.c -- near-miss queries: visiting the query blocks, patches,
** ordering and capping the mutations (see mutate.h).
**
** Layer: passes.  Takes a bound query's IR; gives an array of mutations
** in its arena, each a few patches that apply and undo in place.  The
** mutations of one block are made by mutate_expr.c and mutate_rel.c.
*/
#include <stdlib.h>
#include <string.h>

#include "passes/mutate/mutate_int.h"

/* ------------------------------------------------------------------ */
/* Patches                                                             */
/* ------------------------------------------------------------------ */

SqMutation mut_begin(SqMutKind k, SrcSpan at, const char *what) {
    SqMutation mu;
    memset(&mu, 0, sizeof mu);
    mu.kind = (uint8_t)k;
    mu.at = at;
    mu.what = what;
    return mu;
}

void mut_patch(SqMutation *mu, void *addr, const void *now, size_t size) {
    if (mu->n_patch < SQ_ARRAY_LEN(mu->patch) && ir_patch_set(&mu->patch[mu->n_patch], addr, now, size) == 0)
        mu->n_patch++;
}

void mut_patch_ptr(SqMutation *mu, void *slot, const void *now) {
    mut_patch(mu, slot, &now, sizeof now);
}

void mut_patch_u8(SqMutation *mu, uint8_t *field, uint8_t now) {
    mut_patch(mu, field, &now, 1);
}

static int same_mutation(const SqMutation *a, const SqMutation *b) {
    if (a->kind != b->kind || a->n_patch != b->n_patch) return 0;
    for (uint8_t i = 0; i < a->n_patch; i++) {
        const SqMutPatch *x = &a->patch[i], *y = &b->patch[i];
        if (x->addr != y->addr || x->size != y->size || memcmp(x->now, y->now, x->size) != 0)
            return 0;
    }
    return 1;
}

/* A node reached twice (an expression the binder shares between two
** places) gives the same patches twice: they are kept once. */
void mut_add(MutCtx *m, const SqMutation *mu) {
    if (!mu->n_patch) return;
    for (uint32_t i = 0; i < m->n_muts; i++)
        if (same_mutation(&m->muts[i], mu)) return;
    *SQ_ARENA_APPEND(m->a, m->muts, m->n_muts, m->cap_muts) = *mu;
}

void sq_mutation_apply(const SqMutation *m) { ir_patch_apply(m->patch, m->n_patch); }

void sq_mutation_undo(const SqMutation *m) { ir_patch_undo(m->patch, m->n_patch); }

const char *sq_mut_kind_name(SqMutKind k) {
    static const char *const names[SQ_MUT__COUNT] = {
        "comparison", "and-or", "drop-conjunct", "negate", "literal", "aggregate",
        "distinct", "group-by", "having", "join-type", "join-key", "order-dir",
        "order-col", "limit", "select-col", "setop", "extreme",
    };
    return (unsigned)k < SQ_MUT__COUNT ? names[k] : "?";
}

/* ------------------------------------------------------------------ */
/* Columns of the block's FROM items                                   */
/* ------------------------------------------------------------------ */

SrcSpan mut_span(const SqExpr *e, SrcSpan fallback) {
    return e && e->span.end > e->span.start ? e->span : fallback;
}

IrRel *mut_leaf(const MutCtx *m, uint32_t id) {
    for (uint32_t i = 0; i < m->n_leaves; i++)
        if (m->leaves[i]->id == id) return m->leaves[i];
    return NULL;
}

const char *mut_col_name(const MutCtx *m, const IrRel *leaf, uint32_t col) {
    const char *alias = leaf->alias ? leaf->alias : "?";
    const char *name = col < leaf->cols.n ? leaf->cols.items[col].name : "?";
    return sq_arena_printf(m->a, "%s.%s", alias, name ? name : "?");
}

SqExpr *mut_col_expr(MutCtx *m, const IrRel *leaf, uint32_t col, SrcSpan at) {
    SqExpr *e = sq_expr_new(m->a, SQX_COLUMN, at, leaf->cols.items[col].type);
    e->u.col.rel = leaf->id;
    e->u.col.col = col;
    return e;
}

/* The columns of leaf that fit, those of orig's very affinity first
** (an INTEGER key for an INTEGER key before a REAL column). */
static uint32_t pick_from(const IrRel *leaf, const SqColumn *orig, uint32_t skip_col, int any_type,
                          MutSkipFn skip, void *arg, IrRel **leaves, uint32_t *cols, uint32_t n,
                          uint32_t max) {
    for (int same_aff = 1; same_aff >= 0; same_aff--)
        for (uint32_t k = 0; k < leaf->cols.n && n < max; k++) {
            const SqColumn *c = &leaf->cols.items[k];
            if (k == skip_col || !ir_column_nameable(c) || (c->type.aff == orig->type.aff) != same_aff)
                continue;
            if (!any_type && ir_type_kind(c->type) != ir_type_kind(orig->type)) continue;
            if (skip && skip(arg, leaf, k)) continue;
            leaves[n] = (IrRel *)leaf;
            cols[n++] = k;
        }
    return n;
}

uint32_t mut_pick_cols(const MutCtx *m, const IrRel *leaf, uint32_t col, int any_type,
                       MutSkipFn skip, void *arg, IrRel **leaves, uint32_t *cols, uint32_t max) {
    if (col >= leaf->cols.n) return 0;
    const SqColumn *orig = &leaf->cols.items[col];
    uint32_t n = pick_from(leaf, orig, col, any_type, skip, arg, leaves, cols, 0, max);
    for (uint32_t i = 0; i < m->n_leaves && n < max; i++)
        if (m->leaves[i] != leaf)
            n = pick_from(m->leaves[i], orig, UINT32_MAX, any_type, skip, arg, leaves, cols, n, max);
    return n;
}

/* ------------------------------------------------------------------ */
/* Visiting the blocks                                                 */
/* ------------------------------------------------------------------ */

static void collect_leaves(MutCtx *m, IrRel *r) {
    if (r->kind == IR_JOIN) {
        collect_leaves(m, r->u.join.left);
        collect_leaves(m, r->u.join.right);
        return;
    }
    if (!(r->flags & IRF_FROM_ITEM) || (r->kind == IR_SCAN && r->u.scan.tvf)) return;
    *SQ_ARENA_APPEND(m->a, m->leaves, m->n_leaves, m->cap_leaves) = r;
}

/* Whether the block was visited already: the binder lowers a subquery
** once and shares it between the copies of an expression that holds it. */
static int seen(MutCtx *m, const IrRel *top) {
    for (uint32_t i = 0; i < m->n_seen; i++)
        if (m->seen[i] == top) return 1;
    *SQ_ARENA_APPEND(m->a, m->seen, m->n_seen, m->cap_seen) = top;
    return 0;
}

static void visit(void *arg, IrRel **top, const IrCore *c, const IrCoreSite *site) {
    MutCtx *m = arg;
    if (seen(m, *top)) return;
    /* a recursive CTE's body: an edit can make it endless, or not a
    ** recursive CTE SQLite accepts */
    if (site->cte && site->cte->recursive) return;
    m->top = top;
    m->site = site;
    m->n_leaves = 0;
    if (!c) {
        mut_compound(m);
        return;
    }
    collect_leaves(m, c->from);
    mut_core_rels(m, c);
    mut_core_exprs(m, c);
}

/* ------------------------------------------------------------------ */
/* Order and cap                                                       */
/* ------------------------------------------------------------------ */

typedef struct Ranked {
    const SqMutation *mu;
    uint32_t seq; /* position in visiting order: ties keep it */
} Ranked;

static int by_text(const void *pa, const void *pb) {
    const Ranked *a = pa, *b = pb;
    if (a->mu->at.start != b->mu->at.start) return a->mu->at.start < b->mu->at.start ? -1 : 1;
    if (a->mu->kind != b->mu->kind) return a->mu->kind < b->mu->kind ? -1 : 1;
    return (a->seq > b->seq) - (a->seq < b->seq);
}

/* Mark max of the n ranked mutations, a kind at a time in turn. */
static void take_by_kind(const Ranked *r, uint32_t n, uint32_t max, uint8_t *keep) {
    uint32_t next[SQ_MUT__COUNT] = {0}; /* per kind: where to look from */
    uint32_t taken = 0;
    while (taken < max) {
        uint32_t before = taken;
        for (uint32_t k = 0; k < SQ_MUT__COUNT && taken < max; k++) {
            while (next[k] < n && r[next[k]].mu->kind != k) next[k]++;
            if (next[k] < n) {
                keep[next[k]++] = 1;
                taken++;
            }
        }
        if (taken == before) break;
    }
}

uint32_t sq_mutations(IrQuery *q, const Catalog *cat, SqMutation **out, uint32_t max) {
    (void)cat; /* the FROM items carry the catalog's columns and types */
    MutCtx m;
    memset(&m, 0, sizeof m);
    m.a = q->arena;
    if (q->root) ir_visit_cores(&q->root, visit, &m);
    *out = NULL;
    if (!m.n_muts) return 0;
    Ranked *r = sq_malloc(m.n_muts * sizeof *r);
    uint8_t *keep = sq_calloc(m.n_muts, 1);
    for (uint32_t i = 0; i < m.n_muts; i++) r[i] = (Ranked){&m.muts[i], i};
    qsort(r, m.n_muts, sizeof *r, by_text);
    if (max && m.n_muts > max) take_by_kind(r, m.n_muts, max, keep);
    else memset(keep, 1, m.n_muts);
    SqMutation *res = sq_arena_alloc(m.a, m.n_muts * sizeof *res);
    uint32_t n = 0;
    for (uint32_t i = 0; i < m.n_muts; i++)
        if (keep[i]) res[n++] = *r[i].mu;
    free(keep);
    free(r);
    *out = res;
    return n;
}
