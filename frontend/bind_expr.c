/*
** bind_expr.c -- binding and typing one expression.
**
** Layer: frontend.  bind_expr() turns an AST expression into an SqExpr in
** scope s, following SQLite's resolveExprStep(): names through
** bind_column(), functions checked against the built-in table in SQLite's
** order of complaints (window misuse, aggregate misuse, unknown function,
** wrong arity, FILTER on a scalar), aggregates handed to the query block
** that owns them (the innermost one whose columns their arguments use),
** window functions to the current block, subqueries bound as blocks of
** their own.  Every node gets its SqType on the way.
*/
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/bind_int.h"

static SqExpr *node(Binder *b, SqExprKind k, const AstExpr *e, SqType t) {
    SqExpr *x = sq_expr_new(b->arena, k, e->span, t);
    if (e->flags & AEF_PAREN) x->flags |= SQXF_PAREN;
    return x;
}

static int nullable(const SqExpr *e) { return e && e->type.nullable; }
static SqType int_type(int nul) { return sq_type(SQ_TY_INTEGER, SQ_AFF_BLOB, nul); }

/* ------------------------------------------------------------------ */
/* Literals                                                            */
/* ------------------------------------------------------------------ */

SqExpr *bind_literal_int(Binder *b, int64_t v, SrcSpan at) {
    return sq_expr_int(b->arena, at, int_type(0), v);
}

static int hexval(char c) {
    return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
}

/* Integers as SQLite reads them: decimal that overflows int64 becomes a
** REAL; hex must fit in 64 bits ("hex literal too big"). */
static SqExpr *bind_integer(Binder *b, const AstExpr *e) {
    const char *t = e->u.lit.text;
    SqExpr *x = node(b, SQX_LITERAL, e, int_type(0));
    x->u.lit.text = t;
    if (t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
        size_t n = strlen(t + 2);
        while (n > 1 && t[2] == '0') t++, n--;
        if (n > 16) {
            bind_error(b, SQ_E_BIND_OTHER, e->span, "hex literal too big: %s", e->u.lit.text);
            return NULL;
        }
        uint64_t v = 0;
        for (size_t i = 0; i < n; i++) v = v * 16 + (uint64_t)hexval(t[2 + i]);
        x->u.lit.vtype = SQ_VAL_INTEGER;
        x->u.lit.i = (int64_t)v;
        return x;
    }
    errno = 0;
    char *end;
    long long v = strtoll(t, &end, 10);
    if (errno == ERANGE) {
        x->u.lit.vtype = SQ_VAL_REAL;
        x->u.lit.r = strtod(t, NULL);
        x->type = sq_type(SQ_TY_REAL, SQ_AFF_BLOB, 0);
    } else {
        x->u.lit.vtype = SQ_VAL_INTEGER;
        x->u.lit.i = v;
    }
    return x;
}

static SqExpr *bind_blob(Binder *b, const AstExpr *e) {
    SqExpr *x = node(b, SQX_LITERAL, e, sq_type(SQ_TY_BLOB, SQ_AFF_BLOB, 0));
    uint32_t n = e->u.lit.len / 2;
    char *bytes = sq_arena_alloc(b->arena, n + 1);
    for (uint32_t i = 0; i < n; i++)
        bytes[i] = (char)(hexval(e->u.lit.text[2 * i]) * 16 + hexval(e->u.lit.text[2 * i + 1]));
    x->u.lit.vtype = SQ_VAL_BLOB;
    x->u.lit.s = bytes;
    x->u.lit.n = n;
    x->u.lit.text = e->u.lit.text;
    return x;
}

