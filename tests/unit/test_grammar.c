/*
** test_grammar.c -- the SQL parser builds the trees SQLite 3.40 means.
**
** Layer: tests (grammar).  Each test parses SQL text with the public API
** (grammar/parse.h), prints every statement with ast_print_sexp() and
** compares the text with the tree SQLite's own grammar builds: operator
** precedence, join kinds, clause ownership in compound SELECTs, keywords
** used as names, DDL and DML, and the parse-time errors SQLite raises
** (checked by diagnostic code and message).  Expected trees were read and
** checked against SQLite's parse.y by hand, not copied blindly.
**
** Memory: every helper frees what it allocates before asserting, so a
** failing check leaks nothing.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grammar/ast_print.h"
#include "grammar/parse.h"

/* ------------------------------------------------------------------ */
/* Helpers                                                             */
/* ------------------------------------------------------------------ */

/* What one parse produced: the printed trees of the statements that
** parsed, and one line per error ("E0103 1:8: message"), in order. */
typedef struct ParseOut {
    SqBuf trees;    /* ast_print_sexp() of each good statement */
    SqBuf errors;   /* "CODE line:col: message\n" per error diagnostic */
    SqBuf rendered; /* every diagnostic rendered as squint prints it */
    char first[512];/* "CODE: message" of the first error, or "" */
    size_t n_failed;/* statements that failed */
    size_t n_ok;    /* statements that parsed */
} ParseOut;

static void record_diags(ParseOut *o, const SqDiags *d, const SqSrc *src) {
    for (size_t i = 0; i < d->n; i++) {
        const SqDiag *g = d->items[i];
        sq_diag_render_text(d, g, &o->rendered, 0);
        if (g->sev != SQ_SEV_ERROR) continue;
        SqSrcPos pos = sq_src_locate(src, g->span.start);
        sq_buf_printf(&o->errors, "%s %u:%u: %s\n", g->code, pos.line, pos.col,
                      g->msg);
        if (!o->first[0])
            snprintf(o->first, sizeof o->first, "%s: %s", g->code, g->msg);
    }
}

/* Parse sql statement by statement (as `squint parse` does) into o. */
static void run_parse(const char *sql, ParseOut *o) {
    memset(o, 0, sizeof *o);
    SqSrcSet srcs;
    sq_srcset_init(&srcs);
    SqSrc *src = sq_src_add_copy(&srcs, "<test>", sql, strlen(sql));
    SqInterner *names = sq_interner_new();
    SqDiags diags;
    sq_diags_init(&diags, &srcs);
    SqParser *p = sq_parser_new(src, names, &diags);
    SqArena *arena = sq_arena_new();
    SqParseResult res;
    SqParseStatus st;
    while ((st = sq_parser_next(p, arena, &res)) != SQ_PARSE_END) {
        if (st == SQ_PARSE_OK) {
            ast_print_sexp(&o->trees, res.stmt);
            o->n_ok++;
        } else {
            o->n_failed++;
        }
        sq_arena_reset(arena);
    }
    record_diags(o, &diags, src);
    sq_arena_free(arena);
    sq_parser_free(p);
    sq_diags_free(&diags);
    sq_interner_free(names);
    sq_srcset_free(&srcs);
}

static void free_out(ParseOut *o) {
    sq_buf_free(&o->trees);
    sq_buf_free(&o->errors);
    sq_buf_free(&o->rendered);
}

/* The s-expressions of every statement in sql, or "CODE: message" of the
** first error when parsing fails.  The caller frees the result. */
static char *parse_sexp(const char *sql) {
    ParseOut o;
    run_parse(sql, &o);
    char *s = strdup(o.first[0] ? o.first : sq_buf_str(&o.trees));
    free_out(&o);
    return s;
}

static char fail_text[16384]; /* message of the last failed check */

/* Assert that sql prints exactly want. */
static void check_sexp(const char *sql, const char *want) {
    char *got = parse_sexp(sql);
    int same = strcmp(got, want) == 0;
    if (!same)
        snprintf(fail_text, sizeof fail_text,
                 "\nsql:  %s\nwant: %s\ngot:  %s", sql, want, got);
    free(got);
    if (!same) fail_msg("%s", fail_text);
}

/* Assert that the printed tree of sql contains every needle (a NULL-ended
** list), for trees too long to spell out whole. */
static void check_contains(const char *sql, ...) {
    char *got = parse_sexp(sql);
    const char *missing = NULL;
    va_list ap;
    va_start(ap, sql);
    for (const char *n; (n = va_arg(ap, const char *)) != NULL;)
        if (!missing && !strstr(got, n)) missing = n;
    va_end(ap);
    if (missing)
        snprintf(fail_text, sizeof fail_text,
                 "\nsql:     %s\nmissing: %s\ngot:     %s", sql, missing, got);
    free(got);
    if (missing) fail_msg("%s", fail_text);
}

/* Assert that the single expression e prints as want. */
static void check_expr(const char *e, const char *want) {
    char sql[1024], full[2048];
    snprintf(sql, sizeof sql, "SELECT %s", e);
    snprintf(full, sizeof full,
             "(select-stmt\n  (select\n    (columns (result %s))))\n", want);
    check_sexp(sql, full);
}

/* Assert that the first error of sql is "CODE: message". */
static void check_error(const char *sql, const char *want) {
    check_sexp(sql, want);
}

/* Assert that the first error of sql has the given code and that its
** message contains the given text. */
static void check_error_like(const char *sql, const char *code,
                             const char *in_msg) {
    char *got = parse_sexp(sql);
    size_t n = strlen(code);
    int ok = strncmp(got, code, n) == 0 && got[n] == ':' &&
             strstr(got + n, in_msg) != NULL;
    if (!ok)
        snprintf(fail_text, sizeof fail_text,
                 "\nsql:  %s\nwant: %s: ...%s...\ngot:  %s", sql, code, in_msg,
                 got);
    free(got);
    if (!ok) fail_msg("%s", fail_text);
}

/* Assert that the error list of sql ("CODE line:col: message" lines) is
** exactly want. */
static void check_errors(const char *sql, const char *want) {
    ParseOut o;
    run_parse(sql, &o);
    int same = strcmp(sq_buf_str(&o.errors), want) == 0;
    if (!same)
        snprintf(fail_text, sizeof fail_text, "\nsql:  %s\nwant: %s\ngot:  %s",
                 sql, want, sq_buf_str(&o.errors));
    free_out(&o);
    if (!same) fail_msg("%s", fail_text);
}

/* "SELECT " + n '(' + "1" + n ')' (caller frees). */
static char *nested_parens(int n) {
    char *s = malloc((size_t)(2 * n) + 16);
    assert_non_null(s);
    char *w = s + sprintf(s, "SELECT ");
    memset(w, '(', (size_t)n);
    w += n;
    *w++ = '1';
    memset(w, ')', (size_t)n);
    w[n] = '\0';
    return s;
}

/* ------------------------------------------------------------------ */
/* SELECT                                                              */
/* ------------------------------------------------------------------ */

static void with_recursive_column_list_and_materialized(void **state) {
    (void)state;
    check_sexp(
        "WITH RECURSIVE c(x, y) AS MATERIALIZED (SELECT 1, 2 UNION ALL "
        "SELECT x+1, y FROM c WHERE x < 10), d AS NOT MATERIALIZED (SELECT 3) "
        "SELECT * FROM c, d",
        "(select-stmt\n"
        "  (select\n"
        "    (with-recursive\n"
        "      (cte\n"
        "        c\n"
        "        (columns x y)\n"
        "        materialized\n"
        "        (union-all\n"
        "          (select\n"
        "            (columns (result (int 1)) (result (int 2))))\n"
        "          (select\n"
        "            (columns (result (+ (col x) (int 1))) (result (col y)))\n"
        "            (from (table (name c)))\n"
        "            (where (< (col x) (int 10))))))\n"
        "      (cte\n"
        "        d\n"
        "        not-materialized\n"
        "        (select\n"
        "          (columns (result (int 3))))))\n"
        "    (columns (star))\n"
        "    (from (table (name c)) (table (join comma) (name d)))))\n");
}

static void with_plain_cte(void **state) {
    (void)state;
    check_sexp("WITH x AS (SELECT 1) SELECT * FROM x",
               "(select-stmt\n"
               "  (select\n"
               "    (with\n"
               "      (cte\n"
               "        x\n"
               "        (select\n"
               "          (columns (result (int 1))))))\n"
               "    (columns (star))\n"
               "    (from (table (name x)))))\n");
}

