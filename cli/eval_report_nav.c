/*
** eval_report_nav.c -- the ways around the eval report's page: what each
** item showed (RepItems), and the lists of each system's disagreements
** that the summary's rows link to (eval_report_int.h).
**
** Layer: cli.  Owns the RepItems it fills; writes HTML into the caller's
** buffer.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/eval_report_int.h"
#include "runtime/util.h"

/* ------------------------------------------------------------------ */
/* What each item showed                                               */
/* ------------------------------------------------------------------ */

/* What counts against one system's prediction, from its mark. */
static RepFail fail_of(const SqEvalMark *m) {
    if (sq_ex_accepted(m->ex)) {
        if (m->verdict == SQ_VERDICT_DIFFERENT || m->verdict == SQ_VERDICT_COLUMNS) return REP_DIFFERENT;
        if (m->verdict == SQ_VERDICT_DIFFERENT_TIES) return REP_TIES;
        return m->refuted ? REP_REFUTED : REP_OK;
    }
    /* the gold query failing, or the run itself, is not the system's doing */
    return m->ex >= SQ_EX_WRONG && m->ex <= SQ_EX_DENIED ? REP_EX_FAIL : REP_OK;
}

static int difficulty_index(const EvalSummary *s, const char *name) {
    for (size_t d = 0; name && d < s->n_difficulty; d++)
        if (strcmp(s->by_difficulty[d].name, name) == 0) return (int)d;
    return -1;
}

RepItem *rep_items_add(RepItems *it, const EvalSummary *s, const SqEvalRecord *r, const char *label) {
    if (it->n && it->v[it->n - 1].item == r->item) return &it->v[it->n - 1];
    if (it->n == it->cap) {
        it->cap = it->cap ? 2 * it->cap : 64;
        it->v = sq_realloc(it->v, it->cap * sizeof *it->v);
    }
    RepItem *i = &it->v[it->n++];
    memset(i, 0, sizeof *i);
    i->item = r->item;
    i->label = sq_strdup(label ? label : "");
    i->difficulty = difficulty_index(s, r->difficulty);
    i->marks = sq_calloc(it->n_sys ? it->n_sys : 1, sizeof *i->marks);
    for (size_t k = 0; k < it->n_sys && k < r->n_systems; k++) {
        i->marks[k].fail = (uint8_t)fail_of(&r->marks[k]);
        i->marks[k].ex = r->marks[k].ex;
    }
    return i;
}

void rep_items_free(RepItems *it) {
    for (size_t k = 0; k < it->n; k++) {
        free(it->v[k].label);
        free(it->v[k].marks);
    }
    free(it->v);
    memset(it, 0, sizeof *it);
}

const char *rep_fail_token(RepFail f) {
    static const char *const tokens[] = {"ok", "ex-fail", "different", "ties", "refuted"};
    return (size_t)f < SQ_ARRAY_LEN(tokens) ? tokens[f] : "ok";
}

/* ------------------------------------------------------------------ */
/* Each system's disagreements                                         */
/* ------------------------------------------------------------------ */

void rep_system_id(char *buf, size_t size, size_t k, int d) {
    if (d < 0) snprintf(buf, size, "s-%zu", k + 1);
    else snprintf(buf, size, "s-%zu-%d", k + 1, d + 1);
}

/* Links to system k's disagreement sections among items in difficulty
** group d (any when d is -2, none given when -1); their count. */
static size_t links(SqBuf *out, const RepItems *it, size_t k, int d) {
    size_t n = 0;
    for (size_t i = 0; i < it->n; i++) {
        const RepItem *item = &it->v[i];
        if (!item->marks[k].anchor || (d != -2 && item->difficulty != d)) continue;
        sq_buf_printf(out, "%s<a href='#d-%zu'>", n ? ", " : "", item->marks[k].anchor);
        rep_esc(out, item->label);
        sq_buf_puts(out, "</a>");
        n++;
    }
    if (!n) sq_buf_puts(out, "none");
    return n;
}

/* One line of a system's list: "easy (2): item 3, item 7". */
static void list_line(SqBuf *out, const RepItems *it, size_t k, int d, const char *name) {
    char id[48];
    rep_system_id(id, sizeof id, k, d);
    SqBuf body = SQ_BUF_INIT;
    size_t n = links(&body, it, k, d);
    if (d >= 0) sq_buf_printf(out, "<p id=%s>", id);
    else sq_buf_puts(out, "<p>");
    rep_esc(out, name);
    sq_buf_printf(out, " (%zu): ", n);
    sq_buf_put(out, body.data ? body.data : "", body.len);
    sq_buf_puts(out, "</p>\n");
    sq_buf_free(&body);
}

