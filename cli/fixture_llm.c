/*
** fixture_llm.c -- `squint fixture --llm`: a test database per question
** built by a language model through the SynSQL loop (backend/synsql/),
** beside the solver-built suites of `squint fixture`, so that a user with
** an endpoint can compare the two.
**
** DIR/<id>/llm.sqlite is the database (the whole schema, the rows that
** passed every check), DIR/<id>/llm.json what each step of the loop did,
** DIR/llm.jsonl one line per question.  DIR must be new, empty, or one an
** earlier `squint fixture --llm` wrote (its llm.jsonl is there): the run
** then starts over, and with --llm-cache the requests already answered
** cost nothing.
*/
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backend/prompt/prompt_data.h"
#include "backend/synsql/synsql.h"
#include "cli/cli.h"
#include "cli/cli_config.h"
#include "cli/cli_schema.h"
#include "cli/fixture_out.h"
#include "cli/llm_out.h"
#include "frontend/bench_input.h"
#include "runtime/safewrite.h"
#include "runtime/util.h"

static const char usage_head[] =
    "usage: squint fixture --llm --endpoint URL --model M --gold FILE --out DIR [options] SCHEMA-OPTION\n"
    "\n"
    "Build a test database per question with a language model, as SynSQL does\n"
    "(docs/llm.md): the schema selector at temperatures 0, 0.3 and 0.7, an\n"
    "expansion to related columns, then rounds of synthesizer (INSERT\n"
    "statements, cleaned and checked against the schema and SQLite's\n"
    "constraints) and critic (six scores from 1 to 10) until the average reaches\n"
    "--llm-accept or --llm-rounds rounds are spent.  DIR/<id>/llm.sqlite and\n"
    "DIR/<id>/llm.json per question, one line per question in DIR/llm.jsonl.\n"
    "\n"
    "options:\n"
    "      --llm              this mode (needed)\n"
    "      --endpoint URL     the API's base URL (squint llm run --help); required\n"
    "      --model M          the model; required\n"
    "      --gold FILE        the questions: Spider or BIRD dev.json (each item's\n"
    "                         question, evidence and db_id; its SQL is run on the\n"
    "                         database built, to report its rows)\n"
    "      --out DIR          new, empty, or written by squint fixture --llm before\n"
    "      --llm-cache DIR    keep the replies, as squint llm run --cache does\n"
    "      --llm-rounds N     synthesizer-critic rounds, 1 to 10 (default 3)\n"
    "      --llm-accept X     the critic's average score that accepts, 1 to 10\n"
    "                         (default 8)\n"
    "      --metadata FILE    BIRD's dev_metadata.json: column descriptions in the\n"
    "                         schemas the model is shown (as squint prompt --metadata)\n"
    "      --seed N           body.seed of the requests (default 0)\n"
    "      --timeout S        seconds per request (default 600)\n"
    "      --retries N        as squint llm run (default 5)\n"
    "      --limit N          the first N questions only\n"
    "  -q, --quiet            no progress on stderr\n"
    "  -h, --help             show this help\n"
    "      --version          print the version and exit\n"
    "\n";

static const char usage_tail[] =
    "\n"
    "The API key is read from SQUINT_API_KEY or OPENAI_API_KEY (docs/llm.md).\n"
    "\n"
    "exit status: 0 every question has a database; 1 some have none (their\n"
    "lines in DIR/llm.jsonl say why); 2 bad usage or unreadable input.\n" CLI_EXIT_OOM;

const CliOpt cli_opts_fixture_llm[] = {
    {"llm", 0, 0},         {"endpoint", 0, 1}, {"model", 0, 1},    {"gold", 0, 1},        {"out", 0, 1},
    {"llm-cache", 0, 1},   {"llm-rounds", 0, 1}, {"llm-accept", 0, 1}, {"seed", 0, 1},    {"timeout", 0, 1},
    {"retries", 0, 1},     {"limit", 0, 1},    {"metadata", 0, 1},    {"quiet", 'q', 0},  {"help", 'h', 0},      CLI_SCHEMA_OPTIONS,
    {NULL, 0, 0},
};

