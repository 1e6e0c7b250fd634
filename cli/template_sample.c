/*
** template_sample.c -- `squint template sample`: new items from each gold
** query's template, every one checked (backend/template/tmpl.h), one
** JSON record per instance in --out.
**
** Layer: cli.  The gold is read as `squint template extract` reads it;
** each query runs on its item's database (--db, or --db-root's file for
** its db_id).  A source's records are appended to --out together and
** synced, so a stopped run is resumed by running it again: the sources
** whose records are all there are skipped, and a source a killed run left
** half written is written again, its part cut off first.  A file that
** holds anything but such records is refused.
*/
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/template/tmpl.h"
#include "cli/cli.h"
#include "cli/cli_config.h"
#include "cli/cli_queries.h"
#include "cli/cli_records.h"
#include "cli/template_int.h"
#include "runtime/json.h"
#include "runtime/pool.h"
#include "runtime/strmap.h"

static const char sample_head[] =
    "usage: squint template sample --gold FILE --out FILE [options] SCHEMA-OPTION\n"
    "\n"
    "Make new items from every SELECT of the gold FILE (a SQL script or a benchmark\n"
    "file): write values drawn from the database into each query's slots (see\n"
    "'squint template extract') and alter it, and check every instance: it binds,\n"
    "no lint rule at error level fires, it returns a row that is not all NULL on\n"
    "the database, and it is not the same query as the source or as an instance\n"
    "accepted before it (a different result shows that; equal results go to the\n"
    "equivalence search).  One JSON record per instance, valid or not, in FILE.\n"
    "The data comes from --db, --db-root's database of each item, or --fixtures.\n"
    "\n"
    "options:\n"
    "      --gold FILE        the queries; required\n"
    "      --out FILE         the records (JSON Lines): created, or appended to when\n"
    "                         an earlier run wrote it; a source whose records are\n"
    "                         there is skipped; required\n"
    "  -n, --n N              instances per query, 1 to 1000 (default 10)\n"
    "      --fixtures DIR     sample from and run on each question's witness that\n"
    "                         'squint fixture --out DIR' built (DIR/<id>/00.sqlite),\n"
    "                         not the schema option's databases: for a benchmark\n"
    "                         whose databases are not at hand\n"
    "  -j, --jobs N           queries sampled at once, each in its own process, 1 to\n"
    "                         256 (default 1); the file is the same for every N\n"
    "      --seed S           the seed of every choice (default 0): the same seed\n"
    "                         gives the same file\n"
    "      --items FILE       also write the valid instances of --out (this run's and\n"
    "                         earlier runs') as a gold file in BIRD's dev.json form,\n"
    "                         for 'squint prompt sql-to-question'; replaced whole,\n"
    "                         only when it is such a file\n"
    "      --keep-superlatives  the LIMIT 1 of an ORDER BY is not a slot\n"
    "      --reference-date T the instant 'now' and CURRENT_* stand for, in every run\n"
    "                         and every proof: 'YYYY-MM-DD' or 'YYYY-MM-DD HH:MM:SS',\n"
    "                         UTC (default " TEMPLATE_REFERENCE_DATE "); relative time\n"
    "                         references are drawn as spans back from it\n"
    "      --bound N          tables of up to N rows in the search that tells an\n"
    "                         instance from one with the same rows on the database,\n"
    "                         1 to 8 (default 2)\n"
    "      --rlimit N         z3's resource units for that search, per pair (default\n"
    "                         10000000): the same on every machine\n"
    "  -q, --quiet            no summary on stderr\n"
    "  -h, --help             show this help\n"
    "      --version          print the version and exit\n";

static const char sample_tail[] =
    "\n"
    "exit status: 0 done, 1 a statement has errors, 2 usage error, unreadable\n"
    "input, schema or database, or an --out that is not a records file of this\n"
    "command\n" CLI_EXIT_OOM;

