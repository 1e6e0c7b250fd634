/*
** lint_data.c -- the lint rules that need the database's rows (see
** lint_data.h).
**
** Layer: backend/lint.  Every query here is read-only (db.h refuses
** anything else) and runs under the caller's time limit.
*/
#include "backend/lint/lint_data.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/emit/emit.h"

enum {
    SAMPLE_VALUES = 200,     /* distinct values read for numeric-text-order */
    NEAREST_VALUES = 20000,  /* distinct values compared with a missing literal */
    NEAREST_SHOWN = 3,
    VALUE_SHOWN = 40,        /* bytes of a value quoted in a message */
};

typedef struct DataRun {
    SqLint *l;
    SqDb *db;
    SqExecLimits lim;
    SqBuf sql;
} DataRun;

/* Run the SQL in r->sql; 0 and *out filled, or -1. */
static int run(DataRun *r, SqResult *out, char **err) {
    SqExecStatus st = sq_db_query(r->db, sq_buf_str(&r->sql), &r->lim, out, err);
    if (st == SQ_EXEC_OK) return 0;
    return -1;
}

/* A value for a message: 'text' cut to VALUE_SHOWN bytes, or a number. */
static void put_value(SqBuf *b, const SqValue *v) {
    if (v->type == SQ_VAL_TEXT && v->n > VALUE_SHOWN) {
        SqValue cut = *v;
        cut.n = VALUE_SHOWN;
        while (cut.n > 0 && ((unsigned char)cut.s[cut.n] & 0xC0) == 0x80) cut.n--;
        SqBuf t = SQ_BUF_INIT;
        sq_buf_put(&t, cut.s, cut.n);
        cut.s = sq_buf_str(&t);
        sq_value_print(&cut, b);
        sq_buf_free(&t);
        sq_buf_puts(b, "...");
        return;
    }
    sq_value_print(v, b);
}

static const char *keep(DataRun *r, SqBuf *b) {
    const char *s = sq_arena_strdup(r->l->q->arena, sq_buf_str(b));
    sq_buf_free(b);
    return s;
}

/* ------------------------------------------------------------------ */
/* The statement itself                                                */
/* ------------------------------------------------------------------ */

/* Returns whether the statement ran. */
static int run_statement(DataRun *r, const char *sql, SrcSpan stmt) {
    SqResult res;
    sq_result_init(&res);
    char *err = NULL;
    SqExecLimits lim = r->lim;
    lim.max_rows = 1000; /* enough to see rows that are not all NULL */
    SqExecStatus st = sq_db_query(r->db, sql, &lim, &res, &err);
    int ran = st == SQ_EXEC_OK || st == SQ_EXEC_TOO_BIG;
    if (st == SQ_EXEC_ERROR || st == SQ_EXEC_DENIED)
        sq_lint_report(r->l, LR_GOLD_EXEC_ERROR, stmt, "SQLite fails to run the query on the "
                       "database: %s", err ? err : "unknown error");
    else if (st == SQ_EXEC_TIMEOUT)
        sq_lint_report(r->l, LR_GOLD_EXEC_ERROR, stmt, "the query did not finish within %g s on "
                       "the database", r->lim.timeout_sec);
    else if (st == SQ_EXEC_OK && res.n_rows == 0)
        sq_lint_report(r->l, LR_GOLD_EMPTY, stmt, "the query returns no rows on the database");
    else if (st == SQ_EXEC_OK && sq_result_all_null(&res))
        sq_lint_report(r->l, LR_GOLD_EMPTY, stmt, "the query returns only NULL on the database "
                       "(%llu row%s)", (unsigned long long)res.n_rows, res.n_rows == 1 ? "" : "s");
    free(err);
    sq_result_free(&res);
    return ran;
}

/* ------------------------------------------------------------------ */
/* literal-not-in-column                                               */
/* ------------------------------------------------------------------ */

