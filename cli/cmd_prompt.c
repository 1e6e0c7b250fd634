/*
** cmd_prompt.c -- `squint prompt TASK`: one request for a language model
** per item, in OpenAI's batch JSONL format, or the prompts as text.
**
** Layer: cli.  Reads the FILE (a gold file through cli_queries.h: each
** query parsed, bound against its item's schema and lowered; or, for
** explain-difference, squint eval's records, each gold and prediction
** compiled against the record's db_id), fills the task's slots from it
** (backend/prompt/prompt_data.h), renders the template
** (backend/prompt/prompt.h) and collects the requests in input order.
** Nothing is written until every item went through: a run with an error
** (a query that does not bind, a slot the template needs that an item
** lacks, an input it cannot read) writes nothing, unless --keep-going,
** so a batch file never lacks items silently.  --out is replaced whole,
** through a temporary file, and only when it is not an input and is
** empty or holds nothing but requests (squint prompt's own output).
**
** Sections: options; the template; slot values; gold files; records;
** output; the command.
*/
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backend/prompt/prompt.h"
#include "backend/prompt/prompt_data.h"
#include "cli/cli.h"
#include "cli/cli_config.h"
#include "cli/cli_queries.h"
#include "runtime/safewrite.h"

#define DEFAULT_MODEL "squint-placeholder"

static const char usage_head[] =
    "usage: squint prompt TASK [options] SCHEMA-OPTION FILE\n"
    "       squint prompt --list\n"
    "\n"
    "Write one request for a language model per item of FILE, as a line of the\n"
    "OpenAI batch format (custom_id, method, url, body with model, messages,\n"
    "temperature, seed, max_tokens), filled from squint's own data: the CREATE\n"
    "TABLE statements of the tables the query reads, the SQL, the question, BIRD's\n"
    "evidence, sample rows of the database, a counterexample.  The same inputs give\n"
    "the same bytes.  docs/prompts.md describes the tasks, their slots and the\n"
    "reply each asks for.\n"
    "\n"
    "tasks ('squint prompt --list' shows their slots):\n"
    "  sql-to-question, paraphrase, question-check\n"
    "                         FILE is a gold file, as 'squint check' reads it (Spider\n"
    "                         or BIRD dev.json, SQL<TAB>db_id lines, a SQL script):\n"
    "                         one request per query\n"
    "  explain-difference     FILE is the records of 'squint eval --out': one request\n"
    "                         per prediction a counterexample refutes\n"
    "  synsql-selector        FILE is a gold file: the first step of SynSQL, the\n"
    "                         columns a test database needs (the other synsql-*\n"
    "                         tasks are sent by 'squint fixture --llm')\n"
    "\n"
    "options:\n"
    "      --out FILE         write the requests to FILE instead of standard output:\n"
    "                         replaced whole, through a temporary file; an existing\n"
    "                         FILE must be empty or hold only requests (this\n"
    "                         command's output), and is never an input\n"
    "      --force            let --out replace any other file (never an input)\n"
    "  -f, --format FMT       jsonl (default): the requests; text: the prompts, for\n"
    "                         reading\n"
    "      --model M          body.model (default '" DEFAULT_MODEL "', to be replaced)\n"
    "      --temperature T    body.temperature, 0 to 2 (default 0.7 for\n"
    "                         sql-to-question and paraphrase, 0 for the others)\n"
    "      --seed N           body.seed (default 0)\n"
    "      --max-tokens N     body.max_tokens (default 1024 for sql-to-question and\n"
    "                         explain-difference, 512 for the others)\n"
    "      --template FILE    the task's template from FILE instead of the one built\n"
    "                         into squint (prompts/TASK.txt)\n"
    "      --metadata FILE    BIRD's dev_metadata.json: each column's human name,\n"
    "                         description and value meanings as a comment in the\n"
    "                         CREATE TABLE statements of the schema slots\n"
    "      --fixtures DIR     take sample rows from each question's witness in DIR\n"
    "                         (squint fixture's output: DIR/<id>/00.sqlite), for\n"
    "                         benchmarks whose databases are not at hand (BIRD)\n"
    "      --sample-rows N    rows per table in the sample_rows slot, 0 to 20\n"
    "                         (default 3; 0: no sample rows)\n"
    "      --keep-going       write the requests of the other items when some fail\n"
    "                         (the exit status still says they failed)\n"
    "      --list             list the tasks and the slots their templates use\n"
    "  -h, --help             show this help\n"
    "      --version          print the version and exit\n"
    "\n"
    "input (gold files):\n";

