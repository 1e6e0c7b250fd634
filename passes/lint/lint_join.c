/*
** lint_join.c -- rules about the FROM clause of a core.
**
** Layer: passes.
**
**   missing-join-predicate     the items fall into groups that no condition
**                              (ON or WHERE) connects, and a comma, CROSS
**                              JOIN or ON-less JOIN puts them together: a
**                              cartesian product.  Items that give at most
**                              one row (pinned by constants, one-row derived
**                              tables) connect to anything.
**   degenerate-join-condition  an equality of a column with itself, in ON
**                              or WHERE; or an ON (not NATURAL or USING)
**                              that reads only one side of its join -- for
**                              an inner join only when WHERE does not
**                              connect the sides either
**   left-join-nullified        a WHERE conjunct, or the ON of an inner join
**                              above, that is never true when the LEFT
**                              JOIN's right side is all NULL: the rows the
**                              LEFT JOIN adds are all dropped again
*/
#include <string.h>

#include "passes/lint/lint_int.h"

/* ------------------------------------------------------------------ */
/* Helpers                                                             */
/* ------------------------------------------------------------------ */

static int tree_contains(const IrRel *tree, const IrRel *r) {
    if (tree == r) return 1;
    return tree->kind == IR_JOIN &&
           (tree_contains(tree->u.join.left, r) || tree_contains(tree->u.join.right, r));
}

/* Whether e reads a column produced under tree (not into subqueries). */
typedef struct SideReads {
    const IrRel *tree;
    int hit;
} SideReads;

static int side_cb(SqExpr *e, void *arg) {
    SideReads *s = arg;
    if (e->kind == SQX_COLUMN && ir_rel_binds(s->tree, e->u.col.rel)) s->hit = 1;
    return s->hit;
}

static int reads_side(SqExpr *e, const IrRel *tree) {
    SideReads s = {tree, 0};
    sq_expr_walk(e, side_cb, &s);
    return s.hit;
}

static int column_refs_cb(SqExpr *e, void *arg) {
    (void)arg;
    return e->kind == SQX_COLUMN;
}

static int same_column(const SqExpr *a, const SqExpr *b) {
    a = lint_strip((SqExpr *)a);
    b = lint_strip((SqExpr *)b);
    return a->kind == SQX_COLUMN && b->kind == SQX_COLUMN && a->u.col.rel == b->u.col.rel &&
           a->u.col.col == b->u.col.col;
}

/* ------------------------------------------------------------------ */
/* missing-join-predicate                                              */
/* ------------------------------------------------------------------ */

typedef struct Groups {
    uint32_t *parent;
} Groups;

static uint32_t find(Groups *g, uint32_t x) {
    while (g->parent[x] != x) x = g->parent[x] = g->parent[g->parent[x]];
    return x;
}

static void unite(Groups *g, uint32_t a, uint32_t b) { g->parent[find(g, a)] = find(g, b); }

/* Connect the items a condition reads. */
static void connect(const LintCore *k, Groups *g, SqExpr *cond) {
    int first = -1;
    for (uint32_t i = 0; i < k->n_items; i++) {
        if (!lint_reads_item(k, cond, i)) continue;
        if (first < 0) first = (int)i;
        else unite(g, i, (uint32_t)first);
    }
}

static int joins_without_condition(const IrRel *j) {
    return (j->flags & IRF_COMMA) || j->u.join.type == IR_JOIN_CROSS || !j->u.join.cond;
}

static void missing_join_predicate(LintCore *k) {
    if (k->n_items < 2 || !sq_lint_enabled(k->l, LR_MISSING_JOIN_PREDICATE)) return;
    SqArena *a = k->l->q->arena;
    Groups g = {sq_arena_alloc(a, k->n_items * sizeof(uint32_t))};
    for (uint32_t i = 0; i < k->n_items; i++) g.parent[i] = i;
    for (uint32_t i = 0; i < k->where.n; i++) connect(k, &g, k->where.items[i]);
    for (uint32_t i = 0; i < k->n_items; i++)
        if (k->items[i].join && k->items[i].join->u.join.cond)
            connect(k, &g, k->items[i].join->u.join.cond);
    uint8_t *single = sq_arena_alloc(a, k->n_items);
    memset(single, 0, k->n_items);
    lint_fixed_items(k, NULL, 0, single, NULL);
    for (uint32_t i = 1; i < k->n_items; i++) {
        const LintItem *it = &k->items[i];
        if (single[i] || !it->join || !joins_without_condition(it->join)) continue;
        int apart = 1;
        for (uint32_t j = 0; j < i && apart; j++)
            if (single[j] || find(&g, j) == find(&g, i)) apart = 0;
        if (!apart) continue;
        sq_lint_report(k->l, LR_MISSING_JOIN_PREDICATE, it->join->span,
                       "no condition connects %s to the tables before it: the %s pairs every "
                       "row with every row (a cartesian product)",
                       k->l->alias[it->rel->id],
                       (it->join->flags & IRF_COMMA) ? "comma join"
                       : (it->join->u.join.written & AST_JT_CROSS) ? "CROSS JOIN"
                                                                    : "JOIN without ON");
        unite(&g, i, 0); /* report each separate group once */
    }
}

