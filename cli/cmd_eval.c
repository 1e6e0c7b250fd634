/*
** cmd_eval.c -- `squint eval`: execution accuracy as the official scripts
** compute it (EX-test), verified by counterexample search (EX-verified)
** and cross-checked between systems, over a whole benchmark.
**
** Layer: cli.  Reads the gold file and one prediction file per system
** (frontend/bench_input.h), pairs them item by item, and runs each item
** in a child process (runtime/pool.h) that evaluates it for every system
** (backend/eval/item.h) and answers with one JSON record.  The parent
** appends each record to --out as it arrives (and fsyncs), so a run that
** is killed loses no finished item; a rerun with the same --out skips the
** items already there, once eval_out.h has made sure the file is a
** records file and each record fits this run (its options, and the
** digest of its item's inputs).  The summary is computed from the
** records (backend/eval/record.h), old and new alike.
*/
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/eval/hardness.h"
#include "backend/eval/item.h"
#include "grammar/parse.h"
#include "frontend/bench_input.h"
#include "backend/eval/record.h"
#include "runtime/json.h"
#include "runtime/pool.h"
#include "runtime/util.h"
#include "backend/lint/lint_config.h"
#include "cli/cli_config.h"
#include "cli/cli_schema.h"
#include "cli/cli_walk.h"
#include "runtime/sha256.h"
#include "cli/eval_out.h"
#include "cli/eval_report.h"
#include "cli/eval_summary.h"
#include "cli/fixture_out.h"

static const char usage_head[] =
    "usage: squint eval --gold FILE --pred [NAME=]FILE ... [options] SCHEMA-OPTION\n"
    "\n"
    "Score predictions against gold queries: EX-test runs both on the item's\n"
    "database as the official script does; EX-verified also asks squint equiv\n"
    "for a database on which they differ.  One record per item goes to --out.\n"
    "\n"
    "options:\n"
    "      --gold FILE        gold queries: Spider or BIRD dev.json, or SQL<TAB>db_id\n"
    "                         lines (dev_gold.sql)\n"
    "      --pred [NAME=]FILE predictions of one system, one per gold item: a SQL\n"
    "                         per line, or BIRD's predict_dev.json; repeat for more\n"
    "                         systems (NAME defaults to the file's base name)\n"
    "      --semantics S      spider (bag, any column order, ordered when the gold\n"
    "                         has ORDER BY, DISTINCT deleted) or bird (set of\n"
    "                         rows); default: bird for a BIRD gold file, else spider\n"
    "      --keep-distinct    spider: do not delete DISTINCT\n"
    "      --timeout S        seconds per query run (default 30; 0: none)\n"
    "      --no-verify        EX-test only: no counterexample search\n"
    "      --cross-check      run each counterexample found on the other systems\n"
    "      --no-kinds         do not tag counterexamples with their kinds (what\n"
    "                         they rely on that the item's database never shows)\n"
    "      --profile-cache DIR  where the databases' column profiles are kept\n"
    "                         between runs (squint equiv --profile-cache)\n"
    "      --metadata FILE    profile the columns from BIRD's dev_metadata.json\n"
    "                         (each item's db_id), not from the databases\n"
    "      --realistic        also search each refuted pair again on data like the\n"
    "                         item's database (its profile; squint equiv\n"
    "                         --realistic): EX-verified realistic, beside\n"
    "                         EX-verified; needs --db-root, --db or --metadata\n"
    "      --lint             run the gold linter on every gold query and put its\n"
    "                         findings in the records, the summary and the report\n"
    "      --bound K          rows per table for the search (default 3)\n"
    "      --verify-timeout S seconds per search (default 10; 0: none)\n"
    "      --values V         what a column may hold in the search: any (default),\n"
    "                         every storage class its affinity allows; typed,\n"
    "                         its declared class only (squint equiv --values)\n"
    "      --rlimit N         z3's resource units per search (default 0: none):\n"
    "                         with --verify-timeout 0, verdicts that do not\n"
    "                         depend on how loaded the machine is\n"
    "  -j, --jobs N           items evaluated at once, each in its own process\n"
    "                         (default 1)\n"
    "      --item-timeout S   seconds per item's process, then it is killed and\n"
    "                         the item recorded as failed (default: twice the\n"
    "                         query and search limits of all systems, plus 30 s;\n"
    "                         no limit when --timeout or --verify-timeout is 0;\n"
    "                         0: none)\n"
    "      --mem-limit MB     address space per item's process (default 4096; 0:\n"
    "                         none)\n"
    "      --out FILE         append one JSON record per item to FILE; items\n"
    "                         already there are not run again (resume).  Only a\n"
    "                         records file of squint eval is appended to, and\n"
    "                         only when its records fit this run's options and\n"
    "                         inputs\n"
    "      --rerun-changed    evaluate again the items whose records in --out do\n"
    "                         not fit (other options, a changed gold or\n"
    "                         prediction); their new records count instead\n"
    "      --limit N          only the first N items\n"
    "      --shard I/N        only the items whose position is I modulo N (0 <= I < N)\n"
    "      --suite DIR        also score on the test suites squint fixture wrote\n"
    "                         to DIR (EX-suite: correct on every database of the\n"
    "                         item's suite, and not rejected by EX-test)\n"
    "      --report FILE      write a self-contained HTML report to FILE: the\n"
    "                         summary, a chart and every disagreement with its\n"
    "                         counterexample\n"
    "      --show N           after the summary, print N of this run's items that\n"
    "                         EX-test accepts but a counterexample refutes, with\n"
    "                         the counterexample (default 0)\n"
    "      --ves N            bird: time each correct prediction and its gold N\n"
    "                         times (the scripts run 100) for BIRD's VES and\n"
    "                         Mini-Dev's R-VES; timings, so not reproducible\n"
    "      --plug-value       spider: a prediction EX-test rejects is tried again\n"
    "                         with the gold's values plugged into its value slots,\n"
    "                         every way (the official script's --plug_value)\n"
    "      --em TABLES        spider: also score Spider's exact set match (EM)\n"
    "                         and its component scores as the official\n"
    "                         evaluation.py --etype match does, with the foreign\n"
    "                         keys of TABLES (Spider's tables.json); needs the\n"
    "                         databases\n"
    "      --fail-under [SYSTEM:]METRIC=PERCENT\n"
    "                         exit 1 when a system's accuracy is under PERCENT:\n"
    "                         METRIC is ex (EX-test), ex-verified, ex-cross or\n"
    "                         soft-f1, ves or r-ves (BIRD's, under --semantics\n"
    "                         bird); em (Spider's exact set match, with --em);\n"
    "                         every system's, or SYSTEM's; repeatable\n"
    "  -f, --format FMT       summary as text (default) or json\n"
    "  -q, --quiet            no progress lines on standard error\n"
    "  -h, --help             show this help\n"
    "      --version          print the version and exit\n";

