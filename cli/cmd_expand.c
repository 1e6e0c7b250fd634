/*
** cmd_expand.c -- `squint expand`: join query expansion (seed 001's JQE)
** over the queries of a file, each expansion as SQL made on the IR,
** pruned by the shape of its join graph over the run and, with a
** database, by running it (docs/squint-expand.md).
**
** Layer: cli.  Queries are read as `squint opt` reads them (cli_queries.h).
** The plan (passes/expand) is made on a second binding of the query's own
** text, unnested; its FROM items keep the ids of the query as written,
** into which each expansion is joined (sq_expansion_join), written by the
** SQL backend, and undone.  The run takes, in each query's ranked order,
** the first --n expansions of each isomorphism class of join graphs (the
** canonical form sq_graph_canonical gives); with a database, only one that
** runs and returns a row takes its class's place.  With --requests, each
** taken expansion also gets a request for a language model
** (prompts/expand-question.txt) that asks for its question and evidence.
*/
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/emit/emit.h"
#include "backend/fixture/fixture.h"
#include "backend/prompt/prompt_data.h"
#include "backend/template/tmpl.h"
#include "passes/pass.h"
#include "cli/cli_config.h"
#include "cli/expand_int.h"

/* The model named in --requests when --model is not given: a placeholder,
** as squint prompt's, that squint llm run --model replaces. */
#define EXPAND_MODEL "squint-placeholder"

static const char expand_head[] =
    "usage: squint expand [options] FILE...\n"
    "\n"
    "Join query expansion (seed 001's JQE): for every SELECT in FILE (a SQL script\n"
    "or a benchmark file, as 'squint check' reads them; '-' is standard input), the\n"
    "ways to join one more table to it along the schema's keys, each written as SQL\n"
    "made on the query's IR.  A query's expansions are ranked (fewer join conditions\n"
    "first, then key to foreign key before two foreign keys, then the table's name);\n"
    "over the whole run the first --n of each shape of join graph (its isomorphism\n"
    "class) are taken, and with a database (--db, --db-root or --fixtures) each must\n"
    "run on it and return a row.  docs/squint-expand.md.\n"
    "\n"
    "options:\n"
    "  -f, --format FMT       text (default) or json (one array, an object per query)\n"
    "      --n N              expansions taken per shape of join graph over the run\n"
    "                         (default 1; 0: every one)\n"
    "      --fixtures DIR     run each expansion on its question's witness, which\n"
    "                         'squint fixture --out DIR' built (BIRD without its\n"
    "                         databases)\n"
    "      --add-column       also show a column of the joined table in the result (its\n"
    "                         first column in no key), where the query neither groups\n"
    "                         nor aggregates\n"
    "      --add-filter       also keep only the rows where that column equals a value:\n"
    "                         the most frequent it takes in the expansion's rows on\n"
    "                         the database that leaves a row (needs a database)\n"
    "      --tqa              instead of expansions, each query's linker table (the\n"
    "                         most central of its join graph, for four tables or more)\n"
    "                         and the words of its question and evidence that name it\n"
    "                         (seed 001's TQA)\n"
    "      --no-run           do not run the expansions, even with a database\n"
    "      --timeout S        seconds per run of an expansion (default 10; 0: none)\n"
    "      --no-equiv         do not decide whether a taken expansion changes the\n"
    "                         query's result\n"
    "      --bound K          rows per table of that search (default 2)\n"
    "      --rlimit N         z3's resource units per search (default 10000000): the\n"
    "                         same verdicts on every machine\n"
    "  -j, --jobs N           queries whose searches run at once, each in a process of\n"
    "                         its own, 1 to 256 (default 1); the output is the same\n"
    "      --out FILE         write a record per expansion (JSON Lines) into FILE\n"
    "                         instead of the output; a run stopped is resumed by\n"
    "                         running it again (the queries whose records are all\n"
    "                         there are skipped)\n"
    "      --requests FILE    also write, for each taken expansion, a request for a\n"
    "                         language model that asks for its question and evidence\n"
    "                         (task expand-question; OpenAI batch lines, as 'squint\n"
    "                         prompt' writes them, for 'squint llm run'); with --tqa,\n"
    "                         for each question and evidence with words that name the\n"
    "                         linker table, three requests that rewrite them (tasks\n"
    "                         tqa-synonym, tqa-backtranslate, tqa-context)\n"
    "      --model M          the requests' body.model (default '" EXPAND_MODEL "')\n"
    "      --force            replace --requests even when it holds other things\n"
    "  -h, --help             show this help\n"
    "      --version          print the version and exit\n";

static const char expand_tail[] =
    "\n"
    "exit status: 0 done, 1 a statement has errors or a worker of -j ended\n"
    "without its query's output, 2 usage error, unreadable input or schema, a\n"
    "malformed benchmark item\n"
    CLI_EXIT_OOM;

#define EXPAND_FORMATS (SQ_FMT_BIT(SQ_FMT_TEXT) | SQ_FMT_BIT(SQ_FMT_JSON))

const CliOpt cli_opts_expand[] = {
    {"format", 'f', 1}, {"n", 0, 1}, {"fixtures", 0, 1}, {"add-column", 0, 0}, {"add-filter", 0, 0}, {"tqa", 0, 0}, {"no-run", 0, 0}, {"timeout", 0, 1}, {"no-equiv", 0, 0},
    {"bound", 0, 1}, {"rlimit", 0, 1}, {"jobs", 'j', 1}, {"out", 0, 1}, {"requests", 0, 1}, {"model", 0, 1}, {"force", 0, 0}, {"help", 'h', 0},
    CLI_QUERIES_OPTIONS, {NULL, 0, 0}};

