/* test_expand.c -- passes/expand's SQL: every kept expansion joined into the query as written
** (sq_expansion_join) gives SQL that SQLite prepares, with the original's columns, and that
** undoing gives the original's SQL back byte for byte; on data where every foreign key has its
** row, a key-to-foreign-key expansion keeps the original's rows; the join is refused, with the
** reason, where the plan's table sits in a subquery; a column of the joined table shown
** (--add-column) with the join's rows beside it; a filter on it (--add-filter) with its
** values drawn from the joined rows; a compound query has no plan; the choices SQLite makes by
** the order it reads rows in are named (ir_result_choice). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

/* Only to prepare and run the expansions' SQL: the library under test never runs it. */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/squint.h"
#include "backend/emit/emit.h"
#include "passes/expand/expand.h"
#include "passes/pass.h"

static const char ddl[] =
    "CREATE TABLE molecule (molecule_id TEXT PRIMARY KEY, label TEXT);\n"
    "CREATE TABLE atom (atom_id TEXT PRIMARY KEY, molecule_id TEXT REFERENCES molecule(molecule_id),\n"
    "                   element TEXT);\n"
    "CREATE TABLE bond (bond_id TEXT PRIMARY KEY, molecule_id TEXT REFERENCES molecule(molecule_id),\n"
    "                   bond_type TEXT);\n"
    "CREATE TABLE connected (atom_id TEXT REFERENCES atom(atom_id), atom_id2 TEXT REFERENCES atom(atom_id),\n"
    "                        bond_id TEXT REFERENCES bond(bond_id), PRIMARY KEY (atom_id, atom_id2));\n"
    "CREATE TABLE dept (id INTEGER PRIMARY KEY, name TEXT, city TEXT);\n"
    "CREATE TABLE emp (id INTEGER PRIMARY KEY, name TEXT, dept_id INTEGER REFERENCES dept(id));\n"
    "CREATE TABLE project (id INTEGER PRIMARY KEY, dept_id INTEGER REFERENCES dept(id), title TEXT);\n";

/* Rows in which every foreign key finds its row. */
static const char data[] =
    "INSERT INTO molecule VALUES ('TR000', '+'), ('TR001', '-');\n"
    "INSERT INTO atom VALUES ('A1', 'TR000', 'cl'), ('A2', 'TR000', 'c'), ('A3', 'TR001', 'o');\n"
    "INSERT INTO bond VALUES ('B1', 'TR000', '-'), ('B2', 'TR001', '='), ('B3', 'TR000', '-');\n"
    "INSERT INTO connected VALUES ('A1', 'A2', 'B1'), ('A2', 'A1', 'B1');\n"
    "INSERT INTO dept VALUES (1, 'r', 'X'), (2, 's', 'Y');\n"
    "INSERT INTO emp VALUES (1, 'ann', 1), (2, 'bob', 2);\n"
    "INSERT INTO project VALUES (1, 1, 'p');\n";

typedef struct T {
    SqContext c;
    const Catalog *cat;
    sqlite3 *db;         /* in memory: the schema and the rows above */
    SqArena *a;          /* the current query's */
    IrQuery *q;          /* as written: the expansions are joined into it */
    IrQuery *u;          /* the same text bound again, unnested: the plan's */
    SqPassCtx pc;
    SqDiags diags;
    const SqExpandPlan *plan;
    char *orig;          /* q's SQL (heap) */
} T;

static int setup(void **state) {
    T *t = calloc(1, sizeof *t);
    sq_ctx_init(&t->c);
    t->cat = sq_ctx_load_ddl(&t->c, "schema.sql", ddl, strlen(ddl));
    if (!t->cat || sqlite3_open(":memory:", &t->db) != SQLITE_OK ||
        sqlite3_exec(t->db, ddl, NULL, NULL, NULL) != SQLITE_OK || sqlite3_exec(t->db, data, NULL, NULL, NULL) != SQLITE_OK)
        return -1;
    *state = t;
    return 0;
}

