/*
** graph_algo.c -- statistics of schema graphs and join query graphs:
** degrees, components, diameter, simple cycles, betweenness and a
** canonical form for isomorphism (see graph.h).
**
** Layer: ir.  Takes a built SqGraph and never changes it; gives numbers,
** or a string in the caller's SqBuf.  Every function treats the graph as
** simple and undirected: an edge counts once whatever its labels, and
** self-loops are left out.  Scratch memory is heap-allocated and freed
** before each function returns (the graph's arena is not touched).
*/
#include <stdlib.h>
#include <string.h>

#include "ir/graph/graph.h"
#include "runtime/util.h"

#define UNSEEN UINT32_MAX

/* ------------------------------------------------------------------ */
/* The simple graph                                                    */
/* ------------------------------------------------------------------ */

/* The graph without labels and self-loops, in compressed rows: the
** neighbours of v are nbr[off[v] .. off[v + 1]). */
typedef struct Adj {
    uint32_t n;     /* nodes */
    uint32_t *off;  /* n + 1 row starts, owned */
    uint32_t *nbr;  /* off[n] neighbour indexes, owned */
} Adj;

void sq_graph_degrees(const SqGraph *g, uint32_t *out) {
    memset(out, 0, g->n_nodes * sizeof *out);
    for (uint32_t i = 0; i < g->n_edges; i++) {
        const SqGraphEdge *e = &g->edges[i];
        if (e->a == e->b) continue;
        out[e->a]++;
        out[e->b]++;
    }
}

static void adj_build(const SqGraph *g, Adj *adj) {
    uint32_t n = g->n_nodes;
    adj->n = n;
    adj->off = sq_calloc(n + 1, sizeof *adj->off);
    sq_graph_degrees(g, adj->off + 1);
    for (uint32_t v = 0; v < n; v++) adj->off[v + 1] += adj->off[v];
    adj->nbr = sq_malloc(adj->off[n] * sizeof *adj->nbr);
    uint32_t *fill = sq_malloc((n ? n : 1) * sizeof *fill);
    memcpy(fill, adj->off, n * sizeof *fill);
    for (uint32_t i = 0; i < g->n_edges; i++) {
        const SqGraphEdge *e = &g->edges[i];
        if (e->a == e->b) continue;
        adj->nbr[fill[e->a]++] = e->b;
        adj->nbr[fill[e->b]++] = e->a;
    }
    free(fill);
}

static void adj_free(Adj *adj) {
    free(adj->off);
    free(adj->nbr);
}

static uint32_t *alloc_u32(uint32_t n) { return sq_malloc((n ? n : 1) * sizeof(uint32_t)); }

static void fill_unseen(uint32_t *dist, uint32_t n) {
    for (uint32_t v = 0; v < n; v++) dist[v] = UNSEEN;
}

/* Breadth-first search from s over nodes whose dist is UNSEEN (the caller
** sets that up): fills dist, and queue with the nodes reached in order of
** visit (so by nondecreasing distance, s first).  Returns how many. */
static uint32_t bfs(const Adj *g, uint32_t s, uint32_t *dist, uint32_t *queue) {
    uint32_t head = 0, tail = 0;
    dist[s] = 0;
    queue[tail++] = s;
    while (head < tail) {
        uint32_t v = queue[head++];
        for (uint32_t i = g->off[v]; i < g->off[v + 1]; i++) {
            uint32_t u = g->nbr[i];
            if (dist[u] != UNSEEN) continue;
            dist[u] = dist[v] + 1;
            queue[tail++] = u;
        }
    }
    return tail;
}

/* ------------------------------------------------------------------ */
/* Components and diameter                                             */
/* ------------------------------------------------------------------ */

static uint32_t count_components(const Adj *g, uint32_t *comp_of) {
    uint32_t *dist = alloc_u32(g->n), *queue = alloc_u32(g->n), n_comp = 0;
    fill_unseen(dist, g->n);
    for (uint32_t v = 0; v < g->n; v++) {
        if (dist[v] != UNSEEN) continue;
        uint32_t k = bfs(g, v, dist, queue);
        if (comp_of)
            for (uint32_t i = 0; i < k; i++) comp_of[queue[i]] = n_comp;
        n_comp++;
    }
    free(dist);
    free(queue);
    return n_comp;
}

