/*
** cmd_fixture.c -- `squint fixture`: a small test suite per gold query,
** databases that make it return rows and tell it apart from near-miss
** queries (backend/suite/suite.h).
**
** Layer: cli.  Reads the gold file, and runs each question in a child
** process (runtime/pool.h) under a time and memory limit: the child
** builds the suite, writes DIR/<id>/NN.sqlite and suite.json, and answers
** with one JSON record, which the parent appends to DIR/fixture.jsonl
** (fsync'd).  A rerun with the same --out skips the questions recorded
** there (fixture_out.h).  The summary is computed from every record.
*/
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "backend/suite/suite.h"
#include "frontend/bench_input.h"
#include "runtime/json.h"
#include "runtime/pool.h"
#include "runtime/safewrite.h"
#include "runtime/util.h"
#include "cli/cli_schema.h"
#include "cli/fixture_out.h"
#include "cli/fixture_show.h"
#include "cli/cli_config.h"

static const char usage_head[] =
    "usage: squint fixture --gold FILE --out DIR [options] SCHEMA-OPTION\n"
    "\n"
    "Build a small test suite per gold query: a witness database on which it\n"
    "returns rows, and databases that tell it apart from near-miss queries\n"
    "(mutants), each database checked by SQLite.  DIR/<id>/NN.sqlite and\n"
    "DIR/<id>/suite.json per question; one record per question in\n"
    "DIR/fixture.jsonl.\n"
    "\n"
    "options:\n"
    "      --gold FILE        gold queries: Spider or BIRD dev.json, SQL<TAB>db_id\n"
    "                         lines, or a SQL file of one query\n"
    "      --out DIR          where the suites go: a new or empty directory, or one\n"
    "                         squint fixture wrote (then the questions recorded\n"
    "                         there are not built again: resume)\n"
    "      --llm              build one database per question with a language\n"
    "                         model instead (SynSQL; 'squint fixture --llm --help')\n"
    "      --semantics S      how results are compared: spider (bag, a list when\n"
    "                         the gold sorts, any column order) or bird (set of\n"
    "                         rows); default: bird for a BIRD gold file, else spider\n"
    "      --rows K           tuples per table of the witness (default 3)\n"
    "      --witness-timeout S  seconds for the witness's search (default 10; 0: none)\n"
    "      --bound K          rows per table of each mutant's search (default 3)\n"
    "      --timeout S        seconds per mutant's search (default 2; 0: none)\n"
    "      --rlimit N         z3's resource units per search, witness and each\n"
    "                         mutant (default 0: none): with the timeouts 0, suites\n"
    "                         that do not depend on the machine's speed\n"
    "      --max-mutants N    mutants per question at most (default 40)\n"
    "      --sql              also write NN.sql, the script that rebuilds NN.sqlite\n"
    "      --solver-values    keep the solver's values; by default values the\n"
    "                         queries leave free are made to read like data:\n"
    "                         sampled from the real database (--db-root, --db),\n"
    "                         else made up from the column's name\n"
    "      --realistic        search only data like the real data: keep to the\n"
    "                         column profile of the question's database (--db-root,\n"
    "                         --db) or of --metadata (no NULL where it has none,\n"
    "                         each value once where it holds each once, the value\n"
    "                         shapes it shows, dates as dates)\n"
    "      --metadata FILE    BIRD's dev_metadata.json, for a run without databases:\n"
    "                         its sample values are taken as the real data's, its\n"
    "                         column statistics are --realistic's profiles, and a\n"
    "                         witness search that runs out of its budget is tried\n"
    "                         again on them\n"
    "      --profile-cache DIR  where database profiles are kept between runs\n"
    "      --seed N           which of those values are taken: 0 (default) the\n"
    "                         first ones, else a choice N makes; the same N gives\n"
    "                         the same suites\n"
    "  -j, --jobs N           questions built at once, each in its own process\n"
    "                         (default 1)\n"
    "      --question-timeout S  seconds per question's process, then it is killed\n"
    "                         and recorded as failed (default 300; 0: none)\n"
    "      --mem-limit MB     address space per question's process (default 4096;\n"
    "                         0: none)\n"
    "      --limit N          only the first N questions\n"
    "      --show N           after the summary, show the first N suites: the\n"
    "                         witness's rows, two mutants and the database that\n"
    "                         kills each, with both results there (default 0)\n"
    "  -f, --format FMT       summary as text (default) or json\n"
    "  -q, --quiet            no progress lines on standard error\n"
    "  -h, --help             show this help\n"
    "      --version          print the version and exit\n";

