/*
** lint_null.c -- whether a condition is never true when some columns are
** NULL (it "rejects" them).
**
** Layer: passes.  Used by left-join-nullified (the columns of a LEFT
** JOIN's right side) and not-in-nullable (a subquery's column under its
** WHERE).  Each expression is given a truth value under the assumption:
** NULL, true, false, "not true" (NULL or false) or unknown.  Comparisons,
** arithmetic, LIKE, BETWEEN, IN, CAST and the functions that return NULL
** for a NULL argument (functions.def: N_PROPAGATE, N_NUMERIC) give NULL
** when an operand is NULL; IS, IS NULL and ISNULL see through it; AND, OR
** and NOT combine by three-valued logic; anything else is unknown.
*/
#include "passes/lint/lint_int.h"

typedef struct NullSet {
    LintNullFn is_null;
    const void *arg;
} NullSet;

/* What a condition is when the chosen columns are NULL. */
typedef enum Truth { T_UNKNOWN, T_NULL, T_TRUE, T_FALSE, T_NOT_TRUE } Truth;

static int not_true(Truth t) { return t == T_NULL || t == T_FALSE || t == T_NOT_TRUE; }

static Truth truth(const NullSet *ns, const SqExpr *e);

static int any_null(const NullSet *ns, const SqExprList *l) {
    for (uint32_t i = 0; i < l->n; i++)
        if (truth(ns, l->items[i]) == T_NULL) return 1;
    return 0;
}

static Truth binary_truth(const NullSet *ns, const SqExpr *e) {
    Truth a = truth(ns, e->u.bin.l), b = truth(ns, e->u.bin.r);
    if (e->op == AST_OP_AND) {
        if (a == T_FALSE || b == T_FALSE) return T_FALSE;
        if (not_true(a) || not_true(b)) return T_NOT_TRUE;
        return a == T_TRUE && b == T_TRUE ? T_TRUE : T_UNKNOWN;
    }
    if (e->op == AST_OP_OR) {
        if (a == T_TRUE || b == T_TRUE) return T_TRUE;
        if (not_true(a) && not_true(b)) return a == T_FALSE && b == T_FALSE ? T_FALSE : T_NOT_TRUE;
        return T_UNKNOWN;
    }
    return a == T_NULL || b == T_NULL ? T_NULL : T_UNKNOWN; /* comparisons, arithmetic, || */
}

static Truth is_truth(const NullSet *ns, const SqExpr *e) {
    Truth a = truth(ns, e->u.bin.l), b = truth(ns, e->u.bin.r);
    const SqExpr *l = lint_strip(e->u.bin.l), *r = lint_strip(e->u.bin.r);
    int neg = (e->flags & SQXF_NOT) != 0;
    Truth res = T_UNKNOWN;
    if (a == T_NULL && b == T_NULL) res = T_TRUE;
    else if ((a == T_NULL && r->kind == SQX_LITERAL) || (b == T_NULL && l->kind == SQX_LITERAL))
        res = T_FALSE; /* NULL IS 5 (a non-NULL constant) */
    if (res == T_UNKNOWN) return res;
    return neg ? (res == T_TRUE ? T_FALSE : T_TRUE) : res;
}

static Truth truth(const NullSet *ns, const SqExpr *e) {
    switch ((SqExprKind)e->kind) {
    case SQX_COLUMN: return ns->is_null(e, ns->arg) ? T_NULL : T_UNKNOWN;
    case SQX_LITERAL: return e->u.lit.vtype == SQ_VAL_NULL ? T_NULL : T_UNKNOWN;
    case SQX_BINARY: return binary_truth(ns, e);
    case SQX_UNARY: {
        Truth a = truth(ns, e->u.bin.l);
        if (e->op != AST_OP_NOT) return a == T_NULL ? T_NULL : T_UNKNOWN;
        return a == T_TRUE ? T_FALSE : a == T_FALSE ? T_TRUE : a == T_NULL ? T_NULL : T_UNKNOWN;
    }
    case SQX_IS: return is_truth(ns, e);
    case SQX_ISNULL:
        if (truth(ns, e->u.bin.l) != T_NULL) return T_UNKNOWN;
        return (e->flags & SQXF_NOT) ? T_FALSE : T_TRUE;
    case SQX_LIKE:
        return truth(ns, e->u.like.x) == T_NULL || truth(ns, e->u.like.pattern) == T_NULL
                   ? T_NULL : T_UNKNOWN;
    case SQX_BETWEEN: return truth(ns, e->u.between.x) == T_NULL ? T_NULL : T_UNKNOWN;
    case SQX_IN_LIST: /* NULL [NOT] IN (): FALSE (TRUE); with values: NULL */
        if (truth(ns, e->u.in.x) != T_NULL) return T_UNKNOWN;
        if (e->u.in.list.n) return T_NULL;
        return (e->flags & SQXF_NOT) ? T_TRUE : T_FALSE;
    case SQX_IN_SUBQUERY: /* the same, as the subquery is empty or not; NOT
                             IN is TRUE for an empty one */
        if (!e->u.sub.x || truth(ns, e->u.sub.x) != T_NULL) return T_UNKNOWN;
        return (e->flags & SQXF_NOT) ? T_UNKNOWN : T_NOT_TRUE;
    case SQX_CAST: return truth(ns, e->u.cast.x) == T_NULL ? T_NULL : T_UNKNOWN;
    case SQX_COLLATE: return truth(ns, e->u.collate.x);
    case SQX_FUNC:
        if (e->u.func.def && (e->u.func.def->nulls == N_PROPAGATE || e->u.func.def->nulls == N_NUMERIC) &&
            e->u.func.def->kind == F_SCALAR && any_null(ns, &e->u.func.args))
            return T_NULL;
        return T_UNKNOWN;
    default: return T_UNKNOWN;
    }
}

int lint_null_rejects(const SqExpr *cond, LintNullFn is_null, const void *arg) {
    NullSet ns = {is_null, arg};
    return not_true(truth(&ns, cond));
}

int lint_null_yields_null(const SqExpr *e, LintNullFn is_null, const void *arg) {
    NullSet ns = {is_null, arg};
    return truth(&ns, e) == T_NULL;
}
