/*
** lint_keys.c -- which expressions tell the rows of a query block apart.
**
** Layer: passes.  Two rows of a core's FROM (after WHERE) are the same
** row when every FROM item contributes the same row to both.  An item's
** row is fixed when the columns of one of its keys are known: a base
** table's rowid, PRIMARY KEY or UNIQUE columns; a derived table's GROUP BY
** outputs, or all its outputs under DISTINCT; nothing at all when the
** derived table gives one row.  Known columns start as the expressions
** given and grow by equalities with constants and with known columns
** (WHERE and inner-join ON; a LEFT JOIN's ON only from the left side to
** the right, unless the caller knows its right side matched: then the ON
** held), and by every column of an item once its row is fixed.  The
** rows are unique by the expressions when every item ends up fixed.
**
** This is a sufficient test, not an exact one: it misses keys implied by
** CHECK constraints or by data.  NULLs in a UNIQUE column (which SQLite
** lets repeat) are ignored.
*/
#include <string.h>

#include "passes/lint/lint_int.h"

typedef struct Known {
    uint32_t item;
    int32_t col;       /* table column (base tables; -1 the rowid) or output column */
} Known;

typedef struct Eq {
    SqExpr *e;         /* "x = y" */
    int right_only;    /* from a LEFT JOIN's ON: item index of its right side, else -1 */
} Eq;

typedef struct Keys {
    const LintCore *k;
    const uint8_t *matched; /* per item, or NULL (lint_fixed_items) */
    Known *known;
    uint32_t n, cap;
    uint8_t *fixed;    /* per item */
    Eq *eqs;
    uint32_t n_eqs, cap_eqs;
} Keys;

static SqArena *arena_of(const Keys *ks) { return ks->k->l->q->arena; }

/* The item and column a column reference names; 0 when it is not one of
** the core's items' columns. */
static int locate(const Keys *ks, const SqExpr *e, Known *out) {
    e = lint_strip((SqExpr *)e);
    if (!e || e->kind != SQX_COLUMN) return 0;
    int i = lint_item_of(ks->k, e->u.col.rel);
    if (i < 0) return 0;
    out->item = (uint32_t)i;
    const IrRel *r = ks->k->items[i].rel;
    if (r->kind == IR_SCAN) {
        int32_t col;
        if (!lint_table_column(ks->k->l, e, &col)) return 0;
        out->col = col;
    } else {
        out->col = (int32_t)e->u.col.col;
    }
    return 1;
}

static int is_known(const Keys *ks, Known c) {
    if (ks->fixed[c.item]) return 1;
    for (uint32_t i = 0; i < ks->n; i++)
        if (ks->known[i].item == c.item && ks->known[i].col == c.col) return 1;
    return 0;
}

static int add_known(Keys *ks, Known c) {
    if (is_known(ks, c)) return 0;
    *SQ_ARENA_APPEND(arena_of(ks), ks->known, ks->n, ks->cap) = c;
    return 1;
}

/* ------------------------------------------------------------------ */
/* Keys of items                                                       */
/* ------------------------------------------------------------------ */

static int table_key_known(const Keys *ks, uint32_t item, const CatTable *t) {
    Known rowid = {item, -1};
    if (!t->without_rowid && !t->is_view && !t->is_virtual && is_known(ks, rowid)) return 1;
    for (uint32_t i = 0; i < t->n_keys; i++) {
        const CatKey *key = &t->keys[i];
        uint32_t j = 0;
        while (j < key->n_cols && is_known(ks, (Known){item, (int32_t)key->cols[j]})) j++;
        if (key->n_cols && j == key->n_cols) return 1;
    }
    return 0;
}