static void from_column(DataRun *r, const SqLintProbe *p) {
    sq_buf_puts(&r->sql, " FROM ");
    ir_sql_ident(&r->sql, p->table->name);
}

static void put_column(DataRun *r, const SqLintProbe *p) {
    ir_sql_ident(&r->sql, p->table->cols[p->col].name);
}

/* SELECT DISTINCT c FROM t WHERE <c op literal> LIMIT n, as written by
** the caller's cond (which names the column and the literal). */
static int select_values(DataRun *r, const SqLintProbe *p, const char *cond, SqResult *out,
                         uint32_t limit) {
    sq_buf_reset(&r->sql);
    sq_buf_puts(&r->sql, "SELECT DISTINCT ");
    put_column(r, p);
    from_column(r, p);
    sq_buf_printf(&r->sql, " WHERE %s LIMIT %u", cond, limit);
    char *err = NULL;
    int rc = run(r, out, &err);
    free(err);
    return rc;
}

/* "c = 'lit'" (with the probe's collation), "c = 'lit' COLLATE NOCASE",
** "trim(c) = trim('lit')". */
static const char *condition(DataRun *r, const SqLintProbe *p, int how) {
    SqBuf b = SQ_BUF_INIT;
    if (how == 2) sq_buf_puts(&b, "trim(");
    ir_sql_ident(&b, p->table->cols[p->col].name);
    sq_buf_puts(&b, how == 2 ? ") = trim(" : " = ");
    ir_sql_string(&b, p->lit->u.lit.s, p->lit->u.lit.n);
    if (how == 2) sq_buf_putc(&b, ')');
    if (how == 1) sq_buf_puts(&b, " COLLATE NOCASE");
    else if (how == 0 && p->collation) {
        sq_buf_puts(&b, " COLLATE ");
        ir_sql_ident(&b, p->collation);
    }
    return keep(r, &b);
}

typedef struct Near {
    const SqValue *v;
    size_t d;
} Near;

static int by_distance(const void *a, const void *b) {
    const Near *x = a, *y = b;
    return (x->d > y->d) - (x->d < y->d);
}

/* The column's values nearest the literal, or a few of its values. */
static void nearest(DataRun *r, const SqLintProbe *p, SqBuf *msg) {
    SqResult all;
    sq_result_init(&all);
    SqBuf nn = SQ_BUF_INIT;
    ir_sql_ident(&nn, p->table->cols[p->col].name);
    sq_buf_puts(&nn, " IS NOT NULL");
    if (select_values(r, p, keep(r, &nn), &all, NEAREST_VALUES) < 0 || !all.n_rows) {
        sq_result_free(&all);
        return;
    }
    const char *lit = p->lit->u.lit.s;
    size_t n = p->lit->u.lit.n, cap = n <= 3 ? 1 : n / 3;
    Near *near = sq_malloc((all.n_rows + 1) * sizeof *near);
    uint32_t k = 0;
    for (uint64_t i = 0; i < all.n_rows; i++) {
        const SqValue *v = sq_result_cell(&all, i, 0);
        if (v->type != SQ_VAL_TEXT) continue;
        size_t d = sq_edit_distance(lit, n, v->s, v->n, cap);
        if (d <= cap) near[k++] = (Near){v, d};
    }
    qsort(near, k, sizeof *near, by_distance);
    if (k) {
        sq_buf_puts(msg, "; nearest: ");
        for (uint32_t i = 0; i < k && i < NEAREST_SHOWN; i++) {
            if (i) sq_buf_puts(msg, ", ");
            put_value(msg, near[i].v);
        }
    } else {
        sq_buf_printf(msg, "; it holds %llu%s distinct values, e.g. ",
                      (unsigned long long)all.n_rows, all.n_rows == NEAREST_VALUES ? "+" : "");
        uint32_t shown = 0;
        for (uint64_t i = 0; i < all.n_rows && shown < NEAREST_SHOWN; i++) {
            const SqValue *v = sq_result_cell(&all, i, 0);
            if (v->type == SQ_VAL_NULL) continue;
            if (shown++) sq_buf_puts(msg, ", ");
            put_value(msg, v);
        }
    }
    free(near);
    sq_result_free(&all);
}

