/*
** tmpl_values.c -- a slot's new value, drawn from its column's data.
**
** Layer: backend.  Every value comes from the database the instance will
** run on, asked in SQL: a value slot takes one of the column's distinct
** values, a threshold one of its deciles (p10 ... p90) rounded to two
** significant figures, a date a day of the column's range at a day, the
** first of a month or the first of a year (one of the days the column
** holds when it is compared for equality), a period a year of the range
** or any month, day or hour, a time reference relative to now another
** span back from now ('-3 months') to a day of the range, 'now' being the
** database's clock, stopped at the reference date.  Draws are by rank (ORDER BY ... LIMIT 1
** OFFSET k), so they depend on the seed and the data only.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/template/tmpl_int.h"
#include "runtime/util.h"

/* ---- the column --------------------------------------------------------- */

/* The column of a stored table the slot reads, or NULL. */
static const SqColumn *table_column(const SqSlot *s) {
    if (!s->has_column) return NULL;
    const SqColumn *d = &s->column.item->cols.items[s->column.col];
    return d->table && d->table_col >= 0 && (uint32_t)d->table_col < d->table->n_cols ? d : NULL;
}

/* "table" and "column", quoted, of the slot's table column; 0 when the
** slot reads no column of a stored table. */
static int column_names(SqArena *a, const SqSlot *s, const char **table, const char **col) {
    const SqColumn *d = table_column(s);
    if (!d) return 0;
    SqBuf b = SQ_BUF_INIT;
    ir_sql_ident(&b, d->table->name);
    *table = sq_arena_strdup(a, sq_buf_str(&b));
    sq_buf_reset(&b);
    ir_sql_ident(&b, d->table->cols[d->table_col].name);
    *col = sq_arena_strdup(a, sq_buf_str(&b));
    sq_buf_free(&b);
    return 1;
}

/* The first cell of sql's result on db, copied into *v (text in a); 0
** when it fails or gives no row or NULL. */
static int ask(SqArena *a, SqDb *db, const char *sql, SqValue *v) {
    SqResult r;
    sq_result_init(&r);
    SqExecLimits lim = {10.0, 1, 0, 0, 1};
    int ok = sq_db_query(db, sql, &lim, &r, NULL) == SQ_EXEC_OK && r.n_rows && r.n_cols &&
             r.cells[0].type != SQ_VAL_NULL;
    if (ok) {
        *v = r.cells[0];
        if (v->type == SQ_VAL_TEXT || v->type == SQ_VAL_BLOB) {
            char *copy = sq_arena_alloc(a, v->n + 1);
            memcpy(copy, v->s, v->n);
            copy[v->n] = 0;
            v->s = copy;
        }
    }
    sq_result_free(&r);
    return ok;
}

static int ask_int(SqArena *a, SqDb *db, const char *sql, int64_t *out) {
    SqValue v;
    if (!ask(a, db, sql, &v) || v.type != SQ_VAL_INTEGER) return 0;
    *out = v.i;
    return 1;
}

/* ---- literals ------------------------------------------------------------ */

static SqExpr *literal_like(SqArena *a, SrcSpan at, SqValueType vt) {
    SqType ty = {vt == SQ_VAL_INTEGER ? SQ_TY_INTEGER : vt == SQ_VAL_REAL ? SQ_TY_REAL : SQ_TY_TEXT,
                 SQ_AFF_BLOB, 0};
    SqExpr *e = sq_expr_new(a, SQX_LITERAL, at, ty);
    e->u.lit.vtype = (uint8_t)vt;
    return e;
}

static SqExpr *int_literal(SqArena *a, SrcSpan at, int64_t i) {
    SqExpr *e = literal_like(a, at, SQ_VAL_INTEGER);
    e->u.lit.i = i;
    return e;
}

static SqExpr *real_literal(SqArena *a, SrcSpan at, double r) {
    SqExpr *e = literal_like(a, at, SQ_VAL_REAL);
    e->u.lit.r = r;
    char *t = sq_arena_printf(a, "%.15g", r);
    if (!strpbrk(t, ".eEn")) t = sq_arena_printf(a, "%s.0", t); /* a REAL stays one */
    e->u.lit.text = t;
    return e;
}

static SqExpr *text_literal(SqArena *a, SrcSpan at, const char *s, uint32_t n) {
    SqExpr *e = literal_like(a, at, SQ_VAL_TEXT);
    char *copy = sq_arena_alloc(a, n + 1);
    memcpy(copy, s, n);
    copy[n] = 0;
    e->u.lit.s = copy;
    e->u.lit.n = n;
    return e;
}

