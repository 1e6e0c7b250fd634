/*
** eval_summary.c -- totals of `squint eval` records (eval_summary.h).
*/
#include "cli/eval_summary.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/profile/profile.h"
#include "runtime/jsonw.h"
#include "runtime/util.h"

void eval_summary_init(EvalSummary *s, const char **names, size_t n_sys, SqMetric metric, int has_db) {
    memset(s, 0, sizeof *s);
    s->names = names;
    s->n_sys = n_sys;
    s->metric = metric;
    s->has_db = has_db;
    s->all.counts = sq_calloc(n_sys + 1, sizeof *s->all.counts);
    s->times = sq_calloc(n_sys + 1, sizeof *s->times);
}

static void free_groups(EvalGroup *g, size_t n) {
    for (size_t k = 0; k < n; k++) {
        free(g[k].name);
        free(g[k].counts);
    }
    free(g);
}

void eval_summary_free(EvalSummary *s) {
    free(s->all.counts);
    for (size_t k = 0; k < s->n_sys; k++) free(s->times[k].s);
    free(s->times);
    free_groups(s->by_difficulty, s->n_difficulty);
    free_groups(s->by_db, s->n_db);
    free(s->seen);
    memset(s, 0, sizeof *s);
}

/* The group named name in *groups, added when new. */
static EvalGroup *group(EvalSummary *s, EvalGroup **groups, size_t *n, const char *name) {
    for (size_t k = 0; k < *n; k++)
        if (strcmp((*groups)[k].name, name) == 0) return &(*groups)[k];
    *groups = sq_realloc(*groups, (*n + 1) * sizeof **groups);
    EvalGroup *g = &(*groups)[(*n)++];
    g->name = sq_strdup(name);
    g->counts = sq_calloc(s->n_sys + 1, sizeof *g->counts);
    return g;
}

/* 1 the first time item is seen. */
static int first_sight(EvalSummary *s, size_t item) {
    if (item >= s->cap_seen) {
        size_t cap = s->cap_seen ? s->cap_seen : 1024;
        while (cap <= item) cap *= 2;
        s->seen = sq_realloc(s->seen, cap);
        memset(s->seen + s->cap_seen, 0, cap - s->cap_seen);
        s->cap_seen = cap;
    }
    if (s->seen[item]) return 0;
    s->seen[item] = 1;
    return 1;
}

/* A search's time, when one ran. */
static void add_time(EvalTimes *t, const SqEvalMark *m) {
    if (m->verdict < 0) return;
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 256;
        t->s = sq_realloc(t->s, t->cap * sizeof *t->s);
    }
    t->s[t->n++] = m->verify_seconds;
    t->timeouts += m->verdict == SQ_VERDICT_TIMEOUT;
    t->decided += !sq_eval_verdict_unknown(m->verdict);
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Median, 95th percentile and mean of t. */
static void time_stats(const EvalTimes *t, double *median, double *p95, double *mean) {
    double sum = 0, *v = sq_malloc((t->n + 1) * sizeof *v);
    if (t->n) memcpy(v, t->s, t->n * sizeof *v);
    qsort(v, t->n, sizeof *v, cmp_double);
    for (size_t k = 0; k < t->n; k++) sum += v[k];
    *median = t->n ? v[t->n / 2] : 0;
    *p95 = t->n ? v[t->n * 95 / 100] : 0;
    *mean = t->n ? sum / (double)t->n : 0;
    free(v);
}

