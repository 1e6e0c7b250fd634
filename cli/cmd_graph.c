/*
** cmd_graph.c -- `squint graph`: schema graphs and join query graphs, with
** their statistics.
**
** Layer: cli.  Without --query, prints the schema graph of each database
** the schema option names (every db_id of a tables.json or --db-root
** unless --db-id picks one): tables as nodes, PK-FK and FK-FK joins as
** labelled edges, then nodes, edges, degrees, components, diameter and
** simple cycles by length.  With --query FILE, prints the join query graph
** of each query in FILE (after unnesting with --unnest), or why it has
** none, and a summary count.
*/
#include <stdlib.h>
#include <string.h>

#include "backend/sqlite/db.h"
#include "ir/graph/querygraph.h"
#include "passes/pass.h"
#include "cli/cli.h"
#include "cli/cli_config.h"
#include "cli/cli_queries.h"

static const char usage_head[] =
    "usage: squint graph [options] [--query FILE...]\n"
    "\n"
    "Print schema graphs: one node per table, one edge per pair of tables that\n"
    "a foreign key (PK-FK) or two foreign keys to the same key (FK-FK) join,\n"
    "labelled with each join condition; then their statistics.  With --query,\n"
    "print the join query graph of each query instead: its tables and the column\n"
    "equalities between them.\n"
    "\n"
    "options:\n"
    "      --query            the operands are query files (SQL scripts or benchmark\n"
    "                         files, as 'squint check' reads them)\n"
    "      --unnest           with --query: unnest subqueries first (squint opt\n"
    "                         --passes unnest)\n"
    "      --stats            only the statistics, one line (text) per graph\n"
    "      --max-cycles N     stop counting cycles at N (default 10000000)\n"
    "  -f, --format FMT       text (default), json or dot\n"
    "  -h, --help             show this help\n"
    "      --version          print the version and exit\n";

static const char usage_tail[] =
    "\n"
    "exit status: 0 done, 1 a query has errors, 2 usage error, unreadable input or\n"
    "schema, a malformed benchmark item\n"
    CLI_EXIT_OOM;


typedef struct GraphRun {
    SqFormat format;
    int query, unnest, stats_only;
    uint64_t max_cycles;
    CliQueries cq;
    SqBuf out;
    SqJsonWriter jw;
    size_t n_with_graph, n_without;
} GraphRun;

const CliOpt cli_opts_graph[] = {
    {"query", 0, 0},    {"unnest", 0, 0}, {"stats", 0, 0},      {"max-cycles", 0, 1},
    {"format", 'f', 1}, {"help", 'h', 0}, CLI_QUERIES_OPTIONS, {NULL, 0, 0}};

static int own_option(void *ctx, const char *name, const char *val) {
    GraphRun *r = ctx;
    if (strcmp(name, "help") == 0) {
        cli_queries_usage(stdout, usage_head, usage_tail);
        cli_help_common(stdout, cli_opts_graph, 1);
        return SQ_EXIT_OK;
    }
    if (strcmp(name, "query") == 0) r->query = 1;
    else if (strcmp(name, "unnest") == 0) r->unnest = 1;
    else if (strcmp(name, "stats") == 0) r->stats_only = 1;
    else if (strcmp(name, "max-cycles") == 0) {
        char *end;
        r->max_cycles = strtoull(val, &end, 10);
        if (*end || !*val) {
            fprintf(stderr, "squint graph: --max-cycles takes a number\n");
            return SQ_EXIT_USAGE;
        }
    } else if (strcmp(name, "format") == 0) {
        unsigned formats = SQ_FMT_BIT(SQ_FMT_TEXT) | SQ_FMT_BIT(SQ_FMT_JSON) | SQ_FMT_BIT(SQ_FMT_DOT);
        if (!cli_parse_format("graph", val, formats, &r->format)) return SQ_EXIT_USAGE;
    } else {
        return SQ_EXIT_USAGE;   /* "?": cli_next_opt said why */
    }
    return -1;
}