static const char usage_tail[] =
    "\n"
    "The sample_rows slot needs the data: --db, --db-root (Spider's layout) or\n"
    "--fixtures.\n"
    "\n"
    "exit status: 0 every item has its request; 1 a query has errors (syntax or\n"
    "binding); 2 usage error, a FILE, schema, database or template squint cannot\n"
    "read or use, an item lacking a slot the template needs, an --out it may not\n"
    "write.  On 1 and 2 nothing is written, unless --keep-going.\n"
    CLI_EXIT_OOM;

const CliOpt cli_opts_prompt[] = {
    {"out", 0, 1},      {"force", 0, 0},    {"format", 'f', 1},      {"model", 0, 1},
    {"temperature", 0, 1}, {"seed", 0, 1},  {"max-tokens", 0, 1},    {"template", 0, 1},
    {"sample-rows", 0, 1}, {"keep-going", 0, 0}, {"list", 0, 0},     {"help", 'h', 0},
    {"metadata", 0, 1}, {"fixtures", 0, 1},
    CLI_QUERIES_OPTIONS, {NULL, 0, 0}};

/* One run of the command: its options, its template, the requests made
** so far and what went wrong. */
typedef struct PromptRun {
    const SqPromptTask *task;     /* TASK */
    CliQueries cq;                /* the session: sources, schema, diagnostics */
    SqFormat format;              /* SQ_FMT_JSONL or SQ_FMT_TEXT */
    const char *out_path;         /* --out, or NULL: standard output */
    int force, keep_going;        /* --force, --keep-going */
    const char *template_path;    /* --template, or NULL: the built-in one */
    SqPromptParams params;        /* --model, --temperature, --seed, --max-tokens */
    int has_temperature, has_max_tokens; /* given, not the task's defaults */
    long sample_rows;             /* --sample-rows */
    const char *file;             /* the FILE operand */
    SqArena *arena;               /* the template, ids, origin names */
    char *template_text;          /* --template's content (heap) */
    SqPromptTemplate tpl;         /* parsed, in arena */
    SqBuf out;                    /* every request, in input order */
    char **ids;                   /* custom_id of each request (heap) */
    size_t n_ids, cap_ids;
    size_t n_lacking;             /* items without a slot the template needs */
    int input_failed;             /* a record, database or table unreadable */
    char *db_path;                /* the database open for sample rows (heap) */
    SqDb *db;                     /* NULL when it did not open (told once) */
    const char *metadata;         /* --metadata, or NULL */
    const char *fixtures;         /* --fixtures DIR, or NULL */
    SqPromptNotes *notes;         /* its column descriptions */
} PromptRun;

/* ------------------------------------------------------------------ */
/* Options                                                             */
/* ------------------------------------------------------------------ */

static void print_usage(FILE *f) { cli_queries_usage(f, usage_head, usage_tail); }

static int parse_temperature(PromptRun *r, const char *val) {
    char *end;
    double t = strtod(val, &end);
    if (*end || !*val || !isfinite(t) || t < 0 || t > 2) {
        fprintf(stderr, "squint prompt: --temperature takes a number from 0 to 2\n");
        return SQ_EXIT_USAGE;
    }
    r->params.temperature = t;
    r->has_temperature = 1;
    return -1;
}

static int parse_number(const char *opt, const char *val, long lo, long hi, int64_t *out) {
    long v;
    int rc = cli_parse_count("prompt", opt, val, lo, hi, &v);
    *out = v;
    return rc;
}

static void list_tasks(void);

/* An option of prompt's own; -1 to go on, or an exit code. */
static int own_option(void *ctx, const char *name, const char *val) {
    PromptRun *r = ctx;
    if (strcmp(name, "help") == 0) {
        print_usage(stdout);
        cli_help_common(stdout, cli_opts_prompt, 0);
        return SQ_EXIT_OK;
    }
    if (strcmp(name, "list") == 0) {
        list_tasks();
        return SQ_EXIT_OK;
    }
    if (strcmp(name, "out") == 0) r->out_path = val;
    else if (strcmp(name, "force") == 0) r->force = 1;
    else if (strcmp(name, "keep-going") == 0) r->keep_going = 1;
    else if (strcmp(name, "template") == 0) r->template_path = val;
    else if (strcmp(name, "metadata") == 0) r->metadata = val;
    else if (strcmp(name, "fixtures") == 0) r->fixtures = val;
    else if (strcmp(name, "model") == 0) r->params.model = val;
    else if (strcmp(name, "temperature") == 0) return parse_temperature(r, val);
    else if (strcmp(name, "seed") == 0) return parse_number("--seed", val, 0, LONG_MAX, &r->params.seed);
    else if (strcmp(name, "sample-rows") == 0) return cli_parse_count("prompt", "--sample-rows", val, 0, 20, &r->sample_rows);
    else if (strcmp(name, "max-tokens") == 0) {
        r->has_max_tokens = 1;
        return parse_number("--max-tokens", val, 1, 1000000, &r->params.max_tokens);
    } else if (strcmp(name, "format") == 0) {
        unsigned formats = SQ_FMT_BIT(SQ_FMT_JSONL) | SQ_FMT_BIT(SQ_FMT_TEXT);
        if (!cli_parse_format("prompt", val, formats, &r->format)) return SQ_EXIT_USAGE;
    } else {
        return SQ_EXIT_USAGE;   /* "?": cli_next_opt said why */
    }
    return -1;
}

