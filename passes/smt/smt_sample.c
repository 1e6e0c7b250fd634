/*
** smt_sample.c -- sample dates: a few TEXT values, taken from the
** queries' own literals, on which SQLite computes the date functions.
**
** Layer: passes.  z3's string solver is slow on the regular expressions
** that make strftime() exact (smt_date.c), and a date function with a
** modifier, julianday() or unixepoch() has no exact model at all.  But a
** difference between two queries that read dates nearly always shows on a
** date the queries name, or next to one: '1995' in strftime('%Y', d) =
** '1995' suggests 1995-01-01, 1995-12-31 23:59:59, 1994-12-31,
** 1996-01-01, and '1995 x' and '1995x' (which LIKE '1995%' accepts and
** strftime() reads as no date at all); 201206 suggests '201206', a month
** as six digits, which strftime() reads as a Julian day.  The year 2000 gives samples to
** queries that name no date.  A year named (or now's) minus a small
** number named gives the first day of the year an age points at.  So every call of a date function whose one
** open argument is TEXT is lowered as
**
**     x IS NULL          -> NULL
**     x = sample 1       -> what SQLite gives for sample 1 (smt_fold_sql)
**     ...
**     otherwise          -> the general lowering (smt_date.c, or an
**                           uninterpreted function)
**
** which is exact on the samples by construction.  The condition "x is
** NULL or a sample" is noted (smt_note_sample); the search first looks
** for a difference where every such argument is a sample, a small finite
** domain z3 decides quickly, before the regions of smt_date.c and then
** the whole string space (smt.c, sq_smt_check).  The samples only order
** the search: no verdict depends on them being complete.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "passes/smt/smt_int.h"

enum { MAX_SAMPLES = 32 };

static void add(SqSmt *s, const char *text) {
    for (uint32_t i = 0; i < s->n_samples; i++)
        if (strcmp(s->samples[i], text) == 0) return;
    if (s->n_samples < MAX_SAMPLES)
        *SQ_ARENA_APPEND(s->arena, s->samples, s->n_samples, s->cap_samples) = sq_arena_strdup(s->arena, text);
}

static int digits(const char *p, int n) {
    for (int i = 0; i < n; i++)
        if (p[i] < '0' || p[i] > '9') return 0;
    return 1;
}

/* The samples a year suggests: its first and last instants, the days
** either side of it, and two texts that start with the year but are no
** date, one sorting before its dates and one after. */
static void year_samples(SqSmt *s, int y) {
    char b[40];
    snprintf(b, sizeof b, "%04d-01-01", y);
    add(s, b);
    snprintf(b, sizeof b, "%04d-12-31 23:59:59", y);
    add(s, b);
    if (y > 0) {
        snprintf(b, sizeof b, "%04d-12-31", y - 1);
        add(s, b);
    }
    if (y < 9999) {
        snprintf(b, sizeof b, "%04d-01-01", y + 1);
        add(s, b);
    }
    snprintf(b, sizeof b, "%04d x", y);
    add(s, b);
    snprintf(b, sizeof b, "%04dx", y);
    add(s, b);
}

/* A month spelled YYYYMM, as BIRD's yearmonth tables store it ('201206',
** or 201206 compared with such a TEXT column): the text itself.  SQLite's
** date functions read six digits as a Julian day number, so strftime('%Y',
** '201101') is '-4162', not '2011'. */
static int yyyymm_sample(SqSmt *s, const char *t, uint32_t n) {
    if (n != 6 || !digits(t, 6) || t[0] == '0') return 0;
    int month = (t[4] - '0') * 10 + (t[5] - '0');
    if (month < 1 || month > 12) return 0;
    char b[8];
    memcpy(b, t, 6);
    b[6] = 0;
    add(s, b);
    return 1;
}

