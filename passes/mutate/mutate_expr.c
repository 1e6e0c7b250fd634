/*
** mutate_expr.c -- near-miss queries: the mutations of expressions.
**
** Layer: passes.  Walks the expressions of one SELECT core (ON, WHERE,
** the aggregates' arguments, HAVING, the result columns; not into
** subqueries, which are blocks of their own) and makes the comparison,
** AND/OR, negation and literal mutations of their nodes, then the
** conjunct-level ones of each condition: a conjunct dropped or negated,
** a join key moved to another column.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "passes/mutate/mutate_int.h"


/* ------------------------------------------------------------------ */
/* Operators                                                           */
/* ------------------------------------------------------------------ */

/* The telling neighbours of each comparison: the boundary moved (< and
** <=) and the direction reversed; = and <> for each other. */
static const struct {
    uint8_t op, to[2];
} comparison_swaps[] = {
    {AST_OP_LT, {AST_OP_LE, AST_OP_GT}}, {AST_OP_LE, {AST_OP_LT, AST_OP_GE}},
    {AST_OP_GT, {AST_OP_GE, AST_OP_LT}}, {AST_OP_GE, {AST_OP_GT, AST_OP_LE}},
    {AST_OP_EQ, {AST_OP_NE, AST_OP_NONE}}, {AST_OP_NE, {AST_OP_EQ, AST_OP_NONE}},
};

static void comparison(MutCtx *m, SqExpr *e, SrcSpan fb) {
    for (size_t i = 0; i < SQ_ARRAY_LEN(comparison_swaps); i++) {
        if (comparison_swaps[i].op != e->op) continue;
        for (int k = 0; k < 2 && comparison_swaps[i].to[k] != AST_OP_NONE; k++) {
            uint8_t to = comparison_swaps[i].to[k];
            SqMutation mu = mut_begin(SQ_MUT_COMPARISON, mut_span(e, fb),
                                      sq_arena_printf(m->a, "%s becomes %s", ast_op_sql((AstOp)e->op),
                                                      ast_op_sql((AstOp)to)));
            mut_patch_u8(&mu, &e->op, to);
            mut_add(m, &mu);
        }
    }
}

static void and_or(MutCtx *m, SqExpr *e, SrcSpan fb) {
    uint8_t to = e->op == AST_OP_AND ? AST_OP_OR : AST_OP_AND;
    SqMutation mu = mut_begin(SQ_MUT_AND_OR, mut_span(e, fb),
                              sq_arena_printf(m->a, "%s becomes %s", ast_op_sql((AstOp)e->op), ast_op_sql((AstOp)to)));
    mut_patch_u8(&mu, &e->op, to);
    mut_add(m, &mu);
}

static int is_null_literal(const SqExpr *e) {
    return e && e->kind == SQX_LITERAL && e->u.lit.vtype == SQ_VAL_NULL;
}

/* The word a NOT flag negates, as the SQL shows it. */
static const char *negatable(const SqExpr *e) {
    switch ((SqExprKind)e->kind) {
    case SQX_LIKE: return ast_op_sql((AstOp)e->op);
    case SQX_BETWEEN: return "BETWEEN";
    case SQX_IN_LIST: case SQX_IN_SUBQUERY: return "IN";
    case SQX_EXISTS: return "EXISTS";
    case SQX_ISNULL: return "IS NULL";
    case SQX_IS: return is_null_literal(e->u.bin.r) ? "IS NULL" : "IS";
    default: return NULL;
    }
}