static void drop_query(T *t) {
    if (t->a) {
        sq_diags_free(&t->diags);
        sq_arena_free(t->a);
    }
    free(t->orig);
    t->a = NULL;
    t->orig = NULL;
}

static int teardown(void **state) {
    T *t = *state;
    drop_query(t);
    sqlite3_close(t->db);
    sq_ctx_free(&t->c);
    free(t);
    return 0;
}

#define EXP_TEST(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

static char *emit(IrQuery *q) {
    SqBuf b = SQ_BUF_INIT;
    assert_true(sq_emit_sqlite(q, &b));
    char *s = strdup(sq_buf_str(&b));
    sq_buf_free(&b);
    return s;
}

static IrQuery *compile(T *t, const char *sql) {
    SqCtxMark mark = sq_ctx_mark(&t->c);
    const SqSrc *src = sq_src_add_copy(t->c.srcs, "query.sql", sql, strlen(sql));
    SqCompileStatus st;
    IrQuery *q = sq_ctx_compile(&t->c, t->a, t->cat, src, &st);
    if (!q) fail_msg("%s: %s: %s", sql, sq_compile_why(st), sq_ctx_last_message(&t->c, mark));
    return q;
}

/* sql as written (t->q, t->orig) and its plan, made on a second binding
** of the same text after unnesting (t->plan). */
static void load(T *t, const char *sql) {
    drop_query(t);
    t->a = sq_arena_new();
    t->q = compile(t, sql);
    t->u = compile(t, sql);
    t->orig = emit(t->q);
    sq_diags_init(&t->diags, t->c.srcs);
    sq_pass_ctx_init(&t->pc, t->a, t->cat, t->c.names, &t->diags);
    const char *names[] = {"unnest", "expand"};
    assert_int_equal(sq_pass_run(&t->pc, t->u, names, 2), 0);
    const char *why;
    t->plan = sq_expand_result(&t->pc, &why);
    if (!t->plan) fail_msg("%s: no plan: %s", sql, why);
}

/* The kept expansion of table whose conditions read text, or NULL. */
static const SqExpansion *kept(const T *t, const char *table, const char *text) {
    for (uint32_t i = 0; i < t->plan->n_kept; i++) {
        const SqExpansion *x = &t->plan->items[i];
        SqBuf b = SQ_BUF_INIT;
        sq_expansion_text(t->plan, x, &b);
        int hit = strcmp(x->table, table) == 0 && strcmp(sq_buf_str(&b), text) == 0;
        sq_buf_free(&b);
        if (hit) return x;
    }
    return NULL;
}

/* x joined into t->q: its SQL (heap), or NULL with *why; undone after,
** and the original's SQL is back. */
static char *expansion_sql(T *t, const SqExpansion *x, const char **why) {
    IrPatch patch;
    if (sq_expansion_join(t->q, t->cat, t->plan, x, &patch, why) < 0) {
        char *again = emit(t->q);
        assert_string_equal(again, t->orig);   /* a refusal changes nothing */
        free(again);
        return NULL;
    }
    char *s = emit(t->q);
    ir_patch_undo(&patch, 1);
    char *again = emit(t->q);
    assert_string_equal(again, t->orig);
    free(again);
    return s;
}

static int by_text(const void *x, const void *y) { return strcmp(*(char *const *)x, *(char *const *)y); }

