/*
** randdb.c -- random databases that obey a schema (see randdb.h).
**
** Test support.  Sections: value pools and neighbours; the generic values
** every database may get; drawing one cell (plain or typed); filling a
** table through SQLite, which enforces the constraints; reading the
** stored rows back into the fixture.
*/
#include "tests/soundness/dbcheck.h"
#include "tests/soundness/randdb.h"

#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/strbuf.h"
#include "runtime/util.h"

uint64_t rdb_hash(const char *s, uint64_t h) {
    if (!h) h = UINT64_C(0xcbf29ce484222325);
    for (; *s; s++) h = (h ^ (unsigned char)*s) * UINT64_C(0x100000001b3);
    return h;
}

/* ---- value pools ----------------------------------------------------- */

void vpool_init(ValuePool *p) {
    sq_result_init(&p->vals);
    sq_result_start(&p->vals, 1);
}

void vpool_free(ValuePool *p) { sq_result_free(&p->vals); }

static int same_value(const SqValue *a, const SqValue *b) {
    if (a->type != b->type) return 0;
    if (a->type == SQ_VAL_NULL) return 1;
    if (a->type == SQ_VAL_REAL) return a->r == b->r || (isnan(a->r) && isnan(b->r));
    return sq_value_equal(a, b);
}

/* Pools stay small: a draw should often pick the same value twice. */
#define POOL_MAX 600

void vpool_add(ValuePool *p, const SqValue *v) {
    if (p->vals.n_rows >= POOL_MAX) return;
    if (v->type == SQ_VAL_REAL && !isfinite(v->r)) return;
    for (uint64_t i = 0; i < p->vals.n_rows; i++)
        if (same_value(&p->vals.cells[i], v)) return;
    SqValue c = *v;
    if (v->type == SQ_VAL_TEXT) c = sq_result_text(&p->vals, v->s, v->n);
    else if (v->type == SQ_VAL_BLOB) c = sq_result_blob(&p->vals, v->s, v->n);
    *sq_result_add_row(&p->vals) = c;
}

static void add_int(ValuePool *p, int64_t i) {
    SqValue v = sq_value_int(i);
    vpool_add(p, &v);
}

static void add_real(ValuePool *p, double r) {
    SqValue v = sq_value_real(r);
    vpool_add(p, &v);
}

static void add_text(ValuePool *p, const char *s, size_t n) {
    SqValue v = {SQ_VAL_TEXT, 0, 0.0, s, (uint32_t)n};
    vpool_add(p, &v);
}

static void add_cstr(ValuePool *p, const char *s) { add_text(p, s, strlen(s)); }

/* The text SQLite gives a REAL ("1.5", "2.0"): the shortest that reads
** back, with a point. */
static void real_text(double r, char *buf, size_t n) {
    SqValue v = sq_value_real(r);
    SqBuf b = SQ_BUF_INIT;
    sq_value_print(&v, &b);
    snprintf(buf, n, "%s", sq_buf_str(&b));
    sq_buf_free(&b);
}

static void number_neighbours(ValuePool *p, const SqValue *v) {
    char buf[64];
    if (v->type == SQ_VAL_INTEGER) {
        int64_t i = v->i;
        add_int(p, i);
        if (i > INT64_MIN) add_int(p, i - 1);
        if (i < INT64_MAX) add_int(p, i + 1);
        snprintf(buf, sizeof buf, "%lld", (long long)i);
        add_cstr(p, buf);
        add_real(p, (double)i);
        add_real(p, (double)i + 0.5);
    } else {
        double r = v->r;
        add_real(p, r);
        add_real(p, r - 1);
        add_real(p, r + 1);
        if (fabs(r) < 9e18) add_int(p, (int64_t)r);
        real_text(r, buf, sizeof buf);
        add_cstr(p, buf);
    }
}

