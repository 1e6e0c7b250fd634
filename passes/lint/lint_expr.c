/*
** lint_expr.c -- the rules that look at one expression at a time.
**
** Layer: passes.  Every expression of a core is walked once, top down,
** knowing its clause and whether its value is read as a condition (the
** root of WHERE, HAVING, ON and FILTER, the operands of AND, OR and NOT,
** a searched CASE's WHEN, IIF's first argument).  Rules:
**
**   string-as-boolean   a condition that is a string, blob or a number
**                       other than 0 and 1, or a TEXT expression: SQLite
**                       reads its numeric prefix ('+-' is 0, false)
**   compare-null        = NULL, <> NULL, < NULL ..., IN (..., NULL),
**                       CASE x WHEN NULL: never true
**   dq-string-literal   "x" that named no column and became a string; or
**                       a column compared with a string that is the name
**                       of a column in scope ('T2.name')
**   not-in-nullable     NOT IN (subquery) whose column can be NULL: one
**                       NULL makes it never true
**   count-case-else-nonnull  COUNT(CASE ... ELSE 0 END), COUNT(IIF(c, 1, 0))
**   integer-division    INTEGER / INTEGER with a divisor that is not a
**                       constant: a ratio, truncated
**   affinity-mismatch   TEXT against a number with no conversion (never
**                       equal), a TEXT column ordered against a number
**                       (compared as text), an INTEGER or REAL column
**                       against a string that is not a number
**   and-or-precedence   OR with an operand that is an AND written without
**                       parentheses
**   numeric-text-order  a TEXT column ordered against a string that looks
**                       like a number ('9' > '10'); with a database, also
**                       ORDER BY, MIN and MAX of TEXT columns whose values
**                       look numeric (a probe)
** and, with a database, probes for literal-not-in-column.
*/
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "passes/lint/lint_int.h"

typedef enum Clause { C_WHERE, C_HAVING, C_ON, C_SELECT, C_GROUP, C_AGG, C_FILTER, C_OTHER } Clause;

typedef struct ExprWalk {
    LintCore *k;
    SqLint *l;
    Clause clause;
} ExprWalk;

static const char *text(const ExprWalk *w, const SqExpr *e) { return sq_lint_text(w->l, e->span); }

/* ------------------------------------------------------------------ */
/* string-as-boolean                                                   */
/* ------------------------------------------------------------------ */

static int boolean_valued(const SqExpr *e) {
    switch ((SqExprKind)e->kind) {
    case SQX_BINARY: return ast_op_is_comparison(e->op) || e->op == AST_OP_AND || e->op == AST_OP_OR;
    case SQX_UNARY: return e->op == AST_OP_NOT;
    case SQX_IS: case SQX_ISNULL: case SQX_LIKE: case SQX_BETWEEN: case SQX_IN_LIST:
    case SQX_IN_SUBQUERY: case SQX_EXISTS:
        return 1;
    default: return 0;
    }
}

/* A sibling comparison "x op literal" under the same AND/OR, for help. */
static const SqExpr *compared_column(const SqExpr *parent, const SqExpr *e) {
    if (!parent || parent->kind != SQX_BINARY || parent->op != AST_OP_OR) return NULL;
    const SqExpr *sib = parent->u.bin.l == e ? parent->u.bin.r : parent->u.bin.l;
    if (sib->kind == SQX_BINARY && ast_op_is_comparison(sib->op) && sib->u.bin.r->kind == SQX_LITERAL)
        return sib;
    return NULL;
}

