/* test_fixture_variants.c -- backend/fixture/fixture_variants.c: a small database read into a fixture, and its one-cell variants: which cells change, to what, and that every variant keeps the schema's constraints; the variants in one table's rows (without the rows no foreign key needs, each row twice with fresh keys). */
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

/* ---- the rows of one table changed ------------------------------------- */

static const char *const ddl2 =
    "CREATE TABLE team (id INTEGER PRIMARY KEY, code TEXT UNIQUE NOT NULL, name TEXT);\n"
    "CREATE TABLE player (pid INTEGER PRIMARY KEY, team_id INTEGER REFERENCES team(id), name TEXT);\n"
    "CREATE TABLE link (a INT REFERENCES team(id), b INT, PRIMARY KEY (a, b));\n"
    "CREATE TABLE loose (ref TEXT REFERENCES team(id));\n"
    "CREATE TABLE checked (v INT CHECK (v > 0));\n";

static const char *const rows2 =
    "INSERT INTO team VALUES (1, 'A', 'x'), (2, 'B', 'y'), (3, 'C', 'z');\n"
    "INSERT INTO player VALUES (10, 1, 'p'), (11, NULL, 'q');\n"
    "INSERT INTO link VALUES (1, 5);\n"
    "INSERT INTO checked VALUES (1);\n";

typedef struct R {
    UnitSchema u;
    SqFixture fx; /* rows2 */
    SqFixture v;  /* the variant under test */
} R;

static int setup_rows(void **state) {
    R *r = sq_calloc(1, sizeof *r);
    unit_schema_load(&r->u, ddl2);
    char *script = sq_arena_printf(r->u.cat->arena, "%s%s", ddl2, rows2);
    SqDb *db = sq_db_open_memory(script, NULL);
    assert_non_null(db);
    sq_fixture_init(&r->fx, r->u.cat);
    assert_int_equal(sq_fixture_read(&r->fx, db, 64), 0);
    sq_db_close(db);
    *state = r;
    return 0;
}

static int teardown_rows(void **state) {
    R *r = *state;
    sq_fixture_free(&r->v);
    sq_fixture_free(&r->fx);
    unit_schema_free(&r->u);
    free(r);
    return 0;
}

static const CatTable *table(R *r, const char *name) {
    for (uint32_t i = 0; i < r->u.cat->n_tables; i++)
        if (strcmp(r->u.cat->tables[i]->name, name) == 0) return r->u.cat->tables[i];
    fail_msg("no table %s", name);
    return NULL;
}

/* The variant's rows of one table, as SQLite reads them back from its
** script (so its constraints were applied), one "a|b|c" line each. */
static const char *variant_rows(R *r, const char *name, SqBuf *out) {
    SqDb *db = sq_fixture_open(&r->v, NULL);
    assert_non_null(db);
    char sql[80];
    snprintf(sql, sizeof sql, "SELECT * FROM %s ORDER BY rowid", name);
    SqResult res;
    sq_result_init(&res);
    assert_int_equal(sq_db_query(db, sql, NULL, &res, NULL), SQ_EXEC_OK);
    for (uint64_t i = 0; i < res.n_rows; i++) {
        for (uint32_t c = 0; c < res.n_cols; c++) {
            if (c) sq_buf_putc(out, '|');
            sq_value_print(sq_result_cell(&res, i, c), out);
        }
        sq_buf_putc(out, ';');
    }
    /* every reference of the variant finds its row */
    SqResult fk;
    sq_result_init(&fk);
    assert_int_equal(sq_db_query(db,
                                 "SELECT (SELECT count(*) FROM player WHERE team_id NOT IN (SELECT id FROM team)"
                                 "                                   AND team_id IS NOT NULL)"
                                 " + (SELECT count(*) FROM link WHERE a NOT IN (SELECT id FROM team))"
                                 " + (SELECT count(*) FROM loose WHERE ref NOT IN (SELECT id FROM team))",
                                 NULL, &fk, NULL), SQ_EXEC_OK);
    assert_int_equal(fk.cells[0].i, 0);
    sq_result_free(&fk);
    sq_result_free(&res);
    sq_db_close(db);
    return sq_buf_str(out);
}

