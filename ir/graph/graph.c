/*
** graph.c -- building schema graphs and join query graphs (see graph.h).
**
** Layer: ir.  Takes nodes and join conditions from the catalog or from a
** query's FROM items; gives an SqGraph.  Every byte of it, the names and
** column names included, is copied into the arena given to sq_graph_new(),
** so the graph outlives whatever the caller built it from.
**
** The builders keep the invariants the statistics (graph_algo.c) rely on:
** at most one edge per pair of nodes, stored with a <= b, and no two equal
** labels on one edge.  Lookups are linear scans: schema graphs have tens of
** tables and query graphs a handful of FROM items.
*/
#include <assert.h>

#include "ir/graph/graph.h"
#include "runtime/util.h"

SqGraph *sq_graph_new(SqArena *a) {
    SqGraph *g = sq_arena_alloc(a, sizeof *g);
    g->arena = a;
    return g;
}

/* A copy of s in the arena; NULL stays NULL (a schema node has no table). */
static const char *dup_or_null(SqArena *a, const char *s) {
    return s ? sq_arena_strdup(a, s) : NULL;
}

uint32_t sq_graph_add_node(SqGraph *g, const char *name, const char *table, uint32_t rel) {
    SqGraphNode *nd = SQ_ARENA_APPEND(g->arena, g->nodes, g->n_nodes, g->cap_nodes);
    nd->name = dup_or_null(g->arena, name);
    nd->table = dup_or_null(g->arena, table);
    nd->rel = rel;
    return g->n_nodes - 1;
}

int sq_graph_find(const SqGraph *g, const char *name) {
    for (uint32_t i = 0; i < g->n_nodes; i++)
        if (g->nodes[i].name && sq_stricmp(g->nodes[i].name, name) == 0) return (int)i;
    return -1;
}

/* ------------------------------------------------------------------ */
/* Edges                                                               */
/* ------------------------------------------------------------------ */

static SqGraphEdge *find_edge(const SqGraph *g, uint32_t a, uint32_t b) {
    for (uint32_t i = 0; i < g->n_edges; i++)
        if (g->edges[i].a == a && g->edges[i].b == b) return &g->edges[i];
    return NULL;
}

/* The returned pointer is good until the next edge is added: the edge
** array moves when it grows. */
SqGraphEdge *sq_graph_edge(SqGraph *g, uint32_t a, uint32_t b) {
    assert(a < g->n_nodes && b < g->n_nodes);
    if (a > b) {
        uint32_t t = a;
        a = b;
        b = t;
    }
    SqGraphEdge *e = find_edge(g, a, b);
    if (e) return e;
    e = SQ_ARENA_APPEND(g->arena, g->edges, g->n_edges, g->cap_edges);
    e->a = a;
    e->b = b;
    return e;
}

/* ------------------------------------------------------------------ */
/* Labels                                                              */
/* ------------------------------------------------------------------ */

/* Whether xs[i] = ys[i] for some i is the pair x = y. */
static int has_pair(const char **xs, const char **ys, uint32_t n, const char *x, const char *y) {
    for (uint32_t i = 0; i < n; i++)
        if (sq_stricmp(xs[i], x) == 0 && sq_stricmp(ys[i], y) == 0) return 1;
    return 0;
}

/* Whether every pair of the first list is in the second. */
static int pairs_within(const char **xs, const char **ys, uint32_t n, const char **in_xs,
                        const char **in_ys, uint32_t in_n) {
    for (uint32_t i = 0; i < n; i++)
        if (!has_pair(in_xs, in_ys, in_n, xs[i], ys[i])) return 0;
    return 1;
}

/* Whether l is the label xs = ys of this kind, both given from the edge's
** a side (a PK-FK label's foreign key in b when fk_in_b).  Pairs compare
** as sets, since (a.x = b.x AND a.y = b.y) is the same join in either
** order; names compare as SQL identifiers do. */
static int label_equal(const SqJoinLabel *l, const char **xs, const char **ys, uint32_t n,
                       SqJoinLabelKind kind, int fk_in_b) {
    return l->kind == kind && l->n_cols == n && l->fk_in_b == fk_in_b &&
           pairs_within(xs, ys, n, l->a_cols, l->b_cols, l->n_cols) &&
           pairs_within(l->a_cols, l->b_cols, l->n_cols, xs, ys, n);
}

/* The label of e equal to xs = ys, or NULL.  On a self-loop both sides are
** the same node, so t.x = t.y and t.y = t.x are one condition, except
** for a PK-FK label, whose foreign key is a's columns on a self-loop:
** t.x referencing t.y is another key than t.y referencing t.x. */
static SqJoinLabel *find_label(const SqGraphEdge *e, const char **xs, const char **ys,
                               uint32_t n, SqJoinLabelKind kind, int fk_in_b) {
    for (uint32_t i = 0; i < e->n_labels; i++) {
        SqJoinLabel *l = &e->labels[i];
        if (label_equal(l, xs, ys, n, kind, fk_in_b)) return l;
        if (e->a == e->b && kind != SQ_JL_PK_FK && label_equal(l, ys, xs, n, kind, fk_in_b))
            return l;
    }
    return NULL;
}

static const char **copy_cols(SqArena *a, const char **cols, uint32_t n) {
    const char **c = sq_arena_alloc(a, (n ? n : 1) * sizeof *c);
    for (uint32_t i = 0; i < n; i++) c[i] = sq_arena_strdup(a, cols[i]);
    return c;
}

/* The columns come from a's side; the edge stores its smaller node as a,
** so a label given from the larger node's side is turned round (and a
** PK-FK label's foreign key is then in the edge's b). */
SqJoinLabel *sq_graph_add_label(SqGraph *g, uint32_t a, uint32_t b, const char **a_cols,
                                const char **b_cols, uint32_t n_cols, SqJoinLabelKind kind) {
    int fk_in_b = 0;
    if (a > b) {
        const char **t = a_cols;
        a_cols = b_cols;
        b_cols = t;
        fk_in_b = kind == SQ_JL_PK_FK;
    }
    SqGraphEdge *e = sq_graph_edge(g, a, b);
    SqJoinLabel *l = find_label(e, a_cols, b_cols, n_cols, kind, fk_in_b);
    if (l) return l;
    l = SQ_ARENA_APPEND(g->arena, e->labels, e->n_labels, e->cap_labels);
    l->a_cols = copy_cols(g->arena, a_cols, n_cols);
    l->b_cols = copy_cols(g->arena, b_cols, n_cols);
    l->n_cols = n_cols;
    l->kind = (uint8_t)kind;
    l->fk_in_b = (uint8_t)fk_in_b;
    return l;
}
