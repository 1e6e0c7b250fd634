/*
** mutate.h -- near-miss queries: small edits (mutants) of a query's IR.
**
** Layer: passes.  Not a pass of the registry: `squint fixture` asks it for
** the neighbours of a gold query, so as to build test databases that tell
** the gold apart from each of them (the distilled test suites of Zhong et
** al. 2020).  Design notes: docs/mutate.md.
**
** A mutation is a list of at most three patches, each a few bytes of one
** IR node (an operator, a flag, a pointer) with the bytes before and
** after.  sq_mutations() builds the list without changing the query: any
** node a mutation needs (a literal, a column reference, the AND of the
** conjuncts left, an array of aggregate items) is made beforehand in the
** query's arena and only linked in by a patch.  A caller applies one
** mutation, emits the query's SQL (backend/emit), and undoes it:
**
**     for (i = 0; i < n; i++) {
**         sq_mutation_apply(&m[i]);
**         sq_emit_sqlite(q, &buf);
**         sq_mutation_undo(&m[i]);
**     }
**
** Every mutation leaves an IR that the SQL emitter prints, whose text
** SQLite accepts and squint binds, and that prints differently from the
** gold; undoing it gives back the gold byte for byte.  Mutations are not
** meant to be applied two at a time.
*/
#ifndef SQ_MUTATE_H
#define SQ_MUTATE_H

#include <stdint.h>

#include "frontend/catalog.h"
#include "ir/ir.h"

typedef enum SqMutKind {
    SQ_MUT_COMPARISON,    /* < <= = <> >= > swapped for another */
    SQ_MUT_AND_OR,        /* AND <-> OR */
    SQ_MUT_DROP_CONJUNCT, /* one conjunct of a WHERE/HAVING/ON dropped */
    SQ_MUT_NEGATE,        /* a conjunct (or LIKE/IN/BETWEEN/IS NULL) negated */
    SQ_MUT_LITERAL,       /* a literal changed: numbers +1/-1, text another value */
    SQ_MUT_AGGREGATE,     /* COUNT / COUNT(DISTINCT) / SUM / AVG / MIN / MAX swapped */
    SQ_MUT_DISTINCT,      /* DISTINCT added or removed on a SELECT */
    SQ_MUT_GROUP_BY,      /* a GROUP BY key replaced by another column of the same
                             FROM, or dropped when there are several */
    SQ_MUT_HAVING,        /* HAVING dropped */
    SQ_MUT_JOIN_TYPE,     /* INNER <-> LEFT */
    SQ_MUT_JOIN_KEY,      /* a join condition col = col with one side on another
                             type-compatible column of the same table */
    SQ_MUT_ORDER_DIR,     /* ASC <-> DESC */
    SQ_MUT_ORDER_COL,     /* an ORDER BY key on another result column */
    SQ_MUT_LIMIT,         /* LIMIT n -> n+1, n-1 (>= 1 only), or dropped */
    SQ_MUT_SELECT_COL,    /* a result column that is a plain column replaced by
                             another type-compatible column of the same FROM */
    SQ_MUT_SETOP,         /* UNION / UNION ALL / INTERSECT / EXCEPT swapped */
    SQ_MUT_EXTREME,       /* the result's lone min(e) / max(e) becomes e ORDER BY
                             e ASC / DESC LIMIT 1 */
    SQ_MUT__COUNT
} SqMutKind;

/* One edit of the IR: a few bytes of one node written over, and back. */
typedef IrPatch SqMutPatch;

/* One near-miss query: the patches that make it from the gold. */
typedef struct SqMutation {
    uint8_t kind;          /* SqMutKind */
    SrcSpan at;            /* the part of the gold's text it changes */
    const char *what;      /* short human text, in q's arena: "> becomes >=",
                              "LEFT JOIN instead of JOIN", "HAVING dropped" */
    SqMutPatch patch[3];
    uint8_t n_patch;
} SqMutation;

/* The mutations of q (bound against cat), in a deterministic order (the
** query's text order, then kind order), at most max of them (0: no
** limit).  When there are more than max, they are taken a kind at a time
** in turn (the first of each kind in text order, then the second, ...),
** so that a cap keeps every kind the query has.  New nodes and *out (an
** array) live in q->arena.  Nothing in q is changed.  Views expanded in
** place and the bodies of recursive CTEs are not mutated. */
uint32_t sq_mutations(IrQuery *q, const Catalog *cat, SqMutation **out, uint32_t max);

/* Write the patches' now[] bytes, in order. */
void sq_mutation_apply(const SqMutation *m);
/* Write their was[] bytes back, in reverse order. */
void sq_mutation_undo(const SqMutation *m);

/* "comparison", "and-or", "drop-conjunct", "negate", "literal",
** "aggregate", "distinct", "group-by", "having", "join-type", "join-key",
** "order-dir", "order-col", "limit", "select-col", "setop", "extreme". */
const char *sq_mut_kind_name(SqMutKind k);

#endif
