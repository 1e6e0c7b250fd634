/*
** spider_em_parse.c -- read SQL into the structure of Spider's
** exact-set-match (spider_em_int.h) the way the official process_sql.py
** does, quirks included.
**
** Two stages.  The tokenizer hides quoted values behind placeholders,
** splits the rest into words with the rules of nltk's Treebank word
** tokenizer that can fire on such text, lowercases, puts the values back
** and joins "!" "=", ">" "=", "<" "=".  The reader then walks the words
** with one function per clause, each mirroring its counterpart in the
** script: what it accepts, where it stops, what it skips.  Any Python
** exception the script would raise (an index past the end, an unknown
** name, a failed assert) is a longjmp to sq_em_parse, which returns NULL.
** Tokens past the end of a query are ignored, as the script ignores them.
*/
#include "backend/eval/spider_em_int.h"
#include "backend/eval/pytext.h"

#include <ctype.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/strbuf.h"
#include "runtime/util.h"

/* ---- tokenizer ----------------------------------------------------------- */

/* The string as an arena copy of b's text; b is emptied. */
static char *take(SqArena *a, SqBuf *b) {
    char *s = sq_arena_strndup(a, sq_buf_str(b), b->len);
    sq_buf_reset(b);
    return s;
}

static int is_word_char(unsigned char c) {
    return isalnum(c) || c == '_' || c >= 0x80;
}

/* Pad every character of set with a blank on each side. */
static char *pad_chars(SqArena *a, SqBuf *b, const char *s, const char *set) {
    for (; *s; s++) {
        if (strchr(set, *s)) {
            sq_buf_putc(b, ' ');
            sq_buf_putc(b, *s);
            sq_buf_putc(b, ' ');
        } else {
            sq_buf_putc(b, *s);
        }
    }
    return take(a, b);
}

/* s.replace(from, to) */
static char *replace_all(SqArena *a, SqBuf *b, const char *s, const char *from, const char *to) {
    sq_py_replace(b, s, from, to);
    return take(a, b);
}

/* ':' or ',' before a non-digit gets blanks around it; the pair is
** consumed, so in ",," only the first comma is split off. */
static char *split_colon_comma(SqArena *a, SqBuf *b, const char *s) {
    while (*s) {
        if ((s[0] == ':' || s[0] == ',') && s[1] && !isdigit((unsigned char)s[1])) {
            sq_buf_putc(b, ' ');
            sq_buf_putc(b, s[0]);
            sq_buf_putc(b, ' ');
            sq_buf_putc(b, s[1]);
            s += 2;
        } else {
            sq_buf_putc(b, *s++);
        }
    }
    char *out = take(a, b);
    size_t n = strlen(out);
    if (n && (out[n - 1] == ':' || out[n - 1] == ',')) {
        sq_buf_put(b, out, n - 1);
        sq_buf_putc(b, ' ');
        sq_buf_putc(b, out[n - 1]);
        sq_buf_putc(b, ' ');
        out = take(a, b);
    }
    return out;
}

/* A final period (after a non-period, before only closing brackets and
** blanks) is split off; the blanks after it become one. */
static char *split_final_period(SqArena *a, SqBuf *b, char *s) {
    size_t e = strlen(s);
    while (e && sq_py_space((unsigned char)s[e - 1])) e--;
    size_t p = e;
    while (p && strchr("])}>\"'", s[p - 1])) p--;
    if (p < 2 || s[p - 1] != '.' || s[p - 2] == '.') return s;
    sq_buf_put(b, s, p - 1);
    sq_buf_puts(b, " .");
    sq_buf_put(b, s + p, e - p);
    sq_buf_putc(b, ' ');
    return take(a, b);
}