/* comp_of may be NULL when only the count is wanted. */
uint32_t sq_graph_components(const SqGraph *g, uint32_t *comp_of) {
    Adj adj;
    adj_build(g, &adj);
    uint32_t n_comp = count_components(&adj, comp_of);
    adj_free(&adj);
    return n_comp;
}

/* The largest eccentricity over all nodes: a BFS from each, O(n(n + m)),
** which is nothing for graphs of tables. */
static uint32_t diameter(const Adj *g) {
    uint32_t *dist = alloc_u32(g->n), *queue = alloc_u32(g->n), best = 0;
    for (uint32_t s = 0; s < g->n; s++) {
        fill_unseen(dist, g->n);
        uint32_t k = bfs(g, s, dist, queue);
        if (dist[queue[k - 1]] > best) best = dist[queue[k - 1]];
    }
    free(dist);
    free(queue);
    return best;
}

/* ------------------------------------------------------------------ */
/* Simple cycles                                                       */
/* ------------------------------------------------------------------ */

/* Each cycle is counted from its smallest node s, walking only through
** nodes above s, and in one direction only: the one whose second node is
** smaller than its last.  Before walking from s, the nodes above s that
** share a biconnected block with s are marked; a cycle through s stays in
** one such block, so the walk never wanders into parts of the graph it
** could not come back from (a dense block hanging off a path would
** otherwise be walked once for every smaller node). */
typedef struct CycleWalk {
    const Adj *g;
    uint32_t *path;       /* the nodes of the current path, s first */
    uint32_t *next;       /* per depth: the next neighbour index to try */
    uint8_t *on_path;     /* per node */
    uint8_t *in_block;    /* per node: above s and in a block with s */
    uint32_t *disc, *low, *parent, *order; /* per node: block search */
    uint64_t max_cycles;  /* 0: no limit */
    int is_done;          /* the cap was hit */
    SqCycleStats *out;
} CycleWalk;

/* Count a cycle of len nodes, unless the cap is reached.  Cycles longer
** than SQ_GRAPH_MAX_CYCLE_LEN go in the last bucket. */
static void count_cycle(CycleWalk *w, uint32_t len) {
    if (w->max_cycles && w->out->total == w->max_cycles) {
        w->out->capped = 1;
        w->is_done = 1;
        return;
    }
    w->out->total++;
    w->out->by_length[len < SQ_GRAPH_MAX_CYCLE_LEN ? len : SQ_GRAPH_MAX_CYCLE_LEN]++;
}

/* Depth-first search from s over nodes >= s, with an explicit stack:
** disc (discovery time), low (lowest discovery time reachable by one back
** edge from the subtree) and parent of each node reached; order holds the
** nodes in discovery order.  Returns how many were reached. */
static uint32_t lowpoints(CycleWalk *w, uint32_t s) {
    const Adj *g = w->g;
    uint32_t time = 0, depth = 0;
    fill_unseen(w->disc, g->n);
    w->disc[s] = w->low[s] = time;
    w->parent[s] = UNSEEN;
    w->order[time++] = s;
    w->path[0] = s;
    w->next[0] = g->off[s];
    for (;;) {
        uint32_t v = w->path[depth];
        if (w->next[depth] == g->off[v + 1]) {
            if (depth == 0) return time;
            uint32_t p = w->path[--depth];
            if (w->low[v] < w->low[p]) w->low[p] = w->low[v];
            continue;
        }
        uint32_t u = g->nbr[w->next[depth]++];
        if (u < s) continue;
        if (w->disc[u] != UNSEEN) {
            if (u != w->parent[v] && w->disc[u] < w->low[v]) w->low[v] = w->disc[u];
            continue;
        }
        w->disc[u] = w->low[u] = time;
        w->order[time++] = u;
        w->parent[u] = v;
        w->path[++depth] = u;
        w->next[depth] = g->off[u];
    }
}

