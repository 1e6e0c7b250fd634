/*
** smt_val.c -- z3 terms for SQLite values and the operators on them.
**
** Layer: passes.  A value is a NULL flag and a term whose sort follows its
** kind (smt_int.h).  The operators here are SQLite's on values whose
** affinities the caller has applied: three-valued comparisons, storage
** class order (NULL < numbers < TEXT), integer division that truncates
** toward zero and gives NULL for a zero divisor, INTEGER op REAL is REAL.
*/
#include "passes/smt/smt_int.h"

/* ---- plain terms ----------------------------------------------------- */

Z3_ast smt_true(SqSmt *s) { return Z3_mk_true(s->z); }
Z3_ast smt_false(SqSmt *s) { return Z3_mk_false(s->z); }

static int is_true(SqSmt *s, Z3_ast a) { return Z3_get_bool_value(s->z, a) == Z3_L_TRUE; }
static int is_false(SqSmt *s, Z3_ast a) { return Z3_get_bool_value(s->z, a) == Z3_L_FALSE; }

Z3_ast smt_and2(SqSmt *s, Z3_ast a, Z3_ast b) {
    if (is_true(s, a)) return b;
    if (is_true(s, b)) return a;
    if (is_false(s, a) || is_false(s, b)) return smt_false(s);
    smt_count(s, 1);
    Z3_ast args[2] = {a, b};
    return Z3_mk_and(s->z, 2, args);
}

Z3_ast smt_or2(SqSmt *s, Z3_ast a, Z3_ast b) {
    if (is_false(s, a)) return b;
    if (is_false(s, b)) return a;
    if (is_true(s, a) || is_true(s, b)) return smt_true(s);
    smt_count(s, 1);
    Z3_ast args[2] = {a, b};
    return Z3_mk_or(s->z, 2, args);
}

Z3_ast smt_not(SqSmt *s, Z3_ast a) {
    if (is_true(s, a)) return smt_false(s);
    if (is_false(s, a)) return smt_true(s);
    smt_count(s, 1);
    return Z3_mk_not(s->z, a);
}

Z3_ast smt_and_n(SqSmt *s, Z3_ast *a, uint32_t n) {
    Z3_ast r = smt_true(s);
    for (uint32_t i = 0; i < n; i++) r = smt_and2(s, r, a[i]);
    return r;
}

Z3_ast smt_or_n(SqSmt *s, Z3_ast *a, uint32_t n) {
    Z3_ast r = smt_false(s);
    for (uint32_t i = 0; i < n; i++) r = smt_or2(s, r, a[i]);
    return r;
}

Z3_ast smt_ite(SqSmt *s, Z3_ast c, Z3_ast a, Z3_ast b) {
    if (is_true(s, c)) return a;
    if (is_false(s, c)) return b;
    smt_count(s, 1);
    return Z3_mk_ite(s->z, c, a, b);
}

Z3_ast smt_eq(SqSmt *s, Z3_ast a, Z3_ast b) {
    smt_count(s, 1);
    return Z3_mk_eq(s->z, a, b);
}

Z3_ast smt_int(SqSmt *s, int64_t i) { return Z3_mk_int64(s->z, i, Z3_mk_int_sort(s->z)); }

Z3_ast smt_real(SqSmt *s, int64_t num, int64_t den) {
    Z3_ast n = Z3_mk_int64(s->z, num, Z3_mk_real_sort(s->z));
    if (den == 1) return n;
    return Z3_mk_div(s->z, n, Z3_mk_int64(s->z, den, Z3_mk_real_sort(s->z)));
}

Z3_ast smt_count_true(SqSmt *s, Z3_ast *c, uint32_t n) {
    if (!n) return smt_int(s, 0);
    Z3_ast *terms = sq_arena_alloc(s->arena, n * sizeof *terms);
    for (uint32_t i = 0; i < n; i++) terms[i] = smt_ite(s, c[i], smt_int(s, 1), smt_int(s, 0));
    smt_count(s, 1);
    return n == 1 ? terms[0] : Z3_mk_add(s->z, n, terms);
}

/* ---- values ----------------------------------------------------------- */

