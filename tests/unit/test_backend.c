/* test_backend.c -- backend/sqlite: read-only databases, limits, result sets and their comparison. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Only to build the fixture file; the code under test wraps SQLite. */
#include <sqlite3.h>

#include "backend/sqlite/db.h"
#include "backend/sqlite/prepq.h"
#include "backend/sqlite/result.h"
#include "runtime/strbuf.h"
#include "runtime/util.h"

/* ------------------------------------------------------------------ */
/* Fixture: a database file in a fresh temporary directory             */
/* ------------------------------------------------------------------ */

static const char fixture_sql[] =
    "CREATE TABLE t(id INTEGER PRIMARY KEY, i, r, s, b, n);"
    "INSERT INTO t VALUES (1, 1, 1.0, '1', x'01', NULL);"
    "CREATE TABLE nums(x INTEGER);"
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 200)"
    "  INSERT INTO nums SELECT x FROM c;"
    "CREATE INDEX nums_x ON nums(x);"
    "CREATE VIEW odd AS SELECT x FROM nums WHERE x % 2 = 1;";

typedef struct Fixture {
    char dir[64];   /* mkdtemp directory */
    char path[128]; /* dir/bench.sqlite */
    char *bytes;    /* the file's content after creation */
    size_t n_bytes;
    SqDb *db;       /* opened with sq_db_open */
    SqResult res;   /* scratch result, freed by the teardown */
    char *err;      /* scratch message, freed by the teardown */
} Fixture;

static void create_file(const char *path) {
    sqlite3 *h = NULL;
    assert_int_equal(sqlite3_open(path, &h), SQLITE_OK);
    char *msg = NULL;
    if (sqlite3_exec(h, fixture_sql, NULL, NULL, &msg) != SQLITE_OK) fail_msg("fixture: %s", msg);
    sqlite3_close(h);
}

static int fixture_setup(void **state) {
    Fixture *f = calloc(1, sizeof *f);
    strcpy(f->dir, "/tmp/sq_test_backend_XXXXXX");
    if (!mkdtemp(f->dir)) return -1;
    snprintf(f->path, sizeof f->path, "%s/bench.sqlite", f->dir);
    create_file(f->path);
    int e = 0;
    f->bytes = sq_read_file(f->path, &f->n_bytes, &e);
    f->db = sq_db_open(f->path, &f->err);
    if (!f->bytes || !f->db) return -1;
    sq_result_init(&f->res);
    *state = f;
    return 0;
}

static void remove_dir(const char *dir) {
    static const char *const names[] = {"bench.sqlite", "bench.sqlite-journal", "bench.sqlite-wal",
                                        "bench.sqlite-shm", "copy.sqlite", "other.sqlite"};
    char p[192];
    for (size_t k = 0; k < SQ_ARRAY_LEN(names); k++) {
        snprintf(p, sizeof p, "%s/%s", dir, names[k]);
        unlink(p);
    }
    rmdir(dir);
}

static int fixture_teardown(void **state) {
    Fixture *f = *state;
    sq_db_close(f->db);
    sq_result_free(&f->res);
    free(f->err);
    free(f->bytes);
    remove_dir(f->dir);
    free(f);
    return 0;
}

#define DB_TEST(fn) cmocka_unit_test_setup_teardown(fn, fixture_setup, fixture_teardown)

static int file_unchanged(const Fixture *f) {
    size_t n = 0;
    int e = 0;
    char *now = sq_read_file(f->path, &n, &e);
    int same = now && n == f->n_bytes && memcmp(now, f->bytes, n) == 0;
    free(now);
    return same;
}

static SqExecStatus run(Fixture *f, const char *sql, const SqExecLimits *lim) {
    free(f->err);
    f->err = NULL;
    return sq_db_query(f->db, sql, lim, &f->res, &f->err);
}

static void run_ok(Fixture *f, const char *sql) {
    SqExecStatus st = run(f, sql, NULL);
    if (st != SQ_EXEC_OK) fail_msg("%s: %s: %s", sql, sq_exec_status_name(st), f->err);
}

