/* test_prompt.c -- backend/prompt: the template language (messages,
** slots, sections, every parse error with its line), the built-in
** templates, the request line's exact bytes, and counterexample JSON read
** back as text tables. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/prompt/prompt.h"
#include "backend/prompt/prompt_data.h"

/* Parse text; 0 or -1, the error (if any) in err. */
static int parse(SqArena *a, const char *text, SqPromptTemplate *t, SqBuf *err) {
    return sq_prompt_template_parse(a, "t.txt", text, strlen(text), t, err);
}

/* Render text with v; the user message (system in *sys) or NULL when a
** required slot is missing (*missing set). */
static char *render(const char *text, const SqPromptValues *v, char **sys, SqPromptSlot *missing) {
    SqArena *a = sq_arena_new();
    SqPromptTemplate t;
    SqBuf err = SQ_BUF_INIT, s = SQ_BUF_INIT, u = SQ_BUF_INIT;
    assert_int_equal(parse(a, text, &t, &err), 0);
    int rc = sq_prompt_render(&t, v, &s, &u, missing);
    *sys = rc == 0 ? sq_strdup(sq_buf_str(&s)) : NULL;
    char *user = rc == 0 ? sq_strdup(sq_buf_str(&u)) : NULL;
    sq_buf_free(&err);
    sq_buf_free(&s);
    sq_buf_free(&u);
    sq_arena_free(a);
    return user;
}

static const char tpl[] =
    "notes, never sent\n"
    "@system\n"
    "Be exact.\n"
    "@user\n"
    "\n"
    "Schema:\n{{schema}}\n"
    "\n"
    "{{#evidence}}\n"
    "Hint: {{evidence}}\n"
    "\n"
    "{{/evidence}}\n"
    "Q: {{question}} {{ not a tag }} {{x\n"
    "\n";

static void test_sections(void **state) {
    (void)state;
    SqPromptValues v = {{NULL}};
    v.v[SQ_SLOT_SCHEMA] = "\n  CREATE TABLE t (a);\n\n";
    v.v[SQ_SLOT_QUESTION] = "How many?";
    char *sys, *user;
    SqPromptSlot missing;
    user = render(tpl, &v, &sys, &missing);
    assert_string_equal(sys, "Be exact.");
    assert_string_equal(user, "Schema:\nCREATE TABLE t (a);\n\nQ: How many? {{ not a tag }} {{x");
    free(sys);
    free(user);
    v.v[SQ_SLOT_EVIDENCE] = "a hint";
    user = render(tpl, &v, &sys, &missing);
    assert_string_equal(user, "Schema:\nCREATE TABLE t (a);\n\nHint: a hint\n\nQ: How many? {{ not a tag }} {{x");
    free(sys);
    free(user);
    v.v[SQ_SLOT_EVIDENCE] = " \n\t"; /* blank: unknown, the section goes */
    user = render(tpl, &v, &sys, &missing);
    assert_string_equal(user, "Schema:\nCREATE TABLE t (a);\n\nQ: How many? {{ not a tag }} {{x");
    free(sys);
    free(user);
}

static void test_required(void **state) {
    (void)state;
    SqArena *a = sq_arena_new();
    SqPromptTemplate t;
    SqBuf err = SQ_BUF_INIT;
    assert_int_equal(parse(a, tpl, &t, &err), 0);
    assert_int_equal(t.required, (1u << SQ_SLOT_SCHEMA) | (1u << SQ_SLOT_QUESTION));
    assert_int_equal(t.optional, 1u << SQ_SLOT_EVIDENCE);
    sq_arena_free(a);
    sq_buf_free(&err);
    SqPromptValues v = {{NULL}};
    v.v[SQ_SLOT_QUESTION] = "q";
    v.v[SQ_SLOT_SCHEMA] = "   "; /* blank is not known */
    char *sys;
    SqPromptSlot missing = SQ_SLOT__COUNT;
    assert_null(render(tpl, &v, &sys, &missing));
    assert_int_equal(missing, SQ_SLOT_SCHEMA);
    /* a template without a system message */
    v.v[SQ_SLOT_SCHEMA] = "s";
    char *user = render("@user\n{{question}}\n", &v, &sys, &missing);
    assert_string_equal(sys, "");
    assert_string_equal(user, "q");
    free(sys);
    free(user);
}

