/* test_mutate.c -- passes/mutate: every kind of mutation where it must appear, and over many
** queries the invariants (each mutant emits SQL that differs from the gold, binds and prepares
** in SQLite; undoing gives the gold's SQL back byte for byte), the order, determinism, the cap,
** views and recursive CTEs left alone. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

/* Only to prepare the mutants' SQL: the library under test never runs it. */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/squint.h"
#include "backend/emit/emit.h"
#include "passes/mutate/mutate.h"

static const char ddl[] =
    "CREATE TABLE dept (id INTEGER PRIMARY KEY, name TEXT NOT NULL, city TEXT, budget REAL);\n"
    "CREATE TABLE emp (id INTEGER PRIMARY KEY, name TEXT, age INTEGER, salary REAL,\n"
    "                  dept_id INTEGER REFERENCES dept(id), title TEXT);\n"
    "CREATE TABLE project (id INTEGER PRIMARY KEY, dept_id INTEGER REFERENCES dept(id),\n"
    "                      title TEXT, cost REAL);\n"
    "CREATE VIEW seniors AS SELECT id, name FROM emp WHERE age > 60;\n";

typedef struct T {
    SqContext c;
    const Catalog *cat;
    sqlite3 *db;        /* in memory, with the schema: prepares the mutants */
    SqArena *a;         /* the current query's */
    IrQuery *q;
    const SqSrc *src;   /* the current query's text */
    char *gold;         /* its emitted SQL (heap) */
    SqMutation *ms;
    uint32_t n;
} T;

static int setup(void **state) {
    T *t = calloc(1, sizeof *t);
    sq_ctx_init(&t->c);
    t->cat = sq_ctx_load_ddl(&t->c, "schema.sql", ddl, strlen(ddl));
    if (!t->cat || sqlite3_open(":memory:", &t->db) != SQLITE_OK ||
        sqlite3_exec(t->db, ddl, NULL, NULL, NULL) != SQLITE_OK)
        return -1;
    *state = t;
    return 0;
}

static void drop_query(T *t) {
    if (t->a) sq_arena_free(t->a);
    free(t->gold);
    t->a = NULL;
    t->gold = NULL;
    t->q = NULL;
}

static int teardown(void **state) {
    T *t = *state;
    drop_query(t);
    sqlite3_close(t->db);
    sq_ctx_free(&t->c);
    free(t);
    return 0;
}

#define MUT_TEST(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

/* The emitted SQL of q, on the heap. */
static char *emit(IrQuery *q) {
    SqBuf b = SQ_BUF_INIT;
    assert_true(sq_emit_sqlite(q, &b));
    char *s = strdup(sq_buf_str(&b));
    sq_buf_free(&b);
    return s;
}

/* Compile sql into a fresh arena: t->q, t->gold. */
static void load(T *t, const char *sql) {
    drop_query(t);
    t->a = sq_arena_new();
    SqCtxMark mark = sq_ctx_mark(&t->c);
    t->src = sq_src_add_copy(t->c.srcs, "query.sql", sql, strlen(sql));
    SqCompileStatus st;
    t->q = sq_ctx_compile(&t->c, t->a, t->cat, t->src, &st);
    if (!t->q) fail_msg("%s: %s: %s", sql, sq_compile_why(st), sq_ctx_last_message(&t->c, mark));
    t->gold = emit(t->q);
}

/* load() and every mutation of sql. */
static void mutate(T *t, const char *sql, uint32_t max) {
    load(t, sql);
    t->n = sq_mutations(t->q, t->cat, &t->ms, max);
}

/* The mutation of kind k whose `what` is what, or NULL. */
static const SqMutation *find(const T *t, SqMutKind k, const char *what) {
    for (uint32_t i = 0; i < t->n; i++)
        if (t->ms[i].kind == k && strcmp(t->ms[i].what, what) == 0) return &t->ms[i];
    return NULL;
}

static uint32_t count_kind(const T *t, SqMutKind k) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < t->n; i++) n += t->ms[i].kind == k;
    return n;
}

static void list(const T *t) {
    for (uint32_t i = 0; i < t->n; i++)
        print_message("  %s: %s\n", sq_mut_kind_name(t->ms[i].kind), t->ms[i].what);
}

static void expect(const T *t, SqMutKind k, const char *what) {
    if (find(t, k, what)) return;
    list(t);
    fail_msg("no %s mutation \"%s\"", sq_mut_kind_name(k), what);
}

/* The SQL of mutation m applied to t->q (heap), undone after. */
static char *mutant_sql(T *t, const SqMutation *m) {
    sq_mutation_apply(m);
    char *s = emit(t->q);
    sq_mutation_undo(m);
    return s;
}

/* expect(), and the mutant's SQL holds `part`. */
static void expect_sql(T *t, SqMutKind k, const char *what, const char *part) {
    expect(t, k, what);
    char *s = mutant_sql(t, find(t, k, what));
    if (!strstr(s, part)) fail_msg("%s: \"%s\" not in %s", what, part, s);
    free(s);
}

