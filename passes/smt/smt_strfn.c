/*
** smt_strfn.c -- SQLite's string functions on z3 strings: ||, length,
** substr, instr, upper, lower, trim, ltrim, rtrim, replace, printf with
** simple formats, and the text of a number.
**
** Layer: passes.  Each function follows SQLite 3.40's func.c for TEXT
** arguments (characters, not bytes).  Where the exact result needs more
** than the string theory gives cheaply (the text of a REAL, upper() and lower() other than against a constant or LIKE,
** replace() where the pattern occurs, a trim set that is not a constant), the result is an uninterpreted function of the
** arguments (smt_uf.c) in that region only: "equivalent" stays sound and a
** difference that leans on it is left unconfirmed by execution.
*/
#include <stdio.h>
#include <string.h>

#include "passes/smt/smt_int.h"

static Z3_ast lit(SqSmt *s, const char *str) { return smt_str_lit(s, str, (uint32_t)strlen(str)); }

static Z3_ast int_ge(SqSmt *s, Z3_ast a, int64_t b) {
    smt_count(s, 1);
    return Z3_mk_ge(s->z, a, smt_int(s, b));
}

static Z3_ast add(SqSmt *s, Z3_ast a, Z3_ast b) {
    smt_count(s, 1);
    return Z3_mk_add(s->z, 2, (Z3_ast[]){a, b});
}

static Z3_ast neg(SqSmt *s, Z3_ast a) {
    smt_count(s, 1);
    return Z3_mk_unary_minus(s->z, a);
}

/* ---- the text of a number ---------------------------------------------------- */

/* An Int's decimal text ("-12"). */
static Z3_ast int_text(SqSmt *s, Z3_ast i) {
    smt_count(s, 3);
    Z3_ast pos = Z3_mk_int_to_str(s->z, i);
    Z3_ast minus = smt_str_concat(s, lit(s, "-"), Z3_mk_int_to_str(s->z, neg(s, i)));
    return smt_ite(s, int_ge(s, i, 0), pos, minus);
}

/* A Real's text as SQLite's "%!.15g" writes it ("3.0", "0.25",
** "1.0e+20"): an uninterpreted function of the value.  Exact terms for the
** integral and short decimal values were tried, but z3 4.8 mixing reals,
** integers and str.from_int then times out even on one pinned value. */
static Z3_ast real_text(SqSmt *s, Z3_ast r) {
    SmtVal arg = smt_val(s, SMT_REAL, smt_false(s), r);
    return smt_uf(s, "real_text", &arg, 1, SMT_TEXT).v;
}

SmtVal smt_text_of(SqSmt *s, SmtVal v) {
    v = smt_as_number(s, v);
    switch (v.kind) {
    case SMT_INT: return smt_val(s, SMT_TEXT, v.null, int_text(s, v.v));
    case SMT_REAL: return smt_val(s, SMT_TEXT, v.null, real_text(s, v.v));
    case SMT_NUM: {
        smt_count(s, 1);
        Z3_ast i = int_text(s, Z3_mk_real2int(s->z, v.v));
        return smt_val(s, SMT_TEXT, v.null, smt_ite(s, v.isint, i, real_text(s, v.v)));
    }
    case SMT_MIX: /* its TEXT where it is TEXT, else the number's */
        return smt_val(s, SMT_TEXT, v.null, smt_ite(s, v.istext, v.str, smt_text_of(s, smt_mix_number(s, v)).v));
    default: return v; /* TEXT, NULL */
    }
}

SmtVal smt_concat(SqSmt *s, SmtVal a, SmtVal b) {
    if (a.kind == SMT_NULL || b.kind == SMT_NULL) return smt_null(s);
    a = smt_text_of(s, a);
    b = smt_text_of(s, b);
    return smt_val(s, SMT_TEXT, smt_or2(s, a.null, b.null), smt_str_concat(s, a.v, b.v));
}

/* ---- case --------------------------------------------------------------------------- */