/* What became of one expansion the plan kept. */

static int own_option(void *ctx, const char *name, const char *val) {
    ExpandRun *r = ctx;
    if (strcmp(name, "help") == 0) {
        cli_queries_usage(stdout, expand_head, expand_tail);
        cli_help_common(stdout, cli_opts_expand, 1);
        return SQ_EXIT_OK;
    }
    if (strcmp(name, "format") == 0)
        return cli_parse_format("expand", val, EXPAND_FORMATS, &r->format) ? -1 : SQ_EXIT_USAGE;
    if (strcmp(name, "n") == 0) return cli_parse_count("expand", "--n", val, 0, 1000000, &r->n);
    if (strcmp(name, "timeout") == 0) return cli_parse_seconds("expand", "--timeout", val, &r->limits.timeout_sec);
    if (strcmp(name, "bound") == 0) {
        long k;
        int rc = cli_parse_count("expand", "--bound", val, 1, 8, &k);
        r->equiv.bound = (int)k;
        return rc;
    }
    if (strcmp(name, "rlimit") == 0) {
        long k;
        int rc = cli_parse_count("expand", "--rlimit", val, 0, 4000000000L, &k);
        r->equiv.rlimit = (uint64_t)k;
        return rc;
    }
    if (strcmp(name, "jobs") == 0) {
        long k;
        int rc = cli_parse_count("expand", "--jobs", val, 1, 256, &k);
        r->pool.jobs = (unsigned)k;
        return rc;
    }
    if (strcmp(name, "fixtures") == 0) r->fixtures = val;
    else if (strcmp(name, "requests") == 0) r->requests = val;
    else if (strcmp(name, "out") == 0) r->out_path = val;
    else if (strcmp(name, "model") == 0) r->params.model = val;
    else if (strcmp(name, "force") == 0) r->force = 1;
    else if (strcmp(name, "no-run") == 0) r->no_run = 1;
    else if (strcmp(name, "add-column") == 0) r->add_column = 1;
    else if (strcmp(name, "add-filter") == 0) r->add_filter = 1;
    else if (strcmp(name, "tqa") == 0) r->tqa = 1;
    else if (strcmp(name, "no-equiv") == 0) r->no_equiv = 1;
    else return SQ_EXIT_USAGE; /* "?": cli_next_opt said why */
    return -1;
}

/* ---- the database of a query ----------------------------------------------------- */

/* The database the query's expansions run on (kept open while the next
** query's is the same file), or NULL: none given, or it does not open
** (said once in *why). */
static SqDb *query_db(ExpandRun *r, const CliQuery *q, const char **why) {
    *why = NULL;
    if (r->no_run) return NULL;
    const char *path = NULL;
    if (r->fixtures) path = q->item ? cli_fixture_db_path(q->arena, r->fixtures, q->item) : NULL;
    else path = cli_schema_db_path(&r->cq.schema, q->item ? q->item->db_id : NULL);
    if (!path) {
        if (r->fixtures) *why = "no witness in --fixtures for it";
        return NULL;
    }
    if (r->db && strcmp(r->db_path, path) == 0) return r->db;
    sq_db_close(r->db);
    free(r->db_path);
    char *err = NULL;
    r->db = sq_db_open_file(path, &err);
    r->db_path = sq_strdup(path);
    if (!r->db) *why = sq_arena_printf(q->arena, "cannot open '%s': %s", path, err ? err : "?");
    free(err);
    return r->db;
}

/* ---- one query ---------------------------------------------------------------- */

/* The plan of q: made on its text bound again and unnested; NULL with
** *why when there is none. */
/* A fresh copy of q's IR through unnest and then the pass last (expand,
** or for --tqa only jqg); 0, or -1 with why. */
static int unnest_then(ExpandRun *r, CliQuery *q, SqPassCtx *pc, SqDiags *scratch, const char *last,
                       const char **why) {
    const SqSrc *src = sq_src_get(&r->cq.srcs, q->stmt->span.file);
    const SqSrc *copy = sq_src_add_copy(&r->cq.srcs, src->name, src->text + q->stmt->span.start,
                                        q->stmt->span.end - q->stmt->span.start);
    IrQuery *u = ir_load_query(q->arena, copy, q->cat, r->cq.names, scratch, &r->cq.schema.ctx.bind_opt, why);
    if (!u) return -1;
    sq_pass_ctx_init(pc, q->arena, q->cat, r->cq.names, scratch);
    const char *names[] = {"unnest", last};
    if (sq_pass_run(pc, u, names, 2) < 0) {
        *why = r->tqa ? "the jqg pass failed" : "the expand pass failed";
        return -1;
    }
    return 0;
}

static const SqExpandPlan *plan_of(ExpandRun *r, CliQuery *q, SqPassCtx *pc, SqDiags *scratch, const char **why) {
    return unnest_then(r, q, pc, scratch, "expand", why) < 0 ? NULL : sq_expand_result(pc, why);
}

/* --tqa: q's join query graph after unnesting, or NULL with why. */
static const SqGraph *graph_of(ExpandRun *r, CliQuery *q, SqPassCtx *pc, SqDiags *scratch, const char **why) {
    return unnest_then(r, q, pc, scratch, "jqg", why) < 0 ? NULL : sq_jqg_graph(pc, why);
}

