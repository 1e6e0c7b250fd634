/*
** fuzz_equiv.c -- libFuzzer target: squint equiv against SQLite, on pairs
** of small queries built from the bytes (querygen.c) over a fixed schema
** (QG_SCHEMA).
**
** Each input makes one pair and one verdict (sq_equiv: bound 2, z3's
** resource limit 2,000,000 units for the pair, no time limit, in
** process), under the semantics the bytes chose.  Then the differential
** property is checked:
**   equivalent   both queries run on databases generated from the input
**                (DBS_PER_PAIR of them, at most the bound's rows per
**                table, or MAX_ROWS_PROVED for an equivalence the normal
**                forms proved on every database; plus the empty one), and
**                SQLite must return the same result for both under the
**                semantics (backend/sqlite/result.h);
**   different    the counterexample (SqEquivResult.fixture) must load with
**                its constraints, keep to the bound, and SQLite must show
**                the difference on it (sq_fixture_differs);
**   different-under-ties  when equiv says SQLite reproduced the tie, it
**                must reproduce on the fixture;
**   a query and itself are never different.
** A failure prints the queries, the semantics, the verdict, the database
** as a SQL script and both results, then aborts (libFuzzer keeps the
** input).  With FUZZ_EQUIV_CONTINUE=1 it is appended to the file
** FUZZ_EQUIV_LOG (default equiv-findings.txt) instead and the run goes on,
** so that a long run collects every distinct failure.  A `spurious`
** verdict (the encoding's model does not reproduce in SQLite: a bug of
** passes/smt that equiv already catches) is logged the same way but never
** aborts.
**
** The databases hold the values the encoding models (docs/squint-equiv.md,
** What is modelled): integers in INTEGER columns, multiples of 1/4 in REAL
** ones, text in TEXT ones, NULL where allowed, keys unique, foreign keys
** that find their row.  FUZZ_EQUIV_WIDE=1 adds what SQLite also lets the
** columns hold (text and reals in INTEGER columns, text in REAL ones),
** which the issue asks the model to cover.
**
** Databases come from a generator seeded by a hash of the input, so a
** run is deterministic; only z3's resource limit bounds the search.  To
** show the databases have teeth, they are also tried on every pair equiv
** proves different: "caught" counts the pairs they tell apart too.  At
** exit the target prints one line of counts ("fuzz_equiv stats: ...");
** FUZZ_EQUIV_SHOW=1 prints every pair and its verdict; FUZZ_EQUIV_AVOID
** leaves features out of the pairs (querygen.h: qg_avoid), to hunt past a
** finding still open.
*/
#include <stdarg.h>

#include "backend/equiv/equiv.h"
#include "backend/sqlite/db.h"
#include "ir/ir.h"
#include "tests/fuzz/fuzz_util.h"
#include "tests/fuzz/querygen.h"

enum { BOUND = 2, DBS_PER_PAIR = 16, MAX_ROWS_PROVED = 4 };
#define RLIMIT 2000000u

static struct {
    SqSrcSet srcs;
    SqDiags diags;
    SqInterner *names;
    Catalog *cat;
    const CatTable *dept, *emp;
    SqBindOptions opt;
    int wide, keep_going, show;
    const char *log;
} G;

static struct {
    size_t inputs, loaded, verdicts[SQ_VERDICT_COUNT], proved, self, dbs, failures, caught;
} N;

