/* test_bench_input.c -- benchmark files read into items: every format, detection, db_ids, positions mapped back through JSON escapes, odd lines, shape errors, the real corpus files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/bench_input.h"
#include "runtime/util.h"

/* Sources, diagnostics and the item arena of one test. */
typedef struct Fix {
    SqSrcSet srcs;
    SqDiags diags;
    SqArena *arena;
    SqSrc *file;
    SqBench b;
} Fix;

static int fix_setup(void **state) {
    Fix *f = sq_calloc(1, sizeof *f);
    sq_srcset_init(&f->srcs);
    sq_diags_init(&f->diags, &f->srcs);
    f->arena = sq_arena_new();
    *state = f;
    return 0;
}

static int fix_teardown(void **state) {
    Fix *f = *state;
    sq_arena_free(f->arena);
    sq_diags_free(&f->diags);
    sq_srcset_free(&f->srcs);
    free(f);
    return 0;
}

#define FIX_TEST(fn) cmocka_unit_test_setup_teardown(fn, fix_setup, fix_teardown)

/* Read text (named name) as format; returns sq_bench_read's result. */
static int read_as(Fix *f, const char *name, const char *text, SqInputFormat format) {
    f->file = sq_src_add_copy(&f->srcs, name, text, strlen(text));
    return sq_bench_read(&f->b, f->arena, &f->srcs, f->file, format, &f->diags);
}

static const char *sql_of(const SqBenchItem *it) { return it->sql->text; }

/* Where byte off of the item's SQL is in the file, as "line:col". */
static void assert_pos(const SqBenchItem *it, uint32_t off, uint32_t line, uint32_t col) {
    SqSrcPos p = sq_src_locate(it->sql, off);
    if (p.line != line || p.col != col)
        fail_msg("offset %u of %s is at %u:%u, want %u:%u", off,
                 it->label ? it->label : "item", p.line, p.col, line, col);
}

/* The position of needle in the item's SQL. */
static uint32_t at(const SqBenchItem *it, const char *needle) {
    const char *p = strstr(it->sql->text, needle);
    if (!p) fail_msg("'%s' not in '%s'", needle, it->sql->text);
    return (uint32_t)(p - it->sql->text);
}

static void assert_file_text(Fix *f, SrcSpan s, const char *want) {
    assert_int_equal(s.file, f->file->id);
    size_t n = strlen(want);
    if (s.end - s.start != n || memcmp(f->file->text + s.start, want, n) != 0)
        fail_msg("span is '%.*s', want '%s'", (int)(s.end - s.start), f->file->text + s.start,
                 want);
}

static void assert_codes(Fix *f, const char *codes) {
    char got[256] = "";
    for (size_t i = 0; i < f->diags.n; i++) {
        if (i) strcat(got, " ");
        strncat(got, f->diags.items[i]->code, 16);
    }
    if (strcmp(got, codes) != 0) {
        for (size_t i = 0; i < f->diags.n; i++) print_message("diag: %s\n", f->diags.items[i]->msg);
        fail_msg("codes '%s', want '%s'", got, codes);
    }
}

/* ------------------------------------------------------------------ */
/* Formats                                                             */
/* ------------------------------------------------------------------ */

static void format_names_round_trip(void **state) {
    (void)state;
    SqInputFormat f;
    for (int i = SQ_INPUT_AUTO; i <= SQ_INPUT_LINES; i++) {
        assert_true(sq_input_format_parse(sq_input_format_name((SqInputFormat)i), &f));
        assert_int_equal(f, i);
    }
    assert_string_equal(sq_input_format_name(SQ_INPUT_BIRD_PRED), "bird-pred");
    assert_false(sq_input_format_parse("csv", &f));
}

/* ------------------------------------------------------------------ */
/* Spider and BIRD dev.json                                            */
/* ------------------------------------------------------------------ */

static const char spider_dev[] =
    "[\n"
    "  {\"db_id\": \"shop\", \"query\": \"SELECT name FROM item\", \"question\": \"?\"},\n"
    "  {\"db_id\": \"shop\", \"query\": \"SELECT \\\"nm\\\",\\n  bad FROM item\"},\n"
    "  {\"query\": \"SELECT \\u00e9, \\t zz\", \"db_id\": \"mall\"}\n"
    "]\n";

