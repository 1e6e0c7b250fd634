/*
** graph_print.c -- schema graphs and join query graphs as text, JSON and
** Graphviz dot, with their statistics.
**
** Layer: ir.  Stable output: nodes and edges in the order they were added,
** labels in order, so golden tests can pin it.
*/
#include <stdio.h>

#include "ir/graph/graph.h"
#include "runtime/util.h"

static const char *kind_name(uint8_t k) {
    return k == SQ_JL_PK_FK ? "pk-fk" : k == SQ_JL_FK_FK ? "fk-fk" : "query";
}

/* "a.x = b.y", or "b.y = a.x" when flipped (a picture's arrow from b). */
static void label_text_from(SqBuf *out, const SqGraph *g, const SqGraphEdge *e,
                            const SqJoinLabel *l, int flip) {
    const char *an = g->nodes[e->a].name, *bn = g->nodes[e->b].name;
    for (uint32_t k = 0; k < l->n_cols; k++)
        if (flip)
            sq_buf_printf(out, "%s%s.%s = %s.%s", k ? " AND " : "", bn, l->b_cols[k], an,
                          l->a_cols[k]);
        else
            sq_buf_printf(out, "%s%s.%s = %s.%s", k ? " AND " : "", an, l->a_cols[k], bn,
                          l->b_cols[k]);
}

static void label_text(SqBuf *out, const SqGraph *g, const SqGraphEdge *e, const SqJoinLabel *l) {
    label_text_from(out, g, e, l, 0);
}

/* A PK-FK label's two ends: the node that holds the foreign key and the
** node it references. */
static void fk_ends(const SqGraph *g, const SqGraphEdge *e, const SqJoinLabel *l,
                    const char **from, const char **to) {
    *from = g->nodes[l->fk_in_b ? e->b : e->a].name;
    *to = g->nodes[l->fk_in_b ? e->a : e->b].name;
}

/* Whether a node reads a table under another name (an alias), so that
** its picture names both. */
static int has_alias(const SqGraphNode *n) {
    return n->table && sq_stricmp(n->name, n->table) != 0;
}

/* "T1 (singer)" for an alias, "singer" for a table read by its name. */
static void node_label(SqBuf *out, const SqGraphNode *n) {
    if (has_alias(n)) sq_buf_printf(out, "%s (%s)", n->name, n->table);
    else sq_buf_puts(out, n->name);
}

void sq_graph_text(const SqGraph *g, SqBuf *out) {
    sq_buf_puts(out, "nodes:");
    for (uint32_t i = 0; i < g->n_nodes; i++) {
        sq_buf_putc(out, ' ');
        node_label(out, &g->nodes[i]);
    }
    sq_buf_putc(out, '\n');
    for (uint32_t i = 0; i < g->n_edges; i++) {
        const SqGraphEdge *e = &g->edges[i];
        sq_buf_printf(out, "edge %s -- %s\n", g->nodes[e->a].name, g->nodes[e->b].name);
        for (uint32_t k = 0; k < e->n_labels; k++) {
            const SqJoinLabel *l = &e->labels[k];
            sq_buf_printf(out, "  %s: ", kind_name(l->kind));
            label_text(out, g, e, l);
            if (l->kind == SQ_JL_PK_FK) {
                const char *from, *to;
                fk_ends(g, e, l, &from, &to);
                sq_buf_printf(out, " (%s -> %s)", from, to);
            }
            sq_buf_putc(out, '\n');
        }
    }
}

static void label_json(const SqGraph *g, const SqGraphEdge *e, const SqJoinLabel *l,
                       SqJsonWriter *w) {
    SqBuf t = SQ_BUF_INIT;
    label_text(&t, g, e, l);
    sq_jw_obj_begin(w);
    sq_jw_key(w, "kind");
    sq_jw_str(w, kind_name(l->kind));
    sq_jw_key(w, "condition");
    sq_jw_str(w, sq_buf_str(&t));
    if (l->kind == SQ_JL_PK_FK) {
        const char *from, *to;
        fk_ends(g, e, l, &from, &to);
        sq_jw_key(w, "from");
        sq_jw_str(w, from);
        sq_jw_key(w, "to");
        sq_jw_str(w, to);
    }
    sq_jw_obj_end(w);
    sq_buf_free(&t);
}