/* Without the rows no foreign key needs: the team a player and a link refer to stays, the
** others go; a table nothing refers to is emptied; one whose every row is needed, or that
** is referred to by a value of another storage class ('1' for 1), is not changed. */
static void rows_no_reference_needs_are_removed(void **state) {
    R *r = *state;
    SqBuf b = SQ_BUF_INIT;
    assert_int_equal(sq_fixture_without_rows(&r->fx, table(r, "team"), &r->v), 0);
    assert_string_equal(variant_rows(r, "team", &b), "1|'A'|'x';");
    sq_fixture_free(&r->v);
    sq_buf_reset(&b);
    assert_int_equal(sq_fixture_without_rows(&r->fx, table(r, "player"), &r->v), 0);
    assert_string_equal(variant_rows(r, "player", &b), "");
    sq_fixture_free(&r->v);
    assert_int_equal(sq_fixture_without_rows(&r->fx, table(r, "loose"), &r->v), -1); /* no rows */
    sq_fixture_free(&r->v);
    SqResult *loose = sq_fixture_table(&r->fx, table(r, "loose"));
    SqValue *row = sq_result_add_row(loose);
    row[0] = sq_result_text(loose, "1", 1);
    assert_int_equal(sq_fixture_without_rows(&r->fx, table(r, "team"), &r->v), -1);
    sq_fixture_free(&r->v);
    loose->n_rows = 0;
    row = sq_result_add_row(loose);
    row[0] = sq_value_int(3);
    sq_fixture_table(&r->fx, table(r, "player"))->n_rows = 0;
    assert_int_equal(sq_fixture_without_rows(&r->fx, table(r, "team"), &r->v), 0);
    sq_buf_reset(&b);
    assert_string_equal(variant_rows(r, "team", &b), "1|'A'|'x';3|'C'|'z';");
    sq_buf_free(&b);
}

/* Each row twice: the copies get keys no row holds (the next integers, the text with ~k),
** keep every other value, and SQLite takes them under the table's UNIQUE and PRIMARY KEY;
** a table whose key is in a foreign key, or with a CHECK, is not doubled; the fixture is
** left as it was. */
static void doubled_rows_get_fresh_keys(void **state) {
    R *r = *state;
    SqBuf before = SQ_BUF_INIT, after = SQ_BUF_INIT, b = SQ_BUF_INIT;
    sq_fixture_sql(&r->fx, &before);
    assert_int_equal(sq_fixture_doubled(&r->fx, table(r, "team"), &r->v), 0);
    assert_string_equal(variant_rows(r, "team", &b),
                        "1|'A'|'x';2|'B'|'y';3|'C'|'z';4|'A~0'|'x';5|'B~1'|'y';6|'C~2'|'z';");
    sq_fixture_free(&r->v);
    sq_buf_reset(&b);
    assert_int_equal(sq_fixture_doubled(&r->fx, table(r, "player"), &r->v), 0);
    assert_string_equal(variant_rows(r, "player", &b), "10|1|'p';11|NULL|'q';12|1|'p';13|NULL|'q';");
    sq_fixture_free(&r->v);
    assert_int_equal(sq_fixture_doubled(&r->fx, table(r, "link"), &r->v), -1);
    sq_fixture_free(&r->v);
    assert_int_equal(sq_fixture_doubled(&r->fx, table(r, "checked"), &r->v), -1);
    sq_fixture_sql(&r->fx, &after);
    assert_string_equal(sq_buf_str(&before), sq_buf_str(&after));
    sq_buf_free(&before);
    sq_buf_free(&after);
    sq_buf_free(&b);
}

/* Without any row of a table, and without the rows that referred to one of them, and so on:
** no team, so no player of a team (the one of none stays), no link; the loose reference of
** another storage class goes too, and SQLite finds every reference whole; a table with no
** row gives no variant. */
static void cascade_removes_what_refers_to_the_rows(void **state) {
    R *r = *state;
    SqBuf b = SQ_BUF_INIT;
    SqResult *loose = sq_fixture_table(&r->fx, table(r, "loose"));
    SqValue *row = sq_result_add_row(loose);
    row[0] = sq_result_text(loose, "1", 1);
    assert_int_equal(sq_fixture_without_rows_cascade(&r->fx, table(r, "team"), &r->v), 0);
    assert_string_equal(variant_rows(r, "team", &b), "");
    sq_buf_reset(&b);
    assert_string_equal(variant_rows(r, "player", &b), "11|NULL|'q';");
    sq_buf_reset(&b);
    assert_string_equal(variant_rows(r, "link", &b), "");
    sq_buf_reset(&b);
    assert_string_equal(variant_rows(r, "loose", &b), "");
    sq_buf_reset(&b);
    assert_string_equal(variant_rows(r, "checked", &b), "1;");
    sq_fixture_free(&r->v);
    /* the parents stay when a child's rows go */
    assert_int_equal(sq_fixture_without_rows_cascade(&r->fx, table(r, "player"), &r->v), 0);
    sq_buf_reset(&b);
    assert_string_equal(variant_rows(r, "team", &b), "1|'A'|'x';2|'B'|'y';3|'C'|'z';");
    sq_fixture_free(&r->v);
    loose->n_rows = 0;
    assert_int_equal(sq_fixture_without_rows_cascade(&r->fx, table(r, "loose"), &r->v), -1);
    sq_buf_free(&b);
}