static void spider_items_labels_and_db_ids(void **state) {
    Fix *f = *state;
    assert_int_equal(read_as(f, "dev.json", spider_dev, SQ_INPUT_AUTO), 0);
    assert_int_equal(f->b.format, SQ_INPUT_SPIDER);
    assert_int_equal(f->b.n_items, 3);
    assert_string_equal(f->b.items[0].label, "item 0");
    assert_string_equal(f->b.items[2].label, "item 2");
    assert_int_equal(f->b.items[2].index, 2);
    assert_string_equal(f->b.items[1].db_id, "shop");
    assert_string_equal(f->b.items[2].db_id, "mall");
    assert_file_text(f, f->b.items[2].db_id_span, "mall");
    assert_string_equal(sql_of(&f->b.items[0]), "SELECT name FROM item");
    assert_string_equal(sql_of(&f->b.items[1]), "SELECT \"nm\",\n  bad FROM item");
    assert_string_equal(f->b.items[1].sql->item, "item 1"); /* shown with diagnostics */
    assert_int_equal(f->diags.n, 0);
}

/* Offsets in the decoded SQL land on the file's line and column, after
** \" and \n and \u escapes alike. */
static void spider_positions_map_through_escapes(void **state) {
    Fix *f = *state;
    read_as(f, "dev.json", spider_dev, SQ_INPUT_AUTO);
    const SqBenchItem *a = &f->b.items[0], *b = &f->b.items[1], *c = &f->b.items[2];
    assert_pos(a, at(a, "name"), 2, 38);
    assert_pos(b, at(b, "nm"), 3, 40);    /* after \" */
    assert_pos(b, at(b, "bad"), 3, 49);   /* after \" and \n */
    assert_pos(b, at(b, "FROM"), 3, 53);
    assert_pos(c, at(c, "zz"), 4, 32);    /* after \u00e9 (two bytes) and \t */
    SqSrcPos p = sq_src_locate(b->sql, at(b, "nm"));
    assert_ptr_equal(p.file, f->file);
}

static void bird_items_use_question_id(void **state) {
    Fix *f = *state;
    const char *text =
        "[{\"question_id\": 7, \"db_id\": \"toxicology\", \"question\": \"q\",\n"
        "  \"SQL\": \"SELECT T1.x FROM atom AS T1\", \"difficulty\": \"simple\",\n"
        "  \"evidence\": \"x refers to label = '+'\"},\n"
        " {\"db_id\": \"toxicology\", \"SQL\": \"SELECT 2\", \"evidence\": \"\"}]";
    assert_int_equal(read_as(f, "dev.json", text, SQ_INPUT_AUTO), 0);
    assert_int_equal(f->b.format, SQ_INPUT_BIRD);
    assert_int_equal(f->b.n_items, 2);
    assert_string_equal(f->b.items[0].label, "question_id 7");
    assert_string_equal(f->b.items[1].label, "item 1"); /* no question_id */
    assert_string_equal(sql_of(&f->b.items[0]), "SELECT T1.x FROM atom AS T1");
    assert_pos(&f->b.items[0], 7, 2, 18);
    assert_string_equal(f->b.items[0].question, "q");
    assert_string_equal(f->b.items[0].evidence, "x refers to label = '+'");
    assert_null(f->b.items[1].evidence); /* empty evidence: none */
}

static void dev_items_without_sql_are_skipped_with_an_error(void **state) {
    Fix *f = *state;
    const char *text = "[{\"db_id\": \"a\", \"query\": \"SELECT 1\"},\n"
                       " {\"db_id\": \"a\"}, 5, {\"query\": 3}, {\"query\": \"\"}]";
    assert_int_equal(read_as(f, "dev.json", text, SQ_INPUT_AUTO), 0);
    assert_codes(f, "E0003 E0003 E0003 W0001");
    assert_int_equal(f->b.n_items, 2);          /* the first and the empty one */
    assert_null(f->b.items[1].db_id);
    assert_int_equal(f->b.items[1].sql->len, 0);
    assert_string_equal(f->b.items[1].label, "item 4");
    SqSrcPos p = sq_src_locate(f->diags.items[0]->span.file ? sq_src_get(&f->srcs,
                               f->diags.items[0]->span.file) : f->file,
                               f->diags.items[0]->span.start);
    assert_int_equal(p.line, 2);
}

static void tables_json_given_as_input_is_recognised(void **state) {
    Fix *f = *state;
    const char *text = "[{\"db_id\": \"a\", \"table_names_original\": [\"t\"]}]";
    assert_int_equal(read_as(f, "tables.json", text, SQ_INPUT_AUTO), -1);
    assert_codes(f, "E0003");
    assert_non_null(f->diags.items[0]->help);
    assert_non_null(strstr(f->diags.items[0]->help, "tables.json"));
}