void sq_graph_json(const SqGraph *g, SqJsonWriter *w) {
    sq_jw_obj_begin(w);
    sq_jw_key(w, "nodes");
    sq_jw_arr_begin(w);
    for (uint32_t i = 0; i < g->n_nodes; i++) {
        sq_jw_obj_begin(w);
        sq_jw_key(w, "name");
        sq_jw_str(w, g->nodes[i].name);
        if (g->nodes[i].table) {
            sq_jw_key(w, "table");
            sq_jw_str(w, g->nodes[i].table);
        }
        sq_jw_obj_end(w);
    }
    sq_jw_arr_end(w);
    sq_jw_key(w, "edges");
    sq_jw_arr_begin(w);
    for (uint32_t i = 0; i < g->n_edges; i++) {
        const SqGraphEdge *e = &g->edges[i];
        sq_jw_obj_begin(w);
        sq_jw_key(w, "a");
        sq_jw_str(w, g->nodes[e->a].name);
        sq_jw_key(w, "b");
        sq_jw_str(w, g->nodes[e->b].name);
        sq_jw_key(w, "labels");
        sq_jw_arr_begin(w);
        for (uint32_t k = 0; k < e->n_labels; k++) label_json(g, e, &e->labels[k], w);
        sq_jw_arr_end(w);
        sq_jw_obj_end(w);
    }
    sq_jw_arr_end(w);
    sq_jw_obj_end(w);
}

/* ---- Graphviz ------------------------------------------------------------ */

/* s as the body of a DOT quoted string, with text's own characters kept:
** '"' and '\' escaped (so a name holding "\n" or "\N" is not read as a
** line break or Graphviz's node-name escape), a line break in a name as
** DOT's \n. */
static void dot_escape(SqBuf *out, const char *s) {
    for (; *s; s++) {
        if (*s == '\n') sq_buf_puts(out, "\\n");
        else if (*s == '\r') continue;
        else {
            if (*s == '"' || *s == '\\') sq_buf_putc(out, '\\');
            sq_buf_putc(out, *s);
        }
    }
}

static void dot_id(SqBuf *out, const char *s) {
    sq_buf_putc(out, '"');
    dot_escape(out, s);
    sq_buf_putc(out, '"');
}

/* How an edge's labels are drawn: each group is one line in the picture.
** An edge whose labels fall in several groups (a PK-FK and an FK-FK
** condition between the same two tables) is drawn once per group, so a
** line's style and arrow say what every condition on it is. */
typedef enum DotGroup {
    DOT_FK_A,    /* PK-FK, the foreign key in node a: an arrow a -> b */
    DOT_FK_B,    /* PK-FK, the foreign key in node b: an arrow b -> a */
    DOT_FK_FK,   /* FK-FK: dashed, no arrow */
    DOT_QUERY,   /* an equality in a query: plain */
    DOT__GROUPS
} DotGroup;

static DotGroup dot_group(const SqJoinLabel *l) {
    if (l->kind == SQ_JL_PK_FK) return l->fk_in_b ? DOT_FK_B : DOT_FK_A;
    return l->kind == SQ_JL_FK_FK ? DOT_FK_FK : DOT_QUERY;
}

/* One drawn edge: the labels of e in group grp, one condition per line of
** the label (DOT's \n, written as is: escaping its backslash would show
** a literal "\n"), an arrow's conditions written from its tail. */
static void dot_edge(const SqGraph *g, const SqGraphEdge *e, DotGroup grp, SqBuf *out) {
    int first = 1;
    uint32_t tail = grp == DOT_FK_B ? e->b : e->a, head = grp == DOT_FK_B ? e->a : e->b;
    for (uint32_t k = 0; k < e->n_labels; k++) {
        if (dot_group(&e->labels[k]) != grp) continue;
        if (first) {
            sq_buf_puts(out, "  ");
            dot_id(out, g->nodes[tail].name);
            sq_buf_puts(out, " -- ");
            dot_id(out, g->nodes[head].name);
            sq_buf_puts(out, " [label=\"");
        } else {
            sq_buf_puts(out, "\\n");
        }
        SqBuf t = SQ_BUF_INIT;
        label_text_from(&t, g, e, &e->labels[k], grp == DOT_FK_B);
        dot_escape(out, sq_buf_str(&t));
        sq_buf_free(&t);
        first = 0;
    }
    if (first) return;
    sq_buf_putc(out, '"');
    if (grp == DOT_FK_A || grp == DOT_FK_B) sq_buf_puts(out, ", dir=forward");
    else if (grp == DOT_FK_FK) sq_buf_puts(out, ", style=dashed");
    sq_buf_puts(out, "];\n");
}

