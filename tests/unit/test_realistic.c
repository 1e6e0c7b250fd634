/* test_realistic.c -- the --realistic search: a column profile's facts
** (never NULL, each value once, the shapes seen) keep the counterexample
** search to data like the profiled database's.
**
** Each pair below differs only on data the profile says never occurs (a
** NULL, a repeated value, text that is not a date, text in an INTEGER
** column): without the profile sq_equiv finds the difference, with it the
** verdict is an equivalence on realistic data, labelled so.  A pair that
** differs on realistic data still differs, and its counterexample keeps
** every fact, checked here row by row against the hand-filled profile.
** The profiles are filled by hand (SqProfile's fields), so the test needs
** no profile loader.  Budgets are z3's resource units, never seconds. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/equiv/equiv.h"
#include "backend/sqlite/db.h"
#include "ir/ir.h"
#include "runtime/util.h"

/* z3's resource units for a pair: every search below needs a small part
** of it, on any machine. */
#define PAIR_UNITS UINT64_C(400000000)

static const char ddl[] =
    "CREATE TABLE t (id INTEGER PRIMARY KEY, x INTEGER);"
    "CREATE TABLE e (id INTEGER PRIMARY KEY, d TEXT, n INTEGER);";

/* A schema, the profile over it, and the queries' arena. */
typedef struct World {
    SqSrcSet srcs;
    SqDiags diags;
    SqInterner *names;
    SqArena *arena;
    Catalog *cat;
    SqProfile prof;
    int bound;          /* of the searches (3) */
} World;

static void world_open(World *w) {
    sq_srcset_init(&w->srcs);
    sq_diags_init(&w->diags, &w->srcs);
    w->names = sq_interner_new();
    w->arena = sq_arena_new();
    w->cat = sq_catalog_new(w->names, "realistic.sql");
    SqSrc *src = sq_src_add_copy(&w->srcs, "realistic.sql", ddl, strlen(ddl));
    assert_int_equal(sq_catalog_load_ddl(w->cat, src, &w->diags), 0);
    sq_catalog_link(w->cat, &w->diags);
    memset(&w->prof, 0, sizeof w->prof);
    w->prof.arena = sq_arena_new();
    w->prof.cat = w->cat;
    w->prof.source = SQ_PROFILE_DATABASE;
    w->prof.origin = "hand.sqlite";
    w->bound = 3;
}

static void world_close(World *w) {
    sq_arena_free(w->prof.arena);
    sq_catalog_free(w->cat);
    sq_arena_free(w->arena);
    sq_interner_free(w->names);
    sq_diags_free(&w->diags);
    sq_srcset_free(&w->srcs);
}

static const CatTable *table(World *w, const char *name) {
    for (uint32_t i = 0; i < w->cat->n_tables; i++)
        if (strcmp(w->cat->tables[i]->name, name) == 0) return w->cat->tables[i];
    fail_msg("no table %s", name);
    return NULL;
}

/* Add the profile of column col of table name: rows, NULL cells, distinct
** non-NULL values, the SQ_SHAPE_* bits seen. */
static void profile_column(World *w, const char *name, uint32_t col, int64_t rows, int64_t nulls, int64_t distinct,
                           unsigned shapes) {
    SqColumnProfile *cols = sq_arena_alloc(w->prof.arena, (w->prof.n_cols + 1) * sizeof *cols);
    if (w->prof.n_cols) memcpy(cols, w->prof.cols, w->prof.n_cols * sizeof *cols);
    SqColumnProfile *c = &cols[w->prof.n_cols++];
    memset(c, 0, sizeof *c);
    c->table = table(w, name);
    c->col = col;
    c->rows = rows;
    c->nulls = nulls;
    c->distinct = distinct;
    c->shapes = shapes;
    w->prof.cols = cols;
}

static IrQuery *load(World *w, const char *sql) {
    const SqSrc *src = sq_src_add_copy(&w->srcs, "Q", sql, strlen(sql));
    SqBindOptions opt = sq_db_bind_options();
    const char *why = NULL;
    IrQuery *q = ir_load_query(w->arena, src, w->cat, w->names, &w->diags, &opt, &why);
    if (!q) fail_msg("cannot load %s: %s", sql, why ? why : "?");
    return q;
}

/* sq_equiv on the pair, with the profile when realistic; the normal forms
** are skipped so that the search decides. */
static void run(World *w, const char *sql1, const char *sql2, int realistic, int isolate, SqEquivResult *r) {
    SqEquivOptions opt = sq_equiv_options_default();
    opt.timeout = 0;
    opt.rlimit = PAIR_UNITS;
    opt.bound = w->bound;
    opt.search_only = 1;
    opt.isolate = isolate;
    opt.realistic = realistic ? &w->prof : NULL;
    sq_equiv(w->cat, load(w, sql1), sql1, load(w, sql2), sql2, &opt, r);
}