/* Run sql on db: its fate and rows; its result into *keep (initialised)
** when it ran and keep is not NULL. */
static void run_on(ExpandRun *r, SqDb *db, CliQuery *q, Outcome *o, SqResult *keep) {
    SqResult res;
    sq_result_init(&res);
    char *err = NULL;
    SqExecStatus st = sq_db_query(db, o->sql, &r->limits, &res, &err);
    r->n_run++;
    if (st != SQ_EXEC_OK) {
        o->fate = EXP_FAILED;
        o->why = sq_arena_printf(q->arena, "%s: %s", sq_exec_status_name(st), err ? err : "");
    } else {
        o->rows = (int64_t)res.n_rows;
        if (!res.n_rows) {
            o->fate = EXP_NO_ROWS;
            o->why = "it returns no row on the database";
        }
    }
    free(err);
    if (keep && st == SQ_EXEC_OK) *keep = res;
    else sq_result_free(&res);
}

/* The database of the execution filter holds at most this many rows for
** its rows to be written as an expansion's counterexample. */
#define DB_CEX_ROWS 200

/* The query's own result on the database, run once per query: the
** first time an expansion of it is taken. */
typedef struct OrigRun {
    int state;             /* 0 not run, 1 ran, -1 did not run */
    ExpandTell tell;       /* what its result on a database tells */
    SqResult res;
    int rows;              /* 0 not read; 1 data holds the database's rows, 2 a
                              sample of them; -1 neither could be read */
    SqFixture data;
} OrigRun;

/* Rows per table of the sample of a database too large to be a
** counterexample (sq_fixture_read_sample). */
#define DB_SAMPLE_ROWS 10

/* The rows of db as a fixture, read once per query: all of them when
** there are at most DB_CEX_ROWS, else a sample; NULL when neither reads. */
static const SqFixture *orig_rows(OrigRun *orun, CliQuery *q, SqDb *db) {
    if (orun->rows == 0) {
        sq_fixture_init(&orun->data, q->cat);
        orun->rows = 1;
        if (sq_fixture_read(&orun->data, db, DB_CEX_ROWS) < 0) {
            sq_fixture_free(&orun->data);
            sq_fixture_init(&orun->data, q->cat);
            orun->rows = sq_fixture_read_sample(&orun->data, db, DB_SAMPLE_ROWS) == 0 ? 2 : -1;
        }
    }
    return orun->rows > 0 ? &orun->data : NULL;
}

static void orig_run_free(OrigRun *orun) {
    if (orun->state) sq_result_free(&orun->res);
    if (orun->rows) sq_fixture_free(&orun->data);
}

/* One expansion asked of databases: the query's SQL and the
** expansion's, what their results tell, and where the verdict goes. */
typedef struct Asked {
    ExpandRun *r;
    CliQuery *q;
    const SqGraph *g;      /* the query graph the expansion's conditions name nodes of */
    const char *orig, *sql;
    ExpandTell tell;       /* EXP_TELL_ROWS or EXP_TELL_COUNT */
    Outcome *o;
} Asked;

/* Whether results a and b of the query and the expansion differ as a
** tells them apart: as bags of rows, or by their counts. */
static int results_differ(const Asked *a, const SqResult *r1, const SqResult *r2) {
    return a->tell == EXP_TELL_COUNT ? r1->n_rows != r2->n_rows : !sq_result_equal(r1, r2, SQ_CMP_BAG, 0);
}

/* A verdict told on a database: the expansion changes the query's
** result, rows (a fixture) are the counterexample, why says how the two
** results r1 and r2 differ. */
static void told(const Asked *a, const char *where, const SqFixture *rows, const SqResult *r1, const SqResult *r2) {
    SqBuf why = SQ_BUF_INIT, cex = SQ_BUF_INIT;
    if (a->tell == EXP_TELL_COUNT)
        sq_buf_printf(&why, "%llu rows against %llu (the rows themselves depend on the order SQLite reads them in)",
                      (unsigned long long)r1->n_rows, (unsigned long long)r2->n_rows);
    else
        sq_result_diff(r1, r2, SQ_CMP_BAG, 0, &why);
    sq_fixture_sql(rows, &cex);
    a->o->changes = 1;
    a->o->verdict = sq_arena_printf(a->q->arena, "different on %s: %s", where, sq_buf_str(&why));
    a->o->counterexample = sq_arena_strdup(a->q->arena, sq_buf_str(&cex));
    sq_buf_free(&why);
    sq_buf_free(&cex);
}

/* Whether the expansion changes the query's result on the database f,
** which the verdict calls where: both queries run there. */
static int told_on(const Asked *a, const SqFixture *f, const char *where) {
    SqResult r1, r2;
    sq_result_init(&r1);
    sq_result_init(&r2);
    char *err = NULL;
    int differ = sq_fixture_differs_ex(f, a->orig, a->sql, SQ_CMP_BAG, 0, &a->r->limits, &r1, &r2, &err) >= 0 &&
                 results_differ(a, &r1, &r2);
    if (differ) told(a, where, f, &r1, &r2);
    free(err);
    sq_result_free(&r1);
    sq_result_free(&r2);
    return differ;
}

/* The table of cat named name, or NULL; the column of t named name, or -1. */
static const CatTable *table_named(const Catalog *cat, const char *name) {
    for (uint32_t i = 0; name && i < cat->n_tables; i++)
        if (sq_stricmp(cat->tables[i]->name, name) == 0) return cat->tables[i];
    return NULL;
}

static int column_named(const CatTable *t, const char *name) {
    for (uint32_t c = 0; c < t->n_cols; c++)
        if (sq_stricmp(t->cols[c].name, name) == 0) return (int)c;
    return -1;
}

