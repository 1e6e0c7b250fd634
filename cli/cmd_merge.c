/*
** cmd_merge.c -- `squint merge`: combine the record files of `squint eval`
** shards (or of interrupted runs) into one, and summarize them.
**
** Layer: cli.  Reads each FILE's records (backend/eval/record.h), keeps
** the last record read of every item (a later line of a file, or a later
** file: `squint eval --rerun-changed` appends an item's new record after
** its old one), and writes them in item order to --out (or nowhere); then
** prints the summary of the whole, exactly as `squint eval` prints it for
** a run that did all the items at once.  Every record must be of the same
** systems, in the same order, as the first one read, and computed with
** the same options (when records name them: format 2 on).  --out is
** replaced through a temporary file, and only when it is absent, empty or
** a records file itself (eval_out.h).
*/
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/json.h"
#include "runtime/safewrite.h"
#include "runtime/util.h"
#include "cli/cli.h"
#include "cli/cli_config.h"
#include "cli/eval_out.h"
#include "cli/eval_report.h"
#include "cli/eval_summary.h"

static const char usage_text[] =
    "usage: squint merge [options] FILE...\n"
    "\n"
    "Combine the --out files of squint eval runs (shards, or a run resumed\n"
    "elsewhere) and print the summary of all their items.  An item found more\n"
    "than once counts once: its last record read (a later line, a later FILE).\n"
    "\n"
    "options:\n"
    "      --out FILE         write the merged records, in item order, to FILE\n"
    "                         (replaced only when absent, empty or itself a\n"
    "                         records file; it may be one of the FILEs)\n"
    "      --report FILE      write the HTML report of the merged records\n"
    "      --semantics S      spider or bird: named in the summary (default\n"
    "                         spider)\n"
    "      --fail-under [SYSTEM:]METRIC=PERCENT\n"
    "                         exit 1 when a system's accuracy over the merged\n"
    "                         items is under PERCENT (as squint eval's); a gate\n"
    "                         naming no system of the records fails too\n"
    "  -f, --format FMT       summary as text (default) or json\n"
    "  -h, --help             show this help\n"
    "      --version          print the version and exit\n"
    "\n"
    "exit status: 0 merged, 1 a --fail-under gate is not reached, 2 usage or\n"
    "input error (unreadable file, a line that is not a record, records of\n"
    "different systems or options, an output that is not squint's or cannot\n"
    "be written)\n"
    CLI_EXIT_OOM;

const CliOpt cli_opts_merge[] = {{"out", 0, 1},    {"report", 0, 1}, {"semantics", 0, 1}, {"fail-under", 0, 1},
                                    {"format", 'f', 1}, {"help", 'h', 0}, {NULL, 0, 0}};

typedef struct Merge {
    SqEvalLine *lines;
    size_t n, cap;
    char **files;  /* contents, heap */
    size_t *file_lens;
    const char **paths;
    size_t n_files;
    const char **names;
    size_t n_sys;
    SqArena *arena;
    EvalGate gates[16];   /* --fail-under */
    size_t n_gates;
} Merge;

/* The systems of the first record become the run's. */
static int take_names(Merge *m, const char *line, size_t n) {
    SqEvalRecord r;
    const char *why;
    if (sq_eval_record_parse(m->arena, line, n, &r, &why) < 0) return -1;
    m->names = r.names;
    m->n_sys = r.n_systems;
    return 0;
}

static int read_records(Merge *m, const char *path) {
    size_t len;
    int err;
    char *text = sq_read_file(path, &len, &err);
    if (!text) {
        cli_io_error("merge", path, err);
        return -1;
    }
    m->files = sq_realloc(m->files, (m->n_files + 1) * sizeof *m->files);
    m->file_lens = sq_realloc(m->file_lens, (m->n_files + 1) * sizeof *m->file_lens);
    m->paths = sq_realloc(m->paths, (m->n_files + 1) * sizeof *m->paths);
    m->file_lens[m->n_files] = len;
    m->paths[m->n_files] = path;
    m->files[m->n_files++] = text;
    size_t first = m->n;
    size_t end = sq_eval_split_lines(text, len, &m->lines, &m->n, &m->cap);
    if (m->n > first && !m->names && take_names(m, m->lines[first].text, m->lines[first].n) < 0) {
        fprintf(stderr, "squint merge: %s:1: not a squint eval record\n", path);
        return -1;
    }
    if (end < len)
        fprintf(stderr, "squint merge: %s:%zu: an unfinished last line (a run was cut off); left out\n", path,
                m->n - first + 1);
    return 0;
}