static void expect(const SqEquivResult *r, SqVerdict want, const char *what) {
    if (r->verdict != want)
        fail_msg("%s: %s, expected %s (%s)", what, sq_verdict_name(r->verdict), sq_verdict_name(want),
                 r->detail ? r->detail : "");
}

/* Without the profile: a difference.  With it: an equivalence on
** realistic data, never shown as one on every database. */
static void differs_only_off_profile(World *w, const char *sql1, const char *sql2) {
    SqEquivResult r;
    run(w, sql1, sql2, 0, 0, &r);
    expect(&r, SQ_VERDICT_DIFFERENT, "without the profile");
    assert_int_equal(r.realistic, 0);
    assert_string_equal(sq_equiv_verdict_label(&r), "different");
    sq_equiv_result_free(&r);

    run(w, sql1, sql2, 1, 0, &r);
    expect(&r, SQ_VERDICT_EQUIVALENT, "with the profile");
    assert_true(r.realistic > 0);
    assert_null(r.proof);
    assert_string_equal(r.realistic_origin, "hand.sqlite");
    assert_string_equal(sq_equiv_verdict_label(&r), "equivalent-on-realistic-data");
    SqBuf promise = SQ_BUF_INIT;
    sq_equiv_promise(&r, &promise);
    assert_non_null(strstr(sq_buf_str(&promise), "on realistic data"));
    assert_non_null(strstr(sq_buf_str(&promise), "hand.sqlite"));
    assert_null(strstr(sq_buf_str(&promise), "every database"));
    sq_buf_free(&promise);
    sq_equiv_result_free(&r);
}

/* (a) count(x) and count(*) differ only where x is NULL. */
static void never_null(void **state) {
    (void)state;
    World w;
    world_open(&w);
    profile_column(&w, "t", 1, 40, 0, 7, SQ_SHAPE_INTEGER);
    differs_only_off_profile(&w, "SELECT count(x) FROM t", "SELECT count(*) FROM t");
    world_close(&w);
}

/* (b) count(DISTINCT x) and count(x) differ only where a non-NULL value
** repeats; the column holds NULLs, so uniqueness alone decides. */
static void unique_values(void **state) {
    (void)state;
    World w;
    world_open(&w);
    profile_column(&w, "t", 1, 40, 3, 37, SQ_SHAPE_INTEGER);
    differs_only_off_profile(&w, "SELECT count(DISTINCT x) FROM t", "SELECT count(x) FROM t");
    world_close(&w);
}

/* (c) comparing the text and comparing date() of it differ only where
** the column holds text that is not a date. */
static void date_shape(void **state) {
    (void)state;
    World w;
    world_open(&w);
    profile_column(&w, "e", 1, 40, 2, 30, SQ_SHAPE_DATE);
    differs_only_off_profile(&w, "SELECT id FROM e WHERE d >= '2020-01-01'",
                             "SELECT id FROM e WHERE date(d) >= '2020-01-01'");
    /* the year of a date, and a range of its text (one row: z3's regular
    ** expressions take seconds per row to prove it on more) */
    w.bound = 1;
    differs_only_off_profile(&w, "SELECT id FROM e WHERE strftime('%Y', d) = '2020'",
                             "SELECT id FROM e WHERE d >= '2020-01-01' AND d < '2021-01-01'");
    world_close(&w);
}

/* (c) again for storage classes: x > 5 and x + 0 > 5 differ only where
** the INTEGER column holds TEXT ('abc' > 5, 'abc' + 0 is 0). */
static void integer_class(void **state) {
    (void)state;
    World w;
    world_open(&w);
    profile_column(&w, "t", 1, 40, 4, 9, SQ_SHAPE_INTEGER);
    differs_only_off_profile(&w, "SELECT id FROM t WHERE x > 5", "SELECT id FROM t WHERE x + 0 > 5");
    world_close(&w);
}

/* Whether text is a valid 'YYYY-MM-DD' (the day within 31; months of
** fewer days are the search's business, this only checks the shape). */
static int looks_like_date(const char *s, uint32_t n) {
    if (n != 10 || s[4] != '-' || s[7] != '-') return 0;
    for (uint32_t i = 0; i < n; i++)
        if (i != 4 && i != 7 && (s[i] < '0' || s[i] > '9')) return 0;
    int month = (s[5] - '0') * 10 + (s[6] - '0'), day = (s[8] - '0') * 10 + (s[9] - '0');
    return month >= 1 && month <= 12 && day >= 1 && day <= 31;
}

