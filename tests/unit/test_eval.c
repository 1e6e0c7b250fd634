/* test_eval.c -- backend/eval/metric.c: the text the official scripts run,
** and EX-test on a small in-memory database. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backend/eval/hardness.h"
#include "backend/eval/metric.h"
#include "grammar/parse.h"
#include "backend/eval/item.h"
#include "backend/eval/record.h"
#include "backend/eval/softf1.h"
#include "backend/eval/ves.h"

/* sq_metric_sql(m, keep_distinct, is_pred, in) must be want. */
static void check_sql(SqMetric m, int keep, int is_pred, const char *in, const char *want) {
    char *got = sq_metric_sql(m, keep, is_pred, in);
    if (strcmp(got, want) != 0) print_error("sq_metric_sql(%s): got [%s], want [%s]\n", in, got, want);
    assert_string_equal(got, want);
    free(got);
}

static void spider_deletes_distinct_tokens(void **state) {
    (void)state;
    check_sql(SQ_METRIC_SPIDER, 0, 0, "SELECT DISTINCT a FROM t", "SELECT  a FROM t");
    check_sql(SQ_METRIC_SPIDER, 0, 0, "select count ( distinct x ) from t", "select count (  x ) from t");
    check_sql(SQ_METRIC_SPIDER, 0, 0, "SELECT count(DISTINCT(x)) FROM t", "SELECT count((x)) FROM t");
    check_sql(SQ_METRIC_SPIDER, 0, 0, "SELECT t.distinct FROM t", "SELECT t. FROM t");
    /* not a token of its own, or inside a string, a quoted name or a comment */
    check_sql(SQ_METRIC_SPIDER, 0, 0, "SELECT distinct_x, xdistinct FROM t", "SELECT distinct_x, xdistinct FROM t");
    check_sql(SQ_METRIC_SPIDER, 0, 0, "SELECT 'distinct', \"distinct\", `distinct`, [distinct] FROM t",
              "SELECT 'distinct', \"distinct\", `distinct`, [distinct] FROM t");
    check_sql(SQ_METRIC_SPIDER, 0, 0, "SELECT a -- distinct\nFROM t /* distinct */",
              "SELECT a -- distinct\nFROM t /* distinct */");
    check_sql(SQ_METRIC_SPIDER, 0, 0, "SELECT 'it''s distinct' , distinct a", "SELECT 'it''s distinct' ,  a");
    check_sql(SQ_METRIC_SPIDER, 1, 0, "SELECT DISTINCT a FROM t", "SELECT DISTINCT a FROM t");
    check_sql(SQ_METRIC_BIRD, 0, 1, "SELECT DISTINCT a FROM t", "SELECT DISTINCT a FROM t");
}

static void spider_rewrites_operators_and_values(void **state) {
    (void)state;
    check_sql(SQ_METRIC_SPIDER, 0, 0, "  SELECT a FROM t WHERE a > = 1 AND b < = 2 AND c ! = 3 ;\n",
              "SELECT a FROM t WHERE a >= 1 AND b <= 2 AND c != 3 ;");
    /* "value" becomes "1" in a prediction, wherever it occurs; not in gold */
    check_sql(SQ_METRIC_SPIDER, 0, 1, "SELECT a FROM t WHERE b = ' value ' AND value > 2",
              "SELECT a FROM t WHERE b = ' 1 ' AND 1 > 2");
    check_sql(SQ_METRIC_SPIDER, 0, 0, "SELECT value FROM t", "SELECT value FROM t");
    check_sql(SQ_METRIC_BIRD, 0, 1, "  SELECT value FROM t  ", "SELECT value FROM t");
}

/* ------------------------------------------------------------------ */
/* EX-test                                                             */
/* ------------------------------------------------------------------ */

static const char db_sql[] = "CREATE TABLE t(a INTEGER, b TEXT);"
                             "INSERT INTO t VALUES (1, 'x'), (2, 'y'), (2, 'y'), (3, NULL);";

typedef struct Case {
    SqMetric metric;
    const char *gold, *pred;
    SqExOutcome want;
} Case;

