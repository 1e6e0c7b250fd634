/* test_fixture.c -- backend/fixture: the script (DDL from catalogs, storage classes kept, table order), JSON, text tables, side by side, running two queries, .sqlite files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backend/fixture/fixture.h"
#include "backend/sqlite/db.h"
#include "runtime/util.h"

/* ------------------------------------------------------------------ */
/* Setup: a catalog from DDL, a fixture over it, scratch results        */
/* ------------------------------------------------------------------ */

typedef struct T {
    SqSrcSet srcs;
    SqDiags diags;
    SqInterner *names;
    Catalog *cat;     /* from load() */
    Catalog *cat2;    /* from reload() */
    SqFixture fx;     /* over cat, from load() */
    SqResult r1, r2;  /* scratch results */
    SqBuf out;        /* scratch text */
    char *err;        /* scratch message */
    char dir[64];     /* temporary directory, when made */
} T;

static int setup(void **state) {
    T *t = sq_calloc(1, sizeof *t);
    sq_srcset_init(&t->srcs);
    sq_diags_init(&t->diags, &t->srcs);
    t->names = sq_interner_new();
    sq_result_init(&t->r1);
    sq_result_init(&t->r2);
    *state = t;
    return 0;
}

/* Remove the temporary directory and everything in it. */
static void remove_dir(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) return;
    char p[512];
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        unlink(p);
    }
    closedir(d);
    rmdir(dir);
}

static int teardown(void **state) {
    T *t = *state;
    if (t->dir[0]) remove_dir(t->dir);
    sq_fixture_free(&t->fx);
    sq_catalog_free(t->cat);
    sq_catalog_free(t->cat2);
    sq_result_free(&t->r1);
    sq_result_free(&t->r2);
    sq_buf_free(&t->out);
    free(t->err);
    sq_interner_free(t->names);
    sq_diags_free(&t->diags);
    sq_srcset_free(&t->srcs);
    free(t);
    return 0;
}

#define FX_TEST(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

static Catalog *catalog_of(T *t, const char *ddl) {
    SqSrc *src = sq_src_add_copy(&t->srcs, "schema.sql", ddl, strlen(ddl));
    Catalog *c = sq_catalog_new(t->names, "schema.sql");
    size_t errors = sq_catalog_load_ddl(c, src, &t->diags);
    sq_catalog_link(c, &t->diags);
    if (errors)
        for (size_t i = 0; i < t->diags.n; i++) print_message("diag: %s\n", t->diags.items[i]->msg);
    assert_int_equal(errors, 0); /* warnings (a foreign key to nowhere) are fine */
    return c;
}

/* The catalog of ddl, and an empty fixture over it. */
static void load(T *t, const char *ddl) {
    t->cat = catalog_of(t, ddl);
    sq_fixture_init(&t->fx, t->cat);
}

static const CatTable *table(T *t, const char *name) {
    const CatTable *tab = sq_catalog_table(t->cat, sq_intern_cstr(t->names, name));
    if (!tab) fail_msg("no table %s", name);
    return tab;
}

/* The fixture's script, in t->out. */
static const char *script(T *t) {
    sq_buf_reset(&t->out);
    sq_fixture_sql(&t->fx, &t->out);
    return sq_buf_str(&t->out);
}

static void assert_str(const char *got, const char *want) {
    if (strcmp(got, want) != 0) fail_msg("got:\n%s\nwant:\n%s", got, want);
}

static SqValue text(SqResult *r, const char *s) { return sq_result_text(r, s, (uint32_t)strlen(s)); }

/* Same storage class and same value (bytes for TEXT and BLOB). */
static void assert_same_value(const SqValue *a, const SqValue *b, uint64_t row, uint32_t col) {
    if (a->type != b->type) fail_msg("row %lu col %u: type %d vs %d", (unsigned long)row, col,
                                     a->type, b->type);
    switch (a->type) {
    case SQ_VAL_INTEGER: assert_true(a->i == b->i); break;
    case SQ_VAL_REAL: assert_true(a->r == b->r); break;
    case SQ_VAL_TEXT:
    case SQ_VAL_BLOB:
        assert_int_equal(a->n, b->n);
        assert_memory_equal(a->s, b->s, a->n);
        break;
    default: break;
    }
}

static void assert_same_rows(const SqResult *a, const SqResult *b) {
    assert_int_equal(a->n_cols, b->n_cols);
    assert_int_equal(a->n_rows, b->n_rows);
    for (uint64_t i = 0; i < a->n_rows; i++)
        for (uint32_t k = 0; k < a->n_cols; k++)
            assert_same_value(sq_result_cell(a, i, k), sq_result_cell(b, i, k), i, k);
}