/* All four operators have equal precedence and group to the left; the
** trailing ORDER BY and LIMIT belong to the whole compound. */
static void compound_operators_group_left(void **state) {
    (void)state;
    check_sexp(
        "SELECT a FROM t UNION SELECT b FROM u UNION ALL SELECT c FROM v "
        "INTERSECT SELECT d FROM w EXCEPT SELECT e FROM x ORDER BY 1 LIMIT 3",
        "(select-stmt\n"
        "  (except\n"
        "    (intersect\n"
        "      (union-all\n"
        "        (union\n"
        "          (select\n"
        "            (columns (result (col a)))\n"
        "            (from (table (name t))))\n"
        "          (select\n"
        "            (columns (result (col b)))\n"
        "            (from (table (name u)))))\n"
        "        (select\n"
        "          (columns (result (col c)))\n"
        "          (from (table (name v)))))\n"
        "      (select\n"
        "        (columns (result (col d)))\n"
        "        (from (table (name w)))))\n"
        "    (select\n"
        "      (columns (result (col e)))\n"
        "      (from (table (name x))))\n"
        "    (order-by (sort (int 1)))\n"
        "    (limit (int 3))))\n");
}

static void compound_order_and_limit_belong_to_compound(void **state) {
    (void)state;
    check_sexp(
        "SELECT a FROM t UNION ALL SELECT b FROM u ORDER BY 1 DESC LIMIT 2 OFFSET 3",
        "(select-stmt\n"
        "  (union-all\n"
        "    (select\n"
        "      (columns (result (col a)))\n"
        "      (from (table (name t))))\n"
        "    (select\n"
        "      (columns (result (col b)))\n"
        "      (from (table (name u))))\n"
        "    (order-by (sort (int 1) desc))\n"
        "    (limit (int 2))\n"
        "    (offset (int 3))))\n");
    check_sexp("VALUES (1), (2) UNION SELECT 3 ORDER BY 1",
               "(select-stmt\n"
               "  (union\n"
               "    (values\n"
               "      (rows (row (int 1)) (row (int 2))))\n"
               "    (select\n"
               "      (columns (result (int 3))))\n"
               "    (order-by (sort (int 1)))))\n");
}

static void distinct_and_all(void **state) {
    (void)state;
    check_sexp("SELECT DISTINCT a FROM t",
               "(select-stmt\n  (select\n    distinct\n"
               "    (columns (result (col a)))\n"
               "    (from (table (name t)))))\n");
    check_sexp("SELECT ALL a FROM t",
               "(select-stmt\n  (select\n    all\n"
               "    (columns (result (col a)))\n"
               "    (from (table (name t)))))\n");
}

static void result_columns(void **state) {
    (void)state;
    check_sexp("SELECT a, b AS c, d e, *, t.*, 'x' 'y' FROM t",
               "(select-stmt\n"
               "  (select\n"
               "    (columns (result (col a)) (result (col b) (as c)) "
               "(result (col d) (alias e)) (star) (table-star t) "
               "(result (str \"x\") (alias 'y')))\n"
               "    (from (table (name t)))))\n");
}

static void from_aliases_and_subqueries(void **state) {
    (void)state;
    check_sexp("SELECT a FROM t AS x, u y, (SELECT 1) AS s, (SELECT 2) z",
               "(select-stmt\n"
               "  (select\n"
               "    (columns (result (col a)))\n"
               "    (from (table (name t) (as x)) (table (join comma) (name u) (as y)) "
               "(subquery (join comma) (as s) (select\n"
               "          (columns (result (int 1))))) "
               "(subquery (join comma) (as z) (select\n"
               "          (columns (result (int 2))))))))\n");
}

static void join_operators(void **state) {
    (void)state;
    check_sexp(
        "SELECT * FROM a NATURAL JOIN b LEFT JOIN c ON x LEFT OUTER JOIN d "
        "USING (k, l) RIGHT JOIN e ON 1 FULL JOIN f ON 1 INNER JOIN g ON 1 "
        "CROSS JOIN h JOIN i",
        "(select-stmt\n"
        "  (select\n"
        "    (columns (star))\n"
        "    (from (table (name a)) (table (join natural-inner) (name b)) "
        "(table (join left) (name c) (on (col x))) "
        "(table (join left) (name d) (using k l)) "
        "(table (join right) (name e) (on (int 1))) "
        "(table (join full) (name f) (on (int 1))) "
        "(table (join inner) (name g) (on (int 1))) "
        "(table (join cross) (name h)) (table (join inner) (name i)))))\n");
    /* sqlite3JoinType() combinations SQLite accepts. */
    check_contains("SELECT * FROM t RIGHT OUTER JOIN u ON 1", "(join right)", NULL);
    check_contains("SELECT * FROM t FULL OUTER JOIN u ON 1", "(join full)", NULL);
    check_contains("SELECT * FROM t LEFT RIGHT JOIN u ON 1", "(join full)", NULL);
    check_contains("SELECT * FROM t NATURAL LEFT OUTER JOIN u", "(join natural-left)", NULL);
    check_contains("SELECT * FROM t NATURAL CROSS JOIN u", "(join natural-cross)", NULL);
    /* A comma join may carry ON in SQLite. */
    check_contains("SELECT * FROM t, u ON x", "(table (join comma) (name u) (on (col x)))", NULL);
}

static void nested_parenthesized_joins(void **state) {
    (void)state;
    check_sexp("SELECT * FROM (a JOIN b ON x) JOIN (c, d)",
               "(select-stmt\n"
               "  (select\n"
               "    (columns (star))\n"
               "    (from (nested (from (table (name a)) "
               "(table (join inner) (name b) (on (col x))))) "
               "(nested (join inner) (from (table (name c)) "
               "(table (join comma) (name d)))))))\n");
}

static void table_function_and_indexed_by(void **state) {
    (void)state;
    check_sexp("SELECT * FROM json_each(x, '$.a') AS j, t INDEXED BY i, u NOT INDEXED",
               "(select-stmt\n"
               "  (select\n"
               "    (columns (star))\n"
               "    (from (table (name json_each) (args (col x) (str \"$.a\")) (as j)) "
               "(table (join comma) (name t) (indexed-by i)) "
               "(table (join comma) (name u) not-indexed))))\n");
}

static void where_group_by_having(void **state) {
    (void)state;
    check_sexp("SELECT a, count(*) FROM t WHERE b > 1 GROUP BY a, c HAVING count(*) > 2",
               "(select-stmt\n"
               "  (select\n"
               "    (columns (result (col a)) (result (call count star)))\n"
               "    (from (table (name t)))\n"
               "    (where (> (col b) (int 1)))\n"
               "    (group-by (col a) (col c))\n"
               "    (having (> (call count star) (int 2)))))\n");
}

static void window_clause_and_over(void **state) {
    (void)state;
    check_sexp(
        "SELECT sum(x) OVER w, avg(x) OVER (w ORDER BY y), max(x) FILTER "
        "(WHERE x > 0) OVER (PARTITION BY a, b ORDER BY c DESC ROWS BETWEEN "
        "UNBOUNDED PRECEDING AND CURRENT ROW EXCLUDE NO OTHERS) FROM t "
        "WINDOW w AS (PARTITION BY z), v AS (RANGE BETWEEN 1 PRECEDING AND "
        "2 FOLLOWING EXCLUDE TIES)",
        "(select-stmt\n"
        "  (select\n"
        "    (columns (result (call sum (col x) (over (base w)))) "
        "(result (call avg (col x) (over (base w) (order-by (sort (col y)))))) "
        "(result (call max (col x) (filter (> (col x) (int 0))) "
        "(over (partition-by (col a) (col b)) (order-by (sort (col c) desc)) "
        "(frame (rows (start unbounded-preceding) (end current-row) "
        "(exclude no-others)))))))\n"
        "    (from (table (name t)))\n"
        "    (window (window-def (name w) (partition-by (col z))) "
        "(window-def (name v) (frame (range (start preceding (int 1)) "
        "(end following (int 2)) (exclude ties)))))))\n");
}

static void window_frames(void **state) {
    (void)state;
    check_expr("sum(x) OVER (GROUPS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING "
               "EXCLUDE CURRENT ROW)",
               "(call sum (col x) (over (frame (groups (start current-row) "
               "(end unbounded-following) (exclude current-row)))))");
    check_expr("sum(x) OVER (ROWS 3 PRECEDING EXCLUDE GROUP)",
               "(call sum (col x) (over (frame (rows (start preceding (int 3)) "
               "(exclude group)))))");
    check_expr("sum(x) OVER (ORDER BY y ROWS BETWEEN 2 PRECEDING AND 1 FOLLOWING)",
               "(call sum (col x) (over (order-by (sort (col y))) (frame (rows "
               "(start preceding (int 2)) (end following (int 1))))))");
    /* WINDOW comes after HAVING and before ORDER BY. */
    check_sexp("SELECT a FROM t GROUP BY a WINDOW w AS () ORDER BY a",
               "(select-stmt\n"
               "  (select\n"
               "    (columns (result (col a)))\n"
               "    (from (table (name t)))\n"
               "    (group-by (col a))\n"
               "    (window (window-def (name w)))\n"
               "    (order-by (sort (col a)))))\n");
}