/* upper() and lower() are uninterpreted functions with the axioms that
** hold for SQLite's ASCII folding: the length is kept, no letter of the
** other case is left, and a string without such letters is unchanged.
** On strings of up to FOLD_EXACT_LEN characters the search first tries
** the fold spelled out, character by character.
** Where they meet a constant (lower(x) = 'abc') or LIKE, which folds case
** itself, the folded argument is used instead, exactly (smt_fold_of). */
typedef struct SmtFold {
    Z3_ast result, arg;
    int to_lower;
} SmtFold;

/* A letter of the case a fold removes, anywhere in the string. */
static Z3_ast has_case(SqSmt *s, int upper) {
    Z3_ast any = smt_re_star(s, smt_re_any(s));
    Z3_ast letter = upper ? smt_re_range(s, 'A', 'Z') : smt_re_range(s, 'a', 'z');
    return smt_re_concat(s, (Z3_ast[]){any, letter, any}, 3);
}

/* Strings this short are folded exactly, character by character: the
** search tries them first (smt_prefer), so that a difference found there
** is one SQLite shows. */
enum { FOLD_EXACT_LEN = 2 };

/* The character c (a string of one) in the other case when it is a
** letter of the case the fold removes, else c. */
static Z3_ast fold_char(SqSmt *s, Z3_ast c, int to_lower) {
    char from = to_lower ? 'A' : 'a', to = to_lower ? 'a' : 'A';
    Z3_ast r = c;
    for (int i = 25; i >= 0; i--) {
        char a[2] = {(char)(from + i), 0}, b[2] = {(char)(to + i), 0};
        r = smt_ite(s, smt_eq(s, c, smt_str_lit(s, a, 1)), smt_str_lit(s, b, 1), r);
    }
    return r;
}

/* v is str folded, exactly, and str is short. */
static Z3_ast fold_exact(SqSmt *s, Z3_ast str, Z3_ast v, int to_lower) {
    Z3_ast c = Z3_mk_le(s->z, smt_str_len(s, str), smt_int(s, FOLD_EXACT_LEN));
    for (int i = 0; i < FOLD_EXACT_LEN; i++) {
        smt_count(s, 3);
        Z3_ast at = smt_int(s, i);
        c = smt_and2(s, c, smt_eq(s, Z3_mk_seq_at(s->z, v, at), fold_char(s, Z3_mk_seq_at(s->z, str, at), to_lower)));
    }
    return c;
}

static Z3_ast fold_case(SqSmt *s, Z3_ast str, int to_lower) {
    SmtVal arg = smt_val(s, SMT_TEXT, smt_false(s), str);
    Z3_ast v = smt_uf(s, to_lower ? "lower" : "upper", &arg, 1, SMT_TEXT).v;
    for (uint32_t i = 0; i < s->n_folds; i++)
        if (s->folds[i].result == v) return v;
    SmtFold *f = SQ_ARENA_APPEND(s->arena, s->folds, s->n_folds, s->cap_folds);
    f->result = v;
    f->arg = str;
    f->to_lower = to_lower;
    Z3_ast other = has_case(s, to_lower);
    Z3_ast c[3] = {smt_eq(s, smt_str_len(s, v), smt_str_len(s, str)), smt_not(s, smt_in_re(s, v, other)),
                   Z3_mk_implies(s->z, smt_not(s, smt_in_re(s, str, other)), smt_eq(s, v, str))};
    Z3_solver_assert(s->z, s->solver, smt_and_n(s, c, 3));
    smt_prefer(s, fold_exact(s, str, v, to_lower));
    return v;
}

Z3_ast smt_str_lower(SqSmt *s, Z3_ast str) { return fold_case(s, str, 1); }

int smt_fold_of(SqSmt *s, Z3_ast t, Z3_ast *arg, int *to_lower) {
    for (uint32_t i = 0; i < s->n_folds; i++)
        if (s->folds[i].result == t) {
            *arg = s->folds[i].arg;
            if (to_lower) *to_lower = s->folds[i].to_lower;
            return 1;
        }
    return 0;
}