/* The database f (what the verdict calls it: base) changed in the added
** table's rows (without the rows no foreign key needs, with each row
** twice, without any row and the rows that referred to them), then with
** a column of the query's in a join condition NULL in every row: the
** first on which the two results differ is the counterexample.  Removing
** rows or making a reference NULL shows a join that drops the query's
** rows, doubling them one that multiplies. */
static void decide_on_variants(const Asked *a, const SqFixture *f, const char *base) {
    static const char *const where[] = {"%s without the rows of %s no foreign key needs",
                                        "%s with each row of %s twice",
                                        "%s without the rows of %s and those that referred to them"};
    static int (*const made[])(const SqFixture *, const CatTable *, SqFixture *) = {
        sq_fixture_without_rows, sq_fixture_doubled, sq_fixture_without_rows_cascade};
    const SqExpansion *x = a->o->x;
    const CatTable *t = table_named(f->cat, x->table);
    SqBuf w = SQ_BUF_INIT;
    for (int k = 0; t && k < 3 && a->o->changes != 1; k++) {
        SqFixture v; /* freed whether made or not */
        if (made[k](f, t, &v) == 0) {
            sq_buf_reset(&w);
            sq_buf_printf(&w, where[k], base, t->name);
            told_on(a, &v, sq_buf_str(&w));
        }
        sq_fixture_free(&v);
    }
    for (uint32_t i = 0; i < x->n_conds && a->o->changes != 1; i++) {
        const SqExpandCond *c = x->conds[i];
        const CatTable *u = table_named(f->cat, a->g->nodes[c->node].table);
        for (uint32_t k = 0; u && k < c->n_cols && a->o->changes != 1; k++) {
            int col = column_named(u, c->q_cols[k]);
            if (col < 0) continue;
            SqFixture v; /* freed whether made or not */
            if (sq_fixture_nulled(f, u, (uint32_t)col, &v) == 0) {
                sq_buf_reset(&w);
                sq_buf_printf(&w, "%s with %s.%s NULL in every row", base, u->name, u->cols[col].name);
                told_on(a, &v, sq_buf_str(&w));
            }
            sq_fixture_free(&v);
        }
    }
    sq_buf_free(&w);
}

/* Whether the join changes q's result, told on the database without the
** solver.  The two results are compared as bags (rows that differ as
** bags differ in every order, so a sorted query is told too) when
** neither depends on a choice SQLite makes by the order it reads rows in
** (ir_result_choice: the expansion adds a join and makes none), else by
** their counts where those are fixed (ir_count_choice: the statement's
** LIMIT keeps a count whichever rows it keeps).  When the database holds
** at most DB_CEX_ROWS rows it is the counterexample, or one of its
** variants is (decide_on_variants; g: the query graph); when it holds
** more, a sample of it is asked in its place, and the sample's variants.  got: o->sql's
** result when the execution filter kept it, else NULL.  Results that
** agree on every one decide nothing: the solver searches then
** (decide_change). */
static void decide_on_db(ExpandRun *r, CliQuery *q, const SqGraph *g, SqDb *db, const char *orig, OrigRun *orun,
                         Outcome *o, const SqResult *got) {
    if (r->no_equiv || orun->tell == EXP_TELL_NOTHING) return;
    if (orun->state == 0) {
        sq_result_init(&orun->res);
        orun->state = sq_db_query(db, orig, &r->limits, &orun->res, NULL) == SQ_EXEC_OK ? 1 : -1;
    }
    SqResult mine;
    sq_result_init(&mine);
    const char *sql = o->join_sql ? o->join_sql : got ? NULL : o->sql; /* what is still to run */
    const SqResult *x = sql ? &mine : got;
    if (orun->state < 0 || (sql && sq_db_query(db, sql, &r->limits, &mine, NULL) != SQ_EXEC_OK)) {
        sq_result_free(&mine);
        return;
    }
    Asked a = {r, q, g, orig, o->join_sql ? o->join_sql : o->sql, orun->tell, o};
    const SqFixture *f = orig_rows(orun, q, db);
    if (f && orun->rows == 1) {
        if (results_differ(&a, &orun->res, x)) told(&a, "the database", f, &orun->res, x);
        else decide_on_variants(&a, f, "the database");
    } else if (f && !told_on(&a, f, "a sample of the database")) {
        decide_on_variants(&a, f, "a sample of the database");
    }
    sq_result_free(&mine);
}

/* Whether taken expansion o changes q's result: squint equiv between the
** query and the expansion (read back from its SQL: it must bind too),
** under bag semantics (list when either sorts).  The expansion's result
** columns are the query's, so no projection is needed.  A counterexample
** without ties is copied into *keep (not initialised) when keep is not
** NULL, and keep->cat set; else keep->cat stays NULL. */
static void decide_change(ExpandRun *r, CliQuery *q, const char *orig, Outcome *o, SqFixture *keep) {
    SqDiags scratch;
    sq_diags_init(&scratch, &r->cq.srcs);
    const char *sql = o->join_sql ? o->join_sql : o->sql;
    const SqSrc *src = sq_src_add_copy(&r->cq.srcs, "expansion", sql, strlen(sql));
    const char *why = NULL;
    IrQuery *x = ir_load_query(q->arena, src, q->cat, r->cq.names, &scratch, &r->cq.schema.ctx.bind_opt, &why);
    o->changes = -1;
    if (!x) {
        o->verdict = sq_arena_printf(q->arena, "its SQL does not bind again: %s", why);
        sq_diags_free(&scratch);
        return;
    }
    SqEquivOptions eo = r->equiv;
    int list = (q->ir->root && ir_root_sorted(q->ir->root)) || (x->root && ir_root_sorted(x->root));
    eo.sem = list ? SQ_SMT_LIST : SQ_SMT_BAG;
    SqEquivResult er;
    sq_equiv(q->cat, q->ir, orig, x, sql, &eo, &er);
    o->verdict = sq_arena_printf(q->arena, "%s%s%s", sq_verdict_name(er.verdict), er.detail ? ": " : "",
                                 er.detail ? er.detail : "");
    if (er.verdict == SQ_VERDICT_DIFFERENT || er.verdict == SQ_VERDICT_DIFFERENT_TIES) {
        o->changes = 1;
        if (keep && er.verdict == SQ_VERDICT_DIFFERENT) sq_fixture_copy(&er.fixture, keep);
        SqBuf b = SQ_BUF_INIT;
        sq_fixture_sql(&er.fixture, &b);
        o->counterexample = sq_arena_strdup(q->arena, sq_buf_str(&b));
        sq_buf_free(&b);
    } else if (er.verdict == SQ_VERDICT_EQUIVALENT) {
        o->changes = 0;
        o->verdict = er.proof ? sq_arena_printf(q->arena, "equivalent (%s)", er.proof)
                              : sq_arena_printf(q->arena, "equivalent up to %d rows per table", er.bound);
    }
    sq_equiv_result_free(&er);
    sq_diags_free(&scratch);
}