/* A column NULL in every row: a reference, or a plain column; not a NOT NULL, key, or
** referred-to column, nor one of a table with a CHECK, nor one already NULL everywhere. */
static void nulled_column_where_it_may_be_null(void **state) {
    R *r = *state;
    SqBuf b = SQ_BUF_INIT;
    assert_int_equal(sq_fixture_nulled(&r->fx, table(r, "player"), 1, &r->v), 0);
    assert_string_equal(variant_rows(r, "player", &b), "10|NULL|'p';11|NULL|'q';");
    sq_fixture_free(&r->v);
    assert_int_equal(sq_fixture_nulled(&r->fx, table(r, "team"), 2, &r->v), 0);
    sq_buf_reset(&b);
    assert_string_equal(variant_rows(r, "team", &b), "1|'A'|NULL;2|'B'|NULL;3|'C'|NULL;");
    sq_fixture_free(&r->v);
    assert_int_equal(sq_fixture_nulled(&r->fx, table(r, "team"), 1, &r->v), -1); /* NOT NULL, UNIQUE */
    sq_fixture_free(&r->v);
    assert_int_equal(sq_fixture_nulled(&r->fx, table(r, "team"), 0, &r->v), -1); /* referred to */
    sq_fixture_free(&r->v);
    assert_int_equal(sq_fixture_nulled(&r->fx, table(r, "link"), 0, &r->v), -1); /* in the key */
    sq_fixture_free(&r->v);
    assert_int_equal(sq_fixture_nulled(&r->fx, table(r, "checked"), 0, &r->v), -1); /* a CHECK */
    sq_fixture_free(&r->v);
    sq_fixture_table(&r->fx, table(r, "player"))->n_rows = 1; /* 10|1|'p' */
    assert_int_equal(sq_fixture_nulled(&r->fx, table(r, "player"), 1, &r->v), 0);
    sq_fixture_free(&r->v);
    sq_fixture_table(&r->fx, table(r, "player"))->cells[1] = sq_value_null();
    assert_int_equal(sq_fixture_nulled(&r->fx, table(r, "player"), 1, &r->v), -1); /* NULL already */
    sq_buf_free(&b);
}

/* A sample of a database: the first rows of each table, less those whose reference then finds
** no row (a player of team 3 when only team 1 is read), and so on. */
static void a_sample_keeps_every_reference(void **state) {
    R *r = *state;
    char *script = sq_arena_printf(r->u.cat->arena, "%s%s", ddl2,
                                   "INSERT INTO team VALUES (1, 'A', 'x'), (2, 'B', 'y'), (3, 'C', 'z');\n"
                                   "INSERT INTO player VALUES (10, 3, 'p'), (11, 1, 'q');\n"
                                   "INSERT INTO link VALUES (3, 5), (1, 6);\n");
    SqDb *db = sq_db_open_memory(script, NULL);
    assert_non_null(db);
    sq_fixture_init(&r->v, r->u.cat);
    assert_int_equal(sq_fixture_read_sample(&r->v, db, 1), 0);
    sq_db_close(db);
    SqBuf b = SQ_BUF_INIT;
    assert_string_equal(variant_rows(r, "team", &b), "1|'A'|'x';");
    sq_buf_reset(&b);
    assert_string_equal(variant_rows(r, "player", &b), "");
    sq_buf_reset(&b);
    assert_string_equal(variant_rows(r, "link", &b), "");
    sq_fixture_free(&r->v);
    /* two rows a table: player 11 and link (1, 6) find team 1 */
    db = sq_db_open_memory(script, NULL);
    sq_fixture_init(&r->v, r->u.cat);
    assert_int_equal(sq_fixture_read_sample(&r->v, db, 2), 0);
    sq_db_close(db);
    sq_buf_reset(&b);
    assert_string_equal(variant_rows(r, "player", &b), "11|1|'q';");
    sq_buf_reset(&b);
    assert_string_equal(variant_rows(r, "link", &b), "1|6;");
    sq_buf_free(&b);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(variants_change_only_free_cells, setup, teardown),
        cmocka_unit_test_setup_teardown(read_refuses_a_larger_database, setup, teardown),
        cmocka_unit_test_setup_teardown(rows_no_reference_needs_are_removed, setup_rows, teardown_rows),
        cmocka_unit_test_setup_teardown(doubled_rows_get_fresh_keys, setup_rows, teardown_rows),
        cmocka_unit_test_setup_teardown(cascade_removes_what_refers_to_the_rows, setup_rows, teardown_rows),
        cmocka_unit_test_setup_teardown(nulled_column_where_it_may_be_null, setup_rows, teardown_rows),
        cmocka_unit_test_setup_teardown(a_sample_keeps_every_reference, setup_rows, teardown_rows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