static void query(T *t, SqDb *db, const char *sql, SqResult *out) {
    free(t->err);
    t->err = NULL;
    SqExecStatus st = sq_db_query(db, sql, NULL, out, &t->err);
    if (st != SQ_EXEC_OK) fail_msg("%s: %s", sql, t->err);
}

static SqDb *open_script(T *t) {
    free(t->err);
    t->err = NULL;
    SqDb *db = sq_db_open_memory(script(t), &t->err);
    if (!db) fail_msg("script fails: %s\n%s", t->err, sq_buf_str(&t->out));
    return db;
}

/* ------------------------------------------------------------------ */
/* The script                                                          */
/* ------------------------------------------------------------------ */

/* Rows of t(id INTEGER PRIMARY KEY, v, s TEXT, r REAL, i INT): v (no type,
** BLOB affinity) holds every storage class. */
static void fill_mixed(SqResult *r) {
    static const char nul_text[] = {'a', 0, 'b'};
    SqValue *row = sq_result_add_row(r);
    row[0] = sq_value_int(1);
    row[1] = sq_value_int(1);
    row[2] = text(r, "it's \xc3\xa9t\xc3\xa9"); /* quote and non-ASCII */
    row[3] = sq_value_real(1.0);
    row[4] = sq_value_int(7);
    row = sq_result_add_row(r);
    row[0] = sq_value_int(2);
    row[1] = sq_value_real(1.0);
    row[2] = text(r, "line\nbreak"); /* not printable: CAST(X'..' AS TEXT) */
    row[3] = sq_value_real(0.1);
    row[4] = sq_value_null();
    row = sq_result_add_row(r);
    row[0] = sq_value_int(3);
    row[1] = sq_value_null();
    row[2] = sq_result_text(r, nul_text, 3);
    row[3] = sq_value_real(-1e300);
    row[4] = sq_value_int(INT64_MIN);
    row = sq_result_add_row(r);
    row[0] = sq_value_int(4);
    row[1] = sq_result_blob(r, "\x00\xff", 2);
    row[2] = text(r, "");
    row[3] = sq_value_real(-0.5);
    row[4] = sq_value_int(INT64_MAX);
    row = sq_result_add_row(r);
    row[0] = sq_value_int(5);
    row[1] = text(r, "1");
    row[2] = text(r, "\xe2\x82\xac");
    row[3] = sq_value_real(INFINITY);
    row[4] = sq_value_int(0);
}

static void script_rebuilds_rows_and_storage_classes(void **state) {
    T *t = *state;
    load(t, "CREATE TABLE t(id INTEGER PRIMARY KEY, v, s TEXT, r REAL, i INT);");
    SqResult *rows = sq_fixture_table(&t->fx, table(t, "t"));
    assert_int_equal(rows->n_cols, 5);
    assert_string_equal(rows->col_names[2], "s");
    fill_mixed(rows);
    SqDb *db = open_script(t);
    query(t, db, "SELECT * FROM t ORDER BY id", &t->r1);
    sq_db_close(db);
    assert_same_rows(&t->r1, rows);
    assert_true(sq_result_equal(&t->r1, rows, SQ_CMP_LIST, 1));
    assert_non_null(strstr(sq_buf_str(&t->out), "(1, 1, 'it''s \xc3\xa9t\xc3\xa9', 1.0, 7)"));
}

/* Text a person can read: each character beyond printable ASCII a
** letter, the same for equal values (a key and its reference), other for
** other values; tables with a CHECK keep theirs; undo puts all back. */
static void readable_text_keeps_equal_values_equal(void **state) {
    T *t = *state;
    load(t, "CREATE TABLE a(k TEXT PRIMARY KEY, v INT);"
            "CREATE TABLE b(id INTEGER PRIMARY KEY, k TEXT REFERENCES a(k));"
            "CREATE TABLE c(s TEXT CHECK (length(s) > 0));");
    SqResult *ra = sq_fixture_table(&t->fx, table(t, "a"));
    SqValue *row = sq_result_add_row(ra);
    row[0] = text(ra, "x\x01y"), row[1] = sq_value_int(1);
    row = sq_result_add_row(ra);
    row[0] = text(ra, "\xc3\xa9t\xc3\xa9"), row[1] = sq_value_int(2);
    SqResult *rb = sq_fixture_table(&t->fx, table(t, "b"));
    row = sq_result_add_row(rb);
    row[0] = sq_value_int(1), row[1] = text(rb, "\xc3\xa9t\xc3\xa9");
    row = sq_result_add_row(rb);
    row[0] = sq_value_int(2), row[1] = text(rb, "x\x01y");
    SqResult *rc = sq_fixture_table(&t->fx, table(t, "c"));
    row = sq_result_add_row(rc);
    row[0] = text(rc, "\xe2\x82\xac");
    ra = sq_fixture_table(&t->fx, table(t, "a")), rb = sq_fixture_table(&t->fx, table(t, "b"));
    SqArena *arena = sq_arena_new();
    SqFixtureChange *changed;
    assert_int_equal(sq_fixture_readable(&t->fx, arena, &changed), 4);
    assert_string_equal(sq_result_cell(ra, 0, 0)->s, "xay");
    assert_string_equal(sq_result_cell(ra, 1, 0)->s, "btb"); /* one letter per character */
    assert_string_equal(sq_result_cell(rb, 0, 1)->s, "btb");
    assert_string_equal(sq_result_cell(rb, 1, 1)->s, "xay");
    rc = sq_fixture_table(&t->fx, table(t, "c"));
    assert_string_equal(sq_result_cell(rc, 0, 0)->s, "\xe2\x82\xac");
    sq_fixture_undo(changed, 4);
    assert_string_equal(sq_result_cell(ra, 0, 0)->s, "x\x01y");
    assert_string_equal(sq_result_cell(rb, 0, 1)->s, "\xc3\xa9t\xc3\xa9");
    sq_arena_free(arena);
}