static const char usage_tail[] =
    "\n"
    "--db-root DIR gives the schemas (DIR/ID/ID.sqlite), --tables FILE a\n"
    "tables.json, --schema or --db one schema for every question.\n"
    "\n"
    "exit status: 0 the run finished (whatever each question's outcome: every\n"
    "question has its record), 2 usage or input error: an unreadable or empty\n"
    "gold file, an --out directory squint did not write or whose records are of\n"
    "other options or inputs, a schema that cannot be read.\n" CLI_EXIT_OOM;

const CliOpt cli_opts_fixture[] = {
    {"gold", 0, 1},    {"out", 0, 1},          {"semantics", 0, 1},        {"rows", 0, 1},
    {"witness-timeout", 0, 1}, {"bound", 0, 1}, {"timeout", 0, 1},         {"rlimit", 0, 1},
    {"max-mutants", 0, 1}, {"sql", 0, 0},        {"solver-values", 0, 0}, {"seed", 0, 1}, {"realistic", 0, 0}, {"metadata", 0, 1}, {"profile-cache", 0, 1},      {"jobs", 'j', 1},           {"question-timeout", 0, 1},
    {"mem-limit", 0, 1}, {"limit", 0, 1},      {"show", 0, 1},      {"format", 'f', 1},         {"quiet", 'q', 0},
    {"help", 'h', 0},  CLI_SCHEMA_OPTIONS,     {NULL, 0, 0}};

typedef struct Tally {
    size_t questions, by_status[3], failed;
    size_t fates[SQ_MUTANT__COUNT], dbs, empty_gold;
    double *seconds;        /* per question built */
    uint32_t *n_dbs;        /* per question with a suite */
    size_t n_seconds, n_suites;
} Tally;

typedef struct FixRun {
    CliSchema schema;
    SqSrcSet srcs;
    SqDiags diags;
    SqInterner *names;
    SqArena *arena;
    const char *gold_path;
    SqBench gold;
    SqSuiteOptions opt;
    int semantics_given, scripts, json;
    int realistic;          /* --realistic */
    const char *metadata;   /* --metadata FILE, or NULL */
    const char *profile_cache; /* --profile-cache DIR, or NULL */
    SqPoolOptions pool;
    SqBuf options;          /* the options that change a record (JSON) */
    const char **digests;   /* per question */
    const char **ids;       /* per question: its folder's name */
    size_t limit, show;
    FixtureOut out;
    CliProgress prog;
    Tally tally;
    size_t *again;          /* questions whose process died of signal 11 */
    size_t n_again;
    int second_try;         /* running those once more */
} FixRun;

static int bad_value(const char *opt, const char *what) {
    fprintf(stderr, "squint fixture: %s takes %s\n", opt, what);
    return SQ_EXIT_USAGE;
}