/* Rows of sql on t->db, each row's values joined by '|' and the rows by
** ';', sorted (a bag); the number of columns into *n_cols. */
static char *rows_of(T *t, const char *sql, int *n_cols) {
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(t->db, sql, -1, &st, NULL) != SQLITE_OK)
        fail_msg("SQLite does not prepare %s: %s", sql, sqlite3_errmsg(t->db));
    *n_cols = sqlite3_column_count(st);
    char **rows = NULL;
    size_t n = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        SqBuf b = SQ_BUF_INIT;
        for (int i = 0; i < *n_cols; i++) {
            const unsigned char *v = sqlite3_column_text(st, i);
            sq_buf_printf(&b, "%s%s", i ? "|" : "", v ? (const char *)v : "NULL");
        }
        rows = realloc(rows, (n + 1) * sizeof *rows);
        rows[n++] = sq_buf_detach(&b);
    }
    sqlite3_finalize(st);
    qsort(rows, n, sizeof *rows, by_text);
    SqBuf all = SQ_BUF_INIT;
    for (size_t i = 0; i < n; i++) {
        sq_buf_printf(&all, "%s%s", i ? ";" : "", rows[i]);
        free(rows[i]);
    }
    free(rows);
    return sq_buf_detach(&all);
}

/* ------------------------------------------------------------------ */

/* Every kept expansion of a few queries: SQL that SQLite prepares and
** runs, with the original's columns, one JOIN more, and the original back
** after the undo (expansion_sql checks that). */
static void every_kept_expansion_prepares_with_the_same_columns(void **state) {
    T *t = *state;
    static const char *const queries[] = {
        "SELECT T1.element FROM atom AS T1 WHERE T1.molecule_id = 'TR000'",
        "SELECT count(*) FROM atom JOIN bond ON atom.molecule_id = bond.molecule_id WHERE bond.bond_type = '-'",
        "SELECT T2.label, count(T1.atom_id) FROM atom AS T1 INNER JOIN molecule AS T2 ON T1.molecule_id = "
        "T2.molecule_id GROUP BY T2.label ORDER BY 2 DESC LIMIT 1",
        "SELECT DISTINCT name FROM emp WHERE dept_id = 1",
    };
    for (size_t k = 0; k < sizeof queries / sizeof *queries; k++) {
        load(t, queries[k]);
        assert_true(t->plan->n_kept > 0);
        int n_orig;
        free(rows_of(t, t->orig, &n_orig));
        for (uint32_t i = 0; i < t->plan->n_kept; i++) {
            const char *why = NULL;
            char *s = expansion_sql(t, &t->plan->items[i], &why);
            if (!s) fail_msg("%s: expansion %u (%s) not joined: %s", queries[k], i, t->plan->items[i].table, why);
            int n_cols;
            free(rows_of(t, s, &n_cols));
            assert_int_equal(n_cols, n_orig);
            const char *p = s;
            int joins_orig = 0, joins = 0;
            while ((p = strstr(p, " JOIN ")) != NULL) joins++, p++;
            for (p = t->orig; (p = strstr(p, " JOIN ")) != NULL; p++) joins_orig++;
            assert_int_equal(joins, joins_orig + 1);
            free(s);
        }
    }
}

/* The SQL of one expansion, exactly, and what it means on the data: every
** atom has its molecule, so joining molecule by the key keeps the rows;
** joining bond by molecule_id (two foreign keys) multiplies them. */
static void a_key_join_keeps_rows_a_foreign_key_join_multiplies_them(void **state) {
    T *t = *state;
    load(t, "SELECT T1.element FROM atom AS T1 WHERE T1.molecule_id = 'TR000'");
    const SqExpansion *m = kept(t, "molecule", "T1.molecule_id = molecule.molecule_id");
    const SqExpansion *b = kept(t, "bond", "T1.molecule_id = bond.molecule_id");
    assert_non_null(m);
    assert_non_null(b);
    const char *why = NULL;
    char *sm = expansion_sql(t, m, &why), *sb = expansion_sql(t, b, &why);
    assert_string_equal(sm, "SELECT T1.element FROM atom AS T1 JOIN molecule ON T1.molecule_id = molecule.molecule_id "
                            "WHERE T1.molecule_id = 'TR000'");
    int n;
    char *r0 = rows_of(t, t->orig, &n), *rm = rows_of(t, sm, &n), *rb = rows_of(t, sb, &n);
    assert_string_equal(r0, "c;cl");
    assert_string_equal(rm, r0);
    assert_string_equal(rb, "c;c;cl;cl");   /* TR000 has two bonds: each atom twice */
    free(r0);
    free(rm);
    free(rb);
    free(sm);
    free(sb);
}