static double now_sec(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static const SqValue *cell(const SqResult *r, uint64_t row, uint32_t col) {
    assert_true(row < r->n_rows && col < r->n_cols);
    return sq_result_cell(r, row, col);
}

/* ------------------------------------------------------------------ */
/* Executing                                                           */
/* ------------------------------------------------------------------ */

static void check_storage_classes(const SqResult *r) {
    assert_int_equal(r->n_rows, 1);
    assert_int_equal(r->n_cols, 5);
    assert_int_equal(cell(r, 0, 0)->type, SQ_VAL_INTEGER);
    assert_int_equal(cell(r, 0, 0)->i, 1);
    assert_int_equal(cell(r, 0, 1)->type, SQ_VAL_REAL);
    assert_true(cell(r, 0, 1)->r == 1.0);
    assert_int_equal(cell(r, 0, 2)->type, SQ_VAL_TEXT);
    assert_int_equal(cell(r, 0, 2)->n, 1);
    assert_memory_equal(cell(r, 0, 2)->s, "1", 2);
    assert_int_equal(cell(r, 0, 3)->type, SQ_VAL_BLOB);
    assert_int_equal(cell(r, 0, 3)->n, 1);
    assert_int_equal(cell(r, 0, 3)->s[0], 1);
    assert_int_equal(cell(r, 0, 4)->type, SQ_VAL_NULL);
}

static void select_keeps_storage_classes(void **state) {
    Fixture *f = *state;
    run_ok(f, "SELECT 1, 1.0, '1', x'01', NULL");
    check_storage_classes(&f->res);
    run_ok(f, "SELECT i, r, s, b, n FROM t");
    check_storage_classes(&f->res);
    assert_string_equal(f->res.col_names[0], "i");
    assert_string_equal(f->res.col_names[4], "n");
    assert_null(f->err);
}

static void select_reads_tables_views_and_read_pragmas(void **state) {
    Fixture *f = *state;
    run_ok(f, "SELECT count(*), sum(x) FROM odd");
    assert_int_equal(cell(&f->res, 0, 0)->i, 100);
    assert_int_equal(cell(&f->res, 0, 1)->i, 10000);
    run_ok(f, "WITH RECURSIVE c(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM c WHERE k < 5)"
              " SELECT group_concat(k) FROM c");
    assert_memory_equal(cell(&f->res, 0, 0)->s, "1,2,3,4,5", 10);
    run_ok(f, "PRAGMA table_info(t)");
    assert_int_equal(f->res.n_rows, 6);
    run_ok(f, "PRAGMA index_list('nums')");
    assert_int_equal(f->res.n_rows, 1);
    run_ok(f, "SELECT name FROM sqlite_master WHERE type = 'view'");
    assert_int_equal(f->res.n_rows, 1);
    /* Table-valued functions are eponymous virtual tables. */
    run_ok(f, "SELECT name FROM pragma_table_info('t') WHERE pk");
    assert_memory_equal(cell(&f->res, 0, 0)->s, "id", 3);
    run_ok(f, "SELECT sum(value) FROM json_each('[1, 2, 3]')");
    assert_int_equal(cell(&f->res, 0, 0)->i, 6);
    assert_true(file_unchanged(f));
}

static void text_keeps_embedded_nul_bytes(void **state) {
    Fixture *f = *state;
    run_ok(f, "SELECT CAST(x'610062' AS TEXT), '', x''");
    const SqValue *v = cell(&f->res, 0, 0);
    assert_int_equal(v->type, SQ_VAL_TEXT);
    assert_int_equal(v->n, 3);
    assert_memory_equal(v->s, "a\0b", 4);
    assert_int_equal(cell(&f->res, 0, 1)->type, SQ_VAL_TEXT);
    assert_int_equal(cell(&f->res, 0, 1)->n, 0);
    assert_int_equal(cell(&f->res, 0, 2)->type, SQ_VAL_BLOB);
    assert_non_null(cell(&f->res, 0, 2)->s);
}

static void writes_are_denied_and_the_file_is_unchanged(void **state) {
    Fixture *f = *state;
    char vacuum_into[200], attach[200];
    snprintf(vacuum_into, sizeof vacuum_into, "VACUUM INTO '%s/copy.sqlite'", f->dir);
    snprintf(attach, sizeof attach, "ATTACH '%s/other.sqlite' AS o", f->dir);
    const char *const writes[] = {
        "DROP TABLE t", "INSERT INTO t(i) VALUES (2)", "UPDATE t SET i = 2", "DELETE FROM t",
        "CREATE TABLE u(x)", "CREATE INDEX ti ON t(i)", "CREATE VIEW w AS SELECT 1",
        "CREATE TEMP TABLE tt(x)", "ALTER TABLE t ADD COLUMN z", "DROP VIEW odd",
        attach, "PRAGMA writable_schema = 1", "PRAGMA user_version = 7",
        "PRAGMA journal_mode = WAL", vacuum_into, "VACUUM", "REINDEX", "ANALYZE",
        "BEGIN", "SAVEPOINT s", "SELECT 1; DELETE FROM t", "REPLACE INTO t(id) VALUES (1)",
        "UPDATE sqlite_master SET sql = 'x'", "CREATE VIRTUAL TABLE v USING fts5(a)",
        "SELECT * FROM pragma_user_version",
    };
    for (size_t k = 0; k < SQ_ARRAY_LEN(writes); k++) {
        SqExecStatus st = run(f, writes[k], NULL);
        if (st != SQ_EXEC_DENIED)
            fail_msg("%s: %s (%s)", writes[k], sq_exec_status_name(st), f->err ? f->err : "");
        assert_non_null(f->err);
        assert_int_equal(f->res.n_rows, 0);
    }
    assert_true(file_unchanged(f));
    char copy[200];
    snprintf(copy, sizeof copy, "%s/copy.sqlite", f->dir);
    assert_int_equal(access(copy, F_OK), -1);
    run_ok(f, "SELECT count(*) FROM t");
    assert_int_equal(cell(&f->res, 0, 0)->i, 1);
}

static void denial_message_names_the_action(void **state) {
    Fixture *f = *state;
    assert_int_equal(run(f, "UPDATE t SET i = 2", NULL), SQ_EXEC_DENIED);
    assert_string_equal(f->err, "not authorized: update \"t\" (the database is read-only)");
    assert_int_equal(run(f, "DROP TABLE t", NULL), SQ_EXEC_DENIED);
    assert_string_equal(f->err, "not authorized: schema change (the database is read-only)");
    assert_int_equal(run(f, "VACUUM", NULL), SQ_EXEC_DENIED);
    assert_string_equal(f->err, "not authorized: statement writes (the database is read-only)");
    assert_int_equal(run(f, "PRAGMA writable_schema = 1", NULL), SQ_EXEC_DENIED);
    assert_string_equal(f->err,
                        "not authorized: pragma \"writable_schema\" (the database is read-only)");
}

static void immutable_open_reads(void **state) {
    Fixture *f = *state;
    char *err = NULL;
    SqDb *db = sq_db_open_ex(f->path, SQ_DB_IMMUTABLE, &err);
    assert_non_null(db);
    assert_null(err);
    assert_int_equal(sq_db_query(db, "SELECT count(*) FROM nums", NULL, &f->res, &err), SQ_EXEC_OK);
    assert_int_equal(cell(&f->res, 0, 0)->i, 200);
    assert_int_equal(sq_db_query(db, "DELETE FROM nums", NULL, &f->res, &err), SQ_EXEC_DENIED);
    free(err);
    sq_db_close(db);
    assert_true(file_unchanged(f));
}

static void open_fails_on_missing_file_and_non_database(void **state) {
    Fixture *f = *state;
    char path[200], *err = NULL;
    snprintf(path, sizeof path, "%s/missing.sqlite", f->dir);
    assert_null(sq_db_open(path, &err));
    assert_non_null(strstr(err, "cannot open"));
    free(err);
    snprintf(path, sizeof path, "%s/other.sqlite", f->dir);
    FILE *fp = fopen(path, "w");
    fputs("this is not a database, just some text long enough to have a header......", fp);
    fclose(fp);
    assert_null(sq_db_open(path, &err));
    assert_non_null(strstr(err, "not a database"));
    free(err);
    assert_null(sq_db_open(path, NULL)); /* no message wanted */
}

static void sql_errors_are_reported(void **state) {
    Fixture *f = *state;
    assert_int_equal(run(f, "SELEC 1", NULL), SQ_EXEC_ERROR);
    assert_non_null(strstr(f->err, "syntax error"));
    assert_int_equal(run(f, "SELECT nope FROM t", NULL), SQ_EXEC_ERROR);
    assert_string_equal(f->err, "no such column: nope");
    assert_int_equal(f->res.n_cols, 0);
}

static void last_statement_with_rows_is_kept(void **state) {
    Fixture *f = *state;
    run_ok(f, "SELECT 1; SELECT 2, 3 WHERE 0; -- done");
    assert_int_equal(f->res.n_cols, 2);
    assert_int_equal(f->res.n_rows, 0);
    run_ok(f, "  -- nothing\n");
    assert_int_equal(f->res.n_cols, 0);
    assert_int_equal(f->res.n_rows, 0);
}

static void timeout_stops_runaway_recursion(void **state) {
    Fixture *f = *state;
    SqExecLimits lim = {.timeout_sec = 0.3};
    double t0 = now_sec();
    SqExecStatus st = run(f, "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c)"
                             " SELECT count(*) FROM c", &lim);
    double dt = now_sec() - t0;
    assert_int_equal(st, SQ_EXEC_TIMEOUT);
    assert_true(dt >= 0.3 && dt < 1.5);
    assert_string_equal(f->err, "query timed out after 0.3 s");
    assert_int_equal(f->res.n_rows, 0);
    run_ok(f, "SELECT count(*) FROM nums, nums"); /* the handler is gone */
    assert_int_equal(cell(&f->res, 0, 0)->i, 40000);
}

static void max_rows_stops_a_cartesian_product(void **state) {
    Fixture *f = *state;
    SqExecLimits lim = {.timeout_sec = 10, .max_rows = 1000};
    double t0 = now_sec();
    assert_int_equal(run(f, "SELECT * FROM nums a, nums b, nums c", &lim), SQ_EXEC_TOO_BIG);
    assert_true(now_sec() - t0 < 1.0);
    assert_string_equal(f->err, "result has more than 1000 rows");
    assert_int_equal(f->res.n_rows, 0);
    assert_null(f->res.cells);
    lim.max_rows = 200;
    run_ok(f, "SELECT 1"); /* the limit is per call */
    assert_int_equal(run(f, "SELECT x FROM nums", &lim), SQ_EXEC_OK);
    assert_int_equal(f->res.n_rows, 200);
}

static void max_bytes_bounds_text_and_blobs(void **state) {
    Fixture *f = *state;
    SqExecLimits lim = {.max_bytes = 5000};
    assert_int_equal(run(f, "SELECT printf('%.*c', 100, 'x') FROM nums", &lim), SQ_EXEC_TOO_BIG);
    assert_string_equal(f->err, "result has more than 5000 bytes of text and blobs");
    assert_int_equal(run(f, "SELECT printf('%.*c', 25, 'x') FROM nums", &lim), SQ_EXEC_OK);
    assert_int_equal(f->res.n_bytes, 5000);
    lim = (SqExecLimits){.max_value_bytes = 1000000};
    assert_int_equal(run(f, "SELECT length(zeroblob(2000000))", &lim), SQ_EXEC_TOO_BIG);
    run_ok(f, "SELECT length(zeroblob(2000000))"); /* the length limit is restored */
    assert_int_equal(cell(&f->res, 0, 0)->i, 2000000);
}

static void memory_database_from_ddl(void **state) {
    (void)state;
    char *err = NULL;
    SqDb *db = sq_db_open_memory("CREATE TABLE emp(id INTEGER PRIMARY KEY, name TEXT, pay REAL);"
                                 "INSERT INTO emp VALUES (1, 'ann', 10), (2, 'bob', 12.5);",
                                 &err);
    assert_non_null(db);
    assert_null(err);
    SqResult r;
    sq_result_init(&r);
    assert_int_equal(sq_db_query(db, "SELECT name, pay FROM emp ORDER BY id", NULL, &r, &err),
                     SQ_EXEC_OK);
    assert_int_equal(r.n_rows, 2);
    assert_int_equal(cell(&r, 0, 1)->type, SQ_VAL_REAL); /* REAL affinity */
    assert_true(cell(&r, 0, 1)->r == 10.0);
    assert_int_equal(sq_db_query(db, "INSERT INTO emp VALUES (3, 'cy', 1)", NULL, &r, &err),
                     SQ_EXEC_DENIED);
    assert_int_equal(r.n_rows, 0);
    free(err);
    sq_result_free(&r);
    sq_db_close(db);
    assert_null(sq_db_open_memory("CREATE TABLE x(", &err));
    assert_non_null(strstr(err, "in-memory database script"));
    free(err);
    db = sq_db_open_memory(NULL, NULL);
    assert_non_null(db);
    sq_db_close(db);
}

/* SQLite's view of statements, asked on the queue's thread: outcomes in
** the order queued, writes prepared (never run), refusals with SQLite's
** message; a schema that does not load is told once. */
static void prep_queue_gives_outcomes_in_order(void **state) {
    (void)state;
    SqPrepQueue *q = sq_prepq_start("CREATE TABLE emp(id INTEGER PRIMARY KEY, name TEXT);");
    sq_prepq_add(q, "SELECT id, name AS who FROM emp WHERE id = :id");
    sq_prepq_add(q, "SELECT nope FROM emp");
    sq_prepq_add(q, "INSERT INTO emp(name) VALUES (?1) RETURNING id");
    for (int i = 0; i < 200; i++) sq_prepq_add(q, i % 2 ? "SELECT 1, 2" : "SELECT ?");
    char *err = NULL;
    assert_int_equal(sq_prepq_finish(q, &err), 203);
    assert_null(err);
    const SqPrepOutcome *o = sq_prepq_outcome(q, 0);
    assert_true(o->ok);
    assert_int_equal(o->cols.n_cols, 2);
    assert_string_equal(o->cols.col_names[1], "who");
    assert_int_equal(o->params.n, 1);
    assert_string_equal(o->params.names[0], ":id");
    o = sq_prepq_outcome(q, 1);
    assert_false(o->ok);
    assert_non_null(strstr(o->err, "no such column: nope"));
    o = sq_prepq_outcome(q, 2);
    assert_true(o->ok);
    assert_int_equal(o->cols.n_cols, 1);
    for (int i = 0; i < 200; i++) {
        o = sq_prepq_outcome(q, 3 + (size_t)i);
        assert_true(o->ok);
        assert_int_equal(o->cols.n_cols, i % 2 ? 2 : 1);
        assert_int_equal(o->params.n, i % 2 ? 0 : 1);
    }
    sq_prepq_free(q);
    q = sq_prepq_start("CREATE TABLE x(");
    sq_prepq_add(q, "SELECT 1");
    assert_int_equal(sq_prepq_finish(q, &err), (size_t)-1);
    assert_non_null(err);
    free(err);
    sq_prepq_free(q);
    sq_prepq_free(NULL);
}

/* sq_db_columns prepares a write without the authorizer, which guards
** what runs: the same database still refuses to run one afterwards. */
static void columns_of_a_write_leave_the_guard_on(void **state) {
    (void)state;
    char *err = NULL;
    SqDb *db = sq_db_open_memory("CREATE TABLE t(a INTEGER);", &err);
    assert_non_null(db);
    SqResult r;
    sq_result_init(&r);
    assert_int_equal(sq_db_columns(db, "DELETE FROM t RETURNING a", &r, NULL, &err), 0);
    assert_int_equal(r.n_cols, 1);
    assert_int_equal(sq_db_query(db, "INSERT INTO t VALUES (1)", NULL, &r, &err), SQ_EXEC_DENIED);
    free(err);
    sq_result_free(&r);
    sq_db_close(db);
}

/* ------------------------------------------------------------------ */
/* Values                                                              */
/* ------------------------------------------------------------------ */

static SqValue text_value(const char *s) {
    SqValue v = {SQ_VAL_TEXT, 0, 0.0, s, (uint32_t)strlen(s)};
    return v;
}

static void value_equality_follows_python(void **state) {
    (void)state;
    SqValue one = sq_value_int(1), one_r = sq_value_real(1.0), one_s = text_value("1");
    SqValue null = sq_value_null(), nan = sq_value_real(NAN);
    SqValue blob = {SQ_VAL_BLOB, 0, 0.0, "1", 1};
    assert_true(sq_value_equal(&one, &one_r));
    assert_false(sq_value_equal(&one, &one_s));
    assert_false(sq_value_equal(&one_s, &blob));
    assert_true(sq_value_equal(&null, &null));
    assert_false(sq_value_equal(&null, &one));
    assert_false(sq_value_equal(&nan, &nan));
    SqValue big = sq_value_int(9007199254740993), big_r = sq_value_real(9007199254740992.0);
    assert_false(sq_value_equal(&big, &big_r)); /* 2^53 + 1 is not the double 2^53 */
    assert_true(sq_value_cmp(&big, &big_r) > 0);
    SqValue max = sq_value_int(INT64_MAX), two63 = sq_value_real(9223372036854775808.0);
    assert_false(sq_value_equal(&max, &two63));
    assert_true(sq_value_cmp(&max, &two63) < 0);
    SqValue zero = sq_value_int(0), neg_zero = sq_value_real(-0.0);
    assert_true(sq_value_equal(&zero, &neg_zero));
    SqValue half = sq_value_real(1.5), two = sq_value_int(2);
    assert_true(sq_value_cmp(&one, &half) < 0 && sq_value_cmp(&half, &two) < 0);
    assert_true(sq_value_cmp(&null, &one) < 0 && sq_value_cmp(&two, &one_s) < 0);
    assert_true(sq_value_cmp(&one_s, &blob) < 0);
}

static void value_print_forms(void **state) {
    (void)state;
    const SqValue vals[] = {
        sq_value_null(), sq_value_int(-42), sq_value_real(1.0), sq_value_real(0.1),
        sq_value_real(1e16), sq_value_real(1.5e-5), text_value("it's"),
        {SQ_VAL_BLOB, 0, 0.0, "\x01\xff", 2}, {SQ_VAL_TEXT, 0, 0.0, "a\nb", 3},
    };
    SqBuf b = SQ_BUF_INIT;
    for (size_t k = 0; k < SQ_ARRAY_LEN(vals); k++) {
        if (k) sq_buf_puts(&b, " ");
        sq_value_print(&vals[k], &b);
    }
    assert_string_equal(sq_buf_str(&b), "NULL -42 1.0 0.1 1e+16 1.5e-05 'it''s' X'01FF' "
                                         "CAST(X'610A62' AS TEXT)");
    sq_buf_free(&b);
}

/* ------------------------------------------------------------------ */
/* Comparing                                                           */
/* ------------------------------------------------------------------ */

/* Results built by running SQL (VALUES lists mostly) in one memory database. */
typedef struct Cmp {
    SqDb *db;
    SqResult a, b;
    SqBuf diff;
} Cmp;

static int cmp_setup(void **state) {
    Cmp *c = calloc(1, sizeof *c);
    c->db = sq_db_open_memory(NULL, NULL);
    sq_result_init(&c->a);
    sq_result_init(&c->b);
    *state = c;
    return c->db ? 0 : -1;
}

static int cmp_teardown(void **state) {
    Cmp *c = *state;
    sq_db_close(c->db);
    sq_result_free(&c->a);
    sq_result_free(&c->b);
    sq_buf_free(&c->diff);
    free(c);
    return 0;
}

#define CMP_TEST(fn) cmocka_unit_test_setup_teardown(fn, cmp_setup, cmp_teardown)

static void load(Cmp *c, SqResult *r, const char *sql) {
    char *err = NULL;
    if (sq_db_query(c->db, sql, NULL, r, &err) != SQ_EXEC_OK) fail_msg("%s: %s", sql, err);
}

/* Load a and b, then compare them under mode. */
static int eq(Cmp *c, const char *a, const char *b, SqCompareMode mode, int order_matters) {
    load(c, &c->a, a);
    load(c, &c->b, b);
    int e = sq_result_equal(&c->a, &c->b, mode, order_matters);
    int back = sq_result_equal(&c->b, &c->a, mode, order_matters);
    if (e != back) fail_msg("%s mode is not symmetric on %s / %s", sq_compare_mode_name(mode), a, b);
    return e;
}

static const char *diff(Cmp *c, const char *a, const char *b, SqCompareMode mode, int ordered) {
    load(c, &c->a, a);
    load(c, &c->b, b);
    sq_buf_reset(&c->diff);
    sq_result_diff(&c->a, &c->b, mode, ordered, &c->diff);
    return sq_buf_str(&c->diff);
}

static void list_mode_needs_same_order(void **state) {
    Cmp *c = *state;
    assert_true(eq(c, "VALUES (1, 'a'), (2, 'b')", "VALUES (1, 'a'), (2, 'b')", SQ_CMP_LIST, 0));
    assert_false(eq(c, "VALUES (1, 'a'), (2, 'b')", "VALUES (2, 'b'), (1, 'a')", SQ_CMP_LIST, 0));
    assert_true(eq(c, "VALUES (1, NULL)", "VALUES (1.0, NULL)", SQ_CMP_LIST, 0));
    assert_false(eq(c, "VALUES (1)", "VALUES ('1')", SQ_CMP_LIST, 0));
    assert_false(eq(c, "VALUES (1)", "VALUES (1), (1)", SQ_CMP_LIST, 0));
    assert_false(eq(c, "VALUES (1)", "VALUES (1, 2)", SQ_CMP_LIST, 0));
    assert_true(eq(c, "SELECT 1 WHERE 0", "SELECT 2 WHERE 0", SQ_CMP_LIST, 0));
    assert_true(eq(c, "SELECT 1 WHERE 0", "SELECT 1, 2 WHERE 0", SQ_CMP_LIST, 0));
    assert_false(eq(c, "SELECT 1 WHERE 0", "VALUES (1)", SQ_CMP_LIST, 0));
}

static void bag_mode_counts_duplicates(void **state) {
    Cmp *c = *state;
    assert_true(eq(c, "VALUES (1, 'a'), (2, 'b')", "VALUES (2, 'b'), (1, 'a')", SQ_CMP_BAG, 0));
    assert_true(eq(c, "VALUES (1), (1), (2)", "VALUES (1.0), (2), (1)", SQ_CMP_BAG, 0));
    assert_false(eq(c, "VALUES (1), (1), (2)", "VALUES (1), (2), (2)", SQ_CMP_BAG, 0));
    assert_false(eq(c, "VALUES (1), (2)", "VALUES (1), (2), (2)", SQ_CMP_BAG, 0));
    assert_true(eq(c, "VALUES (NULL), (x'00')", "VALUES (x'00'), (NULL)", SQ_CMP_BAG, 0));
    assert_false(eq(c, "VALUES ('1')", "VALUES (1)", SQ_CMP_BAG, 0));
    assert_false(eq(c, "VALUES (1, 2)", "VALUES (2, 1)", SQ_CMP_BAG, 0)); /* no column swaps */
    assert_false(eq(c, "VALUES (1)", "VALUES (1, 1)", SQ_CMP_BAG, 0));
    assert_true(eq(c, "SELECT 1 WHERE 0", "SELECT 1, 2 WHERE 0", SQ_CMP_BAG, 0));
}

static void set_mode_is_birds_metric(void **state) {
    Cmp *c = *state;
    assert_true(eq(c, "VALUES (1), (1), (2)", "VALUES (2), (1)", SQ_CMP_SET, 0));
    assert_true(eq(c, "VALUES (1, 'x')", "VALUES (1.0, 'x'), (1, 'x')", SQ_CMP_SET, 0));
    assert_false(eq(c, "VALUES (1)", "VALUES ('1')", SQ_CMP_SET, 0));
    assert_true(eq(c, "VALUES (NULL)", "VALUES (NULL), (NULL)", SQ_CMP_SET, 0));
    assert_false(eq(c, "VALUES (1), (2)", "VALUES (1)", SQ_CMP_SET, 0));
    assert_true(eq(c, "SELECT 1 WHERE 0", "SELECT 1, 2, 3 WHERE 0", SQ_CMP_SET, 0));
    assert_false(eq(c, "SELECT 1 WHERE 0", "VALUES (1)", SQ_CMP_SET, 0));
    assert_false(eq(c, "VALUES (1)", "VALUES (1, 1)", SQ_CMP_SET, 0));
}

static void spider_mode_basics(void **state) {
    Cmp *c = *state;
    assert_true(eq(c, "SELECT 1 WHERE 0", "SELECT 1, 2 WHERE 0", SQ_CMP_SPIDER, 0));
    assert_true(eq(c, "SELECT 1 WHERE 0", "SELECT 1, 2 WHERE 0", SQ_CMP_SPIDER, 1));
    assert_false(eq(c, "VALUES (1)", "VALUES (1), (1)", SQ_CMP_SPIDER, 0));
    assert_false(eq(c, "VALUES (1, 2)", "VALUES (1, 2, 3)", SQ_CMP_SPIDER, 0));
    assert_false(eq(c, "SELECT 1 WHERE 0", "VALUES (1)", SQ_CMP_SPIDER, 0));
    assert_true(eq(c, "VALUES (1), (2)", "VALUES (2), (1.0)", SQ_CMP_SPIDER, 0));
    assert_false(eq(c, "VALUES (1), (2)", "VALUES (2), (1)", SQ_CMP_SPIDER, 1));
    assert_false(eq(c, "VALUES (1), (1), (2)", "VALUES (1), (2), (2)", SQ_CMP_SPIDER, 0));
    assert_false(eq(c, "VALUES ('1')", "VALUES (1)", SQ_CMP_SPIDER, 0));
    assert_true(eq(c, "VALUES (NULL, 'a')", "VALUES ('a', NULL)", SQ_CMP_SPIDER, 0));
    assert_true(eq(c, "VALUES (1, 'a')", "VALUES ('a', 1.0)", SQ_CMP_SPIDER, 0));
}

/* Both columns hold {1, 2, 3}, so both maps are candidates; only the swap works. */
static void spider_mode_finds_the_one_working_permutation(void **state) {
    Cmp *c = *state;
    const char *a = "VALUES (1, 2), (2, 3), (3, 1)";
    assert_true(eq(c, a, "VALUES (2, 1), (3, 2), (1, 3)", SQ_CMP_SPIDER, 0));
    assert_true(eq(c, a, "VALUES (2, 1), (3, 2), (1, 3)", SQ_CMP_SPIDER, 1));
    assert_false(eq(c, a, "VALUES (3, 2), (2, 1), (1, 3)", SQ_CMP_SPIDER, 1));
    assert_true(eq(c, a, "VALUES (3, 2), (2, 1), (1, 3)", SQ_CMP_SPIDER, 0));
    /* Same column multisets, but neither map gives the same rows. */
    assert_false(eq(c, "VALUES (1, 1), (2, 2)", "VALUES (1, 2), (2, 1)", SQ_CMP_SPIDER, 0));
}

static void spider_mode_with_duplicate_columns(void **state) {
    Cmp *c = *state;
    assert_true(eq(c, "VALUES (1, 1, 2), (3, 3, 4)", "VALUES (2, 1, 1), (4, 3, 3)", SQ_CMP_SPIDER, 0));
    assert_true(eq(c, "VALUES (1, 1, 2), (3, 3, 4)", "VALUES (1, 2, 1), (3, 4, 3)", SQ_CMP_SPIDER, 1));
    assert_false(eq(c, "VALUES (1, 1, 2), (3, 3, 4)", "VALUES (1, 2, 2), (3, 4, 4)", SQ_CMP_SPIDER, 0));
    assert_true(eq(c, "VALUES (5, 5, 5, 5, 5, 5, 5, 5, 5, 5)", "VALUES (5, 5, 5, 5, 5, 5, 5, 5, 5, 5.0)",
                   SQ_CMP_SPIDER, 0));
}

/* The script sorts the values of a row by str(x) + str(type(x)) first:
** 30 and 30.0 sort apart from 300, so it rejects equal results. */
static void spider_mode_keeps_the_quick_rej_quirk(void **state) {
    Cmp *c = *state;
    assert_true(eq(c, "VALUES (30, 300)", "VALUES (30.0, 300)", SQ_CMP_BAG, 0));
    assert_false(eq(c, "VALUES (30, 300)", "VALUES (30.0, 300)", SQ_CMP_SPIDER, 0));
    assert_true(eq(c, "VALUES (30, 'x')", "VALUES (30.0, 'x')", SQ_CMP_SPIDER, 0));
    assert_true(eq(c, "VALUES (30)", "VALUES (30.0)", SQ_CMP_SPIDER, 1));
}

/* The script decodes TEXT with errors="ignore". */
static void spider_mode_drops_invalid_utf8(void **state) {
    Cmp *c = *state;
    const char *a = "SELECT CAST(x'61ff62' AS TEXT), 1";
    assert_true(eq(c, a, "SELECT 'ab', 1", SQ_CMP_SPIDER, 0));
    assert_false(eq(c, a, "SELECT 'ab', 1", SQ_CMP_BAG, 0));
    assert_true(eq(c, "SELECT CAST(x'e282ac' AS TEXT)", "SELECT '€'", SQ_CMP_SPIDER, 0));
    assert_true(eq(c, "SELECT CAST(x'eda080c3a9' AS TEXT)", "SELECT 'é'", SQ_CMP_SPIDER, 0));
    assert_false(eq(c, "SELECT x'61ff62'", "SELECT x'6162'", SQ_CMP_SPIDER, 0));
}

/* Ten columns with one multiset, n rows: a naive search tries 10! maps. */
static void spider_mode_permutation_search_is_fast(void **state) {
    Cmp *c = *state;
    const char *gen =
        "WITH RECURSIVE r(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM r WHERE k < 499) "
        "SELECT %s FROM r";
    char cols_a[400] = "", cols_b[400] = "", sql_a[600], sql_b[600];
    for (int k = 0; k < 10; k++) {
        char one[40];
        snprintf(one, sizeof one, "%s(k + %d * 37) %% 500", k ? ", " : "", k);
        strcat(cols_a, one);
        snprintf(one, sizeof one, "%s(k + %d * 37) %% 500", k ? ", " : "", 9 - k);
        strcat(cols_b, one);
    }
    snprintf(sql_a, sizeof sql_a, gen, cols_a);
    snprintf(sql_b, sizeof sql_b, gen, cols_b);
    double t0 = now_sec();
    assert_true(eq(c, sql_a, sql_b, SQ_CMP_SPIDER, 0));
    assert_true(eq(c, sql_a, sql_b, SQ_CMP_SPIDER, 1));
    /* Swap two values inside b's last column: multisets stay, no map works. */
    char swapped[800];
    snprintf(swapped, sizeof swapped, gen, cols_b);
    char *last = strstr(swapped, "(k + 0 * 37) % 500");
    assert_non_null(last);
    char tail[200];
    snprintf(tail, sizeof tail, "CASE k WHEN 498 THEN 499 WHEN 499 THEN 498 ELSE k END%s",
             last + strlen("(k + 0 * 37) % 500"));
    strcpy(last, tail);
    assert_false(eq(c, sql_a, swapped, SQ_CMP_SPIDER, 0));
    assert_false(eq(c, sql_a, swapped, SQ_CMP_SPIDER, 1));
    assert_true(now_sec() - t0 < 2.0);
}

static void diff_names_the_first_difference(void **state) {
    Cmp *c = *state;
    const char *a = "SELECT 1 AS id, 'x' AS name UNION ALL SELECT 2, 'y'";
    const char *b = "SELECT 1 AS id, 'x' AS name UNION ALL SELECT 2, 'z'";
    assert_string_equal(diff(c, a, b, SQ_CMP_LIST, 0), "row 2, column 2 (\"name\"): 'y' vs 'z'");
    assert_string_equal(diff(c, a, b, SQ_CMP_BAG, 0),
                        "(2, 'y') occurs 1 time in the first result and 0 in the second");
    assert_string_equal(diff(c, a, b, SQ_CMP_SET, 0),
                        "(2, 'y') (row 2 of the first result) is not in the second");
    assert_string_equal(diff(c, a, b, SQ_CMP_SPIDER, 0),
                        "column 2 (\"name\") of the first result has the values of no column "
                        "of the second");
    assert_string_equal(diff(c, a, a, SQ_CMP_LIST, 0), "");
    assert_string_equal(diff(c, "VALUES (1)", "VALUES (1), (1)", SQ_CMP_LIST, 0),
                        "row counts differ: 1 vs 2");
    assert_string_equal(diff(c, "VALUES (1)", "VALUES (1, 2)", SQ_CMP_SPIDER, 0),
                        "column counts differ: 1 vs 2");
    assert_string_equal(diff(c, "VALUES (1), (3)", "VALUES (1), (3), (3)", SQ_CMP_SET, 0), "");
    assert_string_equal(diff(c, "VALUES (1, 1), (2, 2)", "VALUES (1, 2), (2, 1)", SQ_CMP_SPIDER, 0),
                        "no permutation of the second result's columns makes the rows equal");
    assert_string_equal(diff(c, "VALUES (30, 300)", "VALUES (30.0, 300)", SQ_CMP_SPIDER, 0),
                        "quick_rej rejects: values sorted by Python's str() differ "
                        "(an INTEGER and an equal REAL sort apart)");
    assert_string_equal(diff(c, "SELECT 1 WHERE 0", "VALUES (1)", SQ_CMP_SET, 0),
                        "the first result is empty, the second has 1 row");
}

/* Results built by hand, without SQLite. */
static void results_built_by_hand(void **state) {
    (void)state;
    SqResult a, b;
    sq_result_init(&a);
    sq_result_init(&b);
    sq_result_start(&a, 2);
    sq_result_set_name(&a, 0, "v");
    for (int k = 0; k < 100; k++) {
        SqValue *row = sq_result_add_row(&a);
        row[0] = sq_value_int(k);
        row[1] = sq_result_text(&a, "ab", 2);
    }
    assert_int_equal(a.n_rows, 100);
    assert_int_equal(a.n_bytes, 200);
    sq_result_start(&b, 2);
    for (int k = 99; k >= 0; k--) {
        SqValue *row = sq_result_add_row(&b);
        row[0] = sq_value_real(k);
        row[1] = sq_result_text(&b, "ab", 2);
    }
    assert_true(sq_result_equal(&a, &b, SQ_CMP_BAG, 0));
    assert_false(sq_result_equal(&a, &b, SQ_CMP_LIST, 0));
    b.cells[0] = sq_value_real(NAN); /* NaN equals nothing */
    assert_false(sq_result_equal(&a, &b, SQ_CMP_BAG, 0));
    assert_false(sq_result_equal(&b, &b, SQ_CMP_SET, 0));
    SqBuf d = SQ_BUF_INIT;
    sq_result_diff(&b, &b, SQ_CMP_BAG, 0, &d);
    assert_string_equal(sq_buf_str(&d), "results differ (a value that equals nothing, such as NaN)");
    sq_buf_free(&d);
    sq_result_free(&a);
    sq_result_free(&b);
    assert_null(a.arena);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        DB_TEST(select_keeps_storage_classes),
        DB_TEST(select_reads_tables_views_and_read_pragmas),
        DB_TEST(text_keeps_embedded_nul_bytes),
        DB_TEST(writes_are_denied_and_the_file_is_unchanged),
        DB_TEST(denial_message_names_the_action),
        DB_TEST(immutable_open_reads),
        DB_TEST(open_fails_on_missing_file_and_non_database),
        DB_TEST(sql_errors_are_reported),
        DB_TEST(last_statement_with_rows_is_kept),
        DB_TEST(timeout_stops_runaway_recursion),
        DB_TEST(max_rows_stops_a_cartesian_product),
        DB_TEST(max_bytes_bounds_text_and_blobs),
        cmocka_unit_test(memory_database_from_ddl),
        cmocka_unit_test(prep_queue_gives_outcomes_in_order),
        cmocka_unit_test(columns_of_a_write_leave_the_guard_on),
        cmocka_unit_test(value_equality_follows_python),
        cmocka_unit_test(value_print_forms),
        CMP_TEST(list_mode_needs_same_order),
        CMP_TEST(bag_mode_counts_duplicates),
        CMP_TEST(set_mode_is_birds_metric),
        CMP_TEST(spider_mode_basics),
        CMP_TEST(spider_mode_finds_the_one_working_permutation),
        CMP_TEST(spider_mode_with_duplicate_columns),
        CMP_TEST(spider_mode_keeps_the_quick_rej_quirk),
        CMP_TEST(spider_mode_drops_invalid_utf8),
        CMP_TEST(spider_mode_permutation_search_is_fast),
        CMP_TEST(diff_names_the_first_difference),
        cmocka_unit_test(results_built_by_hand),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
