/*
** lint_shape.c -- rules about the shape of a query block.
**
** Layer: passes.
**
**   limit-without-order  LIMIT with no ORDER BY over more than one row,
**                        where the rows kept matter (not under EXISTS)
**   order-limit-ties     ORDER BY ... LIMIT whose keys do not tell the
**                        rows apart (lint_keys.c): schema-level; with a
**                        database the statement's own ORDER BY ... LIMIT
**                        becomes a probe, reported only when rows k and
**                        k+1 really tie (and checked for NULL keys)
**   bare-column-in-aggregate  a bare column in an aggregate query that no
**                        min() or max() picks a row for and that the
**                        GROUP BY keys do not fix
**   redundant-distinct   DISTINCT over rows already distinct, or where
**                        copies make no difference (EXISTS, IN, UNION)
**   limit-not-positive   LIMIT 0 (no rows) or a negative LIMIT (no limit),
**                        on a query block or a compound SELECT
*/
#include <string.h>

#include "passes/lint/lint_int.h"

static SrcSpan span_between(SrcSpan a, SrcSpan b) {
    SrcSpan s = a;
    if (b.file == a.file && b.end > a.start) s.end = b.end;
    return s;
}

/* The count of a LIMIT written as an integer literal, or as a minus and
** one (-1 is parsed that way); 0 for any other count. */
static int limit_count(const IrRel *limit, int64_t *k) {
    const SqExpr *e = lint_strip(limit->u.limit.count);
    int minus = e && e->kind == SQX_UNARY && e->op == AST_OP_NEG;
    if (minus) e = lint_strip(e->u.bin.l);
    if (!lint_is_literal(e, SQ_VAL_INTEGER)) return 0;
    *k = minus ? -e->u.lit.i : e->u.lit.i;
    return 1;
}

static int64_t limit_offset(const IrRel *limit) {
    const SqExpr *e = limit->u.limit.offset ? lint_strip(limit->u.limit.offset) : NULL;
    return lint_is_literal(e, SQ_VAL_INTEGER) && e->u.lit.i > 0 ? e->u.lit.i : 0;
}

/* The expression behind result column ref (a reference to a PROJECT
** output), or NULL. */
static SqExpr *result_expr(const IrCore *c, const SqExpr *ref) {
    if (!c->project || ref->kind != SQX_COLUMN || ref->u.col.rel != c->project->id ||
        ref->u.col.col >= c->project->u.project.exprs.n)
        return NULL;
    return c->project->u.project.exprs.items[ref->u.col.col];
}

/* Whether rows of the core agree on exprs (over its output) only when
** they are the same row.  exprs are result-level: for an aggregate they
** name its outputs. */
static int rows_unique_by(const LintCore *k, SqExpr **exprs, uint32_t n) {
    const IrCore *c = k->c;
    if (c->agg && c->agg->u.agg.n_keys == 0) return 1; /* one row */
    if (!c->agg) return lint_unique_by(k, exprs, n);
    /* groups: unique when every GROUP BY key is among exprs, or the keys
    ** among exprs fix every FROM row (and so every key) */
    const IrRel *agg = c->agg;
    uint32_t n_keys = agg->u.agg.n_keys, n_named = 0;
    SqExpr **keys = sq_arena_alloc(k->l->q->arena, (n_keys + 1) * sizeof *keys);
    for (uint32_t key = 0; key < agg->u.agg.n_items; key++) {
        if (agg->u.agg.items[key].kind != SQ_AGG_KEY) continue;
        int named = 0;
        for (uint32_t i = 0; i < n && !named; i++) named = lint_key_ref(agg, exprs[i]) == (int)key;
        if (named) keys[n_named++] = agg->u.agg.items[key].expr;
    }
    return n_named == n_keys || lint_unique_by(k, keys, n_named);
}

/* ------------------------------------------------------------------ */
/* LIMIT                                                               */
/* ------------------------------------------------------------------ */

