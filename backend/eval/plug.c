/*
** plug.c -- the test-suite script's value plugging (plug.h).
**
** Three parts: sqlparse's lexer, as far as the plugging reads it (token
** boundaries, blanks, string literals); the script's extract_query_values
** (reformat, then values and slots); and the enumeration of every way to
** fill the slots, in the order of itertools.product.
*/
#include "backend/eval/plug.h"
#include "backend/eval/pytext.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/strbuf.h"
#include "runtime/util.h"

/* ---- sqlparse's lexer ---------------------------------------------------- */

typedef enum TokKind { TK_BLANK, TK_NEWLINE, TK_STRING, TK_OTHER } TokKind;

static int is_digit(unsigned char c) { return c >= '0' && c <= '9'; }
/* [A-ZÀ-Ü] under IGNORECASE; a byte of a UTF-8 sequence counts as a letter */
static int is_alpha(unsigned char c) { return (c | 0x20) >= 'a' && (c | 0x20) <= 'z' ? 1 : c >= 0x80; }
static int is_w(unsigned char c) { return is_alpha(c) || is_digit(c) || c == '_'; }

static size_t run_of(const char *s, size_t n, size_t i, int (*in)(unsigned char)) {
    size_t k = i;
    while (k < n && in((unsigned char)s[k])) k++;
    return k - i;
}

/* The length of q((qq|\q|[^q])*)q at s[i] as Python's backtracking regex
** matches it (the first success of its greedy search), or 0.  end[p] is
** where the star-then-close part starting at p ends (0: fails); it only
** depends on later places, so it is filled from the end. */
static size_t quoted(const char *s, size_t n, size_t i, char q, int backslash) {
    size_t *end = sq_calloc(n - i + 2, sizeof *end), got = 0;
    for (size_t p = n + 1; p-- > i + 1;) {
        size_t e = 0;
        if (p + 1 < n && s[p] == q && s[p + 1] == q) e = end[p + 2 - i];
        if (!e && backslash && p + 1 < n && s[p] == '\\' && s[p + 1] == q) e = end[p + 2 - i];
        if (!e && p < n && s[p] != q) e = end[p + 1 - i];
        if (!e && p < n && s[p] == q) e = p + 1;
        end[p - i] = e;
    }
    got = end[1];
    free(end);
    return got ? got - i : 0;
}

/* Comments: "--" or "# " to the end of the line (its line break
** included), or a closed slash-star comment. */
static size_t comment_len(const char *s, size_t n, size_t i) {
    if (i + 1 < n && ((s[i] == '-' && s[i + 1] == '-') || (s[i] == '#' && s[i + 1] == ' '))) {
        size_t k = i + 2;
        while (k < n && s[k] != '\r' && s[k] != '\n') k++;
        if (k < n) k += (s[k] == '\r' && k + 1 < n && s[k + 1] == '\n') ? 2 : 1;
        return k - i;
    }
    if (i + 1 < n && s[i] == '/' && s[i + 1] == '*') {
        for (size_t k = i + 2; k + 1 < n; k++)
            if (s[k] == '*' && s[k + 1] == '/') return k + 2 - i;
    }
    return 0;
}

/* $tag$ ... $tag$, starting after a blank or at the start. */
static size_t dollar_len(const char *s, size_t n, size_t i) {
    if (s[i] != '$' || (i > 0 && !sq_py_space((unsigned char)s[i - 1]))) return 0;
    size_t k = i + 1;
    if (k < n && (is_alpha((unsigned char)s[k]) || s[k] == '_')) k += 1 + run_of(s, n, k + 1, is_w);
    if (k >= n || s[k] != '$') return 0;
    size_t tag = k + 1 - i;
    for (size_t p = k + 1; p + tag <= n; p++)
        if (memcmp(s + p, s + i, tag) == 0) return p + tag - i;
    return 0;
}