static void invalid_json_fails_with_its_position(void **state) {
    Fix *f = *state;
    assert_int_equal(read_as(f, "dev.json", "[\n {\"query\": \"SELECT 1\"\n", SQ_INPUT_AUTO), -1);
    assert_codes(f, "E0002");
    assert_int_equal(f->diags.items[0]->n_notes, 1); /* where the array was opened */
    assert_int_equal(f->b.n_items, 0);
}

static void explicit_format_must_match_the_shape(void **state) {
    Fix *f = *state;
    assert_int_equal(read_as(f, "p.json", "{\"1\": \"SELECT 1\"}", SQ_INPUT_SPIDER), -1);
    assert_codes(f, "E0003");
    assert_int_equal(f->b.format, SQ_INPUT_SPIDER);
}

/* ------------------------------------------------------------------ */
/* BIRD predictions                                                    */
/* ------------------------------------------------------------------ */

static void bird_predictions_split_sql_and_db_id(void **state) {
    Fix *f = *state;
    const char *text =
        "{\n"
        "  \"0\": \"SELECT \\\"a\\\" FROM t;\\t----- bird -----\\tcalifornia_schools\",\n"
        "  \"1\": 0,\n"
        "  \"2\": \"SELECT 1\",\n"
        "  \"3\": \"\\t----- bird -----\\tfinancial\"\n"
        "}\n";
    assert_int_equal(read_as(f, "predict_dev.json", text, SQ_INPUT_AUTO), 0);
    assert_int_equal(f->b.format, SQ_INPUT_BIRD_PRED);
    assert_int_equal(f->b.n_items, 4);
    const SqBenchItem *it = &f->b.items[0];
    assert_string_equal(it->label, "question_id 0");
    assert_string_equal(sql_of(it), "SELECT \"a\" FROM t;");
    assert_string_equal(it->db_id, "california_schools");
    assert_file_text(f, it->db_id_span, "california_schools");
    assert_pos(it, at(it, "FROM"), 2, 22);
    assert_codes(f, "W0001 E0003 W0001");
    assert_non_null(strstr(f->diags.items[0]->msg, "its value is 0"));
    assert_null(f->b.items[1].db_id);
    assert_string_equal(sql_of(&f->b.items[2]), "SELECT 1"); /* kept, without db_id */
    assert_null(f->b.items[2].db_id);
    assert_string_equal(f->b.items[3].db_id, "financial");
    assert_int_equal(f->b.items[3].sql->len, 0);
}

/* ------------------------------------------------------------------ */
/* Text formats                                                        */
/* ------------------------------------------------------------------ */

static void gold_tsv_lines(void **state) {
    Fix *f = *state;
    const char *text = "SELECT a FROM t\tdb_one\r\n"
                       "\n"
                       "SELECT b\tFROM u\tdb_two  \n";
    assert_int_equal(read_as(f, "dev_gold.sql", text, SQ_INPUT_AUTO), 0);
    assert_int_equal(f->b.format, SQ_INPUT_TSV);
    assert_int_equal(f->b.n_items, 2); /* the empty line is no item */
    assert_string_equal(f->b.items[0].db_id, "db_one");
    assert_string_equal(sql_of(&f->b.items[0]), "SELECT a FROM t");
    assert_string_equal(f->b.items[1].label, "line 3");
    assert_string_equal(sql_of(&f->b.items[1]), "SELECT b\tFROM u"); /* the last tab splits */
    assert_string_equal(f->b.items[1].db_id, "db_two");
    assert_file_text(f, f->b.items[1].db_id_span, "db_two");
    assert_pos(&f->b.items[1], at(&f->b.items[1], "FROM"), 3, 10);
    assert_null(f->b.items[1].sql->item); /* line numbers identify text items */
    assert_int_equal(f->diags.n, 0);
}

static void explicit_tsv_reports_lines_without_db_id(void **state) {
    Fix *f = *state;
    assert_int_equal(read_as(f, "g.tsv", "SELECT 1\tx\nSELECT 2\nSELECT 3\t \n \ty\n", SQ_INPUT_TSV), 0);
    assert_codes(f, "E0003 E0003 W0001");
    assert_int_equal(f->b.n_items, 4);
    assert_string_equal(f->b.items[3].db_id, "y");
    assert_int_equal(f->b.items[3].sql->len, 0);
    assert_null(f->b.items[1].db_id);
    assert_string_equal(sql_of(&f->b.items[1]), "SELECT 2");
    assert_string_equal(sql_of(&f->b.items[2]), "SELECT 3");
}