/* The strings that fold to the constant c: each ASCII letter in either
** case; NULL when no string does (c holds a letter of the removed case). */
Z3_ast smt_folds_to(SqSmt *s, const char *c, int to_lower) {
    uint32_t n = (uint32_t)strlen(c), m = 0;
    Z3_ast *parts = sq_arena_alloc(s->arena, (n + 1) * sizeof *parts);
    for (uint32_t i = 0; i < n;) {
        uint32_t ch = smt_utf8_next((const unsigned char *)c, n, &i);
        if (to_lower ? (ch >= 'A' && ch <= 'Z') : (ch >= 'a' && ch <= 'z')) return NULL;
        parts[m++] = smt_re_either_case(s, ch);
    }
    return smt_re_concat(s, parts, m);
}

/* ---- substr ------------------------------------------------------------------------- */

/* An argument SQLite reads as an integer (sqlite3_value_int64): INTEGER
** as is, REAL truncated; 0 for TEXT, which this lowering leaves to the
** caller. */
static int int_arg(SqSmt *s, SmtVal v, Z3_ast *out) {
    v = smt_as_number(s, v);
    if (v.kind == SMT_INT) {
        *out = v.v;
        return 1;
    }
    if (v.kind != SMT_REAL && v.kind != SMT_NUM) return 0;
    Z3_context z = s->z;
    smt_count(s, 5);
    Z3_ast down = Z3_mk_real2int(z, v.v), up = neg(s, Z3_mk_real2int(z, neg(s, v.v)));
    *out = smt_ite(s, Z3_mk_ge(z, v.v, smt_real(s, 0, 1)), down, up);
    return 1;
}

/* substr(x, p1[, p2]) as func.c's substrFunc computes the characters
** [p1, p1 + p2) it returns: a negative p1 counts from the end, p1 = 0 eats
** one character of p2, a negative p2 takes the characters before p1. */
static Z3_ast substr_text(SqSmt *s, Z3_ast x, Z3_ast p1, Z3_ast p2, int has_p2) {
    Z3_context z = s->z;
    Z3_ast zero = smt_int(s, 0), len = smt_str_len(s, x);
    if (!has_p2) { /* SQLite: the length limit; as much as reaches the end does (z3 balks at 10^9) */
        Z3_ast mag = smt_ite(s, Z3_mk_lt(z, p1, zero), neg(s, p1), p1);
        p2 = add(s, add(s, len, mag), smt_int(s, 1));
    }
    Z3_ast neg2 = Z3_mk_lt(z, p2, zero);
    p2 = smt_ite(s, neg2, neg(s, p2), p2);
    /* p1 < 0: from the end; if still before the start, shorten p2 */
    Z3_ast from_end = add(s, p1, len);
    Z3_ast before = Z3_mk_lt(z, from_end, zero);
    Z3_ast a1 = smt_ite(s, before, zero, from_end);
    Z3_ast a2 = smt_ite(s, before, smt_ite(s, Z3_mk_lt(z, add(s, p2, from_end), zero), zero, add(s, p2, from_end)), p2);
    /* p1 > 0: 1-based; p1 = 0: one fewer character */
    Z3_ast b1 = smt_ite(s, Z3_mk_gt(z, p1, zero), add(s, p1, smt_int(s, -1)), zero);
    Z3_ast b2 = smt_ite(s, smt_and2(s, smt_eq(s, p1, zero), Z3_mk_gt(z, p2, zero)), add(s, p2, smt_int(s, -1)), p2);
    Z3_ast neg1 = Z3_mk_lt(z, p1, zero);
    Z3_ast q1 = smt_ite(s, neg1, a1, b1), q2 = smt_ite(s, neg1, a2, b2);
    /* a negative length: the characters before p1 */
    Z3_ast back = add(s, q1, neg(s, q2));
    Z3_ast past = Z3_mk_lt(z, back, zero);
    Z3_ast r1 = smt_ite(s, neg2, smt_ite(s, past, zero, back), q1);
    Z3_ast r2 = smt_ite(s, smt_and2(s, neg2, past), add(s, q2, back), q2);
    smt_count(s, 16);
    /* constant arguments (the usual case) fold the arithmetic away, up to
    ** the length of x */
    return Z3_mk_seq_extract(z, x, Z3_simplify(z, r1), Z3_simplify(z, r2));
}

