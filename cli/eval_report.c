/*
** eval_report.c -- the HTML report of `squint eval` (eval_report.h).
**
** Sections: HTML text; the summary and the chart; disagreements; the
** page.  The lists per system, what each item showed and the other
** shared parts are in eval_report_nav.c (eval_report_int.h).
*/
#include "cli/eval_report.h"
#include "cli/eval_report_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/profile/profile.h"
#include "runtime/json.h"
#include "runtime/safewrite.h"
#include "runtime/util.h"

void eval_report_init(EvalReport *r) { memset(r, 0, sizeof *r); }
void eval_report_free(EvalReport *r) { sq_buf_free(&r->records); }

void eval_report_add(EvalReport *r, const char *line, size_t n) {
    sq_buf_put(&r->records, line, n);
    if (n && line[n - 1] != '\n') sq_buf_putc(&r->records, '\n');
}

/* ------------------------------------------------------------------ */
/* HTML text                                                           */
/* ------------------------------------------------------------------ */

void rep_esc_n(SqBuf *out, const char *s, size_t n) {
    for (size_t k = 0; k < n; k++) {
        switch (s[k]) {
        case '<': sq_buf_puts(out, "&lt;"); break;
        case '>': sq_buf_puts(out, "&gt;"); break;
        case '&': sq_buf_puts(out, "&amp;"); break;
        case '"': sq_buf_puts(out, "&quot;"); break;
        case '\'': sq_buf_puts(out, "&#39;"); break;
        default: sq_buf_putc(out, s[k]);
        }
    }
}

void rep_esc(SqBuf *out, const char *s) {
    if (s) rep_esc_n(out, s, strlen(s));
}

const char *rep_text(const SqJson *o, const char *key) { return sq_json_string(sq_json_get(o, key)); }

double rep_share(size_t k, size_t n) { return n ? (double)k / (double)n : 0; }

/* ------------------------------------------------------------------ */
/* The summary                                                         */
/* ------------------------------------------------------------------ */

/* The summary table of group g: the whole run (d is -1) or difficulty
** group d.  Each system's name links to its list of disagreements in
** that group (eval_report_nav.c). */
static void summary_table(SqBuf *out, const EvalSummary *s, const EvalGroup *g, int d) {
    int real = eval_summary_realistic_any(s), em = eval_group_em_any(s, g);
    sq_buf_printf(out, "<table class=sum><tr><th>system</th><th>items</th><th>EX-test</th>%s%s<th>EX-verified</th>"
                       "<th>+cross</th>%s<th>different</th><th>ties</th><th>unknown</th><th>decided</th></tr>\n",
                  em ? "<th>EM</th>" : "", s->n_suite_marks ? "<th>EX-suite</th>" : "",
                  real ? "<th>EX-verified realistic</th><th>different on realistic data</th>" : "");
    for (size_t k = 0; k < s->n_sys; k++) {
        const SqEvalCounts *c = &g->counts[k];
        char id[48];
        rep_system_id(id, sizeof id, k, d);
        sq_buf_printf(out, "<tr><td><a href='#%s'>", id);
        rep_esc(out, s->names[k]);
        sq_buf_printf(out, "</a></td><td class=num>%zu</td>", c->items);
        if (s->has_db) sq_buf_printf(out, "<td class=num>%.1f %%</td>", 100 * rep_share(c->ex[SQ_EX_CORRECT], c->items));
        else sq_buf_puts(out, "<td>-</td>");
        if (em) sq_buf_printf(out, "<td class=num>%.1f %%</td>", 100 * sq_em_tally_exact(&c->em));
        if (s->n_suite_marks) sq_buf_printf(out, "<td class=num>%.1f %%</td>", 100 * rep_share(c->suite_correct, c->items));
        sq_buf_printf(out, "<td class=num>%.1f %%</td><td class=num>%.1f %%</td>", 100 * rep_share(c->verified, c->items),
                      100 * rep_share(c->verified_cross, c->items));
        if (real)
            sq_buf_printf(out, "<td class=num>%.1f %%</td><td class=num>%zu</td>",
                          100 * rep_share(c->verified_realistic, c->items), c->different_realistic);
        sq_buf_printf(out,
                      "<td class=num>%zu</td><td class=num>%zu</td><td class=num>%zu</td><td class=num>%.1f %%</td>"
                      "</tr>\n",
                      c->different, c->ties, c->unknown, 100 * rep_share(c->ex_ok - c->unknown, c->ex_ok));
    }
    sq_buf_puts(out, "</table>\n");
}