/* Numbers: hexadecimal, with an exponent, decimal, integer, each as its
** pattern matches with backtracking; 0 when none does. */
static size_t number_len(const char *s, size_t n, size_t i) {
    size_t k = i + (s[i] == '-');
    size_t d = run_of(s, n, k, (int (*)(unsigned char))is_digit);
    if (k + 1 < n && s[k] == '0' && (s[k + 1] | 0x20) == 'x') {
        size_t h = 0;
        while (k + 2 + h < n && (is_digit((unsigned char)s[k + 2 + h]) || ((s[k + 2 + h] | 0x20) >= 'a' && (s[k + 2 + h] | 0x20) <= 'f'))) h++;
        if (h) return k + 2 + h - i;
    }
    if (d) { /* -?\d+(\.\d+)?E-?\d+ */
        size_t j = k + d, at[2] = {0, 0};
        int tries = 0;
        if (j + 1 < n && s[j] == '.' && is_digit((unsigned char)s[j + 1]))
            at[tries++] = j + 1 + run_of(s, n, j + 1, (int (*)(unsigned char))is_digit);
        at[tries++] = j;
        for (int t = 0; t < tries; t++) {
            size_t e = at[t];
            if (e < n && (s[e] | 0x20) == 'e') {
                size_t x = e + 1 + (e + 1 < n && s[e + 1] == '-');
                size_t xd = run_of(s, n, x, (int (*)(unsigned char))is_digit);
                if (xd) return x + xd - i;
            }
        }
    }
    if (s[i] == '_' || is_alpha((unsigned char)s[i])) return 0;
    /* (\d+(\.\d*)|\.\d+) not followed by [_A-Z], fewer digits after the
    ** point first given up */
    if (d && k + d < n && s[k + d] == '.') {
        size_t frac = run_of(s, n, k + d + 1, (int (*)(unsigned char))is_digit);
        for (size_t f = frac + 1; f-- > 0;) {
            size_t e = k + d + 1 + f;
            if (e >= n || !(s[e] == '_' || is_alpha((unsigned char)s[e]))) return e - i;
        }
    }
    if (!d && k + 1 < n && s[k] == '.' && is_digit((unsigned char)s[k + 1])) {
        size_t frac = run_of(s, n, k + 1, (int (*)(unsigned char))is_digit);
        for (size_t f = frac; f >= 1; f--) {
            size_t e = k + 1 + f;
            if (e >= n || !(s[e] == '_' || is_alpha((unsigned char)s[e]))) return e - i;
        }
    }
    for (size_t m = d; m >= 1; m--) { /* -?\d+ not followed by [_A-Z] */
        size_t e = k + m;
        if (e >= n || !(s[e] == '_' || is_alpha((unsigned char)s[e]))) return e - i;
    }
    return 0;
}

/* Names sqlparse reads with [A-ZÀ-Ü]\w*: before "." (blanks allowed)
** or "(", or after ".". */
static size_t name_len(const char *s, size_t n, size_t i) {
    if (!is_alpha((unsigned char)s[i])) return 0;
    size_t w = 1 + run_of(s, n, i + 1, is_w), k = i + w;
    if (i > 0 && s[i - 1] == '.') return w;
    if (k < n && s[k] == '(') return w;
    while (k < n && sq_py_space((unsigned char)s[k])) k++;
    return k < n && s[k] == '.' ? w : 0;
}

static int in_word(unsigned char c) { return is_w(c) || c == '$' || c == '#'; }

