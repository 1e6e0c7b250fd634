/*
** test_memory.c -- one long statement takes memory in proportion to its size.
**
** Layer: tests (grammar, frontend).  A statement of about 800 KB (an IN list
** of 100,000 numbers, a SELECT of 50,000 columns, 60,000 VALUES rows) is
** parsed into a fresh arena and then bound against a small schema, as
** `squint parse` and `squint check` do; the arena's bytes after each step
** are compared with the statement's length.  Arena bytes are exact and
** deterministic, unlike a process's resident size.  The bounds are those
** docs/grammar.md ("Long tokens and memory") states: about 20 times the
** statement's size, 22 for the densest lists (a number or a row of two
** numbers every 6 to 15 bytes).
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/bind.h"
#include "frontend/catalog.h"
#include "grammar/parse.h"
#include "runtime/arena.h"
#include "runtime/strbuf.h"

/* Arena bytes a statement took, as a multiple of its length. */
typedef struct Usage {
    double parse; /* after parsing */
    double bind;  /* after parsing and binding */
} Usage;

static const char schema[] = "CREATE TABLE t(x INTEGER, name TEXT);";

/* Parse sql (one statement) and bind it against the schema. */
static Usage measure(const char *sql, size_t len) {
    SqSrcSet srcs;
    sq_srcset_init(&srcs);
    SqDiags diags;
    sq_diags_init(&diags, &srcs);
    SqInterner *names = sq_interner_new();
    Catalog *cat = sq_catalog_new(names, "test");
    sq_catalog_load_ddl(cat, sq_src_add_copy(&srcs, "schema.sql", schema, strlen(schema)), &diags);
    sq_catalog_link(cat, &diags);
    SqArena *arena = sq_arena_new();
    SqParser *p = sq_parser_new(sq_src_add_copy(&srcs, "q.sql", sql, len), names, &diags);
    SqParseResult r;
    assert_int_equal(sq_parser_next(p, arena, &r), SQ_PARSE_OK);
    Usage u;
    u.parse = (double)sq_arena_used(arena) / (double)len;
    SqBindOptions opt = {0, 0};
    assert_non_null(sq_bind_stmt(arena, cat, names, &diags, r.stmt, &opt));
    u.bind = (double)sq_arena_used(arena) / (double)len;
    assert_int_equal(diags.n_errors, 0);
    sq_parser_free(p);
    sq_arena_free(arena);
    sq_catalog_free(cat);
    sq_interner_free(names);
    sq_diags_free(&diags);
    sq_srcset_free(&srcs);
    return u;
}

static Usage measure_buf(SqBuf *b) {
    Usage u = measure(b->data, b->len);
    print_message("  %zu bytes: parse %.1fx, parse and bind %.1fx\n", b->len, u.parse, u.bind);
    sq_buf_free(b);
    return u;
}

static void in_list_of_numbers(void **state) {
    (void)state;
    SqBuf b = SQ_BUF_INIT;
    sq_buf_puts(&b, "SELECT x FROM t WHERE x IN (");
    for (int i = 0; i < 100000; i++) sq_buf_printf(&b, "%s%d", i ? ", " : "", 100000 + i);
    sq_buf_puts(&b, ")");
    Usage u = measure_buf(&b); /* 800 KB */
    assert_true(u.parse <= 10);
    assert_true(u.bind <= 20);
}

/* A denser IN list: numbers of up to six digits with no blanks. */
static void in_list_of_short_numbers(void **state) {
    (void)state;
    SqBuf b = SQ_BUF_INIT;
    sq_buf_puts(&b, "SELECT x FROM t WHERE x IN (");
    for (int i = 0; i < 140000; i++) sq_buf_printf(&b, "%s%d", i ? "," : "", i);
    sq_buf_puts(&b, ")");
    Usage u = measure_buf(&b); /* 870 KB */
    assert_true(u.parse <= 12);
    assert_true(u.bind <= 22);
}

static void in_list_of_strings(void **state) {
    (void)state;
    SqBuf b = SQ_BUF_INIT;
    sq_buf_puts(&b, "SELECT x FROM t WHERE name IN (");
    for (int i = 0; i < 90000; i++) sq_buf_printf(&b, "%s's%d'", i ? "," : "", i);
    sq_buf_puts(&b, ")");
    Usage u = measure_buf(&b); /* 800 KB */
    assert_true(u.parse <= 10);
    assert_true(u.bind <= 20);
}

static void values_rows(void **state) {
    (void)state;
    SqBuf b = SQ_BUF_INIT;
    sq_buf_puts(&b, "VALUES ");
    for (int i = 0; i < 60000; i++) sq_buf_printf(&b, "%s(%d, %d)", i ? ", " : "", i, i);
    Usage u = measure_buf(&b); /* 940 KB */
    assert_true(u.parse <= 12);
    assert_true(u.bind <= 22);
}

/* A SELECT list: the binder keeps three records per result column (its
** bound expression, its output column and the result item that ORDER BY
** reads), so binding takes as much as parsing. */
static void select_of_many_columns(void **state) {
    (void)state;
    SqBuf b = SQ_BUF_INIT;
    sq_buf_puts(&b, "SELECT ");
    for (int i = 0; i < 50000; i++) sq_buf_printf(&b, "%st.name AS c%05d", i ? ", " : "", i);
    sq_buf_puts(&b, " FROM t");
    Usage u = measure_buf(&b); /* 900 KB */
    assert_true(u.parse <= 12);
    assert_true(u.bind <= 22);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(in_list_of_numbers),
        cmocka_unit_test(in_list_of_short_numbers),
        cmocka_unit_test(in_list_of_strings),
        cmocka_unit_test(values_rows),
        cmocka_unit_test(select_of_many_columns),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