static void string_as_boolean(ExprWalk *w, SqExpr *e, const SqExpr *parent) {
    SqExpr *x = lint_strip(e);
    if (boolean_valued(x)) return;
    const char *role = !parent ? "the condition" : parent->kind == SQX_CASE ? "a WHEN condition"
                       : parent->kind == SQX_FUNC ? "IIF's condition"
                       : parent->kind == SQX_UNARY ? "NOT's operand"
                       : parent->op == AST_OP_OR ? "an OR operand" : "an AND operand";
    if (x->kind == SQX_UNARY && x->op == AST_OP_NEG && lint_strip(x->u.bin.l)->kind == SQX_LITERAL &&
        lint_strip(x->u.bin.l)->u.lit.vtype != SQ_VAL_TEXT) { /* -2: a number too */
        const SqExpr *lit = lint_strip(x->u.bin.l);
        int zero = lit->u.lit.vtype == SQ_VAL_INTEGER ? lit->u.lit.i == 0 : lit->u.lit.r == 0.0;
        sq_lint_report(w->l, LR_STRING_AS_BOOLEAN, x->span,
                       "%s is a number used as %s: SQLite reads it as %s, so it is always %s", text(w, x), role,
                       zero ? "the number 0" : "a nonzero number", zero ? "false" : "true");
        return;
    }
    SqDiag *g = NULL;
    if (x->kind == SQX_LITERAL) {
        const char *what;
        int truth;
        switch (x->u.lit.vtype) {
        case SQ_VAL_TEXT:
            what = "a string";
            truth = sq_text_number(x->u.lit.s, x->u.lit.n) != 0.0;
            break;
        case SQ_VAL_BLOB: what = "a blob"; truth = sq_text_number(x->u.lit.s, x->u.lit.n) != 0.0; break;
        case SQ_VAL_INTEGER:
            if (x->u.lit.i == 0 || x->u.lit.i == 1) return;
            what = "a number";
            truth = 1;
            break;
        case SQ_VAL_REAL:
            what = "a number";
            truth = x->u.lit.r != 0.0;
            break;
        default: return;
        }
        g = sq_lint_report(w->l, LR_STRING_AS_BOOLEAN, x->span,
                           "%s is %s used as %s: SQLite reads it as %s, so it is always %s",
                           text(w, x), what, role, truth ? "a nonzero number" : "the number 0",
                           truth ? "true" : "false");
    } else if (x->type.cls == SQ_TY_TEXT) {
        g = sq_lint_report(w->l, LR_STRING_AS_BOOLEAN, x->span,
                           "%s is TEXT used as %s: it is true only when its text starts with a "
                           "nonzero number",
                           text(w, x), role);
    }
    const SqExpr *sib = g ? compared_column(parent, e) : NULL;
    if (sib)
        sq_diag_help(g, "did you mean to compare it too, as in %s %s %s?",
                     text(w, sib->u.bin.l), ast_op_name((AstOp)sib->op), text(w, x));
}

/* ------------------------------------------------------------------ */
/* compare-null                                                        */
/* ------------------------------------------------------------------ */

static void compare_null(ExprWalk *w, SqExpr *e) {
    if (e->kind == SQX_BINARY && ast_op_is_comparison(e->op)) {
        SqExpr *l = lint_strip(e->u.bin.l), *r = lint_strip(e->u.bin.r);
        SqExpr *other = lint_is_literal(r, SQ_VAL_NULL) ? l : lint_is_literal(l, SQ_VAL_NULL) ? r
                                                                                              : NULL;
        if (!other) return;
        SqDiag *g = sq_lint_report(w->l, LR_COMPARE_NULL, e->span,
                                   "%s compares with NULL: the result is NULL, never true",
                                   text(w, e));
        if (g && (e->op == AST_OP_EQ || e->op == AST_OP_NE))
            sq_diag_help(g, "write %s IS %sNULL", text(w, other), e->op == AST_OP_NE ? "NOT " : "");
    } else if (e->kind == SQX_IN_LIST) {
        for (uint32_t i = 0; i < e->u.in.list.n; i++) {
            SqExpr *it = lint_strip(e->u.in.list.items[i]);
            if (!lint_is_literal(it, SQ_VAL_NULL)) continue;
            sq_lint_report(w->l, LR_COMPARE_NULL, it->span,
                           (e->flags & SQXF_NOT)
                               ? "NULL in a NOT IN list makes %s never true"
                               : "NULL in an IN list matches nothing: %s is never true through it",
                           text(w, e));
        }
    } else if (e->kind == SQX_CASE && e->u.cas.operand) {
        for (uint32_t i = 0; i < e->u.cas.n_arms; i++) {
            SqExpr *wh = lint_strip(e->u.cas.arms[i].when);
            if (lint_is_literal(wh, SQ_VAL_NULL))
                sq_lint_report(w->l, LR_COMPARE_NULL, wh->span,
                               "CASE %s WHEN NULL never matches: CASE compares with =",
                               text(w, e->u.cas.operand));
        }
    }
}

