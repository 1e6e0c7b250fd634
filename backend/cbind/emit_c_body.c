/*
** emit_c_body.c -- the C bindings of a compiled package, second half: the
** source P.c, from the names emit_c.c worked out (docs/squint-compile.md,
** "C bindings").
**
** Layer: backend (private to backend/cbind).  Takes a CPackage, gives
** text.  The source is the struct P_db, the helpers the queries need
** (only those: an unused static function would fail -Werror), then per
** query its SQL, a row reader and its function.
**
** The SQL is a string literal, split at its newlines; one longer than the
** 4095 bytes C11 promises a literal may have is a list of characters.  A
** query with a slice has its SQL cut here at each slice's marker
** ("/" "*SLICE:name*" "/?N", written by sqltext.c), and the pieces are
** joined again at run time around the list's parameters.
*/
#include <stdlib.h>
#include <string.h>

#include "backend/cbind/emit_c_int.h"
#include "runtime/arena.h"
#include "runtime/util.h"

/* ---- SQL as C ------------------------------------------------------------------- */

enum { LITERAL_MAX = 4095 };   /* the bytes of literal C11 promises (-pedantic warns past them) */

/* s[0..n) as a string literal, a line of s per line of C: '\', '"' and
** control bytes escaped, a '?' after a '?' too (-std=c11 reads "??x" as a
** trigraph), bytes past ASCII in octal. */
static int literal_plain(const char *s, size_t i) {
    unsigned char c = (unsigned char)s[i];
    return c >= 0x20 && c < 0x7f && c != '\\' && c != '"' && !(c == '?' && i && s[i - 1] == '?');
}

static void put_literal(SqBuf *b, const char *s, size_t n, const char *indent) {
    sq_buf_putc(b, '"');
    for (size_t i = 0; i < n; i++) {
        size_t run = i;   /* plain bytes a run at a time */
        while (run < n && literal_plain(s, run)) run++;
        if (run > i) {
            sq_buf_put(b, s + i, run - i);
            if (run == n) break;
            i = run;
        }
        unsigned char c = (unsigned char)s[i];
        if (c == '\\' || c == '"') sq_buf_printf(b, "\\%c", c);
        else if (c == '\n') sq_buf_printf(b, i + 1 < n ? "\\n\"\n%s\"" : "\\n", indent);
        else if (c == '\t') sq_buf_puts(b, "\\t");
        else if (c == '?' && i && s[i - 1] == '?') sq_buf_puts(b, "\\?");
        else if (c < 0x20 || c >= 0x7f) sq_buf_printf(b, "\\%03o", c);
        else sq_buf_putc(b, (char)c);
    }
    sq_buf_putc(b, '"');
}

/* s[0..n) and its NUL as a brace-enclosed list of characters. */
static void put_chars(SqBuf *b, const char *s, size_t n, const char *indent) {
    sq_buf_putc(b, '{');
    for (size_t i = 0; i <= n; i++) {
        unsigned char c = i < n ? (unsigned char)s[i] : 0;
        sq_buf_printf(b, i % 16 ? " " : "\n%s    ", indent);
        if (c == '\'' || c == '\\') sq_buf_printf(b, "'\\%c',", c);
        else if (c >= 0x20 && c < 0x7f) sq_buf_printf(b, "'%c',", c);
        else sq_buf_printf(b, "'\\%03o',", c);
    }
    sq_buf_printf(b, "\n%s}", indent);
}

/* s[0..n) as the initializer of a char array, or with as_pointer as an
** expression that points at it (a compound literal when it is long). */
static void put_sql(SqBuf *b, const char *s, size_t n, const char *indent, int as_pointer) {
    if (n <= LITERAL_MAX) {
        put_literal(b, s, n, indent);
        return;
    }
    if (as_pointer) sq_buf_puts(b, "(const char[])");
    put_chars(b, s, n, indent);
}

/* ---- a slice query's SQL, cut at its slices ---------------------------------------- */

/* Where the SQL holds a slice: [start, end) is its marker, slice its
** place among the query's slices. */
typedef struct Cut {
    size_t start, end;      /* the marker's bytes in the SQL */
    uint32_t slice;         /* which of the query's slices, in parameter order */
} Cut;

/* The length of the marker of one of cq's slices at s, or 0 (*slice:
** which). */
static size_t marker_at(SqArena *a, const CQuery *cq, const char *s, uint32_t *slice) {
    uint32_t k = 0;
    for (uint32_t i = 0; i < cq->n_params; i++) {
        const SqParamInfo *p = cq->params[i];
        if (!cemit_is_slice(p)) continue;
        const char *m = sq_arena_printf(a, "/*SLICE:%s*/?%u", p->name, p->index);
        size_t n = strlen(m);
        if (strncmp(s, m, n) == 0 && !(s[n] >= '0' && s[n] <= '9')) return *slice = k, n;
        k++;
    }
    return 0;
}

/* Where the token at s[i] (a string, a quoted name, a comment) ends;
** i + 1 for anything else. */
static size_t skip_token(const char *s, size_t i, size_t len) {
    const char *e;   /* the token's last byte */
    if (s[i] == '\'' || s[i] == '"' || s[i] == '`' || s[i] == '[') e = strchr(s + i + 1, s[i] == '[' ? ']' : s[i]);
    else if (s[i] == '-' && s[i + 1] == '-') e = strchr(s + i, '\n');
    else if (s[i] == '/' && s[i + 1] == '*' && (e = strstr(s + i + 2, "*/")) != NULL) e++;
    else if (s[i] == '/' && s[i + 1] == '*') e = NULL;
    else return i + 1;
    return e ? (size_t)(e - s) + 1 : len;
}