/* Whether text t (n bytes) is how SQLite writes integer i. */
static int is_integer_text(const char *t, uint32_t n, int64_t *i) {
    char buf[24];
    if (n == 0 || n >= sizeof buf) return 0;
    memcpy(buf, t, n);
    buf[n] = 0;
    char *end;
    long long v = strtoll(buf, &end, 10);
    if (*end) return 0;
    snprintf(buf, sizeof buf, "%lld", v);
    if (strlen(buf) != n || memcmp(buf, t, n) != 0) return 0;
    *i = v;
    return 1;
}

/* A literal of v, written as the query wrote its own when that is the
** same value to the column: a year kept as TEXT ('2015') in a TEXT column
** drawn for a query that writes 2014 is written 2015, as its author would
** (the column's affinity makes it '2015' again). */
static SqExpr *value_literal(SqArena *a, const SqExpr *old, const SqValue *v, uint8_t aff) {
    const SqExpr *o = old->kind == SQX_UNARY ? old->u.bin.l : old;
    int64_t i;
    if (aff == SQ_AFF_TEXT && o->u.lit.vtype == SQ_VAL_INTEGER && v->type == SQ_VAL_TEXT &&
        is_integer_text(v->s, v->n, &i))
        return int_literal(a, old->span, i);
    return sq_tmpl_literal(a, v, old->span);
}

SqExpr *sq_tmpl_literal(SqArena *a, const SqValue *v, SrcSpan at) {
    switch ((SqValueType)v->type) {
    case SQ_VAL_INTEGER: return int_literal(a, at, v->i);
    case SQ_VAL_REAL: return real_literal(a, at, v->r);
    case SQ_VAL_TEXT: return text_literal(a, at, v->s, v->n);
    default: return NULL;
    }
}

/* The literal at the slot (a signed number is its operand's). */
static const SqExpr *old_literal(const SqSlot *s) {
    const SqExpr *e = *s->expr;
    return e->kind == SQX_UNARY ? e->u.bin.l : e;
}

static int same_value(const SqExpr *lit, const SqValue *v) {
    const SqExpr *e = lit;
    if (e->u.lit.vtype != v->type) return 0;
    switch ((SqValueType)v->type) {
    case SQ_VAL_INTEGER: return e->u.lit.i == v->i;
    case SQ_VAL_REAL: return e->u.lit.r == v->r;
    case SQ_VAL_TEXT: return e->u.lit.n == v->n && memcmp(e->u.lit.s, v->s, v->n) == 0;
    default: return 0;
    }
}

const char *tmpl_expr_sql(SqArena *a, const SqExpr *e) {
    SqBuf b = SQ_BUF_INIT;
    ir_sql_expr(&b, e, NULL);
    const char *s = sq_arena_strdup(a, sq_buf_str(&b));
    sq_buf_free(&b);
    return s;
}

/* ---- values ---------------------------------------------------------------- */

/* One of the distinct values of what (an expression of table t's column)
** that is not old's, by rank, into *v (the comparison is SQLite's, with
** the column's affinity: a TEXT column's '2014' is the query's 2014); 0
** when there is none. */
static int held_value(SqArena *a, SqDb *db, const char *what, const SqExpr *old, const char *t, uint64_t *rng,
                      SqValue *v) {
    const char *other = sq_arena_printf(a, "%s IS NOT NULL AND %s IS NOT %s", what, what, tmpl_expr_sql(a, old));
    int64_t n;
    if (!ask_int(a, db, sq_arena_printf(a, "SELECT count(DISTINCT %s) FROM %s WHERE %s", what, t, other), &n) ||
        n < 1)
        return 0;
    const char *sql = sq_arena_printf(a, "SELECT DISTINCT %s FROM %s WHERE %s ORDER BY 1 LIMIT 1 OFFSET %llu",
                                      what, t, other, (unsigned long long)tmpl_below(rng, (uint64_t)n));
    return ask(a, db, sql, v);
}

/* One of the column's distinct values other than the query's own. */
static SqExpr *draw_value(SqArena *a, SqDb *db, const SqSlot *s, const char *t, const char *c,
                          uint64_t *rng) {
    SqValue v;
    return held_value(a, db, c, *s->expr, t, rng, &v) ? value_literal(a, *s->expr, &v, s->type.aff) : NULL;
}

/* v to two significant figures: 1234.5 -> 1200, 57.3 -> 57, 3.14159 -> 3.1. */
static double two_figures(double v) {
    if (v == 0 || !isfinite(v)) return v;
    double p = pow(10.0, floor(log10(fabs(v))) - 1);
    return round(v / p) * p;
}