static void prediction_lines_keep_empty_lines_as_items(void **state) {
    Fix *f = *state;
    const char *text = "select a from t\r\n\nSELECT b FROM u;\nwith x as (select 1) select * from x\n";
    assert_int_equal(read_as(f, "pred.sql", text, SQ_INPUT_AUTO), 0);
    assert_int_equal(f->b.format, SQ_INPUT_LINES);
    assert_int_equal(f->b.n_items, 4);
    assert_string_equal(sql_of(&f->b.items[0]), "select a from t"); /* no CR */
    assert_int_equal(f->b.items[1].sql->len, 0);
    assert_string_equal(f->b.items[1].label, "line 2");
    assert_codes(f, "W0001");
    assert_pos(&f->b.items[2], at(&f->b.items[2], "FROM"), 3, 10);
    assert_null(f->b.items[3].db_id);
}

static void scripts_are_one_item(void **state) {
    Fix *f = *state;
    const char *text = "WITH x AS (SELECT 1)\nSELECT * FROM x;\nSELECT 2;\n";
    assert_int_equal(read_as(f, "q.sql", text, SQ_INPUT_AUTO), 0);
    assert_int_equal(f->b.format, SQ_INPUT_SQL);
    assert_int_equal(f->b.n_items, 1);
    assert_ptr_equal(f->b.items[0].sql, f->file);
    assert_null(f->b.items[0].label);
}

static void text_detection_rules(void **state) {
    Fix *f = *state;
    /* every line ends in ';': a script (one statement per line) */
    read_as(f, "a.sql", "SELECT 1;\nSELECT 2;\n", SQ_INPUT_AUTO);
    assert_int_equal(f->b.format, SQ_INPUT_SQL);
    /* a statement over several lines: a script */
    read_as(f, "b.sql", "SELECT a\nFROM t\n", SQ_INPUT_AUTO);
    assert_int_equal(f->b.format, SQ_INPUT_SQL);
    read_as(f, "b2.sql", "SELECT a FROM t WHERE x IN (\nSELECT b FROM u)\n", SQ_INPUT_AUTO);
    assert_int_equal(f->b.format, SQ_INPUT_SQL);
    read_as(f, "b3.sql", "with x as (select 1)\nselect * from x\n", SQ_INPUT_AUTO);
    assert_int_equal(f->b.format, SQ_INPUT_SQL);
    /* parentheses in quotes do not count */
    read_as(f, "b4.sql", "select ')' from t\nselect \"(\" from [a(]\n", SQ_INPUT_AUTO);
    assert_int_equal(f->b.format, SQ_INPUT_LINES);
    /* one odd line in ten does not make predictions a script */
    read_as(f, "b5.sql", "select 1\nselect 2\nselect 3\nselect 4\nselect 5\nselect 6\n"
                         "select 7\nselect 8\nselect 9\nI cannot answer that\n", SQ_INPUT_AUTO);
    assert_int_equal(f->b.format, SQ_INPUT_LINES);
    assert_int_equal(f->b.n_items, 10);
    /* a query with a WITH on one line is whole */
    read_as(f, "b6.sql", "WITH x AS (SELECT 1) SELECT * FROM x\nSELECT 2\n", SQ_INPUT_AUTO);
    assert_int_equal(f->b.format, SQ_INPUT_LINES);
    /* one line: a script */
    read_as(f, "c.sql", "SELECT 1\n", SQ_INPUT_AUTO);
    assert_int_equal(f->b.format, SQ_INPUT_SQL);
    /* tab-indented lines are no tsv */
    read_as(f, "d.sql", "SELECT a,\n\tb\nFROM t;\n", SQ_INPUT_AUTO);
    assert_int_equal(f->b.format, SQ_INPUT_SQL);
    /* told that text is lines: lines, even for one line */
    read_as(f, "e.sql", "SELECT a\n", SQ_INPUT_AUTO_LINES);
    assert_int_equal(f->b.format, SQ_INPUT_LINES);
    /* ... but tsv stays tsv */
    read_as(f, "f.sql", "SELECT a\tdb\n", SQ_INPUT_AUTO_LINES);
    assert_int_equal(f->b.format, SQ_INPUT_TSV);
    /* a '[' that does not open an array of objects is no JSON */
    read_as(f, "h.sql", "[x] junk\n", SQ_INPUT_AUTO);
    assert_int_equal(f->b.format, SQ_INPUT_SQL);
    /* and a forced format wins */
    read_as(f, "g.sql", "SELECT 1\nSELECT 2\n", SQ_INPUT_SQL);
    assert_int_equal(f->b.n_items, 1);
    assert_int_equal(f->diags.n, 0);
}

