/*
** coverage.c -- how many BIRD dev (gold, prediction) pairs `squint equiv`
** decides, and how fast: the report behind docs/coverage.md.
**
** For each prediction file in bird-dev/predictions/ every prediction is
** paired with the gold query of its question and decided over the schema
** of its database read from dev_tables.json (set semantics, BIRD's), as
** `squint equiv --tables dev_tables.json --db-id D` does.  The report, in
** Markdown on stdout, gives per file the verdicts, the coverage (the share
** of pairs whose verdict is not unknown), the time to a verdict (median,
** p95, mean) and the share of timeouts, then the ten most common reasons
** for an unknown verdict.  A prediction that does not parse or bind is
** counted apart: it is an input error, not a verdict.
**
** Usage: equiv_coverage [--pairs N] [--bound K] [--timeout S] [--slow S] [-j N]
**                       [--file NAME] [--unknowns FILE]
**   --pairs N   the first N pairs of each file (default: all)
**   --slow S    print each pair slower than S seconds to stderr
**   --file NAME only the pairs of that prediction file (chatgpt.json, ...)
**   --unknowns FILE  write each pair whose verdict is unknown to FILE, one
**               line each: the prediction's origin, the reason
**   -j N        N pairs at once, each in a child process (runtime/pool.c);
**               a child killed at 3 x the timeout + 30 s counts as a
**               timeout
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/squint.h"
#include "backend/equiv/equiv.h"
#include "backend/sqlite/db.h"
#include "runtime/pool.h"
#include "tests/conformance/corpus.h"

/* The verdicts and times of one prediction file. */
typedef struct FileStats {
    char *name;
    size_t pairs, not_loaded, verdicts[SQ_VERDICT_COUNT];
    size_t n_tasks; /* pairs taken (--pairs counts these) */
    double *times;
    size_t n_times, cap_times;
} FileStats;

typedef struct Run {
    Corpus c;
    SqContext ctx;         /* sources, names, diagnostics, the catalogs */
    SqArena *arena;
    const char *tables_path; /* dev_tables.json (arena) */
    Catalog **cats;        /* per db_id, loaded on first use (the context's) */
    const char **cat_ids;
    size_t n_cats, cap_cats;
    SqEquivOptions opt;
    size_t max_pairs;
    double slow;
    FileStats *files;
    size_t n_files, cap_files;
    CorpusTally reasons;   /* why verdicts were unknown */
    FILE *unknowns;        /* --unknowns, or NULL */
} Run;

/* The catalog of db_id from dev_tables.json, or NULL. */
static const Catalog *catalog(Run *r, const char *db_id) {
    for (size_t i = 0; i < r->n_cats; i++)
        if (strcmp(r->cat_ids[i], db_id) == 0) return r->cats[i];
    Catalog *cat = sq_ctx_load_tables_json(&r->ctx, r->tables_path, db_id, sq_span(0, 0, 0), NULL);
    if (r->n_cats == r->cap_cats) {
        r->cap_cats = r->cap_cats ? 2 * r->cap_cats : 16;
        r->cats = sq_realloc(r->cats, r->cap_cats * sizeof *r->cats);
        r->cat_ids = sq_realloc(r->cat_ids, r->cap_cats * sizeof *r->cat_ids);
    }
    r->cat_ids[r->n_cats] = sq_arena_strdup(r->arena, db_id);
    r->cats[r->n_cats++] = cat;
    return cat;
}

static FileStats *file_of(Run *r, const char *origin) {
    const char *slash = strchr(origin, '/'), *hash = strrchr(origin, '#');
    size_t n = (size_t)(hash - slash - 1);
    for (size_t i = 0; i < r->n_files; i++)
        if (strlen(r->files[i].name) == n && strncmp(r->files[i].name, slash + 1, n) == 0) return &r->files[i];
    if (r->n_files == r->cap_files) {
        r->cap_files = r->cap_files ? 2 * r->cap_files : 8;
        r->files = sq_realloc(r->files, r->cap_files * sizeof *r->files);
    }
    FileStats *f = &r->files[r->n_files++];
    memset(f, 0, sizeof *f);
    f->name = sq_strndup(slash + 1, n);
    return f;
}

