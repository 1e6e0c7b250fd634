/* test_soundness.c -- the soundness tool's parts: value pools and their neighbours, the random database generator (constraints kept, storage classes covered, --typed, determinism), shrinking and describing a database, the .cases reader. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/sqlite/db.h"
#include "runtime/util.h"
#include "tests/soundness/cases.h"
#include "tests/soundness/dbcheck.h"
#include "tests/soundness/randdb.h"

/* A parent with every kind of column, a child with two foreign keys (one
** to a TEXT key), a UNIQUE and a CHECK. */
static const char schema[] =
    "CREATE TABLE p(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, score REAL, born DATE,\n"
    "               x NUMERIC, anything);\n"
    "CREATE TABLE c(id INTEGER PRIMARY KEY, p_id INTEGER REFERENCES p(id),\n"
    "               p_name TEXT REFERENCES p(name), qty INT, note TEXT CHECK (length(note) < 4));\n";

typedef struct T {
    SqSrcSet srcs;
    SqDiags diags;
    SqInterner *names;
    Catalog *cat;
    ValuePool literals;
} T;

static int setup(void **state) {
    T *t = sq_calloc(1, sizeof *t);
    sq_srcset_init(&t->srcs);
    sq_diags_init(&t->diags, &t->srcs);
    t->names = sq_interner_new();
    t->cat = sq_catalog_new(t->names, "test");
    sq_catalog_load_ddl(t->cat, sq_src_add_copy(&t->srcs, "schema", schema, strlen(schema)), &t->diags);
    sq_catalog_link(t->cat, &t->diags);
    vpool_init(&t->literals);
    SqValue v = {SQ_VAL_TEXT, 0, 0.0, "Zebra", 5};
    vpool_add_neighbours(&t->literals, &v);
    *state = t;
    return 0;
}

static int teardown(void **state) {
    T *t = *state;
    vpool_free(&t->literals);
    sq_catalog_free(t->cat);
    sq_interner_free(t->names);
    sq_diags_free(&t->diags);
    sq_srcset_free(&t->srcs);
    free(t);
    return 0;
}

/* Database `seed` of the schema, its rows in *f (freed by the caller). */
static GenReport generate(T *t, uint64_t seed, int typed, SqFixture *f) {
    GenSchema gs = {t->cat, schema, NULL};
    GenOptions go = {typed, 6};
    GenReport rep;
    char *err = NULL;
    sq_fixture_init(f, t->cat);
    assert_int_equal(rdb_generate(&gs, &t->literals, &go, seed, f, &rep, &err), 0);
    assert_null(err);
    return rep;
}

static PairRun pair(T *t, const char *q1, const char *q2) {
    PairRun p = {t->cat, schema, q1, q2, SQ_CMP_BAG, 0, 0, NULL};
    return p;
}

static const SqResult *rows(const SqFixture *f, const char *table) {
    for (uint32_t i = 0; i < f->n_tables; i++)
        if (strcmp(f->tables[i].table->name, table) == 0) return &f->tables[i].rows;
    return NULL;
}

static int has(const ValuePool *p, const SqValue *v) {
    for (uint64_t i = 0; i < vpool_n(p); i++) {
        const SqValue *w = vpool_at(p, i);
        if (w->type == v->type && sq_value_equal(w, v)) return 1;
    }
    return 0;
}

static int has_text(const ValuePool *p, const char *s) {
    SqValue v = {SQ_VAL_TEXT, 0, 0.0, s, (uint32_t)strlen(s)};
    return has(p, &v);
}

/* ---- value pools ------------------------------------------------------ */

static void test_neighbours(void **state) {
    (void)state;
    ValuePool p;
    vpool_init(&p);
    SqValue five = sq_value_int(5);
    vpool_add_neighbours(&p, &five);
    SqValue want[] = {sq_value_int(4), sq_value_int(6), sq_value_real(5.0), sq_value_real(5.5)};
    for (size_t i = 0; i < 4; i++) assert_true(has(&p, &want[i]));
    assert_true(has_text(&p, "5"));
    SqValue pat = {SQ_VAL_TEXT, 0, 0.0, "Ab%", 3};
    vpool_add_neighbours(&p, &pat);
    assert_true(has_text(&p, "AB%"));
    assert_true(has_text(&p, "ab%"));
    assert_true(has_text(&p, "Ab"));   /* the wildcard matching nothing */
    assert_true(has_text(&p, "AbxY")); /* ... and something */
    assert_true(has_text(&p, "Ab% "));
    SqValue day = {SQ_VAL_TEXT, 0, 0.0, "2020-03-04", 10};
    vpool_add_neighbours(&p, &day);
    assert_true(has_text(&p, "2020/03/04"));
    assert_true(has_text(&p, "2020-3-4"));
    SqValue year = sq_value_int(2020);
    assert_true(has(&p, &year));
    uint64_t n = vpool_n(&p);
    vpool_add_neighbours(&p, &five); /* values already there are not added again */
    assert_int_equal(vpool_n(&p), n);
    vpool_free(&p);
}

