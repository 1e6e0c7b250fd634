/* test_plug.c -- the Spider script's value plugging (backend/eval/plug.h).
** The expected words and values below are what the official script's own
** extract_query_values (test-suite-sql-eval's parse.py, with sqlparse
** 0.4.2) gives for these inputs, slots as "valuerare"; they include its
** quirks (a number glued to letters, an unclosed quote, a bracketed name).
** The corpus check is tests/conformance/eval_spider.sh. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "backend/eval/plug.h"

typedef struct Case {
    const char *sql, *words, *values;
} Case;

static const Case cases[] = {
    {"SELECT T1.name FROM singer AS T1 WHERE T1.age > 20 AND T1.country = 'France'",
     "select | t1 | . | name | from | singer | as | t1 | where | t1 | . | age | > | valuerare | and | t1 | . | country | = | valuerare",
     "'France' | 20"},
    {"select count(*) from t where a = 1.5 and b = -3 and c = \"x y\" and d like '%it''s%'",
     "select | count | ( | * | ) | from | t | where | a | = | valuerare | and | b | = | valuerare | and | c | = | valuerare | and | d | like | valuerare",
     "\"x y\" | '%it''s%' | 1.5 | -3"},
    {"SELECT t2.* , t1.id FROM a AS t1 JOIN b AS t2 ON t1.id = t2.id LIMIT 5;",
     "select | t2 | . | * | , | t1 | . | id | from | a | as | t1 | join | b | as | t2 | on | t1 | . | id | = | t2 | . | id | limit | valuerare",
     "5"},
    {"select name from t where x = 1.5abc or y = 12abc or z = .5 or w = 0x1F or v = 2e10",
     "select | name | from | t | where | x | = | 1. | 5abc | or | y | = | valuerare | 2abc | or | z | = | valuerare | or | w | = | 0x1f | or | v | = | 2e10",
     ".5 | 1"},
    {"select [my col] from t -- trailing comment",
     "select | [my | col] | from | t | -- | trailing | comment",
     ""},
    {"select a from t where b = 'unterminated",
     "select | a | from | t | where | b | = | ' | unterminated",
     ""},
    {"select a , b from t where c in (1, 2, 3) order by a desc",
     "select | a | , | b | from | t | where | c | in | ( | valuerare | , | valuerare | , | valuerare | ) | order | by | a | desc",
     "1 | 2 | 3"},
    {"select \"double\" from t where x='a' group by y having count(*)>=10",
     "select | valuerare | from | t | where | x | = | valuerare | group | by | y | having | count | ( | * | ) | >= | valuerare",
     "\"double\" | 'a' | 10"},
    {"select max(t1.age) from t as t1 where t1.name != 'x' and t2.id < 3.14",
     "select | max | ( | t1 | . | age | ) | from | t | as | t1 | where | t1 | . | name | != | valuerare | and | t2 | . | id | < | valuerare",
     "'x' | 3.14"},
    {"select * from t where a = '1' or b = 1 or c = 1.0",
     "select | * | from | t | where | a | = | valuerare | or | b | = | valuerare | or | c | = | valuerare",
     "'1' | 1.0 | 1"},
};

static void words_and_values_are_the_scripts(void **state) {
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *w, *v;
        sq_plug_extract(cases[i].sql, &w, &v);
        if (strcmp(w, cases[i].words) != 0) fail_msg("words of '%s': got '%s'", cases[i].sql, w);
        if (strcmp(v, cases[i].values) != 0) fail_msg("values of '%s': got '%s'", cases[i].sql, v);
        free(w);
        free(v);
    }
}

/* Every way to fill the slots, in itertools.product's order (the last
** slot fastest), each value of the gold once. */
static void rewritings_in_product_order(void **state) {
    (void)state;
    SqPlug *p = sq_plug_new("SELECT a FROM t WHERE b = 1 AND c = 'x' AND d = 1", "select a from t where b = 5 or c = 6");
    assert_int_equal(sq_plug_count(p), 4);
    static const char *const want[] = {
        "select a from t where b = 'x' or c = 'x'", "select a from t where b = 'x' or c = 1",
        "select a from t where b = 1 or c = 'x'", "select a from t where b = 1 or c = 1",
    };
    const char *got[4] = {0};
    char *copies[4] = {0};
    for (int k = 0; k < 4; k++) {
        const char *t = sq_plug_next(p);
        assert_non_null(t);
        copies[k] = strdup(t);
        got[k] = copies[k];
    }
    assert_null(sq_plug_next(p));
    /* the gold's values come as the script lists them: strings first */
    for (int k = 0; k < 4; k++) assert_string_equal(got[k], want[k]);
    for (int k = 0; k < 4; k++) free(copies[k]);
    sq_plug_free(p);
    /* no slots: one rewriting, the words joined */
    p = sq_plug_new("SELECT a FROM t WHERE b = 3", "SELECT T1.a FROM t AS T1");
    assert_int_equal(sq_plug_count(p), 1);
    assert_string_equal(sq_plug_next(p), "select t1 . a from t as t1");
    assert_null(sq_plug_next(p));
    sq_plug_free(p);
    /* slots but no gold values: none */
    p = sq_plug_new("SELECT a FROM t", "SELECT a FROM t WHERE b = 3");
    assert_null(sq_plug_next(p));
    sq_plug_free(p);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(words_and_values_are_the_scripts),
        cmocka_unit_test(rewritings_in_product_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
