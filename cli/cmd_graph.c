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
** none, and a summary count.  --format svg draws each graph through
** Graphviz's dot (dot_render.c); --out-dir DIR writes one file per graph
** (graph_out.c), never over a file squint did not write.
*/
#include <stdlib.h>
#include <string.h>

#include "backend/sqlite/db.h"
#include "ir/graph/querygraph.h"
#include "passes/pass.h"
#include "cli/cli.h"
#include "cli/cli_config.h"
#include "cli/cli_queries.h"
#include "cli/dot_render.h"
#include "cli/graph_out.h"

static const char usage_head[] =
    "usage: squint graph [options] [--query FILE...]\n"
    "\n"
    "Print schema graphs: one node per table, one edge per pair of tables that\n"
    "a foreign key (PK-FK) or two foreign keys to the same key (FK-FK) join,\n"
    "labelled with each join condition; then their statistics.  With --query,\n"
    "print the join query graph of each query instead: its tables and the column\n"
    "equalities between them.\n"
    "\n"
    "In pictures (--format dot or svg), PK-FK joins are arrows from the table with\n"
    "the foreign key to the table it references, FK-FK joins dashed lines and a\n"
    "query's equalities plain lines; a node reads 'alias (table)' when the two\n"
    "differ.\n"
    "\n"
    "options:\n"
    "      --query            the operands are query files (SQL scripts or benchmark\n"
    "                         files, as 'squint check' reads them)\n"
    "      --unnest           with --query: unnest subqueries first (squint opt\n"
    "                         --passes unnest)\n"
    "      --stats            only the statistics, one line (text) per graph\n"
    "      --max-cycles N     stop counting cycles at N (default 10000000)\n"
    "  -f, --format FMT       text (default), json, dot (Graphviz's language) or svg\n"
    "                         (a picture drawn by Graphviz's dot, which must be on\n"
    "                         PATH; one graph, unless --out-dir)\n"
    "      --out-dir DIR      write each graph to a file of its own in DIR (made when\n"
    "                         missing): DB_ID.EXT for a schema graph; for a query,\n"
    "                         QUESTION_ID.EXT, or STEM-N.EXT (N the item's number,\n"
    "                         or in a SQL script the statement's line); EXT is txt,\n"
    "                         json, dot or svg.  A file squint did not write is never\n"
    "                         replaced (DIR/.squint-graph.sha256 lists its own)\n"
    "  -h, --help             show this help\n"
    "      --version          print the version and exit\n";

static const char usage_tail[] =
    "\n"
    "exit status: 0 done, 1 a query has errors, 2 usage error, unreadable input or\n"
    "schema, a malformed benchmark item, Graphviz missing, or an --out-dir file\n"
    "that may not be replaced\n"
    CLI_EXIT_OOM;


typedef struct GraphRun {
    SqFormat format;
    int query, unnest, stats_only;
    uint64_t max_cycles;
    CliQueries cq;
    SqBuf out;
    SqJsonWriter jw;
    size_t n_with_graph, n_without;
    const char *out_dir;   /* --out-dir DIR, or NULL */
    char *dot_path;        /* --format svg: Graphviz's dot (heap) */
    GraphOut files;        /* --out-dir: the run's files */
    size_t n_pictures;     /* --format svg on stdout: graphs drawn */
    int failed;            /* a file refused or a picture failed: why says
                              what, and no more graphs are drawn */
    SqBuf why;
} GraphRun;

