/*
** soundness.c -- is every `equivalent` that squint equiv says true?
** Checked against SQLite itself (docs/soundness.md).
**
** Test tool for `make soundness`, `make soundness-ci` and `make
** conformance`.  Pairs come from:
**   --spider        every distinct (gold, prediction) pair of Spider dev (the
**                   11 prediction files), spider and set semantics;
**   --self          every Spider dev gold query against itself and against
**                   the SQL squint emits for it, bag semantics;
**   --rewrites      every Spider dev gold query that `unnest` or
**                   `joinelim-rewrite` rewrites, against the rewrite's SQL,
**                   bag semantics;
**   --cases FILE    the cases of a tests/equiv/NAME.cases file that expect
**                   equivalent or different-under-ties, at their own
**                   semantics and bound (repeatable).
** For each pair and semantics squint equiv decides (bound --bound, z3's
** resource limit --rlimit, no clock), and then:
**   real    (--real) a Spider pair is run on its real database: when
**           squint says equivalent, the results must agree.  With
**           --real-only the search runs only for pairs whose results on
**           the real database differ (those are the only ones that can
**           fail), which is what makes the check cheap;
**   random  (--dbs N) for an equivalent verdict, N random databases that
**           obey the schema (randdb.c; --typed keeps each column to its
**           model class) must give equal results;
**   ties    for a different-under-ties verdict, the counterexample must
**           give different results in some row order: as written, rows
**           reversed, or PRAGMA reverse_unordered_selects.
** A database that tells an `equivalent` pair apart is shrunk (rows removed
** while it still does) and described (dbcheck.c); each such case is a
** finding, printed with the pair, the database as SQL and both results.
**
** Every pair is decided in a child process (runtime/pool.c), -j at once,
** so that a solver crash loses one pair, not the run.  Output is in pair
** order whatever order the children end in.
**
** Exit status: 0 no finding (or every finding listed in --known FILE), 1
** a finding that is not listed, 2 usage or input error.
*/
#include <sqlite3.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/equiv/equiv.h"
#include "api/squint.h"
#include "backend/sqlite/db.h"
#include "backend/emit/emit.h"
#include "passes/pass.h"
#include "runtime/pool.h"
#include "tests/conformance/corpus.h"
#include "tests/soundness/cases.h"
#include "tests/soundness/dbcheck.h"
#include "tests/soundness/randdb.h"
#include "tests/soundness/soundness.h"

typedef struct Run {
    /* options */
    int spider, self, rewrites, real, real_only, typed, ties, show_dbs;
    int dbs, max_rows, jobs, sample, limit;
    uint64_t seed;
    SqEquivOptions opt;
    const char *known_path, *report_path, *verdicts_path;
    const char *only;     /* --only: the pair with this id, or @FILE of ids */
    char *only_ids;       /* the text of that file */
    FILE *verdicts;       /* --verdicts: one line per pair and semantics */
    const char **case_paths;
    int n_case_paths;
    /* inputs */
    Corpus c;
    CorpusCatalogs catalogs;
    CaseFile *cases;
    SqContext ctx;        /* sources, names, diagnostics, catalogs */
    Schema *schemas;
    uint32_t n_schemas;
    Pair *pairs;
    size_t n_pairs, cap_pairs;
    char **known;
    size_t n_known;
    /* results */
    char **outs;          /* per pair: what its child wrote */
    size_t lost;          /* children that crashed or were killed */
    size_t fresh_shrink;  /* pairs run again with shrinking on fresh solvers */
    size_t done;          /* pairs checked so far */
} Run;

static int sem_of(const char *name, SqSmtSemantics *s) {
    static const char *const names[] = {"set", "bag", "list", "spider"};
    static const SqSmtSemantics sems[] = {SQ_SMT_SET, SQ_SMT_BAG, SQ_SMT_LIST, SQ_SMT_SPIDER};
    for (int i = 0; i < 4; i++)
        if (strcmp(name, names[i]) == 0) {
            *s = sems[i];
            return 1;
        }
    return 0;
}

static Pair *add_pair(Run *r, const char *id, PairKind kind, uint32_t schema, const char *sql1, const char *sql2) {
    if (r->n_pairs == r->cap_pairs) {
        r->cap_pairs = r->cap_pairs ? 2 * r->cap_pairs : 1024;
        r->pairs = sq_realloc(r->pairs, r->cap_pairs * sizeof *r->pairs);
    }
    Pair *p = &r->pairs[r->n_pairs++];
    memset(p, 0, sizeof *p);
    p->id = sq_strdup(id);
    p->kind = kind;
    p->schema = schema;
    p->sql1 = sql1;
    p->sql2 = sql2;
    return p;
}