/* What the options leave to check together; -1 to go on, or 2. */
static int check_options(PromptRun *r, const CliArgs *a) {
    if (a->argc - a->i != 1) {
        fprintf(stderr, "squint prompt: give one FILE (%d given)\n", a->argc - a->i);
        return SQ_EXIT_USAGE;
    }
    if (r->task->input == SQ_PROMPT_IN_EXPAND) {
        fprintf(stderr, "squint prompt: %s's slots are an expansion of a gold query and the query it expands; "
                        "squint expand --requests FILE writes its requests\n", r->task->name);
        return SQ_EXIT_USAGE;
    }
    if (r->task->input == SQ_PROMPT_IN_TQA) {
        fprintf(stderr, "squint prompt: %s's slots are a query's linker table and the words of its question or "
                        "evidence that name it; squint expand --tqa --requests FILE writes its requests\n",
                r->task->name);
        return SQ_EXIT_USAGE;
    }
    if (r->task->input == SQ_PROMPT_IN_LOOP) {
        fprintf(stderr, "squint prompt: %s's slots are the state of the SynSQL loop, which squint fixture --llm "
                        "runs and fills; squint prompt writes only its first step, synsql-selector\n",
                r->task->name);
        return SQ_EXIT_USAGE;
    }
    if (r->task->input == SQ_PROMPT_IN_RECORDS && (r->cq.input_format != SQ_INPUT_AUTO || r->cq.db_id_from)) {
        fprintf(stderr, "squint prompt: --input-format and --db-id-from are for gold files; %s reads squint "
                        "eval's records\n", r->task->name);
        return SQ_EXIT_USAGE;
    }
    if (!*r->params.model) {
        fprintf(stderr, "squint prompt: --model takes a name\n");
        return SQ_EXIT_USAGE;
    }
    r->file = a->argv[a->i];
    char *err = NULL;
    if (r->metadata && !(r->notes = sq_prompt_notes_load(r->metadata, &err))) {
        fprintf(stderr, "squint prompt: --metadata: %s\n", err);
        free(err);
        return SQ_EXIT_USAGE;
    }
    if (!r->has_temperature) r->params.temperature = r->task->temperature;
    if (!r->has_max_tokens) r->params.max_tokens = r->task->max_tokens;
    return -1;
}

/* ------------------------------------------------------------------ */
/* The template                                                        */
/* ------------------------------------------------------------------ */

/* The built-in template of task into *t (in a); 0, or -1 with err set. */
static int builtin_template(SqArena *a, const SqPromptTask *task, SqPromptTemplate *t, SqBuf *err) {
    const SqPromptText *b = sq_prompt_builtin(task->name);
    if (!b) {
        sq_buf_printf(err, "no template prompts/%s.txt was built into squint", task->name);
        return -1;
    }
    const char *origin = sq_arena_printf(a, "%s (built in)", b->path);
    return sq_prompt_template_parse(a, origin, b->text, b->text ? strlen(b->text) : 0, t, err);
}

/* The run's template: --template's file, or the built-in one.  -1 to
** go on, or 2 after a message. */
static int load_template(PromptRun *r) {
    SqBuf err = SQ_BUF_INIT;
    int rc;
    if (r->template_path) {
        size_t len;
        int e;
        r->template_text = sq_read_file(r->template_path, &len, &e);
        if (!r->template_text) {
            cli_io_error("prompt", r->template_path, e);
            return SQ_EXIT_USAGE;
        }
        rc = sq_prompt_template_parse(r->arena, r->template_path, r->template_text, len, &r->tpl, &err);
    } else {
        rc = builtin_template(r->arena, r->task, &r->tpl, &err);
    }
    if (rc < 0) fprintf(stderr, "squint prompt: %s\n", sq_buf_str(&err));
    sq_buf_free(&err);
    return rc < 0 ? SQ_EXIT_USAGE : -1;
}

/* "schema, sql" for the slots whose bits are set; "none" when none is. */
static void put_slot_names(uint32_t bits) {
    int n = 0;
    for (int s = 0; s < SQ_SLOT__COUNT; s++)
        if (bits & (1u << s)) printf("%s%s", n++ ? ", " : "", sq_prompt_slot_name((SqPromptSlot)s));
    if (!n) fputs("none", stdout);
}