/* The slices' markers in cq's SQL, outside its strings and comments. */
static Cut *find_cuts(SqArena *a, const CQuery *cq, uint32_t *n) {
    const char *s = cq->q->sql;
    size_t len = strlen(s);
    Cut *cuts = NULL;
    uint32_t cap = 0;
    *n = 0;
    for (size_t i = 0; i < len;) {
        uint32_t k;
        size_t m = s[i] == '/' ? marker_at(a, cq, s + i, &k) : 0;
        if (!m) {
            i = skip_token(s, i, len);
            continue;
        }
        *SQ_ARENA_APPEND(a, cuts, *n, cap) = (Cut){i, i + m, k};
        i += m;
    }
    return cuts;
}

/* The sq_sliced of a query with slices: its SQL in pieces, the slice
** each cut writes out, and its largest parameter number. */
static void sliced_sql(SqBuf *b, SqArena *a, const CQuery *cq) {
    uint32_t n;
    Cut *cuts = find_cuts(a, cq, &n);
    const char *s = cq->q->sql;
    sq_buf_printf(b, "\n/* %s's SQL, cut where its slices are written out. */\n", cq->name);
    sq_buf_printf(b, "static const sq_sliced sq_sql_%s = {\n    (const char *const[]){\n", cq->name);
    size_t at = 0;
    for (uint32_t i = 0; i <= n; i++) {
        size_t end = i < n ? cuts[i].start : strlen(s);
        sq_buf_puts(b, "        ");
        put_sql(b, s + at, end - at, "        ", 1);
        sq_buf_puts(b, ",\n");
        if (i < n) at = cuts[i].end;
    }
    sq_buf_puts(b, "    },\n    (const int[]){");
    for (uint32_t i = 0; i < n; i++) sq_buf_printf(b, "%s%u", i ? ", " : "", cuts[i].slice);
    sq_buf_printf(b, "%s},\n    %u,\n    %u,\n};\n", n ? "" : "0", n, cq->top);
}

static void query_sql(SqBuf *b, SqArena *a, const CQuery *cq) {
    if (cq->n_slices) {
        sliced_sql(b, a, cq);
        return;
    }
    sq_buf_printf(b, "\nstatic const char sq_sql_%s[] =\n    ", cq->name);
    put_sql(b, cq->q->sql, strlen(cq->q->sql), "    ", 0);
    sq_buf_puts(b, ";\n");
}

/* ---- the helpers -------------------------------------------------------------------- */
/* Written only when a query needs them; '$' is the package's name.  A
** helper's dependencies come before it in the table. */

enum {
    H_START, H_FINISH, H_RUN, H_CHANGES, H_BIND_INT, H_BIND_REAL, H_BIND_VALUE, H_SLICE, H_START_SLICED,
    H_BIND_INTS, H_BIND_REALS, H_BIND_TEXTS, H_BIND_VALUES, H_EMPTY, H_COL_INT, H_COL_REAL, H_COL_TEXT,
    H_COL_BLOB, H_COL_VALUE, H_OWN, H_TEXT_SIZE, H_VALUE_SIZE, H__COUNT
};
#define NEED(h) (1u << (h))

typedef struct Helper {
    unsigned deps;          /* NEED() of the helpers it calls */
    const char *text;       /* its C, '$' for the package's name */
} Helper;

