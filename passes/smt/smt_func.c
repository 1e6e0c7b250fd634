/*
** smt_func.c -- the table of the SQL functions the lowering models
** (smt_funcs.def), and the list of every function with how the lowering
** treats it (`squint equiv --list-functions`).
**
** Layer: passes.  The lowering asks the table by name and kind and
** switches on the row's op; a function with no row is computed by SQLite
** when its arguments are constants (smt_fold.c), an uninterpreted
** function otherwise when it is a deterministic scalar (smt_uf.c), and
** unsupported when it is not.
*/
#include <string.h>

#include "passes/smt/smt_int.h"

static const SmtFunc funcs[] = {
#define SMT_FUNC(OP, name, kind, model, data, note) {name, SMT_FN_##OP, kind, model, data, note},
#include "passes/smt/smt_funcs.def"
#undef SMT_FUNC
};

const SmtFunc *smt_func_find(const char *name, SqFuncKind kind) {
    for (size_t i = 0; i < SQ_ARRAY_LEN(funcs); i++)
        if (funcs[i].kind == kind && strcmp(funcs[i].name, name) == 0) return &funcs[i];
    return NULL;
}

static const char *kind_name(uint8_t kind) {
    return kind == F_AGG ? "aggregate" : kind == F_WINDOW ? "window" : "scalar";
}

/* How a function with no row is treated: its word and why. */
static void without_row(const SqFuncDef *d, const char **how, const char **why) {
    *how = "unsupported";
    if (d->flags & FL_SPECIAL) *why = "only with a virtual table (FTS, R*Tree)";
    else if (d->flags & FL_NONDET) *why = "not deterministic";
    else if (d->kind != F_SCALAR) *why = "not modelled";
    else if (d->result == R_ANY || d->result == R_BLOB) {
        *how = "constants";
        *why = "computed by SQLite when its arguments are constants; otherwise unsupported (its result has no "
               "class)";
    } else {
        *how = "constants";
        *why = "computed by SQLite when its arguments are constants; otherwise an uninterpreted function";
    }
}

void sq_smt_function_list(SqBuf *out) {
    size_t n;
    const SqFuncDef *defs = sq_func_all(&n);
    for (size_t i = 0; i < n; i++) {
        const SqFuncDef *d = &defs[i];
        if (i && strcmp(defs[i - 1].name, d->name) == 0 && defs[i - 1].kind == d->kind) continue;
        const SmtFunc *f = smt_func_find(d->name, (SqFuncKind)d->kind);
        const char *how, *why;
        if (f) {
            how = f->model == SMT_MODEL_EXACT ? "exact" : "partial";
            why = f->note;
        } else {
            without_row(d, &how, &why);
        }
        if (*why) sq_buf_printf(out, "%-24s %-9s %-11s %s\n", d->name, kind_name(d->kind), how, why);
        else sq_buf_printf(out, "%-24s %-9s %s\n", d->name, kind_name(d->kind), how);
    }
}