static int graph_options(CliArgs *a, GraphRun *r) {
    r->max_cycles = 10000000;
    r->cq.operands_optional = 1; /* schema graphs read no file */
    int rc = cli_queries_read_options(&r->cq, a, cli_opts_graph, own_option, r);
    if (rc >= 0) return rc;
    if (r->query != (a->i < a->argc)) {
        fprintf(stderr, r->query ? "squint graph: --query needs files\n"
                                 : "squint graph: files are only read with --query\n");
        return SQ_EXIT_USAGE;
    }
    return -1;
}

/* ------------------------------------------------------------------ */
/* Output                                                              */
/* ------------------------------------------------------------------ */

/* Per node: degree and betweenness centrality; and the graph's shape (a
** canonical form: equal for isomorphic graphs) when it is small. */
enum { SHAPE_MAX_NODES = 12 };

static void node_lines(GraphRun *r, const SqGraph *g) {
    uint32_t *deg = sq_calloc(g->n_nodes + 1, sizeof *deg);
    double *bc = sq_calloc(g->n_nodes + 1, sizeof *bc);
    sq_graph_degrees(g, deg);
    sq_graph_betweenness(g, bc);
    for (uint32_t i = 0; i < g->n_nodes; i++)
        sq_buf_printf(&r->out, "node %s: degree %u, betweenness %.2f\n", g->nodes[i].name,
                      deg[i], bc[i]);
    SqBuf shape = SQ_BUF_INIT;
    if (sq_graph_canonical(g, SHAPE_MAX_NODES, &shape))
        sq_buf_printf(&r->out, "shape %s\n", sq_buf_str(&shape));
    sq_buf_free(&shape);
    free(deg);
    free(bc);
}

static void node_json(GraphRun *r, const SqGraph *g) {
    uint32_t *deg = sq_calloc(g->n_nodes + 1, sizeof *deg);
    double *bc = sq_calloc(g->n_nodes + 1, sizeof *bc);
    sq_graph_degrees(g, deg);
    sq_graph_betweenness(g, bc);
    sq_jw_key(&r->jw, "centrality");
    sq_jw_arr_begin(&r->jw);
    for (uint32_t i = 0; i < g->n_nodes; i++) {
        sq_jw_obj_begin(&r->jw);
        sq_jw_key(&r->jw, "node");
        sq_jw_str(&r->jw, g->nodes[i].name);
        sq_jw_key(&r->jw, "degree");
        sq_jw_int(&r->jw, deg[i]);
        sq_jw_key(&r->jw, "betweenness");
        sq_jw_double(&r->jw, bc[i]);
        sq_jw_obj_end(&r->jw);
    }
    sq_jw_arr_end(&r->jw);
    SqBuf shape = SQ_BUF_INIT;
    sq_jw_key(&r->jw, "shape");
    if (sq_graph_canonical(g, SHAPE_MAX_NODES, &shape)) sq_jw_str(&r->jw, sq_buf_str(&shape));
    else sq_jw_null(&r->jw);
    sq_buf_free(&shape);
    free(deg);
    free(bc);
}

static void emit_graph(GraphRun *r, const SqGraph *g, const char *name) {
    SqGraphStats st;
    sq_graph_stats(g, r->max_cycles, &st);
    switch (r->format) {
    case SQ_FMT_TEXT:
        if (!r->stats_only) {
            sq_buf_printf(&r->out, "== %s\n", name);
            sq_graph_text(g, &r->out);
            node_lines(r, g);
        } else {
            sq_buf_printf(&r->out, "%s: ", name);
        }
        sq_graph_stats_text(&st, &r->out);
        break;
    case SQ_FMT_DOT: sq_graph_dot(g, name, &r->out); break;
    default: /* SQ_FMT_JSON: --format takes no other */
        sq_jw_obj_begin(&r->jw);
        sq_jw_key(&r->jw, "name");
        sq_jw_str(&r->jw, name);
        if (!r->stats_only) {
            sq_jw_key(&r->jw, "graph");
            sq_graph_json(g, &r->jw);
            node_json(r, g);
        }
        sq_jw_key(&r->jw, "stats");
        sq_graph_stats_json(&st, &r->jw);
        sq_jw_obj_end(&r->jw);
        break;
    }
    cli_flush(&r->out, stdout);
}