static void run_cases(const Case *cases, size_t n) {
    char *err = NULL;
    SqDb *db = sq_db_open_memory(db_sql, &err);
    assert_non_null(db);
    for (size_t k = 0; k < n; k++) {
        SqExOptions o = {.metric = cases[k].metric, .timeout = 5, .max_rows = 1000, .max_bytes = 1 << 20};
        SqExGold g;
        sq_ex_gold(db, cases[k].gold, &o, &g);
        char *detail = NULL;
        SqExOutcome got = sq_ex_pred(db, &g, cases[k].pred, &o, &detail);
        if (got != cases[k].want)
            print_error("case %zu: %s vs %s: got %s (%s), want %s\n", k, cases[k].gold, cases[k].pred,
                        sq_ex_outcome_name(got), detail ? detail : "", sq_ex_outcome_name(cases[k].want));
        assert_int_equal(got, cases[k].want);
        if (got != SQ_EX_CORRECT) assert_non_null(detail);
        free(detail);
        sq_ex_gold_free(&g);
    }
    sq_db_close(db);
}

static void ex_test_follows_the_scripts(void **state) {
    (void)state;
    static const Case cases[] = {
        /* spider: bags, columns in any order, order only with ORDER BY */
        {SQ_METRIC_SPIDER, "SELECT a, b FROM t", "SELECT b, a FROM t", SQ_EX_CORRECT},
        {SQ_METRIC_SPIDER, "SELECT a FROM t", "SELECT DISTINCT a FROM t", SQ_EX_CORRECT}, /* DISTINCT deleted */
        {SQ_METRIC_SPIDER, "SELECT a FROM t GROUP BY a", "SELECT a FROM t", SQ_EX_WRONG},
        {SQ_METRIC_SPIDER, "SELECT a FROM t ORDER BY a", "SELECT a FROM t ORDER BY a DESC", SQ_EX_WRONG},
        {SQ_METRIC_SPIDER, "SELECT a FROM t", "SELECT a FROM t ORDER BY a DESC", SQ_EX_CORRECT},
        {SQ_METRIC_SPIDER, "SELECT 2020", "SELECT YEAR ( CURDATE ( ) )", SQ_EX_CORRECT},
        /* more rows than the gold: wrong, and the run stops there */
        {SQ_METRIC_SPIDER, "SELECT a FROM t LIMIT 1", "SELECT t.a FROM t, t AS u, t AS v, t AS w", SQ_EX_WRONG},
        /* bird: sets of rows */
        {SQ_METRIC_BIRD, "SELECT a FROM t GROUP BY a", "SELECT a FROM t", SQ_EX_CORRECT},
        {SQ_METRIC_BIRD, "SELECT a, b FROM t", "SELECT b, a FROM t", SQ_EX_WRONG},
        {SQ_METRIC_BIRD, "SELECT 1", "SELECT 1.0", SQ_EX_CORRECT},
        {SQ_METRIC_BIRD, "SELECT 'a'", "SELECT CAST(x'ff' AS TEXT)", SQ_EX_ERROR}, /* not UTF-8 */
        /* both: one statement per execute(); no writes; errors */
        {SQ_METRIC_SPIDER, "SELECT 1", "SELECT 1; SELECT 1", SQ_EX_ERROR},
        {SQ_METRIC_SPIDER, "SELECT 1", "SELECT 1; -- done", SQ_EX_CORRECT},
        {SQ_METRIC_BIRD, "SELECT 1", "SELECT 1;;", SQ_EX_ERROR},
        {SQ_METRIC_SPIDER, "SELECT 1", "DROP TABLE t", SQ_EX_DENIED},
        /* load_extension() is refused like a write, not run and failed */
        {SQ_METRIC_SPIDER, "SELECT 1", "SELECT load_extension('x')", SQ_EX_DENIED},
        {SQ_METRIC_BIRD, "SELECT a FROM t", "SELECT a FROM t WHERE Load_Extension('x', 'y') IS NULL", SQ_EX_DENIED},
        {SQ_METRIC_BIRD, "SELECT 1", "SELECT nope FROM t", SQ_EX_ERROR},
        {SQ_METRIC_SPIDER, "SELECT nope FROM t", "SELECT 1", SQ_EX_GOLD_FAILED},
        /* an empty prediction runs as nothing: right only for an empty gold */
        {SQ_METRIC_SPIDER, "SELECT a FROM t WHERE a > 9", "", SQ_EX_CORRECT},
        {SQ_METRIC_SPIDER, "SELECT a FROM t", "", SQ_EX_WRONG},
    };
    run_cases(cases, sizeof cases / sizeof cases[0]);
}

