/*
** record.h -- read `squint eval` records back, and add them up.
**
** Layer: backend/eval.  Takes the JSON lines item.h writes; gives, per
** item and system, what the summary needs (SqEvalMark), and the totals
** per system, per difficulty and per database.  The same reading serves
** a resumed run (items already in --out are not run again), `squint
** merge` and the summary of a fresh run, so the numbers of a run do not
** depend on how it was split or interrupted.
*/
#ifndef SQ_EVAL_RECORD_H
#define SQ_EVAL_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "runtime/arena.h"
#include "runtime/json.h"
#include "backend/equiv/equiv.h"
#include "backend/eval/metric.h"
#include "backend/eval/spider_em.h"

/* The records format: every record of squint eval carries
** "squint_eval": SQ_EVAL_FORMAT right after its "item", which is how a
** records file is told from any other file.  Format 1 (before it) had no
** such member, no "inputs" and no "options"; such records are still read
** (squint merge), but a run cannot resume from them. */
#define SQ_EVAL_FORMAT 2
#define SQ_EVAL_FORMAT_KEY "squint_eval"

/* Verdicts beyond SqVerdict, in a mark. */
enum {
    SQ_EVAL_NO_VERDICT = -1, /* the search was not run */
    SQ_EVAL_NOT_LOADED = -2, /* a query did not parse or bind */
};

/* One system on one item. */
typedef struct SqEvalMark {
    int8_t ex;          /* SqExOutcome */
    int8_t verdict;     /* SqVerdict, or SQ_EVAL_NO_VERDICT / SQ_EVAL_NOT_LOADED */
    uint8_t refuted;    /* the cross-check refuted it */
    int8_t suite;       /* EX-suite: 1 correct, 0 wrong, -1 not known */
    double verify_seconds; /* the search's time (0 when not run) */
    uint8_t has_kinds;  /* the counterexample was tagged with its kinds */
    uint8_t kinds;      /* SQ_CEX_* bits (0: robust) */
    uint8_t has_realistic; /* the record has "verdict_realistic" (--realistic) */
    int8_t verdict_realistic; /* its verdict, as verdict is (an equivalence
                           on realistic data is SQ_VERDICT_EQUIVALENT) */
    double soft_f1;     /* BIRD Mini-Dev's Soft-F1 (softf1.h); -1: none */
    double ves_ratio;   /* VES's time ratio (ves.h); -1: not timed */
    int8_t em;          /* Spider's exact set match: 1, 0; -1: not scored */
    SqEmPartScore em_part[SQ_EM_NPARTS]; /* its components, when em >= 0 */
} SqEvalMark;

/* One record: an item and its marks, in the order of its systems. */
typedef struct SqEvalRecord {
    size_t item;
    const char *db_id, *difficulty; /* may be NULL */
    const char **names;             /* per system */
    SqEvalMark *marks;
    size_t n_systems;
    size_t n_lint;                  /* the gold linter's findings (0: none, or not run) */
    int format;                     /* "squint_eval", or 1 when absent */
    const char *inputs;             /* the digest of its inputs, or NULL */
    const char *gold;               /* the gold SQL it was computed from, or NULL */
    const char **preds;             /* per system: the prediction, or NULL */
    const SqJson *options;          /* the run's options object, or NULL */
    const char *text;               /* the line parsed (offsets of options
                                       point into it; not owned) */
} SqEvalRecord;

/* Whether text[0..n) starts as a record of this format does:
** {"item":DIGITS,"squint_eval":  (a last line cut off mid-write is told
** from another file's content by it). */
int sq_eval_line_is_ours(const char *text, size_t n);

/* The first member of the options object a whose text differs from b's
** (or that only one of them has); NULL when they agree.  a_text and
** b_text are the documents they were parsed from. */
const char *sq_eval_options_diff(const SqJson *a, const char *a_text, const SqJson *b, const char *b_text);