static void schema_graphs(GraphRun *r) {
    size_t n;
    const char **ids = cli_schema_db_ids(&r->cq.schema, &n);
    for (size_t i = 0; i < n; i++) {
        const Catalog *cat = cli_schema_resolve(&r->cq.schema, ids[i], sq_span(0, 0, 0));
        if (!cat) continue;
        SqArena *a = sq_arena_new();
        emit_graph(r, sq_schema_graph(a, cat), ids[i] ? ids[i] : r->cq.schema.path);
        sq_arena_free(a);
    }
}

static void query_graph(void *arg, CliQuery *q) {
    GraphRun *r = arg;
    if (r->unnest) {
        SqPassCtx ctx;
        const char *unnest = "unnest";
        sq_pass_ctx_init(&ctx, q->arena, q->cat, r->cq.names, &r->cq.diags);
        sq_pass_run(&ctx, q->ir, &unnest, 1);
    }
    const char *why;
    SqGraph *g = sq_query_graph(q->arena, q->ir, &why);
    char *name = sq_arena_printf(q->arena, "%s:%u%s%s", q->pos.file->name, q->pos.line,
                                 q->item->label ? " " : "", q->item->label ? q->item->label : "");
    if (g) {
        r->n_with_graph++;
        emit_graph(r, g, name);
        return;
    }
    r->n_without++;
    if (r->format == SQ_FMT_JSON) {
        sq_jw_obj_begin(&r->jw);
        sq_jw_key(&r->jw, "name");
        sq_jw_str(&r->jw, name);
        sq_jw_key(&r->jw, "graph");
        sq_jw_null(&r->jw);
        sq_jw_key(&r->jw, "why");
        sq_jw_str(&r->jw, why);
        sq_jw_obj_end(&r->jw);
    } else if (r->format == SQ_FMT_TEXT) {
        sq_buf_printf(&r->out, "%s%s: no join query graph (%s)\n", r->stats_only ? "" : "== ",
                      name, why);
    }
    cli_flush(&r->out, stdout);
}

static int run(GraphRun *r, int argc, char **argv, int first) {
    sq_jw_init(&r->jw, &r->out, 1);
    if (r->format == SQ_FMT_JSON) sq_jw_arr_begin(&r->jw);
    if (!r->query) schema_graphs(r);
    for (int i = first; i < argc; i++) cli_queries_file(&r->cq, argv[i], query_graph, r);
    if (r->format == SQ_FMT_JSON) {
        sq_jw_arr_end(&r->jw);
        sq_buf_putc(&r->out, '\n');
    } else if (r->query && r->format == SQ_FMT_TEXT) {
        sq_buf_printf(&r->out, "%zu quer%s: %zu with a join query graph, %zu without%s\n",
                      r->n_with_graph + r->n_without,
                      r->n_with_graph + r->n_without == 1 ? "y" : "ies", r->n_with_graph,
                      r->n_without, r->unnest ? " (after unnesting)" : "");
    }
    cli_flush(&r->out, stdout);
    return cli_queries_finish(&r->cq);
}

int cmd_graph(int argc, char **argv) {
    GraphRun r;
    memset(&r, 0, sizeof r);
    cli_queries_init(&r.cq, "graph");
    CliArgs a;
    cli_args_init(&a, argc, argv, "graph");
    a.operands = CLI_OPERANDS_FILES;
    int rc = graph_options(&a, &r);
    if (rc < 0) rc = cli_queries_start(&r.cq) < 0 ? SQ_EXIT_USAGE : run(&r, a.argc, a.argv, a.i);
    sq_buf_free(&r.out);
    cli_queries_free(&r.cq);
    return rc;
}