/* A NaN REAL cannot be stored: the script writes NULL, as SQLite would. */
static void script_writes_nan_as_null(void **state) {
    T *t = *state;
    load(t, "CREATE TABLE t(r REAL);");
    SqResult *rows = sq_fixture_table(&t->fx, table(t, "t"));
    sq_result_add_row(rows)[0] = sq_value_real(NAN);
    assert_str(script(t), "CREATE TABLE t (\n  r REAL\n);\nINSERT INTO t VALUES\n  (NULL);\n");
}

static const char composite_ddl[] =
    "CREATE TABLE enroll(sid INT, cid INT, grade TEXT, PRIMARY KEY (sid, cid),\n"
    "  FOREIGN KEY (sid, cid) REFERENCES offer(s, c));\n"
    "CREATE TABLE offer(s INT, c INT NOT NULL, PRIMARY KEY (s, c));\n";

static void referenced_tables_come_first(void **state) {
    T *t = *state;
    load(t, composite_ddl);
    SqResult *e = sq_fixture_table(&t->fx, table(t, "enroll"));
    SqValue *row = sq_result_add_row(e);
    row[0] = sq_value_int(1);
    row[1] = sq_value_int(2);
    row[2] = text(e, "A");
    row = sq_result_add_row(sq_fixture_table(&t->fx, table(t, "offer")));
    row[0] = sq_value_int(1);
    row[1] = sq_value_int(2);
    assert_str(script(t), "CREATE TABLE offer (\n"
                          "  s INT,\n"
                          "  c INT NOT NULL,\n"
                          "  PRIMARY KEY (s, c)\n"
                          ");\n"
                          "CREATE TABLE enroll (\n"
                          "  sid INT,\n"
                          "  cid INT,\n"
                          "  grade TEXT,\n"
                          "  PRIMARY KEY (sid, cid),\n"
                          "  FOREIGN KEY (sid, cid) REFERENCES offer (s, c)\n"
                          ");\n"
                          "INSERT INTO offer VALUES\n"
                          "  (1, 2);\n"
                          "INSERT INTO enroll VALUES\n"
                          "  (1, 2, 'A');\n");
    SqDb *db = open_script(t);
    query(t, db, "SELECT \"table\", \"from\", \"to\" FROM pragma_foreign_key_list('enroll') "
                 "ORDER BY seq", &t->r1);
    query(t, db, "SELECT * FROM enroll JOIN offer ON (sid, cid) = (s, c)", &t->r2);
    sq_db_close(db);
    assert_int_equal(t->r1.n_rows, 2);
    assert_memory_equal(sq_result_cell(&t->r1, 1, 2)->s, "c", 2);
    assert_int_equal(t->r2.n_rows, 1);
}

/* Position of "CREATE TABLE <name> (" in the script. */
static size_t create_pos(T *t, const char *name) {
    char want[64];
    snprintf(want, sizeof want, "CREATE TABLE %s (", name);
    const char *s = script(t), *p = strstr(s, want);
    if (!p) fail_msg("no %s in:\n%s", want, s);
    return (size_t)(p - s);
}