SmtVal smt_null(SqSmt *s) { return (SmtVal){SMT_NULL, smt_true(s), NULL, NULL, NULL, NULL, 0}; }

SmtVal smt_val(SqSmt *s, SmtKind kind, Z3_ast null, Z3_ast v) {
    (void)s;
    return (SmtVal){(uint8_t)kind, null, v, NULL, NULL, NULL, 0};
}

SmtVal smt_num(SqSmt *s, Z3_ast null, Z3_ast v, Z3_ast isint) {
    (void)s;
    return (SmtVal){SMT_NUM, null, v, isint, NULL, NULL, 0};
}

SmtVal smt_mix(SqSmt *s, Z3_ast null, Z3_ast istext, Z3_ast str, Z3_ast num, Z3_ast isint) {
    (void)s;
    return (SmtVal){SMT_MIX, null, num, isint, istext, str, 0};
}

Z3_ast smt_is_integer(SqSmt *s, SmtVal v) {
    if (v.kind == SMT_NUM) return v.isint;
    if (v.kind == SMT_MIX) return smt_and2(s, smt_not(s, v.istext), v.isint);
    return v.kind == SMT_REAL ? smt_false(s) : smt_true(s);
}

Z3_sort smt_sort(SqSmt *s, SmtKind k) {
    switch (k) {
    case SMT_REAL:
    case SMT_NUM:
    case SMT_MIX: return Z3_mk_real_sort(s->z); /* the number; str and the flags apart */
    case SMT_BOOL: return Z3_mk_bool_sort(s->z);
    case SMT_TEXT: return Z3_mk_string_sort(s->z);
    default: return Z3_mk_int_sort(s->z);
    }
}

Z3_ast smt_named(SqSmt *s, const char *name, const char *suffix, Z3_sort sort) {
    const char *full = suffix ? sq_arena_printf(s->arena, "%s%s", name, suffix) : name;
    Z3_ast c = Z3_mk_const(s->z, Z3_mk_string_symbol(s->z, full), sort);
    smt_count(s, 1);
    return c;
}

SmtVal smt_fresh(SqSmt *s, SmtKind kind, const char *name) {
    Z3_ast null = smt_named(s, name, ".null", Z3_mk_bool_sort(s->z));
    Z3_ast v = smt_named(s, name, NULL, smt_sort(s, kind));
    SmtVal r = smt_val(s, kind, null, v);
    if (kind == SMT_MIX) {
        r.istext = smt_named(s, name, ".istext", Z3_mk_bool_sort(s->z));
        r.str = smt_named(s, name, ".str", Z3_mk_string_sort(s->z));
        r.isint = smt_named(s, name, ".isint", Z3_mk_bool_sort(s->z));
    }
    return r;
}

/* ---- values of several classes ------------------------------------------- */

SmtVal smt_to_mix(SqSmt *s, SmtVal v) {
    v = smt_as_number(s, v);
    switch (v.kind) {
    case SMT_MIX: return v;
    case SMT_TEXT: {
        SmtVal m = smt_mix(s, v.null, smt_true(s), v.v, smt_real(s, 0, 1), smt_true(s));
        m.notnum = v.notnum;
        return m;
    }
    case SMT_NULL: return smt_mix(s, smt_true(s), smt_false(s), smt_str_lit(s, "", 0), smt_real(s, 0, 1), smt_true(s));
    default: {
        Z3_ast isint = smt_is_integer(s, v);
        return smt_mix(s, v.null, smt_false(s), smt_str_lit(s, "", 0), smt_to_real(s, v).v, isint);
    }
    }
}

SmtVal smt_mix_text(SqSmt *s, SmtVal v) {
    SmtVal t = smt_val(s, SMT_TEXT, v.null, v.str);
    t.notnum = v.notnum;
    return t;
}

SmtVal smt_mix_number(SqSmt *s, SmtVal v) { return smt_num(s, v.null, v.v, v.isint); }

SmtVal smt_null_if(SqSmt *s, Z3_ast c, SmtVal v) {
    if (v.kind == SMT_NULL) return v;
    v.null = smt_or2(s, c, v.null);
    return v;
}