long eval_summary_add_line_checked(EvalSummary *s, const char *line, size_t n, const char **why) {
    SqArena *a = sq_arena_new();
    SqEvalRecord r;
    long item = -1;
    if (sq_eval_record_parse(a, line, n, &r, why) == 0) {
        int same = r.n_systems == s->n_sys;
        for (size_t k = 0; same && k < s->n_sys; k++) same = strcmp(r.names[k], s->names[k]) == 0;
        if (!same) {
            *why = "a record of other systems (or in another order) than this run's";
        } else {
            item = (long)r.item;
            if (first_sight(s, r.item)) {
                EvalGroup *d = r.difficulty ? group(s, &s->by_difficulty, &s->n_difficulty, r.difficulty) : NULL;
                EvalGroup *b = r.db_id ? group(s, &s->by_db, &s->n_db, r.db_id) : NULL;
                for (size_t k = 0; k < s->n_sys; k++) {
                    sq_eval_count(&s->all.counts[k], &r.marks[k]);
                    s->n_verdicts += r.marks[k].verdict != SQ_EVAL_NO_VERDICT;
                    s->n_suite_marks += r.marks[k].suite >= 0;
                    add_time(&s->times[k], &r.marks[k]);
                    if (r.marks[k].ex != SQ_EX_NO_DB && r.marks[k].ex != SQ_EX_FAILED) s->has_db = 1;
                    if (d) sq_eval_count(&d->counts[k], &r.marks[k]);
                    if (b) sq_eval_count(&b->counts[k], &r.marks[k]);
                }
                s->n_items++;
                int refuted = 0;
                for (size_t k = 0; k < s->n_sys; k++) {
                    const SqEvalMark *m = &r.marks[k];
                    refuted |= sq_ex_accepted(m->ex) && (m->refuted || m->verdict == SQ_VERDICT_DIFFERENT);
                }
                s->n_lint_items += r.n_lint > 0;
                s->n_lint_refuted += r.n_lint > 0 && refuted;
                s->n_failed_records += r.n_systems && r.marks[0].ex == SQ_EX_FAILED;
            }
        }
    }
    sq_arena_free(a);
    return item;
}

void eval_summary_add_line(EvalSummary *s, const char *line, size_t n) {
    const char *why;
    eval_summary_add_line_checked(s, line, n, &why);
}

int eval_summary_kinds_any(const EvalSummary *s) {
    for (size_t k = 0; k < s->n_sys; k++)
        if (s->all.counts[k].kinds_tagged) return 1;
    return 0;
}

int eval_summary_realistic_any(const EvalSummary *s) {
    for (size_t k = 0; k < s->n_sys; k++)
        if (s->all.counts[k].realistic_known) return 1;
    return 0;
}

int eval_group_em_any(const EvalSummary *s, const EvalGroup *g) {
    for (size_t k = 0; k < s->n_sys; k++)
        if (g->counts[k].em.count) return 1;
    return 0;
}

static double pct(size_t k, size_t n) { return n ? 100.0 * (double)k / (double)n : 0.0; }
static double share_of(size_t k, size_t n) { return n ? (double)k / (double)n : 0.0; }

/* The accuracy of a system under EX-test (no database: none). */
static size_t ex_count(const EvalSummary *s, const SqEvalCounts *c) {
    return s->has_db ? c->ex[SQ_EX_CORRECT] : 0;
}

const char *eval_summary_brief(EvalSummary *s) {
    size_t used = 0;
    s->brief[0] = 0;
    for (size_t k = 0; k < s->n_sys && used + 64 < sizeof s->brief; k++) {
        const SqEvalCounts *c = &s->all.counts[k];
        int w = s->has_db ? snprintf(s->brief + used, sizeof s->brief - used, "%s%s EX %.1f%%", k ? ", " : "",
                                     s->names[k], pct(ex_count(s, c), c->items))
                          : snprintf(s->brief + used, sizeof s->brief - used, "%s%s eq %.1f%%", k ? ", " : "",
                                     s->names[k], pct(c->verified, c->items));
        if (w < 0) break;
        used += (size_t)w;
    }
    return s->brief;
}

/* 1 + the number of systems that do strictly better on value. */
static size_t rank(const EvalSummary *s, size_t k, size_t (*value)(const EvalSummary *, const SqEvalCounts *)) {
    size_t r = 1, v = value(s, &s->all.counts[k]);
    for (size_t j = 0; j < s->n_sys; j++) r += value(s, &s->all.counts[j]) > v;
    return r;
}