/* The samples a literal suggests: by its shape, a year ('1995', 1995), a
** month ('1995-03', '199503'), a day or an instant, each also followed by
** 'x' (text no date reads, but LIKE and substr() see the literal in); a
** LIKE pattern by what comes before its first wildcard ('1991-10-%'). */
static void literal_samples(SqSmt *s, const char *text, uint32_t n) {
    char t[24], b[48];
    uint32_t len = 0;
    if (yyyymm_sample(s, text, n)) return;
    while (len < n && len < sizeof t - 1 && text[len] != '%' && text[len] != '_' && text[len] != '*') {
        t[len] = text[len];
        len++;
    }
    t[len] = 0;
    if (len < 4 || !digits(t, 4) || (len < n && len == sizeof t - 1)) return;
    if (len == 4) {
        year_samples(s, (t[0] - '0') * 1000 + (t[1] - '0') * 100 + (t[2] - '0') * 10 + (t[3] - '0'));
        return;
    }
    if (t[4] != '-' || len < 7 || !digits(t + 5, 2)) return;
    snprintf(b, sizeof b, "%sx", t);
    add(s, b);
    if (len >= 10 && t[7] == '-' && digits(t + 8, 2)) { /* a day, or an instant */
        add(s, t);
        t[10] = 0;
        add(s, t);
        snprintf(b, sizeof b, "%s 12:00:00", t);
        add(s, b);
    } else { /* a month */
        t[7] = 0;
        snprintf(b, sizeof b, "%s-01", t);
        add(s, b);
        snprintf(b, sizeof b, "%s-15 12:00:00", t);
        add(s, b);
    }
}

/* A REAL literal, and its negation (a minus sign is an operator). */
static void add_real(SqSmt *s, double r) {
    double both[2] = {r, -r};
    for (int k = 0; k < 2; k++) {
        uint32_t i = 0;
        while (i < s->n_reals && s->reals[i] != both[k]) i++;
        if (i == s->n_reals && s->n_reals < MAX_SAMPLES)
            *SQ_ARENA_APPEND(s->arena, s->reals, s->n_reals, s->cap_reals) = both[k];
    }
}

/* What the walk over the queries' literals gathers besides samples: the
** years they name ('1995', 1995, '1995-03-04'), the small numbers (an
** age, a count of years), and whether they read the clock. */
typedef struct Collect {
    SqSmt *s;
    int years[8], ages[8];
    int n_years, n_ages;
    int clock;
} Collect;

static void note(int *list, int *n, int v) {
    for (int i = 0; i < *n; i++)
        if (list[i] == v) return;
    if (*n < 8) list[(*n)++] = v;
}

static int literal_cb(SqExpr *e, void *arg) {
    Collect *c = arg;
    SqSmt *s = c->s;
    c->clock |= sq_expr_node_reads_clock(e);
    if (e->kind != SQX_LITERAL) return 0;
    if (e->u.lit.vtype == SQ_VAL_REAL && e->u.lit.r == e->u.lit.r && e->u.lit.r - e->u.lit.r == 0) add_real(s, e->u.lit.r);
    if (e->u.lit.vtype == SQ_VAL_TEXT) {
        literal_samples(s, e->u.lit.s, e->u.lit.n);
        if (e->u.lit.n >= 4 && digits(e->u.lit.s, 4) && (e->u.lit.n == 4 || e->u.lit.s[4] == '-'))
            note(c->years, &c->n_years, atoi(e->u.lit.s)); /* '1995', or a day of 1995 */
    }
    if (e->u.lit.vtype == SQ_VAL_INTEGER && e->u.lit.i >= 1000 && e->u.lit.i <= 9999) {
        year_samples(s, (int)e->u.lit.i);
        note(c->years, &c->n_years, (int)e->u.lit.i);
    }
    if (e->u.lit.vtype == SQ_VAL_INTEGER && e->u.lit.i >= 2 && e->u.lit.i <= 150) note(c->ages, &c->n_ages, (int)e->u.lit.i);
    if (e->u.lit.vtype == SQ_VAL_INTEGER && e->u.lit.i >= 100001 && e->u.lit.i <= 999912) {
        char t[8];
        snprintf(t, sizeof t, "%d", (int)e->u.lit.i);
        yyyymm_sample(s, t, 6);
    }
    return 0;
}