static const char usage_tail[] =
    "\n"
    "--db-root DIR gives the databases (DIR/ID/ID.sqlite) and their schemas, --db\n"
    "FILE one database (or SQL script) for every item;\n"
    "--tables FILE alone gives schemas only: EX-test cannot run, only the search.\n"
    "\n"
    "exit status: 0 the run finished, 1 a --fail-under gate is not reached, 2\n"
    "usage or input error.  Without --fail-under, 0 whatever the verdicts:\n"
    "every item has its record (an item whose process crashed or ran\n"
    "out of time is recorded as failed).  2: an unreadable, empty or malformed\n"
    "input, an --out file that is not squint's records or whose records do not\n"
    "fit this run, an output that names an input or cannot be written.  A\n"
    "search that fails (z3 aborts, crashes) costs only its verdict: its own\n"
    "process ends, the run goes on.\n"
    CLI_EXIT_OOM;

const CliOpt cli_opts_eval[] = {
    {"gold", 0, 1},       {"pred", 0, 1},       {"semantics", 0, 1},      {"keep-distinct", 0, 0},
    {"timeout", 0, 1},    {"no-verify", 0, 0},  {"cross-check", 0, 0},    {"lint", 0, 0}, {"no-kinds", 0, 0}, {"profile-cache", 0, 1}, {"metadata", 0, 1}, {"realistic", 0, 0},    {"bound", 0, 1},
    {"verify-timeout", 0, 1}, {"rlimit", 0, 1}, {"values", 0, 1}, {"jobs", 'j', 1}, {"mem-limit", 0, 1},      {"out", 0, 1},
    {"item-timeout", 0, 1},   {"rerun-changed", 0, 0},
    {"limit", 0, 1},      {"shard", 0, 1},      {"ves", 0, 1}, {"em", 0, 1}, {"plug-value", 0, 0}, {"fail-under", 0, 1}, {"show", 0, 1},       {"suite", 0, 1},       {"report", 0, 1},      {"format", 'f', 1},       {"quiet", 'q', 0},
    {"help", 'h', 0},     CLI_SCHEMA_OPTIONS,   {NULL, 0, 0}};

/* One system: its name and prediction file. */
typedef struct System {
    const char *name;
    const char *path;
    SqBench bench;
    const SqBenchItem **by_item; /* per gold item, or NULL */
} System;

typedef struct EvalRun {
    CliSchema schema;
    const char *db_root;
    SqSrcSet srcs;
    SqDiags diags;
    SqInterner *names;
    SqArena *arena;
    const char *gold_path;
    SqBench gold;
    System *sys;
    uint32_t n_sys, cap_sys;
    const char **sys_names;
    EvalItemInputs *inputs;      /* per gold item: what its record is
                                    computed from */
    const char **hardness;       /* per gold item: Spider's level when the
                                    file gives no difficulty (else NULL) */
    int semantics_given;
    SqEvalConfig cfg;
    SqPoolOptions pool;
    const char *out_path;
    int out_fd;
    int rerun_changed;           /* --rerun-changed */
    double item_timeout;         /* --item-timeout; -1: the default */
    SqBuf options;               /* the options that change a record, as
                                    a JSON object (every record's) */
    const char *data_source;     /* "--db-root /abs/dir", "--db /abs/file" or NULL */
    const char *schema_source;   /* the schema option and its file, or NULL */
    size_t limit, shard_i, shard_n;
    size_t show;                 /* --show: disagreements still to print */
    EvalGate *gates;             /* --fail-under */
    uint32_t n_gates, cap_gates;
    SqBuf shown;                 /* their text, printed after the summary */
    const char *report_path;     /* --report */
    const char *suite_dir;       /* --suite */
    const char *em_path;         /* --em: Spider's tables.json */
    const char ***suite_dbs;     /* per gold item: its suite's files */
    size_t *n_suite_dbs;
    EvalReport report;           /* every record, for it */
    int json, quiet, color;
    /* progress and results */
    EvalSummary sum;
    CliProgress prog;
} EvalRun;

static int bad_value(const char *opt, const char *what) {
    fprintf(stderr, "squint eval: %s takes %s\n", opt, what);
    return SQ_EXIT_USAGE;
}

/* --pred [NAME=]FILE: the name is the file's base name without extension
** unless given. */
static int add_system(EvalRun *r, const char *val) {
    const char *eq = strchr(val, '='), *path = val;
    char *name;
    if (eq && eq > val && !memchr(val, '/', (size_t)(eq - val))) {
        name = sq_arena_strndup(r->arena, val, (size_t)(eq - val));
        path = eq + 1;
    } else {
        const char *base = strrchr(val, '/');
        base = base ? base + 1 : val;
        const char *dot = strrchr(base, '.');
        name = sq_arena_strndup(r->arena, base, dot && dot > base ? (size_t)(dot - base) : strlen(base));
    }
    for (size_t k = 0; k < r->n_sys; k++)
        if (strcmp(r->sys[k].name, name) == 0) {
            fprintf(stderr, "squint eval: two systems are named '%s'; name them with --pred NAME=FILE\n", name);
            return SQ_EXIT_USAGE;
        }
    System *s = SQ_ARENA_APPEND(r->arena, r->sys, r->n_sys, r->cap_sys);
    memset(s, 0, sizeof *s);
    s->name = name;
    s->path = path;
    return -1;
}

