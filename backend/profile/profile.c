/*
** profile.c -- column profiles scanned from a database, and the shapes of
** values (see profile.h).
**
** Layer: backend/profile.  Takes a catalog and a .sqlite file (or a SQL
** script of DDL and INSERTs, as --db allows), opened read-only through
** backend/sqlite's db.c; gives an SqProfile whose values live in its
** arena.  Two statements per column, each bounded in time:
**
**   stats   SELECT count(*), count(c), count(DISTINCT c), min(c), max(c),
**                  group_concat(DISTINCT <shape of c>) FROM t
**           one scan: the counts exact, min and max by SQLite's order
**           (and the column's collation), the shapes of every non-NULL
**           value, classified in SQL by shape_sql() exactly as
**           sq_value_shape() classifies one value in C;
**   common  SELECT c, count(*) FROM t WHERE c IS NOT NULL GROUP BY c
**           ORDER BY 2 DESC, 1 LIMIT 10
**
** A statement that fails (the table is not in the file, a limit) leaves
** the column's counts at -1, unknown, which sq_profile_never_null and
** sq_profile_unique read as "shows nothing".  TEXT and BLOB values longer
** than SQ_PROFILE_MAX_VALUE bytes are not kept (no range, not among the
** common values): a profile is cached as JSON and should stay small.
**
** Sections: shapes; the profile; scanning a database.
*/
#include "backend/profile/profile_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/sqlite/db.h"
#include "ir/ir.h"
#include "runtime/strbuf.h"
#include "runtime/util.h"

/* ---- shapes ----------------------------------------------------------- */

static int digits(const char *s, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (s[i] < '0' || s[i] > '9') return 0;
    return 1;
}

/* "HH:MM", "HH:MM:SS" or "HH:MM:SS.f..." (one or more digits after the
** point): the form, not the range. */
static int is_time(const char *s, size_t n) {
    if (n < 5 || !digits(s, 2) || s[2] != ':' || !digits(s + 3, 2)) return 0;
    if (n == 5) return 1;
    if (n < 8 || s[5] != ':' || !digits(s + 6, 2)) return 0;
    if (n == 8) return 1;
    return n > 9 && s[8] == '.' && digits(s + 9, n - 9);
}

static int is_date(const char *s, size_t n) {
    return n >= 10 && digits(s, 4) && s[4] == '-' && digits(s + 5, 2) && s[7] == '-' && digits(s + 8, 2);
}

/* The sign-less part of numeric text: '-' or '+' dropped. */
static void unsigned_part(const char **s, size_t *n) {
    if (*n && (**s == '-' || **s == '+')) (*s)++, (*n)--;
}

static unsigned text_shape(const char *s, size_t n) {
    if (is_date(s, n)) {
        if (n == 10) return SQ_SHAPE_DATE;
        if ((s[10] == ' ' || s[10] == 'T') && is_time(s + 11, n - 11)) return SQ_SHAPE_DATETIME;
        return SQ_SHAPE_OTHER_TEXT;
    }
    if (is_time(s, n)) return SQ_SHAPE_TIME;
    unsigned_part(&s, &n);
    if (n && digits(s, n)) return SQ_SHAPE_INT_TEXT;
    const char *dot = memchr(s, '.', n);
    if (dot && n > 1 && digits(s, (size_t)(dot - s)) && digits(dot + 1, n - (size_t)(dot - s) - 1))
        return SQ_SHAPE_DEC_TEXT;
    return SQ_SHAPE_OTHER_TEXT;
}

unsigned sq_value_shape(const SqValue *v) {
    switch (v->type) {
    case SQ_VAL_INTEGER: return SQ_SHAPE_INTEGER;
    case SQ_VAL_REAL: return SQ_SHAPE_REAL;
    case SQ_VAL_TEXT: return text_shape(v->s, v->n);
    case SQ_VAL_BLOB: return SQ_SHAPE_BLOB;
    default: return 0;
    }
}

static const char *const shape_names[] = {"integer", "real", "date", "datetime", "time",
                                          "integer text", "decimal text", "other text", "blob"};

const char *sq_shape_name(unsigned shape) {
    for (unsigned k = 0; k < SQ_ARRAY_LEN(shape_names); k++)
        if (shape == 1u << k) return shape_names[k];
    return "none";
}