static void print_stats(void) {
    fprintf(stderr,
            "fuzz_equiv stats: pairs=%zu loaded=%zu equivalent=%zu (proved=%zu) different=%zu "
            "ties=%zu columns=%zu unsupported=%zu timeout=%zu unconfirmed=%zu spurious=%zu "
            "vacuous=%zu failed=%zu self=%zu dbs=%zu caught=%zu failures=%zu\n",
            N.inputs, N.loaded, N.verdicts[SQ_VERDICT_EQUIVALENT], N.proved, N.verdicts[SQ_VERDICT_DIFFERENT],
            N.verdicts[SQ_VERDICT_DIFFERENT_TIES], N.verdicts[SQ_VERDICT_COLUMNS],
            N.verdicts[SQ_VERDICT_UNSUPPORTED], N.verdicts[SQ_VERDICT_TIMEOUT],
            N.verdicts[SQ_VERDICT_UNCONFIRMED], N.verdicts[SQ_VERDICT_SPURIOUS], N.verdicts[SQ_VERDICT_VACUOUS],
            N.verdicts[SQ_VERDICT_FAILED], N.self, N.dbs, N.caught, N.failures);
}

static const CatTable *table_named(const char *name) {
    for (uint32_t i = 0; i < G.cat->n_tables; i++)
        if (strcmp(G.cat->tables[i]->name, name) == 0) return G.cat->tables[i];
    abort();
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc, (void)argv;
    sq_srcset_init(&G.srcs);
    sq_diags_init(&G.diags, &G.srcs);
    G.names = sq_interner_new();
    G.cat = sq_catalog_new(G.names, "querygen");
    SqSrc *src = sq_src_add_copy(&G.srcs, "querygen.sql", QG_SCHEMA, strlen(QG_SCHEMA));
    if (sq_catalog_load_ddl(G.cat, src, &G.diags)) abort();
    sq_catalog_link(G.cat, &G.diags);
    G.dept = table_named("dept");
    G.emp = table_named("emp");
    G.opt = sq_db_bind_options();
    G.wide = getenv("FUZZ_EQUIV_WIDE") && strcmp(getenv("FUZZ_EQUIV_WIDE"), "1") == 0;
    G.keep_going = getenv("FUZZ_EQUIV_CONTINUE") && strcmp(getenv("FUZZ_EQUIV_CONTINUE"), "1") == 0;
    G.show = getenv("FUZZ_EQUIV_SHOW") != NULL;
    G.log = getenv("FUZZ_EQUIV_LOG") ? getenv("FUZZ_EQUIV_LOG") : "equiv-findings.txt";
    if (qg_avoid(getenv("FUZZ_EQUIV_AVOID")) < 0) {
        fprintf(stderr, "fuzz_equiv: FUZZ_EQUIV_AVOID: an unknown feature (querygen.h)\n");
        abort();
    }
    atexit(print_stats);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Random databases                                                    */
/* ------------------------------------------------------------------ */

/* splitmix64: small, and the same sequence on every machine. */
static uint64_t next(uint64_t *s) {
    uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static unsigned below(uint64_t *s, unsigned n) {
    return (unsigned)(next(s) % n);
}

/* The values the databases use: the queries' literals (querygen.c) and
** their neighbours, so that a comparison with a literal can go either way. */
static const int64_t ints[] = {-1, 0, 1, 2, 3, 10};
static const double reals[] = {-1.5, 0.0, 0.5, 1.0, 2.25, 10.0};
static const char *const texts[] = {"a", "b", "A", "", "ab", "1", "01", "1.0", " 2", "2 ", "1e1", "-1", "10", "2"};
/* FUZZ_EQUIV_WIDE: what an INTEGER or REAL column holds besides numbers */
static const char *const odd_texts[] = {"abc", "1.5", "x1", "", " 3"};

#define N_OF(a) (sizeof(a) / sizeof *(a))

/* A value for a column of type ('i', 'r', 't'), never NULL. */
static SqValue some_value(SqResult *rows, uint64_t *s, char type, int wide) {
    if (wide && type != 't' && below(s, 5) == 0) {
        if (type == 'i' && below(s, 2)) return sq_value_real(reals[below(s, N_OF(reals))] + 0.25);
        const char *t = odd_texts[below(s, N_OF(odd_texts))];
        return sq_result_text(rows, t, (uint32_t)strlen(t));
    }
    if (type == 'i') return sq_value_int(ints[below(s, N_OF(ints))]);
    if (type == 'r') return sq_value_real(reals[below(s, N_OF(reals))]);
    const char *t = texts[below(s, N_OF(texts))];
    return sq_result_text(rows, t, (uint32_t)strlen(t));
}

/* n distinct indexes below m (n <= m) into out. */
static void distinct_picks(uint64_t *s, unsigned n, unsigned m, unsigned *out) {
    for (unsigned i = 0; i < n; i++) {
        unsigned k;
        int again;
        do {
            k = below(s, m);
            again = 0;
            for (unsigned j = 0; j < i; j++) again |= out[j] == k;
        } while (again);
        out[i] = k;
    }
}

/* A database of the schema with at most max_rows rows per table:
**   dept (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, budget REAL, code TEXT)
**   emp (id INTEGER PRIMARY KEY, dept_id INT REFERENCES dept, name TEXT, salary INT, tag TEXT) */
static void random_db(SqFixture *f, uint64_t *s, int max_rows) {
    unsigned nd = below(s, (unsigned)max_rows + 1), ne = below(s, (unsigned)max_rows + 1);
    unsigned ids[8], names[8];
    SqResult *dept = sq_fixture_table(f, G.dept);
    distinct_picks(s, nd, N_OF(ints), ids);
    distinct_picks(s, nd, N_OF(texts), names);
    for (unsigned i = 0; i < nd; i++) {
        SqValue *row = sq_result_add_row(dept);
        row[0] = sq_value_int(ints[ids[i]]);
        row[1] = sq_result_text(dept, texts[names[i]], (uint32_t)strlen(texts[names[i]]));
        if (below(s, 4)) row[2] = some_value(dept, s, 'r', G.wide);
        if (below(s, 4)) row[3] = some_value(dept, s, 't', G.wide);
    }
    unsigned dept_ids[8];
    for (unsigned i = 0; i < nd; i++) dept_ids[i] = ids[i];
    SqResult *emp = sq_fixture_table(f, G.emp);
    distinct_picks(s, ne, N_OF(ints), ids);
    for (unsigned i = 0; i < ne; i++) {
        SqValue *row = sq_result_add_row(emp);
        row[0] = sq_value_int(ints[ids[i]]);
        if (nd && below(s, 4)) row[1] = sq_value_int(ints[dept_ids[below(s, nd)]]);
        if (below(s, 4)) row[2] = some_value(emp, s, 't', G.wide);
        if (below(s, 4)) row[3] = some_value(emp, s, 'i', G.wide);
        if (below(s, 4)) row[4] = some_value(emp, s, 't', G.wide);
    }
}

/* ------------------------------------------------------------------ */
/* Failures                                                            */
/* ------------------------------------------------------------------ */

static const char *sem_name(int sem) {
    static const char *const names[] = {"set", "bag", "list", "spider"};
    return names[sem];
}

/* Report a failure of the property: the pair, the verdict, the database
** and both results; abort, or log it and go on (FUZZ_EQUIV_CONTINUE). */
static void failure(int fatal, const QgPair *p, const SqEquivResult *v, const SqFixture *db, const SqResult *r1,
                    const SqResult *r2, SqCompareMode mode, int order_matters, const char *fmt, ...) {
    SqBuf b = SQ_BUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    sq_buf_puts(&b, "fuzz_equiv: ");
    sq_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    sq_buf_printf(&b, "\n  semantics: %s\n  q1: %s\n  q2: %s\n  verdict: %s (bound %d%s%s)%s%s\n",
                  sem_name(p->semantics), sq_buf_str(&p->q1), sq_buf_str(&p->q2), sq_verdict_name(v->verdict),
                  v->bound, v->proof ? ", proof: " : "", v->proof ? v->proof : "", v->detail ? ": " : "",
                  v->detail ? v->detail : "");
    if (db) {
        sq_buf_puts(&b, "  database:\n");
        sq_fixture_sql(db, &b);
    }
    if (r1 && r2) {
        sq_result_side_by_side(r1, "Q1", r2, "Q2", &b);
        sq_buf_puts(&b, "  first difference: ");
        sq_result_diff(r1, r2, mode, order_matters, &b);
        sq_buf_putc(&b, '\n');
    }
    fputs(sq_buf_str(&b), stderr);
    if (G.keep_going || !fatal) {
        FILE *f = fopen(G.log, "a");
        if (f) {
            fprintf(f, "%s\n", sq_buf_str(&b));
            fclose(f);
        }
    }
    sq_buf_free(&b);
    if (fatal) {
        N.failures++;
        if (!G.keep_going) abort();
    }
}

/* ------------------------------------------------------------------ */
/* The property                                                        */
/* ------------------------------------------------------------------ */

static SqCompareMode compare_mode(int sem) {
    switch (sem) {
    case SQ_SMT_BAG: return SQ_CMP_BAG;
    case SQ_SMT_LIST: return SQ_CMP_LIST;
    case SQ_SMT_SPIDER: return SQ_CMP_SPIDER;
    default: return SQ_CMP_SET;
    }
}

/* Run both queries on the empty database and DBS_PER_PAIR generated ones
** of at most max_rows rows per table: 1 at the first database SQLite tells
** them apart on (a failure when fatal), -1 when a query does not run (a
** failure), 0 when they agree on all. */
static int random_dbs_differ(const QgPair *p, const SqEquivResult *v, int order_matters, uint64_t seed, int max_rows,
                             int fatal) {
    SqCompareMode mode = compare_mode(p->semantics);
    int d = 0;
    for (int i = 0; i <= DBS_PER_PAIR && d == 0; i++) {
        SqFixture f;
        sq_fixture_init(&f, G.cat);
        f.now = SQ_EQUIV_NOW;
        if (i) random_db(&f, &seed, max_rows); /* the first is empty */
        SqResult r1, r2;
        sq_result_init(&r1);
        sq_result_init(&r2);
        char *err = NULL;
        d = sq_fixture_differs(&f, sq_buf_str(&p->q1), sq_buf_str(&p->q2), mode, order_matters, &r1, &r2, &err);
        N.dbs++;
        if (d == 1 && fatal)
            failure(1, p, v, &f, &r1, &r2, mode, order_matters, "equivalent, but SQLite tells them apart");
        else if (d < 0)
            failure(1, p, v, &f, NULL, NULL, mode, order_matters, "a query does not run on a generated database: %s",
                    err ? err : "?");
        free(err);
        sq_result_free(&r1);
        sq_result_free(&r2);
        sq_fixture_free(&f);
    }
    return d;
}

/* A difference: the counterexample keeps to the bound and shows it. */
static void check_counterexample(const QgPair *p, SqEquivResult *v, int order_matters) {
    SqCompareMode mode = compare_mode(p->semantics);
    for (uint32_t t = 0; t < v->fixture.n_tables && !v->raised; t++)
        if (v->fixture.tables[t].rows.n_rows > (uint64_t)BOUND)
            failure(1, p, v, &v->fixture, NULL, NULL, mode, order_matters,
                    "the counterexample has %llu rows in %s, over the bound",
                    (unsigned long long)v->fixture.tables[t].rows.n_rows, v->fixture.tables[t].table->name);
    SqResult r1, r2;
    sq_result_init(&r1);
    sq_result_init(&r2);
    char *err = NULL;
    int d = sq_fixture_differs(&v->fixture, sq_buf_str(&p->q1), sq_buf_str(&p->q2), mode, order_matters, &r1, &r2,
                               &err);
    if (d < 0)
        failure(1, p, v, &v->fixture, NULL, NULL, mode, order_matters, "the counterexample does not run: %s",
                err ? err : "?");
    else if (d == 0)
        failure(1, p, v, &v->fixture, &r1, &r2, mode, order_matters,
                "the counterexample does not tell the queries apart in SQLite");
    free(err);
    sq_result_free(&r1);
    sq_result_free(&r2);
}

static uint64_t hash(const uint8_t *data, size_t size) {
    uint64_t h = UINT64_C(1469598103934665603);
    for (size_t i = 0; i < size; i++) h = (h ^ data[i]) * UINT64_C(1099511628211);
    return h;
}

static void decide(const QgPair *p, IrQuery *q1, IrQuery *q2, uint64_t seed) {
    SqEquivOptions o = sq_equiv_options_default();
    o.bound = BOUND;
    o.timeout = 0;
    o.rlimit = RLIMIT;
    /* shrink on fresh solvers: z3 4.8.12 crashes inside some incremental
    ** checks of the shrink (docs/soundness.md); squint equiv and eval run
    ** such a search again in a child, which a search in this process
    ** cannot, so the run would stop on z3's bug rather than squint's */
    o.fresh_shrink = 1;
    o.sem = (SqSmtSemantics)p->semantics;
    int order_matters = ir_root_sorted(q1->root);
    SqEquivResult v;
    sq_equiv(G.cat, q1, sq_buf_str(&p->q1), q2, sq_buf_str(&p->q2), &o, &v);
    N.verdicts[v.verdict]++;
    if (G.show)
        fprintf(stderr, "%s | %s | %s | %s%s%s\n", sem_name(p->semantics), sq_buf_str(&p->q1), sq_buf_str(&p->q2),
                sq_verdict_name(v.verdict), v.detail ? ": " : "", v.detail ? v.detail : "");
    if (v.verdict == SQ_VERDICT_EQUIVALENT) {
        N.proved += v.proof != NULL;
        random_dbs_differ(p, &v, order_matters, seed, v.proof ? MAX_ROWS_PROVED : BOUND, 1);
    } else if (v.verdict == SQ_VERDICT_DIFFERENT) {
        check_counterexample(p, &v, order_matters);
        /* how sharp the databases are: would they have caught this one? */
        N.caught += random_dbs_differ(p, &v, order_matters, seed, BOUND, 0) == 1;
    } else if (v.verdict == SQ_VERDICT_DIFFERENT_TIES && v.ties_reproduced) {
        check_counterexample(p, &v, order_matters);
    } else if (v.verdict == SQ_VERDICT_SPURIOUS) {
        failure(0, p, &v, &v.fixture, NULL, NULL, compare_mode(p->semantics), order_matters,
                "spurious counterexample (logged, not fatal)");
    }
    if (!p->n_rewrites && (v.verdict == SQ_VERDICT_DIFFERENT || v.verdict == SQ_VERDICT_COLUMNS))
        failure(1, p, &v, NULL, NULL, NULL, SQ_CMP_SET, 0, "a query is different from itself");
    sq_equiv_result_free(&v);
}

static IrQuery *load(SqArena *a, const char *name, const SqBuf *sql) {
    SqSrc *src = sq_src_add_copy(&G.srcs, name, sq_buf_str(sql), sql->len);
    const char *why = NULL;
    return ir_load_query(a, src, G.cat, G.names, &G.diags, &G.opt, &why);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    uint32_t keep_srcs = G.srcs.n;
    size_t keep_diags = G.diags.n;
    QgPair p;
    qg_pair_make(&p, data, size);
    N.inputs++;
    N.self += p.n_rewrites == 0;
    SqArena *a = sq_arena_new();
    IrQuery *q1 = load(a, "Q1", &p.q1);
    IrQuery *q2 = q1 ? load(a, "Q2", &p.q2) : NULL;
    if (q1 && q2) {
        N.loaded++;
        decide(&p, q1, q2, hash(data, size));
    }
    sq_arena_free(a);
    qg_pair_free(&p);
    sq_diags_truncate(&G.diags, keep_diags);
    sq_srcset_truncate(&G.srcs, keep_srcs);
    return 0;
}