/* x LIKE y <-> x NOT LIKE y, and so on: the flag SQXF_NOT. */
static void negate_flag(MutCtx *m, SqExpr *e, SrcSpan fb) {
    const char *word = negatable(e);
    int is_not = (e->flags & SQXF_NOT) != 0;
    const char *neg = strcmp(word, "IS NULL") == 0 ? "IS NOT NULL"
                    : strcmp(word, "IS") == 0 ? "IS NOT"
                    : sq_arena_printf(m->a, "NOT %s", word);
    SqMutation mu = mut_begin(SQ_MUT_NEGATE, mut_span(e, fb),
                              sq_arena_printf(m->a, "%s becomes %s", is_not ? neg : word,
                                              is_not ? word : neg));
    uint16_t flags = (uint16_t)(e->flags ^ SQXF_NOT);
    mut_patch(&mu, &e->flags, &flags, sizeof flags);
    mut_add(m, &mu);
}

/* ------------------------------------------------------------------ */
/* Literals                                                            */
/* ------------------------------------------------------------------ */

/* Literals compared with something: a comparison's operand, a pattern,
** bounds, list items (a literal elsewhere, a function's format say, is
** rarely what a near-miss changes). */
static int literal_site(const SqExpr *parent, SqExpr *const *slot) {
    if (!parent) return 0;
    switch ((SqExprKind)parent->kind) {
    case SQX_BINARY: return ast_op_is_comparison(parent->op);
    case SQX_LIKE: return slot == &parent->u.like.pattern;
    case SQX_BETWEEN: case SQX_IN_LIST: case SQX_IS: return 1;
    case SQX_UNARY: return parent->op == AST_OP_NEG;
    default: return 0;
    }
}

enum { SHOWN_TEXT = 24 }; /* bytes of a text literal quoted in `what` */

static const char *show_literal(MutCtx *m, const SqExpr *e) {
    switch ((SqValueType)e->u.lit.vtype) {
    case SQ_VAL_INTEGER:
        return e->u.lit.text ? e->u.lit.text : sq_arena_printf(m->a, "%lld", (long long)e->u.lit.i);
    case SQ_VAL_REAL: return e->u.lit.text ? e->u.lit.text : sq_arena_printf(m->a, "%g", e->u.lit.r);
    case SQ_VAL_TEXT: {
        int cut = e->u.lit.n > SHOWN_TEXT;
        return sq_arena_printf(m->a, "'%.*s%s'", cut ? SHOWN_TEXT : (int)e->u.lit.n, e->u.lit.s,
                               cut ? "..." : "");
    }
    default: return "?";
    }
}

static void literal_to(MutCtx *m, SqExpr **slot, SqExpr *to, SrcSpan fb) {
    SqMutation mu = mut_begin(SQ_MUT_LITERAL, mut_span(*slot, fb),
                              sq_arena_printf(m->a, "%s becomes %s", show_literal(m, *slot),
                                              show_literal(m, to)));
    mut_patch_ptr(&mu, slot, to);
    mut_add(m, &mu);
}

static void literal_int(MutCtx *m, SqExpr **slot, SrcSpan fb) {
    int64_t n = (*slot)->u.lit.i;
    for (int d = 1; d >= -1; d -= 2) {
        if ((d > 0 && n == INT64_MAX) || (d < 0 && n == INT64_MIN)) continue;
        SqExpr *to = sq_expr_copy(m->a, *slot);
        to->u.lit.i = n + d;
        to->u.lit.text = NULL;
        literal_to(m, slot, to, fb);
    }
}

static void literal_real(MutCtx *m, SqExpr **slot, SrcSpan fb) {
    for (int d = 1; d >= -1; d -= 2) {
        char buf[64];
        snprintf(buf, sizeof buf, "%.15g", (*slot)->u.lit.r + d);
        if (!strpbrk(buf, ".eEni")) strcat(buf, ".0"); /* stays a REAL */
        SqExpr *to = sq_expr_copy(m->a, *slot);
        to->u.lit.text = sq_arena_strdup(m->a, buf);
        to->u.lit.r = strtod(buf, NULL);
        literal_to(m, slot, to, fb);
    }
}

