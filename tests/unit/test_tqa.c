/* test_tqa.c -- passes/expand/tqa.c: the linker table (betweenness, the schema graph breaking a tie), the segments of a table's name, and the words of a question or evidence that name them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "passes/expand/tqa.h"
#include "tests/unit/unit_schema.h"

static int setup(void **state) {
    *state = sq_arena_new();
    return 0;
}

static int teardown(void **state) {
    sq_arena_free(*state);
    return 0;
}

/* A graph of the tables named in names (space-separated) and the edges
** "a-b" of edges (space-separated, by table). */
static SqGraph *graph(SqArena *a, const char *names, const char *edges) {
    SqGraph *g = sq_graph_new(a);
    char buf[256], *save = NULL;
    snprintf(buf, sizeof buf, "%s", names);
    for (char *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
        const char *name = sq_arena_strdup(a, t);
        sq_graph_add_node(g, name, name, g->n_nodes);
    }
    snprintf(buf, sizeof buf, "%s", edges);
    for (char *e = strtok_r(buf, " ", &save); e; e = strtok_r(NULL, " ", &save)) {
        char *dash = strchr(e, '-');
        *dash = 0;
        const char *col[] = {"id"};
        sq_graph_add_label(g, (uint32_t)sq_graph_find(g, e), (uint32_t)sq_graph_find(g, dash + 1), col, col, 1,
                           SQ_JL_QUERY);
    }
    return g;
}

static const char *linker(SqArena *a, SqGraph *q, const Catalog *cat, int *tie) {
    int i = sq_tqa_linker(q, a, cat, tie);
    return i < 0 ? "none" : q->nodes[i].name;
}

/* The hub of the query's joins is the linker table; three tables or
** fewer have none. */
static void linker_is_the_most_central(void **state) {
    SqArena *a = *state;
    int tie;
    SqGraph *q = graph(a, "actor characters movie award", "actor-characters characters-movie movie-award");
    assert_string_equal(linker(a, q, NULL, &tie), "characters"); /* 2 vs movie's 2: a tie, no schema */
    q = graph(a, "actor characters movie award", "actor-characters characters-movie characters-award");
    assert_string_equal(linker(a, q, NULL, &tie), "characters");
    assert_int_equal(tie, 0);
    q = graph(a, "actor characters movie", "actor-characters characters-movie");
    assert_string_equal(linker(a, q, NULL, &tie), "none");
}

/* A tie in the query graph goes to the tied table most central in the
** schema graph. */
static void schema_breaks_a_tie(void **state) {
    SqArena *a = *state;
    int tie;
    SqGraph *q = graph(a, "a b c d", "a-b b-c c-d");
    UnitSchema u; /* the schema graph's edges: a-b b-c c-d c-e c-f (no two keys referenced twice, so no
                  ** FK-FK edges) */
    unit_schema_load(&u, "CREATE TABLE d (id INT PRIMARY KEY); CREATE TABLE e (id INT PRIMARY KEY);"
                         "CREATE TABLE f (id INT PRIMARY KEY);"
                         "CREATE TABLE c (id INT PRIMARY KEY, d_id INT REFERENCES d(id), e_id INT REFERENCES e(id),"
                         " f_id INT REFERENCES f(id));"
                         "CREATE TABLE b (id INT PRIMARY KEY, c_id INT REFERENCES c(id));"
                         "CREATE TABLE a (id INT PRIMARY KEY, b_id INT REFERENCES b(id));");
    assert_string_equal(linker(a, q, u.cat, &tie), "c");
    assert_int_equal(tie, 1);
    unit_schema_free(&u);
    /* a-b b-c c-d b-e b-f */
    unit_schema_load(&u, "CREATE TABLE d (id INT PRIMARY KEY); CREATE TABLE e (id INT PRIMARY KEY);"
                         "CREATE TABLE f (id INT PRIMARY KEY);"
                         "CREATE TABLE c (id INT PRIMARY KEY, d_id INT REFERENCES d(id));"
                         "CREATE TABLE b (id INT PRIMARY KEY, c_id INT REFERENCES c(id), e_id INT REFERENCES e(id),"
                         " f_id INT REFERENCES f(id));"
                         "CREATE TABLE a (id INT PRIMARY KEY, b_id INT REFERENCES b(id));");
    assert_string_equal(linker(a, q, u.cat, &tie), "b");
    unit_schema_free(&u);
}