/* ---- loading schemas ------------------------------------------------------ */

static uint32_t add_schema(Run *r, const char *key) {
    r->schemas = sq_realloc(r->schemas, (r->n_schemas + 1) * sizeof *r->schemas);
    Schema *s = &r->schemas[r->n_schemas];
    memset(s, 0, sizeof *s);
    s->key = sq_strdup(key);
    return r->n_schemas++;
}

static sqlite3 *open_readonly(const char *path) {
    SqBuf uri = SQ_BUF_INIT;
    sq_buf_printf(&uri, "file:%s?mode=ro", path);
    sqlite3 *db = NULL;
    if (sqlite3_open_v2(sq_buf_str(&uri), &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL) != SQLITE_OK) {
        sqlite3_close(db);
        db = NULL;
    }
    sq_buf_free(&uri);
    return db;
}

/* The real database's DDL, in the order it was created. */
static char *real_ddl(sqlite3 *db) {
    SqBuf b = SQ_BUF_INIT;
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db,
                           "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' "
                           "ORDER BY rowid",
                           -1, &st, NULL) == SQLITE_OK) {
        while (sqlite3_step(st) == SQLITE_ROW) sq_buf_printf(&b, "%s;\n", (const char *)sqlite3_column_text(st, 0));
        sqlite3_finalize(st);
    }
    return sq_buf_detach(&b);
}

/* Up to 30 distinct values of every column of every stored table. */
static ValuePool **real_values(sqlite3 *db, const Catalog *cat) {
    ValuePool **real = sq_calloc(cat->n_tables + 1, sizeof *real);
    for (uint32_t t = 0; t < cat->n_tables; t++) {
        const CatTable *tab = cat->tables[t];
        if (!sq_catalog_is_stored(tab)) continue;
        real[t] = sq_calloc(tab->n_cols + 1, sizeof *real[t]);
        for (uint32_t c = 0; c < tab->n_cols; c++) {
            vpool_init(&real[t][c]);
            SqBuf sql = SQ_BUF_INIT;
            sq_buf_puts(&sql, "SELECT DISTINCT ");
            db_quote_ident(&sql, tab->cols[c].name);
            sq_buf_puts(&sql, " FROM ");
            db_quote_ident(&sql, tab->name);
            sq_buf_puts(&sql, " LIMIT 30");
            sqlite3_stmt *st;
            if (!tab->cols[c].hidden && sqlite3_prepare_v2(db, sq_buf_str(&sql), -1, &st, NULL) == SQLITE_OK) {
                while (sqlite3_step(st) == SQLITE_ROW) {
                    SqValue v = sq_value_null();
                    switch (sqlite3_column_type(st, 0)) {
                    case SQLITE_INTEGER: v = sq_value_int(sqlite3_column_int64(st, 0)); break;
                    case SQLITE_FLOAT: v = sq_value_real(sqlite3_column_double(st, 0)); break;
                    case SQLITE_TEXT:
                        v.type = SQ_VAL_TEXT;
                        v.s = (const char *)sqlite3_column_text(st, 0);
                        v.n = (uint32_t)sqlite3_column_bytes(st, 0);
                        break;
                    default: break;
                    }
                    if (v.type != SQ_VAL_NULL) vpool_add(&real[t][c], &v);
                }
                sqlite3_finalize(st);
            }
            sq_buf_free(&sql);
        }
    }
    return real;
}

/* The schema of a Spider database (loaded once). */
static uint32_t spider_schema(Run *r, const CorpusQuery *gold) {
    char key[256];
    snprintf(key, sizeof key, "spider:%s", gold->db_id);
    for (uint32_t i = 0; i < r->n_schemas; i++)
        if (strcmp(r->schemas[i].key, key) == 0) return i;
    uint32_t si = add_schema(r, key);
    Schema *s = &r->schemas[si];
    s->cat = corpus_catalog(&r->catalogs, &r->c, gold, &r->ctx);
    s->db_path = corpus_spider_db(&r->c, gold->db_id);
    sqlite3 *db = open_readonly(s->db_path);
    s->ddl = db ? real_ddl(db) : sq_strdup("");
    if (db && s->cat) s->real = real_values(db, s->cat);
    sqlite3_close(db);
    return si;
}

static uint32_t cases_schema(Run *r, const CaseFile *f) {
    char key[512];
    snprintf(key, sizeof key, "cases:%s", f->stem);
    uint32_t si = add_schema(r, key);
    Schema *s = &r->schemas[si];
    s->cat = sq_ctx_load_ddl(&r->ctx, f->path, f->schema, strlen(f->schema));
    s->ddl = sq_strdup(f->schema);
    return si;
}

/* ---- collecting pairs ----------------------------------------------------- */