/* The length and kind of the token at s[i], trying sqlparse's patterns
** in its order (those whose tokens span the same text as a later one's
** are left out: the keywords, and the phrases like GROUP BY, which only
** differ in the blanks inside them). */
static size_t token_at(const char *s, size_t n, size_t i, TokKind *kind) {
    unsigned char c = (unsigned char)s[i];
    size_t m;
    *kind = TK_OTHER;
    if ((m = comment_len(s, n, i))) return m;
    if (c == '\r' || c == '\n') {
        *kind = TK_NEWLINE;
        return (c == '\r' && i + 1 < n && s[i + 1] == '\n') ? 2 : 1;
    }
    if (sq_py_space(c)) {
        *kind = TK_BLANK;
        return 1;
    }
    if (i + 1 < n && ((c == ':' && s[i + 1] == '=') || (c == ':' && s[i + 1] == ':'))) return 2;
    if (c == '*' || c == '?') return 1;
    if (c == '`' && (m = quoted(s, n, i, '`', 0))) return m;
    if ((m = dollar_len(s, n, i))) return m;
    if (c == '%') {
        size_t k = i + 1;
        if (k < n && s[k] == '(') {
            size_t w = run_of(s, n, k + 1, is_w);
            if (w && k + 1 + w < n && s[k + 1 + w] == ')') k += w + 2;
        }
        if (k < n && s[k] == 's') return k + 1 - i;
    }
    if ((c == '$' || c == ':') && (i == 0 || !is_w((unsigned char)s[i - 1])) && (m = run_of(s, n, i + 1, is_w)))
        return 1 + m;
    if (c == '\\' && (m = run_of(s, n, i + 1, is_w))) return 1 + m;
    if (c == '@' || c == '#') {
        size_t k = i + 1 + (c == '#' && i + 1 < n && s[i + 1] == '#');
        if (k + 1 < n && is_alpha((unsigned char)s[k]) && is_w((unsigned char)s[k + 1]))
            return k + 1 + run_of(s, n, k + 1, is_w) - i;
    }
    if ((m = name_len(s, n, i))) return m;
    if ((m = number_len(s, n, i))) return m;
    if ((c == '\'' || c == '"') && (m = quoted(s, n, i, (char)c, 1))) {
        *kind = TK_STRING;
        return m;
    }
    if (c == '[' && (i == 0 || !(is_w((unsigned char)s[i - 1]) || s[i - 1] == ']' || s[i - 1] == ')'))) {
        size_t k = i + 1;
        while (k < n && s[k] != '[' && s[k] != ']') k++;
        if (k > i + 1 && k < n && s[k] == ']') return k + 1 - i;
    }
    if (is_digit(c) || c == '_' || is_alpha(c)) return 1 + run_of(s, n, i + 1, in_word);
    if (strchr(";:()[],.", c)) return 1;
    if (strchr("<>=~!", c)) {
        for (m = 1; i + m < n && strchr("<>=~!", s[i + m]); m++) {}
        return m;
    }
    if (strchr("+/@#%^&|-", c)) {
        for (m = 1; i + m < n && strchr("+/@#%^&|-", s[i + m]); m++) {}
        return m;
    }
    return 1;
}

/* ---- extract_query_values ------------------------------------------------ */

/* s.replace(from, to), on the heap */
static char *replaced(const char *s, const char *from, const char *to) {
    SqBuf b = SQ_BUF_INIT;
    sq_py_replace(&b, s, from, to);
    return sq_buf_detach(&b);
}

static void replace_in(char **s, const char *from, const char *to) {
    char *r = replaced(*s, from, to);
    free(*s);
    *s = r;
}

/* reformat_query(): stripped, ';' and tabs deleted, the tokens other than
** blanks joined by one blank, and t1.* .. T3.* as *. */
static char *reformat(const char *sql) {
    const char *s = sql;
    size_t n = strlen(s);
    while (n && sq_py_space((unsigned char)*s)) s++, n--;
    while (n && sq_py_space((unsigned char)s[n - 1])) n--;
    SqBuf t = SQ_BUF_INIT;
    for (size_t i = 0; i < n; i++)
        if (s[i] != ';' && s[i] != '\t') sq_buf_putc(&t, s[i]);
    SqBuf out = SQ_BUF_INIT;
    int first = 1;
    for (size_t i = 0; i < t.len;) {
        TokKind k;
        size_t m = token_at(t.data, t.len, i, &k);
        if (k != TK_BLANK) {
            if (!first) sq_buf_putc(&out, ' ');
            sq_buf_put(&out, t.data + i, m);
            first = 0;
        }
        i += m;
    }
    sq_buf_free(&t);
    char *q = sq_buf_detach(&out);
    static const char *const stars[] = {"t1.*", "t2.*", "t3.*", "T1.*", "T2.*", "T3.*"};
    for (size_t k = 0; k < SQ_ARRAY_LEN(stars); k++) replace_in(&q, stars[k], "*");
    return q;
}

/* re.sub(r"(T\d+\.)\s", r"\1", s) */
static void join_table_prefix(char **s) {
    SqBuf b = SQ_BUF_INIT;
    const char *p = *s;
    while (*p) {
        if (p[0] == 'T' && is_digit((unsigned char)p[1])) {
            const char *q = p + 1;
            while (is_digit((unsigned char)*q)) q++;
            if (*q == '.' && (q[1] == ' ' || (q[1] >= '\t' && q[1] <= '\r') || (q[1] >= 0x1c && q[1] <= 0x1f))) {
                sq_buf_put(&b, p, (size_t)(q + 1 - p));
                p = q + 2;
                continue;
            }
        }
        sq_buf_putc(&b, *p++);
    }
    free(*s);
    *s = sq_buf_detach(&b);
}