/* ------------------------------------------------------------------ */
/* degenerate-join-condition                                           */
/* ------------------------------------------------------------------ */

static void self_equalities(LintCore *k, const SqExprList *l) {
    for (uint32_t i = 0; i < l->n; i++) {
        SqExpr *e = l->items[i];
        int is = e->kind == SQX_IS;
        if (!(e->kind == SQX_BINARY && (e->op == AST_OP_EQ || e->op == AST_OP_NE)) && !is) continue;
        if (!same_column(e->u.bin.l, e->u.bin.r)) continue;
        /* x IS x is always true and x IS NOT x never; = and != leave NULL out */
        int never = is ? (e->flags & SQXF_NOT) != 0 : e->op == AST_OP_NE;
        const char *what = never ? "never true" : is ? "true for every row" : "true for every row where it is not NULL";
        sq_lint_report(k->l, LR_DEGENERATE_JOIN, e->span, "%s compares a column with itself: it is %s",
                       sq_lint_text(k->l, e->span), what);
    }
}

/* Whether a WHERE conjunct reads both sides of join j. */
static int where_connects(const LintCore *k, const IrRel *j) {
    for (uint32_t i = 0; i < k->where.n; i++)
        if (reads_side(k->where.items[i], j->u.join.left) &&
            reads_side(k->where.items[i], j->u.join.right))
            return 1;
    return 0;
}

static void one_sided_on(LintCore *k, const IrRel *j) {
    SqExpr *on = j->u.join.cond;
    if (!on || (j->flags & (IRF_NATURAL | IRF_USING))) return;
    if (!sq_expr_walk(on, column_refs_cb, NULL)) return; /* ON 1: a cross join said plainly */
    int left = reads_side(on, j->u.join.left), right = reads_side(on, j->u.join.right);
    if (left && right) return;
    if (j->u.join.type != IR_JOIN_LEFT && where_connects(k, j)) return;
    const IrRel *r = j->u.join.right;
    sq_lint_report(k->l, LR_DEGENERATE_JOIN, on->span,
                   "ON %s reads only %s: it does not relate %s to the tables before it",
                   sq_lint_text(k->l, on->span),
                   right ? "the joined table" : "the tables before the join",
                   r->kind == IR_JOIN ? "the joined tables" : k->l->alias[r->id]);
}

static void degenerate_join(LintCore *k) {
    if (!sq_lint_enabled(k->l, LR_DEGENERATE_JOIN)) return;
    self_equalities(k, &k->where);
    for (uint32_t i = 0; i < k->n_items; i++) {
        const IrRel *j = k->items[i].join;
        if (!j || !j->u.join.cond) continue;
        SqExprList on = {0};
        ir_conjuncts(k->l->q->arena, j->u.join.cond, &on);
        self_equalities(k, &on);
        one_sided_on(k, j);
    }
}

/* ------------------------------------------------------------------ */
/* left-join-nullified                                                 */
/* ------------------------------------------------------------------ */

static int on_side(const SqExpr *col, const void *side) {
    return ir_rel_binds(side, col->u.col.rel);
}

static void check_nullified(LintCore *k, const IrRel *left_join, SqExpr *cond, const char *where) {
    const IrRel *side = left_join->u.join.right;
    if (!reads_side(cond, side) || !lint_null_rejects(cond, on_side, side)) return;
    sq_lint_report(k->l, LR_LEFT_JOIN_NULLIFIED, cond->span,
                   "%s %s is never true where the LEFT JOIN found no %s row, so it drops the "
                   "rows the LEFT JOIN keeps: the join works as an inner join",
                   sq_lint_text(k->l, cond->span), where,
                   side->kind == IR_JOIN ? "matching" : k->l->alias[side->id]);
}

static void left_join_nullified(LintCore *k) {
    if (!sq_lint_enabled(k->l, LR_LEFT_JOIN_NULLIFIED)) return;
    for (uint32_t i = 0; i < k->n_items; i++) {
        const IrRel *j = k->items[i].join;
        if (!j || j->u.join.type != IR_JOIN_LEFT) continue;
        for (uint32_t w = 0; w < k->where.n; w++) check_nullified(k, j, k->where.items[w], "in WHERE");
        for (uint32_t a = i + 1; a < k->n_items; a++) {
            const IrRel *up = k->items[a].join;
            if (!up || !up->u.join.cond || (up->u.join.type != IR_JOIN_INNER) ||
                !tree_contains(up->u.join.left, j))
                continue;
            SqExprList on = {0};
            ir_conjuncts(k->l->q->arena, up->u.join.cond, &on);
            for (uint32_t c = 0; c < on.n; c++) check_nullified(k, j, on.items[c], "in a later ON");
        }
    }
}

void lint_joins(LintCore *k) {
    missing_join_predicate(k);
    degenerate_join(k);
    left_join_nullified(k);
}
