/*
** llm_import.c -- `squint llm import TASK RECORDS`: the replies that
** `squint llm run` recorded, read into squint's own records, one per
** request: the fields of the task's reply format (backend/prompt/reply.c),
** or the reason the reply was rejected.
**
** Of several records of one custom_id (a request sent again with
** --retry-failed) the last counts, as in a resumed run.  The output is
** sorted by custom_id, numbers in it compared as numbers
** (sql-to-question/item-2 before item-10), so it does not depend on the
** order in which the replies arrived.
*/
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/llm/llm.h"
#include "backend/prompt/prompt.h"
#include "backend/synsql/synsql.h"
#include "cli/cli.h"
#include "cli/cli_config.h"
#include "cli/cli_schema.h"
#include "cli/llm_out.h"
#include "runtime/jsonw.h"
#include "runtime/safewrite.h"
#include "runtime/strmap.h"
#include "runtime/util.h"

/* Rejections listed on stderr before the rest are only counted. */
#define MAX_SHOWN 10

static const char import_usage[] =
    "usage: squint llm import TASK RECORDS [--out FILE] [options]\n"
    "\n"
    "Read the replies in RECORDS ('squint llm run --out') to requests of TASK\n"
    "('squint prompt TASK') into one JSON line per request: the reply's fields\n"
    "(for sql-to-question the questions, for question-check the verdict and the\n"
    "reason; docs/prompts.md lists them), or the reason it was rejected (the\n"
    "request failed; the reply lacks an element, has too many, or a value the\n"
    "task does not allow).  Lines are sorted by custom_id.\n"
    "\n"
    "synsql-synthesizer's replies (INSERT statements) are checked against the\n"
    "schema a schema option gives (required for that task): only INSERT ... VALUES\n"
    "into its tables, each row applied to a fresh database of the schema with\n"
    "every constraint on; a reply none of whose rows is taken is rejected.\n"
    "\n"
    "With --attach GOLD the replies go back into the gold they were asked about\n"
    "(a JSON array of items, the file given to 'squint prompt'), written to --out:\n"
    "for sql-to-question an item per question the model wrote (question_id the\n"
    "item's * 10 + k, question_of the item's), for question-check each item with\n"
    "its \"check\" {verdict, reason} (verdict \"none\" when no reply was taken).\n"
    "For the tqa tasks (tqa-synonym, tqa-backtranslate, tqa-context) GOLD is the\n"
    "JSON of 'squint expand --tqa --format json': each query whose texts named its\n"
    "linker table gets the rewritten question and evidence (a synonym reply's\n"
    "words put in place), and the words that still name the table; a schema option\n"
    "leaves column names out of the evidence's check.  For expand-question GOLD is\n"
    "what 'squint expand --requests' wrote beside them (its JSON, or its --out\n"
    "records): an item per expansion with a question, its SQL the expansion's.\n"
    "\n"
    "options:\n"
    "      --out FILE         write to FILE instead of standard output: replaced\n"
    "                         whole, through a temporary file; an existing FILE\n"
    "                         must hold only this command's output (or --force),\n"
    "                         and is never RECORDS\n"
    "      --force            let --out replace any other file (never RECORDS)\n"
    "      --attach GOLD      write GOLD with the replies attached (see above) to\n"
    "                         --out, which is then required; an existing --out\n"
    "                         must be such a file (or --force)\n"
    "      --drop-rejected    with --attach, question-check: leave out the items\n"
    "                         whose verdict is not yes\n"
    "  -q, --quiet            no summary on stderr\n"
    "  -h, --help             show this help\n"
    "      --version          print the version and exit\n"
    "      --schema FILE, --db FILE, --db-root DIR --db-id X, --tables FILE --db-id X\n"
    "                         the schema of synsql-synthesizer's rows; for a tqa task\n"
    "                         with --attach, the schemas whose column names the\n"
    "                         evidence's check leaves out\n"
    "\n"
    "exit status: 0 every reply imported; 1 some rejected (their lines say why);\n"
    "2 bad usage, or RECORDS is not a records file of squint llm run.\n" CLI_EXIT_OOM;

const CliOpt cli_opts_llm_import[] = {
    {"out", 0, 1}, {"force", 0, 0}, {"attach", 0, 1}, {"drop-rejected", 0, 0}, {"quiet", 'q', 0}, {"help", 'h', 0},
    CLI_SCHEMA_OPTIONS, {NULL, 0, 0},
};