static const Helper helpers[H__COUNT] = {
    [H_START] = {0,
        "\n/* Query i's statement, prepared on its first call and kept, and query i\n"
        "** marked busy: SQLITE_OK, SQLITE_MISUSE when a call of query i runs\n"
        "** already (this one is from inside its callback), or the error of\n"
        "** preparing sql. */\n"
        "static int sq_start($_db *q, int i, const char *sql, sqlite3_stmt **stmt) {\n"
        "    if (q->busy[i]) return SQLITE_MISUSE;\n"
        "    if (!q->stmts[i]) {\n"
        "        int rc = sqlite3_prepare_v2(q->db, sql, -1, &q->stmts[i], NULL);\n"
        "        if (rc != SQLITE_OK) return rc;\n"
        "    }\n"
        "    q->busy[i] = 1;\n"
        "    *stmt = q->stmts[i];\n"
        "    return SQLITE_OK;\n"
        "}\n"},
    [H_FINISH] = {0,
        "\n/* Ends a call of query i: its statement reset and its bindings cleared,\n"
        "** or finalized when it was prepared for this call only; gives rc. */\n"
        "static int sq_finish($_db *q, int i, sqlite3_stmt *stmt, int rc) {\n"
        "    if (stmt == q->stmts[i]) {\n"
        "        sqlite3_reset(stmt);\n"
        "        sqlite3_clear_bindings(stmt);\n"
        "    } else {\n"
        "        sqlite3_finalize(stmt);\n"
        "    }\n"
        "    q->busy[i] = 0;\n"
        "    return rc;\n"
        "}\n"},
    [H_RUN] = {0,
        "\n/* Steps stmt to its end: SQLITE_OK, or an error. */\n"
        "static int sq_run(sqlite3_stmt *stmt) {\n"
        "    int rc;\n"
        "    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {\n"
        "    }\n"
        "    return rc == SQLITE_DONE ? SQLITE_OK : rc;\n"
        "}\n"},
    [H_CHANGES] = {0,
        "\n/* The rows changed by the statement db completed last. */\n"
        "static int64_t sq_changes(sqlite3 *db) {\n"
        "#if SQLITE_VERSION_NUMBER >= 3037000\n"
        "    return sqlite3_changes64(db);\n"
        "#else\n"
        "    return sqlite3_changes(db);\n"
        "#endif\n"
        "}\n"},
    [H_BIND_INT] = {0,
        "\n/* Binds *x to parameter n, or NULL when x is NULL. */\n"
        "static int sq_bind_int(sqlite3_stmt *stmt, int n, const int64_t *x) {\n"
        "    return x ? sqlite3_bind_int64(stmt, n, *x) : sqlite3_bind_null(stmt, n);\n"
        "}\n"},
    [H_BIND_REAL] = {0,
        "\n/* Binds *x to parameter n, or NULL when x is NULL. */\n"
        "static int sq_bind_real(sqlite3_stmt *stmt, int n, const double *x) {\n"
        "    return x ? sqlite3_bind_double(stmt, n, *x) : sqlite3_bind_null(stmt, n);\n"
        "}\n"},
    [H_BIND_VALUE] = {0,
        "\n/* Binds *x to parameter n, or NULL when x is NULL: SQLITE_MISUSE when its\n"
        "** type is none of SQLite's five. */\n"
        "static int sq_bind_value(sqlite3_stmt *stmt, int n, const $_value *x) {\n"
        "    switch (x ? x->type : SQLITE_NULL) {\n"
        "    case SQLITE_INTEGER: return sqlite3_bind_int64(stmt, n, x->i);\n"
        "    case SQLITE_FLOAT: return sqlite3_bind_double(stmt, n, x->r);\n"
        "    case SQLITE_TEXT: return sqlite3_bind_text64(stmt, n, x->p, x->len, SQLITE_TRANSIENT, SQLITE_UTF8);\n"
        "    case SQLITE_BLOB: return sqlite3_bind_blob64(stmt, n, x->p, x->len, SQLITE_TRANSIENT);\n"
        "    case SQLITE_NULL: return sqlite3_bind_null(stmt, n);\n"
        "    default: return SQLITE_MISUSE;\n"
        "    }\n"
        "}\n"},
    [H_SLICE] = {0,
        "\n/* A slice's list in one call: the first value takes the slice's parameter\n"
        "** number, the others more, more + 1, ... */\n"
        "typedef struct sq_slice {\n"
        "    int number;\n"
        "    size_t n;       /* values */\n"
        "    int more;       /* set by sq_number_slices */\n"
        "} sq_slice;\n"
        "\n/* A query's SQL cut at its slices: pieces[0], then slice cuts[0] written\n"
        "** out, pieces[1], ... */\n"
        "typedef struct sq_sliced {\n"
        "    const char *const *pieces;  /* n_cuts + 1 */\n"
        "    const int *cuts;            /* the slice each cut writes out */\n"
        "    size_t n_cuts;\n"
        "    int top;                    /* the largest parameter number */\n"
        "} sq_sliced;\n"
        "\n/* The parameter number of value v of slice s. */\n"
        "static int sq_slot(const sq_slice *s, size_t v) {\n"
        "    return v ? s->more + (int)(v - 1) : s->number;\n"
        "}\n"
        "\n/* Numbers the slices' other values past top, in order: SQLITE_OK, or\n"
        "** SQLITE_RANGE when they pass db's limit of parameters. */\n"
        "static int sq_number_slices(sqlite3 *db, sq_slice *s, size_t n, int top) {\n"
        "    size_t next = (size_t)top + 1, limit = (size_t)sqlite3_limit(db, SQLITE_LIMIT_VARIABLE_NUMBER, -1);\n"
        "    for (size_t k = 0; k < n; k++) {\n"
        "        if (s[k].n > limit) return SQLITE_RANGE;\n"
        "        s[k].more = (int)next;\n"
        "        next += s[k].n ? s[k].n - 1 : 0;\n"
        "        if (next - 1 > limit) return SQLITE_RANGE;\n"
        "    }\n"
        "    return SQLITE_OK;\n"
        "}\n"
        "\n/* Writes \"?N\" at at; gives the end. */\n"
        "static char *sq_put_number(char *at, int n) {\n"
        "    char digits[12];\n"
        "    int k = 0;\n"
        "    do digits[k++] = (char)('0' + n % 10); while (n /= 10);\n"
        "    *at++ = '?';\n"
        "    while (k) *at++ = digits[--k];\n"
        "    return at;\n"
        "}\n"
        "\n/* The SQL of one call: the pieces, each cut written out as its slice's\n"
        "** parameters (\"?2, ?5, ?6\"; nothing for an empty list).  malloc'd; NULL\n"
        "** when out of memory. */\n"
        "static char *sq_sliced_sql(const sq_sliced *d, const sq_slice *s) {\n"
        "    size_t len = 1;\n"
        "    for (size_t k = 0; k <= d->n_cuts; k++) len += strlen(d->pieces[k]);\n"
        "    for (size_t k = 0; k < d->n_cuts; k++) len += 14 * s[d->cuts[k]].n;   /* \", ?\" and 11 digits */\n"
        "    char *sql = malloc(len), *at = sql;\n"
        "    for (size_t k = 0; sql && k <= d->n_cuts; k++) {\n"
        "        size_t n = strlen(d->pieces[k]);\n"
        "        memcpy(at, d->pieces[k], n);\n"
        "        at += n;\n"
        "        const sq_slice *c = k < d->n_cuts ? &s[d->cuts[k]] : NULL;\n"
        "        for (size_t v = 0; c && v < c->n; v++) {\n"
        "            if (v) {\n"
        "                *at++ = ',';\n"
        "                *at++ = ' ';\n"
        "            }\n"
        "            at = sq_put_number(at, sq_slot(c, v));\n"
        "        }\n"
        "    }\n"
        "    if (sql) *at = '\\0';\n"
        "    return sql;\n"
        "}\n"},
    [H_START_SLICED] = {NEED(H_SLICE),
        "\n/* Query i prepared for this call only, its slices written out, and marked\n"
        "** busy: SQLITE_OK, SQLITE_MISUSE when a call of query i runs already,\n"
        "** SQLITE_RANGE, SQLITE_NOMEM, or the error of preparing it. */\n"
        "static int sq_start_sliced($_db *q, int i, const sq_sliced *d, sq_slice *s, size_t n, sqlite3_stmt **stmt) {\n"
        "    if (q->busy[i]) return SQLITE_MISUSE;\n"
        "    int rc = sq_number_slices(q->db, s, n, d->top);\n"
        "    char *sql = rc == SQLITE_OK ? sq_sliced_sql(d, s) : NULL;\n"
        "    if (rc == SQLITE_OK && !sql) rc = SQLITE_NOMEM;\n"
        "    if (rc == SQLITE_OK) rc = sqlite3_prepare_v2(q->db, sql, -1, stmt, NULL);\n"
        "    free(sql);\n"
        "    if (rc == SQLITE_OK) q->busy[i] = 1;\n"
        "    return rc;\n"
        "}\n"},
    [H_BIND_INTS] = {NEED(H_SLICE),
        "\n/* Binds the values of slice s. */\n"
        "static int sq_bind_ints(sqlite3_stmt *stmt, const sq_slice *s, const int64_t *x) {\n"
        "    int rc = SQLITE_OK;\n"
        "    for (size_t v = 0; rc == SQLITE_OK && v < s->n; v++) rc = sqlite3_bind_int64(stmt, sq_slot(s, v), x[v]);\n"
        "    return rc;\n"
        "}\n"},
    [H_BIND_REALS] = {NEED(H_SLICE),
        "\n/* Binds the values of slice s. */\n"
        "static int sq_bind_reals(sqlite3_stmt *stmt, const sq_slice *s, const double *x) {\n"
        "    int rc = SQLITE_OK;\n"
        "    for (size_t v = 0; rc == SQLITE_OK && v < s->n; v++)\n"
        "        rc = sqlite3_bind_double(stmt, sq_slot(s, v), x[v]);\n"
        "    return rc;\n"
        "}\n"},
    [H_BIND_TEXTS] = {NEED(H_SLICE),
        "\n/* Binds the values of slice s (a NULL one as NULL). */\n"
        "static int sq_bind_texts(sqlite3_stmt *stmt, const sq_slice *s, const char *const *x) {\n"
        "    int rc = SQLITE_OK;\n"
        "    for (size_t v = 0; rc == SQLITE_OK && v < s->n; v++)\n"
        "        rc = sqlite3_bind_text(stmt, sq_slot(s, v), x[v], -1, SQLITE_TRANSIENT);\n"
        "    return rc;\n"
        "}\n"},
    [H_BIND_VALUES] = {NEED(H_SLICE) | NEED(H_BIND_VALUE),
        "\n/* Binds the values of slice s. */\n"
        "static int sq_bind_values(sqlite3_stmt *stmt, const sq_slice *s, const $_value *x) {\n"
        "    int rc = SQLITE_OK;\n"
        "    for (size_t v = 0; rc == SQLITE_OK && v < s->n; v++) rc = sq_bind_value(stmt, sq_slot(s, v), &x[v]);\n"
        "    return rc;\n"
        "}\n"},
    [H_EMPTY] = {0,
        "\n/* What stands for text or a blob SQLite gave as a NULL pointer: \"\" (an\n"
        "** empty blob), with *rc SQLITE_NOMEM when SQLite ran out of memory. */\n"
        "static const char *sq_empty(sqlite3_stmt *stmt, int *rc) {\n"
        "    if (sqlite3_errcode(sqlite3_db_handle(stmt)) == SQLITE_NOMEM) *rc = SQLITE_NOMEM;\n"
        "    return \"\";\n"
        "}\n"},
    [H_COL_INT] = {0,
        "\n/* Column i as an integer: false when it is NULL (*x then 0).  A value\n"
        "** that is none (text, a blob, a real with a fraction) is SQLITE_MISMATCH\n"
        "** in *rc. */\n"
        "static bool sq_col_int(sqlite3_stmt *stmt, int i, int64_t *x, int *rc) {\n"
        "    int type = sqlite3_column_type(stmt, i);\n"
        "    double r = type == SQLITE_FLOAT ? sqlite3_column_double(stmt, i) : 0;\n"
        "    *x = 0;\n"
        "    if (type == SQLITE_NULL) return false;\n"
        "    if (type == SQLITE_INTEGER) *x = sqlite3_column_int64(stmt, i);\n"
        "    else if (type == SQLITE_FLOAT && r >= -9223372036854775808.0 && r < 9223372036854775808.0 &&\n"
        "             (double)(int64_t)r == r)\n"
        "        *x = (int64_t)r;\n"
        "    else *rc = SQLITE_MISMATCH;\n"
        "    return true;\n"
        "}\n"},
    [H_COL_REAL] = {0,
        "\n/* Column i as a double: false when it is NULL (*x then 0).  Text or a\n"
        "** blob is SQLITE_MISMATCH in *rc. */\n"
        "static bool sq_col_real(sqlite3_stmt *stmt, int i, double *x, int *rc) {\n"
        "    int type = sqlite3_column_type(stmt, i);\n"
        "    *x = 0;\n"
        "    if (type == SQLITE_NULL) return false;\n"
        "    if (type == SQLITE_INTEGER || type == SQLITE_FLOAT) *x = sqlite3_column_double(stmt, i);\n"
        "    else *rc = SQLITE_MISMATCH;\n"
        "    return true;\n"
        "}\n"},
    [H_COL_TEXT] = {NEED(H_EMPTY),
        "\n/* Column i as text, SQLite's until the next step (a number as SQLite\n"
        "** writes it): false when it is NULL (*x then NULL).  A blob is\n"
        "** SQLITE_MISMATCH in *rc. */\n"
        "static bool sq_col_text(sqlite3_stmt *stmt, int i, const char **x, int *rc) {\n"
        "    int type = sqlite3_column_type(stmt, i);\n"
        "    *x = NULL;\n"
        "    if (type == SQLITE_NULL) return false;\n"
        "    if (type == SQLITE_BLOB) {\n"
        "        *rc = SQLITE_MISMATCH;\n"
        "        return true;\n"
        "    }\n"
        "    *x = (const char *)sqlite3_column_text(stmt, i);\n"
        "    if (!*x) *x = sq_empty(stmt, rc);\n"
        "    return true;\n"
        "}\n"},
    [H_COL_BLOB] = {NEED(H_EMPTY),
        "\n/* Column i as a blob of *len bytes, SQLite's until the next step: false\n"
        "** when it is NULL (*x then NULL). */\n"
        "static bool sq_col_blob(sqlite3_stmt *stmt, int i, const void **x, size_t *len, int *rc) {\n"
        "    *x = NULL;\n"
        "    *len = 0;\n"
        "    if (sqlite3_column_type(stmt, i) == SQLITE_NULL) return false;\n"
        "    *x = sqlite3_column_blob(stmt, i);\n"
        "    *len = (size_t)sqlite3_column_bytes(stmt, i);\n"
        "    if (!*x) *x = sq_empty(stmt, rc);\n"
        "    return true;\n"
        "}\n"},
    [H_COL_VALUE] = {NEED(H_EMPTY),
        "\n/* Column i as a $_value, its text or blob SQLite's until the next step:\n"
        "** false when it is NULL (type SQLITE_NULL). */\n"
        "static bool sq_col_value(sqlite3_stmt *stmt, int i, $_value *x, int *rc) {\n"
        "    memset(x, 0, sizeof *x);\n"
        "    x->type = sqlite3_column_type(stmt, i);\n"
        "    if (x->type == SQLITE_INTEGER) x->i = sqlite3_column_int64(stmt, i);\n"
        "    if (x->type == SQLITE_FLOAT) x->r = sqlite3_column_double(stmt, i);\n"
        "    if (x->type == SQLITE_TEXT) x->p = sqlite3_column_text(stmt, i);\n"
        "    if (x->type == SQLITE_BLOB) x->p = sqlite3_column_blob(stmt, i);\n"
        "    if (x->type == SQLITE_TEXT || x->type == SQLITE_BLOB) {\n"
        "        x->len = (size_t)sqlite3_column_bytes(stmt, i);\n"
        "        if (!x->p) x->p = sq_empty(stmt, rc);\n"
        "    }\n"
        "    return x->type != SQLITE_NULL;\n"
        "}\n"},
    [H_OWN] = {0,
        "\n/* One block for the sizes len[0..n) into *mem: malloc'd, NULL when out of\n"
        "** memory. */\n"
        "static char *sq_block(void **mem, const size_t *len, size_t n) {\n"
        "    size_t total = 1;\n"
        "    for (size_t k = 0; k < n; k++) total += len[k];\n"
        "    return *mem = malloc(total);\n"
        "}\n"
        "\n/* Copies n bytes of p to *at and moves *at past them: the copy, or NULL\n"
        "** when p is NULL. */\n"
        "static void *sq_put(char **at, const void *p, size_t n) {\n"
        "    if (!p) return NULL;\n"
        "    void *copy = memcpy(*at, p, n);\n"
        "    *at += n;\n"
        "    return copy;\n"
        "}\n"},
    [H_TEXT_SIZE] = {0,
        "\n/* The bytes a row keeps of text x: with its NUL, 0 for NULL. */\n"
        "static size_t sq_text_size(const char *x) {\n"
        "    return x ? strlen(x) + 1 : 0;\n"
        "}\n"},
    [H_VALUE_SIZE] = {0,
        "\n/* The bytes a row keeps of value x: text with its NUL, a blob, or none. */\n"
        "static size_t sq_value_size(const $_value *x) {\n"
        "    return x->type == SQLITE_TEXT ? x->len + 1 : x->type == SQLITE_BLOB ? x->len : 0;\n"
        "}\n"},
};