SmtVal smt_as_number(SqSmt *s, SmtVal v) {
    if (v.kind != SMT_BOOL) return v;
    return smt_val(s, SMT_INT, v.null, smt_ite(s, v.v, smt_int(s, 1), smt_int(s, 0)));
}

SmtVal smt_to_real(SqSmt *s, SmtVal v) {
    v = smt_as_number(s, v);
    if (v.kind == SMT_MIX) return smt_value_read(s, v, SMT_READ_REAL);
    if (v.kind == SMT_NUM) return smt_val(s, SMT_REAL, v.null, v.v);
    if (v.kind != SMT_INT) return v;
    smt_count(s, 1);
    return smt_val(s, SMT_REAL, v.null, Z3_mk_int2real(s->z, v.v));
}

SmtVal smt_trunc_int(SqSmt *s, SmtVal v) {
    v = smt_as_number(s, v);
    if (v.kind == SMT_MIX) return smt_value_read(s, v, SMT_READ_INT);
    if (v.kind != SMT_REAL && v.kind != SMT_NUM) return v;
    smt_count(s, 5);
    Z3_context z = s->z;
    Z3_ast fl = Z3_mk_real2int(z, v.v);
    Z3_ast neg = Z3_mk_unary_minus(z, Z3_mk_real2int(z, Z3_mk_unary_minus(z, v.v)));
    return smt_val(s, SMT_INT, v.null, smt_ite(s, Z3_mk_ge(z, v.v, smt_real(s, 0, 1)), fl, neg));
}

/* v as SMT_NUM (INT and REAL widened, with their class). */
static SmtVal to_num(SqSmt *s, SmtVal v) {
    v = smt_as_number(s, v);
    if (v.kind == SMT_NUM) return v;
    Z3_ast isint = smt_is_integer(s, v);
    return smt_num(s, v.null, smt_to_real(s, v).v, isint);
}

static int numeric(SmtKind k) { return k == SMT_INT || k == SMT_REAL || k == SMT_BOOL || k == SMT_NUM; }

/* Bring a and b to one kind for an ite: NULL takes the other's kind, BOOL
** and INT meet as INT, numbers of two classes as SMT_NUM, TEXT and a
** number as SMT_MIX (unless the value is read as a number anyway). */
SmtVal smt_val_ite(SqSmt *s, Z3_ast c, SmtVal a, SmtVal b, SrcSpan at) {
    if (a.kind == SMT_NULL && b.kind == SMT_NULL) return a;
    if (a.kind == SMT_NULL) {
        b.null = smt_ite(s, c, smt_true(s), b.null);
        return b;
    }
    if (b.kind == SMT_NULL) {
        a.null = smt_ite(s, c, a.null, smt_true(s));
        return a;
    }
    if (a.kind != b.kind) {
        a = smt_as_number(s, a);
        b = smt_as_number(s, b);
    }
    (void)at;
    if (a.kind != b.kind && s->num_read) { /* read as a number anyway (smt_expr_number) */
        if (a.kind == SMT_TEXT || a.kind == SMT_MIX) a = smt_value_read(s, a, (SmtNumRead)(s->num_read - 1));
        if (b.kind == SMT_TEXT || b.kind == SMT_MIX) b = smt_value_read(s, b, (SmtNumRead)(s->num_read - 1));
    }
    if (a.kind != b.kind && numeric((SmtKind)a.kind) && numeric((SmtKind)b.kind)) {
        a = to_num(s, a); /* INTEGER in some rows, REAL in others */
        b = to_num(s, b);
    } else if (a.kind != b.kind) { /* TEXT in some rows, a number in others */
        a = smt_to_mix(s, a);
        b = smt_to_mix(s, b);
    }
    SmtVal r = smt_val(s, (SmtKind)a.kind, smt_ite(s, c, a.null, b.null), smt_ite(s, c, a.v, b.v));
    if (a.kind == SMT_NUM || a.kind == SMT_MIX) r.isint = smt_ite(s, c, a.isint, b.isint);
    if (a.kind == SMT_MIX) {
        r.istext = smt_ite(s, c, a.istext, b.istext);
        r.str = smt_ite(s, c, a.str, b.str);
    }
    /* a NULL side has no text to spell anything */
    r.notnum = (a.notnum || a.kind == SMT_NULL) && (b.notnum || b.kind == SMT_NULL);
    return r;
}