/* The text in the other case (upper when it has a lower-case letter),
** or NULL when it has no letter. */
static char *case_variant(MutCtx *m, const char *s, uint32_t n) {
    int lower = 0, upper = 0;
    for (uint32_t i = 0; i < n; i++) {
        lower |= s[i] >= 'a' && s[i] <= 'z';
        upper |= s[i] >= 'A' && s[i] <= 'Z';
    }
    if (!lower && !upper) return NULL;
    char *t = sq_arena_strndup(m->a, s, n);
    for (uint32_t i = 0; i < n; i++) {
        if (lower && t[i] >= 'a' && t[i] <= 'z') t[i] = (char)(t[i] - 'a' + 'A');
        else if (!lower && t[i] >= 'A' && t[i] <= 'Z') t[i] = (char)(t[i] - 'A' + 'a');
    }
    return t;
}

/* A neighbouring text: its last letter or digit moved on by one ('z' to
** 'a', '9' to '0'), or an 'x' appended when it has none. */
static char *other_variant(MutCtx *m, const char *s, uint32_t *n) {
    char *t = sq_arena_alloc(m->a, *n + 2);
    memcpy(t, s, *n);
    for (uint32_t i = *n; i-- > 0;) {
        char c = t[i];
        if (c >= 'a' && c <= 'z') t[i] = c == 'z' ? 'a' : (char)(c + 1);
        else if (c >= 'A' && c <= 'Z') t[i] = c == 'Z' ? 'A' : (char)(c + 1);
        else if (c >= '0' && c <= '9') t[i] = c == '9' ? '0' : (char)(c + 1);
        else continue;
        return t;
    }
    t[(*n)++] = 'x';
    return t;
}

static void text_to(MutCtx *m, SqExpr **slot, char *s, uint32_t n, SrcSpan fb) {
    SqExpr *to = sq_expr_copy(m->a, *slot);
    to->u.lit.s = s;
    to->u.lit.n = n;
    to->u.lit.text = NULL;
    literal_to(m, slot, to, fb);
}

static void literal_text(MutCtx *m, SqExpr **slot, const SqExpr *parent, SrcSpan fb) {
    const SqExpr *e = *slot;
    /* LIKE ignores the case of ASCII letters: a case variant is no mutant */
    int like = parent->kind == SQX_LIKE && parent->op == AST_OP_LIKE;
    char *cased = like ? NULL : case_variant(m, e->u.lit.s, e->u.lit.n);
    if (cased) text_to(m, slot, cased, e->u.lit.n, fb);
    uint32_t n = e->u.lit.n;
    char *other = other_variant(m, e->u.lit.s, &n);
    text_to(m, slot, other, n, fb);
}

static void literal(MutCtx *m, SqExpr **slot, const SqExpr *parent, SrcSpan fb) {
    if ((*slot)->flags & SQXF_BOOL_NAME) return;
    switch ((SqValueType)(*slot)->u.lit.vtype) {
    case SQ_VAL_INTEGER: literal_int(m, slot, fb); break;
    case SQ_VAL_REAL: literal_real(m, slot, fb); break;
    case SQ_VAL_TEXT: literal_text(m, slot, parent, fb); break;
    default: break;
    }
}

/* ------------------------------------------------------------------ */
/* Walking the nodes                                                   */
/* ------------------------------------------------------------------ */

typedef struct NodeWalk {
    MutCtx *m;
    const SqExpr *parent;
    SrcSpan fb;
} NodeWalk;

static int walk_child(SqExpr **slot, void *arg);

static void mutate_node(MutCtx *m, SqExpr **slot, const SqExpr *parent, SrcSpan fb) {
    SqExpr *e = *slot;
    switch ((SqExprKind)e->kind) {
    case SQX_BINARY:
        if (ast_op_is_comparison(e->op)) comparison(m, e, fb);
        else if (e->op == AST_OP_AND || e->op == AST_OP_OR) and_or(m, e, fb);
        break;
    case SQX_LIKE: case SQX_BETWEEN: case SQX_IN_LIST: case SQX_IN_SUBQUERY: case SQX_EXISTS:
    case SQX_ISNULL: case SQX_IS:
        negate_flag(m, e, fb);
        break;
    case SQX_LITERAL:
        if (literal_site(parent, slot)) literal(m, slot, parent, fb);
        break;
    default: break;
    }
    NodeWalk w = {m, e, fb};
    sq_expr_each_child(e, walk_child, &w);
}