/* What one pair gave: loaded (both queries parse and bind), the verdict,
** its time, and why it is unknown ("" when it is not). */
typedef struct PairOut {
    int loaded;
    SqVerdict verdict;
    double seconds;
    char why[512];
} PairOut;

/* Why a verdict is unknown, in words that group alike pairs. */
static void reason(const SqEquivResult *v, char *buf, size_t n) {
    buf[0] = 0;
    switch (v->verdict) {
    case SQ_VERDICT_UNSUPPORTED: snprintf(buf, n, "unsupported: %s", v->detail ? v->detail : "?"); break;
    case SQ_VERDICT_TIMEOUT: snprintf(buf, n, "timeout at bound %d", v->bound); break;
    case SQ_VERDICT_UNCONFIRMED:
        if (v->uninterpreted) snprintf(buf, n, "unconfirmed: needs %s", v->uninterpreted);
        else snprintf(buf, n, "unconfirmed: %s", v->detail ? v->detail : "?");
        break;
    case SQ_VERDICT_SPURIOUS: snprintf(buf, n, "spurious (a bug)"); break;
    default: break;
    }
    for (char *c = buf; *c; c++) /* one line */
        if (*c == '\n') *c = ' ';
}

static int is_unknown(SqVerdict v) {
    return v == SQ_VERDICT_UNSUPPORTED || v == SQ_VERDICT_TIMEOUT || v == SQ_VERDICT_UNCONFIRMED ||
           v == SQ_VERDICT_SPURIOUS;
}

static void pair(Run *r, const CorpusQuery *g, const CorpusQuery *p, PairOut *o) {
    SqCtxMark m = sq_ctx_mark(&r->ctx);
    SqArena *a = sq_arena_new();
    const Catalog *cat = catalog(r, g->db_id);
    SqCompileStatus st;
    IrQuery *q1 = cat ? sq_ctx_compile_text(&r->ctx, a, cat, g->origin, g->sql, g->len, &st) : NULL;
    IrQuery *q2 = q1 ? sq_ctx_compile_text(&r->ctx, a, cat, p->origin, p->sql, p->len, &st) : NULL;
    memset(o, 0, sizeof *o);
    o->loaded = q1 && q2;
    if (o->loaded) {
        SqEquivResult v;
        double t0 = sq_monotonic_seconds();
        sq_ctx_equiv(&r->ctx, cat, q1, g->sql, q2, p->sql, &r->opt, &v);
        o->seconds = sq_monotonic_seconds() - t0;
        o->verdict = v.verdict;
        reason(&v, o->why, sizeof o->why);
        if (v.verdict == SQ_VERDICT_SPURIOUS || (r->slow > 0 && o->seconds > r->slow))
            fprintf(stderr, "coverage: %.1f s, %s on %s (%s)\n  gold: %s\n  pred: %s\n", o->seconds,
                    sq_verdict_name(v.verdict), p->origin, v.detail ? v.detail : "", g->sql, p->sql);
        sq_equiv_result_free(&v);
    }
    sq_arena_free(a);
    sq_ctx_rewind(&r->ctx, m);
}

static void record(Run *r, FileStats *f, const PairOut *o) {
    f->pairs++;
    if (!o->loaded) {
        f->not_loaded++;
        return;
    }
    f->verdicts[o->verdict]++;
    if (o->why[0]) corpus_tally_add(&r->reasons, o->why);
    if (f->n_times == f->cap_times) {
        f->cap_times = f->cap_times ? 2 * f->cap_times : 1024;
        f->times = sq_realloc(f->times, f->cap_times * sizeof *f->times);
    }
    f->times[f->n_times++] = o->seconds;
}

/* ---- several pairs at once (-j): one child process per pair ---------- */

typedef struct Task {
    FileStats *f;
    const CorpusQuery *g, *p;
} Task;

/* Count the pair t, and list it when it is unknown (--unknowns). */
static void record_task(Run *r, const Task *t, const PairOut *o) {
    record(r, t->f, o);
    if (r->unknowns && o->loaded && is_unknown(o->verdict)) fprintf(r->unknowns, "%s\t%s\n", t->p->origin, o->why);
}

typedef struct Batch {
    Run *r;
    Task *tasks;
} Batch;