static int own_option(void *ctx, const char *name, const char *val) {
    FixRun *r = ctx;
    long n;
    int rc = -1;
    if (strcmp(name, "help") == 0) {
        cli_schema_usage(stdout, usage_head, usage_tail);
        cli_help_common(stdout, cli_opts_fixture, 0);
        return SQ_EXIT_OK;
    }
    if (strcmp(name, "gold") == 0) r->gold_path = val;
    else if (strcmp(name, "out") == 0) r->out.dir = val;
    else if (strcmp(name, "semantics") == 0) {
        if (strcmp(val, "spider") == 0) r->opt.equiv.sem = SQ_SMT_SPIDER;
        else if (strcmp(val, "bird") == 0) r->opt.equiv.sem = SQ_SMT_SET;
        else return bad_value("--semantics", "spider or bird");
        r->semantics_given = 1;
    } else if (strcmp(name, "rows") == 0) {
        if ((rc = cli_parse_count("fixture", "--rows", val, 1, 8, &n)) < 0) r->opt.witness.bound = (int)n;
    } else if (strcmp(name, "bound") == 0) {
        if ((rc = cli_parse_count("fixture", "--bound", val, 1, 16, &n)) < 0) r->opt.equiv.bound = (int)n;
    } else if (strcmp(name, "witness-timeout") == 0) rc = cli_parse_seconds("fixture", "--witness-timeout", val, &r->opt.witness.timeout);
    else if (strcmp(name, "timeout") == 0) rc = cli_parse_seconds("fixture", "--timeout", val, &r->opt.equiv.timeout);
    else if (strcmp(name, "rlimit") == 0) {
        if ((rc = cli_parse_count("fixture", "--rlimit", val, 0, LONG_MAX, &n)) < 0) r->opt.equiv.rlimit = r->opt.witness.rlimit = (uint64_t)n;
    } else if (strcmp(name, "max-mutants") == 0) {
        if ((rc = cli_parse_count("fixture", "--max-mutants", val, 0, 1000, &n)) < 0) r->opt.max_mutants = (uint32_t)n;
    } else if (strcmp(name, "sql") == 0) r->scripts = 1;
    else if (strcmp(name, "solver-values") == 0) r->opt.solver_values = 1;
    else if (strcmp(name, "realistic") == 0) r->realistic = 1;
    else if (strcmp(name, "metadata") == 0) r->metadata = val;
    else if (strcmp(name, "profile-cache") == 0) r->profile_cache = val;
    else if (strcmp(name, "seed") == 0) {
        if ((rc = cli_parse_count("fixture", "--seed", val, 0, LONG_MAX, &n)) < 0) r->opt.seed = (uint64_t)n;
    }
    else if (strcmp(name, "jobs") == 0) {
        if ((rc = cli_parse_count("fixture", "--jobs", val, 1, 256, &n)) < 0) r->pool.jobs = (unsigned)n;
    } else if (strcmp(name, "question-timeout") == 0) rc = cli_parse_seconds("fixture", "--question-timeout", val, &r->pool.task_timeout);
    else if (strcmp(name, "mem-limit") == 0) {
        if ((rc = cli_parse_count("fixture", "--mem-limit", val, 0, 1L << 30, &n)) < 0) r->pool.mem_limit = (uint64_t)n << 20;
    } else if (strcmp(name, "limit") == 0) {
        if ((rc = cli_parse_count("fixture", "--limit", val, 1, LONG_MAX, &n)) < 0) r->limit = (size_t)n;
    } else if (strcmp(name, "show") == 0) {
        if ((rc = cli_parse_count("fixture", "--show", val, 0, LONG_MAX, &n)) < 0) r->show = (size_t)n;
    } else if (strcmp(name, "format") == 0) {
        SqFormat f;
        if (!cli_parse_format("fixture", val, CLI_TEXT_OR_JSON, &f)) return SQ_EXIT_USAGE;
        r->json = f == SQ_FMT_JSON;
    } else if (strcmp(name, "quiet") == 0) r->prog.quiet = 1;
    return rc;
}

static int real_data(const FixRun *r);

static int read_options(FixRun *r, int argc, char **argv) {
    CliArgs a;
    cli_args_init(&a, argc, argv, "fixture");
    const char *name, *val;
    while ((name = cli_next_opt(&a, cli_opts_fixture, &val)) != NULL) {
        if (strcmp(name, "?") == 0) return SQ_EXIT_USAGE;
        int handled = cli_schema_option(&r->schema, name, val);
        if (handled < 0) return SQ_EXIT_USAGE;
        if (handled) continue;
        int rc = own_option(r, name, val);
        if (rc >= 0) return rc;
    }
    if (a.i < argc) {
        fprintf(stderr, "squint fixture: unexpected operand '%s' (the gold queries are given with --gold)\n",
                argv[a.i]);
        return SQ_EXIT_USAGE;
    }
    if (!r->gold_path || !r->out.dir) {
        fprintf(stderr, "squint fixture: --gold FILE and --out DIR are needed\n");
        return cli_usage_hint("fixture");
    }
    if (!cli_schema_given(&r->schema)) {
        fprintf(stderr, "squint fixture: give the schemas (--db-root DIR, --tables FILE, --schema or --db FILE)\n");
        return SQ_EXIT_USAGE;
    }
    if (r->realistic && !r->metadata && !real_data(r)) {
        fprintf(stderr, "squint fixture: --realistic needs real data to profile: --db-root DIR, --db FILE or "
                        "--metadata FILE\n");
        return SQ_EXIT_USAGE;
    }
    return -1;
}

/* ------------------------------------------------------------------ */
/* Questions                                                           */
/* ------------------------------------------------------------------ */

static int read_gold(FixRun *r) {
    if (fixture_read_gold(r->gold_path, &r->gold, r->arena, &r->srcs, &r->diags) < 0) return -1;
    if (!r->semantics_given) r->opt.equiv.sem = r->gold.format == SQ_INPUT_BIRD ? SQ_SMT_SET : SQ_SMT_SPIDER;
    r->opt.witness.sem = r->opt.equiv.sem;
    return 0;
}