static void limit_without_order(LintCore *k) {
    const IrCore *c = k->c;
    int64_t n;
    if (!c->limit || c->sort || k->site->use == IR_USE_EXISTS) return;
    if (!limit_count(c->limit, &n) || n <= 0) return;
    if (c->agg && c->agg->u.agg.n_keys == 0) return; /* one row */
    if (lint_unique_by(k, NULL, 0)) return;           /* constants fix every row: one at most */
    sq_lint_report(k->l, LR_LIMIT_WITHOUT_ORDER, c->limit->span,
                   "LIMIT %s without ORDER BY keeps %s: SQLite returns rows in no defined order",
                   sq_lint_text(k->l, c->limit->span), n == 1 ? "an arbitrary row"
                                                              : "arbitrary rows");
}

/* A literal LIMIT of 0 or below: none of what a LIMIT is written for. */
static void limit_not_positive(SqLint *l, const IrRel *limit) {
    int64_t n;
    if (!limit || !limit_count(limit, &n) || n > 0) return;
    const char *text = sq_lint_text(l, limit->span);
    if (n == 0)
        sq_lint_report(l, LR_LIMIT_NOT_POSITIVE, limit->span, "LIMIT %s returns no rows", text);
    else
        sq_lint_report(l, LR_LIMIT_NOT_POSITIVE, limit->span,
                       "LIMIT %s is no limit: SQLite returns every row when LIMIT is negative", text);
}

void lint_compound(SqLint *l, IrRel *top, const IrCoreSite *site) {
    int64_t n;
    if (top->kind == IR_LIMIT) limit_not_positive(l, top);
    if (top->kind != IR_LIMIT || !top->input || top->input->kind != IR_SETOP ||
        site->use == IR_USE_EXISTS)
        return;
    if (!limit_count(top, &n) || n <= 0) return;
    sq_lint_report(l, LR_LIMIT_WITHOUT_ORDER, top->span,
                   "LIMIT %s on a compound SELECT without ORDER BY keeps arbitrary rows",
                   sq_lint_text(l, top->span));
}

static const char *keys_text(LintCore *k, SqExpr **keys, uint32_t n) {
    SqBuf b = SQ_BUF_INIT;
    for (uint32_t i = 0; i < n; i++)
        sq_buf_printf(&b, "%s%s", i ? ", " : "", sq_lint_text(k->l, keys[i]->span));
    const char *s = sq_arena_strdup(k->l->q->arena, sq_buf_str(&b));
    sq_buf_free(&b);
    return s;
}

static void order_limit_ties(LintCore *k) {
    const IrCore *c = k->c;
    int64_t n;
    if (!c->sort || !c->limit || k->site->use == IR_USE_EXISTS) return;
    if (!limit_count(c->limit, &n) || n <= 0) return;
    uint32_t nk = c->sort->u.sort.n_keys;
    SqExpr **keys = sq_arena_alloc(k->l->q->arena, (nk + 1) * sizeof *keys);
    uint32_t got = 0;
    for (uint32_t i = 0; i < nk; i++) {
        SqExpr *x = result_expr(c, c->sort->u.sort.keys[i].expr);
        if (x) keys[got++] = x;
    }
    if (!got) return;
    int unique = rows_unique_by(k, keys, got);
    if (!unique && c->distinct) { /* DISTINCT rows: unique when the keys are every column */
        uint32_t visible = 0;
        for (uint32_t i = 0; i < c->project->cols.n; i++) visible += !c->project->cols.items[i].hidden;
        unique = got >= visible && nk >= visible;
    }
    SrcSpan at = span_between(c->sort->u.sort.keys[0].expr->span, c->limit->span);
    const char *what = keys_text(k, keys, got);
    if (k->l->with_data && k->site->use == IR_USE_ROOT && !k->site->in_compound) {
        SqLintProbe *p = sq_lint_probe(k->l, SQ_PROBE_ORDER_LIMIT, at);
        p->ties_possible = (uint8_t)!unique;
        p->top = k->top;
        p->core = *c;
        p->limit = n;
        p->offset = limit_offset(c->limit);
        p->keys = what;
        p->what = sq_lint_text(k->l, at);
        return;
    }
    if (unique) return;
    sq_lint_report(k->l, LR_ORDER_LIMIT_TIES, at,
                   "ORDER BY %s ... LIMIT %lld can tie: several %s can share %s, and which of "
                   "them LIMIT keeps is arbitrary",
                   what, (long long)n, c->agg ? "groups" : "rows", what);
}

