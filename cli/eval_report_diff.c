/*
** eval_report_diff.c -- the result tables of the eval report, with what
** makes a counterexample's two results differ highlighted
** (eval_report_int.h).
**
** Layer: cli.  Reads a record's JSON results (backend/eval/item.c writes
** them: columns, and rows of values); writes HTML into the caller's
** buffer.  The marks it computes are heap arrays freed before it returns.
*/
#include <stdlib.h>
#include <string.h>

#include "cli/eval_report_int.h"
#include "runtime/util.h"

/* Pairs of results larger than this (rows times rows) are shown without
** highlighting: the bag matching compares every pair of rows. */
#define REP_DIFF_MAX_PAIRS 1000000u

/* ------------------------------------------------------------------ */
/* Tables                                                              */
/* ------------------------------------------------------------------ */

/* One value of a record's JSON result or table: NULL, a quoted string,
** or the number as the record writes it; cls, when not NULL, a class of
** its own. */
static void cell(SqBuf *out, const char *doc, const SqJson *v, const char *cls) {
    const char *kind = !v || v->kind == SQ_JSON_NULL ? "null" : v->kind == SQ_JSON_STRING ? NULL : "num";
    if (kind || cls) sq_buf_printf(out, "<td class='%s%s%s'>", kind ? kind : "", kind && cls ? " " : "", cls ? cls : "");
    else sq_buf_puts(out, "<td>");
    if (!v || v->kind == SQ_JSON_NULL) {
        sq_buf_puts(out, "NULL");
    } else if (v->kind == SQ_JSON_STRING) {
        sq_buf_putc(out, '\'');
        rep_esc_n(out, v->str, v->len);
        sq_buf_putc(out, '\'');
    } else {
        rep_esc_n(out, doc + v->start, v->end - v->start);
    }
    sq_buf_puts(out, "</td>");
}

void rep_rows_table(SqBuf *out, const char *doc, const SqJson *t, const char *title, const RepRowMarks *marks) {
    const SqJson *cols = sq_json_get(t, "columns"), *rows = sq_json_get(t, "rows");
    if (!cols || !rows) return;
    sq_buf_puts(out, "<table class=rows><caption>");
    rep_esc(out, title);
    sq_buf_puts(out, "</caption><tr>");
    for (uint32_t k = 0; k < cols->n; k++) {
        sq_buf_puts(out, "<th>");
        rep_esc(out, sq_json_string(cols->items[k]));
        sq_buf_puts(out, "</th>");
    }
    sq_buf_puts(out, "</tr>\n");
    for (uint32_t i = 0; i < rows->n; i++) {
        int hot = marks && marks->row[i];
        sq_buf_puts(out, hot ? "<tr class=diff>" : "<tr>");
        for (uint32_t k = 0; k < rows->items[i]->n; k++) {
            int differs = hot && k < marks->width && marks->cell[(size_t)i * marks->width + k];
            cell(out, doc, rows->items[i]->items[k], differs ? "diff" : NULL);
        }
        sq_buf_puts(out, "</tr>\n");
    }
    if (!rows->n) sq_buf_printf(out, "<tr><td colspan=%u class=null>(no rows)</td></tr>\n", cols->n ? cols->n : 1);
    sq_buf_puts(out, "</table>\n");
}

/* ------------------------------------------------------------------ */
/* What differs                                                        */
/* ------------------------------------------------------------------ */

/* Whether two result values are the same: both NULL, equal text, or
** equal numbers (1 and 1.0 alike, as the results compare). */
static int same_value(const SqJson *a, const SqJson *b) {
    int a_null = !a || a->kind == SQ_JSON_NULL, b_null = !b || b->kind == SQ_JSON_NULL;
    if (a_null || b_null) return a_null && b_null;
    if (a->kind != b->kind) return 0;
    if (a->kind == SQ_JSON_STRING) return a->len == b->len && memcmp(a->str, b->str, a->len) == 0;
    if (a->kind == SQ_JSON_NUMBER) return a->is_int && b->is_int ? a->inum == b->inum : a->num == b->num;
    return 0;
}

static int same_row(const SqJson *a, const SqJson *b) {
    if (a->n != b->n) return 0;
    for (uint32_t k = 0; k < a->n; k++)
        if (!same_value(a->items[k], b->items[k])) return 0;
    return 1;
}