/* text with '$' the package's name. */
static void put_template(SqBuf *b, const char *text, const char *p) {
    for (const char *s = text; *s;) {
        const char *dollar = strchr(s, '$');
        size_t n = dollar ? (size_t)(dollar - s) : strlen(s);
        sq_buf_put(b, s, n);
        if (!dollar) break;
        sq_buf_puts(b, p);
        s = dollar + 1;
    }
}

static const unsigned slice_binds[] = {
    [CK_INT] = NEED(H_BIND_INTS), [CK_REAL] = NEED(H_BIND_REALS), [CK_TEXT] = NEED(H_BIND_TEXTS),
    [CK_BLOB] = NEED(H_BIND_VALUES), [CK_VALUE] = NEED(H_BIND_VALUES),
};

static unsigned param_needs(const SqParamInfo *p) {
    CKind k = cemit_kind(p->type);
    if (cemit_is_slice(p)) return slice_binds[k];
    if (k == CK_VALUE) return NEED(H_BIND_VALUE);
    if (!p->type.nullable) return 0;
    return k == CK_INT ? NEED(H_BIND_INT) : k == CK_REAL ? NEED(H_BIND_REAL) : 0;
}

/* The readers cq's row needs, and for :one what keeping it does. */
static unsigned row_needs(const CQuery *cq) {
    static const unsigned cols[] = {
        [CK_INT] = NEED(H_COL_INT), [CK_REAL] = NEED(H_COL_REAL), [CK_TEXT] = NEED(H_COL_TEXT),
        [CK_BLOB] = NEED(H_COL_BLOB), [CK_VALUE] = NEED(H_COL_VALUE),
    };
    static const unsigned keep[] = {
        [CK_INT] = 0, [CK_REAL] = 0, [CK_TEXT] = NEED(H_OWN) | NEED(H_TEXT_SIZE), [CK_BLOB] = NEED(H_OWN),
        [CK_VALUE] = NEED(H_OWN) | NEED(H_VALUE_SIZE),
    };
    unsigned needs = 0;
    for (uint32_t i = 0; i < cq->q->sig.n_cols; i++) {
        CKind k = cemit_kind(cq->q->sig.cols[i].type);
        needs |= cols[k] | (cq->q->ann->cmd == SQ_CMD_ONE ? keep[k] : 0);
    }
    return needs;
}