/* ------------------------------------------------------------------ */
/* Invariants                                                          */
/* ------------------------------------------------------------------ */

static void assert_binds(T *t, const char *sql, const char *what) {
    SqArena *a = sq_arena_new();
    SqCtxMark mark = sq_ctx_mark(&t->c);
    SqCompileStatus st;
    IrQuery *q = sq_ctx_compile_text(&t->c, a, t->cat, "mutant.sql", sql, strlen(sql), &st);
    if (!q) fail_msg("%s: %s does not bind: %s: %s", what, sql, sq_compile_why(st),
                     sq_ctx_last_message(&t->c, mark));
    sq_arena_free(a);
    sq_ctx_rewind(&t->c, mark);
}

static void assert_prepares(T *t, const char *sql, const char *what) {
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(t->db, sql, -1, &st, NULL) != SQLITE_OK)
        fail_msg("%s: SQLite refuses %s: %s", what, sql, sqlite3_errmsg(t->db));
    sqlite3_finalize(st);
}

/* Every mutation of sql: well formed, in text order, its SQL different
** from the gold's, bound by squint and prepared by SQLite; undone, the
** gold's SQL again.  Returns how many. */
static uint32_t check_all(T *t, const char *sql) {
    mutate(t, sql, 0);
    char *again = emit(t->q);
    assert_string_equal(again, t->gold); /* sq_mutations changed nothing */
    free(again);
    for (uint32_t i = 0; i < t->n; i++) {
        const SqMutation *m = &t->ms[i];
        assert_true(m->kind < SQ_MUT__COUNT);
        assert_non_null(m->what);
        assert_true(m->n_patch >= 1 && m->n_patch <= 3);
        assert_int_equal(m->at.file, t->src->id); /* the query's text, not a view's */
        assert_true(m->at.start <= m->at.end && m->at.end <= strlen(sql));
        if (i) {
            const SqMutation *p = &t->ms[i - 1];
            assert_true(p->at.start < m->at.start ||
                        (p->at.start == m->at.start && p->kind <= m->kind));
        }
        sq_mutation_apply(m);
        char *s = emit(t->q);
        sq_mutation_undo(m);
        char *back = emit(t->q);
        if (strcmp(s, t->gold) == 0) fail_msg("%s: prints as the gold: %s", m->what, s);
        assert_string_equal(back, t->gold);
        assert_binds(t, s, m->what);
        assert_prepares(t, s, m->what);
        free(s);
        free(back);
    }
    return t->n;
}