/* --add-column on the expansion joined into q, whose SQL b holds: the
** column shown (patches in shown[0..2), to be undone), b holding the SQL
** with it and o->join_sql the SQL without; or -1 with o->column_why. */
static int add_column(CliQuery *q, Outcome *o, IrPatch shown[2], SqBuf *b) {
    const char *col;
    if (sq_expansion_add_column(q->ir, shown, &col, &o->column_why) < 0) return -1;
    o->join_sql = sq_arena_strdup(q->arena, sq_buf_str(b));
    o->column = sq_arena_printf(q->arena, "%s.%s", o->x->table, col);
    sq_buf_reset(b);
    sq_emit_sqlite(q->ir, b);
    return 0;
}

/* The values --add-filter tries, most frequent first. */
enum { FILTER_TRIES = 8 };

/* The values of the joined table's column in the rows of the expansion
** before grouping (sq_expansion_probe), most frequent first, ties by
** value: at most FILTER_TRIES, into vals.  0, or -1 with *why. */
static int filter_values(ExpandRun *r, CliQuery *q, SqDb *db, const char *col, SqResult *vals, const char **why) {
    IrPatch probe;
    if (sq_expansion_probe(q->ir, &probe, why) < 0) return -1;
    SqBuf sub = SQ_BUF_INIT, c = SQ_BUF_INIT, ask = SQ_BUF_INIT;
    sq_emit_sqlite(q->ir, &sub);
    ir_patch_undo(&probe, 1);
    ir_sql_ident(&c, col);
    sq_buf_printf(&ask, "SELECT %s FROM (%s) WHERE %s IS NOT NULL GROUP BY %s ORDER BY count(*) DESC, %s LIMIT %d",
                  sq_buf_str(&c), sq_buf_str(&sub), sq_buf_str(&c), sq_buf_str(&c), sq_buf_str(&c), FILTER_TRIES);
    char *err = NULL;
    int rc = sq_db_query(db, sq_buf_str(&ask), &r->limits, vals, &err) == SQ_EXEC_OK ? 0 : -1;
    if (rc < 0) *why = sq_arena_printf(q->arena, "its values do not come: %s", err ? err : "?");
    free(err);
    sq_buf_free(&sub);
    sq_buf_free(&c);
    sq_buf_free(&ask);
    return rc;
}

/* --add-filter on the expansion joined into q, whose SQL b holds: the
** values of the joined table's column in the expansion's rows are tried
** in turn (filter_values), and the first whose filter leaves the
** expansion a row is kept: b then holds the SQL with it, o->filter says
** it, o->rows its rows on db (so it is not run again) and 0 is returned.
** Else -1 with o->filter_why (b unchanged).  The filter's patch is undone
** before returning. */
static int add_filter(ExpandRun *r, CliQuery *q, SqDb *db, Outcome *o, SqBuf *b) {
    const char *col = sq_expansion_column(q->ir, &o->filter_why);
    if (!col) return -1;
    if (!db) {
        o->filter_why = "no database to draw its value from";
        return -1;
    }
    SqResult vals;
    sq_result_init(&vals);
    SqBuf sql = SQ_BUF_INIT;
    int rc = filter_values(r, q, db, col, &vals, &o->filter_why) < 0 ? -2 : -1;
    for (uint64_t i = 0; i < vals.n_rows && rc == -1; i++) {
        const SqValue *v = &vals.cells[i * vals.n_cols];
        SqExpr *lit = sq_tmpl_literal(q->arena, v, q->ir->root->span);
        IrPatch f;
        if (!lit || sq_expansion_add_filter(q->ir, lit, &f, &o->filter_why) < 0) continue;
        sq_buf_reset(&sql);
        sq_emit_sqlite(q->ir, &sql);
        ir_patch_undo(&f, 1);
        int64_t rows = sq_db_count_rows(db, sq_buf_str(&sql), &r->limits, NULL);
        if (rows <= 0) continue;
        o->rows = rows;
        r->n_run++;   /* the expansion's run, as run_on counts it */
        SqBuf text = SQ_BUF_INIT;
        sq_buf_printf(&text, "%s.%s = ", o->x->table, col);
        sq_value_print(v, &text);
        o->filter = sq_arena_strdup(q->arena, sq_buf_str(&text));
        sq_buf_free(&text);
        sq_buf_reset(b);
        sq_buf_puts(b, sq_buf_str(&sql));
        rc = 0;
    }
    if (rc == -1)
        o->filter_why = vals.n_rows ? sq_arena_printf(q->arena, "none of the %llu most frequent values of %s.%s leaves "
                                                      "the expansion a row", (unsigned long long)vals.n_rows,
                                                      o->x->table, col)
                                    : sq_arena_printf(q->arena, "the expansion's rows hold no value of %s.%s",
                                                      o->x->table, col);
    sq_result_free(&vals);
    sq_buf_free(&sql);
    return rc < 0 ? -1 : 0;
}

