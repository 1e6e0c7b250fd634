/*
** metric.c -- EX-test as the official scripts compute it (metric.h).
**
** Sections: the text the scripts run (Spider's rewriting); running and
** comparing; names.
*/
#include "backend/eval/metric.h"
#include "backend/eval/plug.h"
#include "backend/eval/softf1.h"

#include <stdlib.h>
#include <string.h>

#include "runtime/strbuf.h"
#include "runtime/util.h"

/* ------------------------------------------------------------------ */
/* The text the scripts run                                            */
/* ------------------------------------------------------------------ */

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

/* A character of a word token as sqlparse reads one ([_$#\w]; bytes of
** UTF-8 sequences count as letters). */
static int is_word(char c) {
    unsigned char u = (unsigned char)c;
    return (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') || u == '_' || u == '$' ||
           u == '#' || u >= 0x80;
}

/* Python's str.strip() on ASCII blanks. */
static void strip(const char **s, size_t *n) {
    while (*n && is_space(**s)) (*s)++, (*n)--;
    while (*n && is_space((*s)[*n - 1])) (*n)--;
}

/* The length of a match at s[i] (s has n bytes), or 0; arg is the
** matcher's own. */
typedef size_t (*MatchFn)(const char *s, size_t n, size_t i, const char *arg);

/* Every match in b, left to right and without overlaps, replaced by to
** (Python's str.replace and re.sub). */
static void substitute(SqBuf *b, MatchFn match, const char *arg, const char *to) {
    SqBuf out = SQ_BUF_INIT;
    for (size_t i = 0; i < b->len;) {
        size_t m = match(b->data, b->len, i, arg);
        if (m) {
            sq_buf_puts(&out, to);
            i += m;
        } else {
            sq_buf_putc(&out, b->data[i++]);
        }
    }
    sq_buf_free(b);
    *b = out;
}

/* The literal text lit at s[i]. */
static size_t literal_at(const char *s, size_t n, size_t i, const char *lit) {
    size_t m = strlen(lit);
    return i + m <= n && memcmp(s + i, lit, m) == 0 ? m : 0;
}

/* The end of the quoted token that starts at s[i] (a quote q), as
** sqlparse's patterns read it: a doubled quote or, in '' and "", a
** backslash escape stays inside.  Unterminated: the end of the text. */
static size_t quoted_end(const char *s, size_t n, size_t i, char q) {
    for (size_t k = i + 1; k < n; k++) {
        if (q != '`' && s[k] == '\\' && k + 1 < n) k++;
        else if (s[k] == q && k + 1 < n && s[k + 1] == q) k++;
        else if (s[k] == q) return k + 1;
    }
    return n;
}

/* The end of the comment starting at s[i], or i when none starts there
** ("--" and "# " to the end of the line, slash-star to star-slash). */
static size_t comment_end(const char *s, size_t n, size_t i) {
    if ((s[i] == '-' && i + 1 < n && s[i + 1] == '-') || (s[i] == '#' && i + 1 < n && s[i + 1] == ' ')) {
        while (i < n && s[i] != '\n' && s[i] != '\r') i++;
        return i;
    }
    if (s[i] == '/' && i + 1 < n && s[i + 1] == '*') {
        const char *e = NULL;
        for (size_t k = i + 2; k + 1 < n && !e; k++)
            if (s[k] == '*' && s[k + 1] == '/') e = s + k + 2;
        return e ? (size_t)(e - s) : i; /* unclosed: not a comment token */
    }
    return i;
}

/* The test suite's remove_distinct(): the text with every token whose
** lowered value is "distinct" left out (a word, not inside a string, a
** quoted name or a comment), everything else kept as it was. */
static void remove_distinct(SqBuf *b) {
    SqBuf out = SQ_BUF_INIT;
    const char *s = b->data;
    size_t n = b->len;
    for (size_t i = 0; i < n;) {
        size_t e = comment_end(s, n, i);
        if (e == i && (s[i] == '\'' || s[i] == '"' || s[i] == '`')) e = quoted_end(s, n, i, s[i]);
        else if (e == i && s[i] == '[' && (i == 0 || !(is_word(s[i - 1]) || s[i - 1] == ']' || s[i - 1] == ')'))) {
            const char *close = memchr(s + i + 1, ']', n - i - 1);
            if (close) e = (size_t)(close - s) + 1;
        }
        if (e == i && is_word(s[i])) {
            while (e < n && is_word(s[e])) e++;
            if (e - i == 8 && sq_strnicmp(s + i, "distinct", 8) == 0) {
                i = e;
                continue;
            }
        }
        if (e == i) e = i + 1;
        sq_buf_put(&out, s + i, e - i);
        i = e;
    }
    sq_buf_free(b);
    *b = out;
}

/* Skip \s* (Python's, for ASCII). */
static size_t skip_ws(const char *s, size_t n, size_t i) {
    while (i < n && is_space(s[i])) i++;
    return i;
}

/* Length of a match of YEAR\s*\(\s*CURDATE\s*\(\s*\)\s*\)\s* at s[i]
** (any case), or 0. */
static size_t cur_year_at(const char *s, size_t n, size_t i, const char *unused) {
    static const char *const parts[] = {"year", "(", "curdate", "(", ")", ")"};
    size_t k = i;
    (void)unused;
    for (size_t p = 0; p < SQ_ARRAY_LEN(parts); p++) {
        size_t m = strlen(parts[p]);
        if (k + m > n || sq_strnicmp(s + k, parts[p], m) != 0) return 0;
        k = skip_ws(s, n, k + m);
    }
    return k - i;
}

char *sq_metric_sql(SqMetric m, int keep_distinct, int is_pred, const char *sql) {
    size_t n = strlen(sql);
    strip(&sql, &n);
    SqBuf b = SQ_BUF_INIT;
    sq_buf_put(&b, sql, n);
    if (m == SQ_METRIC_SPIDER) {
        if (is_pred) substitute(&b, literal_at, "value", "1");
        substitute(&b, literal_at, "> =", ">=");
        substitute(&b, literal_at, "< =", "<=");
        substitute(&b, literal_at, "! =", "!=");
        if (!keep_distinct) remove_distinct(&b);
    }
    return sq_buf_detach(&b);
}

/* "order by" in the lowered text (Python's 'order by' in g_str.lower()). */
static int has_order_by(const char *s) {
    for (; *s; s++)
        if (sq_strnicmp(s, "order by", 8) == 0) return 1;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Running and comparing                                               */
/* ------------------------------------------------------------------ */

/* The text one query runs as: the metric's, plus Spider's
** replace_cur_year (done at execution, after order_matters was read). */
static char *run_text(const SqExOptions *o, const char *prepared) {
    if (o->metric != SQ_METRIC_SPIDER) return sq_strdup(prepared);
    SqBuf b = SQ_BUF_INIT;
    sq_buf_puts(&b, prepared);
    substitute(&b, cur_year_at, NULL, "2020");
    return sq_buf_detach(&b);
}

static SqExecStatus run(SqDb *db, const SqExOptions *o, const char *prepared, uint64_t max_rows, SqResult *out,
                        char **err) {
    SqExecLimits lim = {o->timeout, max_rows, o->max_bytes, 0, 1};
    char *text = run_text(o, prepared);
    SqExecStatus st = sq_db_query(db, text, &lim, out, err);
    free(text);
    return st;
}

double sq_ex_time(SqDb *db, const char *sql, int is_pred, const SqExOptions *o) {
    char *text = sq_metric_sql(o->metric, o->keep_distinct, is_pred, sql), *err = NULL;
    SqResult rows;
    sq_result_init(&rows);
    double t0 = sq_monotonic_seconds();
    SqExecStatus st = run(db, o, text, o->max_rows, &rows, &err);
    double t = sq_monotonic_seconds() - t0;
    sq_result_free(&rows);
    free(text);
    free(err);
    return st == SQ_EXEC_OK ? t : -1;
}

void sq_ex_gold(SqDb *db, const char *gold_sql, const SqExOptions *o, SqExGold *g) {
    memset(g, 0, sizeof *g);
    sq_result_init(&g->rows);
    g->sql = sq_metric_sql(o->metric, o->keep_distinct, 0, gold_sql);
    g->order_matters = o->metric == SQ_METRIC_SPIDER && has_order_by(g->sql);
    if (!db) {
        g->status = SQ_EXEC_ERROR;
        g->err = sq_strdup("no database");
        return;
    }
    g->status = run(db, o, g->sql, o->metric == SQ_METRIC_BIRD ? o->max_rows : 0, &g->rows, &g->err);
    if (g->status == SQ_EXEC_OK && o->metric == SQ_METRIC_BIRD && sq_result_has_invalid_text(&g->rows)) {
        g->status = SQ_EXEC_ERROR;
        g->err = sq_strdup("the gold result holds text that is not valid UTF-8");
    }
}

void sq_ex_gold_free(SqExGold *g) {
    free(g->sql);
    free(g->err);
    sq_result_free(&g->rows);
    memset(g, 0, sizeof *g);
}

static SqExOutcome outcome_of(SqExecStatus st) {
    switch (st) {
    case SQ_EXEC_OK: return SQ_EX_CORRECT;
    case SQ_EXEC_ERROR: return SQ_EX_ERROR;
    case SQ_EXEC_TIMEOUT: return SQ_EX_TIMEOUT;
    case SQ_EXEC_TOO_BIG: return SQ_EX_TOO_BIG;
    default: return SQ_EX_DENIED;
    }
}

static void set_detail(char **detail, char *msg) {
    if (detail) *detail = msg;
    else free(msg);
}

SqExOutcome sq_ex_pred(SqDb *db, const SqExGold *g, const char *pred_sql, const SqExOptions *o,
                       char **detail) {
    double unused;
    return sq_ex_pred_f1(db, g, pred_sql, o, detail, &unused);
}

/* The metric on sql, the prediction's text as the metric runs it. */
static SqExOutcome judge(SqDb *db, const SqExGold *g, const char *sql, const SqExOptions *o, char **detail,
                         double *soft_f1) {
    int spider = o->metric == SQ_METRIC_SPIDER;
    /* spider: one row past the gold's decides (equal row counts are needed) */
    uint64_t max_rows = spider ? g->rows.n_rows + 1 : o->max_rows;
    char *err = NULL;
    SqResult rows;
    sq_result_init(&rows);
    SqExecStatus st = run(db, o, sql, max_rows, &rows, &err);
    SqExOutcome out = outcome_of(st);
    if (spider && st == SQ_EXEC_TOO_BIG && err && strstr(err, " rows")) {
        free(err);
        err = sq_strdup("more rows than the gold result");
        out = SQ_EX_WRONG;
    } else if (st == SQ_EXEC_OK && !spider && sq_result_has_invalid_text(&rows)) {
        err = sq_strdup("the result holds text that is not valid UTF-8");
        out = SQ_EX_ERROR;
    } else if (st == SQ_EXEC_OK) {
        if (!spider) *soft_f1 = sq_soft_f1(&rows, &g->rows);
        SqCompareMode mode = spider ? SQ_CMP_SPIDER : SQ_CMP_SET;
        if (!sq_result_equal(&g->rows, &rows, mode, g->order_matters)) {
            SqBuf why = SQ_BUF_INIT;
            sq_result_diff(&g->rows, &rows, mode, g->order_matters, &why);
            if (!why.len) sq_buf_puts(&why, "the results differ");
            err = sq_buf_detach(&why);
            out = SQ_EX_WRONG;
        }
    }
    sq_result_free(&rows);
    set_detail(detail, err);
    return out;
}

/* --plug-value: the prediction rewritten with the gold's values in its
** slots (plug.h), each way in turn until one is correct. */
static SqExOutcome judge_plugged(SqDb *db, const SqExGold *g, const char *sql, const SqExOptions *o,
                                 char **detail) {
    SqPlug *p = sq_plug_new(g->sql, sql);
    const char *alt;
    SqExOutcome out = SQ_EX_WRONG;
    double unused;
    while ((alt = sq_plug_next(p)) != NULL) {
        if (judge(db, g, alt, o, NULL, &unused) == SQ_EX_CORRECT) {
            out = SQ_EX_CORRECT;
            SqBuf why = SQ_BUF_INIT;
            sq_buf_printf(&why, "correct with the gold's values plugged in: %s", alt);
            set_detail(detail, sq_buf_detach(&why));
            break;
        }
    }
    sq_plug_free(p);
    return out;
}

SqExOutcome sq_ex_pred_f1(SqDb *db, const SqExGold *g, const char *pred_sql, const SqExOptions *o,
                          char **detail, double *soft_f1) {
    *soft_f1 = o->metric == SQ_METRIC_BIRD ? 0 : -1;
    if (detail) *detail = NULL;
    if (!db) {
        set_detail(detail, sq_strdup("no database: EX-test needs one"));
        return SQ_EX_NO_DB;
    }
    if (g->status != SQ_EXEC_OK) {
        set_detail(detail, sq_strdup(g->err ? g->err : "the gold query failed"));
        return SQ_EX_GOLD_FAILED;
    }
    char *sql = sq_metric_sql(o->metric, o->keep_distinct, 1, pred_sql);
    SqExOutcome out = judge(db, g, sql, o, detail, soft_f1);
    if (out != SQ_EX_CORRECT && o->plug_value && o->metric == SQ_METRIC_SPIDER) {
        char *plugged = NULL;
        if (judge_plugged(db, g, sql, o, &plugged) == SQ_EX_CORRECT) {
            out = SQ_EX_CORRECT;
            if (detail) {
                free(*detail);
                *detail = plugged;
                plugged = NULL;
            }
        }
        free(plugged);
    }
    free(sql);
    return out;
}

/* ------------------------------------------------------------------ */
/* Names                                                               */
/* ------------------------------------------------------------------ */

static const char *const outcome_names[SQ_EX_N_OUTCOMES] = {
    "correct", "wrong", "error", "timeout", "too-big", "denied", "gold-failed", "no-db", "failed",
};

const char *sq_ex_outcome_name(SqExOutcome o) {
    return (unsigned)o < SQ_EX_N_OUTCOMES ? outcome_names[o] : "?";
}

int sq_ex_outcome_parse(const char *name) {
    for (int k = 0; k < SQ_EX_N_OUTCOMES; k++)
        if (strcmp(outcome_names[k], name) == 0) return k;
    return -1;
}

const char *sq_metric_name(SqMetric m) { return m == SQ_METRIC_BIRD ? "bird" : "spider"; }