/* In the child: the pair's PairOut as one line "loaded verdict seconds why". */
static int run_task(void *ctx, size_t i, SqBuf *out) {
    Batch *b = ctx;
    PairOut o;
    pair(b->r, b->tasks[i].g, b->tasks[i].p, &o);
    sq_buf_printf(out, "%d %d %.6f %s\n", o.loaded, (int)o.verdict, o.seconds, o.why);
    return 0;
}

/* In the parent; a child killed at its time limit counts as a timeout. */
static int task_done(void *ctx, size_t i, SqTaskEnd end, int detail, const char *out, size_t n) {
    Batch *b = ctx;
    PairOut o;
    memset(&o, 0, sizeof o);
    int loaded = 0, verdict = 0, used = 0;
    char line[600];
    snprintf(line, sizeof line, "%.*s", (int)n, out);
    line[strcspn(line, "\n")] = 0;
    if (end == SQ_TASK_OK && sscanf(line, "%d %d %lf %n", &loaded, &verdict, &o.seconds, &used) >= 3 &&
        verdict >= 0 && verdict < SQ_VERDICT_COUNT) {
        o.loaded = loaded;
        o.verdict = (SqVerdict)verdict;
        snprintf(o.why, sizeof o.why, "%s", used ? line + used : "");
    } else {
        o.loaded = 1;
        o.verdict = SQ_VERDICT_TIMEOUT;
        o.seconds = b->r->opt.timeout;
        snprintf(o.why, sizeof o.why, "the process %s (%d)", sq_task_end_name(end), detail);
    }
    record_task(b->r, &b->tasks[i], &o);
    return 0;
}

static void report(Run *r) {
    printf("| prediction file | pairs | not parsed or bound | equivalent | different | under ties | column count "
           "| unknown | coverage | median | p95 | mean | timeouts |\n");
    printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    size_t all = 0, all_unknown = 0, all_timeouts = 0;
    for (size_t i = 0; i < r->n_files; i++) {
        FileStats *f = &r->files[i];
        if (!f->pairs) continue; /* not taken (--file) */
        size_t n = f->n_times, unknown = 0;
        for (int v = 0; v < SQ_VERDICT_COUNT; v++)
            if (is_unknown((SqVerdict)v)) unknown += f->verdicts[v];
        double sum = 0;
        for (size_t k = 0; k < n; k++) sum += f->times[k];
        qsort(f->times, n, sizeof *f->times, corpus_cmp_double);
        printf("| %s | %zu | %zu | %zu | %zu | %zu | %zu | %zu | %.2f %% | %.1f ms | %.1f ms | %.1f ms | %.2f %% |\n",
               f->name, f->pairs, f->not_loaded, f->verdicts[SQ_VERDICT_EQUIVALENT],
               f->verdicts[SQ_VERDICT_DIFFERENT], f->verdicts[SQ_VERDICT_DIFFERENT_TIES],
               f->verdicts[SQ_VERDICT_COLUMNS], unknown, n ? 100.0 * (double)(n - unknown) / (double)n : 0.0,
               n ? 1000 * f->times[n / 2] : 0.0, n ? 1000 * f->times[n * 95 / 100] : 0.0,
               n ? 1000 * sum / (double)n : 0.0, n ? 100.0 * (double)f->verdicts[SQ_VERDICT_TIMEOUT] / (double)n : 0.0);
        all += n;
        all_unknown += unknown;
        all_timeouts += f->verdicts[SQ_VERDICT_TIMEOUT];
    }
    printf("\nAll files: %zu pairs decided or not, coverage %.2f %%, timeouts %.2f %% (bound %d, %.0f s per pair).\n",
           all, all ? 100.0 * (double)(all - all_unknown) / (double)all : 0.0,
           all ? 100.0 * (double)all_timeouts / (double)all : 0.0, r->opt.bound, r->opt.timeout);
    corpus_tally_sort(&r->reasons);
    printf("\n| reason for unknown | pairs |\n|---|---|\n");
    for (size_t i = 0; i < r->reasons.n && i < 10; i++) {
        printf("| ");
        for (const char *p = r->reasons.items[i].text; *p; p++) /* a table cell: no pipes, no newlines */
            putchar(*p == '|' ? '/' : *p == '\n' ? ' ' : *p);
        printf(" | %zu |\n", r->reasons.items[i].n);
    }
}