static size_t verified_of(const EvalSummary *s, const SqEvalCounts *c) { (void)s; return c->verified; }
static size_t cross_of(const EvalSummary *s, const SqEvalCounts *c) { (void)s; return c->verified_cross; }

/* One table: a row per system.  Without any search verdict (--no-verify)
** only EX-test is shown. */
static void text_group(const EvalSummary *s, const EvalGroup *g, SqBuf *out, int ranks) {
    int ver = s->n_verdicts > 0, real = eval_summary_realistic_any(s);
    sq_buf_printf(out, "%-20s %6s %8s", g->name ? g->name : "system", "items", "EX-test");
    if (s->n_suite_marks) sq_buf_printf(out, " %9s", "EX-suite");
    if (ver)
        sq_buf_printf(out, " %11s %9s", "EX-verified", "+cross");
    if (ver && real) sq_buf_printf(out, " %12s %9s", "EX-realistic", "real-diff");
    if (ver)
        sq_buf_printf(out, " %9s %6s %8s %8s", "different", "ties", "unknown", "decided");
    if (ranks) sq_buf_puts(out, ver ? "  rank EX/ver/cross" : "  rank");
    sq_buf_putc(out, '\n');
    for (size_t k = 0; k < s->n_sys; k++) {
        const SqEvalCounts *c = &g->counts[k];
        char ex[16];
        if (s->has_db) snprintf(ex, sizeof ex, "%.1f %%", pct(c->ex[SQ_EX_CORRECT], c->items));
        else snprintf(ex, sizeof ex, "-");
        sq_buf_printf(out, "%-20s %6zu %8s", s->names[k], c->items, ex);
        if (s->n_suite_marks) sq_buf_printf(out, " %7.1f %%", pct(c->suite_correct, c->items));
        if (ver) sq_buf_printf(out, " %9.1f %% %7.1f %%", pct(c->verified, c->items), pct(c->verified_cross, c->items));
        if (ver && real) sq_buf_printf(out, " %10.1f %% %9zu", pct(c->verified_realistic, c->items), c->different_realistic);
        if (ver)
            sq_buf_printf(out, " %9zu %6zu %8zu %6.1f %%", c->different, c->ties, c->unknown,
                          pct(c->ex_ok - c->unknown, c->ex_ok));
        if (ranks && ver && s->has_db)
            sq_buf_printf(out, "  %zu/%zu/%zu", rank(s, k, ex_count), rank(s, k, verified_of), rank(s, k, cross_of));
        else if (ranks && ver)
            sq_buf_printf(out, "  -/%zu/%zu", rank(s, k, verified_of), rank(s, k, cross_of));
        else if (ranks)
            sq_buf_printf(out, "  %zu", rank(s, k, ex_count));
        sq_buf_putc(out, '\n');
    }
}

/* The kinds of the refuting counterexamples, per system: how many were
** tagged, how many are robust, how many rely on each kind. */
static void kinds_text(const EvalSummary *s, SqBuf *out) {
    size_t tagged = 0;
    for (size_t k = 0; k < s->n_sys; k++) tagged += s->all.counts[k].kinds_tagged;
    if (!tagged) return;
    sq_buf_printf(out, "\n%-20s %6s %6s %10s %6s %6s %6s %6s\n", "kinds", "tagged", "robust", "degenerate", "null",
                  "format", "dups", "ties");
    for (size_t k = 0; k < s->n_sys; k++) {
        const SqEvalCounts *c = &s->all.counts[k];
        sq_buf_printf(out, "%-20s %6zu %6zu %10zu %6zu %6zu %6zu %6zu\n", s->names[k], c->kinds_tagged, c->kind_robust,
                      c->kind[0], c->kind[1], c->kind[2], c->kind[3], c->kind[4]);
    }
}