static int walk_child(SqExpr **slot, void *arg) {
    NodeWalk *w = arg;
    mutate_node(w->m, slot, w->parent, w->fb);
    return 0;
}

static int walk_slot(SqExpr **slot, void *arg) {
    NodeWalk *w = arg;
    mutate_node(w->m, slot, NULL, w->fb);
    return 0;
}

/* Every node of every expression r holds. */
static void walk_rel(MutCtx *m, IrRel *r, SrcSpan fb) {
    NodeWalk w = {m, NULL, fb};
    ir_rel_exprs(r, walk_slot, &w);
}

/* ------------------------------------------------------------------ */
/* Conjuncts                                                           */
/* ------------------------------------------------------------------ */

typedef struct Conjuncts {
    SqExpr **slots[64]; /* the fields that hold them, left to right */
    uint32_t n;
} Conjuncts;

static void conjuncts(SqExpr **slot, Conjuncts *out) {
    SqExpr *e = *slot;
    if (e->kind == SQX_BINARY && e->op == AST_OP_AND) {
        conjuncts(&e->u.bin.l, out);
        conjuncts(&e->u.bin.r, out);
    } else if (out->n < SQ_ARRAY_LEN(out->slots)) {
        out->slots[out->n++] = slot;
    }
}

/* Each conjunct of the condition at *cond dropped: the AND of the others. */
static void drop_each(MutCtx *m, SqExpr **cond, const Conjuncts *cj, const char *clause,
                      SrcSpan fb) {
    for (uint32_t i = 0; i < cj->n; i++) {
        SqExprList rest = {0};
        for (uint32_t k = 0; k < cj->n; k++)
            if (k != i) sq_expr_list_add(m->a, &rest, *cj->slots[k]);
        SqMutation mu = mut_begin(SQ_MUT_DROP_CONJUNCT, mut_span(*cj->slots[i], fb),
                                  sq_arena_printf(m->a, "%s conjunct %u of %u dropped", clause,
                                                  i + 1, cj->n));
        mut_patch_ptr(&mu, cond, ir_and(m->a, &rest));
        mut_add(m, &mu);
    }
}

/* A conjunct the flags and comparisons do not already negate: NOT x, or
** x for NOT x. */
static void negate_conjunct(MutCtx *m, SqExpr **slot, SrcSpan fb) {
    SqExpr *e = *slot;
    if ((e->kind == SQX_BINARY && ast_op_is_comparison(e->op)) || negatable(e)) return;
    SqMutation mu;
    if (e->kind == SQX_UNARY && e->op == AST_OP_NOT) {
        mu = mut_begin(SQ_MUT_NEGATE, mut_span(e, fb), "NOT removed");
        mut_patch_ptr(&mu, slot, e->u.bin.l);
    } else {
        SqExpr *neg = sq_expr_new(m->a, SQX_UNARY, e->span, e->type);
        neg->op = AST_OP_NOT;
        neg->u.bin.l = e;
        mu = mut_begin(SQ_MUT_NEGATE, mut_span(e, fb), "condition negated with NOT");
        mut_patch_ptr(&mu, slot, neg);
    }
    mut_add(m, &mu);
}

/* One side of a join equality on another column of the same FROM item. */
static int other_item(void *arg, const IrRel *leaf, uint32_t col) {
    (void)col;
    return leaf != arg;
}