/* A list of heap strings. */
typedef struct Strs {
    char **v;
    size_t n, cap;
} Strs;

static void strs_push(Strs *l, char *s) {
    if (l->n == l->cap) l->v = sq_realloc(l->v, (l->cap = l->cap ? 2 * l->cap : 16) * sizeof *l->v);
    l->v[l->n++] = s;
}

static void strs_free(Strs *l) {
    for (size_t i = 0; i < l->n; i++) free(l->v[i]);
    free(l->v);
    memset(l, 0, sizeof *l);
}

static int strs_has(const Strs *l, const char *s) {
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->v[i], s) == 0) return 1;
    return 0;
}

/* Python's str.split(). */
static void split_words(const char *s, Strs *out) {
    while (*s) {
        while (*s && sq_py_space((unsigned char)*s)) s++;
        const char *w = s;
        while (*s && !sq_py_space((unsigned char)*s)) s++;
        if (s > w) strs_push(out, sq_strndup(w, (size_t)(s - w)));
    }
}

/* re.findall(r"[-+]?\d*\.\d+", s) */
static void find_decimals(const char *s, Strs *out) {
    size_t n = strlen(s);
    for (size_t i = 0; i < n;) {
        size_t k = i + (s[i] == '-' || s[i] == '+');
        size_t d = run_of(s, n, k, (int (*)(unsigned char))is_digit);
        /* \d* gives back digits until a point follows; only the full run can */
        if (k + d + 1 < n && s[k + d] == '.' && is_digit((unsigned char)s[k + d + 1])) {
            size_t f = run_of(s, n, k + d + 1, (int (*)(unsigned char))is_digit);
            strs_push(out, sq_strndup(s + i, k + d + 1 + f - i));
            i = k + d + 1 + f;
        } else {
            i++;
        }
    }
}

/* [i.strip() for i in re.findall(r"[^tT]\d+", s)] */
static void find_integers(const char *s, Strs *out) {
    size_t n = strlen(s);
    for (size_t i = 0; i + 1 < n;) {
        if (s[i] != 't' && s[i] != 'T' && is_digit((unsigned char)s[i + 1])) {
            size_t d = run_of(s, n, i + 1, (int (*)(unsigned char))is_digit);
            const char *w = s + i;
            size_t len = 1 + d;
            while (len && sq_py_space((unsigned char)*w)) w++, len--;
            strs_push(out, sq_strndup(w, len));
            i += 1 + d;
        } else {
            i++;
        }
    }
}

/* A word with a "." is split at its points when it holds "t<digits>."
** (any case); every word is lowercased. */
static void push_word(const char *w, Strs *out) {
    int table = 0;
    for (const char *p = w; *p && !table; p++)
        if ((*p == 't' || *p == 'T') && is_digit((unsigned char)p[1])) {
            const char *q = p + 1;
            while (is_digit((unsigned char)*q)) q++;
            table = *q == '.';
        }
    if (!strchr(w, '.') || !table) {
        strs_push(out, sq_strdup_lower(w));
        return;
    }
    char *spaced = replaced(w, ".", " . ");
    Strs parts = {0};
    split_words(spaced, &parts);
    for (size_t i = 0; i < parts.n; i++) strs_push(out, sq_strdup_lower(parts.v[i]));
    strs_free(&parts);
    free(spaced);
}

#define SLOT "VALUERARE"

