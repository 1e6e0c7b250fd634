/*
** softf1.h -- BIRD Mini-Dev's Soft-F1: partial credit for a prediction
** whose result shares some cells with the gold result.
**
** Layer: backend/eval (uses backend/sqlite's results).  The score of one
** item, as the Mini-Dev release's evaluation_f1.py computes it from the
** two results (docs/squint-eval.md, "Soft-F1"):
**
**   - both results empty: 1;
**   - each result's repeated rows dropped, the first of each kept, in the
**     order SQLite returned them; row i of the prediction is paired with
**     row i of the gold;
**   - for a pair, over the gold row's width w: matched = the prediction's
**     values found in the gold row, pred-only = those not found,
**     gold-only = the gold row's values not found in the prediction's
**     row, each divided by w ("found" is Python's ==: NULL equals NULL,
**     an integer equals a real of the same value, TEXT never equals BLOB
**     or a number);
**   - a gold row without a partner adds 1 to gold-only; a prediction row
**     without one adds 1 to pred-only;
**   - precision = matched / (matched + pred-only), recall = matched /
**     (matched + gold-only), F1 their harmonic mean (0 when both are 0).
**
** Pairing by position is the script's: two results that hold the same
** rows in another order score below 1.  A query that fails scores 0
** (the caller's to decide).
*/
#ifndef SQ_EVAL_SOFTF1_H
#define SQ_EVAL_SOFTF1_H

#include "backend/sqlite/result.h"

/* Soft-F1 of a prediction's result against the gold result, in [0, 1]. */
double sq_soft_f1(const SqResult *pred, const SqResult *gold);

#endif