/* A decile of the column's numbers, rounded as a person writes it. */
static SqExpr *draw_threshold(SqArena *a, SqDb *db, const SqSlot *s, const char *t, const char *c,
                              uint64_t *rng) {
    const char *numbers = sq_arena_printf(a, "%s IS NOT NULL AND typeof(%s) IN ('integer', 'real')", c, c);
    int64_t n;
    if (!ask_int(a, db, sq_arena_printf(a, "SELECT count(*) FROM %s WHERE %s", t, numbers), &n) || n < 1)
        return NULL;
    uint64_t decile = 1 + tmpl_below(rng, 9);
    SqValue v;
    if (!ask(a, db, sq_arena_printf(a, "SELECT %s FROM %s WHERE %s ORDER BY 1 LIMIT 1 OFFSET %llu", c, t,
                                    numbers, (unsigned long long)((uint64_t)n * decile / 10)), &v))
        return NULL;
    double x = two_figures(v.type == SQ_VAL_INTEGER ? (double)v.i : v.r);
    const SqExpr *old = old_literal(s);
    int integral = old->u.lit.vtype == SQ_VAL_INTEGER || v.type == SQ_VAL_INTEGER;
    if (integral && fabs(x) < 9e15) return int_literal(a, (*s->expr)->span, (int64_t)llround(x));
    return real_literal(a, (*s->expr)->span, x);
}

/* The column's dates: the first and the number of days to the last. */
static int date_range(SqArena *a, SqDb *db, const char *t, const char *c, const char **lo, int64_t *days) {
    SqValue v;
    const char *sql = sq_arena_printf(a, "SELECT min(date(%s)) FROM %s WHERE date(%s) IS NOT NULL", c, t, c);
    if (!ask(a, db, sql, &v) || v.type != SQ_VAL_TEXT) return 0;
    *lo = v.s;
    SqBuf q = SQ_BUF_INIT;
    sq_buf_printf(&q, "SELECT CAST(julianday(max(date(%s))) - julianday(", c);
    ir_sql_string(&q, *lo, strlen(*lo));
    sq_buf_printf(&q, ") AS INTEGER) FROM %s WHERE date(%s) IS NOT NULL", t, c);
    int ok = ask_int(a, db, sq_buf_str(&q), days) && *days >= 0;
    sq_buf_free(&q);
    return ok;
}

/* A day of the column's range: itself, or the first of its month or of its
** year when that is in the range too, as a date literal in a (midnight
** added when with_time); NULL when the column holds no date. */
static SqExpr *draw_day(SqArena *a, SqDb *db, const SqExpr *old, int with_time, const char *t, const char *c,
                        uint64_t *rng) {
    const char *lo;
    int64_t days;
    if (!date_range(a, db, t, c, &lo, &days)) return NULL;
    static const char *const snaps[] = {"", ", 'start of month'", ", 'start of year'"};
    int64_t k = (int64_t)tmpl_below(rng, (uint64_t)days + 1);
    const char *snap = snaps[tmpl_below(rng, 3)];
    SqBuf q = SQ_BUF_INIT;
    sq_buf_puts(&q, "SELECT max(date(");
    ir_sql_string(&q, lo, strlen(lo));
    sq_buf_printf(&q, ", '+%lld days'%s), ", (long long)k, snap);
    ir_sql_string(&q, lo, strlen(lo));
    sq_buf_printf(&q, ")%s", with_time ? " || ' 00:00:00'" : "");
    SqValue v;
    int ok = ask(a, db, sq_buf_str(&q), &v) && v.type == SQ_VAL_TEXT;
    sq_buf_free(&q);
    return ok ? text_literal(a, old->span, v.s, v.n) : NULL;
}

/* Whether a new time of the slot must be one a row holds: it is compared
** for equality (=, an IN list's item), where a day drawn from the range
** would almost never find a row. */
static int held_only(const SqSlot *s) { return s->in_list || s->op == AST_OP_EQ; }

/* A day the column holds (an instant when with_time), other than the
** query's own. */
static SqExpr *draw_held_day(SqArena *a, SqDb *db, const SqExpr *old, int with_time, const char *t,
                             const char *c, uint64_t *rng) {
    SqValue v;
    const char *day = sq_arena_printf(a, "%s(%s)", with_time ? "datetime" : "date", c);
    return held_value(a, db, day, old, t, rng, &v) && v.type == SQ_VAL_TEXT ? text_literal(a, old->span, v.s, v.n)
                                                                            : NULL;
}