const CliOpt cli_opts_graph[] = {
    {"query", 0, 0},    {"unnest", 0, 0}, {"stats", 0, 0},       {"max-cycles", 0, 1},
    {"format", 'f', 1}, {"help", 'h', 0}, {"out-dir", 0, 1}, CLI_QUERIES_OPTIONS, {NULL, 0, 0}};

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
    else if (strcmp(name, "out-dir") == 0) r->out_dir = val;
    else if (strcmp(name, "max-cycles") == 0) {
        char *end;
        r->max_cycles = strtoull(val, &end, 10);
        if (*end || !*val) {
            fprintf(stderr, "squint graph: --max-cycles takes a number\n");
            return SQ_EXIT_USAGE;
        }
    } else if (strcmp(name, "format") == 0) {
        unsigned formats = SQ_FMT_BIT(SQ_FMT_TEXT) | SQ_FMT_BIT(SQ_FMT_JSON) |
                           SQ_FMT_BIT(SQ_FMT_DOT) | SQ_FMT_BIT(SQ_FMT_SVG);
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

static void node_lines(SqBuf *out, const SqGraph *g) {
    uint32_t *deg = sq_calloc(g->n_nodes + 1, sizeof *deg);
    double *bc = sq_calloc(g->n_nodes + 1, sizeof *bc);
    sq_graph_degrees(g, deg);
    sq_graph_betweenness(g, bc);
    for (uint32_t i = 0; i < g->n_nodes; i++)
        sq_buf_printf(out, "node %s: degree %u, betweenness %.2f\n", g->nodes[i].name,
                      deg[i], bc[i]);
    SqBuf shape = SQ_BUF_INIT;
    if (sq_graph_canonical(g, SHAPE_MAX_NODES, &shape))
        sq_buf_printf(out, "shape %s\n", sq_buf_str(&shape));
    sq_buf_free(&shape);
    free(deg);
    free(bc);
}

static void node_json(SqJsonWriter *jw, const SqGraph *g) {
    uint32_t *deg = sq_calloc(g->n_nodes + 1, sizeof *deg);
    double *bc = sq_calloc(g->n_nodes + 1, sizeof *bc);
    sq_graph_degrees(g, deg);
    sq_graph_betweenness(g, bc);
    sq_jw_key(jw, "centrality");
    sq_jw_arr_begin(jw);
    for (uint32_t i = 0; i < g->n_nodes; i++) {
        sq_jw_obj_begin(jw);
        sq_jw_key(jw, "node");
        sq_jw_str(jw, g->nodes[i].name);
        sq_jw_key(jw, "degree");
        sq_jw_int(jw, deg[i]);
        sq_jw_key(jw, "betweenness");
        sq_jw_double(jw, bc[i]);
        sq_jw_obj_end(jw);
    }
    sq_jw_arr_end(jw);
    SqBuf shape = SQ_BUF_INIT;
    sq_jw_key(jw, "shape");
    if (sq_graph_canonical(g, SHAPE_MAX_NODES, &shape)) sq_jw_str(jw, sq_buf_str(&shape));
    else sq_jw_null(jw);
    sq_buf_free(&shape);
    free(deg);
    free(bc);
}

/* One graph in r's format (svg: the DOT it is drawn from) into out, JSON
** through jw. */
static void format_graph(GraphRun *r, const SqGraph *g, const char *name, SqBuf *out,
                         SqJsonWriter *jw) {
    SqGraphStats st;
    sq_graph_stats(g, r->max_cycles, &st);
    switch (r->format) {
    case SQ_FMT_TEXT:
        if (!r->stats_only) {
            sq_buf_printf(out, "== %s\n", name);
            sq_graph_text(g, out);
            node_lines(out, g);
        } else {
            sq_buf_printf(out, "%s: ", name);
        }
        sq_graph_stats_text(&st, out);
        break;
    case SQ_FMT_DOT:
    case SQ_FMT_SVG: sq_graph_dot(g, name, out); break;
    default: /* SQ_FMT_JSON: --format takes no other */
        sq_jw_obj_begin(jw);
        sq_jw_key(jw, "name");
        sq_jw_str(jw, name);
        if (!r->stats_only) {
            sq_jw_key(jw, "graph");
            sq_graph_json(g, jw);
            node_json(jw, g);
        }
        sq_jw_key(jw, "stats");
        sq_graph_stats_json(&st, jw);
        sq_jw_obj_end(jw);
        break;
    }
}

/* A graph that goes to a file or through dot: drawn when svg, then added
** to --out-dir's files or kept for stdout (svg draws one graph there). */
static void emit_file(GraphRun *r, const SqGraph *g, const char *name, const char *stem) {
    if (!r->out_dir && ++r->n_pictures > 1) {
        sq_buf_puts(&r->why, "--format svg draws one graph on standard output and this run has "
                             "more: pick one (--db-id), or write each to a file with --out-dir DIR");
        r->failed = 1;
        return;
    }
    SqBuf pic = SQ_BUF_INIT, svg = SQ_BUF_INIT;
    SqJsonWriter jw;
    sq_jw_init(&jw, &pic, 1);
    format_graph(r, g, name, &pic, &jw);
    if (r->format == SQ_FMT_JSON) sq_buf_putc(&pic, '\n');
    SqBuf *body = &pic;
    if (r->format == SQ_FMT_SVG) {
        body = &svg;
        r->failed = cli_dot_render(r->dot_path, "svg", sq_buf_str(&pic), pic.len, &svg, &r->why) < 0;
    }
    if (!r->failed && r->out_dir) r->failed = graph_out_add(&r->files, stem, body, &r->why) < 0;
    else if (!r->failed) sq_buf_put(&r->out, sq_buf_str(body), body->len);   /* printed at the end */
    sq_buf_free(&pic);
    sq_buf_free(&svg);
}

static void emit_graph(GraphRun *r, const SqGraph *g, const char *name, const char *stem) {
    if (r->failed) return;
    if (r->out_dir || r->format == SQ_FMT_SVG) {
        emit_file(r, g, name, stem);
        return;
    }
    format_graph(r, g, name, &r->out, &r->jw);
    cli_flush(&r->out, stdout);
}

/* The file name of path without its directory and its extension, in a. */
static const char *file_stem(SqArena *a, const char *path) {
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strrchr(base, '.');
    size_t n = dot && dot != base ? (size_t)(dot - base) : strlen(base);
    return sq_arena_printf(a, "%.*s", (int)n, base);
}

static void schema_graphs(GraphRun *r) {
    size_t n;
    const char **ids = cli_schema_db_ids(&r->cq.schema, &n);
    for (size_t i = 0; i < n; i++) {
        const Catalog *cat = cli_schema_resolve(&r->cq.schema, ids[i], sq_span(0, 0, 0));
        if (!cat) continue;
        SqArena *a = sq_arena_new();
        const char *name = ids[i] ? ids[i] : r->cq.schema.path;
        emit_graph(r, sq_schema_graph(a, cat), name, ids[i] ? ids[i] : file_stem(a, name));
        sq_arena_free(a);
    }
}

/* A query's file name for --out-dir: its question_id, else the file's
** stem and the item's number ("item 3", "line 7": as its label says), else
** (a SQL script) the line the statement starts on. */
static const char *query_stem(const CliQuery *q) {
    if (q->item->qid >= 0) return sq_arena_printf(q->arena, "%lld", (long long)q->item->qid);
    const char *stem = file_stem(q->arena, q->pos.file->name);
    const char *label = q->item->label, *num = label ? strrchr(label, ' ') : NULL;
    if (num) return sq_arena_printf(q->arena, "%s-%s", stem, num + 1);
    return sq_arena_printf(q->arena, "%s-%u", stem, q->pos.line);
}

static void no_graph(GraphRun *r, const char *name, const char *why) {
    if (r->format == SQ_FMT_JSON && !r->out_dir) {
        sq_jw_obj_begin(&r->jw);
        sq_jw_key(&r->jw, "name");
        sq_jw_str(&r->jw, name);
        sq_jw_key(&r->jw, "graph");
        sq_jw_null(&r->jw);
        sq_jw_key(&r->jw, "why");
        sq_jw_str(&r->jw, why);
        sq_jw_obj_end(&r->jw);
    } else if (r->format == SQ_FMT_TEXT || r->out_dir) {
        sq_buf_printf(&r->out, "%s%s: no join query graph (%s)\n",
                      r->stats_only || r->out_dir ? "" : "== ", name, why);
    } else if (r->format == SQ_FMT_SVG) {   /* stdout is the picture's */
        fprintf(stderr, "squint graph: %s: no join query graph (%s)\n", name, why);
    }
    if (!r->out_dir && r->format == SQ_FMT_SVG) return;
    cli_flush(&r->out, stdout);
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
        emit_graph(r, g, name, query_stem(q));
        return;
    }
    r->n_without++;
    no_graph(r, name, why);
}