/* Each question's folder name (BIRD's question_id, else its position)
** and the digest of its inputs (gold text and db_id). */
static void question_keys(FixRun *r) {
    r->digests = sq_arena_alloc(r->arena, (r->gold.n_items + 1) * sizeof *r->digests);
    r->ids = sq_arena_alloc(r->arena, (r->gold.n_items + 1) * sizeof *r->ids);
    for (uint32_t k = 0; k < r->gold.n_items; k++) {
        const SqBenchItem *g = &r->gold.items[k];
        char buf[32];
        snprintf(buf, sizeof buf, "%lld", g->qid >= 0 ? (long long)g->qid : (long long)k);
        r->ids[k] = sq_arena_strdup(r->arena, buf);
        SqEvalInput in = {.gold = g->sql ? g->sql->text : "", .db_id = g->db_id};
        char digest[SQ_EVAL_DIGEST_LEN + 1];
        sq_eval_input_digest(&in, digest);
        r->digests[k] = sq_arena_strdup(r->arena, digest);
    }
}

/* Whether the schema option gives the data too (values are sampled). */
static int real_data(const FixRun *r) {
    return r->schema.kind == CLI_SCHEMA_DB_ROOT || r->schema.kind == CLI_SCHEMA_DB;
}

/* The options that change a record, as a JSON object. */
static void run_options(FixRun *r) {
    SqJsonWriter w;
    sq_jw_init(&w, &r->options, 0);
    sq_jw_obj_begin(&w);
    sq_jw_key(&w, "semantics");
    sq_jw_str(&w, r->opt.equiv.sem == SQ_SMT_SPIDER ? "spider" : "bird");
    sq_jw_key(&w, "rows");
    sq_jw_int(&w, r->opt.witness.bound);
    sq_jw_key(&w, "witness_timeout");
    sq_jw_double(&w, r->opt.witness.timeout);
    sq_jw_key(&w, "bound");
    sq_jw_int(&w, r->opt.equiv.bound);
    sq_jw_key(&w, "timeout");
    sq_jw_double(&w, r->opt.equiv.timeout);
    sq_jw_key(&w, "rlimit");
    sq_jw_int(&w, (int64_t)r->opt.equiv.rlimit);
    sq_jw_key(&w, "max_mutants");
    sq_jw_int(&w, r->opt.max_mutants);
    sq_jw_key(&w, "sql");
    sq_jw_bool(&w, r->scripts);
    sq_jw_key(&w, "values");
    sq_jw_str(&w, r->opt.solver_values ? "solver" : real_data(r) ? "real" : r->metadata ? "metadata" : "made-up");
    sq_jw_key(&w, "realistic");
    sq_jw_str(&w, !r->realistic ? "no" : r->metadata ? "metadata" : "database");
    sq_jw_key(&w, "seed");
    sq_jw_int(&w, (int64_t)r->opt.seed);
    sq_jw_obj_end(&w);
}

static void record_head(FixRun *r, size_t k, SqJsonWriter *w) {
    const SqBenchItem *g = &r->gold.items[k];
    sq_jw_key(w, "squint_fixture");
    sq_jw_int(w, FIXTURE_FORMAT);
    sq_jw_key(w, "question");
    sq_jw_int(w, (int64_t)k);
    sq_jw_key(w, "inputs");
    sq_jw_str(w, r->digests[k]);
    sq_jw_key(w, "options");
    sq_jw_raw(w, sq_buf_str(&r->options));
    sq_jw_key(w, "id");
    sq_jw_str(w, r->ids[k]);
    sq_jw_key(w, "db_id");
    if (g->db_id) sq_jw_str(w, g->db_id);
    else sq_jw_null(w);
    sq_jw_key(w, "text");
    if (g->question) sq_jw_str(w, g->question);
    else sq_jw_null(w);
    sq_jw_key(w, "gold");
    sq_jw_str(w, g->sql ? g->sql->text : "");
}