static SqExpr *bind_literal(Binder *b, const AstExpr *e) {
    SqExpr *x;
    switch ((AstExprKind)e->kind) {
    case AE_NULL:
        x = node(b, SQX_LITERAL, e, sq_type(SQ_TY_NULL, SQ_AFF_BLOB, 1));
        x->u.lit.vtype = SQ_VAL_NULL;
        return x;
    case AE_INTEGER: return bind_integer(b, e);
    case AE_FLOAT:
        x = node(b, SQX_LITERAL, e, sq_type(SQ_TY_REAL, SQ_AFF_BLOB, 0));
        x->u.lit.vtype = SQ_VAL_REAL;
        x->u.lit.r = strtod(e->u.lit.text, NULL);
        x->u.lit.text = e->u.lit.text;
        return x;
    case AE_STRING:
        x = node(b, SQX_LITERAL, e, sq_type(SQ_TY_TEXT, SQ_AFF_BLOB, 0));
        x->u.lit.vtype = SQ_VAL_TEXT;
        x->u.lit.s = e->u.lit.text;
        x->u.lit.n = e->u.lit.len;
        return x;
    case AE_BLOB: return bind_blob(b, e);
    case AE_PARAM:
        x = node(b, SQX_PARAM, e, sq_type(SQ_TY_ANY, SQ_AFF_BLOB, 1));
        x->u.lit.text = e->u.lit.text;
        return x;
    default: /* AE_CTIME */
        x = node(b, SQX_CTIME, e, sq_type(SQ_TY_TEXT, SQ_AFF_BLOB, 0));
        x->op = e->op;
        return x;
    }
}

/* ------------------------------------------------------------------ */
/* Parse-time rewrites                                                 */
/* ------------------------------------------------------------------ */

int bind_ast_int32(const AstExpr *e, int64_t *v) {
    int neg = 0;
    while (e->kind == AE_UNARY && (e->op == AST_OP_NEG || e->op == AST_OP_POS)) {
        neg ^= e->op == AST_OP_NEG;
        e = e->u.bin.l;
    }
    if (e->kind != AE_INTEGER) return 0;
    const char *t = e->u.lit.text;
    int hex = t[0] == '0' && (t[1] | 0x20) == 'x';
    int64_t x = 0;
    for (t += hex ? 2 : 0; *t; t++) {
        int d = *t <= '9' ? *t - '0' : (*t | 0x20) - 'a' + 10;
        x = x * (hex ? 16 : 10) + d;
        if (x > 0x7fffffff) return 0; /* SQLite wants a 32-bit value */
    }
    *v = neg ? -x : x;
    return 1;
}

/* SQLite's parser folds "x AND 0" (either side a literal zero) to 0 and
** "x IN ()" to a constant without ever resolving x. */
static int literal_zero(const AstExpr *e) {
    int64_t v;
    return e->kind == AE_INTEGER && bind_ast_int32(e, &v) && v == 0;
}

static SqExpr *folded(Binder *b, const AstExpr *e, int64_t v) {
    SqExpr *x = bind_literal_int(b, v, e->span);
    x->flags |= SQXF_FOLDED;
    return x;
}

/* ------------------------------------------------------------------ */
/* Vectors                                                             */
/* ------------------------------------------------------------------ */

int bind_vector_size(const SqExpr *e) {
    if (!e) return 1;
    if (e->kind == SQX_VECTOR) return (int)e->u.list.n;
    if (e->kind == SQX_SUBQUERY && e->u.sub.query) {
        uint32_t n = 0;
        const SqColumnList *c = &e->u.sub.query->cols;
        for (uint32_t i = 0; i < c->n; i++) n += !c->items[i].hidden;
        return (int)n;
    }
    return 1;
}

/* A value used as one scalar: a row value is an error there, and a
** subquery must return one column. */
static int need_scalar(Binder *b, const SqExpr *e) {
    if (!e) return 0;
    int n = bind_vector_size(e);
    if (n == 1) return 1;
    if (e->kind == SQX_SUBQUERY)
        bind_error(b, SQ_E_SUBQUERY_COLS, e->span,
                   "sub-select returns %d columns - expected 1", n);
    else
        bind_error(b, SQ_E_ROW_VALUE, e->span, "row value misused");
    return 0;
}

/* The i-th part of a row value (a vector's element; else e itself). */
static const SqExpr *vector_part(const SqExpr *e, uint32_t i) {
    return e->kind == SQX_VECTOR ? e->u.list.items[i] : e;
}