/* 'YYYY-MM-DD...': the same day written otherwise, and its year. */
static void date_neighbours(ValuePool *p, const char *s, size_t n) {
    if (n < 10 || s[4] != '-' || s[7] != '-') return;
    for (int i = 0; i < 10; i++)
        if (i != 4 && i != 7 && (s[i] < '0' || s[i] > '9')) return;
    char buf[64];
    snprintf(buf, sizeof buf, "%.4s/%.2s/%.2s", s, s + 5, s + 8);
    add_cstr(p, buf);
    snprintf(buf, sizeof buf, "%.10s 00:00:00", s);
    add_cstr(p, buf);
    snprintf(buf, sizeof buf, "%.10sT12:00", s);
    add_cstr(p, buf);
    snprintf(buf, sizeof buf, "%.4s-%d-%d", s, atoi(s + 5), atoi(s + 8));
    add_cstr(p, buf);
    snprintf(buf, sizeof buf, "%.2s/%.2s/%.4s", s + 5, s + 8, s);
    add_cstr(p, buf);
    add_int(p, atoi(s));
}

/* A LIKE or GLOB pattern's wildcards filled in: with nothing, and with
** letters. */
static void pattern_neighbours(ValuePool *p, const char *s, size_t n) {
    if (!memchr(s, '%', n) && !memchr(s, '_', n) && !memchr(s, '*', n)) return;
    SqBuf a = SQ_BUF_INIT, b = SQ_BUF_INIT;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '%' || s[i] == '*') {
            sq_buf_puts(&b, "xY");
        } else if (s[i] == '_' || s[i] == '?') {
            sq_buf_putc(&a, 'a');
            sq_buf_putc(&b, 'B');
        } else {
            sq_buf_putc(&a, s[i]);
            sq_buf_putc(&b, s[i]);
        }
    }
    add_text(p, a.data ? a.data : "", a.len);
    add_text(p, b.data ? b.data : "", b.len);
    sq_buf_free(&a);
    sq_buf_free(&b);
}

static void text_neighbours(ValuePool *p, const SqValue *v) {
    const char *s = v->s;
    size_t n = v->n;
    add_text(p, s, n);
    char *t = sq_malloc(n + 3);
    for (int variant = 0; variant < 3; variant++) { /* upper, lower, first letter flipped */
        for (size_t i = 0; i < n; i++) {
            unsigned char c = (unsigned char)s[i];
            t[i] = (char)(variant == 0   ? (c >= 'a' && c <= 'z' ? c - 32 : c)
                          : variant == 1 ? (c >= 'A' && c <= 'Z' ? c + 32 : c)
                                         : c);
        }
        if (variant == 2 && n) {
            unsigned char c = (unsigned char)t[0];
            t[0] = (char)(c >= 'a' && c <= 'z' ? c - 32 : c >= 'A' && c <= 'Z' ? c + 32 : c);
        }
        add_text(p, t, n);
    }
    memcpy(t, s, n);
    t[n] = ' ';
    add_text(p, t, n + 1); /* trailing blank */
    t[0] = ' ';
    memcpy(t + 1, s, n);
    add_text(p, t, n + 1); /* leading blank */
    if (n) add_text(p, s, n - 1);
    memcpy(t, s, n);
    t[n] = 'x';
    add_text(p, t, n + 1);
    free(t);
    if (sq_text_is_number(s, n)) {
        double d = sq_text_number(s, n);
        if (d == floor(d) && fabs(d) < 9e18) add_int(p, (int64_t)d);
        add_real(p, d);
    }
    pattern_neighbours(p, s, n);
    date_neighbours(p, s, n);
}

void vpool_add_neighbours(ValuePool *p, const SqValue *v) {
    switch (v->type) {
    case SQ_VAL_INTEGER:
    case SQ_VAL_REAL: number_neighbours(p, v); break;
    case SQ_VAL_TEXT: text_neighbours(p, v); break;
    default: break;
    }
}

static int literal(SqExpr *e, void *arg) {
    if (e->kind != SQX_LITERAL) return 0;
    SqValue v = {e->u.lit.vtype, e->u.lit.i, e->u.lit.r, e->u.lit.s, e->u.lit.n};
    if (v.type == SQ_VAL_TEXT && !v.s) return 0;
    vpool_add_neighbours(arg, &v);
    return 0;
}

void vpool_add_literals(ValuePool *p, IrQuery *q) {
    if (q) ir_query_walk(q, literal, p);
}

/* ---- generic values -------------------------------------------------- */