/* Write the suite's databases (and scripts) into folder dir: 0, or -1
** with the reason in why. */
static int write_suite(FixRun *r, const SqSuite *s, const char *dir, SqBuf *why) {
    for (uint32_t i = 0; i < s->n_dbs; i++) {
        char name[16];
        sq_suite_db_name(i, name);
        SqBuf path = SQ_BUF_INIT;
        sq_buf_printf(&path, "%s/%s", dir, name);
        char *err = NULL;
        int rc = sq_fixture_write_sqlite(&s->dbs[i].fixture, sq_buf_str(&path), &err);
        if (rc < 0) sq_buf_printf(why, "cannot write '%s': %s", sq_buf_str(&path), err ? err : "?");
        if (rc == 0 && r->scripts) {
            SqBuf sql = SQ_BUF_INIT;
            sq_fixture_sql(&s->dbs[i].fixture, &sql);
            sq_buf_puts(&path, ""); /* NN.sqlite -> NN.sql */
            path.len -= 3;
            path.data[path.len] = 0;
            int e;
            if ((rc = sq_write_replace(sq_buf_str(&path), sql.data, sql.len, &e)) < 0)
                sq_buf_printf(why, "cannot write '%s': %s", sq_buf_str(&path), strerror(e));
            sq_buf_free(&sql);
        }
        free(err);
        sq_buf_free(&path);
        if (rc < 0) return -1;
    }
    return 0;
}

/* The record of question k whose suite could not be written or built. */
/* The profile --realistic keeps to: --metadata's for db_id, else its
** database's.  0 with why said when there is none. */
static int load_profile(FixRun *r, const char *db_id, const Catalog *cat, SqProfile *p, SqBuf *why) {
    char *err = NULL;
    int rc = cli_schema_profile(&r->schema, db_id, r->metadata, r->profile_cache, cat, p, &err);
    if (rc < 1) sq_buf_printf(why, "no column profile for --realistic: %s", err ? err : "no database to profile");
    free(err);
    return rc == 1;
}

static void failed_record(FixRun *r, size_t k, const char *why, SqBuf *out) {
    SqJsonWriter w;
    sq_jw_init(&w, out, 0);
    sq_jw_obj_begin(&w);
    record_head(r, k, &w);
    sq_jw_key(&w, "status");
    sq_jw_str(&w, "failed");
    sq_jw_key(&w, "why");
    sq_jw_str(&w, why);
    sq_jw_obj_end(&w);
    sq_buf_putc(out, '\n');
}

/* In the child: build question k's suite, write its folder, answer with
** its record. */
static int run_question(void *ctx, size_t k, SqBuf *out) {
    FixRun *r = ctx;
    const SqBenchItem *g = &r->gold.items[k];
    SqBuf why = SQ_BUF_INIT;
    char *dir = NULL;
    const Catalog *cat = cli_schema_resolve(&r->schema, g->db_id, g->db_id_span);
    if (!g->sql) sq_buf_puts(&why, "the item has no SQL");
    else if (!cat) sq_buf_printf(&why, "no schema for db_id '%s'", g->db_id ? g->db_id : "");
    else fixture_qdir_prepare(r->out.dir, r->ids[k], &dir, &why);
    if (why.len) {
        failed_record(r, k, sq_buf_str(&why), out);
        sq_buf_free(&why);
        free(dir);
        return 0;
    }
    sq_equiv_test_fault(g->sql->text, r->second_try);
    SqSuite s;
    if (real_data(r)) r->opt.values_db = cli_schema_db_path(&r->schema, g->db_id); /* in this child only */
    r->opt.question = g->question, r->opt.evidence = g->evidence;
    SqProfile prof;
    memset(&prof, 0, sizeof prof);
    /* the profile: --realistic's facts, --metadata's values (without
    ** which values are made up: not a failure) */
    int profiled = (r->realistic || r->metadata) && load_profile(r, g->db_id, cat, &prof, &why);
    if (!profiled && !r->realistic) sq_buf_reset(&why);
    if (why.len) {
        failed_record(r, k, sq_buf_str(&why), out);
        sq_buf_free(&why);
        free(dir);
        return 0;
    }
    r->opt.equiv.realistic = r->opt.witness.realistic = r->realistic ? &prof : NULL;
    r->opt.values_profile = r->metadata && profiled ? &prof : NULL;
    sq_suite_build(cat, r->names, &r->srcs, g->sql, &r->opt, &s);
    r->opt.equiv.realistic = r->opt.witness.realistic = r->opt.values_profile = NULL;
    SqBuf rec = SQ_BUF_INIT;
    SqJsonWriter w;
    sq_jw_init(&w, &rec, 0);
    sq_jw_obj_begin(&w);
    record_head(r, k, &w);
    sq_suite_json(&s, &r->srcs, &w);
    sq_jw_obj_end(&w);
    if (write_suite(r, &s, dir, &why) == 0) {
        SqBuf path = SQ_BUF_INIT;
        sq_buf_printf(&path, "%s/suite.json", dir);
        int e;
        if (sq_write_replace(sq_buf_str(&path), rec.data, rec.len, &e) < 0)
            sq_buf_printf(&why, "cannot write '%s': %s", sq_buf_str(&path), strerror(e));
        sq_buf_free(&path);
    }
    if (why.len) failed_record(r, k, sq_buf_str(&why), out);
    else sq_buf_printf(out, "%s\n", sq_buf_str(&rec));
    sq_buf_free(&rec);
    sq_buf_free(&why);
    sq_suite_free(&s);
    sq_profile_free(&prof);
    free(dir);
    return 0;
}

