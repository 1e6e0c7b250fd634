/*
** value.c -- single SQLite values: their order, equality and hash, Python's
** str() and repr() of them, and their SQL-literal text.
**
** Layer: backend/sqlite.  Takes SqValues, gives verdicts, hashes and text
** appended to an SqBuf.  Owns nothing and allocates nothing itself.
**
** Kept apart from result.c because everything that compares or prints a
** result (rows, the four compare modes, the Spider search, the diff
** reports) rests on these definitions, and they must match Python's to
** the bit: the equality of what the sqlite3 module returns, the hash
** consistent with it, and the text of str(x) that the Spider script
** sorts by.
**
** Sections: values; Python's str() of values; printing.
*/
#include "backend/sqlite/result_int.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TWO63 9223372036854775808.0 /* 2^63, exactly representable */

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

int res_cmp_bytes(const char *a, size_t na, const char *b, size_t nb) {
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
    return res_cmp_bytes(a->s, a->n, b->s, b->n);
}

static inline int value_equal(const SqValue *a, const SqValue *b) {
    if (is_nan(a) || is_nan(b)) return 0;
    return value_cmp(a, b) == 0;
}

int sq_value_cmp(const SqValue *a, const SqValue *b) { return value_cmp(a, b); }
int sq_value_equal(const SqValue *a, const SqValue *b) { return value_equal(a, b); }

static uint64_t hash_bytes(const char *s, uint32_t n, uint64_t seed) {
    uint64_t h = 0xcbf29ce484222325ull ^ seed; /* FNV-1a */
    for (uint32_t k = 0; k < n; k++) h = (h ^ (unsigned char)s[k]) * 0x100000001b3ull;
    return sq_mix64(h);
}

/* Equal values (sq_value_equal) hash equal: an integral REAL hashes as
** the INTEGER it equals. */
uint64_t res_value_hash(const SqValue *v) {
    int64_t i;
    uint64_t bits;
    switch (v->type) {
    case SQ_VAL_NULL: return 0x6a09e667f3bcc908ull;
    case SQ_VAL_INTEGER: return sq_mix64((uint64_t)v->i);
    case SQ_VAL_REAL:
        if (real_as_int(v->r, &i)) return sq_mix64((uint64_t)i);
        memcpy(&bits, &v->r, sizeof bits);
        return sq_mix64(bits ^ 0x3c6ef372fe94f82bull);
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
void res_py_sort_key(const SqValue *v, SqBuf *out) {
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

/* Length of the well-formed UTF-8 sequence at s (Unicode table 3-7: no
** overlong forms, no surrogates, nothing above U+10FFFF), or 0. */
size_t res_utf8_seq_len(const unsigned char *s, size_t n) {
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

/* s[0..n) is well-formed UTF-8 throughout. */
int res_utf8_valid(const char *s, uint32_t n) {
    const unsigned char *u = (const unsigned char *)s;
    for (size_t k = 0, len; k < n; k += len)
        if (!(len = res_utf8_seq_len(u + k, n - k))) return 0;
    return 1;
}

int sq_result_has_invalid_text(const SqResult *r) {
    uint64_t n = r->n_rows * r->n_cols;
    for (uint64_t k = 0; k < n; k++)
        if (r->cells[k].type == SQ_VAL_TEXT && !res_utf8_valid(r->cells[k].s, r->cells[k].n)) return 1;
    return 0;
}

/* Plain text: valid UTF-8 without control bytes, safe to show quoted. */
static int is_printable_text(const char *s, uint32_t n) {
    const unsigned char *u = (const unsigned char *)s;
    for (size_t k = 0; k < n;) {
        size_t len = res_utf8_seq_len(u + k, n - k);
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
