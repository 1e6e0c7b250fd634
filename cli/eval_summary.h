/*
** eval_summary.h -- the totals of `squint eval` records, as a table or
** JSON: per system EX-test, EX-verified, EX-verified with the
** cross-check, what stood in the way (differences, ties, unknowns) and
** the rank under each accuracy; then the same per difficulty and (JSON)
** per database.
**
** Layer: cli.  Fed one record line at a time (backend/eval/record.h),
** from a fresh run, a resumed --out file or `squint merge`'s inputs.  An
** item seen twice counts once.
*/
#ifndef SQ_EVAL_SUMMARY_H
#define SQ_EVAL_SUMMARY_H

#include "backend/eval/record.h"
#include <stdio.h>

#include "runtime/strbuf.h"

/* The search times of one system (runs that reached a verdict or not). */
typedef struct EvalTimes {
    double *s;
    size_t n, cap;
    size_t timeouts;
    size_t decided;          /* searches that reached a verdict */
} EvalTimes;

/* Counts per system for one group of items (all, a difficulty, a db). */
typedef struct EvalGroup {
    char *name;              /* heap; NULL for the whole run */
    SqEvalCounts *counts;    /* per system */
} EvalGroup;

typedef struct EvalSummary {
    const char **names;      /* the systems, in order (not owned) */
    size_t n_sys;
    SqMetric metric;
    int has_db;              /* EX-test could run (set too by any record
                                whose EX-test ran) */
    EvalGroup all;
    EvalTimes *times;        /* per system */
    EvalGroup *by_difficulty, *by_db;
    size_t n_difficulty, n_db;
    uint8_t *seen;           /* per item index */
    size_t cap_seen;
    size_t n_items, n_failed_records;
    size_t n_verdicts;       /* marks with a search verdict: 0 when none ran */
    size_t n_suite_marks;    /* marks with an EX-suite outcome (--suite) */
    size_t n_lint_items;     /* gold queries with findings of the gold linter */
    size_t n_lint_refuted;   /* ... among items with a refuted prediction */
    char brief[256];
} EvalSummary;

void eval_summary_init(EvalSummary *s, const char **names, size_t n_sys, SqMetric metric, int has_db);
void eval_summary_free(EvalSummary *s);

/* Count one record line.  _checked also makes sure the record is one of
** this run (its systems are these, in this order): it returns the item's
** index, or -1 with a static reason in *why. */
long eval_summary_add_line_checked(EvalSummary *s, const char *line, size_t n, const char **why);
void eval_summary_add_line(EvalSummary *s, const char *line, size_t n);

/* "model_1 EX 40.3 %, ver 38.0 %; ..." for progress lines (in s). */
const char *eval_summary_brief(EvalSummary *s);

/* Whether any counterexample was tagged with its kinds; whether any
** record has a realistic verdict (--realistic). */
int eval_summary_kinds_any(const EvalSummary *s);
int eval_summary_realistic_any(const EvalSummary *s);
/* Whether any system has an exact-set-match score (--em) in group g. */
int eval_group_em_any(const EvalSummary *s, const EvalGroup *g);

/* --fail-under [SYSTEM:]METRIC=PERCENT: a system's accuracy must reach
** percent, or the run fails (exit 1). */
typedef enum EvalMetric {
    EVAL_METRIC_EX, EVAL_METRIC_VERIFIED, EVAL_METRIC_CROSS, EVAL_METRIC_SOFT_F1, EVAL_METRIC_VES, EVAL_METRIC_RVES, EVAL_METRIC_EM
} EvalMetric;
typedef struct EvalGate {
    const char *system;      /* in text; NULL: every system */
    size_t system_len;
    EvalMetric metric;
    double percent;
    const char *text;        /* as given, for the message */
} EvalGate;

/* Parse one --fail-under value into g; 0, or -1 with a static reason in
** *why. */
int eval_gate_parse(const char *text, EvalGate *g, const char **why);
/* The gates the summary does not reach, each said on err as command
** cmd's: their count.  A gate naming no system of the run is said and
** counted too. */
size_t eval_summary_gates(const EvalSummary *s, const EvalGate *gates, size_t n, const char *cmd, FILE *err);

void eval_summary_text(const EvalSummary *s, SqBuf *out);
void eval_summary_json(const EvalSummary *s, SqBuf *out);

#endif