/* A table the plan joins through an IN subquery's FROM item (the graph is
** made after unnesting) cannot be joined into the query as written. */
static void a_subquery_table_is_refused_with_the_reason(void **state) {
    T *t = *state;
    load(t, "SELECT name FROM emp WHERE dept_id IN (SELECT id FROM dept WHERE city = 'X')");
    const SqExpansion *p = NULL;
    for (uint32_t i = 0; i < t->plan->n_kept && !p; i++)
        if (strcmp(t->plan->items[i].table, "project") == 0) p = &t->plan->items[i];
    assert_non_null(p);
    const char *why = NULL;
    char *s = expansion_sql(t, p, &why);
    assert_null(s);
    assert_non_null(why);
    assert_non_null(strstr(why, "is not a FROM item of the query's top SELECT"));
}

/* --add-column: after the join, a column of the new table shown last,
** the first in no key (bond_type for bond, label for molecule), with the
** rows of the join beside it; both undos give the original back; a query
** that aggregates, or ORDER BY's hidden column, is handled. */
static void a_shown_column_is_the_first_in_no_key(void **state) {
    T *t = *state;
    load(t, "SELECT T1.element FROM atom AS T1 WHERE T1.molecule_id = 'TR000' ORDER BY T1.atom_id");
    const SqExpansion *b = kept(t, "bond", "T1.molecule_id = bond.molecule_id");
    assert_non_null(b);
    IrPatch join, shown[2];
    const char *why = NULL, *col = NULL;
    assert_int_equal(sq_expansion_join(t->q, t->cat, t->plan, b, &join, &why), 0);
    char *joined = emit(t->q);
    assert_int_equal(sq_expansion_add_column(t->q, shown, &col, &why), 0);
    assert_string_equal(col, "bond_type");
    char *s = emit(t->q);
    assert_string_equal(s, "SELECT T1.element, bond.bond_type FROM atom AS T1 JOIN bond ON T1.molecule_id = "
                           "bond.molecule_id WHERE T1.molecule_id = 'TR000' ORDER BY T1.atom_id");
    int n1, n2;
    char *rj = rows_of(t, joined, &n1), *rs = rows_of(t, s, &n2);
    assert_int_equal(n2, n1 + 1);
    assert_string_equal(rs, "cl|-;cl|-;c|-;c|-");   /* sorted as text */
    assert_string_equal(rj, "c;c;cl;cl");
    ir_patch_undo(shown, 2);
    char *again = emit(t->q);
    assert_string_equal(again, joined);
    ir_patch_undo(&join, 1);
    free(again);
    again = emit(t->q);
    assert_string_equal(again, t->orig);
    free(again);
    free(rj);
    free(rs);
    free(s);
    free(joined);

    load(t, "SELECT count(*) FROM atom WHERE element = 'c'");
    const SqExpansion *m = kept(t, "molecule", "atom.molecule_id = molecule.molecule_id");
    assert_non_null(m);
    assert_int_equal(sq_expansion_join(t->q, t->cat, t->plan, m, &join, &why), 0);
    joined = emit(t->q);
    assert_int_equal(sq_expansion_add_column(t->q, shown, &col, &why), -1);
    assert_non_null(strstr(why, "aggregates"));
    again = emit(t->q);
    assert_string_equal(again, joined);   /* a refusal changes nothing */
    ir_patch_undo(&join, 1);
    free(again);
    free(joined);
    /* no table joined: refused */
    assert_int_equal(sq_expansion_add_column(t->q, shown, &col, &why), -1);
}

/* The TEXT literal s, in the current query's arena. */
static SqExpr *text_literal(T *t, const char *s) {
    SqExpr *lit = sq_expr_new(t->a, SQX_LITERAL, t->q->root->span, sq_type(SQ_TY_TEXT, SQ_AFF_BLOB, 0));
    lit->u.lit.vtype = SQ_VAL_TEXT;
    lit->u.lit.s = s;
    lit->u.lit.n = (uint32_t)strlen(s);
    return lit;
}

