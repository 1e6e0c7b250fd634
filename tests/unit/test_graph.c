/* test_graph.c -- ir/graph: building labelled graphs and their statistics (degrees,
** components, diameter, simple cycles, betweenness, canonical form). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "ir/graph/graph.h"

/* Each test gets a fresh arena as its state. */
static int arena_setup(void **state) {
    *state = sq_arena_new();
    return 0;
}

static int arena_teardown(void **state) {
    sq_arena_free(*state);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Graphs to test on                                                   */
/* ------------------------------------------------------------------ */

/* A graph of n nodes t0 .. t(n-1) and no edges. */
static SqGraph *nodes_only(SqArena *a, uint32_t n) {
    SqGraph *g = sq_graph_new(a);
    for (uint32_t i = 0; i < n; i++) sq_graph_add_node(g, sq_arena_printf(a, "t%u", i), NULL, i);
    return g;
}

/* n nodes and the given edges, as pairs of node indexes. */
static SqGraph *graph_of(SqArena *a, uint32_t n, const uint32_t (*edges)[2], size_t n_edges) {
    SqGraph *g = nodes_only(a, n);
    for (size_t i = 0; i < n_edges; i++) sq_graph_edge(g, edges[i][0], edges[i][1]);
    return g;
}

#define GRAPH(a, n, edges) graph_of((a), (n), (edges), sizeof(edges) / sizeof((edges)[0]))

static SqGraph *complete(SqArena *a, uint32_t n) {
    SqGraph *g = nodes_only(a, n);
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = i + 1; j < n; j++) sq_graph_edge(g, i, j);
    return g;
}

/* 0 - 1 - ... - (n-1), closed into a cycle when is_closed. */
static SqGraph *path_or_cycle(SqArena *a, uint32_t n, int is_closed) {
    SqGraph *g = nodes_only(a, n);
    for (uint32_t i = 0; i + 1 < n; i++) sq_graph_edge(g, i, i + 1);
    if (is_closed) sq_graph_edge(g, n - 1, 0);
    return g;
}

/* Node 0 joined to nodes 1 .. n-1. */
static SqGraph *star(SqArena *a, uint32_t n) {
    SqGraph *g = nodes_only(a, n);
    for (uint32_t i = 1; i < n; i++) sq_graph_edge(g, 0, i);
    return g;
}

/* Outer 5-cycle 0..4, spokes i - i+5, inner pentagram on 5..9. */
static SqGraph *petersen(SqArena *a) {
    SqGraph *g = nodes_only(a, 10);
    for (uint32_t i = 0; i < 5; i++) {
        sq_graph_edge(g, i, (i + 1) % 5);
        sq_graph_edge(g, i, i + 5);
        sq_graph_edge(g, i + 5, (i + 2) % 5 + 5);
    }
    return g;
}

/* A small deterministic generator, so that failures reproduce. */
static uint32_t next_random(uint64_t *seed) {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    return (uint32_t)(*seed >> 11);
}

/* n nodes and m distinct random edges (m at most n(n-1)/2). */
static SqGraph *random_graph(SqArena *a, uint32_t n, uint32_t m, uint64_t *seed) {
    SqGraph *g = nodes_only(a, n);
    while (g->n_edges < m) {
        uint32_t x = next_random(seed) % n, y = next_random(seed) % n;
        if (x != y) sq_graph_edge(g, x, y);
    }
    return g;
}

/* g with node i renamed perm[i], edges in reverse order. */
static SqGraph *permuted(SqArena *a, const SqGraph *g, const uint32_t *perm) {
    SqGraph *h = nodes_only(a, g->n_nodes);
    for (uint32_t i = g->n_edges; i-- > 0;)
        sq_graph_edge(h, perm[g->edges[i].b], perm[g->edges[i].a]);
    return h;
}

static void random_permutation(uint32_t *perm, uint32_t n, uint64_t *seed) {
    for (uint32_t i = 0; i < n; i++) perm[i] = i;
    for (uint32_t i = n; i > 1; i--) {
        uint32_t j = next_random(seed) % i, t = perm[i - 1];
        perm[i - 1] = perm[j];
        perm[j] = t;
    }
}