static void no_database_gives_no_db(void **state) {
    (void)state;
    SqExOptions o = {.metric = SQ_METRIC_SPIDER, .timeout = 5};
    SqExGold g;
    sq_ex_gold(NULL, "SELECT 1", &o, &g);
    assert_int_equal(sq_ex_pred(NULL, &g, "SELECT 1", &o, NULL), SQ_EX_NO_DB);
    sq_ex_gold_free(&g);
}

/* ------------------------------------------------------------------ */
/* Records                                                             */
/* ------------------------------------------------------------------ */

static void records_count_as_documented(void **state) {
    (void)state;
    static const char line[] =
        "{\"item\":7,\"db_id\":\"d\",\"difficulty\":\"easy\",\"systems\":["
        "{\"name\":\"a\",\"ex\":\"correct\",\"verdict\":\"equivalent\",\"refuted_by\":null},"
        "{\"name\":\"b\",\"ex\":\"correct\",\"verdict\":\"different\",\"refuted_by\":null},"
        "{\"name\":\"c\",\"ex\":\"correct\",\"verdict\":\"timeout\",\"refuted_by\":\"b\"},"
        "{\"name\":\"d\",\"ex\":\"wrong\",\"verdict\":null,\"refuted_by\":null},"
        "{\"name\":\"e\",\"ex\":\"correct\",\"verdict\":\"equivalent\",\"refuted_by\":\"b\"}]}";
    SqArena *a = sq_arena_new();
    SqEvalRecord r;
    const char *why = NULL;
    assert_int_equal(sq_eval_record_parse(a, line, strlen(line), &r, &why), 0);
    assert_int_equal(r.item, 7);
    assert_int_equal(r.n_systems, 5);
    assert_string_equal(r.names[4], "e");
    SqEvalCounts c[5];
    memset(c, 0, sizeof c);
    for (int k = 0; k < 5; k++) sq_eval_count(&c[k], &r.marks[k]);
    assert_int_equal(c[0].verified, 1);
    assert_int_equal(c[0].verified_cross, 1);
    assert_int_equal(c[1].different, 1);
    assert_int_equal(c[1].verified, 0);
    assert_int_equal(c[2].unknown, 1);
    assert_int_equal(c[2].refuted, 1);
    assert_int_equal(c[3].ex_ok, 0);
    assert_int_equal(c[3].ex[SQ_EX_WRONG], 1);
    assert_int_equal(c[4].verified, 1);
    assert_int_equal(c[4].verified_cross, 0);
    assert_int_equal(sq_eval_record_parse(a, "{\"item\":1}", 10, &r, &why), -1);
    assert_int_equal(sq_eval_record_parse(a, "[1]", 3, &r, &why), -1);
    sq_arena_free(a);
}

