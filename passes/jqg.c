/*
** jqg.c -- the `jqg` analysis: a query's join query graph.
**
** Layer: passes.  Builds the graph (ir/graph/querygraph.c) of the IR as it is
** now, so that run after `unnest` it sees the joins unnesting made.  The
** result feeds expansion and reports; `squint opt --passes unnest,jqg`
** prints it.
*/
#include "ir/graph/querygraph.h"
#include "passes/passes.h"

typedef struct JqgResult {
    SqGraph *graph;    /* NULL when the query has none */
    const char *why;   /* then, what is in the way */
} JqgResult;

int sq_jqg_run(SqPassCtx *ctx, IrQuery *q) {
    JqgResult *r = sq_arena_alloc(ctx->arena, sizeof *r);
    r->graph = sq_query_graph(ctx->arena, q, &r->why);
    ctx->results[sq_pass_index(sq_pass_find("jqg"))] = r;
    return 0;
}

const SqGraph *sq_jqg_graph(const SqPassCtx *ctx, const char **why) {
    const JqgResult *r = sq_pass_result(ctx, "jqg");
    if (!r) {
        *why = "not computed";
        return NULL;
    }
    *why = r->why;
    return r->graph;
}

static void label_text(SqBuf *out, const SqGraph *g, const SqGraphEdge *e, const SqJoinLabel *l) {
    for (uint32_t k = 0; k < l->n_cols; k++)
        sq_buf_printf(out, "%s%s.%s = %s.%s", k ? " AND " : "", g->nodes[e->a].name,
                      l->a_cols[k], g->nodes[e->b].name, l->b_cols[k]);
}

void sq_jqg_print(const SqPassCtx *ctx, IrQuery *q, SqBuf *out) {
    (void)q;
    const char *why;
    const SqGraph *g = sq_jqg_graph(ctx, &why);
    if (!g) {
        sq_buf_printf(out, "-- jqg: none (%s)\n", why);
        return;
    }
    sq_buf_printf(out, "-- jqg: %u node%s, %u edge%s\n", g->n_nodes, g->n_nodes == 1 ? "" : "s",
                  g->n_edges, g->n_edges == 1 ? "" : "s");
    for (uint32_t i = 0; i < g->n_edges; i++) {
        const SqGraphEdge *e = &g->edges[i];
        for (uint32_t k = 0; k < e->n_labels; k++) {
            sq_buf_puts(out, "--   ");
            label_text(out, g, e, &e->labels[k]);
            sq_buf_putc(out, '\n');
        }
    }
}

void sq_jqg_print_json(const SqPassCtx *ctx, IrQuery *q, SqJsonWriter *w) {
    (void)q;
    const char *why;
    const SqGraph *g = sq_jqg_graph(ctx, &why);
    sq_jw_key(w, "graph");
    if (!g) {
        sq_jw_null(w);
        sq_jw_key(w, "why");
        sq_jw_str(w, why);
        return;
    }
    sq_graph_json(g, w);
}
