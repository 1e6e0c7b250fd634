/* test_catalog_json.c -- catalogs from Spider/BIRD tables.json: tables, columns, types and affinity, keys, foreign keys, spans, unknown db_ids, malformed entries, the real corpus files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/catalog.h"
#include "runtime/util.h"

/* Sources, diagnostics, names and the JSON arena of one test. */
typedef struct Fix {
    SqSrcSet srcs;
    SqDiags diags;
    SqInterner *names;
    SqArena *arena;
    SqSrc *src;          /* the tables.json of the test */
    const SqJson *doc;
    Catalog *cat;
} Fix;

static int fix_setup(void **state) {
    Fix *f = sq_calloc(1, sizeof *f);
    sq_srcset_init(&f->srcs);
    sq_diags_init(&f->diags, &f->srcs);
    f->names = sq_interner_new();
    f->arena = sq_arena_new();
    *state = f;
    return 0;
}

static int fix_teardown(void **state) {
    Fix *f = *state;
    sq_catalog_free(f->cat);
    sq_arena_free(f->arena);
    sq_interner_free(f->names);
    sq_diags_free(&f->diags);
    sq_srcset_free(&f->srcs);
    free(f);
    return 0;
}

#define FIX_TEST(fn) cmocka_unit_test_setup_teardown(fn, fix_setup, fix_teardown)

/* Parse json as tables.json and load db_id; returns the loader's result. */
static int load(Fix *f, const char *json, const char *db_id) {
    f->src = sq_src_add_copy(&f->srcs, "tables.json", json, strlen(json));
    f->doc = sq_tables_json_parse(f->arena, f->src, &f->diags);
    if (!f->doc) return -2;
    f->cat = sq_catalog_new(f->names, "tables.json");
    int rc = sq_catalog_load_tables_json(f->cat, f->src, f->doc, db_id, sq_span(0, 0, 0),
                                         &f->diags);
    sq_catalog_link(f->cat, &f->diags);
    return rc;
}

static CatTable *table(Fix *f, const char *name) {
    return sq_catalog_table(f->cat, sq_intern_cstr(f->names, name));
}

static CatColumn *column(Fix *f, const char *t, const char *c) {
    CatTable *tab = table(f, t);
    assert_non_null(tab);
    int i = sq_table_column(tab, sq_intern_cstr(f->names, c));
    if (i < 0) fail_msg("no column %s.%s", t, c);
    return &tab->cols[i];
}

/* The text a span covers in the test's tables.json. */
static void assert_span_text(Fix *f, SrcSpan s, const char *want) {
    assert_int_equal(s.file, f->src->id);
    size_t n = strlen(want);
    if (s.end - s.start != n || memcmp(f->src->text + s.start, want, n) != 0)
        fail_msg("span %u..%u is '%.*s', want '%s'", s.start, s.end, (int)(s.end - s.start),
                 f->src->text + s.start, want);
}

static const SqDiag *only_diag(Fix *f) {
    if (f->diags.n != 1) {
        for (size_t i = 0; i < f->diags.n; i++) print_message("diag: %s\n", f->diags.items[i]->msg);
        fail_msg("%zu diagnostics, want 1", f->diags.n);
    }
    return f->diags.items[0];
}

/* Spider's concert_singer, abridged, with every column_types category. */
static const char spider_like[] =
    "[{\"db_id\": \"other\", \"table_names_original\": [\"x\"],\n"
    "  \"column_names_original\": [[-1, \"*\"], [0, \"a\"]], \"column_types\": [\"text\", \"text\"]},\n"
    " {\"db_id\": \"concert\",\n"
    "  \"table_names_original\": [\"stadium\", \"Singer\", \"concert\"],\n"
    "  \"column_names_original\": [[-1, \"*\"], [0, \"Stadium_ID\"], [0, \"Name\"],\n"
    "     [0, \"Opened\"], [1, \"Singer_ID\"], [1, \"Is_male\"], [1, \"Misc\"],\n"
    "     [2, \"concert_ID\"], [2, \"Stadium_ID\"], [2, \"Year\"]],\n"
    "  \"column_types\": [\"text\", \"number\", \"text\", \"time\", \"number\", \"boolean\",\n"
    "     \"others\", \"number\", \"text\", \"text\"],\n"
    "  \"primary_keys\": [1, 4, 7],\n"
    "  \"foreign_keys\": [[8, 1]]}]";