/* A records file names itself: format 2 records start with the item and
** "squint_eval", and say what they were computed from. */
static void records_name_their_format_and_inputs(void **state) {
    (void)state;
    static const char v2[] =
        "{\"item\":12,\"squint_eval\":2,\"inputs\":\"00ff\",\"options\":{\"bound\":3,\"verify\":true},"
        "\"gold\":\"SELECT 1\",\"systems\":[{\"name\":\"a\",\"pred\":\"SELECT 2\",\"ex\":\"wrong\"},"
        "{\"name\":\"b\",\"pred\":null,\"ex\":\"wrong\"}]}";
    static const char v1[] = "{\"item\":3,\"systems\":[{\"name\":\"a\",\"ex\":\"correct\"}]}";
    assert_true(sq_eval_line_is_ours(v2, strlen(v2)));
    assert_true(sq_eval_line_is_ours(v2, 26));  /* cut off after the marker's key */
    assert_false(sq_eval_line_is_ours(v2, 20)); /* too little to tell */
    assert_false(sq_eval_line_is_ours(v1, strlen(v1)));
    assert_false(sq_eval_line_is_ours("[{\"db_id\": \"x\"}]", 17));
    assert_false(sq_eval_line_is_ours("{\"0\": \"SELECT 1\"}", 17));
    SqArena *a = sq_arena_new();
    SqEvalRecord r, old;
    const char *why = NULL;
    assert_int_equal(sq_eval_record_parse(a, v2, strlen(v2), &r, &why), 0);
    assert_int_equal(r.format, 2);
    assert_string_equal(r.inputs, "00ff");
    assert_string_equal(r.gold, "SELECT 1");
    assert_string_equal(r.preds[0], "SELECT 2");
    assert_null(r.preds[1]);
    assert_non_null(r.options);
    assert_int_equal(sq_eval_record_parse(a, v1, strlen(v1), &old, &why), 0);
    assert_int_equal(old.format, 1);
    assert_null(old.inputs);
    assert_null(old.options);
    sq_arena_free(a);
}

/* The options of two records: the first member spelled otherwise. */
static void options_differ_by_member(void **state) {
    (void)state;
    static const char *const same[] = {"{\"bound\":3,\"verify\":true}", "{\"bound\":3,\"verify\":true}"};
    static const char *const cases[][3] = {
        {"{\"bound\":3,\"verify\":true}", "{\"bound\":4,\"verify\":true}", "bound"},
        {"{\"bound\":3,\"verify\":true}", "{\"bound\":3}", "verify"},
        {"{\"bound\":3}", "{\"bound\":3,\"lint\":false}", "lint"},
        {"{\"s\":\"spider\"}", "{\"s\":\"bird\"}", "s"},
    };
    SqArena *a = sq_arena_new();
    const SqJson *x = sq_json_parse(a, same[0], strlen(same[0]), NULL);
    const SqJson *y = sq_json_parse(a, same[1], strlen(same[1]), NULL);
    assert_null(sq_eval_options_diff(x, same[0], y, same[1]));
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        x = sq_json_parse(a, cases[k][0], strlen(cases[k][0]), NULL);
        y = sq_json_parse(a, cases[k][1], strlen(cases[k][1]), NULL);
        const char *got = sq_eval_options_diff(x, cases[k][0], y, cases[k][1]);
        assert_non_null(got);
        assert_string_equal(got, cases[k][2]);
    }
    sq_arena_free(a);
}

static void digest_of(const char *gold, const char *db_id, const char *p1, const char *p2, char *out) {
    const char *preds[2] = {p1, p2};
    SqEvalInput in = {.gold = gold, .db_id = db_id, .n_systems = 2, .preds = preds};
    sq_eval_input_digest(&in, out);
}

