/*
** lint_prove.c -- the lint rules that ask the solver (see lint_prove.h).
**
** Layer: backend/lint.
*/
#include "backend/lint/lint_prove.h"

#include "backend/suite/suite.h"

void sq_lint_prove(SqLint *l, SrcSpan stmt, const SqLintProveOptions *opt) {
    if (!sq_lint_enabled(l, LR_GOLD_ALWAYS_EMPTY) || !l->q || !l->q->root || !l->pass->cat) return;
    int64_t asked = sq_witness_rows_asked(l->q);
    int bound = opt->bound > 0 ? opt->bound : 3;
    if (asked > bound) return; /* the bound would not reach it */
    SqEquivOptions eo = sq_equiv_options_default();
    eo.bound = bound;
    eo.timeout = opt->timeout;
    eo.rlimit = opt->rlimit;
    const char *why;
    if (sq_witness_empty(l->pass->cat, l->q, &eo, l->q->arena, &why) != SQ_WITNESS_EMPTY) return;
    sq_lint_report(l, LR_GOLD_ALWAYS_EMPTY, stmt,
                   "the query returns no row on any database the schema allows (up to %d rows per table, "
                   "values of the declared types): proved by the solver", bound);
}