static void chains_and_cycles_keep_an_order(void **state) {
    T *t = *state;
    load(t, "CREATE TABLE c(x REFERENCES b);\n"
            "CREATE TABLE cyc1(x REFERENCES cyc2);\n"
            "CREATE TABLE b(x REFERENCES a, y REFERENCES b);\n"
            "CREATE TABLE cyc2(x REFERENCES cyc1);\n"
            "CREATE TABLE a(x PRIMARY KEY, y REFERENCES nowhere);\n"
            "CREATE VIEW v AS SELECT 1;\n");
    assert_true(create_pos(t, "a") < create_pos(t, "b"));
    assert_true(create_pos(t, "b") < create_pos(t, "c"));
    assert_true(create_pos(t, "cyc1") < create_pos(t, "cyc2"));
    assert_null(strstr(script(t), "VIEW"));
    assert_non_null(strstr(script(t), "FOREIGN KEY (y) REFERENCES nowhere\n"));
    sq_db_close(open_script(t)); /* SQLite takes the forward references */
}

static const char constraints_ddl[] =
    "CREATE TABLE \"order\"(id INTEGER PRIMARY KEY, name TEXT NOT NULL COLLATE NOCASE UNIQUE,\n"
    "  code VARCHAR(10), \"select\" DECIMAL(10, 2), mgr REFERENCES \"order\");\n"
    "CREATE TABLE k(id INTEGER PRIMARY KEY DESC, a);\n"
    "CREATE TABLE w(a TEXT PRIMARY KEY, b INT) WITHOUT ROWID;\n"
    "CREATE TABLE s(a INTEGER, b TEXT) STRICT;\n"
    "CREATE UNIQUE INDEX s_ab ON s(a, b);\n";

static void constraints_are_written(void **state) {
    T *t = *state;
    load(t, constraints_ddl);
    assert_str(script(t), "CREATE TABLE \"order\" (\n"
                          "  id INTEGER PRIMARY KEY,\n"
                          "  name TEXT NOT NULL COLLATE NOCASE,\n"
                          "  code VARCHAR(10),\n"
                          "  \"select\" DECIMAL(10, 2),\n"
                          "  mgr,\n"
                          "  UNIQUE (name),\n"
                          "  FOREIGN KEY (mgr) REFERENCES \"order\" (id)\n"
                          ");\n"
                          "CREATE TABLE k (\n"
                          "  id INTEGER PRIMARY KEY DESC,\n"
                          "  a\n"
                          ");\n"
                          "CREATE TABLE w (\n"
                          "  a TEXT PRIMARY KEY NOT NULL,\n"
                          "  b INT\n"
                          ") WITHOUT ROWID;\n"
                          "CREATE TABLE s (\n"
                          "  a INTEGER,\n"
                          "  b TEXT,\n"
                          "  UNIQUE (a, b)\n"
                          ") STRICT;\n");
    sq_db_close(open_script(t));
}

/* The script's DDL read back gives a catalog whose script is the same, and
** the rowid alias (or its absence) survives. */
static void script_ddl_reads_back_the_same(void **state) {
    T *t = *state;
    load(t, constraints_ddl);
    char *first = sq_strdup(script(t));
    t->cat2 = catalog_of(t, first);
    SqFixture again;
    sq_fixture_init(&again, t->cat2);
    SqBuf b = SQ_BUF_INIT;
    sq_fixture_sql(&again, &b);
    assert_str(sq_buf_str(&b), first);
    const CatTable *order = sq_catalog_table(t->cat2, sq_intern_cstr(t->names, "order"));
    const CatTable *k = sq_catalog_table(t->cat2, sq_intern_cstr(t->names, "k"));
    assert_true(order->cols[0].rowid_alias);
    assert_false(k->cols[0].rowid_alias);
    assert_true(order->cols[1].not_null && order->cols[1].unique);
    assert_string_equal(order->cols[1].collation, "NOCASE");
    sq_buf_free(&b);
    sq_fixture_free(&again);
    free(first);
}

/* SQLite's idea of the columns' declared types (pragma table_info). */
static void declared_types(T *t, SqDb *db, const char *table, SqResult *out) {
    char sql[128];
    snprintf(sql, sizeof sql, "SELECT name, type FROM pragma_table_info('%s')", table);
    query(t, db, sql, out);
    sq_db_close(db);
}

/* Odd declared types reach SQLite as the source gave them. */
static void declared_types_survive(void **state) {
    T *t = *state;
    static const char ddl[] =
        "CREATE TABLE q(a \"text[]\", b unsigned big int, c double precision,\n"
        "  d varchar ( 255 ), e 'quoted', f INT KEY, g numeric(+5,-2), h [br ack],\n"
        "  i \"\"\"x\"\"\", j `y`);";
    load(t, ddl);
    CatTable *q = (CatTable *)table(t, "q"); /* a type word from a tables.json */
    sq_table_add_column(t->cat, q, "k", "my \"type\"[]", sq_span(0, 0, 0));
    SqDb *db = open_script(t);
    assert_non_null(strstr(sq_buf_str(&t->out), "  f \"INT KEY\",\n"));
    declared_types(t, db, "q", &t->r1);
    free(t->err);
    t->err = NULL;
    db = sq_db_open_memory(ddl, &t->err);
    assert_non_null(db);
    declared_types(t, db, "q", &t->r2);
    assert_int_equal(t->r1.n_rows, 11);
    assert_str(sq_result_cell(&t->r1, 10, 1)->s, "my \"type\"[]");
    t->r1.n_rows = 10; /* the last column, k, is not in the DDL */
    assert_same_rows(&t->r1, &t->r2);
}