/* The rows of the fixture's table called name, or NULL. */
static const SqResult *fixture_rows(const SqFixture *f, const char *name) {
    for (uint32_t i = 0; i < f->n_tables; i++)
        if (strcmp(f->tables[i].table->name, name) == 0) return &f->tables[i].rows;
    return NULL;
}

/* (d) > and >= on a date column differ on realistic data too: the
** counterexample has no NULL in d or n, each d once, d a date, n an
** INTEGER. */
static void realistic_difference(void **state) {
    (void)state;
    World w;
    world_open(&w);
    profile_column(&w, "e", 0, 40, 0, 40, SQ_SHAPE_INTEGER);
    profile_column(&w, "e", 1, 40, 0, 40, SQ_SHAPE_DATE);
    profile_column(&w, "e", 2, 40, 0, 12, SQ_SHAPE_INTEGER);
    SqEquivResult r;
    run(&w, "SELECT count(*) FROM e WHERE d > '2020-01-01' AND n > 0",
        "SELECT count(*) FROM e WHERE d >= '2020-01-01' AND n > 0", 1, 0, &r);
    expect(&r, SQ_VERDICT_DIFFERENT, "with the profile");
    assert_int_equal(r.realistic, 2); /* d's and n's: id, which no query reads, keeps none */
    assert_string_equal(sq_equiv_verdict_label(&r), "different");
    const SqResult *rows = fixture_rows(&r.fixture, "e");
    assert_non_null(rows);
    assert_true(rows->n_rows >= 1);
    for (uint64_t i = 0; i < rows->n_rows; i++) {
        const SqValue *d = sq_result_cell(rows, i, 1), *n = sq_result_cell(rows, i, 2);
        assert_int_equal(d->type, SQ_VAL_TEXT);
        if (!looks_like_date(d->s, d->n)) fail_msg("row %u: d = '%.*s' is not a date", (unsigned)i, (int)d->n, d->s);
        assert_int_equal(n->type, SQ_VAL_INTEGER);
        for (uint64_t j = 0; j < i; j++) {
            const SqValue *e = sq_result_cell(rows, j, 1);
            if (e->n == d->n && memcmp(e->s, d->s, d->n) == 0) fail_msg("d = '%.*s' twice", (int)d->n, d->s);
        }
    }
    sq_equiv_result_free(&r);
    world_close(&w);
}

/* The search in a child process (a fork) keeps the profile and says so. */
static void isolated(void **state) {
    (void)state;
    World w;
    world_open(&w);
    profile_column(&w, "t", 1, 40, 0, 7, SQ_SHAPE_INTEGER);
    SqEquivResult r;
    run(&w, "SELECT count(x) FROM t", "SELECT count(*) FROM t", 1, 1, &r);
    expect(&r, SQ_VERDICT_EQUIVALENT, "isolated, with the profile");
    assert_int_equal(r.realistic, 1);
    assert_string_equal(r.realistic_origin, "hand.sqlite");
    assert_string_equal(sq_equiv_verdict_label(&r), "equivalent-on-realistic-data");
    sq_equiv_result_free(&r);
    world_close(&w);
}

/* The normal forms prove an equivalence on every database, profile or
** not: the label stays "equivalent". */
static void normal_form_proof(void **state) {
    (void)state;
    World w;
    world_open(&w);
    profile_column(&w, "t", 1, 40, 0, 7, SQ_SHAPE_INTEGER);
    SqEquivOptions opt = sq_equiv_options_default();
    opt.timeout = 0;
    opt.rlimit = PAIR_UNITS;
    opt.realistic = &w.prof;
    const char *sql = "SELECT x FROM t WHERE x > 1";
    SqEquivResult r;
    sq_equiv(w.cat, load(&w, sql), sql, load(&w, sql), sql, &opt, &r);
    expect(&r, SQ_VERDICT_EQUIVALENT, "the same query");
    assert_non_null(r.proof);
    assert_int_equal(r.realistic, 1);
    assert_string_equal(sq_equiv_verdict_label(&r), "equivalent");
    SqBuf promise = SQ_BUF_INIT;
    sq_equiv_promise(&r, &promise);
    assert_string_equal(sq_buf_str(&promise), "on every database");
    sq_buf_free(&promise);
    sq_equiv_result_free(&r);
    world_close(&w);
}

