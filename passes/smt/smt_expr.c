/*
** smt_expr.c -- scalar expressions of the IR as symbolic values.
**
** Layer: passes.  An expression is evaluated in one symbolic row (and the
** outer rows of a correlated subquery).  Comparisons apply SQLite's
** affinity rules first (datatype3.html, 4.2): a number meets a TEXT
** column's string by its text, a string meets a numeric column as the
** number it spells.  Those conversions are done here only for literals,
** whose text is known; a column converted to the other class is refused
** until the string theory lowering (issue 7) can say what its text is.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "passes/smt/smt_int.h"

/* ---- columns ------------------------------------------------------------ */

static const SmtBind *find_bind(const SmtRow *row, uint32_t rel) {
    for (uint32_t i = 0; row && i < row->n_binds; i++)
        if (row->binds[i].rel == rel) return &row->binds[i];
    return NULL;
}

SmtVal smt_column(SqSmt *s, SqColRef ref, const SmtRow *row, const SmtEnv *env, SrcSpan at) {
    const SmtBind *b = find_bind(row, ref.rel);
    for (const SmtEnv *e = env; !b && e; e = e->up) b = find_bind(e->row, ref.rel);
    if (!b || ref.col >= b->n) smt_unsupported(s, at, "a column this lowering cannot place");
    return b->cells[ref.col];
}

/* ---- literals ------------------------------------------------------------- */

/* A double as an exact rational (a power of two below it). */
Z3_ast smt_real_const(SqSmt *s, double d, SrcSpan at) {
    if (!isfinite(d)) smt_unsupported(s, at, "an infinite REAL");
    int e;
    double m = frexp(d, &e); /* d = m * 2^e, 0.5 <= |m| < 1 */
    int64_t num = (int64_t)ldexp(m, 53);
    e -= 53;
    while (e < 0 && (num & 1) == 0) {
        num >>= 1;
        e++;
    }
    if (e >= 0) {
        if (e > 9 || llabs(num) > (INT64_MAX >> e)) smt_unsupported(s, at, "a REAL this large");
        return smt_real(s, num * ((int64_t)1 << e), 1); /* num may be negative: no shift */
    }
    if (e < -62) smt_unsupported(s, at, "a REAL this small");
    return smt_real(s, num, (int64_t)1 << -e);
}

static SmtVal literal(SqSmt *s, const SqExpr *e) {
    switch (e->u.lit.vtype) {
    case SQ_VAL_NULL: return smt_null(s);
    case SQ_VAL_INTEGER: return smt_val(s, SMT_INT, smt_false(s), smt_int(s, e->u.lit.i));
    case SQ_VAL_REAL: return smt_val(s, SMT_REAL, smt_false(s), smt_real_const(s, e->u.lit.r, e->span));
    case SQ_VAL_TEXT:
        return smt_val(s, SMT_TEXT, smt_false(s), smt_str_lit(s, e->u.lit.s, e->u.lit.n));
    default: smt_unsupported(s, e->span, "a BLOB literal");
    }
}

/* ---- affinity --------------------------------------------------------------- */

/* A constant of the expression, when it is a literal (possibly negated). */
typedef struct Const {
    uint8_t vtype;
    int64_t i;
    double r;
    const char *s;
    uint32_t n;
} Const;

static int constant(const SqExpr *e, Const *c) {
    if (e->kind == SQX_LITERAL) {
        *c = (Const){e->u.lit.vtype, e->u.lit.i, e->u.lit.r, e->u.lit.s, e->u.lit.n};
        return 1;
    }
    if (e->kind == SQX_UNARY && e->op == AST_OP_NEG && constant(e->u.bin.l, c)) {
        if (c->vtype == SQ_VAL_INTEGER && c->i != INT64_MIN) c->i = -c->i;
        else if (c->vtype == SQ_VAL_REAL) c->r = -c->r;
        else return 0;
        return 1;
    }
    return 0;
}

int smt_numeric_aff(uint8_t aff) { return aff == SQ_AFF_INTEGER || aff == SQ_AFF_REAL || aff == SQ_AFF_NUMERIC; }

/* The affinity SQLite gives an expression in a comparison: a column's,
** a CAST's, none for the rest (SqType.aff holds it). */
static uint8_t expr_aff(const SqExpr *e) { return e->type.aff; }

/* Text that SQLite's NUMERIC affinity turns into a number: an integer or
** real literal with optional surrounding blanks. */
static int text_as_number(const char *str, uint32_t n, SmtVal *out, SqSmt *s, SrcSpan at) {
    char buf[64];
    size_t skip, len = sq_text_numeric_prefix(str, n, &skip);
    if (!sq_text_is_number(str, n) || len - skip >= sizeof buf) return 0;
    memcpy(buf, str + skip, len - skip); /* the numeral, blanks around it dropped */
    buf[len - skip] = 0;
    char *end;
    long long ll = strtoll(buf, &end, 10);
    if (*end == 0 && (buf[0] == '-' || buf[0] == '+' || (buf[0] >= '0' && buf[0] <= '9'))) {
        *out = smt_val(s, SMT_INT, smt_false(s), smt_int(s, ll));
        return 1;
    }
    double d = strtod(buf, &end);
    if (*end != 0 || !isfinite(d)) return 0;
    if (d == floor(d) && fabs(d) < 9.2e18) {
        *out = smt_val(s, SMT_INT, smt_false(s), smt_int(s, (int64_t)d));
        return 1;
    }
    *out = smt_val(s, SMT_REAL, smt_false(s), smt_real_const(s, d, at));
    return 1;
}

/* Apply NUMERIC affinity to the operand *v written as e: a literal's text
** is read here, exactly; other TEXT becomes the number it spells where it
** spells one (smt_apply_affinity). */
static void to_numeric(SqSmt *s, const SqExpr *e, SmtVal *v) {
    Const c;
    if (v->kind == SMT_TEXT && constant(e, &c) && c.vtype == SQ_VAL_TEXT) {
        text_as_number(c.s, c.n, v, s, e->span);
        return;
    }
    *v = smt_apply_affinity(s, *v, SQ_AFF_NUMERIC);
}