/* ---- trim --------------------------------------------------------------------------- */

/* The characters of the trim set, each a string of one character. */
static Z3_ast *set_chars(SqSmt *s, const char *chars, uint32_t *n_out) {
    uint32_t n = (uint32_t)strlen(chars), m = 0;
    Z3_ast *c = sq_arena_alloc(s->arena, (n + 1) * sizeof *c);
    for (uint32_t i = 0; i < n;) {
        uint32_t start = i;
        smt_utf8_next((const unsigned char *)chars, n, &i);
        c[m++] = smt_str_lit(s, chars + start, i - start);
    }
    *n_out = m;
    return c;
}

/* The one-character string ch is none of the set's. */
static Z3_ast not_in_set(SqSmt *s, Z3_ast ch, Z3_ast *set, uint32_t n) {
    Z3_ast r = smt_true(s);
    for (uint32_t i = 0; i < n; i++) r = smt_and2(s, r, smt_not(s, smt_eq(s, ch, set[i])));
    return r;
}

/* trim(x, chars): x = p ++ y ++ q with p and q made of the characters and
** y empty or not starting (left) or ending (right) with one: y is unique,
** a fresh constant so defined. */
static Z3_ast trim_text(SqSmt *s, Z3_ast x, const char *chars, int left, int right) {
    if (!*chars) return x;
    Z3_context z = s->z;
    Z3_sort str = Z3_mk_string_sort(z);
    uint32_t n;
    Z3_ast *set = set_chars(s, chars, &n);
    Z3_ast re = Z3_mk_seq_to_re(z, set[0]);
    for (uint32_t i = 1; i < n; i++) re = smt_re_union(s, re, Z3_mk_seq_to_re(z, set[i]));
    re = smt_re_star(s, re);
    Z3_ast y = smt_fresh_const(s, "trim", str);
    Z3_ast p = left ? smt_fresh_const(s, "trim.l", str) : lit(s, "");
    Z3_ast q = right ? smt_fresh_const(s, "trim.r", str) : lit(s, "");
    Z3_ast empty = smt_eq(s, y, lit(s, ""));
    Z3_ast c[5];
    uint32_t k = 0;
    smt_count(s, 4);
    c[k++] = smt_eq(s, x, smt_str_concat(s, p, smt_str_concat(s, y, q)));
    if (left) {
        c[k++] = smt_in_re(s, p, re);
        c[k++] = smt_or2(s, empty, not_in_set(s, Z3_mk_seq_at(z, y, smt_int(s, 0)), set, n));
    }
    if (right) {
        c[k++] = smt_in_re(s, q, re);
        Z3_ast last = Z3_mk_seq_at(z, y, add(s, smt_str_len(s, y), smt_int(s, -1)));
        c[k++] = smt_or2(s, empty, not_in_set(s, last, set, n));
    }
    Z3_solver_assert(z, s->solver, smt_and_n(s, c, k));
    return y;
}

/* ---- replace ------------------------------------------------------------------------ */

/* replace(x, from, to): z3 4.8's str.replace_all leaves its solver
** incomplete, so an uninterpreted function with what is exact: x itself
** when from is empty or does not occur in x, to when x is from. */
static Z3_ast replace_text(SqSmt *s, const SmtVal *t) {
    SmtVal args[3] = {t[0], t[1], t[2]};
    for (int i = 0; i < 3; i++) args[i].null = smt_false(s);
    Z3_ast v = smt_uf(s, "replace", args, 3, SMT_TEXT).v;
    Z3_ast x = t[0].v, from = t[1].v, to = t[2].v;
    smt_count(s, 2);
    Z3_ast absent = smt_or2(s, smt_eq(s, from, lit(s, "")), smt_not(s, Z3_mk_seq_contains(s->z, x, from)));
    Z3_ast whole = smt_and2(s, smt_eq(s, x, from), smt_not(s, smt_eq(s, from, lit(s, ""))));
    Z3_solver_assert(s->z, s->solver, Z3_mk_implies(s->z, absent, smt_eq(s, v, x)));
    Z3_solver_assert(s->z, s->solver, Z3_mk_implies(s->z, whole, smt_eq(s, v, to)));
    return v;
}

