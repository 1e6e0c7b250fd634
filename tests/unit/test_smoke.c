/* test_smoke.c -- the test harness itself works (cmocka, TAP, linking). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../../runtime/intern.h"

static void interned_names_fold_case(void **state) {
    (void)state;
    SqInterner *in = sq_interner_new();
    assert_ptr_equal(sq_intern_cstr(in, "Singer"), sq_intern_cstr(in, "SINGER"));
    assert_ptr_not_equal(sq_intern_cstr(in, "singer"), sq_intern_cstr(in, "singers"));
    sq_interner_free(in);
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(interned_names_fold_case)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