typedef struct ImportRun {
    CliSchema schema;   /* synsql-synthesizer: the schema its rows go into */
    SqSrcSet srcs;
    SqDiags diags;
    SqInterner *names;
    const Catalog *cat;
    const char *task, *records, *out;
    const char *attach;  /* --attach GOLD, or NULL */
    int force, quiet, drop_rejected;
    SqStrMap *last;     /* custom_id -> the line number of its last record */
    LlmImported *items;
    size_t n, cap, n_rejected;
} ImportRun;

/* ---- reading the records ------------------------------------------------ */

/* Each line of RECORDS in turn (with its number), parsed; NULL at the
** end.  A line that is not a record of ours ends the run with a message
** (*bad set). */
static cJSON *next_record(ImportRun *r, FILE *f, char **line, size_t *cap, long *lineno, int *bad) {
    ssize_t n = getline(line, cap, f);
    if (n <= 0) return NULL;
    ++*lineno;
    size_t len = (size_t)n - ((*line)[n - 1] == '\n');
    cJSON *rec = sq_llm_record_parse(*line, len);
    if (!rec) {
        fprintf(stderr, "squint llm import: %s:%ld: not a record of squint llm run\n", r->records, *lineno);
        *bad = 1;
        return NULL;
    }
    return rec;
}

static const char *id_of(const cJSON *rec) { return cJSON_GetObjectItemCaseSensitive(rec, "custom_id")->valuestring; }

/* Call each(r, rec, lineno) for every record of RECORDS, in file order.
** 0, or -1 after a message (a file that cannot be read, a line that is
** not a record). */
static int each_record(ImportRun *r, void (*each)(ImportRun *, const cJSON *, long)) {
    FILE *f = fopen(r->records, "rb");
    if (!f) {
        cli_io_error("llm import", r->records, errno);
        return -1;
    }
    char *line = NULL;
    size_t cap = 0;
    long lineno = 0;
    int bad = 0;
    cJSON *rec;
    while ((rec = next_record(r, f, &line, &cap, &lineno, &bad))) {
        each(r, rec, lineno);
        cJSON_Delete(rec);
    }
    free(line);
    fclose(f);
    return bad ? -1 : 0;
}

/* Pass 1: the line of the last record of each custom_id. */
static void note_last(ImportRun *r, const cJSON *rec, long lineno) {
    *sq_strmap_put(r->last, id_of(rec), NULL) = (int)lineno;
}

/* ---- one reply ------------------------------------------------------------ */

/* The reply's message content, or NULL with why set. */
static const char *reply_content(const cJSON *rec, SqBuf *why) {
    const cJSON *sq = cJSON_GetObjectItemCaseSensitive(rec, "squint");
    const cJSON *status = cJSON_GetObjectItemCaseSensitive(sq, "status");
    if (!cJSON_IsString(status) || strcmp(status->valuestring, "ok") != 0) {
        const cJSON *err = cJSON_GetObjectItemCaseSensitive(rec, "error");
        const cJSON *msg = cJSON_GetObjectItemCaseSensitive(err, "message");
        sq_buf_printf(why, "the request failed: %s", cJSON_IsString(msg) ? msg->valuestring : "no reply");
        return NULL;
    }
    const cJSON *body = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(rec, "response"), "body");
    const cJSON *choices = cJSON_GetObjectItemCaseSensitive(body, "choices");
    const cJSON *msg = cJSON_GetObjectItemCaseSensitive(cJSON_IsArray(choices) ? choices->child : NULL, "message");
    const cJSON *content = cJSON_GetObjectItemCaseSensitive(msg, "content");
    if (!cJSON_IsString(content)) {
        sq_buf_puts(why, "the record holds no message content");
        return NULL;
    }
    return content->valuestring;
}

/* Whether a custom_id names another task ("paraphrase/item-3" read as
** sql-to-question): -1 with the reason then. */
static int check_task(const ImportRun *r, const char *id, SqBuf *why) {
    const char *slash = strchr(id, '/');
    if (!slash) return 0;
    size_t k = (size_t)(slash - id);
    if (k == strlen(r->task) && memcmp(id, r->task, k) == 0) return 0;
    char *other = sq_strndup(id, k);
    int known = sq_prompt_task_find(other) != NULL;
    if (known) sq_buf_printf(why, "a reply to the task %s, not %s", other, r->task);
    free(other);
    return known ? -1 : 0;
}