typedef struct LlmFix {
    CliSchema schema;
    SqSrcSet srcs;
    SqDiags diags;
    SqInterner *names;
    SqArena *arena;
    SqSynsqlConfig cfg;
    const char *gold_path, *out_dir;
    SqBench gold;
    long limit;
    int quiet;
    const char *metadata;   /* --metadata, or NULL */
    SqPromptNotes *notes;   /* its column descriptions */
    size_t by_status[3];
    SqBuf records;
} LlmFix;

static int own_option(LlmFix *r, const char *name, const char *val) {
    long n;
    double x;
    int rc = -1;
    if (strcmp(name, "llm") == 0) return -1;
    if (strcmp(name, "help") == 0) {
        cli_schema_usage(stdout, usage_head, usage_tail);
        cli_help_common(stdout, cli_opts_fixture_llm, 0);
        return SQ_EXIT_OK;
    }
    if (strcmp(name, "endpoint") == 0) r->cfg.llm.endpoint = val;
    else if (strcmp(name, "model") == 0) r->cfg.model = val;
    else if (strcmp(name, "gold") == 0) r->gold_path = val;
    else if (strcmp(name, "out") == 0) r->out_dir = val;
    else if (strcmp(name, "llm-cache") == 0) r->cfg.llm.cache_dir = val;
    else if (strcmp(name, "metadata") == 0) r->metadata = val;
    else if (strcmp(name, "quiet") == 0) r->quiet = 1;
    else if (strcmp(name, "timeout") == 0) rc = cli_parse_seconds("fixture", "--timeout", val, &r->cfg.llm.timeout);
    else if (strcmp(name, "llm-rounds") == 0) {
        if ((rc = cli_parse_count("fixture", "--llm-rounds", val, 1, 10, &n)) < 0) r->cfg.max_rounds = (int)n;
    } else if (strcmp(name, "retries") == 0) {
        if ((rc = cli_parse_count("fixture", "--retries", val, 0, 100, &n)) < 0) r->cfg.llm.retries = (int)n;
    } else if (strcmp(name, "seed") == 0) {
        if ((rc = cli_parse_count("fixture", "--seed", val, 0, 1L << 40, &n)) < 0) r->cfg.seed = n;
    } else if (strcmp(name, "limit") == 0) {
        rc = cli_parse_count("fixture", "--limit", val, 1, 1L << 40, &r->limit);
    } else if (strcmp(name, "llm-accept") == 0) {
        char *end;
        x = strtod(val, &end);
        if (*end || !*val || x < 1 || x > 10) {
            fputs("squint fixture: --llm-accept takes a score from 1 to 10\n", stderr);
            return SQ_EXIT_USAGE;
        }
        r->cfg.accept = x;
    } else {
        fprintf(stderr, "squint fixture: --%s is not an option of --llm\ntry 'squint fixture --llm --help'\n", name);
        return SQ_EXIT_USAGE;
    }
    return rc;
}

static int read_options(LlmFix *r, int argc, char **argv) {
    CliArgs a;
    cli_args_init(&a, argc, argv, "fixture");
    const char *name, *val;
    while ((name = cli_next_opt(&a, cli_opts_fixture_llm, &val))) {
        if (strcmp(name, "?") == 0) return SQ_EXIT_USAGE;
        int handled = cli_schema_option(&r->schema, name, val);
        if (handled < 0) return SQ_EXIT_USAGE;
        if (handled) continue;
        int rc = own_option(r, name, val);
        if (rc >= 0) return rc;
    }
    const char *missing = a.i < argc ? NULL
                          : !r->cfg.llm.endpoint ? "--endpoint URL"
                          : !r->cfg.model        ? "--model M"
                          : !r->gold_path        ? "--gold FILE"
                          : !r->out_dir          ? "--out DIR"
                          : !cli_schema_given(&r->schema) ? "a schema option (--db-root, --tables, --schema or --db)"
                                                          : NULL;
    if (a.i < argc) fprintf(stderr, "squint fixture: unexpected operand '%s'\n", argv[a.i]);
    else if (missing) fprintf(stderr, "squint fixture: --llm needs %s\n", missing);
    if (a.i < argc || missing) {
        fputs("try 'squint fixture --llm --help'\n", stderr);
        return SQ_EXIT_USAGE;
    }
    return -1;
}