/* Both sides of a comparison must have the same shape, down into row
** values nested in row values. */
static int same_shape(const SqExpr *l, const SqExpr *r) {
    int n = bind_vector_size(l);
    if (n != bind_vector_size(r)) return 0;
    if (n == 1 || l->kind != SQX_VECTOR || r->kind != SQX_VECTOR) return 1;
    for (uint32_t i = 0; i < (uint32_t)n; i++)
        if (!same_shape(vector_part(l, i), vector_part(r, i))) return 0;
    return 1;
}

static int same_width(Binder *b, const SqExpr *l, const SqExpr *r, SrcSpan at) {
    if (same_shape(l, r)) return 1;
    bind_error(b, SQ_E_ROW_VALUE, at, "row value misused");
    return 0;
}

int bind_need_scalar(Binder *b, const SqExpr *e) {
    return need_scalar(b, e);
}

/* ------------------------------------------------------------------ */
/* Operators                                                           */
/* ------------------------------------------------------------------ */

static SqType binary_type(uint8_t op, const SqExpr *l, const SqExpr *r) {
    int nul = nullable(l) || nullable(r);
    switch (op) {
    case AST_OP_ADD: case AST_OP_SUB: case AST_OP_MUL:
        return sq_type(sq_class_arith(l->type.cls, r->type.cls), SQ_AFF_BLOB, nul);
    case AST_OP_DIV: case AST_OP_MOD: /* x/0 and x%0 are NULL */
        return sq_type(sq_class_arith(l->type.cls, r->type.cls), SQ_AFF_BLOB, 1);
    case AST_OP_CONCAT: return sq_type(SQ_TY_TEXT, SQ_AFF_BLOB, nul);
    case AST_OP_PTR: return sq_type(SQ_TY_TEXT, SQ_AFF_BLOB, 1);
    case AST_OP_PTR2: return sq_type(SQ_TY_ANY, SQ_AFF_BLOB, 1);
    default: return int_type(nul); /* comparisons, AND, OR, bit operators */
    }
}

static SqExpr *bind_binary(Binder *b, Scope *s, const AstExpr *e) {
    if (e->op == AST_OP_AND && (literal_zero(e->u.bin.l) || literal_zero(e->u.bin.r)))
        return folded(b, e, 0);
    SqExpr *l = bind_expr(b, s, e->u.bin.l);
    SqExpr *r = l ? bind_expr(b, s, e->u.bin.r) : NULL;
    if (!r) return NULL;
    if (ast_op_is_comparison(e->op)) {
        if (!same_width(b, l, r, e->span) || !bind_check_compare_collation(b, l, r))
            return NULL;
    } else if (!need_scalar(b, l) || !need_scalar(b, r)) {
        return NULL;
    }
    SqExpr *x = node(b, SQX_BINARY, e, binary_type(e->op, l, r));
    x->op = e->op;
    x->u.bin.l = l;
    x->u.bin.r = r;
    return x;
}

static SqExpr *bind_unary(Binder *b, Scope *s, const AstExpr *e) {
    SqExpr *a = bind_expr(b, s, e->u.bin.l);
    if (!a || !need_scalar(b, a)) return NULL;
    SqType t;
    switch (e->op) {
    case AST_OP_NOT: t = int_type(nullable(a)); break;
    case AST_OP_BITNOT: t = int_type(nullable(a)); break;
    default: {
        SqTypeClass c = a->type.cls;
        if (c == SQ_TY_TEXT || c == SQ_TY_BLOB || c == SQ_TY_ANY) c = SQ_TY_NUMERIC;
        if (e->op == AST_OP_POS) c = a->type.cls; /* +x leaves the value alone */
        t = sq_type(c, SQ_AFF_BLOB, nullable(a));
    }
    }
    SqExpr *x = node(b, SQX_UNARY, e, t);
    x->op = e->op;
    x->u.bin.l = a;
    return x;
}