/* The slot's new day: one a row holds (held_only), else one of the range. */
static SqExpr *draw_slot_day(SqArena *a, SqDb *db, const SqSlot *s, int with_time, const char *t, const char *c,
                             uint64_t *rng) {
    return held_only(s) ? draw_held_day(a, db, *s->expr, with_time, t, c, rng)
                        : draw_day(a, db, *s->expr, with_time, t, c, rng);
}

/* A date slot's new day, with a time of day when the query's literal has
** one. */
static SqExpr *draw_date(SqArena *a, SqDb *db, const SqSlot *s, const char *t, const char *c,
                         uint64_t *rng) {
    int with_time = s->granularity && strcmp(s->granularity, "datetime") == 0;
    SqExpr *e = draw_slot_day(a, db, s, with_time, t, c, rng);
    return e && !same_value(old_literal(s), &(SqValue){SQ_VAL_TEXT, 0, 0, e->u.lit.s, e->u.lit.n}) ? e : NULL;
}

/* A year of the column's range, or any month, day or hour, written as the
** query writes its own (an integer, or text of the same width). */
static SqExpr *draw_period(SqArena *a, SqDb *db, const SqSlot *s, const char *t, const char *c,
                           uint64_t *rng) {
    int64_t v;
    if (strcmp(s->granularity, "year") == 0) {
        int64_t lo, hi;
        const char *fmt = "SELECT CAST(%s(strftime('%%Y', %s)) AS INTEGER) FROM %s "
                          "WHERE strftime('%%Y', %s) IS NOT NULL";
        if (!ask_int(a, db, sq_arena_printf(a, fmt, "min", c, t, c), &lo) ||
            !ask_int(a, db, sq_arena_printf(a, fmt, "max", c, t, c), &hi) || hi < lo)
            return NULL;
        v = lo + (int64_t)tmpl_below(rng, (uint64_t)(hi - lo + 1));
    } else if (strcmp(s->granularity, "month") == 0) {
        v = 1 + (int64_t)tmpl_below(rng, 12);
    } else if (strcmp(s->granularity, "day") == 0) {
        v = 1 + (int64_t)tmpl_below(rng, 28);
    } else if (strcmp(s->granularity, "hour") == 0) {
        v = (int64_t)tmpl_below(rng, 24);
    } else {
        return NULL;
    }
    const SqExpr *old = old_literal(s);
    if (old->u.lit.vtype == SQ_VAL_INTEGER) return old->u.lit.i == v ? NULL : int_literal(a, (*s->expr)->span, v);
    if (old->u.lit.vtype != SQ_VAL_TEXT) return NULL;
    char *txt = sq_arena_printf(a, "%0*lld", (int)old->u.lit.n, (long long)v);
    /* a month written '2012-06' (substr of 7) is not a plain number */
    if (strlen(txt) != old->u.lit.n || !memchr("0123456789", old->u.lit.s[0], 10) ||
        memchr(old->u.lit.s, '-', old->u.lit.n))
        return NULL;
    SqValue same = {SQ_VAL_TEXT, 0, 0, txt, (uint32_t)strlen(txt)};
    return same_value(old, &same) ? NULL : text_literal(a, (*s->expr)->span, txt, (uint32_t)strlen(txt));
}

/* ---- time references relative to now ------------------------------------- */

/* The function a slot's time reference is written with, relative or made
** so: date for a day (date('now', ...), CURRENT_DATE, a 'YYYY-MM-DD'
** literal), datetime for an instant; NULL for the others (julianday,
** strftime, a literal of another form), which are left alone. */
static const char *window_function(const SqSlot *s) {
    const SqExpr *e = *s->expr;
    if (s->kind == SQ_TSLOT_DATE) {
        if (old_literal(s)->kind != SQX_LITERAL || !s->granularity) return NULL;
        return strcmp(s->granularity, "day") == 0 ? "date" : strcmp(s->granularity, "datetime") == 0 ? "datetime"
                                                                                                     : NULL;
    }
    if (s->kind != SQ_TSLOT_RELATIVE) return NULL;
    if (e->kind == SQX_CTIME)
        return e->op == AST_OP_CURRENT_DATE ? "date" : e->op == AST_OP_CURRENT_TIMESTAMP ? "datetime" : NULL;
    if (e->kind != SQX_FUNC) return NULL;
    return sq_stricmp(e->u.func.name, "date") == 0 ? "date" : sq_stricmp(e->u.func.name, "datetime") == 0 ? "datetime"
                                                                                                        : NULL;
}

int tmpl_window_movable(const SqSlot *s) { return s->expr && window_function(s) && table_column(s); }

