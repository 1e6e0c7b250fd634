/*
** types.c -- affinity rules and type combination.
**
** Layer: frontend.
*/
#include "frontend/types.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/util.h"

/* Case-insensitive substring test, as SQLite's sqlite3AffinityType scans
** the declared type. */
static int has_word(const char *s, const char *w) {
    size_t n = strlen(w);
    for (; *s; s++)
        if (sq_strnicmp(s, w, n) == 0) return 1;
    return 0;
}

static int is_quote(char c) { return c == '"' || c == '\'' || c == '`' || c == '['; }

void sq_decl_type_stored(const char *raw, char *out) {
    size_t n = strlen(raw), i;
    if (n >= 2 && is_quote(raw[0])) { /* the whole token quoted, nothing quoted inside */
        for (i = 1; i + 1 < n && !is_quote(raw[i]); i++) {}
        if (i + 1 >= n) raw++, n -= 2;
    }
    if (n == 0 || !is_quote(raw[0])) {
        memcpy(out, raw, n);
        out[n] = 0;
        return;
    }
    char q = raw[0] == '[' ? ']' : raw[0];
    size_t j = 0;
    for (i = 1; i < n; i++) {
        if (raw[i] == q) {
            if (i + 1 < n && raw[i + 1] == q) i++; /* a doubled quote is one */
            else break;
        }
        out[j++] = raw[i];
    }
    out[j] = 0;
}

SqAffinity sq_affinity_of_decl(const char *decl) {
    if (!decl || !*decl) return SQ_AFF_BLOB;
    if (has_word(decl, "INT")) return SQ_AFF_INTEGER;
    if (has_word(decl, "CHAR") || has_word(decl, "CLOB") || has_word(decl, "TEXT"))
        return SQ_AFF_TEXT;
    if (has_word(decl, "BLOB")) return SQ_AFF_BLOB;
    if (has_word(decl, "REAL") || has_word(decl, "FLOA") || has_word(decl, "DOUB"))
        return SQ_AFF_REAL;
    return SQ_AFF_NUMERIC;
}

SqTypeClass sq_class_of_affinity(SqAffinity aff) {
    switch (aff) {
    case SQ_AFF_INTEGER: return SQ_TY_INTEGER;
    case SQ_AFF_REAL: return SQ_TY_REAL;
    case SQ_AFF_TEXT: return SQ_TY_TEXT;
    case SQ_AFF_NUMERIC: return SQ_TY_ANY; /* DATE, DECIMAL, BOOLEAN...: text that
                                             does not look numeric stays text */
    default: return SQ_TY_ANY;
    }
}

SqTypeClass sq_class_of_numeric_decl(const char *decl) {
    if (sq_affinity_of_decl(decl) != SQ_AFF_NUMERIC) return SQ_TY_ANY;
    if (has_word(decl, "DATE") || has_word(decl, "TIME")) return SQ_TY_TEXT;
    if (has_word(decl, "BOOL")) return SQ_TY_INTEGER;
    if (has_word(decl, "DEC") || has_word(decl, "NUMERIC") || has_word(decl, "NUMBER") || has_word(decl, "MONEY"))
        return SQ_TY_REAL;
    return SQ_TY_ANY;
}

const char *sq_type_class_name(SqTypeClass c) {
    static const char *const names[] = {"ANY", "NULL", "INTEGER", "REAL",
                                        "TEXT", "BLOB", "NUMERIC"};
    return (unsigned)c < SQ_ARRAY_LEN(names) ? names[c] : "?";
}

const char *sq_affinity_name(SqAffinity a) {
    static const char *const names[] = {"BLOB", "TEXT", "NUMERIC", "INTEGER", "REAL"};
    return (unsigned)a < SQ_ARRAY_LEN(names) ? names[a] : "?";
}

static int is_number(SqTypeClass c) {
    return c == SQ_TY_INTEGER || c == SQ_TY_REAL || c == SQ_TY_NUMERIC;
}

SqTypeClass sq_class_union(SqTypeClass a, SqTypeClass b) {
    if (a == SQ_TY_NULL) return b;
    if (b == SQ_TY_NULL) return a;
    if (a == b) return a;
    if (is_number(a) && is_number(b)) return SQ_TY_NUMERIC;
    return SQ_TY_ANY;
}

/* SQLite converts TEXT and BLOB operands to numbers; INTEGER op INTEGER
** stays INTEGER (overflow aside), anything with a REAL is REAL, and that
** holds for % too (5.5 % 2 is 1.5). */
SqTypeClass sq_class_arith(SqTypeClass a, SqTypeClass b) {
    if (a == SQ_TY_NULL || b == SQ_TY_NULL) return SQ_TY_NULL;
    if (a == SQ_TY_INTEGER && b == SQ_TY_INTEGER) return SQ_TY_INTEGER;
    if (a == SQ_TY_REAL || b == SQ_TY_REAL) return SQ_TY_REAL;
    return SQ_TY_NUMERIC;
}

/* ---- numbers written as text ------------------------------------------ */

size_t sq_text_numeric_prefix(const char *s, size_t n, size_t *skip) {
    size_t i = 0, digits = 0;
    while (i < n && isspace((unsigned char)s[i])) i++;
    *skip = i;
    if (i < n && (s[i] == '+' || s[i] == '-')) i++;
    while (i < n && isdigit((unsigned char)s[i])) i++, digits++;
    if (i < n && s[i] == '.') {
        i++;
        while (i < n && isdigit((unsigned char)s[i])) i++, digits++;
    }
    if (!digits) return 0;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        size_t j = i + 1;
        if (j < n && (s[j] == '+' || s[j] == '-')) j++;
        if (j < n && isdigit((unsigned char)s[j])) {
            while (j < n && isdigit((unsigned char)s[j])) j++;
            i = j;
        }
    }
    return i;
}

double sq_text_number(const char *s, size_t n) {
    size_t skip, len = sq_text_numeric_prefix(s, n, &skip);
    if (!len) return 0.0;
    char buf[64];
    if (len - skip >= sizeof buf) return 1.0; /* a huge numeral: nonzero */
    memcpy(buf, s + skip, len - skip);
    buf[len - skip] = 0;
    return strtod(buf, NULL);
}

int sq_text_is_number(const char *s, size_t n) {
    size_t skip, len = sq_text_numeric_prefix(s, n, &skip);
    if (!len) return 0;
    while (len < n && isspace((unsigned char)s[len])) len++;
    return len == n;
}

int sq_text_integer_digits(const char *s, size_t n) {
    size_t i = 0;
    while (i < n && isspace((unsigned char)s[i])) i++;
    if (i < n && s[i] == '-') return -1;
    if (i < n && s[i] == '+') i++;
    int d = 0;
    while (i < n && isdigit((unsigned char)s[i])) i++, d++;
    return d;
}