/* ---- DIR ------------------------------------------------------------------ */

/* Whether dir may be written: missing (created), empty, or holding the
** llm.jsonl of an earlier run.  -1 to go on, or 2. */
static int open_dir(LlmFix *r) {
    DIR *d = opendir(r->out_dir);
    if (!d) {
        if (errno == ENOENT && mkdir(r->out_dir, 0777) == 0) return -1;
        fprintf(stderr, "squint fixture: --out: cannot use '%s': %s\n", r->out_dir, strerror(errno));
        return SQ_EXIT_USAGE;
    }
    int entries = 0, ours = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        entries++;
        ours |= strcmp(e->d_name, "llm.jsonl") == 0;
    }
    closedir(d);
    if (!entries || ours) return -1;
    fprintf(stderr, "squint fixture: --out: '%s' holds files that squint fixture --llm did not write; name a new "
                    "or empty directory\n", r->out_dir);
    return SQ_EXIT_USAGE;
}

/* ---- questions ------------------------------------------------------------ */

static const char *status_name(SqSynsqlStatus st) {
    return st == SQ_SYNSQL_ACCEPTED ? "accepted" : st == SQ_SYNSQL_BEST ? "best" : "failed";
}

/* One question: its folder, its database and report, its line. */
static void question(LlmFix *r, uint32_t k) {
    const SqBenchItem *g = &r->gold.items[k];
    char id[32];
    snprintf(id, sizeof id, "%lld", g->qid >= 0 ? (long long)g->qid : (long long)k);
    SqBuf dir = SQ_BUF_INIT, db = SQ_BUF_INIT, rep = SQ_BUF_INIT, report = SQ_BUF_INIT, why = SQ_BUF_INIT;
    sq_buf_printf(&dir, "%s/%s", r->out_dir, id);
    sq_buf_printf(&db, "%s/llm.sqlite", dir.data);
    sq_buf_printf(&rep, "%s/llm.json", dir.data);
    const Catalog *cat = cli_schema_resolve(&r->schema, g->db_id, g->db_id_span);
    SqJsonWriter w;
    sq_jw_init(&w, &report, 1);
    sq_jw_obj_begin(&w);
    SqSynsqlStatus st = SQ_SYNSQL_FAILED;
    if (!cat) sq_buf_puts(&why, "its schema could not be loaded");
    else if (!g->question) sq_buf_puts(&why, "the item has no question");
    else if (mkdir(dir.data, 0777) < 0 && errno != EEXIST) sq_buf_printf(&why, "cannot make %s: %s", dir.data, strerror(errno));
    else {
        SqSynsqlItem it = {cat, id, g->question, g->evidence, g->sql ? g->sql->text : NULL};
        (void)unlink(db.data);   /* an earlier run's, in a folder of ours: built again */
        st = sq_synsql_build(&r->cfg, &it, db.data, &w, &why);
    }
    sq_jw_key(&w, "status");
    sq_jw_str(&w, status_name(st));
    if (st == SQ_SYNSQL_FAILED) {
        sq_jw_key(&w, "why");
        sq_jw_str(&w, why.data);
    }
    sq_jw_obj_end(&w);
    sq_buf_putc(&report, '\n');
    int err;
    if (cat && g->question && sq_write_replace(rep.data, report.data, report.len, &err) < 0)
        fprintf(stderr, "squint fixture: cannot write '%s': %s\n", rep.data, strerror(err));
    SqJsonWriter lw;
    sq_jw_init(&lw, &r->records, 0);
    sq_jw_obj_begin(&lw);
    sq_jw_key(&lw, "id");
    sq_jw_str(&lw, id);
    sq_jw_key(&lw, "db_id");
    sq_jw_str(&lw, g->db_id);
    sq_jw_key(&lw, "status");
    sq_jw_str(&lw, status_name(st));
    if (st != SQ_SYNSQL_FAILED) {
        sq_jw_key(&lw, "database");
        sq_jw_str(&lw, db.data);
    } else {
        sq_jw_key(&lw, "why");
        sq_jw_str(&lw, why.data);
    }
    sq_jw_obj_end(&lw);
    sq_buf_putc(&r->records, '\n');
    r->by_status[st]++;
    sq_buf_free(&dir);
    sq_buf_free(&db);
    sq_buf_free(&rep);
    sq_buf_free(&report);
    sq_buf_free(&why);
}