/* synsql-synthesizer: the reply's statements applied to a fresh database
** of the schema (the fields written so far hold its "sql"); the counts
** and drops added to the fields.  Whether a row was taken. */
static int rows_taken(ImportRun *r, SqJsonWriter *fw, SqBuf *why) {
    SqBuf copy = SQ_BUF_INIT;
    sq_buf_put(&copy, fw->out->data, fw->out->len);
    sq_buf_putc(&copy, '}');
    cJSON *fields = cJSON_Parse(copy.data);
    const cJSON *sql = cJSON_GetObjectItemCaseSensitive(fields, "sql");
    size_t kept = cJSON_IsString(sql) ? sq_synsql_rows(r->cat, sql->valuestring, fw) : 0;
    if (!kept) sq_buf_puts(why, "no row of the reply is one the schema takes (see squint fixture --llm's report for why)");
    cJSON_Delete(fields);
    sq_buf_free(&copy);
    return kept > 0;
}

static void import_one(ImportRun *r, const cJSON *rec) {
    const char *id = id_of(rec);
    SqBuf line = SQ_BUF_INIT, why = SQ_BUF_INIT, fields = SQ_BUF_INIT;
    SqJsonWriter fw;
    sq_jw_init(&fw, &fields, 0);
    sq_jw_obj_begin(&fw);
    const char *content = check_task(r, id, &why) < 0 ? NULL : reply_content(rec, &why);
    int ok = content && sq_prompt_reply_parse(r->task, content, strlen(content), &fw, &why) == 0;
    if (ok && r->cat) ok = rows_taken(r, &fw, &why);
    sq_jw_obj_end(&fw);
    SqJsonWriter w;
    sq_jw_init(&w, &line, 0);
    sq_jw_obj_begin(&w);
    sq_jw_key(&w, "custom_id");
    sq_jw_str(&w, id);
    sq_jw_key(&w, "task");
    sq_jw_str(&w, r->task);
    sq_jw_key(&w, "status");
    sq_jw_str(&w, ok ? "ok" : "rejected");
    if (ok) {   /* the fields' object without its opening brace closes the record */
        sq_buf_putc(&line, ',');
        sq_buf_put(&line, fields.data + 1, fields.len - 1);
    } else {
        if (!ok) {
            sq_jw_key(&w, "reason");
            sq_jw_str(&w, why.data);
        }
        sq_jw_obj_end(&w);
    }
    sq_buf_putc(&line, '\n');
    if (r->n == r->cap) r->items = sq_realloc(r->items, (r->cap = r->cap ? 2 * r->cap : 64) * sizeof *r->items);
    r->items[r->n++] = (LlmImported){sq_strdup(id), sq_buf_detach(&line), ok};
    r->n_rejected += !ok;
    sq_buf_free(&why);
    sq_buf_free(&fields);
}

/* Whether id is a reply to a tqa task other than ours, itself one: the
** three tasks' requests are one file (squint expand --tqa --requests),
** so each task's import passes over the others' replies. */
static int other_tqa_task(const ImportRun *r, const char *id) {
    size_t k = strlen(r->task);
    return llm_tqa_task(r->task) && llm_tqa_task(id) && !(strncmp(id, r->task, k) == 0 && id[k] == '/');
}

/* Pass 2: import the last record of each custom_id. */
static void import_last(ImportRun *r, const cJSON *rec, long lineno) {
    if (*sq_strmap_get(r->last, id_of(rec)) == lineno && !other_tqa_task(r, id_of(rec))) import_one(r, rec);
}

/* ---- output --------------------------------------------------------------- */

/* strcmp, but a run of digits against a run of digits compares as
** numbers. */
static int natural_cmp(const char *a, const char *b) {
    while (*a && *b) {
        if (*a >= '0' && *a <= '9' && *b >= '0' && *b <= '9') {
            while (*a == '0') a++;
            while (*b == '0') b++;
            size_t na = strspn(a, "0123456789"), nb = strspn(b, "0123456789");
            if (na != nb) return na < nb ? -1 : 1;
            int c = strncmp(a, b, na);
            if (c) return c;
            a += na;
            b += nb;
            continue;
        }
        if (*a != *b) return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
        a++, b++;
    }
    return *a ? 1 : *b ? -1 : 0;
}

static int by_id(const void *x, const void *y) {
    const LlmImported *a = x, *b = y;
    int c = natural_cmp(a->custom_id, b->custom_id);
    return c ? c : strcmp(a->custom_id, b->custom_id);
}