/* Every helper the package's queries call, and what those call. */
static unsigned package_needs(const CPackage *pk) {
    unsigned needs = 0;
    for (size_t i = 0; i < pk->n; i++) {
        const CQuery *cq = &pk->qs[i];
        SqQueryCmd cmd = (SqQueryCmd)cq->q->ann->cmd;
        needs |= NEED(H_FINISH) | NEED(cq->n_slices ? H_START_SLICED : H_START);
        if (cmd == SQ_CMD_EXEC || cmd == SQ_CMD_EXECROWS || cmd == SQ_CMD_EXECLASTID) needs |= NEED(H_RUN);
        if (cmd == SQ_CMD_EXECROWS) needs |= NEED(H_CHANGES);
        for (uint32_t j = 0; j < cq->n_params; j++) needs |= param_needs(cq->params[j]);
        if (cemit_has_row(cq)) needs |= row_needs(cq);
    }
    for (int h = H__COUNT - 1; h >= 0; h--)
        if (needs & NEED(h)) needs |= helpers[h].deps;
    return needs;
}

/* ---- a query's row ------------------------------------------------------------------- */

/* The call that reads column i into its field. */
static void read_column(SqBuf *b, const CQuery *cq, uint32_t i) {
    const SqResultInfo *c = &cq->q->sig.cols[i];
    const char *x = cq->fields[i];
    sq_buf_puts(b, "    ");
    if (c->type.nullable) sq_buf_printf(b, "row->has_%s = ", x);
    switch (cemit_kind(c->type)) {
    case CK_INT: sq_buf_printf(b, "sq_col_int(stmt, %u, &row->%s, &rc);\n", i, x); break;
    case CK_REAL: sq_buf_printf(b, "sq_col_real(stmt, %u, &row->%s, &rc);\n", i, x); break;
    case CK_TEXT: sq_buf_printf(b, "sq_col_text(stmt, %u, &row->%s, &rc);\n", i, x); break;
    case CK_BLOB: sq_buf_printf(b, "sq_col_blob(stmt, %u, &row->%s, &row->%s_len, &rc);\n", i, x, x); break;
    case CK_VALUE: sq_buf_printf(b, "sq_col_value(stmt, %u, &row->%s, &rc);\n", i, x); break;
    }
}