static int write_out(const char *path, const SqEvalLine *lines, size_t n) {
    SqBuf b = SQ_BUF_INIT;
    for (size_t k = 0; k < n; k++) sq_buf_put(&b, lines[k].text, lines[k].n);
    int err;
    int ok = sq_write_replace(path, b.data ? b.data : "", b.len, &err) == 0;
    if (!ok) fprintf(stderr, "squint merge: cannot write '%s': %s\n", path, strerror(err));
    sq_buf_free(&b);
    return ok ? 0 : -1;
}

/* The FILE a line was read from. */
static const char *file_of(const Merge *m, const SqEvalLine *l) {
    for (size_t k = 0; k < m->n_files; k++)
        if (l->text >= m->files[k] && l->text < m->files[k] + m->file_lens[k]) return m->paths[k];
    return "?";
}

/* The options of the records: every one that names them must name the
** first one's.  0, or -1 after a message. */
typedef struct MergeOptions {
    SqArena *arena;
    SqEvalRecord first;    /* the first record naming its options */
    const SqEvalLine *first_line;
} MergeOptions;

static int check_options(const Merge *m, MergeOptions *o, const SqEvalLine *l) {
    SqEvalRecord r;
    const char *why;
    SqArena *a = sq_arena_new();
    int rc = 0;
    if (sq_eval_record_parse(a, l->text, l->n, &r, &why) == 0 && r.options) {
        if (!o->first_line) {
            sq_eval_record_parse(o->arena, l->text, l->n, &o->first, &why);
            o->first_line = l;
        } else {
            const char *key = sq_eval_options_diff(r.options, l->text, o->first.options, o->first_line->text);
            if (key) {
                fprintf(stderr,
                        "squint merge: item %zu in '%s' and item %zu in '%s' were computed with other options "
                        "(%s); merge only the records of one run's options\n",
                        o->first.item, file_of(m, o->first_line), r.item, file_of(m, l), key);
                rc = -1;
            }
        }
    }
    sq_arena_free(a);
    return rc;
}

static int merge(Merge *m, SqMetric metric, const char *out, const char *report, int json) {
    EvalSummary sum;
    eval_summary_init(&sum, m->names, m->n_sys, metric, 0);
    int rc = SQ_EXIT_OK;
    /* the output in item order; a line that does not start with its item
    ** number is read whole for it */
    for (size_t k = 0; k < m->n && rc == SQ_EXIT_OK; k++) {
        if (m->lines[k].item != SIZE_MAX) continue;
        SqEvalRecord r;
        const char *why;
        SqArena *a = sq_arena_new();
        if (sq_eval_record_parse(a, m->lines[k].text, m->lines[k].n, &r, &why) < 0) {
            fprintf(stderr, "squint merge: a line is not a record: %s\n", why);
            rc = SQ_EXIT_USAGE;
        }
        m->lines[k].item = r.item;
        sq_arena_free(a);
    }
    sq_eval_sort_lines(m->lines, m->n);
    size_t kept = 0;
    MergeOptions opts = {sq_arena_new(), {0}, NULL};
    for (size_t k = 0; k < m->n && rc == SQ_EXIT_OK; k++) {
        const char *why = NULL;
        /* of one item's records, the last read counts */
        if (k + 1 < m->n && m->lines[k + 1].item == m->lines[k].item) continue;
        if (eval_summary_add_line_checked(&sum, m->lines[k].text, m->lines[k].n, &why) < 0) {
            fprintf(stderr, "squint merge: %s (item %zu in '%s')\n", why, m->lines[k].item,
                    file_of(m, &m->lines[k]));
            rc = SQ_EXIT_USAGE;
        } else if (check_options(m, &opts, &m->lines[k]) < 0) {
            rc = SQ_EXIT_USAGE;
        } else {
            m->lines[kept++] = m->lines[k];
        }
    }
    sq_arena_free(opts.arena);
    if (rc == SQ_EXIT_OK && out && write_out(out, m->lines, kept) < 0) rc = SQ_EXIT_USAGE;
    if (rc == SQ_EXIT_OK && report) {
        EvalReport rep;
        eval_report_init(&rep);
        for (size_t k = 0; k < kept; k++) eval_report_add(&rep, m->lines[k].text, m->lines[k].n);
        if (eval_report_write(&rep, &sum, report) < 0) rc = SQ_EXIT_USAGE;
        eval_report_free(&rep);
    }
    if (rc == SQ_EXIT_OK) {
        SqBuf b = SQ_BUF_INIT;
        if (json) eval_summary_json(&sum, &b);
        else eval_summary_text(&sum, &b);
        cli_flush(&b, stdout);
        sq_buf_free(&b);
        fflush(stdout);
        if (eval_summary_gates(&sum, m->gates, m->n_gates, "merge", stderr)) rc = SQ_EXIT_FINDINGS;
    }
    eval_summary_free(&sum);
    return rc;
}