/* The digest of an item's inputs changes with any of them. */
static void input_digest_sees_every_input(void **state) {
    (void)state;
    char base[SQ_EVAL_DIGEST_LEN + 1], again[SQ_EVAL_DIGEST_LEN + 1], other[SQ_EVAL_DIGEST_LEN + 1];
    digest_of("SELECT 1", "db", "SELECT 2", "SELECT 3", base);
    digest_of("SELECT 1", "db", "SELECT 2", "SELECT 3", again);
    assert_int_equal(strlen(base), SQ_EVAL_DIGEST_LEN);
    assert_string_equal(base, again);
    static const char *const variants[][4] = {
        {"SELECT 0", "db", "SELECT 2", "SELECT 3"},  /* the gold */
        {"SELECT 1", "dc", "SELECT 2", "SELECT 3"},  /* the db_id */
        {"SELECT 1", NULL, "SELECT 2", "SELECT 3"},
        {"SELECT 1", "db", "SELECT 2 ", "SELECT 3"}, /* a prediction */
        {"SELECT 1", "db", "SELECT 3", "SELECT 2"},  /* the systems' order */
        {"SELECT 1", "db", "", "SELECT 3"},          /* empty ... */
        {"SELECT 1", "db", NULL, "SELECT 3"},        /* ... is not missing */
        {"SELECT 1d", "b", "SELECT 2", "SELECT 3"},  /* fields do not run together */
    };
    for (size_t k = 0; k < sizeof variants / sizeof variants[0]; k++) {
        digest_of(variants[k][0], variants[k][1], variants[k][2], variants[k][3], other);
        if (strcmp(base, other) == 0) print_error("variant %zu has the base's digest\n", k);
        assert_string_not_equal(base, other);
    }
    char empty[SQ_EVAL_DIGEST_LEN + 1], missing[SQ_EVAL_DIGEST_LEN + 1];
    digest_of("SELECT 1", "db", "", "SELECT 3", empty);
    digest_of("SELECT 1", "db", NULL, "SELECT 3", missing);
    assert_string_not_equal(empty, missing);
}

/* ------------------------------------------------------------------ */
/* Spider's hardness                                                   */
/* ------------------------------------------------------------------ */

static const char *hardness_of(const char *sql) {
    SqSrcSet srcs;
    sq_srcset_init(&srcs);
    SqDiags diags;
    sq_diags_init(&diags, &srcs);
    SqInterner *names = sq_interner_new();
    SqArena *a = sq_arena_new();
    const SqSrc *src = sq_src_add_copy(&srcs, "q", sql, strlen(sql));
    AstStmtList list = {0};
    sq_parse_all(src, names, &diags, a, &list);
    const char *h = list.n ? sq_spider_hardness(list.items[0]) : NULL;
    sq_arena_free(a);
    sq_interner_free(names);
    sq_diags_free(&diags);
    sq_srcset_free(&srcs);
    return h;
}

static void spider_hardness_levels(void **state) {
    (void)state;
    static const char *const cases[][2] = {
        {"SELECT count(*) FROM singer", "easy"},
        {"SELECT name FROM singer WHERE age > 20", "easy"},
        {"SELECT name, country, age FROM singer ORDER BY age DESC", "medium"},
        {"SELECT T2.name FROM concert AS T1 JOIN stadium AS T2 ON T1.id = T2.id WHERE T1.year = 2014", "medium"},
        {"SELECT name FROM singer WHERE id NOT IN (SELECT singer_id FROM singer_in_concert)", "hard"},
        {"SELECT name FROM a WHERE x LIKE '%a%' OR y = 1 ORDER BY z LIMIT 1", "extra"},
        {"SELECT name FROM a WHERE x = 1 INTERSECT SELECT name FROM a WHERE y = 2", "hard"},
        /* component1 3 (GROUP BY, ORDER BY, LIMIT), others 2: hard */
        {"SELECT a, count(*) FROM t GROUP BY a HAVING count(*) > 1 AND sum(b) > 2 ORDER BY count(*) DESC LIMIT 3",
         "hard"},
        {"SELECT a, count(*) FROM t WHERE b = 1 GROUP BY a HAVING count(*) > 1 ORDER BY count(*) DESC LIMIT 3",
         "extra"},
        {"CREATE TABLE t(x)", NULL},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const char *got = hardness_of(cases[k][0]);
        if (!cases[k][1]) {
            assert_null(got);
            continue;
        }
        if (!got || strcmp(got, cases[k][1]) != 0)
            print_error("%s: got %s, want %s\n", cases[k][0], got ? got : "NULL", cases[k][1]);
        assert_non_null(got);
        assert_string_equal(got, cases[k][1]);
    }
}