/* ------------------------------------------------------------------ */
/* Tables, columns, types                                              */
/* ------------------------------------------------------------------ */

static void spider_entry_gives_tables_and_columns(void **state) {
    Fix *f = *state;
    assert_int_equal(load(f, spider_like, "concert"), 0);
    assert_int_equal(f->diags.n, 0);
    assert_int_equal(f->cat->n_tables, 3);
    assert_string_equal(f->cat->tables[1]->name, "Singer");
    assert_non_null(table(f, "SINGER")); /* names are case-insensitive */
    assert_null(table(f, "x"));          /* another entry's table */
    assert_int_equal(table(f, "stadium")->n_cols, 3); /* "*" is no column */
    assert_string_equal(table(f, "concert")->cols[1].name, "Stadium_ID");
    assert_string_equal(f->cat->db_id, "concert");
}

static void spider_type_categories_map_to_declared_types(void **state) {
    Fix *f = *state;
    assert_int_equal(load(f, spider_like, "concert"), 0);
    static const struct {
        const char *t, *c, *decl;
        SqAffinity aff;
    } want[] = {
        {"stadium", "Name", "TEXT", SQ_AFF_TEXT},
        {"stadium", "Stadium_ID", "NUMERIC", SQ_AFF_NUMERIC},
        {"stadium", "Opened", "DATETIME", SQ_AFF_NUMERIC},
        {"Singer", "Is_male", "BOOLEAN", SQ_AFF_NUMERIC},
        {"Singer", "Misc", "NUMERIC", SQ_AFF_NUMERIC},
    };
    for (size_t i = 0; i < SQ_ARRAY_LEN(want); i++) {
        CatColumn *c = column(f, want[i].t, want[i].c);
        assert_string_equal(c->decl_type, want[i].decl);
        assert_int_equal(c->affinity, want[i].aff);
    }
}

static void bird_types_are_declared_types(void **state) {
    Fix *f = *state;
    const char *json =
        "[{\"db_id\": \"b\", \"table_names_original\": [\"t\"],"
        " \"column_names_original\": [[-1, \"*\"], [0, \"i\"], [0, \"r\"], [0, \"d\"],"
        "   [0, \"s\"], [0, \"n\"]],"
        " \"column_types\": [\"text\", \"integer\", \"real\", \"date\", \"varchar(9)\", \"\"],"
        " \"primary_keys\": [], \"foreign_keys\": []}]";
    assert_int_equal(load(f, json, "b"), 0);
    assert_int_equal(column(f, "t", "i")->affinity, SQ_AFF_INTEGER);
    assert_string_equal(column(f, "t", "i")->decl_type, "integer");
    assert_int_equal(column(f, "t", "r")->affinity, SQ_AFF_REAL);
    assert_int_equal(column(f, "t", "d")->affinity, SQ_AFF_NUMERIC);
    assert_int_equal(column(f, "t", "s")->affinity, SQ_AFF_TEXT);
    assert_null(column(f, "t", "n")->decl_type); /* no type: BLOB affinity */
    assert_int_equal(column(f, "t", "n")->affinity, SQ_AFF_BLOB);
    assert_int_equal(table(f, "t")->n_keys, 0);
}

static void names_keep_their_position_in_the_file(void **state) {
    Fix *f = *state;
    assert_int_equal(load(f, spider_like, "concert"), 0);
    assert_span_text(f, table(f, "Singer")->span, "\"Singer\"");
    assert_span_text(f, column(f, "concert", "Year")->span, "\"Year\"");
    SqSrcPos p = sq_src_locate(f->src, column(f, "concert", "Year")->span.start);
    assert_int_equal(p.line, 7);
}

/* ------------------------------------------------------------------ */
/* Keys                                                                */
/* ------------------------------------------------------------------ */