/* ---- printf ------------------------------------------------------------------------ */

/* What %d prints: the argument as CAST AS INTEGER reads it (a text's
** integer prefix, a real toward zero), 0 for NULL or no argument. */
static Z3_ast printf_int(SqSmt *s, const SmtVal *arg) {
    if (!arg || arg->kind == SMT_NULL) return int_text(s, smt_int(s, 0));
    SmtVal v = arg->kind == SMT_TEXT ? smt_text_read(s, *arg, SMT_READ_INT) : smt_trunc_int(s, *arg);
    return int_text(s, smt_ite(s, v.null, smt_int(s, 0), v.v));
}

/* What %s prints: the argument's text, '' for NULL or no argument. */
static Z3_ast printf_str(SqSmt *s, const SmtVal *arg) {
    if (!arg || arg->kind == SMT_NULL) return lit(s, "");
    SmtVal t = smt_text_of(s, *arg);
    return smt_ite(s, t.null, lit(s, ""), t.v);
}

/* What %.Nf prints (places = N): for an INTEGER of at most 2^53 in size,
** which a double holds exactly, its digits, a point and N zeros (no point
** for N = 0); otherwise the value rounded as a double, an uninterpreted
** function of the REAL.  NULL or no argument prints 0. */
static Z3_ast printf_fixed(SqSmt *s, const SmtVal *arg, int places) {
    char zeros[12] = ".", name[24];
    memset(zeros + 1, '0', (size_t)places);
    zeros[places ? places + 1 : 0] = 0;
    if (!arg || arg->kind == SMT_NULL) return smt_str_concat(s, lit(s, "0"), lit(s, zeros));
    SmtVal v = smt_as_number(s, arg->kind == SMT_TEXT ? smt_text_read(s, *arg, SMT_READ_REAL) : *arg);
    snprintf(name, sizeof name, "printf %%.%df", places);
    SmtVal real = smt_to_real(s, v);
    real.null = smt_false(s);
    Z3_ast out = smt_uf(s, name, &real, 1, SMT_TEXT).v;
    if (v.kind == SMT_INT || v.kind == SMT_NUM) {
        Z3_ast i = smt_trunc_int(s, v).v, limit = smt_int(s, (int64_t)1 << 53);
        smt_count(s, 2);
        Z3_ast exact = smt_and2(s, Z3_mk_le(s->z, i, limit), int_ge(s, add(s, i, limit), 0));
        if (v.kind == SMT_NUM) exact = smt_and2(s, exact, v.isint);
        out = smt_ite(s, exact, smt_str_concat(s, int_text(s, i), lit(s, zeros)), out);
    }
    return smt_ite(s, v.null, smt_str_concat(s, lit(s, "0"), lit(s, zeros)), out);
}

