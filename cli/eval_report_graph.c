/*
** eval_report_graph.c -- the join query graphs of a disagreement's gold
** and prediction, side by side as inline SVG when they differ
** (eval_report_int.h).
**
** Layer: cli, over the library's join query graph (ir/graph).  A record
** keeps no schema, but its counterexample lists every table the search
** used with its columns: that is schema enough to bind both queries
** (names only; the graph needs no types or keys).  A query that does not
** bind to it, or has no join graph (a subquery, a set operation), gets
** no picture.  The layout is squint's own: the FROM items on a circle,
** the conditions written along each edge.  Everything the graphs need
** lives in one context and arena, freed before it returns.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/squint.h"
#include "cli/eval_report_int.h"
#include "ir/graph/querygraph.h"
#include "ir/ir.h"

/* ------------------------------------------------------------------ */
/* Graphs from a record                                                */
/* ------------------------------------------------------------------ */

/* CREATE TABLE statements for the counterexample's tables (columns
** without types). */
static void ddl_of(SqBuf *out, const SqJson *tables) {
    for (uint32_t t = 0; tables && t < tables->n; t++) {
        const SqJson *cols = sq_json_get(tables->items[t], "columns");
        const char *name = rep_text(tables->items[t], "name");
        if (!name || !cols || !cols->n) continue;
        sq_buf_puts(out, "CREATE TABLE ");
        ir_sql_ident(out, name);
        sq_buf_putc(out, '(');
        for (uint32_t k = 0; k < cols->n; k++) {
            if (k) sq_buf_puts(out, ", ");
            ir_sql_ident(out, sq_json_string(cols->items[k]));
        }
        sq_buf_puts(out, ");\n");
    }
}

static SqGraph *graph_of(SqContext *c, SqArena *a, const Catalog *cat, const char *name, const char *sql) {
    if (!sql) return NULL;
    SqCompileStatus st;
    IrQuery *q = sq_ctx_compile_text(c, a, cat, name, sql, strlen(sql), &st);
    const char *why;
    return q ? sq_query_graph(a, q, &why) : NULL;
}

/* ------------------------------------------------------------------ */
/* What the two graphs do not share                                    */
/* ------------------------------------------------------------------ */

/* The table a node reads (its name when it reads none). */
static const char *table_of(const SqGraphNode *n) { return n->table ? n->table : n->name; }

/* One condition of edge e read by tables, the same whichever side the
** query wrote first and whatever the aliases: "books.author_id=authors.author_id". */
static void condition_key(SqBuf *out, const SqGraph *g, const SqGraphEdge *e, const SqJoinLabel *l) {
    SqBuf x = SQ_BUF_INIT, y = SQ_BUF_INIT;
    for (uint32_t k = 0; k < l->n_cols; k++) {
        sq_buf_printf(&x, "%s%s.%s", k ? "," : "", table_of(&g->nodes[e->a]), l->a_cols[k]);
        sq_buf_printf(&y, "%s%s.%s", k ? "," : "", table_of(&g->nodes[e->b]), l->b_cols[k]);
    }
    const char *xs = x.data ? x.data : "", *ys = y.data ? y.data : "";
    int swap = strcmp(xs, ys) > 0;
    sq_buf_printf(out, "%s=%s", swap ? ys : xs, swap ? xs : ys);
    sq_buf_free(&x);
    sq_buf_free(&y);
}

/* Whether graph g has a condition with key k (as condition_key writes). */
static int has_condition(const SqGraph *g, const char *k) {
    int found = 0;
    for (uint32_t e = 0; e < g->n_edges && !found; e++)
        for (uint32_t l = 0; l < g->edges[e].n_labels && !found; l++) {
            SqBuf b = SQ_BUF_INIT;
            condition_key(&b, g, &g->edges[e], &g->edges[e].labels[l]);
            found = strcmp(b.data ? b.data : "", k) == 0;
            sq_buf_free(&b);
        }
    return found;
}