static int any_without_difficulty(const RepItems *it, size_t k) {
    for (size_t i = 0; i < it->n; i++)
        if (it->v[i].marks[k].anchor && it->v[i].difficulty < 0) return 1;
    return 0;
}

void rep_system_lists(SqBuf *out, const EvalSummary *s, const RepItems *it) {
    sq_buf_puts(out, "<h2 id=by-system>Disagreements by system</h2>\n");
    for (size_t k = 0; k < s->n_sys; k++) {
        char id[48];
        rep_system_id(id, sizeof id, k, -1);
        SqBuf all = SQ_BUF_INIT;
        size_t n = links(&all, it, k, -2);
        sq_buf_printf(out, "<section class=sys id=%s><h3>", id);
        rep_esc(out, s->names[k]);
        sq_buf_printf(out, ": %zu disagreement%s</h3>\n", n, n == 1 ? "" : "s");
        if (!s->n_difficulty) sq_buf_printf(out, "<p>%s</p>\n", all.data ? all.data : "");
        for (size_t d = 0; d < s->n_difficulty; d++) list_line(out, it, k, (int)d, s->by_difficulty[d].name);
        if (s->n_difficulty && any_without_difficulty(it, k)) list_line(out, it, k, -1, "no difficulty");
        sq_buf_puts(out, "</section>\n");
        sq_buf_free(&all);
    }
}

/* ------------------------------------------------------------------ */
/* The filters                                                         */
/* ------------------------------------------------------------------ */

void rep_filter_place(SqBuf *out) { sq_buf_puts(out, "<div id=filters></div>\n"); }

static void attr(SqBuf *out, const char *name, const char *value) {
    if (!value) return;
    sq_buf_printf(out, " data-%s=\"", name);
    rep_esc(out, value);
    sq_buf_putc(out, '"');
}

void rep_filter_attrs(SqBuf *out, const char *system, const char *difficulty, const char *verdict) {
    attr(out, "system", system);
    attr(out, "difficulty", difficulty);
    attr(out, "verdict", verdict);
}

/* The script: one select per key, its choices the values the page's
** items have; a change shows only the items that match every choice.
** Items are the sections and contents entries with a data-verdict, and
** the matrix's rows: a row matches by its difficulty and when one of its
** cells matches the system and verdict.  It runs once, at the end of the
** page, when everything it reads is there. */
static const char filter_js[] =
    "(function () {\n"
    "  var place = document.getElementById('filters');\n"
    "  if (!place) return;\n"
    "  var keys = ['system', 'difficulty', 'verdict'];\n"
    "  var said = {'ex-fail': 'fails EX-test', 'different': 'its own counterexample refutes it',\n"
    "    'ties': 'different under ties', 'refuted': \"another system's counterexample refutes it\",\n"
    "    'lint': 'gold linter findings'};\n"
    "  var all = function (q) { return Array.prototype.slice.call(document.querySelectorAll(q)); };\n"
    "  var items = all('section[data-verdict], li[data-verdict], tr.mrow');\n"
    "  var valued = all('section[data-verdict], li[data-verdict], tr.mrow, tr.mrow td[data-verdict]');\n"
    "  var asked = new URLSearchParams(location.search), sel = {};\n"
    "  keys.forEach(function (k) {\n"
    "    var values = [];\n"
    "    valued.forEach(function (e) {\n"
    "      var v = e.getAttribute('data-' + k);\n"
    "      if (v !== null && values.indexOf(v) < 0) values.push(v);\n"
    "    });\n"
    "    var s = document.createElement('select');\n"
    "    s.id = 'filter-' + k;\n"
    "    s.add(new Option('every ' + k, ''));\n"
    "    values.forEach(function (v) { s.add(new Option(said[v] || v, v)); });\n"
    "    if (values.indexOf(asked.get(k)) >= 0) s.value = asked.get(k);\n"
    "    s.addEventListener('change', apply);\n"
    "    var label = document.createElement('label');\n"
    "    label.append(k + ' ', s);\n"
    "    place.append(label);\n"
    "    sel[k] = s;\n"
    "  });\n"
    "  var count = document.createElement('span');\n"
    "  count.id = 'filter-count';\n"
    "  place.append(count);\n"
    "  function fits(e, ks) {\n"
    "    return ks.every(function (k) { return !sel[k].value || e.getAttribute('data-' + k) === sel[k].value; });\n"
    "  }\n"
    "  function matches(e) {\n"
    "    if (e.tagName !== 'TR') return fits(e, keys);\n"
    "    var cells = Array.prototype.slice.call(e.querySelectorAll('td[data-verdict]'));\n"
    "    return fits(e, ['difficulty']) && cells.some(function (c) {\n"
    "      return fits(c, ['system', 'verdict']);\n"
    "    });\n"
    "  }\n"
    "  function apply() {\n"
    "    var shown = 0, total = 0;\n"
    "    items.forEach(function (e) {\n"
    "      var ok = matches(e);\n"
    "      e.hidden = !ok;\n"
    "      if (e.tagName === 'SECTION') { total++; shown += ok ? 1 : 0; }\n"
    "    });\n"
    "    count.textContent = shown + ' of ' + total + ' items shown';\n"
    "  }\n"
    "  apply();\n"
    "})();\n";

