/*
** passes.h -- the entry points of the passes, for the table in
** registry.c (each pass is one file; see pass.h for the interface).
**
** Layer: passes.
*/
#ifndef SQ_PASSES_H
#define SQ_PASSES_H

#include "pass.h"

/* unnest.c: subqueries in WHERE to semi-, anti- and inner joins. */
int sq_unnest_run(SqPassCtx *ctx, IrQuery *q);

/* merge_derived.c (part of unnest): merge the derived tables of core c's
** FROM into c where exact; returns how many. */
uint32_t sq_unnest_merge_derived(SqPassCtx *ctx, IrQuery *q, IrCore *c);

/* jqg.c: the join query graph of the IR as it is (an analysis). */
int sq_jqg_run(SqPassCtx *ctx, IrQuery *q);
void sq_jqg_print(const SqPassCtx *ctx, IrQuery *q, SqBuf *out);
void sq_jqg_print_json(const SqPassCtx *ctx, IrQuery *q, SqJsonWriter *w);
/* The graph jqg computed, or NULL with the reason. */
struct SqGraph;
const struct SqGraph *sq_jqg_graph(const SqPassCtx *ctx, const char **why);

#endif