/* ------------------------------------------------------------------ */
/* dq-string-literal                                                   */
/* ------------------------------------------------------------------ */

/* A column of some item of the core named like s ("col" or "alias.col"). */
static const char *names_column(const ExprWalk *w, const char *s, uint32_t n) {
    const LintCore *k = w->k;
    const char *dot = memchr(s, '.', n);
    for (uint32_t i = 0; i < k->n_items; i++) {
        const IrRel *r = k->items[i].rel;
        const IrRel *out = r;
        const char *alias = w->l->alias[r->id];
        const char *col = s;
        uint32_t cn = n;
        if (dot) {
            size_t an = (size_t)(dot - s);
            if (!r->alias || strlen(r->alias) != an || strncasecmp(r->alias, s, an) != 0) continue;
            col = dot + 1;
            cn = n - (uint32_t)an - 1;
        }
        for (uint32_t j = 0; j < out->cols.n; j++) {
            const char *name = out->cols.items[j].name;
            if (name && strlen(name) == cn && strncasecmp(name, col, cn) == 0)
                return sq_arena_printf(w->l->q->arena, "%s.%s", alias, name);
        }
    }
    return NULL;
}

static void dq_string(ExprWalk *w, SqExpr *e) {
    if (e->kind == SQX_LITERAL && (e->flags & SQXF_DQ_STRING)) {
        sq_lint_report(w->l, LR_DQ_STRING, e->span,
                       "%s names no column, so SQLite reads it as the string '%.*s'",
                       text(w, e), (int)e->u.lit.n, e->u.lit.s);
        return;
    }
    if (e->kind != SQX_BINARY || !ast_op_is_comparison(e->op)) return;
    SqExpr *l = lint_strip(e->u.bin.l), *r = lint_strip(e->u.bin.r);
    SqExpr *lit = lint_is_literal(r, SQ_VAL_TEXT) && !(r->flags & SQXF_DQ_STRING) ? r
                  : lint_is_literal(l, SQ_VAL_TEXT) && !(l->flags & SQXF_DQ_STRING) ? l : NULL;
    SqExpr *col = lit == r ? l : r;
    if (!lit || col->kind != SQX_COLUMN || lit->u.lit.n == 0 || lit->u.lit.n > 128) return;
    /* 'T2.name' or 'first_name': the shapes of a column reference, not of data
    ** that happens to equal a column's name ('RA') */
    if (!memchr(lit->u.lit.s, '.', lit->u.lit.n) && !memchr(lit->u.lit.s, '_', lit->u.lit.n)) return;
    const char *name = names_column(w, lit->u.lit.s, lit->u.lit.n);
    if (name)
        sq_lint_report(w->l, LR_DQ_STRING, lit->span,
                       "%s is a string that names the column %s: %s compares with the text, "
                       "not the column",
                       text(w, lit), name, text(w, e));
}

/* ------------------------------------------------------------------ */
/* not-in-nullable, count-case-else-nonnull, integer-division          */
/* ------------------------------------------------------------------ */

static int same_ref(const SqExpr *col, const void *arg) {
    const SqExpr *x = arg;
    return col->u.col.rel == x->u.col.rel && col->u.col.col == x->u.col.col;
}