/* BIRD Mini-Dev's Soft-F1 of a system over a group: the mean over its
** items, an item without a score (failed) counting 0, as the script's. */
static double soft_f1_of(const SqEvalCounts *c) { return c->items ? c->soft_f1_sum / (double)c->items : 0; }

static int soft_f1_any(const EvalSummary *s, const EvalGroup *g) {
    for (size_t k = 0; k < s->n_sys; k++)
        if (g->counts[k].soft_f1_n) return 1;
    return 0;
}

/* " (n items not scored: ...)" when EM left out items of g for a system. */
static void unscored_text(const EvalSummary *s, const EvalGroup *g, SqBuf *out) {
    size_t most = 0;
    for (size_t k = 0; k < s->n_sys; k++) {
        size_t missing = g->counts[k].items - (size_t)g->counts[k].em.count;
        if (missing > most) most = missing;
    }
    if (most)
        sq_buf_printf(out, " (up to %zu item%s unscored: the official script could not score them)", most,
                      most == 1 ? "" : "s");
}

/* EM's component scores over all items: for each system, each
** component's F1 as the script prints it (accuracy and recall are in the
** JSON summary). */
static void em_parts_text(const EvalSummary *s, SqBuf *out) {
    if (!eval_group_em_any(s, &s->all)) return;
    static const char *const head[SQ_EM_NPARTS] = {"select", "sel-agg", "where", "where-op", "group-nh",
                                                   "group", "order", "and/or", "IUEN", "keywords"};
    sq_buf_printf(out, "\n%-20s", "EM components (F1)");
    for (int p = 0; p < SQ_EM_NPARTS; p++) sq_buf_printf(out, " %8s", head[p]);
    sq_buf_putc(out, '\n');
    for (size_t k = 0; k < s->n_sys; k++) {
        sq_buf_printf(out, "%-20s", s->names[k]);
        for (int p = 0; p < SQ_EM_NPARTS; p++) {
            double acc, rec, f1;
            sq_em_tally_part(&s->all.counts[k].em, (SqEmPart)p, &acc, &rec, &f1);
            sq_buf_printf(out, " %8.3f", f1);
        }
        sq_buf_putc(out, '\n');
    }
}

/* The benchmarks' other metrics under a group's table, each when it has
** scores: "EM ...: name 41.0, ..." over the items the script could score;
** Soft-F1, VES and R-VES, each a mean over the group's items, an item
** without one counting 0, as the scripts'. */
static void metric_lines(const EvalSummary *s, const EvalGroup *g, SqBuf *out) {
    int ves = 0;
    if (eval_group_em_any(s, g)) {
        sq_buf_puts(out, "EM (Spider's exact set match):");
        for (size_t k = 0; k < s->n_sys; k++)
            sq_buf_printf(out, "%s %s %.1f", k ? "," : "", s->names[k], 100 * sq_em_tally_exact(&g->counts[k].em));
        unscored_text(s, g, out);
        sq_buf_putc(out, '\n');
    }
    for (size_t k = 0; k < s->n_sys; k++) ves |= g->counts[k].ves_n > 0;
    if (soft_f1_any(s, g)) {
        sq_buf_puts(out, "Soft-F1 (BIRD Mini-Dev):");
        for (size_t k = 0; k < s->n_sys; k++)
            sq_buf_printf(out, "%s %s %.2f", k ? "," : "", s->names[k], 100 * soft_f1_of(&g->counts[k]));
        sq_buf_putc(out, '\n');
    }
    if (!ves) return;
    sq_buf_puts(out, "VES (BIRD) / R-VES (BIRD Mini-Dev):");
    for (size_t k = 0; k < s->n_sys; k++) {
        const SqEvalCounts *c = &g->counts[k];
        double n = c->items ? (double)c->items : 1;
        sq_buf_printf(out, "%s %s %.2f / %.2f", k ? "," : "", s->names[k], 100 * c->ves_sum / n, 100 * c->rves_sum / n);
    }
    sq_buf_putc(out, '\n');
}

