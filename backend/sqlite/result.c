/*
** result.c -- result sets: building, value order and hashing, the four
** compare modes and the first-difference report.
**
** Layer: backend/sqlite.  Takes SqResults, gives verdicts and text.  Owns
** nothing beyond the results themselves; every comparison allocates its
** scratch memory on the heap and frees it before returning.
**
** Sections: values; Python's str() of values; building; rows; LIST, BAG
** and SET; SPIDER (text decoding, quick_rej, column permutations); diff.
*/
#include "result.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../runtime/util.h"

#define TWO63 9223372036854775808.0 /* 2^63, exactly representable */
#define NO_COL UINT32_MAX

/* ------------------------------------------------------------------ */
/* Values                                                              */
/* ------------------------------------------------------------------ */

static int is_nan(const SqValue *v) {
    return v->type == SQ_VAL_REAL && isnan(v->r);
}

/* NULL, number, TEXT, BLOB: the classes that can never be equal. */
static int type_rank(const SqValue *v) {
    switch (v->type) {
    case SQ_VAL_NULL: return 0;
    case SQ_VAL_INTEGER:
    case SQ_VAL_REAL: return 1;
    case SQ_VAL_TEXT: return 2;
    default: return 3;
    }
}

/* The int64 equal to r, when r is integral and in range. */
static int real_as_int(double r, int64_t *out) {
    if (!(r >= -TWO63 && r < TWO63)) return 0; /* also rejects NaN */
    int64_t t = (int64_t)r;
    if ((double)t != r) return 0;
    *out = t;
    return 1;
}

/* Compare an int64 with a double that is not NaN, exactly: no rounding of
** the integer to a double, so 2^53+1 > 2^53 (as in Python). */
static int cmp_int_real(int64_t i, double r) {
    if (r >= TWO63) return -1;
    if (r < -TWO63) return 1;
    int64_t t = (int64_t)r; /* truncated toward zero, exact */
    if (i != t) return i < t ? -1 : 1;
    double frac = r - (double)t; /* exact: r and t share their high bits */
    return frac > 0 ? -1 : frac < 0 ? 1 : 0;
}

static int cmp_num(const SqValue *a, const SqValue *b) {
    int an = is_nan(a), bn = is_nan(b);
    if (an || bn) return an - bn; /* NaN after every number */
    if (a->type == SQ_VAL_INTEGER && b->type == SQ_VAL_INTEGER)
        return (a->i > b->i) - (a->i < b->i);
    if (a->type == SQ_VAL_REAL && b->type == SQ_VAL_REAL)
        return (a->r > b->r) - (a->r < b->r);
    if (a->type == SQ_VAL_INTEGER) return cmp_int_real(a->i, b->r);
    return -cmp_int_real(b->i, a->r);
}

static int cmp_bytes(const char *a, size_t na, const char *b, size_t nb) {
    size_t n = na < nb ? na : nb;
    int c = n ? memcmp(a, b, n) : 0;
    if (c) return c < 0 ? -1 : 1;
    return (na > nb) - (na < nb);
}

static inline int value_cmp(const SqValue *a, const SqValue *b) {
    if (a->type == b->type && a->type == SQ_VAL_INTEGER) return (a->i > b->i) - (a->i < b->i);
    int ra = type_rank(a), rb = type_rank(b);
    if (ra != rb) return ra < rb ? -1 : 1;
    if (ra == 0) return 0;
    if (ra == 1) return cmp_num(a, b);
    return cmp_bytes(a->s, a->n, b->s, b->n);
}

static inline int value_equal(const SqValue *a, const SqValue *b) {
    if (is_nan(a) || is_nan(b)) return 0;
    return value_cmp(a, b) == 0;
}

int sq_value_cmp(const SqValue *a, const SqValue *b) { return value_cmp(a, b); }
int sq_value_equal(const SqValue *a, const SqValue *b) { return value_equal(a, b); }