/* Values any column may get: small numbers, texts that look like numbers,
** blanks and case variants, and dates in the usual and unusual formats. */
static const char *const generic_texts[] = {
    "", " ", "a", "A", "b", "abc", "ABC", "Abc", "x y", "0", "1", "01", "1.0", "1e2", " 1", "1 ", "-1",
    "0.5", "NULL", "true", "2020-01-01", "2020-1-1", "2020/01/01", "01/02/2020", "2020-01-01 12:00:00",
    "2020-01-01T12:00:00", "20200101", "2020-02-30", "2020", "12:30", "Jan 1, 2020", "2020-01-01 12:00:00.123",
    "1999-12-31", "2021-06-15", "0000-00-00",
};
static const int64_t generic_ints[] = {0, 1, -1, 2, 3, 5, 10, 100, 2020};
static const double generic_reals[] = {0.5, 1.0, -1.5, 2.5, 3.25, 1e20};

static void generic_pool(ValuePool *p) {
    for (size_t i = 0; i < SQ_ARRAY_LEN(generic_ints); i++) add_int(p, generic_ints[i]);
    for (size_t i = 0; i < SQ_ARRAY_LEN(generic_reals); i++) add_real(p, generic_reals[i]);
    for (size_t i = 0; i < SQ_ARRAY_LEN(generic_texts); i++) add_cstr(p, generic_texts[i]);
}

/* ---- the model's classes ---------------------------------------------- */

static int date_type(const char *decl) {
    for (const char *p = decl; p && *p; p++)
        if (sq_strnicmp(p, "date", 4) == 0 || sq_strnicmp(p, "time", 4) == 0) return 1;
    return 0;
}

int rdb_model_class(const CatColumn *c) {
    switch (c->affinity) {
    case SQ_AFF_REAL: return SQ_VAL_REAL;
    case SQ_AFF_TEXT: return SQ_VAL_TEXT;
    case SQ_AFF_NUMERIC: return date_type(c->decl_type) ? SQ_VAL_TEXT : SQ_VAL_INTEGER;
    default: return SQ_VAL_INTEGER;
    }
}

static uint32_t table_index(const Catalog *cat, const CatTable *t) {
    uint32_t i = sq_catalog_pos(cat, t);
    return i < cat->n_tables ? i : UINT32_MAX;
}

/* Depth-first: t's parents, then t. */
static void visit(const Catalog *cat, uint32_t ti, uint8_t *state, uint32_t *order, uint32_t *n) {
    if (state[ti]) return; /* done, or on the path: a cycle */
    state[ti] = 1;
    const CatTable *t = cat->tables[ti];
    for (uint32_t f = 0; f < t->n_fks; f++) {
        uint32_t pi = t->fks[f].target ? table_index(cat, t->fks[f].target) : UINT32_MAX;
        if (pi != UINT32_MAX && pi != ti) visit(cat, pi, state, order, n);
    }
    state[ti] = 2;
    if (sq_catalog_is_stored(t)) order[(*n)++] = ti;
}

uint32_t *rdb_table_order(const Catalog *cat, uint32_t *n) {
    uint32_t *order = sq_calloc(cat->n_tables + 1, sizeof *order);
    uint8_t *state = sq_calloc(cat->n_tables + 1, 1);
    *n = 0;
    for (uint32_t i = 0; i < cat->n_tables; i++) visit(cat, i, state, order, n);
    free(state);
    return order;
}

/* ---- the generator's state ------------------------------------------- */

typedef struct Gen {
    const GenSchema *s;
    const ValuePool *literals;
    const GenOptions *o;
    Rng rng;
    sqlite3 *db;
    int fk_on;             /* SQLite enforces the foreign keys */
    SqFixture *f;
    ValuePool generic;
    ValuePool seen;        /* values already inserted */
    SqResult scratch;      /* owns the text of values being drawn */
    sqlite3_stmt *probe_put[5], *probe_get[5];
    sqlite3_stmt *probe_clear;
    GenReport *rep;
} Gen;

/* ---- what SQLite stores ---------------------------------------------- */

