/*
** smt_model.c -- reading a satisfying model back as a database: the live
** rows of each table and their values.
**
** Layer: passes.
*/
#include <stdlib.h>
#include <string.h>

#include "smt_int.h"

int64_t smt_model_int(SqSmt *s, Z3_ast t) {
    Z3_ast v;
    int64_t i = 0;
    if (Z3_model_eval(s->z, s->model, t, 1, &v)) Z3_get_numeral_int64(s->z, v, &i);
    return i;
}

int smt_model_bool(SqSmt *s, Z3_ast t) {
    Z3_ast v;
    return Z3_model_eval(s->z, s->model, t, 1, &v) && Z3_get_bool_value(s->z, v) == Z3_L_TRUE;
}

/* ---- the model ---------------------------------------------------------------------------- */

uint32_t sq_smt_n_tables(const SqSmt *s) { return s->n_tables; }
const CatTable *sq_smt_table(const SqSmt *s, uint32_t t) { return s->tables[t].table; }

uint32_t sq_smt_n_rows(const SqSmt *s, uint32_t t) {
    uint32_t n = 0;
    while (n < s->tables[t].n && smt_model_bool((SqSmt *)s, s->tables[t].rows[n].alive)) n++;
    return n;
}

/* The class an SMT_MIX cell has in the model. */
static SmtKind mix_class(SqSmt *s, SmtVal v) {
    if (smt_model_bool(s, v.istext)) return SMT_TEXT;
    return smt_model_bool(s, v.isint) ? SMT_INT : SMT_REAL;
}

SqSmtCell sq_smt_cell(SqSmt *s, uint32_t t, uint32_t row, uint32_t col) {
    SqSmtCell c = {SQ_VAL_NULL, 0, 0, NULL};
    SmtVal v = smt_cell(&s->tables[t], row, col);
    if (v.kind == SMT_NULL || smt_model_bool(s, v.null)) return c;
    SmtKind kind = (SmtKind)v.kind;
    if (kind == SMT_MIX) {
        kind = mix_class(s, v);
        if (kind == SMT_TEXT) v.v = v.str;
        else if (kind == SMT_INT) v.v = Z3_mk_real2int(s->z, v.v);
    }
    Z3_ast x;
    if (!Z3_model_eval(s->z, s->model, v.v, 1, &x)) return c;
    switch (kind) {
    case SMT_INT: c.type = SQ_VAL_INTEGER; Z3_get_numeral_int64(s->z, x, &c.i); break;
    case SMT_REAL: {
        int64_t num = 0, den = 1;
        Z3_get_numeral_int64(s->z, Z3_get_numerator(s->z, x), &num);
        Z3_get_numeral_int64(s->z, Z3_get_denominator(s->z, x), &den);
        c.type = SQ_VAL_REAL;
        c.r = (double)num / (double)den;
        break;
    }
    case SMT_TEXT:
        c.type = SQ_VAL_TEXT;
        c.s = Z3_is_string(s->z, x) ? smt_str_decode(s, Z3_get_string(s->z, x)) : "";
        break;
    default: break;
    }
    return c;
}