static int is_spider_gold(const CorpusQuery *q) { return strncmp(q->origin, "spider/dev.json#", 16) == 0; }

/* Distinct Spider (gold, prediction) pairs, ordered by their first
** occurrence (prediction files in name order, items in order). */
typedef struct PairKey {
    const char *db, *gold, *pred;
    size_t first;
} PairKey;

static int by_text(const void *a, const void *b) {
    const PairKey *x = a, *y = b;
    int c = strcmp(x->db, y->db);
    if (!c) c = strcmp(x->gold, y->gold);
    if (!c) c = strcmp(x->pred, y->pred);
    if (!c) c = (x->first > y->first) - (x->first < y->first);
    return c;
}

static int by_first(const void *a, const void *b) {
    const PairKey *x = a, *y = b;
    return (x->first > y->first) - (x->first < y->first);
}

static void spider_pairs(Run *r, const CorpusQuery **gold, size_t n_gold) {
    PairKey *keys = sq_calloc(r->c.n + 1, sizeof *keys);
    size_t n = 0;
    for (size_t i = 0; i < r->c.n; i++) {
        const CorpusQuery *p = &r->c.q[i];
        if (p->set != CORPUS_SPIDER || is_spider_gold(p)) continue;
        size_t g = (size_t)strtoul(strrchr(p->origin, '#') + 1, NULL, 10);
        if (g >= n_gold) continue;
        keys[n++] = (PairKey){gold[g]->db_id, gold[g]->sql, p->sql, i};
    }
    qsort(keys, n, sizeof *keys, by_text);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (!m || by_text(&(PairKey){keys[i].db, keys[i].gold, keys[i].pred, keys[m - 1].first}, &keys[m - 1]) != 0)
            keys[m++] = keys[i];
    qsort(keys, m, sizeof *keys, by_first);
    for (size_t i = 0; i < m; i++) {
        const CorpusQuery *p = &r->c.q[keys[i].first];
        size_t g = (size_t)strtoul(strrchr(p->origin, '#') + 1, NULL, 10);
        Pair *pr = add_pair(r, p->origin, PK_CORPUS, spider_schema(r, gold[g]), gold[g]->sql, p->sql);
        pr->sem[0] = SQ_SMT_SPIDER;
        pr->sem[1] = SQ_SMT_SET;
        pr->n_sem = 2;
        pr->has_real = 1;
    }
    free(keys);
}

/* Self pairs and rewrites of every Spider dev gold query. */
static void gold_pairs(Run *r, const CorpusQuery **gold, size_t n_gold) {
    static const char *const passes[] = {"unnest", "joinelim-rewrite"};
    char id[300];
    for (size_t g = 0; g < n_gold; g++) {
        uint32_t si = spider_schema(r, gold[g]);
        if (r->self) {
            snprintf(id, sizeof id, "self/%s", gold[g]->origin);
            add_pair(r, id, PK_SELF, si, gold[g]->sql, gold[g]->sql);
            snprintf(id, sizeof id, "emit/%s", gold[g]->origin);
            add_pair(r, id, PK_EMIT, si, gold[g]->sql, NULL);
        }
        for (int k = 0; r->rewrites && k < 2; k++) {
            snprintf(id, sizeof id, "%s/%s", passes[k], gold[g]->origin);
            add_pair(r, id, PK_REWRITE, si, gold[g]->sql, NULL)->pass = passes[k];
        }
    }
    for (size_t i = 0; i < r->n_pairs; i++)
        if (r->pairs[i].kind != PK_CORPUS) {
            r->pairs[i].sem[0] = SQ_SMT_BAG; /* a query and its rewrite: same rows, same counts */
            r->pairs[i].n_sem = 1;
        }
}

static int load_corpus_pairs(Run *r) {
    int loaded = corpus_load(&r->c);
    if (loaded < 0) {
        fprintf(stderr, "soundness: the corpus at %s is malformed\n", r->c.root ? r->c.root : "?");
        return -1;
    }
    if (loaded == 0) {
        printf("soundness: no corpus at %s (set SQUINT_CORPORA); Spider pairs skipped\n", r->c.root);
        return 0;
    }
    const CorpusQuery **gold = sq_calloc(r->c.n + 1, sizeof *gold);
    size_t n_gold = 0;
    for (size_t i = 0; i < r->c.n; i++)
        if (is_spider_gold(&r->c.q[i])) gold[n_gold++] = &r->c.q[i];
    if (r->spider) spider_pairs(r, gold, n_gold);
    if (r->self || r->rewrites) gold_pairs(r, gold, n_gold);
    free(gold);
    return 0;
}