/* The value SQLite stores for v in a column of affinity aff, found by
** storing it in a scratch table with such a column: *out, or 0 when the
** probe fails. */
static int stored_as(Gen *g, const SqValue *v, int aff, SqValue *out);

static void bind_value(sqlite3_stmt *st, int i, const SqValue *v) {
    switch (v->type) {
    case SQ_VAL_INTEGER: sqlite3_bind_int64(st, i, v->i); break;
    case SQ_VAL_REAL: sqlite3_bind_double(st, i, v->r); break;
    case SQ_VAL_TEXT: sqlite3_bind_text(st, i, v->s, (int)v->n, SQLITE_TRANSIENT); break;
    case SQ_VAL_BLOB: sqlite3_bind_blob(st, i, v->s, (int)v->n, SQLITE_TRANSIENT); break;
    default: sqlite3_bind_null(st, i); break;
    }
}

/* Column col of the current row of st as a value whose text r owns. */
static SqValue column_value(sqlite3_stmt *st, int col, SqResult *r) {
    switch (sqlite3_column_type(st, col)) {
    case SQLITE_INTEGER: return sq_value_int(sqlite3_column_int64(st, col));
    case SQLITE_FLOAT: return sq_value_real(sqlite3_column_double(st, col));
    case SQLITE_TEXT: {
        const char *s = (const char *)sqlite3_column_text(st, col);
        return sq_result_text(r, s, (uint32_t)sqlite3_column_bytes(st, col));
    }
    case SQLITE_BLOB: {
        const void *p = sqlite3_column_blob(st, col);
        return sq_result_blob(r, p, (uint32_t)sqlite3_column_bytes(st, col));
    }
    default: return sq_value_null();
    }
}

static const char *const probe_cols[5] = {"b", "t", "n", "i", "r"}; /* by SqAffinity */

static int probe_prepare(Gen *g) {
    if (sqlite3_exec(g->db, "CREATE TEMP TABLE probe(b, t TEXT, n NUMERIC, i INTEGER, r REAL)", NULL, NULL, NULL))
        return -1;
    for (int a = 0; a < 5; a++) {
        char sql[96];
        snprintf(sql, sizeof sql, "INSERT INTO temp.probe(%s) VALUES(?)", probe_cols[a]);
        if (sqlite3_prepare_v2(g->db, sql, -1, &g->probe_put[a], NULL)) return -1;
        snprintf(sql, sizeof sql, "SELECT %s FROM temp.probe", probe_cols[a]);
        if (sqlite3_prepare_v2(g->db, sql, -1, &g->probe_get[a], NULL)) return -1;
    }
    return sqlite3_prepare_v2(g->db, "DELETE FROM temp.probe", -1, &g->probe_clear, NULL) ? -1 : 0;
}

static int stored_as(Gen *g, const SqValue *v, int aff, SqValue *out) {
    if (aff < 0 || aff > 4) aff = SQ_AFF_BLOB;
    sqlite3_stmt *put = g->probe_put[aff], *get = g->probe_get[aff];
    bind_value(put, 1, v);
    int ok = sqlite3_step(put) == SQLITE_DONE;
    sqlite3_reset(put);
    ok = ok && sqlite3_step(get) == SQLITE_ROW;
    if (ok) *out = column_value(get, 0, &g->scratch);
    sqlite3_reset(get);
    sqlite3_step(g->probe_clear);
    sqlite3_reset(g->probe_clear);
    return ok;
}

/* ---- drawing a cell ---------------------------------------------------- */

static const SqValue *pick(Gen *g, const ValuePool *p) {
    return p && vpool_n(p) ? vpool_at(p, rng_below(&g->rng, vpool_n(p))) : NULL;
}

/* The real database's values of column c of table ti, or NULL. */
static const ValuePool *real_pool(Gen *g, uint32_t ti, uint32_t c) {
    return g->s->real && g->s->real[ti] ? &g->s->real[ti][c] : NULL;
}

static SqValue text_value(Gen *g, const char *s, size_t n) { return sq_result_text(&g->scratch, s, (uint32_t)n); }