/* --add-filter: the probe is the joined column over the FROM and WHERE,
** before the aggregate, so its values are those of the joined rows ('='
** for the molecule labelled '-', though '-' is bond's most frequent); the
** filter is ANDed to the WHERE, or makes one; each undo gives the SQL
** before it back. */
static void a_filter_draws_from_the_joined_rows(void **state) {
    T *t = *state;
    load(t, "SELECT count(*) FROM molecule WHERE label = '-'");
    const SqExpansion *b = kept(t, "bond", "molecule.molecule_id = bond.molecule_id");
    assert_non_null(b);
    IrPatch join, probe, filter;
    const char *why = NULL;
    assert_int_equal(sq_expansion_join(t->q, t->cat, t->plan, b, &join, &why), 0);
    char *joined = emit(t->q);
    assert_string_equal(sq_expansion_column(t->q, &why), "bond_type");
    assert_int_equal(sq_expansion_probe(t->q, &probe, &why), 0);
    char *p = emit(t->q);
    assert_string_equal(p, "SELECT bond.bond_type FROM molecule JOIN bond ON molecule.molecule_id = bond.molecule_id "
                           "WHERE molecule.label = '-'");
    int n;
    char *rows = rows_of(t, p, &n);
    assert_string_equal(rows, "=");
    ir_patch_undo(&probe, 1);
    char *again = emit(t->q);
    assert_string_equal(again, joined);
    free(again);
    assert_int_equal(sq_expansion_add_filter(t->q, text_literal(t, "="), &filter, &why), 0);
    char *f = emit(t->q);
    assert_string_equal(f, "SELECT count(*) FROM molecule JOIN bond ON molecule.molecule_id = bond.molecule_id "
                           "WHERE (molecule.label = '-') AND (bond.bond_type = '=')");
    char *counted = rows_of(t, f, &n);
    assert_string_equal(counted, "1");
    ir_patch_undo(&filter, 1);
    ir_patch_undo(&join, 1);
    again = emit(t->q);
    assert_string_equal(again, t->orig);
    free(again);
    free(counted);
    free(f);
    free(rows);
    free(p);
    free(joined);

    load(t, "SELECT label FROM molecule");
    b = kept(t, "bond", "molecule.molecule_id = bond.molecule_id");
    assert_non_null(b);
    assert_int_equal(sq_expansion_join(t->q, t->cat, t->plan, b, &join, &why), 0);
    assert_int_equal(sq_expansion_add_filter(t->q, text_literal(t, "="), &filter, &why), 0);
    f = emit(t->q);
    assert_string_equal(f, "SELECT molecule.label FROM molecule JOIN bond ON molecule.molecule_id = bond.molecule_id "
                           "WHERE bond.bond_type = '='");
    ir_patch_undo(&filter, 1);
    ir_patch_undo(&join, 1);
    again = emit(t->q);
    assert_string_equal(again, t->orig);
    free(again);
    free(f);
}

/* A compound query has no join query graph, so no plan: the pass says
** why. */
static void a_compound_query_has_no_plan(void **state) {
    T *t = *state;
    drop_query(t);
    t->a = sq_arena_new();
    t->u = compile(t, "SELECT name FROM emp WHERE id = 1 UNION SELECT name FROM emp WHERE id = 2");
    sq_diags_init(&t->diags, t->c.srcs);
    sq_pass_ctx_init(&t->pc, t->a, t->cat, t->c.names, &t->diags);
    const char *names[] = {"expand"};
    assert_int_equal(sq_pass_run(&t->pc, t->u, names, 1), 0);
    const char *why = NULL;
    assert_null(sq_expand_result(&t->pc, &why));
    assert_non_null(strstr(why, "compound"));
}