/* The fate of kept expansion x of plan p; whether a taken one changes
** the query's result is decided after (expand_decide). */
static void judge(ExpandRun *r, CliQuery *q, const SqExpandPlan *p, const SqExpansion *x, SqDb *db,
                  const char *orig, OrigRun *orun, Outcome *o) {
    memset(o, 0, sizeof *o);
    o->x = x;
    o->rows = -1;
    o->changes = -1;
    const char *key = x->pattern ? x->pattern : "";
    int *taken = x->pattern ? sq_strmap_get(r->classes, key) : NULL;
    if (r->n && taken && *taken >= r->n) {
        o->fate = EXP_CLASS_FULL;
        o->why = sq_arena_printf(q->arena, "its shape's class has %d already", *taken);
        return;
    }
    IrPatch patch;
    if (sq_expansion_join(q->ir, q->cat, p, x, &patch, &o->why) < 0) {
        o->fate = EXP_NOT_JOINABLE;
        return;
    }
    SqBuf b = SQ_BUF_INIT;
    sq_emit_sqlite(q->ir, &b);
    IrPatch shown[2];
    int added = r->add_column && add_column(q, o, shown, &b) == 0;
    if (r->add_filter) {
        const char *join_only = o->join_sql ? o->join_sql : sq_arena_strdup(q->arena, sq_buf_str(&b));
        if (add_filter(r, q, db, o, &b) == 0) o->join_sql = join_only;
    }
    if (r->requests) {
        SqBuf ddl = SQ_BUF_INIT;
        sq_prompt_schema(q->cat, &q->ir, 1, NULL, &ddl);
        o->schema = sq_arena_strdup(q->arena, sq_buf_str(&ddl));
        sq_buf_free(&ddl);
    }
    if (added) ir_patch_undo(shown, 2);
    ir_patch_undo(&patch, 1);
    o->sql = sq_arena_strdup(q->arena, sq_buf_str(&b));
    sq_buf_free(&b);
    SqResult got;
    sq_result_init(&got);
    int ran = db && o->rows < 0;
    if (ran) run_on(r, db, q, o, &got);
    if (db && o->fate == EXP_TAKEN) decide_on_db(r, q, p->query, db, orig, orun, o, ran ? &got : NULL);
    sq_result_free(&got);
    if (o->fate != EXP_TAKEN) return;
    if (x->pattern) (*sq_strmap_put(r->classes, key, NULL))++;
}

static void tally(ExpandRun *r, const Outcome *o) {
    r->n_kept++;
    r->n_joinable += o->fate != EXP_NOT_JOINABLE && o->fate != EXP_CLASS_FULL;
    r->n_taken += o->fate == EXP_TAKEN;
    r->n_run_failed += o->fate == EXP_FAILED;
    r->n_no_rows += o->fate == EXP_NO_ROWS;
    r->n_class_full += o->fate == EXP_CLASS_FULL;
}

/* The solver's counterexamples kept per query, at most: an expansion of
** the query often differs from it on the database that showed another
** expansion's difference (the added table is empty there, or its rows
** can be doubled), which is asked before the solver is. */
enum { CEX_KEPT = 8 };

/* Whether one of the counterexamples kept for q (or a variant of it)
** tells that o changes q's result. */
static int told_by_kept(ExpandRun *r, const ExpandQuery *eq, Outcome *o, const SqFixture *kept, uint32_t n) {
    static const char base[] = "the counterexample of another expansion of the query";
    Asked a = {r, eq->q, eq->p->query, eq->orig, o->join_sql ? o->join_sql : o->sql, eq->tell, o};
    for (uint32_t k = 0; k < n && o->changes != 1; k++)
        if (!told_on(&a, &kept[k], base)) decide_on_variants(&a, &kept[k], base);
    return o->changes == 1;
}

void expand_decide(ExpandRun *r, ExpandQuery *eq, size_t counts[3]) {
    counts[0] = counts[1] = counts[2] = 0;
    SqFixture kept[CEX_KEPT];
    uint32_t n_kept = 0;
    int tells = eq->p && eq->tell != EXP_TELL_NOTHING; /* results on a database tell */
    for (uint32_t i = 0; !r->no_equiv && eq->p && i < eq->p->n_kept; i++) {
        Outcome *o = &eq->os[i];
        if (o->fate != EXP_TAKEN) continue;
        /* else the database told */
        if (o->changes != 1 && !(tells && told_by_kept(r, eq, o, kept, n_kept))) {
            SqFixture *keep = tells && n_kept < CEX_KEPT ? &kept[n_kept] : NULL;
            if (keep) keep->cat = NULL;
            decide_change(r, eq->q, eq->orig, o, keep);
            if (keep && keep->cat) n_kept++;
        }
        counts[o->changes == 1 ? 0 : o->changes == 0 ? 1 : 2]++;
    }
    for (uint32_t k = 0; k < n_kept; k++) sq_fixture_free(&kept[k]);
}

/* ---- output ------------------------------------------------------------------- */