void smt_truth(SqSmt *s, SmtVal v, Z3_ast *t, Z3_ast *f, SrcSpan at) {
    Z3_ast nn = smt_not(s, v.null), val;
    switch (v.kind) {
    case SMT_NULL:
        *t = *f = smt_false(s);
        return;
    case SMT_BOOL:
        val = v.v;
        break;
    case SMT_INT:
        val = smt_not(s, smt_eq(s, v.v, smt_int(s, 0)));
        break;
    case SMT_REAL:
    case SMT_NUM:
        val = smt_not(s, smt_eq(s, v.v, smt_real(s, 0, 1)));
        break;
    case SMT_TEXT:
    case SMT_MIX: { /* the number its text starts with, nonzero */
        SmtVal n = smt_value_read(s, v, SMT_READ_ARITH);
        val = smt_not(s, smt_eq(s, n.v, smt_real(s, 0, 1)));
        break;
    }
    default:
        smt_unsupported(s, at, "a value of no known class used as a condition");
    }
    *t = smt_and2(s, nn, val);
    *f = smt_and2(s, nn, smt_not(s, val));
}

SmtVal smt_bool3(SqSmt *s, Z3_ast t, Z3_ast f) {
    return smt_val(s, SMT_BOOL, smt_and2(s, smt_not(s, t), smt_not(s, f)), t);
}

/* ---- comparison --------------------------------------------------------- */

/* The storage class order of a kind: numbers, then TEXT. */
static int class_rank(SmtKind k) { return k == SMT_TEXT ? 2 : 1; }

/* a op b for values of one class, both not NULL. */
static Z3_ast compare_terms(SqSmt *s, int op, Z3_ast a, Z3_ast b) {
    if (smt_is_str(s, a)) return smt_str_compare(s, op, a, b);
    smt_count(s, 1);
    switch (op) {
    case AST_OP_EQ: return Z3_mk_eq(s->z, a, b);
    case AST_OP_NE: return Z3_mk_not(s->z, Z3_mk_eq(s->z, a, b));
    case AST_OP_LT: return Z3_mk_lt(s->z, a, b);
    case AST_OP_LE: return Z3_mk_le(s->z, a, b);
    case AST_OP_GT: return Z3_mk_gt(s->z, a, b);
    default: return Z3_mk_ge(s->z, a, b);
    }
}

/* Both values as terms of one sort (INT and REAL meet as REAL); 0 when
** their classes differ. */
static int same_class(SqSmt *s, SmtVal *a, SmtVal *b) {
    *a = smt_as_number(s, *a);
    *b = smt_as_number(s, *b);
    if (class_rank((SmtKind)a->kind) != class_rank((SmtKind)b->kind)) return 0;
    if (a->kind != b->kind) {
        *a = smt_to_real(s, *a);
        *b = smt_to_real(s, *b);
    }
    return 1;
}

/* a op b over non-NULL values, classes compared first; a value of
** several classes (SMT_MIX) compared as its TEXT where it is TEXT, as its
** number elsewhere. */
static Z3_ast compare_values(SqSmt *s, int op, SmtVal a, SmtVal b) {
    if (a.kind == SMT_MIX)
        return smt_ite(s, a.istext, compare_values(s, op, smt_mix_text(s, a), b),
                       compare_values(s, op, smt_mix_number(s, a), b));
    if (b.kind == SMT_MIX)
        return smt_ite(s, b.istext, compare_values(s, op, a, smt_mix_text(s, b)),
                       compare_values(s, op, a, smt_mix_number(s, b)));
    int ra = class_rank((SmtKind)a.kind), rb = class_rank((SmtKind)b.kind);
    if (!same_class(s, &a, &b)) {
        int r;
        switch (op) {
        case AST_OP_EQ: r = 0; break;
        case AST_OP_NE: r = 1; break;
        case AST_OP_LT: case AST_OP_LE: r = ra < rb; break;
        default: r = ra > rb; break;
        }
        return r ? smt_true(s) : smt_false(s);
    }
    return compare_terms(s, op, a.v, b.v);
}