static const char *const queries[] = {
    "SELECT name FROM emp WHERE age > 30",
    "SELECT name, age FROM emp WHERE age >= 18 AND age < 65 AND title = 'Engineer'",
    "SELECT e.name, d.name FROM emp AS e JOIN dept AS d ON e.dept_id = d.id WHERE d.city = 'Paris'",
    "SELECT e.name FROM emp e LEFT JOIN dept d ON e.dept_id = d.id WHERE d.id IS NULL",
    "SELECT d.name, count(*) FROM dept d JOIN emp e ON e.dept_id = d.id GROUP BY d.name "
    "HAVING count(*) > 2",
    "SELECT dept_id, avg(salary), max(age) FROM emp GROUP BY dept_id HAVING sum(salary) > 1000.5 "
    "AND min(age) >= 20",
    "SELECT name FROM emp ORDER BY age DESC, name LIMIT 3",
    "SELECT name, salary FROM emp ORDER BY salary LIMIT 1",
    "SELECT name FROM emp WHERE dept_id IN (SELECT id FROM dept WHERE city = 'Oslo')",
    "SELECT name FROM dept d WHERE EXISTS (SELECT 1 FROM emp e WHERE e.dept_id = d.id AND "
    "e.age < 25)",
    "SELECT name FROM emp WHERE salary > (SELECT avg(salary) FROM emp)",
    "SELECT name FROM emp WHERE dept_id NOT IN (SELECT dept_id FROM project WHERE cost > 10)",
    "SELECT name FROM emp UNION SELECT name FROM dept",
    "SELECT name FROM emp INTERSECT SELECT name FROM dept ORDER BY name LIMIT 5",
    "SELECT id FROM dept EXCEPT SELECT dept_id FROM emp",
    "SELECT title FROM emp UNION ALL SELECT title FROM project",
    "WITH rich AS (SELECT * FROM emp WHERE salary > 5000) SELECT name FROM rich WHERE age < 40",
    "WITH c AS (SELECT dept_id, count(*) AS n FROM emp GROUP BY dept_id) SELECT d.name, c.n "
    "FROM dept d JOIN c ON c.dept_id = d.id ORDER BY c.n DESC LIMIT 1",
    "SELECT DISTINCT title FROM emp WHERE age BETWEEN 30 AND 40",
    "SELECT DISTINCT e.title FROM emp e JOIN project p ON p.dept_id = e.dept_id ORDER BY e.title",
    "SELECT name FROM emp WHERE name LIKE 'J%' OR title NOT LIKE '%boss%'",
    "SELECT count(DISTINCT title) FROM emp WHERE age NOT BETWEEN 20 AND 30",
    "SELECT sum(cost), min(cost) FROM project WHERE title IN ('a', 'b', 'c')",
    "SELECT e.name, p.title FROM emp e JOIN dept d ON e.dept_id = d.id JOIN project p ON "
    "p.dept_id = d.id WHERE p.cost <> 0",
    "SELECT name FROM (SELECT name, age FROM emp WHERE age > 50) AS old WHERE old.age < 70",
    "SELECT t.n FROM (SELECT count(*) AS n FROM emp GROUP BY dept_id) t ORDER BY t.n LIMIT 2",
    "SELECT name FROM emp WHERE title IS NOT NULL AND salary IS NULL",
    "SELECT name FROM seniors WHERE id > 3",
    "SELECT e.name FROM emp e, dept d WHERE e.dept_id = d.id AND d.budget > 1e6",
    "SELECT name, CASE WHEN age > 60 THEN 'old' ELSE 'young' END FROM emp ORDER BY 2",
    "SELECT d.city, count(*) FROM dept d GROUP BY d.city, d.name ORDER BY count(*) DESC",
    "SELECT name FROM emp WHERE NOT (age > 30 OR salary < 100)",
    "SELECT name FROM emp WHERE age > 30 LIMIT 2 OFFSET 1",
    "SELECT max(budget) FROM dept WHERE name = \"Sales\"",
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 5) "
    "SELECT x FROM c WHERE x > 2",
    "SELECT name FROM emp WHERE age > -3 AND salary < 2.5",
    "SELECT name FROM emp e WHERE e.id IN (SELECT DISTINCT id FROM emp) ORDER BY e.age",
    "SELECT e.name FROM emp e JOIN project p USING (dept_id) WHERE p.cost > 3",
    "SELECT name FROM emp NATURAL JOIN project",
    "SELECT e.title FROM emp e LEFT JOIN dept d USING (id)",
    "SELECT name, rank() OVER (PARTITION BY dept_id ORDER BY salary DESC) FROM emp WHERE age > 3",
    "SELECT * FROM (VALUES (1, 'a'), (2, 'b')) AS v ORDER BY 1 LIMIT 1",
    "SELECT name, (SELECT count(*) FROM emp e WHERE e.dept_id = d.id AND e.age > 5) FROM dept d",
    "SELECT age / 10, count(*) FROM emp GROUP BY age / 10, title",
    "SELECT name FROM emp WHERE title = 'x' COLLATE NOCASE AND CAST(age AS TEXT) = '3'",
    "SELECT rowid, name FROM emp WHERE rowid > 3",
    "SELECT age * 2 AS dbl FROM emp WHERE dbl > 10 ORDER BY dbl",
    "SELECT (SELECT max(age) FROM emp WHERE age < 9) AS m FROM dept WHERE m > 3",
    "SELECT e1.name FROM emp e1 JOIN emp e2 ON e1.id = e2.id AND e1.age < e2.age",
    "SELECT * FROM dept WHERE budget > ? AND name GLOB 'A*'",
    "SELECT name FROM emp WHERE title IS 'boss' OR age IS NOT 3",
};

static void test_invariants(void **state) {
    T *t = *state;
    uint32_t total = 0;
    for (size_t i = 0; i < SQ_ARRAY_LEN(queries); i++) {
        uint32_t n = check_all(t, queries[i]);
        if (n == 0) fail_msg("no mutation of %s", queries[i]);
        total += n;
    }
    assert_true(total > 10 * SQ_ARRAY_LEN(queries) / 2);
}

/* ------------------------------------------------------------------ */
/* Each kind                                                           */
/* ------------------------------------------------------------------ */

static void test_comparison(void **state) {
    T *t = *state;
    mutate(t, "SELECT name FROM emp WHERE age > 30 AND id = 4", 0);
    expect_sql(t, SQ_MUT_COMPARISON, "> becomes >=", "emp.age >= 30");
    expect_sql(t, SQ_MUT_COMPARISON, "> becomes <", "emp.age < 30");
    expect_sql(t, SQ_MUT_COMPARISON, "= becomes <>", "emp.id <> 4");
    assert_int_equal(count_kind(t, SQ_MUT_COMPARISON), 3);
}

static void test_and_or(void **state) {
    T *t = *state;
    mutate(t, "SELECT name FROM emp WHERE age > 30 AND salary < 10 OR title = 'x'", 0);
    expect_sql(t, SQ_MUT_AND_OR, "AND becomes OR", "(emp.age > 30) OR (emp.salary < 10)");
    expect_sql(t, SQ_MUT_AND_OR, "OR becomes AND", ") AND (emp.title = 'x')");
}