/* SQLite's affinity rules before a comparison of a and b (datatype3.html,
** 4.2): numeric affinity on the other operand when one side has it and the
** other not; TEXT affinity on an operand of none when the other has it. */
static void apply_affinity(SqSmt *s, const SqExpr *ea, SmtVal *a, const SqExpr *eb, SmtVal *b) {
    uint8_t fa = expr_aff(ea), fb = expr_aff(eb);
    if (smt_numeric_aff(fa) && !smt_numeric_aff(fb)) to_numeric(s, eb, b);
    else if (smt_numeric_aff(fb) && !smt_numeric_aff(fa)) to_numeric(s, ea, a);
    else if (fa == SQ_AFF_TEXT && fb == SQ_AFF_BLOB) *b = smt_apply_affinity(s, *b, SQ_AFF_TEXT);
    else if (fb == SQ_AFF_TEXT && fa == SQ_AFF_BLOB) *a = smt_apply_affinity(s, *a, SQ_AFF_TEXT);
}

/* Numeric affinity on TEXT t: the number it spells where it spells one
** (an INTEGER under INTEGER and NUMERIC affinity when it is integral, a
** REAL under REAL affinity), else t. */
static SmtVal spelled(SqSmt *s, SmtVal t, uint8_t aff) {
    SmtVal num = smt_text_read(s, t, SMT_READ_SPELLED);
    Z3_ast isint = aff == SQ_AFF_REAL ? smt_false(s) : Z3_mk_is_int(s->z, num.v);
    smt_count(s, 1);
    return smt_mix(s, t.null, smt_not(s, smt_text_spells_number(s, t)), t.v, num.v, isint);
}

SmtVal smt_apply_affinity(SqSmt *s, SmtVal v, uint8_t aff) {
    v = smt_as_number(s, v);
    if (smt_numeric_aff(aff) && v.notnum) return v; /* its text spells no number */
    if (smt_numeric_aff(aff)) {
        if (v.kind == SMT_TEXT) return spelled(s, v, aff);
        if (v.kind != SMT_MIX) return v;
        SmtVal t = spelled(s, smt_mix_text(s, v), aff);
        return smt_val_ite(s, v.istext, t, smt_mix_number(s, v), (SrcSpan){0});
    }
    if (aff == SQ_AFF_TEXT && v.kind != SMT_NULL) return smt_text_of(s, v);
    return v;
}

/* ea op eb, three-valued, affinities applied. */
static SmtVal compare_exprs(SqSmt *s, int op, const SqExpr *ea, SmtVal a, const SqExpr *eb, SmtVal b,
                            SrcSpan at) {
    apply_affinity(s, ea, &a, eb, &b);
    return smt_compare(s, op, a, b, at);
}

/* ---- logic -------------------------------------------------------------------- */

static SmtVal logic(SqSmt *s, int op, SmtVal a, SmtVal b, SrcSpan la, SrcSpan lb) {
    Z3_ast ta, fa, tb, fb;
    smt_truth(s, a, &ta, &fa, la);
    smt_truth(s, b, &tb, &fb, lb);
    if (op == AST_OP_AND) return smt_bool3(s, smt_and2(s, ta, tb), smt_or2(s, fa, fb));
    return smt_bool3(s, smt_or2(s, ta, tb), smt_and2(s, fa, fb));
}

static SmtVal negate_truth(SqSmt *s, SmtVal v, SrcSpan at) {
    Z3_ast t, f;
    smt_truth(s, v, &t, &f, at);
    return smt_bool3(s, f, t);
}

/* ---- subqueries and row values ------------------------------------------------- */

static SmtRel subquery(SqSmt *s, const SqExpr *e, const SmtRow *row, const SmtEnv *env) {
    SmtEnv inner = {row, env};
    if (!e->u.sub.rel) smt_unsupported(s, e->span, "a subquery with no IR");
    return smt_rel(s, e->u.sub.rel, &inner);
}

/* Column c of a subquery's result as an expression, for its affinity. */
static const SqExpr *subquery_column(SqSmt *s, const SqExpr *e, uint32_t c) {
    IrRel *out = ir_output_rel(e->u.sub.rel);
    SqExpr *col = sq_arena_alloc(s->arena, sizeof *col);
    memset(col, 0, sizeof *col);
    col->kind = SQX_COLUMN;
    col->span = e->span;
    if (out && c < out->cols.n) col->type = out->cols.items[c].type;
    return col;
}

/* Whether row i of r is the one a scalar subquery reads: the first. */
static Z3_ast first_row(SqSmt *s, SmtRel *r, uint32_t i) {
    if (r->pos) return smt_and2(s, r->rows[i].alive, smt_eq(s, r->pos[i], smt_int(s, 0)));
    Z3_ast c = r->rows[i].alive;
    for (uint32_t j = 0; j < i; j++) c = smt_and2(s, c, smt_not(s, r->rows[j].alive));
    return c;
}

/* The first row of a subquery (all NULL when it has none): its width,
** and its cells in *out. */
static uint32_t scalar_row(SqSmt *s, const SqExpr *e, const SmtRow *row, const SmtEnv *env, SmtVal **out) {
    SmtRel r = subquery(s, e, row, env);
    if (r.sort) smt_positions(s, &r);
    uint32_t nc = r.n_cols;
    SmtVal *v = sq_arena_alloc(s->arena, (nc + 1) * sizeof *v);
    for (uint32_t c = 0; c < nc; c++) v[c] = smt_null(s);
    Z3_ast *first = sq_arena_alloc(s->arena, (r.n + 1) * sizeof *first);
    for (uint32_t i = r.n; i-- > 0;) {
        first[i] = first_row(s, &r, i);
        for (uint32_t c = 0; c < nc; c++) v[c] = smt_val_ite(s, first[i], smt_out(&r, i)->cells[c], v[c], e->span);
    }
    /* SQLite reads the first row it produces; another row with other
    ** values could come first under another plan unless the order says. */
    for (uint32_t i = 0; i < r.n; i++)
        for (uint32_t j = 0; j < r.n; j++) {
            if (i == j) continue;
            Z3_ast same = smt_same_out(s, &r, i, &r, j);
            Z3_ast k[4] = {first[i], r.rows[j].alive, smt_sort_tie(s, &r, i, j), smt_not(s, same)};
            smt_add_tie_condition(s, smt_not(s, smt_and_n(s, k, 4)));
        }
    *out = v;
    return nc;
}

