/*
** lint_range.c -- unsat-or-tautology: conditions that are always false or
** always true, and bounds that another bound implies.
**
** Layer: passes.  Cheap interval reasoning, exact under SQLite's rules.
** For each list of conjuncts (WHERE, HAVING, each ON, each branch of an
** OR) the comparisons of one expression with constants -- =, <>, <, <=,
** >, >=, BETWEEN, IN (list) -- are gathered per expression and
** intersected.  Constants are first converted as SQLite's affinity rules
** convert them for the comparison (a number against a TEXT column becomes
** text; a number-like string against a numeric column becomes a number),
** and values are ordered as SQLite orders storage classes (numbers before
** text); text is compared only under BINARY collation.  Findings:
**   - bounds with no value between them (x > 10 AND x < 5, x = 'a' AND
**     x = 'b', BETWEEN 400 AND 100): never true;
**   - a bound implied by another (x > 3 next to x > 5): redundant;
**   - a comparison of two constants (1 = 1, 1 = 0): always true or false.
** The z3-backed version (issue 6) will replace the per-expression view.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "passes/lint/lint_int.h"

/* A constant as the comparison sees it. */
typedef struct Val {
    uint8_t is_text;
    double num;
    const char *s;
    uint32_t n;
} Val;

static int val_cmp(const Val *a, const Val *b) {
    if (a->is_text != b->is_text) return a->is_text ? 1 : -1; /* numbers sort first */
    if (!a->is_text) return a->num < b->num ? -1 : a->num > b->num;
    uint32_t m = a->n < b->n ? a->n : b->n;
    int c = memcmp(a->s, b->s, m);
    return c ? c : (a->n > b->n) - (a->n < b->n);
}

/* One bound of an expression, from the conjunct cond. */
typedef struct Bound {
    Val v;
    uint8_t incl;
    const SqExpr *cond;
} Bound;

/* What the conjuncts say about one expression. */
typedef struct Range {
    const SqExpr *x;
    Bound lo, hi, eq;
    uint8_t has_lo, has_hi, has_eq;
    uint8_t done;       /* a finding was made: stop */
} Range;

typedef struct RangeCtx {
    LintCore *k;
    Range *ranges;
    uint32_t n, cap;
} RangeCtx;

/* ------------------------------------------------------------------ */
/* Constants                                                           */
/* ------------------------------------------------------------------ */

static int literal_value(const SqExpr *e, Val *v, SqArena *a) {
    int neg = 0;
    e = lint_strip((SqExpr *)e);
    if (e && e->kind == SQX_UNARY && e->op == AST_OP_NEG) {
        neg = 1;
        e = lint_strip(e->u.bin.l);
    }
    if (!e || e->kind != SQX_LITERAL) return 0;
    memset(v, 0, sizeof *v);
    switch (e->u.lit.vtype) {
    case SQ_VAL_INTEGER: v->num = (double)e->u.lit.i; break;
    case SQ_VAL_REAL: v->num = e->u.lit.r; break;
    case SQ_VAL_TEXT:
        if (neg) return 0;
        v->is_text = 1;
        v->s = e->u.lit.s;
        v->n = e->u.lit.n;
        return 1;
    default: return 0;
    }
    if (neg) v->num = -v->num;
    (void)a;
    return 1;
}

/* Whether the whole of s is a number, and its value. */
static int text_to_number(const char *s, uint32_t n, double *out) {
    char buf[64];
    if (!n || n >= sizeof buf) return 0;
    memcpy(buf, s, n);
    buf[n] = 0;
    char *end;
    double d = strtod(buf, &end);
    while (*end == ' ') end++;
    if (*end || end == buf || isnan(d) || isinf(d) || strpbrk(buf, "xXnNiI")) return 0;
    *out = d;
    return 1;
}

/* Convert a constant as the comparison with x converts it; 0 when the
** comparison is not one this analysis can order exactly. */
static int convert_for(const LintCore *k, const SqExpr *x, Val *v) {
    const SqExpr *s = x;
    int32_t col;
    if (s->kind == SQX_COLLATE) {
        if (strcasecmp(s->u.collate.name, "binary") != 0) return !v->is_text ? 1 : 0;
        s = lint_strip((SqExpr *)s);
    }
    const CatTable *t = lint_table_column(k->l, s, &col);
    if (t && col >= 0 && t->cols[col].collation && strcasecmp(t->cols[col].collation, "binary") != 0 &&
        v->is_text && x->kind != SQX_COLLATE)
        return 0;
    switch (x->type.aff) {
    case SQ_AFF_TEXT:
        if (!v->is_text) {
            char buf[40];
            double d = v->num;
            if (d == floor(d) && fabs(d) < 1e15) snprintf(buf, sizeof buf, "%lld", (long long)d);
            else snprintf(buf, sizeof buf, "%.15g", d);
            v->is_text = 1;
            v->s = sq_arena_strdup(k->l->q->arena, buf);
            v->n = (uint32_t)strlen(buf);
        }
        return 1;
    case SQ_AFF_INTEGER: case SQ_AFF_REAL: case SQ_AFF_NUMERIC:
        if (v->is_text) {
            double d;
            if (text_to_number(v->s, v->n, &d)) {
                v->is_text = 0;
                v->num = d;
            }
        }
        return 1;
    default: return 1; /* no affinity: compared as they are */
    }
}

