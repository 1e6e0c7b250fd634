/* test_spider_em.c -- Spider's exact set match (backend/eval/spider_em.h)
** against the official evaluation.py --etype match.  The expected values
** below are what the official script (test-suite-sql-eval, tokenizing
** with nltk's TreebankWordTokenizer as tests/eval/spider-em/README.md
** says) printed for these inputs on the same schema: its tokens, and per
** pair the exact match, the gold's hardness, whether the prediction
** parsed, and each component's f1/pred_total/label_total.  The corpus
** check is tests/conformance/eval_spider.sh (11,374 items). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/eval/spider_em.h"
#include "backend/eval/spider_em_int.h"
#include "runtime/strbuf.h"

static const char mini_sql[] =
    "CREATE TABLE singer (singer_id INTEGER PRIMARY KEY, name TEXT, country TEXT, age INTEGER);"
    "CREATE TABLE concert (concert_id INTEGER PRIMARY KEY, concert_name TEXT, stadium_id INTEGER, year TEXT);"
    "CREATE TABLE singer_in_concert (concert_id INTEGER, singer_id INTEGER);";

static const char mini_tables[] =
    "[{\"db_id\": \"mini\", \"table_names_original\": [\"singer\", \"concert\", \"singer_in_concert\"],"
    " \"column_names_original\": [[-1, \"*\"], [0, \"singer_id\"], [0, \"name\"], [0, \"country\"], [0, \"age\"],"
    " [1, \"concert_id\"], [1, \"concert_name\"], [1, \"stadium_id\"], [1, \"year\"], [2, \"concert_id\"],"
    " [2, \"singer_id\"]], \"foreign_keys\": [[9, 5], [10, 1]]}]";

typedef struct Pair {
    const char *gold, *pred, *want;
} Pair;

static const Pair pairs[] = {
        {"SELECT count(*) FROM singer",
         "select count(*) from singer",
         "1 easy 1 1/1/1 1/1/1 1/0/0 1/0/0 1/0/0 1/0/0 1/0/0 1/1/1 1/0/0 1/0/0"},
        {"SELECT name FROM singer WHERE age > 20",
         "select name from singer where age > 30",
         "1 easy 1 1/1/1 1/1/1 1/1/1 1/1/1 1/0/0 1/0/0 1/0/0 1/1/1 1/0/0 1/1/1"},
        {"SELECT name FROM singer WHERE age = 20",
         "select name from singer where age=20",
         "0 easy 0 0/0/1 0/0/1 0/0/1 0/0/1 1/0/0 1/0/0 1/0/0 1/1/1 1/0/0 0/0/1"},
        {"SELECT name FROM singer ORDER BY age DESC LIMIT 1",
         "select name from singer order by age desc limit 3",
         "1 medium 1 1/1/1 1/1/1 1/0/0 1/0/0 1/0/0 1/0/0 1/1/1 1/1/1 1/0/0 1/3/3"},
        {"SELECT count(*) FROM singer",
         "select count(*) as c from singer",
         "0 easy 0 0/0/1 0/0/1 1/0/0 1/0/0 1/0/0 1/0/0 1/0/0 1/1/1 1/0/0 1/0/0"},
        {"SELECT T1.singer_id FROM singer AS T1 JOIN singer_in_concert AS T2 ON T1.singer_id = T2.singer_id",
         "select T2.singer_id from singer as T1 join singer_in_concert as T2 on T1.singer_id = T2.singer_id",
         "1 easy 1 1/1/1 1/1/1 1/0/0 1/0/0 1/0/0 1/0/0 1/0/0 1/1/1 1/0/0 1/0/0"},
        {"SELECT DISTINCT country FROM singer",
         "select country from singer",
         "1 easy 1 1/1/1 1/1/1 1/0/0 1/0/0 1/0/0 1/0/0 1/0/0 1/1/1 1/0/0 1/0/0"},
        {"SELECT name FROM singer WHERE age > 20",
         "select name from singer where age > value",
         "1 easy 1 1/1/1 1/1/1 1/1/1 1/1/1 1/0/0 1/0/0 1/0/0 1/1/1 1/0/0 1/1/1"},
        {"SELECT T1.name FROM singer AS T1 JOIN singer_in_concert AS T2 ON T1.singer_id = T2.singer_id",
         "select T1.name from singer as T1 left join singer_in_concert as T2 on T1.singer_id = T2.singer_id",
         "0 easy 0 0/0/1 0/0/1 1/0/0 1/0/0 1/0/0 1/0/0 1/0/0 1/1/1 1/0/0 1/0/0"},
        {"SELECT name FROM singer WHERE age > 1 AND country = 'x'",
         "select name from singer where age > 1 or country = 'x'",
         "0 medium 1 1/1/1 1/1/1 1/2/2 1/2/2 1/0/0 1/0/0 1/0/0 0/1/1 1/0/0 0/2/1"},
        {"SELECT name FROM singer WHERE singer_id NOT IN (SELECT singer_id FROM singer_in_concert)",
         "select name from singer where singer_id not in (select singer_id from singer_in_concert)",
         "1 hard 1 1/1/1 1/1/1 1/1/1 1/1/1 1/0/0 1/0/0 1/0/0 1/1/1 1/0/0 1/3/3"},
        {"SELECT name FROM singer WHERE age > 30 INTERSECT SELECT name FROM singer WHERE country = 'x'",
         "select name from singer where age > 30 union select name from singer where country = 'x'",
         "0 hard 1 1/1/1 1/1/1 1/1/1 1/1/1 1/0/0 1/0/0 1/0/0 1/1/1 0/1/1 0/2/2"},
        {"SELECT name FROM singer WHERE name = 'x'",
         "select name from singer where name = 'O'Brien'",
         "0 easy 0 0/0/1 0/0/1 0/0/1 0/0/1 1/0/0 1/0/0 1/0/0 1/1/1 1/0/0 0/0/1"},
        {"SELECT country , count(*) FROM singer GROUP BY country HAVING count(*) > 1",
         "select country, count(*) from singer group by country having count(*) > 2",
         "1 medium 1 1/2/2 1/2/2 1/0/0 1/0/0 1/1/1 1/1/1 1/0/0 1/1/1 1/0/0 1/2/2"},
        {"SELECT name FROM singer WHERE age != 3",
         "select name from singer where age <> 3",
         "0 easy 0 0/0/1 0/0/1 0/0/1 0/0/1 1/0/0 1/0/0 1/0/0 1/1/1 1/0/0 0/0/1"},
        {"SELECT name FROM singer WHERE age > 1 AND country = 'x'",
         "select name from singer where age > 1 country = 'x'",
         "0 medium 1 1/1/1 1/1/1 0/1/2 0/1/2 1/0/0 1/0/0 1/0/0 0/1/1 1/0/0 1/1/1"},
        {"SELECT name FROM singer WHERE age >= 3",
         "select name from singer where age > = 3",
         "1 easy 1 1/1/1 1/1/1 1/1/1 1/1/1 1/0/0 1/0/0 1/0/0 1/1/1 1/0/0 1/1/1"},
        {"SELECT name , age FROM singer",
         "select age, name from singer",
         "1 medium 1 1/2/2 1/2/2 1/0/0 1/0/0 1/0/0 1/0/0 1/0/0 1/1/1 1/0/0 1/0/0"},
        {"SELECT max(age) , min(age) FROM singer",
         "select min(age), max(age), avg(age) from singer",
         "0 medium 1 0/3/2 0/3/2 1/0/0 1/0/0 1/0/0 1/0/0 1/0/0 1/1/1 1/0/0 1/0/0"},
        {"SELECT name FROM singer ORDER BY age",
         "select name from singer order by age asc",
         "1 easy 1 1/1/1 1/1/1 1/0/0 1/0/0 1/0/0 1/0/0 1/1/1 1/1/1 1/0/0 1/2/2"},
        {"SELECT count(DISTINCT country) FROM singer",
         "select count(country) from singer",
         "1 easy 1 1/1/1 1/1/1 1/0/0 1/0/0 1/0/0 1/0/0 1/0/0 1/1/1 1/0/0 1/0/0"},
        {"SELECT T2.concert_name FROM singer_in_concert AS T1 JOIN concert AS T2 ON T1.concert_id = T2.concert_id GROUP BY T1.concert_id",
         "select T2.concert_name from singer_in_concert as T1 join concert as T2 on T1.concert_id = T2.concert_id group by T2.concert_id",
         "1 medium 1 1/1/1 1/1/1 1/0/0 1/0/0 1/1/1 1/1/1 1/0/0 1/1/1 1/0/0 1/1/1"},
        {"SELECT name FROM singer WHERE age BETWEEN 1 AND 5 OR name LIKE '%a%'",
         "select name from singer where age between 2 and 9 or name like '%b%'",
         "1 hard 1 1/1/1 1/1/1 1/2/2 1/2/2 1/0/0 1/0/0 1/0/0 1/1/1 1/0/0 1/3/3"},
        {"SELECT avg(age) FROM singer WHERE country = 'x' AND age > 3",
         "select avg(age) from singer where age > 3 and country = 'x'",
         "1 medium 1 1/1/1 1/1/1 1/2/2 1/2/2 1/0/0 1/0/0 1/0/0 1/1/1 1/0/0 1/1/1"},
        {"SELECT name FROM (SELECT name FROM singer WHERE age > 3)",
         "select name from (select name from singer where age > 4)",
         "NOGOLD"},
        {"SELECT name FROM singer",
         "select name from singer cannot",
         "0 easy 0 0/0/1 0/0/1 1/0/0 1/0/0 1/0/0 1/0/0 1/0/0 1/1/1 1/0/0 1/0/0"},
        {"SELECT name FROM singer WHERE age > 3.",
         "select name from singer where age > 3.",
         "NOGOLD"},
        {"SELECT name FROM singer AS singer",
         "select name from singer",
         "NOGOLD"},
};

/* One pair's outcome in the shape of the expectations above. */
static void describe(const SqEmResult *r, SqBuf *out) {
    sq_buf_reset(out);
    if (r->status == SQ_EM_NO_GOLD) {
        sq_buf_puts(out, "NOGOLD");
        return;
    }
    if (r->status != SQ_EM_OK) {
        sq_buf_puts(out, "FAILS");
        return;
    }
    sq_buf_printf(out, "%d %s %d", r->exact, r->hardness, r->pred_parsed);
    for (int p = 0; p < SQ_EM_NPARTS; p++) {
        const SqEmPartScore *s = &r->part[p];
        assert_int_equal(s->acc, s->f1);
        assert_int_equal(s->rec, s->f1);
        sq_buf_printf(out, " %d/%d/%d", s->f1, s->pred_total, s->label_total);
    }
}