/* nltk's contractions that need no apostrophe, as whole words in any
** case: "cannot" -> "can not", "gimme", "gonna", "gotta", "lemme", and
** "wanna" before a blank. */
static char *split_contractions(SqArena *a, SqBuf *b, const char *s) {
    static const struct { const char *word; int split; int need_space; } w[] = {
        {"cannot", 3, 0}, {"gimme", 3, 0}, {"gonna", 3, 0},
        {"gotta", 3, 0}, {"lemme", 3, 0}, {"wanna", 3, 1},
    };
    size_t n = strlen(s);
    for (size_t i = 0; i < n;) {
        int hit = -1;
        if (i == 0 || !is_word_char((unsigned char)s[i - 1])) {
            for (size_t k = 0; k < SQ_ARRAY_LEN(w) && hit < 0; k++) {
                size_t len = strlen(w[k].word);
                if (i + len > n || sq_strnicmp(s + i, w[k].word, len) != 0) continue;
                unsigned char after = (unsigned char)s[i + len];
                if (w[k].need_space ? sq_py_space(after) : !is_word_char(after)) hit = (int)k;
            }
        }
        if (hit < 0) {
            sq_buf_putc(b, s[i++]);
            continue;
        }
        size_t len = strlen(w[hit].word);
        sq_buf_putc(b, ' ');
        sq_buf_put(b, s + i, (size_t)w[hit].split);
        sq_buf_putc(b, ' ');
        sq_buf_put(b, s + i + w[hit].split, len - (size_t)w[hit].split);
        sq_buf_putc(b, ' ');
        i += len;
    }
    return take(a, b);
}

/* nltk's Treebank word tokenizer on text without quote characters (the
** caller has hidden them): its rules for quotes and apostrophes cannot
** fire, the rest are applied in its order. */
static char *treebank(SqArena *a, SqBuf *b, const char *text) {
    char *s = replace_all(a, b, text, "``", " `` ");
    s = split_colon_comma(a, b, s);
    s = replace_all(a, b, s, "...", " ... ");
    s = pad_chars(a, b, s, ";@#$%&");
    s = split_final_period(a, b, s);
    s = pad_chars(a, b, s, "?!");
    s = pad_chars(a, b, s, "][(){}<>");
    s = replace_all(a, b, s, "--", " -- ");
    sq_buf_putc(b, ' ');
    sq_buf_puts(b, s);
    sq_buf_putc(b, ' ');
    return split_contractions(a, b, take(a, b));
}

typedef struct Toks {
    char **v;
    int n;
} Toks;

static void push_tok(SqArena *a, Toks *t, int *cap, char *tok) {
    if (t->n == *cap) {
        size_t c = (size_t)*cap;
        t->v = sq_arena_grow(a, t->v, (size_t)t->n, &c, (size_t)t->n + 1, sizeof *t->v);
        *cap = (int)c;
    }
    t->v[t->n++] = tok;
}

/* The placeholder of the value at [q1, q2] of the text. */
static char *placeholder(SqArena *a, size_t q1, size_t q2) {
    return sq_arena_printf(a, "__val_%zu_%zu__", q1, q2);
}

/* Join "!" "=", ">" "=" and "<" "=" into one token, scanning the "="
** tokens from the last; before the first token is the last one, as a
** Python index of -1 reads. */
static void join_comparisons(SqArena *a, Toks *t) {
    for (int i = t->n - 1; i >= 0; i--) {
        if (i >= t->n || strcmp(t->v[i], "=") != 0) continue;
        int prev = i > 0 ? i - 1 : t->n - 1;
        const char *pre = t->v[prev];
        if (strcmp(pre, "!") && strcmp(pre, ">") && strcmp(pre, "<")) continue;
        char *joined = sq_arena_printf(a, "%s=", pre);
        /* toks[:i-1] + [joined] + toks[i+1:] with Python's slice rules */
        int head = i - 1 < 0 ? t->n - 1 : i - 1;
        /* at i == 0 the head is every token but the last, so the list
        ** grows to 2n - 1 */
        char **v = sq_arena_alloc(a, sizeof *v * (size_t)(head + 1 + (t->n - i - 1) + 1));
        int n = 0;
        for (int k = 0; k < head; k++) v[n++] = t->v[k];
        v[n++] = joined;
        for (int k = i + 1; k < t->n; k++) v[n++] = t->v[k];
        t->v = v;
        t->n = n;
    }
}

