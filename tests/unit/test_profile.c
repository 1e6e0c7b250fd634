/* test_profile.c -- backend/profile: shapes (C and SQL alike), profiles scanned from small databases, read from
** metadata and through the cache, and counterexample kinds on crafted fixtures. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backend/profile/profile.h"
#include "backend/sqlite/db.h"
#include "runtime/util.h"

/* ------------------------------------------------------------------ */
/* Setup: a temporary directory, a catalog from DDL, a profile          */
/* ------------------------------------------------------------------ */

typedef struct T {
    SqSrcSet srcs;
    SqDiags diags;
    SqInterner *names;
    Catalog *cat;
    SqProfile prof, prof2;
    SqFixture fx;
    SqResult r1, r2;
    SqCexKinds kinds;
    SqBuf out;
    char *err;
    char dir[64];
    char path[160];   /* the database */
    char cache[160];  /* the cache directory */
} T;

static int setup(void **state) {
    T *t = sq_calloc(1, sizeof *t);
    sq_srcset_init(&t->srcs);
    sq_diags_init(&t->diags, &t->srcs);
    t->names = sq_interner_new();
    sq_result_init(&t->r1);
    sq_result_init(&t->r2);
    strcpy(t->dir, "/tmp/sq_test_profile_XXXXXX");
    if (!mkdtemp(t->dir)) fail_msg("mkdtemp failed");
    snprintf(t->path, sizeof t->path, "%s/db.sqlite", t->dir);
    snprintf(t->cache, sizeof t->cache, "%s/cache", t->dir);
    *state = t;
    return 0;
}

static void remove_dir(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) return;
    char p[512];
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        struct stat st;
        if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode)) remove_dir(p);
        else unlink(p);
    }
    closedir(d);
    rmdir(dir);
}