static void filter_clause(void **state) {
    (void)state;
    check_expr("count(*) FILTER (WHERE a) OVER ()",
               "(call count star (filter (col a)) (over))");
    check_expr("sum(b) FILTER (WHERE a > 1)",
               "(call sum (col b) (filter (> (col a) (int 1))))");
}

static void order_by_terms(void **state) {
    (void)state;
    check_sexp("SELECT a FROM t ORDER BY a ASC, b DESC, c COLLATE nocase, "
               "d NULLS FIRST, e DESC NULLS LAST",
               "(select-stmt\n"
               "  (select\n"
               "    (columns (result (col a)))\n"
               "    (from (table (name t)))\n"
               "    (order-by (sort (col a) asc) (sort (col b) desc) "
               "(sort (collate (col c) nocase)) (sort (col d) nulls-first) "
               "(sort (col e) desc nulls-last))))\n");
}

static void limit_offset(void **state) {
    (void)state;
    check_sexp("SELECT a FROM t LIMIT 10 OFFSET 5",
               "(select-stmt\n"
               "  (select\n"
               "    (columns (result (col a)))\n"
               "    (from (table (name t)))\n"
               "    (limit (int 10))\n"
               "    (offset (int 5))))\n");
    check_sexp("SELECT a FROM t LIMIT 7",
               "(select-stmt\n"
               "  (select\n"
               "    (columns (result (col a)))\n"
               "    (from (table (name t)))\n"
               "    (limit (int 7))))\n");
}

/* LIMIT a, b: a is the offset and b the count. */
static void limit_comma_puts_offset_first(void **state) {
    (void)state;
    check_sexp("SELECT a FROM t LIMIT 5, 10",
               "(select-stmt\n"
               "  (select\n"
               "    (columns (result (col a)))\n"
               "    (from (table (name t)))\n"
               "    (limit (int 10))\n"
               "    (offset (int 5))\n"
               "    limit-comma))\n");
}

static void values_rows(void **state) {
    (void)state;
    check_sexp("VALUES (1, 'a'), (2, 'b'), (3, NULL)",
               "(select-stmt\n"
               "  (values\n"
               "    (rows (row (int 1) (str \"a\")) (row (int 2) (str \"b\")) "
               "(row (int 3) (null)))))\n");
    check_sexp("SELECT 1 UNION VALUES (2), (3)",
               "(select-stmt\n"
               "  (union\n"
               "    (select\n"
               "      (columns (result (int 1))))\n"
               "    (values\n"
               "      (rows (row (int 2)) (row (int 3))))))\n");
}

/* ------------------------------------------------------------------ */
/* Expressions                                                         */
/* ------------------------------------------------------------------ */

typedef struct ExprCase {
    const char *sql;  /* an expression */
    const char *want; /* its printed tree */
} ExprCase;

static void check_expr_table(const ExprCase *cases, size_t n) {
    for (size_t i = 0; i < n; i++) check_expr(cases[i].sql, cases[i].want);
}

static void binary_operators(void **state) {
    (void)state;
    static const ExprCase cases[] = {
        {"a || b", "(|| (col a) (col b))"},   {"a -> b", "(-> (col a) (col b))"},
        {"a ->> b", "(->> (col a) (col b))"}, {"a * b", "(* (col a) (col b))"},
        {"a / b", "(/ (col a) (col b))"},     {"a % b", "(% (col a) (col b))"},
        {"a + b", "(+ (col a) (col b))"},     {"a - b", "(- (col a) (col b))"},
        {"a << b", "(<< (col a) (col b))"},   {"a >> b", "(>> (col a) (col b))"},
        {"a & b", "(& (col a) (col b))"},     {"a | b", "(| (col a) (col b))"},
        {"a < b", "(< (col a) (col b))"},     {"a <= b", "(<= (col a) (col b))"},
        {"a > b", "(> (col a) (col b))"},     {"a >= b", "(>= (col a) (col b))"},
        {"a = b", "(= (col a) (col b))"},     {"a == b", "(= (col a) (col b))"},
        {"a != b", "(!= (col a) (col b))"},   {"a <> b", "(!= (col a) (col b))"},
        {"a AND b", "(and (col a) (col b))"}, {"a OR b", "(or (col a) (col b))"},
    };
    check_expr_table(cases, sizeof cases / sizeof cases[0]);
}

static void is_and_is_distinct_from(void **state) {
    (void)state;
    static const ExprCase cases[] = {
        {"a IS b", "(is (col a) (col b))"},
        {"a IS NOT b", "(is-not (col a) (col b))"},
        {"a IS DISTINCT FROM b", "(is-distinct-from (col a) (col b))"},
        {"a IS NOT DISTINCT FROM b", "(is-not-distinct-from (col a) (col b))"},
        {"a IS NOT NOT b", "(is-not (col a) (not (col b)))"},
    };
    check_expr_table(cases, sizeof cases / sizeof cases[0]);
}

static void in_forms(void **state) {
    (void)state;
    static const ExprCase cases[] = {
        {"a IN (1, 2)", "(in (col a) (list (int 1) (int 2)))"},
        {"a NOT IN (1)", "(not-in (col a) (list (int 1)))"},
        {"a IN ()", "(in (col a) (list))"},
        {"a IN t", "(in (col a) (table t))"},
        {"a NOT IN main.t", "(not-in (col a) (table main.t))"},
        {"a IN json_each(x)", "(in (col a) (table json_each) (args (col x)))"},
    };
    check_expr_table(cases, sizeof cases / sizeof cases[0]);
    check_expr("a NOT IN (SELECT b FROM t)",
               "(not-in (col a) (select\n"
               "            (columns (result (col b)))\n"
               "            (from (table (name t)))))");
}

static void like_glob_regexp_match(void **state) {
    (void)state;
    static const ExprCase cases[] = {
        {"a LIKE b", "(like (col a) (col b))"},
        {"a NOT LIKE b", "(not-like (col a) (col b))"},
        {"a LIKE b ESCAPE '\\'", "(like (col a) (col b) (escape (str \"\\\\\")))"},
        {"a NOT LIKE b ESCAPE c", "(not-like (col a) (col b) (escape (col c)))"},
        {"a GLOB b", "(glob (col a) (col b))"},
        {"a NOT GLOB b", "(not-glob (col a) (col b))"},
        {"a GLOB b ESCAPE c", "(glob (col a) (col b) (escape (col c)))"},
        {"a REGEXP b", "(regexp (col a) (col b))"},
        {"a NOT REGEXP b", "(not-regexp (col a) (col b))"},
        {"a MATCH b", "(match (col a) (col b))"},
        {"a NOT MATCH b ESCAPE c", "(not-match (col a) (col b) (escape (col c)))"},
    };
    check_expr_table(cases, sizeof cases / sizeof cases[0]);
}

static void between(void **state) {
    (void)state;
    check_expr("a BETWEEN 1 AND 2", "(between (col a) (int 1) (int 2))");
    check_expr("a NOT BETWEEN 1 AND 2", "(not-between (col a) (int 1) (int 2))");
    /* The middle operand may hold an operator of the same level. */
    check_expr("a BETWEEN b = c AND d", "(between (col a) (= (col b) (col c)) (col d))");
    check_expr("a BETWEEN b BETWEEN c AND d AND e",
               "(between (col a) (between (col b) (col c) (col d)) (col e))");
}

static void null_tests(void **state) {
    (void)state;
    static const ExprCase cases[] = {
        {"a ISNULL", "(isnull (col a))"},
        {"a NOTNULL", "(notnull (col a))"},
        {"a NOT NULL", "(notnull (col a))"},
        {"a IS NULL", "(is (col a) (null))"},
        {"a IS NOT NULL", "(is-not (col a) (null))"},
        {"a NOT NULL NOT NULL", "(notnull (notnull (col a)))"},
    };
    check_expr_table(cases, sizeof cases / sizeof cases[0]);
}

static void unary_operators(void **state) {
    (void)state;
    static const ExprCase cases[] = {
        {"-a", "(neg (col a))"},
        {"+a", "(pos (col a))"},
        {"~a", "(~ (col a))"},
        {"NOT a", "(not (col a))"},
        {"~-+a", "(~ (neg (pos (col a))))"},
        {"- - a", "(neg (neg (col a)))"},
    };
    check_expr_table(cases, sizeof cases / sizeof cases[0]);
}