/* A catalog from a tables.json (types mapped by its loader, keys by
** column index) makes a script SQLite runs. */
static void tables_json_catalog_loads(void **state) {
    T *t = *state;
    static const char json[] =
        "[{\"db_id\": \"d\", \"table_names_original\": [\"p\", \"c\"],\n"
        "  \"column_names_original\": [[-1, \"*\"], [0, \"id\"], [0, \"when\"], [1, \"pid\"],\n"
        "     [1, \"flag\"]],\n"
        "  \"column_types\": [\"text\", \"number\", \"time\", \"number\", \"boolean\"],\n"
        "  \"primary_keys\": [1], \"foreign_keys\": [[3, 1]]}]";
    SqSrc *src = sq_src_add_copy(&t->srcs, "tables.json", json, strlen(json));
    SqArena *a = sq_arena_new();
    const SqJson *doc = sq_tables_json_parse(a, src, &t->diags);
    assert_non_null(doc);
    t->cat = sq_catalog_new(t->names, "tables.json");
    assert_int_equal(sq_catalog_load_tables_json(t->cat, src, doc, "d", sq_span(0, 0, 0),
                                                 &t->diags), 0);
    sq_catalog_link(t->cat, &t->diags);
    sq_fixture_init(&t->fx, t->cat);
    sq_result_add_row(sq_fixture_table(&t->fx, table(t, "p")))[0] = sq_value_int(3);
    assert_str(script(t), "CREATE TABLE p (\n"
                          "  id NUMERIC PRIMARY KEY,\n"
                          "  \"when\" DATETIME\n"
                          ");\n"
                          "CREATE TABLE c (\n"
                          "  pid NUMERIC,\n"
                          "  flag BOOLEAN,\n"
                          "  FOREIGN KEY (pid) REFERENCES p (id)\n"
                          ");\n"
                          "INSERT INTO p VALUES\n"
                          "  (3, NULL);\n");
    sq_db_close(open_script(t));
    sq_arena_free(a);
}

/* ------------------------------------------------------------------ */
/* JSON and text                                                       */
/* ------------------------------------------------------------------ */

static void json_keeps_types(void **state) {
    T *t = *state;
    load(t, "CREATE TABLE t(id INTEGER PRIMARY KEY, v);\nCREATE TABLE u(a);\n");
    sq_fixture_table(&t->fx, table(t, "u")); /* asked for first, listed second */
    SqResult *r = sq_fixture_table(&t->fx, table(t, "t"));
    static const struct { int64_t id; SqValue v; } plain[] = {
        {1, {SQ_VAL_REAL, 0, 1.0, NULL, 0}},   {3, {SQ_VAL_NULL, 0, 0.0, NULL, 0}},
        {5, {SQ_VAL_REAL, 0, 1e16, NULL, 0}},  {7, {SQ_VAL_INTEGER, -3, 0.0, NULL, 0}},
        {8, {SQ_VAL_REAL, 0, NAN, NULL, 0}},   {9, {SQ_VAL_REAL, 0, -INFINITY, NULL, 0}},
    };
    for (size_t k = 0; k < SQ_ARRAY_LEN(plain); k++) {
        SqValue *row = sq_result_add_row(r);
        row[0] = sq_value_int(plain[k].id);
        row[1] = plain[k].v;
    }
    SqValue *row = sq_result_add_row(r);
    row[0] = sq_value_int(2);
    row[1] = text(r, "\xc3\xa9\"");
    row = sq_result_add_row(r);
    row[0] = sq_value_int(4);
    row[1] = sq_result_blob(r, "\x00\xff", 2);
    row = sq_result_add_row(r);
    row[0] = sq_value_int(6);
    row[1] = text(r, "\xff");
    SqJsonWriter w;
    sq_jw_init(&w, &t->out, 0);
    sq_fixture_json(&t->fx, &w);
    assert_str(sq_buf_str(&t->out),
               "{\"tables\":[{\"name\":\"t\",\"columns\":[\"id\",\"v\"],\"rows\":[[1,1.0],"
               "[3,null],[5,1e+16],[7,-3],[8,null],[9,-9e999],[2,\"\xc3\xa9\\\"\"],"
               "[4,{\"blob\":\"00ff\"}],[6,{\"text\":\"ff\"}]]},"
               "{\"name\":\"u\",\"columns\":[\"a\"],\"rows\":[]}]}");
}

