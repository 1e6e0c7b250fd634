/*
** mutate_int.h -- private to passes/mutate: the state of one
** sq_mutations() call and the helpers its files share.
**
** Layer: passes.  mutate.c visits the query blocks and orders the
** mutations; mutate_expr.c makes those of expressions (comparisons,
** AND/OR, conjuncts, negations, literals, join keys); mutate_rel.c those
** of operators (aggregates, DISTINCT, GROUP BY, HAVING, join types,
** ORDER BY, LIMIT, result columns, compounds).
*/
#ifndef SQ_MUTATE_INT_H
#define SQ_MUTATE_INT_H

#include "passes/mutate/mutate.h"

/* Candidate columns per site, at most (replacements of one column). */
enum { MUT_MAX_ALTS = 2 };

/* The generator's state: the mutations so far, and the block visited. */
typedef struct MutCtx {
    SqArena *a;             /* q->arena: new nodes, texts, the result */
    SqMutation *muts;       /* found so far, in visiting order */
    uint32_t n_muts, cap_muts;
    const IrRel **seen;     /* blocks already visited (shared subqueries) */
    uint32_t n_seen, cap_seen;
    /* the block being visited */
    IrRel **top;            /* the field that holds it */
    const IrCoreSite *site;
    IrRel **leaves;         /* its FROM items, left to right */
    uint32_t n_leaves, cap_leaves;
} MutCtx;

/* ---- mutate.c ---------------------------------------------------------- */

/* A mutation of kind k at `at`, empty; fill it with mut_patch*() and hand
** it to mut_add(). */
SqMutation mut_begin(SqMutKind k, SrcSpan at, const char *what);
/* A patch writing size bytes at now over addr (whose bytes now become was). */
void mut_patch(SqMutation *mu, void *addr, const void *now, size_t size);
void mut_patch_ptr(SqMutation *mu, void *slot, const void *now);
void mut_patch_u8(SqMutation *mu, uint8_t *field, uint8_t now);
/* Keep mu, unless an identical one is kept already. */
void mut_add(MutCtx *m, const SqMutation *mu);

/* The FROM item of the block with this id, or NULL. */
IrRel *mut_leaf(const MutCtx *m, uint32_t id);
/* "alias.column" of a column of a FROM item. */
const char *mut_col_name(const MutCtx *m, const IrRel *leaf, uint32_t col);
/* A reference to a column of a FROM item. */
SqExpr *mut_col_expr(MutCtx *m, const IrRel *leaf, uint32_t col, SrcSpan at);
/* Up to max columns of the block's FROM items other than (leaf, col):
** leaf's own first, then the other items' in order, within an item those
** of col's very affinity first; of the same kind of type (numeric, text,
** other) unless any_type; none that skip(arg, item, column) refuses.
** Returns how many, in leaves[] and cols[]. */
typedef int (*MutSkipFn)(void *arg, const IrRel *leaf, uint32_t col);
uint32_t mut_pick_cols(const MutCtx *m, const IrRel *leaf, uint32_t col, int any_type,
                       MutSkipFn skip, void *arg, IrRel **leaves, uint32_t *cols, uint32_t max);
/* The span of e, or fallback when e has none. */
SrcSpan mut_span(const SqExpr *e, SrcSpan fallback);

/* ---- mutate_expr.c ----------------------------------------------------- */

/* The mutations of the expressions of core c. */
void mut_core_exprs(MutCtx *m, const IrCore *c);

/* ---- mutate_rel.c ------------------------------------------------------ */

/* The mutations of the operators of core c. */
void mut_core_rels(MutCtx *m, const IrCore *c);
/* The mutations of a compound or VALUES block (its set operator, ORDER
** BY and LIMIT). */
void mut_compound(MutCtx *m);

#endif
