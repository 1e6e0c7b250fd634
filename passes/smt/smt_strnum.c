/*
** smt_strnum.c -- the number SQLite reads from a TEXT value: in
** arithmetic, in sum()/total()/avg(), in CAST and under numeric affinity.
**
** Layer: passes.  SQLite reads the longest numeric prefix (after blanks):
** CAST('12abc' AS INTEGER) is 12, '1.5x' + 0 is 1.5, 'abc' + 0 is 0.  The
** lowering is exact on two regions of strings and uninterpreted on the
** rest (smt_uf.c), so "equivalent" stays sound and a difference that needs
** the rest is checked by execution:
**
**   an integer   [+-]?[0-9]{1,15}: that integer, in every reading (a REAL
**                for CAST AS REAL);
**   no digit     (no numeric prefix at all): 0, an INTEGER, except that
**                sum() reads it as REAL 0.0 and CAST AS REAL gives 0.0;
**   a date       the value of a date function (date(), datetime(),
**                strftime(), ...) that starts with four digits and '-',
**                or two digits and ':' ('1990-01-01 10:00:00', '12:30'):
**                those digits' integer, an
**                INTEGER in arithmetic and CAST AS NUMERIC, a REAL in
**                sum() (which reads text that is not a whole integer as
**                REAL) and CAST AS REAL.  So datetime(a) - datetime(b)
**                is the difference of the years, as in SQLite.
**
** Whether a TEXT value spells a number whole, as numeric affinity needs,
** is a regular expression, exact everywhere (smt_re_number).
*/
#include "passes/smt/smt_int.h"

enum { MAX_DIGITS = 15 }; /* below 2^53 and 2^63: no rounding, no overflow */

/* [+-]?[0-9]{1,15} */
static Z3_ast re_integer(SqSmt *s) {
    Z3_ast sign = Z3_mk_re_option(s->z, smt_re_union(s, smt_re_lit(s, "+"), smt_re_lit(s, "-")));
    smt_count(s, 3);
    Z3_ast digits = Z3_mk_re_loop(s->z, smt_re_digit(s), 1, MAX_DIGITS);
    return smt_re_concat(s, (Z3_ast[]){sign, digits}, 2);
}

/* Whether x is a year and a dash ('1990-...'), or hours and a colon
** ('12:...'), however it goes on: the shapes of date and time text.
** Into *digits: how many digits start it, as a term. */
static Z3_ast date_like(SqSmt *s, Z3_ast x, Z3_ast *digits) {
    Z3_context z = s->z;
    smt_count(s, 8);
    Z3_ast year = smt_and2(s, smt_in_re(s, Z3_mk_seq_extract(z, x, smt_int(s, 0), smt_int(s, 4)),
                                        Z3_mk_re_loop(z, smt_re_digit(s), 4, 4)),
                           smt_eq(s, Z3_mk_seq_at(z, x, smt_int(s, 4)), smt_str_lit(s, "-", 1)));
    Z3_ast hours = smt_and2(s, smt_in_re(s, Z3_mk_seq_extract(z, x, smt_int(s, 0), smt_int(s, 2)),
                                         Z3_mk_re_loop(z, smt_re_digit(s), 2, 2)),
                            smt_eq(s, Z3_mk_seq_at(z, x, smt_int(s, 2)), smt_str_lit(s, ":", 1)));
    *digits = smt_ite(s, year, smt_int(s, 4), smt_int(s, 2));
    return smt_or2(s, year, hours);
}

/* A string with no digit in it. */
static Z3_ast no_digit(SqSmt *s, Z3_ast x) {
    Z3_ast any = smt_re_star(s, smt_re_any(s));
    return smt_not(s, smt_in_re(s, x, smt_re_concat(s, (Z3_ast[]){any, smt_re_digit(s), any}, 3)));
}

/* The value of x when it is an integer numeral: its digits after an
** optional sign. */
static Z3_ast integer_value(SqSmt *s, Z3_ast x) {
    Z3_context z = s->z;
    smt_count(s, 12);
    Z3_ast first = Z3_mk_seq_at(z, x, smt_int(s, 0));
    Z3_ast has_sign = smt_or2(s, smt_eq(s, first, smt_str_lit(s, "-", 1)), smt_eq(s, first, smt_str_lit(s, "+", 1)));
    Z3_ast len = smt_str_len(s, x);
    Z3_ast rest = Z3_mk_seq_extract(z, x, smt_int(s, 1), Z3_mk_sub(z, 2, (Z3_ast[]){len, smt_int(s, 1)}));
    Z3_ast mag = Z3_mk_str_to_int(z, smt_ite(s, has_sign, rest, x));
    return smt_ite(s, smt_eq(s, first, smt_str_lit(s, "-", 1)), Z3_mk_unary_minus(z, mag), mag);
}