/* Whether the subquery's WHERE (or HAVING) rejects a NULL in its column:
** NOT IN (SELECT x FROM t WHERE x IS NOT NULL), or WHERE x > 0. */
static int where_rejects_null(IrRel *sub) {
    IrCore c;
    IrRel *top = sub;
    if (!ir_core_split(&top, &c) || !c.project || !c.project->u.project.exprs.n) return 0;
    const SqExpr *x = lint_strip(c.project->u.project.exprs.items[0]);
    if (x->kind != SQX_COLUMN) return 0;
    if (c.agg) { /* a GROUP BY key's expression; HAVING reads the key's output */
        int key = lint_key_ref(c.agg, x);
        if (key < 0) return 0;
        SqExpr out = *x;
        out.u.col.rel = c.agg->id;
        out.u.col.col = (uint32_t)key;
        if (c.having && lint_null_rejects(c.having->u.filter.pred, same_ref, &out)) return 1;
        x = lint_strip(c.agg->u.agg.items[key].expr);
        if (!x || x->kind != SQX_COLUMN) return 0;
    }
    return c.where && lint_null_rejects(c.where->u.filter.pred, same_ref, x);
}

static void not_in_nullable(ExprWalk *w, SqExpr *e) {
    if (e->kind != SQX_IN_SUBQUERY || !(e->flags & SQXF_NOT) || !e->u.sub.rel) return;
    const IrRel *out = ir_output_rel(e->u.sub.rel);
    if (!out || !out->cols.n || !out->cols.items[0].type.nullable) return;
    if (where_rejects_null(e->u.sub.rel)) return;
    sq_lint_report(w->l, LR_NOT_IN_NULLABLE, e->span,
                   "the subquery's column %s can be NULL, and one NULL there makes %s NOT IN "
                   "(...) true for no row",
                   out->cols.items[0].name ? out->cols.items[0].name : "?", text(w, e->u.sub.x));
}

static int is_nonnull_literal(const SqExpr *e) {
    e = lint_strip((SqExpr *)e);
    return e && e->kind == SQX_LITERAL && e->u.lit.vtype != SQ_VAL_NULL;
}

static int is_null_literal(const SqExpr *e) { return lint_is_literal(lint_strip((SqExpr *)e), SQ_VAL_NULL); }

/* COUNT(x) counts the rows where x is not NULL; a CASE or IIF whose
** fallback branch is a value (0, 'no') counts every row. */
static void count_case(ExprWalk *w, const SqAggItem *it) {
    if (!it->def || strcmp(it->def->name, "count") != 0 || it->args.n != 1) return;
    SqExpr *x = lint_strip(it->args.items[0]);
    const SqExpr *fallback = NULL;
    if (x->kind == SQX_CASE) {
        for (uint32_t i = 0; i < x->u.cas.n_arms; i++)
            if (is_null_literal(x->u.cas.arms[i].then)) return; /* counts the other rows */
        fallback = x->u.cas.else_;
    } else if (x->kind == SQX_FUNC && x->u.func.def && strcmp(x->u.func.def->name, "iif") == 0 &&
               x->u.func.args.n == 3) {
        if (is_null_literal(x->u.func.args.items[1])) return;
        fallback = x->u.func.args.items[2];
    }
    if (!fallback || !is_nonnull_literal(fallback)) return;
    if (it->distinct) /* the fallback is one more distinct value, not every row */
        sq_lint_report(w->l, LR_COUNT_CASE_ELSE, it->span,
                       "%s counts the fallback %s as one more value: COUNT skips only NULLs",
                       sq_lint_text(w->l, it->span), text(w, fallback));
    else
        sq_lint_report(w->l, LR_COUNT_CASE_ELSE, it->span,
                       "%s counts every row: COUNT skips only NULLs, and the fallback %s is not NULL",
                       sq_lint_text(w->l, it->span), text(w, fallback));
}