const CliOpt cli_opts_template_sample[] = {
    {"gold", 0, 1},   {"out", 0, 1},   {"items", 0, 1}, {"n", 'n', 1},   {"seed", 0, 1}, {"fixtures", 0, 1}, {"jobs", 'j', 1}, {"reference-date", 0, 1},
    {"keep-superlatives", 0, 0}, {"bound", 0, 1}, {"rlimit", 0, 1}, {"quiet", 'q', 0}, {"help", 'h', 0},
    CLI_QUERIES_OPTIONS, {NULL, 0, 0}};

typedef struct SampleRun {
    SqTmplOptions opt;
    SqTemplateOptions slots;
    const char *gold, *out, *items;
    const char *fixtures;  /* --fixtures DIR, or NULL */
    const char *reference_date; /* 'now', as given (or the default's text) */
    int quiet;
    SqPoolOptions pool;    /* one process per source query */
    SqPool *workers;
    CliQuery *cur;         /* the source a worker forked now samples */
    const char *cur_sid;
    struct Ended {         /* a source's output, kept until those before it
                              are written, so that every -j writes one file */
        int ready;
        char sid[32];
        SqBuf out;
        SqTaskEnd end;
        int detail;
    } *ended;
    size_t n_ended, cap_ended, next_write;
    CliQueries cq;
    SqStrMap *done;        /* source ids whose records are all in --out */
    char options[160];     /* what the records depend on, in every record */
    int fd;
    uint64_t n_sources, n_skipped, n_failed, n_made, n_valid, n_used_up;
    uint64_t n_by_text, n_by_form, n_by_solver, n_redraws;
    double *valid_ms;      /* each valid instance's time */
    size_t n_valid_ms, cap_valid_ms;
    struct Reason {        /* the kinds of rejection, in the order first met */
        char what[96];
        uint64_t n;
    } reasons[32];
    uint32_t n_reasons;
    int write_failed;
} SampleRun;

static int own_option(void *ctx, const char *name, const char *val) {
    SampleRun *r = ctx;
    long n;
    if (strcmp(name, "help") == 0) {
        cli_queries_usage(stdout, sample_head, sample_tail);
        cli_help_common(stdout, cli_opts_template_sample, 1);
        return SQ_EXIT_OK;
    }
    if (strcmp(name, "gold") == 0) r->gold = val;
    else if (strcmp(name, "out") == 0) r->out = val;
    else if (strcmp(name, "items") == 0) r->items = val;
    else if (strcmp(name, "fixtures") == 0) r->fixtures = val;
    else if (strcmp(name, "reference-date") == 0) {
        if (cli_parse_instant(val, &r->opt.now) < 0) {
            fprintf(stderr, "squint template sample: --reference-date takes a UTC date 'YYYY-MM-DD' or instant "
                            "'YYYY-MM-DD HH:MM:SS' from 1970 on, not '%s'\n", val);
            return SQ_EXIT_USAGE;
        }
        r->opt.equiv.now = r->opt.now;
        r->reference_date = val;
    }
    else if (strcmp(name, "jobs") == 0) {
        if (cli_parse_count("template sample", "--jobs", val, 1, 256, &n) >= 0) return SQ_EXIT_USAGE;
        r->pool.jobs = (unsigned)n;
    }
    else if (strcmp(name, "keep-superlatives") == 0) r->slots.keep_superlatives = 1;
    else if (strcmp(name, "quiet") == 0) r->quiet = 1;
    else if (strcmp(name, "n") == 0) {
        if (cli_parse_count("template sample", "--n", val, 1, 1000, &n) >= 0) return SQ_EXIT_USAGE;
        r->opt.n = (uint32_t)n;
    } else if (strcmp(name, "seed") == 0) {
        char *end;
        errno = 0;
        unsigned long long s = strtoull(val, &end, 10);
        if (errno || end == val || *end || val[0] == '-') {
            fprintf(stderr, "squint template sample: --seed takes a number from 0 to 2^64-1, not '%s'\n", val);
            return SQ_EXIT_USAGE;
        }
        r->opt.seed = s;
    } else if (strcmp(name, "bound") == 0) {
        if (cli_parse_count("template sample", "--bound", val, 1, 8, &n) >= 0) return SQ_EXIT_USAGE;
        r->opt.equiv.bound = (int)n;
    } else if (strcmp(name, "rlimit") == 0) {
        if (cli_parse_count("template sample", "--rlimit", val, 1, 4000000000L, &n) >= 0) return SQ_EXIT_USAGE;
        r->opt.equiv.rlimit = (uint64_t)n;
    } else {
        return SQ_EXIT_USAGE; /* "?": cli_next_opt said why */
    }
    return -1;
}