SmtVal smt_compare(SqSmt *s, int op, SmtVal a, SmtVal b, SrcSpan at) {
    (void)at;
    if (a.kind == SMT_NULL || b.kind == SMT_NULL) return smt_null(s);
    Z3_ast null = smt_or2(s, a.null, b.null);
    return smt_val(s, SMT_BOOL, null, compare_values(s, op, a, b));
}

Z3_ast smt_same(SqSmt *s, SmtVal a, SmtVal b) {
    if (a.kind == SMT_NULL && b.kind == SMT_NULL) return smt_true(s);
    if (a.kind == SMT_NULL) return b.null;
    if (b.kind == SMT_NULL) return a.null;
    Z3_ast both_null = smt_and2(s, a.null, b.null);
    Z3_ast neither = smt_and2(s, smt_not(s, a.null), smt_not(s, b.null));
    return smt_or2(s, both_null, smt_and2(s, neither, compare_values(s, AST_OP_EQ, a, b)));
}

Z3_ast smt_result_equal(SqSmt *s, SmtVal a, SmtVal b) { return smt_same(s, a, b); }

Z3_ast smt_order_lt(SqSmt *s, SmtVal a, SmtVal b, int desc, int nulls_last, SrcSpan at) {
    (void)at;
    if (a.kind == SMT_NULL && b.kind == SMT_NULL) return smt_false(s);
    Z3_ast an = a.null, bn = b.null;
    Z3_ast null_first = nulls_last ? smt_and2(s, smt_not(s, an), bn) : smt_and2(s, an, smt_not(s, bn));
    if (a.kind == SMT_NULL || b.kind == SMT_NULL) return null_first;
    Z3_ast both = smt_and2(s, smt_not(s, an), smt_not(s, bn));
    Z3_ast lt = desc ? compare_values(s, AST_OP_LT, b, a) : compare_values(s, AST_OP_LT, a, b);
    return smt_or2(s, null_first, smt_and2(s, both, lt));
}

/* ---- arithmetic ---------------------------------------------------------- */

/* Integer division truncating toward zero, as C and SQLite do; z3's div
** rounds toward negative infinity for a positive divisor. */
static Z3_ast trunc_div(SqSmt *s, Z3_ast a, Z3_ast b) {
    Z3_context z = s->z;
    Z3_ast zero = smt_int(s, 0);
    Z3_ast na = Z3_mk_unary_minus(z, a), nb = Z3_mk_unary_minus(z, b);
    Z3_ast a_pos = Z3_mk_ge(z, a, zero), b_pos = Z3_mk_gt(z, b, zero);
    smt_count(s, 12);
    Z3_ast pp = Z3_mk_div(z, a, b), pn = Z3_mk_unary_minus(z, Z3_mk_div(z, a, nb));
    Z3_ast np = Z3_mk_unary_minus(z, Z3_mk_div(z, na, b)), nn = Z3_mk_div(z, na, nb);
    return smt_ite(s, a_pos, smt_ite(s, b_pos, pp, pn), smt_ite(s, b_pos, np, nn));
}

/* A REAL truncated toward zero, as an Int. */
static Z3_ast trunc_real(SqSmt *s, Z3_ast x) {
    Z3_context z = s->z;
    smt_count(s, 5);
    Z3_ast fl = Z3_mk_real2int(z, x);
    Z3_ast neg = Z3_mk_unary_minus(z, Z3_mk_real2int(z, Z3_mk_unary_minus(z, x)));
    return smt_ite(s, Z3_mk_ge(z, x, smt_real(s, 0, 1)), fl, neg);
}

