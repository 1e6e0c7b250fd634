/*
** lint_prove.h -- the lint rules that ask the solver (squint lint
** --prove).
**
** Layer: backend/lint.  A rule here proves something of every database
** the schema allows, not of the one database at hand:
**
**   gold-always-empty    the query returns no row on any database of up
**                        to `bound` rows per table that satisfies the
**                        schema's keys, NOT NULL, foreign keys and CHECK
**                        constraints, with values of the columns' declared
**                        types (sq_witness_empty, the search squint
**                        fixture builds its witnesses with).  A query that
**                        compares an aggregate or a subquery with a
**                        constant asking for more rows than the bound
**                        (HAVING count(*) > 5) is not judged: the bound
**                        would not reach it.
*/
#ifndef SQ_LINT_PROVE_H
#define SQ_LINT_PROVE_H

#include "passes/lint/lint.h"

typedef struct SqLintProveOptions {
    int bound;              /* rows per table searched (default 3) */
    uint64_t rlimit;        /* z3's resource units per query (0: none) */
    double timeout;         /* seconds per query (0: none) */
} SqLintProveOptions;

/* Run the solver rules on l's query (stmt: its span, where a finding
** goes). */
void sq_lint_prove(SqLint *l, SrcSpan stmt, const SqLintProveOptions *opt);

#endif
