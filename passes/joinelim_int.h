/*
** joinelim_int.h -- private to joinelim.c and joinelim_keys.c: the
** `joinelim` analysis's state, the cores and equalities it works on, and
** the helpers the two files share.  Nothing else includes it; the pass's
** public face is passes.h.
**
** Layer: passes.  A JoinElim and its JeCores live on the stack of one run
** of sq_joinelim_run, which frees JoinElim.text at its end; what they
** point to is in the query's arena (the SqJoinElim in the pass context's).
*/
#ifndef SQ_JOINELIM_INT_H
#define SQ_JOINELIM_INT_H

#include "passes/passes.h"

/* ------------------------------------------------------------------ */
/* Types                                                               */
/* ------------------------------------------------------------------ */

/* The pass's state for one query. */
typedef struct JoinElim {
    IrQuery *q;
    const Catalog *cat;
    SqJoinElim *res;
    const char **alias;  /* statement-unique FROM-item names, by rel id */
    IrNaming nm;         /* writes columns as alias.column */
    SqBuf text;          /* scratch for reasons */
} JoinElim;

/* One FROM item of a core, with the join that brings it in. */
typedef struct JeItem {
    IrRel *rel;
    IrRel *join;         /* NULL for the first item */
    SqExprList on;       /* the conjuncts of join's ON */
    uint8_t is_scan;     /* a base table */
} JeItem;

/* One SELECT core being analysed. */
typedef struct JeCore {
    JoinElim *je;
    IrRel **top;         /* the slot holding the core's top */
    IrCore c;
    JeItem *items;
    uint32_t n_items, cap_items;
    SqExprList where;    /* WHERE conjuncts */
    const char *set_why; /* why copies of rows do not matter here, or NULL */
} JeCore;

/* A conjunct "x = y" between columns of two base-table items (or two
** columns of one) of the core. */
typedef struct JeEq {
    SqExpr *cond;
    IrRel *holder;       /* the JOIN or FILTER whose condition holds it */
    const SqExpr *col[2];
    uint32_t item[2];
} JeEq;

/* ------------------------------------------------------------------ */
/* Helpers in joinelim.c                                               */
/* ------------------------------------------------------------------ */

/* Whether e is a subquery (scalar, EXISTS or IN). */
int je_is_sub(const SqExpr *e);

/* Text of reasons, built in JoinElim.text. */
const char *je_keep_text(JoinElim *je);
void je_put_expr(JoinElim *je, const SqExpr *e);
const char *je_alias_of(const JoinElim *je, const IrRel *r);

/* Findings, in the result. */
SqJeFinding *je_add_finding(JeCore *k, SqJeKind kind, SrcSpan at, uint32_t n_items);
void je_add_item(SqJeFinding *f, const IrRel *r);

/* Columns and comparisons. */
int je_plain_comparison(const JoinElim *je, const SqExpr *a, const SqExpr *b);
int je_key_unconverted(const JoinElim *je, const SqExpr *key, const SqExpr *other,
                       int key_left);
int je_column_eq(const JeCore *k, SqExpr *e, IrRel *holder, JeEq *out);
int je_is_inner(const JeItem *it);

/* ------------------------------------------------------------------ */
/* In joinelim_keys.c                                                  */
/* ------------------------------------------------------------------ */

/* Each join of core k that brings in a base table by an inner, LEFT or
** cross join: its SqJeJoin record (fan-out), non-key and removable
** findings; then aggregates over the joins that fan out. */
void je_check_joins(JeCore *k);

#endif