static int own_option(EvalRun *r, const char *name, const char *val) {
    long n;
    int rc = -1;
    if (strcmp(name, "help") == 0) {
        cli_schema_usage(stdout, usage_head, usage_tail);
        cli_help_common(stdout, cli_opts_eval, 0);
        return SQ_EXIT_OK;
    }
    if (strcmp(name, "gold") == 0) r->gold_path = val;
    else if (strcmp(name, "pred") == 0) rc = add_system(r, val);
    else if (strcmp(name, "semantics") == 0) {
        if (strcmp(val, "spider") == 0) r->cfg.ex.metric = SQ_METRIC_SPIDER;
        else if (strcmp(val, "bird") == 0) r->cfg.ex.metric = SQ_METRIC_BIRD;
        else return bad_value("--semantics", "spider or bird");
        r->semantics_given = 1;
    } else if (strcmp(name, "keep-distinct") == 0) r->cfg.ex.keep_distinct = 1;
    else if (strcmp(name, "plug-value") == 0) r->cfg.ex.plug_value = 1;
    else if (strcmp(name, "timeout") == 0) rc = cli_parse_seconds("eval", "--timeout", val, &r->cfg.ex.timeout);
    else if (strcmp(name, "no-verify") == 0) r->cfg.verify = 0;
    else if (strcmp(name, "cross-check") == 0) r->cfg.cross_check = 1;
    else if (strcmp(name, "no-kinds") == 0) r->cfg.kinds = 0;
    else if (strcmp(name, "profile-cache") == 0) r->cfg.profile_cache = val;
    else if (strcmp(name, "metadata") == 0) r->cfg.metadata = val;
    else if (strcmp(name, "realistic") == 0) r->cfg.realistic = 1;
    else if (strcmp(name, "lint") == 0) r->cfg.lint = 1;
    else if (strcmp(name, "bound") == 0) {
        if ((rc = cli_parse_count("eval", "--bound", val, 1, 16, &n)) < 0) r->cfg.equiv.bound = (int)n;
    } else if (strcmp(name, "verify-timeout") == 0) rc = cli_parse_seconds("eval", "--verify-timeout", val, &r->cfg.equiv.timeout);
    else if (strcmp(name, "item-timeout") == 0) rc = cli_parse_seconds("eval", "--item-timeout", val, &r->item_timeout);
    else if (strcmp(name, "rlimit") == 0) {
        if ((rc = cli_parse_count("eval", "--rlimit", val, 0, LONG_MAX, &n)) < 0) r->cfg.equiv.rlimit = (uint64_t)n;
    } else if (strcmp(name, "values") == 0) {
        if (strcmp(val, "any") == 0 || strcmp(val, "typed") == 0) r->cfg.equiv.typed_values = val[0] == 't';
        else rc = bad_value("--values", "any or typed");
    }
    else if (strcmp(name, "rerun-changed") == 0) r->rerun_changed = 1;
    else if (strcmp(name, "jobs") == 0) {
        if ((rc = cli_parse_count("eval", "--jobs", val, 1, 256, &n)) < 0) r->pool.jobs = (unsigned)n;
    } else if (strcmp(name, "mem-limit") == 0) {
        if ((rc = cli_parse_count("eval", "--mem-limit", val, 0, 1L << 30, &n)) < 0) r->pool.mem_limit = (uint64_t)n << 20;
    } else if (strcmp(name, "out") == 0) r->out_path = val;
    else if (strcmp(name, "limit") == 0) {
        if ((rc = cli_parse_count("eval", "--limit", val, 1, LONG_MAX, &n)) < 0) r->limit = (size_t)n;
    } else if (strcmp(name, "suite") == 0) {
        r->suite_dir = val;
    } else if (strcmp(name, "report") == 0) {
        r->report_path = val;
    } else if (strcmp(name, "ves") == 0) {
        if ((rc = cli_parse_count("eval", "--ves", val, 1, 10000, &n)) < 0) r->cfg.ves_runs = (int)n;
    } else if (strcmp(name, "em") == 0) {
        r->em_path = val;
    } else if (strcmp(name, "fail-under") == 0) {
        const char *why;
        EvalGate *g = SQ_ARENA_APPEND(r->arena, r->gates, r->n_gates, r->cap_gates);
        if (eval_gate_parse(val, g, &why) < 0) {
            fprintf(stderr, "squint eval: --fail-under %s\n", why);
            return cli_usage_hint("eval");
        }
    } else if (strcmp(name, "show") == 0) {
        if ((rc = cli_parse_count("eval", "--show", val, 0, LONG_MAX, &n)) < 0) r->show = (size_t)n;
    } else if (strcmp(name, "shard") == 0) {
        unsigned long i, k;
        int used = 0;
        if (sscanf(val, "%lu/%lu%n", &i, &k, &used) != 2 || val[used] || k == 0 || i >= k)
            return bad_value("--shard", "I/N with 0 <= I < N");
        r->shard_i = i;
        r->shard_n = k;
    } else if (strcmp(name, "format") == 0) {
        SqFormat f;
        if (!cli_parse_format("eval", val, CLI_TEXT_OR_JSON, &f)) return SQ_EXIT_USAGE;
        r->json = f == SQ_FMT_JSON;
    } else if (strcmp(name, "quiet") == 0) r->quiet = r->prog.quiet = 1;
    return rc;
}

/* --lint: the project file's lint settings (cli_config.h), as squint
** lint would apply them to the gold file.  0, or -1 after messages. */
static int lint_settings(EvalRun *r) {
    SqLintFile *f = sq_arena_alloc(r->arena, sizeof *f);
    size_t first = r->diags.n;
    int has = cli_config_lint(r->arena, &r->srcs, &r->diags, f);
    if (has < 0) {
        cli_print_diags_text(&r->diags, first, r->color);
        return -1;
    }
    if (!has) return 0;
    sq_lint_file_apply(f, &r->cfg.lint_rules);
    r->cfg.lint_threshold = f->threshold >= 0 ? f->threshold : SQ_SEV_INFO;
    r->cfg.lint_file = f;
    char *abs = realpath(r->gold_path, NULL);
    r->cfg.lint_gold_path = sq_arena_strdup(r->arena, abs ? abs : r->gold_path);
    free(abs);
    return 0;
}

/* Whether the run has databases to run queries on (EX-test, Soft-F1, VES). */
static int has_data(const EvalRun *r) { return r->db_root || r->schema.kind == CLI_SCHEMA_DB; }

/* Each --fail-under gate names a system of the run (or none) and a
** metric the run computes: EX-test needs data, EX-verified the search,
** ex-cross the cross-check.  0, or -1 after a message. */
static int gates_need(const EvalRun *r) {
    for (size_t i = 0; i < r->n_gates; i++) {
        const EvalGate *g = &r->gates[i];
        size_t k = 0;
        while (g->system && k < r->n_sys &&
               (strlen(r->sys[k].name) != g->system_len || strncmp(r->sys[k].name, g->system, g->system_len)))
            k++;
        if (g->system && k == r->n_sys) {
            fprintf(stderr, "squint eval: --fail-under %s: no --pred is named '%.*s'\n", g->text, (int)g->system_len,
                    g->system);
            return -1;
        }
        EvalMetric m = g->metric;
        const char *lacks = (m == EVAL_METRIC_EX || m == EVAL_METRIC_SOFT_F1) && !has_data(r)
                                ? "EX-test and Soft-F1 need the databases (--db-root or --db)"
                            : m == EVAL_METRIC_SOFT_F1 && r->cfg.ex.metric != SQ_METRIC_BIRD
                                ? "Soft-F1 is BIRD's: --semantics bird"
                            : (m == EVAL_METRIC_VES || m == EVAL_METRIC_RVES) && !r->cfg.ves_runs
                                ? "VES and R-VES need --ves N"
                            : (m == EVAL_METRIC_VERIFIED || m == EVAL_METRIC_CROSS) && !r->cfg.verify
                                ? "--no-verify runs no search"
                            : m == EVAL_METRIC_CROSS && !r->cfg.cross_check ? "ex-cross needs --cross-check"
                            : m == EVAL_METRIC_EM && !r->em_path            ? "EM needs --em TABLES"
                                                                            : NULL;
        if (lacks) {
            fprintf(stderr, "squint eval: --fail-under %s: this run cannot tell (%s)\n", r->gates[i].text, lacks);
            return -1;
        }
    }
    return 0;
}