void eval_summary_text(const EvalSummary *s, SqBuf *out) {
    sq_buf_printf(out, "%zu items, %s semantics%s\n\n", s->n_items, sq_metric_name(s->metric),
                  s->has_db ? "" : ", schemas only (no EX-test: verification alone)");
    text_group(s, &s->all, out, 1);
    metric_lines(s, &s->all, out);
    em_parts_text(s, out);
    if (s->n_verdicts) {
        sq_buf_printf(out, "\n%-20s %8s %8s %10s %10s %10s %9s\n", "search", "searches", "decided", "median", "p95",
                      "mean", "timeouts");
        for (size_t k = 0; k < s->n_sys; k++) {
            double med, p95, mean;
            const EvalTimes *t = &s->times[k];
            time_stats(t, &med, &p95, &mean);
            sq_buf_printf(out, "%-20s %8zu %6.1f %% %7.1f ms %7.1f ms %7.1f ms %7.2f %%\n", s->names[k], t->n,
                          100 * share_of(t->decided, t->n), 1000 * med, 1000 * p95, 1000 * mean,
                          100 * share_of(t->timeouts, t->n));
        }
    }
    kinds_text(s, out);
    if (s->n_difficulty) {
        sq_buf_puts(out, "\nper difficulty:\n");
        for (size_t d = 0; d < s->n_difficulty; d++) {
            sq_buf_putc(out, '\n');
            text_group(s, &s->by_difficulty[d], out, 0);
            metric_lines(s, &s->by_difficulty[d], out);
        }
    }
    if (s->n_lint_items)
        sq_buf_printf(out, "\ngold linter: %zu gold quer%s with findings; %zu of them on items where a counterexample "
                           "refutes a prediction EX-test accepts\n",
                      s->n_lint_items, s->n_lint_items == 1 ? "y" : "ies", s->n_lint_refuted);
    if (s->n_failed_records)
        sq_buf_printf(out, "\n%zu item%s did not finish (counted as failed for every system)\n",
                      s->n_failed_records, s->n_failed_records == 1 ? "" : "s");
    if (s->n_suite_marks)
        sq_buf_puts(out, "\nEX-suite: correct on every database of the item's test suite (squint fixture) and\n"
                         "not rejected by EX-test; an item without a suite counts by EX-test alone.\n");
    if (eval_summary_kinds_any(s))
        sq_buf_puts(out, "\nkinds: the counterexamples of the different and ties columns that were tagged (the\n"
                         "item had its database), how many rely on nothing the database never shows\n"
                         "(robust), and how many on each kind: degenerate-empty-vs-null, needs-null,\n"
                         "needs-format, needs-duplicates, needs-ties (one counterexample may have several).\n");
    if (eval_summary_realistic_any(s))
        sq_buf_puts(out, "\nEX-realistic: EX-test correct and no counterexample up to the bound on realistic data\n"
                         "(databases whose columns keep the facts of the item's profile: --realistic); an\n"
                         "equivalence on every database counts, only refutations were searched again; its\n"
                         "different column counts the refutations that hold on realistic data (ties and\n"
                         "column counts included).  Not a promise for every database.\n");
    if (s->n_verdicts)
        sq_buf_puts(out, "\nEX-verified: EX-test correct and no counterexample up to the bound; different, ties\n"
                         "and unknown count the EX-test-correct items that are not verified, by why; decided:\n"
                         "the share of the EX-test-correct items (all items without a database) that got a\n"
                         "verdict.  search: the searches run (pairs that parse and bind), the share of them\n"
                         "with a verdict, and their time.\n");
}