static void single_primary_keys(void **state) {
    Fix *f = *state;
    const char *json =
        "[{\"db_id\": \"k\", \"table_names_original\": [\"a\", \"b\"],"
        " \"column_names_original\": [[-1, \"*\"], [0, \"id\"], [0, \"v\"], [1, \"code\"]],"
        " \"column_types\": [\"text\", \"integer\", \"text\", \"text\"],"
        " \"primary_keys\": [1, 3]}]";
    assert_int_equal(load(f, json, "k"), 0);
    CatColumn *id = column(f, "a", "id"), *code = column(f, "b", "code");
    assert_int_equal(id->pk, 1);
    assert_true(id->unique && id->rowid_alias && id->not_null); /* INTEGER PRIMARY KEY */
    assert_int_equal(code->pk, 1);
    assert_true(code->unique);
    assert_false(code->rowid_alias || code->not_null);
    assert_int_equal(column(f, "a", "v")->pk, 0);
    assert_true(table(f, "a")->keys[0].is_pk);
    uint32_t cols[] = {0};
    assert_true(sq_table_cols_unique(table(f, "a"), cols, 1));
}

static void composite_primary_keys_as_lists_or_repeated_indexes(void **state) {
    Fix *f = *state;
    const char *json =
        "[{\"db_id\": \"k\", \"table_names_original\": [\"a\", \"b\"],"
        " \"column_names_original\": [[-1, \"*\"], [0, \"x\"], [0, \"y\"], [0, \"z\"],"
        "   [1, \"p\"], [1, \"q\"]],"
        " \"column_types\": [\"text\", \"integer\", \"integer\", \"text\", \"text\", \"text\"],"
        " \"primary_keys\": [[2, 1], 4, 5]}]";
    assert_int_equal(load(f, json, "k"), 0);
    CatTable *a = table(f, "a"), *b = table(f, "b");
    assert_int_equal(a->n_keys, 1);
    assert_int_equal(a->keys[0].n_cols, 2);
    assert_int_equal(a->keys[0].cols[0], 1); /* y first, as listed */
    assert_int_equal(column(f, "a", "y")->pk, 1);
    assert_int_equal(column(f, "a", "x")->pk, 2);
    assert_false(column(f, "a", "x")->rowid_alias || column(f, "a", "x")->unique);
    assert_int_equal(b->keys[0].n_cols, 2); /* 4 and 5: one key of two columns */
    assert_int_equal(column(f, "b", "q")->pk, 2);
}

static void missing_keys_are_fine(void **state) {
    Fix *f = *state;
    const char *json = "[{\"db_id\": \"k\", \"table_names_original\": [\"a\"],"
                       " \"column_names_original\": [[0, \"x\"]], \"primary_keys\": null}]";
    assert_int_equal(load(f, json, "k"), 0);
    assert_int_equal(f->diags.n, 0);
    assert_int_equal(table(f, "a")->n_keys, 0);
    assert_int_equal(table(f, "a")->n_fks, 0);
    assert_null(column(f, "a", "x")->decl_type);
}

/* ------------------------------------------------------------------ */
/* Foreign keys                                                        */
/* ------------------------------------------------------------------ */

static void foreign_key_is_linked(void **state) {
    Fix *f = *state;
    assert_int_equal(load(f, spider_like, "concert"), 0);
    CatTable *c = table(f, "concert");
    assert_int_equal(c->n_fks, 1);
    CatForeignKey *fk = &c->fks[0];
    assert_int_equal(fk->n_cols, 1);
    assert_int_equal(fk->cols[0], 1);
    assert_ptr_equal(fk->target, table(f, "stadium"));
    assert_int_equal(fk->target_cols[0], 0);
}

/* Two columns referencing the same column are two keys (flights'
** SourceAirport and DestAirport), and a repeated pair is one. */
static void pairs_to_one_column_are_separate_keys(void **state) {
    Fix *f = *state;
    const char *json =
        "[{\"db_id\": \"f\", \"table_names_original\": [\"airports\", \"flights\"],"
        " \"column_names_original\": [[-1, \"*\"], [0, \"code\"], [1, \"src\"], [1, \"dst\"]],"
        " \"column_types\": [\"text\", \"text\", \"text\", \"text\"],"
        " \"primary_keys\": [1], \"foreign_keys\": [[3, 1], [2, 1], [3, 1]]}]";
    assert_int_equal(load(f, json, "f"), 0);
    CatTable *fl = table(f, "flights");
    assert_int_equal(fl->n_fks, 2);
    assert_int_equal(fl->fks[0].n_cols, 1);
    assert_int_equal(fl->fks[0].cols[0], 1); /* dst first, as listed */
    assert_int_equal(fl->fks[1].cols[0], 0);
    assert_ptr_equal(fl->fks[1].target, table(f, "airports"));
}