static int load_case_pairs(Run *r) {
    r->cases = sq_calloc((size_t)r->n_case_paths + 1, sizeof *r->cases);
    for (int i = 0; i < r->n_case_paths; i++) {
        const char *why;
        CaseFile *f = &r->cases[i];
        if (cases_read(r->case_paths[i], f, &why) < 0) {
            fprintf(stderr, "soundness: %s: %s\n", r->case_paths[i], why);
            return -1;
        }
        uint32_t si = cases_schema(r, f);
        for (size_t k = 0; k < f->n_cases; k++) {
            EquivCase *c = &f->cases[k];
            SqSmtSemantics sem;
            if (strcmp(c->expect, "equivalent") != 0 && strcmp(c->expect, "different-under-ties") != 0) continue;
            if (!sem_of(c->semantics, &sem)) continue;
            char id[600];
            snprintf(id, sizeof id, "cases/%s/%s", f->stem, c->name);
            Pair *p = add_pair(r, id, PK_CORPUS, si, c->q[0], c->q[1]);
            p->sem[0] = sem;
            p->n_sem = 1;
            p->bound = c->bound;
            p->search_only = c->search_only;
            p->typed = c->typed;
        }
    }
    return 0;
}

/* ---- running the checks ------------------------------------------------------ */

/* Pairs go to children in batches (a fresh process per pair spends more
** on z3's start-up than on many searches); a batch whose child crashes or
** is killed is run again one pair per child, so that only the pair that
** fails is lost.  A pair whose own child dies of signal 11 is run once
** more with shrinking on fresh solvers, as squint equiv does
** (backend/equiv/equiv_child.c): z3 4.8.12 crashes in some incremental
** checks while shrinking. */
#define BATCH 16

typedef struct Batches {
    const CheckCtx *ctx;
    Run *r;
    const size_t *pairs;  /* pair indexes, batched in order */
    size_t n;
    size_t size;          /* pairs per batch */
    size_t *retry;        /* pairs of failed batches to run alone */
    size_t n_retry;
} Batches;

/* In the child: each pair of batch b, its output after a line "= I". */
static int run_batch(void *arg, size_t b, SqBuf *out) {
    Batches *bs = arg;
    for (size_t k = b * bs->size; k < bs->n && k < (b + 1) * bs->size; k++) {
        sq_buf_printf(out, "= %zu\n", bs->pairs[k]);
        check_pair(bs->ctx, &bs->r->pairs[bs->pairs[k]], out);
    }
    return 0;
}

/* Split a batch's output by pair: a line "= I" starts pair I's.  Returns
** the last pair begun (its output may be cut short when the child
** failed), or SIZE_MAX. */
static size_t split_outputs(Run *r, const char *out, size_t n) {
    size_t last = SIZE_MAX;
    SqBuf cur = SQ_BUF_INIT;
    for (const char *p = out, *end = out + n; p < end;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p + 1) : (size_t)(end - p);
        if (len > 2 && p[0] == '=' && p[1] == ' ') {
            if (last != SIZE_MAX) r->outs[last] = sq_buf_detach(&cur);
            last = (size_t)strtoul(p + 2, NULL, 10);
            if (last >= r->n_pairs) last = SIZE_MAX;
            else free(r->outs[last]);
            sq_buf_reset(&cur);
        } else if (last != SIZE_MAX) {
            sq_buf_put(&cur, p, len);
        }
        p += len;
    }
    if (last != SIZE_MAX) r->outs[last] = sq_buf_detach(&cur);
    sq_buf_free(&cur);
    return last;
}

/* Pairs done so far, on a terminal. */
static void progress(Run *r, size_t pairs) {
    r->done += pairs;
    if (isatty(2)) fprintf(stderr, "\rsoundness: %zu/%zu pairs", r->done, r->n_pairs);
}

static int batch_done(void *arg, size_t b, SqTaskEnd end, int detail, const char *out, size_t n) {
    Batches *bs = arg;
    Run *r = bs->r;
    size_t last = split_outputs(r, out, n);
    progress(r, end == SQ_TASK_OK ? (b + 1) * bs->size > bs->n ? bs->n - b * bs->size : bs->size : 0);
    if (end == SQ_TASK_OK) return 0;
    if (bs->size == 1 && end == SQ_TASK_CRASHED && detail == SIGSEGV && !bs->ctx->opt.fresh_shrink) {
        free(r->outs[bs->pairs[b]]);
        r->outs[bs->pairs[b]] = NULL;
        bs->retry[bs->n_retry++] = bs->pairs[b];
        return 0;
    }
    if (bs->size == 1) { /* alone, and still failed: lost */
        size_t i = bs->pairs[b];
        SqBuf m = SQ_BUF_INIT;
        sq_buf_printf(&m, "%sX %s %d\n", r->outs[i] ? r->outs[i] : "", sq_task_end_name(end), detail);
        free(r->outs[i]);
        r->outs[i] = sq_buf_detach(&m);
        r->lost++;
        return 0;
    }
    for (size_t k = b * bs->size; k < bs->n && k < (b + 1) * bs->size; k++) {
        size_t i = bs->pairs[k];
        if (r->outs[i] && i != last) continue; /* finished before the failure */
        free(r->outs[i]);
        r->outs[i] = NULL;
        bs->retry[bs->n_retry++] = i;
    }
    return 0;
}

