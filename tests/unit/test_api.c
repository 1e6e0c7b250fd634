/* test_api.c -- the library façade (api/squint.h): every call on small
** inputs, the errors included, and a compiled query's SQL run in SQLite
** against the original's rows. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "api/squint.h"
#include "backend/emit/emit.h"
#include "backend/sqlite/db.h"
#include "backend/sqlite/result.h"

static const char ddl[] =
    "CREATE TABLE t (a INTEGER PRIMARY KEY, b TEXT, c INTEGER);\n"
    "CREATE TABLE u (a INTEGER REFERENCES t(a), d TEXT);\n";
static const char data[] =
    "INSERT INTO t VALUES (1, 'x', 10), (2, 'y', NULL), (3, 'x', 30), (4, NULL, 40);\n"
    "INSERT INTO u VALUES (1, 'p'), (3, 'q'), (3, 'r'), (NULL, 's');\n";
static const char tables_json[] =
    "[{\"db_id\": \"shop\", \"table_names_original\": [\"item\"], \"table_names\": [\"item\"],\n"
    "  \"column_names_original\": [[-1, \"*\"], [0, \"id\"], [0, \"price\"]],\n"
    "  \"column_names\": [[-1, \"*\"], [0, \"id\"], [0, \"price\"]],\n"
    "  \"column_types\": [\"text\", \"number\", \"number\"],\n"
    "  \"primary_keys\": [1], \"foreign_keys\": []}]\n";

/* Files in a fresh directory: a DDL script, a database with data, a
** tables.json, a Spider-style root, a script with an error. */
typedef struct Fixture {
    char dir[64];
    char ddl[96], db[96], tables[96], root[96], bad[96], txt[96];
    SqContext c;
} Fixture;