static void read_function(SqBuf *b, const CPackage *pk, const CQuery *cq) {
    sq_buf_printf(b, "\n/* The current row of %s into *row, its text and blobs SQLite's until the\n"
                     "** next step: SQLITE_OK, SQLITE_NOMEM, or SQLITE_MISMATCH when a value is\n"
                     "** not of its column's type. */\n"
                     "static int sq_read_%s(sqlite3_stmt *stmt, %s_%sRow *row) {\n"
                     "    int rc = SQLITE_OK;\n    memset(row, 0, sizeof *row);\n",
                  cq->name, cq->name, pk->p, cq->name);
    if (!cq->q->sig.n_cols) sq_buf_puts(b, "    (void)stmt;\n");
    for (uint32_t i = 0; i < cq->q->sig.n_cols; i++) read_column(b, cq, i);
    sq_buf_puts(b, "    return rc;\n}\n");
}

/* The body of keep: the row read, its text and blobs copied into its
** block. */
static void keep_copies(SqBuf *b, const CQuery *cq) {
    const SqSignature *sig = &cq->q->sig;
    uint32_t n = 0;
    SqBuf sizes = SQ_BUF_INIT, puts = SQ_BUF_INIT;
    for (uint32_t i = 0; i < sig->n_cols; i++) {
        const char *x = cq->fields[i];
        CKind k = cemit_kind(sig->cols[i].type);
        if (k == CK_TEXT) sq_buf_printf(&sizes, "%ssq_text_size(row->%s)", n ? ", " : "", x);
        else if (k == CK_BLOB) sq_buf_printf(&sizes, "%srow->%s_len", n ? ", " : "", x);
        else if (k == CK_VALUE) sq_buf_printf(&sizes, "%ssq_value_size(&row->%s)", n ? ", " : "", x);
        else continue;
        sq_buf_printf(&puts, "    row->%s%s = sq_put(&at, row->%s%s, len[%u]);\n", x, k == CK_VALUE ? ".p" : "", x,
                      k == CK_VALUE ? ".p" : "", n++);
    }
    if (n) {
        sq_buf_printf(b, "    int rc = sq_read_%s(stmt, row);\n", cq->name);
        sq_buf_printf(b, "    size_t len[%u] = {%s};\n", n, sizes.data);
        sq_buf_printf(b, "    char *at = rc == SQLITE_OK ? sq_block(&row->mem_, len, %u) : NULL;\n", n);
        sq_buf_puts(b, "    if (!at) {\n        memset(row, 0, sizeof *row);\n"
                       "        return rc == SQLITE_OK ? SQLITE_NOMEM : rc;\n    }\n");
        sq_buf_puts(b, puts.data);
    } else {
        sq_buf_printf(b, "    int rc = sq_read_%s(stmt, row);\n", cq->name);
        sq_buf_puts(b, "    if (rc != SQLITE_OK) {\n        memset(row, 0, sizeof *row);\n        return rc;\n    }\n");
    }
    sq_buf_free(&sizes);
    sq_buf_free(&puts);
}