static void text_query(ExpandRun *r, const ExpandQuery *eq) {
    SqBuf *out = &r->out;
    const CliQuery *q = eq->q;
    const SqExpandPlan *p = eq->p;
    const Outcome *os = eq->os;
    const char *why = eq->why, *db_why = eq->db_why;
    sq_buf_puts(out, "-- ");
    cli_query_where(out, q);
    sq_buf_putc(out, '\n');
    if (!p) {
        sq_buf_printf(out, "-- no expansion: %s\n", why);
        return;
    }
    sq_buf_printf(out, "-- %u candidate table%s, %u expansion%s kept by the plan\n", p->n_candidates,
                  p->n_candidates == 1 ? "" : "s", p->n_kept, p->n_kept == 1 ? "" : "s");
    if (db_why) sq_buf_printf(out, "-- not run: %s\n", db_why);
    for (uint32_t i = 0; i < p->n_kept; i++) {
        const Outcome *o = &os[i];
        sq_buf_printf(out, "-- %c %s: ", o->fate == EXP_TAKEN ? '+' : '-', o->x->table);
        sq_expansion_text(p, o->x, out);
        sq_buf_printf(out, "  (%u, %u) %+.2f%s", o->x->n_nodes, o->x->n_edges, o->x->delta_avg_degree,
                      o->x->cyclic ? " cyclic" : "");
        if (o->rows >= 0) sq_buf_printf(out, ", %lld row%s", (long long)o->rows, o->rows == 1 ? "" : "s");
        if (o->fate != EXP_TAKEN) sq_buf_printf(out, ": %s (%s)", expand_fate_names[o->fate], o->why);
        sq_buf_putc(out, '\n');
        if (o->fate != EXP_TAKEN) continue;
        if (o->verdict)
            sq_buf_printf(out, "--   %s the query's result: %s\n",
                          o->changes == 1 ? "changes" : o->changes == 0 ? "keeps" : "not known whether it changes",
                          o->verdict);
        if (o->column) sq_buf_printf(out, "--   shows the column %s\n", o->column);
        else if (o->column_why) sq_buf_printf(out, "--   no column added: %s\n", o->column_why);
        if (o->filter) sq_buf_printf(out, "--   keeps only the rows where %s\n", o->filter);
        else if (o->filter_why) sq_buf_printf(out, "--   no filter added: %s\n", o->filter_why);
        if (o->request) sq_buf_printf(out, "--   question request: %s\n", o->request);
        sq_buf_printf(out, "%s;\n", o->sql);
    }
}

void expand_render(ExpandRun *r, const ExpandQuery *eq, SqBuf *records) {
    if (r->out_path) expand_out_records(r, eq, records);
    else if (r->format == SQ_FMT_JSON) expand_json_query(r, eq);
    else text_query(r, eq);
}

void expand_emit(ExpandRun *r, const char *req, size_t req_len, const char *text, size_t len) {
    if (!r->out_path) {
        sq_buf_put(&r->out, text, len);
        cli_flush(&r->out, stdout);
        return;
    }
    /* the requests first: a run stopped between the two writes makes the
    ** query again, and its requests already written are not repeated */
    if (r->req_fd >= 0 && req_len && cli_append_synced(r->req_fd, req, req_len) < 0 && !r->write_failed) {
        cli_io_error("expand", r->requests, errno);
        r->write_failed = 1;
    }
    if (len && cli_append_synced(r->fd, text, len) < 0 && !r->write_failed) {
        cli_io_error("expand", r->out_path, errno);
        r->write_failed = 1;
    }
}

/* One query: planned, each expansion judged (in order: the classes fill
** as the run goes), then decided and written here, or with -j in a
** worker (expand_jobs.c). */
static void expand_query(void *arg, CliQuery *q) {
    ExpandRun *r = arg;
    char buf[32];
    const char *sid = cli_query_source_id(q, r->n_sources++, buf);
    if (r->out_path && sq_strmap_get(r->done, sid)) {
        r->n_skipped++;
        return;
    }
    SqDiags scratch;
    sq_diags_init(&scratch, &r->cq.srcs);
    SqPassCtx pc;
    ExpandQuery eq = {.q = q, .sid = sid};
    if (r->tqa) {
        eq.g = graph_of(r, q, &pc, &scratch, &eq.why);
        SqBuf b = SQ_BUF_INIT;
        sq_emit_sqlite(q->ir, &b);
        eq.orig = sq_arena_strdup(q->arena, sq_buf_str(&b));
        sq_buf_free(&b);
        expand_tqa_query(r, &eq);
        cli_flush(&r->out, stdout);
        sq_diags_free(&scratch);
        return;
    }
    eq.p = plan_of(r, q, &pc, &scratch, &eq.why);
    if (eq.p) {
        r->n_queries_planned++;
        SqDb *db = query_db(r, q, &eq.db_why);
        SqBuf b = SQ_BUF_INIT;
        sq_emit_sqlite(q->ir, &b);
        eq.orig = sq_arena_strdup(q->arena, sq_buf_str(&b));
        sq_buf_free(&b);
        eq.os = sq_arena_alloc(q->arena, (eq.p->n_kept + 1) * sizeof *eq.os);
        eq.tell = !ir_result_choice(q->ir) ? EXP_TELL_ROWS : !ir_count_choice(q->ir) ? EXP_TELL_COUNT
                                                                                      : EXP_TELL_NOTHING;
        OrigRun orun = {.tell = eq.tell};
        for (uint32_t i = 0; i < eq.p->n_kept; i++) {
            judge(r, q, eq.p, &eq.p->items[i], db, eq.orig, &orun, &eq.os[i]);
            if (r->requests && eq.os[i].fate == EXP_TAKEN) expand_request(r, q, eq.p, i, eq.orig, &eq.os[i]);
            tally(r, &eq.os[i]);
        }
        orig_run_free(&orun);
    }
    if (r->workers) {
        expand_jobs_submit(r, &eq);
    } else {
        size_t counts[3];
        expand_decide(r, &eq, counts);
        expand_count_verdicts(r, counts);
        SqBuf records = SQ_BUF_INIT;
        expand_render(r, &eq, &records);
        if (r->out_path) {
            expand_emit(r, r->req.data, r->req.len, records.data, records.len);
            sq_buf_reset(&r->req);
        } else {
            cli_flush(&r->out, stdout);
        }
        sq_buf_free(&records);
    }
    sq_diags_free(&scratch);
}