void smt_note_date_text(SqSmt *s, SmtVal v) {
    if (v.kind == SMT_TEXT) *SQ_ARENA_APPEND(s->arena, s->date_texts, s->n_date_texts, s->cap_date_texts) = v.v;
}

static int is_date_text(const SqSmt *s, Z3_ast x) {
    for (uint32_t i = 0; i < s->n_date_texts; i++)
        if (s->date_texts[i] == x) return 1;
    return 0;
}

static const char *uf_name(SmtNumRead how) {
    switch (how) {
    case SMT_READ_ARITH: return "text_number";
    case SMT_READ_SUM: return "summed_number";
    case SMT_READ_INT: return "cast_integer";
    case SMT_READ_REAL: return "cast_real";
    case SMT_READ_NUMERIC: return "cast_numeric";
    default: return "spelled_number";
    }
}

/* The number read from TEXT that spells none whole (t.notnum: a TEXT cell
** of a numeric column): 0 when it has no digit ('', 'abc'), else the
** uninterpreted reading of its prefix ('12abc'); never an integer numeral,
** so the exact regions above cannot hold and are not built. */
static SmtVal read_no_number(SqSmt *s, SmtVal t, SmtNumRead how, SmtVal other) {
    Z3_ast none = no_digit(s, t.v);
    smt_prefer(s, none);
    if (how == SMT_READ_SPELLED) return other; /* never asked: it spells nothing */
    if (other.kind == SMT_INT) return smt_val(s, SMT_INT, t.null, smt_ite(s, none, smt_int(s, 0), other.v));
    SmtVal out = other;
    out.null = t.null;
    out.v = smt_ite(s, none, smt_real(s, 0, 1), other.v);
    if (other.kind == SMT_NUM) /* '' + 0 is the INTEGER 0; sum() reads it as 0.0 */
        out.isint = smt_ite(s, none, how == SMT_READ_SUM ? smt_false(s) : smt_true(s), other.isint);
    return out;
}

SmtVal smt_text_read(SqSmt *s, SmtVal t, SmtNumRead how) {
    Z3_context z = s->z;
    SmtVal arg = t;
    arg.null = smt_false(s);
    SmtKind kind = how == SMT_READ_INT ? SMT_INT : how == SMT_READ_REAL ? SMT_REAL : SMT_NUM;
    SmtVal other = smt_uf(s, uf_name(how), &arg, 1, kind);
    if (t.notnum) return read_no_number(s, t, how, other);
    Z3_ast is_int = smt_in_re(s, t.v, re_integer(s));
    /* only a date function's value, and never where the text must spell
    ** a number whole */
    Z3_ast digits = NULL, is_date = smt_false(s);
    if (how != SMT_READ_SPELLED && is_date_text(s, t.v)) is_date = date_like(s, t.v, &digits);
    Z3_ast none = no_digit(s, t.v);
    Z3_ast n = integer_value(s, t.v);
    if (digits) {
        smt_count(s, 2);
        n = smt_ite(s, is_date, Z3_mk_str_to_int(z, Z3_mk_seq_extract(z, t.v, smt_int(s, 0), digits)), n);
    }
    Z3_ast exact = smt_or2(s, is_int, is_date);
    SmtVal out;
    smt_prefer(s, smt_or2(s, exact, none));
    smt_count(s, 4);
    if (kind == SMT_INT) {
        out = smt_val(s, SMT_INT, t.null, smt_ite(s, exact, n, smt_ite(s, none, smt_int(s, 0), other.v)));
    } else {
        Z3_ast r = smt_ite(s, exact, Z3_mk_int2real(z, n), smt_ite(s, none, smt_real(s, 0, 1), other.v));
        if (kind == SMT_REAL) {
            out = smt_val(s, SMT_REAL, t.null, r);
        } else {
            Z3_ast sum = how == SMT_READ_SUM ? smt_true(s) : smt_false(s);
            Z3_ast isint = smt_ite(s, is_int, smt_true(s),
                                   smt_ite(s, is_date, smt_not(s, sum), smt_ite(s, none, smt_not(s, sum), other.isint)));
            out = smt_num(s, t.null, r, isint);
        }
    }
    return out;
}

SmtVal smt_value_read(SqSmt *s, SmtVal v, SmtNumRead how) {
    v = smt_as_number(s, v);
    switch (v.kind) {
    case SMT_TEXT: return smt_text_read(s, v, how);
    case SMT_MIX: {
        SmtVal t = smt_text_read(s, smt_mix_text(s, v), how);
        SmtVal n = smt_value_read(s, smt_mix_number(s, v), how);
        return smt_val_ite(s, v.istext, t, n, (SrcSpan){0});
    }
    case SMT_NULL: return v;
    default:
        if (how == SMT_READ_INT) return smt_trunc_int(s, v);
        if (how == SMT_READ_REAL) return smt_to_real(s, v);
        return v;
    }
}

Z3_ast smt_text_spells_number(SqSmt *s, SmtVal t) { return smt_in_re(s, t.v, smt_re_number(s)); }