static void join_key_side(MutCtx *m, SqExpr **side, SrcSpan at) {
    IrRel *leaf = mut_leaf(m, (*side)->u.col.rel), *alt;
    uint32_t col;
    if (!mut_pick_cols(m, leaf, (*side)->u.col.col, 0, other_item, leaf, &alt, &col, 1)) return;
    SqMutation mu = mut_begin(SQ_MUT_JOIN_KEY, at,
                              sq_arena_printf(m->a, "join on %s instead of %s",
                                              mut_col_name(m, alt, col),
                                              mut_col_name(m, leaf, (*side)->u.col.col)));
    mut_patch_ptr(&mu, side, mut_col_expr(m, alt, col, (*side)->span));
    mut_add(m, &mu);
}

/* a.x = b.y between two FROM items of the block: each side moved once. */
static void join_key(MutCtx *m, SqExpr *e, SrcSpan fb) {
    if (e->kind != SQX_BINARY || e->op != AST_OP_EQ) return;
    SqExpr *l = e->u.bin.l, *r = e->u.bin.r;
    if (l->kind != SQX_COLUMN || r->kind != SQX_COLUMN || ((l->flags | r->flags) & SQXF_ROWID))
        return;
    IrRel *ll = mut_leaf(m, l->u.col.rel), *rl = mut_leaf(m, r->u.col.rel);
    if (!ll || !rl || ll == rl) return;
    join_key_side(m, &e->u.bin.r, mut_span(e, fb));
    join_key_side(m, &e->u.bin.l, mut_span(e, fb));
}

/* The conjunct-level mutations of the condition at *cond. */
static void condition(MutCtx *m, SqExpr **cond, const char *clause, SrcSpan fb) {
    Conjuncts cj;
    cj.n = 0;
    conjuncts(cond, &cj);
    if (cj.n > 1) drop_each(m, cond, &cj, clause, fb);
    for (uint32_t i = 0; i < cj.n; i++) {
        negate_conjunct(m, cj.slots[i], fb);
        join_key(m, *cj.slots[i], fb);
    }
}

/* ------------------------------------------------------------------ */
/* One core                                                            */
/* ------------------------------------------------------------------ */

/* The joins of the FROM tree, left to right: ON conditions, and the
** only conjunct of one dropped (a cross join). */
static void join_conditions(MutCtx *m, IrRel *r, SrcSpan fb) {
    if (r->kind != IR_JOIN) return;
    join_conditions(m, r->u.join.left, fb);
    join_conditions(m, r->u.join.right, fb);
    if (!r->u.join.cond) return;
    walk_rel(m, r, fb);
    condition(m, &r->u.join.cond, "ON", fb);
    if (r->u.join.cond->kind != SQX_BINARY || r->u.join.cond->op != AST_OP_AND) {
        SqMutation mu = mut_begin(SQ_MUT_DROP_CONJUNCT, mut_span(r->u.join.cond, fb),
                                  "ON condition dropped");
        mut_patch_ptr(&mu, &r->u.join.cond, NULL);
        mut_add(m, &mu);
    }
}

void mut_core_exprs(MutCtx *m, const IrCore *c) {
    SrcSpan fb = c->project->span;
    join_conditions(m, c->from, fb);
    if (c->where) {
        walk_rel(m, c->where, fb);
        condition(m, &c->where->u.filter.pred, "WHERE", fb);
        const SqExpr *p = c->where->u.filter.pred;
        if (p->kind != SQX_BINARY || p->op != AST_OP_AND) {
            SqMutation mu = mut_begin(SQ_MUT_DROP_CONJUNCT, mut_span(p, fb), "WHERE dropped");
            mut_patch_ptr(&mu, c->where_slot, c->where->input);
            mut_add(m, &mu);
        }
    }
    if (c->agg) walk_rel(m, c->agg, fb);
    if (c->having) { /* its only conjunct dropped is SQ_MUT_HAVING */
        walk_rel(m, c->having, fb);
        condition(m, &c->having->u.filter.pred, "HAVING", fb);
    }
    walk_rel(m, c->project, fb);
}