static void list_task(const SqPromptTask *t) {
    SqArena *a = sq_arena_new();
    SqPromptTemplate tpl;
    SqBuf err = SQ_BUF_INIT;
    printf("%-20s %s\n", t->name, t->summary);
    printf("  input:    %s\n", t->input == SQ_PROMPT_IN_GOLD      ? "a gold file, one request per query"
                              : t->input == SQ_PROMPT_IN_RECORDS ? "squint eval's records, one request per counterexample"
                              : t->input == SQ_PROMPT_IN_EXPAND  ? "squint expand --requests, one request per expansion"
                              : t->input == SQ_PROMPT_IN_TQA     ? "squint expand --tqa --requests, one request per "
                                                                   "text naming the linker table"
                                                                 : "the SynSQL loop of squint fixture --llm");
    if (builtin_template(a, t, &tpl, &err) == 0) {
        fputs("  slots:    ", stdout);
        put_slot_names(tpl.required);
        fputs("\n  optional: ", stdout);
        put_slot_names(tpl.optional);
        putchar('\n');
    } else {
        printf("  template: %s\n", sq_buf_str(&err));
    }
    printf("  reply:    %s\n", t->reply);
    sq_buf_free(&err);
    sq_arena_free(a);
}

static void list_tasks(void) {
    size_t n;
    const SqPromptTask *t = sq_prompt_tasks(&n);
    for (size_t i = 0; i < n; i++) list_task(&t[i]);
    puts("\nslots (an optional one is left out, with its section, when an item lacks it):");
    for (int s = 0; s < SQ_SLOT__COUNT; s++)
        printf("  %-15s %s\n", sq_prompt_slot_name((SqPromptSlot)s), sq_prompt_slot_doc((SqPromptSlot)s));
}

/* ------------------------------------------------------------------ */
/* Slot values                                                         */
/* ------------------------------------------------------------------ */

static int uses_slot(const PromptRun *r, SqPromptSlot s) {
    return ((r->tpl.required | r->tpl.optional) & (1u << s)) != 0;
}

/* The database at path, opened read-only once per path; NULL when it
** does not open (told once). */
static SqDb *open_data(PromptRun *r, const char *path) {
    if (r->db_path && strcmp(r->db_path, path) == 0) return r->db;
    sq_db_close(r->db);
    free(r->db_path);
    r->db_path = sq_strdup(path);
    char *err = NULL;
    r->db = sq_db_open_file(path, &err);
    if (!r->db) {
        fprintf(stderr, "squint prompt: cannot open the database '%s': %s\n", path, err ? err : "?");
        r->input_failed = 1;
    }
    free(err);
    return r->db;
}

/* The data of an item: the witness of its suite in --fixtures DIR
** (DIR/<id>/00.sqlite, squint fixture's layout; NULL when the question
** has none), else its database's (NULL for --schema and --tables). */
static SqDb *item_db(PromptRun *r, const SqBenchItem *it) {
    const char *path = r->fixtures ? cli_fixture_db_path(r->cq.schema.arena, r->fixtures, it)
                                   : cli_schema_db_path(&r->cq.schema, it->db_id);
    return path ? open_data(r, path) : NULL;
}

/* sample_rows for q, into rows (left empty when there is no data). */
static void sample_rows(PromptRun *r, const SqBenchItem *it, const Catalog *cat, const IrQuery *q, SqBuf *rows) {
    SqDb *db = r->sample_rows > 0 && uses_slot(r, SQ_SLOT_SAMPLE_ROWS) ? item_db(r, it) : NULL;
    char *err = NULL;
    if (db && sq_prompt_sample_rows(db, cat, q, (uint32_t)r->sample_rows, rows, &err) < 0) {
        fprintf(stderr, "squint prompt: %s: cannot read sample rows: %s\n", r->db_path, err ? err : "?");
        r->input_failed = 1;
        sq_buf_reset(rows);
    }
    free(err);
}

static void keep_id(PromptRun *r, const char *id) {
    if (r->n_ids == r->cap_ids) {
        r->cap_ids = r->cap_ids ? 2 * r->cap_ids : 64;
        r->ids = sq_realloc(r->ids, r->cap_ids * sizeof *r->ids);
    }
    r->ids[r->n_ids++] = sq_strdup(id);
}