/* ---- records ------------------------------------------------------------ */

static void record(SampleRun *r, SqBuf *out, const CliQuery *q, const char *sid, uint32_t total,
                   const SqTmplInstance *in) {
    SqJsonWriter w;
    sq_jw_init(&w, out, 0);
    sq_jw_obj_begin(&w);
    sq_jw_key(&w, "record");
    sq_jw_str(&w, TEMPLATE_RECORD);
    sq_jw_key(&w, "id");
    sq_jw_str(&w, sq_arena_printf(q->arena, "%s-%u", sid, in->index));
    sq_jw_key(&w, "source_id");
    sq_jw_str(&w, sid);
    sq_jw_key(&w, "template_id");
    sq_jw_str(&w, sid);
    sq_jw_key(&w, "instance");
    sq_jw_int(&w, in->index);
    sq_jw_key(&w, "of");
    sq_jw_int(&w, total);
    sq_jw_key(&w, "options");
    sq_jw_str(&w, r->options);
    sq_jw_key(&w, "db_id");
    if (q->item && q->item->db_id) sq_jw_str(&w, q->item->db_id);
    else sq_jw_null(&w);
    sq_jw_key(&w, "slots");
    sq_jw_obj_begin(&w);
    for (uint32_t i = 0; i < in->n_changes; i++)
        if (strcmp(in->changes[i].kind, "value") == 0) {
            sq_jw_key(&w, in->changes[i].slot);
            sq_jw_str(&w, in->changes[i].to);
        }
    sq_jw_obj_end(&w);
    sq_jw_key(&w, "alterations");
    sq_jw_arr_begin(&w);
    for (uint32_t i = 0; i < in->n_changes; i++) {
        const SqTmplChange *c = &in->changes[i];
        if (strcmp(c->kind, "value") == 0) continue;
        sq_jw_obj_begin(&w);
        sq_jw_key(&w, "kind");
        sq_jw_str(&w, c->kind);
        sq_jw_key(&w, "slot");
        if (c->slot) sq_jw_str(&w, c->slot);
        else sq_jw_null(&w);
        sq_jw_key(&w, "from");
        sq_jw_str(&w, c->from);
        sq_jw_key(&w, "to");
        sq_jw_str(&w, c->to);
        sq_jw_obj_end(&w);
    }
    sq_jw_arr_end(&w);
    sq_jw_key(&w, "sql");
    sq_jw_str(&w, in->sql);
    sq_jw_key(&w, "reference_date");
    if (in->reads_clock) sq_jw_str(&w, r->reference_date);
    else sq_jw_null(&w);
    sq_jw_key(&w, "result_rows");
    if (in->rows >= 0) sq_jw_int(&w, in->rows);
    else sq_jw_null(&w);
    sq_jw_key(&w, "valid");
    sq_jw_bool(&w, in->valid);
    sq_jw_key(&w, "reasons");
    sq_jw_arr_begin(&w);
    for (uint32_t i = 0; i < in->n_reasons; i++) sq_jw_str(&w, in->reasons[i]);
    sq_jw_arr_end(&w);
    sq_jw_key(&w, in->valid ? "distinct_by" : "same_as");
    const char *how = in->valid ? in->distinct_by : in->same_as;
    if (how) sq_jw_str(&w, how);
    else sq_jw_null(&w);
    if (!in->valid) {
        sq_jw_key(&w, "caught_by");
        if (in->caught_by) sq_jw_str(&w, in->caught_by);
        else sq_jw_null(&w);
    }
    sq_jw_obj_end(&w);
    sq_buf_putc(out, '\n');
}

