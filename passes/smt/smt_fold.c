/*
** smt_fold.c -- a function call or CAST over constants, evaluated by
** SQLite itself.
**
** Layer: passes.  A call such as date('now', '-1 year'), julianday('2012-
** 03-01'), strftime('%j', '2020-12-31') or printf('%05.1f', 2.5) has one
** value whatever the database holds.  The lowering models only some of
** SQLite's functions exactly, but any call whose arguments are constants
** can be asked of SQLite: the caller (backend/equiv/equiv.c) installs a
** hook that runs "SELECT <call>" on an empty database whose clock is
** stopped at the pinned instant, so 'now' reads the same instant here as
** in the check by execution.  The answer is exact by construction.
**
** Only closed expressions are folded: literals, operators, CASE, CAST,
** COLLATE, CURRENT_* and deterministic scalar functions, with no column,
** subquery or parameter anywhere below.
*/
#include <string.h>

#include "passes/smt/smt_int.h"

typedef struct Closed {
    int open;        /* something below depends on the row or the statement */
    int reads_clock; /* CURRENT_*, 'now', a date function with no argument */
} Closed;

static int closed_cb(SqExpr *e, void *arg) {
    Closed *c = arg;
    c->reads_clock |= sq_expr_node_reads_clock(e);
    switch ((SqExprKind)e->kind) {
    case SQX_LITERAL: case SQX_CTIME: return 0;
    case SQX_UNARY: case SQX_BINARY: case SQX_IS: case SQX_ISNULL: case SQX_BETWEEN: case SQX_IN_LIST:
    case SQX_CASE: case SQX_CAST: case SQX_COLLATE: case SQX_LIKE:
        return 0;
    case SQX_FUNC: {
        const SqFuncDef *d = e->u.func.def;
        if (!d || d->kind != F_SCALAR || (d->flags & (FL_NONDET | FL_SPECIAL))) break;
        return 0;
    }
    default: break;
    }
    c->open = 1;
    return 1;
}

int sq_smt_closed(const SqExpr *e, int *reads_clock) {
    Closed c = {0, 0};
    sq_expr_walk((SqExpr *)e, closed_cb, &c);
    if (reads_clock) *reads_clock = c.reads_clock;
    return !c.open;
}

int smt_fold_sql(SqSmt *s, const char *sql, SrcSpan span, SmtVal *out) {
    SqBuf text = SQ_BUF_IN(s->arena);
    SqSmtCell v;
    int ok = s->fold && s->fold(s->fold_arg, sql, &v, &text);
    if (ok) {
        switch (v.type) {
        case SQ_VAL_NULL: *out = smt_null(s); break;
        case SQ_VAL_INTEGER: *out = smt_val(s, SMT_INT, smt_false(s), smt_int(s, v.i)); break;
        case SQ_VAL_REAL: *out = smt_val(s, SMT_REAL, smt_false(s), smt_real_const(s, v.r, span)); break;
        case SQ_VAL_TEXT: *out = smt_val(s, SMT_TEXT, smt_false(s), smt_str_lit(s, text.data ? text.data : "", (uint32_t)text.len)); break;
        default: ok = 0; /* a BLOB */
        }
    }
    sq_buf_free(&text);
    return ok;
}

int smt_fold(SqSmt *s, const SqExpr *e, SmtVal *out) {
    int reads_clock;
    if (!s->fold || (e->kind != SQX_FUNC && e->kind != SQX_CAST) || !sq_smt_closed(e, &reads_clock)) return 0;
    SqBuf sql = SQ_BUF_IN(s->arena);
    sq_buf_puts(&sql, "SELECT ");
    ir_sql_expr(&sql, e, NULL);
    int ok = smt_fold_sql(s, sq_buf_str(&sql), e->span, out);
    sq_buf_free(&sql);
    if (ok && reads_clock) s->reads_clock = 1;
    return ok;
}