static void literal_probe(DataRun *r, const SqLintProbe *p) {
    SqResult res;
    sq_result_init(&res);
    int rc = select_values(r, p, condition(r, p, 0), &res, 1);
    uint64_t found = res.n_rows;
    sq_result_free(&res);
    if (rc < 0 || found) return;
    if (select_values(r, p, "1", &res, 1) < 0 || !res.n_rows) { /* an empty table: nothing to say */
        sq_result_free(&res);
        return;
    }
    sq_result_free(&res);
    SqBuf msg = SQ_BUF_INIT;
    SqValue lit = {SQ_VAL_TEXT, 0, 0.0, p->lit->u.lit.s, p->lit->u.lit.n};
    put_value(&msg, &lit);
    sq_buf_printf(&msg, " never occurs in %s.%s (%s)", p->table->name, p->table->cols[p->col].name,
                  p->what);
    const char *how_said[] = {NULL, "in another case", "with blanks around it"};
    int said = 0;
    for (int how = 1; how <= 2 && !said; how++) {
        if (select_values(r, p, condition(r, p, how), &res, NEAREST_SHOWN) == 0 && res.n_rows) {
            sq_buf_printf(&msg, "; it occurs %s: ", how_said[how]);
            for (uint64_t i = 0; i < res.n_rows; i++) {
                if (i) sq_buf_puts(&msg, ", ");
                put_value(&msg, sq_result_cell(&res, i, 0));
            }
            said = 1;
        }
        sq_result_free(&res);
    }
    if (!said) nearest(r, p, &msg);
    sq_lint_report(r->l, LR_LITERAL_NOT_IN_COLUMN, p->at, "%s", sq_buf_str(&msg));
    sq_buf_free(&msg);
}

/* ------------------------------------------------------------------ */
/* numeric-text-order                                                  */
/* ------------------------------------------------------------------ */

/* A sample of a TEXT column's distinct values: how many look numeric and
** two numbers that text order puts the wrong way round. */
typedef struct NumSample {
    uint32_t text, numeric;
    int digits;                 /* the first number's integer digits */
    const SqValue *first, *other; /* a number, and one of other digits (or NULL) */
} NumSample;

static void sample_numbers(const SqResult *res, int against, NumSample *ns) {
    memset(ns, 0, sizeof *ns);
    ns->digits = against;
    for (uint64_t i = 0; i < res->n_rows; i++) {
        const SqValue *v = sq_result_cell(res, i, 0);
        if (v->type != SQ_VAL_TEXT) continue;
        ns->text++;
        if (!sq_text_is_number(v->s, v->n)) continue;
        ns->numeric++;
        int d = sq_text_integer_digits(v->s, v->n);
        if (!ns->first) {
            ns->first = v;
            if (ns->digits == -2) ns->digits = d;
        }
        if (!ns->other && (d != ns->digits || d < 0)) ns->other = v;
    }
}

