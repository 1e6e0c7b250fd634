/*
** expand.c -- the candidate tables of a join query expansion and the
** combinations of conditions that may join each (see expand.h).
**
** Layer: passes.  The query graph is small (a handful of FROM items), so
** the transitivity rule is checked by walking every simple path between
** the two FROM items a pair of conditions joins the candidate to: each
** such path closes a cycle through the candidate.
*/
#include <stdlib.h>
#include <string.h>

#include "ir/graph/querygraph.h"
#include "passes/expand/expand.h"
#include "passes/passes.h"
#include "runtime/util.h"

/* ---- candidates and their conditions -------------------------------------- */

static int reads_table(const SqGraph *q, const char *table) {
    for (uint32_t i = 0; i < q->n_nodes; i++)
        if (q->nodes[i].table && sq_stricmp(q->nodes[i].table, table) == 0) return 1;
    return 0;
}

/* Whether schema node u is a table the query does not read, next to one
** it reads. */
static int is_candidate(const SqGraph *s, const SqGraph *q, uint32_t u) {
    if (reads_table(q, s->nodes[u].name)) return 0;
    for (uint32_t i = 0; i < s->n_edges; i++) {
        const SqGraphEdge *e = &s->edges[i];
        if (e->a == e->b || (e->a != u && e->b != u)) continue;
        if (reads_table(q, s->nodes[e->a == u ? e->b : e->a].name)) return 1;
    }
    return 0;
}

/* Every condition that joins a FROM item to candidate u, in the order of
** the query's items and then of the schema's labels. */
static uint32_t conditions(SqArena *a, const SqGraph *s, const SqGraph *q, uint32_t u, SqExpandCond **out) {
    SqExpandCond *c = NULL;
    uint32_t n = 0, cap = 0;
    for (uint32_t node = 0; node < q->n_nodes; node++) {
        int t = q->nodes[node].table ? sq_graph_find(s, q->nodes[node].table) : -1;
        for (uint32_t i = 0; t >= 0 && i < s->n_edges; i++) {
            const SqGraphEdge *e = &s->edges[i];
            int from_a = e->a == (uint32_t)t && e->b == u, from_b = e->b == (uint32_t)t && e->a == u;
            for (uint32_t k = 0; (from_a || from_b) && k < e->n_labels; k++) {
                const SqJoinLabel *l = &e->labels[k];
                SqExpandCond *x = SQ_ARENA_APPEND(a, c, n, cap);
                x->node = node;
                x->q_cols = from_a ? l->a_cols : l->b_cols;
                x->t_cols = from_a ? l->b_cols : l->a_cols;
                x->n_cols = l->n_cols;
                x->kind = l->kind;
            }
        }
    }
    *out = c;
    return n;
}

/* ---- the transitivity rule ------------------------------------------------- */

/* Whether two column lists name the same columns (in any order). */
static int same_cols(const char **x, uint32_t nx, const char **y, uint32_t ny) {
    if (nx != ny) return 0;
    for (uint32_t i = 0; i < nx; i++) {
        uint32_t k = 0;
        while (k < ny && sq_stricmp(x[i], y[k]) != 0) k++;
        if (k == ny) return 0;
    }
    return 1;
}

/* Whether query edge e, at its end node, uses the columns cols (one of its
** labels does). */
static int edge_uses(const SqGraphEdge *e, uint32_t node, const char **cols, uint32_t n) {
    for (uint32_t k = 0; k < e->n_labels; k++) {
        const SqJoinLabel *l = &e->labels[k];
        if (same_cols(node == e->a ? l->a_cols : l->b_cols, l->n_cols, cols, n)) return 1;
    }
    return 0;
}

/* Whether two query edges meeting at node use a same attribute there. */
static int edges_share(const SqGraphEdge *e, const SqGraphEdge *f, uint32_t node) {
    for (uint32_t k = 0; k < e->n_labels; k++) {
        const SqJoinLabel *l = &e->labels[k];
        if (edge_uses(f, node, node == e->a ? l->a_cols : l->b_cols, l->n_cols)) return 1;
    }
    return 0;
}