/* ------------------------------------------------------------------ */
/* Gathering bounds                                                    */
/* ------------------------------------------------------------------ */

static Range *range_of(RangeCtx *rc, const SqExpr *x) {
    for (uint32_t i = 0; i < rc->n; i++)
        if (sq_expr_equal(rc->ranges[i].x, x)) return &rc->ranges[i];
    Range *r = SQ_ARENA_APPEND(rc->k->l->q->arena, rc->ranges, rc->n, rc->cap);
    memset(r, 0, sizeof *r);
    r->x = x;
    return r;
}

static const char *cond_text(RangeCtx *rc, const SqExpr *c) { return sq_lint_text(rc->k->l, c->span); }

static void never(RangeCtx *rc, Range *r, const SqExpr *a, const SqExpr *b) {
    r->done = 1;
    if (a == b)
        sq_lint_report(rc->k->l, LR_UNSAT_TAUTOLOGY, b->span, "%s is never true: its bounds are "
                       "the wrong way round", cond_text(rc, b));
    else
        sq_lint_report(rc->k->l, LR_UNSAT_TAUTOLOGY, b->span,
                       "%s can never hold together with %s: no value satisfies both",
                       cond_text(rc, b), cond_text(rc, a));
}

static void implied(RangeCtx *rc, const SqExpr *weaker, const SqExpr *by) {
    if (weaker == by) return;
    sq_lint_report(rc->k->l, LR_UNSAT_TAUTOLOGY, weaker->span,
                   "redundant condition: %s follows from %s", cond_text(rc, weaker),
                   cond_text(rc, by));
}

/* Add a lower (is_lo) or upper bound. */
static void add_bound(RangeCtx *rc, Range *r, int is_lo, Val v, int incl, const SqExpr *cond) {
    if (r->done) return;
    Bound nb = {v, (uint8_t)incl, cond};
    Bound *cur = is_lo ? &r->lo : &r->hi;
    uint8_t *has = is_lo ? &r->has_lo : &r->has_hi;
    if (r->has_eq) {
        int c = val_cmp(&r->eq.v, &v);
        int ok = is_lo ? (c > 0 || (c == 0 && incl)) : (c < 0 || (c == 0 && incl));
        if (!ok) never(rc, r, r->eq.cond, cond);
        else implied(rc, cond, r->eq.cond);
        return;
    }
    if (*has) {
        int c = val_cmp(&v, &cur->v);
        int tighter = is_lo ? (c > 0 || (c == 0 && !incl && cur->incl))
                            : (c < 0 || (c == 0 && !incl && cur->incl));
        if (!tighter) {
            implied(rc, cond, cur->cond);
            return;
        }
        implied(rc, cur->cond, cond);
    }
    *cur = nb;
    *has = 1;
    if (r->has_lo && r->has_hi) {
        int c = val_cmp(&r->lo.v, &r->hi.v);
        if (c > 0 || (c == 0 && !(r->lo.incl && r->hi.incl))) never(rc, r, is_lo ? r->hi.cond : r->lo.cond, cond);
    }
}

static void add_eq(RangeCtx *rc, Range *r, Val v, const SqExpr *cond) {
    if (r->done) return;
    if (r->has_eq) {
        if (val_cmp(&r->eq.v, &v) != 0) never(rc, r, r->eq.cond, cond);
        else implied(rc, cond, r->eq.cond);
        return;
    }
    Bound *b[2] = {r->has_lo ? &r->lo : NULL, r->has_hi ? &r->hi : NULL};
    for (int i = 0; i < 2; i++) {
        if (!b[i]) continue;
        int c = val_cmp(&v, &b[i]->v);
        int ok = i == 0 ? (c > 0 || (c == 0 && b[i]->incl)) : (c < 0 || (c == 0 && b[i]->incl));
        if (!ok) {
            never(rc, r, b[i]->cond, cond);
            return;
        }
    }
    r->eq.v = v;
    r->eq.cond = cond;
    r->has_eq = 1;
    for (int i = 0; i < 2; i++)
        if (b[i]) implied(rc, b[i]->cond, cond);
}

