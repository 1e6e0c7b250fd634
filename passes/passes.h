/*
** passes.h -- the entry points of the passes, for the table in
** registry.c (each pass is one file; see pass.h for the interface).
**
** Layer: passes.
*/
#ifndef SQ_PASSES_H
#define SQ_PASSES_H

#include "passes/pass.h"

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

/* joinelim.c: join redundancy (an analysis).  Per SELECT core, the joins
** of base tables (inner, LEFT, cross) with whether each can multiply the
** rows of the rest, and findings, each with a reason: joins that can go,
** join conditions implied by others or written twice, COUNT/SUM/AVG over
** a join that fans out, joins on columns that are neither a key nor a
** foreign key.  Lint and the SMT lowering read the result. */
typedef enum SqJeKind {
    SQ_JE_REMOVABLE,  /* the table is read nowhere else and the join keeps every row once */
    SQ_JE_IMPLIED,    /* an equality that follows from others (transitivity) */
    SQ_JE_DUPLICATE,  /* the same equality written twice */
    SQ_JE_FANOUT_AGG, /* COUNT/SUM/AVG over a join that can multiply rows */
    SQ_JE_NON_KEY,    /* a join on columns that are neither a key nor a foreign key */
    SQ_JE__COUNT
} SqJeKind;

typedef struct SqJeFinding {
    uint8_t kind;          /* SqJeKind */
    uint8_t is_exact;      /* SQ_JE_REMOVABLE: exact in SQLite; 0 = only if the
                              foreign key holds (declared, not enforced) */
    uint8_t repeats;       /* SQ_JE_FANOUT_AGG: the aggregate reads no column of
                              the joined table, so it sees its values repeated */
    const IrRel **items;   /* the FROM items involved */
    uint32_t n_items;
    const char *reason;    /* one sentence, aliases as the emitter writes them */
    SrcSpan span;          /* the join, or the condition */
    IrRel **core;          /* the slot holding the core's top (for rewrites) */
    IrRel *join;           /* REMOVABLE, FANOUT_AGG, NON_KEY: the join */
    IrRel *drop;           /* REMOVABLE: the FROM item that can go */
    IrRel *holder;         /* IMPLIED, DUPLICATE: the JOIN or WHERE FILTER holding */
    SqExpr *cond;          /* ... this conjunct */
    const SqAggItem *agg;  /* FANOUT_AGG: the first aggregate that counts copies */
} SqJeFinding;

/* One analysed join: it brings in item, a base table. */
typedef struct SqJeJoin {
    IrRel *join;
    IrRel *item;
    uint8_t fans_out;      /* a row of the rest can match several rows of item */
    const char *why;       /* the key that bounds it, or why none does */
} SqJeJoin;

typedef struct SqJoinElim {
    SqJeJoin *joins;       /* in source order */
    uint32_t n_joins, cap_joins;
    SqJeFinding *findings; /* in source order, then by kind */
    uint32_t n_findings, cap_findings;
} SqJoinElim;

int sq_joinelim_run(SqPassCtx *ctx, IrQuery *q);
void sq_joinelim_print(const SqPassCtx *ctx, IrQuery *q, SqBuf *out);
void sq_joinelim_print_json(const SqPassCtx *ctx, IrQuery *q, SqJsonWriter *w);
/* The result joinelim computed on the current IR, or NULL. */
const SqJoinElim *sq_joinelim_result(const SqPassCtx *ctx);
/* "removable-join", "implied-condition", ...: stable names for output. */
const char *sq_je_kind_name(SqJeKind k);

/* joinelim_rewrite.c: the exact part of joinelim's findings applied:
** LEFT JOINs that can go are removed, implied and duplicate conditions
** dropped; foreign-key removals are only noted. */
int sq_joinelim_rewrite_run(SqPassCtx *ctx, IrQuery *q);

#endif