static void integer_division(ExprWalk *w, SqExpr *e, const SqExpr *parent) {
    if (e->kind != SQX_BINARY || e->op != AST_OP_DIV) return;
    if (e->u.bin.l->type.cls != SQ_TY_INTEGER || e->u.bin.r->type.cls != SQ_TY_INTEGER) return;
    if (lint_is_constant(w->k, e->u.bin.r)) return; /* x / 10: bucketing, not a ratio */
    if (parent && parent->kind == SQX_CAST && parent->u.cast.aff == SQ_AFF_INTEGER) return;
    if (w->clause == C_GROUP || w->clause == C_OTHER) return;
    sq_lint_report(w->l, LR_INTEGER_DIVISION, e->span,
                   "%s divides two integers: SQLite truncates the quotient (7 / 2 is 3)",
                   text(w, e));
}

/* ------------------------------------------------------------------ */
/* affinity-mismatch, numeric-text-order                               */
/* ------------------------------------------------------------------ */

static int numeric_class(uint8_t cls) {
    return cls == SQ_TY_INTEGER || cls == SQ_TY_REAL || cls == SQ_TY_NUMERIC;
}

static const char *class_word(uint8_t cls) { return sq_type_class_name((SqTypeClass)cls); }

static SqLintProbe *numeric_text_probe(ExprWalk *w, SqExpr *col, SrcSpan at);

/* x compared (op) with y, in either order; at is the comparison. */
static void affinity_pair(ExprWalk *w, const SqExpr *at, uint8_t op, SqExpr *x, SqExpr *y) {
    x = lint_strip(x);
    y = lint_strip(y);
    /* 1. no affinity on either side: no conversion, TEXT never equals a number */
    if (x->type.aff == SQ_AFF_BLOB && y->type.aff == SQ_AFF_BLOB && x->type.cls == SQ_TY_TEXT &&
        numeric_class(y->type.cls) && y->kind == SQX_LITERAL) {
        sq_lint_report(w->l, LR_AFFINITY_MISMATCH, at->span,
                       "%s compares %s, which is TEXT, with the %s %s: SQLite converts neither "
                       "side, and TEXT %s",
                       text(w, at), text(w, x), class_word(y->type.cls), text(w, y),
                       op == AST_OP_EQ || op == AST_OP_NE ? "never equals a number"
                                                          : "sorts after every number");
        return;
    }
    /* 2. a TEXT column ordered against a number: compared as text; with a
    ** database, only when its numbers have other lengths than the number */
    if (x->type.aff == SQ_AFF_TEXT && x->kind == SQX_COLUMN && ast_op_is_ordering(op) &&
        y->kind == SQX_LITERAL && (y->u.lit.vtype == SQ_VAL_INTEGER || y->u.lit.vtype == SQ_VAL_REAL)) {
        const char *msg = sq_arena_printf(w->l->q->arena,
                                          "%s: %s has TEXT affinity, so %s is compared as the text "
                                          "'%s' ('10' < '9')",
                                          text(w, at), text(w, x), text(w, y), text(w, y));
        SqLintProbe *p = numeric_text_probe(w, x, at->span);
        if (p) {
            p->rule = LR_AFFINITY_MISMATCH;
            p->msg = msg;
            p->lit = y;
        } else if (!w->l->with_data) {
            sq_lint_report(w->l, LR_AFFINITY_MISMATCH, at->span, "%s", msg);
        }
        return;
    }
    /* 3. an INTEGER or REAL column against a string that is no number */
    if ((x->type.aff == SQ_AFF_INTEGER || x->type.aff == SQ_AFF_REAL) && x->kind == SQX_COLUMN &&
        lint_is_literal(y, SQ_VAL_TEXT) && !(y->flags & SQXF_DQ_STRING) &&
        !sq_text_is_number(y->u.lit.s, y->u.lit.n)) {
        sq_lint_report(w->l, LR_AFFINITY_MISMATCH, at->span,
                       "%s: %s has %s affinity and %s is not a number, so it stays TEXT, which "
                       "%s",
                       text(w, at), text(w, x), sq_affinity_name((SqAffinity)x->type.aff),
                       text(w, y),
                       op == AST_OP_EQ || op == AST_OP_NE ? "no number stored there equals"
                                                          : "sorts after every number");
    }
}