/* The kind of a rejection, for the summary: its reason up to a colon or
** parenthesis ("does not run", "returns no row", "equivalent to the
** source"). */
static void count_reason(SampleRun *r, const char *why) {
    size_t n = strcspn(why, ":(");
    while (n && why[n - 1] == ' ') n--;
    char key[96];
    snprintf(key, sizeof key, "%.*s", (int)(n < sizeof key ? n : sizeof key - 1), why);
    if (strncmp(key, "equivalent to the instance", 26) == 0) strcpy(key, "equivalent to an instance");
    if (strncmp(key, "the same SQL as the instance", 28) == 0) strcpy(key, "the same SQL as an instance");
    if (strncmp(key, "not shown to differ from the instance", 37) == 0)
        strcpy(key, "not shown to differ from an instance");
    for (uint32_t i = 0; i < r->n_reasons; i++)
        if (strcmp(r->reasons[i].what, key) == 0) {
            r->reasons[i].n++;
            return;
        }
    if (r->n_reasons == SQ_ARRAY_LEN(r->reasons)) return;
    memcpy(r->reasons[r->n_reasons].what, key, sizeof key);
    r->reasons[r->n_reasons++].n = 1;
}

/* ---- each source, in a process of its own ----------------------------- */

/* The end of a worker's output: what the summary counts that the records
** do not hold. */
static void trailer(SqBuf *out, const SqTmplInstance *inst, uint32_t n, int used_up, const char *failed) {
    uint32_t redraws = 0;
    for (uint32_t i = 0; i < n; i++) redraws += inst[i].redraws;
    SqJsonWriter w;
    sq_jw_init(&w, out, 0);
    sq_jw_obj_begin(&w);
    sq_jw_key(&w, "failed");
    if (failed) sq_jw_str(&w, failed);
    else sq_jw_null(&w);
    sq_jw_key(&w, "used_up");
    sq_jw_bool(&w, used_up);
    sq_jw_key(&w, "redraws");
    sq_jw_int(&w, redraws);
    sq_jw_key(&w, "valid_ms");
    sq_jw_arr_begin(&w);
    for (uint32_t i = 0; i < n; i++)
        if (inst[i].valid) sq_jw_double(&w, inst[i].seconds * 1000.0);
    sq_jw_arr_end(&w);
    sq_jw_obj_end(&w);
    sq_buf_putc(out, '\n');
}

/* The database the source samples from and runs on, or NULL with *why. */
static SqDb *source_db(SampleRun *r, const CliQuery *q, const char **why) {
    const SqBenchItem *it = q->item;
    const char *path = NULL;
    if (!r->fixtures) path = cli_schema_db_path(&r->cq.schema, it ? it->db_id : NULL);
    else if (it) path = cli_fixture_db_path(q->arena, r->fixtures, it);
    if (!path) {
        *why = r->fixtures ? "no witness in --fixtures for it" : "no database to sample from";
        return NULL;
    }
    char *err = NULL;
    SqDb *db = sq_db_open_at(path, r->opt.now, &err);
    if (!db) *why = sq_arena_printf(q->arena, "cannot open '%s': %s", path, err ? err : "?");
    free(err);
    return db;
}