/* v in another storage class or spelling: what a careless loader, or a
** hand-written row, puts in a column. */
static SqValue mutate(Gen *g, const SqValue *v) {
    char buf[64];
    switch (v->type) {
    case SQ_VAL_INTEGER:
        switch (rng_below(&g->rng, 4)) {
        case 0: snprintf(buf, sizeof buf, "%lld", (long long)v->i); return text_value(g, buf, strlen(buf));
        case 1: return sq_value_real((double)v->i + 0.5);
        case 2: snprintf(buf, sizeof buf, " %lld", (long long)v->i); return text_value(g, buf, strlen(buf));
        default: return sq_value_real((double)v->i);
        }
    case SQ_VAL_REAL:
        if (rng_chance(&g->rng, 1, 2) && fabs(v->r) < 9e18) return sq_value_int((int64_t)v->r);
        real_text(v->r, buf, sizeof buf);
        return text_value(g, buf, strlen(buf));
    case SQ_VAL_TEXT: {
        if (sq_text_is_number(v->s, v->n)) {
            double d = sq_text_number(v->s, v->n);
            return d == floor(d) && fabs(d) < 9e18 && rng_chance(&g->rng, 1, 2) ? sq_value_int((int64_t)d)
                                                                                : sq_value_real(d);
        }
        char *t = sq_strndup(v->s, v->n);
        for (size_t i = 0; i < v->n; i++) {
            unsigned char c = (unsigned char)t[i];
            t[i] = (char)(c >= 'a' && c <= 'z' ? c - 32 : c >= 'A' && c <= 'Z' ? c + 32 : c);
        }
        SqValue r = text_value(g, t, v->n);
        free(t);
        return r;
    }
    default: return *v;
    }
}

/* v as a value of class cls (typed mode), before affinity; 0 when it has
** no such reading. */
static int coerce(Gen *g, const SqValue *v, int cls, SqValue *out) {
    char buf[64];
    if (v->type == cls) {
        *out = *v;
        return 1;
    }
    if (cls == SQ_VAL_TEXT) {
        if (v->type == SQ_VAL_INTEGER) snprintf(buf, sizeof buf, "%lld", (long long)v->i);
        else if (v->type == SQ_VAL_REAL) real_text(v->r, buf, sizeof buf);
        else return 0;
        *out = text_value(g, buf, strlen(buf));
        return 1;
    }
    double d;
    if (v->type == SQ_VAL_INTEGER) d = (double)v->i;
    else if (v->type == SQ_VAL_REAL) d = v->r;
    else if (v->type == SQ_VAL_TEXT && sq_text_is_number(v->s, v->n)) d = sq_text_number(v->s, v->n);
    else return 0;
    if (cls == SQ_VAL_REAL) *out = sq_value_real(d);
    else if (v->type == SQ_VAL_INTEGER) *out = *v;
    else if (fabs(d) < 9e18) *out = sq_value_int((int64_t)d);
    else return 0;
    return 1;
}

/* One value from the pools: the real database's values of the column,
** the queries' constants, values already in the database, generic ones. */
static SqValue draw_from_pools(Gen *g, uint32_t ti, uint32_t c) {
    for (;;) {
        unsigned w = (unsigned)rng_below(&g->rng, 100);
        const SqValue *v = w < 35 ? pick(g, real_pool(g, ti, c))
                           : w < 65 ? pick(g, g->literals)
                           : w < 80 ? pick(g, &g->seen)
                                    : pick(g, &g->generic);
        if (v) return *v;
    }
}

int rdb_nullable(const CatColumn *c) { return !c->not_null && !c->pk; }

/* A value for column c of table ti: plain, or of the model's class only
** (typed).  A typed column that draws nothing of its class stays NULL if
** it may, else gets the first generic value of its class. */
static SqValue draw(Gen *g, uint32_t ti, uint32_t c) {
    const CatColumn *col = &g->s->cat->tables[ti]->cols[c];
    if (col->rowid_alias) { /* an integer, or NULL: SQLite picks the rowid */
        SqValue v = draw_from_pools(g, ti, c), w;
        return rng_chance(&g->rng, 1, 2) && coerce(g, &v, SQ_VAL_INTEGER, &w) ? w : sq_value_null();
    }
    if (rdb_nullable(col) && rng_chance(&g->rng, 1, 8)) return sq_value_null();
    if (!g->o->typed) {
        SqValue v = draw_from_pools(g, ti, c);
        return rng_chance(&g->rng, 1, 4) ? mutate(g, &v) : v;
    }
    int cls = rdb_model_class(col);
    for (int tries = 0; tries < 12; tries++) {
        SqValue v = draw_from_pools(g, ti, c), w, s;
        if (coerce(g, &v, cls, &w) && stored_as(g, &w, col->affinity, &s) && s.type == cls) return w;
    }
    if (rdb_nullable(col)) return sq_value_null();
    return cls == SQ_VAL_INTEGER ? sq_value_int(1) : cls == SQ_VAL_REAL ? sq_value_real(0.5) : text_value(g, "a", 1);
}