static void json_pretty_is_valid(void **state) {
    T *t = *state;
    load(t, "CREATE TABLE t(a);\n");
    sq_result_add_row(sq_fixture_table(&t->fx, table(t, "t")))[0] = sq_value_real(2.5);
    SqJsonWriter w;
    sq_jw_init(&w, &t->out, 1);
    sq_fixture_json(&t->fx, &w);
    assert_str(sq_buf_str(&t->out), "{\n"
                                    "  \"tables\": [\n"
                                    "    {\n"
                                    "      \"name\": \"t\",\n"
                                    "      \"columns\": [\n"
                                    "        \"a\"\n"
                                    "      ],\n"
                                    "      \"rows\": [\n"
                                    "        [\n"
                                    "          2.5\n"
                                    "        ]\n"
                                    "      ]\n"
                                    "    }\n"
                                    "  ]\n"
                                    "}");
}

static void text_tables(void **state) {
    T *t = *state;
    load(t, "CREATE TABLE emp(id INTEGER PRIMARY KEY, name TEXT);\n"
            "CREATE TABLE dept(d);\nCREATE TABLE proj(p);\n");
    SqResult *e = sq_fixture_table(&t->fx, table(t, "emp"));
    SqValue *row = sq_result_add_row(e);
    row[0] = sq_value_int(1);
    row[1] = text(e, "a");
    row = sq_result_add_row(e);
    row[0] = sq_value_int(10);
    row[1] = text(e, "\xc3\xa9");
    sq_fixture_table(&t->fx, table(t, "dept")); /* empty: not shown */
    sq_result_add_row(sq_fixture_table(&t->fx, table(t, "proj")));
    sq_fixture_text(&t->fx, &t->out);
    assert_str(sq_buf_str(&t->out), "emp\n"
                                    "+----+------+\n"
                                    "| id | name |\n"
                                    "+----+------+\n"
                                    "| 1  | 'a'  |\n"
                                    "| 10 | '\xc3\xa9'  |\n"
                                    "+----+------+\n"
                                    "\n"
                                    "proj\n"
                                    "+------+\n"
                                    "| p    |\n"
                                    "+------+\n"
                                    "| NULL |\n"
                                    "+------+\n");
}

static void side_by_side(void **state) {
    T *t = *state;
    sq_result_start(&t->r1, 1);
    sq_result_set_name(&t->r1, 0, "a");
    sq_result_add_row(&t->r1)[0] = sq_value_int(1);
    sq_result_add_row(&t->r1)[0] = sq_value_real(2.0);
    sq_result_start(&t->r2, 2);
    sq_result_set_name(&t->r2, 0, "a");
    sq_result_set_name(&t->r2, 1, "b");
    sq_result_side_by_side(&t->r1, "Q1", &t->r2, "Q2", &t->out);
    assert_str(sq_buf_str(&t->out), "Q1         Q2\n"
                                    "+-----+    +---+---+\n"
                                    "| a   |    | a | b |\n"
                                    "+-----+    +---+---+\n"
                                    "| 1   |    (no rows)\n"
                                    "| 2.0 |\n"
                                    "+-----+\n");
    sq_buf_reset(&t->out);
    sq_result_side_by_side(&t->r2, "Q2", &t->r1, "Q1", &t->out);
    assert_str(sq_buf_str(&t->out), "Q2           Q1\n"
                                    "+---+---+    +-----+\n"
                                    "| a | b |    | a   |\n"
                                    "+---+---+    +-----+\n"
                                    "(no rows)    | 1   |\n"
                                    "             | 2.0 |\n"
                                    "             +-----+\n");
}

/* Widths count code points, so the second table lines up after UTF-8. */
static void side_by_side_counts_code_points(void **state) {
    T *t = *state;
    sq_result_start(&t->r1, 1);
    sq_result_set_name(&t->r1, 0, "na\xc3\xafve");
    sq_result_add_row(&t->r1)[0] = text(&t->r1, "\xc3\xbc");
    sq_result_start(&t->r2, 1);
    sq_result_set_name(&t->r2, 0, "x");
    sq_result_add_row(&t->r2)[0] = sq_value_int(1);
    sq_result_side_by_side(&t->r1, "gold \xe2\x9c\x93", &t->r2, "pred", &t->out);
    assert_str(sq_buf_str(&t->out), "gold \xe2\x9c\x93       pred\n"
                                    "+-------+    +---+\n"
                                    "| na\xc3\xafve |    | x |\n"
                                    "+-------+    +---+\n"
                                    "| '\xc3\xbc'   |    | 1 |\n"
                                    "+-------+    +---+\n");
    sq_buf_reset(&t->out);
    SqResult none;
    sq_result_init(&none);
    sq_result_side_by_side(&none, "Q1", &t->r2, NULL, &t->out);
    assert_str(sq_buf_str(&t->out), "Q1              +---+\n"
                                    "(no columns)    | x |\n"
                                    "                +---+\n"
                                    "                | 1 |\n"
                                    "                +---+\n");
}