static int load_tables(Run *r) {
    char path[4096];
    snprintf(path, sizeof path, "%s/bird-dev/dev_tables.json", r->c.root);
    r->tables_path = sq_arena_strdup(r->arena, path);
    return sq_ctx_tables_json(&r->ctx, path, NULL) ? 0 : -1;
}

int main(int argc, char **argv) {
    Run r;
    memset(&r, 0, sizeof r);
    r.opt = sq_equiv_options_default();
    unsigned jobs = 1;
    const char *only = NULL;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--pairs") == 0) r.max_pairs = (size_t)atol(argv[i + 1]);
        else if (strcmp(argv[i], "--bound") == 0) r.opt.bound = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--timeout") == 0) r.opt.timeout = atof(argv[i + 1]);
        else if (strcmp(argv[i], "--slow") == 0) r.slow = atof(argv[i + 1]);
        else if (strcmp(argv[i], "-j") == 0) jobs = (unsigned)atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--file") == 0) only = argv[i + 1];
        else if (strcmp(argv[i], "--unknowns") == 0 && !(r.unknowns = fopen(argv[i + 1], "w"))) {
            fprintf(stderr, "equiv coverage: cannot write %s\n", argv[i + 1]);
            return 2;
        } else if (strcmp(argv[i], "--unknowns") != 0) {
            fprintf(stderr, "usage: equiv_coverage [--pairs N] [--bound K] [--timeout S] [--slow S] [-j N] "
                            "[--file NAME] [--unknowns FILE]\n");
            return 2;
        }
    }
    int loaded = corpus_load(&r.c);
    if (loaded <= 0) {
        printf("equiv coverage: no corpus; skipped\n");
        return loaded < 0;
    }
    sq_ctx_init(&r.ctx);
    r.arena = sq_arena_new();
    if (load_tables(&r) < 0) {
        fprintf(stderr, "equiv coverage: cannot read bird-dev/dev_tables.json\n");
        return 1;
    }
    const CorpusQuery **gold = sq_calloc(r.c.n + 1, sizeof *gold);
    size_t n_gold = 0;
    for (size_t i = 0; i < r.c.n; i++)
        if (strncmp(r.c.q[i].origin, "bird/dev.json#", 14) == 0) gold[n_gold++] = &r.c.q[i];
    Task *tasks = sq_calloc(r.c.n + 1, sizeof *tasks);
    size_t n_tasks = 0;
    for (size_t i = 0; i < r.c.n; i++) {
        const CorpusQuery *p = &r.c.q[i];
        if (p->set != CORPUS_BIRD || strncmp(p->origin, "bird/dev.json#", 14) == 0) continue;
        size_t g = (size_t)strtoul(strrchr(p->origin, '#') + 1, NULL, 10);
        FileStats *f = file_of(&r, p->origin);
        if (g >= n_gold || (r.max_pairs && f->n_tasks >= r.max_pairs)) continue;
        if (only && strcmp(f->name, only) != 0) continue;
        f->n_tasks++;
        tasks[n_tasks++] = (Task){f, gold[g], p};
    }
    if (jobs <= 1) {
        for (size_t i = 0; i < n_tasks; i++) {
            PairOut o;
            pair(&r, tasks[i].g, tasks[i].p, &o);
            record_task(&r, &tasks[i], &o);
        }
    } else {
        size_t *order = sq_calloc(n_tasks + 1, sizeof *order);
        for (size_t i = 0; i < n_tasks; i++) order[i] = i;
        SqPoolOptions po = {jobs, r.opt.timeout > 0 ? 3 * r.opt.timeout + 30 : 0, 0};
        Batch b = {&r, tasks};
        sq_pool_run(&po, order, n_tasks, run_task, task_done, &b);
        free(order);
    }
    free(tasks);
    report(&r);
    if (r.unknowns) fclose(r.unknowns);
    for (size_t i = 0; i < r.n_files; i++) {
        free(r.files[i].name);
        free(r.files[i].times);
    }
    free(r.files);
    corpus_tally_free(&r.reasons);
    free(r.cats);
    free(r.cat_ids);
    free(gold);
    sq_arena_free(r.arena);
    sq_ctx_free(&r.ctx);
    corpus_free(&r.c);
    return 0;
}