static void byte_order_mark_is_skipped(void **state) {
    Fix *f = *state;
    assert_int_equal(read_as(f, "g.sql", "\xEF\xBB\xBFSELECT 1\tdb\n", SQ_INPUT_AUTO), 0);
    assert_int_equal(f->b.format, SQ_INPUT_TSV);
    assert_string_equal(sql_of(&f->b.items[0]), "SELECT 1");
    assert_pos(&f->b.items[0], 0, 1, 4);
    read_as(f, "d.json", "\xEF\xBB\xBF[{\"query\": \"SELECT 1\"}]", SQ_INPUT_AUTO);
    assert_int_equal(f->b.format, SQ_INPUT_SPIDER);
}

static void empty_files_have_no_items(void **state) {
    Fix *f = *state;
    assert_int_equal(read_as(f, "e.json", "[]", SQ_INPUT_AUTO), 0);
    assert_int_equal(f->b.n_items, 0);
    assert_int_equal(read_as(f, "e.txt", "", SQ_INPUT_LINES), 0);
    assert_int_equal(f->b.n_items, 0);
    assert_int_equal(f->diags.n, 0);
}

/* A file named .json is meant as a benchmark file: empty, or not JSON, it
** is an input error (not a SQL script of no statements). */
static void json_named_files_must_hold_json(void **state) {
    Fix *f = *state;
    assert_int_equal(read_as(f, "dev.json", "", SQ_INPUT_AUTO), -1);
    assert_codes(f, "E0003");
    assert_non_null(strstr(f->diags.items[0]->msg, "the file is empty"));
    assert_int_equal(read_as(f, "DEV.JSON", " \n\t\n", SQ_INPUT_AUTO), -1);
    assert_int_equal(read_as(f, "dev.json", "SELECT 1", SQ_INPUT_AUTO), -1);
    assert_int_equal(read_as(f, "p.txt", "", SQ_INPUT_BIRD_PRED), -1);
    assert_codes(f, "E0003 E0003 E0002 E0003");
    /* other names keep reading by content: an empty script is no error */
    assert_int_equal(read_as(f, "q.sql", "", SQ_INPUT_AUTO), 0);
    assert_int_equal(f->b.format, SQ_INPUT_SQL);
    assert_int_equal(read_as(f, "dev.jsonl", "SELECT 1", SQ_INPUT_AUTO), 0);
    assert_int_equal(f->diags.n, 4);
}

/* ------------------------------------------------------------------ */
/* db_ids by position                                                  */
/* ------------------------------------------------------------------ */

static void db_ids_are_taken_by_position(void **state) {
    Fix *f = *state;
    read_as(f, "dev.json", spider_dev, SQ_INPUT_AUTO);
    SqBench gold = f->b;
    read_as(f, "pred.sql", "select 1\nselect 2\nselect 3\n", SQ_INPUT_AUTO_LINES);
    sq_bench_take_db_ids(&f->b, &gold, &f->diags);
    assert_int_equal(f->diags.n, 0);
    assert_string_equal(f->b.items[0].db_id, "shop");
    assert_string_equal(f->b.items[2].db_id, "mall");
    assert_int_equal(f->b.items[2].db_id_span.file, gold.file->id); /* points into dev.json */
    read_as(f, "short.sql", "select 1\nselect 2\n", SQ_INPUT_AUTO_LINES);
    sq_bench_take_db_ids(&f->b, &gold, &f->diags);
    assert_codes(f, "E0003");
    assert_non_null(strstr(f->diags.items[0]->msg, "has 2 items but 'dev.json' has 3"));
    assert_string_equal(f->b.items[1].db_id, "shop");
}

/* ------------------------------------------------------------------ */
/* The real files                                                      */
/* ------------------------------------------------------------------ */