/* ------------------------------------------------------------------ */
/* Bare columns and DISTINCT                                           */
/* ------------------------------------------------------------------ */

/* Whether every item e reads is fixed. */
static int reads_only_fixed(const LintCore *k, SqExpr *e, const uint8_t *fixed) {
    for (uint32_t i = 0; i < k->n_items; i++)
        if (!fixed[i] && lint_reads_item(k, e, i)) return 0;
    return 1;
}

/* The min() and max() calls of an aggregate. */
static uint32_t min_max_calls(const IrRel *agg) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < agg->u.agg.n_items; i++) {
        const SqAggItem *it = &agg->u.agg.items[i];
        n += it->kind == SQ_AGG_CALL && it->def &&
             (strcmp(it->def->name, "min") == 0 || strcmp(it->def->name, "max") == 0);
    }
    return n;
}

/* A bare column is well defined when the GROUP BY keys fix the rows of
** every table it reads (T2.name with GROUP BY T2.id, T2.id a key), or when
** one min() or max() picks its row (with two, SQLite picks either's). */
static void bare_columns(LintCore *k) {
    const IrRel *agg = k->c->agg;
    if (!agg || (agg->u.agg.minmax && min_max_calls(agg) == 1)) return;
    uint32_t n_keys = agg->u.agg.n_keys;
    SqArena *a = k->l->q->arena;
    SqExpr **keys = lint_group_keys(a, agg);
    uint8_t *fixed = NULL;
    for (uint32_t i = 0; i < agg->u.agg.n_items; i++) {
        const SqAggItem *it = &agg->u.agg.items[i];
        if (it->kind != SQ_AGG_BARE || lint_is_constant(k, it->expr)) continue;
        if (!fixed) {
            fixed = sq_arena_alloc(a, k->n_items + 1);
            memset(fixed, 0, k->n_items + 1);
            lint_fixed_items(k, keys, n_keys, fixed, NULL);
        }
        if (reads_only_fixed(k, it->expr, fixed) || lint_pinned(k, it->expr)) continue;
        sq_lint_report(k->l, LR_BARE_COLUMN, it->span,
                       "%s is neither in GROUP BY nor aggregated: SQLite takes it from an "
                       "arbitrary row of %s",
                       sq_lint_text(k->l, it->span), n_keys ? "each group" : "the rows");
    }
}

static void redundant_distinct(LintCore *k) {
    const IrCore *c = k->c;
    if (!c->distinct || !c->project) return;
    const IrRel *p = c->project;
    SrcSpan at = c->distinct->span;
    for (uint32_t i = 0; i < p->u.project.exprs.n; i++)
        if (!p->cols.items[i].hidden && p->u.project.exprs.items[i]->span.file == at.file) {
            at.end = p->u.project.exprs.items[i]->span.start;
            break;
        }
    if (k->site->copies_ignored && !c->limit) {
        sq_lint_report(k->l, LR_REDUNDANT_DISTINCT, at,
                       "DISTINCT makes no difference here: copies of rows do not matter (%s)",
                       k->site->copies_ignored);
        return;
    }
    uint32_t n = 0;
    SqExpr **cols = sq_arena_alloc(k->l->q->arena, (p->u.project.exprs.n + 1) * sizeof *cols);
    for (uint32_t i = 0; i < p->u.project.exprs.n; i++)
        if (!p->cols.items[i].hidden) cols[n++] = p->u.project.exprs.items[i];
    if (rows_unique_by(k, cols, n))
        sq_lint_report(k->l, LR_REDUNDANT_DISTINCT, at,
                       "DISTINCT makes no difference: the result columns already tell every "
                       "row apart (%s)",
                       c->agg && !c->agg->u.agg.n_keys ? "the query gives one row"
                       : c->agg ? "they hold the GROUP BY keys" : "they hold a key of every table");
}

/* ------------------------------------------------------------------ */
/* Aggregates over joins that repeat rows                              */
/* ------------------------------------------------------------------ */