static void collate(void **state) {
    (void)state;
    check_expr("a COLLATE nocase", "(collate (col a) nocase)");
    check_expr("a COLLATE \"NoCase\"", "(collate (col a) \"NoCase\")");
    check_expr("a COLLATE x COLLATE y", "(collate (collate (col a) x) y)");
}

static void case_expressions(void **state) {
    (void)state;
    check_expr("CASE a WHEN 1 THEN 'x' WHEN 2 THEN 'y' ELSE 'z' END",
               "(case (operand (col a)) (when (arm (int 1) (str \"x\")) "
               "(arm (int 2) (str \"y\"))) (else (str \"z\")))");
    check_expr("CASE WHEN a > 0 THEN 1 END",
               "(case (when (arm (> (col a) (int 0)) (int 1))))");
    check_expr("CASE WHEN a THEN CASE b WHEN 1 THEN 2 END ELSE CASE WHEN c THEN 3 ELSE 4 END END",
               "(case (when (arm (col a) (case (operand (col b)) "
               "(when (arm (int 1) (int 2)))))) (else (case (when (arm (col c) "
               "(int 3))) (else (int 4)))))");
}

static void cast_expressions(void **state) {
    (void)state;
    check_expr("CAST(x AS INTEGER)", "(cast (col x) \"INTEGER\")");
    check_expr("CAST(x AS VARCHAR(10))", "(cast (col x) \"VARCHAR(10)\")");
    check_expr("CAST(x AS DECIMAL(10, 2))", "(cast (col x) \"DECIMAL(10, 2)\")");
    check_expr("CAST(x AS unsigned big int)", "(cast (col x) \"unsigned big int\")");
    /* SQLite's typetoken may be empty. */
    check_expr("CAST(x AS)", "(cast (col x) \"\")");
}

static void exists_and_scalar_subquery(void **state) {
    (void)state;
    check_expr("EXISTS (SELECT 1)",
               "(exists (select\n            (columns (result (int 1)))))");
    check_expr("NOT EXISTS (SELECT 1)",
               "(not (exists (select\n              (columns (result (int 1))))))");
    check_expr("(SELECT max(a) FROM t)",
               "(subquery (select\n"
               "            (columns (result (call max (col a))))\n"
               "            (from (table (name t)))))");
}

static void function_calls(void **state) {
    (void)state;
    static const ExprCase cases[] = {
        {"f()", "(call f)"},
        {"count(*)", "(call count star)"},
        {"count(DISTINCT a)", "(call count distinct (col a))"},
        {"substr(a, 1, 2)", "(call substr (col a) (int 1) (int 2))"},
        {"max(x) FILTER (WHERE x > 0)", "(call max (col x) (filter (> (col x) (int 0))))"},
        {"count(DISTINCT a) FILTER (WHERE b)", "(call count distinct (col a) (filter (col b)))"},
        {"row_number() OVER (ORDER BY a)", "(call row_number (over (order-by (sort (col a)))))"},
        {"count(*) OVER w", "(call count star (over (base w)))"},
    };
    check_expr_table(cases, sizeof cases / sizeof cases[0]);
}

static void literals(void **state) {
    (void)state;
    static const ExprCase cases[] = {
        {"1", "(int 1)"},
        {"9223372036854775808", "(int 9223372036854775808)"},
        {"1.5", "(float 1.5)"},
        {".5", "(float .5)"},
        {"1.", "(float 1.)"},
        {"1e10", "(float 1e10)"},
        {"1.5E-3", "(float 1.5E-3)"},
        {"0x1F", "(int 0x1F)"},
        {"0XaB", "(int 0XaB)"},
        {"'abc'", "(str \"abc\")"},
        {"'it''s'", "(str \"it's\")"},
        {"''", "(str \"\")"},
        {"'a\"b'", "(str \"a\\\"b\")"},
        {"X'0aFF'", "(blob \"0aFF\")"},
        {"x''", "(blob \"\")"},
        {"NULL", "(null)"},
        {"-1", "(neg (int 1))"},
    };
    check_expr_table(cases, sizeof cases / sizeof cases[0]);
}

/* TRUE and FALSE are identifiers in SQLite's grammar (resolved later). */
static void true_false_are_identifiers(void **state) {
    (void)state;
    check_expr("TRUE", "(col TRUE)");
    check_expr("false", "(col false)");
    check_expr("a IS TRUE", "(is (col a) (col TRUE))");
}

static void current_time_keywords(void **state) {
    (void)state;
    check_expr("CURRENT_DATE", "(current_date)");
    check_expr("CURRENT_TIMESTAMP", "(current_timestamp)");
    check_expr("CURRENT_TIME", "(current_time)");
    check_expr("current_time", "(current_time)");
}

static void bind_parameters(void **state) {
    (void)state;
    check_sexp("SELECT ?, ?1, ?23, :name, @name, $name, $a::b(c)",
               "(select-stmt\n"
               "  (select\n"
               "    (columns (result (param ?)) (result (param ?1)) "
               "(result (param ?23)) (result (param :name)) (result (param @name)) "
               "(result (param $name)) (result (param $a::b(c))))))\n");
}

static void row_values(void **state) {
    (void)state;
    check_expr("(a, b) = (1, 2)", "(= (row (col a) (col b)) (row (int 1) (int 2)))");
    check_expr("(a, b) IN (SELECT 1, 2)",
               "(in (row (col a) (col b)) (select\n"
               "            (columns (result (int 1)) (result (int 2)))))");
    check_expr("((a))", "(col a)");
}

static void column_references(void **state) {
    (void)state;
    check_expr("t.c", "(col t.c)");
    check_expr("main.t.c", "(col main.t.c)");
}

/* SQLite's precedence, loosest first: OR; AND; NOT; IS MATCH LIKE BETWEEN
** IN ISNULL NOTNULL != =; > <= < >=; ESCAPE; & | << >>; + -; * / %;
** || ->; COLLATE; unary ~ - +.  All binary levels group to the left. */
static void precedence(void **state) {
    (void)state;
    static const ExprCase cases[] = {
        {"a OR b AND c", "(or (col a) (and (col b) (col c)))"},
        {"a AND b OR c AND d", "(or (and (col a) (col b)) (and (col c) (col d)))"},
        {"a OR b OR c", "(or (or (col a) (col b)) (col c))"},
        {"NOT a = b", "(not (= (col a) (col b)))"},
        {"NOT a AND b", "(and (not (col a)) (col b))"},
        {"a AND NOT b = c", "(and (col a) (not (= (col b) (col c))))"},
        {"NOT NOT a", "(not (not (col a)))"},
        {"NOT a BETWEEN b AND c", "(not (between (col a) (col b) (col c)))"},
        {"a || b = c", "(= (|| (col a) (col b)) (col c))"},
        {"-a * b", "(* (neg (col a)) (col b))"},
        {"x NOT BETWEEN 1 AND 2 AND y", "(and (not-between (col x) (int 1) (int 2)) (col y))"},
        {"x BETWEEN a AND b AND c", "(and (between (col x) (col a) (col b)) (col c))"},
        {"a BETWEEN b AND c = d", "(= (between (col a) (col b) (col c)) (col d))"},
        {"a = b = c", "(= (= (col a) (col b)) (col c))"},
        {"a < b = c", "(= (< (col a) (col b)) (col c))"},
        {"a = b < c", "(= (col a) (< (col b) (col c)))"},
        {"a < b < c", "(< (< (col a) (col b)) (col c))"},
        {"a = b IS c", "(is (= (col a) (col b)) (col c))"},
        {"a IS b = c", "(= (is (col a) (col b)) (col c))"},
        {"a = b LIKE c", "(like (= (col a) (col b)) (col c))"},
        {"a + b * c - d", "(- (+ (col a) (* (col b) (col c))) (col d))"},
        {"a - b - c", "(- (- (col a) (col b)) (col c))"},
        {"a / b * c", "(* (/ (col a) (col b)) (col c))"},
        {"a & b + c", "(& (col a) (+ (col b) (col c)))"},
        {"a | b & c", "(& (| (col a) (col b)) (col c))"},
        {"a < b << c", "(< (col a) (<< (col b) (col c)))"},
        {"a >> b >> c", "(>> (>> (col a) (col b)) (col c))"},
        {"a * b || c", "(* (col a) (|| (col b) (col c)))"},
        {"a || b -> c", "(-> (|| (col a) (col b)) (col c))"},
        {"a -> b || c", "(|| (-> (col a) (col b)) (col c))"},
        {"a -> 'x' ->> 'y'", "(->> (-> (col a) (str \"x\")) (str \"y\"))"},
        {"a IS NOT NULL AND b", "(and (is-not (col a) (null)) (col b))"},
        {"a ISNULL = b", "(= (isnull (col a)) (col b))"},
        {"a LIKE b || c", "(like (col a) (|| (col b) (col c)))"},
        {"a LIKE b ESCAPE c = d", "(= (like (col a) (col b) (escape (col c))) (col d))"},
        {"a LIKE b ESCAPE c AND d", "(and (like (col a) (col b) (escape (col c))) (col d))"},
        {"a LIKE b ESCAPE c || d", "(like (col a) (col b) (escape (|| (col c) (col d))))"},
        {"1 - -1", "(- (int 1) (neg (int 1)))"},
        {"a COLLATE nocase = b", "(= (collate (col a) nocase) (col b))"},
        {"a || b COLLATE x", "(|| (col a) (collate (col b) x))"},
        {"-a COLLATE x", "(collate (neg (col a)) x)"},
        {"~a || b", "(|| (~ (col a)) (col b))"},
        {"a IN (1,2) = 0", "(= (in (col a) (list (int 1) (int 2))) (int 0))"},
        {"x IN (1) IN (2)", "(in (in (col x) (list (int 1))) (list (int 2)))"},
        {"a = NOT b", "(= (col a) (not (col b)))"},
        {"a = 1 AND b IN (2) OR NOT c LIKE 'x'",
         "(or (and (= (col a) (int 1)) (in (col b) (list (int 2)))) "
         "(not (like (col c) (str \"x\"))))"},
    };
    check_expr_table(cases, sizeof cases / sizeof cases[0]);
}