static void pairs_score_as_the_script_does(void **state) {
    (void)state;
    char *err = NULL, why[200];
    SqDb *db = sq_db_open_memory(mini_sql, &err);
    assert_non_null(db);
    SqEmSchema *s = sq_em_schema_read(db, why, sizeof why);
    assert_non_null(s);
    SqEmKeys *k = sq_em_keys_parse(mini_tables, sizeof mini_tables - 1, "mini", why, sizeof why);
    assert_non_null(k);
    SqBuf got = SQ_BUF_INIT;
    for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++) {
        SqEmResult r;
        sq_em_score(s, k, "mini", pairs[i].gold, pairs[i].pred, &r);
        describe(&r, &got);
        if (strcmp(sq_buf_str(&got), pairs[i].want) != 0)
            fail_msg("pair %zu (%s | %s): got '%s', want '%s'", i, pairs[i].gold, pairs[i].pred, sq_buf_str(&got),
                     pairs[i].want);
    }
    /* an unknown db_id: the script's kmaps[db] raises */
    SqEmResult r;
    sq_em_score(s, k, "other", pairs[0].gold, pairs[0].pred, &r);
    assert_int_equal(r.status, SQ_EM_SCRIPT_FAILS);
    sq_buf_free(&got);
    sq_em_keys_free(k);
    sq_em_schema_free(s);
    sq_db_close(db);
}