static int read_options(EvalRun *r, int argc, char **argv) {
    CliArgs a;
    cli_args_init(&a, argc, argv, "eval");
    const char *name, *val;
    while ((name = cli_next_opt(&a, cli_opts_eval, &val)) != NULL) {
        if (strcmp(name, "?") == 0) return SQ_EXIT_USAGE;
        if (strcmp(name, "db-root") == 0 && !r->db_root) {
            r->db_root = val; /* the data; the schema too unless --tables */
            continue;
        }
        int handled = cli_schema_option(&r->schema, name, val);
        if (handled < 0) return SQ_EXIT_USAGE;
        if (handled) continue;
        int rc = own_option(r, name, val);
        if (rc >= 0) return rc;
    }
    if (a.i < argc) {
        fprintf(stderr, "squint eval: unexpected operand '%s' (inputs are given with --gold and --pred)\n",
                argv[a.i]);
        return SQ_EXIT_USAGE;
    }
    if (!r->gold_path || !r->n_sys) {
        fprintf(stderr, "squint eval: --gold FILE and at least one --pred FILE are needed\n");
        return cli_usage_hint("eval");
    }
    if (r->cfg.lint && lint_settings(r) < 0) return SQ_EXIT_USAGE;
    if (gates_need(r) < 0) return cli_usage_hint("eval");
    if (r->em_path && !has_data(r)) {
        fputs("squint eval: --em reads each item's table and column names from its database, as Spider's "
              "script does: it needs --db-root or --db\n", stderr);
        return cli_usage_hint("eval");
    }
    if (r->cfg.ves_runs && (r->cfg.ex.metric != SQ_METRIC_BIRD || !has_data(r))) {
        fputs("squint eval: --ves times BIRD's metric on the databases: it needs --semantics bird and --db-root "
              "or --db\n", stderr);
        return cli_usage_hint("eval");
    }
    if (r->db_root && !cli_schema_given(&r->schema) && cli_schema_option(&r->schema, "db-root", r->db_root) < 0)
        return SQ_EXIT_USAGE;
    if (!r->db_root && !cli_schema_given(&r->schema)) {
        fprintf(stderr, "squint eval: give the databases (--db-root DIR) or the schemas (--tables FILE)\n");
        return SQ_EXIT_USAGE;
    }
    if (r->cfg.realistic && !r->cfg.verify) {
        fprintf(stderr, "squint eval: --realistic searches again what verification refutes: not with --no-verify\n");
        return SQ_EXIT_USAGE;
    }
    if (r->cfg.realistic && !r->cfg.metadata && !r->db_root && r->schema.kind != CLI_SCHEMA_DB) {
        fprintf(stderr, "squint eval: --realistic needs the real data to profile: --db-root DIR, --db FILE or "
                        "--metadata FILE\n");
        return SQ_EXIT_USAGE;
    }
    return -1;
}

/* ------------------------------------------------------------------ */
/* Inputs                                                              */
/* ------------------------------------------------------------------ */

static int read_bench(EvalRun *r, const char *path, SqInputFormat fmt, SqBench *b) {
    int err;
    SqSrc *src = sq_src_add_file(&r->srcs, path, &err);
    if (!src) {
        cli_io_error("eval", path, err);
        return -1;
    }
    size_t before = r->diags.n_errors;
    if (sq_bench_read(b, r->arena, &r->srcs, src, fmt, &r->diags) < 0) return -1;
    return r->diags.n_errors > before ? -1 : 0;
}

/* Pair each gold item with the system's prediction: by question_id when
** both files have them, else by position (then the counts must agree). */
static int pair_system(EvalRun *r, System *s) {
    s->by_item = sq_arena_alloc(r->arena, (r->gold.n_items + 1) * sizeof *s->by_item);
    memset(s->by_item, 0, (r->gold.n_items + 1) * sizeof *s->by_item);
    int by_qid = r->gold.n_items && r->gold.items[0].qid >= 0 && s->bench.n_items && s->bench.items[0].qid >= 0;
    if (!by_qid && s->bench.n_items != r->gold.n_items) {
        fprintf(stderr, "squint eval: %s has %u predictions for the %u items of %s\n", s->path, s->bench.n_items,
                r->gold.n_items, r->gold_path);
        return -1;
    }
    for (uint32_t k = 0; k < r->gold.n_items; k++) {
        if (!by_qid) {
            s->by_item[k] = &s->bench.items[k];
            continue;
        }
        for (uint32_t j = 0; j < s->bench.n_items && !s->by_item[k]; j++)
            if (s->bench.items[j].qid == r->gold.items[k].qid) s->by_item[k] = &s->bench.items[j];
    }
    return 0;
}

/* Spider's difficulty of each gold query the file gives none for, as the
** official script computes it (backend/eval/hardness.h). */
static void spider_hardness(EvalRun *r) {
    r->hardness = sq_arena_alloc(r->arena, (r->gold.n_items + 1) * sizeof *r->hardness);
    for (uint32_t k = 0; k < r->gold.n_items; k++) {
        const SqBenchItem *g = &r->gold.items[k];
        r->hardness[k] = NULL;
        if (g->difficulty || !g->sql) continue;
        SqDiags quiet;
        sq_diags_init(&quiet, &r->srcs);
        AstStmtList list = {0};
        sq_parse_all(g->sql, r->names, &quiet, r->arena, &list);
        if (list.n) r->hardness[k] = sq_spider_hardness(list.items[0]);
        sq_diags_free(&quiet);
    }
}

/* Whether the text holds nothing but blanks (and a byte order mark). */
static int is_blank_text(const char *s, size_t n) {
    size_t k = n >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    while (k < n && (s[k] == ' ' || s[k] == '\t' || s[k] == '\n' || s[k] == '\r')) k++;
    return k == n;
}