/* Arithmetic when an operand's class depends on the row: both as reals,
** INTEGER rules where both are integers. */
static SmtVal arith_num(SqSmt *s, int op, SmtVal a, SmtVal b, SrcSpan at) {
    s->rounds = 1;
    a = to_num(s, a);
    b = to_num(s, b);
    Z3_context z = s->z;
    Z3_ast null = smt_or2(s, a.null, b.null), both = smt_and2(s, a.isint, b.isint);
    Z3_ast args[2] = {a.v, b.v};
    smt_count(s, 4);
    switch (op) {
    case AST_OP_ADD: return smt_num(s, null, Z3_mk_add(z, 2, args), both);
    case AST_OP_SUB: return smt_num(s, null, Z3_mk_sub(z, 2, args), both);
    case AST_OP_MUL: return smt_num(s, null, Z3_mk_mul(z, 2, args), both);
    case AST_OP_DIV: {
        Z3_ast zero = smt_eq(s, b.v, smt_real(s, 0, 1));
        Z3_ast idiv = Z3_mk_int2real(z, trunc_div(s, Z3_mk_real2int(z, a.v), Z3_mk_real2int(z, b.v)));
        return smt_num(s, smt_or2(s, null, zero), smt_ite(s, both, idiv, Z3_mk_div(z, a.v, b.v)), both);
    }
    case AST_OP_MOD: {
        Z3_ast ai = trunc_real(s, a.v), bi = trunc_real(s, b.v);
        Z3_ast zero = smt_eq(s, bi, smt_int(s, 0));
        Z3_ast r = Z3_mk_sub(z, 2, (Z3_ast[]){ai, Z3_mk_mul(z, 2, (Z3_ast[]){bi, trunc_div(s, ai, bi)})});
        return smt_num(s, smt_or2(s, null, zero), Z3_mk_int2real(z, r), both);
    }
    default: smt_unsupported(s, at, "the operator %s", ast_op_name(op));
    }
}

/* ---- division by a count ---------------------------------------------------- */

void smt_note_count(SqSmt *s, Z3_ast cnt, uint32_t max) {
    struct SmtCount *c = SQ_ARENA_APPEND(s->arena, s->counts, s->n_counts, s->cap_counts);
    c->t = cnt;
    c->max = max;
}

static int count_max(SqSmt *s, Z3_ast t, uint32_t *max) {
    for (uint32_t i = 0; i < s->n_counts; i++)
        if (s->counts[i].t == t) {
            *max = s->counts[i].max;
            return 1;
        }
    return 0;
}

/* The integer quotient a / cnt as ite(cnt = 1, a / 1, ite(cnt = 2, a / 2,
** ...)), linear; a / max when none holds (cnt = 0, where the caller's
** result is NULL). */
static Z3_ast int_by_count(SqSmt *s, Z3_ast a, Z3_ast cnt, uint32_t max) {
    if (max == 0) max = 1;
    Z3_ast r = NULL;
    for (uint32_t k = max; k >= 1; k--) {
        smt_count(s, 3);
        Z3_ast q = trunc_div(s, a, smt_int(s, k));
        r = r ? smt_ite(s, smt_eq(s, cnt, smt_int(s, k)), q, r) : q;
    }
    return r;
}

/* The REAL quotient stays a division by the count, which z3 satisfies
** quickly, with the lemmas cnt = k -> q = a / k, which make proofs linear:
** a plain ite over the divisors made finding differences twice as slow. */
Z3_ast smt_div_count(SqSmt *s, Z3_ast a, Z3_ast cnt, uint32_t max) {
    s->rounds = 1;
    smt_count(s, 2);
    Z3_ast q = Z3_mk_div(s->z, a, Z3_mk_int2real(s->z, cnt));
    for (uint32_t k = 1; k <= max; k++) {
        smt_count(s, 4);
        smt_lemma(s, Z3_mk_implies(s->z, smt_eq(s, cnt, smt_int(s, k)),
                                   smt_eq(s, q, Z3_mk_div(s->z, a, smt_real(s, k, 1)))));
    }
    return q;
}