/* Whether path holds nothing but this command's lines (or nothing). */
static int is_import_output(const char *path) {
    size_t len;
    int err;
    char *text = sq_read_file(path, &len, &err);
    if (!text) return 0;
    int ours = 1;
    for (char *at = text, *end = text + len; at < end && ours;) {
        char *nl = memchr(at, '\n', (size_t)(end - at));
        size_t n = nl ? (size_t)(nl - at) : (size_t)(end - at);
        cJSON *v = cJSON_ParseWithLength(at, n);
        const cJSON *st = cJSON_GetObjectItemCaseSensitive(v, "status");
        ours = cJSON_IsString(cJSON_GetObjectItemCaseSensitive(v, "custom_id")) &&
               cJSON_IsString(cJSON_GetObjectItemCaseSensitive(v, "task")) && cJSON_IsString(st) &&
               (strcmp(st->valuestring, "ok") == 0 || strcmp(st->valuestring, "rejected") == 0);
        cJSON_Delete(v);
        at += n + 1;
    }
    free(text);
    return ours;
}

/* --out may be written: -1 to go on, or 2. */
static int check_out(const ImportRun *r) {
    if (!r->out) return -1;
    SqOutInput in[1] = {{r->records, "RECORDS"}};
    if (!r->force && !sq_out_input_of(r->out, in, 1) && sq_path_exists(r->out) && !sq_path_is_special(r->out) &&
        !is_import_output(r->out)) {
        fprintf(stderr, "squint llm import: --out: '%s' exists and holds other things than this command's "
                        "output; pass --force to replace it\n", r->out);
        return SQ_EXIT_USAGE;
    }
    SqBuf why = SQ_BUF_INIT;
    int rc = sq_out_check(r->out, 1, in, 1, &why);
    if (rc < 0) fprintf(stderr, "squint llm import: --out: %s\n", sq_buf_str(&why));
    sq_buf_free(&why);
    return rc < 0 ? SQ_EXIT_USAGE : -1;
}

static int write_out(ImportRun *r) {
    if (r->n) qsort(r->items, r->n, sizeof *r->items, by_id);
    SqBuf all = SQ_BUF_INIT;
    for (size_t i = 0; i < r->n; i++) sq_buf_puts(&all, r->items[i].line);
    int err = 0, rc = 0;
    if (!r->out) {
        cli_flush(&all, stdout);
        rc = fflush(stdout) == 0 ? 0 : -1;
        err = errno;
    } else {
        rc = sq_write_replace(r->out, sq_buf_str(&all), all.len, &err);
    }
    if (rc < 0) fprintf(stderr, "squint llm import: cannot write '%s': %s\n", r->out ? r->out : "standard output",
                        strerror(err));
    sq_buf_free(&all);
    return rc;
}

static void summary(const ImportRun *r) {
    if (r->quiet) return;
    size_t shown = 0;
    for (size_t i = 0; i < r->n && shown < MAX_SHOWN; i++) {
        if (r->items[i].ok) continue;
        cJSON *v = cJSON_Parse(r->items[i].line);
        const cJSON *why = cJSON_GetObjectItemCaseSensitive(v, "reason");
        fprintf(stderr, "squint llm import: %s: %s\n", r->items[i].custom_id, cJSON_IsString(why) ? why->valuestring : "?");
        cJSON_Delete(v);
        shown++;
    }
    if (r->n_rejected > shown) fprintf(stderr, "squint llm import: ... and %zu more rejected\n", r->n_rejected - shown);
    const char *to = r->out && !r->attach ? r->out : NULL;
    fprintf(stderr, "squint llm import: %zu repl%s to %s: %zu imported, %zu rejected%s%s\n", r->n,
            r->n == 1 ? "y" : "ies", r->task, r->n - r->n_rejected, r->n_rejected, to ? "; written to " : "",
            to ? to : "");
}

/* ---- the command ---------------------------------------------------------- */