/* A TEXT column between two number-like strings of different lengths
** (BETWEEN '2' AND '10'): as text no value is in range the way numbers
** are.  Without a database that is all the schema shows; with one, the
** column's values decide (a probe). */
static void numeric_text_between(ExprWalk *w, SqExpr *e) {
    if (w->l->with_data || e->kind != SQX_BETWEEN || (e->flags & SQXF_NOT)) return;
    SqExpr *x = lint_strip(e->u.between.x), *lo = lint_strip(e->u.between.lo),
           *hi = lint_strip(e->u.between.hi);
    if (x->kind != SQX_COLUMN || x->type.aff != SQ_AFF_TEXT || !lint_is_literal(lo, SQ_VAL_TEXT) ||
        !lint_is_literal(hi, SQ_VAL_TEXT) || !sq_text_is_number(lo->u.lit.s, lo->u.lit.n) ||
        !sq_text_is_number(hi->u.lit.s, hi->u.lit.n))
        return;
    int a = sq_text_integer_digits(lo->u.lit.s, lo->u.lit.n), b = sq_text_integer_digits(hi->u.lit.s, hi->u.lit.n);
    if (a == b && a >= 0) return;
    sq_lint_report(w->l, LR_NUMERIC_TEXT_ORDER, e->span,
                   "%s compares %s as text with number-like strings of different lengths: as "
                   "text '10' < '9'",
                   text(w, e), text(w, x));
}

typedef void (*PairFn)(ExprWalk *w, const SqExpr *at, uint8_t op, SqExpr *x, SqExpr *y);

/* Call fn on each pair a comparison makes, each way round. */
static void comparison_pairs(ExprWalk *w, SqExpr *e, PairFn fn) {
    if (e->kind == SQX_BINARY && ast_op_is_comparison(e->op)) {
        fn(w, e, e->op, e->u.bin.l, e->u.bin.r);
        fn(w, e, e->op, e->u.bin.r, e->u.bin.l);
    } else if (e->kind == SQX_BETWEEN) {
        fn(w, e, AST_OP_GE, e->u.between.x, e->u.between.lo);
        fn(w, e, AST_OP_LE, e->u.between.x, e->u.between.hi);
    } else if (e->kind == SQX_IN_LIST) {
        for (uint32_t i = 0; i < e->u.in.list.n; i++) fn(w, e, AST_OP_EQ, e->u.in.x, e->u.in.list.items[i]);
    }
}

/* ------------------------------------------------------------------ */
/* Probes for the database                                             */
/* ------------------------------------------------------------------ */

/* A probe of a TEXT column's values; NULL without a database (or when
** the column is not a table's). */
static SqLintProbe *numeric_text_probe(ExprWalk *w, SqExpr *col, SrcSpan at) {
    int32_t c;
    col = lint_strip(col);
    if (!w->l->with_data || col->kind != SQX_COLUMN || col->type.aff != SQ_AFF_TEXT) return NULL;
    const CatTable *t = lint_table_column(w->l, col, &c);
    if (!t || c < 0 || t->is_view) return NULL;
    SqLintProbe *p = sq_lint_probe(w->l, SQ_PROBE_NUMERIC_TEXT, at);
    p->what = text(w, col);
    p->table = t;
    p->col = c;
    p->rule = LR_NUMERIC_TEXT_ORDER;
    return p;
}