static void test_drop_conjunct(void **state) {
    T *t = *state;
    mutate(t, "SELECT e.name FROM emp e JOIN dept d ON e.dept_id = d.id "
              "WHERE e.age > 30 AND d.city = 'Rome'", 0);
    expect_sql(t, SQ_MUT_DROP_CONJUNCT, "WHERE conjunct 1 of 2 dropped", "WHERE d.city = 'Rome'");
    expect_sql(t, SQ_MUT_DROP_CONJUNCT, "WHERE conjunct 2 of 2 dropped", "WHERE e.age > 30");
    expect_sql(t, SQ_MUT_DROP_CONJUNCT, "ON condition dropped", "FROM emp AS e JOIN dept AS d WHERE");
    mutate(t, "SELECT name FROM emp WHERE age > 30", 0);
    expect(t, SQ_MUT_DROP_CONJUNCT, "WHERE dropped");
    char *s = mutant_sql(t, find(t, SQ_MUT_DROP_CONJUNCT, "WHERE dropped"));
    assert_string_equal(s, "SELECT emp.name FROM emp");
    free(s);
    /* HAVING's only conjunct: that is SQ_MUT_HAVING */
    mutate(t, "SELECT dept_id FROM emp GROUP BY dept_id HAVING count(*) > 1", 0);
    assert_int_equal(count_kind(t, SQ_MUT_DROP_CONJUNCT), 0);
}

static void test_negate(void **state) {
    T *t = *state;
    mutate(t, "SELECT name FROM emp WHERE name LIKE 'A%' AND age NOT BETWEEN 1 AND 9 AND "
              "dept_id IN (1, 2) AND title IS NULL AND EXISTS (SELECT 1 FROM dept) AND "
              "NOT (salary > 3) AND (age < 3 OR age > 90)", 0);
    expect_sql(t, SQ_MUT_NEGATE, "LIKE becomes NOT LIKE", "emp.name NOT LIKE 'A%'");
    expect_sql(t, SQ_MUT_NEGATE, "NOT BETWEEN becomes BETWEEN", "emp.age BETWEEN 1 AND 9");
    expect_sql(t, SQ_MUT_NEGATE, "IN becomes NOT IN", "emp.dept_id NOT IN (1, 2)");
    expect_sql(t, SQ_MUT_NEGATE, "IS NULL becomes IS NOT NULL", "emp.title IS NOT NULL");
    expect_sql(t, SQ_MUT_NEGATE, "EXISTS becomes NOT EXISTS", "NOT EXISTS (SELECT");
    expect_sql(t, SQ_MUT_NEGATE, "NOT removed", "AND (emp.salary > 3)) AND");
    expect_sql(t, SQ_MUT_NEGATE, "condition negated with NOT", "NOT ((emp.age < 3) OR");
}

static void test_literal(void **state) {
    T *t = *state;
    mutate(t, "SELECT name FROM emp WHERE age > 30 AND title = 'Sales' AND salary < 2.5 AND "
              "name LIKE '%ann%' AND id IN (7, 'x9')", 0);
    expect_sql(t, SQ_MUT_LITERAL, "30 becomes 31", "emp.age > 31");
    expect_sql(t, SQ_MUT_LITERAL, "30 becomes 29", "emp.age > 29");
    expect_sql(t, SQ_MUT_LITERAL, "'Sales' becomes 'SALES'", "emp.title = 'SALES'");
    expect_sql(t, SQ_MUT_LITERAL, "'Sales' becomes 'Salet'", "emp.title = 'Salet'");
    expect_sql(t, SQ_MUT_LITERAL, "2.5 becomes 3.5", "emp.salary < 3.5");
    expect_sql(t, SQ_MUT_LITERAL, "2.5 becomes 1.5", "emp.salary < 1.5");
    expect_sql(t, SQ_MUT_LITERAL, "'%ann%' becomes '%ano%'", "LIKE '%ano%'");
    expect(t, SQ_MUT_LITERAL, "7 becomes 8");
    expect(t, SQ_MUT_LITERAL, "'x9' becomes 'X9'");
    expect(t, SQ_MUT_LITERAL, "'x9' becomes 'x0'");
    /* LIKE ignores case: no case variant of a pattern */
    assert_null(find(t, SQ_MUT_LITERAL, "'%ann%' becomes '%ANN%'"));
    /* a REAL stays REAL */
    mutate(t, "SELECT name FROM emp WHERE salary > 2.0", 0);
    expect_sql(t, SQ_MUT_LITERAL, "2.0 becomes 3.0", "emp.salary > 3.0");
}