/* The kinds of the refuting counterexamples, per system (as the text
** summary's kinds table). */
static void kinds_table(SqBuf *out, const EvalSummary *s) {
    if (!eval_summary_kinds_any(s)) return;
    sq_buf_puts(out, "<table class=sum><caption>Kinds of the counterexamples</caption><tr><th>system</th>"
                     "<th>tagged</th><th>robust</th>");
    size_t n_kinds = SQ_ARRAY_LEN(s->all.counts[0].kind);
    for (size_t b = 0; b < n_kinds; b++) {
        sq_buf_puts(out, "<th>");
        rep_esc(out, sq_cex_kind_name(1u << b));
        sq_buf_puts(out, "</th>");
    }
    sq_buf_puts(out, "</tr>\n");
    for (size_t k = 0; k < s->n_sys; k++) {
        const SqEvalCounts *c = &s->all.counts[k];
        sq_buf_puts(out, "<tr><td>");
        rep_esc(out, s->names[k]);
        sq_buf_printf(out, "</td><td class=num>%zu</td><td class=num>%zu</td>", c->kinds_tagged, c->kind_robust);
        for (size_t b = 0; b < n_kinds; b++) sq_buf_printf(out, "<td class=num>%zu</td>", c->kind[b]);
        sq_buf_puts(out, "</tr>\n");
    }
    sq_buf_puts(out, "</table>\n<p>Kinds: what each tagged counterexample of the different and ties columns "
                     "relies on that the item's database never shows (robust: nothing); one counterexample may "
                     "have several.</p>\n");
}

/* ------------------------------------------------------------------ */
/* Disagreements                                                       */
/* ------------------------------------------------------------------ */

/* The system of sys named name, or NULL. */
static const SqJson *system_named(const SqJson *sys, const char *name) {
    for (uint32_t k = 0; name && sys && k < sys->n; k++) {
        const char *n = rep_text(sys->items[k], "name");
        if (n && strcmp(n, name) == 0) return sys->items[k];
    }
    return NULL;
}

static void counterexample(SqBuf *out, const char *doc, const SqJson *w) {
    const SqJson *tables = sq_json_get(sq_json_get(w, "counterexample"), "tables");
    sq_buf_puts(out, "<div class=db>");
    for (uint32_t t = 0; tables && t < tables->n; t++) {
        const SqJson *rows = sq_json_get(tables->items[t], "rows");
        if (rows && rows->n) rep_rows_table(out, doc, tables->items[t], rep_text(tables->items[t], "name"), NULL);
    }
    sq_buf_puts(out, "</div>");
    rep_results(out, doc, sq_json_get(w, "gold_result"), sq_json_get(w, "pred_result"));
}

/* The kinds of a tagged counterexample (system w's), and where each
** lies: "needs-null (singer.age)"; nothing when it was not tagged. */
static void kinds_line(SqBuf *out, const SqJson *w) {
    const SqJson *kinds = sq_json_get(w, "kinds"), *where = sq_json_get(w, "kinds_where");
    if (!kinds || kinds->kind != SQ_JSON_ARRAY) return;
    sq_buf_puts(out, "<p class=kinds>Kinds: ");
    for (uint32_t k = 0; k < kinds->n; k++) {
        const char *name = sq_json_string(kinds->items[k]);
        sq_buf_puts(out, k ? ", <b>" : "<b>");
        rep_esc(out, name);
        sq_buf_puts(out, "</b>");
        int first = 1;
        for (uint32_t i = 0; name && where && where->kind == SQ_JSON_ARRAY && i < where->n; i++) {
            const char *kind = rep_text(where->items[i], "kind");
            if (!kind || strcmp(kind, name) != 0) continue;
            sq_buf_puts(out, first ? " (" : ", ");
            rep_esc(out, rep_text(where->items[i], "table"));
            sq_buf_putc(out, '.');
            rep_esc(out, rep_text(where->items[i], "column"));
            first = 0;
        }
        if (!first) sq_buf_putc(out, ')');
    }
    sq_buf_puts(out, "</p>\n");
}