static void comparison(RangeCtx *rc, const SqExpr *cond, uint8_t op, SqExpr *x, SqExpr *c) {
    Val v;
    if (lint_is_constant(rc->k, x) || !literal_value(c, &v, NULL) || !convert_for(rc->k, x, &v))
        return;
    Range *r = range_of(rc, lint_strip(x));
    switch (op) {
    case AST_OP_EQ: add_eq(rc, r, v, cond); break;
    case AST_OP_GT: add_bound(rc, r, 1, v, 0, cond); break;
    case AST_OP_GE: add_bound(rc, r, 1, v, 1, cond); break;
    case AST_OP_LT: add_bound(rc, r, 0, v, 0, cond); break;
    case AST_OP_LE: add_bound(rc, r, 0, v, 1, cond); break;
    default: break;
    }
}

/* x BETWEEN lo AND hi with constant bounds. */
static void between(RangeCtx *rc, const SqExpr *cond) {
    Val lo, hi;
    SqExpr *x = cond->u.between.x;
    if (lint_is_constant(rc->k, x) || !literal_value(cond->u.between.lo, &lo, NULL) ||
        !literal_value(cond->u.between.hi, &hi, NULL) || !convert_for(rc->k, x, &lo) ||
        !convert_for(rc->k, x, &hi))
        return;
    Range *r = range_of(rc, lint_strip(x));
    if (val_cmp(&lo, &hi) > 0) {
        never(rc, r, cond, cond);
        return;
    }
    add_bound(rc, r, 1, lo, 1, cond);
    add_bound(rc, r, 0, hi, 1, cond);
}

/* A comparison of two constants. */
static void constant_comparison(RangeCtx *rc, const SqExpr *cond) {
    Val a, b;
    if (!literal_value(cond->u.bin.l, &a, NULL) || !literal_value(cond->u.bin.r, &b, NULL)) return;
    if (a.is_text != b.is_text) return; /* affinity of literals: none; left to affinity-mismatch */
    int c = val_cmp(&a, &b), res;
    switch (cond->op) {
    case AST_OP_EQ: res = c == 0; break;
    case AST_OP_NE: res = c != 0; break;
    case AST_OP_LT: res = c < 0; break;
    case AST_OP_LE: res = c <= 0; break;
    case AST_OP_GT: res = c > 0; break;
    case AST_OP_GE: res = c >= 0; break;
    default: return;
    }
    sq_lint_report(rc->k->l, LR_UNSAT_TAUTOLOGY, cond->span, "%s compares two constants: it is "
                   "always %s", cond_text(rc, cond), res ? "true" : "false");
}

static void conjunction(LintCore *k, SqExpr *e);

static void conjunct(RangeCtx *rc, SqExpr *e) {
    if (e->kind == SQX_BINARY && e->op == AST_OP_OR) {
        conjunction(rc->k, e->u.bin.l); /* each branch on its own */
        conjunction(rc->k, e->u.bin.r);
        return;
    }
    if (e->kind == SQX_BETWEEN && !(e->flags & SQXF_NOT)) {
        between(rc, e);
        return;
    }
    if (e->kind != SQX_BINARY) return;
    switch (e->op) {
    case AST_OP_EQ: case AST_OP_LT: case AST_OP_LE: case AST_OP_GT: case AST_OP_GE:
    case AST_OP_NE:
        if (lint_is_constant(rc->k, e->u.bin.l) && lint_is_constant(rc->k, e->u.bin.r)) {
            constant_comparison(rc, e);
            return;
        }
        if (e->op == AST_OP_NE) return;
        comparison(rc, e, e->op, e->u.bin.l, e->u.bin.r);
        comparison(rc, e, ast_op_flip((AstOp)e->op), e->u.bin.r, e->u.bin.l);
        break;
    default: break;
    }
}

/* Analyse the conjuncts of e together. */
static void conjunction(LintCore *k, SqExpr *e) {
    RangeCtx rc = {k, NULL, 0, 0};
    SqExprList l = {0};
    ir_conjuncts(k->l->q->arena, e, &l);
    for (uint32_t i = 0; i < l.n; i++) conjunct(&rc, l.items[i]);
}

void lint_ranges(LintCore *k) {
    const IrCore *c = k->c;
    if (!sq_lint_enabled(k->l, LR_UNSAT_TAUTOLOGY)) return;
    if (c->where) conjunction(k, c->where->u.filter.pred);
    if (c->having) conjunction(k, c->having->u.filter.pred);
    for (uint32_t i = 0; i < k->n_items; i++)
        if (k->items[i].join && k->items[i].join->u.join.cond)
            conjunction(k, k->items[i].join->u.join.cond);
}