/* ------------------------------------------------------------------ */
/* Building                                                            */
/* ------------------------------------------------------------------ */

static void find_is_case_insensitive_and_names_are_copied(void **state) {
    SqArena *a = *state;
    SqGraph *g = sq_graph_new(a);
    char name[] = "Atom";
    assert_int_equal(sq_graph_add_node(g, name, NULL, 0), 0);
    assert_int_equal(sq_graph_add_node(g, "connected", "bond", 7), 1);
    name[0] = 'X';
    assert_int_equal(sq_graph_find(g, "ATOM"), 0);
    assert_int_equal(sq_graph_find(g, "Connected"), 1);
    assert_int_equal(sq_graph_find(g, "molecule"), -1);
    assert_string_equal(g->nodes[1].table, "bond");
    assert_null(g->nodes[0].table);
    assert_int_equal(g->nodes[1].rel, 7);
}

static void edge_is_stored_once_with_smaller_node_first(void **state) {
    SqGraph *g = nodes_only(*state, 4);
    SqGraphEdge *e = sq_graph_edge(g, 3, 1);
    assert_int_equal(e->a, 1);
    assert_int_equal(e->b, 3);
    assert_ptr_equal(sq_graph_edge(g, 1, 3), e);
    assert_ptr_equal(sq_graph_edge(g, 3, 1), e);
    sq_graph_edge(g, 2, 2);
    assert_int_equal(g->n_edges, 2);
    assert_int_equal(g->edges[1].a, 2);
    assert_int_equal(g->edges[1].b, 2);
}

static void equal_labels_are_added_once(void **state) {
    SqGraph *g = nodes_only(*state, 2);
    const char *fk[] = {"atom_id"}, *pk[] = {"ATOM_ID"}, *pk2[] = {"id"};
    SqJoinLabel *l = sq_graph_add_label(g, 0, 1, fk, pk2, 1, SQ_JL_PK_FK);
    assert_ptr_equal(sq_graph_add_label(g, 0, 1, fk, pk2, 1, SQ_JL_PK_FK), l);
    assert_ptr_equal(sq_graph_add_label(g, 0, 1, pk, pk2, 1, SQ_JL_PK_FK), l); /* case */
    assert_ptr_not_equal(sq_graph_add_label(g, 0, 1, fk, pk2, 1, SQ_JL_QUERY), l);
    sq_graph_add_label(g, 0, 1, fk, fk, 1, SQ_JL_PK_FK); /* other columns */
    assert_int_equal(g->n_edges, 1);
    assert_int_equal(g->edges[0].n_labels, 3);
}

/* Multi-column pairs compare as a set; a label given from b's side is the
** same label turned round. */
static void labels_are_oriented_by_the_edge(void **state) {
    SqGraph *g = nodes_only(*state, 4);
    const char *xs[] = {"x1", "x2"}, *ys[] = {"y1", "y2"};
    const char *xs_rev[] = {"x2", "x1"}, *ys_rev[] = {"y2", "y1"};
    SqJoinLabel *l = sq_graph_add_label(g, 3, 1, xs, ys, 2, SQ_JL_FK_FK);
    assert_int_equal(g->edges[0].a, 1);
    assert_string_equal(l->a_cols[0], "y1"); /* node 1's columns */
    assert_string_equal(l->b_cols[1], "x2");
    assert_ptr_equal(sq_graph_add_label(g, 1, 3, ys, xs, 2, SQ_JL_FK_FK), l);
    assert_ptr_equal(sq_graph_add_label(g, 3, 1, xs_rev, ys_rev, 2, SQ_JL_FK_FK), l);
    assert_ptr_not_equal(sq_graph_add_label(g, 1, 3, xs, ys, 2, SQ_JL_FK_FK), l);
    assert_int_equal(g->edges[0].n_labels, 2);
}