/* ---- the generator ------------------------------------------------------ */

static void test_deterministic(void **state) {
    T *t = *state;
    PairRun pr = pair(t, "SELECT 1", "SELECT 1");
    SqBuf a = SQ_BUF_INIT, b = SQ_BUF_INIT;
    int differ = 0;
    for (uint64_t seed = 1; seed <= 10; seed++) {
        SqFixture f, g;
        generate(t, seed, 0, &f);
        generate(t, seed, 0, &g);
        sq_buf_reset(&a);
        sq_buf_reset(&b);
        db_script(&pr, &f, 0, &a);
        db_script(&pr, &g, 0, &b);
        assert_string_equal(sq_buf_str(&a), sq_buf_str(&b));
        sq_fixture_free(&g);
        generate(t, seed + 100, 0, &g);
        sq_buf_reset(&b);
        db_script(&pr, &g, 0, &b);
        differ += strcmp(sq_buf_str(&a), sq_buf_str(&b)) != 0;
        sq_fixture_free(&f);
        sq_fixture_free(&g);
    }
    assert_true(differ >= 8);
    sq_buf_free(&a);
    sq_buf_free(&b);
}

/* Every database loads with the foreign keys checked, keeps its CHECK, and
** has no more than max_rows rows per table; the child refers to parents
** often enough for joins to hit. */
static void test_constraints(void **state) {
    T *t = *state;
    PairRun pr = pair(t, "SELECT count(*) FROM c JOIN p ON p.id = c.p_id", "SELECT 1");
    int joined = 0;
    for (uint64_t seed = 1; seed <= 60; seed++) {
        SqFixture f;
        GenReport rep = generate(t, seed, 0, &f);
        assert_true(rep.fk_enforced);
        SqResult r1, r2;
        sq_result_init(&r1);
        sq_result_init(&r2);
        assert_true(db_differs(&pr, &f, RUN_FK, &r1, &r2, NULL) >= 0);
        joined += sq_result_cell(&r1, 0, 0)->i > 0;
        assert_int_equal(db_orphans(&pr, &f, NULL), 0);
        const SqResult *c = rows(&f, "c");
        assert_true(rows(&f, "p")->n_rows <= 6 && c->n_rows <= 6);
        for (uint64_t i = 0; i < c->n_rows; i++) {
            const SqValue *note = sq_result_cell(c, i, 4);
            assert_true(note->type != SQ_VAL_TEXT || note->n < 4);
        }
        sq_result_free(&r1);
        sq_result_free(&r2);
        sq_fixture_free(&f);
    }
    assert_true(joined >= 20);
}

/* What the databases hold, over many seeds. */
typedef struct Seen {
    int text_in_int, real_in_int, number_text_in_text, int_in_date, text_in_real, null, empty, literal, dup;
    int off_model; /* values outside their column's model class */
} Seen;

static void observe(const SqFixture *f, Seen *s) {
    const SqResult *p = rows(f, "p"), *c = rows(f, "c");
    for (uint64_t i = 0; i < c->n_rows; i++) {
        const SqValue *qty = sq_result_cell(c, i, 3);
        s->text_in_int += qty->type == SQ_VAL_TEXT;
        s->real_in_int += qty->type == SQ_VAL_REAL;
        s->null += qty->type == SQ_VAL_NULL;
    }
    for (uint64_t i = 0; i < p->n_rows; i++) {
        const SqValue *name = sq_result_cell(p, i, 1), *born = sq_result_cell(p, i, 3),
                      *score = sq_result_cell(p, i, 2);
        s->number_text_in_text += sq_text_is_number(name->s, name->n);
        s->empty += name->n == 0;
        s->literal += name->n == 5 && sq_strnicmp(name->s, "zebra", 5) == 0;
        s->int_in_date += born->type == SQ_VAL_INTEGER;
        s->text_in_real += score->type == SQ_VAL_TEXT;
        for (uint64_t j = 0; j < i; j++)
            s->dup += sq_value_equal(score, sq_result_cell(p, j, 2)) && score->type != SQ_VAL_NULL;
    }
    for (uint32_t k = 0; k < f->n_tables; k++) {
        const CatTable *tab = f->tables[k].table;
        const SqResult *r = &f->tables[k].rows;
        for (uint64_t i = 0; i < r->n_rows; i++)
            for (uint32_t col = 0; col < tab->n_cols; col++) {
                const SqValue *v = sq_result_cell(r, i, col);
                s->off_model += v->type != SQ_VAL_NULL && v->type != rdb_model_class(&tab->cols[col]);
            }
    }
}

