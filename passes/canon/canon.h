/*
** canon.h -- a proof of equivalence without a search: two queries that
** have the same normal form return the same rows on every database.
**
** Layer: passes.  Not a pass of the registry: backend/equiv/equiv.c
** asks it before the bounded search (passes/smt), which it makes
** unnecessary when it succeeds.  The normal form of a query is that of
** one SELECT core over inner and cross joins of base tables:
**
**   - the FROM tables as a multiset of instances (join order and aliases
**     forgotten), the ON and WHERE conditions as one set of conjuncts;
**   - equalities between columns as classes of equal columns (only where
**     equal means identical: the same affinity, not BLOB, BINARY
**     collation), so that any member of a class may stand for another;
**     `x IS NOT NULL` as a mark on x's class;
**   - an instance joined on a key that a foreign key of another instance
**     refers to, and read nowhere else, removed: each row of the other
**     finds exactly one row there (the search assumes the same of every
**     database: foreign keys hold, key columns are not NULL);
**   - count(x) as count(*) where x cannot be NULL; DISTINCT at the top
**     forgotten under set semantics when there is no LIMIT; ORDER BY
**     forgotten under set and bag semantics when there is no LIMIT.
**
** Two forms are the same when some mapping of the instances of one onto
** those of the other (table for table) makes the classes, the conjuncts,
** the grouping, the aggregates, the result columns, the order and the
** limit agree.  Anything outside that shape (subqueries, outer joins,
** compounds, windows, derived tables, functions that are not
** deterministic) has no normal form, and the search decides.
**
** Ties: where the rows of a result depend on how SQLite orders rows that
** tie (LIMIT over equal sort keys, a bare column next to an aggregate),
** two queries with one normal form agree on every database without such
** ties only.  The answer says so, and the search then looks for a
** difference under ties alone.
*/
#ifndef SQ_CANON_H
#define SQ_CANON_H

#include "ir/ir.h"
#include "passes/smt/smt.h"

typedef enum SqCanonVerdict {
    SQ_CANON_NONE,      /* no proof: different forms, or no form */
    SQ_CANON_SAME,      /* the same rows on every database */
    SQ_CANON_TIE_FREE,  /* the same rows on every database where ties
                           cannot matter */
} SqCanonVerdict;

typedef struct SqCanonResult {
    SqCanonVerdict verdict;
    int reads_clock;    /* a query reads 'now' (pinned by the caller) */
    uint32_t uncut;     /* SQ_CANON_TIE_FREE: on databases of at most this
                           many rows per table no LIMIT cuts between rows
                           (each query's rows follow, by keys, from a few
                           of its tables), so ties cannot matter there */
    const char *why;    /* SQ_CANON_NONE: why (static text) */
} SqCanonResult;

/* Compare the normal forms of q1 and q2 under the result semantics sem
** (only set and bag have a normal form).  fold, when not NULL, computes a
** closed expression (the search's hook, passes/smt/smt.h): two closed
** subexpressions with the same value are then equal
** (strftime('%Y', CURRENT_TIMESTAMP) and strftime('%Y', 'now')).
** typed_values: every column holds its declared class, so rules that need
** an INTEGER column to hold integers apply to every such column, not only
** to an INTEGER PRIMARY KEY. */
void sq_canon_compare(IrQuery *q1, IrQuery *q2, SqSmtSemantics sem, int typed_values, SqSmtFoldFn fold,
                      void *fold_arg, SqCanonResult *out);

#endif