static SqExpr *bind_is(Binder *b, Scope *s, const AstExpr *e) {
    SqExpr *l = bind_expr(b, s, e->u.bin.l);
    SqExpr *r = l ? bind_expr(b, s, e->u.bin.r) : NULL;
    if (!r) return NULL;
    int is_null = r->kind == SQX_LITERAL && r->u.lit.vtype == SQ_VAL_NULL; /* x IS NULL */
    if (is_null ? !need_scalar(b, l) : !same_width(b, l, r, e->span)) return NULL;
    if (!is_null && !bind_check_compare_collation(b, l, r)) return NULL;
    SqExpr *x = node(b, SQX_IS, e, int_type(0));
    x->flags |= (e->flags & AEF_NOT ? SQXF_NOT : 0) |
                (e->flags & AEF_DISTINCT_FROM ? SQXF_DISTINCT_FROM : 0);
    x->u.bin.l = l;
    x->u.bin.r = r;
    return x;
}

static SqExpr *bind_isnull(Binder *b, Scope *s, const AstExpr *e) {
    SqExpr *a = bind_expr(b, s, e->u.bin.l);
    if (!a || !need_scalar(b, a)) return NULL;
    SqExpr *x = node(b, SQX_ISNULL, e, int_type(0));
    if (e->flags & AEF_NOT) x->flags |= SQXF_NOT;
    x->u.bin.l = a;
    return x;
}

/* x LIKE y [ESCAPE z] calls like(y, x[, z]); GLOB, REGEXP and MATCH call
** their functions the same way, which must exist with that arity. */
static int check_like_function(Binder *b, const AstExpr *e) {
    const char *name = e->op == AST_OP_LIKE ? "like" : e->op == AST_OP_GLOB ? "glob"
                     : e->op == AST_OP_REGEXP ? "regexp" : "match";
    int exists;
    if (sq_func_resolve(name, e->u.like.escape ? 3 : 2, &exists)) return 1;
    if (exists)
        bind_error(b, SQ_E_ARITY, e->span, "wrong number of arguments to function %s()", name);
    else
        bind_error(b, SQ_E_NO_FUNCTION, e->span, "no such function: %s", name);
    return 0;
}

static SqExpr *bind_like(Binder *b, Scope *s, const AstExpr *e) {
    SqExpr *x0 = bind_expr(b, s, e->u.like.x);
    SqExpr *p = x0 ? bind_expr(b, s, e->u.like.pattern) : NULL;
    SqExpr *esc = (p && e->u.like.escape) ? bind_expr(b, s, e->u.like.escape) : NULL;
    if (!p || (e->u.like.escape && !esc)) return NULL;
    if (!need_scalar(b, x0) || !need_scalar(b, p) || (esc && !need_scalar(b, esc)) ||
        !check_like_function(b, e))
        return NULL;
    SqExpr *x = node(b, SQX_LIKE, e, int_type(nullable(x0) || nullable(p) || nullable(esc)));
    x->op = e->op;
    if (e->flags & AEF_NOT) x->flags |= SQXF_NOT;
    x->u.like.x = x0;
    x->u.like.pattern = p;
    x->u.like.escape = esc;
    return x;
}

static SqExpr *bind_between(Binder *b, Scope *s, const AstExpr *e) {
    SqExpr *x0 = bind_expr(b, s, e->u.between.x);
    SqExpr *lo = x0 ? bind_expr(b, s, e->u.between.lo) : NULL;
    SqExpr *hi = lo ? bind_expr(b, s, e->u.between.hi) : NULL;
    if (!hi || !same_width(b, x0, lo, e->span) || !same_width(b, x0, hi, e->span) ||
        !bind_check_compare_collation(b, x0, lo) || !bind_check_compare_collation(b, x0, hi))
        return NULL;
    SqExpr *x = node(b, SQX_BETWEEN, e, int_type(nullable(x0) || nullable(lo) || nullable(hi)));
    if (e->flags & AEF_NOT) x->flags |= SQXF_NOT;
    x->u.between.x = x0;
    x->u.between.lo = lo;
    x->u.between.hi = hi;
    return x;
}