static uint64_t mix64(uint64_t x) { /* splitmix64's finalizer */
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

static uint64_t hash_bytes(const char *s, uint32_t n, uint64_t seed) {
    uint64_t h = 0xcbf29ce484222325ull ^ seed; /* FNV-1a */
    for (uint32_t k = 0; k < n; k++) h = (h ^ (unsigned char)s[k]) * 0x100000001b3ull;
    return mix64(h);
}

/* Equal values (sq_value_equal) hash equal: an integral REAL hashes as
** the INTEGER it equals. */
static uint64_t value_hash(const SqValue *v) {
    int64_t i;
    uint64_t bits;
    switch (v->type) {
    case SQ_VAL_NULL: return 0x6a09e667f3bcc908ull;
    case SQ_VAL_INTEGER: return mix64((uint64_t)v->i);
    case SQ_VAL_REAL:
        if (real_as_int(v->r, &i)) return mix64((uint64_t)i);
        memcpy(&bits, &v->r, sizeof bits);
        return mix64(bits ^ 0x3c6ef372fe94f82bull);
    case SQ_VAL_TEXT: return hash_bytes(v->s, v->n, 1);
    default: return hash_bytes(v->s, v->n, 2);
    }
}

/* ------------------------------------------------------------------ */
/* Python's str() of values                                            */
/* ------------------------------------------------------------------ */

/* d.ddd...e<exp> from n digits: does it read back as d? */
static int digits_read_back(const char *dig, int n, int exp, double d) {
    char buf[48];
    snprintf(buf, sizeof buf, "%c.%.*se%d", dig[0], n - 1, dig + 1, exp);
    return strtod(buf, NULL) == d;
}

/* Move n digits (exponent *exp) one unit in the last place up or down;
** returns the new digit count (one less when 1000 becomes 999). */
static int step_digits(char *dig, int n, int *exp, int up) {
    int k = n - 1;
    while (k >= 0 && dig[k] == (up ? '9' : '0')) dig[k--] = up ? '0' : '9';
    if (k >= 0) dig[k] = (char)(dig[k] + (up ? 1 : -1));
    if (up && k < 0) { dig[0] = '1'; (*exp)++; } /* 999 -> 1000 */
    if (!up && dig[0] == '0') { memmove(dig, dig + 1, (size_t)n - 1); (*exp)--; n--; }
    return n;
}

/* The shortest digits that read back as d (finite, >= 0) and, among those,
** the nearest to d, as Python's repr (David Gay's mode 0) chooses them.
** For each length p: the correctly rounded p digits, else the neighbour
** one unit up or down (which can work where the rounding interval of d is
** lopsided, at powers of two).  Returns the digit count without trailing
** zeros and sets *decpt so that d = 0.DIGITS * 10^decpt. */
static int shortest_digits(double d, char dig[24], int *decpt) {
    char buf[48], alt[24];
    int n = 0, exp = 0;
    for (int p = 1; p <= 17; p++) {
        snprintf(buf, sizeof buf, "%.*e", p - 1, d);
        n = 0;
        const char *q = buf;
        for (; *q && *q != 'e'; q++)
            if (*q >= '0' && *q <= '9') dig[n++] = *q;
        exp = atoi(q + 1);
        if (digits_read_back(dig, n, exp, d)) break;
        int found = 0;
        for (int up = 1; up >= 0 && !found; up--) {
            int e2 = exp, n2;
            memcpy(alt, dig, (size_t)n);
            n2 = step_digits(alt, n, &e2, up);
            if ((found = digits_read_back(alt, n2, e2, d))) {
                memcpy(dig, alt, (size_t)n2);
                n = n2;
                exp = e2;
            }
        }
        if (found) break;
    }
    while (n > 1 && dig[n - 1] == '0') n--;
    dig[n] = 0;
    *decpt = exp + 1;
    return n;
}

static void put_zeros(SqBuf *out, int n) {
    if (n > 0) sq_buf_repeat(out, '0', (size_t)n);
}

/* Python's repr(float): fixed notation when -4 < decpt <= 16, else
** "1e+16" style with a two-digit minimum exponent. */
static void py_float_repr(double d, SqBuf *out) {
    if (isnan(d)) { sq_buf_puts(out, "nan"); return; }
    if (signbit(d)) sq_buf_putc(out, '-');
    if (isinf(d)) { sq_buf_puts(out, "inf"); return; }
    char dig[24];
    int decpt, n = shortest_digits(fabs(d), dig, &decpt);
    if (decpt <= -4 || decpt > 16) {
        sq_buf_putc(out, dig[0]);
        if (n > 1) { sq_buf_putc(out, '.'); sq_buf_put(out, dig + 1, (size_t)n - 1); }
        int e = decpt - 1;
        sq_buf_printf(out, "e%c%02d", e < 0 ? '-' : '+', e < 0 ? -e : e);
    } else if (decpt <= 0) {
        sq_buf_puts(out, "0.");
        put_zeros(out, -decpt);
        sq_buf_put(out, dig, (size_t)n);
    } else if (decpt >= n) {
        sq_buf_put(out, dig, (size_t)n);
        put_zeros(out, decpt - n);
        sq_buf_puts(out, ".0");
    } else {
        sq_buf_put(out, dig, (size_t)decpt);
        sq_buf_putc(out, '.');
        sq_buf_put(out, dig + decpt, (size_t)(n - decpt));
    }
}

/* Python's repr(bytes): b'...' (b"..." when only ' occurs), \t \n \r,
** \\, the quote escaped, \xhh for other bytes outside 0x20..0x7e. */
static void py_bytes_repr(const char *s, uint32_t n, SqBuf *out) {
    char q = (memchr(s, '\'', n) && !memchr(s, '"', n)) ? '"' : '\'';
    sq_buf_putc(out, 'b');
    sq_buf_putc(out, q);
    for (uint32_t k = 0; k < n; k++) {
        unsigned char c = (unsigned char)s[k];
        if (c == (unsigned char)q || c == '\\') { sq_buf_putc(out, '\\'); sq_buf_putc(out, (char)c); }
        else if (c == '\t') sq_buf_puts(out, "\\t");
        else if (c == '\n') sq_buf_puts(out, "\\n");
        else if (c == '\r') sq_buf_puts(out, "\\r");
        else if (c < 0x20 || c >= 0x7f) sq_buf_printf(out, "\\x%02x", c);
        else sq_buf_putc(out, (char)c);
    }
    sq_buf_putc(out, q);
}

/* Decimal digits of i (printf is the bottleneck of quick_rej otherwise). */
static void put_int(int64_t i, SqBuf *out) {
    char buf[24], *p = buf + sizeof buf;
    uint64_t u = i < 0 ? 0 - (uint64_t)i : (uint64_t)i;
    do *--p = (char)('0' + u % 10); while (u /= 10);
    if (i < 0) *--p = '-';
    sq_buf_put(out, p, (size_t)(buf + sizeof buf - p));
}

/* str(x) + str(type(x)) for what Python's sqlite3 module returns: the sort
** key of the Spider script's unorder_row(). */
static void py_sort_key(const SqValue *v, SqBuf *out) {
    switch (v->type) {
    case SQ_VAL_NULL: sq_buf_puts(out, "None<class 'NoneType'>"); break;
    case SQ_VAL_INTEGER:
        put_int(v->i, out);
        sq_buf_puts(out, "<class 'int'>");
        break;
    case SQ_VAL_REAL:
        py_float_repr(v->r, out);
        sq_buf_puts(out, "<class 'float'>");
        break;
    case SQ_VAL_TEXT:
        sq_buf_put(out, v->s, v->n);
        sq_buf_puts(out, "<class 'str'>");
        break;
    default:
        py_bytes_repr(v->s, v->n, out);
        sq_buf_puts(out, "<class 'bytes'>");
        break;
    }
}

/* ------------------------------------------------------------------ */
/* Printing                                                            */
/* ------------------------------------------------------------------ */

/* Plain text: valid UTF-8 without control bytes, safe to show quoted. */
static size_t utf8_seq_len(const unsigned char *s, size_t n);

static int is_printable_text(const char *s, uint32_t n) {
    const unsigned char *u = (const unsigned char *)s;
    for (size_t k = 0; k < n;) {
        size_t len = utf8_seq_len(u + k, n - k);
        if (!len || u[k] < 0x20 || u[k] == 0x7f) return 0;
        k += len;
    }
    return 1;
}

static void print_hex(const char *s, uint32_t n, SqBuf *out) {
    sq_buf_puts(out, "X'");
    for (uint32_t k = 0; k < n; k++) sq_buf_printf(out, "%02X", (unsigned char)s[k]);
    sq_buf_putc(out, '\'');
}

static void print_text(const char *s, uint32_t n, SqBuf *out) {
    if (!is_printable_text(s, n)) {
        sq_buf_puts(out, "CAST(");
        print_hex(s, n, out);
        sq_buf_puts(out, " AS TEXT)");
        return;
    }
    sq_buf_putc(out, '\'');
    for (uint32_t k = 0; k < n; k++) {
        if (s[k] == '\'') sq_buf_putc(out, '\'');
        sq_buf_putc(out, s[k]);
    }
    sq_buf_putc(out, '\'');
}

static void print_real(double r, SqBuf *out) {
    if (isnan(r)) sq_buf_puts(out, "NaN");
    else if (isinf(r)) sq_buf_puts(out, r < 0 ? "-9e999" : "9e999");
    else py_float_repr(r, out);
}

void sq_value_print(const SqValue *v, SqBuf *out) {
    switch (v->type) {
    case SQ_VAL_NULL: sq_buf_puts(out, "NULL"); break;
    case SQ_VAL_INTEGER: sq_buf_printf(out, "%" PRId64, v->i); break;
    case SQ_VAL_REAL: print_real(v->r, out); break;
    case SQ_VAL_TEXT: print_text(v->s, v->n, out); break;
    default: print_hex(v->s, v->n, out); break;
    }
}

/* ------------------------------------------------------------------ */
/* Building                                                            */
/* ------------------------------------------------------------------ */

void sq_result_init(SqResult *r) { memset(r, 0, sizeof *r); }

void sq_result_free(SqResult *r) {
    sq_arena_free(r->arena);
    free(r->cells);
    sq_result_init(r);
}

void sq_result_start(SqResult *r, uint32_t n_cols) {
    sq_result_free(r);
    r->arena = sq_arena_new();
    r->n_cols = n_cols;
    r->col_names = sq_arena_alloc(r->arena, ((size_t)n_cols + 1) * sizeof *r->col_names);
    for (uint32_t k = 0; k < n_cols; k++) r->col_names[k] = "";
}

void sq_result_set_name(SqResult *r, uint32_t col, const char *name) {
    r->col_names[col] = sq_arena_strdup(r->arena, name);
}

SqValue *sq_result_add_row(SqResult *r) {
    if (r->n_rows == r->cap_rows) {
        uint64_t cap = r->cap_rows ? r->cap_rows * 2 : 16;
        size_t row_size = (size_t)r->n_cols * sizeof(SqValue);
        if (row_size && cap > SIZE_MAX / row_size) sq_oom();
        r->cells = sq_realloc(r->cells, (size_t)cap * row_size);
        r->cap_rows = cap;
    }
    SqValue *row = r->cells + r->n_rows * r->n_cols;
    for (uint32_t k = 0; k < r->n_cols; k++) row[k] = sq_value_null();
    r->n_rows++;
    return row;
}

static SqValue bytes_value(SqResult *r, uint8_t type, const void *p, uint32_t n) {
    char *d = sq_arena_alloc(r->arena, (size_t)n + 1);
    if (n) memcpy(d, p, n);
    r->n_bytes += n;
    SqValue v = {type, 0, 0.0, d, n};
    return v;
}

SqValue sq_result_text(SqResult *r, const char *s, uint32_t n) {
    return bytes_value(r, SQ_VAL_TEXT, s, n);
}

SqValue sq_result_blob(SqResult *r, const void *p, uint32_t n) {
    return bytes_value(r, SQ_VAL_BLOB, p, n);
}

/* ------------------------------------------------------------------ */
/* Rows                                                                */
/* ------------------------------------------------------------------ */

/* A row seen through an optional column order. */
typedef struct RowRef {
    const SqValue *v;     /* the row's first cell */
    const uint32_t *perm; /* perm[k]: cell shown as column k; NULL = identity */
    uint64_t h;           /* row_hash(), once grouped_rows() computed it */
    uint32_t n;           /* columns */
} RowRef;

static const SqValue *row_at(const RowRef *r, uint32_t k) {
    return &r->v[r->perm ? r->perm[k] : k];
}

static int row_cmp(const RowRef *a, const RowRef *b) {
    if (a->n != b->n) return a->n < b->n ? -1 : 1;
    for (uint32_t k = 0; k < a->n; k++) {
        int c = value_cmp(row_at(a, k), row_at(b, k));
        if (c) return c;
    }
    return 0;
}

static int row_equal(const RowRef *a, const RowRef *b) {
    if (a->n != b->n) return 0;
    for (uint32_t k = 0; k < a->n; k++)
        if (!value_equal(row_at(a, k), row_at(b, k))) return 0;
    return 1;
}

static uint64_t prefix_step(uint64_t h, uint64_t v) {
    return mix64(((h << 7) | (h >> 57)) ^ v);
}

/* Equal rows hash equal (the hash of columns 0..k is the SPIDER search's
** prefix hash at depth k). */
static uint64_t row_hash(const RowRef *r) {
    uint64_t h = 0;
    for (uint32_t k = 0; k < r->n; k++) h = prefix_step(h, value_hash(row_at(r, k)));
    return h;
}

static int row_cmp_q(const void *x, const void *y) { return row_cmp(x, y); }

static int row_hash_cmp_q(const void *x, const void *y) {
    const RowRef *a = x, *b = y;
    return (a->h > b->h) - (a->h < b->h);
}

static RowRef row_ref(const SqResult *r, uint64_t row, const uint32_t *perm) {
    RowRef ref = {r->cells + row * r->n_cols, perm, 0, r->n_cols};
    return ref;
}

/* The rows of r; perms, when given, holds one column order of n_cols
** entries per row, or one for all rows when one_perm.  Caller frees. */
static RowRef *row_refs(const SqResult *r, const uint32_t *perms, int one_perm) {
    RowRef *rows = sq_malloc((size_t)r->n_rows * sizeof *rows + 1);
    for (uint64_t k = 0; k < r->n_rows; k++) {
        const uint32_t *p = !perms ? NULL : one_perm ? perms : perms + k * r->n_cols;
        rows[k] = row_ref(r, k, p);
    }
    return rows;
}

/* The rows in value order (for reports). */
static RowRef *sorted_rows(const SqResult *r) {
    RowRef *rows = row_refs(r, NULL, 0);
    qsort(rows, (size_t)r->n_rows, sizeof *rows, row_cmp_q);
    return rows;
}

static int run_is_uniform(const RowRef *rows, uint64_t n) {
    for (uint64_t k = 1; k < n; k++)
        if (!row_equal(&rows[0], &rows[k])) return 0;
    return 1;
}

/* The rows in a canonical order for equality tests that is cheaper than
** value order: by hash, and a run of equal hashes whose rows are not all
** equal (a collision, or a NaN) sorted by value.  Two bags of rows are
** equal iff their grouped rows are equal position by position. */
static RowRef *grouped_rows(const SqResult *r, const uint32_t *perms, int one_perm) {
    RowRef *rows = row_refs(r, perms, one_perm);
    for (uint64_t k = 0; k < r->n_rows; k++) rows[k].h = row_hash(&rows[k]);
    qsort(rows, (size_t)r->n_rows, sizeof *rows, row_hash_cmp_q);
    for (uint64_t s = 0, e; s < r->n_rows; s = e) {
        for (e = s + 1; e < r->n_rows && rows[e].h == rows[s].h;) e++;
        if (!run_is_uniform(rows + s, e - s)) qsort(rows + s, e - s, sizeof *rows, row_cmp_q);
    }
    return rows;
}

/* Keep one row of each run of equal rows; returns the new count. */
static uint64_t dedupe_rows(RowRef *rows, uint64_t n) {
    uint64_t m = 0;
    for (uint64_t k = 0; k < n; k++)
        if (m == 0 || rows[m - 1].h != rows[k].h || row_cmp(&rows[m - 1], &rows[k]) != 0)
            rows[m++] = rows[k];
    return m;
}

static int rows_all_equal(const RowRef *a, const RowRef *b, uint64_t n) {
    for (uint64_t k = 0; k < n; k++)
        if (a[k].h != b[k].h) return 0;
    for (uint64_t k = 0; k < n; k++)
        if (!row_equal(&a[k], &b[k])) return 0;
    return 1;
}

static uint64_t row_index(const SqResult *r, const RowRef *ref) {
    return r->n_cols ? (uint64_t)(ref->v - r->cells) / r->n_cols : 0;
}

/* ------------------------------------------------------------------ */
/* LIST, BAG, SET                                                      */
/* ------------------------------------------------------------------ */

/* Rows of different lengths differ, but no rows equal no rows. */
static int same_shape(const SqResult *a, const SqResult *b) {
    if (a->n_rows != b->n_rows) return 0;
    return a->n_rows == 0 || a->n_cols == b->n_cols;
}

static int list_equal(const SqResult *a, const SqResult *b) {
    if (!same_shape(a, b)) return 0;
    for (uint64_t k = 0; k < a->n_rows; k++) {
        RowRef ra = row_ref(a, k, NULL), rb = row_ref(b, k, NULL);
        if (!row_equal(&ra, &rb)) return 0;
    }
    return 1;
}

static int bag_equal(const SqResult *a, const SqResult *b) {
    if (!same_shape(a, b)) return 0;
    RowRef *sa = grouped_rows(a, NULL, 0), *sb = grouped_rows(b, NULL, 0);
    int eq = rows_all_equal(sa, sb, a->n_rows);
    free(sa);
    free(sb);
    return eq;
}

/* Set equality of a's rows and b's rows under per-row column orders. */
static int set_equal_perms(const SqResult *a, const uint32_t *pa,
                           const SqResult *b, const uint32_t *pb) {
    if (a->n_rows == 0 || b->n_rows == 0) return a->n_rows == b->n_rows;
    if (a->n_cols != b->n_cols) return 0;
    RowRef *sa = grouped_rows(a, pa, 0), *sb = grouped_rows(b, pb, 0);
    uint64_t na = dedupe_rows(sa, a->n_rows), nb = dedupe_rows(sb, b->n_rows);
    int eq = na == nb && rows_all_equal(sa, sb, na);
    free(sa);
    free(sb);
    return eq;
}

/* ------------------------------------------------------------------ */
/* SPIDER: text as the script decodes it                               */
/* ------------------------------------------------------------------ */

/* Length of the well-formed UTF-8 sequence at s (Unicode table 3-7: no
** overlong forms, no surrogates, nothing above U+10FFFF), or 0. */
static size_t utf8_seq_len(const unsigned char *s, size_t n) {
    unsigned c = s[0], lo = 0x80, hi = 0xBF;
    size_t len;
    if (c < 0x80) return 1;
    if (c < 0xC2 || c > 0xF4) return 0;
    if (c < 0xE0) len = 2;
    else if (c < 0xF0) {
        len = 3;
        if (c == 0xE0) lo = 0xA0;
        if (c == 0xED) hi = 0x9F;
    } else {
        len = 4;
        if (c == 0xF0) lo = 0x90;
        if (c == 0xF4) hi = 0x8F;
    }
    if (n < len || s[1] < lo || s[1] > hi) return 0;
    for (size_t k = 2; k < len; k++)
        if ((s[k] & 0xC0) != 0x80) return 0;
    return len;
}

static int utf8_valid(const char *s, uint32_t n) {
    const unsigned char *u = (const unsigned char *)s;
    for (size_t k = 0, len; k < n; k += len)
        if (!(len = utf8_seq_len(u + k, n - k))) return 0;
    return 1;
}

/* bytes.decode(errors="ignore"): drop every byte that is not part of a
** well-formed sequence.  (Python drops each maximal ill-formed subpart;
** its bytes after the first are continuation bytes, which cannot start a
** sequence, so dropping one byte at a time gives the same text.) */
static uint32_t utf8_drop_invalid(const char *s, uint32_t n, char *out) {
    const unsigned char *u = (const unsigned char *)s;
    uint32_t m = 0;
    for (size_t k = 0; k < n;) {
        size_t len = utf8_seq_len(u + k, n - k);
        if (!len) { k++; continue; }
        memcpy(out + m, s + k, len);
        m += (uint32_t)len;
        k += len;
    }
    return m;
}

static int has_invalid_text(const SqResult *r) {
    uint64_t n = r->n_rows * r->n_cols;
    for (uint64_t k = 0; k < n; k++)
        if (r->cells[k].type == SQ_VAL_TEXT && !utf8_valid(r->cells[k].s, r->cells[k].n))
            return 1;
    return 0;
}

/* src itself when all its text is valid UTF-8; else a copy in *tmp whose
** TEXT values are decoded as the Spider script does. */
static const SqResult *spider_text(const SqResult *src, SqResult *tmp) {
    if (!has_invalid_text(src)) return src;
    sq_result_start(tmp, src->n_cols);
    for (uint32_t k = 0; k < src->n_cols; k++) tmp->col_names[k] = src->col_names[k];
    for (uint64_t row = 0; row < src->n_rows; row++) {
        SqValue *dst = sq_result_add_row(tmp);
        memcpy(dst, sq_result_cell(src, row, 0), src->n_cols * sizeof *dst);
        for (uint32_t k = 0; k < src->n_cols; k++) {
            if (dst[k].type != SQ_VAL_TEXT || utf8_valid(dst[k].s, dst[k].n)) continue;
            char *buf = sq_arena_alloc(tmp->arena, (size_t)dst[k].n + 1);
            dst[k].n = utf8_drop_invalid(dst[k].s, dst[k].n, buf);
            dst[k].s = buf;
        }
    }
    return tmp;
}

/* ------------------------------------------------------------------ */
/* SPIDER: quick_rej                                                   */
/* ------------------------------------------------------------------ */

/* One value's sort key inside a row. */
typedef struct PyKey {
    const char *text; /* str(x) + str(type(x)), UTF-8 */
    size_t len;
    uint32_t col;     /* ties keep column order, as Python's stable sort */
} PyKey;

/* Python compares str by code point, which is UTF-8 byte order. */
static int pykey_cmp(const void *x, const void *y) {
    const PyKey *a = x, *b = y;
    int c = cmp_bytes(a->text, a->len, b->text, b->len);
    return c ? c : (a->col > b->col) - (a->col < b->col);
}

/* unorder_row() for every row: perms[row * n_cols + k] is the column of
** the k-th value once the row is sorted by str(x) + str(type(x)). */
static uint32_t *unordered_rows(const SqResult *r) {
    uint32_t nc = r->n_cols;
    uint32_t *perms = sq_malloc((size_t)r->n_rows * nc * sizeof *perms + 1);
    PyKey *keys = sq_malloc((size_t)nc * sizeof *keys + 1);
    size_t *ends = sq_malloc((size_t)nc * sizeof *ends + 1);
    SqBuf buf = SQ_BUF_INIT;
    for (uint64_t row = 0; row < r->n_rows; row++) {
        sq_buf_reset(&buf);
        for (uint32_t k = 0; k < nc; k++) {
            py_sort_key(sq_result_cell(r, row, k), &buf);
            ends[k] = buf.len;
        }
        for (uint32_t k = 0; k < nc; k++) {
            size_t start = k ? ends[k - 1] : 0;
            keys[k] = (PyKey){buf.data + start, ends[k] - start, k};
        }
        qsort(keys, nc, sizeof *keys, pykey_cmp);
        for (uint32_t k = 0; k < nc; k++) perms[row * nc + k] = keys[k].col;
    }
    sq_buf_free(&buf);
    free(ends);
    free(keys);
    return perms;
}

/* The script's quick_rej(): true when the results may still be equal. */
static int quick_rej_passes(const SqResult *a, const SqResult *b, int ordered) {
    if (a->n_cols <= 1) return 1; /* unorder_row is the identity */
    uint32_t *pa = unordered_rows(a), *pb = unordered_rows(b);
    int ok = 1;
    if (ordered) {
        for (uint64_t k = 0; ok && k < a->n_rows; k++) {
            RowRef ra = row_ref(a, k, pa + k * a->n_cols);
            RowRef rb = row_ref(b, k, pb + k * b->n_cols);
            ok = row_equal(&ra, &rb);
        }
    } else {
        ok = set_equal_perms(a, pa, b, pb);
    }
    free(pa);
    free(pb);
    return ok;
}

/* ------------------------------------------------------------------ */
/* SPIDER: column permutations                                         */
/* ------------------------------------------------------------------ */

/* Backtracking search for a map of a's columns to b's columns.  Columns
** of a are assigned in order 0, 1, ...; perm[i] is b's column for a's
** column i.  For every depth k the rows of a projected on columns 0..k are
** summarised by one hash per row (ha), sorted unless order matters; b's
** projection under the partial map must give the same hashes. */
typedef struct PermSearch {
    const SqResult *a, *b;
    uint32_t c;        /* columns of both */
    uint64_t n;        /* rows of both (> 0) */
    int ordered;       /* rows must match in order */
    uint8_t *cand;     /* cand[i * c + j]: b's column j has a's column i's multiset */
    uint32_t *twin;    /* twin[j]: previous column of b identical to j, or NO_COL */
    uint32_t *perm;    /* the partial map */
    uint8_t *used;     /* used[j]: b's column j is mapped */
    uint64_t *vb;      /* vb[j * n + r]: hash of b's cell (r, j) */
    uint64_t *ha;      /* ha[k * n + r]: a's prefix hashes at depth k */
    uint64_t *hb;      /* hb[k * n + r]: b's prefix hashes along perm */
    uint64_t *tmp;     /* n scratch hashes */
    RowRef *sa;        /* a's rows in canonical order (bag mode) */
} PermSearch;

static int u64_cmp(const void *x, const void *y) {
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

/* The multiset of a column, as an order-independent hash. */
static uint64_t column_hash(const SqResult *r, uint32_t col) {
    uint64_t h = 0;
    for (uint64_t row = 0; row < r->n_rows; row++)
        h += mix64(value_hash(sq_result_cell(r, row, col)) ^ 0x5851f42d4c957f2dull);
    return h;
}

static int columns_identical(const SqResult *r, uint32_t i, uint32_t j) {
    for (uint64_t row = 0; row < r->n_rows; row++)
        if (!sq_value_equal(sq_result_cell(r, row, i), sq_result_cell(r, row, j))) return 0;
    return 1;
}

static void perm_init_columns(PermSearch *ps) {
    uint32_t c = ps->c;
    uint64_t *hcol_a = sq_malloc(c * sizeof *hcol_a), *hcol_b = sq_malloc(c * sizeof *hcol_b);
    for (uint32_t k = 0; k < c; k++) {
        hcol_a[k] = column_hash(ps->a, k);
        hcol_b[k] = column_hash(ps->b, k);
    }
    for (uint32_t i = 0; i < c; i++)
        for (uint32_t j = 0; j < c; j++) ps->cand[i * c + j] = hcol_a[i] == hcol_b[j];
    for (uint32_t j = 0; j < c; j++) {
        ps->twin[j] = NO_COL;
        for (uint32_t p = j; p-- > 0 && ps->twin[j] == NO_COL;)
            if (hcol_b[p] == hcol_b[j] && columns_identical(ps->b, p, j)) ps->twin[j] = p;
    }
    free(hcol_a);
    free(hcol_b);
}

static void perm_init_hashes(PermSearch *ps) {
    uint64_t n = ps->n;
    for (uint32_t j = 0; j < ps->c; j++)
        for (uint64_t r = 0; r < n; r++)
            ps->vb[j * n + r] = value_hash(sq_result_cell(ps->b, r, j));
    for (uint32_t k = 0; k < ps->c; k++) {
        uint64_t *cur = ps->ha + k * n;
        for (uint64_t r = 0; r < n; r++) {
            uint64_t prev = k ? ps->tmp[r] : 0;
            ps->tmp[r] = prefix_step(prev, value_hash(sq_result_cell(ps->a, r, k)));
        }
        memcpy(cur, ps->tmp, n * sizeof *cur);
        if (!ps->ordered) qsort(cur, n, sizeof *cur, u64_cmp);
    }
}

static void perm_init(PermSearch *ps, const SqResult *a, const SqResult *b, int ordered) {
    uint32_t c = a->n_cols;
    uint64_t n = a->n_rows;
    *ps = (PermSearch){a, b, c, n, ordered, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    ps->cand = sq_malloc((size_t)c * c);
    ps->twin = sq_malloc(c * sizeof *ps->twin);
    ps->perm = sq_malloc(c * sizeof *ps->perm);
    ps->used = sq_calloc(c, 1);
    ps->vb = sq_malloc((size_t)c * n * sizeof *ps->vb);
    ps->ha = sq_malloc((size_t)c * n * sizeof *ps->ha);
    ps->hb = sq_malloc((size_t)c * n * sizeof *ps->hb);
    ps->tmp = sq_malloc(n * sizeof *ps->tmp);
    ps->sa = ordered ? NULL : grouped_rows(a, NULL, 0);
    perm_init_columns(ps);
    perm_init_hashes(ps);
}

static void perm_free(PermSearch *ps) {
    free(ps->cand);
    free(ps->twin);
    free(ps->perm);
    free(ps->used);
    free(ps->vb);
    free(ps->ha);
    free(ps->hb);
    free(ps->tmp);
    free(ps->sa);
}

/* Map a's column k to b's column j: do the projections still agree? */
static int prefix_matches(PermSearch *ps, uint32_t k, uint32_t j) {
    uint64_t n = ps->n, *cur = ps->hb + k * n;
    const uint64_t *prev = k ? ps->hb + (k - 1) * n : NULL, *col = ps->vb + j * n;
    for (uint64_t r = 0; r < n; r++) cur[r] = prefix_step(prev ? prev[r] : 0, col[r]);
    const uint64_t *want = ps->ha + k * n;
    if (ps->ordered) return memcmp(cur, want, n * sizeof *cur) == 0;
    memcpy(ps->tmp, cur, n * sizeof *cur);
    qsort(ps->tmp, n, sizeof *ps->tmp, u64_cmp);
    return memcmp(ps->tmp, want, n * sizeof *cur) == 0;
}

/* The exact check of a complete map. */
static int perm_final_check(PermSearch *ps) {
    if (ps->ordered) {
        for (uint64_t r = 0; r < ps->n; r++) {
            RowRef ra = row_ref(ps->a, r, NULL), rb = row_ref(ps->b, r, ps->perm);
            if (!row_equal(&ra, &rb)) return 0;
        }
        return 1;
    }
    RowRef *sb = grouped_rows(ps->b, ps->perm, 1);
    int eq = rows_all_equal(ps->sa, sb, ps->n);
    free(sb);
    return eq;
}

/* b's column j may take a's column k: a candidate, unused, and not ahead
** of an identical column with a lower index (those give the same rows). */
static int may_assign(const PermSearch *ps, uint32_t k, uint32_t j) {
    if (ps->used[j] || !ps->cand[k * ps->c + j]) return 0;
    return ps->twin[j] == NO_COL || ps->used[ps->twin[j]];
}

static int perm_search(PermSearch *ps, uint32_t k) {
    if (k == ps->c) return perm_final_check(ps);
    for (uint32_t j = 0; j < ps->c; j++) {
        if (!may_assign(ps, k, j)) continue;
        ps->perm[k] = j;
        ps->used[j] = 1;
        if (prefix_matches(ps, k, j) && perm_search(ps, k + 1)) return 1;
        ps->used[j] = 0;
    }
    return 0;
}

/* Some column of a whose multiset no column of b has, or NO_COL. */
static uint32_t unmatched_column(const PermSearch *ps) {
    for (uint32_t i = 0; i < ps->c; i++) {
        uint32_t j = 0;
        while (j < ps->c && !ps->cand[i * ps->c + j]) j++;
        if (j == ps->c) return i;
    }
    return NO_COL;
}

/* Same shape (rows > 0): does a permutation of b's columns match a? */
static int permutation_exists(const SqResult *a, const SqResult *b, int ordered,
                              uint32_t *unmatched) {
    if (a->n_cols == 0) return 1; /* rows of nothing: all equal */
    PermSearch ps;
    perm_init(&ps, a, b, ordered);
    int found = perm_search(&ps, 0);
    if (unmatched) *unmatched = unmatched_column(&ps);
    perm_free(&ps);
    return found;
}

/* How the Spider comparison ended. */
typedef enum SpiderVerdict {
    SPIDER_EQUAL,
    SPIDER_ROWS,      /* different row counts */
    SPIDER_COLS,      /* different column counts */
    SPIDER_QUICK_REJ, /* quick_rej failed although a permutation works */
    SPIDER_NO_PERM,   /* no permutation works */
} SpiderVerdict;

static SpiderVerdict spider_compare(const SqResult *a0, const SqResult *b0,
                                    int ordered, uint32_t *unmatched) {
    *unmatched = NO_COL;
    if (a0->n_rows == 0 && b0->n_rows == 0) return SPIDER_EQUAL;
    if (a0->n_rows != b0->n_rows) return SPIDER_ROWS;
    if (a0->n_cols != b0->n_cols) return SPIDER_COLS;
    SqResult ta, tb;
    sq_result_init(&ta);
    sq_result_init(&tb);
    const SqResult *a = spider_text(a0, &ta), *b = spider_text(b0, &tb);
    SpiderVerdict v = SPIDER_EQUAL;
    if (!quick_rej_passes(a, b, ordered))
        v = permutation_exists(a, b, ordered, unmatched) ? SPIDER_QUICK_REJ : SPIDER_NO_PERM;
    else if (!permutation_exists(a, b, ordered, unmatched))
        v = SPIDER_NO_PERM;
    sq_result_free(&ta);
    sq_result_free(&tb);
    return v;
}

/* ------------------------------------------------------------------ */
/* Entry points                                                        */
/* ------------------------------------------------------------------ */

int sq_result_equal(const SqResult *a, const SqResult *b, SqCompareMode mode,
                    int order_matters) {
    uint32_t unmatched;
    switch (mode) {
    case SQ_CMP_LIST: return list_equal(a, b);
    case SQ_CMP_BAG: return bag_equal(a, b);
    case SQ_CMP_SET: return set_equal_perms(a, NULL, b, NULL);
    case SQ_CMP_SPIDER: return spider_compare(a, b, order_matters, &unmatched) == SPIDER_EQUAL;
    }
    return 0;
}

const char *sq_compare_mode_name(SqCompareMode mode) {
    switch (mode) {
    case SQ_CMP_LIST: return "list";
    case SQ_CMP_BAG: return "bag";
    case SQ_CMP_SET: return "set";
    case SQ_CMP_SPIDER: return "spider";
    }
    return "?";
}

/* ------------------------------------------------------------------ */
/* Diff                                                                */
/* ------------------------------------------------------------------ */

#define DIFF_VALUE_MAX 40 /* bytes of a TEXT or BLOB shown in a report */

/* sq_value_print, with long TEXT and BLOB cut at a character boundary. */
static void print_short(const SqValue *v, SqBuf *out) {
    if ((v->type != SQ_VAL_TEXT && v->type != SQ_VAL_BLOB) || v->n <= DIFF_VALUE_MAX) {
        sq_value_print(v, out);
        return;
    }
    SqValue cut = *v;
    cut.n = DIFF_VALUE_MAX;
    while (v->type == SQ_VAL_TEXT && cut.n > 0 && ((unsigned char)v->s[cut.n] & 0xC0) == 0x80)
        cut.n--;
    sq_value_print(&cut, out);
    sq_buf_printf(out, "... (%" PRIu32 " bytes)", v->n);
}

static void print_row(const RowRef *r, SqBuf *out) {
    sq_buf_putc(out, '(');
    for (uint32_t k = 0; k < r->n; k++) {
        if (k) sq_buf_puts(out, ", ");
        print_short(row_at(r, k), out);
    }
    sq_buf_putc(out, ')');
}

static int diff_counts(const SqResult *a, const SqResult *b, SqBuf *out) {
    if (a->n_cols != b->n_cols) {
        sq_buf_printf(out, "column counts differ: %" PRIu32 " vs %" PRIu32, a->n_cols, b->n_cols);
        return 1;
    }
    if (a->n_rows != b->n_rows) {
        sq_buf_printf(out, "row counts differ: %" PRIu64 " vs %" PRIu64, a->n_rows, b->n_rows);
        return 1;
    }
    return 0;
}

static int diff_list(const SqResult *a, const SqResult *b, SqBuf *out) {
    if (a->n_cols != b->n_cols) return diff_counts(a, b, out);
    uint64_t n = a->n_rows < b->n_rows ? a->n_rows : b->n_rows;
    for (uint64_t r = 0; r < n; r++) {
        for (uint32_t k = 0; k < a->n_cols; k++) {
            const SqValue *va = sq_result_cell(a, r, k), *vb = sq_result_cell(b, r, k);
            if (sq_value_equal(va, vb)) continue;
            sq_buf_printf(out, "row %" PRIu64 ", column %" PRIu32 " (\"%s\"): ", r + 1, k + 1,
                          a->col_names[k]);
            print_short(va, out);
            sq_buf_puts(out, " vs ");
            print_short(vb, out);
            return 1;
        }
    }
    return diff_counts(a, b, out);
}

/* Length of the run of rows equal to rows[k]. */
static uint64_t run_length(const RowRef *rows, uint64_t n, uint64_t k) {
    uint64_t e = k + 1;
    while (e < n && row_cmp(&rows[k], &rows[e]) == 0) e++;
    return e - k;
}

/* Walk two sorted row lists; report the first row whose multiplicity
** differs (as_set: whose presence differs). */
static int diff_sorted(const SqResult *a, const RowRef *sa, const SqResult *b,
                       const RowRef *sb, int as_set, SqBuf *out) {
    uint64_t i = 0, j = 0;
    while (i < a->n_rows || j < b->n_rows) {
        int c = i == a->n_rows ? 1 : j == b->n_rows ? -1 : row_cmp(&sa[i], &sb[j]);
        uint64_t na = c <= 0 ? run_length(sa, a->n_rows, i) : 0;
        uint64_t nb = c >= 0 ? run_length(sb, b->n_rows, j) : 0;
        if (as_set ? (!na || !nb) : na != nb) {
            const RowRef *r = na ? &sa[i] : &sb[j];
            print_row(r, out);
            if (as_set)
                sq_buf_printf(out, " (row %" PRIu64 " of the %s result) is not in the %s",
                              row_index(na ? a : b, r) + 1, na ? "first" : "second",
                              na ? "second" : "first");
            else
                sq_buf_printf(out, " occurs %" PRIu64 " time%s in the first result and %" PRIu64
                              " in the second", na, na == 1 ? "" : "s", nb);
            return 1;
        }
        i += na;
        j += nb;
    }
    return 0;
}

static int diff_rows(const SqResult *a, const SqResult *b, int as_set, SqBuf *out) {
    RowRef *sa = sorted_rows(a), *sb = sorted_rows(b);
    int found = diff_sorted(a, sa, b, sb, as_set, out);
    free(sa);
    free(sb);
    return found;
}

static int diff_set(const SqResult *a, const SqResult *b, SqBuf *out) {
    if ((a->n_rows == 0) != (b->n_rows == 0)) {
        uint64_t n = a->n_rows ? a->n_rows : b->n_rows;
        sq_buf_printf(out, "the %s result is empty, the %s has %" PRIu64 " row%s",
                      a->n_rows ? "second" : "first", a->n_rows ? "first" : "second", n,
                      n == 1 ? "" : "s");
        return 1;
    }
    if (a->n_cols != b->n_cols) return diff_counts(a, b, out);
    return diff_rows(a, b, 1, out);
}

static int diff_spider(const SqResult *a, const SqResult *b, int ordered, SqBuf *out) {
    uint32_t col;
    switch (spider_compare(a, b, ordered, &col)) {
    case SPIDER_EQUAL: return 1; /* nothing to say */
    case SPIDER_ROWS:
    case SPIDER_COLS: return diff_counts(a, b, out);
    case SPIDER_QUICK_REJ:
        sq_buf_puts(out, "quick_rej rejects: values sorted by Python's str() differ "
                         "(an INTEGER and an equal REAL sort apart)");
        return 1;
    case SPIDER_NO_PERM: break;
    }
    if (col != NO_COL)
        sq_buf_printf(out, "column %" PRIu32 " (\"%s\") of the first result has the values "
                      "of no column of the second", col + 1, a->col_names[col]);
    else
        sq_buf_printf(out, "no permutation of the second result's columns makes the rows "
                      "equal%s", ordered ? " in order" : "");
    return 1;
}

void sq_result_diff(const SqResult *a, const SqResult *b, SqCompareMode mode,
                    int order_matters, SqBuf *out) {
    if (sq_result_equal(a, b, mode, order_matters)) return;
    int found = 0;
    switch (mode) {
    case SQ_CMP_LIST: found = diff_list(a, b, out); break;
    case SQ_CMP_BAG:
        found = a->n_cols != b->n_cols || a->n_rows != b->n_rows ? diff_counts(a, b, out)
                                                                 : diff_rows(a, b, 0, out);
        break;
    case SQ_CMP_SET: found = diff_set(a, b, out); break;
    case SQ_CMP_SPIDER: found = diff_spider(a, b, order_matters, out); break;
    }
    if (!found) sq_buf_puts(out, "results differ (a value that equals nothing, such as NaN)");
}
