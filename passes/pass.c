/*
** pass.c -- running chains of passes with their dependencies.
**
** Layer: passes.  The table of passes is registry.c's; this file only
** orders and runs them.
*/
#include <string.h>

#include "passes/pass.h"

void sq_pass_ctx_init(SqPassCtx *ctx, SqArena *a, const Catalog *cat, SqInterner *names,
                      SqDiags *diags) {
    memset(ctx, 0, sizeof *ctx);
    ctx->arena = a;
    ctx->cat = cat;
    ctx->names = names;
    ctx->diags = diags;
}

const SqPass *sq_pass_find(const char *name) {
    size_t n;
    const SqPass *all = sq_pass_all(&n);
    for (size_t i = 0; i < n; i++)
        if (strcmp(all[i].name, name) == 0) return &all[i];
    return NULL;
}

size_t sq_pass_index(const SqPass *p) {
    size_t n;
    return (size_t)(p - sq_pass_all(&n));
}

static int run_one(SqPassCtx *ctx, IrQuery *q, const SqPass *p, int depth) {
    size_t i = sq_pass_index(p);
    if (ctx->done & (1u << i)) return 0;
    if (depth > SQ_PASS_MAX) return -1; /* a dependency cycle in the table */
    for (const char *const *d = p->deps; d && *d; d++) {
        const SqPass *dep = sq_pass_find(*d);
        if (!dep || run_one(ctx, q, dep, depth + 1) < 0) return -1;
    }
    if (p->run(ctx, q) < 0) return -1;
    if (p->kind == SQ_PASS_REWRITE) { /* earlier analyses described the old IR */
        ctx->done = 0;
        memset(ctx->results, 0, sizeof ctx->results);
    }
    ctx->done |= 1u << i;
    return 0;
}

int sq_pass_run(SqPassCtx *ctx, IrQuery *q, const char *const *names, size_t n) {
    for (size_t k = 0; k < n; k++) {
        const SqPass *p = sq_pass_find(names[k]);
        if (!p || run_one(ctx, q, p, 0) < 0) return -1;
    }
    return 0;
}

void *sq_pass_result(const SqPassCtx *ctx, const char *name) {
    const SqPass *p = sq_pass_find(name);
    if (!p) return NULL;
    size_t i = sq_pass_index(p);
    return (ctx->done & (1u << i)) ? ctx->results[i] : NULL;
}