static SmtVal scalar(SqSmt *s, const SqExpr *e, const SmtRow *row, const SmtEnv *env) {
    SmtVal *v;
    if (scalar_row(s, e, row, env, &v) != 1) smt_unsupported(s, e->span, "a scalar subquery with more than one column");
    return v[0];
}

/* The values of a row value: a vector's elements, a subquery's first
** row, or one value; with the expressions whose affinities apply. */
typedef struct SmtParts {
    uint32_t n;
    SmtVal *v;
    const SqExpr **e;
} SmtParts;

static SmtParts parts(SqSmt *s, const SqExpr *x, const SmtRow *row, const SmtEnv *env) {
    SmtParts p = {1, NULL, NULL};
    if (x->kind == SQX_SUBQUERY) {
        p.n = scalar_row(s, x, row, env, &p.v);
        p.e = sq_arena_alloc(s->arena, (p.n + 1) * sizeof *p.e);
        for (uint32_t c = 0; c < p.n; c++) p.e[c] = subquery_column(s, x, c);
        return p;
    }
    if (x->kind == SQX_VECTOR) p.n = x->u.list.n;
    p.v = sq_arena_alloc(s->arena, (p.n + 1) * sizeof *p.v);
    p.e = sq_arena_alloc(s->arena, (p.n + 1) * sizeof *p.e);
    for (uint32_t c = 0; c < p.n; c++) {
        p.e[c] = x->kind == SQX_VECTOR ? x->u.list.items[c] : x;
        if (p.e[c]->kind == SQX_VECTOR) smt_unsupported(s, p.e[c]->span, "a row value inside a row value");
        p.v[c] = smt_expr(s, p.e[c], row, env);
    }
    return p;
}

/* a = b on row values: every part equal, three-valued (AND). */
static SmtVal rows_equal(SqSmt *s, const SmtParts *a, const SmtParts *b, SrcSpan at) {
    SmtVal r = compare_exprs(s, AST_OP_EQ, a->e[0], a->v[0], b->e[0], b->v[0], at);
    for (uint32_t k = 1; k < a->n; k++)
        r = logic(s, AST_OP_AND, r, compare_exprs(s, AST_OP_EQ, a->e[k], a->v[k], b->e[k], b->v[k], at), at, at);
    return r;
}

/* A comparison of row values: = and <> part by part; the others decided
** by the leftmost parts that differ, as a < c OR (a = c AND (b, ...) <
** (d, ...)), which is NULL where SQLite's is. */
static SmtVal compare_rows(SqSmt *s, const SqExpr *e, const SmtRow *row, const SmtEnv *env) {
    SmtParts a = parts(s, e->u.bin.l, row, env), b = parts(s, e->u.bin.r, row, env);
    if (a.n != b.n) smt_unsupported(s, e->span, "row values of different widths");
    if (e->op == AST_OP_EQ || e->op == AST_OP_NE) {
        SmtVal r = rows_equal(s, &a, &b, e->span);
        return e->op == AST_OP_NE ? negate_truth(s, r, e->span) : r;
    }
    int strict = e->op == AST_OP_LT || e->op == AST_OP_LE ? AST_OP_LT : AST_OP_GT;
    uint32_t k = a.n - 1;
    SmtVal r = compare_exprs(s, e->op, a.e[k], a.v[k], b.e[k], b.v[k], e->span);
    while (k-- > 0) {
        SmtVal eq = compare_exprs(s, AST_OP_EQ, a.e[k], a.v[k], b.e[k], b.v[k], e->span);
        SmtVal lt = compare_exprs(s, strict, a.e[k], a.v[k], b.e[k], b.v[k], e->span);
        r = logic(s, AST_OP_OR, lt, logic(s, AST_OP_AND, eq, r, e->span, e->span), e->span, e->span);
    }
    return r;
}

/* The number of columns of a row value (1 for a plain value). */
static uint32_t row_width(const SqExpr *e) {
    if (e->kind == SQX_VECTOR) return e->u.list.n;
    if (e->kind == SQX_SUBQUERY && e->u.sub.rel) {
        IrRel *out = ir_output_rel(e->u.sub.rel);
        uint32_t n = 0;
        while (out && n < out->cols.n && !out->cols.items[n].hidden) n++;
        return n;
    }
    return 1;
}

/* ---- IN ------------------------------------------------------------------------- */

/* x IN (candidates) given x = candidate i as eq[i]: TRUE when one is TRUE,
** FALSE when all are FALSE (or there are none), else NULL. */
static SmtVal in_values(SqSmt *s, const SmtVal *eq, const Z3_ast *present, uint32_t n, SrcSpan at) {
    Z3_ast t = smt_false(s), f = smt_true(s);
    for (uint32_t i = 0; i < n; i++) {
        Z3_ast ti, fi;
        smt_truth(s, eq[i], &ti, &fi, at);
        Z3_ast p = present ? present[i] : smt_true(s);
        t = smt_or2(s, t, smt_and2(s, p, ti));
        f = smt_and2(s, f, smt_or2(s, smt_not(s, p), fi));
    }
    return smt_bool3(s, t, f);
}

static SmtVal in_list(SqSmt *s, const SqExpr *e, const SmtRow *row, const SmtEnv *env) {
    uint32_t n = e->u.in.list.n;
    const SqExpr *ex = e->u.in.x;
    SmtVal x = smt_expr(s, ex, row, env);
    SmtVal *eq = sq_arena_alloc(s->arena, (n + 1) * sizeof *eq);
    for (uint32_t i = 0; i < n; i++) {
        const SqExpr *ei = e->u.in.list.items[i];
        eq[i] = compare_exprs(s, AST_OP_EQ, ex, x, ei, smt_expr(s, ei, row, env), e->span);
    }
    SmtVal r = in_values(s, eq, NULL, n, e->span);
    return e->flags & SQXF_NOT ? negate_truth(s, r, e->span) : r;
}