/* ------------------------------------------------------------------ */
/* Identifiers                                                         */
/* ------------------------------------------------------------------ */

static void quoted_identifiers_keep_their_style(void **state) {
    (void)state;
    check_sexp("SELECT a, \"b c\", `d`, [e f], \"x\"\"y\", `p``q` FROM \"T\" AS \"U\"",
               "(select-stmt\n"
               "  (select\n"
               "    (columns (result (col a)) (result (col \"b c\")) "
               "(result (col `d`)) (result (col [e f])) (result (col \"x\"\"y\")) "
               "(result (col `p``q`)))\n"
               "    (from (table (name \"T\") (as \"U\")))))\n");
    check_expr("\"t\".[c]", "(col \"t\".[c])");
}

/* Keywords in SQLite's %fallback ID list are names wherever a name fits. */
static void fallback_keywords_as_names(void **state) {
    (void)state;
    check_sexp("SELECT key, desc, asc, end, first, last, replace, like, match, "
               "offset, row, rows, temp, view, plan, query, action, no, of, "
               "range, current, filter, over, window FROM t",
               "(select-stmt\n"
               "  (select\n"
               "    (columns (result (col key)) (result (col desc)) "
               "(result (col asc)) (result (col end)) (result (col first)) "
               "(result (col last)) (result (col replace)) (result (col like)) "
               "(result (col match)) (result (col offset)) (result (col row)) "
               "(result (col rows)) (result (col temp)) (result (col view)) "
               "(result (col plan)) (result (col query)) (result (col action)) "
               "(result (col no)) (result (col of)) (result (col range)) "
               "(result (col current)) (result (col filter)) (result (col over)) "
               "(result (col window)))\n"
               "    (from (table (name t)))))\n");
    check_sexp("SELECT key.key, x AS desc, y end FROM key, desc AS asc, plan query",
               "(select-stmt\n"
               "  (select\n"
               "    (columns (result (col key.key)) (result (col x) (as desc)) "
               "(result (col y) (alias end)))\n"
               "    (from (table (name key)) (table (join comma) (name desc) (as asc)) "
               "(table (join comma) (name plan) (as query)))))\n");
    check_sexp("CREATE TABLE replace (key INT, offset TEXT, temp, view)",
               "(create-table\n"
               "  (name replace)\n"
               "  (columns\n"
               "    (column key (type \"INT\"))\n"
               "    (column offset (type \"TEXT\"))\n"
               "    (column temp)\n"
               "    (column view)))\n");
    check_contains("UPDATE t SET rows = 1, match = 2 WHERE like = 3",
                   "(assign (columns rows) (int 1))",
                   "(assign (columns match) (int 2))",
                   "(where (= (col like) (int 3)))", NULL);
}

/* JOIN_KW is a name in SQLite's nm rule: a table or column may be called
** left; after a table, though, "left JOIN" is a join operator. */
static void join_keywords_as_names(void **state) {
    (void)state;
    check_sexp("SELECT left, cross, natural FROM left",
               "(select-stmt\n"
               "  (select\n"
               "    (columns (result (col left)) (result (col cross)) "
               "(result (col natural)))\n"
               "    (from (table (name left)))))\n");
    check_contains("SELECT * FROM t AS left JOIN u",
                   "(from (table (name t) (as left)) (table (join inner) (name u)))", NULL);
    check_contains("SELECT * FROM t left JOIN u",
                   "(from (table (name t)) (table (join left) (name u)))", NULL);
    check_contains("SELECT a FROM t AS x LEFT JOIN u AS right",
                   "(table (join left) (name u) (as right))", NULL);
}

/* WINDOW, OVER and FILTER are keywords only in their own contexts. */
static void window_keywords_as_names(void **state) {
    (void)state;
    check_sexp("SELECT window, over, filter FROM window",
               "(select-stmt\n"
               "  (select\n"
               "    (columns (result (col window)) (result (col over)) "
               "(result (col filter)))\n"
               "    (from (table (name window)))))\n");
    check_expr("f(x) over", "(call f (col x)) (alias over)");
    check_expr("(a) filter", "(col a) (alias filter)");
    check_expr("over(x)", "(call over (col x))");
    check_contains("SELECT a FROM t window, u",
                   "(from (table (name t) (as window)) (table (join comma) (name u)))",
                   NULL);
    check_contains("SELECT * FROM window AS w", "(table (name window) (as w))", NULL);
}

/* ------------------------------------------------------------------ */
/* DDL and DML                                                         */
/* ------------------------------------------------------------------ */

static void create_table_full(void **state) {
    (void)state;
    check_sexp(
        "CREATE TEMP TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY AUTOINCREMENT, "
        "name VARCHAR(255) NOT NULL UNIQUE, price DECIMAL(10, 2) DEFAULT 0, x, "
        "d DEFAULT -1, e DEFAULT (1 + 2), ts TEXT DEFAULT CURRENT_TIMESTAMP, "
        "c TEXT COLLATE nocase CHECK (length(c) > 0), p INT REFERENCES "
        "parent(id) ON DELETE CASCADE ON UPDATE SET NULL, CONSTRAINT pk "
        "PRIMARY KEY (a, b), UNIQUE (x, y), CHECK (x > 0), CONSTRAINT fk "
        "FOREIGN KEY (a, b) REFERENCES t2 (x, y) ON DELETE RESTRICT) "
        "WITHOUT ROWID, STRICT",
        "(create-table\n"
        "  (name t)\n"
        "  temp\n"
        "  if-not-exists\n"
        "  without-rowid\n"
        "  strict\n"
        "  (columns\n"
        "    (column id (type \"INTEGER\") (primary-key autoincrement))\n"
        "    (column name (type \"VARCHAR(255)\") (not-null) (unique))\n"
        "    (column price (type \"DECIMAL(10, 2)\") (default (int 0)))\n"
        "    (column x)\n"
        "    (column d (default (neg (int 1))))\n"
        "    (column e (default (+ (int 1) (int 2))))\n"
        "    (column ts (type \"TEXT\") (default (current_timestamp)))\n"
        "    (column c (type \"TEXT\") (collate nocase) (check (> (call length "
        "(col c)) (int 0))))\n"
        "    (column p (type \"INT\") (references (references parent) "
        "(ref-columns id) (on-delete cascade) (on-update set-null))))\n"
        "  (constraints\n"
        "    (primary-key (constraint pk) (columns (sort (col a)) (sort (col b))))\n"
        "    (unique (columns (sort (col x)) (sort (col y))))\n"
        "    (check (> (col x) (int 0)))\n"
        "    (foreign-key (constraint fk) (columns a b) (references t2) "
        "(ref-columns x y) (on-delete restrict))))\n");
}