/* tokenize() of process_sql.py; 0 when it raises (an odd count of
** quotes). */
static int tokenize(SqArena *a, const char *text, Toks *out) {
    char *s = sq_arena_strdup(a, text);
    size_t len = strlen(s), nq = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '\'') s[i] = '"';
        nq += s[i] == '"';
    }
    if (nq % 2) return 0;
    size_t *q = sq_arena_alloc(a, sizeof *q * (nq + 1));
    nq = 0;
    for (size_t i = 0; i < len; i++)
        if (s[i] == '"') q[nq++] = i;
    /* hide each value, pairing the quotes in order */
    SqBuf b = {0};
    char **val = sq_arena_alloc(a, sizeof *val * (nq / 2 + 1));
    char **key = sq_arena_alloc(a, sizeof *key * (nq / 2 + 1));
    size_t from = 0;
    for (size_t k = 0; k < nq; k += 2) {
        val[k / 2] = sq_arena_strndup(a, s + q[k], q[k + 1] - q[k] + 1);
        key[k / 2] = placeholder(a, q[k], q[k + 1]);
        sq_buf_put(&b, s + from, q[k] - from);
        sq_buf_puts(&b, key[k / 2]);
        from = q[k + 1] + 1;
    }
    sq_buf_puts(&b, s + from);
    char *words = treebank(a, &b, take(a, &b));
    sq_buf_free(&b);
    int cap = 0;
    *out = (Toks){0};
    for (char *p = words; *p;) {
        while (*p && sq_py_space((unsigned char)*p)) p++;
        if (!*p) break;
        char *w = p;
        while (*p && !sq_py_space((unsigned char)*p)) {
            *p = (char)sq_ascii_lower((unsigned char)*p);
            p++;
        }
        char *tok = sq_arena_strndup(a, w, (size_t)(p - w));
        for (size_t k = 0; k < nq / 2; k++)
            if (strcmp(tok, key[k]) == 0) tok = val[k];
        push_tok(a, out, &cap, tok);
    }
    join_comparisons(a, out);
    return 1;
}

char **sq_em_tokens(SqArena *a, const char *text, int *n) {
    Toks t;
    if (!tokenize(a, text, &t)) return NULL;
    *n = t.n;
    return t.v;
}

/* ---- the reader ---------------------------------------------------------- */

static const char *const AGG_OPS[] = {"none", "max", "min", "count", "sum", "avg"};
static const char *const UNIT_OPS[] = {"none", "-", "+", "*", "/"};
static const char *const WHERE_OPS[] = {"not", "between", "=", ">", "<", ">=", "<=",
                                        "!=", "in", "like", "is", "exists"};
static const char *const CLAUSE_KEYWORDS[] = {"select", "from", "where", "group", "order",
                                              "limit", "intersect", "union", "except"};
static const char *const JOIN_KEYWORDS[] = {"join", "on", "as"};
/* in the order of EM_IUE_* */
static const char *const SQL_OPS[] = {"intersect", "except", "union"};

#define INDEX_IN(tok, list) index_in((tok), (list), SQ_ARRAY_LEN(list))

static int index_in(const char *tok, const char *const *list, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (strcmp(tok, list[i]) == 0) return (int)i;
    return -1;
}

/* The alias map: each "X as Y" gives Y -> X, later ones win; every
** schema table maps to itself. */
typedef struct Alias {
    const char *name, *table;
} Alias;

typedef struct Reader {
    SqArena *a;
    const SqEmSchema *s;
    jmp_buf fail;
    const char *why;
    Alias *alias;
    int nalias;
    int end;               /* where the last parse_sql call stopped */
} Reader;

/* The names of the tables the FROM clause has read so far. */
typedef struct Defaults {
    const char **name;
    int n, cap;
} Defaults;

static SQ_NORETURN void fail_at(Reader *r, const char *why) {
    r->why = why;
    longjmp(r->fail, 1);
}

/* toks[i], raising IndexError past the end. */
static const char *tok(Reader *r, const Toks *t, int i) {
    if (i < 0 || i >= t->n) fail_at(r, "reads past the last token");
    return t->v[i];
}

static int tok_is(Reader *r, const Toks *t, int i, const char *w) {
    return strcmp(tok(r, t, i), w) == 0;
}

/* i < len and toks[i] == w */
static int at(const Toks *t, int i, const char *w) {
    return i < t->n && strcmp(t->v[i], w) == 0;
}

static void expect(Reader *r, const Toks *t, int i, const char *w) {
    if (!tok_is(r, t, i, w)) fail_at(r, "an expected token is missing");
}

static const char *alias_of(Reader *r, const char *name) {
    for (int i = r->nalias - 1; i >= 0; i--)
        if (strcmp(r->alias[i].name, name) == 0) return r->alias[i].table;
    fail_at(r, "an unknown table or alias");
}