/* x IN (SELECT ...), x a value or a row value as wide as the subquery;
** each column compares with the affinity of the subquery's column. */
static SmtVal in_subquery(SqSmt *s, const SqExpr *e, const SmtRow *row, const SmtEnv *env) {
    SmtRel r = subquery(s, e, row, env);
    SmtParts x = parts(s, e->u.sub.x, row, env);
    if (x.n != r.n_cols) smt_unsupported(s, e->span, "IN with a row value of another width");
    SmtParts col = {x.n, NULL, sq_arena_alloc(s->arena, (x.n + 1) * sizeof(SqExpr *))};
    for (uint32_t c = 0; c < x.n; c++) col.e[c] = subquery_column(s, e, c);
    SmtVal *eq = sq_arena_alloc(s->arena, (r.n + 1) * sizeof *eq);
    Z3_ast *present = sq_arena_alloc(s->arena, (r.n + 1) * sizeof *present);
    for (uint32_t i = 0; i < r.n; i++) {
        col.v = smt_out(&r, i)->cells;
        eq[i] = rows_equal(s, &x, &col, e->span);
        present[i] = r.rows[i].alive;
    }
    SmtVal res = in_values(s, eq, present, r.n, e->span);
    return e->flags & SQXF_NOT ? negate_truth(s, res, e->span) : res;
}

static SmtVal exists(SqSmt *s, const SqExpr *e, const SmtRow *row, const SmtEnv *env) {
    SmtRel r = subquery(s, e, row, env);
    Z3_ast any = smt_false(s);
    for (uint32_t i = 0; i < r.n; i++) any = smt_or2(s, any, r.rows[i].alive);
    if (e->flags & SQXF_NOT) any = smt_not(s, any);
    return smt_val(s, SMT_BOOL, smt_false(s), any);
}

/* ---- CASE and functions -------------------------------------------------------------- */

/* e's value with num_read set to read (smt_expr_number) for its lowering. */
static SmtVal expr_reading(SqSmt *s, const SqExpr *e, const SmtRow *row, const SmtEnv *env, int read) {
    int outer = s->num_read;
    s->num_read = read;
    SmtVal v = smt_expr(s, e, row, env);
    s->num_read = outer;
    return v;
}

/* A condition or CASE operand inside a value read as a number is not
** itself read so. */
static SmtVal unread(SqSmt *s, const SqExpr *e, const SmtRow *row, const SmtEnv *env) {
    return expr_reading(s, e, row, env, 0);
}

static SmtVal case_expr(SqSmt *s, const SqExpr *e, const SmtRow *row, const SmtEnv *env) {
    SmtVal v = e->u.cas.else_ ? smt_expr(s, e->u.cas.else_, row, env) : smt_null(s);
    SmtVal op = {0};
    if (e->u.cas.operand) op = unread(s, e->u.cas.operand, row, env);
    for (uint32_t i = e->u.cas.n_arms; i-- > 0;) {
        const SqCaseArm *a = &e->u.cas.arms[i];
        SmtVal w = unread(s, a->when, row, env);
        if (e->u.cas.operand) w = compare_exprs(s, AST_OP_EQ, e->u.cas.operand, op, a->when, w, a->when->span);
        Z3_ast t, f;
        smt_truth(s, w, &t, &f, a->when->span);
        v = smt_val_ite(s, t, smt_expr(s, a->then, row, env), v, e->span);
    }
    return v;
}

static SmtVal coalesce(SqSmt *s, const SqExpr *e, const SmtRow *row, const SmtEnv *env) {
    const SqExprList *l = &e->u.func.args;
    SmtVal v = smt_expr(s, l->items[l->n - 1], row, env);
    for (uint32_t i = l->n - 1; i-- > 0;) {
        SmtVal a = smt_expr(s, l->items[i], row, env);
        v = smt_val_ite(s, smt_not(s, a.null), a, v, e->span);
    }
    return v;
}

/* abs(x): of a number, its magnitude in its class; of TEXT, the magnitude
** of the REAL it reads as (func.c: sqlite3_value_double, 0.0 for text
** that is no number). */
static SmtVal abs_value(SqSmt *s, const SqExpr *e, SmtVal a) {
    a = smt_as_number(s, a);
    if (a.kind == SMT_NULL) return a;
    if (a.kind == SMT_TEXT) return abs_value(s, e, smt_value_read(s, a, SMT_READ_REAL));
    if (a.kind == SMT_MIX)
        return smt_val_ite(s, a.istext, abs_value(s, e, smt_mix_text(s, a)), abs_value(s, e, smt_mix_number(s, a)),
                           e->span);
    Z3_ast zero = a.kind == SMT_INT ? smt_int(s, 0) : smt_real(s, 0, 1);
    smt_count(s, 2);
    Z3_ast neg = Z3_mk_lt(s->z, a.v, zero);
    a.v = smt_ite(s, neg, Z3_mk_unary_minus(s->z, a.v), a.v);
    return a;
}

/* round(x, digits): half away from zero, as SQLite does for the values a
** double holds exactly; REAL. */
static SmtVal round_value(SqSmt *s, const SqExpr *e, const SmtRow *row, const SmtEnv *env) {
    SmtVal x = smt_to_real(s, smt_expr(s, e->u.func.args.items[0], row, env));
    if (x.kind == SMT_NULL) return x;
    if (x.kind != SMT_REAL) smt_unsupported(s, e->span, "round() of a TEXT value");
    int64_t digits = 0;
    if (e->u.func.args.n > 1) {
        Const c;
        if (!constant(e->u.func.args.items[1], &c) || c.vtype != SQ_VAL_INTEGER || c.i < 0 || c.i > 6)
            smt_unsupported(s, e->span, "round() with digits other than a constant 0 to 6");
        digits = c.i;
        if (digits > 0) /* SQLite prints the double with %.*f and reads it back */
            s->approx = "round() with digits is modelled on exact values; SQLite rounds the nearest double";
    }
    int64_t scale = 1;
    for (int64_t i = 0; i < digits; i++) scale *= 10;
    Z3_context z = s->z;
    Z3_ast sc = smt_real(s, scale, 1), half = smt_real(s, 1, 2);
    smt_count(s, 12);
    Z3_ast y = Z3_mk_mul(z, 2, (Z3_ast[]){x.v, sc});
    Z3_ast up = Z3_mk_int2real(z, Z3_mk_real2int(z, Z3_mk_add(z, 2, (Z3_ast[]){y, half})));
    Z3_ast down = Z3_mk_unary_minus(
        z, Z3_mk_int2real(z, Z3_mk_real2int(z, Z3_mk_add(z, 2, (Z3_ast[]){Z3_mk_unary_minus(z, y), half}))));
    Z3_ast r = smt_ite(s, Z3_mk_ge(z, y, smt_real(s, 0, 1)), up, down);
    return smt_val(s, SMT_REAL, x.null, Z3_mk_div(z, r, sc));
}