/* EM over the items it scored, and each component's accuracy, recall
** and F1 as the script computes them (fractions, as it prints them). */
static void em_json(const SqEmTally *t, SqJsonWriter *w) {
    sq_jw_key(w, "em");
    sq_jw_double(w, sq_em_tally_exact(t));
    sq_jw_key(w, "em_items");
    sq_jw_int(w, t->count);
    sq_jw_key(w, "em_parts");
    sq_jw_obj_begin(w);
    for (int p = 0; p < SQ_EM_NPARTS; p++) {
        double acc, rec, f1;
        sq_em_tally_part(t, (SqEmPart)p, &acc, &rec, &f1);
        sq_jw_key(w, sq_em_part_name[p]);
        sq_jw_obj_begin(w);
        sq_jw_key(w, "acc");
        sq_jw_double(w, acc);
        sq_jw_key(w, "rec");
        sq_jw_double(w, rec);
        sq_jw_key(w, "f1");
        sq_jw_double(w, f1);
        sq_jw_obj_end(w);
    }
    sq_jw_obj_end(w);
}

static void json_counts(const EvalSummary *s, const SqEvalCounts *c, SqJsonWriter *w) {
    sq_jw_obj_begin(w);
    sq_jw_key(w, "items");
    sq_jw_int(w, (int64_t)c->items);
    if (c->soft_f1_n) {
        sq_jw_key(w, "soft_f1");
        sq_jw_double(w, soft_f1_of(c));
    }
    if (c->em.count) em_json(&c->em, w);
    if (c->ves_n) {   /* percents, as the scripts print them */
        sq_jw_key(w, "ves");
        sq_jw_double(w, c->items ? 100 * c->ves_sum / (double)c->items : 0);
        sq_jw_key(w, "r_ves");
        sq_jw_double(w, c->items ? 100 * c->rves_sum / (double)c->items : 0);
    }
    sq_jw_key(w, "ex_test");
    if (s->has_db) sq_jw_double(w, c->items ? (double)c->ex[SQ_EX_CORRECT] / (double)c->items : 0);
    else sq_jw_null(w);
    sq_jw_key(w, "ex_suite");
    if (s->n_suite_marks) sq_jw_double(w, c->items ? (double)c->suite_correct / (double)c->items : 0);
    else sq_jw_null(w);
    sq_jw_key(w, "ex_verified");
    sq_jw_double(w, c->items ? (double)c->verified / (double)c->items : 0);
    sq_jw_key(w, "ex_verified_cross");
    sq_jw_double(w, c->items ? (double)c->verified_cross / (double)c->items : 0);
    sq_jw_key(w, "ex_verified_realistic");
    if (c->realistic_known) sq_jw_double(w, c->items ? (double)c->verified_realistic / (double)c->items : 0);
    else sq_jw_null(w);
    sq_jw_key(w, "unknown_share");
    sq_jw_double(w, c->items ? (double)c->unknown / (double)c->items : 0);
    sq_jw_key(w, "outcomes");
    sq_jw_obj_begin(w);
    for (int k = 0; k < SQ_EX_N_OUTCOMES; k++) {
        sq_jw_key(w, sq_ex_outcome_name((SqExOutcome)k));
        sq_jw_int(w, (int64_t)c->ex[k]);
    }
    sq_jw_obj_end(w);
    const char *keys[] = {"verified", "verified_cross", "different", "ties", "unknown", "refuted",
                          "realistic_known", "verified_realistic", "different_realistic", "unknown_realistic"};
    size_t vals[] = {c->verified, c->verified_cross, c->different, c->ties, c->unknown, c->refuted,
                     c->realistic_known, c->verified_realistic, c->different_realistic, c->unknown_realistic};
    for (size_t k = 0; k < SQ_ARRAY_LEN(keys); k++) {
        sq_jw_key(w, keys[k]);
        sq_jw_int(w, (int64_t)vals[k]);
    }
    sq_jw_key(w, "kinds");
    sq_jw_obj_begin(w);
    sq_jw_key(w, "tagged");
    sq_jw_int(w, (int64_t)c->kinds_tagged);
    sq_jw_key(w, "robust");
    sq_jw_int(w, (int64_t)c->kind_robust);
    for (unsigned b = 0; b < SQ_ARRAY_LEN(c->kind); b++) {
        sq_jw_key(w, sq_cex_kind_name(1u << b));
        sq_jw_int(w, (int64_t)c->kind[b]);
    }
    sq_jw_obj_end(w);
    sq_jw_obj_end(w);
}