/* On a self-loop both sides are the same table: t.x = t.y is t.y = t.x,
** except as foreign keys: t.x referencing t.y is another key than t.y
** referencing t.x. */
static void self_loop_labels_dedupe_in_either_direction(void **state) {
    SqGraph *g = nodes_only(*state, 1);
    const char *fk[] = {"manager_id"}, *pk[] = {"id"};
    SqJoinLabel *l = sq_graph_add_label(g, 0, 0, fk, pk, 1, SQ_JL_FK_FK);
    assert_ptr_equal(sq_graph_add_label(g, 0, 0, pk, fk, 1, SQ_JL_FK_FK), l);
    l = sq_graph_add_label(g, 0, 0, fk, pk, 1, SQ_JL_PK_FK);
    assert_ptr_equal(sq_graph_add_label(g, 0, 0, fk, pk, 1, SQ_JL_PK_FK), l);
    assert_ptr_not_equal(sq_graph_add_label(g, 0, 0, pk, fk, 1, SQ_JL_PK_FK), l);
    assert_int_equal(g->n_edges, 1);
    assert_int_equal(g->edges[0].n_labels, 3);
}

/* A PK-FK label remembers which end holds the foreign key, also when it
** is given from the edge's larger node; the same columns as a foreign key
** of the other table are another label. */
static void pk_fk_labels_keep_their_direction(void **state) {
    SqGraph *g = nodes_only(*state, 2);
    const char *x[] = {"x"}, *y[] = {"y"};
    SqJoinLabel *l = sq_graph_add_label(g, 1, 0, x, y, 1, SQ_JL_PK_FK);
    assert_int_equal(l->fk_in_b, 1);
    assert_string_equal(l->b_cols[0], "x");
    l = sq_graph_add_label(g, 0, 1, y, x, 1, SQ_JL_PK_FK);
    assert_int_equal(l->fk_in_b, 0);
    assert_int_equal(g->edges[0].n_labels, 2);
    assert_int_equal(sq_graph_add_label(g, 1, 0, x, y, 1, SQ_JL_FK_FK)->fk_in_b, 0);
}

/* The dot picture: one condition per line (DOT's \n, not an escaped
** backslash), an alias labelled with its table, a PK-FK arrow from the
** foreign key's table, FK-FK dashed, and an edge with both kinds drawn
** twice. */
static void dot_draws_each_kind_of_edge(void **state) {
    SqArena *a = *state;
    SqGraph *g = sq_graph_new(a);
    sq_graph_add_node(g, "r", "ref", 0);
    sq_graph_add_node(g, "s", "s", 0);
    const char *x[] = {"x"}, *y[] = {"y"}, *z[] = {"z"};
    sq_graph_add_label(g, 1, 0, x, y, 1, SQ_JL_PK_FK);
    sq_graph_add_label(g, 1, 0, z, y, 1, SQ_JL_PK_FK);
    sq_graph_add_label(g, 0, 1, z, z, 1, SQ_JL_FK_FK);
    SqBuf b = SQ_BUF_INIT;
    sq_graph_dot(g, "a\\b", &b);
    assert_string_equal(sq_buf_str(&b),
                        "graph \"a\\\\b\" {\n"
                        "  \"r\" [label=\"r (ref)\"];\n"
                        "  \"s\";\n"
                        "  \"s\" -- \"r\" [label=\"s.x = r.y\\ns.z = r.y\", dir=forward];\n"
                        "  \"r\" -- \"s\" [label=\"r.z = s.z\", style=dashed];\n"
                        "}\n");
    sq_buf_free(&b);
}

/* ------------------------------------------------------------------ */
/* Degrees, components, diameter                                       */
/* ------------------------------------------------------------------ */

static void self_loops_are_counted_apart(void **state) {
    SqArena *a = *state;
    static const uint32_t e[][2] = {{0, 1}, {1, 2}, {2, 0}, {1, 1}};
    SqGraph *g = GRAPH(a, 3, e);
    const char *x[] = {"x"}, *y[] = {"y"};
    sq_graph_add_label(g, 0, 1, x, y, 1, SQ_JL_PK_FK);
    sq_graph_add_label(g, 1, 0, x, y, 1, SQ_JL_PK_FK);
    sq_graph_add_label(g, 1, 1, x, y, 1, SQ_JL_PK_FK);
    SqGraphStats st;
    sq_graph_stats(g, 0, &st);
    assert_int_equal(st.n_nodes, 3);
    assert_int_equal(st.n_edges, 3);
    assert_int_equal(st.n_self_loops, 1);
    assert_int_equal(st.n_labels, 3);
    assert_int_equal(st.max_degree, 2);
    assert_true(st.avg_degree == 2.0);
    assert_int_equal(st.diameter, 1);
    assert_int_equal(st.cycles.total, 1);
    assert_int_equal(st.cycles.by_length[3], 1);
}