static const EmTable *schema_table(const SqEmSchema *s, const char *name) {
    for (int i = 0; i < s->ntable; i++)
        if (strcmp(s->table[i].name, name) == 0) return &s->table[i];
    return NULL;
}

static int table_has(const EmTable *t, const char *col) {
    for (int i = 0; i < t->ncol; i++)
        if (strcmp(t->col[i], col) == 0) return 1;
    return 0;
}

/* The column id of "table.column" or the table id of "table" when the
** schema has it, else NULL; "*" is "__all__" (the script's idMap). */
static const char *schema_id_of(SqArena *a, const SqEmSchema *s, const char *key) {
    if (strcmp(key, "*") == 0) return "__all__";
    if (schema_table(s, key)) return sq_arena_printf(a, "__%s__", key);
    for (int i = 0; i < s->ntable; i++) {
        size_t n = strlen(s->table[i].name);
        if (strncmp(key, s->table[i].name, n) == 0 && key[n] == '.' && table_has(&s->table[i], key + n + 1))
            return sq_arena_printf(a, "__%s__", key);
    }
    return NULL;
}

static const char *schema_id(Reader *r, const char *key) {
    const char *id = schema_id_of(r->a, r->s, key);
    if (!id) fail_at(r, "a name the schema does not have");
    return id;
}

static void scan_aliases(Reader *r, const Toks *t) {
    r->alias = sq_arena_alloc(r->a, sizeof *r->alias * (size_t)(t->n + r->s->ntable + 1));
    for (int i = 0; i < t->n; i++) {
        if (strcmp(t->v[i], "as")) continue;
        const char *name = tok(r, t, i + 1);
        const char *table = t->v[i > 0 ? i - 1 : t->n - 1];
        r->alias[r->nalias++] = (Alias){name, table};
    }
    for (int i = 0; i < r->s->ntable; i++) {
        for (int k = 0; k < r->nalias; k++)
            if (strcmp(r->alias[k].name, r->s->table[i].name) == 0) fail_at(r, "an alias is a table's name");
    }
    for (int i = 0; i < r->s->ntable; i++)
        r->alias[r->nalias++] = (Alias){r->s->table[i].name, r->s->table[i].name};
}

static const char *parse_col(Reader *r, const Toks *t, int *idx, const Defaults *def) {
    const char *w = tok(r, t, *idx);
    if (strcmp(w, "*") == 0) {
        (*idx)++;
        return "__all__";
    }
    const char *dot = strchr(w, '.');
    if (dot) {
        if (strchr(dot + 1, '.')) fail_at(r, "a name with two dots");
        const char *table = alias_of(r, sq_arena_strndup(r->a, w, (size_t)(dot - w)));
        (*idx)++;
        return schema_id(r, sq_arena_printf(r->a, "%s.%s", table, dot + 1));
    }
    if (!def || def->n == 0) fail_at(r, "a column before any table");
    for (int i = 0; i < def->n; i++) {
        const EmTable *tb = schema_table(r->s, alias_of(r, def->name[i]));
        if (!tb) fail_at(r, "an unknown table");
        if (table_has(tb, w)) {
            (*idx)++;
            return schema_id(r, sq_arena_printf(r->a, "%s.%s", tb->name, w));
        }
    }
    fail_at(r, "a column no table of the FROM clause has");
}

static EmCol *parse_col_unit(Reader *r, const Toks *t, int *idx, const Defaults *def) {
    EmCol *c = sq_arena_alloc(r->a, sizeof *c);
    int block = 0;
    if (tok_is(r, t, *idx, "(")) {
        block = 1;
        (*idx)++;
    }
    int agg = INDEX_IN(tok(r, t, *idx), AGG_OPS);
    if (agg >= 0) {
        c->agg = agg;
        (*idx)++;
        if (!at(t, *idx, "(")) fail_at(r, "an aggregate without '('");
        (*idx)++;
        if (tok_is(r, t, *idx, "distinct")) {
            (*idx)++;
            c->distinct = EM_TRUE;
        }
        c->id = parse_col(r, t, idx, def);
        if (!at(t, *idx, ")")) fail_at(r, "an aggregate without ')'");
        (*idx)++;
        return c; /* the script leaves a block's ')' here unread */
    }
    if (tok_is(r, t, *idx, "distinct")) {
        (*idx)++;
        c->distinct = EM_TRUE;
    }
    c->id = parse_col(r, t, idx, def);
    if (block) {
        expect(r, t, *idx, ")");
        (*idx)++;
    }
    return c;
}