/* ---- filling a table ----------------------------------------------------- */

/* The fixture's rows of catalog table ti (created on first use). */
static SqResult *rows_of(Gen *g, uint32_t ti) { return sq_fixture_table(g->f, g->s->cat->tables[ti]); }

/* Read table t's rows from db into f (replacing what f held), in rowid
** order. */
static int read_table(sqlite3 *db, SqFixture *f, const CatTable *t) {
    SqBuf sql = SQ_BUF_INIT;
    sq_buf_puts(&sql, "SELECT ");
    for (uint32_t c = 0; c < t->n_cols; c++) {
        if (c) sq_buf_puts(&sql, ", ");
        if (t->cols[c].hidden) sq_buf_puts(&sql, "NULL");
        else db_quote_ident(&sql, t->cols[c].name);
    }
    sq_buf_puts(&sql, " FROM ");
    db_quote_ident(&sql, t->name);
    if (!t->without_rowid) sq_buf_puts(&sql, " ORDER BY _rowid_");
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(db, sq_buf_str(&sql), -1, &st, NULL);
    sq_buf_free(&sql);
    if (rc) return -1;
    SqResult *rows = sq_fixture_table(f, t);
    rows->n_rows = 0; /* the text stays in its arena until the fixture goes */
    while (sqlite3_step(st) == SQLITE_ROW) {
        SqValue *cells = sq_result_add_row(rows);
        for (uint32_t c = 0; c < t->n_cols; c++) cells[c] = column_value(st, (int)c, rows);
    }
    sqlite3_finalize(st);
    return 0;
}

static int read_back(Gen *g, uint32_t ti) { return read_table(g->db, g->f, g->s->cat->tables[ti]); }

int rdb_read_tables(void *sqlite3_db, SqFixture *f) {
    uint32_t n;
    uint32_t *order = rdb_table_order(f->cat, &n);
    int rc = 0;
    for (uint32_t i = 0; i < n && rc == 0; i++) rc = read_table(sqlite3_db, f, f->cat->tables[order[i]]);
    free(order);
    return rc;
}

/* For each foreign key of table ti whose parent has rows: most of the time
** the key columns get a parent row's values (in another class now and
** then, when SQLite checks the key).  set[c] marks the columns set. */
static void draw_foreign_keys(Gen *g, uint32_t ti, SqValue *cells, uint8_t *set) {
    const CatTable *t = g->s->cat->tables[ti];
    for (uint32_t k = 0; k < t->n_fks; k++) {
        const CatForeignKey *fk = &t->fks[k];
        uint32_t pi = fk->target ? table_index(g->s->cat, fk->target) : UINT32_MAX;
        if (pi == UINT32_MAX || !fk->target_cols || !sq_catalog_is_stored(fk->target)) continue;
        const SqResult *parent = rows_of(g, pi);
        int may_be_null = 1;
        for (uint32_t i = 0; i < fk->n_cols; i++) may_be_null &= rdb_nullable(&t->cols[fk->cols[i]]);
        if (!parent->n_rows) { /* nothing to refer to: NULL, or no row */
            for (uint32_t i = 0; i < fk->n_cols && may_be_null; i++) {
                cells[fk->cols[i]] = sq_value_null();
                set[fk->cols[i]] = 1;
            }
            continue;
        }
        if (g->fk_on && !rng_chance(&g->rng, 17, 20)) continue;
        uint64_t row = rng_below(&g->rng, parent->n_rows);
        for (uint32_t i = 0; i < fk->n_cols; i++) {
            const CatColumn *col = &t->cols[fk->cols[i]];
            SqValue v = *sq_result_cell(parent, row, fk->target_cols[i]), w = v, s;
            if (v.type == SQ_VAL_NULL && !rdb_nullable(col)) continue;
            if (v.type == SQ_VAL_TEXT) v = text_value(g, v.s, v.n);
            if (g->fk_on && !g->o->typed && rng_chance(&g->rng, 1, 4)) v = mutate(g, &v);
            if (g->o->typed && v.type != SQ_VAL_NULL &&
                !(coerce(g, &v, rdb_model_class(col), &w) && stored_as(g, &w, col->affinity, &s) &&
                  s.type == rdb_model_class(col)))
                continue; /* no value of the column's class: drawn as any other */
            cells[fk->cols[i]] = g->o->typed ? w : v;
            set[fk->cols[i]] = 1;
        }
    }
}