static void degrees_leave_out_self_loops(void **state) {
    static const uint32_t e[][2] = {{0, 1}, {0, 2}, {0, 3}, {3, 3}, {0, 0}};
    SqGraph *g = GRAPH(*state, 5, e);
    uint32_t deg[5];
    sq_graph_degrees(g, deg);
    assert_int_equal(deg[0], 3);
    assert_int_equal(deg[1], 1);
    assert_int_equal(deg[3], 1);
    assert_int_equal(deg[4], 0);
}

static void components_number_isolated_nodes_in_order(void **state) {
    static const uint32_t e[][2] = {{2, 1}, {0, 0}, {5, 4}, {6, 4}};
    SqGraph *g = GRAPH(*state, 7, e);
    uint32_t comp[7];
    assert_int_equal(sq_graph_components(g, comp), 4);
    static const uint32_t want[7] = {0, 1, 1, 2, 3, 3, 3};
    for (int i = 0; i < 7; i++) assert_int_equal(comp[i], want[i]);
    assert_int_equal(sq_graph_components(g, NULL), 4);
    SqGraphStats st;
    sq_graph_stats(g, 0, &st);
    assert_int_equal(st.n_components, 4);
    assert_int_equal(st.diameter, 2);
}

static uint32_t diameter_of(const SqGraph *g) {
    SqGraphStats st;
    sq_graph_stats(g, 0, &st);
    return st.diameter;
}

static void diameter_of_paths_cycles_stars(void **state) {
    SqArena *a = *state;
    assert_int_equal(diameter_of(path_or_cycle(a, 5, 0)), 4);
    assert_int_equal(diameter_of(path_or_cycle(a, 7, 1)), 3);
    assert_int_equal(diameter_of(path_or_cycle(a, 6, 1)), 3);
    assert_int_equal(diameter_of(star(a, 6)), 2);
    assert_int_equal(diameter_of(complete(a, 5)), 1);
    assert_int_equal(diameter_of(petersen(a)), 2);
    assert_int_equal(diameter_of(nodes_only(a, 3)), 0);
    assert_int_equal(diameter_of(nodes_only(a, 0)), 0);
}

/* The longest shortest path in any component: here the path 3-4-5-6-7. */
static void diameter_over_two_components(void **state) {
    static const uint32_t e[][2] = {{0, 1}, {1, 2}, {3, 4}, {4, 5}, {5, 6}, {6, 7}};
    SqGraph *g = GRAPH(*state, 8, e);
    assert_int_equal(diameter_of(g), 4);
    SqGraphStats st;
    sq_graph_stats(g, 0, &st);
    assert_int_equal(st.n_components, 2);
    assert_int_equal(st.cycles.total, 0);
}

/* ------------------------------------------------------------------ */
/* Simple cycles                                                       */
/* ------------------------------------------------------------------ */

static uint64_t cycles_of(const SqGraph *g) {
    SqCycleStats cs;
    sq_graph_cycles(g, 0, &cs);
    assert_false(cs.capped);
    return cs.total;
}

static void cycles_of_small_known_graphs(void **state) {
    SqArena *a = *state;
    static const uint32_t diamond[][2] = {{0, 1}, {1, 2}, {2, 0}, {1, 3}, {3, 2}};
    static const uint32_t bowtie[][2] = {{0, 1}, {1, 2}, {2, 0}, {0, 3}, {3, 4}, {4, 0}};
    assert_int_equal(cycles_of(complete(a, 3)), 1);
    assert_int_equal(cycles_of(GRAPH(a, 4, diamond)), 3);
    assert_int_equal(cycles_of(GRAPH(a, 5, bowtie)), 2);
    assert_int_equal(cycles_of(complete(a, 5)), 37);
    assert_int_equal(cycles_of(complete(a, 6)), 197);
    assert_int_equal(cycles_of(path_or_cycle(a, 9, 1)), 1);
    assert_int_equal(cycles_of(star(a, 9)), 0);
    assert_int_equal(cycles_of(complete(a, 2)), 0);
    assert_int_equal(cycles_of(nodes_only(a, 0)), 0);
}

