/*
** smt_model.c -- reading a satisfying model back as a database: the live
** rows of each table and their values.
**
** Layer: passes.
*/
#include <stdlib.h>
#include <string.h>

#include "passes/smt/smt_int.h"

int64_t smt_model_int(SqSmt *s, Z3_ast t) {
    Z3_ast v;
    int64_t i = 0;
    s->reading++;
    if (Z3_model_eval(s->z, s->model, t, 1, &v)) Z3_get_numeral_int64(s->z, v, &i);
    s->reading--;
    return i;
}

int smt_model_bool(SqSmt *s, Z3_ast t) {
    Z3_ast v;
    s->reading++;
    int b = Z3_model_eval(s->z, s->model, t, 1, &v) && Z3_get_bool_value(s->z, v) == Z3_L_TRUE;
    s->reading--;
    return b;
}

/* ---- the model ---------------------------------------------------------------------------- */

uint32_t sq_smt_n_tables(const SqSmt *s) { return s->n_tables; }
const CatTable *sq_smt_table(const SqSmt *s, uint32_t t) { return s->tables[t].table; }

/* Reading the model: z3 may fail here too (memory); smt_protect then
** ends the reading, with what was read so far, and sq_smt_failure says
** why.  What is read is a candidate only: SQLite decides. */

typedef struct Rows {
    uint32_t t, n;
} Rows;

static void count_rows(SqSmt *s, void *arg) {
    Rows *r = arg;
    while (r->n < s->tables[r->t].n && smt_model_bool(s, s->tables[r->t].rows[r->n].alive)) r->n++;
}

uint32_t sq_smt_n_rows(const SqSmt *s, uint32_t t) {
    Rows r = {t, 0};
    if (s->model) smt_protect((SqSmt *)s, count_rows, &r);
    return r.n;
}

typedef struct Cell {
    uint32_t t, row, col;
    SqSmtCell c;
} Cell;

/* The class an SMT_MIX cell has in the model. */
static SmtKind mix_class(SqSmt *s, SmtVal v) {
    if (smt_model_bool(s, v.istext)) return SMT_TEXT;
    return smt_model_bool(s, v.isint) ? SMT_INT : SMT_REAL;
}

static void read_cell(SqSmt *s, void *arg) {
    Cell *a = arg;
    s->reading++; /* smt_protect restores it */
    SqSmtCell c = {SQ_VAL_NULL, 0, 0, NULL};
    SmtVal v = smt_cell(&s->tables[a->t], a->row, a->col);
    if (v.kind == SMT_NULL || smt_model_bool(s, v.null)) return;
    SmtKind kind = (SmtKind)v.kind;
    if (kind == SMT_MIX) {
        kind = mix_class(s, v);
        if (kind == SMT_TEXT) v.v = v.str;
        else if (kind == SMT_INT) v.v = Z3_mk_real2int(s->z, v.v);
    }
    Z3_ast x;
    if (!Z3_model_eval(s->z, s->model, v.v, 1, &x)) return;
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
    a->c = c;
}

SqSmtCell sq_smt_cell(SqSmt *s, uint32_t t, uint32_t row, uint32_t col) {
    Cell a = {t, row, col, {SQ_VAL_NULL, 0, 0, NULL}};
    if (s->model) smt_protect(s, read_cell, &a);
    return a.c;
}
