/*
** tqa.c -- the linker table of a query and the words that name it
** (tqa.h says the rules).
*/
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "passes/expand/tqa.h"

#include "ir/graph/querygraph.h"
#include "runtime/util.h"

/* ---- the linker table ------------------------------------------------------ */

/* Betweenness of the schema's node for table, or -1 when it has none. */
static double schema_score(const SqGraph *schema, const double *sbc, const char *table) {
    int i = table ? sq_graph_find(schema, table) : -1;
    return i < 0 ? -1 : sbc[i];
}

int sq_tqa_linker(const SqGraph *q, SqArena *a, const Catalog *cat, int *tie) {
    if (tie) *tie = 0;
    if (q->n_nodes <= 3) return -1;
    double *bc = sq_calloc(q->n_nodes, sizeof *bc);
    sq_graph_betweenness(q, bc);
    uint32_t best = 0, n_best = 0;
    for (uint32_t i = 1; i < q->n_nodes; i++)
        if (bc[i] > bc[best] + 1e-9) best = i;
    for (uint32_t i = 0; i < q->n_nodes; i++) n_best += fabs(bc[i] - bc[best]) < 1e-9;
    const SqGraph *schema = n_best > 1 && cat ? sq_schema_graph(a, cat) : NULL;
    if (schema && schema->n_nodes) {
        if (tie) *tie = 1;
        double *sbc = sq_calloc(schema->n_nodes, sizeof *sbc);
        sq_graph_betweenness(schema, sbc);
        double top = bc[best], best_s = -2;
        for (uint32_t i = 0; i < q->n_nodes; i++) {
            if (fabs(bc[i] - top) >= 1e-9) continue;
            const char *t = q->nodes[i].table ? q->nodes[i].table : q->nodes[i].name;
            double s = schema_score(schema, sbc, t);
            if (s > best_s + 1e-9) best = i, best_s = s;
        }
        free(sbc);
    }
    free(bc);
    return (int)best;
}

/* ---- segments of a name ----------------------------------------------------- */

static int is_vowel(char c) { return c && strchr("aeiou", c) != NULL; }

/* Whether a segment is an abbreviation: no vowel after its first letter. */
static int abbreviated(const char *s) {
    for (size_t i = 1; s[i]; i++)
        if (is_vowel(s[i])) return 0;
    return 1;
}

/* Whether a segment ends before name[i]: a character that is no letter
** or digit comes, a capital after a small letter ("lapTimes"), a capital
** followed by a small letter after a capital ("HTMLParser"), or letters
** and digits meet. */
static int boundary(const char *name, size_t i) {
    unsigned char p = (unsigned char)name[i - 1], c = (unsigned char)name[i];
    if (islower(p) && isupper(c)) return 1;
    if (isupper(p) && isupper(c) && islower((unsigned char)name[i + 1])) return 1;
    return (isdigit(p) != 0) != (isdigit(c) != 0);
}

static void add_segment(SqArena *a, const char *name, size_t from, size_t to, SqTqaSegment **out, uint32_t *n,
                        uint32_t *cap) {
    int digits = 1;
    for (size_t i = from; i < to; i++) digits &= isdigit((unsigned char)name[i]) != 0;
    if (from == to || digits) return;
    char *t = sq_arena_alloc(a, to - from + 1);
    for (size_t i = from; i < to; i++) t[i - from] = (char)tolower((unsigned char)name[i]);
    t[to - from] = 0;
    SqTqaSegment *s = SQ_ARENA_APPEND(a, *out, *n, *cap);
    s->text = t;
    s->abbr = abbreviated(t);
}

uint32_t sq_tqa_segments(SqArena *a, const char *name, SqTqaSegment **out) {
    uint32_t n = 0, cap = 0;
    *out = NULL;
    size_t from = 0, i = 0;
    for (; name[i]; i++) {
        if (!isalnum((unsigned char)name[i])) {
            add_segment(a, name, from, i, out, &n, &cap);
            from = i + 1;
        } else if (i > from && boundary(name, i)) {
            add_segment(a, name, from, i, out, &n, &cap);
            from = i;
        }
    }
    add_segment(a, name, from, i, out, &n, &cap);
    return n;
}

/* ---- words ------------------------------------------------------------------ */

enum { WORD_MAX = 64 };

static int ends(const char *w, size_t n, const char *suffix) {
    size_t k = strlen(suffix);
    return n > k && memcmp(w + n - k, suffix, k) == 0;
}

