/*
** pass.h -- the pass manager: one interface for every analysis and rewrite
** of the IR.
**
** Layer: passes.  A pass takes a query's IR and either rewrites it in place
** (a rewrite) or computes a result about it (an analysis), and reports what
** it did or found as diagnostics (notes say why a rewrite was not made).
** Passes are declared once, in the table in registry.c, with a name, a
** one-line summary and the passes they need first; sq_pass_run() runs a
** chain in order, each dependency once.
**
** Results of analyses live in the context, one slot per pass, in the
** context's arena; a rewrite pass clears the results of every analysis
** (they described the IR before it).
*/
#ifndef SQ_PASS_H
#define SQ_PASS_H

#include "frontend/catalog.h"
#include "ir/ir.h"
#include "runtime/diag.h"

#define SQ_PASS_MAX 32

typedef struct SqPass SqPass;

/* What a chain of passes shares for one query. */
typedef struct SqPassCtx {
    SqArena *arena;            /* the query's arena (results live here) */
    const Catalog *cat;
    SqInterner *names;
    SqDiags *diags;
    void *results[SQ_PASS_MAX];/* by pass index: an analysis's result */
    uint32_t done;             /* bit i: pass i has run on the current IR */
    uint32_t n_rewrites;       /* rewrites made so far (all passes) */
} SqPassCtx;

typedef enum SqPassKind { SQ_PASS_ANALYSIS, SQ_PASS_REWRITE } SqPassKind;

struct SqPass {
    const char *name;          /* "unnest" */
    const char *summary;       /* one line for `squint passes` */
    const char *const *deps;   /* names of passes to run first, NULL-ended */
    uint8_t kind;              /* SqPassKind */
    /* Run on q; 0 on success, -1 when the pass could not run (reported). */
    int (*run)(SqPassCtx *ctx, IrQuery *q);
    /* Write an analysis result as text (NULL for rewrites). */
    void (*print)(const SqPassCtx *ctx, IrQuery *q, SqBuf *out);
    /* The same as JSON members of an open object (NULL: none). */
    void (*print_json)(const SqPassCtx *ctx, IrQuery *q, SqJsonWriter *w);
};

void sq_pass_ctx_init(SqPassCtx *ctx, SqArena *a, const Catalog *cat, SqInterner *names,
                      SqDiags *diags);

/* Every pass, in the table's order. */
const SqPass *sq_pass_all(size_t *n);
/* The pass named name, or NULL. */
const SqPass *sq_pass_find(const char *name);
/* Its index in the table (for results and done). */
size_t sq_pass_index(const SqPass *p);

/* Run the named passes in order, each preceded by its dependencies
** (recursively) unless they already ran on the current IR.  Returns 0, or
** -1 when a pass failed (reported to ctx->diags) or a name is unknown
** (callers check names with sq_pass_find first). */
int sq_pass_run(SqPassCtx *ctx, IrQuery *q, const char *const *names, size_t n);

/* An analysis result, or NULL when the pass has not run on this IR. */
void *sq_pass_result(const SqPassCtx *ctx, const char *name);

#endif