static EmVal *parse_val_unit(Reader *r, const Toks *t, int *idx, const Defaults *def) {
    EmVal *v = sq_arena_alloc(r->a, sizeof *v);
    int block = 0;
    if (tok_is(r, t, *idx, "(")) {
        block = 1;
        (*idx)++;
    }
    v->c1 = parse_col_unit(r, t, idx, def);
    int op = *idx < t->n ? INDEX_IN(t->v[*idx], UNIT_OPS) : -1;
    if (op >= 0) {
        v->op = op;
        (*idx)++;
        v->c2 = parse_col_unit(r, t, idx, def);
    }
    if (block) {
        expect(r, t, *idx, ")");
        (*idx)++;
    }
    return v;
}

static const char *parse_table_unit(Reader *r, const Toks *t, int *idx, const char **name) {
    const char *key = alias_of(r, tok(r, t, *idx));
    *idx += at(t, *idx + 1, "as") ? 3 : 1;
    *name = key;
    return schema_id(r, key);
}

/* Python's float() on a token: sign, digits with single underscores
** between them, a point, an exponent; or inf, infinity, nan. */
static int py_float(const char *w, double *out) {
    const char *p = w;
    if (*p == '+' || *p == '-') p++;
    if (sq_stricmp(p, "inf") == 0 || sq_stricmp(p, "infinity") == 0 || sq_stricmp(p, "nan") == 0) {
        *out = strtod(w, NULL);
        return 1;
    }
    char *clean = sq_malloc(strlen(w) + 1); /* w without its underscores */
    size_t n = 0;
    int digits = 0, in_exp = 0, seen_point = 0, ok = 1;
    for (const char *q = w; *q && ok; q++) {
        char c = *q;
        if (c == '_') {
            ok = q > w && isdigit((unsigned char)q[-1]) && isdigit((unsigned char)q[1]);
            continue;
        }
        if (isdigit((unsigned char)c)) {
            digits++;
        } else if ((c == '+' || c == '-') && (q == w || (in_exp && (q[-1] == 'e' || q[-1] == 'E')))) {
        } else if (c == '.' && !seen_point && !in_exp) {
            seen_point = 1;
        } else if ((c == 'e' || c == 'E') && digits && !in_exp) {
            in_exp = 1;
            digits = 0;
        } else {
            ok = 0;
        }
        clean[n++] = c;
    }
    clean[n] = 0;
    ok = ok && digits;
    if (ok) *out = strtod(clean, NULL);
    free(clean);
    return ok;
}

static EmSql *parse_sql(Reader *r, const Toks *t, int start);

static int stops_value(const char *w) {
    return !strcmp(w, ",") || !strcmp(w, ")") || !strcmp(w, "and") ||
           INDEX_IN(w, CLAUSE_KEYWORDS) >= 0 || INDEX_IN(w, JOIN_KEYWORDS) >= 0;
}

static EmValue parse_value(Reader *r, const Toks *t, int *idx, const Defaults *def) {
    EmValue v = {0};
    int start = *idx, block = 0;
    if (tok_is(r, t, *idx, "(")) {
        block = 1;
        (*idx)++;
    }
    const char *w = tok(r, t, *idx);
    if (strcmp(w, "select") == 0) {
        v.kind = EMV_SQL;
        v.sql = parse_sql(r, t, *idx);
        *idx = r->end;
    } else if (strchr(w, '"')) {
        v.kind = EMV_STR;
        v.str = w;
        (*idx)++;
    } else if (py_float(w, &v.num)) {
        v.kind = EMV_NUM;
        (*idx)++;
    } else {
        int end = *idx;
        while (end < t->n && !stops_value(t->v[end])) end++;
        /* the column is read from the words [start, end), a block's
        ** '(' included */
        Toks sub = {t->v + start, end - start};
        int k = 0;
        v.kind = EMV_COL;
        v.col = parse_col_unit(r, &sub, &k, def);
        *idx = end;
    }
    if (block) {
        expect(r, t, *idx, ")");
        (*idx)++;
    }
    return v;
}