/* The bit number (0 for INTEGER ... 8 for BLOB) of column c's shape, NULL
** for NULL: text_shape() written as SQL.  c is the quoted column name.
** GLOB's '[0-9]' and substr() count characters, which here are the ASCII
** bytes text_shape() looks at. */
static void shape_sql(SqBuf *out, const char *c) {
    const char *d4 = "[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]", *t = "[0-9][0-9]:[0-9][0-9]";
    sq_buf_printf(out, "CASE typeof(%s) WHEN 'integer' THEN 0 WHEN 'real' THEN 1 WHEN 'blob' THEN 8 "
                       "WHEN 'text' THEN CASE ", c);
    sq_buf_printf(out, "WHEN %s GLOB '%s' THEN 2 ", c, d4);
    sq_buf_printf(out, "WHEN %s GLOB '%s[ T]%s' OR %s GLOB '%s[ T]%s:[0-9][0-9]' OR (%s GLOB "
                       "'%s[ T]%s:[0-9][0-9].[0-9]*' AND substr(%s, 21) NOT GLOB '*[^0-9]*') THEN 3 ",
                  c, d4, t, c, d4, t, c, d4, t, c);
    sq_buf_printf(out, "WHEN %s GLOB '%s' OR %s GLOB '%s:[0-9][0-9]' OR (%s GLOB '%s:[0-9][0-9].[0-9]*' AND "
                       "substr(%s, 10) NOT GLOB '*[^0-9]*') THEN 4 ", c, t, c, t, c, t, c);
    /* u: the text without a leading sign */
    SqBuf u = SQ_BUF_INIT;
    sq_buf_printf(&u, "(CASE WHEN %s GLOB '[-+]*' THEN substr(%s, 2) ELSE %s END)", c, c, c);
    const char *us = sq_buf_str(&u);
    sq_buf_printf(out, "WHEN %s <> '' AND %s NOT GLOB '*[^0-9]*' THEN 5 ", us, us);
    sq_buf_printf(out, "WHEN %s GLOB '*.*' AND %s NOT GLOB '*.*.*' AND %s NOT GLOB '*[^0-9.]*' AND %s GLOB "
                       "'*[0-9]*' THEN 6 ", us, us, us, us);
    sq_buf_puts(out, "ELSE 7 END END");
    sq_buf_free(&u);
}

/* ---- the profile ---------------------------------------------------------- */

void sq_profile_free(SqProfile *p) {
    if (!p) return;
    sq_arena_free(p->arena);
    memset(p, 0, sizeof *p);
}

const SqColumnProfile *sq_profile_column(const SqProfile *p, const CatTable *t, uint32_t col) {
    for (uint32_t i = 0; i < p->n_cols; i++)
        if (p->cols[i].table == t) {
            /* a table's columns are consecutive, in order */
            return col < t->n_cols && i + col < p->n_cols ? &p->cols[i + col] : NULL;
        }
    return NULL;
}

void sq_profile_init(SqProfile *p, const Catalog *cat, SqProfileSource source, const char *origin) {
    memset(p, 0, sizeof *p);
    p->arena = sq_arena_new();
    p->cat = cat;
    p->source = source;
    p->origin = sq_arena_strdup(p->arena, origin ? origin : "");
    uint32_t n = 0;
    for (uint32_t t = 0; t < cat->n_tables; t++)
        if (sq_catalog_is_stored(cat->tables[t])) n += cat->tables[t]->n_cols;
    p->cols = sq_arena_alloc(p->arena, (n ? n : 1) * sizeof *p->cols);
    for (uint32_t t = 0; t < cat->n_tables; t++) {
        const CatTable *tab = cat->tables[t];
        if (!sq_catalog_is_stored(tab)) continue;
        for (uint32_t c = 0; c < tab->n_cols; c++) {
            SqColumnProfile *cp = &p->cols[p->n_cols++];
            cp->table = tab;
            cp->col = c;
            cp->rows = cp->nulls = cp->distinct = -1;
            cp->min = cp->max = sq_value_null();
        }
    }
}

int sq_profile_keep_value(SqProfile *p, const SqValue *v, SqValue *out) {
    if ((v->type == SQ_VAL_TEXT || v->type == SQ_VAL_BLOB) && v->n > SQ_PROFILE_MAX_VALUE) return 0;
    *out = *v;
    if (v->type == SQ_VAL_TEXT || v->type == SQ_VAL_BLOB) out->s = sq_arena_strndup(p->arena, v->s, v->n);
    return 1;
}

void sq_profile_add_common(SqProfile *p, SqColumnProfile *cp, const SqValue *v, int64_t count) {
    SqValue kept;
    if (cp->n_common >= SQ_PROFILE_COMMON || !sq_profile_keep_value(p, v, &kept)) return;
    if (!cp->common) {
        cp->common = sq_arena_alloc(p->arena, SQ_PROFILE_COMMON * sizeof *cp->common);
        cp->common_count = sq_arena_alloc(p->arena, SQ_PROFILE_COMMON * sizeof *cp->common_count);
    }
    cp->common[cp->n_common] = kept;
    cp->common_count[cp->n_common++] = count;
}

/* ---- scanning a database ------------------------------------------------------ */