static int teardown(void **state) {
    T *t = *state;
    remove_dir(t->dir);
    sq_cex_kinds_free(&t->kinds);
    sq_fixture_free(&t->fx);
    sq_profile_free(&t->prof);
    sq_profile_free(&t->prof2);
    sq_catalog_free(t->cat);
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

#define PR_TEST(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

/* The database t->path built by script (DDL and INSERTs), and the catalog
** of its DDL. */
static void make_db(T *t, const char *ddl, const char *rows) {
    SqBuf s = SQ_BUF_INIT;
    sq_buf_printf(&s, "%s\n%s", ddl, rows);
    char *err = NULL;
    if (sq_db_write_file(t->path, sq_buf_str(&s), &err) != 0) fail_msg("db: %s", err);
    sq_buf_free(&s);
    SqSrc *src = sq_src_add_copy(&t->srcs, "schema.sql", ddl, strlen(ddl));
    t->cat = sq_catalog_new(t->names, "schema.sql");
    assert_int_equal(sq_catalog_load_ddl(t->cat, src, &t->diags), 0);
    sq_catalog_link(t->cat, &t->diags);
}

static const CatTable *table(T *t, const char *name) {
    const CatTable *tab = sq_catalog_table(t->cat, sq_intern_cstr(t->names, name));
    if (!tab) fail_msg("no table %s", name);
    return tab;
}

static const SqColumnProfile *column(T *t, const SqProfile *p, const char *tab, uint32_t col) {
    const SqColumnProfile *cp = sq_profile_column(p, table(t, tab), col);
    if (!cp) fail_msg("no profile for %s.%u", tab, col);
    return cp;
}

static SqValue text_value(const char *s) {
    SqValue v = sq_value_null();
    v.type = SQ_VAL_TEXT;
    v.s = s;
    v.n = (uint32_t)strlen(s);
    return v;
}

static void assert_text(const SqValue *v, const char *s) {
    if (v->type != SQ_VAL_TEXT || v->n != strlen(s) || memcmp(v->s, s, v->n) != 0) fail_msg("want '%s'", s);
}

static void assert_int_value(const SqValue *v, int64_t i) {
    if (v->type != SQ_VAL_INTEGER || v->i != i) fail_msg("want %lld", (long long)i);
}

/* ------------------------------------------------------------------ */
/* Shapes                                                              */
/* ------------------------------------------------------------------ */

static const struct {
    const char *text;
    unsigned shape;
} shape_cases[] = {
    {"2019-03-04", SQ_SHAPE_DATE},
    {"9999-99-99", SQ_SHAPE_DATE}, /* the form, not the calendar */
    {"2019-03-04 10:20", SQ_SHAPE_DATETIME},
    {"2019-03-04T10:20:30", SQ_SHAPE_DATETIME},
    {"2019-03-04 10:20:30.125", SQ_SHAPE_DATETIME},
    {"2019-03-04 10:20:30.", SQ_SHAPE_OTHER_TEXT},
    {"2019-03-04 10:20:3", SQ_SHAPE_OTHER_TEXT},
    {"2019-03-04x", SQ_SHAPE_OTHER_TEXT},
    {"2019-03-04 10:20:30Z", SQ_SHAPE_OTHER_TEXT},
    {"2019-3-04", SQ_SHAPE_OTHER_TEXT},
    {"10:20", SQ_SHAPE_TIME},
    {"10:20:30", SQ_SHAPE_TIME},
    {"10:20:30.5", SQ_SHAPE_TIME},
    {"10:20:30.5x", SQ_SHAPE_OTHER_TEXT},
    {"1:20", SQ_SHAPE_OTHER_TEXT},
    {"42", SQ_SHAPE_INT_TEXT},
    {"-7", SQ_SHAPE_INT_TEXT},
    {"+7", SQ_SHAPE_INT_TEXT},
    {"007", SQ_SHAPE_INT_TEXT},
    {"-", SQ_SHAPE_OTHER_TEXT},
    {"3.5", SQ_SHAPE_DEC_TEXT},
    {"-0.25", SQ_SHAPE_DEC_TEXT},
    {".5", SQ_SHAPE_DEC_TEXT},
    {"5.", SQ_SHAPE_DEC_TEXT},
    {".", SQ_SHAPE_OTHER_TEXT},
    {"-.", SQ_SHAPE_OTHER_TEXT},
    {"1.2.3", SQ_SHAPE_OTHER_TEXT},
    {"1e5", SQ_SHAPE_OTHER_TEXT},
    {" 42", SQ_SHAPE_OTHER_TEXT},
    {"", SQ_SHAPE_OTHER_TEXT},
    {"abc", SQ_SHAPE_OTHER_TEXT},
};

static void shapes_of_values(void **state) {
    (void)state;
    for (size_t i = 0; i < SQ_ARRAY_LEN(shape_cases); i++) {
        SqValue v = text_value(shape_cases[i].text);
        if (sq_value_shape(&v) != shape_cases[i].shape)
            fail_msg("'%s': %s, want %s", shape_cases[i].text, sq_shape_name(sq_value_shape(&v)),
                     sq_shape_name(shape_cases[i].shape));
    }
    SqValue n = sq_value_null(), i = sq_value_int(3), r = sq_value_real(1.5), b = text_value("x");
    b.type = SQ_VAL_BLOB;
    assert_int_equal(sq_value_shape(&n), 0);
    assert_int_equal(sq_value_shape(&i), SQ_SHAPE_INTEGER);
    assert_int_equal(sq_value_shape(&r), SQ_SHAPE_REAL);
    assert_int_equal(sq_value_shape(&b), SQ_SHAPE_BLOB);
    assert_string_equal(sq_shape_name(SQ_SHAPE_DATE), "date");
    assert_string_equal(sq_shape_name(SQ_SHAPE_DEC_TEXT), "decimal text");
}

/* The scan classifies in SQL: each case alone in a table of its own must
** come out as sq_value_shape says. */
static void scan_shapes_match_value_shapes(void **state) {
    T *t = *state;
    SqBuf ddl = SQ_BUF_INIT, rows = SQ_BUF_INIT;
    for (size_t i = 0; i < SQ_ARRAY_LEN(shape_cases); i++) {
        sq_buf_printf(&ddl, "CREATE TABLE s%zu(v TEXT);\n", i);
        sq_buf_printf(&rows, "INSERT INTO s%zu VALUES('%s');\n", i, shape_cases[i].text);
    }
    sq_buf_puts(&ddl, "CREATE TABLE n(v);\n");
    sq_buf_puts(&rows, "INSERT INTO n VALUES(1), (2.5), (x'00'), (NULL);\n");
    make_db(t, sq_buf_str(&ddl), sq_buf_str(&rows));
    assert_int_equal(sq_profile_from_db(&t->prof, t->cat, t->path, &t->err), 0);
    char name[32];
    for (size_t i = 0; i < SQ_ARRAY_LEN(shape_cases); i++) {
        snprintf(name, sizeof name, "s%zu", i);
        const SqColumnProfile *cp = column(t, &t->prof, name, 0);
        if (cp->shapes != shape_cases[i].shape)
            fail_msg("'%s': the scan says %s, want %s", shape_cases[i].text, sq_shape_name(cp->shapes),
                     sq_shape_name(shape_cases[i].shape));
    }
    assert_int_equal(column(t, &t->prof, "n", 0)->shapes, SQ_SHAPE_INTEGER | SQ_SHAPE_REAL | SQ_SHAPE_BLOB);
    sq_buf_free(&ddl);
    sq_buf_free(&rows);
}

/* ------------------------------------------------------------------ */
/* Scanning a database                                                 */
/* ------------------------------------------------------------------ */

static const char singer_ddl[] =
    "CREATE TABLE singer(id INTEGER PRIMARY KEY, name TEXT, age INTEGER, born TEXT, score REAL);\n"
    "CREATE TABLE empty_t(x INTEGER);\n"
    "CREATE VIEW v AS SELECT name FROM singer;\n";
static const char singer_rows[] =
    "INSERT INTO singer VALUES(1, 'Ann', 30, '1990-01-02', 1.5), (2, 'Bob', 30, '1991-05-06', NULL),"
    " (3, 'Cy', 41, '1982-07-08 10:00', 2.0), (4, 'Dee', NULL, 'unknown', NULL), (5, 'Eve', 30, '1990-01-02', 1.5);\n";

static void scan_counts_and_values(void **state) {
    T *t = *state;
    make_db(t, singer_ddl, singer_rows);
    assert_int_equal(sq_profile_from_db(&t->prof, t->cat, t->path, &t->err), 0);
    assert_int_equal(t->prof.source, SQ_PROFILE_DATABASE);
    assert_int_equal(t->prof.n_cols, 6); /* singer's 5 and empty_t's 1; not the view */
    assert_null(sq_profile_column(&t->prof, table(t, "v"), 0));

    const SqColumnProfile *id = column(t, &t->prof, "singer", 0);
    assert_int_equal(id->rows, 5);
    assert_int_equal(id->nulls, 0);
    assert_int_equal(id->distinct, 5);
    assert_true(sq_profile_never_null(id));
    assert_true(sq_profile_unique(id));
    assert_int_equal(id->shapes, SQ_SHAPE_INTEGER);
    assert_true(id->has_range);
    assert_int_value(&id->min, 1);
    assert_int_value(&id->max, 5);
    assert_int_equal(id->n_common, 5);
    assert_int_value(&id->common[0], 1); /* ties in count: by value */
    assert_int_equal(id->common_count[0], 1);

    const SqColumnProfile *age = column(t, &t->prof, "singer", 2);
    assert_int_equal(age->rows, 5);
    assert_int_equal(age->nulls, 1);
    assert_int_equal(age->distinct, 2);
    assert_false(sq_profile_never_null(age));
    assert_false(sq_profile_unique(age));
    assert_int_value(&age->min, 30);
    assert_int_value(&age->max, 41);
    assert_int_equal(age->n_common, 2);
    assert_int_value(&age->common[0], 30);
    assert_int_equal(age->common_count[0], 3);
    assert_int_value(&age->common[1], 41);
    assert_int_equal(age->common_count[1], 1);

    const SqColumnProfile *born = column(t, &t->prof, "singer", 3);
    assert_int_equal(born->nulls, 0);
    assert_int_equal(born->distinct, 4);
    assert_int_equal(born->shapes, SQ_SHAPE_DATE | SQ_SHAPE_DATETIME | SQ_SHAPE_OTHER_TEXT);
    assert_text(&born->min, "1982-07-08 10:00");
    assert_text(&born->max, "unknown");
    assert_text(&born->common[0], "1990-01-02");
    assert_int_equal(born->common_count[0], 2);

    const SqColumnProfile *name = column(t, &t->prof, "singer", 1);
    assert_true(sq_profile_unique(name));
    assert_int_equal(name->shapes, SQ_SHAPE_OTHER_TEXT);

    const SqColumnProfile *score = column(t, &t->prof, "singer", 4);
    assert_int_equal(score->nulls, 2);
    assert_int_equal(score->distinct, 2);
    assert_int_equal(score->shapes, SQ_SHAPE_REAL); /* 2.0 in a REAL column is stored as a REAL */
    assert_int_equal(score->min.type, SQ_VAL_REAL);
    assert_true(score->min.r == 1.5 && score->max.r == 2.0);

    const SqColumnProfile *x = column(t, &t->prof, "empty_t", 0);
    assert_int_equal(x->rows, 0);
    assert_int_equal(x->nulls, 0);
    assert_false(sq_profile_never_null(x)); /* an empty table shows nothing */
    assert_false(sq_profile_unique(x));
    assert_false(x->has_range);
    assert_int_equal(x->n_common, 0);
}

/* A table the file lacks: its counts stay unknown, the rest is scanned. */
static void scan_leaves_missing_tables_unknown(void **state) {
    T *t = *state;
    make_db(t, "CREATE TABLE a(x INTEGER);", "INSERT INTO a VALUES(1);");
    SqSrc *src = sq_src_add_copy(&t->srcs, "more.sql", "CREATE TABLE b(y);", 18);
    assert_int_equal(sq_catalog_load_ddl(t->cat, src, &t->diags), 0);
    assert_int_equal(sq_profile_from_db(&t->prof, t->cat, t->path, &t->err), 0);
    assert_int_equal(column(t, &t->prof, "a", 0)->rows, 1);
    const SqColumnProfile *y = column(t, &t->prof, "b", 0);
    assert_int_equal(y->rows, -1);
    assert_int_equal(y->nulls, -1);
    assert_false(sq_profile_never_null(y));
}

static void scan_of_a_missing_file_fails(void **state) {
    T *t = *state;
    make_db(t, "CREATE TABLE a(x);", "");
    assert_int_equal(sq_profile_from_db(&t->prof, t->cat, "/nonexistent/x.sqlite", &t->err), -1);
    assert_non_null(t->err);
}

/* ------------------------------------------------------------------ */
/* Metadata                                                            */
/* ------------------------------------------------------------------ */

static const char metadata[] =
    "[{\"name\": \"other\", \"tables\": []},\n"
    " {\"name\": \"club\", \"tables\": [\n"
    "   {\"name\": \"Member\", \"row_count\": 40, \"columns\": [\n"
    "     {\"name\": \"member_id\", \"type\": \"text\", \"null_fraction\": 0.0, \"unique_count\": 40,\n"
    "      \"unique_fraction\": 1.0, \"sample_values\": [\"rec1\", \"rec2\"], \"min_value\": \"rec1\",\n"
    "      \"max_value\": \"rec9\"},\n"
    "     {\"NAME\": \"ignored\"},\n"
    "     {\"name\": \"JOINED\", \"type\": \"date\", \"null_fraction\": 0.125, \"unique_fraction\": 0.5,\n"
    "      \"sample_values\": [\"2019-09-10\", \"2020-01-02\"], \"min_value\": null, \"max_value\": null},\n"
    "     {\"name\": \"zip\", \"type\": \"integer\", \"null_fraction\": 0.0, \"unique_count\": 12,\n"
    "      \"unique_fraction\": 0.3, \"sample_values\": [28092, 2.5, \"x\"], \"min_value\": 1, \"max_value\": 99.5}\n"
    "   ]}]}]\n";

static void metadata_gives_counts_and_samples(void **state) {
    T *t = *state;
    make_db(t, "CREATE TABLE member(member_id TEXT PRIMARY KEY, joined TEXT, zip INTEGER, extra TEXT);", "");
    t->cat->db_id = "club";
    char path[200];
    snprintf(path, sizeof path, "%s/meta.json", t->dir);
    FILE *f = fopen(path, "w");
    fputs(metadata, f);
    fclose(f);
    assert_int_equal(sq_profile_from_metadata(&t->prof, t->cat, path, &t->err), 0);
    assert_int_equal(t->prof.source, SQ_PROFILE_METADATA);

    const SqColumnProfile *id = column(t, &t->prof, "member", 0);
    assert_int_equal(id->rows, 40);
    assert_int_equal(id->nulls, 0);
    assert_int_equal(id->distinct, 40);
    assert_true(sq_profile_unique(id));
    assert_int_equal(id->shapes, SQ_SHAPE_OTHER_TEXT);
    assert_int_equal(id->n_common, 2);
    assert_text(&id->common[1], "rec2");
    assert_int_equal(id->common_count[1], -1);
    assert_true(id->has_range);
    assert_text(&id->max, "rec9");

    const SqColumnProfile *joined = column(t, &t->prof, "member", 1);
    assert_int_equal(joined->nulls, 5);     /* 0.125 x 40 */
    assert_int_equal(joined->distinct, 20); /* no unique_count: 0.5 x 40 */
    assert_int_equal(joined->shapes, SQ_SHAPE_DATE);
    assert_false(joined->has_range);

    const SqColumnProfile *zip = column(t, &t->prof, "member", 2);
    assert_int_equal(zip->distinct, 12); /* unique_count wins over the fraction */
    assert_int_equal(zip->shapes, SQ_SHAPE_INTEGER | SQ_SHAPE_REAL | SQ_SHAPE_OTHER_TEXT);
    assert_int_value(&zip->min, 1);
    assert_int_equal(zip->max.type, SQ_VAL_REAL);

    const SqColumnProfile *extra = column(t, &t->prof, "member", 3); /* not in the file */
    assert_int_equal(extra->rows, -1);
    assert_int_equal(extra->nulls, -1);

    sq_profile_free(&t->prof);
    t->cat->db_id = "nope";
    assert_int_equal(sq_profile_from_metadata(&t->prof, t->cat, path, &t->err), -1);
    assert_non_null(strstr(t->err, "no database named nope"));
}

/* ------------------------------------------------------------------ */
/* The cache                                                           */
/* ------------------------------------------------------------------ */

/* The one file in the cache directory (its name is a digest). */
static void cache_file(T *t, char *out, size_t n) {
    DIR *d = opendir(t->cache);
    if (!d) fail_msg("no cache directory");
    out[0] = 0;
    int count = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        if (e->d_name[0] != '.') snprintf(out, n, "%s/%s", t->cache, e->d_name), count++;
    closedir(d);
    assert_int_equal(count, 1);
}

static char *slurp(const char *path) {
    size_t n;
    int e;
    char *s = sq_read_file(path, &n, &e);
    if (!s) fail_msg("cannot read %s", path);
    return s;
}

static void spill(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
}

/* Give the database a fixed modification time (no clock read). */
static void set_mtime(T *t, time_t when) {
    struct timespec ts[2] = {{when, 0}, {when, 0}};
    assert_int_equal(utimensat(AT_FDCWD, t->path, ts, 0), 0);
}

static void load(T *t, SqProfile *p) {
    sq_profile_free(p);
    if (sq_profile_load(p, t->cat, t->path, t->cache, &t->err) != 0) fail_msg("load: %s", t->err);
}

static void cache_is_read_back(void **state) {
    T *t = *state;
    make_db(t, singer_ddl, singer_rows);
    set_mtime(t, 1000000000);
    load(t, &t->prof);
    assert_false(t->prof.from_cache);
    char file[512];
    cache_file(t, file, sizeof file);
    char *text = slurp(file);
    assert_true(strncmp(text, "{\"format\":\"squint-profile\"", 26) == 0);
    free(text);

    load(t, &t->prof2);
    assert_true(t->prof2.from_cache);
    assert_string_equal(t->prof2.origin, t->path);
    assert_int_equal(t->prof2.n_cols, t->prof.n_cols);
    for (uint32_t i = 0; i < t->prof.n_cols; i++) {
        const SqColumnProfile *a = &t->prof.cols[i], *b = &t->prof2.cols[i];
        assert_ptr_equal(a->table, b->table);
        assert_int_equal(a->rows, b->rows);
        assert_int_equal(a->nulls, b->nulls);
        assert_int_equal(a->distinct, b->distinct);
        assert_int_equal(a->shapes, b->shapes);
        assert_int_equal(a->has_range, b->has_range);
        if (a->has_range) {
            assert_int_equal(a->min.type, b->min.type);
            assert_true(sq_value_equal(&a->min, &b->min) && sq_value_equal(&a->max, &b->max));
        }
        assert_int_equal(a->n_common, b->n_common);
        for (uint32_t k = 0; k < a->n_common; k++) {
            assert_int_equal(a->common[k].type, b->common[k].type);
            assert_true(sq_value_equal(&a->common[k], &b->common[k]));
            assert_int_equal(a->common_count[k], b->common_count[k]);
        }
    }
}

/* What the cache says is what a load gives: a count changed in the file
** shows up (so the file is read), until the database changes. */
static void cache_is_used_until_the_database_changes(void **state) {
    T *t = *state;
    make_db(t, singer_ddl, singer_rows);
    set_mtime(t, 1000000000);
    load(t, &t->prof);
    char file[512];
    cache_file(t, file, sizeof file);
    char *text = slurp(file);
    char *at = strstr(text, "\"rows\":5,");
    assert_non_null(at);
    memcpy(at, "\"rows\":7,", 9);
    spill(file, text);
    free(text);

    load(t, &t->prof);
    assert_true(t->prof.from_cache);
    assert_int_equal(t->prof.cols[0].rows, 7);

    set_mtime(t, 1000000001); /* touched */
    load(t, &t->prof);
    assert_false(t->prof.from_cache);
    assert_int_equal(t->prof.cols[0].rows, 5);
    load(t, &t->prof);
    assert_true(t->prof.from_cache); /* rewritten */
    assert_int_equal(t->prof.cols[0].rows, 5);
}

/* A cache file of ours that is broken is ignored and rewritten; a file
** that is not ours is never replaced. */
static void cache_never_replaces_a_foreign_file(void **state) {
    T *t = *state;
    make_db(t, singer_ddl, singer_rows);
    set_mtime(t, 1000000000);
    load(t, &t->prof);
    char file[512];
    cache_file(t, file, sizeof file);

    spill(file, "{\"format\":\"squint-profile\", broken");
    load(t, &t->prof);
    assert_false(t->prof.from_cache);
    load(t, &t->prof);
    assert_true(t->prof.from_cache);

    spill(file, "somebody else's notes\n");
    load(t, &t->prof);
    assert_false(t->prof.from_cache);
    assert_int_equal(t->prof.cols[0].rows, 5);
    char *text = slurp(file);
    assert_string_equal(text, "somebody else's notes\n");
    free(text);
}

/* A catalog with a column the cache does not name: scanned again. */
static void cache_of_another_catalog_is_stale(void **state) {
    T *t = *state;
    make_db(t, "CREATE TABLE a(x INTEGER);", "INSERT INTO a VALUES(1), (2);");
    set_mtime(t, 1000000000);
    load(t, &t->prof);
    SqSrc *src = sq_src_add_copy(&t->srcs, "more.sql", "CREATE TABLE b(y);", 18);
    assert_int_equal(sq_catalog_load_ddl(t->cat, src, &t->diags), 0);
    load(t, &t->prof2);
    assert_false(t->prof2.from_cache);
    assert_int_equal(t->prof2.n_cols, 2);
    load(t, &t->prof2);
    assert_true(t->prof2.from_cache);
}

/* ------------------------------------------------------------------ */
/* Counterexample kinds                                                */
/* ------------------------------------------------------------------ */

/* The real data: singer.age never NULL (repeats), name unique, born all
** dates; code UNIQUE holds one value. */
static const char kinds_ddl[] =
    "CREATE TABLE singer(id INTEGER PRIMARY KEY, name TEXT, age INTEGER, born TEXT);\n"
    "CREATE TABLE tag(id INTEGER PRIMARY KEY, code TEXT UNIQUE);\n";
static const char kinds_rows[] =
    "INSERT INTO singer VALUES(1, 'Ann', 20, '1990-01-02'), (2, 'Bob', 20, '1991-05-06'),"
    " (3, 'Cy', 30, '1982-07-08'), (4, 'Dee', 40, '1979-11-12');\n"
    "INSERT INTO tag VALUES(1, 'X');\n";

static void kinds_setup(T *t) {
    make_db(t, kinds_ddl, kinds_rows);
    assert_int_equal(sq_profile_from_db(&t->prof, t->cat, t->path, &t->err), 0);
    sq_fixture_init(&t->fx, t->cat);
}

static void add_singer(T *t, int64_t id, const char *name, const SqValue age, const char *born) {
    SqResult *r = sq_fixture_table(&t->fx, table(t, "singer"));
    SqValue *row = sq_result_add_row(r);
    row[0] = sq_value_int(id);
    row[1] = sq_result_text(r, name, (uint32_t)strlen(name));
    row[2] = age;
    row[3] = sq_result_text(r, born, (uint32_t)strlen(born));
}

/* Run q1 and q2 on the fixture (they must differ) and tag it. */
static unsigned kinds_of(T *t, const char *q1, const char *q2, SqCompareMode mode, int ties) {
    int d = sq_fixture_differs(&t->fx, q1, q2, mode, 0, &t->r1, &t->r2, &t->err);
    if (d != 1 && !ties) fail_msg("the queries do not differ on the fixture (%d: %s)", d, t->err ? t->err : "");
    SqCexInput in = {&t->prof, &t->fx, q1, q2, mode, 0, &t->r1, &t->r2, ties};
    sq_cex_kinds_free(&t->kinds);
    return sq_cex_kinds(&in, &t->kinds);
}

static const char *names_of(T *t, unsigned kinds) {
    sq_buf_reset(&t->out);
    sq_cex_kind_names(kinds, ", ", &t->out);
    return sq_buf_str(&t->out);
}

static void kind_needs_null_when_the_null_matters(void **state) {
    T *t = *state;
    kinds_setup(t);
    add_singer(t, 1, "Ann", sq_value_null(), "1990-01-02");
    add_singer(t, 2, "Bob", sq_value_int(30), "1991-05-06");
    unsigned k = kinds_of(t, "SELECT count(age) FROM singer", "SELECT count(*) FROM singer", SQ_CMP_BAG, 0);
    assert_string_equal(names_of(t, k), "needs-null");
    assert_true(t->kinds.tested);
    assert_int_equal(t->kinds.n_where, 1);
    assert_int_equal(t->kinds.where[0].kind, SQ_CEX_NEEDS_NULL);
    assert_ptr_equal(t->kinds.where[0].table, table(t, "singer"));
    assert_int_equal(t->kinds.where[0].col, 2);
    assert_int_equal(t->kinds.where[0].value.type, SQ_VAL_NULL);
    /* the fixture itself is left as it was */
    assert_int_equal(sq_result_cell(&t->fx.tables[0].rows, 0, 2)->type, SQ_VAL_NULL);
}

static void kind_is_robust_when_the_null_does_not_matter(void **state) {
    T *t = *state;
    kinds_setup(t);
    add_singer(t, 1, "Ann", sq_value_null(), "1990-01-02");
    add_singer(t, 2, "Bob", sq_value_int(25), "1991-05-06");
    unsigned k = kinds_of(t, "SELECT name FROM singer WHERE age > 25", "SELECT name FROM singer WHERE age >= 25",
                          SQ_CMP_BAG, 0);
    assert_int_equal(k, 0);
    assert_string_equal(names_of(t, k), "robust");
    assert_int_equal(t->kinds.n_where, 0);
}

/* The most common age, 20, is the one value on which the queries agree:
** the next one keeps them apart, so the NULL is not needed. */
static void kind_tries_another_value(void **state) {
    T *t = *state;
    kinds_setup(t);
    add_singer(t, 1, "Ann", sq_value_null(), "1990-01-02");
    unsigned k = kinds_of(t, "SELECT count(*) FROM singer WHERE age = 20",
                          "SELECT count(*) FROM singer WHERE name = 'Ann'", SQ_CMP_BAG, 0);
    assert_int_equal(k, 0);
    /* where no value the column holds keeps them apart, the NULL is needed */
    k = kinds_of(t, "SELECT count(*) FROM singer WHERE age >= 20",
                 "SELECT count(*) FROM singer WHERE name = 'Ann'", SQ_CMP_BAG, 0);
    assert_int_equal(k, SQ_CEX_NEEDS_NULL);
}

/* Of two columns with NULLs, only the one whose repair ends the
** difference is where the kind lies. */
static void kind_names_the_column_that_matters(void **state) {
    T *t = *state;
    kinds_setup(t);
    SqResult *r = sq_fixture_table(&t->fx, table(t, "singer"));
    SqValue *row = sq_result_add_row(r);
    row[0] = sq_value_int(1);
    row[1] = sq_value_null(); /* name: never NULL in the data, but the queries do not care */
    row[2] = sq_value_null();
    row[3] = sq_result_text(r, "1990-01-02", 10);
    unsigned k = kinds_of(t, "SELECT count(age) FROM singer", "SELECT count(*) FROM singer", SQ_CMP_BAG, 0);
    assert_int_equal(k, SQ_CEX_NEEDS_NULL);
    assert_int_equal(t->kinds.n_where, 1);
    assert_int_equal(t->kinds.where[0].col, 2);
}

/* The only value tag.code holds would repeat a UNIQUE value: no repair,
** the tag stays. */
static void kind_stays_when_no_value_keeps_the_keys(void **state) {
    T *t = *state;
    kinds_setup(t);
    SqResult *r = sq_fixture_table(&t->fx, table(t, "tag"));
    SqValue *row = sq_result_add_row(r);
    row[0] = sq_value_int(1);
    row[1] = sq_result_text(r, "X", 1);
    row = sq_result_add_row(r);
    row[0] = sq_value_int(2);
    row[1] = sq_value_null();
    unsigned k = kinds_of(t, "SELECT count(code) FROM tag", "SELECT count(*) FROM tag", SQ_CMP_BAG, 0);
    assert_int_equal(k, SQ_CEX_NEEDS_NULL);
    assert_ptr_equal(t->kinds.where[0].table, table(t, "tag"));
}

static void kind_needs_format(void **state) {
    T *t = *state;
    kinds_setup(t);
    add_singer(t, 1, "Ann", sq_value_int(20), "soon");
    add_singer(t, 2, "Bob", sq_value_int(30), "1991-05-06");
    unsigned k = kinds_of(t, "SELECT count(*) FROM singer WHERE date(born) IS NOT NULL",
                          "SELECT count(*) FROM singer", SQ_CMP_BAG, 0);
    assert_string_equal(names_of(t, k), "needs-format");
    assert_int_equal(t->kinds.n_where, 1);
    assert_int_equal(t->kinds.where[0].col, 3);
    assert_text(&t->kinds.where[0].value, "soon");

    /* off-shape but beside the point */
    sq_fixture_free(&t->fx);
    sq_fixture_init(&t->fx, t->cat);
    add_singer(t, 1, "Ann", sq_value_int(20), "soon");
    add_singer(t, 2, "Bob", sq_value_int(30), "1991-05-06");
    k = kinds_of(t, "SELECT name FROM singer WHERE age > 20", "SELECT name FROM singer WHERE age >= 20", SQ_CMP_BAG, 0);
    assert_int_equal(k, 0);
}

static void kind_needs_duplicates(void **state) {
    T *t = *state;
    kinds_setup(t);
    add_singer(t, 1, "Ann", sq_value_int(20), "1990-01-02");
    add_singer(t, 2, "Ann", sq_value_int(30), "1991-05-06");
    unsigned k = kinds_of(t, "SELECT DISTINCT name FROM singer", "SELECT name FROM singer", SQ_CMP_BAG, 0);
    assert_string_equal(names_of(t, k), "needs-duplicates");
    assert_int_equal(t->kinds.where[0].col, 1);
    assert_text(&t->kinds.where[0].value, "Ann");

    /* repeats in age are what the data shows: no tag */
    sq_fixture_free(&t->fx);
    sq_fixture_init(&t->fx, t->cat);
    add_singer(t, 1, "Ann", sq_value_int(20), "1990-01-02");
    add_singer(t, 2, "Bob", sq_value_int(20), "1991-05-06");
    k = kinds_of(t, "SELECT DISTINCT age FROM singer", "SELECT age FROM singer", SQ_CMP_BAG, 0);
    assert_int_equal(k, 0);
}

static void kind_degenerate_and_ties(void **state) {
    T *t = *state;
    kinds_setup(t);
    add_singer(t, 1, "Ann", sq_value_int(20), "1990-01-02");
    unsigned k = kinds_of(t, "SELECT max(age) FROM singer WHERE age > 100",
                          "SELECT age FROM singer WHERE age > 100", SQ_CMP_BAG, 0);
    assert_string_equal(names_of(t, k), "degenerate-empty-vs-null");
    k = kinds_of(t, "SELECT age FROM singer WHERE age > 100", "SELECT max(age) FROM singer WHERE age > 100",
                 SQ_CMP_BAG, 1);
    assert_string_equal(names_of(t, k), "degenerate-empty-vs-null, needs-ties");
    /* one row that is not all NULL: not degenerate */
    k = kinds_of(t, "SELECT count(*) FROM singer WHERE age > 100", "SELECT age FROM singer WHERE age > 100",
                 SQ_CMP_BAG, 0);
    assert_int_equal(k, 0);
    assert_string_equal(sq_cex_kind_name(SQ_CEX_NEEDS_TIES), "needs-ties");
    assert_string_equal(sq_cex_kind_name(0), "robust");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        PR_TEST(shapes_of_values),
        PR_TEST(scan_shapes_match_value_shapes),
        PR_TEST(scan_counts_and_values),
        PR_TEST(scan_leaves_missing_tables_unknown),
        PR_TEST(scan_of_a_missing_file_fails),
        PR_TEST(metadata_gives_counts_and_samples),
        PR_TEST(cache_is_read_back),
        PR_TEST(cache_is_used_until_the_database_changes),
        PR_TEST(cache_never_replaces_a_foreign_file),
        PR_TEST(cache_of_another_catalog_is_stale),
        PR_TEST(kind_needs_null_when_the_null_matters),
        PR_TEST(kind_is_robust_when_the_null_does_not_matter),
        PR_TEST(kind_tries_another_value),
        PR_TEST(kind_names_the_column_that_matters),
        PR_TEST(kind_stays_when_no_value_keeps_the_keys),
        PR_TEST(kind_needs_format),
        PR_TEST(kind_needs_duplicates),
        PR_TEST(kind_degenerate_and_ties),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