/* a / b where b is a count: INTEGER division for an INTEGER a, else REAL;
** NULL for b = 0. */
static SmtVal div_count(SqSmt *s, SmtVal a, SmtVal b, uint32_t max) {
    Z3_ast null = smt_or2(s, smt_or2(s, a.null, b.null), smt_eq(s, b.v, smt_int(s, 0)));
    if (a.kind == SMT_INT) return smt_val(s, SMT_INT, null, int_by_count(s, a.v, b.v, max));
    if (a.kind == SMT_REAL) return smt_val(s, SMT_REAL, null, smt_div_count(s, a.v, b.v, max));
    smt_count(s, 2);
    Z3_ast idiv = Z3_mk_int2real(s->z, int_by_count(s, Z3_mk_real2int(s->z, a.v), b.v, max));
    return smt_num(s, null, smt_ite(s, a.isint, idiv, smt_div_count(s, a.v, b.v, max)), a.isint);
}

SmtVal smt_arith(SqSmt *s, int op, SmtVal a, SmtVal b, SrcSpan at) {
    a = smt_as_number(s, a);
    b = smt_as_number(s, b);
    uint32_t max;
    if (op == AST_OP_DIV && b.kind == SMT_INT && (a.kind == SMT_INT || a.kind == SMT_REAL || a.kind == SMT_NUM) &&
        count_max(s, b.v, &max))
        return div_count(s, a, b, max);
    /* SQLite reads the number the text starts with */
    if (a.kind == SMT_TEXT || a.kind == SMT_MIX) a = smt_value_read(s, a, SMT_READ_ARITH);
    if (b.kind == SMT_TEXT || b.kind == SMT_MIX) b = smt_value_read(s, b, SMT_READ_ARITH);
    if (a.kind == SMT_NULL || b.kind == SMT_NULL) return smt_null(s);
    if (a.kind == SMT_NUM || b.kind == SMT_NUM) return arith_num(s, op, a, b, at);
    Z3_context z = s->z;
    Z3_ast null = smt_or2(s, a.null, b.null);
    if (op == AST_OP_MOD) {
        Z3_ast ai = a.kind == SMT_INT ? a.v : trunc_real(s, a.v);
        Z3_ast bi = b.kind == SMT_INT ? b.v : trunc_real(s, b.v);
        Z3_ast zero = smt_eq(s, bi, smt_int(s, 0));
        smt_count(s, 2);
        Z3_ast r = Z3_mk_sub(z, 2, (Z3_ast[]){ai, Z3_mk_mul(z, 2, (Z3_ast[]){bi, trunc_div(s, ai, bi)})});
        if (a.kind == SMT_REAL || b.kind == SMT_REAL) {
            smt_count(s, 1);
            return smt_val(s, SMT_REAL, smt_or2(s, null, zero), Z3_mk_int2real(z, r));
        }
        return smt_val(s, SMT_INT, smt_or2(s, null, zero), r);
    }
    SmtKind k = SMT_INT;
    if (a.kind == SMT_REAL || b.kind == SMT_REAL) {
        a = smt_to_real(s, a);
        b = smt_to_real(s, b);
        k = SMT_REAL;
        s->rounds = 1;
    }
    Z3_ast args[2] = {a.v, b.v}, r;
    smt_count(s, 1);
    switch (op) {
    case AST_OP_ADD: r = Z3_mk_add(z, 2, args); break;
    case AST_OP_SUB: r = Z3_mk_sub(z, 2, args); break;
    case AST_OP_MUL: r = Z3_mk_mul(z, 2, args); break;
    case AST_OP_DIV: {
        Z3_ast zero = smt_eq(s, b.v, k == SMT_INT ? smt_int(s, 0) : smt_real(s, 0, 1));
        r = k == SMT_INT ? trunc_div(s, a.v, b.v) : Z3_mk_div(z, a.v, b.v);
        return smt_val(s, k, smt_or2(s, null, zero), r);
    }
    default:
        smt_unsupported(s, at, "the operator %s", ast_op_name(op));
    }
    return smt_val(s, k, null, r);
}

SmtVal smt_negate(SqSmt *s, SmtVal a, SrcSpan at) {
    (void)at;
    a = smt_as_number(s, a);
    if (a.kind == SMT_TEXT || a.kind == SMT_MIX) a = smt_value_read(s, a, SMT_READ_ARITH);
    if (a.kind == SMT_NULL) return a;
    smt_count(s, 1);
    a.v = Z3_mk_unary_minus(s->z, a.v);
    return a;
}