int cmd_merge(int argc, char **argv) {
    CliArgs a;
    cli_args_init(&a, argc, argv, "merge");
    const char *name, *val, *out = NULL, *report = NULL;
    int json = 0;
    Merge m;
    memset(&m, 0, sizeof m);
    SqMetric metric = SQ_METRIC_SPIDER;
    while ((name = cli_next_opt(&a, cli_opts_merge, &val)) != NULL) {
        if (strcmp(name, "?") == 0) return SQ_EXIT_USAGE;
        if (strcmp(name, "help") == 0) {
            fputs(usage_text, stdout);
            cli_help_common(stdout, cli_opts_merge, 0);
            return SQ_EXIT_OK;
        }
        if (strcmp(name, "out") == 0) out = val;
        else if (strcmp(name, "report") == 0) report = val;
        else if (strcmp(name, "semantics") == 0 && (strcmp(val, "spider") == 0 || strcmp(val, "bird") == 0))
            metric = strcmp(val, "bird") == 0 ? SQ_METRIC_BIRD : SQ_METRIC_SPIDER;
        else if (strcmp(name, "format") == 0) {
            SqFormat f;
            if (!cli_parse_format("merge", val, CLI_TEXT_OR_JSON, &f)) return SQ_EXIT_USAGE;
            json = f == SQ_FMT_JSON;
        } else if (strcmp(name, "fail-under") == 0) {
            const char *why = "is given more than 16 times";
            if (m.n_gates == sizeof m.gates / sizeof *m.gates || eval_gate_parse(val, &m.gates[m.n_gates++], &why) < 0) {
                fprintf(stderr, "squint merge: --fail-under %s\n", why);
                return cli_usage_hint("merge");
            }
        } else {
            fprintf(stderr, "squint merge: bad value '%s' for --%s\n", val, name);
            return SQ_EXIT_USAGE;
        }
    }
    if (a.i >= argc) {
        fputs("squint merge: no record file\n", stderr);
        return cli_usage_hint("merge");
    }
    if (out && eval_out_check_replace("merge", out) < 0) return SQ_EXIT_USAGE;
    EvalInputFile *inputs = sq_calloc((size_t)(argc - a.i) + 1, sizeof *inputs);
    for (int i = a.i; i < argc; i++) inputs[i - a.i] = (EvalInputFile){argv[i], "a FILE to merge"};
    int bad = eval_out_check_paths("merge", NULL, report, inputs, (size_t)(argc - a.i)) < 0 ||
              (out && report && eval_out_check_paths("merge", out, report, NULL, 0) < 0) ||
              (report && eval_report_check("merge", report) < 0);
    free(inputs);
    if (bad) return SQ_EXIT_USAGE;
    m.arena = sq_arena_new();
    int rc = SQ_EXIT_OK;
    for (int i = a.i; i < argc && rc == SQ_EXIT_OK; i++)
        if (read_records(&m, argv[i]) < 0) rc = SQ_EXIT_USAGE;
    if (rc == SQ_EXIT_OK && !m.names) {
        fprintf(stderr, "squint merge: no records in the files given\n");
        rc = SQ_EXIT_USAGE;
    }
    if (rc == SQ_EXIT_OK) rc = merge(&m, metric, out, report, json);
    for (size_t k = 0; k < m.n_files; k++) free(m.files[k]);
    free(m.files);
    free(m.file_lens);
    free(m.paths);
    free(m.lines);
    sq_arena_free(m.arena);
    return rc;
}