/* Mark the nodes above s that lie in a biconnected block with s.  In the
** DFS tree rooted at s each child c of s starts one such block, and a tree
** edge p-x (p != s) stays in its parent's block exactly when the subtree
** of x reaches above p (low[x] < disc[p]). */
static void mark_blocks_of(CycleWalk *w, uint32_t s) {
    memset(w->in_block, 0, w->g->n);
    uint32_t k = lowpoints(w, s);
    for (uint32_t i = 1; i < k; i++) {
        uint32_t x = w->order[i], p = w->parent[x];
        w->in_block[x] = p == s || (w->in_block[p] && w->low[x] < w->disc[p]);
    }
}

/* All cycles whose smallest node is s: extend the path through marked
** nodes, and count each edge back to s from a path of three nodes or
** more whose second node is below its last. */
static void cycles_from(CycleWalk *w, uint32_t s) {
    const Adj *g = w->g;
    uint32_t depth = 0;
    w->path[0] = s;
    w->next[0] = g->off[s];
    while (!w->is_done) {
        uint32_t v = w->path[depth];
        if (w->next[depth] == g->off[v + 1]) {
            w->on_path[v] = 0;
            if (depth-- == 0) return;
            continue;
        }
        uint32_t u = g->nbr[w->next[depth]++];
        if (u == s) {
            if (depth >= 2 && w->path[1] < v) count_cycle(w, depth + 1);
        } else if (w->in_block[u] && !w->on_path[u]) {
            w->on_path[u] = 1;
            w->path[++depth] = u;
            w->next[depth] = g->off[u];
        }
    }
}

static void cycle_walk_init(CycleWalk *w, const Adj *g, uint64_t max_cycles,
                            SqCycleStats *out) {
    memset(w, 0, sizeof *w);
    w->g = g;
    w->path = alloc_u32(g->n);
    w->next = alloc_u32(g->n);
    w->on_path = sq_calloc(g->n, 1);
    w->in_block = sq_calloc(g->n, 1);
    w->disc = alloc_u32(g->n);
    w->low = alloc_u32(g->n);
    w->parent = alloc_u32(g->n);
    w->order = alloc_u32(g->n);
    w->max_cycles = max_cycles;
    w->out = out;
}

static void cycle_walk_free(CycleWalk *w) {
    free(w->path);
    free(w->next);
    free(w->on_path);
    free(w->in_block);
    free(w->disc);
    free(w->low);
    free(w->parent);
    free(w->order);
}

static void count_cycles(const Adj *g, uint64_t max_cycles, SqCycleStats *out) {
    CycleWalk w;
    memset(out, 0, sizeof *out);
    cycle_walk_init(&w, g, max_cycles, out);
    for (uint32_t s = 0; s < g->n && !w.is_done; s++) {
        if (g->off[s + 1] - g->off[s] < 2) continue; /* no cycle through s */
        mark_blocks_of(&w, s);
        cycles_from(&w, s);
    }
    cycle_walk_free(&w);
}

void sq_graph_cycles(const SqGraph *g, uint64_t max_cycles, SqCycleStats *out) {
    Adj adj;
    adj_build(g, &adj);
    count_cycles(&adj, max_cycles, out);
    adj_free(&adj);
}

/* ------------------------------------------------------------------ */
/* Betweenness (Brandes 2001)                                          */
/* ------------------------------------------------------------------ */

typedef struct Brandes {
    uint32_t *dist, *queue; /* per node: BFS from the current source */
    double *sigma;          /* per node: shortest paths from the source */
    double *delta;          /* per node: dependency of the source on it */
} Brandes;

/* Shortest-path counts from queue[0], in BFS order: a node's count is the
** sum over its neighbours one step nearer.  Doubles, since the counts can
** outgrow any integer on dense graphs. */
static void count_paths(const Adj *g, Brandes *b, uint32_t k) {
    b->sigma[b->queue[0]] = 1;
    for (uint32_t i = 1; i < k; i++) {
        uint32_t w = b->queue[i];
        b->sigma[w] = 0;
        for (uint32_t j = g->off[w]; j < g->off[w + 1]; j++)
            if (b->dist[g->nbr[j]] + 1 == b->dist[w]) b->sigma[w] += b->sigma[g->nbr[j]];
    }
}