/* A copy of the n elements of size sz at old, with room for one more
** (the lists here are short: a query's clauses). */
static void *grown(SqArena *a, const void *old, int n, size_t sz) {
    void *v = sq_arena_alloc(a, sz * (size_t)(n + 1));
    if (n) memcpy(v, old, sz * (size_t)n);
    return v;
}

static void conds_push(SqArena *a, EmConds *c, EmCond *unit, char conj) {
    EmElem *e = grown(a, c->e, c->n, sizeof *e);
    e[c->n++] = (EmElem){unit, conj};
    c->e = e;
}

/* Whether the word at idx ends a clause's list: a clause keyword, ")" or
** ";" (the script's test after each item). */
static int ends_list(const Toks *t, int idx) {
    const char *w = t->v[idx];
    return INDEX_IN(w, CLAUSE_KEYWORDS) >= 0 || !strcmp(w, ")") || !strcmp(w, ";");
}

static EmConds parse_condition(Reader *r, const Toks *t, int *idx, const Defaults *def) {
    EmConds c = {0};
    while (*idx < t->n) {
        EmCond *u = sq_arena_alloc(r->a, sizeof *u);
        u->vu = parse_val_unit(r, t, idx, def);
        if (tok_is(r, t, *idx, "not")) {
            u->not_op = EM_TRUE;
            (*idx)++;
        }
        int op = *idx < t->n ? INDEX_IN(t->v[*idx], WHERE_OPS) : -1;
        if (op < 0) fail_at(r, "a condition without an operator");
        u->op = op;
        (*idx)++;
        if (op == EM_OP_BETWEEN) {
            u->v1 = parse_value(r, t, idx, def);
            expect(r, t, *idx, "and");
            (*idx)++;
            u->v2 = parse_value(r, t, idx, def);
        } else {
            u->v1 = parse_value(r, t, idx, def);
        }
        conds_push(r->a, &c, u, 0);
        if (*idx < t->n && (ends_list(t, *idx) || INDEX_IN(t->v[*idx], JOIN_KEYWORDS) >= 0)) break;
        if (at(t, *idx, "and") || at(t, *idx, "or")) {
            conds_push(r->a, &c, NULL, t->v[*idx][0]);
            (*idx)++;
        }
    }
    return c;
}

static void parse_select(Reader *r, const Toks *t, int idx, const Defaults *def, EmSql *q) {
    expect(r, t, idx, "select");
    idx++;
    q->distinct = EM_FALSE;
    if (at(t, idx, "distinct")) {
        idx++;
        q->distinct = EM_TRUE;
    }
    while (idx < t->n && INDEX_IN(t->v[idx], CLAUSE_KEYWORDS) < 0) {
        int agg = INDEX_IN(t->v[idx], AGG_OPS);
        if (agg >= 0) idx++;
        EmVal *vu = parse_val_unit(r, t, &idx, def);
        q->sel = grown(r->a, q->sel, q->nsel, sizeof *q->sel);
        q->sel[q->nsel++] = (EmSelItem){agg < 0 ? EM_AGG_NONE : agg, vu};
        if (at(t, idx, ",")) idx++;
    }
}

static void defaults_push(Reader *r, Defaults *d, const char *name) {
    if (d->n == d->cap) {
        size_t c = (size_t)d->cap;
        d->name = sq_arena_grow(r->a, d->name, (size_t)d->n, &c, (size_t)d->n + 1, sizeof *d->name);
        d->cap = (int)c;
    }
    d->name[d->n++] = name;
}

static void from_push(Reader *r, EmSql *q, EmTableUnit u) {
    EmTableUnit *v = grown(r->a, q->from, q->nfrom, sizeof *v);
    v[q->nfrom++] = u;
    q->from = v;
}