/* A gold file must give items to score: an empty one is said to be. */
static int check_gold(EvalRun *r) {
    const SqSrc *f = r->gold.file;
    if (f && is_blank_text(f->text, f->len)) {
        fprintf(stderr, "squint eval: the gold file '%s' is empty: there are no items to score\n", r->gold_path);
        return -1;
    }
    if (r->gold.n_items == 0) {
        fprintf(stderr, "squint eval: the gold file '%s' has no items to score\n", r->gold_path);
        return -1;
    }
    return 0;
}

static void free_em_keys(void *k) { sq_em_keys_free(k); }

/* --em: Spider's metric, with the foreign keys of its tables.json. */
static int load_em_keys(EvalRun *r) {
    if (r->cfg.ex.metric != SQ_METRIC_SPIDER) {
        fputs("squint eval: --em is Spider's exact set match: it needs --semantics spider\n", stderr);
        return -1;
    }
    char err[300];
    SqEmKeys *k = sq_em_keys_load(r->em_path, err, sizeof err);
    if (!k) {
        fprintf(stderr, "squint eval: --em %s\n", err);
        return -1;
    }
    sq_arena_defer(r->arena, free_em_keys, k);
    r->cfg.em_keys = k;
    return 0;
}

static int read_inputs(EvalRun *r) {
    if (read_bench(r, r->gold_path, SQ_INPUT_AUTO, &r->gold) < 0 || check_gold(r) < 0) return -1;
    if (r->gold.format != SQ_INPUT_BIRD) spider_hardness(r);
    if (!r->semantics_given) r->cfg.ex.metric = r->gold.format == SQ_INPUT_BIRD ? SQ_METRIC_BIRD : SQ_METRIC_SPIDER;
    if (r->em_path && load_em_keys(r) < 0) return -1;
    if (r->cfg.ex.plug_value && r->cfg.ex.metric != SQ_METRIC_SPIDER) {
        fputs("squint eval: --plug-value is the Spider script's: it needs --semantics spider\n", stderr);
        return -1;
    }
    r->sys_names = sq_arena_alloc(r->arena, (r->n_sys + 1) * sizeof *r->sys_names);
    for (size_t k = 0; k < r->n_sys; k++) {
        size_t keep = r->diags.n;
        if (read_bench(r, r->sys[k].path, SQ_INPUT_AUTO_LINES, &r->sys[k].bench) < 0) return -1;
        /* predictions without SQL: one line per file, not one per item */
        sq_diags_truncate(&r->diags, keep);
        size_t missing = 0;
        for (uint32_t j = 0; j < r->sys[k].bench.n_items; j++) missing += !r->sys[k].bench.items[j].sql;
        if (missing)
            fprintf(stderr, "squint eval: %s: %zu item%s without SQL (EX-test runs nothing for them)\n",
                    r->sys[k].path, missing, missing == 1 ? "" : "s");
        if (pair_system(r, &r->sys[k]) < 0) return -1;
        r->sys_names[k] = r->sys[k].name;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Items                                                               */
/* ------------------------------------------------------------------ */

static const char *item_text(const SqBenchItem *it) { return it && it->sql ? it->sql->text : NULL; }

/* What each gold item's record is computed from, and its digest. */
static void item_inputs(EvalRun *r) {
    r->inputs = sq_arena_alloc(r->arena, (r->gold.n_items + 1) * sizeof *r->inputs);
    for (uint32_t k = 0; k < r->gold.n_items; k++) {
        EvalItemInputs *x = &r->inputs[k];
        const char **preds = sq_arena_alloc(r->arena, (r->n_sys + 1) * sizeof *preds);
        for (size_t s = 0; s < r->n_sys; s++) preds[s] = item_text(r->sys[s].by_item[k]);
        x->gold = item_text(&r->gold.items[k]) ? item_text(&r->gold.items[k]) : "";
        x->db_id = r->gold.items[k].db_id;
        x->preds = preds;
        SqEvalInput in = {.gold = x->gold, .db_id = x->db_id, .n_systems = r->n_sys, .preds = preds};
        sq_eval_input_digest(&in, x->digest);
    }
}

/* The evaluation input of gold item k (pointers into r). */
static void item_input(EvalRun *r, size_t k, SqEvalInput *in) {
    const SqBenchItem *g = &r->gold.items[k];
    memset(in, 0, sizeof *in);
    in->index = k;
    in->item_no = g->qid >= 0 ? g->qid : sq_lint_item_number(g->label);
    in->label = g->label;
    in->db_id = r->inputs[k].db_id;
    in->question = g->question;
    in->difficulty = g->difficulty ? g->difficulty : r->hardness ? r->hardness[k] : NULL;
    in->gold = r->inputs[k].gold;
    in->n_systems = r->n_sys;
    in->names = r->sys_names;
    in->preds = r->inputs[k].preds;
    in->options = sq_buf_str(&r->options);
    if (r->db_root && g->db_id) {
        SqBuf p = SQ_BUF_INIT;
        sq_buf_printf(&p, "%s/%s/%s.sqlite", r->db_root, g->db_id, g->db_id);
        in->db_path = sq_arena_strdup(r->arena, sq_buf_str(&p));
        sq_buf_free(&p);
    } else if (r->schema.kind == CLI_SCHEMA_DB) {
        in->db_path = cli_schema_db_path(&r->schema, g->db_id); /* --db: one database for every item */
    }
    if (r->suite_dir) {
        in->suite_dbs = r->suite_dbs[k];
        in->n_suite_dbs = r->n_suite_dbs[k];
    }
    in->cat = r->cfg.verify || r->cfg.lint ? cli_schema_resolve(&r->schema, g->db_id, g->db_id_span) : NULL;
    in->interner = r->names;
}

/* In the child: evaluate item k. */
static int run_item(void *ctx, size_t k, SqBuf *out) {
    EvalRun *r = ctx;
    SqEvalInput in;
    item_input(r, k, &in);
    sq_ctx_eval(&r->schema.ctx, &in, &r->cfg, out);
    return 0;
}

static int append_record(EvalRun *r, const char *rec, size_t n) {
    return r->out_fd < 0 ? 0 : cli_append_synced(r->out_fd, rec, n);
}

static void progress(EvalRun *r, int last) { cli_progress(&r->prog, last, eval_summary_brief(&r->sum)); }

/* --show: the disagreements of one record (EX-test correct, a validated
** counterexample), as text into r->shown. */
static void show_record(EvalRun *r, const char *rec, size_t n) {
    if (!r->show) return;
    SqArena *a = sq_arena_new();
    const SqJson *doc = sq_json_parse(a, rec, n, NULL), *sys = sq_json_get(doc, "systems");
    for (uint32_t k = 0; sys && k < sys->n && r->show; k++) {
        const SqJson *s = sys->items[k];
        const char *ex = sq_json_string(sq_json_get(s, "ex")), *why = sq_json_string(sq_json_get(s, "explain"));
        const char *verdict = sq_json_string(sq_json_get(s, "verdict"));
        if (!ex || !why || strcmp(ex, "correct") || !verdict || strcmp(verdict, "different")) continue;
        r->show--;
        sq_buf_printf(&r->shown, "\n%s, %s: EX-test correct, but the queries differ\n",
                      sq_json_string(sq_json_get(doc, "label")), sq_json_string(sq_json_get(s, "name")));
        const char *q = sq_json_string(sq_json_get(doc, "question"));
        if (q) sq_buf_printf(&r->shown, "  question:   %s\n", q);
        sq_buf_printf(&r->shown, "  gold:       %s\n  prediction: %s\n\n%s", sq_json_string(sq_json_get(doc, "gold")),
                      sq_json_string(sq_json_get(s, "pred")), why);
    }
    sq_arena_free(a);
}

/* In the parent: a task ended. */
static int item_done(void *ctx, size_t k, SqTaskEnd end, int detail, const char *out, size_t n) {
    EvalRun *r = ctx;
    SqBuf rec = SQ_BUF_INIT;
    if (end == SQ_TASK_OK && n && out[n - 1] == '\n') {
        sq_buf_put(&rec, out, n);
    } else {
        char why[96];
        if (end == SQ_TASK_TIMEOUT) snprintf(why, sizeof why, "the item's process ran out of time");
        else if (end == SQ_TASK_CRASHED) snprintf(why, sizeof why, "the item's process was killed by signal %d", detail);
        else snprintf(why, sizeof why, "the item's process ended with %s (%d)", sq_task_end_name(end), detail);
        SqEvalInput in;
        item_input(r, k, &in);
        sq_eval_item_failed(&in, why, &rec);
    }
    int rc = 0;
    if (append_record(r, rec.data, rec.len) < 0) {
        fprintf(stderr, "squint eval: cannot write '%s': %s\n", r->out_path, strerror(errno));
        rc = -1;
    }
    eval_summary_add_line(&r->sum, rec.data, rec.len);
    if (r->report_path) eval_report_add(&r->report, rec.data, rec.len);
    show_record(r, rec.data, rec.len);
    sq_buf_free(&rec);
    r->prog.n_done++;
    progress(r, 0);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Resume                                                              */
/* ------------------------------------------------------------------ */

/* "OPTION /absolute/path" of a file or directory (as given when it has
** no absolute path), in the arena. */
static const char *source_name(EvalRun *r, const char *option, const char *path, const char *db_id) {
    char *abs = realpath(path, NULL);
    SqBuf b = SQ_BUF_INIT;
    sq_buf_printf(&b, "%s %s", option, abs ? abs : path);
    if (db_id) sq_buf_printf(&b, " --db-id %s", db_id);
    const char *s = sq_arena_strdup(r->arena, sq_buf_str(&b));
    sq_buf_free(&b);
    free(abs);
    return s;
}

/* The options that change a record, as a JSON object: every record
** carries it, and a resumed run compares it with its own. */
static void run_options(EvalRun *r) {
    SqJsonWriter w;
    sq_jw_init(&w, &r->options, 0);
    sq_jw_obj_begin(&w);
    sq_jw_key(&w, "semantics");
    sq_jw_str(&w, sq_metric_name(r->cfg.ex.metric));
    sq_jw_key(&w, "keep_distinct");
    sq_jw_bool(&w, r->cfg.ex.keep_distinct);
    sq_jw_key(&w, "timeout");
    sq_jw_double(&w, r->cfg.ex.timeout);
    if (r->cfg.ex.plug_value) {   /* only then: records of runs without it still fit */
        sq_jw_key(&w, "plug_value");
        sq_jw_bool(&w, 1);
    }
    sq_jw_key(&w, "data");
    sq_jw_str(&w, r->data_source);
    sq_jw_key(&w, "verify");
    sq_jw_bool(&w, r->cfg.verify);
    if (r->cfg.verify) {
        sq_jw_key(&w, "bound");
        sq_jw_int(&w, r->cfg.equiv.bound);
        sq_jw_key(&w, "verify_timeout");
        sq_jw_double(&w, r->cfg.equiv.timeout);
        sq_jw_key(&w, "rlimit");
        sq_jw_int(&w, r->cfg.equiv.rlimit);
        sq_jw_key(&w, "values");
        sq_jw_str(&w, r->cfg.equiv.typed_values ? "typed" : "any");
        sq_jw_key(&w, "now");
        sq_jw_int(&w, r->cfg.equiv.now ? r->cfg.equiv.now : SQ_EQUIV_NOW);
        sq_jw_key(&w, "cross_check");
        sq_jw_bool(&w, r->cfg.cross_check);
        sq_jw_key(&w, "kinds");
        sq_jw_bool(&w, r->cfg.kinds);
        if (r->cfg.metadata) { /* only when given: records of runs without it still fit */
            sq_jw_key(&w, "metadata");
            sq_jw_str(&w, source_name(r, "--metadata", r->cfg.metadata, NULL));
        }
        if (r->cfg.realistic) {
            sq_jw_key(&w, "realistic");
            sq_jw_bool(&w, 1);
        }
    }
    sq_jw_key(&w, "lint");
    sq_jw_bool(&w, r->cfg.lint);
    if (r->cfg.ves_runs) {   /* only then: records of runs without it still fit */
        sq_jw_key(&w, "ves");
        sq_jw_int(&w, r->cfg.ves_runs);
    }
    if (r->cfg.lint && r->cfg.lint_file) {   /* only then: records of runs without settings still fit */
        size_t n;
        const char *text = cli_config_text(cli_config_member("lint"), &n);
        char hex[SQ_SHA256_HEX];
        sq_sha256_hex(text ? text : "", text ? n : 0, hex);
        sq_jw_key(&w, "lint_settings");
        sq_jw_str(&w, hex);
    }
    if (r->em_path) {   /* only then: records of runs without it still fit */
        sq_jw_key(&w, "em");
        sq_jw_str(&w, source_name(r, "--em", r->em_path, NULL));
    }
    if (r->suite_dir) {
        sq_jw_key(&w, "suite");
        sq_jw_str(&w, source_name(r, "--suite", r->suite_dir, NULL));
    }
    if (r->cfg.verify || r->cfg.lint) {
        sq_jw_key(&w, "schema");
        sq_jw_str(&w, r->schema_source);
    }
    sq_jw_obj_end(&w);
}

/* Every file the run reads, for the check that no output is one. */
static EvalInputFile *input_files(EvalRun *r, size_t *n) {
    size_t cap = 6 + r->n_sys + r->gold.n_items;
    EvalInputFile *in = sq_arena_alloc(r->arena, cap * sizeof *in);
    *n = 0;
    in[(*n)++] = (EvalInputFile){r->gold_path, "the gold file"};
    if (r->cfg.metadata) in[(*n)++] = (EvalInputFile){r->cfg.metadata, "the metadata file"};
    if (r->em_path) in[(*n)++] = (EvalInputFile){r->em_path, "the --em tables file"};
    for (size_t k = 0; k < r->n_sys; k++) in[(*n)++] = (EvalInputFile){r->sys[k].path, "a prediction file"};
    if (r->schema.kind != CLI_SCHEMA_DB_ROOT && r->schema.path)
        in[(*n)++] = (EvalInputFile){r->schema.path, r->schema.kind == CLI_SCHEMA_DB ? "the database" : "the schema file"};
    for (uint32_t k = 0; r->db_root && k < r->gold.n_items; k++) {
        const char *id = r->gold.items[k].db_id;
        if (!id || (k && r->gold.items[k - 1].db_id && strcmp(r->gold.items[k - 1].db_id, id) == 0)) continue;
        SqBuf p = SQ_BUF_INIT;
        sq_buf_printf(&p, "%s/%s/%s.sqlite", r->db_root, id, id);
        in[(*n)++] = (EvalInputFile){sq_arena_strdup(r->arena, sq_buf_str(&p)), "a database"};
        sq_buf_free(&p);
    }
    return in;
}

/* The outputs, checked before any item runs: none is an input, the report
** can be written, --out is a records file that fits this run (read into
** the summary, its items marked done). */
static int prepare_outputs(EvalRun *r, EvalResume *rs) {
    size_t n;
    const EvalInputFile *in = input_files(r, &n);
    if (eval_out_check_paths("eval", r->out_path, r->report_path, in, n) < 0) return -1;
    if (r->report_path && eval_report_check("eval", r->report_path) < 0) return -1;
    rs->path = r->out_path;
    rs->names = r->sys_names;
    rs->n_sys = r->n_sys;
    rs->items = r->inputs;
    rs->n_items = r->gold.n_items;
    rs->options = sq_buf_str(&r->options);
    rs->rerun_changed = r->rerun_changed;
    if (!r->out_path) {
        rs->done = sq_calloc(r->gold.n_items + 1, 1);
        return 0;
    }
    if (eval_resume_read(rs) < 0) return -1;
    for (size_t k = 0; k < rs->n_current; k++) {
        eval_summary_add_line(&r->sum, rs->current[k].text, rs->current[k].n);
        if (r->report_path) eval_report_add(&r->report, rs->current[k].text, rs->current[k].n);
    }
    if (rs->n_stale && !r->quiet)
        fprintf(stderr, "squint eval: %zu item%s of '%s' evaluated again (--rerun-changed)\n", rs->n_stale,
                rs->n_stale == 1 ? "" : "s", r->out_path);
    return 0;
}

/* ------------------------------------------------------------------ */
/* The command                                                         */
/* ------------------------------------------------------------------ */

/* --suite DIR: each gold item's suite, from the records squint fixture
** wrote there; a record must be of the item's gold text and db_id. */
static int read_suites(EvalRun *r) {
    if (!r->suite_dir) return 0;
    size_t n = r->gold.n_items;
    r->suite_dbs = sq_arena_alloc(r->arena, (n + 1) * sizeof *r->suite_dbs);
    r->n_suite_dbs = sq_arena_alloc(r->arena, (n + 1) * sizeof *r->n_suite_dbs);
    memset(r->n_suite_dbs, 0, (n + 1) * sizeof *r->n_suite_dbs);
    for (size_t k = 0; k < n; k++) r->suite_dbs[k] = NULL;
    SqBuf path = SQ_BUF_INIT;
    sq_buf_printf(&path, "%s/%s", r->suite_dir, FIXTURE_RECORDS);
    size_t len, n_lines = 0, cap = 0, missing = 0;
    int err, rc = 0;
    char *text = sq_read_file(sq_buf_str(&path), &len, &err);
    SqEvalLine *lines = NULL;
    if (!text) {
        cli_io_error("eval", sq_buf_str(&path), err);
        rc = -1;
    } else {
        sq_eval_split_lines(text, len, &lines, &n_lines, &cap);
    }
    SqArena *a = sq_arena_new();
    for (size_t i = 0; i < n_lines && rc == 0; i++) {
        const SqJson *rec = sq_json_parse(a, lines[i].text, lines[i].n, NULL);
        const SqJson *q = sq_json_get(rec, "question");
        const char *inputs = sq_json_string(sq_json_get(rec, "inputs")), *id = sq_json_string(sq_json_get(rec, "id"));
        if (!q || q->kind != SQ_JSON_NUMBER || !q->is_int || q->inum < 0 || (size_t)q->inum >= n || !inputs || !id) {
            fprintf(stderr, "squint eval: %s:%zu: not a record of squint fixture for this gold file\n",
                    sq_buf_str(&path), i + 1);
            rc = -1;
            break;
        }
        size_t k = (size_t)q->inum;
        SqEvalInput in = {.gold = item_text(&r->gold.items[k]) ? item_text(&r->gold.items[k]) : "",
                          .db_id = r->gold.items[k].db_id};
        char digest[SQ_EVAL_DIGEST_LEN + 1];
        sq_eval_input_digest(&in, digest);
        if (strcmp(digest, inputs) != 0) {
            fprintf(stderr, "squint eval: %s:%zu: the suite of question %zu was built for another gold query or "
                            "db_id; build the suites of this gold file\n", sq_buf_str(&path), i + 1, k);
            rc = -1;
            break;
        }
        const SqJson *dbs = sq_json_get(rec, "databases");
        const char **files = sq_arena_alloc(r->arena, ((dbs ? dbs->n : 0) + 1) * sizeof *files);
        size_t m = 0;
        for (uint32_t d = 0; dbs && d < dbs->n; d++) {
            const char *f = sq_json_string(sq_json_get(dbs->items[d], "file"));
            if (!f) continue;
            SqBuf p = SQ_BUF_INIT;
            sq_buf_printf(&p, "%s/%s/%s", r->suite_dir, id, f);
            files[m++] = sq_arena_strdup(r->arena, sq_buf_str(&p));
            sq_buf_free(&p);
        }
        r->suite_dbs[k] = files;
        r->n_suite_dbs[k] = m;
    }
    for (size_t k = 0; k < n && rc == 0; k++) {
        if (r->suite_dbs[k]) continue;
        r->suite_dbs[k] = sq_arena_alloc(r->arena, sizeof *r->suite_dbs[k]);
        missing++;
    }
    if (missing && rc == 0 && !r->quiet)
        fprintf(stderr, "squint eval: %zu item%s without a suite record in %s (EX-test alone counts for them)\n",
                missing, missing == 1 ? "" : "s", sq_buf_str(&path));
    sq_arena_free(a);
    free(lines);
    free(text);
    sq_buf_free(&path);
    return rc;
}

/* Load every schema in the parent, before the children fork, so each
** child finds its catalog ready. */
static int load_schemas(EvalRun *r) {
    if (!r->cfg.verify && !r->cfg.lint) return 0;
    for (uint32_t k = 0; k < r->gold.n_items; k++)
        cli_schema_resolve(&r->schema, r->gold.items[k].db_id, r->gold.items[k].db_id_span);
    return r->schema.n_failures ? -1 : 0;
}

/* Where the data and the schemas come from, for the options. */
static void sources(EvalRun *r) {
    if (r->db_root) r->data_source = source_name(r, "--db-root", r->db_root, NULL);
    else if (r->schema.kind == CLI_SCHEMA_DB) r->data_source = source_name(r, "--db", r->schema.path, NULL);
    if (r->schema.path) r->schema_source = source_name(r, r->schema.option, r->schema.path, r->schema.db_id);
}

/* Run the items still to do; print the summary and write the report. */
static int run_items(EvalRun *r, const uint8_t *done) {
    int rc = SQ_EXIT_OK;
    size_t *todo = sq_calloc(r->gold.n_items + 1, sizeof *todo);
    size_t n_items = r->limit && r->limit < r->gold.n_items ? r->limit : r->gold.n_items;
    for (size_t k = 0; k < n_items; k++)
        if (!done[k] && (!r->shard_n || k % r->shard_n == r->shard_i)) todo[r->prog.n_todo++] = k;
    cli_progress_start(&r->prog);
    if (sq_pool_run(&r->pool, todo, r->prog.n_todo, run_item, item_done, r) < 0) rc = SQ_EXIT_USAGE;
    if (r->prog.n_todo) progress(r, 1);
    if (r->report_path && eval_report_write(&r->report, &r->sum, r->report_path) < 0) rc = SQ_EXIT_USAGE;
    SqBuf out = SQ_BUF_INIT;
    if (r->json) eval_summary_json(&r->sum, &out);
    else eval_summary_text(&r->sum, &out);
    if (!r->json && r->shown.len) sq_buf_printf(&out, "\ndisagreements:\n%s", sq_buf_str(&r->shown));
    cli_flush(&out, stdout);
    fflush(stdout);
    if (eval_summary_gates(&r->sum, r->gates, r->n_gates, "eval", stderr) && rc == SQ_EXIT_OK) rc = SQ_EXIT_FINDINGS;
    sq_buf_free(&out);
    free(todo);
    return rc;
}

static int run(EvalRun *r) {
    if (cli_schema_start(&r->schema, &r->srcs, r->names, &r->diags) < 0) return SQ_EXIT_USAGE;
    int bad = read_inputs(r) < 0 || load_schemas(r) < 0 || read_suites(r) < 0;
    cli_print_diags_text(&r->diags, 0, r->color);
    if (bad) return SQ_EXIT_USAGE;
    r->cfg.equiv.sem = r->cfg.ex.metric == SQ_METRIC_SPIDER ? SQ_SMT_SPIDER : SQ_SMT_SET;
    item_inputs(r);
    sources(r);
    run_options(r);
    eval_summary_init(&r->sum, r->sys_names, r->n_sys, r->cfg.ex.metric,
                      r->db_root != NULL || r->schema.kind == CLI_SCHEMA_DB);
    EvalResume rs;
    memset(&rs, 0, sizeof rs);
    int rc = prepare_outputs(r, &rs) < 0 ? SQ_EXIT_USAGE : SQ_EXIT_OK;
    r->out_fd = -1;
    if (rc == SQ_EXIT_OK && r->out_path &&
        (r->out_fd = open(r->out_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644)) < 0) {
        cli_io_error("eval", r->out_path, errno);
        rc = SQ_EXIT_USAGE;
    }
    if (rc == SQ_EXIT_OK) rc = run_items(r, rs.done);
    if (r->out_fd >= 0) close(r->out_fd);
    eval_resume_free(&rs);
    eval_summary_free(&r->sum);
    sq_buf_free(&r->shown);
    sq_buf_free(&r->options);
    eval_report_free(&r->report);
    return rc;
}

/* The time limit of an item's process: --item-timeout, else twice the
** limits of every query and search it may run, plus slack; none when one
** of those has none. */
static double item_time_limit(const EvalRun *r) {
    if (r->item_timeout >= 0) return r->item_timeout;
    double per = r->cfg.ex.timeout + (r->cfg.verify ? (r->cfg.realistic ? 2 : 1) * r->cfg.equiv.timeout : 0);
    int bounded = r->cfg.ex.timeout > 0 && (!r->cfg.verify || r->cfg.equiv.timeout > 0);
    return bounded ? 2 * per * (double)(r->n_sys + 1) + 30 : 0;
}

int cmd_eval(int argc, char **argv) {
    EvalRun r;
    memset(&r, 0, sizeof r);
    r.arena = sq_arena_new();
    r.names = sq_interner_new();
    sq_srcset_init(&r.srcs);
    sq_diags_init(&r.diags, &r.srcs);
    cli_schema_init(&r.schema, "eval");
    r.cfg.ex.timeout = 30;
    r.cfg.ex.max_rows = 10000000;
    r.cfg.ex.max_bytes = (uint64_t)1 << 30;
    r.cfg.verify = 1;
    r.cfg.kinds = 1;
    r.cfg.equiv = sq_equiv_options_default();
    r.cfg.equiv.bound = 3;
    r.cfg.equiv.isolate = 1; /* a solver that aborts loses only its system's verdict */
    r.cfg.bind = sq_db_bind_options();
    sq_lint_config_init(&r.cfg.lint_rules);
    r.pool.jobs = 1;
    r.pool.mem_limit = (uint64_t)4096 << 20;
    r.color = cli_stderr_color_default();
    r.item_timeout = -1;
    r.prog.cmd = "eval";
    r.prog.unit = "items";
    int rc = read_options(&r, argc, argv);
    if (rc < 0) {
        r.pool.task_timeout = item_time_limit(&r);
        rc = run(&r);
    }
    cli_schema_free(&r.schema);
    sq_diags_free(&r.diags);
    sq_srcset_free(&r.srcs);
    sq_interner_free(r.names);
    sq_arena_free(r.arena);
    return rc;
}