static void literal_probe_pair(ExprWalk *w, const SqExpr *at, uint8_t op, SqExpr *x, SqExpr *y) {
    int32_t c;
    SqExpr *cx = lint_strip(x);
    /* the comparison's collation: the left operand's COLLATE, else the right's */
    const SqExpr *coll = x->kind == SQX_COLLATE ? x : y->kind == SQX_COLLATE ? y : NULL;
    y = lint_strip(y);
    if (op != AST_OP_EQ && op != AST_OP_NE) return;
    if (cx->kind != SQX_COLUMN || !lint_is_literal(y, SQ_VAL_TEXT) || (y->flags & SQXF_DQ_STRING))
        return;
    const CatTable *t = lint_table_column(w->l, cx, &c);
    if (!t || c < 0 || t->is_view) return;
    if (cx->type.aff != SQ_AFF_TEXT && cx->type.aff != SQ_AFF_BLOB &&
        sq_text_is_number(y->u.lit.s, y->u.lit.n))
        return; /* a number: compared as one */
    SqLintProbe *p = sq_lint_probe(w->l, SQ_PROBE_LITERAL, y->span);
    p->what = text(w, at);
    p->table = t;
    p->col = c;
    p->lit = y;
    if (coll) p->collation = coll->u.collate.name;
}

static int is_number_literal(SqExpr *e) {
    e = lint_strip(e);
    if (e && e->kind == SQX_UNARY && e->op == AST_OP_NEG) e = lint_strip(e->u.bin.l);
    return lint_is_literal(e, SQ_VAL_INTEGER) || lint_is_literal(e, SQ_VAL_REAL);
}

static void probes(ExprWalk *w, SqExpr *e) {
    if (!w->l->with_data) return;
    /* against a number, affinity-mismatch already says it compares as text */
    if (e->kind == SQX_BINARY && ast_op_is_ordering(e->op)) {
        if (!is_number_literal(e->u.bin.r)) numeric_text_probe(w, e->u.bin.l, e->span);
        if (!is_number_literal(e->u.bin.l)) numeric_text_probe(w, e->u.bin.r, e->span);
    } else if (e->kind == SQX_BETWEEN && !is_number_literal(e->u.between.lo)) {
        numeric_text_probe(w, e->u.between.x, e->span);
    }
    if (sq_lint_enabled(w->l, LR_LITERAL_NOT_IN_COLUMN) &&
        ((e->kind == SQX_BINARY && (e->op == AST_OP_EQ || e->op == AST_OP_NE)) ||
         e->kind == SQX_IN_LIST))
        comparison_pairs(w, e, literal_probe_pair);
}

/* ------------------------------------------------------------------ */
/* The walk                                                            */
/* ------------------------------------------------------------------ */

static void and_or_precedence(ExprWalk *w, SqExpr *e) {
    if (e->kind != SQX_BINARY || e->op != AST_OP_OR) return;
    SqExpr *side[2] = {e->u.bin.l, e->u.bin.r};
    for (int i = 0; i < 2; i++)
        if (side[i]->kind == SQX_BINARY && side[i]->op == AST_OP_AND &&
            !(side[i]->flags & SQXF_PAREN)) {
            sq_lint_report(w->l, LR_AND_OR_PRECEDENCE, e->span,
                           i == 0 ? "%s mixes AND and OR without parentheses: it means (%s) OR ..."
                                  : "%s mixes AND and OR without parentheses: it means ... OR (%s)",
                           text(w, e), text(w, side[i]));
            return;
        }
}

static void node_rules(ExprWalk *w, SqExpr *e, const SqExpr *parent, int boolean) {
    if (boolean) string_as_boolean(w, e, parent);
    compare_null(w, e);
    dq_string(w, e);
    not_in_nullable(w, e);
    integer_division(w, e, parent);
    comparison_pairs(w, e, affinity_pair);
    numeric_text_between(w, e);
    and_or_precedence(w, e);
    probes(w, e);
}