/* With --fixtures, the suite's other databases (01.sqlite, ...): they
** tell instances apart before the solver is asked.  How many, into *n. */
static SqDb **suite_dbs(SampleRun *r, const CliQuery *q, uint32_t *n) {
    *n = 0;
    if (!r->fixtures || !q->item) return NULL;
    SqDb **dbs = NULL;
    const char *path;
    for (unsigned k = 1; k < 100 && (path = cli_fixture_suite_path(q->arena, r->fixtures, q->item, k)); k++) {
        SqDb *db = sq_db_open_at(path, r->opt.now, NULL);
        if (!db) continue;   /* one that does not open only tells less apart */
        dbs = sq_realloc(dbs, (*n + 1) * sizeof *dbs);
        dbs[(*n)++] = db;
    }
    return dbs;
}

/* In a worker: the instances of the source r->cur, as records and a
** trailer. */
static int run_source(void *ctx, size_t task, SqBuf *out) {
    (void)task;
    SampleRun *r = ctx;
    CliQuery *q = r->cur;
    const char *why = NULL;
    SqDb *db = source_db(r, q, &why);
    SqTmplInstance *inst = NULL;
    uint32_t n = 0;
    if (db) {
        uint32_t n_also;
        SqDb **also = suite_dbs(r, q, &n_also);
        SqTmplSource src = {q->ir, q->cat, r->cq.names, sq_template_slots(q->ir, q->cat, &r->slots), db,
                            strtoull(r->cur_sid, NULL, 10), also, n_also};
        n = sq_tmpl_sample(&src, &r->opt, &inst, &why);
        sq_db_close(db);
        for (uint32_t i = 0; i < n_also; i++) sq_db_close(also[i]);
        free(also);
    }
    for (uint32_t i = 0; !why && i < n; i++) record(r, out, q, r->cur_sid, n, &inst[i]);
    trailer(out, inst, why ? 0 : n, !why && n < r->opt.n, why);
    return 0;
}

/* The summary's counts of one record line. */
static void tally_record(SampleRun *r, const char *line, size_t len) {
    SqArena *a = sq_arena_new();
    const SqJson *rec = sq_json_parse(a, line, len, NULL);
    r->n_made++;
    const SqJson *valid = sq_json_get(rec, "valid");
    if (valid && valid->kind == SQ_JSON_TRUE) {
        r->n_valid++;
    } else {
        const SqJson *reasons = sq_json_get(rec, "reasons");
        if (reasons && reasons->kind == SQ_JSON_ARRAY && reasons->n)
            count_reason(r, sq_json_string(reasons->items[0]));
        const char *by = sq_json_string(sq_json_get(rec, "caught_by"));
        if (by && strcmp(by, "text") == 0) r->n_by_text++;
        else if (by && strcmp(by, "normal form") == 0) r->n_by_form++;
        else if (by) r->n_by_solver++;
    }
    sq_arena_free(a);
}

/* The summary's counts of a trailer; 1 when the source failed. */
static int tally_trailer(SampleRun *r, const char *sid, const char *line, size_t len) {
    SqArena *a = sq_arena_new();
    const SqJson *t = sq_json_parse(a, line, len, NULL);
    const char *failed = sq_json_string(sq_json_get(t, "failed"));
    if (failed) fprintf(stderr, "squint template sample: source %s: %s\n", sid, failed);
    const SqJson *u = sq_json_get(t, "used_up"), *d = sq_json_get(t, "redraws"), *ms = sq_json_get(t, "valid_ms");
    r->n_used_up += u && u->kind == SQ_JSON_TRUE;
    if (d && d->kind == SQ_JSON_NUMBER) r->n_redraws += (uint64_t)d->num;
    for (uint32_t i = 0; ms && ms->kind == SQ_JSON_ARRAY && i < ms->n; i++) {
        if (r->n_valid_ms == r->cap_valid_ms)
            r->valid_ms = sq_realloc(r->valid_ms, (r->cap_valid_ms = r->cap_valid_ms ? 2 * r->cap_valid_ms : 64) *
                                                      sizeof *r->valid_ms);
        r->valid_ms[r->n_valid_ms++] = ms->items[i]->num;
    }
    sq_arena_free(a);
    return failed != NULL;
}

