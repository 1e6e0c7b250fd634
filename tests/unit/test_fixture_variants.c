/* test_fixture_variants.c -- backend/fixture/fixture_variants.c: a small database read into a fixture, and its one-cell variants: which cells change, to what, and that every variant keeps the schema's constraints. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/fixture/fixture.h"
#include "backend/sqlite/db.h"
#include "runtime/util.h"
#include "tests/unit/unit_schema.h"

static const char *const ddl =
    "CREATE TABLE dept (id INTEGER PRIMARY KEY, code TEXT UNIQUE, name TEXT NOT NULL, city TEXT);\n"
    "CREATE TABLE pair (x INT, y INT, tag TEXT, PRIMARY KEY (x, y));\n"
    "CREATE TABLE emp (id INTEGER PRIMARY KEY, dept_id INTEGER REFERENCES dept(id), boss TEXT NOT NULL,\n"
    "  a INT, b INT, note TEXT, FOREIGN KEY (a, b) REFERENCES pair(x, y));\n"
    "CREATE TABLE checked (v INT CHECK (v > 0), w INT);\n";

static const char *const rows =
    "INSERT INTO dept VALUES (1, 'A', 'one', 'Paris'), (2, 'B', 'one', NULL);\n"
    "INSERT INTO pair VALUES (1, 1, 't');\n"
    "INSERT INTO emp VALUES (1, 1, 'x', 1, 1, 'n1'), (2, 2, 'y', 1, 1, NULL);\n"
    "INSERT INTO checked VALUES (1, 2), (3, 4);\n";

typedef struct T {
    UnitSchema u;
    Catalog *cat;      /* u.cat */
    SqDb *db;          /* ddl and rows */
    SqFixture fx;      /* read from db */
    SqDb *variants[16];
    uint32_t n_variants;
} T;

static int setup(void **state) {
    T *t = sq_calloc(1, sizeof *t);
    unit_schema_load(&t->u, ddl);
    t->cat = t->u.cat;
    char *script = sq_arena_printf(t->cat->arena, "%s%s", ddl, rows);
    t->db = sq_db_open_memory(script, NULL);
    assert_non_null(t->db);
    sq_fixture_init(&t->fx, t->cat);
    *state = t;
    return 0;
}

static int teardown(void **state) {
    T *t = *state;
    for (uint32_t i = 0; i < t->n_variants; i++) sq_db_close(t->variants[i]);
    sq_fixture_free(&t->fx);
    sq_db_close(t->db);
    unit_schema_free(&t->u);
    free(t);
    return 0;
}

/* The rows of table name on db, in r (initialised). */
static void rows_of(SqDb *db, const char *name, SqResult *r) {
    char sql[64];
    snprintf(sql, sizeof sql, "SELECT * FROM %s", name);
    assert_int_equal(sq_db_query(db, sql, NULL, r, NULL), SQ_EXEC_OK);
}

/* The one cell in which v differs from the original database, as
** "table.column=new value", or a failure when there is not exactly one. */
static const char *changed_cell(T *t, SqDb *v, SqBuf *out) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < t->cat->n_tables; i++) {
        const CatTable *ct = t->cat->tables[i];
        SqResult a, b;
        sq_result_init(&a);
        sq_result_init(&b);
        rows_of(t->db, ct->name, &a);
        rows_of(v, ct->name, &b);
        assert_int_equal(a.n_rows, b.n_rows);
        for (uint64_t r = 0; r < a.n_rows; r++)
            for (uint32_t c = 0; c < a.n_cols; c++) {
                const SqValue *x = sq_result_cell(&a, r, c), *y = sq_result_cell(&b, r, c);
                if (x->type == y->type && (x->type == SQ_VAL_NULL || sq_value_equal(x, y))) continue;
                assert_int_equal(r, 0); /* the first row's */
                sq_buf_printf(out, "%s.%s=", ct->name, ct->cols[c].name);
                sq_value_print(y, out);
                n++;
            }
        sq_result_free(&a);
        sq_result_free(&b);
    }
    assert_int_equal(n, 1);
    return sq_buf_str(out);
}

static int64_t count(SqDb *db, const char *sql) {
    SqResult r;
    sq_result_init(&r);
    assert_int_equal(sq_db_query(db, sql, NULL, &r, NULL), SQ_EXEC_OK);
    int64_t n = r.cells[0].i;
    sq_result_free(&r);
    return n;
}

/* Keys, referred columns, composite foreign keys and tables with CHECK
** stay as they are; a single foreign key takes another row's reference;
** a column with no other value becomes NULL only where it may. */
static void variants_change_only_free_cells(void **state) {
    T *t = *state;
    assert_int_equal(sq_fixture_read(&t->fx, t->db, 64), 0);
    t->n_variants = sq_fixture_cell_variants(&t->fx, t->variants, 16);
    const char *want[] = {"dept.city=NULL", "pair.tag=NULL", "emp.dept_id=2", "emp.boss='y'", "emp.note=NULL"};
    assert_int_equal(t->n_variants, SQ_ARRAY_LEN(want));
    for (uint32_t i = 0; i < t->n_variants; i++) {
        SqBuf b = SQ_BUF_INIT;
        const char *got = changed_cell(t, t->variants[i], &b);
        if (strcmp(got, want[i]) != 0) fail_msg("variant %u: got %s, want %s", i, got, want[i]);
        sq_buf_free(&b);
        assert_int_equal(count(t->variants[i], "SELECT count(*) FROM emp WHERE dept_id IS NOT NULL AND "
                                               "dept_id NOT IN (SELECT id FROM dept)"), 0);
        assert_int_equal(count(t->variants[i], "SELECT count(*) FROM emp WHERE NOT EXISTS (SELECT 1 FROM pair "
                                               "WHERE x = emp.a AND y = emp.b)"), 0);
    }
    /* the fixture is left as it was read */
    SqBuf before = SQ_BUF_INIT, after = SQ_BUF_INIT;
    sq_fixture_sql(&t->fx, &before);
    SqDb *extra[16];
    uint32_t n = sq_fixture_cell_variants(&t->fx, extra, 2);
    assert_int_equal(n, 2); /* max is kept */
    for (uint32_t i = 0; i < n; i++) sq_db_close(extra[i]);
    sq_fixture_sql(&t->fx, &after);
    assert_string_equal(sq_buf_str(&before), sq_buf_str(&after));
    sq_buf_free(&before);
    sq_buf_free(&after);
}

/* A database with more rows than asked for is not read. */
static void read_refuses_a_larger_database(void **state) {
    T *t = *state;
    assert_int_equal(sq_fixture_read(&t->fx, t->db, 6), -1); /* it holds 7 */
    sq_fixture_free(&t->fx);
    sq_fixture_init(&t->fx, t->cat);
    assert_int_equal(sq_fixture_read(&t->fx, t->db, 7), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(variants_change_only_free_cells, setup, teardown),
        cmocka_unit_test_setup_teardown(read_refuses_a_larger_database, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