/* The gold linter's findings of a record, as a list (nothing when none). */
static void lint_list(SqBuf *out, const SqJson *doc) {
    const SqJson *lint = sq_json_get(doc, "lint");
    if (!lint || !lint->n) return;
    sq_buf_puts(out, "<ul class=lint>");
    for (uint32_t k = 0; k < lint->n; k++) {
        sq_buf_puts(out, "<li><b>");
        rep_esc(out, rep_text(lint->items[k], "rule"));
        sq_buf_puts(out, "</b> (");
        rep_esc(out, rep_text(lint->items[k], "severity"));
        sq_buf_puts(out, ", gold ");
        rep_esc(out, rep_text(lint->items[k], "at"));
        sq_buf_puts(out, "): ");
        rep_esc(out, rep_text(lint->items[k], "message"));
        sq_buf_puts(out, "</li>");
    }
    sq_buf_puts(out, "</ul>\n");
}

/* The table of contents: a link per item section, collected while the
** sections are written and put on the page before them.  Each section
** gets an id of its own (prefix and a running number: labels repeat,
** one per system) so that the contents and other pages can link to it. */
typedef struct Toc {
    SqBuf links;
    size_t n;
} Toc;

/* The heading of an item's section: label, the system when there is one,
** db_id; its id is prefix-N, and the table of contents links to it.  The
** section and its contents entry carry what the filters select on: the
** system, the item's difficulty and the verdict token. */
static void section_head(SqBuf *out, Toc *toc, const char *prefix, const SqJson *doc, const char *system,
                         const char *verdict) {
    toc->n++;
    sq_buf_printf(out, "<section class=item id=%s-%zu", prefix, toc->n);
    rep_filter_attrs(out, system, rep_text(doc, "difficulty"), verdict);
    sq_buf_puts(out, "><h3>");
    sq_buf_puts(&toc->links, "<li");
    rep_filter_attrs(&toc->links, system, rep_text(doc, "difficulty"), verdict);
    sq_buf_printf(&toc->links, "><a href='#%s-%zu'>", prefix, toc->n);
    rep_esc(out, rep_text(doc, "label"));
    rep_esc(&toc->links, rep_text(doc, "label"));
    if (system) {
        sq_buf_puts(out, " &middot; ");
        sq_buf_puts(&toc->links, " &middot; ");
        rep_esc(out, system);
        rep_esc(&toc->links, system);
    }
    sq_buf_puts(out, " &middot; ");
    rep_esc(out, rep_text(doc, "db_id"));
    sq_buf_puts(out, "</h3>\n");
    sq_buf_puts(&toc->links, "</a></li>");
}

/* One record's gold-linter section; returns 1 when it has findings. */
static int lint_section(SqBuf *out, Toc *toc, const SqJson *doc) {
    const SqJson *lint = sq_json_get(doc, "lint");
    if (!lint || !lint->n) return 0;
    section_head(out, toc, "l", doc, NULL, "lint");
    sq_buf_puts(out, "<pre class=sql>");
    rep_esc(out, rep_text(doc, "gold"));
    sq_buf_puts(out, "</pre>\n");
    lint_list(out, doc);
    sq_buf_puts(out, "</section>\n");
    return 1;
}