/* :one: the row read and made the caller's; its freeing function. */
static void keep_functions(SqBuf *b, const CPackage *pk, const CQuery *cq) {
    const char *p = pk->p, *x = cq->name;
    sq_buf_printf(b, "\n/* The current row of %s into *row, its text and blobs copied into one\n"
                     "** block the row owns: SQLITE_ROW, or SQLITE_NOMEM or SQLITE_MISMATCH (*row\n"
                     "** zeroed). */\n"
                     "static int sq_keep_%s(sqlite3_stmt *stmt, %s_%sRow *row) {\n",
                  x, x, p, x);
    keep_copies(b, cq);
    sq_buf_puts(b, "    return SQLITE_ROW;\n}\n");
    sq_buf_printf(b, "\nvoid %s_%sRow_free(%s_%sRow *row) {\n    if (!row) return;\n    free(row->mem_);\n"
                     "    memset(row, 0, sizeof *row);\n}\n",
                  p, x, p, x);
}

/* ---- a query's function ---------------------------------------------------------------- */

/* The call that binds parameter i (slice: its place among the slices). */
static void bind_param(SqBuf *b, const CQuery *cq, uint32_t i, uint32_t slice) {
    static const char *const lists[] = {"ints", "reals", "texts", "values", "values"};
    const SqParamInfo *p = cq->params[i];
    const char *x = cq->args[i];
    CKind k = cemit_kind(p->type);
    uint32_t n = p->index;
    sq_buf_puts(b, "    if (rc == SQLITE_OK) rc = ");
    if (cemit_is_slice(p)) sq_buf_printf(b, "sq_bind_%s(stmt, &slices[%u], %s);\n", lists[k], slice, x);
    else if (k == CK_INT && p->type.nullable) sq_buf_printf(b, "sq_bind_int(stmt, %u, %s);\n", n, x);
    else if (k == CK_INT) sq_buf_printf(b, "sqlite3_bind_int64(stmt, %u, %s);\n", n, x);
    else if (k == CK_REAL && p->type.nullable) sq_buf_printf(b, "sq_bind_real(stmt, %u, %s);\n", n, x);
    else if (k == CK_REAL) sq_buf_printf(b, "sqlite3_bind_double(stmt, %u, %s);\n", n, x);
    else if (k == CK_TEXT) sq_buf_printf(b, "sqlite3_bind_text(stmt, %u, %s, -1, SQLITE_TRANSIENT);\n", n, x);
    else if (k == CK_BLOB) sq_buf_printf(b, "sqlite3_bind_blob64(stmt, %u, %s, %s_len, SQLITE_TRANSIENT);\n", n, x, x);
    else sq_buf_printf(b, "sq_bind_value(stmt, %u, %s);\n", n, x);
}

/* The opening: out-parameters cleared, the statement started. */
static void function_start(SqBuf *b, const CQuery *cq) {
    SqQueryCmd cmd = (SqQueryCmd)cq->q->ann->cmd;
    sq_buf_puts(b, "    sqlite3_stmt *stmt = NULL;\n");
    if (cmd == SQ_CMD_ONE) sq_buf_puts(b, "    memset(row, 0, sizeof *row);\n");
    if (cmd == SQ_CMD_EXECROWS) sq_buf_puts(b, "    if (changes) *changes = 0;\n");
    if (cmd == SQ_CMD_EXECLASTID) sq_buf_puts(b, "    if (rowid) *rowid = 0;\n");
    if (!cq->n_slices) {
        sq_buf_printf(b, "    int rc = sq_start(q, %u, sq_sql_%s, &stmt);\n", cq->slot, cq->name);
    } else {
        sq_buf_puts(b, "    sq_slice slices[] = {");
        for (uint32_t i = 0, k = 0; i < cq->n_params; i++)
            if (cemit_is_slice(cq->params[i]))
                sq_buf_printf(b, "%s{%u, %s_n, 0}", k++ ? ", " : "", cq->params[i]->index, cq->args[i]);
        sq_buf_printf(b, "};\n    int rc = sq_start_sliced(q, %u, &sq_sql_%s, slices, %u, &stmt);\n", cq->slot,
                      cq->name, cq->n_slices);
    }
    sq_buf_puts(b, "    if (rc != SQLITE_OK) return rc;\n");
}