/* ------------------------------------------------------------------ */
/* Running two queries                                                 */
/* ------------------------------------------------------------------ */

static void load_duplicates(T *t) {
    load(t, "CREATE TABLE t(a INT);");
    SqResult *r = sq_fixture_table(&t->fx, table(t, "t"));
    sq_result_add_row(r)[0] = sq_value_int(1);
    sq_result_add_row(r)[0] = sq_value_int(1);
    sq_result_add_row(r)[0] = sq_value_int(2);
}

static int differs(T *t, const char *q1, const char *q2, SqCompareMode mode) {
    free(t->err);
    t->err = NULL;
    return sq_fixture_differs(&t->fx, q1, q2, mode, 0, &t->r1, &t->r2, &t->err);
}

static void differs_by_compare_mode(void **state) {
    T *t = *state;
    load_duplicates(t);
    const char *all = "SELECT a FROM t", *distinct = "SELECT DISTINCT a FROM t";
    assert_int_equal(differs(t, all, distinct, SQ_CMP_SET), 0);
    assert_null(t->err);
    assert_int_equal(t->r1.n_rows, 3);
    assert_int_equal(t->r2.n_rows, 2);
    assert_int_equal(differs(t, all, distinct, SQ_CMP_BAG), 1);
    assert_int_equal(differs(t, all, "SELECT a FROM t WHERE a > 1", SQ_CMP_SET), 1);
    assert_int_equal(differs(t, all, "SELECT a FROM t ORDER BY a DESC", SQ_CMP_BAG), 0);
    assert_int_equal(differs(t, all, "SELECT a FROM t ORDER BY a DESC", SQ_CMP_LIST), 1);
}

static void differs_reports_failures(void **state) {
    T *t = *state;
    load_duplicates(t);
    assert_int_equal(differs(t, "SELECT nope FROM t", "SELECT a FROM t", SQ_CMP_BAG), -1);
    assert_str(t->err, "query 1: no such column: nope");
    assert_int_equal(differs(t, "SELECT a FROM t", "SELEC a", SQ_CMP_BAG), -1);
    assert_non_null(strstr(t->err, "query 2: "));
    assert_int_equal(differs(t, "SELECT a FROM t", "DELETE FROM t", SQ_CMP_BAG), -1);
    assert_non_null(strstr(t->err, "not authorized"));
    SqExecLimits lim = {0.05, 0, 0, 0, 0};
    free(t->err);
    t->err = NULL;
    const char *forever = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) "
                          "SELECT count(*) FROM c";
    assert_int_equal(sq_fixture_differs_ex(&t->fx, "SELECT 1", forever, SQ_CMP_BAG, 0, &lim,
                                           &t->r1, &t->r2, &t->err), -1);
    assert_str(t->err, "query 2: query timed out after 0.05 s");
}

static void differs_reports_a_fixture_that_does_not_load(void **state) {
    T *t = *state;
    load(t, "CREATE TABLE t(a INT NOT NULL);");
    sq_result_add_row(sq_fixture_table(&t->fx, table(t, "t")));
    assert_int_equal(differs(t, "SELECT 1", "SELECT 1", SQ_CMP_BAG), -1);
    assert_non_null(strstr(t->err, "the fixture does not load: "));
    assert_non_null(strstr(t->err, "NOT NULL constraint failed: t.a"));
}

/* ------------------------------------------------------------------ */
/* .sqlite files                                                       */
/* ------------------------------------------------------------------ */

static void make_dir(T *t) {
    strcpy(t->dir, "/tmp/sq_test_fixture_XXXXXX");
    if (!mkdtemp(t->dir)) fail_msg("mkdtemp failed");
}

static void path_in(T *t, char *p, size_t n, const char *name) {
    snprintf(p, n, "%s/%s", t->dir, name);
}

static void write_file(const char *path, const char *content) {
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(content, f);
    fclose(f);
}

static int write_sqlite(T *t, const char *path) {
    free(t->err);
    t->err = NULL;
    return sq_fixture_write_sqlite(&t->fx, path, &t->err);
}

/* The rows of t in the file at path, into t->r1. */
static void read_back(T *t, const char *path) {
    free(t->err);
    t->err = NULL;
    SqDb *db = sq_db_open(path, &t->err);
    if (!db) fail_msg("%s: %s", path, t->err);
    query(t, db, "SELECT * FROM t ORDER BY id", &t->r1);
    sq_db_close(db);
}