static int run(LlmFix *r) {
    if (cli_schema_start(&r->schema, &r->srcs, r->names, &r->diags) < 0) return SQ_EXIT_USAGE;
    int bad = fixture_read_gold(r->gold_path, &r->gold, r->arena, &r->srcs, &r->diags) < 0;
    cli_print_diags_text(&r->diags, 0, cli_stderr_color_default());
    if (bad) return SQ_EXIT_USAGE;
    int rc = open_dir(r);
    if (rc >= 0) return rc;
    char *msg = NULL;
    if (r->metadata && !(r->notes = sq_prompt_notes_load(r->metadata, &msg))) {
        fprintf(stderr, "squint fixture: --metadata: %s\n", msg);
        free(msg);
        return SQ_EXIT_USAGE;
    }
    r->cfg.notes = r->notes;
    int err;
    if (r->cfg.llm.cache_dir && sq_llm_cache_open(r->cfg.llm.cache_dir, &err) < 0) {
        fprintf(stderr, "squint fixture: --llm-cache: cannot use '%s': %s\n", r->cfg.llm.cache_dir, strerror(err));
        return SQ_EXIT_USAGE;
    }
    size_t n = r->limit && (size_t)r->limit < r->gold.n_items ? (size_t)r->limit : r->gold.n_items;
    CliProgress prog = {.cmd = "squint fixture --llm", .unit = "questions", .quiet = r->quiet, .n_todo = n};
    cli_progress_start(&prog);
    for (uint32_t k = 0; k < n; k++) {
        question(r, k);
        prog.n_done++;
        cli_progress(&prog, 0, "");
    }
    char brief[96];
    snprintf(brief, sizeof brief, "%zu accepted, %zu best of the rounds, %zu failed", r->by_status[SQ_SYNSQL_ACCEPTED],
             r->by_status[SQ_SYNSQL_BEST], r->by_status[SQ_SYNSQL_FAILED]);
    cli_progress(&prog, 1, brief);
    SqBuf path = SQ_BUF_INIT;
    sq_buf_printf(&path, "%s/llm.jsonl", r->out_dir);
    rc = sq_write_replace(path.data, sq_buf_str(&r->records), r->records.len, &err);
    if (rc < 0) fprintf(stderr, "squint fixture: cannot write '%s': %s\n", path.data, strerror(err));
    sq_buf_free(&path);
    printf("%zu questions: %zu accepted by the critic, %zu kept from their best round, %zu without a database; in %s\n",
           n, r->by_status[SQ_SYNSQL_ACCEPTED], r->by_status[SQ_SYNSQL_BEST], r->by_status[SQ_SYNSQL_FAILED],
           r->out_dir);
    return rc < 0 ? SQ_EXIT_USAGE : r->by_status[SQ_SYNSQL_FAILED] ? SQ_EXIT_FINDINGS : SQ_EXIT_OK;
}

int fixture_llm(int argc, char **argv) {
    LlmFix r;
    memset(&r, 0, sizeof r);
    r.arena = sq_arena_new();
    r.names = sq_interner_new();
    sq_srcset_init(&r.srcs);
    sq_diags_init(&r.diags, &r.srcs);
    cli_schema_init(&r.schema, "fixture");
    r.cfg = (SqSynsqlConfig){.llm = {.jobs = 3, .timeout = 600, .retries = 5, .backoff = 1, .backoff_max = 60,
                                     .seed = 1, .max_reply = (size_t)64 << 20},
                             .max_rounds = 3, .accept = 8};
    int rc = read_options(&r, argc, argv);
    if (rc < 0) rc = cli_llm_key("fixture", &r.cfg.llm.api_key);
    if (rc < 0) rc = run(&r);
    sq_buf_free(&r.records);
    sq_prompt_notes_free(r.notes);
    cli_schema_free(&r.schema);
    sq_diags_free(&r.diags);
    sq_srcset_free(&r.srcs);
    sq_interner_free(r.names);
    sq_arena_free(r.arena);
    return rc;
}
