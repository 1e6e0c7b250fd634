/*
** softf1.c -- BIRD Mini-Dev's Soft-F1 (softf1.h).
**
** Layer: backend/eval.  Values are compared with sq_value_equal, which is
** Python's == on what the sqlite3 module returns.  Repeated rows are
** found by sorting row numbers (sq_value_cmp agrees with that equality),
** so a large result costs n log n, not n^2.
*/
#include "backend/eval/softf1.h"

#include <stdlib.h>

#include "runtime/util.h"

/* For qsort: the result being deduplicated. */
static const SqResult *sorting;

static int row_cmp(const SqResult *r, uint64_t a, uint64_t b) {
    for (uint32_t c = 0; c < r->n_cols; c++) {
        int d = sq_value_cmp(sq_result_cell(r, a, c), sq_result_cell(r, b, c));
        if (d) return d;
    }
    return 0;
}

static int by_row_then_index(const void *x, const void *y) {
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    int d = row_cmp(sorting, a, b);
    return d ? d : (a > b) - (a < b);
}

/* The rows of r with each repeat after its first dropped, in r's order:
** their numbers in a heap array of *n. */
static uint64_t *distinct_rows(const SqResult *r, uint64_t *n) {
    uint64_t *idx = sq_malloc((r->n_rows + 1) * sizeof *idx);
    uint8_t *drop = sq_calloc(r->n_rows + 1, 1);
    for (uint64_t i = 0; i < r->n_rows; i++) idx[i] = i;
    sorting = r;
    qsort(idx, r->n_rows, sizeof *idx, by_row_then_index);
    for (uint64_t i = 1; i < r->n_rows; i++)
        if (row_cmp(r, idx[i - 1], idx[i]) == 0) drop[idx[i]] = 1;
    *n = 0;
    for (uint64_t i = 0; i < r->n_rows; i++)
        if (!drop[i]) idx[(*n)++] = i;
    free(drop);
    return idx;
}

/* Whether v equals one of the n values of row. */
static int in_row(const SqValue *v, const SqValue *row, uint32_t n) {
    for (uint32_t c = 0; c < n; c++)
        if (sq_value_equal(v, &row[c])) return 1;
    return 0;
}

double sq_soft_f1(const SqResult *pred, const SqResult *gold) {
    if (!pred->n_rows && !gold->n_rows) return 1.0;
    if (!gold->n_cols) return 0.0;   /* the script divides by the width: an error, scored 0 */
    uint64_t np, ng;
    uint64_t *p = distinct_rows(pred, &np), *g = distinct_rows(gold, &ng);
    double tp = 0, fp = 0, fn = 0;
    for (uint64_t i = 0; i < ng; i++) {
        if (i >= np) {
            fn += 1;
            continue;
        }
        const SqValue *pr = sq_result_cell(pred, p[i], 0), *gr = sq_result_cell(gold, g[i], 0);
        double w = gold->n_cols, match = 0, pred_only = 0, gold_only = 0;
        for (uint32_t c = 0; c < pred->n_cols; c++) {
            if (in_row(&pr[c], gr, gold->n_cols)) match += 1;
            else pred_only += 1;
        }
        for (uint32_t c = 0; c < gold->n_cols; c++)
            if (!in_row(&gr[c], pr, pred->n_cols)) gold_only += 1;
        tp += match / w;
        fp += pred_only / w;
        fn += gold_only / w;
    }
    for (uint64_t i = ng; i < np; i++) fp += 1;   /* one at a time, as the script sums */
    free(p);
    free(g);
    double precision = tp + fp > 0 ? tp / (tp + fp) : 0, recall = tp + fn > 0 ? tp / (tp + fn) : 0;
    return precision + recall > 0 ? 2 * precision * recall / (precision + recall) : 0;
}