typedef struct TokCase {
    const char *text, *want;
} TokCase;

static const TokCase tok_cases[] = {
    /* a first "=" joins with the last token, Python's index -1: the list
    ** becomes toks[:-1] + [joined] + toks[1:] */
    {"= a b <",
     "= | a | b | <= | a | b | <"},
    {"= select a from t where b !",
     "= | select | a | from | t | where | b | != | select | a | from | t | where | b | !"},
        {"SELECT a,b FROM t WHERE x IN (1,2)",
         "select | a | , | b | from | t | where | x | in | ( | 1,2 | )"},
        {"select T1.name from t as T1 where a != 'It''s' and b=\"x y\"",
         "select | t1.name | from | t | as | t1 | where | a | != | __val_39_42____val_43_45__ | and | b=__val_53_57__"},
        {"select * from t where a >= 1 and b <= 2 and c<>3 and d!=4",
         "select | * | from | t | where | a | >= | 1 | and | b | <= | 2 | and | c | < | > | 3 | and | d | ! | =4"},
        {"select a from t -- note --- x",
         "select | a | from | t | -- | note | -- | - | x"},
        {"select a from t; select b from u;",
         "select | a | from | t | ; | select | b | from | u | ;"},
        {"select a, b: c,, d from t where x = ... cannot Gonna wanna gotta.",
         "select | a | , | b | : | c | , | , | d | from | t | where | x | = | ... | can | not | gon | na | wan | na | got | ta | ."},
        {"select count(*) from t where a = 1.5e3 and b = -2 and c = 'A' LIMIT 1.",
         "select | count | ( | * | ) | from | t | where | a | = | 1.5e3 | and | b | = | -2 | and | c | = | \"A\" | limit | 1 | ."},
        {"select `a` ``b`` from t@x#y$z%w&v?u!",
         "select | `a` | `` | b | `` | from | t | @ | x | # | y | $ | z | % | w | & | v | ? | u | !"},
        {"select [x] {y} <z> from t where \"double\" = 'single'",
         "select | [ | x | ] | { | y | } | < | z | > | from | t | where | \"double\" | = | \"single\""},
};