static void run_batches(Batches *bs, unsigned jobs) {
    size_t n_batches = (bs->n + bs->size - 1) / bs->size;
    size_t *order = sq_calloc(n_batches + 1, sizeof *order);
    for (size_t b = 0; b < n_batches; b++) order[b] = b;
    /* the time limit only catches a batch that hangs; the solver's budget
    ** is its resource limit, which does not depend on the machine */
    SqPoolOptions po = {jobs, 600.0 * (double)bs->size, (uint64_t)6 << 30};
    sq_pool_run(&po, order, n_batches, run_batch, batch_done, bs);
    free(order);
}

static void run_checks(Run *r) {
    CheckCtx ctx = {r->schemas, r->ctx.names, r->ctx.bind_opt, r->opt, r->real, r->real_only, r->ties,
                    r->dbs, r->max_rows, r->typed, r->show_dbs, r->seed};
    r->outs = sq_calloc(r->n_pairs + 1, sizeof *r->outs);
    size_t *all = sq_calloc(r->n_pairs + 1, sizeof *all);
    for (size_t i = 0; i < r->n_pairs; i++) all[i] = i;
    Batches bs = {&ctx, r, all, r->n_pairs, BATCH, sq_calloc(r->n_pairs + 1, sizeof(size_t)), 0};
    if (r->jobs == 0) { /* in this process: a solver crash ends the run */
        for (size_t i = 0; i < r->n_pairs; i++) {
            SqBuf out = SQ_BUF_INIT;
            check_pair(&ctx, &r->pairs[i], &out);
            r->outs[i] = sq_buf_detach(&out);
        }
    } else {
        run_batches(&bs, (unsigned)r->jobs);
        if (bs.n_retry) {
            Batches alone = {&ctx, r, bs.retry, bs.n_retry, 1, sq_calloc(bs.n_retry + 1, sizeof(size_t)), 0};
            run_batches(&alone, (unsigned)r->jobs);
            CheckCtx fresh = ctx;
            fresh.opt.fresh_shrink = 1;
            Batches again = {&fresh, r, alone.retry, alone.n_retry, 1, NULL, 0};
            if (again.n) run_batches(&again, (unsigned)r->jobs);
            r->fresh_shrink = again.n;
            free(alone.retry);
        }
    }
    if (isatty(2)) fprintf(stderr, "\r%40s\r", "");
    free(bs.retry);
    free(all);
}

/* ---- the known findings -------------------------------------------------------- */

/* "KIND PAIR SEMANTICS" of a line, or NULL for a blank line or comment. */
static char *known_key(const char *line) {
    char kind[64], pair[512], sem[32];
    if (sscanf(line, " %63s %511s %31s", kind, pair, sem) != 3 || kind[0] == '#') return NULL;
    SqBuf b = SQ_BUF_INIT;
    sq_buf_printf(&b, "%s %s %s", kind, pair, sem);
    return sq_buf_detach(&b);
}

static int load_known(Run *r) {
    if (!r->known_path) return 0;
    size_t len;
    int err;
    char *text = sq_read_file(r->known_path, &len, &err);
    if (!text) {
        fprintf(stderr, "soundness: cannot read %s\n", r->known_path);
        return -1;
    }
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        char *key = known_key(line);
        if (!key) continue;
        r->known = sq_realloc(r->known, (r->n_known + 1) * sizeof *r->known);
        r->known[r->n_known++] = key;
    }
    free(text);
    return 0;
}

static int is_known(const Run *r, const char *key) {
    for (size_t i = 0; i < r->n_known; i++)
        if (strcmp(r->known[i], key) == 0) return 1;
    return 0;
}

/* ---- the report ---------------------------------------------------------------- */

/* Counts per semantics. */
typedef struct SemTally {
    size_t searched, verdicts[SQ_VERDICT_COUNT];
    size_t raised; /* verdicts reached with one table larger than the bound */
    size_t real_run, real_differ;
    size_t random_pairs, dbs_run, dbs_no_build, dbs_no_run;
} SemTally;

typedef struct Tally {
    size_t loaded, not_loaded, findings, unknown_findings;
    SemTally sem[4];
    CorpusTally why_not;
    double solver_seconds;
} Tally;