static void test_storage_classes(void **state) {
    T *t = *state;
    Seen s;
    memset(&s, 0, sizeof s);
    for (uint64_t seed = 1; seed <= 200; seed++) {
        SqFixture f;
        generate(t, seed, 0, &f);
        observe(&f, &s);
        sq_fixture_free(&f);
    }
    assert_true(s.text_in_int > 0);
    assert_true(s.real_in_int > 0);
    assert_true(s.number_text_in_text > 0);
    assert_true(s.int_in_date > 0);
    assert_true(s.text_in_real > 0);
    assert_true(s.null > 0);
    assert_true(s.empty > 0);
    assert_true(s.literal > 0);
    assert_true(s.dup > 0);
    assert_true(s.off_model > 0);
}

static void test_typed(void **state) {
    T *t = *state;
    Seen s;
    memset(&s, 0, sizeof s);
    for (uint64_t seed = 1; seed <= 200; seed++) {
        SqFixture f;
        generate(t, seed, 1, &f);
        observe(&f, &s);
        sq_fixture_free(&f);
    }
    assert_int_equal(s.off_model, 0);
    assert_int_equal(s.text_in_int + s.real_in_int + s.int_in_date + s.text_in_real, 0);
    assert_true(s.null > 0);
    assert_true(s.literal > 0);
    assert_true(s.number_text_in_text > 0); /* the text of a number is TEXT */
}

/* ---- shrinking and describing ---------------------------------------------- */

static void test_shrink(void **state) {
    T *t = *state;
    /* equivalent up to 1 row per table only */
    PairRun pr = pair(t, "SELECT count(*) > 1 FROM c", "SELECT 0");
    SqFixture f;
    sq_fixture_init(&f, t->cat);
    SqResult *c = sq_fixture_table(&f, t->cat->tables[1]);
    for (int i = 0; i < 5; i++) {
        SqValue *cells = sq_result_add_row(c);
        cells[0] = sq_value_int(i + 1);
        cells[3] = sq_value_int(7);
        cells[4] = sq_result_text(c, "abc", 3); /* TEXT in a TEXT column */
    }
    SqResult r1, r2;
    sq_result_init(&r1);
    sq_result_init(&r2);
    assert_int_equal(db_differs(&pr, &f, RUN_FK, &r1, &r2, NULL), DB_DIFFERENT);
    assert_int_equal(db_shrink(&pr, &f, RUN_FK, 100), 3);
    assert_int_equal(c->n_rows, 2);
    SqBuf d = SQ_BUF_INIT;
    db_diagnose(&pr, &f, 1, &d);
    assert_non_null(strstr(sq_buf_str(&d), "needs more than 1 rows (c has 2 after shrinking)"));
    assert_null(strstr(sq_buf_str(&d), "holds")); /* every value is of its model class */
    sq_buf_reset(&d);
    c->cells[3] = sq_value_real(7.5); /* a REAL in an INT column */
    db_diagnose(&pr, &f, 3, &d);
    assert_null(strstr(sq_buf_str(&d), "needs more"));
    assert_non_null(strstr(sq_buf_str(&d), "REAL c.qty holds 7.5 (declared INT, model: INTEGER)"));
    sq_buf_free(&d);
    sq_result_free(&r1);
    sq_result_free(&r2);
    sq_fixture_free(&f);
}