static void write_text(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void make_db(const char *path) {
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;", NULL,
                                  NULL, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, ddl, NULL, NULL, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, data, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
}

/* The files, once for every test. */
static int group_setup(void **state) {
    Fixture *f = calloc(1, sizeof *f);
    snprintf(f->dir, sizeof f->dir, "/tmp/squint-test-api-XXXXXX");
    if (!mkdtemp(f->dir)) return -1;
    snprintf(f->ddl, sizeof f->ddl, "%s/schema.sql", f->dir);
    snprintf(f->db, sizeof f->db, "%s/data.sqlite", f->dir);
    snprintf(f->tables, sizeof f->tables, "%s/tables.json", f->dir);
    snprintf(f->root, sizeof f->root, "%s/root", f->dir);
    snprintf(f->bad, sizeof f->bad, "%s/bad.sql", f->dir);
    snprintf(f->txt, sizeof f->txt, "%s/schema.txt", f->dir);
    write_text(f->ddl, ddl);
    write_text(f->txt, ddl);
    write_text(f->tables, tables_json);
    write_text(f->bad, "CREATE TABLE ok (x INTEGER);\nCREATE TABLE broken (x INTEGER,;\n");
    make_db(f->db);
    char path[160];
    mkdir(f->root, 0700);
    snprintf(path, sizeof path, "%s/shop", f->root);
    mkdir(path, 0700);
    snprintf(path, sizeof path, "%s/shop/shop.sqlite", f->root);
    make_db(path);
    *state = f;
    return 0;
}

/* A fresh context for each test. */
static int setup(void **state) {
    Fixture *f = *state;
    sq_ctx_init(&f->c);
    return 0;
}

static int teardown(void **state) {
    Fixture *f = *state;
    sq_ctx_free(&f->c);
    return 0;
}

static int group_teardown(void **state) {
    Fixture *f = *state;
    char path[160];
    snprintf(path, sizeof path, "%s/shop/shop.sqlite", f->root);
    unlink(path);
    snprintf(path, sizeof path, "%s/shop", f->root);
    rmdir(path);
    rmdir(f->root);
    unlink(f->ddl);
    unlink(f->db);
    unlink(f->tables);
    unlink(f->bad);
    unlink(f->txt);
    rmdir(f->dir);
    free(f);
    return 0;
}

static int has_table(const Catalog *cat, SqContext *c, const char *name) {
    return cat && sq_catalog_table(cat, sq_intern_cstr(c->names, name)) != NULL;
}

/* Whether some diagnostic since m says what. */
static int said(const SqContext *c, size_t since, const char *what) {
    for (size_t i = since; i < c->diags->n; i++)
        if (strstr(c->diags->items[i]->msg, what)) return 1;
    return 0;
}

/* ---- schemas ---------------------------------------------------------- */

static void loads_ddl_and_sqlite_files(void **state) {
    Fixture *f = *state;
    SqLoadStatus st = SQ_LOAD_FAILED;
    const Catalog *a = sq_ctx_load_schema(&f->c, f->ddl, 0, &st);
    assert_int_equal(st, SQ_LOAD_OK);
    assert_true(has_table(a, &f->c, "t") && has_table(a, &f->c, "u"));
    assert_false(has_table(a, &f->c, "item"));
    st = SQ_LOAD_FAILED;
    const Catalog *b = sq_ctx_load_schema(&f->c, f->db, SQ_SCHEMA_DB_OR_SQL, &st);
    assert_int_equal(st, SQ_LOAD_OK);
    assert_true(has_table(b, &f->c, "u"));
    assert_int_equal(f->c.n_schemas, 2);
    assert_int_equal(f->c.diags->n_errors, 0);
    const Catalog *m = sq_ctx_load_ddl(&f->c, "mem.sql", "CREATE TABLE m (z TEXT);", 24);
    assert_true(has_table(m, &f->c, "m"));
    assert_true(has_table(sq_ctx_load_sqlite(&f->c, f->db), &f->c, "t"));
}

static void refuses_bad_schemas(void **state) {
    Fixture *f = *state;
    SqLoadStatus st = SQ_LOAD_OK;
    size_t before = f->c.diags->n;
    assert_null(sq_ctx_load_schema(&f->c, "/nonexistent/schema.sql", 0, &st));
    assert_int_equal(st, SQ_LOAD_FAILED);
    assert_true(said(&f->c, before, "cannot read schema '/nonexistent/schema.sql'"));
    /* a script with an error is refused whole, or kept in part on request */
    before = f->c.diags->n;
    assert_null(sq_ctx_load_schema(&f->c, f->bad, 0, &st));
    assert_int_equal(st, SQ_LOAD_FAILED);
    assert_true(said(&f->c, before, "has errors"));
    const Catalog *kept = sq_ctx_load_schema(&f->c, f->bad, SQ_SCHEMA_KEEP_ERRORS, &st);
    assert_int_equal(st, SQ_LOAD_OK);
    assert_true(has_table(kept, &f->c, "ok"));
    /* --db's rule: a file that is not a database must be *.sql; the
    ** caller words the message */
    before = f->c.diags->n;
    assert_null(sq_ctx_load_schema(&f->c, f->txt, SQ_SCHEMA_DB_OR_SQL, &st));
    assert_int_equal(st, SQ_LOAD_NOT_DATABASE);
    assert_int_equal(f->c.diags->n, before);
    assert_non_null(sq_ctx_load_schema(&f->c, f->txt, 0, &st));
    assert_int_equal(f->c.n_schemas, 2); /* the refused ones are not kept */
}

static void loads_tables_json_and_db_root(void **state) {
    Fixture *f = *state;
    SqLoadStatus st = SQ_LOAD_FAILED;
    const Catalog *shop = sq_ctx_load_tables_json(&f->c, f->tables, "shop", sq_span(0, 0, 0), &st);
    assert_int_equal(st, SQ_LOAD_OK);
    assert_true(has_table(shop, &f->c, "item"));
    assert_string_equal(shop->db_id, "shop");
    size_t before = f->c.diags->n;
    assert_null(sq_ctx_load_tables_json(&f->c, f->tables, "shoq", sq_span(0, 0, 0), &st));
    assert_int_equal(st, SQ_LOAD_UNKNOWN_DB_ID);
    assert_true(f->c.diags->n > before);
    assert_int_equal(f->c.n_tables, 1); /* read once */
    assert_null(sq_ctx_load_tables_json(&f->c, "/nonexistent/tables.json", "shop", sq_span(0, 0, 0), &st));
    assert_int_equal(st, SQ_LOAD_FAILED);
    const Catalog *r = sq_ctx_load_db_root(&f->c, f->root, "shop", sq_span(0, 0, 0), &st);
    assert_int_equal(st, SQ_LOAD_OK);
    assert_true(has_table(r, &f->c, "t"));
    before = f->c.diags->n;
    assert_null(sq_ctx_load_db_root(&f->c, f->root, "shoq", sq_span(0, 0, 0), &st));
    assert_int_equal(st, SQ_LOAD_UNKNOWN_DB_ID);
    assert_true(said(&f->c, before, "unknown db_id 'shoq'"));
    assert_string_equal(f->c.diags->items[f->c.diags->n - 1]->help, "did you mean 'shop'?");
    assert_null(sq_ctx_load_db_root(&f->c, f->root, "../shop", sq_span(0, 0, 0), &st));
    assert_int_equal(st, SQ_LOAD_UNKNOWN_DB_ID);
}

/* ---- compiling -------------------------------------------------------- */

static SqCompileStatus compile_status(Fixture *f, const Catalog *cat, const char *sql) {
    SqArena *a = sq_arena_new();
    SqCompileStatus st = SQ_COMPILE_NO_SCHEMA;
    IrQuery *q = sq_ctx_compile_text(&f->c, a, cat, "q", sql, strlen(sql), &st);
    assert_true((q != NULL) == (st == SQ_COMPILE_OK));
    sq_arena_free(a);
    return st;
}

static void compiles_one_query(void **state) {
    Fixture *f = *state;
    const Catalog *cat = sq_ctx_load_schema(&f->c, f->ddl, 0, NULL);
    assert_non_null(cat);
    assert_int_equal(compile_status(f, cat, "SELECT b FROM t WHERE a > 1"), SQ_COMPILE_OK);
    assert_int_equal(compile_status(f, cat, "SELEC b FROM t"), SQ_COMPILE_SYNTAX);
    assert_int_equal(compile_status(f, cat, "SELECT nosuch FROM t"), SQ_COMPILE_BIND);
    assert_int_equal(compile_status(f, cat, "SELECT 1; SELECT 2"), SQ_COMPILE_MANY);
    assert_int_equal(compile_status(f, cat, "  -- nothing\n"), SQ_COMPILE_EMPTY);
    assert_int_equal(compile_status(f, cat, "CREATE TABLE v (x)"), SQ_COMPILE_NOT_QUERY);
    assert_null(sq_compile_why(SQ_COMPILE_OK));
    assert_string_equal(sq_compile_why(SQ_COMPILE_SYNTAX), "a syntax error");
    assert_string_equal(sq_compile_why(SQ_COMPILE_BIND), "a binding error");
    assert_string_equal(sq_compile_why(SQ_COMPILE_MANY), "more than one statement");
    assert_string_equal(sq_compile_why(SQ_COMPILE_EMPTY), "no statement");
    assert_string_equal(sq_compile_why(SQ_COMPILE_NOT_QUERY), "not a query (SELECT, VALUES or WITH)");
}

/* What a script's callback saw. */
typedef struct Seen {
    SqCompileStatus st[8];
    int has_ir[8], has_bound[8];
    size_t n, stop_at;
    int schema_calls;
    const Catalog *cat;
} Seen;

static int see(void *ud, SqCompiled *s) {
    Seen *w = ud;
    assert_int_equal(s->index, w->n);
    w->st[w->n] = s->status;
    w->has_ir[w->n] = s->ir != NULL;
    w->has_bound[w->n] = s->bound != NULL;
    w->n++;
    return w->n == w->stop_at;
}

static const Catalog *give_schema(void *ud) {
    Seen *w = ud;
    w->schema_calls++;
    return w->cat;
}

static void compiles_each_statement(void **state) {
    Fixture *f = *state;
    static const char script[] =
        "SELECT a FROM t; SELEC; SELECT zz FROM t; CREATE TABLE v (x); VALUES (1), (2)";
    const SqSrc *src = sq_src_add_copy(f->c.srcs, "s.sql", script, strlen(script));
    Seen w = {0};
    w.cat = sq_ctx_load_schema(&f->c, f->ddl, 0, NULL);
    assert_int_equal(sq_ctx_compile_script(&f->c, src, NULL, give_schema, 0, see, &w), 5);
    assert_int_equal(w.schema_calls, 1);
    static const SqCompileStatus want[] = {SQ_COMPILE_OK, SQ_COMPILE_SYNTAX, SQ_COMPILE_BIND,
                                           SQ_COMPILE_NOT_QUERY, SQ_COMPILE_OK};
    for (size_t i = 0; i < 5; i++) {
        assert_int_equal(w.st[i], want[i]);
        assert_int_equal(w.has_ir[i], want[i] == SQ_COMPILE_OK);
    }
    /* bind only, and stop after the third statement */
    Seen v = {0};
    v.stop_at = 3;
    assert_int_equal(sq_ctx_compile_script(&f->c, src, w.cat, NULL, SQ_SCRIPT_NO_LOWER, see, &v), 3);
    assert_true(v.has_bound[0] && !v.has_ir[0]);
    assert_false(v.has_bound[1] || v.has_bound[2]);
    /* a script that does not parse does not ask for its schema; one with
    ** no schema parses without binding */
    const SqSrc *bad = sq_src_add_copy(f->c.srcs, "b.sql", "SELEC 1", 7);
    Seen u = {0};
    u.cat = w.cat;
    sq_ctx_compile_script(&f->c, bad, NULL, give_schema, 0, see, &u);
    assert_int_equal(u.schema_calls, 0);
    assert_int_equal(u.st[0], SQ_COMPILE_SYNTAX);
    Seen x = {0};
    sq_ctx_compile_script(&f->c, src, NULL, give_schema, 0, see, &x);
    assert_int_equal(x.st[0], SQ_COMPILE_NO_SCHEMA);
    assert_int_equal(x.st[1], SQ_COMPILE_SYNTAX);
}

static void marks_and_rewinds(void **state) {
    Fixture *f = *state;
    const Catalog *cat = sq_ctx_load_schema(&f->c, f->ddl, 0, NULL);
    SqCtxMark m = sq_ctx_mark(&f->c);
    assert_null(sq_ctx_last_message(&f->c, m));
    assert_int_equal(compile_status(f, cat, "SELECT nosuch FROM t"), SQ_COMPILE_BIND);
    const char *msg = sq_ctx_last_message(&f->c, m);
    assert_non_null(msg);
    assert_non_null(strstr(msg, "nosuch"));
    assert_true(f->c.srcs->n > m.n_srcs);
    sq_ctx_rewind(&f->c, m);
    assert_int_equal(f->c.srcs->n, m.n_srcs);
    assert_int_equal(f->c.diags->n, m.n_diags);
}

/* ---- against SQLite --------------------------------------------------- */

/* The rows of sql on the fixture's database. */
static void rows_of(const char *db_path, const char *sql, SqResult *out) {
    SqDb *db = sq_db_open(db_path, NULL);
    assert_non_null(db);
    sq_result_init(out);
    assert_int_equal(sq_db_query(db, sql, NULL, out, NULL), SQ_EXEC_OK);
    sq_db_close(db);
}

static void compiled_sql_gives_the_same_rows(void **state) {
    Fixture *f = *state;
    const Catalog *cat = sq_ctx_load_schema(&f->c, f->db, 0, NULL);
    static const char *const queries[] = {
        "SELECT b, count(*), sum(c) FROM t WHERE a > 1 GROUP BY b ORDER BY b",
        "SELECT t.a, d FROM t JOIN u ON t.a = u.a WHERE d <> 'q' ORDER BY 1, 2",
        "SELECT a FROM t WHERE a IN (SELECT a FROM u) ORDER BY a",
    };
    for (size_t i = 0; i < sizeof queries / sizeof *queries; i++) {
        SqArena *a = sq_arena_new();
        SqCompileStatus st;
        IrQuery *q = sq_ctx_compile_text(&f->c, a, cat, "q", queries[i], strlen(queries[i]), &st);
        assert_non_null(q);
        SqBuf sql = SQ_BUF_INIT;
        assert_true(sq_emit_sqlite(q, &sql));
        SqResult want, got;
        rows_of(f->db, queries[i], &want);
        rows_of(f->db, sq_buf_str(&sql), &got);
        assert_true(want.n_rows > 0);
        if (!sq_result_equal(&want, &got, SQ_CMP_LIST, 1))
            fail_msg("%s\n  emitted as %s\n  gives other rows", queries[i], sq_buf_str(&sql));
        sq_result_free(&want);
        sq_result_free(&got);
        sq_buf_free(&sql);
        sq_arena_free(a);
    }
}

/* ---- passes, equivalence, evaluation ---------------------------------- */

static void runs_passes_by_name(void **state) {
    Fixture *f = *state;
    const Catalog *cat = sq_ctx_load_schema(&f->c, f->db, 0, NULL);
    static const char sql[] = "SELECT b FROM t WHERE a IN (SELECT a FROM u WHERE d = 'q')";
    SqArena *a = sq_arena_new();
    SqCompileStatus st;
    IrQuery *q = sq_ctx_compile_text(&f->c, a, cat, "q", sql, strlen(sql), &st);
    assert_non_null(q);
    SqBuf before = SQ_BUF_INIT, after = SQ_BUF_INIT;
    assert_true(sq_emit_sqlite(q, &before));
    static const char *const unnest[] = {"unnest"};
    assert_int_equal(sq_ctx_run_passes(&f->c, a, cat, q, unnest, 1, NULL), 1);
    assert_true(sq_emit_sqlite(q, &after));
    assert_string_not_equal(sq_buf_str(&before), sq_buf_str(&after));
    SqResult want, got; /* the rewrite keeps the rows */
    rows_of(f->db, sql, &want);
    rows_of(f->db, sq_buf_str(&after), &got);
    assert_int_equal(want.n_rows, 1);
    assert_true(sq_result_equal(&want, &got, SQ_CMP_BAG, 0));
    sq_result_free(&want);
    sq_result_free(&got);
    static const char *const nosuch[] = {"no-such-pass"};
    assert_int_equal(sq_ctx_run_passes(&f->c, a, cat, q, nosuch, 1, NULL), -1);
    sq_buf_free(&before);
    sq_buf_free(&after);
    sq_arena_free(a);
}

/* A search bounded by z3's resource units, not by the clock. */
static SqEquivOptions small_search(void) {
    SqEquivOptions o = sq_equiv_options_default();
    o.bound = 2;
    o.timeout = 0;
    o.rlimit = 20000000;
    return o;
}

static void checks_equivalence(void **state) {
    Fixture *f = *state;
    const Catalog *cat = sq_ctx_load_schema(&f->c, f->ddl, 0, NULL);
    SqEquivOptions o = small_search();
    SqEquivResult v;
    SqCompileStatus st;
    int which = -1;
    assert_int_equal(sq_ctx_equiv_sql(&f->c, cat, "SELECT a FROM t WHERE a > 1",
                                      "SELECT a FROM t WHERE NOT (a <= 1)", &o, &v, &st, &which), 0);
    assert_int_equal(which, 0);
    assert_int_equal(v.verdict, SQ_VERDICT_EQUIVALENT);
    sq_equiv_result_free(&v);
    assert_int_equal(sq_ctx_equiv_sql(&f->c, cat, "SELECT a FROM t WHERE a > 1",
                                      "SELECT a FROM t WHERE a >= 1", &o, &v, &st, &which), 0);
    assert_int_equal(v.verdict, SQ_VERDICT_DIFFERENT);
    sq_equiv_result_free(&v);
    assert_int_equal(sq_ctx_equiv_sql(&f->c, cat, "SELECT a FROM t", "SELECT a FRM t", &o, &v, &st,
                                      &which), -1);
    assert_int_equal(which, 2);
    assert_int_equal(st, SQ_COMPILE_SYNTAX);
    assert_int_equal(sq_ctx_equiv_sql(&f->c, cat, "SELECT x FROM t", "SELECT a FROM t", &o, &v, &st,
                                      &which), -1);
    assert_int_equal(which, 1);
    assert_int_equal(st, SQ_COMPILE_BIND);
}

static void evaluates_an_item(void **state) {
    Fixture *f = *state;
    const Catalog *cat = sq_ctx_load_schema(&f->c, f->db, 0, NULL);
    static const char *const names[] = {"same", "other"};
    static const char *const preds[] = {"SELECT b FROM t WHERE NOT (a <= 2)", "SELECT b FROM t"};
    SqEvalInput in;
    memset(&in, 0, sizeof in);
    in.label = "item 0";
    in.gold = "SELECT b FROM t WHERE a > 2";
    in.n_systems = 2;
    in.names = names;
    in.preds = preds;
    in.db_path = f->db;
    in.cat = cat;
    SqEvalConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.ex.metric = SQ_METRIC_SPIDER;
    cfg.verify = 1;
    cfg.equiv = small_search();
    cfg.bind = f->c.bind_opt;
    SqBuf out = SQ_BUF_INIT;
    sq_ctx_eval(&f->c, &in, &cfg, &out);
    const char *rec = sq_buf_str(&out);
    const char *same = strstr(rec, "\"same\""), *other = strstr(rec, "\"other\"");
    if (!same || !other) fail_msg("no system in %s", rec);
    const char *ok = strstr(same, "\"correct\""), *wrong = strstr(other, "\"wrong\"");
    if (!ok || ok > other || !wrong) fail_msg("EX-test: %s", rec);
    const char *eq = strstr(same, "\"equivalent\"");
    if (!eq || eq > other) fail_msg("verdict: %s", rec);
    sq_buf_free(&out);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(loads_ddl_and_sqlite_files, setup, teardown),
        cmocka_unit_test_setup_teardown(refuses_bad_schemas, setup, teardown),
        cmocka_unit_test_setup_teardown(loads_tables_json_and_db_root, setup, teardown),
        cmocka_unit_test_setup_teardown(compiles_one_query, setup, teardown),
        cmocka_unit_test_setup_teardown(compiles_each_statement, setup, teardown),
        cmocka_unit_test_setup_teardown(marks_and_rewinds, setup, teardown),
        cmocka_unit_test_setup_teardown(compiled_sql_gives_the_same_rows, setup, teardown),
        cmocka_unit_test_setup_teardown(runs_passes_by_name, setup, teardown),
        cmocka_unit_test_setup_teardown(checks_equivalence, setup, teardown),
        cmocka_unit_test_setup_teardown(evaluates_an_item, setup, teardown),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