static void json_groups(const EvalSummary *s, const char *key, const EvalGroup *g, size_t n, SqJsonWriter *w) {
    sq_jw_key(w, key);
    sq_jw_obj_begin(w);
    for (size_t i = 0; i < n; i++) {
        sq_jw_key(w, g[i].name);
        sq_jw_obj_begin(w);
        for (size_t k = 0; k < s->n_sys; k++) {
            sq_jw_key(w, s->names[k]);
            json_counts(s, &g[i].counts[k], w);
        }
        sq_jw_obj_end(w);
    }
    sq_jw_obj_end(w);
}

void eval_summary_json(const EvalSummary *s, SqBuf *out) {
    SqJsonWriter w;
    sq_jw_init(&w, out, 1);
    sq_jw_obj_begin(&w);
    sq_jw_key(&w, "items");
    sq_jw_int(&w, (int64_t)s->n_items);
    sq_jw_key(&w, "semantics");
    sq_jw_str(&w, sq_metric_name(s->metric));
    sq_jw_key(&w, "ex_test_ran");
    sq_jw_bool(&w, s->has_db);
    sq_jw_key(&w, "lint_items");
    sq_jw_int(&w, (int64_t)s->n_lint_items);
    sq_jw_key(&w, "lint_items_refuted");
    sq_jw_int(&w, (int64_t)s->n_lint_refuted);
    sq_jw_key(&w, "failed_items");
    sq_jw_int(&w, (int64_t)s->n_failed_records);
    sq_jw_key(&w, "systems");
    sq_jw_arr_begin(&w);
    for (size_t k = 0; k < s->n_sys; k++) {
        sq_jw_obj_begin(&w);
        sq_jw_key(&w, "name");
        sq_jw_str(&w, s->names[k]);
        sq_jw_key(&w, "rank_ex_test");
        if (s->has_db) sq_jw_int(&w, (int64_t)rank(s, k, ex_count));
        else sq_jw_null(&w);
        sq_jw_key(&w, "rank_ex_verified");
        sq_jw_int(&w, (int64_t)rank(s, k, verified_of));
        sq_jw_key(&w, "rank_ex_verified_cross");
        sq_jw_int(&w, (int64_t)rank(s, k, cross_of));
        sq_jw_key(&w, "all");
        json_counts(s, &s->all.counts[k], &w);
        double med, p95, mean;
        time_stats(&s->times[k], &med, &p95, &mean);
        sq_jw_key(&w, "search_seconds");
        sq_jw_obj_begin(&w);
        sq_jw_key(&w, "searches");
        sq_jw_int(&w, (int64_t)s->times[k].n);
        sq_jw_key(&w, "median");
        sq_jw_double(&w, med);
        sq_jw_key(&w, "p95");
        sq_jw_double(&w, p95);
        sq_jw_key(&w, "mean");
        sq_jw_double(&w, mean);
        sq_jw_key(&w, "timeout_share");
        sq_jw_double(&w, share_of(s->times[k].timeouts, s->times[k].n));
        sq_jw_key(&w, "decided_share");
        sq_jw_double(&w, share_of(s->times[k].decided, s->times[k].n));
        sq_jw_obj_end(&w);
        sq_jw_obj_end(&w);
    }
    sq_jw_arr_end(&w);
    json_groups(s, "by_difficulty", s->by_difficulty, s->n_difficulty, &w);
    json_groups(s, "by_db", s->by_db, s->n_db, &w);
    sq_jw_obj_end(&w);
    sq_buf_putc(out, '\n');
}