/* --format svg needs dot, and --out-dir a directory squint may write in:
** both known before any work.  -1 to go on, or the exit status. */
static int prepare(GraphRun *r, SqOutInput *inputs, size_t n_inputs) {
    if (r->format == SQ_FMT_SVG && !(r->dot_path = cli_dot_find())) {
        fprintf(stderr, "squint graph: --format svg needs Graphviz's 'dot' program, which is not on "
                        "PATH; install Graphviz (e.g. apt-get install graphviz)\n");
        return SQ_EXIT_USAGE;
    }
    static const char *const ext[SQ_FMT__COUNT] = {
        [SQ_FMT_TEXT] = "txt", [SQ_FMT_JSON] = "json", [SQ_FMT_DOT] = "dot", [SQ_FMT_SVG] = "svg"};
    SqBuf why = SQ_BUF_INIT;
    if (r->out_dir && graph_out_open(&r->files, r->out_dir, ext[r->format], inputs, n_inputs, &why) < 0) {
        fprintf(stderr, "squint graph: %s\n", sq_buf_str(&why));
        sq_buf_free(&why);
        return SQ_EXIT_USAGE;
    }
    return -1;
}

/* After the graphs: --out-dir's files written (and listed) or the reason
** they were not, or the one svg picture.  0, or -1 after saying why. */
static int finish_files(GraphRun *r) {
    if (!r->failed && r->out_dir) r->failed = graph_out_commit(&r->files, &r->out, &r->why) < 0;
    if (r->failed) {
        sq_buf_reset(&r->out);
        fprintf(stderr, "squint graph: %s\n", sq_buf_str(&r->why));
        return -1;
    }
    return 0;
}

