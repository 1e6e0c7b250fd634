/*
** cases.c -- read a tests/equiv/NAME.cases file (see cases.h).
**
** Test support.  Lines before "-- schema:" are a header; the schema runs
** to the first "-- case:"; a case's directives come before its queries;
** other lines starting with "--" are comments, dropped also inside a
** query; a query ends with a line ending in ';'.
*/
#include "tests/soundness/cases.h"

#include <stdlib.h>
#include <string.h>

#include "runtime/strbuf.h"
#include "runtime/util.h"

/* A line without its leading and trailing blanks: [*s, *s + *n). */
static void trim(const char **s, size_t *n) {
    while (*n && (**s == ' ' || **s == '\t')) (*s)++, (*n)--;
    while (*n && ((*s)[*n - 1] == ' ' || (*s)[*n - 1] == '\t' || (*s)[*n - 1] == '\r')) (*n)--;
}

static int starts(const char *s, size_t n, const char *prefix) {
    size_t m = strlen(prefix);
    return n >= m && memcmp(s, prefix, m) == 0;
}

/* The value of a directive line "-- key: value", trimmed. */
static char *value(const char *s, size_t n, const char *key) {
    size_t m = strlen(key);
    const char *v = s + m;
    size_t vn = n - m;
    trim(&v, &vn);
    return sq_strndup(v, vn);
}

/* The parser's state between lines. */
typedef struct Reader {
    CaseFile *f;
    int state;     /* 0 header, 1 schema, 2 case */
    SqBuf schema;
    SqBuf q;       /* the query being read */
    int nq;        /* queries done in the current case */
    int in_query;
} Reader;

static EquivCase *current(Reader *r) { return &r->f->cases[r->f->n_cases - 1]; }

static void start_case(Reader *r, const char *name, size_t n) {
    r->f->cases = sq_realloc(r->f->cases, (r->f->n_cases + 1) * sizeof *r->f->cases);
    EquivCase *c = &r->f->cases[r->f->n_cases++];
    memset(c, 0, sizeof *c);
    c->name = sq_strndup(name, n);
    c->semantics = sq_strdup("set");
    c->expect = sq_strdup("");
    c->bound = 3;
    r->nq = 0;
    r->in_query = 0;
}

/* A directive of the current case: 1 when t was one. */
static int directive(Reader *r, const char *t, size_t n) {
    EquivCase *c = current(r);
    if (starts(t, n, "-- semantics:")) {
        free(c->semantics);
        c->semantics = value(t, n, "-- semantics:");
    } else if (starts(t, n, "-- expect:")) {
        free(c->expect);
        c->expect = value(t, n, "-- expect:");
    } else if (starts(t, n, "-- bound:")) {
        char *v = value(t, n, "-- bound:");
        c->bound = atoi(v);
        free(v);
    } else if (starts(t, n, "-- values:")) {
        char *v = value(t, n, "-- values:");
        c->typed = strcmp(v, "typed") == 0;
        free(v);
    } else if (starts(t, n, "-- proof:")) {
        char *v = value(t, n, "-- proof:");
        c->search_only = strcmp(v, "search-only") == 0;
        free(v);
    } else {
        return 0;
    }
    return 1;
}

/* One line of a case after its "-- case:" line. */
static void case_line(Reader *r, const char *line, size_t len, const char *t, size_t n) {
    if (!r->in_query && !r->nq && directive(r, t, n)) return;
    if (starts(t, n, "--")) return;
    if (n == 0 && !r->in_query) return;
    if (r->nq >= 2) return; /* a third query: test_equiv.sh reports it */
    sq_buf_put(&r->q, line, len);
    sq_buf_putc(&r->q, '\n');
    r->in_query = 1;
    if (n && t[n - 1] == ';') {
        current(r)->q[r->nq++] = sq_buf_detach(&r->q);
        r->in_query = 0;
    }
}

static void line(Reader *r, const char *s, size_t len) {
    const char *t = s;
    size_t n = len;
    trim(&t, &n);
    if (n == 10 && memcmp(t, "-- schema:", 10) == 0 && r->state == 0) {
        r->state = 1;
    } else if (starts(t, n, "-- case:") && r->state > 0) {
        const char *name = t + 8;
        size_t nn = n - 8;
        trim(&name, &nn);
        r->state = 2;
        start_case(r, name, nn);
    } else if (r->state == 1) {
        sq_buf_put(&r->schema, s, len);
        sq_buf_putc(&r->schema, '\n');
    } else if (r->state == 2) {
        case_line(r, s, len, t, n);
    }
}

static char *stem_of(const char *path) {
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    size_t n = strlen(b);
    if (n > 6 && strcmp(b + n - 6, ".cases") == 0) n -= 6;
    return sq_strndup(b, n);
}

int cases_read(const char *path, CaseFile *f, const char **why) {
    memset(f, 0, sizeof *f);
    size_t len;
    int err;
    char *text = sq_read_file(path, &len, &err);
    if (!text) {
        *why = "cannot be read";
        return -1;
    }
    Reader r = {f, 0, SQ_BUF_INIT, SQ_BUF_INIT, 0, 0};
    f->path = sq_strdup(path);
    f->stem = stem_of(path);
    for (char *p = text, *end = text + len; p < end;) {
        char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);
        line(&r, p, l);
        p = nl ? nl + 1 : end;
    }
    free(text);
    sq_buf_free(&r.q);
    f->schema = sq_buf_detach(&r.schema);
    *why = NULL;
    if (!f->schema || !*f->schema) *why = "no schema";
    for (size_t i = 0; i < f->n_cases && !*why; i++)
        if (!f->cases[i].q[1]) *why = "a case without two queries";
    if (*why) {
        cases_free(f);
        return -1;
    }
    return 0;
}

void cases_free(CaseFile *f) {
    for (size_t i = 0; i < f->n_cases; i++) {
        EquivCase *c = &f->cases[i];
        free(c->name);
        free(c->semantics);
        free(c->expect);
        free(c->q[0]);
        free(c->q[1]);
    }
    free(f->cases);
    free(f->schema);
    free(f->stem);
    free(f->path);
    memset(f, 0, sizeof *f);
}