/* Scalar min()/max() of two or more arguments: NULL when any is. */
static SmtVal min_max(SqSmt *s, const SqExpr *e, const SmtRow *row, const SmtEnv *env, int is_max) {
    const SqExprList *l = &e->u.func.args;
    SmtVal v = smt_expr(s, l->items[0], row, env);
    for (uint32_t i = 1; i < l->n; i++) {
        SmtVal a = smt_expr(s, l->items[i], row, env);
        if (v.kind == SMT_NULL || a.kind == SMT_NULL) return smt_null(s);
        Z3_ast better = smt_order_lt(s, is_max ? v : a, is_max ? a : v, 0, 0, e->span);
        SmtVal pick = smt_val_ite(s, better, a, v, e->span);
        v = smt_null_if(s, smt_or2(s, v.null, a.null), pick);
    }
    return v;
}

/* The kind of a function's result by its type, for an uninterpreted call;
** SMT_NULL when the type says too little (ANY, BLOB). */
static SmtKind result_kind(const SqExpr *e) {
    switch (e->type.cls) {
    case SQ_TY_INTEGER: return SMT_INT;
    case SQ_TY_REAL: return SMT_REAL;
    case SQ_TY_TEXT: return SMT_TEXT;
    case SQ_TY_NUMERIC: return SMT_NUM;
    default: return SMT_NULL;
    }
}

static const char *func_name(const SqExpr *e) {
    return e->u.func.name ? e->u.func.name : e->u.func.def ? e->u.func.def->name : "";
}

/* A deterministic function with no exact model, of the lowered args:
** uninterpreted (smt_uf.c). */
static SmtVal uninterpreted_of(SqSmt *s, const SqExpr *e, const SmtVal *args) {
    const char *name = func_name(e);
    char lower[64];
    size_t n = 0;
    for (; name[n] && n + 1 < sizeof lower; n++) lower[n] = (char)sq_ascii_lower((unsigned char)name[n]);
    lower[n] = 0;
    return smt_uf(s, lower, args, e->u.func.args.n, result_kind(e));
}

/* A function that is not deterministic, or has no type, cannot be
** uninterpreted. */
static void must_be_deterministic(SqSmt *s, const SqExpr *e) {
    if (!e->u.func.def || (e->u.func.def->flags & FL_NONDET) || result_kind(e) == SMT_NULL)
        smt_unsupported(s, e->span, "the function %s()", func_name(e));
}

static SmtVal *lower_args(SqSmt *s, const SqExpr *e, const SmtRow *row, const SmtEnv *env) {
    const SqExprList *l = &e->u.func.args;
    SmtVal *args = sq_arena_alloc(s->arena, (l->n + 1) * sizeof *args);
    for (uint32_t i = 0; i < l->n; i++) args[i] = smt_expr(s, l->items[i], row, env);
    return args;
}

static SmtVal uninterpreted(SqSmt *s, const SqExpr *e, const SmtRow *row, const SmtEnv *env) {
    must_be_deterministic(s, e);
    return uninterpreted_of(s, e, lower_args(s, e, row, env));
}

/* A date function (strftime, date, julianday, ... with or without
** modifiers) that reads the row: while sampling, when one TEXT argument
** is open and the rest closed, what SQLite computes on the sample dates
** (smt_sample.c), unless the argument is a cell kept to valid dates
** (smt_facts.c); else the exact lowering of smt_date.c where there is
** one, or an uninterpreted function. */
static SmtVal date_of(SqSmt *s, const SmtFunc *f, const SqExpr *e, SmtVal *args) {
    const SqExprList *l = &e->u.func.args;
    /* an argument TEXT in some rows and a number in others: each side on
    ** its own (a number is a Julian day or a unix time: uninterpreted) */
    for (uint32_t i = 0; i < l->n; i++) {
        if (args[i].kind != SMT_MIX) continue;
        SmtVal mix = args[i];
        args[i] = smt_mix_text(s, mix);
        SmtVal text = date_of(s, f, e, args);
        args[i] = smt_mix_number(s, mix);
        must_be_deterministic(s, e);
        SmtVal number = uninterpreted_of(s, e, args);
        args[i] = mix;
        return smt_val_ite(s, mix.istext, text, number, e->span);
    }
    int open = -1;
    for (uint32_t i = 0; i < l->n && s->sampling; i++)
        if (!sq_smt_closed(l->items[i], NULL)) open = open == -1 ? (int)i : -2;
    SmtVal out;
    /* a cell the facts keep to valid dates is exact here: no samples */
    if (open >= 0 && args[open].kind == SMT_TEXT && smt_fact_dated(s, args[open].v) &&
        smt_date_function(s, f, args, l->n, &out))
        return out;
    Z3_ast domain = open >= 0 ? smt_sample_domain(s, args[open]) : NULL;
    if (domain && smt_sample_call(s, e, (uint32_t)open, args[open], &out)) {
        smt_note_sample(s, domain);
        return out;
    }
    if (smt_date_function(s, f, args, l->n, &out)) return out;
    must_be_deterministic(s, e);
    return uninterpreted_of(s, e, args);
}