/* A result of rows given as "i:1 r:1.0 t:x b:x n" cells, rows split by
** '|' (every row w cells wide). */
static void result_of(SqResult *r, uint32_t w, const char *spec) {
    sq_result_start(r, w);
    char *copy = strdup(spec), *save = NULL;
    for (char *row = strtok_r(copy, "|", &save); row; row = strtok_r(NULL, "|", &save)) {
        SqValue *cells = sq_result_add_row(r);
        char *save2 = NULL;
        uint32_t c = 0;
        for (char *cell = strtok_r(row, " ", &save2); cell && c < w; cell = strtok_r(NULL, " ", &save2), c++) {
            if (cell[0] == 'i') cells[c] = sq_value_int(strtoll(cell + 2, NULL, 10));
            else if (cell[0] == 'r') cells[c] = sq_value_real(strtod(cell + 2, NULL));
            else if (cell[0] == 't') cells[c] = sq_result_text(r, cell + 2, (uint32_t)strlen(cell + 2));
            else if (cell[0] == 'b') cells[c] = sq_result_blob(r, cell + 2, (uint32_t)strlen(cell + 2));
            else cells[c] = sq_value_null();
        }
    }
    free(copy);
}

static double f1_of(uint32_t wp, const char *pred, uint32_t wg, const char *gold) {
    SqResult p, g;
    sq_result_init(&p);
    sq_result_init(&g);
    result_of(&p, wp, pred);
    result_of(&g, wg, gold);
    double v = sq_soft_f1(&p, &g);
    sq_result_free(&p);
    sq_result_free(&g);
    return v;
}

/* Values worked out by hand from the definition in softf1.h. */
static void soft_f1_by_hand(void **state) {
    (void)state;
    assert_true(f1_of(1, "", 1, "") == 1.0);                         /* both empty */
    assert_true(f1_of(1, "i:1", 1, "") == 0.0);                      /* gold empty */
    assert_true(f1_of(1, "", 1, "i:1") == 0.0);                      /* prediction empty */
    assert_true(f1_of(2, "i:1 t:a", 2, "r:1.0 t:a") == 1.0);         /* 1 equals 1.0 */
    assert_true(f1_of(1, "n", 1, "n") == 1.0);                       /* NULL equals NULL */
    assert_true(f1_of(1, "b:a", 1, "t:a") == 0.0);                   /* a blob is no text */
    assert_true(f1_of(1, "t:1", 1, "i:1") == 0.0);                   /* text is no number */
    /* repeats dropped: [1,1,2] against [1,2] is exact */
    assert_true(f1_of(1, "i:1|i:1|i:2", 1, "i:1|i:2") == 1.0);
    /* paired by position: [2,1] against [1,2] matches nothing */
    assert_true(f1_of(1, "i:2|i:1", 1, "i:1|i:2") == 0.0);
    /* half a row: tp 1/2, fp 1/2, fn 1/2: precision = recall = 1/2 */
    assert_true(f1_of(2, "i:1 i:9", 2, "i:1 i:2") == 0.5);
    /* an extra prediction row: tp 1, fp 1, fn 0: p 1/2, r 1, F1 2/3 */
    double v = f1_of(1, "i:1|i:5", 1, "i:1");
    assert_true(v > 0.6666666 && v < 0.6666667);
    /* a missing gold row: tp 1, fn 1: F1 2/3 */
    v = f1_of(1, "i:1", 1, "i:1|i:5");
    assert_true(v > 0.6666666 && v < 0.6666667);
    /* widths differ: the gold row's width divides: pred [1,2,3] vs gold [1]:
       tp 1, fp 2, fn 0: p 1/3, r 1, F1 1/2 */
    assert_true(f1_of(3, "i:1 i:2 i:3", 1, "i:1") == 0.5);
}