/* Add to out the dependencies of source s on every other node, taking
** nodes farthest first so that each delta is complete when it is used. */
static void add_dependencies(const Adj *g, Brandes *b, uint32_t s, double *out) {
    fill_unseen(b->dist, g->n);
    uint32_t k = bfs(g, s, b->dist, b->queue);
    count_paths(g, b, k);
    for (uint32_t i = 0; i < k; i++) b->delta[b->queue[i]] = 0;
    for (uint32_t i = k; i-- > 1;) {
        uint32_t w = b->queue[i];
        double share = (1 + b->delta[w]) / b->sigma[w];
        for (uint32_t j = g->off[w]; j < g->off[w + 1]; j++) {
            uint32_t v = g->nbr[j];
            if (b->dist[v] + 1 == b->dist[w]) b->delta[v] += b->sigma[v] * share;
        }
        out[w] += b->delta[w];
    }
}

/* Every pair is met from both ends, hence the halving. */
void sq_graph_betweenness(const SqGraph *g, double *out) {
    Adj adj;
    adj_build(g, &adj);
    uint32_t n = adj.n;
    Brandes b = {alloc_u32(n), alloc_u32(n), sq_calloc(n, sizeof(double)),
                 sq_calloc(n, sizeof(double))};
    for (uint32_t v = 0; v < n; v++) out[v] = 0;
    for (uint32_t s = 0; s < n; s++) add_dependencies(&adj, &b, s, out);
    for (uint32_t v = 0; v < n; v++) out[v] /= 2;
    free(b.dist);
    free(b.queue);
    free(b.sigma);
    free(b.delta);
    adj_free(&adj);
}

/* ------------------------------------------------------------------ */
/* Canonical form                                                      */
/* ------------------------------------------------------------------ */

/* The canonical form is n and the smallest adjacency string (the upper
** triangle, column by column) over the node orders that an
** individualisation-refinement search reaches, as in McKay's nauty.
** Colour refinement orders the nodes by isomorphism-invariant colours;
** while a colour class (cell) has several nodes, each of them in turn is
** given a colour of its own and the colours are refined again.  The set of
** orders reached depends only on the graph's shape, so its smallest string
** is canonical; being the adjacency matrix itself, it is exact.
**
** The search is exponential in the worst case.  Two nodes with the same
** neighbours apart from each other (twins) can be swapped by an
** automorphism that keeps every colour, so only the first of them is
** tried; that keeps complete, complete bipartite and star-like graphs
** cheap.  The most symmetric graphs of 12 nodes we tried (the cocktail
** party graph, K6 x K2, the icosahedron, 6 K2) take under 10 ms. */
typedef struct Canon {
    uint32_t n;
    uint8_t *adj;        /* n x n, 1 for an edge */
    uint32_t *twin;      /* per node: the smallest node that is its twin */
    uint32_t *cols;      /* n levels of n colours, one level per search depth */
    uint32_t *sig;       /* n rows of n + 1: refinement signatures */
    uint32_t *by_sig;    /* the nodes sorted by signature */
    uint32_t *at;        /* at a leaf: the node in each position */
    uint8_t *best, *cur; /* adjacency strings, n(n-1)/2 bytes each */
    size_t n_bits;
    int has_best;
} Canon;

/* The signature of v: its colour, then its neighbours' colours ascending,
** padded with UNSEEN to n + 1 entries. */
static void signature(Canon *c, const uint32_t *col, uint32_t v) {
    uint32_t n = c->n, *row = c->sig + (size_t)v * (n + 1), k = 1;
    row[0] = col[v];
    for (uint32_t u = 0; u < n; u++) {
        if (!c->adj[(size_t)v * n + u]) continue;
        uint32_t i = k++;
        for (; i > 1 && row[i - 1] > col[u]; i--) row[i] = row[i - 1];
        row[i] = col[u];
    }
    while (k <= n) row[k++] = UNSEEN;
}

