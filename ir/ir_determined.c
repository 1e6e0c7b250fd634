/*
** ir_determined.c -- whether a query's rows, as a bag, are fixed by the
** database alone.
**
** Layer: ir.  SQLite fixes many results by the order it happens to read
** rows in: a LIMIT (with or without ORDER BY: ties), a scalar subquery
** that finds several rows (the first is taken), a bare column of an
** aggregate query, a window function, group_concat's order, a sum of REAL
** values (rounding depends on the order of the additions), random().  Two
** queries that differ only in such a choice can return different rows on
** one database and still be equivalent: the solver's verdicts treat that
** as a difference under ties, never as a difference.  So a caller that
** would take "the results differ on this database" as proof that two
** queries differ must first know that neither result depends on a
** choice; this tells, conservatively (a query it refuses may well be
** determined).
**
** Some choices pick which rows or values a result shows but not how many
** rows it has: the statement's own LIMIT keeps min(k, n) of n rows
** whichever they are, and a window function, a bare column or an
** ordered aggregate of the statement's own SELECT changes values only,
** where no DISTINCT or HAVING looks at them.  ir_count_choice names the
** choices that can change the count, so a caller may still compare
** counts where the rows themselves tell nothing.
*/
#include <string.h>

#include "ir/ir.h"

typedef struct Determined {
    const char *why; /* the first choice found, or NULL */
    int count_only;  /* only the choices that can change the number of rows */
} Determined;

/* Aggregates whose value depends on the order of their input. */
static int order_sensitive(const SqAggItem *it) {
    static const char *const names[] = {"group_concat", "string_agg", "json_group_array",
                                        "json_group_object", "jsonb_group_array",
                                        "jsonb_group_object"};
    if (!it->def) return 1;
    for (size_t i = 0; i < SQ_ARRAY_LEN(names); i++)
        if (strcmp(it->def->name, names[i]) == 0) return 1;
    /* the sum of REAL values rounds by the order of the additions */
    if (strcmp(it->def->name, "sum") == 0 || strcmp(it->def->name, "total") == 0 ||
        strcmp(it->def->name, "avg") == 0)
        return it->args.n != 1 || it->args.items[0]->type.cls != SQ_TY_INTEGER;
    return 0;
}

static const char *agg_choice(const IrRel *agg) {
    for (uint32_t i = 0; i < agg->u.agg.n_items; i++) {
        const SqAggItem *it = &agg->u.agg.items[i];
        if (it->kind == SQ_AGG_BARE) return "a bare column of an aggregate query";
        if (it->kind == SQ_AGG_CALL && order_sensitive(it))
            return "an aggregate whose value depends on the order of its rows";
    }
    return NULL;
}

/* Whether a block is the statement's own SELECT (not a compound's term). */
static int statement_core(const IrCoreSite *site) {
    return site->use == IR_USE_ROOT && !site->in_compound;
}

static const char *core_choice(const IrCore *c, const IrCoreSite *site, int count_only) {
    int own = count_only && statement_core(site);      /* its LIMIT keeps a count */
    int values_only = own && !c->distinct && !c->having; /* its choices change values only */
    if (c->limit && !own) return "a LIMIT";
    if (c->window && !values_only) return "a window function";
    if (c->agg && agg_choice(c->agg) && !values_only) return agg_choice(c->agg);
    /* a scalar subquery takes its first row: one row only when it
    ** aggregates without GROUP BY */
    if (site->use == IR_USE_SCALAR && (!c->agg || c->agg->u.agg.n_keys))
        return "a scalar subquery that may find several rows";
    return NULL;
}

static void visit(void *arg, IrRel **top, const IrCore *c, const IrCoreSite *site) {
    Determined *d = arg;
    if (d->why) return;
    if (!c) {
        int own = d->count_only && statement_core(site);
        for (IrRel *r = *top; r && (r->kind == IR_LIMIT || r->kind == IR_SORT); r = r->input)
            if (r->kind == IR_LIMIT && !own) d->why = "a LIMIT";
        if (!d->why && site->use == IR_USE_SCALAR) d->why = "a scalar subquery that may find several rows";
        return;
    }
    d->why = core_choice(c, site, d->count_only);
}

static int nondet_call(SqExpr *e, void *arg) {
    (void)arg;
    return (e->kind == SQX_FUNC && e->u.func.def && (e->u.func.def->flags & FL_NONDET)) ||
           sq_expr_node_reads_clock(e);
}

static const char *choice(IrQuery *q, int count_only) {
    if (!q || !q->root) return "no query";
    Determined d = {NULL, count_only};
    ir_visit_cores(&q->root, visit, &d);
    if (!d.why && ir_query_walk(q, nondet_call, NULL)) d.why = "a function whose value is not fixed (random, the clock)";
    return d.why;
}

const char *ir_result_choice(IrQuery *q) { return choice(q, 0); }

const char *ir_count_choice(IrQuery *q) { return choice(q, 1); }