static void create_table_column_constraints(void **state) {
    (void)state;
    check_sexp("CREATE TABLE t (a INT CONSTRAINT nn NOT NULL CONSTRAINT d "
               "DEFAULT 'x', b TEXT DEFAULT +1, c DEFAULT NULL, f DEFAULT x'00', "
               "g REFERENCES p ON UPDATE NO ACTION ON DELETE SET DEFAULT, "
               "h PRIMARY KEY DESC ON CONFLICT REPLACE)",
               "(create-table\n"
               "  (name t)\n"
               "  (columns\n"
               "    (column a (type \"INT\") (not-null (constraint nn)) "
               "(default (constraint d) (str \"x\")))\n"
               "    (column b (type \"TEXT\") (default (pos (int 1))))\n"
               "    (column c (default (null)))\n"
               "    (column f (default (blob \"00\")))\n"
               "    (column g (references (references p) (on-delete set-default) "
               "(on-update no-action)))\n"
               "    (column h (primary-key (on-conflict replace) desc))))\n");
}

static void create_table_as_select(void **state) {
    (void)state;
    check_sexp("CREATE TABLE t AS SELECT a, b FROM u",
               "(create-table\n"
               "  (name t)\n"
               "  (as (select\n"
               "      (columns (result (col a)) (result (col b)))\n"
               "      (from (table (name u))))))\n");
}

static void create_index(void **state) {
    (void)state;
    check_sexp("CREATE UNIQUE INDEX IF NOT EXISTS i ON t (a, b DESC) WHERE a IS NOT NULL",
               "(create-index\n"
               "  (name i)\n"
               "  unique\n"
               "  if-not-exists\n"
               "  (on t)\n"
               "  (columns (sort (col a)) (sort (col b) desc))\n"
               "  (where (is-not (col a) (null))))\n");
    check_sexp("CREATE INDEX main.i ON t (lower(a) COLLATE nocase)",
               "(create-index\n"
               "  (name main.i)\n"
               "  (on t)\n"
               "  (columns (sort (collate (call lower (col a)) nocase))))\n");
}

static void create_view(void **state) {
    (void)state;
    check_sexp("CREATE VIEW IF NOT EXISTS v (x, y) AS SELECT a, b FROM t",
               "(create-view\n"
               "  (name v)\n"
               "  if-not-exists\n"
               "  (columns x y)\n"
               "  (select\n"
               "    (columns (result (col a)) (result (col b)))\n"
               "    (from (table (name t)))))\n");
    check_sexp("CREATE TEMP VIEW v AS SELECT 1",
               "(create-view\n"
               "  (name v)\n"
               "  temp\n"
               "  (select\n"
               "    (columns (result (int 1)))))\n");
}

static void insert_forms(void **state) {
    (void)state;
    check_sexp("INSERT INTO t (a, b) VALUES (1, 2), (3, 4)",
               "(insert\n"
               "  (table t)\n"
               "  (columns a b)\n"
               "  (values\n"
               "    (rows (row (int 1) (int 2)) (row (int 3) (int 4)))))\n");
    check_sexp("INSERT INTO t SELECT * FROM u",
               "(insert\n"
               "  (table t)\n"
               "  (select\n"
               "    (columns (star))\n"
               "    (from (table (name u)))))\n");
    check_sexp("INSERT INTO t DEFAULT VALUES",
               "(insert\n  (table t)\n  default-values)\n");
    check_sexp("INSERT OR IGNORE INTO t AS x VALUES (1)",
               "(insert\n"
               "  (or ignore)\n"
               "  (table t)\n"
               "  (as x)\n"
               "  (values\n"
               "    (rows (row (int 1)))))\n");
    check_sexp("WITH x AS (SELECT 1) INSERT INTO t SELECT * FROM x",
               "(insert\n"
               "  (with\n"
               "    (cte\n"
               "      x\n"
               "      (select\n"
               "        (columns (result (int 1))))))\n"
               "  (table t)\n"
               "  (select\n"
               "    (columns (star))\n"
               "    (from (table (name x)))))\n");
}

static void insert_upsert_and_returning(void **state) {
    (void)state;
    check_sexp("INSERT INTO t (a) VALUES (1) ON CONFLICT DO NOTHING",
               "(insert\n"
               "  (table t)\n"
               "  (columns a)\n"
               "  (values\n"
               "    (rows (row (int 1))))\n"
               "  (upsert (on-conflict do-nothing)))\n");
    check_sexp("INSERT INTO t (a, b) VALUES (1, 2) ON CONFLICT (a) WHERE b > 0 "
               "DO UPDATE SET b = excluded.b, (c, d) = (1, 2) WHERE t.b < 5 "
               "RETURNING *, a AS x",
               "(insert\n"
               "  (table t)\n"
               "  (columns a b)\n"
               "  (values\n"
               "    (rows (row (int 1) (int 2))))\n"
               "  (upsert (on-conflict (target (sort (col a))) (target-where "
               "(> (col b) (int 0))) (set (assign (columns b) (col excluded.b)) "
               "(assign (columns c d) (row (int 1) (int 2)))) (where (< (col t.b) "
               "(int 5)))))\n"
               "  (returning (star) (result (col a) (as x))))\n");
}

static void replace_into(void **state) {
    (void)state;
    check_sexp("REPLACE INTO t VALUES (1)",
               "(insert\n"
               "  (or replace)\n"
               "  (table t)\n"
               "  (values\n"
               "    (rows (row (int 1)))))\n");
}

static void update_from_returning(void **state) {
    (void)state;
    check_sexp("UPDATE OR ROLLBACK t AS x SET a = 1, b = u.b FROM u WHERE "
               "x.id = u.id RETURNING a",
               "(update\n"
               "  (or rollback)\n"
               "  (table t)\n"
               "  (as x)\n"
               "  (set (assign (columns a) (int 1)) (assign (columns b) (col u.b)))\n"
               "  (from (table (name u)))\n"
               "  (where (= (col x.id) (col u.id)))\n"
               "  (returning (result (col a))))\n");
}

static void delete_statement(void **state) {
    (void)state;
    check_sexp("DELETE FROM main.t WHERE a = 1 RETURNING *",
               "(delete\n"
               "  (table main.t)\n"
               "  (where (= (col a) (int 1)))\n"
               "  (returning (star)))\n");
    check_sexp("DELETE FROM t", "(delete\n  (table t))\n");
}

static void drop_if_exists(void **state) {
    (void)state;
    check_sexp("DROP TABLE IF EXISTS t; DROP VIEW IF EXISTS main.v; "
               "DROP INDEX IF EXISTS i; DROP TRIGGER IF EXISTS tr; DROP TABLE t",
               "(drop\n  (object table)\n  if-exists\n  (name t))\n"
               "(drop\n  (object view)\n  if-exists\n  (name main.v))\n"
               "(drop\n  (object index)\n  if-exists\n  (name i))\n"
               "(drop\n  (object trigger)\n  if-exists\n  (name tr))\n"
               "(drop\n  (object table)\n  (name t))\n");
}

static void pragma_forms(void **state) {
    (void)state;
    check_sexp("PRAGMA foreign_keys = ON; PRAGMA main.cache_size(-2000); "
               "PRAGMA table_info('t'); PRAGMA y",
               "(pragma\n  (name foreign_keys)\n  (value \"ON\"))\n"
               "(pragma\n  (name main.cache_size)\n  (value \"-2000\"))\n"
               "(pragma\n  (name table_info)\n  (value \"'t'\"))\n"
               "(pragma\n  (name y))\n");
}

static void transaction_control(void **state) {
    (void)state;
    check_sexp("BEGIN; BEGIN IMMEDIATE TRANSACTION; COMMIT; END TRANSACTION; "
               "ROLLBACK; SAVEPOINT s; RELEASE s; RELEASE SAVEPOINT s; "
               "ROLLBACK TO SAVEPOINT s; ROLLBACK TRANSACTION TO s",
               "(transaction\n  (op begin))\n"
               "(transaction\n  (op begin)\n  (mode immediate))\n"
               "(transaction\n  (op commit))\n"
               "(transaction\n  (op commit))\n"
               "(transaction\n  (op rollback))\n"
               "(transaction\n  (op savepoint)\n  (name s))\n"
               "(transaction\n  (op release)\n  (name s))\n"
               "(transaction\n  (op release)\n  (name s))\n"
               "(transaction\n  (op rollback-to)\n  (name s))\n"
               "(transaction\n  (op rollback-to)\n  (name s))\n");
}

static void explain_forms(void **state) {
    (void)state;
    check_sexp("EXPLAIN SELECT 1; EXPLAIN QUERY PLAN SELECT a FROM t",
               "(select-stmt\n"
               "  explain\n"
               "  (select\n"
               "    (columns (result (int 1)))))\n"
               "(select-stmt\n"
               "  explain-query-plan\n"
               "  (select\n"
               "    (columns (result (col a)))\n"
               "    (from (table (name t)))))\n");
}

