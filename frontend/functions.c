/*
** functions.c -- lookup in the built-in function table.
**
** Layer: frontend.  The table is sorted by name; lookup is a binary search
** for the first row of a name followed by a scan of its rows.
*/
#include "frontend/functions.h"

#include <stdio.h>
#include <string.h>

#include "runtime/util.h"

static const SqFuncDef funcs[] = {
#define FUNC(name, mn, mx, kind, res, nulls, flags) {name, mn, mx, kind, res, nulls, flags},
#include "frontend/functions.def"
#undef FUNC
};

/* Index of the first row named name, or -1. */
static int first_row(const char *name) {
    int lo = 0, hi = (int)SQ_ARRAY_LEN(funcs);
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (sq_stricmp(funcs[mid].name, name) < 0) lo = mid + 1;
        else hi = mid;
    }
    return lo < (int)SQ_ARRAY_LEN(funcs) && sq_stricmp(funcs[lo].name, name) == 0 ? lo : -1;
}

const SqFuncDef *sq_func_resolve(const char *name, int n_args, int *name_exists) {
    int i = first_row(name);
    *name_exists = i >= 0;
    for (; i >= 0 && i < (int)SQ_ARRAY_LEN(funcs) && sq_stricmp(funcs[i].name, name) == 0; i++)
        if (n_args >= funcs[i].min_args &&
            (funcs[i].max_args < 0 || n_args <= funcs[i].max_args))
            return &funcs[i];
    return NULL;
}

int sq_func_has_kind(const char *name, SqFuncKind kind) {
    for (int i = first_row(name); i >= 0 && i < (int)SQ_ARRAY_LEN(funcs) &&
                                   sq_stricmp(funcs[i].name, name) == 0;
         i++)
        if (funcs[i].kind == kind) return 1;
    return 0;
}

const SqFuncDef *sq_func_all(size_t *n) {
    *n = SQ_ARRAY_LEN(funcs);
    return funcs;
}

void sq_func_arity_text(const char *name, char *out, size_t cap) {
    int i = first_row(name), lo = 127, hi = 0, any = 0;
    for (; i >= 0 && i < (int)SQ_ARRAY_LEN(funcs) && sq_stricmp(funcs[i].name, name) == 0; i++) {
        if (funcs[i].min_args < lo) lo = funcs[i].min_args;
        if (funcs[i].max_args < 0) any = 1;
        else if (funcs[i].max_args > hi) hi = funcs[i].max_args;
    }
    if (any) snprintf(out, cap, "%d or more", lo);
    else if (lo == hi) snprintf(out, cap, "%d", lo);
    else if (hi == lo + 1) snprintf(out, cap, "%d or %d", lo, hi);
    else snprintf(out, cap, "%d to %d", lo, hi);
}