/* One rendered prompt as the output has it: a request line, or text. */
static void put_request(PromptRun *r, const char *id, const SqBuf *sys, const SqBuf *user) {
    if (r->format == SQ_FMT_JSONL) {
        sq_prompt_request_json(&r->out, id, &r->params, sq_buf_str(sys), sq_buf_str(user));
        return;
    }
    sq_buf_printf(&r->out, "%s=== %s ===\n", r->n_ids ? "\n" : "", id);
    if (sys->len) sq_buf_printf(&r->out, "--- system\n%s\n", sq_buf_str(sys));
    sq_buf_printf(&r->out, "--- user\n%s\n", sq_buf_str(user));
}

/* The request of one item, rendered and kept; where names the item in a
** message.  An item lacking a required slot is told and counted. */
static void add_request(PromptRun *r, const char *id, const SqPromptValues *v, const char *where) {
    SqBuf sys = SQ_BUF_INIT, user = SQ_BUF_INIT;
    SqPromptSlot missing;
    if (sq_prompt_render(&r->tpl, v, &sys, &user, &missing) < 0) {
        fprintf(stderr, "squint prompt: %s: no slot '%s' for %s, which the template needs: %s\n", where,
                sq_prompt_slot_name(missing), r->tpl.origin, sq_prompt_slot_why(missing));
        r->n_lacking++;
    } else {
        put_request(r, id, &sys, &user);
        keep_id(r, id);
    }
    sq_buf_free(&sys);
    sq_buf_free(&user);
}

/* ------------------------------------------------------------------ */
/* Gold files                                                          */
/* ------------------------------------------------------------------ */

static void gold_query(void *ctx, CliQuery *q) {
    PromptRun *r = ctx;
    const SqBenchItem *it = q->item;
    SqBuf schema = SQ_BUF_INIT, rows = SQ_BUF_INIT, sql = SQ_BUF_INIT, id = SQ_BUF_INIT, where = SQ_BUF_INIT;
    if (it->label) sq_buf_put(&sql, it->sql->text, it->sql->len); /* the item as the file writes it */
    else sq_buf_put(&sql, it->sql->text + q->stmt->span.start, q->stmt->span.end - q->stmt->span.start);
    sq_prompt_schema(q->cat, &q->ir, 1, r->notes, &schema);
    sample_rows(r, it, q->cat, q->ir, &rows);
    SqBuf whole = SQ_BUF_INIT;
    if (uses_slot(r, SQ_SLOT_DATABASE_SCHEMA)) sq_prompt_tables_ddl(q->cat, NULL, r->notes, &whole);
    SqPromptValues v = {{NULL}};
    v.v[SQ_SLOT_SCHEMA] = sq_buf_str(&schema);
    v.v[SQ_SLOT_SQL] = sq_buf_str(&sql);
    v.v[SQ_SLOT_QUESTION] = it->question;
    v.v[SQ_SLOT_EVIDENCE] = it->evidence;
    v.v[SQ_SLOT_DB_ID] = it->db_id;
    v.v[SQ_SLOT_SAMPLE_ROWS] = sq_buf_str(&rows);
    v.v[SQ_SLOT_DATABASE_SCHEMA] = sq_buf_str(&whole);
    cli_query_item_id(&id, r->task->name, q);
    cli_query_where(&where, q);
    add_request(r, sq_buf_str(&id), &v, sq_buf_str(&where));
    sq_buf_free(&schema);
    sq_buf_free(&whole);
    sq_buf_free(&rows);
    sq_buf_free(&sql);
    sq_buf_free(&id);
    sq_buf_free(&where);
}

/* ------------------------------------------------------------------ */
/* Records                                                             */
/* ------------------------------------------------------------------ */

/* A record of squint eval being read: where it is, its item's fields.
** The first record that cannot be read ends the reading (the run fails,
** and one message says why). */
typedef struct RecordAt {
    const char *file;
    unsigned line;
    int64_t item;
    const char *gold, *question, *db_id;
} RecordAt;

static void bad_record(PromptRun *r, const RecordAt *at, const char *why) {
    fprintf(stderr, "squint prompt: %s:%u: %s\n", at->file, at->line, why);
    r->input_failed = 1;
}

/* One query of a record compiled against cat into a; NULL after a
** message (the binder's diagnostics, or ours for other reasons). */
static IrQuery *record_query(PromptRun *r, const RecordAt *at, SqArena *a, const Catalog *cat, const char *who,
                             const char *sql) {
    char *name = sq_arena_printf(a, "%s:%u (%s)", at->file, at->line, who);
    SqCompileStatus st;
    IrQuery *q = sq_ctx_compile_text(&r->cq.schema.ctx, a, cat, name, sql, strlen(sql), &st);
    if (!q && st != SQ_COMPILE_SYNTAX && st != SQ_COMPILE_BIND) {
        fprintf(stderr, "squint prompt: %s: %s\n", name, sq_compile_why(st));
        r->input_failed = 1;
    }
    return q;
}