/* --realistic: what the search on realistic data made of a refutation. */
static void realistic_line(SqBuf *out, const SqJson *s) {
    const char *v = rep_text(s, "verdict_realistic"), *how = rep_text(s, "verdict_realistic_how");
    if (!v) return;
    sq_buf_puts(out, "<p class=realistic>On realistic data (--realistic): <b>");
    rep_esc(out, v);
    sq_buf_puts(out, "</b>");
    const char *promise = rep_text(s, "promise_realistic");
    if (promise) {
        sq_buf_puts(out, ", the same results ");
        rep_esc(out, promise);
        sq_buf_puts(out, "; not a promise for every database");
    } else if (how && strcmp(how, "search") == 0 && strcmp(v, "different") == 0) {
        sq_buf_puts(out, ": a database whose columns keep the profile's facts tells them apart too");
    } else if (how && strcmp(how, "search") != 0) {
        sq_buf_puts(out, strcmp(how, "no-profile") == 0 ? " (no profile of the item's data: not searched again)"
                                                        : " (the profile gives no facts: not searched again)");
    }
    sq_buf_puts(out, ".</p>\n");
}

/* One record's disagreements, each system's anchor noted in item (when
** the record is one the item's marks could be read from); returns how
** many. */
static size_t disagreements(SqBuf *out, Toc *toc, const char *line, const SqJson *doc, RepItem *item,
                            size_t n_sys) {
    const SqJson *sys = sq_json_get(doc, "systems");
    size_t found = 0;
    for (uint32_t k = 0; sys && k < sys->n; k++) {
        const SqJson *s = sys->items[k];
        const char *ex = rep_text(s, "ex"), *verdict = rep_text(s, "verdict"), *by = rep_text(s, "refuted_by");
        int own = verdict && strcmp(verdict, "different") == 0;
        if (!ex || !sq_ex_accepted(sq_ex_outcome_parse(ex)) || (!own && !by)) continue;
        const SqJson *w = own ? s : system_named(sys, by);
        if (!w) continue;
        found++;
        section_head(out, toc, "d", doc, rep_text(s, "name"), rep_fail_token(own ? REP_DIFFERENT : REP_REFUTED));
        if (item && k < n_sys && !item->marks[k].anchor) item->marks[k].anchor = toc->n;
        if (rep_text(doc, "question")) {
            sq_buf_puts(out, "<p class=q>");
            rep_esc(out, rep_text(doc, "question"));
            sq_buf_puts(out, "</p>\n");
        }
        sq_buf_puts(out, "<pre class=sql><b>gold</b>       ");
        rep_esc(out, rep_text(doc, "gold"));
        sq_buf_puts(out, "\n<b>prediction</b> ");
        rep_esc(out, rep_text(s, "pred"));
        sq_buf_puts(out, "</pre>\n<p>");
        if (own) sq_buf_puts(out, "EX-test accepts it; on this database the results differ:");
        else {
            sq_buf_puts(out, "EX-test accepts it; the counterexample found for ");
            rep_esc(out, by);
            sq_buf_puts(out, " refutes it too (cross-check). That database and its results for gold and ");
            rep_esc(out, by);
            sq_buf_puts(out, ":");
        }
        sq_buf_puts(out, "</p>\n");
        counterexample(out, line, w);
        rep_join_graphs(out, w, rep_text(doc, "gold"), rep_text(s, "pred"), toc->n);
        kinds_line(out, w);
        if (own) realistic_line(out, s);
        if (sq_json_get(doc, "lint") && sq_json_get(doc, "lint")->n) {
            sq_buf_puts(out, "<p>The gold linter's findings on the gold query:</p>");
            lint_list(out, doc);
        }
        sq_buf_puts(out, "</section>\n");
    }
    return found;
}

/* ------------------------------------------------------------------ */
/* The page                                                            */
/* ------------------------------------------------------------------ */

/* The page's title: how an existing file is told to be a report. */
static const char report_mark[] = "<title>squint eval report</title>";