static const char *segments(SqArena *a, const char *name) {
    SqTqaSegment *s;
    uint32_t n = sq_tqa_segments(a, name, &s);
    char buf[256] = "";
    for (uint32_t i = 0; i < n; i++) {
        size_t k = strlen(buf);
        snprintf(buf + k, sizeof buf - k, "%s%s%s", i ? " " : "", s[i].text, s[i].abbr ? "*" : "");
    }
    return sq_arena_strdup(a, buf);
}

/* Names cut at underscores, case changes and digits; an abbreviation has
** no vowel after its first letter (marked * here). */
static void names_cut_into_segments(void **state) {
    SqArena *a = *state;
    assert_string_equal(segments(a, "lapTimes"), "lap times");
    assert_string_equal(segments(a, "frpm"), "frpm*");
    assert_string_equal(segments(a, "Player_Attributes"), "player attributes");
    assert_string_equal(segments(a, "HTMLParser"), "html* parser");
    assert_string_equal(segments(a, "img_2020_data"), "img* data");
    assert_string_equal(segments(a, "satscores"), "satscores");
}

/* The words of text that name a segment of table, "word>segment" each. */
static const char *refs(SqArena *a, const char *table, const char *text, int evidence, const Catalog *cat) {
    SqTqaSegment *s;
    uint32_t n = sq_tqa_segments(a, table, &s);
    SqTqaMatch *m;
    uint32_t k = sq_tqa_references(a, s, n, text, evidence, cat, &m);
    char buf[256] = "";
    for (uint32_t i = 0; i < k; i++) {
        size_t l = strlen(buf);
        snprintf(buf + l, sizeof buf - l, "%s%.*s>%s", i ? " " : "", (int)(m[i].end - m[i].start), text + m[i].start,
                 s[m[i].segment].text);
    }
    return sq_arena_strdup(a, buf);
}

static void words_name_segments(void **state) {
    SqArena *a = *state;
    /* the same stem; a plural; nothing else */
    assert_string_equal(refs(a, "lapTimes", "Which laps were fastest, and at what time?", 0, NULL),
                        "laps>lap time>times");
    /* an abbreviation inside a word, vowels aside; not a word of another first letter */
    assert_string_equal(refs(a, "img_data", "List the images and their metadata.", 0, NULL), "images>img");
    assert_string_equal(refs(a, "trns", "How many transactions? Return the totals.", 0, NULL), "transactions>trns");
    /* a prefix of four letters or more, a synonym, an irregular form */
    assert_string_equal(refs(a, "trans", "Count the transactions.", 0, NULL), "transactions>trans");
    assert_string_equal(refs(a, "sales", "What was sold in 2012?", 0, NULL), "sold>sales");
    assert_string_equal(refs(a, "nation", "Which countries are in Europe?", 0, NULL), "countries>nation");
    assert_string_equal(refs(a, "person", "How many people?", 0, NULL), "people>person");
    /* a short segment is matched whole, not as a prefix */
    assert_string_equal(refs(a, "car", "Which cardinal?", 0, NULL), "");
}

/* In the evidence, quoted text and the schema's column names are left
** out; in the question they are not. */
static void evidence_leaves_values_and_columns_out(void **state) {
    SqArena *a = *state;
    UnitSchema u;
    unit_schema_load(&u, "CREATE TABLE bond (bond_id TEXT PRIMARY KEY, bond_type TEXT, bonds INT);");
    const Catalog *cat = u.cat;
    const char *ev = "double bond refers to bond_type = '=' ; 'bond' is a value; bonds is a column; the atom's bond";
    assert_string_equal(refs(a, "bond", ev, 1, cat), "bond>bond bond>bond");
    assert_string_equal(refs(a, "bond", ev, 0, NULL), "bond>bond bond_type>bond bond>bond bonds>bond bond>bond");
    unit_schema_free(&u);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(linker_is_the_most_central, setup, teardown),
        cmocka_unit_test_setup_teardown(schema_breaks_a_tie, setup, teardown),
        cmocka_unit_test_setup_teardown(names_cut_into_segments, setup, teardown),
        cmocka_unit_test_setup_teardown(words_name_segments, setup, teardown),
        cmocka_unit_test_setup_teardown(evidence_leaves_values_and_columns_out, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