/* One line of a records file, its '\n' included. */
typedef struct SqEvalLine {
    size_t item;        /* the record's "item" when the line starts with it,
                           as item.c writes it; else SIZE_MAX */
    size_t seq;         /* its place among the lines read, for a stable order */
    const char *text;
    size_t n;
} SqEvalLine;

/* Append the complete lines of text[0..len) to the array *lines (heap;
** *n used, *cap allocated).  Returns the length of text up to the end of
** its last complete line: less than len when a run was cut off while
** writing its last record. */
size_t sq_eval_split_lines(const char *text, size_t len, SqEvalLine **lines, size_t *n, size_t *cap);
/* Sort lines by item, lines of one item in the order they were read. */
void sq_eval_sort_lines(SqEvalLine *lines, size_t n);

/* Parse one line into *r (strings in a).  0, or -1 with a static reason
** in *why. */
int sq_eval_record_parse(SqArena *a, const char *line, size_t n, SqEvalRecord *r, const char **why);

/* The counts of one system over a set of items. */
typedef struct SqEvalCounts {
    size_t items;
    size_t ex[SQ_EX_N_OUTCOMES];
    size_t ex_ok;         /* EX-test correct, or no database (verification only) */
    size_t verified;      /* ex_ok and equivalent up to the bound */
    size_t verified_cross;/* verified, and no other system's counterexample refutes it */
    size_t different;     /* ex_ok, yet a validated counterexample (or column count) */
    size_t ties;          /* ex_ok, different only under ties */
    size_t unknown;       /* ex_ok, and no verdict (unknown, not loaded, not run) */
    size_t refuted;       /* ex_ok, refuted by the cross-check */
    size_t suite_known;   /* items with an EX-suite outcome */
    size_t suite_correct; /* ... correct on every database of the suite */
    size_t kinds_tagged;  /* different or ties, with the kinds of the counterexample */
    size_t kind_robust;   /* ... of which none applies */
    size_t kind[5];       /* ... of which each SQ_CEX_* bit, by bit number */
    size_t realistic_known;    /* ex_ok with a realistic verdict (--realistic) */
    size_t verified_realistic; /* ... equivalent on realistic data (or on every database) */
    size_t different_realistic;/* ... different (ties and column count included) on realistic data */
    size_t unknown_realistic;  /* ... and no verdict either way */
    size_t soft_f1_n;     /* items with a Soft-F1 (bird, on a database) */
    double soft_f1_sum;   /* ... the sum of their scores */
    size_t ves_n;         /* items timed for VES (--ves) */
    double ves_sum;       /* ... the sum of sqrt(time ratio) */
    double rves_sum;      /* ... the sum of sqrt(R-VES's reward) */
    SqEmTally em;         /* exact set match over the items it scored */
} SqEvalCounts;

/* What a mark adds to counts. */
void sq_eval_count(SqEvalCounts *c, const SqEvalMark *m);

/* The record's name of a verdict (one per SqVerdict, unlike
** sq_verdict_name): "equivalent", "different", "different-under-ties",
** "column-count", "unsupported", "timeout", "unconfirmed", "spurious",
** "vacuous", "solver-failed", "not-loaded"; NULL for SQ_EVAL_NO_VERDICT.  _parse
** gives the verdict of a name, or SQ_EVAL_NO_VERDICT. */
const char *sq_eval_verdict_name(int verdict);
int sq_eval_verdict_parse(const char *name);
/* The record's name of r's verdict: sq_eval_verdict_name, but a verdict
** that only a realistic search reached is named as sq_equiv_verdict_label
** names it ("equivalent-on-realistic-data", "vacuous-on-realistic-data"),
** which _parse reads back as EQUIVALENT and VACUOUS. */
const char *sq_eval_verdict_label(const SqEquivResult *r);

/* Whether the verdict is one of the unknowns (no verdict either way). */
int sq_eval_verdict_unknown(int verdict);

#endif
