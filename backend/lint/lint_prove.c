/*
** lint_prove.c -- the lint rules that ask the solver (see lint_prove.h).
**
** Layer: backend/lint.
*/
#include "backend/lint/lint_prove.h"

#include "backend/suite/suite.h"

/* The rows a comparison of an aggregate output or a subquery with an
** integer constant asks for (count(*) > 10: 11), the largest seen. */
static int asked_rows(SqExpr *e, void *arg) {
    int64_t *most = arg;
    if (e->kind != SQX_BINARY || e->op < AST_OP_EQ || e->op > AST_OP_GE) return 0;
    const SqExpr *sides[2] = {e->u.bin.l, e->u.bin.r};
    for (int i = 0; i < 2; i++) {
        const SqExpr *lit = sides[i], *other = sides[1 - i];
        int counted = (other->kind == SQX_COLUMN && (other->flags & SQXF_AGG_REF)) || other->kind == SQX_SUBQUERY;
        if (lit->kind == SQX_LITERAL && lit->u.lit.vtype == SQ_VAL_INTEGER && counted && lit->u.lit.i + 1 > *most)
            *most = lit->u.lit.i + 1;
    }
    return 0;
}

void sq_lint_prove(SqLint *l, SrcSpan stmt, const SqLintProveOptions *opt) {
    if (!sq_lint_enabled(l, LR_GOLD_ALWAYS_EMPTY) || !l->q || !l->q->root || !l->pass->cat) return;
    int64_t asked = 0;
    ir_query_walk(l->q, asked_rows, &asked);
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