static const char style[] =
    "body{font:14px/1.4 system-ui,sans-serif;margin:2em auto;max-width:1100px;color:#222}"
    "table{border-collapse:collapse;margin:.5em 1em .5em 0}td,th{border:1px solid #bbb;padding:2px 8px}"
    "th{background:#eee}.num{text-align:right}.null{color:#888;font-style:italic}"
    "caption{font-weight:bold;text-align:left}pre.sql{background:#f6f6f6;padding:.5em;white-space:pre-wrap}"
    "section.item{border-top:1px solid #ccc;margin-top:1.5em}.db,.res{display:flex;flex-wrap:wrap;"
    "align-items:flex-start}p.q{font-style:italic}"
    "#filters{position:sticky;top:0;background:#fff;padding:.4em 0;border-bottom:1px solid #ccc;z-index:1}"
    "#filters:empty{display:none}#filters label{margin-right:1em}section.item{scroll-margin-top:3em}"
    "table.matrix td.m{font-size:12px}td.ex-fail{background:#eee}td.different{background:#f4c7c3}"
    "td.ties{background:#fce5cd}td.refuted{background:#f9dfe6}tr.mrow{scroll-margin-top:3em}"
    "tr.diff td{background:#fdecea}tr.diff td.diff{background:#f1948a;font-weight:bold}p.diff{font-size:12px;"
    "color:#555}.jgs{display:flex;flex-wrap:wrap}figure.jg{margin:0 1em 0 0}figcaption{font-weight:bold}";

/* The head of the page: the summary, its charts and the tables per
** difficulty. */
static void page_head(SqBuf *out, const EvalSummary *s) {
    sq_buf_printf(out, "<!DOCTYPE html>\n<html lang=en><head><meta charset=utf-8>"
                       "%s<style>%s</style></head><body>\n", report_mark, style);
    sq_buf_printf(out, "<h1>squint eval</h1>\n<p>%zu items, %s semantics%s.</p>\n", s->n_items,
                  sq_metric_name(s->metric), s->has_db ? "" : ", schemas only (no EX-test)");
    sq_buf_puts(out, "<h2 id=summary>Summary</h2>\n");
    summary_table(out, s, &s->all, -1);
    rep_chart_systems(out, s);
    sq_buf_puts(out, "<p>EX-verified: EX-test correct and no counterexample up to the bound. +cross: also not "
                     "refuted by another system's counterexample.</p>\n");
    if (eval_summary_realistic_any(s))
        sq_buf_puts(out, "<p>EX-verified realistic: EX-test correct and no counterexample up to the bound on "
                         "realistic data, databases whose columns keep the facts of the item's profile (no NULL, "
                         "no repeated value, no other form of text where the data shows none). Only refutations "
                         "were searched again; an equivalence on every database counts as it is. Not a promise "
                         "for every database.</p>\n");
    kinds_table(out, s);
    for (size_t d = 0; d < s->n_difficulty; d++) {
        sq_buf_puts(out, "<h3>difficulty: ");
        rep_esc(out, s->by_difficulty[d].name);
        sq_buf_puts(out, "</h3>\n");
        summary_table(out, s, &s->by_difficulty[d], (int)d);
    }
    if (s->n_difficulty) {
        sq_buf_puts(out, "<h3 id=chart-by-difficulty>EX-test and EX-verified per difficulty</h3>\n");
        rep_chart_difficulty(out, s);
    }
    sq_buf_puts(out, "<h3 id=why-not-verified>Why EX-verified is below EX-test</h3>\n<p>The predictions EX-test "
                     "accepts that are not verified, per system: a counterexample tells them apart (different), "
                     "only under ties, or the search reached no verdict (unknown).</p>\n");
    rep_chart_gap(out, s);
}

/* The item sections, written while the records are read (in gold order,
** whatever order they finished in), and what goes before them. */
typedef struct Sections {
    SqBuf disagreements, linted;
    size_t n_disagreements, n_linted;
    Toc dtoc, ltoc;
    RepItems it;
} Sections;

static void sections_read(Sections *p, const EvalReport *r, const EvalSummary *s) {
    size_t n_lines = 0, cap = 0;
    SqEvalLine *lines = NULL;
    sq_eval_split_lines(r->records.data, r->records.len, &lines, &n_lines, &cap);
    sq_eval_sort_lines(lines, n_lines);
    for (size_t k = 0; k < n_lines; k++) {
        SqArena *a = sq_arena_new();
        const SqJson *doc = sq_json_parse(a, lines[k].text, lines[k].n, NULL);
        SqEvalRecord rec;
        const char *why;
        RepItem *item = NULL;
        if (doc && sq_eval_record_parse(a, lines[k].text, lines[k].n, &rec, &why) == 0)
            item = rep_items_add(&p->it, s, &rec, rep_text(doc, "label"));
        p->n_disagreements += disagreements(&p->disagreements, &p->dtoc, lines[k].text, doc, item, s->n_sys);
        if (lint_section(&p->linted, &p->ltoc, doc)) {
            p->n_linted++;
            if (item && !item->lint_anchor) item->lint_anchor = p->ltoc.n;
        }
        sq_arena_free(a);
    }
    free(lines);
}

