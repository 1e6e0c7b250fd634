/*
** smt_facts.c -- what a real database's columns show, as constraints on
** the symbolic database: no NULL where the data has none, each value
** once where the data holds each once, and only the storage classes and
** text forms the data shows (sq_smt_set_facts).
**
** Layer: passes.  The facts come from outside (backend/equiv turns a
** column profile into them under --realistic); this file only asserts
** them, over the live tuples of each table the build reached, after the
** schema's own constraints (smt_db.c).  Every fact only removes
** databases from the search: with none, the formula is what it was.
** See docs/smt.md, "Realistic data".
*/
#include <string.h>

#include "passes/smt/smt_int.h"

/* ---- text forms as regular expressions ------------------------------------ */

static Z3_ast re_opt(SqSmt *s, Z3_ast r) {
    smt_count(s, 1);
    return Z3_mk_re_option(s->z, r);
}

static Z3_ast re_digits(SqSmt *s) {
    smt_count(s, 1);
    return Z3_mk_re_plus(s->z, smt_re_digit(s));
}

/* 'HH:MM', then ':SS', then '.' and digits: a time of day. */
static Z3_ast re_time(SqSmt *s) {
    Z3_ast frac = smt_re_concat(s, (Z3_ast[]){smt_re_lit(s, "."), re_digits(s)}, 2);
    Z3_ast secs = smt_re_concat(s, (Z3_ast[]){smt_re_parse(s, ":[0-5][0-9]"), re_opt(s, frac)}, 2);
    return smt_re_concat(s, (Z3_ast[]){smt_re_parse(s, "([01][0-9]|2[0-3]):[0-5][0-9]"), re_opt(s, secs)}, 2);
}

/* A sign, then the digits of an integer, or (point) of a decimal. */
static Z3_ast re_number_text(SqSmt *s, int point) {
    Z3_ast sign = re_opt(s, smt_re_parse(s, "[+-]"));
    if (!point) return smt_re_concat(s, (Z3_ast[]){sign, re_digits(s)}, 2);
    Z3_ast dot = smt_re_lit(s, ".");
    Z3_ast whole = smt_re_concat(s, (Z3_ast[]){re_digits(s), dot, smt_re_star(s, smt_re_digit(s))}, 3);
    Z3_ast frac = smt_re_concat(s, (Z3_ast[]){dot, re_digits(s)}, 2);
    return smt_re_concat(s, (Z3_ast[]){sign, smt_re_union(s, whole, frac)}, 2);
}

/* The TEXT values forms (SQ_SMT_TEXT_* bits) allow, or NULL for any. */
static Z3_ast re_forms(SqSmt *s, unsigned forms) {
    Z3_ast r = NULL, one;
    for (unsigned bit = 1; bit <= SQ_SMT_TEXT_DECIMAL; bit <<= 1) {
        if (!(forms & bit)) continue;
        switch (bit) {
        case SQ_SMT_TEXT_DATE: one = smt_re_valid_date(s); break;
        case SQ_SMT_TEXT_DATETIME:
            one = smt_re_concat(s, (Z3_ast[]){smt_re_valid_date(s), smt_re_parse(s, "[ T]"), re_time(s)}, 3);
            break;
        case SQ_SMT_TEXT_TIME: one = re_time(s); break;
        case SQ_SMT_TEXT_INTEGER: one = re_number_text(s, 0); break;
        default: one = re_number_text(s, 1); break;
        }
        r = r ? smt_re_union(s, r, one) : one;
    }
    return r;
}

/* ---- one column ------------------------------------------------------------- */

/* The classes a cell can hold: BLOBs are not modelled. */
enum { MODELLED = SQ_SMT_CLASS_INTEGER | SQ_SMT_CLASS_REAL | SQ_SMT_CLASS_TEXT };

/* The TEXT str has a class and a form the facts allow (forms: NULL, any). */
static Z3_ast text_allowed(SqSmt *s, unsigned classes, Z3_ast forms, Z3_ast str) {
    if (!(classes & SQ_SMT_CLASS_TEXT)) return smt_false(s);
    return forms ? smt_in_re(s, str, forms) : smt_true(s);
}