/* A walk along the simple paths from the FROM item of condition ci to
** that of cj, each closing the cycle candidate - ci - path - cj. */
typedef struct Walk {
    SqArena *a;
    const SqGraph *q;
    const char *cand;
    const SqExpandCond *ci, *cj;
    uint32_t *edges;         /* the path so far, as edge indexes */
    uint32_t *nodes;         /* its nodes: nodes[0] is ci's item */
    uint8_t *on_path;
    const char *why;         /* set at the first transitive cycle */
} Walk;

static const char *cols_text(SqArena *a, const char **cols, uint32_t n) {
    SqBuf b = SQ_BUF_INIT;
    for (uint32_t i = 0; i < n; i++) sq_buf_printf(&b, "%s%s", i ? ", " : "", cols[i]);
    const char *s = sq_arena_strdup(a, sq_buf_str(&b));
    sq_buf_free(&b);
    return s;
}

/* The cycle of the path of m edges: the first node whose two cycle edges
** use the same attribute, as a reason; NULL when none does. */
static const char *transitive(const Walk *w, uint32_t m) {
    const SqGraph *q = w->q;
    const SqExpandCond *ci = w->ci, *cj = w->cj;
    if (same_cols(ci->t_cols, ci->n_cols, cj->t_cols, cj->n_cols))
        return sq_arena_printf(w->a, "both conditions join on %s.%s", w->cand, cols_text(w->a, ci->t_cols, ci->n_cols));
    if (edge_uses(&q->edges[w->edges[0]], w->nodes[0], ci->q_cols, ci->n_cols))
        return sq_arena_printf(w->a, "%s joins %s and the cycle on the same %s", q->nodes[w->nodes[0]].name,
                               w->cand, cols_text(w->a, ci->q_cols, ci->n_cols));
    if (edge_uses(&q->edges[w->edges[m - 1]], w->nodes[m], cj->q_cols, cj->n_cols))
        return sq_arena_printf(w->a, "%s joins %s and the cycle on the same %s", q->nodes[w->nodes[m]].name,
                               w->cand, cols_text(w->a, cj->q_cols, cj->n_cols));
    for (uint32_t k = 1; k < m; k++)
        if (edges_share(&q->edges[w->edges[k - 1]], &q->edges[w->edges[k]], w->nodes[k]))
            return sq_arena_printf(w->a, "%s's two edges on the cycle through %s use the same column",
                                   q->nodes[w->nodes[k]].name, w->cand);
    return NULL;
}

/* Extend the path of m edges ending at nodes[m]; stop at the first
** transitive cycle. */
static void walk(Walk *w, uint32_t m) {
    const SqGraph *q = w->q;
    uint32_t x = w->nodes[m];
    if (x == w->cj->node) {
        w->why = transitive(w, m);
        return;
    }
    for (uint32_t i = 0; i < q->n_edges && !w->why; i++) {
        const SqGraphEdge *e = &q->edges[i];
        if (e->a == e->b || (e->a != x && e->b != x)) continue;
        uint32_t y = e->a == x ? e->b : e->a;
        if (w->on_path[y]) continue;
        w->on_path[y] = 1;
        w->edges[m] = i;
        w->nodes[m + 1] = y;
        walk(w, m + 1);
        w->on_path[y] = 0;
    }
}

/* Why the conditions c[0..n) of candidate cand are redundant, or NULL. */
static const char *redundant(SqArena *a, const SqGraph *q, const char *cand, const SqExpandCond *const *c,
                             uint32_t n) {
    uint32_t *buf = sq_arena_alloc(a, 2 * (q->n_nodes + 1) * sizeof *buf);
    uint8_t *on = sq_arena_alloc(a, q->n_nodes + 1);
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = i + 1; j < n; j++) {
            Walk w = {a, q, cand, c[i], c[j], buf, buf + q->n_nodes + 1, on, NULL};
            memset(on, 0, q->n_nodes + 1);
            on[c[i]->node] = 1;
            w.nodes[0] = c[i]->node;
            walk(&w, 0);
            if (w.why) return w.why;
        }
    return NULL;
}

