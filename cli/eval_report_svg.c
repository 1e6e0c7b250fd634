/*
** eval_report_svg.c -- the eval report's charts, as inline SVG
** (eval_report_int.h): EX-test against EX-verified per system, for the
** whole run and per difficulty, and why EX-verified is below EX-test.
**
** Layer: cli.  Reads the summary's counts; writes into the caller's
** buffer.  Every chart is well-formed XML on its own (text through
** rep_esc, attributes quoted), and each bar carries the numbers it draws
** in data- attributes and a title, so that a test (or a reader) can
** check it against the records.
*/
#include <stdio.h>
#include <string.h>

#include "cli/eval_report_int.h"
#include "runtime/util.h"

/* The bar charts' geometry: names to the left of x = LEFT, bars WIDTH
** wide at 100 %, two bars of BAR per system, GAP between systems, HEAD
** above each named group. */
enum { LEFT = 150, WIDTH = 500, BAR = 14, GAP = 12, HEAD = 22, FOOT = 40 };

static const char ex_colour[] = "#7a9cc6", ver_colour[] = "#2f5d3a";

static void svg_open(SqBuf *out, const char *id, int width, int height, const char *label) {
    sq_buf_printf(out, "<svg xmlns='http://www.w3.org/2000/svg' id='%s' width='%d' height='%d' role='img' "
                       "aria-label='%s'>\n", id, width, height, label);
}

/* The lines at 0, 25 ... 100 %, from y = top to bottom, labelled below. */
static void grid(SqBuf *out, int top, int bottom) {
    for (int p = 0; p <= 100; p += 25) {
        int x = LEFT + WIDTH * p / 100;
        sq_buf_printf(out, "<line x1='%d' y1='%d' x2='%d' y2='%d' stroke='#ddd'/>"
                           "<text x='%d' y='%d' font-size='11' text-anchor='middle'>%d %%</text>\n",
                      x, top, x, bottom, x, bottom + 14, p);
    }
}

/* A legend entry: a swatch and its text, at (x, y). */
static void key(SqBuf *out, int x, int y, const char *colour, const char *text) {
    sq_buf_printf(out, "<rect x='%d' y='%d' width='10' height='10' fill='%s'/><text x='%d' y='%d' "
                       "font-size='11'>%s</text>\n", x, y, colour, x + 14, y + 9, text);
}

/* One bar of a system in a group: cls 'ex' or 'ver', value a fraction. */
static void bar(SqBuf *out, const char *cls, const char *colour, int y, double value, const char *system,
                const char *group) {
    sq_buf_printf(out, "<rect class='%s' x='%d' y='%d' width='%.1f' height='%d' fill='%s' data-system='", cls, LEFT,
                  y, WIDTH * value, BAR, colour);
    rep_esc(out, system);
    sq_buf_puts(out, "' data-group='");
    rep_esc(out, group ? group : "");
    sq_buf_printf(out, "' data-value='%.4f'/><text x='%.1f' y='%d' font-size='11'>%.1f %%</text>\n", value,
                  LEFT + WIDTH * value + 4, y + BAR - 3, 100 * value);
}

/* A system's two bars in group g (named name, NULL for the whole run),
** from y down; the height they take. */
static int bar_pair(SqBuf *out, const EvalSummary *s, const EvalGroup *g, size_t k, const char *name, int y) {
    const SqEvalCounts *c = &g->counts[k];
    double ex = s->has_db ? rep_share(c->ex[SQ_EX_CORRECT], c->items) : 0, ver = rep_share(c->verified, c->items);
    sq_buf_printf(out, "<text x='%d' y='%d' font-size='12' text-anchor='end'>", LEFT - 8, y + BAR + 4);
    rep_esc(out, s->names[k]);
    sq_buf_puts(out, "</text>\n");
    bar(out, "ex", ex_colour, y, ex, s->names[k], name);
    bar(out, "ver", ver_colour, y + BAR, ver, s->names[k], name);
    return 2 * BAR + GAP;
}