/* w (lower case, n < WORD_MAX bytes) stemmed in place: plurals, -ing and
** -ed stripped; its new length. */
static size_t stem(char *w, size_t n) {
    if (n > 4 && ends(w, n, "ies")) {
        n -= 2;
        w[n - 1] = 'y';
    } else if (n > 4 && (ends(w, n, "sses") || ends(w, n, "xes") || ends(w, n, "zes") || ends(w, n, "ches") ||
                         ends(w, n, "shes"))) {
        n -= 2;
    } else if (n > 3 && w[n - 1] == 's' && !ends(w, n, "ss") && !ends(w, n, "us") && !ends(w, n, "is")) {
        n -= 1;
    }
    if (n > 5 && ends(w, n, "ing")) n -= 3;
    else if (n > 4 && ends(w, n, "ed")) n -= 2;
    w[n] = 0;
    return n;
}

/* Words that are the same word here: irregular forms and synonyms, each
** group a row (stems). */
static const char *const same_words[][4] = {
    {"sale", "sold", "sell", NULL},  {"person", "people", NULL},  {"child", "children", NULL},
    {"man", "men", NULL},            {"woman", "women", NULL},    {"country", "nation", NULL},
    {"movie", "film", NULL},         {"car", "automobile", NULL}, {"mouse", "mice", NULL},
    {"foot", "feet", NULL},          {"tooth", "teeth", NULL},
};

static int group_of(const char *w) {
    for (size_t g = 0; g < SQ_ARRAY_LEN(same_words); g++)
        for (size_t k = 0; same_words[g][k]; k++)
            if (strcmp(same_words[g][k], w) == 0) return (int)g;
    return -1;
}

/* w without its vowels after the first letter, into out. */
static void devowel(const char *w, char *out) {
    size_t k = 0;
    for (size_t i = 0; w[i]; i++)
        if (i == 0 || !is_vowel(w[i])) out[k++] = w[i];
    out[k] = 0;
}

/* Whether word w (lower case) names segment s. */
static int names(const SqTqaSegment *s, const char *w) {
    char sw[WORD_MAX], ss[WORD_MAX];
    if (strlen(w) >= WORD_MAX || strlen(s->text) >= WORD_MAX) return 0;
    if (s->abbr) {
        devowel(w, sw);
        devowel(s->text, ss);
        return w[0] == s->text[0] && strlen(ss) >= 2 && strstr(sw, ss) != NULL;
    }
    strcpy(sw, w);
    strcpy(ss, s->text);
    size_t nw = stem(sw, strlen(sw));
    stem(ss, strlen(ss));
    if (strcmp(sw, ss) == 0) return 1;
    int g = group_of(sw);
    if (g >= 0 && g == group_of(ss)) return 1;
    size_t k = strlen(s->text);
    return k >= 4 && nw >= k && memcmp(sw, s->text, k) == 0;
}

/* Whether w[0..n) is a column name of cat. */
static int column_name(const Catalog *cat, const char *w, size_t n) {
    for (uint32_t t = 0; cat && t < cat->n_tables; t++)
        for (uint32_t c = 0; c < cat->tables[t]->n_cols; c++) {
            const char *name = cat->tables[t]->cols[c].name;
            if (strlen(name) == n && sq_strnicmp(name, w, n) == 0) return 1;
        }
    return 0;
}

static int word_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

uint32_t sq_tqa_references(SqArena *a, const SqTqaSegment *segs, uint32_t n, const char *text, int evidence,
                           const Catalog *cat, SqTqaMatch **out) {
    uint32_t m = 0, cap = 0;
    *out = NULL;
    char quote = 0;
    for (size_t i = 0; text && text[i];) {
        /* a quote opens after a character that is no word's (an
        ** apostrophe inside a word, "driver's", opens nothing) and closes
        ** at the next of its kind */
        int is_quote = text[i] == '\'' || text[i] == '"' || text[i] == '`';
        if (evidence && is_quote && (quote == text[i] || (!quote && (i == 0 || !word_char(text[i - 1]))))) {
            quote = quote ? 0 : text[i];
            i++;
            continue;
        }
        if (!word_char(text[i])) {
            i++;
            continue;
        }
        size_t start = i;
        while (word_char(text[i])) i++;
        if (quote || i - start >= WORD_MAX || (evidence && column_name(cat, text + start, i - start))) continue;
        char w[WORD_MAX];
        for (size_t k = start; k < i; k++) w[k - start] = (char)tolower((unsigned char)text[k]);
        w[i - start] = 0;
        for (uint32_t s = 0; s < n; s++) {
            if (!names(&segs[s], w)) continue;
            SqTqaMatch *x = SQ_ARENA_APPEND(a, *out, m, cap);
            x->start = (uint32_t)start;
            x->end = (uint32_t)i;
            x->segment = s;
            break;
        }
    }
    return m;
}