/* Pairs that together reference a composite primary key form one key,
** ordered as the key is; others stay single. */
static void pairs_covering_a_composite_key_form_one_key(void **state) {
    Fix *f = *state;
    const char *json =
        "[{\"db_id\": \"c\", \"table_names_original\": [\"parent\", \"child\"],"
        " \"column_names_original\": [[-1, \"*\"], [0, \"a\"], [0, \"b\"], [1, \"pb\"],"
        "   [1, \"pa\"], [1, \"other\"]],"
        " \"column_types\": [\"text\", \"text\", \"text\", \"text\", \"text\", \"text\"],"
        " \"primary_keys\": [[1, 2]], \"foreign_keys\": [[3, 2], [5, 1], [4, 1]]}]";
    assert_int_equal(load(f, json, "c"), 0);
    CatTable *ch = table(f, "child");
    /* pb->b and pa->a cover (a, b), but so would other->a: two candidates
    ** for a, so nothing is grouped. */
    assert_int_equal(ch->n_fks, 3);
    sq_catalog_free(f->cat);
    f->cat = NULL;
    const char *json2 =
        "[{\"db_id\": \"c\", \"table_names_original\": [\"parent\", \"child\"],"
        " \"column_names_original\": [[-1, \"*\"], [0, \"a\"], [0, \"b\"], [1, \"pb\"],"
        "   [1, \"pa\"], [1, \"other\"]],"
        " \"column_types\": [\"text\", \"text\", \"text\", \"text\", \"text\", \"text\"],"
        " \"primary_keys\": [[1, 2]], \"foreign_keys\": [[3, 2], [4, 1], [5, 2]]}]";
    assert_int_equal(load(f, json2, "c"), 0);
    ch = table(f, "child");
    /* (pb, pa) -> (b, a) is not unique either: other also references b. */
    assert_int_equal(ch->n_fks, 3);
    sq_catalog_free(f->cat);
    f->cat = NULL;
    const char *json3 =
        "[{\"db_id\": \"c\", \"table_names_original\": [\"parent\", \"child\"],"
        " \"column_names_original\": [[-1, \"*\"], [0, \"a\"], [0, \"b\"], [1, \"pb\"],"
        "   [1, \"pa\"], [1, \"other\"]],"
        " \"column_types\": [\"text\", \"text\", \"text\", \"text\", \"text\", \"text\"],"
        " \"primary_keys\": [[1, 2]], \"foreign_keys\": [[3, 2], [4, 1], [5, 5]]}]";
    assert_int_equal(load(f, json3, "c"), 0);
    ch = table(f, "child");
    assert_int_equal(ch->n_fks, 2);
    CatForeignKey *fk = &ch->fks[0];
    assert_int_equal(fk->n_cols, 2);
    assert_int_equal(fk->cols[0], 1); /* pa, for a: the key's first column */
    assert_int_equal(fk->cols[1], 0); /* pb, for b */
    assert_ptr_equal(fk->target, table(f, "parent"));
    assert_int_equal(fk->target_cols[0], 0);
    assert_int_equal(fk->target_cols[1], 1);
    assert_int_equal(ch->fks[1].n_cols, 1); /* other -> other: a self reference */
    assert_ptr_equal(ch->fks[1].target, ch);
}

/* ------------------------------------------------------------------ */
/* Errors                                                              */
/* ------------------------------------------------------------------ */

static void unknown_db_id_suggests_the_nearest(void **state) {
    Fix *f = *state;
    assert_int_equal(load(f, spider_like, "Conecrt"), -1);
    const SqDiag *g = only_diag(f);
    assert_string_equal(g->code, "E0207");
    assert_non_null(strstr(g->msg, "'Conecrt'"));
    assert_non_null(g->help);
    assert_string_equal(g->help, "did you mean 'concert'?");
    assert_int_equal(f->cat->n_tables, 0);
}