/* extract_query_values(): the words of sql (slots as "valuerare") and its
** values, in the order the script appends them. */
static void extract(const char *sql, Strs *words, Strs *values) {
    char *q = reformat(sql);
    join_table_prefix(&q);
    size_t n = strlen(q);
    Strs strings = {0};
    for (size_t i = 0; i < n;) {
        TokKind k;
        size_t m = token_at(q, n, i, &k);
        if (k == TK_STRING) strs_push(&strings, sq_strndup(q + i, m));
        i += m;
    }
    for (size_t i = 0; i < strings.n; i++) {
        strs_push(values, sq_strdup(strings.v[i]));
        replace_in(&q, strings.v[i], SLOT);
    }
    strs_free(&strings);
    Strs toks = {0}, nums = {0};
    split_words(q, &toks);
    find_decimals(q, &nums);
    for (size_t i = 0; i < toks.n; i++)
        if (strs_has(&nums, toks.v[i])) {
            strs_push(values, toks.v[i]);
            toks.v[i] = sq_strdup(SLOT);
        }
    strs_free(&nums);
    SqBuf joined = SQ_BUF_INIT;
    for (size_t i = 0; i < toks.n; i++) sq_buf_printf(&joined, "%s%s", i ? " " : "", toks.v[i]);
    find_integers(sq_buf_str(&joined), &nums);
    sq_buf_free(&joined);
    for (size_t i = 0; i < toks.n; i++)
        if (strs_has(&nums, toks.v[i])) {
            strs_push(values, toks.v[i]);
            toks.v[i] = sq_strdup(SLOT);
        }
    for (size_t i = 0; i < toks.n; i++) push_word(toks.v[i], words);
    strs_free(&nums);
    strs_free(&toks);
    free(q);
}

void sq_plug_extract(const char *sql, char **words, char **values) {
    Strs w = {0}, v = {0};
    extract(sql, &w, &v);
    SqBuf b = SQ_BUF_INIT;
    for (size_t i = 0; i < w.n; i++) sq_buf_printf(&b, "%s%s", i ? " | " : "", w.v[i]);
    *words = sq_buf_detach(&b);
    for (size_t i = 0; i < v.n; i++) sq_buf_printf(&b, "%s%s", i ? " | " : "", v.v[i]);
    *values = sq_buf_detach(&b);
    strs_free(&w);
    strs_free(&v);
}

/* ---- the rewritings ------------------------------------------------------ */

struct SqPlug {
    Strs words;            /* the prediction's, slots as "valuerare" */
    Strs values;           /* the gold's, each once, in first-seen order */
    size_t *slot;          /* the places of the slots in words */
    size_t n_slots;
    size_t *pick;          /* per slot: the value it holds now */
    int started, done;
    SqBuf text;
};

SqPlug *sq_plug_new(const char *gold, const char *pred) {
    SqPlug *p = sq_calloc(1, sizeof *p);
    Strs gw = {0}, gv = {0}, pv = {0};
    extract(gold, &gw, &gv);
    for (size_t i = 0; i < gv.n; i++)
        if (!strs_has(&p->values, gv.v[i])) strs_push(&p->values, sq_strdup(gv.v[i]));
    extract(pred, &p->words, &pv);
    strs_free(&gw);
    strs_free(&gv);
    strs_free(&pv);
    p->slot = sq_calloc(p->words.n + 1, sizeof *p->slot);
    for (size_t i = 0; i < p->words.n; i++)
        if (strcmp(p->words.v[i], "valuerare") == 0) p->slot[p->n_slots++] = i;
    p->pick = sq_calloc(p->n_slots + 1, sizeof *p->pick);
    p->done = p->n_slots > 0 && p->values.n == 0;
    return p;
}

size_t sq_plug_count(const SqPlug *p) {
    size_t c = 1;
    for (size_t i = 0; i < p->n_slots; i++) {
        if (p->values.n && c > SIZE_MAX / p->values.n) return SIZE_MAX;
        c *= p->values.n;
    }
    return c;
}

/* Advance pick like itertools.product: the last slot fastest. */
static int advance(SqPlug *p) {
    for (size_t i = p->n_slots; i-- > 0;) {
        if (++p->pick[i] < p->values.n) return 1;
        p->pick[i] = 0;
    }
    return 0;
}

const char *sq_plug_next(SqPlug *p) {
    if (p->done) return NULL;
    if (p->started && !advance(p)) {
        p->done = 1;
        return NULL;
    }
    p->started = 1;
    sq_buf_reset(&p->text);
    for (size_t i = 0, s = 0; i < p->words.n; i++) {
        const char *w = p->words.v[i];
        if (s < p->n_slots && p->slot[s] == i) w = p->values.v[p->pick[s++]];
        sq_buf_printf(&p->text, "%s%s", i ? " " : "", w);
    }
    return sq_buf_str(&p->text);
}

void sq_plug_free(SqPlug *p) {
    if (!p) return;
    strs_free(&p->words);
    strs_free(&p->values);
    free(p->slot);
    free(p->pick);
    sq_buf_free(&p->text);
    free(p);
}