/* A derived table: one row, or its GROUP BY keys (all in its output), or
** every output under DISTINCT. */
static int derived_key_known(const Keys *ks, uint32_t item, IrRel *wrap) {
    IrRel *top = wrap->input;
    if (!top) return 0;
    if (lint_single_row(top)) return 1;
    IrCore c;
    if (!ir_core_split(&top, &c)) return 0;
    const IrRel *proj = c.project;
    if (c.distinct) {
        uint32_t j = 0;
        while (j < wrap->cols.n && is_known(ks, (Known){item, (int32_t)j})) j++;
        if (j == wrap->cols.n) return 1;
    }
    if (!c.agg || !c.agg->u.agg.n_keys) return 0;
    /* each GROUP BY key must be an output (a reference to the key) that is known */
    for (uint32_t key = 0; key < c.agg->u.agg.n_items; key++) {
        if (c.agg->u.agg.items[key].kind != SQ_AGG_KEY) continue;
        int found = 0;
        for (uint32_t j = 0; j < proj->u.project.exprs.n && j < wrap->cols.n && !found; j++)
            found = lint_key_ref(c.agg, proj->u.project.exprs.items[j]) == (int)key &&
                    is_known(ks, (Known){item, (int32_t)j});
        if (!found) return 0;
    }
    return 1;
}

static int item_key_known(const Keys *ks, uint32_t i) {
    IrRel *r = ks->k->items[i].rel;
    if (r->kind == IR_SCAN) return r->u.scan.table && !r->u.scan.tvf &&
                                   table_key_known(ks, i, r->u.scan.table);
    if (r->kind == IR_PROJECT && (r->flags & IRF_FROM_ITEM) && !(r->flags & IRF_VIEW))
        return derived_key_known(ks, i, r);
    if (r->kind == IR_VALUES) return r->u.values.n_rows <= 1;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Equalities                                                          */
/* ------------------------------------------------------------------ */

/* Whether e carries a COLLATE other than BINARY (under unary +): an
** equality under it can match several rows of a key that is unique under
** BINARY ('Research' and 'research' under NOCASE). */
static int loose_collation(const SqExpr *e) {
    for (; e && (e->kind == SQX_COLLATE || (e->kind == SQX_UNARY && e->op == AST_OP_POS));
         e = e->kind == SQX_COLLATE ? e->u.collate.x : e->u.bin.l)
        if (e->kind == SQX_COLLATE && e->u.collate.name && sq_stricmp(e->u.collate.name, "binary") != 0) return 1;
    return 0;
}

/* An equality that binds its sides to each other: = or IS, under BINARY
** or the columns' own collation. */
static int binding_equality(const SqExpr *e) {
    if (!((e->kind == SQX_BINARY && e->op == AST_OP_EQ) || (e->kind == SQX_IS && !(e->flags & SQXF_NOT))))
        return 0;
    return !loose_collation(e->u.bin.l) && !loose_collation(e->u.bin.r);
}

static void add_eqs(Keys *ks, const SqExprList *l, int right_only) {
    for (uint32_t i = 0; i < l->n; i++) {
        SqExpr *e = l->items[i];
        if (binding_equality(e)) {
            Eq *q = SQ_ARENA_APPEND(arena_of(ks), ks->eqs, ks->n_eqs, ks->cap_eqs);
            q->e = e;
            q->right_only = right_only;
        }
    }
}

static void collect_eqs(Keys *ks) {
    const LintCore *k = ks->k;
    add_eqs(ks, &k->where, -1);
    for (uint32_t i = 0; i < k->n_items; i++) {
        const IrRel *j = k->items[i].join;
        if (!j || !j->u.join.cond) continue;
        SqExprList on = {0};
        ir_conjuncts(arena_of(ks), j->u.join.cond, &on);
        uint8_t t = j->u.join.type;
        if (t == IR_JOIN_INNER || t == IR_JOIN_CROSS) add_eqs(ks, &on, -1);
        else if (t == IR_JOIN_LEFT) add_eqs(ks, &on, (int)i);
    }
}

/* One side learned from the other: to must not be constrained by a LEFT
** JOIN's ON unless it is that join's right side. */
static int learn(Keys *ks, const Eq *q, SqExpr *from, SqExpr *to) {
    Known t, f;
    if (!locate(ks, to, &t)) return 0;
    if (q->right_only >= 0 && t.item != (uint32_t)q->right_only && !(ks->matched && ks->matched[q->right_only]))
        return 0;
    if (lint_is_constant(ks->k, from) || (locate(ks, from, &f) && is_known(ks, f)))
        return add_known(ks, t);
    return 0;
}

void lint_fixed_items(const LintCore *k, SqExpr *const *exprs, uint32_t n, uint8_t *fixed,
                      const uint8_t *matched) {
    Keys ks;
    memset(&ks, 0, sizeof ks);
    ks.k = k;
    ks.matched = matched;
    ks.fixed = fixed;
    for (uint32_t i = 0; i < n; i++) {
        Known c;
        if (locate(&ks, exprs[i], &c)) add_known(&ks, c);
    }
    collect_eqs(&ks);
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t i = 0; i < ks.n_eqs; i++) {
            SqExpr *l = ks.eqs[i].e->u.bin.l, *r = ks.eqs[i].e->u.bin.r;
            changed |= learn(&ks, &ks.eqs[i], l, r);
            changed |= learn(&ks, &ks.eqs[i], r, l);
        }
        for (uint32_t i = 0; i < k->n_items; i++)
            if (!ks.fixed[i] && item_key_known(&ks, i)) ks.fixed[i] = 1, changed = 1;
    }
}

