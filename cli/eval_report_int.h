/*
** eval_report_int.h -- what the files of the eval report share (private
** to cli/eval_report*.c).
**
** Layer: cli.  eval_report.c writes the page and the item sections;
** eval_report_nav.c the ways around it (the lists per system, the
** cross-system matrix, the filters' script); eval_report_svg.c the
** charts; eval_report_diff.c the result tables of a counterexample with
** what differs highlighted; eval_report_graph.c the join query graphs of
** gold and prediction.  The page is written in one pass over the
** records (RepItems collects what each item showed), then the parts that
** go before the sections are put together from it.
*/
#ifndef SQ_EVAL_REPORT_INT_H
#define SQ_EVAL_REPORT_INT_H

#include "cli/eval_summary.h"
#include "runtime/json.h"

/* ---- HTML text ----------------------------------------------------------- */

/* s[0..n) (or the C string s; NULL writes nothing) with <>&" escaped,
** which is also well-formed XML text for the inline SVG. */
void rep_esc_n(SqBuf *out, const char *s, size_t n);
void rep_esc(SqBuf *out, const char *s);
/* Member key of o as a string, or NULL. */
const char *rep_text(const SqJson *o, const char *key);
/* k out of n as a fraction (0 when n is 0). */
double rep_share(size_t k, size_t n);

/* ---- what each item showed ----------------------------------------------- */

/* Why a system's prediction is counted against it on one item. */
typedef enum RepFail {
    REP_OK,          /* nothing against it (or nothing known) */
    REP_EX_FAIL,     /* EX-test ran and did not accept it */
    REP_DIFFERENT,   /* accepted, its own counterexample refutes it */
    REP_TIES,        /* accepted, different only under ties */
    REP_REFUTED,     /* accepted, another system's counterexample refutes it */
} RepFail;

/* One system on one item. */
typedef struct RepMark {
    uint8_t fail;      /* RepFail */
    int8_t ex;         /* SqExOutcome, for the matrix's tooltip */
    size_t anchor;     /* N of its disagreement section d-N; 0: none */
} RepMark;

/* One item of the records, in gold order. */
typedef struct RepItem {
    size_t item;       /* its index in the gold file */
    char *label;       /* heap */
    int difficulty;    /* index into EvalSummary.by_difficulty; -1: none */
    size_t lint_anchor;/* N of its gold-linter section l-N; 0: none */
    RepMark *marks;    /* one per system, heap */
} RepItem;

typedef struct RepItems {
    RepItem *v;        /* heap, each item's label and marks owned */
    size_t n, cap;
    size_t n_sys;
} RepItems;

/* The item of record r (a new one unless r repeats the last item's
** index, as a record read twice does), its marks filled from r. */
RepItem *rep_items_add(RepItems *it, const EvalSummary *s, const SqEvalRecord *r, const char *label);
void rep_items_free(RepItems *it);
/* The token a filter uses for f ("ex-fail", "different", ...). */
const char *rep_fail_token(RepFail f);

/* ---- around the page (eval_report_nav.c) ----------------------------------- */

/* The id of system k's list of disagreements ("s-K"), or of its list in
** difficulty group d ("s-K-D"; d < 0 for the whole run), into buf. */
void rep_system_id(char *buf, size_t size, size_t k, int d);
/* The lists of each system's disagreements, whole and per difficulty,
** each with the id rep_system_id gives: where the summary's rows link. */
void rep_system_lists(SqBuf *out, const EvalSummary *s, const RepItems *it);
/* The matrix of items (rows) and systems (columns): a mark where a
** system's prediction fails EX-test or is refuted, only the items where
** one is; each row has the id i-ITEM and links to the item's first
** section.  Returns the count of rows. */
size_t rep_matrix(SqBuf *out, const EvalSummary *s, const RepItems *it);
/* The filters by system, difficulty and verdict: the empty place the
** script fills with its controls, and the script, which hides the item
** sections (and their contents entries) that do not match.  Without
** script the place stays empty and every item is shown.  The page's
** address may preset them: report.html?system=NAME&verdict=different. */
void rep_filter_place(SqBuf *out);
void rep_filter_script(SqBuf *out);
/* The data- attributes the filters select on, each left out when NULL:
** the system, the item's difficulty, the verdict (a rep_fail_token, or
** "lint" for a gold-linter section). */
void rep_filter_attrs(SqBuf *out, const char *system, const char *difficulty, const char *verdict);

/* ---- result tables (eval_report_diff.c) ----------------------------------- */

/* What differs between two results, per row of one of them. */
typedef struct RepRowMarks {
    uint8_t *row;      /* per row: 1 when it is highlighted */
    uint8_t *cell;     /* per row, width cells each: 1 when the cell differs */
    size_t width;
} RepRowMarks;

/* {"columns": [...], "rows": [[...], ...]} (t, parsed from doc) as a
** table titled title, with the rows and cells marks says highlighted
** (NULL: none). */
void rep_rows_table(SqBuf *out, const char *doc, const SqJson *t, const char *title, const RepRowMarks *marks);
/* A counterexample's gold and prediction results side by side (class
** res), what makes them differ highlighted: under bag semantics a row
** of one with no equal row left in the other; when as many rows of each
** are left, they are paired in order and the cells that differ marked;
** when the rows are equal as bags, the positions where they differ. */
void rep_results(SqBuf *out, const char *doc, const SqJson *gold, const SqJson *pred);

/* ---- join query graphs (eval_report_graph.c) ----------------------------- */

/* The join query graphs of gold and pred side by side, as inline SVG
** (ids jg-d-ANCHOR-gold and -pred, class joingraph), when both queries
** have one over the tables of w's counterexample and they differ (in
** the tables read or the join conditions); nothing otherwise. */
void rep_join_graphs(SqBuf *out, const SqJson *w, const char *gold, const char *pred, size_t anchor);

/* ---- the charts (eval_report_svg.c) --------------------------------------- */

/* Inline SVG: EX-test and EX-verified per system (id chart-systems), the
** same per difficulty (chart-difficulty; nothing without difficulties),
** and per system a bar of the accepted predictions that are not verified,
** split into different, ties and unknown (chart-gap). */
void rep_chart_systems(SqBuf *out, const EvalSummary *s);
void rep_chart_difficulty(SqBuf *out, const EvalSummary *s);
void rep_chart_gap(SqBuf *out, const EvalSummary *s);

#endif
