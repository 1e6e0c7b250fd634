/* test_hints.c -- backend/suite/hints.c: the values a question's text and
** BIRD's evidence quote, each attached to the column a comparison there
** names; apostrophes, LIKE patterns and unclosed quotes are not values. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "backend/suite/suite_int.h"

typedef struct Want {
    const char *column; /* NULL: attached to none */
    const char *text;
} Want;

static void expect_hints(const char *question, const char *evidence, const Want *want, uint32_t n) {
    SqArena *a = sq_arena_new();
    SuiteHints h;
    suite_hints(question, evidence, a, &h);
    if (h.n != n) {
        for (uint32_t i = 0; i < h.n; i++)
            print_message("  got %s = '%s'\n", h.v[i].column ? h.v[i].column : "(none)", h.v[i].text);
    }
    assert_int_equal(h.n, n);
    for (uint32_t i = 0; i < n; i++) {
        assert_string_equal(h.v[i].text, want[i].text);
        if (want[i].column) {
            assert_non_null(h.v[i].column);
            assert_string_equal(h.v[i].column, want[i].column);
        } else {
            assert_null(h.v[i].column);
        }
    }
    sq_arena_free(a);
}

/* BIRD's evidence: a value per comparison, the column before the operator
** (evidence is read before the question). */
static void test_evidence_comparisons(void **state) {
    (void)state;
    static const Want want[] = {{"A3", "east Bohemia"}, {"gender", "F"}, {"T1.status", "Closed"}, {NULL, "Fresno"}};
    expect_hints("Which schools in 'Fresno' closed?",
                 "east Bohemia refers to A3 = 'east Bohemia'; female refers to gender = 'F'; "
                 "closed refers to T1.status == \"Closed\"",
                 want, 4);
}

/* Quoted and bracketed column names, <>, LIKE without a %, IN lists. */
static void test_column_forms(void **state) {
    (void)state;
    static const Want want[] = {{"Free Meal Count", "12"},   {"Charter School", "Yes"}, {"type", "Token"},
                                {"color", "W"},               {"color", "U"},            {"rarity", "mythic"}};
    expect_hints(NULL,
                 "`Free Meal Count` <> '12' and [Charter School] = 'Yes'; type like 'Token'; "
                 "color IN ('W', 'U'); rarity='mythic'",
                 want, 6);
}

/* Not values: an apostrophe in a word, a LIKE pattern, an unclosed quote;
** a quote after a word that is not an operator is the question's own. */
static void test_not_values(void **state) {
    (void)state;
    static const Want want[] = {{NULL, "Lore"}};
    expect_hints("What is the school's phone, and the set named 'Lore'?", "name LIKE '%Vault%'", want, 1);
    expect_hints("It's Bob's 'unclosed", NULL, NULL, 0);
    expect_hints(NULL, NULL, NULL, 0);
    /* "within" is no operator: its quote is attached to nothing */
    static const Want within[] = {{NULL, "Paris"}};
    expect_hints("cities within 'Paris'", NULL, within, 1);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_evidence_comparisons),
        cmocka_unit_test(test_column_forms),
        cmocka_unit_test(test_not_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