static void test_aggregate(void **state) {
    T *t = *state;
    mutate(t, "SELECT count(title), sum(salary), max(age), count(*), AVG(age) FROM emp", 0);
    expect_sql(t, SQ_MUT_AGGREGATE, "count(...) becomes count(DISTINCT ...)", "count(DISTINCT emp.title)");
    expect_sql(t, SQ_MUT_AGGREGATE, "count(...) becomes count(*)", "SELECT count(*) AS");
    expect_sql(t, SQ_MUT_AGGREGATE, "sum(...) becomes avg(...)", "avg(emp.salary)");
    expect_sql(t, SQ_MUT_AGGREGATE, "max(...) becomes min(...)", "min(emp.age)");
    expect_sql(t, SQ_MUT_AGGREGATE, "AVG(...) becomes SUM(...)", "SUM(emp.age)");
    /* count(*) keeps being a count */
    mutate(t, "SELECT count(*) FROM emp", 0);
    assert_int_equal(count_kind(t, SQ_MUT_AGGREGATE), 0);
    mutate(t, "SELECT count(DISTINCT title) FROM emp", 0);
    expect_sql(t, SQ_MUT_AGGREGATE, "count(DISTINCT ...) becomes count(...)", "SELECT count(emp.title)");
}

static void test_distinct(void **state) {
    T *t = *state;
    mutate(t, "SELECT title FROM emp", 0);
    expect_sql(t, SQ_MUT_DISTINCT, "DISTINCT added", "SELECT DISTINCT emp.title");
    mutate(t, "SELECT DISTINCT title FROM emp ORDER BY title LIMIT 2", 0);
    expect(t, SQ_MUT_DISTINCT, "DISTINCT removed");
    char *s = mutant_sql(t, find(t, SQ_MUT_DISTINCT, "DISTINCT removed"));
    assert_string_equal(s, "SELECT emp.title FROM emp ORDER BY 1 LIMIT 2");
    free(s);
    /* under IN and EXISTS copies make no difference: no DISTINCT mutation */
    mutate(t, "SELECT name FROM dept WHERE id IN (SELECT DISTINCT dept_id FROM emp)", 0);
    assert_int_equal(count_kind(t, SQ_MUT_DISTINCT), 1); /* the outer block's */
    /* nor on an aggregate without GROUP BY */
    mutate(t, "SELECT count(*) FROM emp", 0);
    assert_int_equal(count_kind(t, SQ_MUT_DISTINCT), 0);
}

static void test_group_by(void **state) {
    T *t = *state;
    mutate(t, "SELECT d.name, count(*) FROM dept d GROUP BY d.name", 0);
    expect_sql(t, SQ_MUT_GROUP_BY, "GROUP BY d.name becomes d.city",
               "SELECT d.name AS name, count(*) FROM dept AS d GROUP BY d.city");
    assert_null(find(t, SQ_MUT_GROUP_BY, "GROUP BY d.name dropped")); /* the only key */
    mutate(t, "SELECT city, name, count(*) FROM dept GROUP BY city, name", 0);
    expect_sql(t, SQ_MUT_GROUP_BY, "GROUP BY dept.city dropped", "GROUP BY dept.name");
    expect(t, SQ_MUT_GROUP_BY, "GROUP BY dept.name dropped");
    /* a replacement is not a column grouped on already */
    assert_null(find(t, SQ_MUT_GROUP_BY, "GROUP BY dept.city becomes dept.name"));
    expect(t, SQ_MUT_GROUP_BY, "GROUP BY dept.city becomes dept.id");
}

static void test_having(void **state) {
    T *t = *state;
    mutate(t, "SELECT dept_id, count(*) FROM emp GROUP BY dept_id HAVING count(*) > 1 "
              "ORDER BY 2", 0);
    expect(t, SQ_MUT_HAVING, "HAVING dropped");
    char *s = mutant_sql(t, find(t, SQ_MUT_HAVING, "HAVING dropped"));
    assert_string_equal(s, "SELECT emp.dept_id AS dept_id, count(*) FROM emp GROUP BY emp.dept_id "
                           "ORDER BY 2");
    free(s);
}

static void test_join_type(void **state) {
    T *t = *state;
    mutate(t, "SELECT e.name FROM emp e JOIN dept d ON e.dept_id = d.id "
              "LEFT JOIN project p ON p.dept_id = d.id", 0);
    expect_sql(t, SQ_MUT_JOIN_TYPE, "LEFT JOIN instead of JOIN", "emp AS e LEFT JOIN dept AS d");
    expect_sql(t, SQ_MUT_JOIN_TYPE, "JOIN instead of LEFT JOIN", "d.id JOIN project AS p");
    /* a comma join without a condition is no INNER JOIN to turn LEFT */
    mutate(t, "SELECT e.name FROM emp e, dept d WHERE e.dept_id = d.id", 0);
    assert_int_equal(count_kind(t, SQ_MUT_JOIN_TYPE), 0);
}

