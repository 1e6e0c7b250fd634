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

#include "bind_int.h"

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
    SqExpr *x = sq_expr_new(b->arena, SQX_LITERAL, at, int_type(0));
    x->u.lit.vtype = SQV_INTEGER;
    x->u.lit.i = v;
    return x;
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
        x->u.lit.vtype = SQV_INTEGER;
        x->u.lit.i = (int64_t)v;
        return x;
    }
    errno = 0;
    char *end;
    long long v = strtoll(t, &end, 10);
    if (errno == ERANGE) {
        x->u.lit.vtype = SQV_REAL;
        x->u.lit.r = strtod(t, NULL);
        x->type = sq_type(SQ_TY_REAL, SQ_AFF_BLOB, 0);
    } else {
        x->u.lit.vtype = SQV_INTEGER;
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
    x->u.lit.vtype = SQV_BLOB;
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
        x->u.lit.vtype = SQV_NULL;
        return x;
    case AE_INTEGER: return bind_integer(b, e);
    case AE_FLOAT:
        x = node(b, SQX_LITERAL, e, sq_type(SQ_TY_REAL, SQ_AFF_BLOB, 0));
        x->u.lit.vtype = SQV_REAL;
        x->u.lit.r = strtod(e->u.lit.text, NULL);
        x->u.lit.text = e->u.lit.text;
        return x;
    case AE_STRING:
        x = node(b, SQX_LITERAL, e, sq_type(SQ_TY_TEXT, SQ_AFF_BLOB, 0));
        x->u.lit.vtype = SQV_TEXT;
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

/* Both sides of a comparison must have the same width. */
static int same_width(Binder *b, const SqExpr *l, const SqExpr *r, SrcSpan at) {
    if (bind_vector_size(l) == bind_vector_size(r)) return 1;
    bind_error(b, SQ_E_ROW_VALUE, at, "row value misused");
    return 0;
}

/* ------------------------------------------------------------------ */
/* Operators                                                           */
/* ------------------------------------------------------------------ */

static int is_comparison(uint8_t op) {
    return op == AST_OP_EQ || op == AST_OP_NE || op == AST_OP_LT ||
           op == AST_OP_LE || op == AST_OP_GT || op == AST_OP_GE;
}

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
    SqExpr *l = bind_expr(b, s, e->u.bin.l);
    SqExpr *r = l ? bind_expr(b, s, e->u.bin.r) : NULL;
    if (!r) return NULL;
    if (is_comparison(e->op)) {
        if (!same_width(b, l, r, e->span) || !bind_check_collation(b, l) ||
            !bind_check_collation(b, r))
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
    if (!r || !same_width(b, l, r, e->span)) return NULL;
    int is_null = r->kind == SQX_LITERAL && r->u.lit.vtype == SQV_NULL; /* x IS NULL */
    if (!is_null && (!bind_check_collation(b, l) || !bind_check_collation(b, r))) return NULL;
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

static SqExpr *bind_like(Binder *b, Scope *s, const AstExpr *e) {
    SqExpr *x0 = bind_expr(b, s, e->u.like.x);
    SqExpr *p = x0 ? bind_expr(b, s, e->u.like.pattern) : NULL;
    SqExpr *esc = (p && e->u.like.escape) ? bind_expr(b, s, e->u.like.escape) : NULL;
    if (!p || (e->u.like.escape && !esc)) return NULL;
    if (!need_scalar(b, x0) || !need_scalar(b, p) || (esc && !need_scalar(b, esc)))
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
        !bind_check_collation(b, x0) || !bind_check_collation(b, lo) ||
        !bind_check_collation(b, hi))
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
    SqExpr *x0 = bind_expr(b, s, e->u.in.x);
    if (!x0) return NULL;
    SqExpr *x = node(b, SQX_IN_LIST, e, int_type(nullable(x0)));
    if (e->flags & AEF_NOT) x->flags |= SQXF_NOT;
    x->u.in.x = x0;
    int w = bind_vector_size(x0);
    for (uint32_t i = 0; i < e->u.in.list.n; i++) {
        SqExpr *v = bind_expr(b, s, e->u.in.list.items[i]);
        if (!v) return NULL;
        if (bind_vector_size(v) != w) {
            bind_error(b, SQ_E_ROW_VALUE, v->span, "row value misused");
            return NULL;
        }
        if (!bind_check_collation(b, x0) || !bind_check_collation(b, v)) return NULL;
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
    if (!x || !bind_check_collation(b, lhs)) return NULL;
    int want = bind_vector_size(lhs), got = 0;
    for (uint32_t i = 0; i < x->u.sub.query->cols.n; i++) got += !x->u.sub.query->cols.items[i].hidden;
    if (want != got) {
        bind_error(b, SQ_E_SUBQUERY_COLS, e->span,
                   "sub-select returns %d columns - expected %d", got, want);
        return NULL;
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
    AstExpr sub = *e;
    sub.kind = AE_IN_SELECT;
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
        if (!t || !need_scalar(b, w) || !need_scalar(b, t)) return NULL;
        if (op && (!bind_check_collation(b, op) || !bind_check_collation(b, w))) return NULL;
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
    SqTypeClass c = aff == SQ_AFF_BLOB ? SQ_TY_BLOB : sq_class_of_affinity(aff);
    SqExpr *x = node(b, SQX_CAST, e, sq_type(c, aff, nullable(a)));
    x->u.cast.x = a;
    x->u.cast.type_name = tn ? tn : "";
    x->u.cast.aff = (uint8_t)aff;
    return x;
}

static int known_collation(const char *name) {
    return sq_stricmp(name, "BINARY") == 0 || sq_stricmp(name, "NOCASE") == 0 ||
           sq_stricmp(name, "RTRIM") == 0;
}

static int first_collate_cb(SqExpr *e, void *arg) {
    if (e->kind != SQX_COLLATE) return 0;
    *(const SqExpr **)arg = e;
    return 1;
}

/* SQLite looks a collating sequence up only when it compares with it, so
** an unknown name is an error only where e is compared or sorted.  The
** collation is the first COLLATE met going down e, left operands first
** (sqlite3ExprCollSeq). */
int bind_check_collation(Binder *b, const SqExpr *e) {
    const SqExpr *c = NULL;
    sq_expr_walk((SqExpr *)e, first_collate_cb, &c);
    if (!c || known_collation(c->u.collate.name)) return 1;
    bind_error(b, SQ_E_NO_COLLATION, c->span, "no such collation sequence: %s", c->u.collate.name);
    return 0;
}

static SqExpr *bind_collate(Binder *b, Scope *s, const AstExpr *e) {
    SqExpr *a = bind_expr(b, s, e->u.collate.x);
    if (!a) return NULL;
    SqExpr *x = node(b, SQX_COLLATE, e, a->type);
    x->u.collate.x = a;
    x->u.collate.name = e->u.collate.name.text;
    return x;
}

static SqExpr *bind_vector(Binder *b, Scope *s, const AstExpr *e) {
    SqExpr *x = node(b, SQX_VECTOR, e, sq_type(SQ_TY_ANY, SQ_AFF_BLOB, 1));
    for (uint32_t i = 0; i < e->u.vec.items.n; i++) {
        SqExpr *v = bind_expr(b, s, e->u.vec.items.items[i]);
        if (!v || !need_scalar(b, v)) return NULL;
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