void expand_count_verdicts(ExpandRun *r, const size_t counts[3]) {
    r->n_changes += counts[0];
    r->n_same += counts[1];
    r->n_undecided += counts[2];
}

static void summary(ExpandRun *r) {
    if (r->n_skipped)
        sq_buf_printf(&r->out, "-- %zu quer%s skipped: %s records are all in %s (%zu records)\n", r->n_skipped,
                      r->n_skipped == 1 ? "y" : "ies", r->n_skipped == 1 ? "its" : "their", r->out_path, r->n_earlier);
    sq_buf_printf(&r->out,
                  "-- %zu quer%s, %zu with a plan: %zu expansions kept by the plans, %zu taken (%zu shapes); "
                  "%zu left for their shape's class, %zu not joinable as written",
                  r->cq.n_queries - r->n_skipped, r->cq.n_queries - r->n_skipped == 1 ? "y" : "ies",
                  r->n_queries_planned, r->n_kept, r->n_taken, sq_strmap_count(r->classes), r->n_class_full,
                  r->n_kept - r->n_joinable - r->n_class_full);
    if (r->n_run)
        sq_buf_printf(&r->out, "; %zu run: %zu did not run, %zu returned no row", r->n_run, r->n_run_failed,
                      r->n_no_rows);
    else
        sq_buf_puts(&r->out, r->no_run ? "; none run (--no-run)" : "; none run (no database)");
    if (!r->no_equiv)
        sq_buf_printf(&r->out, "; of the taken, %zu change the query's result, %zu keep it, %zu not decided",
                      r->n_changes, r->n_same, r->n_undecided);
    sq_buf_putc(&r->out, '\n');
}

/* --tqa makes no expansion: the options about expansions are refused
** with it.  -1 to go on, or 2 after a message. */
static int tqa_alone(const ExpandRun *r) {
    const char *other = r->out_path ? "--out" : r->add_column ? "--add-column" : r->add_filter ? "--add-filter"
                                                                                   : NULL;
    if (!r->tqa || !other) return -1;
    fprintf(stderr, "squint expand: --tqa writes no expansions, so %s does not go with it\n", other);
    return SQ_EXIT_USAGE;
}

/* Every query of the operands, then the output's end: the text's summary
** (on stderr with --out, whose records stand for the output), the JSON's
** closing bracket, the requests (replaced whole, or appended with --out
** as each query ends).  The exit status. */
static int run(ExpandRun *r, const CliArgs *a) {
    sq_jw_init(&r->jw, &r->out, 1);
    int json = r->format == SQ_FMT_JSON && !r->out_path;
    if (json) sq_jw_arr_begin(&r->jw);
    expand_jobs_start(r);
    for (int i = a->i; i < a->argc; i++) cli_queries_file(&r->cq, a->argv[i], expand_query, r);
    expand_jobs_finish(r);
    if (json) {
        sq_jw_arr_end(&r->jw);
        sq_buf_putc(&r->out, '\n');
    } else if (r->tqa) {
        expand_tqa_summary(r);
    } else {
        summary(r);
    }
    cli_flush(&r->out, r->out_path ? stderr : stdout);
    int rc = cli_queries_finish(&r->cq);
    if (r->requests && !r->out_path && cli_report_write("expand", r->requests, &r->req) < 0) rc = SQ_EXIT_USAGE;
    else if (r->requests)
        fprintf(stderr, "squint expand: %zu %srequest%s written to %s\n", r->n_requests, r->tqa ? "" : "question ",
                r->n_requests == 1 ? "" : "s", r->requests);
    if (rc == SQ_EXIT_OK && r->n_failed_jobs) rc = 1;
    return r->write_failed ? SQ_EXIT_USAGE : rc;
}

int cmd_expand(int argc, char **argv) {
    ExpandRun r;
    memset(&r, 0, sizeof r);
    r.format = SQ_FMT_TEXT;
    r.n = 1;
    r.limits.timeout_sec = 10;
    r.limits.max_rows = 100000;
    r.limits.one_statement = 1;
    r.equiv = sq_equiv_options_generator();
    r.classes = sq_strmap_new();
    r.done = sq_strmap_new();
    r.had_requests = sq_strmap_new();
    r.fd = r.req_fd = -1;
    r.pool.jobs = 1;
    r.pool.mem_limit = (uint64_t)4096 << 20;
    r.params.model = EXPAND_MODEL;
    r.tpl_arena = sq_arena_new();
    cli_queries_init(&r.cq, "expand");
    CliArgs a;
    cli_args_init(&a, argc, argv, "expand");
    a.operands = CLI_OPERANDS_FILES;
    int rc = cli_queries_read_options(&r.cq, &a, cli_opts_expand, own_option, &r);
    if (rc < 0 && cli_queries_start(&r.cq) < 0) rc = SQ_EXIT_USAGE;
    if (rc < 0) rc = tqa_alone(&r);
    if (rc < 0) rc = expand_requests_start(&r, &a);
    if (rc < 0) rc = expand_out_start(&r, &a);
    if (rc < 0) rc = run(&r, &a);
    if (r.fd >= 0) close(r.fd);
    if (r.req_fd >= 0) close(r.req_fd);
    sq_db_close(r.db);
    free(r.db_path);
    sq_strmap_free(r.classes);
    sq_strmap_free(r.done);
    sq_strmap_free(r.had_requests);
    sq_buf_free(&r.out);
    sq_buf_free(&r.req);
    sq_arena_free(r.tpl_arena);
    cli_queries_free(&r.cq);
    return rc;
}