/* The schema slot of a pair: the tables either query needs, both
** compiled against the record's db_id.  0 when either does not. */
static int pair_schema(PromptRun *r, const RecordAt *at, const char *system, const char *pred, SqBuf *out) {
    const Catalog *cat = cli_schema_resolve(&r->cq.schema, at->db_id, sq_span(0, 0, 0));
    if (!cat) return 0;
    SqArena *a = sq_arena_new();
    IrQuery *qs[2] = {record_query(r, at, a, cat, "gold", at->gold), NULL};
    if (qs[0]) qs[1] = record_query(r, at, a, cat, system, pred);
    if (qs[1]) sq_prompt_schema(cat, qs, 2, r->notes, out);
    sq_arena_free(a);
    return qs[1] != NULL;
}

/* The counterexample and both results of a refuted system, into the
** buffers; 0 when one of them is malformed. */
static int pair_data(const SqJson *sys, SqBuf *cex, SqBuf *res1, SqBuf *res2) {
    return sq_prompt_tables_text(sq_json_get(sys, "counterexample"), cex) == 0 &&
           sq_prompt_result_text(sq_json_get(sys, "gold_result"), res1) == 0 &&
           sq_prompt_result_text(sq_json_get(sys, "pred_result"), res2) == 0;
}

/* The request for one system of a record whose prediction a
** counterexample refutes. */
static void record_system(PromptRun *r, const RecordAt *at, const SqJson *sys) {
    const char *name = sq_json_string(sq_json_get(sys, "name")), *pred = sq_json_string(sq_json_get(sys, "pred"));
    SqBuf schema = SQ_BUF_INIT, cex = SQ_BUF_INIT, res1 = SQ_BUF_INIT, res2 = SQ_BUF_INIT, id = SQ_BUF_INIT,
          where = SQ_BUF_INIT;
    if (!name || !pred) bad_record(r, at, "a system with a counterexample but no name or prediction");
    else if (!pair_data(sys, &cex, &res1, &res2)) bad_record(r, at, "a counterexample or result of another shape than squint eval writes");
    else if (pair_schema(r, at, name, pred, &schema)) {
        SqPromptValues v = {{NULL}};
        v.v[SQ_SLOT_SCHEMA] = sq_buf_str(&schema);
        v.v[SQ_SLOT_SQL] = at->gold;
        v.v[SQ_SLOT_SQL2] = pred;
        v.v[SQ_SLOT_QUESTION] = at->question;
        v.v[SQ_SLOT_DB_ID] = at->db_id;
        v.v[SQ_SLOT_COUNTEREXAMPLE] = sq_buf_str(&cex);
        v.v[SQ_SLOT_RESULT1] = sq_buf_str(&res1);
        v.v[SQ_SLOT_RESULT2] = sq_buf_str(&res2);
        sq_buf_printf(&id, "%s/item-%lld/%s", r->task->name, (long long)at->item, name);
        sq_buf_printf(&where, "%s:%u (item %lld, %s)", at->file, at->line, (long long)at->item, name);
        add_request(r, sq_buf_str(&id), &v, sq_buf_str(&where));
    }
    sq_buf_free(&where);
    sq_buf_free(&schema);
    sq_buf_free(&cex);
    sq_buf_free(&res1);
    sq_buf_free(&res2);
    sq_buf_free(&id);
}

/* One line of the records file: a request per system with a
** counterexample (a record of an item that failed has none).  is_cut:
** the last line, without its newline. */
static void record_line(PromptRun *r, RecordAt *at, SqArena *a, const char *text, size_t n, int is_cut) {
    SqJsonError jerr;
    const SqJson *rec = sq_json_parse(a, text, n, &jerr);
    if (!rec && is_cut) { /* as squint merge does: a run killed while writing */
        fprintf(stderr, "squint prompt: %s:%u: warning: a last line cut off mid-record is left out\n", at->file,
                at->line);
        return;
    }
    const SqJson *item = rec ? sq_json_get(rec, "item") : NULL, *systems = rec ? sq_json_get(rec, "systems") : NULL;
    if (!rec || !item || !item->is_int || !systems || systems->kind != SQ_JSON_ARRAY) {
        char why[192];
        snprintf(why, sizeof why, "not a record of squint eval (%s)",
                 rec ? "no \"item\" number or no \"systems\" array" : jerr.msg);
        bad_record(r, at, why);
        return;
    }
    at->item = item->inum;
    at->gold = sq_json_string(sq_json_get(rec, "gold"));
    at->question = sq_json_string(sq_json_get(rec, "question"));
    at->db_id = sq_json_string(sq_json_get(rec, "db_id"));
    for (uint32_t k = 0; k < systems->n; k++) {
        const SqJson *cex = sq_json_get(systems->items[k], "counterexample");
        if (!cex || cex->kind == SQ_JSON_NULL) continue;
        if (!at->gold) bad_record(r, at, "a counterexample, but no \"gold\" query");
        else record_system(r, at, systems->items[k]);
    }
}