/* A year named (or the clock's) minus a small number named: the first
** day of the year an age or a span of years points at, and the day
** before ('now' minus a birthday >= 50 turns on a birthday in now's year
** - 50, > 50 on one a year earlier). */
static void age_samples(SqSmt *s, const Collect *c) {
    int years[9], n = 0;
    if (c->clock) years[n++] = atoi(s->now);
    for (int i = 0; i < c->n_years; i++) years[n++] = c->years[i];
    char b[24];
    for (int i = 0; i < n; i++)
        for (int j = 0; j < c->n_ages; j++)
            if (years[i] - c->ages[j] > 0) {
                snprintf(b, sizeof b, "%04d-01-01", years[i] - c->ages[j]);
                add(s, b);
                snprintf(b, sizeof b, "%04d-12-31", years[i] - c->ages[j] - 1);
                add(s, b);
            }
}

void smt_samples_collect(SqSmt *s, IrQuery *q1, IrQuery *q2) {
    Collect c = {s, {0}, {0}, 0, 0, 0};
    ir_query_walk(q1, literal_cb, &c);
    ir_query_walk(q2, literal_cb, &c);
    year_samples(s, 2000); /* for queries that name no date */
    add(s, "2000-02-29 12:00:00"); /* a leap day, with a time */
    add(s, "x");                   /* no date */
    age_samples(s, &c);
}

/* x is sample i. */
static Z3_ast is_sample(SqSmt *s, Z3_ast x, uint32_t i) {
    return smt_eq(s, x, smt_str_lit(s, s->samples[i], (uint32_t)strlen(s->samples[i])));
}

Z3_ast smt_sample_domain(SqSmt *s, SmtVal x) {
    if (!s->n_samples || x.kind != SMT_TEXT || Z3_is_string(s->z, x.v)) return NULL;
    Z3_ast *is = sq_arena_alloc(s->arena, (s->n_samples + 1) * sizeof *is);
    is[0] = x.null;
    for (uint32_t i = 0; i < s->n_samples; i++) is[i + 1] = is_sample(s, x.v, i);
    return smt_or_n(s, is, s->n_samples + 1);
}

int smt_sample_call(SqSmt *s, const SqExpr *e, uint32_t open, SmtVal x, SmtVal *out) {
    const SqExprList *l = &e->u.func.args;
    const char *name = e->u.func.def ? e->u.func.def->name : e->u.func.name;
    SmtVal *at = sq_arena_alloc(s->arena, s->n_samples * sizeof *at);
    SqBuf sql = SQ_BUF_IN(s->arena);
    int ok = 1;
    for (uint32_t i = 0; i < s->n_samples && ok; i++) {
        sq_buf_reset(&sql);
        sq_buf_printf(&sql, "SELECT %s(", name);
        for (uint32_t a = 0; a < l->n; a++) {
            if (a) sq_buf_puts(&sql, ", ");
            if (a == open) ir_sql_string(&sql, s->samples[i], strlen(s->samples[i]));
            else ir_sql_expr(&sql, l->items[a], NULL);
        }
        sq_buf_putc(&sql, ')');
        ok = smt_fold_sql(s, sq_buf_str(&sql), e->span, &at[i]);
    }
    sq_buf_free(&sql);
    if (!ok) return 0;
    SmtVal v = smt_null(s); /* x is not a sample: never, where the samples are searched */
    for (uint32_t i = s->n_samples; i-- > 0;) v = smt_val_ite(s, is_sample(s, x.v, i), at[i], v, e->span);
    *out = smt_null_if(s, x.null, v);
    return 1;
}

void smt_note_sample(SqSmt *s, Z3_ast domain) {
    *SQ_ARENA_APPEND(s->arena, s->sampled, s->n_sampled, s->cap_sampled) = domain;
}