static void test_join_key(void **state) {
    T *t = *state;
    mutate(t, "SELECT e.name FROM emp e JOIN dept d ON e.dept_id = d.id", 0);
    /* each side on the first other numeric column of its table */
    expect_sql(t, SQ_MUT_JOIN_KEY, "join on d.budget instead of d.id", "ON e.dept_id = d.budget");
    expect_sql(t, SQ_MUT_JOIN_KEY, "join on e.id instead of e.dept_id", "ON e.id = d.id");
    assert_int_equal(count_kind(t, SQ_MUT_JOIN_KEY), 2);
    /* written in WHERE, between two FROM items */
    mutate(t, "SELECT e.name FROM emp e, dept d WHERE e.dept_id = d.id", 0);
    assert_int_equal(count_kind(t, SQ_MUT_JOIN_KEY), 2);
}

static void test_order(void **state) {
    T *t = *state;
    mutate(t, "SELECT name, age, salary FROM emp ORDER BY age DESC, name", 0);
    expect_sql(t, SQ_MUT_ORDER_DIR, "DESC becomes ASC", "ORDER BY 2, 1");
    expect_sql(t, SQ_MUT_ORDER_DIR, "ASC becomes DESC", "ORDER BY 2 DESC, 1 DESC");
    expect_sql(t, SQ_MUT_ORDER_COL, "ORDER BY salary instead of age", "ORDER BY 3 DESC, 1");
    /* not on a column another key sorts on */
    assert_null(find(t, SQ_MUT_ORDER_COL, "ORDER BY name instead of age"));
    /* a compound's ORDER BY */
    mutate(t, "SELECT name, id FROM emp UNION SELECT name, id FROM dept ORDER BY 1", 0);
    expect_sql(t, SQ_MUT_ORDER_COL, "ORDER BY id instead of name", "ORDER BY 2");
}

static void test_limit(void **state) {
    T *t = *state;
    mutate(t, "SELECT name FROM emp ORDER BY age LIMIT 3", 0);
    expect_sql(t, SQ_MUT_LIMIT, "LIMIT 3 becomes 4", "LIMIT 4");
    expect_sql(t, SQ_MUT_LIMIT, "LIMIT 3 becomes 2", "LIMIT 2");
    expect(t, SQ_MUT_LIMIT, "LIMIT 3 dropped");
    char *s = mutant_sql(t, find(t, SQ_MUT_LIMIT, "LIMIT 3 dropped"));
    assert_string_equal(s, "SELECT emp.name FROM emp ORDER BY emp.age");
    free(s);
    mutate(t, "SELECT name FROM emp LIMIT 1", 0);
    assert_null(find(t, SQ_MUT_LIMIT, "LIMIT 1 becomes 0"));
    /* with an OFFSET the LIMIT stays */
    mutate(t, "SELECT name FROM emp LIMIT 2 OFFSET 5", 0);
    assert_int_equal(count_kind(t, SQ_MUT_LIMIT), 2);
    /* dropped at the top of a WITH: the WITH stays */
    mutate(t, "WITH x AS (SELECT name FROM emp) SELECT name FROM x LIMIT 1", 0);
    s = mutant_sql(t, find(t, SQ_MUT_LIMIT, "LIMIT 1 dropped"));
    assert_string_equal(s, "WITH x(name) AS (SELECT emp.name FROM emp) SELECT x.name FROM x");
    free(s);
}

static void test_select_col(void **state) {
    T *t = *state;
    mutate(t, "SELECT name, age FROM emp", 0);
    expect_sql(t, SQ_MUT_SELECT_COL, "result column emp.name becomes emp.title",
               "SELECT emp.title AS name, emp.age");
    expect_sql(t, SQ_MUT_SELECT_COL, "result column emp.age becomes emp.id", "emp.id AS age");
    /* INTEGER columns before the REAL one */
    expect(t, SQ_MUT_SELECT_COL, "result column emp.age becomes emp.dept_id");
    assert_null(find(t, SQ_MUT_SELECT_COL, "result column emp.age becomes emp.salary"));
    /* at most two per column, never one the result has */
    assert_null(find(t, SQ_MUT_SELECT_COL, "result column emp.name becomes emp.age"));
    assert_int_equal(count_kind(t, SQ_MUT_SELECT_COL), 3);
    /* a GROUP BY key in the result: the GROUP BY stays */
    mutate(t, "SELECT d.name, count(*) FROM dept d GROUP BY d.name", 0);
    expect_sql(t, SQ_MUT_SELECT_COL, "result column d.name becomes d.city",
               "SELECT d.city AS name, count(*) FROM dept AS d GROUP BY d.name");
}

static void test_setop(void **state) {
    T *t = *state;
    mutate(t, "SELECT name FROM emp UNION SELECT name FROM dept", 0);
    expect_sql(t, SQ_MUT_SETOP, "UNION becomes UNION ALL", " UNION ALL ");
    expect_sql(t, SQ_MUT_SETOP, "UNION becomes INTERSECT", " INTERSECT ");
    mutate(t, "SELECT id FROM dept EXCEPT SELECT dept_id FROM emp INTERSECT SELECT id FROM emp", 0);
    expect(t, SQ_MUT_SETOP, "EXCEPT becomes INTERSECT");
    expect(t, SQ_MUT_SETOP, "INTERSECT becomes EXCEPT");
}