/* Two bars per system (EX-test, EX-verified, 0-100 %) for each of the
** n groups; their names above them when named. */
static void chart_groups(SqBuf *out, const EvalSummary *s, const EvalGroup *g, size_t n, int named, const char *id,
                         const char *label) {
    int height = 10 + (int)n * ((named ? HEAD : 0) + (int)s->n_sys * (2 * BAR + GAP)) + FOOT + 10;
    svg_open(out, id, LEFT + WIDTH + 70, height, label);
    grid(out, 10, height - FOOT);
    int y = 10;
    for (size_t d = 0; d < n; d++) {
        if (named) {
            sq_buf_printf(out, "<text x='%d' y='%d' font-size='12' font-weight='bold'>", 8, y + 14);
            rep_esc(out, g[d].name);
            sq_buf_puts(out, "</text>\n");
            y += HEAD;
        }
        for (size_t k = 0; k < s->n_sys; k++) y += bar_pair(out, s, &g[d], k, named ? g[d].name : NULL, y);
    }
    key(out, LEFT, height - 18, ex_colour, "EX-test");
    key(out, LEFT + 90, height - 18, ver_colour, "EX-verified");
    sq_buf_puts(out, "</svg>\n");
}

void rep_chart_systems(SqBuf *out, const EvalSummary *s) {
    chart_groups(out, s, &s->all, 1, 0, "chart-systems", "EX-test and EX-verified per system");
}

void rep_chart_difficulty(SqBuf *out, const EvalSummary *s) {
    if (!s->n_difficulty) return;
    chart_groups(out, s, s->by_difficulty, s->n_difficulty, 1, "chart-difficulty",
                 "EX-test and EX-verified per system, per difficulty");
}

/* ------------------------------------------------------------------ */
/* Why EX-verified is below EX-test                                    */
/* ------------------------------------------------------------------ */

/* The three reasons an accepted prediction is not verified, as the
** summary counts them. */
static const struct {
    const char *cls, *colour, *said;
} reasons[] = {
    {"different", "#c0392b", "different"},
    {"ties", "#e69138", "different under ties"},
    {"unknown", "#9e9e9e", "unknown"},
};

static size_t reason_count(const SqEvalCounts *c, size_t r) {
    return r == 0 ? c->different : r == 1 ? c->ties : c->unknown;
}

/* System k's stacked bar at y: one segment per reason, each as wide as
** its count on the scale where `most` items fill WIDTH. */
static void gap_bar(SqBuf *out, const EvalSummary *s, size_t k, int y, size_t most) {
    const SqEvalCounts *c = &s->all.counts[k];
    sq_buf_printf(out, "<text x='%d' y='%d' font-size='12' text-anchor='end'>", LEFT - 8, y + BAR - 2);
    rep_esc(out, s->names[k]);
    sq_buf_puts(out, "</text>\n");
    double x = LEFT;
    for (size_t r = 0; r < SQ_ARRAY_LEN(reasons); r++) {
        size_t n = reason_count(c, r);
        double w = most ? (double)WIDTH * (double)n / (double)most : 0;
        sq_buf_printf(out, "<rect class='%s' x='%.1f' y='%d' width='%.1f' height='%d' fill='%s' data-system='",
                      reasons[r].cls, x, y, w, BAR, reasons[r].colour);
        rep_esc(out, s->names[k]);
        sq_buf_printf(out, "' data-count='%zu'><title>", n);
        rep_esc(out, s->names[k]);
        sq_buf_printf(out, ": %zu %s</title></rect>\n", n, reasons[r].said);
        x += w;
    }
    sq_buf_printf(out, "<text x='%.1f' y='%d' font-size='11'>%zu different, %zu ties, %zu unknown (%.1f %% of the "
                       "items)</text>\n", x + 4, y + BAR - 3, c->different, c->ties, c->unknown,
                  100 * rep_share(c->different + c->ties + c->unknown, c->items));
}

void rep_chart_gap(SqBuf *out, const EvalSummary *s) {
    size_t most = 0;
    for (size_t k = 0; k < s->n_sys; k++) {
        const SqEvalCounts *c = &s->all.counts[k];
        size_t n = c->different + c->ties + c->unknown;
        if (n > most) most = n;
    }
    int height = 10 + (int)s->n_sys * (BAR + GAP) + 30;
    svg_open(out, "chart-gap", LEFT + WIDTH + 330, height, "why EX-verified is below EX-test, per system");
    for (size_t k = 0; k < s->n_sys; k++) gap_bar(out, s, k, 10 + (int)k * (BAR + GAP), most);
    for (size_t r = 0; r < SQ_ARRAY_LEN(reasons); r++)
        key(out, LEFT + 150 * (int)r, height - 18, reasons[r].colour, reasons[r].said);
    sq_buf_puts(out, "</svg>\n");
}
