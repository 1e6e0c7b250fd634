/*
** graph.h -- undirected graphs with labelled edges: the schema graph and
** the join query graph, and the statistics squint reports on them.
**
** Layer: ir.  A node is a table (schema graph) or a FROM item (join query
** graph).  An edge joins two nodes that can be (schema graph) or are
** (query graph) joined; it carries one label per join condition that
** relates them, e.g. two foreign keys from `connected` to `atom` give one
** edge with two labels.  A self-loop (a table joined with itself, e.g. an
** employee's manager) is an edge whose two ends are the same node.
**
** The statistics (graph_algo.c) treat the graph as simple: an edge counts
** once whatever its number of labels, and self-loops are left out of
** degrees, paths and cycles (they are reported on their own).
**
** Everything lives in the arena given to sq_graph_new().
*/
#ifndef SQ_GRAPH_H
#define SQ_GRAPH_H

#include <stdint.h>

#include "runtime/arena.h"
#include "runtime/jsonw.h"
#include "runtime/strbuf.h"

/* One join condition: columns a_cols of node a equal columns b_cols of
** node b, pairwise (a multi-column foreign key has several). */
typedef struct SqJoinLabel {
    const char **a_cols;
    const char **b_cols;
    uint32_t n_cols;
    uint8_t kind;          /* SqJoinLabelKind */
    uint8_t fk_in_b;       /* SQ_JL_PK_FK: the foreign key is b_cols (the
                              edge's node b references node a); else a_cols */
} SqJoinLabel;

typedef enum SqJoinLabelKind {
    SQ_JL_PK_FK,   /* a foreign key and the key it references */
    SQ_JL_FK_FK,   /* two foreign keys that reference the same key */
    SQ_JL_QUERY,   /* an equality a query writes (join query graph) */
} SqJoinLabelKind;

typedef struct SqGraphNode {
    const char *name;      /* table name, or the FROM item's alias */
    const char *table;     /* the table it reads (query graph), or NULL */
    uint32_t rel;          /* query graph: the FROM item's relation id */
} SqGraphNode;

typedef struct SqGraphEdge {
    uint32_t a, b;         /* node indexes, a <= b (a == b: self-loop) */
    SqJoinLabel *labels;
    uint32_t n_labels, cap_labels;
} SqGraphEdge;

typedef struct SqGraph {
    SqArena *arena;
    SqGraphNode *nodes;
    uint32_t n_nodes, cap_nodes;
    SqGraphEdge *edges;
    uint32_t n_edges, cap_edges;
} SqGraph;

/* ---- building (graph.c) ------------------------------------------------ */

SqGraph *sq_graph_new(SqArena *a);
uint32_t sq_graph_add_node(SqGraph *g, const char *name, const char *table, uint32_t rel);
/* The edge between a and b (either order), created when missing. */
SqGraphEdge *sq_graph_edge(SqGraph *g, uint32_t a, uint32_t b);
/* Add a label to the edge a-b unless an equal label is there; the columns
** are given from a's side and b's side.  A PK-FK label's foreign key is
** a's columns (a references b): two foreign keys that are the same
** condition read in opposite directions are two labels.  Returns the
** label. */
SqJoinLabel *sq_graph_add_label(SqGraph *g, uint32_t a, uint32_t b, const char **a_cols,
                                const char **b_cols, uint32_t n_cols, SqJoinLabelKind kind);
/* Index of the node named name (case-insensitive), or -1. */
int sq_graph_find(const SqGraph *g, const char *name);

/* ---- statistics (graph_algo.c) ----------------------------------------- */

/* Simple cycles (length >= 3) by length; counting stops at max_cycles
** (0: no limit) and sets capped. */
#define SQ_GRAPH_MAX_CYCLE_LEN 64
typedef struct SqCycleStats {
    uint64_t total;
    uint64_t by_length[SQ_GRAPH_MAX_CYCLE_LEN + 1]; /* index = number of nodes */
    int capped;
} SqCycleStats;

typedef struct SqGraphStats {
    uint32_t n_nodes, n_edges;   /* edges between distinct nodes */
    uint32_t n_self_loops;
    uint32_t n_labels;           /* all labels, self-loops included */
    double avg_degree;           /* 2 * n_edges / n_nodes (0 when empty) */
    uint32_t max_degree;
    uint32_t n_components;       /* isolated nodes count as components */
    uint32_t diameter;           /* longest shortest path in any component */
    SqCycleStats cycles;
} SqGraphStats;

void sq_graph_stats(const SqGraph *g, uint64_t max_cycles, SqGraphStats *out);

/* Degree of each node (self-loops left out); out has n_nodes entries. */
void sq_graph_degrees(const SqGraph *g, uint32_t *out);
/* Component index of each node (0, 1, ... in order of first node). */
uint32_t sq_graph_components(const SqGraph *g, uint32_t *comp_of);
/* Brandes' betweenness centrality of each node (unnormalized, undirected:
** each pair counted once); out has n_nodes entries. */
void sq_graph_betweenness(const SqGraph *g, double *out);
/* Simple cycles (see SqCycleStats). */
void sq_graph_cycles(const SqGraph *g, uint64_t max_cycles, SqCycleStats *out);
/* A canonical form of the graph's shape (unlabelled, self-loops left out):
** two graphs get the same string exactly when they are isomorphic.
** Written to out; returns 0 (and writes nothing) when the graph has more
** than max_nodes nodes. */
int sq_graph_canonical(const SqGraph *g, uint32_t max_nodes, SqBuf *out);

/* ---- printing (graph_print.c) ------------------------------------------ */

/* "nodes: a b c" (an alias as "t1 (table)"), then "edge a -- b" with one
** line per label, a PK-FK one ending "(from -> to)". */
void sq_graph_text(const SqGraph *g, SqBuf *out);
void sq_graph_json(const SqGraph *g, SqJsonWriter *w);
/* A Graphviz undirected graph named name, labels on the edges, one
** condition per line.  A node that is an alias is labelled "alias
** (table)".  PK-FK conditions are drawn as arrows from the table with the
** foreign key to the one it references (dir=forward), FK-FK conditions as
** dashed lines, query equalities as plain lines; an edge with conditions
** of several of these kinds is drawn once per kind. */
void sq_graph_dot(const SqGraph *g, const char *name, SqBuf *out);
void sq_graph_stats_text(const SqGraphStats *s, SqBuf *out);
void sq_graph_stats_json(const SqGraphStats *s, SqJsonWriter *w);

#endif