/* ir_result_choice: a query whose rows SQLite picks by the order it reads them is named
** with the choice; one whose rows the data fix is not (the guard of expand's verdicts told
** on a database).  ir_count_choice: the same for the number of rows, which the statement's
** own LIMIT, and its values chosen where no DISTINCT or HAVING reads them, leave fixed. */
static void choices_sqlite_makes_are_named(void **state) {
    T *t = *state;
    static const char lim[] = "a LIMIT", bare[] = "a bare column of an aggregate query",
                      ordered[] = "an aggregate whose value depends on the order of its rows",
                      scalar[] = "a scalar subquery that may find several rows", win[] = "a window function",
                      fn[] = "a function whose value is not fixed (random, the clock)";
    static const struct {
        const char *sql, *choice, *count; /* NULL: determined */
    } cases[] = {
        {"SELECT name FROM emp", NULL, NULL},
        {"SELECT name FROM emp ORDER BY name", NULL, NULL},
        {"SELECT dept_id, count(*), max(id), avg(id), sum(id) FROM emp GROUP BY dept_id", NULL, NULL},
        {"SELECT name FROM emp WHERE dept_id = (SELECT max(id) FROM dept)", NULL, NULL},
        {"SELECT name FROM emp WHERE dept_id IN (SELECT id FROM dept WHERE city = 'X')", NULL, NULL},
        {"SELECT name FROM emp ORDER BY id LIMIT 1", lim, NULL},
        {"SELECT name FROM emp WHERE dept_id IN (SELECT id FROM dept ORDER BY city LIMIT 1)", lim, lim},
        {"SELECT * FROM (SELECT name FROM emp LIMIT 2)", lim, lim},
        {"SELECT name FROM emp UNION SELECT name FROM dept LIMIT 2", lim, NULL},
        {"SELECT name, max(id) FROM emp", bare, NULL},
        {"SELECT group_concat(name) FROM emp", ordered, NULL},
        {"SELECT sum(name) FROM emp", ordered, NULL},
        {"SELECT DISTINCT group_concat(name) FROM emp GROUP BY dept_id", ordered, ordered},
        {"SELECT dept_id FROM emp GROUP BY dept_id HAVING group_concat(name) = 'a'", ordered, ordered},
        {"SELECT name FROM emp UNION SELECT group_concat(name) FROM dept", ordered, ordered},
        {"SELECT name FROM emp WHERE dept_id = (SELECT id FROM dept WHERE city = 'X')", scalar, scalar},
        {"SELECT name, row_number() OVER (ORDER BY name) FROM emp", win, NULL},
        {"SELECT r FROM (SELECT row_number() OVER (ORDER BY name) AS r FROM emp) WHERE r = 1", win, win},
        {"SELECT name FROM emp WHERE random() > 0", fn, fn},
        {"SELECT name FROM emp WHERE date('now') > '2000-01-01'", fn, fn},
    };
    t->a = sq_arena_new();
    sq_diags_init(&t->diags, t->c.srcs);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        IrQuery *q = compile(t, cases[i].sql);
        for (int k = 0; k < 2; k++) {
            const char *got = k ? ir_count_choice(q) : ir_result_choice(q), *want = k ? cases[i].count : cases[i].choice;
            if (!want ? got != NULL : !got || strcmp(got, want) != 0)
                fail_msg("%s (%s): got %s, want %s", cases[i].sql, k ? "count" : "rows", got ? got : "(determined)",
                         want ? want : "(determined)");
        }
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        EXP_TEST(every_kept_expansion_prepares_with_the_same_columns),
        EXP_TEST(a_key_join_keeps_rows_a_foreign_key_join_multiplies_them),
        EXP_TEST(a_subquery_table_is_refused_with_the_reason),
        EXP_TEST(a_shown_column_is_the_first_in_no_key),
        EXP_TEST(a_filter_draws_from_the_joined_rows),
        EXP_TEST(a_compound_query_has_no_plan),
        EXP_TEST(choices_sqlite_makes_are_named),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