/* The scripts' outlier rule and reward buckets, on fixed ratios. */
static void ves_rules(void **state) {
    (void)state;
    double same[] = {1, 1, 1};
    assert_true(sq_ves_time_ratio(same, 3) == 0);        /* no deviation: nothing kept */
    assert_true(sq_ves_time_ratio(same, 1) == 0);        /* one run: the same */
    double spread[] = {1, 2, 3};
    assert_true(sq_ves_time_ratio(spread, 3) == 2);      /* all within 3 sd */
    double outlier[21];
    for (int i = 0; i < 20; i++) outlier[i] = 1;
    outlier[20] = 100;                                   /* mean 5.71, sd 21.1: 100 is out */
    assert_true(sq_ves_time_ratio(outlier, 21) == 1);
    assert_true(sq_ves_time_ratio(NULL, 0) == 0);
    assert_true(sq_rves_reward(0) == 0);
    assert_true(sq_rves_reward(2) == 1.25 && sq_rves_reward(7) == 1.25);
    assert_true(sq_rves_reward(1.999) == 1 && sq_rves_reward(1) == 1);
    assert_true(sq_rves_reward(0.999) == 0.75 && sq_rves_reward(0.5) == 0.75);
    assert_true(sq_rves_reward(0.4999) == 0.5 && sq_rves_reward(0.25) == 0.5);
    assert_true(sq_rves_reward(0.2499) == 0.25 && sq_rves_reward(1e-9) == 0.25);
}

/* VES against the official Mini-Dev evaluation_ves.py: its execute_model()
** run on scripted timings (each run's gold time over a prediction time of
** 1, so the ratios are these), with its clean_abnormal() (numpy's mean and
** population deviation, the 3-sigma band) for the time ratio and its
** reward buckets for R-VES; the expected values are that script's output
** (tests/eval/ves/README.md says how they were made).  The ratios come
** from a small linear congruential generator, written the same on both
** sides, with an outlier (x40) now and then. */
static void lcg_ratios(uint32_t seed, int n, double scale, double *out) {
    uint32_t x = seed;
    for (int i = 0; i < n; i++) {
        x = 1664525u * x + 1013904223u;
        double r = scale * (0.2 + 3.8 * x / 4294967296.0);
        if (x % 17 == 0) r *= 40.0;
        out[i] = r;
    }
}

static void ves_matches_the_official_script(void **state) {
    (void)state;
    static const struct {
        uint32_t seed;
        int n;
        double scale, ratio, reward;
    } cases[] = {
        {1, 100, 0.05, 0.16478091884796434, 0.25},
        {2, 100, 0.1, 0.22081496397261316, 0.25},
        {3, 100, 0.2, 0.41399581123623191, 0.5},
        {4, 50, 0.3, 0.59951420884246798, 0.75},
        {5, 10, 0.45, 1.6013697649373206, 1},
        {6, 3, 0.6, 1.6316142975166439, 1},
        {7, 2, 0.9, 2.150388718752656, 1.25},
        {8, 100, 1.0, 2.8780098213574168, 1.25},
        {9, 100, 1.5, 7.8793294251445296, 1.25},
        {10, 1, 1.0, 0, 0},
        {11, 100, 3.0, 9.6690675982673238, 1.25},
        {12, 7, 0.8, 1.1362776223676545, 1},
    };
    double r[100];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        lcg_ratios(cases[i].seed, cases[i].n, cases[i].scale, r);
        double got = sq_ves_time_ratio(r, (size_t)cases[i].n);
        if (fabs(got - cases[i].ratio) > 1e-12 * (1 + cases[i].ratio))
            fail_msg("case %zu: time ratio %.17g, the script's %.17g", i, got, cases[i].ratio);
        assert_true(sq_rves_reward(got) == cases[i].reward);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ves_rules),
        cmocka_unit_test(ves_matches_the_official_script),
        cmocka_unit_test(soft_f1_by_hand),
        cmocka_unit_test(spider_deletes_distinct_tokens),
        cmocka_unit_test(spider_rewrites_operators_and_values),
        cmocka_unit_test(ex_test_follows_the_scripts),
        cmocka_unit_test(no_database_gives_no_db),
        cmocka_unit_test(records_count_as_documented),
        cmocka_unit_test(records_name_their_format_and_inputs),
        cmocka_unit_test(options_differ_by_member),
        cmocka_unit_test(input_digest_sees_every_input),
        cmocka_unit_test(spider_hardness_levels),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