static int sig_cmp(const Canon *c, uint32_t u, uint32_t v) {
    const uint32_t *x = c->sig + (size_t)u * (c->n + 1), *y = c->sig + (size_t)v * (c->n + 1);
    for (uint32_t i = 0; i <= c->n; i++)
        if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1;
    return 0;
}

/* Insertion sort: n is small and qsort() takes no context. */
static void sort_by_sig(Canon *c) {
    for (uint32_t i = 1; i < c->n; i++) {
        uint32_t v = c->by_sig[i], j = i;
        for (; j > 0 && sig_cmp(c, c->by_sig[j - 1], v) > 0; j--) c->by_sig[j] = c->by_sig[j - 1];
        c->by_sig[j] = v;
    }
}

/* One refinement round: each node's new colour is the rank of its
** signature.  The old colour leads the signature, so cells only split and
** keep their order.  Returns the number of colours. */
static uint32_t refine_round(Canon *c, uint32_t *col) {
    for (uint32_t v = 0; v < c->n; v++) {
        signature(c, col, v);
        c->by_sig[v] = v;
    }
    sort_by_sig(c);
    uint32_t k = 0;
    for (uint32_t i = 0; i < c->n; i++) {
        if (i > 0 && sig_cmp(c, c->by_sig[i - 1], c->by_sig[i]) != 0) k++;
        col[c->by_sig[i]] = k;
    }
    return k + 1;
}

/* Refine col (dense colours from 0) until no cell splits; returns the
** number of colours and leaves by_sig sorted by colour. */
static uint32_t refine(Canon *c, uint32_t *col) {
    uint32_t k = 0;
    for (uint32_t v = 0; v < c->n; v++)
        if (col[v] + 1 > k) k = col[v] + 1;
    for (;;) {
        uint32_t k2 = refine_round(c, col);
        if (k2 == k) return k;
        k = k2;
    }
}

/* The first colour held by several nodes (by_sig is sorted by colour). */
static uint32_t target_cell(const Canon *c, const uint32_t *col) {
    for (uint32_t i = 0; i + 1 < c->n; i++)
        if (col[c->by_sig[i]] == col[c->by_sig[i + 1]]) return col[c->by_sig[i]];
    return UNSEEN;
}

/* next = col with v alone in its cell: the rest of the cell, and every
** cell above it, move up by one. */
static void individualize(const uint32_t *col, uint32_t *next, uint32_t v, uint32_t n) {
    for (uint32_t u = 0; u < n; u++)
        next[u] = col[u] + (col[u] > col[v] || (col[u] == col[v] && u != v));
}

/* Whether a node before v in cell t is v's twin (and so was tried). */
static int twin_tried(const Canon *c, const uint32_t *col, uint32_t t, uint32_t v) {
    for (uint32_t u = 0; u < v; u++)
        if (col[u] == t && c->twin[u] == c->twin[v]) return 1;
    return 0;
}

/* A discrete colouring is a node order: keep its string if smallest. */
static void leaf(Canon *c, const uint32_t *col) {
    uint32_t n = c->n;
    size_t k = 0;
    for (uint32_t v = 0; v < n; v++) c->at[col[v]] = v;
    for (uint32_t j = 1; j < n; j++)
        for (uint32_t i = 0; i < j; i++) c->cur[k++] = c->adj[(size_t)c->at[i] * n + c->at[j]];
    if (c->has_best && memcmp(c->cur, c->best, c->n_bits) >= 0) return;
    memcpy(c->best, c->cur, c->n_bits);
    c->has_best = 1;
}

/* Recursion depth: each level adds a colour, so at most n levels. */
static void search(Canon *c, uint32_t level) {
    uint32_t n = c->n, *col = c->cols + (size_t)level * n;
    if (refine(c, col) == n) {
        leaf(c, col);
        return;
    }
    uint32_t t = target_cell(c, col);
    for (uint32_t v = 0; v < n; v++) {
        if (col[v] != t || twin_tried(c, col, t, v)) continue;
        individualize(col, col + n, v, n);
        search(c, level + 1);
    }
}

