/*
** smt_model.c -- reading a satisfying model back as a database: the live
** rows of each table and their values, TEXT ranks turned into strings that
** keep the model's order and the queries' literals.
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

/* Strings for the model's TEXT ranks.  Literals keep their text; the
** other ranks between two literals (or below the first, above the last)
** get strings that sort between them in the same order: lo + "a", lo +
** "b", ... when any extension of lo stays below hi, else lo + "a", lo +
** "aa", ... with a byte below the one where hi extends lo. */
typedef struct RankText {
    int64_t rank;
    const char *s;  /* NULL until assigned */
} RankText;

static int by_rank(const void *a, const void *b) {
    int64_t x = ((const RankText *)a)->rank, y = ((const RankText *)b)->rank;
    return (x > y) - (x < y);
}

static void add_rank(SqSmt *s, RankText **v, uint32_t *n, uint32_t *cap, int64_t r, const char *str) {
    for (uint32_t i = 0; i < *n; i++)
        if ((*v)[i].rank == r) {
            if (str) (*v)[i].s = str;
            return;
        }
    RankText *t = SQ_ARENA_APPEND(s->arena, *v, *n, *cap);
    t->rank = r;
    t->s = str;
}

/* The k-th (from 0) of m ascending strings strictly between lo and hi
** (either may be NULL: no bound). */
static const char *between(SqSmt *s, const char *lo, const char *hi, uint32_t k) {
    SqBuf b = SQ_BUF_INIT;
    const char *base = lo ? lo : "";
    size_t nb = strlen(base);
    if (hi && strncmp(hi, base, nb) == 0) {
        unsigned char c = (unsigned char)hi[nb];
        char d = c > 'a' ? 'a' : c > '0' ? '0' : c > ' ' ? ' ' : c > 1 ? 1 : 0;
        sq_buf_puts(&b, base);
        for (uint32_t i = 0; i <= k && d; i++) sq_buf_putc(&b, d);
    } else {
        sq_buf_puts(&b, base);
        for (uint32_t i = 0; i < k / 26; i++) sq_buf_putc(&b, 'z');
        sq_buf_putc(&b, (char)('a' + k % 26));
    }
    const char *out = sq_arena_strdup(s->arena, sq_buf_str(&b));
    sq_buf_free(&b);
    return out;
}

static void map_texts(SqSmt *s) {
    RankText *v = NULL;
    uint32_t n = 0, cap = 0;
    for (uint32_t i = 0; i < s->n_strings; i++) add_rank(s, &v, &n, &cap, smt_model_int(s, s->strings[i].rank), s->strings[i].s);
    for (uint32_t t = 0; t < s->n_tables; t++) {
        const SmtTable *st = &s->tables[t];
        for (uint32_t i = 0; i < st->n; i++)
            for (uint32_t c = 0; c < st->table->n_cols; c++) {
                SmtVal x = smt_cell(st, i, c);
                if (x.kind == SMT_TEXT) add_rank(s, &v, &n, &cap, smt_model_int(s, x.v), NULL);
            }
    }
    if (n > 1) qsort(v, n, sizeof *v, by_rank);
    const char *lo = NULL;
    for (uint32_t i = 0; i < n;) {
        if (v[i].s) {
            lo = v[i++].s;
            continue;
        }
        uint32_t j = i;
        while (j < n && !v[j].s) j++;
        const char *hi = j < n ? v[j].s : NULL;
        for (uint32_t k = i; k < j; k++) v[k].s = between(s, lo, hi, k - i);
        i = j;
    }
    s->texts = v;
    s->n_texts = n;
    s->texts_model = s->model;
}

static const char *text_of(SqSmt *s, int64_t r) {
    if (s->texts_model != s->model) map_texts(s);
    for (uint32_t i = 0; i < s->n_texts; i++)
        if (s->texts[i].rank == r) return s->texts[i].s;
    return "";
}

SqSmtCell sq_smt_cell(SqSmt *s, uint32_t t, uint32_t row, uint32_t col) {
    SqSmtCell c = {SQ_VAL_NULL, 0, 0, NULL};
    SmtVal v = smt_cell(&s->tables[t], row, col);
    if (v.kind == SMT_NULL || smt_model_bool(s, v.null)) return c;
    Z3_ast x;
    if (!Z3_model_eval(s->z, s->model, v.v, 1, &x)) return c;
    switch (v.kind) {
    case SMT_INT: c.type = SQ_VAL_INTEGER; Z3_get_numeral_int64(s->z, x, &c.i); break;
    case SMT_REAL: {
        int64_t num = 0, den = 1;
        Z3_get_numeral_int64(s->z, Z3_get_numerator(s->z, x), &num);
        Z3_get_numeral_int64(s->z, Z3_get_denominator(s->z, x), &den);
        c.type = SQ_VAL_REAL;
        c.r = (double)num / (double)den;
        break;
    }
    case SMT_TEXT: {
        int64_t r = 0;
        Z3_get_numeral_int64(s->z, x, &r);
        c.type = SQ_VAL_TEXT;
        c.s = text_of(s, r);
        break;
    }
    default: break;
    }
    return c;
}