/* Which facts a profile gives: a column of an empty table, or with
** nothing known, none; BLOBs keep the classes open; any other text keeps
** the forms open. */
static void facts_from_profile(void **state) {
    (void)state;
    World w;
    world_open(&w);
    profile_column(&w, "t", 1, 0, 0, 0, SQ_SHAPE_INTEGER);                      /* no rows: nothing */
    profile_column(&w, "e", 1, 10, 2, -1, 0);                                   /* distinct unknown, no shapes */
    profile_column(&w, "e", 2, 10, 0, 10, SQ_SHAPE_INTEGER | SQ_SHAPE_BLOB);    /* BLOBs seen */
    profile_column(&w, "e", 1, 10, 1, 3, SQ_SHAPE_DATE | SQ_SHAPE_DATETIME);    /* two forms */
    profile_column(&w, "e", 1, 10, 1, 3, SQ_SHAPE_DATE | SQ_SHAPE_OTHER_TEXT);  /* any text */
    profile_column(&w, "e", 2, 10, 1, 3, SQ_SHAPE_REAL | SQ_SHAPE_INT_TEXT);
    uint32_t n;
    SqSmtColumnFacts *f = sq_equiv_facts(w.cat, &w.prof, w.arena, &n);
    assert_int_equal(n, 4);
    assert_ptr_equal(f[0].table, table(&w, "e"));
    assert_int_equal(f[0].not_null, 1);
    assert_int_equal(f[0].unique, 1);
    assert_int_equal(f[0].classes, 0);
    assert_int_equal(f[1].not_null, 0);
    assert_int_equal(f[1].classes, SQ_SMT_CLASS_TEXT);
    assert_int_equal(f[1].text_forms, SQ_SMT_TEXT_DATE | SQ_SMT_TEXT_DATETIME);
    assert_int_equal(f[2].classes, SQ_SMT_CLASS_TEXT);
    assert_int_equal(f[2].text_forms, 0);
    assert_int_equal(f[3].classes, SQ_SMT_CLASS_REAL | SQ_SMT_CLASS_TEXT);
    assert_int_equal(f[3].text_forms, SQ_SMT_TEXT_INTEGER);
    world_close(&w);
}

/* In passes/smt: a fact of a table the build does not reach is not
** asserted, and no facts leave the formula as it was. */
static void smt_facts_scope(void **state) {
    (void)state;
    World w;
    world_open(&w);
    const char *sql = "SELECT count(x) FROM t";
    IrQuery *q1 = load(&w, sql), *q2 = load(&w, "SELECT count(*) FROM t");
    SqSmt *s = sq_smt_new(w.cat, 0);
    assert_non_null(s);
    SqBuf plain = SQ_BUF_INIT, none = SQ_BUF_INIT, other = SQ_BUF_INIT;
    assert_int_equal(sq_smt_build(s, q1, q2, 2, SQ_SMT_SET), 0);
    sq_smt_dump(s, &plain);
    SqSmtColumnFacts on_e = {table(&w, "e"), 1, 1, 1, SQ_SMT_CLASS_TEXT, SQ_SMT_TEXT_DATE};
    sq_smt_set_facts(s, &on_e, 1);
    assert_int_equal(sq_smt_build(s, q1, q2, 2, SQ_SMT_SET), 0);
    assert_int_equal(sq_smt_facts_used(s), 0);
    sq_smt_dump(s, &other);
    assert_string_equal(sq_buf_str(&plain), sq_buf_str(&other));
    sq_smt_set_facts(s, NULL, 0);
    assert_int_equal(sq_smt_build(s, q1, q2, 2, SQ_SMT_SET), 0);
    sq_smt_dump(s, &none);
    assert_string_equal(sq_buf_str(&plain), sq_buf_str(&none));
    SqSmtColumnFacts on_t = {table(&w, "t"), 1, 1, 0, 0, 0};
    sq_smt_set_facts(s, &on_t, 1);
    assert_int_equal(sq_smt_build(s, q1, q2, 2, SQ_SMT_SET), 0);
    assert_int_equal(sq_smt_facts_used(s), 1);
    assert_int_equal(sq_smt_check(s, 1), SQ_SMT_SAME); /* count(x) is count(*) without NULLs */
    sq_buf_free(&plain);
    sq_buf_free(&none);
    sq_buf_free(&other);
    sq_smt_free(s);
    world_close(&w);
}

/* With an argument, only the tests whose name contains it. */
int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(never_null),
        cmocka_unit_test(unique_values),
        cmocka_unit_test(date_shape),
        cmocka_unit_test(integer_class),
        cmocka_unit_test(realistic_difference),
        cmocka_unit_test(isolated),
        cmocka_unit_test(normal_form_proof),
        cmocka_unit_test(facts_from_profile),
        cmocka_unit_test(smt_facts_scope),
    };
    if (argc > 1) cmocka_set_test_filter(argv[1]);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