/* printf(format, ...) and format(...) with a constant format of literal
** text, %%, %d, %i, %s, %f and %.Nf (N up to 9), and no flag or width:
** the text, never NULL.  0 for any other format (the caller leaves the
** call uninterpreted). */
int smt_printf(SqSmt *s, const SmtVal *args, uint32_t n, SmtVal *out) {
    const char *fmt = n ? smt_const_text(s, args[0]) : NULL;
    if (!fmt) return 0;
    Z3_ast r = lit(s, "");
    SqBuf text = SQ_BUF_IN(s->arena);
    uint32_t next = 1;
    int ok = 1;
    for (const char *c = fmt; *c && ok; c++) {
        if (*c != '%') {
            sq_buf_putc(&text, *c);
            continue;
        }
        int places = -1;
        char conv = *++c;
        if (conv == '.' && c[1] >= '0' && c[1] <= '9' && c[2] == 'f') places = c[1] - '0', conv = 'f', c += 2;
        else if (conv == 'f') places = 6;
        if (conv == '%') {
            sq_buf_putc(&text, '%');
            continue;
        }
        if (conv != 'd' && conv != 'i' && conv != 's' && conv != 'f') {
            ok = 0;
            break;
        }
        if (text.len) r = smt_str_concat(s, r, lit(s, sq_buf_str(&text)));
        sq_buf_reset(&text);
        const SmtVal *a = next < n ? &args[next] : NULL;
        next++;
        r = smt_str_concat(s, r, conv == 's' ? printf_str(s, a) : conv == 'f' ? printf_fixed(s, a, places)
                                                                               : printf_int(s, a));
    }
    if (ok && text.len) r = smt_str_concat(s, r, lit(s, sq_buf_str(&text)));
    sq_buf_free(&text);
    if (ok) *out = smt_val(s, SMT_TEXT, smt_false(s), r);
    return ok;
}

/* ---- the dispatcher ------------------------------------------------------------------ */

const char *smt_const_text(SqSmt *s, SmtVal v) {
    if (v.kind != SMT_TEXT || !Z3_is_string(s->z, v.v)) return NULL;
    if (Z3_get_bool_value(s->z, v.null) != Z3_L_FALSE) return NULL;
    return smt_str_decode(s, Z3_get_string(s->z, v.v));
}

int smt_string_function(SqSmt *s, const SmtFunc *f, const SmtVal *args, uint32_t n, SmtVal *out) {
    switch (f->op) {
    case SMT_FN_LENGTH: case SMT_FN_LOWER: case SMT_FN_UPPER: case SMT_FN_SUBSTR: case SMT_FN_SUBSTRING:
    case SMT_FN_INSTR: case SMT_FN_TRIM: case SMT_FN_LTRIM: case SMT_FN_RTRIM: case SMT_FN_REPLACE:
        break;
    default: return 0;
    }
    if (n > 3) return 0;
    Z3_ast null = smt_false(s);
    SmtVal t[3];
    for (uint32_t i = 0; i < n && i < 3; i++) {
        if (args[i].kind == SMT_NULL) {
            *out = smt_null(s);
            return 1;
        }
        null = smt_or2(s, null, args[i].null);
        t[i] = smt_text_of(s, args[i]);
    }
    Z3_ast v;
    SmtKind kind = SMT_TEXT;
    switch (f->op) {
    case SMT_FN_LENGTH:
        v = smt_str_len(s, t[0].v);
        kind = SMT_INT;
        break;
    case SMT_FN_LOWER: case SMT_FN_UPPER: v = fold_case(s, t[0].v, f->op == SMT_FN_LOWER); break;
    case SMT_FN_SUBSTR: case SMT_FN_SUBSTRING: {
        Z3_ast p1, p2 = NULL;
        if (!int_arg(s, args[1], &p1) || (n > 2 && !int_arg(s, args[2], &p2))) return 0;
        v = substr_text(s, t[0].v, p1, p2, n > 2);
        break;
    }
    case SMT_FN_INSTR:
        smt_count(s, 2);
        v = add(s, Z3_mk_seq_index(s->z, t[0].v, t[1].v, smt_int(s, 0)), smt_int(s, 1));
        kind = SMT_INT;
        break;
    case SMT_FN_REPLACE: v = replace_text(s, t); break;
    default: { /* trim, ltrim, rtrim */
        const char *chars = n > 1 ? smt_const_text(s, t[1]) : " ";
        if (!chars) return 0;
        v = trim_text(s, t[0].v, chars, f->op != SMT_FN_RTRIM, f->op != SMT_FN_LTRIM);
    }
    }
    *out = smt_val(s, kind, null, v);
    return 1;
}