static void numeric_text_probe(DataRun *r, const SqLintProbe *p) {
    if (!sq_lint_enabled(r->l, (SqLintRuleId)p->rule)) return;
    SqResult res;
    sq_result_init(&res);
    if (select_values(r, p, "1", &res, SAMPLE_VALUES) < 0) return;
    int against = -2; /* no number to compare with: the first value's digits */
    if (p->lit && p->lit->u.lit.vtype == SQ_VAL_INTEGER)
        against = p->lit->u.lit.i < 0 ? -1 : (int)snprintf(NULL, 0, "%lld", (long long)p->lit->u.lit.i);
    else if (p->lit && p->lit->u.lit.text)
        against = sq_text_integer_digits(p->lit->u.lit.text, (uint32_t)strlen(p->lit->u.lit.text));
    NumSample ns;
    sample_numbers(&res, against, &ns);
    SqBuf vals = SQ_BUF_INIT;
    if (ns.first && ns.other) {
        put_value(&vals, ns.first);
        sq_buf_puts(&vals, ", ");
        put_value(&vals, ns.other);
    }
    if (p->rule == LR_AFFINITY_MISMATCH && ns.other) {
        sq_buf_reset(&vals);
        put_value(&vals, ns.other);
        sq_lint_report(r->l, LR_AFFINITY_MISMATCH, p->at, "%s; the column holds numbers of "
                       "another length (e.g. %s)", p->msg, sq_buf_str(&vals));
    } else if (p->rule == LR_NUMERIC_TEXT_ORDER && ns.other && ns.numeric >= 2 &&
               ns.numeric * 10 >= ns.text * 9) {
        sq_lint_report(r->l, LR_NUMERIC_TEXT_ORDER, p->at,
                       "%s orders or compares %s.%s as text, but its values are numbers of "
                       "different lengths (%u of %u sampled, e.g. %s): as text '10' < '9'",
                       p->what, p->table->name, p->table->cols[p->col].name, ns.numeric, ns.text,
                       sq_buf_str(&vals));
    }
    sq_buf_free(&vals);
    sq_result_free(&res);
}

/* ------------------------------------------------------------------ */
/* ORDER BY ... LIMIT: ties and NULL keys                              */
/* ------------------------------------------------------------------ */

/* The statement with every ORDER BY term a result column (hidden ones
** shown) and LIMIT offset+k+1 from row 0; NULL when that would change its
** rows (hidden terms under DISTINCT). */
static int order_limit_sql(DataRun *r, const SqLintProbe *p) {
    const IrCore *c = &p->core;
    IrRel *proj = c->project;
    int hidden = 0;
    for (uint32_t i = 0; i < proj->cols.n; i++) hidden |= proj->cols.items[i].hidden;
    if (hidden && c->distinct) return -1;
    uint8_t *was = sq_arena_alloc(r->l->q->arena, proj->cols.n + 1);
    for (uint32_t i = 0; i < proj->cols.n; i++) {
        was[i] = proj->cols.items[i].hidden;
        proj->cols.items[i].hidden = 0;
    }
    SqExpr *count = c->limit->u.limit.count, *offset = c->limit->u.limit.offset;
    c->limit->u.limit.count = sq_expr_int(r->l->q->arena, count->span, count->type, p->offset + p->limit + 1);
    c->limit->u.limit.offset = NULL;
    sq_buf_reset(&r->sql);
    sq_emit_sqlite(r->l->q, &r->sql);
    c->limit->u.limit.count = count;
    c->limit->u.limit.offset = offset;
    for (uint32_t i = 0; i < proj->cols.n; i++) proj->cols.items[i].hidden = was[i];
    return 0;
}

static int keys_equal(const SqResult *res, const IrCore *c, uint64_t a, uint64_t b) {
    for (uint32_t i = 0; i < c->sort->u.sort.n_keys; i++) {
        uint32_t col = c->sort->u.sort.keys[i].expr->u.col.col;
        if (col >= res->n_cols || !sq_value_equal(sq_result_cell(res, a, col), sq_result_cell(res, b, col)))
            return 0;
    }
    return 1;
}

static void put_keys(SqBuf *b, const SqResult *res, const IrCore *c, uint64_t row) {
    for (uint32_t i = 0; i < c->sort->u.sort.n_keys; i++) {
        uint32_t col = c->sort->u.sort.keys[i].expr->u.col.col;
        if (i) sq_buf_puts(b, ", ");
        if (col < res->n_cols) put_value(b, sq_result_cell(res, row, col));
    }
}