/* A date function's value, noted as date text (smt_note_date_text). */
static SmtVal date_call(SqSmt *s, const SmtFunc *f, const SqExpr *e, const SmtRow *row, const SmtEnv *env) {
    SmtVal v = date_of(s, f, e, lower_args(s, e, row, env));
    smt_note_date_text(s, v);
    return v;
}

/* A function lowered exactly when it can be (printf, the string
** functions): 1 with *out, 0 when it cannot. */
typedef int (*ExactFn)(SqSmt *s, const SmtFunc *f, const SmtVal *args, uint32_t n, SmtVal *out);

static int exact_printf(SqSmt *s, const SmtFunc *f, const SmtVal *args, uint32_t n, SmtVal *out) {
    (void)f;
    return smt_printf(s, args, n, out);
}

static int split_mixed(SqSmt *s, const SmtFunc *fn, const SqExpr *e, ExactFn f, SmtVal *args, uint32_t n,
                       SmtVal *out);

/* f on args with args[i] set to side: exactly where f can, else
** uninterpreted. */
static SmtVal one_side(SqSmt *s, const SmtFunc *fn, const SqExpr *e, ExactFn f, SmtVal *args, uint32_t n,
                       uint32_t i, SmtVal side) {
    SmtVal mix = args[i], out;
    args[i] = side;
    if (!split_mixed(s, fn, e, f, args, n, &out)) out = uninterpreted_of(s, e, args);
    args[i] = mix;
    return out;
}

/* f(args), each SMT_MIX argument split into its TEXT, INTEGER and REAL
** sides (as date_of splits it): the exact lowering then sees one class
** per argument, and the class the cell holds picks the result.  A side
** the exact lowering does not cover is uninterpreted, that side only.
** With no mixed argument, 0 when f cannot lower args. */
static int split_mixed(SqSmt *s, const SmtFunc *fn, const SqExpr *e, ExactFn f, SmtVal *args, uint32_t n,
                       SmtVal *out) {
    for (uint32_t i = 0; i < n; i++) {
        SmtVal mix = args[i];
        if (mix.kind != SMT_MIX) continue;
        must_be_deterministic(s, e);
        SmtVal real = one_side(s, fn, e, f, args, n, i, smt_val(s, SMT_REAL, mix.null, mix.v)), number = real;
        if (Z3_get_bool_value(s->z, mix.isint) != Z3_L_FALSE) { /* not under REAL affinity */
            SmtVal integer = smt_val(s, SMT_INT, mix.null, Z3_mk_real2int(s->z, mix.v));
            number = smt_val_ite(s, mix.isint, one_side(s, fn, e, f, args, n, i, integer), real, e->span);
        }
        SmtVal text = one_side(s, fn, e, f, args, n, i, smt_mix_text(s, mix));
        *out = smt_val_ite(s, mix.istext, text, number, e->span);
        return 1;
    }
    return f(s, fn, args, n, out);
}

/* The row of smt_funcs.def for a scalar call, or NULL. */
static const SmtFunc *scalar_func(const SqExpr *e) {
    return e->u.func.def ? smt_func_find(e->u.func.def->name, F_SCALAR) : NULL;
}

/* A function with an exact model on lowered arguments (f): each mixed
** argument split by class, uninterpreted where the model stops. */
static SmtVal exact_or_uninterpreted(SqSmt *s, const SmtFunc *fn, const SqExpr *e, ExactFn f, const SmtRow *row,
                                     const SmtEnv *env) {
    SmtVal out, *args = lower_args(s, e, row, env);
    if (split_mixed(s, fn, e, f, args, e->u.func.args.n, &out)) return out;
    return uninterpreted_of(s, e, args);
}

/* No exact model: uninterpreted, each mixed argument split by class. */
static int no_model(SqSmt *s, const SmtFunc *f, const SmtVal *args, uint32_t n, SmtVal *out) {
    (void)s, (void)f, (void)args, (void)n, (void)out;
    return 0;
}

/* A string function (f), or a function with no row (f NULL): exact where
** smt_string_function models the call, else uninterpreted. */
static SmtVal text_function(SqSmt *s, const SmtFunc *f, const SqExpr *e, const SmtRow *row, const SmtEnv *env) {
    const SqExprList *l = &e->u.func.args;
    if (l->n > 3) return uninterpreted(s, e, row, env);
    SmtVal args[3], out;
    for (uint32_t i = 0; i < l->n; i++) args[i] = smt_expr(s, l->items[i], row, env);
    if (split_mixed(s, f, e, f ? smt_string_function : no_model, args, l->n, &out)) return out;
    return uninterpreted(s, e, row, env);
}

static SmtVal function(SqSmt *s, const SqExpr *e, const SmtRow *row, const SmtEnv *env) {
    const SqExprList *l = &e->u.func.args;
    const SmtFunc *f = scalar_func(e);
    if (!f) return text_function(s, NULL, e, row, env);
    switch (f->op) {
    case SMT_FN_COALESCE: case SMT_FN_IFNULL: return coalesce(s, e, row, env);
    case SMT_FN_IIF: {
        Z3_ast t, no;
        smt_truth(s, unread(s, l->items[0], row, env), &t, &no, l->items[0]->span);
        return smt_val_ite(s, t, smt_expr(s, l->items[1], row, env), smt_expr(s, l->items[2], row, env),
                           e->span);
    }
    case SMT_FN_NULLIF: { /* a function: its arguments take no affinity (nullif(2, '2') is 2) */
        SmtVal a = smt_expr(s, l->items[0], row, env), b = smt_expr(s, l->items[1], row, env);
        Z3_ast t, no;
        smt_truth(s, smt_compare(s, AST_OP_EQ, a, b, e->span), &t, &no, e->span);
        return smt_null_if(s, t, a);
    }
    case SMT_FN_ABS: return abs_value(s, e, smt_expr(s, l->items[0], row, env));
    case SMT_FN_ROUND: return round_value(s, e, row, env);
    case SMT_FN_MIN_SCALAR: case SMT_FN_MAX_SCALAR: return min_max(s, e, row, env, f->op == SMT_FN_MAX_SCALAR);
    case SMT_FN_DATE: case SMT_FN_DATETIME: case SMT_FN_TIME: case SMT_FN_STRFTIME: case SMT_FN_JULIANDAY:
    case SMT_FN_UNIXEPOCH:
        return date_call(s, f, e, row, env);
    case SMT_FN_PRINTF: case SMT_FN_FORMAT: return exact_or_uninterpreted(s, f, e, exact_printf, row, env);
    default: return text_function(s, f, e, row, env); /* the string functions */
    }
}

