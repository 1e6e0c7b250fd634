/*
** metric.h -- execution accuracy (EX-test) as the official Spider and BIRD
** scripts compute it, one item at a time.
**
** Layer: backend/eval (uses backend/sqlite).  Takes a read-only database,
** the gold SQL and a prediction's SQL, as the benchmark files hold them;
** gives whether the prediction counts as correct, and why not.
**
** The scripts do more than compare results, and each step is kept here
** because it changes which items count:
**   spider  (test-suite evaluation.py --etype exec, one database per
**           db_id): the text is stripped; in a prediction every "value"
**           becomes "1" (the placeholder some systems emit, wherever the
**           five letters occur); "> =", "< =", "! =" are closed
**           up; every DISTINCT token is deleted from both queries (unless
**           keep_distinct), COUNT(DISTINCT x) included; order matters when
**           the gold text, lowered, contains "order by"; YEAR(CURDATE())
**           becomes 2020; each query runs as one cursor.execute() (a second
**           statement is an error); results are compared by result_eq
**           (SQ_CMP_SPIDER in result.h).
**   bird    (evaluation.py): each query runs as one cursor.execute();
**           correct iff set(predicted rows) == set(gold rows); TEXT that is
**           not valid UTF-8 makes Python's decoding, and so the item, fail.
** A prediction that fails to run is wrong in both.  A prediction that
** would write is refused before it runs (db.h) and is wrong.
**
** Bounded work.  Each query runs under a deadline.  Under spider a
** prediction may return at most one row more than the gold result, since
** result_eq needs equal row counts: stopping there changes no verdict and
** keeps a runaway cartesian product from exhausting memory.  Under bird
** duplicates may collapse, so the row limit is a fixed budget and a
** prediction over it is reported as too big, not as wrong.
**
** Memory: SqExGold owns its result and strings (sq_ex_gold_free).
*/
#ifndef SQ_EVAL_METRIC_H
#define SQ_EVAL_METRIC_H

#include "backend/sqlite/db.h"

typedef enum SqMetric {
    SQ_METRIC_SPIDER, /* bag of rows, columns in any order, a list with ORDER BY */
    SQ_METRIC_BIRD,   /* set of rows */
} SqMetric;

/* What EX-test says of one prediction. */
typedef enum SqExOutcome {
    SQ_EX_CORRECT,    /* the results are equal under the metric */
    SQ_EX_WRONG,      /* both ran; the results differ */
    SQ_EX_ERROR,      /* the prediction failed to run (SQLite's error) */
    SQ_EX_TIMEOUT,    /* the prediction ran out of time */
    SQ_EX_TOO_BIG,    /* bird: over the row or byte budget */
    SQ_EX_DENIED,     /* the prediction would write: refused, not run */
    SQ_EX_GOLD_FAILED,/* the gold query failed: no verdict is possible */
    SQ_EX_NO_DB,      /* no database to run on (schemas only) */
    SQ_EX_FAILED,     /* the evaluation itself did not finish (its process
                         crashed or ran out of time); never from sq_ex_pred */
} SqExOutcome;
#define SQ_EX_N_OUTCOMES (SQ_EX_FAILED + 1)

typedef struct SqExOptions {
    SqMetric metric;
    int keep_distinct;   /* spider: do not delete DISTINCT */
    double timeout;      /* seconds per query; 0: none */
    uint64_t max_rows;   /* bird: rows kept per result (0: none) */
    uint64_t max_bytes;  /* bytes of TEXT and BLOB kept per result (0: none) */
    int plug_value;      /* spider: a prediction EX-test rejects is tried
                            again with the gold's values plugged into it,
                            every way (plug.h; the script's --plug_value) */
} SqExOptions;

/* The gold query of an item, prepared and run once for all predictions. */
typedef struct SqExGold {
    char *sql;            /* the text as the metric runs it (heap) */
    int order_matters;    /* spider: "order by" in the gold text */
    SqExecStatus status;
    char *err;            /* SQLite's message when status is not OK (heap) */
    SqResult rows;
} SqExGold;

/* "correct", "wrong", "error", "timeout", "too-big", "denied",
** "gold-failed", "no-db", "failed". */
const char *sq_ex_outcome_name(SqExOutcome o);
/* The outcome named name; -1 when none is. */
int sq_ex_outcome_parse(const char *name);
/* Whether the search judges a prediction with this outcome: EX-test
** accepted it, or there was no database to run it on. */
static inline int sq_ex_accepted(int o) { return o == SQ_EX_CORRECT || o == SQ_EX_NO_DB; }
/* "spider" or "bird". */
const char *sq_metric_name(SqMetric m);

/* The text the metric runs for sql (a benchmark file's item; is_pred for
** a prediction, 0 for the gold query): spider's rewriting above, or the
** stripped text under bird.  Heap; caller frees. */
char *sq_metric_sql(SqMetric m, int keep_distinct, int is_pred, const char *sql);

/* Run the gold query of an item.  g is filled in any case; free it with
** sq_ex_gold_free. */
void sq_ex_gold(SqDb *db, const char *gold_sql, const SqExOptions *o, SqExGold *g);
void sq_ex_gold_free(SqExGold *g);

/* EX-test of one prediction against a gold query run by sq_ex_gold.  When
** detail is not NULL it gets a heap message for every outcome but
** SQ_EX_CORRECT (SQLite's error, or the first difference). */
SqExOutcome sq_ex_pred(SqDb *db, const SqExGold *g, const char *pred_sql, const SqExOptions *o,
                       char **detail);
/* The seconds one run of sql (a prediction when is_pred, else a gold
** query, rewritten as the metric runs it) takes to execute and fetch
** every row, under o's limits; -1 when it fails.  For VES (ves.h). */
double sq_ex_time(SqDb *db, const char *sql, int is_pred, const SqExOptions *o);

/* The same, and under bird BIRD Mini-Dev's Soft-F1 into *soft_f1
** (softf1.h; 0 when either query fails, as the script scores an error);
** -1 under spider, whose results are cut at the gold's row count. */
SqExOutcome sq_ex_pred_f1(SqDb *db, const SqExGold *g, const char *pred_sql, const SqExOptions *o,
                          char **detail, double *soft_f1);

#endif