/* ------------------------------------------------------------------ */
/* IN, EXISTS, subqueries                                              */
/* ------------------------------------------------------------------ */

static SqExpr *bind_in_list(Binder *b, Scope *s, const AstExpr *e) {
    if (e->u.in.list.n == 0) return folded(b, e, (e->flags & AEF_NOT) != 0);
    SqExpr *x0 = bind_expr(b, s, e->u.in.x);
    if (!x0) return NULL;
    SqExpr *x = node(b, SQX_IN_LIST, e, int_type(nullable(x0)));
    if (e->flags & AEF_NOT) x->flags |= SQXF_NOT;
    x->u.in.x = x0;
    int w = bind_vector_size(x0);
    SQ_ARENA_RESERVE(b->arena, &x->u.in.list, e->u.in.list.n);
    for (uint32_t i = 0; i < e->u.in.list.n; i++) {
        SqExpr *v = bind_expr(b, s, e->u.in.list.items[i]);
        if (!v) return NULL;
        if (w == 1 && !need_scalar(b, v)) return NULL;
        int got = v->kind == SQX_VECTOR ? (int)v->u.list.n : 1;
        if (w != 1 && got != w) {
            bind_error(b, SQ_E_ROW_VALUE, v->span, "IN(...) element has %d term%s - expected %d",
                       got, got == 1 ? "" : "s", w);
            return NULL;
        }
        if (w != 1 && !same_width(b, x0, v, v->span)) return NULL;
        /* IN compares with the left side's collation, but a list of one
        ** constant is rewritten to x = c */
        if (e->u.in.list.n == 1 && !bind_has_column(v) ? !bind_check_compare_collation(b, x0, v)
                                                        : !bind_check_collation(b, x0))
            return NULL;
        if (nullable(v)) x->type.nullable = 1;
        sq_expr_list_add(b->arena, &x->u.in.list, v);
    }
    return x;
}

/* Bind a subquery as its own block; its outer scope is s. */
static BndSelect *bind_subquery(Binder *b, Scope *s, const AstSelect *q, uint32_t *nref) {
    uint32_t before = s->n_ref;
    BndSelect *sel = bind_query(b, q, s);
    *nref = s->n_ref - before;
    return sel;
}

static SqExpr *bind_sub(Binder *b, Scope *s, const AstExpr *e, SqExprKind kind,
                        SqExpr *lhs) {
    uint32_t nref;
    BndSelect *q = bind_subquery(b, s, e->u.sub.select, &nref);
    if (!q) return NULL;
    SqExpr *x = node(b, kind, e, int_type(kind == SQX_EXISTS ? 0 : 1));
    x->u.sub.query = q;
    x->u.sub.x = lhs;
    if (nref) x->flags |= SQXF_CORRELATED;
    if (e->flags & AEF_NOT) x->flags |= SQXF_NOT;
    if (kind == SQX_SUBQUERY && q->cols.n) {
        x->type = q->cols.items[0].type;
        x->type.nullable = 1; /* an empty subquery gives NULL */
    }
    return x;
}

static SqExpr *bind_in_select(Binder *b, Scope *s, const AstExpr *e) {
    SqExpr *lhs = bind_expr(b, s, e->u.sub.x);
    if (!lhs) return NULL;
    SqExpr *x = bind_sub(b, s, e, SQX_IN_SUBQUERY, lhs);
    if (!x) return NULL;
    int want = bind_vector_size(lhs), got = 0;
    for (uint32_t i = 0; i < x->u.sub.query->cols.n; i++) got += !x->u.sub.query->cols.items[i].hidden;
    if (want != got) {
        bind_error(b, SQ_E_SUBQUERY_COLS, e->span,
                   "sub-select returns %d columns - expected %d", got, want);
        return NULL;
    }
    /* each part of the left side is compared with its subquery column */
    const BndSelect *q = x->u.sub.query;
    const SqExprList *cols = q->kind == AST_SEL_CORE ? &q->results
                           : q->kind == AST_SEL_VALUES && q->n_rows ? &q->rows[0] : NULL;
    for (uint32_t i = 0; i < (uint32_t)want; i++) {
        const SqExpr *l = vector_part(lhs, i), *r = cols && i < cols->n ? cols->items[i] : NULL;
        if (!(r ? bind_check_compare_collation(b, l, r) : bind_check_collation(b, l))) return NULL;
    }
    x->type.nullable = nullable(lhs) || (got && x->u.sub.query->cols.items[0].type.nullable);
    return x;
}