/* Read <corpora>/rel; skips the test when the corpus is absent. */
static void read_corpus(Fix *f, const char *rel, SqInputFormat format) {
    const char *root = getenv("SQUINT_CORPORA");
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", root && *root ? root : "../shared/corpora", rel);
    int err;
    f->file = sq_src_add_file(&f->srcs, path, &err);
    if (!f->file) skip();
    assert_int_equal(sq_bench_read(&f->b, f->arena, &f->srcs, f->file, format, &f->diags), 0);
}

static void every_item_has_sql_and_db_id(const SqBench *b) {
    for (uint32_t i = 0; i < b->n_items; i++) {
        if (!b->items[i].db_id || b->items[i].sql->len == 0)
            fail_msg("item %u has no db_id or no SQL", i);
    }
}

static void spider_corpus_files(void **state) {
    Fix *f = *state;
    read_corpus(f, "spider-dev/dev.json", SQ_INPUT_AUTO);
    assert_int_equal(f->b.format, SQ_INPUT_SPIDER);
    assert_int_equal(f->b.n_items, 1034);
    every_item_has_sql_and_db_id(&f->b);
    assert_string_equal(sql_of(&f->b.items[0]), "SELECT count(*) FROM singer");
    assert_string_equal(f->b.items[0].db_id, "concert_singer");
    SqBench gold = f->b;
    read_corpus(f, "spider-dev/predictions/model_1.sql", SQ_INPUT_AUTO);
    assert_int_equal(f->b.format, SQ_INPUT_LINES);
    assert_int_equal(f->b.n_items, 1034);
    sq_bench_take_db_ids(&f->b, &gold, &f->diags);
    every_item_has_sql_and_db_id(&f->b);
    read_corpus(f, "spider-dev/predictions/model_10.sql", SQ_INPUT_AUTO);
    assert_int_equal(f->b.format, SQ_INPUT_TSV); /* this one carries db_ids */
    every_item_has_sql_and_db_id(&f->b);
    assert_int_equal(f->diags.n, 0);
}

static void bird_corpus_files(void **state) {
    Fix *f = *state;
    read_corpus(f, "bird-dev/dev.json", SQ_INPUT_AUTO);
    assert_int_equal(f->b.format, SQ_INPUT_BIRD);
    assert_int_equal(f->b.n_items, 1534);
    every_item_has_sql_and_db_id(&f->b);
    assert_string_equal(f->b.items[1533].label, "question_id 1533");
    read_corpus(f, "bird-dev/dev_gold.sql", SQ_INPUT_AUTO);
    assert_int_equal(f->b.format, SQ_INPUT_TSV);
    assert_int_equal(f->b.n_items, 1534);
    every_item_has_sql_and_db_id(&f->b);
    read_corpus(f, "bird-dev/predictions/codes-15b-ek.json", SQ_INPUT_AUTO);
    assert_int_equal(f->b.format, SQ_INPUT_BIRD_PRED);
    assert_int_equal(f->b.n_items, 1534);
    every_item_has_sql_and_db_id(&f->b);
    read_corpus(f, "bird-dev/predictions/dail-sql-gpt4.sql", SQ_INPUT_AUTO);
    assert_int_equal(f->b.format, SQ_INPUT_LINES);
    assert_int_equal(f->b.n_items, 1534);
    assert_int_equal(f->diags.n, 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        FIX_TEST(format_names_round_trip),
        FIX_TEST(spider_items_labels_and_db_ids),
        FIX_TEST(spider_positions_map_through_escapes),
        FIX_TEST(bird_items_use_question_id),
        FIX_TEST(dev_items_without_sql_are_skipped_with_an_error),
        FIX_TEST(tables_json_given_as_input_is_recognised),
        FIX_TEST(invalid_json_fails_with_its_position),
        FIX_TEST(explicit_format_must_match_the_shape),
        FIX_TEST(bird_predictions_split_sql_and_db_id),
        FIX_TEST(gold_tsv_lines),
        FIX_TEST(explicit_tsv_reports_lines_without_db_id),
        FIX_TEST(prediction_lines_keep_empty_lines_as_items),
        FIX_TEST(scripts_are_one_item),
        FIX_TEST(text_detection_rules),
        FIX_TEST(byte_order_mark_is_skipped),
        FIX_TEST(empty_files_have_no_items),
        FIX_TEST(json_named_files_must_hold_json),
        FIX_TEST(db_ids_are_taken_by_position),
        FIX_TEST(spider_corpus_files),
        FIX_TEST(bird_corpus_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