/* How many times graph g reads table t. */
static uint32_t reads(const SqGraph *g, const char *t) {
    uint32_t n = 0;
    for (uint32_t k = 0; k < g->n_nodes; k++) n += strcmp(table_of(&g->nodes[k]), t) == 0;
    return n;
}

/* Whether edge e of g has a condition the other graph lacks. */
static int edge_only(const SqGraph *g, const SqGraphEdge *e, const SqGraph *other) {
    int only = 0;
    for (uint32_t l = 0; l < e->n_labels && !only; l++) {
        SqBuf b = SQ_BUF_INIT;
        condition_key(&b, g, e, &e->labels[l]);
        only = !has_condition(other, b.data ? b.data : "");
        sq_buf_free(&b);
    }
    return only;
}

/* Whether node k of g reads a table more often than the other graph does. */
static int node_only(const SqGraph *g, uint32_t k, const SqGraph *other) {
    const char *t = table_of(&g->nodes[k]);
    return reads(g, t) > reads(other, t);
}

static int graphs_differ(const SqGraph *a, const SqGraph *b) {
    for (uint32_t k = 0; k < a->n_nodes; k++)
        if (node_only(a, k, b)) return 1;
    for (uint32_t k = 0; k < b->n_nodes; k++)
        if (node_only(b, k, a)) return 1;
    for (uint32_t e = 0; e < a->n_edges; e++)
        if (edge_only(a, &a->edges[e], b)) return 1;
    for (uint32_t e = 0; e < b->n_edges; e++)
        if (edge_only(b, &b->edges[e], a)) return 1;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Drawing                                                             */
/* ------------------------------------------------------------------ */

/* The drawing's geometry: nodes on a circle of radius R around the
** centre, each box CHAR wide per character and BOX high. */
enum { SIDE = 420, R = 130, BOX = 22, CHAR = 7 };

static void node_xy(const SqGraph *g, uint32_t k, double *x, double *y) {
    double turn = g->n_nodes > 1 ? 2 * 3.14159265358979 * k / g->n_nodes - 3.14159265358979 / 2 : 0;
    double r = g->n_nodes > 1 ? R : 0;
    *x = SIDE / 2.0 + r * cos(turn);
    *y = SIDE / 2.0 + r * sin(turn);
}

/* A node's text: the alias, and the table when it differs. */
static void node_text(SqBuf *out, const SqGraphNode *n) {
    rep_esc(out, n->name);
    if (n->table && strcmp(n->table, n->name) != 0) {
        sq_buf_puts(out, " (");
        rep_esc(out, n->table);
        sq_buf_putc(out, ')');
    }
}

/* Edge e: a line (a loop above the node for a self-join) and its
** conditions, one line of text each, at its middle. */
static void draw_edge(SqBuf *out, const SqGraph *g, const SqGraphEdge *e, int only) {
    double ax, ay, bx, by;
    node_xy(g, e->a, &ax, &ay);
    node_xy(g, e->b, &bx, &by);
    const char *stroke = only ? "#c0392b" : "#555";
    sq_buf_printf(out, "<g class='edge%s'>", only ? " only" : "");
    if (e->a == e->b) {
        sq_buf_printf(out, "<path d='M %.1f %.1f c -40 -60 40 -60 0 0' fill='none' stroke='%s' stroke-width='%d'/>",
                      ax, ay - BOX / 2.0, stroke, only ? 3 : 1);
        ay -= 50;
        by = ay;
    } else {
        sq_buf_printf(out, "<line x1='%.1f' y1='%.1f' x2='%.1f' y2='%.1f' stroke='%s' stroke-width='%d'/>", ax, ay,
                      bx, by, stroke, only ? 3 : 1);
    }
    for (uint32_t l = 0; l < e->n_labels; l++) {
        const SqJoinLabel *lab = &e->labels[l];
        sq_buf_printf(out, "<text x='%.1f' y='%.1f' font-size='11' text-anchor='middle' fill='%s' stroke='#fff' "
                           "stroke-width='3' paint-order='stroke'>", (ax + bx) / 2,
                      (ay + by) / 2 - 4 + 13.0 * l, stroke);
        for (uint32_t k = 0; k < lab->n_cols; k++) {
            if (k) sq_buf_puts(out, " AND ");
            rep_esc(out, g->nodes[e->a].name);
            sq_buf_putc(out, '.');
            rep_esc(out, lab->a_cols[k]);
            sq_buf_puts(out, " = ");
            rep_esc(out, g->nodes[e->b].name);
            sq_buf_putc(out, '.');
            rep_esc(out, lab->b_cols[k]);
        }
        sq_buf_puts(out, "</text>");
    }
    sq_buf_puts(out, "</g>\n");
}

static void draw_node(SqBuf *out, const SqGraph *g, uint32_t k, int only) {
    double x, y;
    node_xy(g, k, &x, &y);
    SqBuf text = SQ_BUF_INIT;
    node_text(&text, &g->nodes[k]);
    double w = (double)CHAR * (double)strlen(g->nodes[k].name) + 16;
    if (g->nodes[k].table && strcmp(g->nodes[k].table, g->nodes[k].name) != 0)
        w += (double)CHAR * ((double)strlen(g->nodes[k].table) + 3);
    sq_buf_printf(out, "<g class='node%s'><rect x='%.1f' y='%.1f' width='%.1f' height='%d' rx='6' fill='%s' "
                       "stroke='%s' stroke-width='%d'/><text x='%.1f' y='%.1f' font-size='12' "
                       "text-anchor='middle'>%s</text></g>\n",
                  only ? " only" : "", x - w / 2, y - BOX / 2.0, w, BOX, only ? "#fdecea" : "#eef3f9",
                  only ? "#c0392b" : "#7a9cc6", only ? 2 : 1, x, y + 4, text.data ? text.data : "");
    sq_buf_free(&text);
}

/* Graph g as an SVG captioned title; what the other graph lacks in red. */
static void draw(SqBuf *out, const SqGraph *g, const SqGraph *other, const char *id, const char *title) {
    sq_buf_printf(out, "<figure class=jg><figcaption>%s</figcaption>\n<svg xmlns='http://www.w3.org/2000/svg' "
                       "class='joingraph' id='%s' width='%d' height='%d' role='img' aria-label='join query graph "
                       "of the %s' data-nodes='%u' data-edges='%u'>\n",
                  title, id, SIDE, SIDE, title, g->n_nodes, g->n_edges);
    for (uint32_t e = 0; e < g->n_edges; e++) draw_edge(out, g, &g->edges[e], edge_only(g, &g->edges[e], other));
    for (uint32_t k = 0; k < g->n_nodes; k++) draw_node(out, g, k, node_only(g, k, other));
    sq_buf_puts(out, "</svg></figure>\n");
}

void rep_join_graphs(SqBuf *out, const SqJson *w, const char *gold, const char *pred, size_t anchor) {
    SqBuf ddl = SQ_BUF_INIT;
    ddl_of(&ddl, sq_json_get(sq_json_get(w, "counterexample"), "tables"));
    if (!ddl.len) return;
    SqContext c;
    sq_ctx_init(&c);
    SqArena *a = sq_arena_new();
    const Catalog *cat = sq_ctx_load_ddl(&c, "counterexample", ddl.data, ddl.len);
    SqGraph *g = cat ? graph_of(&c, a, cat, "gold", gold) : NULL;
    SqGraph *p = cat ? graph_of(&c, a, cat, "prediction", pred) : NULL;
    if (g && p && graphs_differ(g, p)) {
        char gid[48], pid[48];
        snprintf(gid, sizeof gid, "jg-d-%zu-gold", anchor);
        snprintf(pid, sizeof pid, "jg-d-%zu-pred", anchor);
        sq_buf_puts(out, "<p>Their join query graphs differ (what one has and the other lacks in red):</p>\n"
                         "<div class=jgs>");
        draw(out, g, p, gid, "gold");
        draw(out, p, g, pid, "prediction");
        sq_buf_puts(out, "</div>\n");
    }
    sq_arena_free(a);
    sq_ctx_free(&c);
    sq_buf_free(&ddl);
}