/* fn('now', modifier): the reference, relative to the pinned clock. */
static SqExpr *relative_call(SqArena *a, const SqExpr *old, const char *fn, const char *modifier) {
    int exists;
    SqExpr *f = sq_expr_new(a, SQX_FUNC, old->span, sq_type(SQ_TY_TEXT, SQ_AFF_BLOB, 1));
    f->u.func.name = fn;
    f->u.func.def = sq_func_resolve(fn, 2, &exists);
    sq_expr_list_add(a, &f->u.func.args, text_literal(a, old->span, "now", 3));
    sq_expr_list_add(a, &f->u.func.args, text_literal(a, old->span, modifier, (uint32_t)strlen(modifier)));
    return f;
}

/* A day of the column's range as a span back from now: '-K days',
** '-K months' or '-K years', K >= 1 counted on the database (its clock is
** the reference date); NULL when the day is not before now.  A slot
** compared for equality gets a day a row holds, in days: a month or a
** year back from now lands on now's day of the month, which no row need
** hold. */
static SqExpr *draw_relative(SqArena *a, SqDb *db, const SqSlot *s, const char *t, const char *c,
                             uint64_t *rng) {
    const char *fn = window_function(s);
    SqExpr *day = fn ? draw_slot_day(a, db, s, 0, t, c, rng) : NULL;
    if (!day) return NULL;
    static const char *const units[] = {"day", "month", "year"};
    static const char *const spans[] = {
        "CAST(julianday(date('now')) - julianday(%s) AS INTEGER)",
        "(strftime('%%Y', 'now') * 12 + strftime('%%m', 'now')) - (strftime('%%Y', %s) * 12 + strftime('%%m', %s))",
        "strftime('%%Y', 'now') - strftime('%%Y', %s)",
    };
    uint64_t u = held_only(s) ? 0 : tmpl_below(rng, SQ_ARRAY_LEN(units));
    const char *d = tmpl_expr_sql(a, day);
    int64_t k;
    if (!ask_int(a, db, sq_arena_printf(a, sq_arena_printf(a, "SELECT %s", spans[u]), d, d), &k) || k < 1)
        return NULL;
    const char *mod = sq_arena_printf(a, "-%lld %s%s", (long long)k, units[u], k == 1 ? "" : "s");
    SqExpr *e = relative_call(a, *s->expr, fn, mod);
    return strcmp(tmpl_expr_sql(a, e), tmpl_expr_sql(a, *s->expr)) == 0 ? NULL : e;
}

SqExpr *tmpl_draw_window(SqArena *a, SqDb *db, const SqSlot *s, uint64_t *rng) {
    const char *t, *c, *fn = window_function(s);
    if (!fn || !s->expr || !column_names(a, s, &t, &c)) return NULL;
    if (s->kind == SQ_TSLOT_DATE) return draw_relative(a, db, s, t, c, rng);
    return draw_slot_day(a, db, s, strcmp(fn, "datetime") == 0, t, c, rng);
}

SqExpr *tmpl_draw_value(SqArena *a, SqDb *db, const SqSlot *s, uint64_t *rng) {
    const char *t, *c;
    if (!s->expr || !column_names(a, s, &t, &c)) return NULL;
    if (s->kind == SQ_TSLOT_RELATIVE) return draw_relative(a, db, s, t, c, rng);
    const SqExpr *old = old_literal(s);
    if (old->kind != SQX_LITERAL) return NULL;
    switch ((SqSlotKind)s->kind) {
    case SQ_TSLOT_VALUE: return draw_value(a, db, s, t, c, rng);
    case SQ_TSLOT_THRESHOLD: return draw_threshold(a, db, s, t, c, rng);
    case SQ_TSLOT_DATE: return draw_date(a, db, s, t, c, rng);
    case SQ_TSLOT_PERIOD: return draw_period(a, db, s, t, c, rng);
    default: return NULL;
    }
}

SqExpr *tmpl_draw_limit(SqArena *a, const SqSlot *s, int64_t rows, uint64_t *rng) {
    static const int64_t counts[] = {1, 2, 3, 5, 10, 20};
    int64_t now = (*s->expr)->u.lit.i, fit[SQ_ARRAY_LEN(counts)];
    uint32_t n = 0;
    for (size_t i = 0; i < SQ_ARRAY_LEN(counts); i++)
        if (counts[i] != now && (counts[i] < rows || rows < 0)) fit[n++] = counts[i];
    for (size_t i = 0; !n && i < SQ_ARRAY_LEN(counts); i++) /* none cuts: any other */
        if (counts[i] != now) fit[n++] = counts[i];
    return int_literal(a, (*s->expr)->span, fit[tmpl_below(rng, n)]);
}