static void tally_verdict(Run *r, Tally *t, const char *line) {
    char sem[16], verdict[8];
    int real = -1, run = 0, no_build = 0, no_run = 0, raised = 0;
    double secs = 0;
    if (sscanf(line, "V %15s %7s %d %d %d %d %lf %d", sem, verdict, &real, &run, &no_build, &no_run, &secs,
               &raised) < 6)
        return;
    SqSmtSemantics s;
    if (!sem_of(sem, &s)) return;
    SemTally *st = &t->sem[s];
    st->real_run += real >= 0;
    st->real_differ += real == 1;
    if (verdict[0] != '-') {
        int v = atoi(verdict);
        st->searched++;
        if (v >= 0 && v < SQ_VERDICT_COUNT) st->verdicts[v]++;
        st->raised += raised == 1;
        if (v == SQ_VERDICT_EQUIVALENT && r->dbs > 0) st->random_pairs++;
    }
    st->dbs_run += (size_t)run;
    st->dbs_no_build += (size_t)no_build;
    st->dbs_no_run += (size_t)no_run;
    t->solver_seconds += secs;
}

/* One finding: its line on stdout, its details in the report. */
static void report_finding(Run *r, Tally *t, const Pair *p, const char *line, const char *details, FILE *rep) {
    char kind[16], sem[16];
    int used = 0;
    if (sscanf(line, "F %15s %15s %n", kind, sem, &used) < 2) return;
    SqBuf key = SQ_BUF_INIT;
    sq_buf_printf(&key, "%s %s %s", kind, p->id, sem);
    int known = is_known(r, sq_buf_str(&key));
    t->findings++;
    t->unknown_findings += !known;
    printf("soundness: %s%s: %s\n", sq_buf_str(&key), known ? " (known)" : "", line + used);
    if (rep) fprintf(rep, "== %s%s\n%s\n%s\n", sq_buf_str(&key), known ? " (known)" : "", line + used, details);
    sq_buf_free(&key);
}

/* Read what pair i's child wrote. */
static void read_out(Run *r, Tally *t, size_t i, FILE *rep) {
    const Pair *p = &r->pairs[i];
    const char *s = r->outs[i] ? r->outs[i] : "";
    SqBuf finding = SQ_BUF_INIT, details = SQ_BUF_INIT;
    for (const char *line = s; *line;) {
        const char *nl = strchr(line, '\n');
        size_t n = nl ? (size_t)(nl - line) : strlen(line);
        char *l = sq_strndup(line, n);
        if (l[0] == '|') {
            sq_buf_puts(&details, l);
            sq_buf_putc(&details, '\n');
        } else {
            if (finding.len) report_finding(r, t, p, sq_buf_str(&finding), sq_buf_str(&details), rep);
            sq_buf_reset(&finding);
            sq_buf_reset(&details);
            if (l[0] == 'F') sq_buf_puts(&finding, l);
            else if (strcmp(l, "P 1") == 0) t->loaded++;
            else if (l[0] == 'P') {
                t->not_loaded++;
                corpus_tally_add(&t->why_not, l + 4);
            } else if (l[0] == 'V') {
                tally_verdict(r, t, l);
                if (r->verdicts) fprintf(r->verdicts, "%s %s\n", p->id, l + 2);
            } else if (l[0] == 'X') { /* a crash (a solver abort) is a finding too */
                SqBuf f = SQ_BUF_INIT;
                sq_buf_printf(&f, "F lost - the check's process %s; the verdicts above it (if any) were kept", l + 2);
                report_finding(r, t, p, sq_buf_str(&f), "", rep);
                sq_buf_free(&f);
            }
        }
        free(l);
        line = nl ? nl + 1 : line + n;
    }
    if (finding.len) report_finding(r, t, p, sq_buf_str(&finding), sq_buf_str(&details), rep);
    sq_buf_free(&finding);
    sq_buf_free(&details);
}