/* The rows of sql on t's database, as one text ("NULL" for a NULL, rows
** ended by ';'); heap. */
static char *rows_of(T *t, const char *sql) {
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(t->db, sql, -1, &st, NULL) != SQLITE_OK)
        fail_msg("SQLite refuses %s: %s", sql, sqlite3_errmsg(t->db));
    char buf[512] = "";
    size_t len = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        const unsigned char *v = sqlite3_column_text(st, 0);
        len += (size_t)snprintf(buf + len, sizeof buf - len, "%s;", v ? (const char *)v : "NULL");
        assert_true(len < sizeof buf);
    }
    sqlite3_finalize(st);
    return strdup(buf);
}

static void expect_rows(T *t, const char *sql, const char *want) {
    char *got = rows_of(t, sql);
    if (strcmp(got, want) != 0) fail_msg("%s gives %s, not %s", sql, got, want);
    free(got);
}

static void test_extreme(void **state) {
    T *t = *state;
    mutate(t, "SELECT max(budget) FROM dept WHERE city = 'Oslo'", 0);
    expect_sql(t, SQ_MUT_EXTREME, "max(...) becomes ORDER BY ... DESC LIMIT 1",
               "SELECT dept.budget FROM dept WHERE dept.city = 'Oslo' ORDER BY 1 DESC LIMIT 1");
    char *maxed = mutant_sql(t, find(t, SQ_MUT_EXTREME, "max(...) becomes ORDER BY ... DESC LIMIT 1"));
    mutate(t, "SELECT MIN(salary * 2) FROM emp", 0);
    expect_sql(t, SQ_MUT_EXTREME, "MIN(...) becomes ORDER BY ... ASC LIMIT 1",
               "SELECT emp.salary * 2 AS \"MIN(salary * 2)\" FROM emp ORDER BY 1 LIMIT 1");
    char *minned = mutant_sql(t, find(t, SQ_MUT_EXTREME, "MIN(...) becomes ORDER BY ... ASC LIMIT 1"));
    /* what tells them apart, in SQLite: no row left (a row of NULL against
    ** none), and for min a NULL (ignored by min, first in ASC) */
    expect_rows(t, t->gold, "NULL;");
    expect_rows(t, minned, "");
    assert_int_equal(sqlite3_exec(t->db, "INSERT INTO emp (id, salary) VALUES (1, 3), (2, NULL)",
                                  NULL, NULL, NULL), SQLITE_OK);
    expect_rows(t, t->gold, "6.0;");
    expect_rows(t, minned, "NULL;");
    assert_int_equal(sqlite3_exec(t->db, "INSERT INTO dept (id, name, city, budget) VALUES "
                                  "(1, 'a', 'Oslo', NULL), (2, 'b', 'Oslo', 7)", NULL, NULL, NULL),
                     SQLITE_OK);
    expect_rows(t, maxed, "7.0;"); /* DESC puts the NULL last */
    free(maxed);
    free(minned);
    /* the WITH clause moves up onto the LIMIT */
    mutate(t, "WITH x AS (SELECT age FROM emp) SELECT max(age) FROM x", 0);
    expect_sql(t, SQ_MUT_EXTREME, "max(...) becomes ORDER BY ... DESC LIMIT 1",
               "WITH x(age) AS (SELECT emp.age FROM emp) SELECT x.age FROM x ORDER BY 1 DESC LIMIT 1");
    /* not with GROUP BY, another result column or call, nor in a subquery,
    ** where the two give the same value */
    static const char *const none[] = {
        "SELECT max(age) FROM emp GROUP BY dept_id",
        "SELECT max(age), min(age) FROM emp",
        "SELECT max(age) + 1 FROM emp",
        "SELECT sum(age) FROM emp",
        "SELECT name FROM emp WHERE age = (SELECT max(age) FROM emp)",
        "SELECT max(age) FROM emp HAVING count(*) > 1",
        "SELECT max(age) FROM emp UNION SELECT 1",
    };
    for (size_t i = 0; i < SQ_ARRAY_LEN(none); i++) {
        mutate(t, none[i], 0);
        if (count_kind(t, SQ_MUT_EXTREME)) fail_msg("an extreme mutation of %s", none[i]);
    }
}

/* ------------------------------------------------------------------ */
/* Order, determinism, cap, what is left alone                         */
/* ------------------------------------------------------------------ */

static const char big[] =
    "SELECT d.name, count(*), sum(e.salary) FROM emp e JOIN dept d ON e.dept_id = d.id "
    "LEFT JOIN project p ON p.dept_id = d.id WHERE e.age > 30 AND e.title LIKE 'E%' "
    "AND d.city IN ('Rome', 'Oslo') GROUP BY d.name, d.city HAVING count(*) > 2 "
    "ORDER BY 2 DESC LIMIT 5";