/* A source's output, in the parent: its records appended to --out (one
** synced write) and counted. */
static void write_source(SampleRun *r, struct Ended *e) {
    const char *text = e->out.data ? e->out.data : "";
    size_t len = e->out.len, last = len;
    if (len && text[len - 1] == '\n')
        for (last = len - 1; last && text[last - 1] != '\n'; last--) {}
    if (e->end != SQ_TASK_OK || last == len) {
        fprintf(stderr, "squint template sample: source %s: its process %s (%d)\n", e->sid,
                e->end == SQ_TASK_CRASHED ? "was killed by a signal" : "ended before its records were written",
                e->detail);
        r->n_failed++;
        return;
    }
    r->n_failed += (uint64_t)tally_trailer(r, e->sid, text + last, len - last - 1);
    for (size_t at = 0; at < last;) {
        size_t end = at;
        while (text[end] != '\n') end++;
        tally_record(r, text + at, end - at);
        at = end + 1;
    }
    if (last && cli_append_synced(r->fd, text, last) < 0 && !r->write_failed) {
        cli_io_error("template sample", r->out, errno);
        r->write_failed = 1;
    }
}

/* In the parent, as a worker ends: its output kept, and every source
** whose turn has come written. */
static int source_done(void *ctx, size_t task, SqTaskEnd end, int detail, const char *out, size_t n) {
    SampleRun *r = ctx;
    struct Ended *e = &r->ended[task];
    e->ready = 1;
    e->end = end;
    e->detail = detail;
    sq_buf_put(&e->out, out ? out : "", n);
    while (r->next_write < r->n_ended && r->ended[r->next_write].ready) {
        write_source(r, &r->ended[r->next_write]);
        sq_buf_free(&r->ended[r->next_write++].out);
    }
    return 0;
}

static void sample_query(void *arg, CliQuery *q) {
    SampleRun *r = arg;
    char buf[32];
    const char *sid = cli_query_source_id(q, r->n_sources++, buf);
    if (sq_strmap_get(r->done, sid)) {
        r->n_skipped++;
        return;
    }
    if (r->n_ended == r->cap_ended) {
        r->cap_ended = r->cap_ended ? 2 * r->cap_ended : 64;
        r->ended = sq_realloc(r->ended, r->cap_ended * sizeof *r->ended);
    }
    struct Ended *e = &r->ended[r->n_ended];
    memset(e, 0, sizeof *e);
    snprintf(e->sid, sizeof e->sid, "%s", sid);
    r->cur = q;
    r->cur_sid = e->sid;
    sq_pool_add(r->workers, r->n_ended++);
}

/* ---- the run ------------------------------------------------------------ */

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void summary(SampleRun *r) {
    fprintf(stderr, "squint template sample: %llu sources (%llu done before, %llu failed), %llu instances, "
                    "%llu valid (%.1f %%)\n",
            (unsigned long long)r->n_sources, (unsigned long long)r->n_skipped,
            (unsigned long long)r->n_failed, (unsigned long long)r->n_made, (unsigned long long)r->n_valid,
            r->n_made ? 100.0 * (double)r->n_valid / (double)r->n_made : 0.0);
    fprintf(stderr, "  %llu sources ran out of new variants before --n; %llu draws made again because their "
                    "query returned no row or only NULL\n",
            (unsigned long long)r->n_used_up, (unsigned long long)r->n_redraws);
    if (r->n_valid_ms) {
        double sum = 0;
        for (size_t i = 0; i < r->n_valid_ms; i++) sum += r->valid_ms[i];
        qsort(r->valid_ms, r->n_valid_ms, sizeof *r->valid_ms, cmp_double);
        fprintf(stderr, "  time per valid instance (checks included): median %.1f ms, mean %.1f ms\n",
                r->valid_ms[r->n_valid_ms / 2], sum / (double)r->n_valid_ms);
    }
    fprintf(stderr, "  duplicates caught by text %llu, by normal form %llu, by the solver %llu\n",
            (unsigned long long)r->n_by_text, (unsigned long long)r->n_by_form,
            (unsigned long long)r->n_by_solver);
    for (uint32_t i = 0; i < r->n_reasons; i++)
        fprintf(stderr, "  rejected: %s: %llu\n", r->reasons[i].what, (unsigned long long)r->reasons[i].n);
}

