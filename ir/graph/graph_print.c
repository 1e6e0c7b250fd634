/*
** graph_print.c -- schema graphs and join query graphs as text, JSON and
** Graphviz dot, with their statistics.
**
** Layer: ir.  Stable output: nodes and edges in the order they were added,
** labels in order, so golden tests can pin it.
*/
#include <stdio.h>

#include "ir/graph/graph.h"

static const char *kind_name(uint8_t k) {
    return k == SQ_JL_PK_FK ? "pk-fk" : k == SQ_JL_FK_FK ? "fk-fk" : "query";
}

static void label_text(SqBuf *out, const SqGraph *g, const SqGraphEdge *e, const SqJoinLabel *l) {
    for (uint32_t k = 0; k < l->n_cols; k++)
        sq_buf_printf(out, "%s%s.%s = %s.%s", k ? " AND " : "", g->nodes[e->a].name,
                      l->a_cols[k], g->nodes[e->b].name, l->b_cols[k]);
}

void sq_graph_text(const SqGraph *g, SqBuf *out) {
    sq_buf_puts(out, "nodes:");
    for (uint32_t i = 0; i < g->n_nodes; i++) sq_buf_printf(out, " %s", g->nodes[i].name);
    sq_buf_putc(out, '\n');
    for (uint32_t i = 0; i < g->n_edges; i++) {
        const SqGraphEdge *e = &g->edges[i];
        sq_buf_printf(out, "edge %s -- %s\n", g->nodes[e->a].name, g->nodes[e->b].name);
        for (uint32_t k = 0; k < e->n_labels; k++) {
            sq_buf_printf(out, "  %s: ", kind_name(e->labels[k].kind));
            label_text(out, g, e, &e->labels[k]);
            sq_buf_putc(out, '\n');
        }
    }
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
        for (uint32_t k = 0; k < e->n_labels; k++) {
            SqBuf t = SQ_BUF_INIT;
            label_text(&t, g, e, &e->labels[k]);
            sq_jw_obj_begin(w);
            sq_jw_key(w, "kind");
            sq_jw_str(w, kind_name(e->labels[k].kind));
            sq_jw_key(w, "condition");
            sq_jw_str(w, sq_buf_str(&t));
            sq_jw_obj_end(w);
            sq_buf_free(&t);
        }
        sq_jw_arr_end(w);
        sq_jw_obj_end(w);
    }
    sq_jw_arr_end(w);
    sq_jw_obj_end(w);
}

static void dot_id(SqBuf *out, const char *s) {
    sq_buf_putc(out, '"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') sq_buf_putc(out, '\\');
        sq_buf_putc(out, *s);
    }
    sq_buf_putc(out, '"');
}

void sq_graph_dot(const SqGraph *g, const char *name, SqBuf *out) {
    sq_buf_puts(out, "graph ");
    dot_id(out, name);
    sq_buf_puts(out, " {\n");
    for (uint32_t i = 0; i < g->n_nodes; i++) {
        sq_buf_puts(out, "  ");
        dot_id(out, g->nodes[i].name);
        sq_buf_puts(out, ";\n");
    }
    for (uint32_t i = 0; i < g->n_edges; i++) {
        const SqGraphEdge *e = &g->edges[i];
        SqBuf t = SQ_BUF_INIT;
        for (uint32_t k = 0; k < e->n_labels; k++) {
            if (k) sq_buf_puts(&t, "\\n");
            label_text(&t, g, e, &e->labels[k]);
        }
        sq_buf_puts(out, "  ");
        dot_id(out, g->nodes[e->a].name);
        sq_buf_puts(out, " -- ");
        dot_id(out, g->nodes[e->b].name);
        sq_buf_puts(out, " [label=");
        dot_id(out, sq_buf_str(&t));
        sq_buf_puts(out, "];\n");
        sq_buf_free(&t);
    }
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