static SmtVal cast(SqSmt *s, const SqExpr *e, const SmtRow *row, const SmtEnv *env) {
    SmtVal x = smt_as_number(s, smt_expr(s, e->u.cast.x, row, env));
    if (x.kind == SMT_NULL) return x;
    uint8_t aff = e->u.cast.aff;
    if (x.kind == SMT_MIX) {
        if (aff == SQ_AFF_TEXT) return smt_text_of(s, x);
        if (aff == SQ_AFF_BLOB) smt_unsupported(s, e->span, "CAST AS BLOB");
        return smt_value_read(s, x, aff == SQ_AFF_INTEGER ? SMT_READ_INT
                                    : aff == SQ_AFF_REAL  ? SMT_READ_REAL
                                                          : SMT_READ_NUMERIC);
    }
    if (x.kind == SMT_TEXT) {
        Const c;
        SmtVal v;
        if (aff == SQ_AFF_TEXT) return x;
        if (aff == SQ_AFF_BLOB) smt_unsupported(s, e->span, "CAST AS BLOB");
        if (constant(e->u.cast.x, &c) && c.vtype == SQ_VAL_TEXT && text_as_number(c.s, c.n, &v, s, e->span))
            x = v; /* a literal that spells a number: cast that number, below */
        else
            return smt_text_read(s, x, aff == SQ_AFF_INTEGER ? SMT_READ_INT
                                       : aff == SQ_AFF_REAL  ? SMT_READ_REAL
                                                             : SMT_READ_NUMERIC);
    }
    switch (aff) {
    case SQ_AFF_INTEGER: return smt_trunc_int(s, x);
    case SQ_AFF_REAL: return smt_to_real(s, x);
    case SQ_AFF_NUMERIC: return x; /* a no-op on INTEGER and REAL, 3.0 included */
    case SQ_AFF_TEXT: return smt_text_of(s, x);
    default: smt_unsupported(s, e->span, "CAST AS BLOB");
    }
}

/* ---- the dispatcher --------------------------------------------------------------------- */

static SmtVal binary(SqSmt *s, const SqExpr *e, const SmtRow *row, const SmtEnv *env) {
    const SqExpr *l = e->u.bin.l, *r = e->u.bin.r;
    if (ast_op_is_comparison(e->op) && (row_width(l) > 1 || row_width(r) > 1)) return compare_rows(s, e, row, env);
    SmtVal folded;
    if (ast_op_is_comparison(e->op) && smt_nocase_compare(s, e, row, env, &folded)) return folded;
    if (e->op >= AST_OP_ADD && e->op <= AST_OP_MOD) {
        SmtVal a = smt_expr_number(s, l, row, env, SMT_READ_ARITH), b = smt_expr_number(s, r, row, env, SMT_READ_ARITH);
        return smt_arith(s, e->op, a, b, e->span);
    }
    if (ast_op_is_comparison(e->op)) { /* BINARY: a COLLATE says so, or no collation applies */
        SmtVal a = smt_operand(s, l, row, env), b = smt_operand(s, r, row, env);
        return compare_exprs(s, e->op, l, a, r, b, e->span);
    }
    SmtVal a = smt_expr(s, l, row, env), b = smt_expr(s, r, row, env);
    if (e->op == AST_OP_AND || e->op == AST_OP_OR) return logic(s, e->op, a, b, l->span, r->span);
    switch (e->op) {
    case AST_OP_ADD: case AST_OP_SUB: case AST_OP_MUL: case AST_OP_DIV: case AST_OP_MOD:
        return smt_arith(s, e->op, a, b, e->span);
    case AST_OP_CONCAT: return smt_concat(s, a, b);
    default: smt_unsupported(s, e->span, "the operator %s", ast_op_name(e->op));
    }
}

static SmtVal between(SqSmt *s, const SqExpr *e, const SmtRow *row, const SmtEnv *env) {
    SmtVal x = smt_expr(s, e->u.between.x, row, env);
    SmtVal lo = smt_expr(s, e->u.between.lo, row, env), hi = smt_expr(s, e->u.between.hi, row, env);
    SmtVal a = compare_exprs(s, AST_OP_GE, e->u.between.x, x, e->u.between.lo, lo, e->span);
    SmtVal b = compare_exprs(s, AST_OP_LE, e->u.between.x, x, e->u.between.hi, hi, e->span);
    SmtVal r = logic(s, AST_OP_AND, a, b, e->span, e->span);
    return e->flags & SQXF_NOT ? negate_truth(s, r, e->span) : r;
}

/* LIKE and GLOB with a pattern (and ESCAPE) of known text: a regular
** expression (smt_like.c); other patterns, REGEXP and MATCH: uninterpreted. */
static SmtVal like(SqSmt *s, const SqExpr *e, const SmtRow *row, const SmtEnv *env) {
    SmtVal args[3];
    uint32_t n = 0;
    args[n++] = smt_expr(s, e->u.like.x, row, env);
    args[n++] = smt_expr(s, e->u.like.pattern, row, env);
    if (e->u.like.escape) args[n++] = smt_expr(s, e->u.like.escape, row, env);
    for (uint32_t i = 0; i < n; i++)
        if (args[i].kind == SMT_NULL) return smt_null(s);
    SmtVal x = smt_text_of(s, args[0]);
    Z3_ast unfolded;
    if (e->op == AST_OP_LIKE && smt_fold_of(s, x.v, &unfolded, NULL)) x.v = unfolded; /* LIKE folds case itself */
    const char *pat = smt_const_text(s, smt_text_of(s, args[1]));
    const char *esc = n > 2 ? smt_const_text(s, smt_text_of(s, args[2])) : NULL;
    int esc_char = -1;
    if (esc) { /* one character, as SQLite requires */
        uint32_t len = 0;
        while (esc[len]) len++;
        if (len != 1) esc = NULL; /* a multi-byte or an erroneous ESCAPE: not modelled */
        else esc_char = (unsigned char)esc[0];
    }
    int glob = e->op == AST_OP_GLOB;
    Z3_ast m;
    SmtVal r;
    if ((e->op == AST_OP_LIKE || glob) && pat && (n < 3 || esc) &&
        smt_like_pattern(s, x.v, pat, (uint32_t)strlen(pat), esc_char, glob, &m)) {
        Z3_ast null = smt_false(s);
        for (uint32_t i = 0; i < n; i++) null = smt_or2(s, null, args[i].null);
        r = smt_val(s, SMT_BOOL, null, m);
    } else {
        const char *op = glob ? "glob" : e->op == AST_OP_REGEXP ? "regexp" : e->op == AST_OP_MATCH ? "match" : "like";
        r = smt_uf(s, op, args, n, SMT_BOOL);
    }
    return e->flags & SQXF_NOT ? negate_truth(s, r, e->span) : r;
}