static int run(GraphRun *r, int argc, char **argv, int first) {
    sq_jw_init(&r->jw, &r->out, 1);
    int to_stdout = !r->out_dir && r->format != SQ_FMT_SVG;
    if (to_stdout && r->format == SQ_FMT_JSON) sq_jw_arr_begin(&r->jw);
    if (!r->query) schema_graphs(r);
    for (int i = first; i < argc; i++) cli_queries_file(&r->cq, argv[i], query_graph, r);
    int files_failed = !to_stdout && finish_files(r) < 0;
    if (to_stdout && r->format == SQ_FMT_JSON) {
        sq_jw_arr_end(&r->jw);
        sq_buf_putc(&r->out, '\n');
    } else if (r->query && (r->format == SQ_FMT_TEXT || r->out_dir) && !files_failed) {
        sq_buf_printf(&r->out, "%zu quer%s: %zu with a join query graph, %zu without%s\n",
                      r->n_with_graph + r->n_without,
                      r->n_with_graph + r->n_without == 1 ? "y" : "ies", r->n_with_graph,
                      r->n_without, r->unnest ? " (after unnesting)" : "");
    }
    cli_flush(&r->out, stdout);
    int rc = cli_queries_finish(&r->cq);
    return files_failed ? SQ_EXIT_USAGE : rc;
}

/* The files a run reads, which --out-dir never writes: the operands and
** the schema and gold files. */
static size_t run_inputs(GraphRun *r, int argc, char **argv, int first, SqOutInput *in) {
    size_t n = 0;
    for (int i = first; i < argc; i++) in[n++] = (SqOutInput){argv[i], "a FILE"};
    if (r->cq.schema.path) in[n++] = (SqOutInput){r->cq.schema.path, r->cq.schema.option};
    if (r->cq.db_id_from) in[n++] = (SqOutInput){r->cq.db_id_from, "--db-id-from"};
    return n;
}

int cmd_graph(int argc, char **argv) {
    GraphRun r;
    memset(&r, 0, sizeof r);
    cli_queries_init(&r.cq, "graph");
    CliArgs a;
    cli_args_init(&a, argc, argv, "graph");
    a.operands = CLI_OPERANDS_FILES;
    int rc = graph_options(&a, &r);
    SqOutInput *inputs = sq_malloc(((size_t)a.argc + 2) * sizeof *inputs);
    if (rc < 0) rc = prepare(&r, inputs, run_inputs(&r, a.argc, a.argv, a.i, inputs));
    if (rc < 0) rc = cli_queries_start(&r.cq) < 0 ? SQ_EXIT_USAGE : run(&r, a.argc, a.argv, a.i);
    free(inputs);
    free(r.dot_path);
    graph_out_free(&r.files);
    sq_buf_free(&r.why);
    sq_buf_free(&r.out);
    cli_queries_free(&r.cq);
    return rc;
}