/* ---- the plan -------------------------------------------------------------- */

typedef struct Ranked {
    SqExpansion x;
    uint32_t seq;            /* the order it was made in */
} Ranked;

static uint32_t fk_fk(const SqExpansion *x) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < x->n_conds; i++) n += x->conds[i]->kind == SQ_JL_FK_FK;
    return n;
}

/* Kept before pruned; kept ones by fewer conditions, fewer FK-FK ones,
** the candidate's name; else the order made. */
static int by_rank(const void *pa, const void *pb) {
    const Ranked *a = pa, *b = pb;
    int ka = a->x.fate == SQ_EXPAND_KEPT, kb = b->x.fate == SQ_EXPAND_KEPT;
    if (ka != kb) return kb - ka;
    if (ka) {
        if (a->x.n_conds != b->x.n_conds) return a->x.n_conds < b->x.n_conds ? -1 : 1;
        uint32_t fa = fk_fk(&a->x), fb = fk_fk(&b->x);
        if (fa != fb) return fa < fb ? -1 : 1;
        int c = sq_stricmp(a->x.table, b->x.table);
        if (c) return c;
    }
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* Every combination of candidate u's conditions, judged, appended to r. */
static void combinations(SqArena *a, const SqGraph *s, const SqGraph *q, uint32_t u, SqExpandPlan *p, Ranked **r,
                         uint32_t *n, uint32_t *cap) {
    SqExpandCond *c;
    uint32_t m = conditions(a, s, q, u, &c);
    if (m > SQ_EXPAND_MAX_CONDS) {
        p->n_capped++;
        m = SQ_EXPAND_MAX_CONDS;
    }
    for (uint32_t mask = 1; mask < (1u << m); mask++) {
        const SqExpandCond **set = sq_arena_alloc(a, m * sizeof *set);
        uint32_t k = 0, seen_pair = 0;
        for (uint32_t i = 0; i < m; i++) {
            if (!(mask & (1u << i))) continue;
            for (uint32_t j = 0; j < k; j++) seen_pair |= set[j]->node == c[i].node;
            set[k++] = &c[i];
        }
        Ranked *x = SQ_ARENA_APPEND(a, *r, *n, *cap);
        memset(x, 0, sizeof *x);
        x->seq = *n - 1;
        x->x.table = s->nodes[u].name;
        x->x.conds = set;
        x->x.n_conds = k;
        if (seen_pair) {
            x->x.fate = SQ_EXPAND_SAME_PAIR;
            x->x.why = "two conditions join it to the same table";
        } else if ((x->x.why = redundant(a, q, s->nodes[u].name, set, k)) != NULL) {
            x->x.fate = SQ_EXPAND_REDUNDANT;
        }
    }
}

SqGraph *sq_expansion_graph(SqArena *a, const SqExpandPlan *p, const SqExpansion *x) {
    const SqGraph *q = p->query;
    SqGraph *g = sq_graph_new(a);
    for (uint32_t i = 0; i < q->n_nodes; i++) sq_graph_add_node(g, q->nodes[i].name, q->nodes[i].table, q->nodes[i].rel);
    for (uint32_t i = 0; i < q->n_edges; i++) {
        const SqGraphEdge *e = &q->edges[i];
        sq_graph_edge(g, e->a, e->b);
        for (uint32_t k = 0; k < e->n_labels; k++)
            sq_graph_add_label(g, e->a, e->b, e->labels[k].a_cols, e->labels[k].b_cols, e->labels[k].n_cols,
                               (SqJoinLabelKind)e->labels[k].kind);
    }
    uint32_t t = sq_graph_add_node(g, x->table, x->table, UINT32_MAX);
    for (uint32_t i = 0; i < x->n_conds; i++) {
        const SqExpandCond *c = x->conds[i];
        sq_graph_add_label(g, c->node, t, c->q_cols, c->t_cols, c->n_cols, SQ_JL_QUERY);
    }
    return g;
}

/* The shape of kept expansion x (see SqExpansion). */
static void shape(SqArena *a, const SqExpandPlan *p, double avg_degree, SqExpansion *x) {
    SqGraph *g = sq_expansion_graph(a, p, x);
    SqGraphStats st;
    sq_graph_stats(g, 1, &st);
    x->n_nodes = st.n_nodes;
    x->n_edges = st.n_edges;
    x->delta_avg_degree = st.avg_degree - avg_degree;
    x->cyclic = st.cycles.total > 0;
    SqBuf b = SQ_BUF_INIT;
    if (sq_graph_canonical(g, SQ_EXPAND_MAX_PATTERN, &b)) x->pattern = sq_arena_strdup(a, sq_buf_str(&b));
    sq_buf_free(&b);
}

void sq_expand_plan(SqArena *a, const SqGraph *schema, const SqGraph *query, SqExpandPlan *out) {
    memset(out, 0, sizeof *out);
    out->query = query;
    Ranked *r = NULL;
    uint32_t n = 0, cap = 0;
    for (uint32_t u = 0; u < schema->n_nodes; u++) {
        if (!is_candidate(schema, query, u)) continue;
        out->n_candidates++;
        combinations(a, schema, query, u, out, &r, &n, &cap);
    }
    if (n) qsort(r, n, sizeof *r, by_rank);
    out->items = sq_arena_alloc(a, (n ? n : 1) * sizeof *out->items);
    for (uint32_t i = 0; i < n; i++) {
        out->items[i] = r[i].x;
        out->n_kept += r[i].x.fate == SQ_EXPAND_KEPT;
        out->n_same_pair += r[i].x.fate == SQ_EXPAND_SAME_PAIR;
        out->n_redundant += r[i].x.fate == SQ_EXPAND_REDUNDANT;
    }
    out->n_items = out->cap_items = n;
    SqGraphStats st;
    sq_graph_stats(query, 1, &st);
    for (uint32_t i = 0; i < out->n_kept; i++) shape(a, out, st.avg_degree, &out->items[i]);
}

void sq_expansion_text(const SqExpandPlan *p, const SqExpansion *x, SqBuf *out) {
    for (uint32_t i = 0; i < x->n_conds; i++) {
        const SqExpandCond *c = x->conds[i];
        for (uint32_t k = 0; k < c->n_cols; k++)
            sq_buf_printf(out, "%s%s.%s = %s.%s", i || k ? " AND " : "", p->query->nodes[c->node].name,
                          c->q_cols[k], x->table, c->t_cols[k]);
    }
}

/* ---- the pass ---------------------------------------------------------------- */

typedef struct ExpandResult {
    SqExpandPlan plan;
    const char *why;         /* no plan: the query has no join query graph */
} ExpandResult;

int sq_expand_run(SqPassCtx *ctx, IrQuery *q) {
    (void)q;
    ExpandResult *r = sq_arena_alloc(ctx->arena, sizeof *r);
    memset(r, 0, sizeof *r);
    const SqGraph *g = sq_jqg_graph(ctx, &r->why);
    if (g) {
        r->why = NULL;
        sq_expand_plan(ctx->arena, sq_schema_graph(ctx->arena, ctx->cat), g, &r->plan);
    }
    ctx->results[sq_pass_index(sq_pass_find("expand"))] = r;
    return 0;
}

const SqExpandPlan *sq_expand_result(const SqPassCtx *ctx, const char **why) {
    const ExpandResult *r = sq_pass_result(ctx, "expand");
    *why = !r ? "the expand pass has not run" : r->why;
    return r && !r->why ? &r->plan : NULL;
}

static const char *fate_name(uint8_t f) {
    return f == SQ_EXPAND_KEPT ? "kept" : f == SQ_EXPAND_SAME_PAIR ? "same-pair" : "redundant";
}

void sq_expand_print(const SqPassCtx *ctx, IrQuery *q, SqBuf *out) {
    (void)q;
    const ExpandResult *r = sq_pass_result(ctx, "expand");
    if (!r || r->why) {
        sq_buf_printf(out, "-- expand: none (%s)\n", r ? r->why : "not computed");
        return;
    }
    const SqExpandPlan *p = &r->plan;
    sq_buf_printf(out, "-- expand: %u candidate table%s, %u expansion%s kept; pruned: %u redundant, %u with two "
                       "conditions to one table\n",
                  p->n_candidates, p->n_candidates == 1 ? "" : "s", p->n_kept, p->n_kept == 1 ? "" : "s",
                  p->n_redundant, p->n_same_pair);
    if (p->n_capped)
        sq_buf_printf(out, "--   (%u candidate%s had more than %d conditions: only the first %d combined)\n",
                      p->n_capped, p->n_capped == 1 ? "" : "s", SQ_EXPAND_MAX_CONDS, SQ_EXPAND_MAX_CONDS);
    for (uint32_t i = 0; i < p->n_items; i++) {
        const SqExpansion *x = &p->items[i];
        sq_buf_printf(out, "--   %c %s: ", x->fate == SQ_EXPAND_KEPT ? '+' : '-', x->table);
        sq_expansion_text(p, x, out);
        if (x->fate != SQ_EXPAND_KEPT) sq_buf_printf(out, "  (pruned, %s: %s)", fate_name(x->fate), x->why);
        else sq_buf_printf(out, "  (%u, %u) %+.2f%s", x->n_nodes, x->n_edges, x->delta_avg_degree,
                           x->cyclic ? " cyclic" : "");
        sq_buf_putc(out, '\n');
    }
}

static void json_cols(SqJsonWriter *w, const char *key, const char **cols, uint32_t n) {
    sq_jw_key(w, key);
    sq_jw_arr_begin(w);
    for (uint32_t j = 0; j < n; j++) sq_jw_str(w, cols[j]);
    sq_jw_arr_end(w);
}

void sq_expand_print_json(const SqPassCtx *ctx, IrQuery *q, SqJsonWriter *w) {
    (void)q;
    const ExpandResult *r = sq_pass_result(ctx, "expand");
    sq_jw_key(w, "expansions");
    if (!r || r->why) {
        sq_jw_null(w);
        sq_jw_key(w, "why");
        sq_jw_str(w, r ? r->why : "not computed");
        return;
    }
    const SqExpandPlan *p = &r->plan;
    sq_jw_arr_begin(w);
    for (uint32_t i = 0; i < p->n_items; i++) {
        const SqExpansion *x = &p->items[i];
        sq_jw_obj_begin(w);
        sq_jw_key(w, "table");
        sq_jw_str(w, x->table);
        sq_jw_key(w, "fate");
        sq_jw_str(w, fate_name(x->fate));
        if (x->why) {
            sq_jw_key(w, "why");
            sq_jw_str(w, x->why);
        } else {
            sq_jw_key(w, "shape");
            sq_jw_arr_begin(w);
            sq_jw_int(w, x->n_nodes);
            sq_jw_int(w, x->n_edges);
            sq_jw_arr_end(w);
            sq_jw_key(w, "delta_avg_degree");
            sq_jw_double(w, x->delta_avg_degree);
            sq_jw_key(w, "cyclic");
            sq_jw_bool(w, x->cyclic);
            sq_jw_key(w, "pattern");
            if (x->pattern) sq_jw_str(w, x->pattern);
            else sq_jw_null(w);
        }
        sq_jw_key(w, "conditions");
        sq_jw_arr_begin(w);
        for (uint32_t k = 0; k < x->n_conds; k++) {
            const SqExpandCond *c = x->conds[k];
            sq_jw_obj_begin(w);
            sq_jw_key(w, "item");
            sq_jw_str(w, p->query->nodes[c->node].name);
            json_cols(w, "columns", c->q_cols, c->n_cols);
            json_cols(w, "table_columns", c->t_cols, c->n_cols);
            sq_jw_key(w, "kind");
            sq_jw_str(w, c->kind == SQ_JL_FK_FK ? "fk-fk" : "pk-fk");
            sq_jw_obj_end(w);
        }
        sq_jw_arr_end(w);
        sq_jw_obj_end(w);
    }
    sq_jw_arr_end(w);
    sq_jw_key(w, "candidates");
    sq_jw_int(w, p->n_candidates);
}