static void print_sem(const Run *r, SqSmtSemantics s, const SemTally *st) {
    const size_t *v = st->verdicts;
    size_t unknown = v[SQ_VERDICT_UNSUPPORTED] + v[SQ_VERDICT_TIMEOUT] + v[SQ_VERDICT_UNCONFIRMED];
    printf("  %s: searched %zu: equivalent %zu, different %zu, different-under-ties %zu, column count %zu, "
           "unknown %zu, vacuous %zu, failed %zu, spurious %zu\n",
           sem_name(s), st->searched, v[SQ_VERDICT_EQUIVALENT], v[SQ_VERDICT_DIFFERENT], v[SQ_VERDICT_DIFFERENT_TIES],
           v[SQ_VERDICT_COLUMNS], unknown, v[SQ_VERDICT_VACUOUS], v[SQ_VERDICT_FAILED], v[SQ_VERDICT_SPURIOUS]);
    if (st->raised) printf("    with one table larger than the bound: %zu of these verdicts\n", st->raised);
    if (st->real_run) printf("    real database: %zu pairs run, %zu differ\n", st->real_run, st->real_differ);
    if (r->dbs > 0 && st->random_pairs)
        printf("    random databases: %zu equivalent pairs x %d = %zu compared (%zu not built, %zu a query failed)\n",
               st->random_pairs, r->dbs, st->dbs_run, st->dbs_no_build, st->dbs_no_run);
    if (r->ties && v[SQ_VERDICT_DIFFERENT_TIES])
        printf("    different-under-ties counterexamples checked for two tie orders: %zu\n",
               v[SQ_VERDICT_DIFFERENT_TIES]);
}

static void summary(Run *r, Tally *t) {
    printf("soundness: %zu pairs (%zu loaded, %zu not), bound %d, rlimit %llu, seed %llu%s\n", r->n_pairs, t->loaded,
           t->not_loaded, r->opt.bound, (unsigned long long)r->opt.rlimit, (unsigned long long)r->seed, r->typed ? ", typed" : "");
    for (int s = 0; s < 4; s++)
        if (t->sem[s].searched || t->sem[s].real_run) print_sem(r, (SqSmtSemantics)s, &t->sem[s]);
    corpus_tally_sort(&t->why_not);
    for (size_t i = 0; i < t->why_not.n && i < 5; i++)
        printf("  not checked: %zu %s\n", t->why_not.items[i].n, t->why_not.items[i].text);
    printf("  solver time %.1f s; checks lost (crashed or killed) %zu\n", t->solver_seconds, r->lost);
    if (r->fresh_shrink)
        printf("  run again after signal 11, shrinking on fresh solvers: %zu\n", r->fresh_shrink);
    printf("soundness: %zu findings, %zu not in the known list\n", t->findings, t->unknown_findings);
}

/* ---- options ------------------------------------------------------------------- */

static int usage(void) {
    fprintf(stderr,
            "usage: soundness [--spider] [--self] [--rewrites] [--cases FILE]... [--real] [--real-only]\n"
            "                 [--dbs N] [--typed] [--max-rows N] [--no-ties] [--no-witness] [--bound K] [--rlimit N]\n"
            "                 [--seed S] [-j N] [--sample K] [--limit N] [--known FILE] [--report FILE]\n"
            "                 [--verdicts FILE] [--only PAIR-ID|@FILE] [--show-dbs]\n");
    return -1;
}

static int options(Run *r, int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--spider") == 0) r->spider = 1;
        else if (strcmp(a, "--self") == 0) r->self = 1;
        else if (strcmp(a, "--rewrites") == 0) r->rewrites = 1;
        else if (strcmp(a, "--real") == 0) r->real = 1;
        else if (strcmp(a, "--real-only") == 0) r->real = r->real_only = 1;
        else if (strcmp(a, "--typed") == 0) r->typed = 1;
        else if (strcmp(a, "--no-ties") == 0) r->ties = 0;
        else if (strcmp(a, "--no-witness") == 0) r->opt.no_witness = 1;
        else if (strcmp(a, "--show-dbs") == 0) r->show_dbs = 1;
        else if (!v) return usage();
        else if (strcmp(a, "--cases") == 0) {
            r->case_paths = sq_realloc(r->case_paths, (size_t)(r->n_case_paths + 1) * sizeof *r->case_paths);
            r->case_paths[r->n_case_paths++] = argv[++i];
        } else if (strcmp(a, "--dbs") == 0) r->dbs = atoi(argv[++i]);
        else if (strcmp(a, "--max-rows") == 0) r->max_rows = atoi(argv[++i]);
        else if (strcmp(a, "--bound") == 0) r->opt.bound = atoi(argv[++i]);
        else if (strcmp(a, "--rlimit") == 0) r->opt.rlimit = (unsigned)strtoul(argv[++i], NULL, 10);
        else if (strcmp(a, "--seed") == 0) r->seed = strtoull(argv[++i], NULL, 10);
        else if (strcmp(a, "-j") == 0) r->jobs = atoi(argv[++i]);
        else if (strcmp(a, "--sample") == 0) r->sample = atoi(argv[++i]);
        else if (strcmp(a, "--limit") == 0) r->limit = atoi(argv[++i]);
        else if (strcmp(a, "--known") == 0) r->known_path = argv[++i];
        else if (strcmp(a, "--report") == 0) r->report_path = argv[++i];
        else if (strcmp(a, "--verdicts") == 0) r->verdicts_path = argv[++i];
        else if (strcmp(a, "--only") == 0) r->only = argv[++i];
        else return usage();
    }
    if (r->opt.bound < 1 || r->dbs < 0 || r->max_rows < 0 || r->jobs < 0 || r->sample < 1) return usage();
    if (!r->spider && !r->self && !r->rewrites && !r->n_case_paths) return usage();
    return 0;
}