static void unknown_db_id_far_from_all_has_no_help(void **state) {
    Fix *f = *state;
    assert_int_equal(load(f, spider_like, "world_1"), -1);
    assert_null(only_diag(f)->help);
}

static void db_ids_are_listed_in_order(void **state) {
    Fix *f = *state;
    load(f, spider_like, "concert");
    uint32_t n;
    const char **ids = sq_tables_json_db_ids(f->arena, f->doc, &n);
    assert_int_equal(n, 2);
    assert_string_equal(ids[0], "other");
    assert_string_equal(ids[1], "concert");
    assert_non_null(sq_tables_json_find(f->doc, "other"));
    assert_null(sq_tables_json_find(f->doc, "OTHER")); /* db_ids are exact */
}

static void invalid_json_is_reported_at_its_offset(void **state) {
    Fix *f = *state;
    assert_int_equal(load(f, "[{\"db_id\": \"a\",]", "a"), -2);
    const SqDiag *g = only_diag(f);
    assert_string_equal(g->code, "E0002");
    assert_int_equal(g->span.start, 15);
}

static void a_document_that_is_not_an_array_is_refused(void **state) {
    Fix *f = *state;
    assert_int_equal(load(f, "{\"db_id\": \"a\"}", "a"), -2);
    assert_string_equal(only_diag(f)->code, "E0206");
}

static void malformed_column_is_reported_where_it_is(void **state) {
    Fix *f = *state;
    const char *json = "[{\"db_id\": \"m\", \"table_names_original\": [\"t\"],"
                       " \"column_names_original\": [[0, \"ok\"], [0, 7], [3, \"far\"]]}]";
    assert_int_equal(load(f, json, "m"), 0);
    assert_int_equal(f->diags.n, 2);
    assert_string_equal(f->diags.items[0]->code, "E0206");
    assert_span_text(f, f->diags.items[0]->span, "[0, 7]");
    assert_span_text(f, f->diags.items[1]->span, "3");
    assert_non_null(strstr(f->diags.items[1]->msg, "no table has index 3"));
    assert_int_equal(table(f, "t")->n_cols, 1);
}

static void missing_tables_make_the_entry_unusable(void **state) {
    Fix *f = *state;
    assert_int_equal(load(f, "[{\"db_id\": \"m\", \"column_names_original\": []}]", "m"), -1);
    assert_string_equal(only_diag(f)->code, "E0206");
    assert_non_null(strstr(only_diag(f)->msg, "table_names_original"));
}

static void bad_key_indexes_are_reported(void **state) {
    Fix *f = *state;
    const char *json =
        "[{\"db_id\": \"m\", \"table_names_original\": [\"t\", \"u\"],"
        " \"column_names_original\": [[-1, \"*\"], [0, \"a\"], [1, \"b\"]],"
        " \"primary_keys\": [0, 99, [1, 2]], \"foreign_keys\": [[1], [1, \"x\"], [2, 1]]}]";
    assert_int_equal(load(f, json, "m"), 0);
    /* 0 is "*", 99 is out of range, [1, 2] spans two tables, [1] is no
    ** pair, "x" no index; [2, 1] is fine. */
    assert_int_equal(f->diags.n, 5);
    for (size_t i = 0; i < f->diags.n; i++) assert_string_equal(f->diags.items[i]->code, "E0206");
    assert_int_equal(table(f, "u")->n_fks, 1);
}

static void duplicate_names_are_reported(void **state) {
    Fix *f = *state;
    const char *json =
        "[{\"db_id\": \"d\", \"table_names_original\": [\"t\", \"T\"],"
        " \"column_names_original\": [[0, \"a\"], [0, \"A\"], [1, \"b\"]]}]";
    assert_int_equal(load(f, json, "d"), 0);
    assert_int_equal(f->diags.n, 2);
    assert_string_equal(f->diags.items[0]->code, "E0201");
    assert_string_equal(f->diags.items[1]->code, "E0202");
    assert_span_text(f, f->diags.items[1]->span, "\"A\"");
}