/* ------------------------------------------------------------------ */
/* The summary                                                         */
/* ------------------------------------------------------------------ */

static void tally_record(Tally *t, const char *rec, size_t n) {
    SqArena *a = sq_arena_new();
    const SqJson *doc = sq_json_parse(a, rec, n, NULL);
    const char *status = sq_json_string(sq_json_get(doc, "status"));
    t->questions++;
    if (!status || strcmp(status, "failed") == 0) {
        t->failed++;
        sq_arena_free(a);
        return;
    }
    for (int s = 0; s < 3; s++)
        if (strcmp(status, sq_suite_status_name((SqSuiteStatus)s)) == 0) t->by_status[s]++;
    const SqJson *w = sq_json_get(doc, "witness");
    const char *ws = sq_json_string(sq_json_get(w, "status"));
    if (ws && strcmp(ws, "empty") == 0) t->empty_gold++;
    const SqJson *c = sq_json_get(doc, "counts");
    for (int f = 0; f < SQ_MUTANT__COUNT; f++) {
        const SqJson *v = sq_json_get(c, sq_mutant_fate_name((SqMutantFate)f));
        if (v && v->kind == SQ_JSON_NUMBER) t->fates[f] += (size_t)v->num;
    }
    const SqJson *sec = sq_json_get(doc, "seconds");
    if (sec && sec->kind == SQ_JSON_NUMBER) {
        t->seconds = sq_realloc(t->seconds, (t->n_seconds + 1) * sizeof *t->seconds);
        t->seconds[t->n_seconds++] = sec->num;
    }
    const SqJson *d = sq_json_get(c, "databases");
    if (status && strcmp(status, "ok") == 0 && d && d->kind == SQ_JSON_NUMBER) {
        t->n_dbs = sq_realloc(t->n_dbs, (t->n_suites + 1) * sizeof *t->n_dbs);
        t->n_dbs[t->n_suites++] = (uint32_t)d->num;
        t->dbs += (size_t)d->num;
    }
    sq_arena_free(a);
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static double pct(size_t a, size_t b) { return b ? 100.0 * (double)a / (double)b : 0; }

static void summary(FixRun *r, SqBuf *out) {
    Tally *t = &r->tally;
    if (t->n_seconds) qsort(t->seconds, t->n_seconds, sizeof *t->seconds, cmp_double);
    if (t->n_suites) qsort(t->n_dbs, t->n_suites, sizeof *t->n_dbs, cmp_u32);
    double median = t->n_seconds ? t->seconds[t->n_seconds / 2] : 0;
    double p95 = t->n_seconds ? t->seconds[(t->n_seconds * 95) / 100 < t->n_seconds ? (t->n_seconds * 95) / 100 : t->n_seconds - 1] : 0;
    size_t mutants = 0;
    for (int f = 0; f < SQ_MUTANT__COUNT; f++) mutants += t->fates[f];
    size_t counted = mutants - t->fates[SQ_MUTANT_INVALID];
    if (r->json) {
        SqJsonWriter w;
        sq_jw_init(&w, out, 1);
        sq_jw_obj_begin(&w);
        sq_jw_key(&w, "questions");
        sq_jw_int(&w, (int64_t)t->questions);
        for (int s = 0; s < 3; s++) {
            sq_jw_key(&w, sq_suite_status_name((SqSuiteStatus)s));
            sq_jw_int(&w, (int64_t)t->by_status[s]);
        }
        sq_jw_key(&w, "failed");
        sq_jw_int(&w, (int64_t)t->failed);
        sq_jw_key(&w, "gold_empty");
        sq_jw_int(&w, (int64_t)t->empty_gold);
        sq_jw_key(&w, "success_rate");
        sq_jw_double(&w, pct(t->by_status[SQ_SUITE_OK], t->questions));
        for (int f = 0; f < SQ_MUTANT__COUNT; f++) {
            sq_jw_key(&w, sq_mutant_fate_name((SqMutantFate)f));
            sq_jw_int(&w, (int64_t)t->fates[f]);
        }
        sq_jw_key(&w, "databases");
        sq_jw_int(&w, (int64_t)t->dbs);
        sq_jw_key(&w, "median_seconds");
        sq_jw_double(&w, median);
        sq_jw_key(&w, "p95_seconds");
        sq_jw_double(&w, p95);
        sq_jw_obj_end(&w);
        sq_buf_putc(out, '\n');
        return;
    }
    sq_buf_printf(out, "questions      %zu\n", t->questions);
    sq_buf_printf(out, "  suite        %zu (%.1f%%: a witness on which the gold returns rows)\n",
                  t->by_status[SQ_SUITE_OK], pct(t->by_status[SQ_SUITE_OK], t->questions));
    sq_buf_printf(out, "  no witness   %zu (of which the gold is empty on every database: %zu)\n",
                  t->by_status[SQ_SUITE_NO_WITNESS], t->empty_gold);
    sq_buf_printf(out, "  not loaded   %zu\n  failed       %zu\n", t->by_status[SQ_SUITE_NOT_LOADED], t->failed);
    sq_buf_printf(out, "mutants        %zu (invalid %zu, not counted)\n", mutants, t->fates[SQ_MUTANT_INVALID]);
    sq_buf_printf(out, "  killed       %zu (%.1f%%)\n  equivalent   %zu (%.1f%%)\n  unknown      %zu (%.1f%%)\n",
                  t->fates[SQ_MUTANT_KILLED], pct(t->fates[SQ_MUTANT_KILLED], counted),
                  t->fates[SQ_MUTANT_EQUIVALENT], pct(t->fates[SQ_MUTANT_EQUIVALENT], counted),
                  t->fates[SQ_MUTANT_UNKNOWN], pct(t->fates[SQ_MUTANT_UNKNOWN], counted));
    sq_buf_printf(out, "databases      %zu (per suite: median %u, max %u)\n", t->dbs,
                  t->n_suites ? t->n_dbs[t->n_suites / 2] : 0, t->n_suites ? t->n_dbs[t->n_suites - 1] : 0);
    sq_buf_printf(out, "seconds        median %.2f, p95 %.2f per question\n", median, p95);
}

/* ------------------------------------------------------------------ */
/* The command                                                         */
/* ------------------------------------------------------------------ */

/* In the parent: a question ended. */
static int question_done(void *ctx, size_t k, SqTaskEnd end, int detail, const char *out, size_t n) {
    FixRun *r = ctx;
    if (end == SQ_TASK_CRASHED && detail == SIGSEGV && !r->second_try) {
        r->again[r->n_again++] = k; /* no record yet: it runs again */
        return 0;
    }
    SqBuf rec = SQ_BUF_INIT;
    if (end == SQ_TASK_OK && n && out[n - 1] == '\n') {
        sq_buf_put(&rec, out, n);
    } else {
        char why[96];
        if (end == SQ_TASK_TIMEOUT) snprintf(why, sizeof why, "the question's process ran out of time");
        else if (end == SQ_TASK_CRASHED) snprintf(why, sizeof why, "the question's process was killed by signal %d", detail);
        else snprintf(why, sizeof why, "the question's process ended with %s (%d)", sq_task_end_name(end), detail);
        failed_record(r, k, why, &rec);
    }
    int rc = 0;
    if (fixture_out_append(&r->out, rec.data, rec.len) < 0) {
        fprintf(stderr, "squint fixture: cannot write '%s': %s\n", r->out.records, strerror(errno));
        rc = -1;
    }
    tally_record(&r->tally, rec.data, rec.len);
    sq_buf_free(&rec);
    r->prog.n_done++;
    char brief[96];
    snprintf(brief, sizeof brief, "%zu suites, %zu killed", r->tally.by_status[SQ_SUITE_OK],
             r->tally.fates[SQ_MUTANT_KILLED]);
    cli_progress(&r->prog, 0, brief);
    return rc;
}

/* --show: the records file read again (every record, old and new). */
static void show_suites(FixRun *r, SqBuf *out) {
    size_t len, n = 0, cap = 0;
    int err;
    char *text = sq_read_file(r->out.records, &len, &err);
    SqEvalLine *lines = NULL;
    if (text) sq_eval_split_lines(text, len, &lines, &n, &cap);
    fixture_show(r->out.dir, lines, n, r->show, out);
    free(lines);
    free(text);
}

/* Load every schema in the parent, before the children fork. */
static int load_schemas(FixRun *r) {
    for (uint32_t k = 0; k < r->gold.n_items; k++)
        cli_schema_resolve(&r->schema, r->gold.items[k].db_id, r->gold.items[k].db_id_span);
    return r->schema.n_failures ? -1 : 0;
}

static int run(FixRun *r) {
    if (cli_schema_start(&r->schema, &r->srcs, r->names, &r->diags) < 0) return SQ_EXIT_USAGE;
    int bad = read_gold(r) < 0 || load_schemas(r) < 0;
    cli_print_diags_text(&r->diags, 0, cli_stderr_color_default());
    if (bad) return SQ_EXIT_USAGE;
    question_keys(r);
    run_options(r);
    r->out.options = sq_buf_str(&r->options);
    r->out.digests = r->digests;
    r->out.n_items = r->gold.n_items;
    if (fixture_out_open(&r->out) < 0) return SQ_EXIT_USAGE;
    for (size_t k = 0; k < r->out.n_lines; k++) tally_record(&r->tally, r->out.lines[k].text, r->out.lines[k].n);
    size_t n = r->limit && r->limit < r->gold.n_items ? r->limit : r->gold.n_items;
    size_t *todo = sq_calloc(n + 1, sizeof *todo);
    for (size_t k = 0; k < n; k++)
        if (!r->out.done[k]) todo[r->prog.n_todo++] = k;
    cli_progress_start(&r->prog);
    r->again = sq_calloc(r->prog.n_todo + 1, sizeof *r->again);
    int rc = sq_pool_run(&r->pool, todo, r->prog.n_todo, run_question, question_done, r) < 0 ? SQ_EXIT_USAGE
                                                                                              : SQ_EXIT_OK;
    if (rc == SQ_EXIT_OK && r->n_again) {
        /* z3 4.8.12 crashes inside some incremental checks (docs/soundness.md):
        ** those questions once more, a model's refinement on fresh solvers */
        r->second_try = 1;
        r->opt.equiv.fresh_shrink = r->opt.witness.fresh_shrink = 1;
        rc = sq_pool_run(&r->pool, r->again, r->n_again, run_question, question_done, r) < 0 ? SQ_EXIT_USAGE
                                                                                             : SQ_EXIT_OK;
    }
    free(r->again);
    if (r->prog.n_todo) cli_progress(&r->prog, 1, "done");
    free(todo);
    SqBuf out = SQ_BUF_INIT;
    summary(r, &out);
    if (r->show && !r->json) show_suites(r, &out);
    cli_flush(&out, stdout);
    sq_buf_free(&out);
    return rc;
}

/* Whether argv asks for the --llm mode (before a "--"). */
static int wants_llm(int argc, char **argv) {
    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
        if (strcmp(argv[i], "--llm") == 0) return 1;
    return 0;
}

int cmd_fixture(int argc, char **argv) {
    if (wants_llm(argc, argv)) return fixture_llm(argc, argv);
    FixRun r;
    memset(&r, 0, sizeof r);
    r.arena = sq_arena_new();
    r.names = sq_interner_new();
    sq_srcset_init(&r.srcs);
    sq_diags_init(&r.diags, &r.srcs);
    cli_schema_init(&r.schema, "fixture");
    r.opt = sq_suite_options_default();
    r.opt.bind = sq_db_bind_options();
    r.pool.jobs = 1;
    r.pool.task_timeout = 300;
    r.pool.mem_limit = (uint64_t)4096 << 20;
    r.prog.cmd = "fixture";
    r.prog.unit = "questions";
    r.out.fd = -1;
    int rc = read_options(&r, argc, argv);
    if (rc < 0) rc = run(&r);
    fixture_out_close(&r.out);
    free(r.tally.seconds);
    free(r.tally.n_dbs);
    sq_buf_free(&r.options);
    cli_schema_free(&r.schema);
    sq_diags_free(&r.diags);
    sq_srcset_free(&r.srcs);
    sq_interner_free(r.names);
    sq_arena_free(r.arena);
    return rc;
}