/* Whether e hands the values of some operands on as its own: CASE, IIF,
** COALESCE and IFNULL (the reading of smt_expr_number goes through them). */
static int passes_values_on(const SqExpr *e) {
    if (e->kind == SQX_CASE) return 1;
    const SmtFunc *f = e->kind == SQX_FUNC ? scalar_func(e) : NULL;
    return f && (f->op == SMT_FN_IIF || f->op == SMT_FN_COALESCE || f->op == SMT_FN_IFNULL);
}

static SmtVal expr_value(SqSmt *s, const SqExpr *e, const SmtRow *row, const SmtEnv *env);

SmtVal smt_expr(SqSmt *s, const SqExpr *e, const SmtRow *row, const SmtEnv *env) {
    int read = s->num_read;
    if (!passes_values_on(e)) s->num_read = 0;
    SmtVal v = expr_value(s, e, row, env);
    s->num_read = read;
    return v;
}

SmtVal smt_expr_number(SqSmt *s, const SqExpr *e, const SmtRow *row, const SmtEnv *env, SmtNumRead how) {
    return expr_reading(s, e, row, env, (int)how + 1);
}

static SmtVal expr_value(SqSmt *s, const SqExpr *e, const SmtRow *row, const SmtEnv *env) {
    SmtVal folded;
    switch (e->kind) {
    case SQX_LITERAL: return literal(s, e);
    case SQX_COLUMN: {
        const char *coll = s->operand ? NULL : smt_declared_collation(s, e);
        if (coll)
            smt_unsupported(s, e->span, "a column declared COLLATE %s, read other than as a comparison's operand", coll);
        return smt_column(s, e->u.col, row, env, e->span);
    }
    case SQX_UNARY: {
        SmtVal a = smt_expr(s, e->u.bin.l, row, env);
        if (e->op == AST_OP_NOT) return negate_truth(s, a, e->span);
        if (e->op == AST_OP_NEG) return smt_negate(s, a, e->span);
        if (e->op == AST_OP_POS) return a;
        smt_unsupported(s, e->span, "the operator ~");
    }
    case SQX_BINARY: return binary(s, e, row, env);
    case SQX_IS: {
        SmtVal a = smt_expr(s, e->u.bin.l, row, env), b = smt_expr(s, e->u.bin.r, row, env);
        apply_affinity(s, e->u.bin.l, &a, e->u.bin.r, &b);
        Z3_ast same = smt_same(s, a, b);
        return smt_val(s, SMT_BOOL, smt_false(s), e->flags & SQXF_NOT ? smt_not(s, same) : same);
    }
    case SQX_ISNULL: {
        SmtVal a = smt_expr(s, e->u.bin.l, row, env);
        return smt_val(s, SMT_BOOL, smt_false(s), e->flags & SQXF_NOT ? smt_not(s, a.null) : a.null);
    }
    case SQX_BETWEEN: return between(s, e, row, env);
    case SQX_IN_LIST: return in_list(s, e, row, env);
    case SQX_IN_SUBQUERY: return in_subquery(s, e, row, env);
    case SQX_EXISTS: return exists(s, e, row, env);
    case SQX_SUBQUERY: return scalar(s, e, row, env);
    case SQX_CASE: return case_expr(s, e, row, env);
    case SQX_CAST: return smt_fold(s, e, &folded) ? folded : cast(s, e, row, env);
    case SQX_COLLATE:
        if (e->u.collate.name && sq_stricmp(e->u.collate.name, "binary") == 0)
            return smt_expr(s, e->u.collate.x, row, env);
        smt_unsupported(s, e->span, "COLLATE %s", e->u.collate.name ? e->u.collate.name : "");
    case SQX_FUNC:
        if (!smt_fold(s, e, &folded)) return function(s, e, row, env);
        if (e->u.func.def && (e->u.func.def->flags & FL_DATE)) smt_note_date_text(s, folded);
        return folded;
    case SQX_LIKE: return like(s, e, row, env);
    case SQX_PARAM: smt_unsupported(s, e->span, "a bind parameter");
    case SQX_VECTOR: smt_unsupported(s, e->span, "a row value");
    case SQX_CTIME: { /* the pinned instant (sq_smt_set_now), in UTC as SQLite's are */
        s->reads_clock = 1;
        const char *t = e->op == AST_OP_CURRENT_DATE ? s->now : e->op == AST_OP_CURRENT_TIME ? s->now + 11 : s->now;
        uint32_t n = e->op == AST_OP_CURRENT_DATE ? 10 : e->op == AST_OP_CURRENT_TIME ? 8 : 19;
        SmtVal v = smt_val(s, SMT_TEXT, smt_false(s), smt_str_lit(s, t, n));
        smt_note_date_text(s, v);
        return v;
    }
    default: smt_unsupported(s, e->span, "this expression");
    }
}

Z3_ast smt_cond(SqSmt *s, const SqExpr *e, const SmtRow *row, const SmtEnv *env) {
    Z3_ast t, f;
    smt_truth(s, smt_expr(s, e, row, env), &t, &f, e->span);
    return t;
}