/* Results of inserting one row. */
enum { ROW_OK, ROW_REJECTED, ROW_FK_TROUBLE, ROW_ERROR };

static int insert_row(Gen *g, sqlite3_stmt *ins, const CatTable *t, const SqValue *cells) {
    int p = 1;
    for (uint32_t c = 0; c < t->n_cols; c++)
        if (!t->cols[c].hidden) bind_value(ins, p++, &cells[c]);
    int rc = sqlite3_step(ins);
    sqlite3_reset(ins);
    sqlite3_clear_bindings(ins);
    if (rc == SQLITE_DONE) return ROW_OK;
    int ext = sqlite3_extended_errcode(g->db);
    if ((ext & 0xff) == SQLITE_CONSTRAINT || (ext & 0xff) == SQLITE_MISMATCH) return ROW_REJECTED;
    const char *msg = sqlite3_errmsg(g->db);
    if (strstr(msg, "foreign key mismatch") || strstr(msg, "no such table")) return ROW_FK_TROUBLE;
    return ROW_ERROR;
}

static sqlite3_stmt *insert_stmt(Gen *g, const CatTable *t) {
    SqBuf sql = SQ_BUF_INIT;
    sq_buf_puts(&sql, "INSERT INTO ");
    db_quote_ident(&sql, t->name);
    sq_buf_puts(&sql, "(");
    const char *sep = "";
    for (uint32_t c = 0; c < t->n_cols; c++) {
        if (t->cols[c].hidden) continue;
        sq_buf_puts(&sql, sep);
        db_quote_ident(&sql, t->cols[c].name);
        sep = ", ";
    }
    sq_buf_puts(&sql, ") VALUES(");
    sep = "";
    for (uint32_t c = 0; c < t->n_cols; c++) {
        if (t->cols[c].hidden) continue;
        sq_buf_puts(&sql, sep);
        sq_buf_putc(&sql, '?');
        sep = ", ";
    }
    sq_buf_puts(&sql, ")");
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(g->db, sq_buf_str(&sql), -1, &st, NULL)) st = NULL;
    sq_buf_free(&sql);
    return st;
}

/* Insert up to n rows into table ti, a few tries each.  ROW_OK, or
** ROW_FK_TROUBLE when SQLite cannot check the schema's foreign keys. */
static int fill_table(Gen *g, uint32_t ti, int n) {
    const CatTable *t = g->s->cat->tables[ti];
    sqlite3_stmt *ins = insert_stmt(g, t);
    if (!ins) return ROW_ERROR;
    SqValue *cells = sq_calloc(t->n_cols + 1, sizeof *cells);
    uint8_t *set = sq_calloc(t->n_cols + 1, 1);
    int status = ROW_OK;
    for (int row = 0; row < n && status == ROW_OK; row++) {
        for (int attempt = 0; attempt < 8; attempt++) {
            memset(set, 0, t->n_cols);
            draw_foreign_keys(g, ti, cells, set);
            for (uint32_t c = 0; c < t->n_cols; c++)
                if (!set[c]) cells[c] = t->cols[c].hidden ? sq_value_null() : draw(g, ti, c);
            int rc = insert_row(g, ins, t, cells);
            if (rc == ROW_OK) {
                for (uint32_t c = 0; c < t->n_cols; c++)
                    if (cells[c].type != SQ_VAL_NULL) vpool_add(&g->seen, &cells[c]);
                read_back(g, ti);
                break;
            }
            if (rc == ROW_REJECTED) {
                g->rep->rejected++;
                continue;
            }
            status = rc;
            break;
        }
    }
    free(set);
    free(cells);
    sqlite3_finalize(ins);
    return status == ROW_ERROR ? ROW_OK : status; /* a table SQLite cannot fill stays as it is */
}