static void create_trigger_body(void **state) {
    (void)state;
    check_contains("CREATE TRIGGER IF NOT EXISTS tr AFTER INSERT ON t FOR EACH "
                   "ROW WHEN new.a > 0 BEGIN UPDATE u SET b = new.a; INSERT "
                   "INTO log VALUES (new.a); DELETE FROM x WHERE y = old.y; "
                   "SELECT RAISE(ABORT, 'no'); END",
                   "(create-trigger\n  (name tr)\n",
                   "  (body\n"
                   "    (update\n"
                   "      (table u)\n"
                   "      (set (assign (columns b) (col new.a))))\n"
                   "    (insert\n"
                   "      (table log)\n"
                   "      (values\n"
                   "        (rows (row (col new.a)))))\n"
                   "    (delete\n"
                   "      (table x)\n"
                   "      (where (= (col y) (col old.y))))\n"
                   "    (select-stmt\n"
                   "      (select\n"
                   "        (columns (result (raise-abort 'no')))))))\n",
                   NULL);
}

/* The trigger's header is part of its meaning: which table, which event,
** when it fires and under which condition. */
static void create_trigger_keeps_header(void **state) {
    (void)state;
    check_contains("CREATE TEMP TRIGGER IF NOT EXISTS tr BEFORE UPDATE OF a ON t "
                   "FOR EACH ROW WHEN new.a > 0 BEGIN SELECT 1; END",
                   "temp", "if-not-exists", "(on t)", "before", "update",
                   "(when (> (col new.a) (int 0)))", NULL);
}

static void create_virtual_table(void **state) {
    (void)state;
    check_sexp("CREATE VIRTUAL TABLE IF NOT EXISTS t USING rtree",
               "(create-virtual-table\n  (name t)\n  (using rtree))\n");
    check_contains("CREATE VIRTUAL TABLE t USING fts5(a, b, tokenize='porter')",
                   "(create-virtual-table\n  (name t)\n", "(using fts5", NULL);
    /* Anything goes inside module arguments, even ';'. */
    check_contains("CREATE VIRTUAL TABLE t USING m(a b c, (x, y), 'z', SELECT FROM; WHERE)",
                   "(using m", NULL);
}

/* SQLite hands the module its arguments as text; they declare the
** table's columns, so the tree must keep them. */
static void create_virtual_table_keeps_arguments(void **state) {
    (void)state;
    check_contains("CREATE VIRTUAL TABLE t USING fts5(a, b, tokenize='porter')",
                   "tokenize='porter'", NULL);
}

static void several_statements_and_empty_ones(void **state) {
    (void)state;
    check_sexp(";;SELECT 1;; ;SELECT 2;\n;",
               "(select-stmt\n  (select\n    (columns (result (int 1)))))\n"
               "(select-stmt\n  (select\n    (columns (result (int 2)))))\n");
    check_sexp("", "");
    check_sexp(" ; -- nothing\n ; /* still nothing */", "");
}

/* ------------------------------------------------------------------ */
/* Errors (each one SQLite 3.40 also raises)                           */
/* ------------------------------------------------------------------ */

static void error_order_or_limit_before_union(void **state) {
    (void)state;
    check_error("SELECT a FROM t ORDER BY a UNION SELECT b FROM u",
                "E0107: ORDER BY clause should come after UNION not before");
    check_error("SELECT a FROM t LIMIT 1 UNION ALL SELECT b FROM u",
                "E0107: LIMIT clause should come after UNION ALL not before");
    check_error("SELECT a FROM t ORDER BY a INTERSECT SELECT b FROM u ORDER BY 1",
                "E0107: ORDER BY clause should come after INTERSECT not before");
}

/* The caret should sit on the misplaced clause's keyword. */
static void error_order_before_union_points_at_clause(void **state) {
    (void)state;
    check_errors("SELECT a FROM t ORDER BY a UNION SELECT b FROM u",
                 "E0107 1:17: ORDER BY clause should come after UNION not before\n");
}

static void error_unknown_join_type(void **state) {
    (void)state;
    check_error("SELECT * FROM t LEFT INNER JOIN u ON 1",
                "E0108: unknown join type: LEFT INNER");
    check_error("SELECT * FROM t OUTER JOIN u ON 1", "E0108: unknown join type: OUTER");
    check_error("SELECT * FROM t CROSS OUTER JOIN u", "E0108: unknown join type: CROSS OUTER");
    check_error("SELECT * FROM t left x JOIN u", "E0108: unknown join type: left x");
}

static void error_join_required(void **state) {
    (void)state;
    check_error("SELECT * FROM t ON x", "E0109: a JOIN clause is required before ON");
    check_error("SELECT * FROM t USING (a)",
                "E0109: a JOIN clause is required before USING");
    check_error("SELECT * FROM (t ON x)", "E0109: a JOIN clause is required before ON");
}

/* The caret should sit on the ON or USING keyword the message names. */
static void error_join_required_points_at_keyword(void **state) {
    (void)state;
    check_errors("SELECT * FROM t ON x",
                 "E0109 1:17: a JOIN clause is required before ON\n");
    check_errors("SELECT * FROM t USING (a)",
                 "E0109 1:17: a JOIN clause is required before USING\n");
}

static void error_distinct_window_function(void **state) {
    (void)state;
    check_error("SELECT count(DISTINCT x) OVER () FROM t",
                "E0112: DISTINCT is not supported for window functions");
}

static void error_bad_parameter(void **state) {
    (void)state;
    check_error("SELECT ?0", "E0113: variable number must be between ?1 and ?250000");
    check_error("SELECT ?250001", "E0113: variable number must be between ?1 and ?250000");
    check_error("SELECT ?250000, ?", "E0113: too many SQL variables");
    check_expr("?250000", "(param ?250000)");
}

/* SQLite gives a repeated named parameter the number it already has, so
** it does not count towards the limit again. */
static void repeated_named_parameter_reuses_its_number(void **state) {
    (void)state;
    check_sexp("SELECT ?249999, :a, :a",
               "(select-stmt\n"
               "  (select\n"
               "    (columns (result (param ?249999)) (result (param :a)) "
               "(result (param :a)))))\n");
}

static void error_table_option(void **state) {
    (void)state;
    check_error("CREATE TABLE t(a) WITHOUT foo", "E0114: unknown table option: foo");
}

static void error_idlist_collate(void **state) {
    (void)state;
    check_error("CREATE VIEW v(a COLLATE nocase) AS SELECT 1",
                "E0115: syntax error after column name \"a\"");
}

static void error_syntax_names_expected(void **state) {
    (void)state;
    check_error("SELECT * FROM WHERE",
                "E0103: syntax error near 'WHERE': expected '(' or a name");
    check_error("SELECT 1 +* 2", "E0103: syntax error near '*': expected an expression");
    check_error_like("SELECT a FROM t LIMIT 1 OFFSET 2, 3", "E0103",
                     "syntax error near ','");
    check_error_like("SELECT 1 ESCAPE 2", "E0103", "syntax error near 'ESCAPE'");
    check_error_like("INSERT INTO t SELECT * FROM u ON CONFLICT DO NOTHING", "E0103",
                     "syntax error near 'DO'");
    /* Aggregate ORDER BY arrived in SQLite 3.44, not 3.40. */
    check_error_like("SELECT group_concat(a, ',' ORDER BY b) FROM t", "E0103",
                     "syntax error near 'ORDER'");
}

static void error_incomplete_input_notes_open_paren(void **state) {
    (void)state;
    check_error("SELECT (1 + 2",
                "E0104: incomplete input: expected an operator, ')' or ','");
    ParseOut o;
    run_parse("SELECT f(1, (2 + 3)", &o);
    const char *r = sq_buf_str(&o.rendered);
    int has_error = strstr(r, "<test>:1:20: error[E0104]: incomplete input") != NULL;
    int has_note = strstr(r, "<test>:1:9: note: unclosed '(' opened here\n") != NULL;
    char copy[1024];
    snprintf(copy, sizeof copy, "%s", r);
    free_out(&o);
    if (!has_error || !has_note) fail_msg("rendered:\n%s", copy);
}

static void error_nesting_too_deep(void **state) {
    (void)state;
    char *deep = nested_parens(120);
    char *ok = nested_parens(40);
    char *got_deep = parse_sexp(deep);
    char *got_ok = parse_sexp(ok);
    int deep_ok = strncmp(got_deep, "E0105: nesting too deep", 23) == 0;
    int ok_ok = strcmp(got_ok, "(select-stmt\n  (select\n    (columns (result (int 1)))))\n") == 0;
    snprintf(fail_text, sizeof fail_text, "\n120: %s\n40: %s", got_deep, got_ok);
    free(deep);
    free(ok);
    free(got_deep);
    free(got_ok);
    if (!deep_ok || !ok_ok) fail_msg("%s", fail_text);
}