/* Marks for a result of rows->n rows, width cells each. */
static void marks_init(RepRowMarks *m, const SqJson *rows, size_t width) {
    m->width = width;
    m->row = sq_calloc(rows->n + 1, 1);
    m->cell = sq_calloc((size_t)rows->n * width + 1, 1);
}

static void marks_free(RepRowMarks *m) {
    free(m->row);
    free(m->cell);
}

/* Highlight row i of g and row j of p, and the cells where they differ. */
static void mark_pair(RepRowMarks *gm, const SqJson *g, uint32_t i, RepRowMarks *pm, const SqJson *p, uint32_t j) {
    const SqJson *a = g->items[i], *b = p->items[j];
    gm->row[i] = pm->row[j] = 1;
    for (size_t k = 0; k < gm->width || k < pm->width; k++) {
        const SqJson *x = k < a->n ? a->items[k] : NULL, *y = k < b->n ? b->items[k] : NULL;
        int differs = k >= a->n || k >= b->n || !same_value(x, y);
        if (k < gm->width) gm->cell[(size_t)i * gm->width + k] = (uint8_t)differs;
        if (k < pm->width) pm->cell[(size_t)j * pm->width + k] = (uint8_t)differs;
    }
}

/* Bag matching: each row of g takes the first equal row of p not taken
** yet; the rows left are highlighted.  When as many are left on each
** side they are paired in order and their differing cells marked.
** Returns the count of rows left on both sides together. */
static size_t mark_bag(RepRowMarks *gm, const SqJson *g, RepRowMarks *pm, const SqJson *p) {
    uint8_t *taken = sq_calloc(p->n + 1, 1);
    size_t left_g = 0, left_p = 0;
    for (uint32_t i = 0; i < g->n; i++) {
        uint32_t j = 0;
        while (j < p->n && (taken[j] || !same_row(g->items[i], p->items[j]))) j++;
        if (j < p->n) taken[j] = 1;
        else gm->row[i] = 1, left_g++;
    }
    for (uint32_t j = 0; j < p->n; j++)
        if (!taken[j]) pm->row[j] = 1, left_p++;
    if (left_g == left_p) {
        for (uint32_t i = 0, j = 0; i < g->n; i++) {
            if (!gm->row[i]) continue;
            while (!pm->row[j]) j++;
            mark_pair(gm, g, i, pm, p, j++);
        }
    }
    free(taken);
    return left_g + left_p;
}

/* The rows are equal as bags: highlight the positions where they differ
** (the order is what tells them apart); returns how many. */
static size_t mark_order(RepRowMarks *gm, const SqJson *g, RepRowMarks *pm, const SqJson *p) {
    size_t n = 0;
    for (uint32_t i = 0; i < g->n && i < p->n; i++)
        if (!same_row(g->items[i], p->items[i])) mark_pair(gm, g, i, pm, p, i), n++;
    return n;
}

void rep_results(SqBuf *out, const char *doc, const SqJson *gold, const SqJson *pred) {
    const SqJson *g = sq_json_get(gold, "rows"), *p = sq_json_get(pred, "rows");
    const SqJson *gc = sq_json_get(gold, "columns"), *pc = sq_json_get(pred, "columns");
    sq_buf_puts(out, "<div class=res>");
    if (!g || !p || !gc || !pc || (size_t)g->n * p->n > REP_DIFF_MAX_PAIRS) {
        rep_rows_table(out, doc, gold, "gold", NULL);
        rep_rows_table(out, doc, pred, "prediction", NULL);
        sq_buf_puts(out, "</div>\n");
        return;
    }
    RepRowMarks gm, pm;
    marks_init(&gm, g, gc->n);
    marks_init(&pm, p, pc->n);
    size_t left = mark_bag(&gm, g, &pm, p);
    size_t moved = left ? 0 : mark_order(&gm, g, &pm, p);
    rep_rows_table(out, doc, gold, "gold", &gm);
    rep_rows_table(out, doc, pred, "prediction", &pm);
    sq_buf_puts(out, "</div>\n");
    if (left)
        sq_buf_puts(out, "<p class=diff>Highlighted: the rows of each result with no equal row in the other "
                         "(as bags); in rows paired in order, the cells that differ.</p>\n");
    else if (moved)
        sq_buf_puts(out, "<p class=diff>The same rows in another order; highlighted: the places where they "
                         "differ.</p>\n");
    marks_free(&gm);
    marks_free(&pm);
}