int lint_unique_by(const LintCore *k, SqExpr *const *exprs, uint32_t n) {
    uint8_t *fixed = sq_arena_alloc(k->l->q->arena, k->n_items + 1);
    memset(fixed, 0, k->n_items + 1);
    lint_fixed_items(k, exprs, n, fixed, NULL);
    for (uint32_t i = 0; i < k->n_items; i++)
        if (!fixed[i]) return 0;
    return 1;
}

static int constant_count(const SqExpr *e, int64_t *v) {
    e = lint_strip((SqExpr *)e);
    if (!lint_is_literal(e, SQ_VAL_INTEGER)) return 0;
    *v = e->u.lit.i;
    return 1;
}

int lint_single_row(IrRel *top) {
    IrCore c;
    IrRel *t = top;
    if (!ir_core_split(&t, &c)) return 0;
    int64_t v;
    if (c.limit && c.limit->u.limit.count && constant_count(c.limit->u.limit.count, &v) && v >= 0 &&
        v <= 1)
        return 1;
    return c.agg && c.agg->u.agg.n_keys == 0;
}

static int pinned_in(const LintCore *k, const SqExprList *l, const SqExpr *e) {
    for (uint32_t i = 0; i < l->n; i++) {
        const SqExpr *c = l->items[i];
        if (!binding_equality(c)) continue;
        const SqExpr *a = lint_strip(c->u.bin.l), *b = lint_strip(c->u.bin.r);
        for (int side = 0; side < 2; side++, a = b, b = lint_strip(c->u.bin.l))
            if (a->kind == SQX_COLUMN && a->u.col.rel == e->u.col.rel && a->u.col.col == e->u.col.col &&
                lint_is_constant(k, (SqExpr *)b))
                return 1;
    }
    return 0;
}

int lint_pinned(const LintCore *k, const SqExpr *e) {
    e = lint_strip((SqExpr *)e);
    if (!e || e->kind != SQX_COLUMN) return 0;
    if (pinned_in(k, &k->where, e)) return 1;
    for (uint32_t i = 0; i < k->n_items; i++) {
        const IrRel *j = k->items[i].join;
        if (!j || !j->u.join.cond || (j->u.join.type != IR_JOIN_INNER && j->u.join.type != IR_JOIN_CROSS))
            continue;
        SqExprList on = {0};
        ir_conjuncts(k->l->q->arena, j->u.join.cond, &on);
        if (pinned_in(k, &on, e)) return 1;
    }
    return 0;
}