/* Whether --only names pair id: "ID", or "@FILE" with one id a line (the
** first word; "KIND ID SEMANTICS" lines of a known list also do). */
static int wanted(Run *r, const char *id) {
    if (r->only[0] != '@') return strcmp(r->only, id) == 0;
    if (!r->only_ids) {
        size_t len;
        int err;
        r->only_ids = sq_read_file(r->only + 1, &len, &err);
        if (!r->only_ids) r->only_ids = sq_strdup("");
    }
    size_t n = strlen(id);
    for (const char *p = r->only_ids; (p = strstr(p, id)) != NULL; p += n)
        if ((p == r->only_ids || p[-1] == '\n' || p[-1] == ' ') && (p[n] == '\n' || p[n] == ' ' || !p[n]))
            return 1;
    return 0;
}

/* Every sample-th pair, the first limit of them (or those --only names). */
static void select_pairs(Run *r) {
    size_t m = 0;
    for (size_t i = 0; i < r->n_pairs; i++) {
        if (i % (size_t)r->sample != 0 || (r->limit && m >= (size_t)r->limit) ||
            (r->only && !wanted(r, r->pairs[i].id))) {
            free(r->pairs[i].id);
            continue;
        }
        r->pairs[m++] = r->pairs[i];
    }
    r->n_pairs = m;
}

static void cleanup(Run *r) {
    for (size_t i = 0; i < r->n_pairs; i++) {
        free(r->pairs[i].id);
        if (r->outs) free(r->outs[i]);
    }
    free(r->pairs);
    free(r->outs);
    for (uint32_t i = 0; i < r->n_schemas; i++) {
        Schema *s = &r->schemas[i];
        if (s->real) {
            for (uint32_t t = 0; t < s->cat->n_tables; t++) {
                for (uint32_t c = 0; s->real[t] && c < s->cat->tables[t]->n_cols; c++) vpool_free(&s->real[t][c]);
                free(s->real[t]);
            }
            free(s->real);
        }
        free(s->key);
        free(s->ddl);
        free(s->db_path);
    }
    free(r->schemas);
    for (int i = 0; r->cases && i < r->n_case_paths; i++) cases_free(&r->cases[i]);
    free(r->cases);
    free(r->case_paths);
    for (size_t i = 0; i < r->n_known; i++) free(r->known[i]);
    free(r->known);
    free(r->only_ids);
    corpus_catalogs_free(&r->catalogs);
    corpus_free(&r->c); /* also when it was not there: its root is set */
    sq_ctx_free(&r->ctx);
}

int main(int argc, char **argv) {
    Run r;
    memset(&r, 0, sizeof r);
    r.opt = sq_equiv_options_default();
    r.opt.bound = 3;
    r.opt.timeout = 0; /* the resource limit alone: no clock */
    r.opt.rlimit = 20000000;
    r.ties = 1;
    r.max_rows = 6;
    r.jobs = 1;
    r.sample = 1;
    r.seed = 1;
    if (options(&r, argc, argv) < 0) {
        free(r.case_paths);
        return 2;
    }
    sq_ctx_init(&r.ctx);
    int status = 2;
    if (load_known(&r) < 0 || load_case_pairs(&r) < 0) goto done;
    if ((r.spider || r.self || r.rewrites) && load_corpus_pairs(&r) < 0) goto done;
    FILE *rep = NULL; /* opened before the run: an unwritable path fails at once */
    if (r.report_path && !(rep = fopen(r.report_path, "w"))) {
        fprintf(stderr, "soundness: cannot write %s\n", r.report_path);
        goto done;
    }
    if (r.verdicts_path && !(r.verdicts = fopen(r.verdicts_path, "w"))) {
        fprintf(stderr, "soundness: cannot write %s\n", r.verdicts_path);
        goto done;
    }
    select_pairs(&r);
    run_checks(&r);
    Tally t;
    memset(&t, 0, sizeof t);
    for (size_t i = 0; i < r.n_pairs; i++) read_out(&r, &t, i, rep);
    if (rep) fclose(rep);
    if (r.verdicts) fclose(r.verdicts);
    summary(&r, &t);
    corpus_tally_free(&t.why_not);
    status = t.unknown_findings ? 1 : 0;
done:
    cleanup(&r);
    return status;
}