static void cycles_of_k4_by_length(void **state) {
    SqCycleStats cs;
    sq_graph_cycles(complete(*state, 4), 0, &cs);
    assert_int_equal(cs.total, 7);
    assert_int_equal(cs.by_length[3], 4);
    assert_int_equal(cs.by_length[4], 3);
}

/* An independent count: paths by bitmask dynamic programming.  ways[m][v]
** counts paths that start at the lowest node of m, visit exactly m and
** end at v; each cycle closes twice, once per direction. */
static void brute_force_cycles(const SqGraph *g, uint64_t *by_length) {
    uint32_t n = g->n_nodes;
    uint64_t *ways = calloc((size_t)n << n, sizeof *ways);
    uint32_t adj[32] = {0};
    for (uint32_t i = 0; i < g->n_edges; i++) {
        adj[g->edges[i].a] |= 1u << g->edges[i].b;
        adj[g->edges[i].b] |= 1u << g->edges[i].a;
    }
    for (uint32_t v = 0; v < n; v++) ways[((size_t)1 << v) * n + v] = 1;
    for (uint32_t m = 1; m < (1u << n); m++) {
        uint32_t s = (uint32_t)__builtin_ctz(m), k = (uint32_t)__builtin_popcount(m);
        for (uint32_t v = 0; v < n; v++) {
            uint64_t w = ways[(size_t)m * n + v];
            if (!w) continue;
            if (k >= 3 && (adj[v] >> s & 1)) by_length[k] += w;
            for (uint32_t u = s + 1; u < n; u++)
                if ((adj[v] >> u & 1) && !(m >> u & 1)) ways[(size_t)(m | 1u << u) * n + u] += w;
        }
    }
    for (uint32_t k = 0; k <= n; k++) by_length[k] /= 2;
    free(ways);
}

/* Girth 5, not Hamiltonian: 12 pentagons, 10 hexagons, 15 octagons and
** 20 nonagons (Holton and Sheehan, The Petersen Graph, 1993). */
static void cycles_of_petersen_graph(void **state) {
    SqCycleStats cs;
    sq_graph_cycles(petersen(*state), 0, &cs);
    assert_int_equal(cs.by_length[5], 12);
    assert_int_equal(cs.by_length[6], 10);
    assert_int_equal(cs.by_length[7], 0);
    assert_int_equal(cs.by_length[8], 15);
    assert_int_equal(cs.by_length[9], 20);
    assert_int_equal(cs.by_length[10], 0);
    assert_int_equal(cs.total, 57);
    uint64_t want[SQ_GRAPH_MAX_CYCLE_LEN + 1] = {0};
    brute_force_cycles(petersen(*state), want);
    for (uint32_t k = 0; k <= 10; k++) assert_int_equal(cs.by_length[k], want[k]);
}

/* K_n has C(n,k) (k-1)!/2 cycles of k nodes. */
static uint64_t complete_graph_cycles(uint32_t n, uint32_t k) {
    uint64_t choose = 1, orders = 1;
    for (uint32_t i = 0; i < k; i++) choose = choose * (n - i) / (i + 1);
    for (uint32_t i = 2; i < k; i++) orders *= i;
    return choose * orders / 2;
}

static void cycles_of_complete_graphs_match_formula(void **state) {
    SqArena *a = *state;
    for (uint32_t n = 3; n <= 9; n++) {
        SqCycleStats cs;
        sq_graph_cycles(complete(a, n), 0, &cs);
        uint64_t total = 0;
        for (uint32_t k = 3; k <= n; k++) {
            assert_int_equal(cs.by_length[k], complete_graph_cycles(n, k));
            total += complete_graph_cycles(n, k);
        }
        assert_int_equal(cs.total, total);
        if (n == 8) assert_int_equal(cs.total, 8018);
        if (n == 9) assert_int_equal(cs.total, 62814);
    }
}