static void report_tie(DataRun *r, const SqLintProbe *p, const SqResult *res, uint64_t row) {
    SqBuf b = SQ_BUF_INIT;
    put_keys(&b, res, &p->core, row);
    sq_lint_report(r->l, LR_ORDER_LIMIT_TIES, p->at,
                   "ORDER BY %s ... LIMIT %lld ties on the database: rows %llu and %llu both "
                   "have %s, and LIMIT keeps one of them arbitrarily",
                   p->keys, (long long)p->limit, (unsigned long long)row + 1,
                   (unsigned long long)row + 2, sq_buf_str(&b));
    sq_buf_free(&b);
}

static void null_keys(DataRun *r, const SqLintProbe *p, const SqResult *res) {
    const SqSortKey *k0 = &p->core.sort->u.sort.keys[0];
    if (k0->desc || k0->nulls != AST_NULLS_DEFAULT) return;
    uint32_t col = k0->expr->u.col.col;
    uint64_t end = (uint64_t)(p->offset + p->limit);
    for (uint64_t i = (uint64_t)p->offset; i < res->n_rows && i < end; i++)
        if (col < res->n_cols && sq_result_cell(res, i, col)->type == SQ_VAL_NULL) {
            sq_lint_report(r->l, LR_ORDER_KEY_NULLS, p->at,
                           "row %llu that LIMIT keeps has a NULL ORDER BY key (%s): NULLs sort "
                           "first in ascending order",
                           (unsigned long long)i + 1, p->keys);
            return;
        }
}

static void order_limit_probe(DataRun *r, const SqLintProbe *p, int stmt_ran) {
    SqResult res;
    sq_result_init(&res);
    char *err = NULL;
    if (!stmt_ran || order_limit_sql(r, p) < 0 || run(r, &res, &err) < 0) {
        free(err);
        if (p->ties_possible) /* no data answer: the schema's */
            sq_lint_report(r->l, LR_ORDER_LIMIT_TIES, p->at,
                           "ORDER BY %s ... LIMIT %lld can tie: several rows can share %s, and "
                           "which of them LIMIT keeps is arbitrary",
                           p->keys, (long long)p->limit, p->keys);
        return;
    }
    if (p->ties_possible) {
        uint64_t o = (uint64_t)p->offset, last = o + (uint64_t)p->limit;
        if (o > 0 && o < res.n_rows && keys_equal(&res, &p->core, o - 1, o)) report_tie(r, p, &res, o - 1);
        else if (last < res.n_rows && keys_equal(&res, &p->core, last - 1, last))
            report_tie(r, p, &res, last - 1);
    }
    null_keys(r, p, &res);
    sq_result_free(&res);
}

void sq_lint_data(SqLint *l, SqDb *db, const char *sql, SrcSpan stmt,
                  const SqLintDataOptions *opt) {
    DataRun r;
    memset(&r, 0, sizeof r);
    r.l = l;
    r.db = db;
    r.lim.timeout_sec = opt ? opt->timeout_sec : 0;
    r.lim.max_rows = NEAREST_VALUES + 1;
    r.lim.max_bytes = 64u << 20;
    int ran = (sq_lint_enabled(l, LR_GOLD_EMPTY) || sq_lint_enabled(l, LR_GOLD_EXEC_ERROR) ||
               l->n_probes)
                  ? run_statement(&r, sql, stmt)
                  : 1;
    for (uint32_t i = 0; i < l->n_probes; i++) {
        const SqLintProbe *p = &l->probes[i];
        switch ((SqLintProbeKind)p->kind) {
        case SQ_PROBE_LITERAL:
            if (sq_lint_enabled(l, LR_LITERAL_NOT_IN_COLUMN)) literal_probe(&r, p);
            break;
        case SQ_PROBE_NUMERIC_TEXT: numeric_text_probe(&r, p); break;
        case SQ_PROBE_ORDER_LIMIT: order_limit_probe(&r, p, ran); break;
        }
    }
    sq_buf_free(&r.sql);
}