static int counts_copies(const SqAggItem *it) {
    if (it->kind != SQ_AGG_CALL || it->distinct || it->star || !it->def || !it->args.n) return 0;
    const char *n = it->def->name;
    return strcmp(n, "count") == 0 || strcmp(n, "sum") == 0 || strcmp(n, "avg") == 0 ||
           strcmp(n, "total") == 0;
}

static int of_item(const SqExpr *col, const void *item) { return ir_rel_binds(item, col->u.col.rel); }

/* Into matched, the items every row an aggregate counts has found (not
** NULL-extended by a LEFT JOIN): those whose NULL row makes every
** argument NULL (the aggregate skips such rows), then, while some item is
** matched, the items its LEFT JOIN's ON rejects NULL of (the ON held). */
static void matched_items(const LintCore *k, const SqAggItem *it, uint8_t *matched) {
    for (uint32_t j = 0; j < k->n_items; j++) {
        uint32_t x = 0;
        while (x < it->args.n && lint_null_yields_null(it->args.items[x], of_item, k->items[j].rel)) x++;
        matched[j] = x == it->args.n;
    }
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t r = 0; r < k->n_items; r++) {
            const IrRel *j = k->items[r].join;
            if (!matched[r] || !j || j->u.join.type != IR_JOIN_LEFT || !j->u.join.cond) continue;
            for (uint32_t x = 0; x < k->n_items; x++)
                if (!matched[x] && x != r && lint_null_rejects(j->u.join.cond, of_item, k->items[x].rel))
                    matched[x] = 1, changed = 1;
        }
    }
}

/* COUNT(x), SUM(x), AVG(x) see each row of the tables x reads once only
** when those rows (with the GROUP BY keys) fix the row of every other
** table: otherwise a join repeats them.  Rows where x is NULL do not
** count, so a LEFT JOIN whose NULL row makes x NULL matched in every row
** that does, and its ON holds both ways (matched_items).  COUNT(*) counts
** the joined rows themselves and is left alone. */
static void fanout_aggregate(LintCore *k) {
    const IrRel *agg = k->c->agg;
    if (!agg || k->n_items < 2 || !sq_lint_enabled(k->l, LR_FANOUT_AGGREGATE)) return;
    SqArena *a = k->l->q->arena;
    uint32_t n_keys = agg->u.agg.n_keys;
    SqExpr **keys = lint_group_keys(a, agg);
    uint8_t *fixed = sq_arena_alloc(a, k->n_items + 1), *matched = sq_arena_alloc(a, k->n_items + 1);
    for (uint32_t i = 0; i < agg->u.agg.n_items; i++) {
        const SqAggItem *it = &agg->u.agg.items[i];
        if (!counts_copies(it)) continue;
        matched_items(k, it, matched);
        memset(fixed, 0, k->n_items + 1);
        int read = -1;
        for (uint32_t j = 0; j < k->n_items; j++)
            for (uint32_t x = 0; x < it->args.n && !fixed[j]; x++)
                if (lint_reads_item(k, it->args.items[x], j)) fixed[j] = 1, read = read < 0 ? (int)j : read;
        if (read < 0) continue;
        lint_fixed_items(k, keys, n_keys, fixed, matched);
        uint32_t u = 0;
        while (u < k->n_items && fixed[u]) u++;
        if (u == k->n_items) continue;
        const char *why = lint_join_why(k->l, k->items[u].rel);
        sq_lint_report(k->l, LR_FANOUT_AGGREGATE, it->span,
                       "%s can see a row of %s several times: the join with %s repeats it once "
                       "per matching row%s%s%s",
                       sq_lint_text(k->l, it->span), k->l->alias[k->items[read].rel->id],
                       k->l->alias[k->items[u].rel->id], why ? " (" : "", why ? why : "",
                       why ? ")" : "");
    }
}

void lint_shape(LintCore *k) {
    fanout_aggregate(k);
    limit_without_order(k);
    order_limit_ties(k);
    bare_columns(k);
    redundant_distinct(k);
    limit_not_positive(k->l, k->c->limit);
}