void rep_filter_script(SqBuf *out) {
    sq_buf_puts(out, "<script>\n");
    sq_buf_puts(out, filter_js);
    sq_buf_puts(out, "</script>\n");
}

/* ------------------------------------------------------------------ */
/* The cross-system matrix                                             */
/* ------------------------------------------------------------------ */

static int any_fail(const RepItem *item, size_t n_sys) {
    for (size_t k = 0; k < n_sys; k++)
        if (item->marks[k].fail != REP_OK) return 1;
    return 0;
}

/* Where a link to the item goes: its first disagreement section, else
** its gold-linter section; NULL when it has neither (buf holds the id). */
static const char *item_anchor(const RepItem *item, size_t n_sys, char *buf, size_t size) {
    for (size_t k = 0; k < n_sys; k++)
        if (item->marks[k].anchor) {
            snprintf(buf, size, "d-%zu", item->marks[k].anchor);
            return buf;
        }
    if (!item->lint_anchor) return NULL;
    snprintf(buf, size, "l-%zu", item->lint_anchor);
    return buf;
}

/* One cell: what counts against system k on the item, linked to its
** disagreement section when it has one. */
static void matrix_cell(SqBuf *out, const EvalSummary *s, const RepItem *item, size_t k) {
    const RepMark *m = &item->marks[k];
    if (m->fail == REP_OK) {
        sq_buf_puts(out, "<td></td>");
        return;
    }
    static const char *const said[] = {"", "", "different", "ties", "refuted"};
    static const char *const title[] = {"", "EX-test: ", "its own counterexample refutes it",
                                        "different under ties", "another system's counterexample refutes it"};
    const char *tok = rep_fail_token((RepFail)m->fail);
    const char *what = m->fail == REP_EX_FAIL ? sq_ex_outcome_name((SqExOutcome)m->ex) : said[m->fail];
    sq_buf_printf(out, "<td class='m %s'", tok);
    rep_filter_attrs(out, s->names[k], NULL, tok);
    sq_buf_printf(out, " title=\"%s%s\">", title[m->fail], m->fail == REP_EX_FAIL ? what : "");
    if (m->anchor) sq_buf_printf(out, "<a href='#d-%zu'>%s</a></td>", m->anchor, what);
    else sq_buf_printf(out, "%s</td>", what);
}

static void matrix_row(SqBuf *out, const EvalSummary *s, const RepItem *item) {
    char id[32];
    const char *to = item_anchor(item, s->n_sys, id, sizeof id);
    sq_buf_printf(out, "<tr class=mrow id=i-%zu", item->item);
    rep_filter_attrs(out, NULL, item->difficulty >= 0 ? s->by_difficulty[item->difficulty].name : NULL, NULL);
    sq_buf_puts(out, "><td>");
    if (to) sq_buf_printf(out, "<a href='#%s'>", to);
    rep_esc(out, item->label);
    sq_buf_puts(out, to ? "</a></td>" : "</td>");
    for (size_t k = 0; k < s->n_sys; k++) matrix_cell(out, s, item, k);
    sq_buf_puts(out, "</tr>\n");
}

size_t rep_matrix(SqBuf *out, const EvalSummary *s, const RepItems *it) {
    size_t n = 0;
    for (size_t i = 0; i < it->n; i++) n += (size_t)any_fail(&it->v[i], s->n_sys);
    sq_buf_printf(out, "<h2 id=matrix>Where each system fails (%zu items)</h2>\n<p>The items on which at least one "
                       "system's prediction fails EX-test or is refuted: by its own counterexample (different, or "
                       "ties: different only under ties) or by another system's (refuted, the cross-check).  An "
                       "item's label links to its first section, a refutation to its disagreement.</p>\n", n);
    if (!n) return 0;
    sq_buf_puts(out, "<table class=matrix><tr><th>item</th>");
    for (size_t k = 0; k < s->n_sys; k++) {
        sq_buf_puts(out, "<th>");
        rep_esc(out, s->names[k]);
        sq_buf_puts(out, "</th>");
    }
    sq_buf_puts(out, "</tr>\n");
    for (size_t i = 0; i < it->n; i++)
        if (any_fail(&it->v[i], s->n_sys)) matrix_row(out, s, &it->v[i]);
    sq_buf_puts(out, "</table>\n");
    return n;
}