/* Each mistake fails the parse with its line and what is wrong. */
static void test_errors(void **state) {
    (void)state;
    static const struct {
        const char *text, *want;
    } cases[] = {
        {"@user\nok\n{{questoin}}\n", "t.txt:3: no slot named 'questoin'"},
        {"@user\n{{#evidence}}\n{{#db_id}}x{{/db_id}}\n{{/evidence}}\n", "t.txt:3: a section inside a section"},
        {"@user\n{{/sql}}\n", "t.txt:2: this tag closes no open section: 'sql'"},
        {"@user\n{{#sql}}\n{{/evidence}}\n", "t.txt:3: this tag closes no open section: 'evidence'"},
        {"@user\nx\n\n{{#sql}}\nx\n", "t.txt:4: a section is never closed: 'sql'"},
        {"@user\na\n@user\nb\n", "t.txt:3: a second @user message"},
        {"@system\na\n", "t.txt:3: no @user message"},
        {"", "t.txt:1: no @user message"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        SqArena *a = sq_arena_new();
        SqPromptTemplate t;
        SqBuf err = SQ_BUF_INIT;
        assert_int_equal(parse(a, cases[i].text, &t, &err), -1);
        if (strncmp(sq_buf_str(&err), cases[i].want, strlen(cases[i].want)) != 0)
            fail_msg("case %zu: '%s', want '%s...'", i, sq_buf_str(&err), cases[i].want);
        sq_buf_free(&err);
        sq_arena_free(a);
    }
}

/* Every task has a built-in template that parses. */
static void test_builtins(void **state) {
    (void)state;
    size_t n;
    const SqPromptTask *tasks = sq_prompt_tasks(&n);
    assert_true(n >= 4);
    for (size_t i = 0; i < n; i++) {
        const SqPromptText *b = sq_prompt_builtin(tasks[i].name);
        assert_non_null(b);
        SqArena *a = sq_arena_new();
        SqPromptTemplate t;
        SqBuf err = SQ_BUF_INIT;
        if (sq_prompt_template_parse(a, b->path, b->text, strlen(b->text), &t, &err) != 0)
            fail_msg("%s: %s", b->path, sq_buf_str(&err));
        /* the SynSQL tasks build data from the question alone: the gold
        ** query must never reach them; the tqa tasks rewrite words of a
        ** text, and are not shown the query whose table names they hide;
        ** every other task is about a query */
        uint32_t sql = (1u << SQ_SLOT_SQL) | (1u << SQ_SLOT_SQL2);
        uint32_t tqa = (1u << SQ_SLOT_TEXT) | (1u << SQ_SLOT_TOKENS) | (1u << SQ_SLOT_LINKER_TABLE);
        if (strncmp(tasks[i].name, "synsql-", 7) == 0) assert_false((t.required | t.optional) & sql);
        else if (strncmp(tasks[i].name, "tqa-", 4) == 0)
            assert_true(!((t.required | t.optional) & sql) && (t.required & tqa) == tqa);
        else assert_true(t.required & (1u << SQ_SLOT_SQL));
        assert_true(sq_prompt_reply_known(tasks[i].name));
        assert_true(t.system.n_parts > 0);
        sq_buf_free(&err);
        sq_arena_free(a);
    }
    assert_null(sq_prompt_task_find("nope"));
    assert_int_equal(sq_prompt_slot_find("sample_rows", 11), SQ_SLOT_SAMPLE_ROWS);
    assert_int_equal(sq_prompt_slot_find("sample", 6), -1);
}

static void test_request(void **state) {
    (void)state;
    SqBuf b = SQ_BUF_INIT;
    SqPromptParams p = {"m", 0.7, 42, 100};
    sq_prompt_request_json(&b, "t/item-0", &p, "sys \"q\"", "line1\nline2");
    assert_string_equal(sq_buf_str(&b),
                        "{\"custom_id\":\"t/item-0\",\"method\":\"POST\",\"url\":\"/v1/chat/completions\","
                        "\"body\":{\"model\":\"m\",\"messages\":[{\"role\":\"system\",\"content\":\"sys \\\"q\\\"\"},"
                        "{\"role\":\"user\",\"content\":\"line1\\nline2\"}],\"temperature\":0.7,\"seed\":42,"
                        "\"max_tokens\":100}}\n");
    SqArena *a = sq_arena_new();
    assert_true(sq_prompt_is_request(a, b.data, b.len - 1));
    assert_false(sq_prompt_is_request(a, "{\"custom_id\":\"x\"}", 17));
    assert_false(sq_prompt_is_request(a, "my notes", 8));
    sq_arena_free(a);
    sq_buf_reset(&b);
    p.temperature = 0;
    sq_prompt_request_json(&b, "x", &p, "", "u");
    assert_non_null(strstr(sq_buf_str(&b), "\"messages\":[{\"role\":\"user\",\"content\":\"u\"}],\"temperature\":0.0,"));
    sq_buf_free(&b);
}

/* Counterexample JSON as squint eval writes it, read back as text tables
** with each value's storage class kept. */
static void test_json_tables(void **state) {
    (void)state;
    static const char doc[] =
        "{\"tables\":[{\"name\":\"t\",\"columns\":[\"a\",\"b\"],\"rows\":[[1,\"1\"],[1.0,null],[2,{\"blob\":\"00ff\"}]]},"
        "{\"name\":\"u\",\"columns\":[\"c\"],\"rows\":[]}]}";
    SqArena *a = sq_arena_new();
    const SqJson *j = sq_json_parse(a, doc, strlen(doc), NULL);
    SqBuf b = SQ_BUF_INIT;
    assert_int_equal(sq_prompt_tables_text(j, &b), 0);
    assert_string_equal(sq_buf_str(&b), "t\n+-----+---------+\n| a   | b       |\n+-----+---------+\n"
                                        "| 1   | '1'     |\n| 1.0 | NULL    |\n| 2   | X'00FF' |\n+-----+---------+\n"
                                        "\nu\n+---+\n| c |\n+---+\n(no rows)\n");
    sq_buf_reset(&b);
    assert_int_equal(sq_prompt_result_text(j->items[0]->items[0], &b), 0);
    static const char no_rows[] = "{\"tables\":[{\"name\":\"t\"}]}";
    static const char long_row[] = "{\"columns\":[\"a\"],\"rows\":[[1,2]]}";
    assert_int_equal(sq_prompt_tables_text(sq_json_parse(a, no_rows, strlen(no_rows), NULL), &b), -1);
    sq_buf_reset(&b);
    assert_int_equal(sq_prompt_result_text(sq_json_parse(a, long_row, strlen(long_row), NULL), &b), -1);
    assert_int_equal(b.len, 0);
    sq_buf_free(&b);
    sq_arena_free(a);
}

/* Read reply text for task: the fields' JSON, or "!" and the reason. */
static char *reply(const char *task, const char *text) {
    SqBuf out = SQ_BUF_INIT, why = SQ_BUF_INIT;
    SqJsonWriter w;
    sq_jw_init(&w, &out, 0);
    sq_jw_obj_begin(&w);
    int rc = sq_prompt_reply_parse(task, text, strlen(text), &w, &why);
    sq_jw_obj_end(&w);
    char *r = rc == 0 ? sq_strdup(out.data) : sq_strdup(why.data);
    if (rc != 0) {
        char *bang = malloc(strlen(r) + 2);
        sprintf(bang, "!%s", r);
        free(r);
        r = bang;
    }
    sq_buf_free(&out);
    sq_buf_free(&why);
    return r;
}

/* Replies read into fields: elements, JSON in a fence, counts, allowed
** values, scores; each rejection's reason. */
static void test_replies(void **state) {
    (void)state;
    static const struct {
        const char *task, *text, *want;
    } cases[] = {
        {"paraphrase", "<paraphrase>a</paraphrase> <paraphrase> b </paraphrase><paraphrase>c</paraphrase>",
         "{\"paraphrases\":[\"a\",\"b\",\"c\"]}"},
        {"paraphrase", "<paraphrase>a</paraphrase>", "!1 <paraphrase> element, the task asks for 3"},
        {"paraphrase", "```json\n[\"a\", \"b\", \"c\"]\n```", "{\"paraphrases\":[\"a\",\"b\",\"c\"]}"},
        {"question-check", "{\"verdict\": \"NO\", \"reason\": \"r\"}", "{\"verdict\":\"no\",\"reason\":\"r\"}"},
        {"question-check", "<verdict>yes</verdict><verdict>no</verdict><reason>r</reason>", "!more than 1 <verdict> element"},
        {"explain-difference", "<explanation>e</explanation><reading>Both</reading>",
         "{\"explanation\":\"e\",\"reading\":\"both\"}"},
        {"synsql-expansion", "nothing to add", "{\"columns\":[]}"},
        {"synsql-selector", "nothing", "!0 <column> elements, the task asks for 1 to 64"},
        {"synsql-synthesizer", "<sql>INSERT INTO t VALUES (1);</sql>", "{\"sql\":\"INSERT INTO t VALUES (1);\"}"},
        {"synsql-critic",
         "<alignment>9</alignment><integrity>10</integrity><coverage>8</coverage><complexity>7</complexity>"
         "<variety>6</variety><relevance>11</relevance><feedback>f</feedback>",
         "!<relevance> is '11', not one of 1, 2, 3, 4, 5, 6, 7, 8, 9, 10"},
        {"synsql-critic", "<alignment>9</alignment>", "!0 <integrity> elements, the task asks for 1"},
        {"expand-question", "<analysis>a</analysis><question>Which bonds?</question><evidence></evidence>",
         "{\"analysis\":\"a\",\"question\":\"Which bonds?\"}"},
        {"expand-question", "<question>q</question><evidence>e</evidence>", "{\"question\":\"q\",\"evidence\":\"e\"}"},
        {"sql-to-question", "<analysis></analysis><question>a</question><question>b</question><question>c</question>",
         "{\"questions\":[\"a\",\"b\",\"c\"]}"},
        {"expand-question", "<question>q1</question><question>q2</question>", "!more than 1 <question> element"},
        {"nope", "x", "!no reply format for the task 'nope'"},
        {"tqa-synonym", "```json\n[{\"token\": \" role \", \"position\": 4}, {\"position\": 20, \"token\": \"parts\"}]\n```",
         "{\"substitutions\":[{\"position\":4,\"token\":\"role\"},{\"position\":20,\"token\":\"parts\"}]}"},
        {"tqa-synonym", "[{\"token\": \"a\", \"position\": 4}, {\"token\": \"b\", \"position\": 4}]",
         "!two substitutions at position 4"},
        {"tqa-synonym", "[{\"token\": \"a\", \"position\": 4.5}]",
         "!substitution 1's position is not a whole number of at least 0"},
        {"tqa-synonym", "[{\"token\": \"a\", \"position\": -1}]",
         "!substitution 1's position is not a whole number of at least 0"},
        {"tqa-synonym", "[{\"token\": \"a\", \"position\": 1}, {\"word\": \"b\", \"position\": 2}]",
         "!substitution 2 is not an object with a string \"token\" and a number \"position\""},
        {"tqa-synonym", "[{\"token\": \"  \", \"position\": 1}]", "!substitution 1's token is empty"},
        {"tqa-synonym", "{\"token\": \"a\", \"position\": 1}",
         "!the reply is not a JSON array of {\"token\", \"position\"} objects"},
        {"tqa-backtranslate", "<translation>fr</translation><text>en</text>", "{\"translation\":\"fr\",\"text\":\"en\"}"},
        {"tqa-context", "<masked>a [MASK]</masked>", "!0 <text> elements, the task asks for 1"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *got = reply(cases[i].task, cases[i].text);
        if (strcmp(got, cases[i].want) != 0) fail_msg("case %zu: '%s', want '%s'", i, got, cases[i].want);
        free(got);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sections),   cmocka_unit_test(test_required),    cmocka_unit_test(test_errors),
        cmocka_unit_test(test_builtins),
        cmocka_unit_test(test_replies),   cmocka_unit_test(test_request),     cmocka_unit_test(test_json_tables),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