/* x IN table: SQLite reads it as x IN (SELECT * FROM table). */
static SqExpr *bind_in_table(Binder *b, Scope *s, const AstExpr *e) {
    AstSelect q;
    memset(&q, 0, sizeof q);
    q.kind = AST_SEL_CORE;
    q.span = e->span;
    AstResultCol star;
    memset(&star, 0, sizeof star);
    star.kind = AST_RC_STAR;
    star.span = e->span;
    q.cols.items = &star;
    q.cols.n = 1;
    AstFromItem item;
    memset(&item, 0, sizeof item);
    item.kind = AST_FROM_TABLE;
    item.schema = e->u.intab.schema;
    item.name = e->u.intab.table;
    item.span = e->span;
    if (e->u.intab.has_args) {
        item.flags |= AST_FROMF_TVF;
        item.args = e->u.intab.args;
    }
    AstFromItem *items[1] = {&item};
    AstFrom from = {items, 1, 1};
    q.from = &from;
    AstExpr sub; /* the IN (SELECT ...) node it stands for */
    memset(&sub, 0, sizeof sub);
    sub.kind = AE_IN_SELECT;
    sub.op = e->op;
    sub.flags = e->flags;
    sub.span = e->span;
    sub.height = e->height;
    sub.u.sub.x = e->u.intab.x;
    sub.u.sub.select = &q;
    SqExpr *x = bind_in_select(b, s, &sub);
    if (x) x->u.sub.query->ast = NULL; /* the AST above lives on this stack */
    return x;
}

/* ------------------------------------------------------------------ */
/* CASE, CAST, COLLATE, vectors                                        */
/* ------------------------------------------------------------------ */

static SqExpr *bind_case(Binder *b, Scope *s, const AstExpr *e) {
    SqExpr *op = e->u.cas.operand ? bind_expr(b, s, e->u.cas.operand) : NULL;
    if (e->u.cas.operand && !op) return NULL;
    SqExpr *x = node(b, SQX_CASE, e, sq_type(SQ_TY_NULL, SQ_AFF_BLOB, e->u.cas.else_ == NULL));
    x->u.cas.operand = op;
    x->u.cas.arms = sq_arena_alloc(b->arena, e->u.cas.n_arms * sizeof *x->u.cas.arms);
    x->u.cas.n_arms = e->u.cas.n_arms;
    for (uint32_t i = 0; i < e->u.cas.n_arms; i++) {
        SqExpr *w = bind_expr(b, s, e->u.cas.arms[i].when);
        SqExpr *t = w ? bind_expr(b, s, e->u.cas.arms[i].then) : NULL;
        if (!t || (op ? !same_width(b, op, w, w->span) : !need_scalar(b, w)) ||
            !need_scalar(b, t))
            return NULL;
        if (op && !bind_check_compare_collation(b, op, w)) return NULL;
        x->u.cas.arms[i].when = w;
        x->u.cas.arms[i].then = t;
        x->type.cls = (uint8_t)sq_class_union(x->type.cls, t->type.cls);
        if (nullable(t)) x->type.nullable = 1;
    }
    if (e->u.cas.else_) {
        SqExpr *el = bind_expr(b, s, e->u.cas.else_);
        if (!el || !need_scalar(b, el)) return NULL;
        x->u.cas.else_ = el;
        x->type.cls = (uint8_t)sq_class_union(x->type.cls, el->type.cls);
        if (nullable(el)) x->type.nullable = 1;
    }
    return x;
}