static void suggestions_allow_typos_only(void **state) {
    (void)state;
    const char *cands[] = {"concert_singer", "world_1", "car_1", NULL};
    assert_string_equal(sq_suggest_name("concert_signer", cands, 4), "concert_singer");
    assert_string_equal(sq_suggest_name("CONCERT_SINGER", cands, 4), "concert_singer");
    assert_string_equal(sq_suggest_name("car_2", cands, 4), "car_1");
    assert_null(sq_suggest_name("flight_2", cands, 4));
    assert_null(sq_suggest_name("x", cands, 0));
}

/* ------------------------------------------------------------------ */
/* The real files                                                      */
/* ------------------------------------------------------------------ */

/* Load every database of <corpora>/rel; counts tables and columns. */
static void load_corpus(Fix *f, const char *rel, uint32_t *n_dbs, uint32_t *n_tables,
                        uint32_t *n_cols) {
    const char *root = getenv("SQUINT_CORPORA");
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", root && *root ? root : "../shared/corpora", rel);
    int err;
    f->src = sq_src_add_file(&f->srcs, path, &err);
    if (!f->src) skip();
    f->doc = sq_tables_json_parse(f->arena, f->src, &f->diags);
    assert_non_null(f->doc);
    const char **ids = sq_tables_json_db_ids(f->arena, f->doc, n_dbs);
    *n_tables = *n_cols = 0;
    for (uint32_t i = 0; i < *n_dbs; i++) {
        Catalog *c = sq_catalog_new(f->names, path);
        assert_int_equal(sq_catalog_load_tables_json(c, f->src, f->doc, ids[i],
                                                     sq_span(0, 0, 0), &f->diags), 0);
        sq_catalog_link(c, &f->diags);
        *n_tables += c->n_tables;
        for (uint32_t t = 0; t < c->n_tables; t++) {
            *n_cols += c->tables[t]->n_cols;
            for (uint32_t k = 0; k < c->tables[t]->n_fks; k++)
                assert_non_null(c->tables[t]->fks[k].target);
        }
        sq_catalog_free(c);
    }
    for (size_t i = 0; i < f->diags.n; i++) print_message("diag: %s\n", f->diags.items[i]->msg);
    assert_int_equal(f->diags.n, 0);
}

static void spider_tables_json_loads_cleanly(void **state) {
    uint32_t dbs, tables, cols;
    load_corpus(*state, "spider-dev/tables.json", &dbs, &tables, &cols);
    assert_int_equal(dbs, 20);
    assert_true(tables > 60);
}

static void bird_dev_tables_json_loads_cleanly(void **state) {
    uint32_t dbs, tables, cols;
    load_corpus(*state, "bird-dev/dev_tables.json", &dbs, &tables, &cols);
    assert_int_equal(dbs, 11);
    assert_int_equal(tables, 75); /* as the corpus README counts them */
    assert_int_equal(cols, 798);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        FIX_TEST(spider_entry_gives_tables_and_columns),
        FIX_TEST(spider_type_categories_map_to_declared_types),
        FIX_TEST(bird_types_are_declared_types),
        FIX_TEST(names_keep_their_position_in_the_file),
        FIX_TEST(single_primary_keys),
        FIX_TEST(composite_primary_keys_as_lists_or_repeated_indexes),
        FIX_TEST(missing_keys_are_fine),
        FIX_TEST(foreign_key_is_linked),
        FIX_TEST(pairs_to_one_column_are_separate_keys),
        FIX_TEST(pairs_covering_a_composite_key_form_one_key),
        FIX_TEST(unknown_db_id_suggests_the_nearest),
        FIX_TEST(unknown_db_id_far_from_all_has_no_help),
        FIX_TEST(db_ids_are_listed_in_order),
        FIX_TEST(invalid_json_is_reported_at_its_offset),
        FIX_TEST(a_document_that_is_not_an_array_is_refused),
        FIX_TEST(malformed_column_is_reported_where_it_is),
        FIX_TEST(missing_tables_make_the_entry_unusable),
        FIX_TEST(bad_key_indexes_are_reported),
        FIX_TEST(duplicate_names_are_reported),
        FIX_TEST(suggestions_allow_typos_only),
        FIX_TEST(spider_tables_json_loads_cleanly),
        FIX_TEST(bird_dev_tables_json_loads_cleanly),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