static void tokens_are_the_scripts(void **state) {
    (void)state;
    SqBuf got = SQ_BUF_INIT;
    for (size_t i = 0; i < sizeof tok_cases / sizeof *tok_cases; i++) {
        SqArena *a = sq_arena_new();
        int n = 0;
        char **t = sq_em_tokens(a, tok_cases[i].text, &n);
        assert_non_null(t);
        sq_buf_reset(&got);
        for (int j = 0; j < n; j++) sq_buf_printf(&got, "%s%s", j ? " | " : "", t[j]);
        if (strcmp(sq_buf_str(&got), tok_cases[i].want) != 0)
            fail_msg("tokens of '%s': got '%s', want '%s'", tok_cases[i].text, sq_buf_str(&got), tok_cases[i].want);
        sq_arena_free(a);
    }
    /* an odd number of quotes: the script's assert */
    SqArena *a = sq_arena_new();
    int n;
    assert_null(sq_em_tokens(a, "select a from t where b = 'x", &n));
    sq_arena_free(a);
    sq_buf_free(&got);
}

/* The table's arithmetic: accuracy over items with a prediction side,
** recall over items with a gold side, and F1 1 when both are 0. */
static void tally_follows_the_printed_table(void **state) {
    (void)state;
    SqEmTally t = {0};
    SqEmPartScore hit[SQ_EM_NPARTS], miss[SQ_EM_NPARTS], none[SQ_EM_NPARTS];
    for (int p = 0; p < SQ_EM_NPARTS; p++) {
        hit[p] = (SqEmPartScore){1, 1, 1, 1, 1};
        miss[p] = (SqEmPartScore){0, 0, 0, 2, 1};
        none[p] = (SqEmPartScore){1, 1, 1, 0, 0};
    }
    miss[SQ_EM_IUEN] = (SqEmPartScore){0, 0, 0, 0, 1};
    sq_em_tally_add(&t, 1, hit);
    sq_em_tally_add(&t, 0, miss);
    sq_em_tally_add(&t, 1, none);
    assert_true(sq_em_tally_exact(&t) > 0.666 && sq_em_tally_exact(&t) < 0.667);
    double acc, rec, f1;
    sq_em_tally_part(&t, SQ_EM_SELECT, &acc, &rec, &f1);
    assert_true(acc == 0.5 && rec == 0.5 && f1 == 0.5);
    sq_em_tally_part(&t, SQ_EM_IUEN, &acc, &rec, &f1); /* acc over 1 item, rec over 2 */
    assert_true(acc == 1 && rec == 0.5);
    assert_true(f1 > 0.666 && f1 < 0.667);
    SqEmTally empty = {0};
    sq_em_tally_part(&empty, SQ_EM_WHERE, &acc, &rec, &f1);
    assert_true(acc == 0 && rec == 0 && f1 == 1);
}

/* tables.json that is not Spider's is refused with a reason. */
static void bad_tables_are_refused(void **state) {
    (void)state;
    char why[200];
    assert_null(sq_em_keys_parse("{}", 2, "t.json", why, sizeof why));
    assert_non_null(strstr(why, "t.json"));
    static const char no_fk[] = "[{\"db_id\": \"x\", \"table_names_original\": [], \"column_names_original\": []}]";
    assert_null(sq_em_keys_parse(no_fk, sizeof no_fk - 1, "t.json", why, sizeof why));
    assert_non_null(strstr(why, "entry 1"));
    SqEmKeys *k = sq_em_keys_parse(mini_tables, sizeof mini_tables - 1, "mini", why, sizeof why);
    assert_true(sq_em_keys_has(k, "mini"));
    assert_false(sq_em_keys_has(k, "mini2"));
    sq_em_keys_free(k);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pairs_score_as_the_script_does),
        cmocka_unit_test(tokens_are_the_scripts),
        cmocka_unit_test(tally_follows_the_printed_table),
        cmocka_unit_test(bad_tables_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