static void error_unrecognized_token(void **state) {
    (void)state;
    check_error("SELECT 1 # 2", "E0101: unrecognized token '#'");
    check_error("SELECT 1_000", "E0101: unrecognized token '1_000'");
    check_error_like("SELECT x'abc'", "E0101", "blob");
}

static void error_unterminated(void **state) {
    (void)state;
    check_error("SELECT 'abc", "E0102: unterminated string literal");
    check_error("SELECT \"abc", "E0102: unterminated quoted identifier");
    check_error("SELECT [abc", "E0102: unterminated quoted identifier");
}

/* Each failed statement reports one error; the parser resumes after the
** next ';' and the good statements still come out. */
static void errors_in_several_statements(void **state) {
    (void)state;
    const char *sql = "SELECT 1;\nSELECT FROM;\nSELECT 2;\nSELECT * FROM t WHERE;\n"
                      "INSERT INTO t VALUES (1,);\nSELECT * FROM t OUTER JOIN u;\n"
                      "SELECT * FROM t WHERE a = = 1 AND b = = 2;\nSELECT 3";
    check_errors(sql,
                 "E0103 2:8: syntax error near 'FROM': expected an expression, "
                 "'*', 'ALL' or 'DISTINCT'\n"
                 "E0103 4:22: syntax error near ';': expected an expression\n"
                 "E0103 5:25: syntax error near ')': expected an expression\n"
                 "E0108 6:17: unknown join type: OUTER\n"
                 "E0103 7:27: syntax error near '=': expected an expression\n");
    ParseOut o;
    run_parse(sql, &o);
    int same = strcmp(sq_buf_str(&o.trees),
                      "(select-stmt\n  (select\n    (columns (result (int 1)))))\n"
                      "(select-stmt\n  (select\n    (columns (result (int 2)))))\n"
                      "(select-stmt\n  (select\n    (columns (result (int 3)))))\n") == 0;
    size_t n_ok = o.n_ok, n_failed = o.n_failed;
    free_out(&o);
    assert_true(same);
    assert_int_equal(n_ok, 3);
    assert_int_equal(n_failed, 5);
}

/* At end of input the caret belongs after the last token, whether or not
** the file ends in a newline (not on an empty line past the text). */
static void error_incomplete_input_points_after_last_token(void **state) {
    (void)state;
    check_errors("SELECT (1 + 2",
                 "E0104 1:14: incomplete input: expected an operator, ')' or ','\n");
    check_errors("SELECT (1 + 2\n",
                 "E0104 1:14: incomplete input: expected an operator, ')' or ','\n");
}

/* sqlite3AddReturning() rejects RETURNING inside a trigger body while
** parsing, like the other trigger restrictions (E0116). */
static void error_returning_in_trigger(void **state) {
    (void)state;
    check_error("CREATE TRIGGER tr AFTER INSERT ON t BEGIN UPDATE main.u SET a = 1; END",
                "E0116: qualified table names are not allowed on INSERT, UPDATE, "
                "and DELETE statements within triggers");
    check_error("CREATE TRIGGER tr AFTER INSERT ON t BEGIN "
                "INSERT INTO u VALUES (1) RETURNING *; END",
                "E0116: cannot use RETURNING in a trigger");
}

/* A failed CREATE TRIGGER is one failed statement: recovery skips to the
** ';' after its END (as sqlite3_complete() splits statements), so the rest
** of the body does not come out as top-level statements. */
static void error_in_trigger_body_skips_whole_trigger(void **state) {
    (void)state;
    const char *sql = "CREATE TRIGGER tr AFTER INSERT ON t BEGIN\n"
                      "  SELECT FROM;\n"
                      "  DELETE FROM u;\n"
                      "END;\n"
                      "SELECT 1;\n";
    check_errors(sql, "E0103 2:10: syntax error near 'FROM': expected an "
                      "expression, '*', 'ALL' or 'DISTINCT'\n");
    check_sexp("CREATE TRIGGER tr AFTER INSERT ON t BEGIN UPDATE main.u SET a = 1; "
               "DELETE FROM u; END; SELECT 1",
               "E0116: qualified table names are not allowed on INSERT, UPDATE, "
               "and DELETE statements within triggers");
    ParseOut o;
    run_parse(sql, &o);
    int same = strcmp(sq_buf_str(&o.trees),
                      "(select-stmt\n  (select\n    (columns (result (int 1)))))\n") == 0;
    snprintf(fail_text, sizeof fail_text, "\ntrees: %s\nok %zu failed %zu",
             sq_buf_str(&o.trees), o.n_ok, o.n_failed);
    int counts = o.n_ok == 1 && o.n_failed == 1;
    free_out(&o);
    if (!same || !counts) fail_msg("%s", fail_text);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(with_recursive_column_list_and_materialized),
        cmocka_unit_test(with_plain_cte),
        cmocka_unit_test(compound_operators_group_left),
        cmocka_unit_test(compound_order_and_limit_belong_to_compound),
        cmocka_unit_test(distinct_and_all),
        cmocka_unit_test(result_columns),
        cmocka_unit_test(from_aliases_and_subqueries),
        cmocka_unit_test(join_operators),
        cmocka_unit_test(nested_parenthesized_joins),
        cmocka_unit_test(table_function_and_indexed_by),
        cmocka_unit_test(where_group_by_having),
        cmocka_unit_test(window_clause_and_over),
        cmocka_unit_test(window_frames),
        cmocka_unit_test(filter_clause),
        cmocka_unit_test(order_by_terms),
        cmocka_unit_test(limit_offset),
        cmocka_unit_test(limit_comma_puts_offset_first),
        cmocka_unit_test(values_rows),
        cmocka_unit_test(binary_operators),
        cmocka_unit_test(is_and_is_distinct_from),
        cmocka_unit_test(in_forms),
        cmocka_unit_test(like_glob_regexp_match),
        cmocka_unit_test(between),
        cmocka_unit_test(null_tests),
        cmocka_unit_test(unary_operators),
        cmocka_unit_test(collate),
        cmocka_unit_test(case_expressions),
        cmocka_unit_test(cast_expressions),
        cmocka_unit_test(exists_and_scalar_subquery),
        cmocka_unit_test(function_calls),
        cmocka_unit_test(literals),
        cmocka_unit_test(true_false_are_identifiers),
        cmocka_unit_test(current_time_keywords),
        cmocka_unit_test(bind_parameters),
        cmocka_unit_test(row_values),
        cmocka_unit_test(column_references),
        cmocka_unit_test(precedence),
        cmocka_unit_test(quoted_identifiers_keep_their_style),
        cmocka_unit_test(fallback_keywords_as_names),
        cmocka_unit_test(join_keywords_as_names),
        cmocka_unit_test(window_keywords_as_names),
        cmocka_unit_test(create_table_full),
        cmocka_unit_test(create_table_column_constraints),
        cmocka_unit_test(create_table_as_select),
        cmocka_unit_test(create_index),
        cmocka_unit_test(create_view),
        cmocka_unit_test(insert_forms),
        cmocka_unit_test(insert_upsert_and_returning),
        cmocka_unit_test(replace_into),
        cmocka_unit_test(update_from_returning),
        cmocka_unit_test(delete_statement),
        cmocka_unit_test(drop_if_exists),
        cmocka_unit_test(pragma_forms),
        cmocka_unit_test(transaction_control),
        cmocka_unit_test(explain_forms),
        cmocka_unit_test(create_trigger_body),
        cmocka_unit_test(create_trigger_keeps_header),
        cmocka_unit_test(create_virtual_table),
        cmocka_unit_test(create_virtual_table_keeps_arguments),
        cmocka_unit_test(several_statements_and_empty_ones),
        cmocka_unit_test(error_order_or_limit_before_union),
        cmocka_unit_test(error_order_before_union_points_at_clause),
        cmocka_unit_test(error_unknown_join_type),
        cmocka_unit_test(error_join_required),
        cmocka_unit_test(error_join_required_points_at_keyword),
        cmocka_unit_test(error_distinct_window_function),
        cmocka_unit_test(error_bad_parameter),
        cmocka_unit_test(repeated_named_parameter_reuses_its_number),
        cmocka_unit_test(error_table_option),
        cmocka_unit_test(error_idlist_collate),
        cmocka_unit_test(error_syntax_names_expected),
        cmocka_unit_test(error_incomplete_input_notes_open_paren),
        cmocka_unit_test(error_nesting_too_deep),
        cmocka_unit_test(error_unrecognized_token),
        cmocka_unit_test(error_unterminated),
        cmocka_unit_test(errors_in_several_statements),
        cmocka_unit_test(error_incomplete_input_points_after_last_token),
        cmocka_unit_test(error_returning_in_trigger),
        cmocka_unit_test(error_in_trigger_body_skips_whole_trigger),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