/* Random graphs up to 13 nodes and 40 edges (the size of the BIRD schema
** graph with 65,817 cycles), histogram against the brute force. */
static void cycles_match_brute_force_on_random_graphs(void **state) {
    SqArena *a = *state;
    uint64_t seed = 0x9e3779b97f4a7c15u;
    static const uint32_t sizes[][2] = {{6, 9}, {8, 14}, {10, 20}, {11, 30}, {12, 33}, {13, 40}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        for (int rep = 0; rep < 3; rep++) {
            SqGraph *g = random_graph(a, sizes[i][0], sizes[i][1], &seed);
            uint64_t want[SQ_GRAPH_MAX_CYCLE_LEN + 1] = {0};
            brute_force_cycles(g, want);
            SqCycleStats cs;
            sq_graph_cycles(g, 0, &cs);
            uint64_t total = 0;
            for (uint32_t k = 0; k <= SQ_GRAPH_MAX_CYCLE_LEN; k++) {
                assert_int_equal(cs.by_length[k], want[k]);
                total += want[k];
            }
            assert_int_equal(cs.total, total);
        }
    }
}

/* Blocks joined at cut nodes and by bridges: a triangle, a bridge to a K4,
** and a square hanging off the K4 at one node. */
static void cycles_across_cut_nodes_and_bridges(void **state) {
    static const uint32_t e[][2] = {{0, 1}, {1, 2}, {2, 0}, {2, 3}, {3, 4}, {3, 5}, {3, 6},
                                    {4, 5}, {4, 6}, {5, 6}, {6, 7}, {7, 8}, {8, 9}, {9, 6}};
    SqCycleStats cs;
    sq_graph_cycles(GRAPH(*state, 10, e), 0, &cs);
    assert_int_equal(cs.total, 1 + 7 + 1);
    assert_int_equal(cs.by_length[3], 1 + 4);
    assert_int_equal(cs.by_length[4], 3 + 1);
}

static void cycle_cap_stops_counting(void **state) {
    SqArena *a = *state;
    SqCycleStats cs;
    sq_graph_cycles(complete(a, 5), 10, &cs);
    assert_int_equal(cs.total, 10);
    assert_true(cs.capped);
    uint64_t sum = 0;
    for (uint32_t k = 0; k <= SQ_GRAPH_MAX_CYCLE_LEN; k++) sum += cs.by_length[k];
    assert_int_equal(sum, 10);
    sq_graph_cycles(complete(a, 5), 37, &cs); /* exactly enough: not capped */
    assert_int_equal(cs.total, 37);
    assert_false(cs.capped);
    sq_graph_cycles(complete(a, 5), 36, &cs);
    assert_int_equal(cs.total, 36);
    assert_true(cs.capped);
    SqGraphStats st;
    sq_graph_stats(complete(a, 12), 1000, &st);
    assert_int_equal(st.cycles.total, 1000);
    assert_true(st.cycles.capped);
}

/* ------------------------------------------------------------------ */
/* Betweenness                                                         */
/* ------------------------------------------------------------------ */

static void betweenness_on_a_path(void **state) {
    double bc[5];
    sq_graph_betweenness(path_or_cycle(*state, 5, 0), bc);
    static const double want[5] = {0, 3, 4, 3, 0}; /* i (n-1-i) */
    for (int i = 0; i < 5; i++) assert_float_equal(bc[i], want[i], 1e-9);
}

static void betweenness_on_a_star(void **state) {
    double bc[7];
    sq_graph_betweenness(star(*state, 7), bc);
    assert_float_equal(bc[0], 15.0, 1e-9); /* (n-1)(n-2)/2 */
    for (int i = 1; i < 7; i++) assert_float_equal(bc[i], 0.0, 1e-9);
}