static SqExpr *bind_cast(Binder *b, Scope *s, const AstExpr *e) {
    SqExpr *a = bind_expr(b, s, e->u.cast.x);
    if (!a || !need_scalar(b, a)) return NULL;
    const char *tn = e->u.cast.type.text;
    SqAffinity aff = sq_affinity_of_decl(tn);
    /* CAST converts: to NUMERIC always gives a number (0 for 'abc') */
    SqTypeClass c = aff == SQ_AFF_BLOB ? SQ_TY_BLOB
                  : aff == SQ_AFF_NUMERIC ? SQ_TY_NUMERIC : sq_class_of_affinity(aff);
    SqExpr *x = node(b, SQX_CAST, e, sq_type(c, aff, nullable(a)));
    x->u.cast.x = a;
    x->u.cast.type_name = tn ? tn : "";
    x->u.cast.aff = (uint8_t)aff;
    return x;
}

static SqExpr *bind_collate(Binder *b, Scope *s, const AstExpr *e) {
    SqExpr *a = bind_expr(b, s, e->u.collate.x);
    if (!a || !need_scalar(b, a)) return NULL;
    SqExpr *x = node(b, SQX_COLLATE, e, a->type);
    x->u.collate.x = a;
    x->u.collate.name = e->u.collate.name.text;
    return x;
}

static SqExpr *bind_vector(Binder *b, Scope *s, const AstExpr *e) {
    SqExpr *x = node(b, SQX_VECTOR, e, sq_type(SQ_TY_ANY, SQ_AFF_BLOB, 1));
    SQ_ARENA_RESERVE(b->arena, &x->u.list, e->u.vec.items.n);
    for (uint32_t i = 0; i < e->u.vec.items.n; i++) {
        SqExpr *v = bind_expr(b, s, e->u.vec.items.items[i]);
        if (!v) return NULL;
        if (v->kind == SQX_SUBQUERY && !need_scalar(b, v)) return NULL;
        sq_expr_list_add(b->arena, &x->u.list, v);
    }
    return x;
}

/* ------------------------------------------------------------------ */
/* Dispatch                                                            */
/* ------------------------------------------------------------------ */

SqExpr *bind_function(Binder *b, Scope *s, const AstExpr *e); /* bind_func.c */

SqExpr *bind_expr(Binder *b, Scope *s, const AstExpr *e) {
    if (b->failed) return NULL;
    switch ((AstExprKind)e->kind) {
    case AE_NULL: case AE_INTEGER: case AE_FLOAT: case AE_STRING: case AE_BLOB:
    case AE_PARAM: case AE_CTIME:
        return bind_literal(b, e);
    case AE_COLUMN: return bind_column(b, s, e);
    case AE_UNARY: return bind_unary(b, s, e);
    case AE_BINARY: return bind_binary(b, s, e);
    case AE_IS: return bind_is(b, s, e);
    case AE_ISNULL: return bind_isnull(b, s, e);
    case AE_LIKE: return bind_like(b, s, e);
    case AE_BETWEEN: return bind_between(b, s, e);
    case AE_IN_LIST: return bind_in_list(b, s, e);
    case AE_IN_SELECT: return bind_in_select(b, s, e);
    case AE_IN_TABLE: return bind_in_table(b, s, e);
    case AE_EXISTS: return bind_sub(b, s, e, SQX_EXISTS, NULL);
    case AE_SUBQUERY: return bind_sub(b, s, e, SQX_SUBQUERY, NULL);
    case AE_CASE: return bind_case(b, s, e);
    case AE_CAST: return bind_cast(b, s, e);
    case AE_COLLATE: return bind_collate(b, s, e);
    case AE_FUNC: return bind_function(b, s, e);
    case AE_VECTOR: return bind_vector(b, s, e);
    case AE_RAISE: {
        SqExpr *x = node(b, SQX_RAISE, e, sq_type(SQ_TY_NULL, SQ_AFF_BLOB, 1));
        x->op = e->op;
        x->u.raise.msg = e->u.raise.msg.text;
        return x;
    }
    default:
        bind_error(b, SQ_E_BIND_OTHER, e->span, "unsupported expression");
        return NULL;
    }
}
