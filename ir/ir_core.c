/*
** ir_core.c -- recognising the operator chain of one SELECT core.
**
** Layer: ir.  lower.c builds each SELECT core as a fixed chain (see ir.h);
** the emitter and the rewriting passes both need its parts back, with the
** fields that hold them so that a pass can insert or replace one.
*/
#include "ir.h"

static IrRel **take(IrRel **slot, IrRelKind kind, int having, IrRel **out) {
    IrRel *x = *slot;
    *out = NULL;
    if (!x || x->kind != kind ||
        (kind == IR_FILTER && ((x->flags & IRF_HAVING) != 0) != having))
        return slot;
    *out = x;
    return &x->input;
}

int ir_core_split(IrRel **top, IrCore *c) {
    IrRel **slot = top;
    slot = take(slot, IR_LIMIT, 0, &c->limit);
    slot = take(slot, IR_SORT, 0, &c->sort);
    slot = take(slot, IR_DISTINCT, 0, &c->distinct);
    slot = take(slot, IR_PROJECT, 0, &c->project);
    if (!c->project || (c->project->flags & IRF_FROM_ITEM)) return 0;
    slot = take(slot, IR_WINDOW, 0, &c->window);
    slot = take(slot, IR_FILTER, 1, &c->having);
    slot = take(slot, IR_AGGREGATE, 0, &c->agg);
    c->where_slot = slot;
    slot = take(slot, IR_FILTER, 0, &c->where);
    c->from_slot = slot;
    c->from = *slot;
    return c->from != NULL;
}