static int are_twins(const Canon *c, uint32_t u, uint32_t v) {
    for (uint32_t w = 0; w < c->n; w++)
        if (w != u && w != v && c->adj[(size_t)u * c->n + w] != c->adj[(size_t)v * c->n + w])
            return 0;
    return 1;
}

/* Twins (open or closed neighbourhoods equal) form equivalence classes;
** each node gets the smallest node of its class. */
static void find_twins(Canon *c) {
    for (uint32_t v = 0; v < c->n; v++) {
        uint32_t u = 0;
        while (u < v && !are_twins(c, u, v)) u++;
        c->twin[v] = u;
    }
}

static void canon_init(Canon *c, const SqGraph *g) {
    uint32_t n = g->n_nodes;
    memset(c, 0, sizeof *c);
    c->n = n;
    c->n_bits = (size_t)n * (n ? n - 1 : 0) / 2;
    c->adj = sq_calloc((size_t)n * n, 1);
    for (uint32_t i = 0; i < g->n_edges; i++) {
        const SqGraphEdge *e = &g->edges[i];
        if (e->a == e->b) continue;
        c->adj[(size_t)e->a * n + e->b] = c->adj[(size_t)e->b * n + e->a] = 1;
    }
    c->twin = alloc_u32(n);
    c->cols = sq_calloc((size_t)n * (n + 1), sizeof *c->cols);
    c->sig = sq_malloc((size_t)n * (n + 1) * sizeof *c->sig + 1);
    c->by_sig = alloc_u32(n);
    c->at = alloc_u32(n);
    c->best = sq_malloc(c->n_bits + 1);
    c->cur = sq_malloc(c->n_bits + 1);
    find_twins(c);
}

static void canon_free(Canon *c) {
    free(c->adj);
    free(c->twin);
    free(c->cols);
    free(c->sig);
    free(c->by_sig);
    free(c->at);
    free(c->best);
    free(c->cur);
}

/* "n:" and the string in hex, four bits a digit, the last one padded
** with zeros (n fixes the length, so padding is unambiguous). */
static void put_canonical(const Canon *c, SqBuf *out) {
    sq_buf_printf(out, "%u:", (unsigned)c->n);
    for (size_t i = 0; i < c->n_bits; i += 4) {
        unsigned d = 0;
        for (size_t j = i; j < i + 4; j++) d = d << 1 | (j < c->n_bits && c->best[j]);
        sq_buf_putc(out, "0123456789abcdef"[d]);
    }
}

int sq_graph_canonical(const SqGraph *g, uint32_t max_nodes, SqBuf *out) {
    if (g->n_nodes > max_nodes) return 0;
    Canon c;
    canon_init(&c, g);
    if (c.n > 0) search(&c, 0);
    put_canonical(&c, out);
    canon_free(&c);
    return 1;
}

/* ------------------------------------------------------------------ */
/* All statistics                                                      */
/* ------------------------------------------------------------------ */

static void count_edges(const SqGraph *g, SqGraphStats *out) {
    for (uint32_t i = 0; i < g->n_edges; i++) {
        const SqGraphEdge *e = &g->edges[i];
        out->n_labels += e->n_labels;
        if (e->a == e->b)
            out->n_self_loops++;
        else
            out->n_edges++;
    }
}

void sq_graph_stats(const SqGraph *g, uint64_t max_cycles, SqGraphStats *out) {
    memset(out, 0, sizeof *out);
    out->n_nodes = g->n_nodes;
    count_edges(g, out);
    if (g->n_nodes) out->avg_degree = 2.0 * out->n_edges / g->n_nodes;
    Adj adj;
    adj_build(g, &adj);
    for (uint32_t v = 0; v < adj.n; v++)
        if (adj.off[v + 1] - adj.off[v] > out->max_degree)
            out->max_degree = adj.off[v + 1] - adj.off[v];
    out->n_components = count_components(&adj, NULL);
    out->diameter = diameter(&adj);
    count_cycles(&adj, max_cycles, &out->cycles);
    adj_free(&adj);
}