/* Each statement's bounds: a deadline, and room for a long min or max. */
static const SqExecLimits scan_limits = {SQ_PROFILE_SECONDS, 0, (uint64_t)64 << 20, 0, 1};

static int64_t int_cell_at(const SqResult *r, uint64_t row, uint32_t col) {
    const SqValue *v = sq_result_cell(r, row, col);
    return v->type == SQ_VAL_INTEGER ? v->i : -1;
}

static int64_t int_cell(const SqResult *r, uint32_t col) { return int_cell_at(r, 0, col); }

/* "0,2,7" -> the shape bits. */
static unsigned shape_bits(const SqValue *v) {
    unsigned bits = 0;
    if (v->type != SQ_VAL_TEXT) return 0;
    for (uint32_t i = 0; i < v->n; i++)
        if (v->s[i] >= '0' && v->s[i] <= '8') bits |= 1u << (v->s[i] - '0');
    return bits;
}

static void scan_stats(SqProfile *p, SqDb *db, SqColumnProfile *cp, const char *qt, const char *qc) {
    SqBuf sql = SQ_BUF_INIT;
    sq_buf_printf(&sql, "SELECT count(*), count(%s), count(DISTINCT %s), min(%s), max(%s), group_concat(DISTINCT ",
                  qc, qc, qc, qc);
    shape_sql(&sql, qc);
    sq_buf_printf(&sql, ") FROM %s", qt);
    SqResult r;
    sq_result_init(&r);
    if (sq_db_query(db, sq_buf_str(&sql), &scan_limits, &r, NULL) == SQ_EXEC_OK && r.n_rows == 1 && r.n_cols == 6) {
        cp->rows = int_cell(&r, 0);
        int64_t non_null = int_cell(&r, 1);
        cp->nulls = cp->rows >= 0 && non_null >= 0 ? cp->rows - non_null : -1;
        cp->distinct = int_cell(&r, 2);
        cp->shapes = shape_bits(sq_result_cell(&r, 0, 5));
        cp->has_range = non_null > 0 && sq_profile_keep_value(p, sq_result_cell(&r, 0, 3), &cp->min) &&
                        sq_profile_keep_value(p, sq_result_cell(&r, 0, 4), &cp->max);
        if (!cp->has_range) cp->min = cp->max = sq_value_null();
    }
    sq_result_free(&r);
    sq_buf_free(&sql);
}

static void scan_common(SqProfile *p, SqDb *db, SqColumnProfile *cp, const char *qt, const char *qc) {
    SqBuf sql = SQ_BUF_INIT;
    sq_buf_printf(&sql, "SELECT %s, count(*) FROM %s WHERE %s IS NOT NULL GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT %d",
                  qc, qt, qc, SQ_PROFILE_COMMON);
    SqResult r;
    sq_result_init(&r);
    if (sq_db_query(db, sq_buf_str(&sql), &scan_limits, &r, NULL) == SQ_EXEC_OK && r.n_cols == 2)
        for (uint64_t i = 0; i < r.n_rows; i++)
            sq_profile_add_common(p, cp, sq_result_cell(&r, i, 0), int_cell_at(&r, i, 1));
    sq_result_free(&r);
    sq_buf_free(&sql);
}

static void scan_column(SqProfile *p, SqDb *db, SqColumnProfile *cp) {
    SqBuf qt = SQ_BUF_INIT, qc = SQ_BUF_INIT;
    ir_sql_ident(&qt, cp->table->name);
    ir_sql_ident(&qc, cp->table->cols[cp->col].name);
    scan_stats(p, db, cp, sq_buf_str(&qt), sq_buf_str(&qc));
    if (cp->rows > cp->nulls) scan_common(p, db, cp, sq_buf_str(&qt), sq_buf_str(&qc));
    sq_buf_free(&qt);
    sq_buf_free(&qc);
}

int sq_profile_from_db(SqProfile *p, const Catalog *cat, const char *path, char **err) {
    if (err) *err = NULL;
    memset(p, 0, sizeof *p);
    SqDb *db = sq_db_open_file(path, err);
    if (!db) return -1;
    sq_profile_init(p, cat, SQ_PROFILE_DATABASE, path);
    for (uint32_t i = 0; i < p->n_cols; i++) scan_column(p, db, &p->cols[i]);
    sq_db_close(db);
    return 0;
}

const SqJson *sq_profile_json_named(const SqJson *list, const char *name) {
    if (!list || list->kind != SQ_JSON_ARRAY) return NULL;
    for (uint32_t i = 0; i < list->n; i++) {
        const char *s = sq_json_string(sq_json_get(list->items[i], "name"));
        if (s && sq_stricmp(s, name) == 0) return list->items[i];
    }
    return NULL;
}