static int n_files(T *t) {
    DIR *d = opendir(t->dir);
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

static void write_sqlite_reads_back(void **state) {
    T *t = *state;
    make_dir(t);
    load(t, "CREATE TABLE t(id INTEGER PRIMARY KEY, v, s TEXT, r REAL, i INT);");
    SqResult *rows = sq_fixture_table(&t->fx, table(t, "t"));
    fill_mixed(rows);
    char path[128], empty[128];
    path_in(t, path, sizeof path, "out.sqlite");
    if (write_sqlite(t, path) != 0) fail_msg("%s", t->err);
    read_back(t, path);
    assert_same_rows(&t->r1, rows);
    sq_result_add_row(rows)[0] = sq_value_int(6); /* a SQLite file is replaced */
    if (write_sqlite(t, path) != 0) fail_msg("%s", t->err);
    read_back(t, path);
    assert_same_rows(&t->r1, rows);
    path_in(t, empty, sizeof empty, "empty.sqlite"); /* so is an empty file */
    write_file(empty, "");
    if (write_sqlite(t, empty) != 0) fail_msg("%s", t->err);
    read_back(t, empty);
    assert_int_equal(t->r1.n_rows, 6);
    assert_int_equal(n_files(t), 2); /* no temporary file left */
}

static void write_sqlite_refuses_other_files(void **state) {
    T *t = *state;
    make_dir(t);
    load(t, "CREATE TABLE t(id INTEGER PRIMARY KEY);");
    sq_result_add_row(sq_fixture_table(&t->fx, table(t, "t")))[0] = sq_value_int(1);
    char path[128], side[160];
    path_in(t, path, sizeof path, "notes.txt");
    write_file(path, "keep me\n");
    assert_int_equal(write_sqlite(t, path), -1);
    assert_non_null(strstr(t->err, "neither empty nor a SQLite database"));
    int e = 0;
    size_t n = 0;
    char *kept = sq_read_file(path, &n, &e);
    assert_string_equal(kept, "keep me\n");
    free(kept);
    assert_int_equal(write_sqlite(t, t->dir), -1); /* a directory */
    assert_non_null(strstr(t->err, "neither empty nor a SQLite database"));
    path_in(t, path, sizeof path, "db.sqlite"); /* a leftover journal */
    snprintf(side, sizeof side, "%s-journal", path);
    write_file(side, "x");
    assert_int_equal(write_sqlite(t, path), -1);
    assert_non_null(strstr(t->err, "-journal' exists"));
    unlink(side);
    assert_int_equal(write_sqlite(t, path), 0);
    assert_int_equal(n_files(t), 2);
}

/* A script that fails leaves the file as it was. */
static void write_sqlite_failure_keeps_the_old_file(void **state) {
    T *t = *state;
    make_dir(t);
    load(t, "CREATE TABLE t(id INTEGER PRIMARY KEY NOT NULL);");
    SqResult *rows = sq_fixture_table(&t->fx, table(t, "t"));
    sq_result_add_row(rows)[0] = sq_value_int(1);
    char path[128];
    path_in(t, path, sizeof path, "out.sqlite");
    assert_int_equal(write_sqlite(t, path), 0);
    sq_result_add_row(rows)[0] = sq_value_int(1); /* a duplicate key */
    assert_int_equal(write_sqlite(t, path), -1);
    assert_non_null(strstr(t->err, "UNIQUE constraint failed"));
    assert_non_null(strstr(t->err, "out.sqlite'"));
    read_back(t, path);
    assert_int_equal(t->r1.n_rows, 1);
    assert_int_equal(n_files(t), 1);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        FX_TEST(script_rebuilds_rows_and_storage_classes),
        FX_TEST(script_writes_nan_as_null),
        FX_TEST(referenced_tables_come_first),
        FX_TEST(chains_and_cycles_keep_an_order),
        FX_TEST(constraints_are_written),
        FX_TEST(script_ddl_reads_back_the_same),
        FX_TEST(declared_types_survive),
        FX_TEST(tables_json_catalog_loads),
        FX_TEST(json_keeps_types),
        FX_TEST(json_pretty_is_valid),
        FX_TEST(text_tables),
        FX_TEST(side_by_side),
        FX_TEST(side_by_side_counts_code_points),
        FX_TEST(differs_by_compare_mode),
        FX_TEST(differs_reports_failures),
        FX_TEST(differs_reports_a_fixture_that_does_not_load),
        FX_TEST(readable_text_keeps_equal_values_equal),
        FX_TEST(write_sqlite_reads_back),
        FX_TEST(write_sqlite_refuses_other_files),
        FX_TEST(write_sqlite_failure_keeps_the_old_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