static int parse_from(Reader *r, const Toks *t, int start, EmSql *q, Defaults *def) {
    int idx = start;
    while (idx < t->n && strcmp(t->v[idx], "from")) idx++;
    if (idx >= t->n) fail_at(r, "no FROM");
    idx++;
    while (idx < t->n) {
        int block = 0;
        if (tok_is(r, t, idx, "(")) {
            block = 1;
            idx++;
        }
        if (tok_is(r, t, idx, "select")) {
            EmSql *sub = parse_sql(r, t, idx);
            idx = r->end;
            from_push(r, q, (EmTableUnit){NULL, sub});
        } else {
            if (at(t, idx, "join")) idx++;
            const char *name;
            const char *id = parse_table_unit(r, t, &idx, &name);
            from_push(r, q, (EmTableUnit){id, NULL});
            defaults_push(r, def, name);
        }
        if (at(t, idx, "on")) {
            idx++;
            EmConds c = parse_condition(r, t, &idx, def);
            if (q->from_conds.n > 0) conds_push(r->a, &q->from_conds, NULL, 'a');
            for (int i = 0; i < c.n; i++) conds_push(r->a, &q->from_conds, c.e[i].unit, c.e[i].conj);
        }
        if (block) {
            expect(r, t, idx, ")");
            idx++;
        }
        if (idx < t->n && ends_list(t, idx)) break;
    }
    return idx;
}

static void parse_group_by(Reader *r, const Toks *t, int *idx, const Defaults *def, EmSql *q) {
    if (!at(t, *idx, "group")) return;
    (*idx)++;
    expect(r, t, *idx, "by");
    (*idx)++;
    while (*idx < t->n && !ends_list(t, *idx)) {
        EmCol *c = parse_col_unit(r, t, idx, def);
        EmCol **v = grown(r->a, q->group, q->ngroup, sizeof *v);
        v[q->ngroup++] = c;
        q->group = v;
        if (at(t, *idx, ",")) (*idx)++;
        else break;
    }
}

static void parse_order_by(Reader *r, const Toks *t, int *idx, const Defaults *def, EmSql *q) {
    if (!at(t, *idx, "order")) return;
    (*idx)++;
    expect(r, t, *idx, "by");
    (*idx)++;
    q->has_order = 1;
    while (*idx < t->n && !ends_list(t, *idx)) {
        EmVal *vu = parse_val_unit(r, t, idx, def);
        EmVal **v = grown(r->a, q->order, q->norder, sizeof *v);
        v[q->norder++] = vu;
        q->order = v;
        if (at(t, *idx, "desc") || at(t, *idx, "asc")) {
            q->order_desc = at(t, *idx, "desc");
            (*idx)++;
        }
        if (at(t, *idx, ",")) (*idx)++;
        else break;
    }
}

static int skip_semicolons(const Toks *t, int idx) {
    while (at(t, idx, ";")) idx++;
    return idx;
}

/* parse_sql() of the script; its end index in r->end. */
static EmSql *parse_sql(Reader *r, const Toks *t, int start) {
    EmSql *q = sq_arena_alloc(r->a, sizeof *q);
    int idx = start, block = 0;
    if (tok_is(r, t, idx, "(")) {
        block = 1;
        idx++;
    }
    Defaults def = {0};
    int from_end = parse_from(r, t, start, q, &def);
    parse_select(r, t, idx, &def, q);
    idx = from_end;
    if (at(t, idx, "where")) {
        idx++;
        q->where = parse_condition(r, t, &idx, &def);
    }
    parse_group_by(r, t, &idx, &def, q);
    if (at(t, idx, "having")) {
        idx++;
        q->having = parse_condition(r, t, &idx, &def);
    }
    parse_order_by(r, t, &idx, &def, q);
    if (at(t, idx, "limit")) {
        idx += 2;
        tok(r, t, idx - 1);
        q->limit = 1;
    }
    idx = skip_semicolons(t, idx);
    if (block) {
        expect(r, t, idx, ")");
        idx++;
    }
    idx = skip_semicolons(t, idx);
    int op = idx < t->n ? INDEX_IN(t->v[idx], SQL_OPS) : -1;
    if (op >= 0) {
        q->iue[op] = parse_sql(r, t, idx + 1);
        idx = r->end;
    }
    r->end = idx;
    return q;
}

EmSql *sq_em_parse(SqArena *a, const SqEmSchema *s, const char *text, const char **why) {
    /* in the arena, so that nothing the reader changes lives in a local
    ** of this frame across the longjmp */
    Reader *r = sq_arena_alloc(a, sizeof *r);
    Toks *t = sq_arena_alloc(a, sizeof *t);
    r->a = a;
    r->s = s;
    if (!tokenize(a, text, t)) {
        *why = "an odd number of quotes";
        return NULL;
    }
    if (setjmp(r->fail)) {
        *why = r->why;
        return NULL;
    }
    scan_aliases(r, t);
    return parse_sql(r, t, 0);
}
