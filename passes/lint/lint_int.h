/*
** lint_int.h -- private to the lint rule files: one query block being
** linted, and the helpers the rule families share.
**
** Layer: passes.  lint.c visits every query block of a statement
** (ir_visit_cores) and hands each to the rule families, one file each:
**
**   lint_expr.c    one expression at a time (string-as-boolean, NULL
**                  comparisons, affinity, integer division, ...)
**   lint_join.c    the FROM clause (cartesian products, degenerate ON,
**                  LEFT JOINs undone by WHERE)
**   lint_shape.c   the block's shape (LIMIT, ORDER BY ties, bare columns,
**                  DISTINCT)
**   lint_range.c   conditions always false or always true (intervals)
**   lint_keys.c    which expressions tell the block's rows apart (used by
**                  the shape rules)
**
** Nothing else includes this file; the public face is lint.h.
*/
#ifndef SQ_LINT_INT_H
#define SQ_LINT_INT_H

#include "passes/lint/lint.h"

/* One FROM item (a leaf of the FROM tree) and the join bringing it in. */
typedef struct LintItem {
    IrRel *rel;        /* SCAN, VALUES, CTEREF, or a derived table's PROJECT */
    IrRel *join;       /* NULL for the first item */
    uint8_t nullable;  /* on the NULL-filled side of an outer join */
} LintItem;

/* One SELECT core being linted. */
typedef struct LintCore {
    SqLint *l;
    IrRel **top;
    const IrCore *c;
    const IrCoreSite *site;
    LintItem *items;   /* in FROM order */
    uint32_t n_items, cap_items;
    SqExprList where;  /* the WHERE conjuncts */
} LintCore;

/* ---- lint.c ----------------------------------------------------------- */

/* The item of k that produces columns of relation id, or -1. */
int lint_item_of(const LintCore *k, uint32_t rel);
/* Whether e reads a column of item i (subqueries included). */
int lint_reads_item(const LintCore *k, SqExpr *e, uint32_t i);
/* Whether e reads no column of k's items and calls nothing random: a
** literal, a parameter, an outer reference or an expression of those. */
int lint_is_constant(const LintCore *k, SqExpr *e);
/* The table column a column reference names (through derived tables),
** or NULL; *col gets its index (-1 for the rowid). */
const CatTable *lint_table_column(const SqLint *l, const SqExpr *e, int32_t *col);
/* e without the COLLATE and unary + wrappers that do not change its value. */
SqExpr *lint_strip(SqExpr *e);
/* Why joinelim says the join bringing in item can match several of its
** rows ("T2.id is not a key of examination"), or NULL when it does not
** say so. */
const char *lint_join_why(const SqLint *l, const IrRel *item);
/* The GROUP BY key expressions of agg (items of kind SQ_AGG_KEY, which
** need not come first), in an array of agg->u.agg.n_keys in arena a. */
SqExpr **lint_group_keys(SqArena *a, const IrRel *agg);
/* Whether e (COLLATE aside) is a reference to a GROUP BY key output of agg:
** the key's item index, or -1. */
int lint_key_ref(const IrRel *agg, const SqExpr *e);
/* Whether e is a literal of storage class vtype (SqValueType). */
int lint_is_literal(const SqExpr *e, int vtype);

/* ---- lint_null.c -------------------------------------------------------- */

/* Whether a column reference stands for a column assumed NULL. */
typedef int (*LintNullFn)(const SqExpr *col, const void *arg);
/* Whether cond is never true (NULL or false) when the columns is_null
** picks are NULL. */
int lint_null_rejects(const SqExpr *cond, LintNullFn is_null, const void *arg);
/* Whether the value e is NULL when the columns is_null picks are NULL. */
int lint_null_yields_null(const SqExpr *e, LintNullFn is_null, const void *arg);

/* ---- the rule families ------------------------------------------------- */

void lint_exprs(LintCore *k);
void lint_joins(LintCore *k);
void lint_shape(LintCore *k);
void lint_ranges(LintCore *k);
/* A block that is not a core (a compound, VALUES): LIMIT without ORDER BY. */
void lint_compound(SqLint *l, IrRel *top, const IrCoreSite *site);

/* ---- lint_keys.c ------------------------------------------------------- */

/* Whether rows of k that agree on every expression of exprs (after WHERE
** and the joins, before any aggregation) are the same row: keys of each
** FROM item are fixed by them, by constants or by equalities with items
** already fixed.  A derived table's key is its GROUP BY or DISTINCT
** output; one that gives a single row needs none. */
int lint_unique_by(const LintCore *k, SqExpr *const *exprs, uint32_t n);
/* The same per item: fixed[i] (k->n_items entries) tells whether item i's
** row is fixed by exprs; with no exprs, the items pinned to at most one
** row by constants.  Items the caller marks fixed beforehand count as
** fixed from the start (whole rows known).  matched (NULL: none) marks
** the items known to have found their row in every row that matters (not
** NULL-extended by their LEFT JOIN): their ON equalities then hold both
** ways. */
void lint_fixed_items(const LintCore *k, SqExpr *const *exprs, uint32_t n, uint8_t *fixed,
                      const uint8_t *matched);
/* Whether e is a column that a WHERE (or inner-join ON) conjunct of k
** equates with a constant: one value in every row. */
int lint_pinned(const LintCore *k, const SqExpr *e);
/* Whether derived-table block top gives at most one row (an aggregate
** without GROUP BY, or LIMIT 0 or 1). */
int lint_single_row(IrRel *top);

#endif