/* ---- one database -------------------------------------------------------- */

static void gen_close(Gen *g) {
    for (int a = 0; a < 5; a++) {
        sqlite3_finalize(g->probe_put[a]);
        sqlite3_finalize(g->probe_get[a]);
    }
    sqlite3_finalize(g->probe_clear);
    sqlite3_close(g->db);
    vpool_free(&g->generic);
    vpool_free(&g->seen);
    sq_result_free(&g->scratch);
}

/* One attempt with foreign keys checked by SQLite (fk_on) or not.  0,
** ROW_FK_TROUBLE, or -1 with *err. */
static int generate(Gen *g, uint64_t seed, char **err) {
    g->rng.s = seed;
    if (sqlite3_open(":memory:", &g->db) != SQLITE_OK) {
        *err = sq_strdup("cannot open an in-memory database");
        return -1;
    }
    char *msg = NULL;
    if (sqlite3_exec(g->db, g->s->ddl, NULL, NULL, &msg) != SQLITE_OK) {
        SqBuf b = SQ_BUF_INIT;
        sq_buf_printf(&b, "the schema does not run in SQLite: %s", msg ? msg : "?");
        sqlite3_free(msg);
        *err = sq_buf_detach(&b);
        return -1;
    }
    if (probe_prepare(g) < 0 ||
        sqlite3_exec(g->db, g->fk_on ? "PRAGMA foreign_keys=ON" : "PRAGMA foreign_keys=OFF", NULL, NULL, NULL)) {
        *err = sq_strdup("cannot set up the generator's tables");
        return -1;
    }
    uint32_t n_order;
    uint32_t *order = rdb_table_order(g->s->cat, &n_order);
    for (uint32_t i = 0; i < n_order; i++) rows_of(g, order[i]); /* every table, empty at first */
    int status = 0;
    for (uint32_t i = 0; i < n_order && !status; i++) {
        int n = (int)rng_below(&g->rng, (uint64_t)g->o->max_rows + 1);
        status = fill_table(g, order[i], n) == ROW_FK_TROUBLE ? ROW_FK_TROUBLE : 0;
    }
    free(order);
    return status;
}

static void gen_open(Gen *g, const GenSchema *s, const ValuePool *literals, const GenOptions *o, SqFixture *f,
                     GenReport *rep) {
    memset(g, 0, sizeof *g);
    g->s = s;
    g->literals = literals;
    g->o = o;
    g->f = f;
    g->rep = rep;
    vpool_init(&g->generic);
    vpool_init(&g->seen);
    generic_pool(&g->generic);
    sq_result_init(&g->scratch);
    sq_result_start(&g->scratch, 1);
}

int rdb_generate(const GenSchema *s, const ValuePool *literals, const GenOptions *o, uint64_t seed, SqFixture *f,
                 GenReport *rep, char **err) {
    Gen g;
    memset(rep, 0, sizeof *rep);
    *err = NULL;
    gen_open(&g, s, literals, o, f, rep);
    g.fk_on = 1;
    int rc = generate(&g, seed, err);
    gen_close(&g);
    if (rc == ROW_FK_TROUBLE) { /* foreign keys SQLite cannot check: copy parents' values */
        const Catalog *cat = f->cat;
        int64_t now = f->now;
        sq_fixture_free(f);
        sq_fixture_init(f, cat);
        f->now = now;
        gen_open(&g, s, literals, o, f, rep);
        g.fk_on = 0;
        rc = generate(&g, seed, err);
        gen_close(&g);
    }
    rep->fk_enforced = g.fk_on;
    return rc < 0 ? -1 : 0;
}