/* A row whose foreign key matches no parent is named. */
static void test_orphans(void **state) {
    T *t = *state;
    PairRun pr = pair(t, "SELECT 1", "SELECT 1");
    SqFixture f;
    sq_fixture_init(&f, t->cat);
    SqValue *cells = sq_result_add_row(sq_fixture_table(&f, t->cat->tables[1]));
    cells[0] = sq_value_int(1);
    cells[1] = sq_value_int(42);
    SqBuf which = SQ_BUF_INIT;
    assert_int_equal(db_orphans(&pr, &f, &which), 1);
    assert_string_equal(sq_buf_str(&which), "1 of c -> p");
    SqResult r1, r2;
    sq_result_init(&r1);
    sq_result_init(&r2);
    assert_int_equal(db_differs(&pr, &f, RUN_FK, &r1, &r2, NULL), DB_NO_BUILD);
    assert_int_equal(db_differs(&pr, &f, RUN_NO_ORPHANS, &r1, &r2, NULL), DB_NO_BUILD);
    assert_int_equal(db_differs(&pr, &f, 0, &r1, &r2, NULL), DB_SAME);
    uint64_t *per = db_orphans_per_key(&pr, &f); /* as a real database that has one */
    assert_int_equal(per[0], 1);                 /* c.p_id -> p (p has none) */
    assert_int_equal(per[1], 0);                 /* c.p_name -> p */
    pr.orphans = per;
    assert_int_equal(db_differs(&pr, &f, RUN_NO_ORPHANS, &r1, &r2, NULL), DB_SAME);
    free(per);
    sq_result_free(&r1);
    sq_result_free(&r2);
    sq_buf_free(&which);
    sq_fixture_free(&f);
}

/* Two queries that SQLite runs over the same b-trees in the same order
** (the join written either way round) have the same scans; a query that
** reads another table, or the same ones through an index, does not. */
static void test_same_scans(void **state) {
    T *t = *state;
    SqFixture f;
    sq_fixture_init(&f, t->cat);
    PairRun pr = pair(t, "SELECT c.qty FROM c JOIN p ON p.id = c.p_id", "SELECT c.qty FROM p JOIN c ON p.id = c.p_id");
    assert_int_equal(db_same_scans(&pr, &f), 1);
    pr = pair(t, "SELECT qty FROM c", "SELECT name FROM p");
    assert_int_equal(db_same_scans(&pr, &f), 0);
    pr = pair(t, "SELECT score FROM p", "SELECT score FROM p WHERE name = 'x'"); /* the UNIQUE index */
    assert_int_equal(db_same_scans(&pr, &f), 0);
    pr = pair(t, "SELECT qty FROM c", "SELECT nothing FROM c");
    assert_int_equal(db_same_scans(&pr, &f), -1);
    sq_fixture_free(&f);
}

/* ---- the .cases reader ------------------------------------------------------- */

static void test_cases_reader(void **state) {
    (void)state;
    char path[] = "/tmp/soundness-cases-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    static const char text[] = "-- a header\n\n-- schema:\nCREATE TABLE t(a INT);\n\n"
                               "-- case: one\n-- semantics: bag\n-- expect: equivalent\n-- bound: 2\n"
                               "-- proof: search-only\nSELECT a\n  FROM t;\n-- witness: none\nSELECT a FROM t;\n\n"
                               "-- case: two\n-- expect: different\nSELECT 1;\nSELECT 2;\n";
    FILE *fp = fdopen(fd, "w");
    fputs(text, fp);
    fclose(fp);
    CaseFile f;
    const char *why;
    assert_int_equal(cases_read(path, &f, &why), 0);
    unlink(path);
    assert_string_equal(f.schema, "CREATE TABLE t(a INT);\n\n");
    assert_int_equal(f.n_cases, 2);
    assert_string_equal(f.cases[0].name, "one");
    assert_string_equal(f.cases[0].semantics, "bag");
    assert_string_equal(f.cases[0].expect, "equivalent");
    assert_int_equal(f.cases[0].bound, 2);
    assert_true(f.cases[0].search_only);
    assert_string_equal(f.cases[0].q[0], "SELECT a\n  FROM t;\n");
    assert_string_equal(f.cases[0].q[1], "SELECT a FROM t;\n");
    assert_string_equal(f.cases[1].semantics, "set");
    assert_int_equal(f.cases[1].bound, 3);
    assert_false(f.cases[1].search_only);
    assert_string_equal(f.cases[1].q[1], "SELECT 2;\n");
    cases_free(&f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_neighbours),
        cmocka_unit_test_setup_teardown(test_deterministic, setup, teardown),
        cmocka_unit_test_setup_teardown(test_constraints, setup, teardown),
        cmocka_unit_test_setup_teardown(test_storage_classes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_typed, setup, teardown),
        cmocka_unit_test_setup_teardown(test_shrink, setup, teardown),
        cmocka_unit_test_setup_teardown(test_orphans, setup, teardown),
        cmocka_unit_test_setup_teardown(test_same_scans, setup, teardown),
        cmocka_unit_test(test_cases_reader),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