static int start(SampleRun *r, CliArgs *a) {
    if (!r->gold || !r->out) {
        fprintf(stderr, "squint template sample: %s is needed\n", !r->gold ? "--gold FILE" : "--out FILE");
        return SQ_EXIT_USAGE;
    }
    if (a->i < a->argc) {
        fprintf(stderr, "squint template sample: the gold is given with --gold, not as '%s'\n", a->argv[a->i]);
        return SQ_EXIT_USAGE;
    }
    if (strcmp(r->gold, r->out) == 0 || sq_same_file(r->gold, r->out)) {
        fprintf(stderr, "squint template sample: --out '%s' is the gold; squint never writes over its inputs\n",
                r->out);
        return SQ_EXIT_USAGE;
    }
    SqOutInput inputs[] = {{r->gold, "the gold"}, {r->out, "--out"}};
    if (r->items && template_items_check("template sample", r->items, inputs, 2) < 0) return SQ_EXIT_USAGE;
    snprintf(r->options, sizeof r->options,
             "n=%u seed=%llu bound=%d rlimit=%llu keep-superlatives=%d reference-date=%s", r->opt.n,
             (unsigned long long)r->opt.seed, r->opt.equiv.bound, (unsigned long long)r->opt.equiv.rlimit,
             r->slots.keep_superlatives, r->reference_date);
    CliRecords recs = {"template sample", TEMPLATE_RECORD, "instance", NULL, NULL};
    if (cli_records_read(&recs, r->out, r->options, r->done) < 0) return SQ_EXIT_USAGE;
    r->fd = open(r->out, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (r->fd < 0) {
        cli_io_error("template sample", r->out, errno);
        return SQ_EXIT_USAGE;
    }
    return -1;
}

int template_sample(int argc, char **argv) {
    SampleRun r;
    memset(&r, 0, sizeof r);
    r.opt = sq_tmpl_options_default();
    r.fd = -1;
    r.done = sq_strmap_new();
    r.pool.jobs = 1;
    r.reference_date = TEMPLATE_REFERENCE_DATE;
    r.pool.mem_limit = (uint64_t)4096 << 20;
    cli_queries_init(&r.cq, "template sample");
    r.cq.operands_optional = 1;
    CliArgs a;
    cli_args_init(&a, argc, argv, "template sample");
    a.operands = CLI_OPERANDS_FILES;
    int rc = cli_queries_read_options(&r.cq, &a, cli_opts_template_sample, own_option, &r);
    if (rc < 0) rc = start(&r, &a);
    if (rc < 0 && cli_queries_start(&r.cq) < 0) rc = SQ_EXIT_USAGE;
    if (rc < 0) {
        r.opt.bind = sq_db_bind_options();
        r.workers = sq_pool_new(&r.pool, run_source, source_done, &r);
        cli_queries_file(&r.cq, r.gold, sample_query, &r);
        sq_pool_finish(r.workers);
        if (!r.quiet) summary(&r);
        rc = cli_queries_finish(&r.cq);
        if (r.items && !r.write_failed && template_items_write("template sample", r.out, r.items) < 0)
            rc = SQ_EXIT_USAGE;
        if (rc == SQ_EXIT_OK && (r.write_failed || r.n_failed)) rc = r.write_failed ? SQ_EXIT_USAGE : 1;
    }
    if (r.fd >= 0) close(r.fd);
    free(r.valid_ms);
    free(r.ended);
    sq_strmap_free(r.done);
    cli_queries_free(&r.cq);
    return rc;
}