static void contents(SqBuf *out, const Sections *p) {
    if (!p->dtoc.n && !p->ltoc.n) return;
    sq_buf_puts(out, "<nav id=contents><h2>Contents</h2>\n");
    if (p->dtoc.n) {
        sq_buf_puts(out, "<p><a href='#disagreements'>Disagreements</a></p><ol class=toc>");
        sq_buf_put(out, p->dtoc.links.data, p->dtoc.links.len);
        sq_buf_puts(out, "</ol>\n");
    }
    if (p->ltoc.n) {
        sq_buf_puts(out, "<p><a href='#lint'>Gold linter findings</a></p><ol class=toc>");
        sq_buf_put(out, p->ltoc.links.data, p->ltoc.links.len);
        sq_buf_puts(out, "</ol>\n");
    }
    sq_buf_puts(out, "</nav>\n");
}

static void page(SqBuf *out, const EvalReport *r, const EvalSummary *s) {
    page_head(out, s);
    Sections p = {SQ_BUF_INIT, SQ_BUF_INIT, 0, 0, {SQ_BUF_INIT, 0}, {SQ_BUF_INIT, 0}, {NULL, 0, 0, s->n_sys}};
    sections_read(&p, r, s);
    rep_system_lists(out, s, &p.it);
    if (p.it.n) rep_filter_place(out);
    rep_matrix(out, s, &p.it);
    contents(out, &p);
    sq_buf_printf(out, "<h2 id=disagreements>Disagreements (%zu)</h2>\n<p>Predictions that EX-test accepts but "
                       "a counterexample, checked by running both queries in SQLite, refutes.</p>\n",
                  p.n_disagreements);
    sq_buf_put(out, p.disagreements.data ? p.disagreements.data : "", p.disagreements.len);
    if (p.n_linted) {
        sq_buf_printf(out, "<h2 id=lint>Gold queries with findings of the gold linter (%zu)</h2>\n", p.n_linted);
        sq_buf_put(out, p.linted.data, p.linted.len);
    }
    if (p.it.n) rep_filter_script(out);
    sq_buf_puts(out, "</body></html>\n");
    sq_buf_free(&p.disagreements);
    sq_buf_free(&p.linted);
    sq_buf_free(&p.dtoc.links);
    sq_buf_free(&p.ltoc.links);
    rep_items_free(&p.it);
}

int eval_report_check(const char *cmd, const char *path) {
    int err;
    if (sq_check_writable(path, &err) < 0) {
        fprintf(stderr, "squint %s: cannot write the report '%s': %s\n", cmd, path, strerror(err));
        return -1;
    }
    size_t len;
    char *text = sq_read_file(path, &len, &err);
    if (!text) return 0; /* no file yet */
    int ours = len == 0 || (strstr(text, report_mark) && (size_t)(strstr(text, report_mark) - text) < 512);
    free(text);
    if (!ours)
        fprintf(stderr,
                "squint %s: '%s' is not a report of squint eval; it is left as it is: name another --report "
                "file\n",
                cmd, path);
    return ours ? 0 : -1;
}

int eval_report_write(const EvalReport *r, const EvalSummary *s, const char *path) {
    SqBuf out = SQ_BUF_INIT;
    page(&out, r, s);
    int err;
    int ok = sq_write_replace(path, out.data ? out.data : "", out.len, &err) == 0;
    if (!ok) fprintf(stderr, "squint: cannot write the report '%s': %s\n", path, strerror(err));
    sq_buf_free(&out);
    return ok ? 0 : -1;
}
