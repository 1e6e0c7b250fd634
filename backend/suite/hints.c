/*
** hints.c -- values a question's text names (see suite_int.h).
**
** Layer: backend/suite.  A question says "schools in 'Fresno'"; BIRD's
** evidence says "east Bohemia refers to A3 = 'east Bohemia'".  Both are
** values a person wrote, with the case they are stored in, so a suite's
** text reads best with them.  Only quoted text counts: 'x' or "x", not an
** apostrophe inside a word (school's) and not a LIKE pattern (it holds %).
** A quote right after a comparison (A3 = 'x', gender IN ('F', 'M'),
** name LIKE 'x') is attached to the column named before the operator;
** any other is the question's, attached to no column.
*/
#include "backend/suite/suite_int.h"

#include <ctype.h>
#include <string.h>

#include "runtime/util.h"

enum { HINT_MAX_LEN = 80, HINT_MAX = 64 };

static int word_char(unsigned char c) { return isalnum(c) || c == '_' || c >= 0x80; }

/* The identifier that ends just before end (spaces skipped), unquoted:
** name, T1.name, `Free Meal Count`, [name], "name".  NULL when none. */
static const char *ident_before(const char *text, const char *end, SqArena *a) {
    const char *p = end;
    while (p > text && isspace((unsigned char)p[-1])) p--;
    if (p == text) return NULL;
    const char *stop = p;
    char close = p[-1];
    if (close == '`' || close == ']' || close == '"') {
        char open = close == ']' ? '[' : close;
        const char *q = p - 1;
        while (q > text && q[-1] != open) q--;
        if (q == text || q == p - 1) return NULL;
        return sq_arena_strndup(a, q, (size_t)(p - 1 - q));
    }
    while (p > text && (word_char((unsigned char)p[-1]) || p[-1] == '.')) p--;
    while (p < stop && *p == '.') p++;
    if (p == stop || isdigit((unsigned char)*p)) return NULL;
    return sq_arena_strndup(a, p, (size_t)(stop - p));
}

/* After a quote ends at p, inside an IN list: the column the list is of,
** when text before it reads "col IN (" with quotes and commas between. */
static const char *list_column(const char *text, const char *open, SqArena *a) {
    const char *p = open;
    for (;;) {
        while (p > text && isspace((unsigned char)p[-1])) p--;
        if (p > text && p[-1] == '(') break;
        if (p == text || p[-1] != ',') return NULL;
        p--;
        while (p > text && isspace((unsigned char)p[-1])) p--;
        if (p == text || (p[-1] != '\'' && p[-1] != '"')) return NULL;
        char q = p[-1];
        p--;
        while (p > text && p[-1] != q) p--;
        if (p == text) return NULL;
        p--;
    }
    p--; /* the ( */
    while (p > text && isspace((unsigned char)p[-1])) p--;
    if (p - text < 2 || sq_strnicmp(p - 2, "in", 2) != 0 || (p - 2 > text && word_char((unsigned char)p[-3])))
        return NULL;
    return ident_before(text, p - 2, a);
}

/* The column a quote opening at open is compared with, or NULL. */
static const char *attached_to(const char *text, const char *open, SqArena *a) {
    const char *p = open;
    while (p > text && isspace((unsigned char)p[-1])) p--;
    static const char *const ops[] = {"==", "!=", "<>", ">=", "<=", "=", ">", "<", "like"};
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++) {
        size_t n = strlen(ops[i]);
        if ((size_t)(p - text) < n || sq_strnicmp(p - n, ops[i], n) != 0) continue;
        if (isalpha((unsigned char)ops[i][0]) && p - n > text && word_char((unsigned char)p[-n - 1])) continue;
        return ident_before(text, p - n, a);
    }
    return list_column(text, open, a);
}

static void scan(const char *text, SuiteHints *h, SqArena *a) {
    for (const char *p = text; p && *p && h->n < HINT_MAX; p++) {
        char q = *p;
        if (q != '\'' && q != '"') continue;
        if (p > text && word_char((unsigned char)p[-1])) continue; /* an apostrophe */
        const char *e = strchr(p + 1, q);
        while (e && e[1] && word_char((unsigned char)e[1]) && q == '\'') e = strchr(e + 1, q);
        if (!e) return;
        size_t n = (size_t)(e - p - 1);
        if (n && n <= HINT_MAX_LEN && !memchr(p + 1, '%', n) && !memchr(p + 1, '\n', n)) {
            SuiteHint *x = &h->v[h->n++];
            x->column = attached_to(text, p, a);
            x->text = sq_arena_strndup(a, p + 1, n);
        }
        p = e;
    }
}

void suite_hints(const char *question, const char *evidence, SqArena *a, SuiteHints *out) {
    out->v = sq_arena_alloc(a, HINT_MAX * sizeof *out->v);
    out->n = 0;
    scan(evidence, out, a);
    scan(question, out, a);
}