/* One mutation as text: kind, span, what, the mutant's SQL (heap). */
static char *describe(T *t, const SqMutation *m) {
    char *sql = mutant_sql(t, m);
    size_t n = strlen(sql) + strlen(m->what) + 64;
    char *s = malloc(n);
    snprintf(s, n, "%s %u-%u %s: %s", sq_mut_kind_name(m->kind), m->at.start, m->at.end,
             m->what, sql);
    free(sql);
    return s;
}

static void test_deterministic(void **state) {
    T *t = *state;
    mutate(t, big, 0);
    uint32_t n = t->n;
    char **first = calloc(n, sizeof *first);
    for (uint32_t i = 0; i < n; i++) first[i] = describe(t, &t->ms[i]);
    /* the same IR a second time, then the same text loaded again */
    for (int round = 0; round < 2; round++) {
        if (round == 1) load(t, big);
        SqMutation *ms;
        assert_int_equal(sq_mutations(t->q, t->cat, &ms, 0), n);
        for (uint32_t i = 0; i < n; i++) {
            char *s = describe(t, &ms[i]);
            assert_string_equal(s, first[i]);
            free(s);
        }
    }
    for (uint32_t i = 0; i < n; i++) free(first[i]);
    free(first);
}

static void test_max(void **state) {
    T *t = *state;
    mutate(t, big, 0);
    uint32_t all = t->n;
    uint8_t kinds[SQ_MUT__COUNT] = {0};
    uint32_t n_kinds = 0;
    for (uint32_t i = 0; i < all; i++)
        if (!kinds[t->ms[i].kind]++) n_kinds++;
    assert_true(all > 40 && n_kinds >= 12);
    SqMutation *full = t->ms;
    SqMutation *cut;
    uint32_t n = sq_mutations(t->q, t->cat, &cut, 20);
    assert_int_equal(n, 20);
    /* every kind the query has, still in text order, each one of the full list */
    uint8_t seen[SQ_MUT__COUNT] = {0};
    uint32_t n_seen = 0, at = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (!seen[cut[i].kind]++) n_seen++;
        while (at < all && !(full[at].kind == cut[i].kind && strcmp(full[at].what, cut[i].what) == 0 &&
                             full[at].at.start == cut[i].at.start))
            at++;
        assert_true(at < all);
        at++;
    }
    assert_int_equal(n_seen, n_kinds);
    assert_int_equal(sq_mutations(t->q, t->cat, &cut, 1), 1);
    assert_int_equal(sq_mutations(t->q, t->cat, &cut, all + 5), all);
}

static void test_left_alone(void **state) {
    T *t = *state;
    /* a view's body is the schema's text */
    mutate(t, "SELECT name FROM seniors WHERE id > 3", 0);
    assert_null(find(t, SQ_MUT_LITERAL, "60 becomes 61"));
    expect(t, SQ_MUT_LITERAL, "3 becomes 4");
    /* a recursive CTE's body: x < 5 could never end */
    mutate(t, "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 5) "
              "SELECT x FROM c WHERE x > 2", 0);
    assert_null(find(t, SQ_MUT_LITERAL, "5 becomes 6"));
    assert_int_equal(count_kind(t, SQ_MUT_SETOP), 0);
    expect(t, SQ_MUT_LITERAL, "2 becomes 3");
    /* no query, no mutation */
    SqArena *a = sq_arena_new();
    IrQuery *q = ir_query_new(a, 1);
    SqMutation *ms = (SqMutation *)1;
    assert_int_equal(sq_mutations(q, t->cat, &ms, 0), 0);
    assert_null(ms);
    sq_arena_free(a);
}

static void test_kind_names(void **state) {
    (void)state;
    static const char *const want[SQ_MUT__COUNT] = {
        "comparison", "and-or", "drop-conjunct", "negate", "literal", "aggregate", "distinct",
        "group-by", "having", "join-type", "join-key", "order-dir", "order-col", "limit",
        "select-col", "setop", "extreme",
    };
    for (int k = 0; k < SQ_MUT__COUNT; k++) assert_string_equal(sq_mut_kind_name(k), want[k]);
    assert_string_equal(sq_mut_kind_name(SQ_MUT__COUNT), "?");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        MUT_TEST(test_comparison),    MUT_TEST(test_and_or),      MUT_TEST(test_drop_conjunct),
        MUT_TEST(test_negate),        MUT_TEST(test_literal),     MUT_TEST(test_aggregate),
        MUT_TEST(test_distinct),      MUT_TEST(test_group_by),    MUT_TEST(test_having),
        MUT_TEST(test_join_type),     MUT_TEST(test_join_key),    MUT_TEST(test_order),
        MUT_TEST(test_limit),         MUT_TEST(test_select_col),  MUT_TEST(test_setop),
        MUT_TEST(test_invariants),    MUT_TEST(test_deterministic), MUT_TEST(test_max),
        MUT_TEST(test_left_alone),    MUT_TEST(test_extreme),
        cmocka_unit_test(test_kind_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