/* The value v, when not NULL, has a class (and as TEXT a form) that the
** facts allow. */
static Z3_ast value_allowed(SqSmt *s, SmtVal v, unsigned classes, Z3_ast forms) {
    Z3_ast is_int = (classes & SQ_SMT_CLASS_INTEGER) ? smt_true(s) : smt_false(s);
    Z3_ast is_real = (classes & SQ_SMT_CLASS_REAL) ? smt_true(s) : smt_false(s);
    Z3_ast ok;
    switch (v.kind) {
    case SMT_INT: ok = is_int; break;
    case SMT_REAL: ok = is_real; break;
    case SMT_TEXT: ok = text_allowed(s, classes, forms, v.v); break;
    case SMT_MIX:
        ok = smt_ite(s, v.istext, text_allowed(s, classes, forms, v.str), smt_ite(s, v.isint, is_int, is_real));
        break;
    default: return smt_true(s); /* no cell has another kind */
    }
    return smt_or2(s, v.null, ok);
}

/* Two tuples never hold the same non-NULL value in column c while both
** live. */
static void assert_unique(SqSmt *s, const SmtTable *t, uint32_t c) {
    for (uint32_t i = 0; i < t->n; i++)
        for (uint32_t j = i + 1; j < t->n; j++) {
            SmtVal x = smt_cell(t, i, c), y = smt_cell(t, j, c);
            Z3_ast both = smt_and2(s, t->rows[i].alive, t->rows[j].alive);
            Z3_ast dup = smt_and2(s, smt_not(s, smt_or2(s, x.null, y.null)), smt_same(s, x, y));
            Z3_solver_assert(s->z, s->solver, smt_not(s, smt_and2(s, both, dup)));
        }
}

static void one_fact(SqSmt *s, const SmtTable *t, const SqSmtColumnFacts *f) {
    unsigned classes = f->classes ? f->classes : MODELLED;
    int shaped = (classes & MODELLED) != MODELLED || (f->text_forms && (classes & SQ_SMT_CLASS_TEXT));
    Z3_ast forms = shaped && (classes & SQ_SMT_CLASS_TEXT) ? re_forms(s, f->text_forms) : NULL;
    for (uint32_t i = 0; i < t->n; i++) {
        SmtVal v = smt_cell(t, i, f->col);
        Z3_ast alive = t->rows[i].alive;
        if (f->not_null) Z3_solver_assert(s->z, s->solver, Z3_mk_implies(s->z, alive, smt_not(s, v.null)));
        if (shaped)
            Z3_solver_assert(s->z, s->solver, Z3_mk_implies(s->z, alive, value_allowed(s, v, classes, forms)));
    }
    if (f->unique) assert_unique(s, t, f->col);
}

void smt_fact_constraints(SqSmt *s) {
    for (uint32_t k = 0; k < s->n_facts; k++) {
        const SqSmtColumnFacts *f = &s->facts[k];
        for (uint32_t t = 0; t < s->n_tables; t++) {
            if (s->tables[t].table != f->table || f->col >= f->table->n_cols) continue;
            one_fact(s, &s->tables[t], f);
            s->facts_used++;
        }
    }
}

/* ---- cells known to hold dates ------------------------------------------- */

/* The date functions are exact on valid dates and uninterpreted beside
** them (smt_date.c); a cell the facts keep to valid dates needs no
** uninterpreted side, and z3 proves far quicker without one (a pair that
** compares d and date(d) took z3 12 s to prove the same at one row). */

void smt_fact_cells(SqSmt *s, const SmtTable *t) {
    for (uint32_t k = 0; k < s->n_facts; k++) {
        const SqSmtColumnFacts *f = &s->facts[k];
        if (f->table != t->table || f->col >= t->table->n_cols || f->text_forms != SQ_SMT_TEXT_DATE) continue;
        for (uint32_t i = 0; i < t->n; i++) {
            SmtVal v = smt_cell(t, i, f->col);
            Z3_ast text = v.kind == SMT_TEXT ? v.v : v.kind == SMT_MIX ? v.str : NULL;
            if (text) *SQ_ARENA_APPEND(s->arena, s->dated, s->n_dated, s->cap_dated) = text;
        }
    }
}

int smt_fact_dated(const SqSmt *s, Z3_ast x) {
    for (uint32_t i = 0; i < s->n_dated; i++)
        if (s->dated[i] == x) return 1;
    return 0;
}