/* Odd cycle 2k+1: k(k-1)/2 each; even cycle 2k: (k-1)^2/2, the opposite
** pairs splitting between two shortest paths. */
static void betweenness_on_cycles(void **state) {
    SqArena *a = *state;
    double bc[7];
    sq_graph_betweenness(path_or_cycle(a, 7, 1), bc);
    for (int i = 0; i < 7; i++) assert_float_equal(bc[i], 3.0, 1e-9);
    sq_graph_betweenness(path_or_cycle(a, 6, 1), bc);
    for (int i = 0; i < 6; i++) assert_float_equal(bc[i], 2.0, 1e-9);
}

/* Self-loops and other components change nothing. */
static void betweenness_ignores_self_loops_and_other_components(void **state) {
    static const uint32_t e[][2] = {{0, 1}, {1, 2}, {1, 1}, {3, 4}};
    double bc[5];
    sq_graph_betweenness(GRAPH(*state, 5, e), bc);
    assert_float_equal(bc[1], 1.0, 1e-9);
    assert_float_equal(bc[3], 0.0, 1e-9);
}

/* ------------------------------------------------------------------ */
/* Canonical form                                                      */
/* ------------------------------------------------------------------ */

/* The canonical string of g; the caller frees it. */
static char *canonical(const SqGraph *g) {
    SqBuf b = SQ_BUF_INIT;
    assert_int_equal(sq_graph_canonical(g, 12, &b), 1);
    return sq_buf_detach(&b);
}

static void assert_same_shape(const SqGraph *g, const SqGraph *h) {
    char *x = canonical(g), *y = canonical(h);
    assert_string_equal(x, y);
    free(x);
    free(y);
}

static void assert_other_shape(const SqGraph *g, const SqGraph *h) {
    char *x = canonical(g), *y = canonical(h);
    assert_string_not_equal(x, y);
    free(x);
    free(y);
}

static void canonical_of_tiny_graphs(void **state) {
    SqArena *a = *state;
    char *s = canonical(nodes_only(a, 0));
    assert_string_equal(s, "0:");
    free(s);
    s = canonical(nodes_only(a, 1));
    assert_string_equal(s, "1:");
    free(s);
    assert_other_shape(nodes_only(a, 2), complete(a, 2));
    assert_other_shape(nodes_only(a, 2), nodes_only(a, 3));
}

static void canonical_ignores_node_order(void **state) {
    SqArena *a = *state;
    uint64_t seed = 12345;
    uint32_t perm[12];
    for (uint32_t n = 2; n <= 12; n++) {
        for (int rep = 0; rep < 10; rep++) {
            SqGraph *g = random_graph(a, n, next_random(&seed) % (n * (n - 1) / 2 + 1), &seed);
            random_permutation(perm, n, &seed);
            assert_same_shape(g, permuted(a, g, perm));
        }
    }
    random_permutation(perm, 10, &seed);
    assert_same_shape(petersen(a), permuted(a, petersen(a), perm));
}

static void canonical_ignores_labels_and_self_loops(void **state) {
    SqArena *a = *state;
    SqGraph *g = path_or_cycle(a, 4, 0);
    const char *x[] = {"x"};
    sq_graph_add_label(g, 1, 1, x, x, 1, SQ_JL_QUERY);
    sq_graph_add_label(g, 2, 3, x, x, 1, SQ_JL_QUERY);
    assert_same_shape(g, path_or_cycle(a, 4, 0));
}

/* Same degree sequences, different shapes. */
static void canonical_separates_regular_graphs(void **state) {
    SqArena *a = *state;
    static const uint32_t two_triangles[][2] = {{0, 1}, {1, 2}, {2, 0}, {3, 4}, {4, 5}, {5, 3}};
    static const uint32_t k33[][2] = {{0, 3}, {0, 4}, {0, 5}, {1, 3}, {1, 4},
                                      {1, 5}, {2, 3}, {2, 4}, {2, 5}};
    static const uint32_t prism[][2] = {{0, 1}, {1, 2}, {2, 0}, {3, 4}, {4, 5},
                                        {5, 3}, {0, 3}, {1, 4}, {2, 5}};
    assert_other_shape(path_or_cycle(a, 6, 1), GRAPH(a, 6, two_triangles));
    assert_other_shape(GRAPH(a, 6, k33), GRAPH(a, 6, prism));
    static const uint32_t prism_relabelled[][2] = {{0, 2}, {2, 4}, {4, 0}, {1, 3}, {3, 5},
                                                   {5, 1}, {0, 1}, {2, 3}, {4, 5}};
    assert_same_shape(GRAPH(a, 6, prism), GRAPH(a, 6, prism_relabelled));
}