static void walk(ExprWalk *w, SqExpr *e, const SqExpr *parent, int boolean);

typedef struct ChildCtx {
    ExprWalk *w;
    SqExpr *parent;
    uint32_t index;
} ChildCtx;

/* Whether child number i of e is read as a condition. */
static int child_is_condition(const SqExpr *e, uint32_t i) {
    switch ((SqExprKind)e->kind) {
    case SQX_BINARY: return e->op == AST_OP_AND || e->op == AST_OP_OR;
    case SQX_UNARY: return e->op == AST_OP_NOT;
    case SQX_CASE: return !e->u.cas.operand && i % 2 == 0 && i / 2 < e->u.cas.n_arms;
    case SQX_FUNC:
        return i == 0 && e->u.func.def && strcmp(e->u.func.def->name, "iif") == 0;
    default: return 0;
    }
}

static int walk_child(SqExpr **slot, void *arg) {
    ChildCtx *c = arg;
    walk(c->w, *slot, c->parent, child_is_condition(c->parent, c->index++));
    return 0;
}

static void walk(ExprWalk *w, SqExpr *e, const SqExpr *parent, int boolean) {
    if (!e) return;
    node_rules(w, e, parent, boolean);
    ChildCtx c = {w, e, 0};
    sq_expr_each_child(e, walk_child, &c);
}

static void walk_root(ExprWalk *w, SqExpr *e, Clause clause, int boolean) {
    w->clause = clause;
    walk(w, e, NULL, boolean);
}

static void walk_from(ExprWalk *w, IrRel *r) {
    if (r->kind != IR_JOIN) return;
    walk_from(w, r->u.join.left);
    walk_from(w, r->u.join.right);
    if (r->u.join.cond) walk_root(w, r->u.join.cond, C_ON, 1);
}

static void walk_agg(ExprWalk *w, const IrRel *agg) {
    for (uint32_t i = 0; i < agg->u.agg.n_items; i++) {
        SqAggItem *it = &agg->u.agg.items[i];
        if (it->kind == SQ_AGG_KEY) walk_root(w, it->expr, C_GROUP, 0);
        for (uint32_t j = 0; j < it->args.n; j++) walk_root(w, it->args.items[j], C_AGG, 0);
        if (it->filter) walk_root(w, it->filter, C_FILTER, 1);
        if (it->kind != SQ_AGG_CALL || !it->def) continue;
        count_case(w, it);
        if (it->args.n == 1 && (strcmp(it->def->name, "min") == 0 || strcmp(it->def->name, "max") == 0))
            numeric_text_probe(w, it->args.items[0], it->span);
    }
}

/* ORDER BY keys name result columns; the column behind each is probed. */
static void probe_sort(ExprWalk *w, const IrCore *c) {
    if (!c->sort || !c->project) return;
    for (uint32_t i = 0; i < c->sort->u.sort.n_keys; i++) {
        const SqExpr *k = c->sort->u.sort.keys[i].expr;
        if (k->kind != SQX_COLUMN || k->u.col.rel != c->project->id ||
            k->u.col.col >= c->project->u.project.exprs.n)
            continue;
        SqExpr *x = c->project->u.project.exprs.items[k->u.col.col];
        numeric_text_probe(w, x, x->span);
    }
}

void lint_exprs(LintCore *k) {
    ExprWalk w = {k, k->l, C_OTHER};
    const IrCore *c = k->c;
    walk_from(&w, c->from);
    if (c->where) walk_root(&w, c->where->u.filter.pred, C_WHERE, 1);
    if (c->agg) walk_agg(&w, c->agg);
    if (c->having) walk_root(&w, c->having->u.filter.pred, C_HAVING, 1);
    if (c->project)
        for (uint32_t i = 0; i < c->project->u.project.exprs.n; i++)
            walk_root(&w, c->project->u.project.exprs.items[i], C_SELECT, 0);
    probe_sort(&w, c);
}