/* ---- --fail-under ------------------------------------------------------ */

static const struct {
    const char *name, *label;
    EvalMetric metric;
} metrics[] = {
    {"ex", "EX-test", EVAL_METRIC_EX},
    {"ex-verified", "EX-verified", EVAL_METRIC_VERIFIED},
    {"ex-cross", "EX-verified with the cross-check", EVAL_METRIC_CROSS},
    {"soft-f1", "Soft-F1", EVAL_METRIC_SOFT_F1},
    {"ves", "VES", EVAL_METRIC_VES},
    {"r-ves", "R-VES", EVAL_METRIC_RVES},
    {"em", "EM", EVAL_METRIC_EM},
};

int eval_gate_parse(const char *text, EvalGate *g, const char **why) {
    const char *eq = strchr(text, '='), *colon = strchr(text, ':');
    if (colon && eq && colon > eq) colon = NULL;
    const char *m = colon ? colon + 1 : text;
    memset(g, 0, sizeof *g);
    g->text = text;
    *why = "takes [SYSTEM:]METRIC=PERCENT, METRIC one of ex, ex-verified, ex-cross, soft-f1, ves, r-ves, em";
    if (!eq || (colon && colon == text)) return -1;
    size_t k = 0, n = (size_t)(eq - m);
    while (k < sizeof metrics / sizeof *metrics && (strlen(metrics[k].name) != n || strncmp(metrics[k].name, m, n)))
        k++;
    if (k == sizeof metrics / sizeof *metrics) return -1;
    char *end;
    g->percent = strtod(eq + 1, &end);
    if (!eq[1] || *end || g->percent < 0 || g->percent > 100) {
        *why = "takes a PERCENT from 0 to 100 after '='";
        return -1;
    }
    g->metric = metrics[k].metric;
    g->system = colon ? text : NULL;
    g->system_len = colon ? (size_t)(colon - text) : 0;
    return 0;
}

/* The percent a gate's metric gives a system. */
static double gate_value(const EvalSummary *s, const SqEvalCounts *c, EvalMetric m) {
    if (m == EVAL_METRIC_SOFT_F1) return 100 * soft_f1_of(c);
    if (m == EVAL_METRIC_VES) return c->items ? 100 * c->ves_sum / (double)c->items : 0;
    if (m == EVAL_METRIC_RVES) return c->items ? 100 * c->rves_sum / (double)c->items : 0;
    if (m == EVAL_METRIC_EM) return 100 * sq_em_tally_exact(&c->em);
    return pct(m == EVAL_METRIC_EX ? ex_count(s, c) : m == EVAL_METRIC_VERIFIED ? c->verified : c->verified_cross,
               c->items);
}

size_t eval_summary_gates(const EvalSummary *s, const EvalGate *gates, size_t n, const char *cmd, FILE *err) {
    size_t failed = 0;
    for (size_t i = 0; i < n; i++) {
        const EvalGate *g = &gates[i];
        size_t hits = 0;
        for (size_t k = 0; k < s->n_sys; k++) {
            if (g->system && (strlen(s->names[k]) != g->system_len || strncmp(g->system, s->names[k], g->system_len)))
                continue;
            hits++;
            const SqEvalCounts *c = &s->all.counts[k];
            double v = gate_value(s, c, g->metric);
            if (v + 1e-9 >= g->percent) continue;
            fprintf(err, "squint %s: %s: %s %.2f %% is under %g %% (--fail-under %s)\n", cmd, s->names[k],
                    metrics[g->metric].label, v, g->percent, g->text);
            failed++;
        }
        if (!hits) {
            fprintf(err, "squint %s: --fail-under %s: no system is named '%.*s'\n", cmd, g->text, (int)g->system_len,
                    g->system);
            failed++;
        }
    }
    return failed;
}