static int read_options(ImportRun *r, int argc, char **argv) {
    CliArgs a;
    cli_args_init(&a, argc, argv, "llm import");
    const char *name, *val;
    while ((name = cli_next_opt(&a, cli_opts_llm_import, &val))) {
        if (strcmp(name, "?") == 0) return SQ_EXIT_USAGE;
        if (strcmp(name, "help") == 0) {
            fputs(import_usage, stdout);
            cli_help_common(stdout, cli_opts_llm_import, 0);
            return SQ_EXIT_OK;
        }
        int handled = cli_schema_option(&r->schema, name, val);
        if (handled < 0) return SQ_EXIT_USAGE;
        if (handled) continue;
        if (strcmp(name, "out") == 0) r->out = val;
        else if (strcmp(name, "force") == 0) r->force = 1;
        else if (strcmp(name, "attach") == 0) r->attach = val;
        else if (strcmp(name, "drop-rejected") == 0) r->drop_rejected = 1;
        else if (strcmp(name, "quiet") == 0) r->quiet = 1;
    }
    if (a.argc - a.i != 2) {
        fputs("squint llm import: TASK and RECORDS are needed\ntry 'squint llm import --help'\n", stderr);
        return SQ_EXIT_USAGE;
    }
    r->task = a.argv[a.i];
    r->records = a.argv[a.i + 1];
    if (!sq_prompt_reply_known(r->task)) {
        size_t n;
        const SqPromptTask *t = sq_prompt_tasks(&n);
        fprintf(stderr, "squint llm import: no task '%s' whose replies squint reads (there are", r->task);
        for (size_t i = 0; i < n; i++)
            if (sq_prompt_reply_known(t[i].name)) fprintf(stderr, "%s %s", i ? "," : "", t[i].name);
        fputs(")\n", stderr);
        return SQ_EXIT_USAGE;
    }
    if (r->attach && !llm_attach_task(r->task)) {
        fprintf(stderr, "squint llm import: --attach takes the replies of sql-to-question, question-check, "
                        "expand-question and the tqa tasks, not of %s\n", r->task);
        return SQ_EXIT_USAGE;
    }
    if (r->drop_rejected && !(r->attach && strcmp(r->task, "question-check") == 0)) {
        fputs("squint llm import: --drop-rejected is for question-check with --attach\n", stderr);
        return SQ_EXIT_USAGE;
    }
    return -1;
}

/* synsql-synthesizer's schema: required for it; for a tqa task with
** --attach, the schemas whose column names the evidence's check leaves
** out (optional, one per db_id); refused for the others.  -1 to go on,
** or 2. */
static int load_schema(ImportRun *r) {
    int wants = strcmp(r->task, "synsql-synthesizer") == 0, given = cli_schema_given(&r->schema);
    if (given && r->attach && llm_tqa_task(r->task))
        return cli_schema_start(&r->schema, &r->srcs, r->names, &r->diags) == 0 ? -1 : SQ_EXIT_USAGE;
    if (wants != given) {
        fprintf(stderr, wants ? "squint llm import: synsql-synthesizer's rows are checked against a schema: give "
                                "--schema, --db, --db-root or --tables\n"
                              : "squint llm import: a schema option is only for synsql-synthesizer, and for the "
                                "tqa tasks with --attach\n");
        return SQ_EXIT_USAGE;
    }
    if (!wants) return -1;
    if (cli_schema_start(&r->schema, &r->srcs, r->names, &r->diags) == 0)
        r->cat = cli_schema_resolve(&r->schema, NULL, sq_span(0, 0, 0));
    cli_print_diags_text(&r->diags, 0, cli_stderr_color_default());
    return r->cat ? -1 : SQ_EXIT_USAGE;
}

int llm_import(int argc, char **argv) {
    ImportRun r = {0};
    r.last = sq_strmap_new();
    r.names = sq_interner_new();
    sq_srcset_init(&r.srcs);
    sq_diags_init(&r.diags, &r.srcs);
    cli_schema_init(&r.schema, "llm import");
    int rc = read_options(&r, argc, argv);
    if (rc < 0) rc = load_schema(&r);
    if (rc < 0) rc = r.attach ? llm_attach_check_out(r.task, r.attach, r.records, r.out, r.force) : check_out(&r);
    if (rc < 0 && (each_record(&r, note_last) < 0 || each_record(&r, import_last) < 0)) rc = SQ_EXIT_USAGE;
    if (rc < 0 && !r.attach && write_out(&r) < 0) rc = SQ_EXIT_USAGE;
    if (rc < 0) {
        summary(&r);
        int arc = !r.attach             ? SQ_EXIT_OK
                  : llm_tqa_task(r.task)   ? llm_tqa_attach(r.task, r.attach, r.out, r.quiet, &r.schema, r.items, r.n)
                  : strcmp(r.task, "expand-question") == 0 ? llm_expand_attach(r.attach, r.out, r.quiet, r.items, r.n)
                  : llm_attach(r.task, r.attach, r.out, r.drop_rejected, r.quiet, r.items, r.n);
        rc = arc != SQ_EXIT_OK ? arc : r.n_rejected ? SQ_EXIT_FINDINGS : SQ_EXIT_OK;
    }
    for (size_t i = 0; i < r.n; i++) {
        free(r.items[i].custom_id);
        free(r.items[i].line);
    }
    free(r.items);
    sq_strmap_free(r.last);
    cli_schema_free(&r.schema);
    sq_diags_free(&r.diags);
    sq_srcset_free(&r.srcs);
    sq_interner_free(r.names);
    return rc;
}