void sq_graph_dot(const SqGraph *g, const char *name, SqBuf *out) {
    sq_buf_puts(out, "graph ");
    dot_id(out, name);
    sq_buf_puts(out, " {\n");
    for (uint32_t i = 0; i < g->n_nodes; i++) {
        sq_buf_puts(out, "  ");
        dot_id(out, g->nodes[i].name);
        if (has_alias(&g->nodes[i])) {
            SqBuf t = SQ_BUF_INIT;
            node_label(&t, &g->nodes[i]);
            sq_buf_puts(out, " [label=");
            dot_id(out, sq_buf_str(&t));
            sq_buf_putc(out, ']');
            sq_buf_free(&t);
        }
        sq_buf_puts(out, ";\n");
    }
    for (uint32_t i = 0; i < g->n_edges; i++)
        for (int grp = 0; grp < DOT__GROUPS; grp++) dot_edge(g, &g->edges[i], (DotGroup)grp, out);
    sq_buf_puts(out, "}\n");
}

/* ------------------------------------------------------------------ */
/* Statistics                                                          */
/* ------------------------------------------------------------------ */

void sq_graph_stats_text(const SqGraphStats *s, SqBuf *out) {
    sq_buf_printf(out, "nodes %u, edges %u, self-loops %u, labels %u, average degree %.2f, "
                       "max degree %u, components %u, diameter %u, cycles %llu%s",
                  s->n_nodes, s->n_edges, s->n_self_loops, s->n_labels, s->avg_degree,
                  s->max_degree, s->n_components, s->diameter,
                  (unsigned long long)s->cycles.total, s->cycles.capped ? "+ (capped)" : "");
    const char *sep = " (by length:";
    for (uint32_t k = 3; k <= SQ_GRAPH_MAX_CYCLE_LEN; k++) {
        if (!s->cycles.by_length[k]) continue;
        sq_buf_printf(out, "%s %u: %llu", sep, k, (unsigned long long)s->cycles.by_length[k]);
        sep = ",";
    }
    sq_buf_puts(out, *sep == ',' ? ")\n" : "\n");
}

void sq_graph_stats_json(const SqGraphStats *s, SqJsonWriter *w) {
    sq_jw_obj_begin(w);
    sq_jw_key(w, "nodes");
    sq_jw_int(w, s->n_nodes);
    sq_jw_key(w, "edges");
    sq_jw_int(w, s->n_edges);
    sq_jw_key(w, "self_loops");
    sq_jw_int(w, s->n_self_loops);
    sq_jw_key(w, "labels");
    sq_jw_int(w, s->n_labels);
    sq_jw_key(w, "average_degree");
    sq_jw_double(w, s->avg_degree);
    sq_jw_key(w, "max_degree");
    sq_jw_int(w, s->max_degree);
    sq_jw_key(w, "components");
    sq_jw_int(w, s->n_components);
    sq_jw_key(w, "diameter");
    sq_jw_int(w, s->diameter);
    sq_jw_key(w, "cycles");
    sq_jw_int(w, (int64_t)s->cycles.total);
    sq_jw_key(w, "cycles_capped");
    sq_jw_bool(w, s->cycles.capped);
    sq_jw_key(w, "cycles_by_length");
    sq_jw_obj_begin(w);
    for (uint32_t k = 3; k <= SQ_GRAPH_MAX_CYCLE_LEN; k++) {
        if (!s->cycles.by_length[k]) continue;
        char key[16];
        snprintf(key, sizeof key, "%u", k);
        sq_jw_key(w, key);
        sq_jw_int(w, (int64_t)s->cycles.by_length[k]);
    }
    sq_jw_obj_end(w);
    sq_jw_obj_end(w);
}