/* The run, by command. */
static void function_run(SqBuf *b, const CPackage *pk, const CQuery *cq) {
    switch (cq->q->ann->cmd) {
    case SQ_CMD_ONE:
        sq_buf_printf(b, "    if (rc == SQLITE_OK) rc = sqlite3_step(stmt);\n"
                         "    if (rc == SQLITE_ROW) rc = sq_keep_%s(stmt, row);\n",
                      cq->name);
        break;
    case SQ_CMD_MANY:
        sq_buf_printf(b, "    while (rc == SQLITE_OK && (rc = sqlite3_step(stmt)) == SQLITE_ROW) {\n"
                         "        %s_%sRow row;\n"
                         "        rc = sq_read_%s(stmt, &row);\n"
                         "        if (rc == SQLITE_OK && each && each(ctx, &row)) rc = SQLITE_ABORT;\n"
                         "    }\n"
                         "    if (rc == SQLITE_DONE) rc = SQLITE_OK;\n",
                      pk->p, cq->name, cq->name);
        break;
    case SQ_CMD_EXECROWS:
        sq_buf_puts(b, "    if (rc == SQLITE_OK) rc = sq_run(stmt);\n"
                       "    if (rc == SQLITE_OK && changes) *changes = sq_changes(q->db);\n");
        break;
    case SQ_CMD_EXECLASTID:
        sq_buf_puts(b, "    if (rc == SQLITE_OK) rc = sq_run(stmt);\n"
                       "    if (rc == SQLITE_OK && rowid) *rowid = sqlite3_last_insert_rowid(q->db);\n");
        break;
    default: sq_buf_puts(b, "    if (rc == SQLITE_OK) rc = sq_run(stmt);\n");
    }
}

static void query_function(SqBuf *b, const CPackage *pk, const CQuery *cq) {
    sq_buf_printf(b, "\n/* %s: what it returns is said in %s. */\n", cq->name, pk->header_name);
    cemit_signature(b, pk, cq);
    sq_buf_puts(b, " {\n");
    function_start(b, cq);
    for (uint32_t i = 0, k = 0; i < cq->n_params; i++) {
        bind_param(b, cq, i, k);
        k += cemit_is_slice(cq->params[i]) != 0;
    }
    function_run(b, pk, cq);
    sq_buf_printf(b, "    return sq_finish(q, %u, stmt, rc);\n}\n", cq->slot);
}

/* ---- the source ----------------------------------------------------------------------- */

static void source_top(SqBuf *b, const CPackage *pk) {
    const char *p = pk->p;
    size_t n = pk->n ? pk->n : 1;   /* ISO C wants no empty array */
    cemit_banner(b, pk);
    sq_buf_printf(b, "/*\n** %s.c -- the C bindings of the package %s (see %s).  Helpers are\n"
                     "** static and start with sq_; each query's SQL is sq_sql_Name.\n*/\n",
                  p, p, pk->header_name);
    sq_buf_printf(b, "#include <stdlib.h>\n#include <string.h>\n\n#include \"%s\"\n\n", pk->header_name);
    sq_buf_printf(b, "/* The statements of one connection: query i's in stmts[i], prepared on\n"
                     "** its first call (a query with a slice: for each call, never kept); busy[i]\n"
                     "** while a call of query i runs. */\n"
                     "struct %s_db {\n    sqlite3 *db;   /* the caller's */\n    sqlite3_stmt *stmts[%zu];\n"
                     "    unsigned char busy[%zu];\n};\n\n",
                  p, n, n);
    sq_buf_printf(b, "%s_db *%s_open(sqlite3 *db) {\n    %s_db *q = calloc(1, sizeof *q);\n    if (q) q->db = db;\n"
                     "    return q;\n}\n\n",
                  p, p, p);
    sq_buf_printf(b, "void %s_close(%s_db *q) {\n    if (!q) return;\n"
                     "    for (size_t i = 0; i < sizeof q->stmts / sizeof q->stmts[0]; i++)\n"
                     "        sqlite3_finalize(q->stmts[i]);\n"
                     "    free(q);\n}\n",
                  p, p);
}

void cemit_source(SqBuf *b, const CPackage *pk) {
    source_top(b, pk);
    unsigned needs = package_needs(pk);
    if (needs) sq_buf_puts(b, "\n/* ---- helpers ---- */\n");
    for (int h = 0; h < H__COUNT; h++)
        if (needs & NEED(h)) put_template(b, helpers[h].text, pk->p);
    SqArena *a = sq_arena_new();
    for (size_t i = 0; i < pk->n; i++) {
        const CQuery *cq = &pk->qs[i];
        sq_buf_printf(b, "\n/* ---- %s ---- */\n", cq->name);
        query_sql(b, a, cq);
        if (cemit_has_row(cq)) read_function(b, pk, cq);
        if (cq->q->ann->cmd == SQ_CMD_ONE) keep_functions(b, pk, cq);
        query_function(b, pk, cq);
    }
    sq_arena_free(a);
}