static int compare_strings(const void *x, const void *y) {
    return strcmp(*(char *const *)x, *(char *const *)y);
}

/* Canonical strings of every graph on n labelled nodes, one per edge
** subset; returns how many differ. */
static size_t count_shapes(SqArena *a, uint32_t n) {
    uint32_t pairs = n * (n - 1) / 2;
    size_t n_graphs = (size_t)1 << pairs, n_distinct = 0;
    char **forms = malloc(n_graphs * sizeof *forms);
    for (size_t mask = 0; mask < n_graphs; mask++) {
        sq_arena_reset(a);
        SqGraph *g = nodes_only(a, n);
        for (uint32_t j = 1, bit = 0; j < n; j++)
            for (uint32_t i = 0; i < j; i++, bit++)
                if (mask >> bit & 1) sq_graph_edge(g, i, j);
        forms[mask] = canonical(g);
    }
    qsort(forms, n_graphs, sizeof *forms, compare_strings);
    for (size_t i = 0; i < n_graphs; i++)
        n_distinct += i == 0 || strcmp(forms[i - 1], forms[i]) != 0;
    for (size_t i = 0; i < n_graphs; i++) free(forms[i]);
    free(forms);
    return n_distinct;
}

/* Exactly one string per isomorphism class: 11, 34 and 156 graphs on 4, 5
** and 6 nodes (OEIS A000088). */
static void canonical_has_one_string_per_class(void **state) {
    SqArena *a = *state;
    assert_int_equal(count_shapes(a, 4), 11);
    assert_int_equal(count_shapes(a, 5), 34);
    assert_int_equal(count_shapes(a, 6), 156);
}

static void canonical_refuses_too_many_nodes(void **state) {
    SqBuf b = SQ_BUF_INIT;
    SqGraph *g = complete(*state, 13);
    assert_int_equal(sq_graph_canonical(g, 12, &b), 0);
    assert_int_equal(b.len, 0);
    assert_int_equal(sq_graph_canonical(g, 13, &b), 1);
    assert_true(strncmp(sq_buf_str(&b), "13:", 3) == 0);
    sq_buf_free(&b);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, arena_setup, arena_teardown)

int main(void) {
    const struct CMUnitTest tests[] = {
        T(find_is_case_insensitive_and_names_are_copied),
        T(edge_is_stored_once_with_smaller_node_first),
        T(equal_labels_are_added_once),
        T(labels_are_oriented_by_the_edge),
        T(self_loop_labels_dedupe_in_either_direction),
        T(pk_fk_labels_keep_their_direction),
        T(dot_draws_each_kind_of_edge),
        T(self_loops_are_counted_apart),
        T(degrees_leave_out_self_loops),
        T(components_number_isolated_nodes_in_order),
        T(diameter_of_paths_cycles_stars),
        T(diameter_over_two_components),
        T(cycles_of_small_known_graphs),
        T(cycles_of_k4_by_length),
        T(cycles_of_petersen_graph),
        T(cycles_of_complete_graphs_match_formula),
        T(cycles_match_brute_force_on_random_graphs),
        T(cycles_across_cut_nodes_and_bridges),
        T(cycle_cap_stops_counting),
        T(betweenness_on_a_path),
        T(betweenness_on_a_star),
        T(betweenness_on_cycles),
        T(betweenness_ignores_self_loops_and_other_components),
        T(canonical_of_tiny_graphs),
        T(canonical_ignores_node_order),
        T(canonical_ignores_labels_and_self_loops),
        T(canonical_separates_regular_graphs),
        T(canonical_has_one_string_per_class),
        T(canonical_refuses_too_many_nodes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