static void records_file(PromptRun *r, const char *path) {
    int err;
    SqSrc *src = sq_src_add_file(&r->cq.srcs, path, &err);
    if (!src) {
        cli_io_error("prompt", path, err);
        r->input_failed = 1;
        return;
    }
    SqArena *a = sq_arena_new();
    RecordAt at = {src->name, 0, 0, NULL, NULL, NULL};
    for (size_t off = 0; off < src->len;) {
        const char *line = src->text + off, *nl = memchr(line, '\n', src->len - off);
        size_t n = nl ? (size_t)(nl - line) : src->len - off;
        at.line++;
        if (strspn(line, " \t\r") < n) record_line(r, &at, a, line, n, nl == NULL);
        sq_arena_reset(a);
        off += n + 1;
        if (r->input_failed) break; /* one message: the run fails anyway */
    }
    sq_arena_free(a);
}

/* ------------------------------------------------------------------ */
/* Output                                                              */
/* ------------------------------------------------------------------ */

static int by_string(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Two requests with one custom_id would be one answer for two items: an
** input error (an item holding two queries).  0, or -1 after a message. */
static int check_ids(PromptRun *r) {
    if (r->n_ids < 2) return 0;
    char **sorted = sq_malloc(r->n_ids * sizeof *sorted);
    memcpy(sorted, r->ids, r->n_ids * sizeof *sorted);
    qsort(sorted, r->n_ids, sizeof *sorted, by_string);
    int rc = 0;
    for (size_t i = 1; i < r->n_ids && rc == 0; i++) {
        if (strcmp(sorted[i - 1], sorted[i]) != 0) continue;
        fprintf(stderr, "squint prompt: two requests would have the custom_id '%s' (an item with more than one "
                        "query?)\n", sorted[i]);
        rc = -1;
    }
    free(sorted);
    return rc;
}

/* Whether path holds nothing but requests (or nothing): a file this
** command wrote, which --out may replace. */
static int is_our_output(const char *path) {
    size_t len;
    int err;
    char *text = sq_read_file(path, &len, &err);
    if (!text) return 0;
    SqArena *a = sq_arena_new();
    int ours = 1;
    for (size_t off = 0; off < len && ours;) {
        const char *line = text + off, *nl = memchr(line, '\n', len - off);
        size_t n = nl ? (size_t)(nl - line) : len - off;
        ours = sq_prompt_is_request(a, line, n);
        sq_arena_reset(a);
        off += n + 1;
    }
    sq_arena_free(a);
    free(text);
    return ours;
}

/* The files the run reads, for --out's check. */
static size_t run_inputs(const PromptRun *r, SqOutInput *in) {
    size_t n = 0;
    const CliSchema *s = &r->cq.schema;
    in[n++] = (SqOutInput){r->file, "FILE"};
    if (s->path) in[n++] = (SqOutInput){s->path, s->option};
    if (r->template_path) in[n++] = (SqOutInput){r->template_path, "--template"};
    if (r->cq.db_id_from) in[n++] = (SqOutInput){r->cq.db_id_from, "--db-id-from"};
    if (r->metadata) in[n++] = (SqOutInput){r->metadata, "--metadata"};
    if (r->fixtures) in[n++] = (SqOutInput){r->fixtures, "--fixtures"};
    return n;
}

int cli_requests_out_check(const char *cmd, const char *opt, const char *path, int force, const SqOutInput *in,
                           size_t n) {
    if (!force && !sq_out_input_of(path, in, n) && sq_path_exists(path) && !sq_path_is_special(path) &&
        !is_our_output(path)) {
        fprintf(stderr, "squint %s: %s: '%s' exists and holds other things than requests squint wrote; pass "
                        "--force to replace it\n", cmd, opt, path);
        return -1;
    }
    SqBuf why = SQ_BUF_INIT;
    int rc = sq_out_check(path, 1, in, n, &why);
    if (rc < 0) fprintf(stderr, "squint %s: %s: %s\n", cmd, opt, sq_buf_str(&why));
    sq_buf_free(&why);
    return rc;
}

/* --out may be written (asked before any work): -1 to go on, or 2. */
static int check_out(PromptRun *r) {
    if (!r->out_path) return -1;
    SqOutInput in[6];
    size_t n = run_inputs(r, in);
    return cli_requests_out_check("prompt", "--out", r->out_path, r->force, in, n) < 0 ? SQ_EXIT_USAGE : -1;
}

/* Write the requests: standard output, or --out replaced whole.  The
** exit status, rc when the writing went well. */
static int write_output(PromptRun *r, int rc) {
    if (!r->out_path) {
        cli_flush(&r->out, stdout);
        return fflush(stdout) == 0 ? rc : SQ_EXIT_USAGE;
    }
    int err = 0;
    if (sq_write_replace(r->out_path, sq_buf_str(&r->out), r->out.len, &err) < 0) {
        fprintf(stderr, "squint prompt: cannot write '%s': %s\n", r->out_path, strerror(err));
        return SQ_EXIT_USAGE;
    }
    fprintf(stderr, "squint prompt: %zu request%s written to %s\n", r->n_ids, r->n_ids == 1 ? "" : "s", r->out_path);
    return rc;
}

/* Print the diagnostics, decide the status, write (or not). */
static int finish(PromptRun *r) {
    int rc = cli_queries_finish(&r->cq);
    if (check_ids(r) < 0 || r->n_lacking || r->input_failed || sq_diags_have_input_problem(&r->cq.diags)) rc = SQ_EXIT_USAGE;
    if (rc != SQ_EXIT_OK && !r->keep_going) {
        fprintf(stderr, "squint prompt: nothing written (--keep-going writes the %zu request%s made)\n", r->n_ids,
                r->n_ids == 1 ? "" : "s");
        return rc;
    }
    return write_output(r, rc);
}

/* ------------------------------------------------------------------ */
/* The command                                                         */
/* ------------------------------------------------------------------ */

/* TASK, the first word: a task's name, or --help / --list.  The task,
** or NULL with *rc the exit code. */
static const SqPromptTask *read_task(int argc, char **argv, int *rc) {
    const char *name = argc > 1 ? argv[1] : NULL;
    *rc = SQ_EXIT_USAGE;
    if (name && (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0 || strcmp(name, "--list") == 0)) {
        if (strcmp(name, "--list") == 0) list_tasks();
        else print_usage(stdout);
        *rc = SQ_EXIT_OK;
        return NULL;
    }
    if (name && strcmp(name, "--version") == 0) {
        *rc = cli_version();
        return NULL;
    }
    if (!name || name[0] == '-') {
        fputs(name ? "squint prompt: the TASK comes first ('squint prompt --list' lists them)\n"
                   : "squint prompt: a TASK is needed ('squint prompt --list' lists them)\n", stderr);
        cli_usage_hint("prompt");
        return NULL;
    }
    const SqPromptTask *t = sq_prompt_task_find(name);
    if (!t) {
        size_t n;
        const SqPromptTask *all = sq_prompt_tasks(&n);
        fprintf(stderr, "squint prompt: no task '%s' (there are", name);
        for (size_t i = 0; i < n; i++) fprintf(stderr, "%s %s", i ? (i + 1 < n ? "," : " and") : "", all[i].name);
        fputs(")\n", stderr);
    }
    return t;
}

/* The options, the template and --out, in that order; -1 to go on. */
static int prepare(PromptRun *r, int argc, char **argv) {
    CliArgs a;
    cli_args_init(&a, argc, argv, "prompt");
    int rc = cli_queries_read_options(&r->cq, &a, cli_opts_prompt, own_option, r);
    if (rc < 0) rc = check_options(r, &a);
    if (rc < 0) rc = load_template(r);
    if (rc < 0) rc = check_out(r);
    if (rc < 0 && cli_queries_start(&r->cq) < 0) rc = SQ_EXIT_USAGE;
    return rc;
}

static void run_free(PromptRun *r) {
    for (size_t i = 0; i < r->n_ids; i++) free(r->ids[i]);
    free(r->ids);
    sq_db_close(r->db);
    sq_prompt_notes_free(r->notes);
    free(r->db_path);
    free(r->template_text);
    sq_buf_free(&r->out);
    sq_arena_free(r->arena);
    cli_queries_free(&r->cq);
}

int cmd_prompt(int argc, char **argv) {
    PromptRun r;
    memset(&r, 0, sizeof r);
    int rc;
    if (!(r.task = read_task(argc, argv, &rc))) return rc;
    r.format = SQ_FMT_JSONL;
    r.params.model = DEFAULT_MODEL;
    r.sample_rows = 3;
    r.arena = sq_arena_new();
    cli_queries_init(&r.cq, "prompt");
    argv[1] = argv[0]; /* the options and FILE follow TASK */
    rc = prepare(&r, argc - 1, argv + 1);
    if (rc < 0) {
        if (r.task->input == SQ_PROMPT_IN_GOLD) cli_queries_file(&r.cq, r.file, gold_query, &r);
        else records_file(&r, r.file);
        rc = finish(&r);
    }
    run_free(&r);
    return rc;
}
