/* test_llm.c -- backend/llm without a network: a request line read into
** its canonical body and cache key, the checks a line must pass, the
** record's shape, the API key's check and its redaction; and the string
** map that holds a run's request ids. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/llm/llm.h"
#include "runtime/strmap.h"

static SqLlmRequest *parse(const char *line, const char *model, SqBuf *why) {
    return sq_llm_request_parse(line, strlen(line), model, why);
}

/* Key order and spacing do not change the body sent or its key; any
** value does. */
static void request_body_is_canonical(void **state) {
    (void)state;
    SqBuf why = SQ_BUF_INIT;
    SqLlmRequest *a = parse("{\"custom_id\":\"a\",\"body\":{\"seed\":3,\"model\":\"m\",\"messages\":"
                            "[{\"role\":\"user\",\"content\":\"hi\"}],\"temperature\":0.7}}", NULL, &why);
    SqLlmRequest *b = parse("{ \"body\" : { \"temperature\" : 0.7 , \"messages\" : [ { \"content\" : \"hi\" , "
                            "\"role\" : \"user\" } ] , \"model\" : \"m\" , \"seed\" : 3 } , \"custom_id\" : \"b\" }",
                            NULL, &why);
    SqLlmRequest *c = parse("{\"custom_id\":\"c\",\"body\":{\"seed\":4,\"model\":\"m\",\"messages\":"
                            "[{\"role\":\"user\",\"content\":\"hi\"}],\"temperature\":0.7}}", NULL, &why);
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(c);
    assert_string_equal(a->body, "{\"messages\":[{\"content\":\"hi\",\"role\":\"user\"}],\"model\":\"m\","
                                 "\"seed\":3,\"temperature\":0.7}");
    assert_string_equal(a->body, b->body);
    assert_string_equal(a->cache_key, b->cache_key);
    assert_string_not_equal(a->cache_key, c->cache_key);
    assert_string_equal(a->custom_id, "a");
    assert_string_equal(a->model, "m");
    assert_string_equal(a->temperature, "0.7");
    assert_string_equal(a->seed, "3");
    sq_llm_request_free(a);
    sq_llm_request_free(b);
    sq_llm_request_free(c);
    sq_buf_free(&why);
}

static void request_model_is_replaced(void **state) {
    (void)state;
    SqBuf why = SQ_BUF_INIT;
    const char *line = "{\"custom_id\":\"a\",\"body\":{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}}";
    SqLlmRequest *a = parse(line, NULL, &why), *b = parse(line, "other", &why);
    assert_string_equal(b->model, "other");
    assert_non_null(strstr(b->body, "\"model\":\"other\""));
    assert_string_not_equal(a->cache_key, b->cache_key);
    assert_null(a->temperature);
    sq_llm_request_free(a);
    sq_llm_request_free(b);
    sq_buf_free(&why);
}

/* Each malformed line is refused with its own reason. */
static void request_line_checks(void **state) {
    (void)state;
    static const struct {
        const char *line, *why;
    } bad[] = {
        {"[1]", "not a JSON object"},
        {"{\"custom_id\":\"a\"", "not JSON"},
        {"{\"body\":{\"model\":\"m\",\"messages\":[{}]}}", "no custom_id"},
        {"{\"custom_id\":\"\",\"body\":{\"model\":\"m\",\"messages\":[{}]}}", "no custom_id"},
        {"{\"custom_id\":\"a\",\"method\":\"GET\",\"body\":{\"model\":\"m\",\"messages\":[{}]}}", "method is not POST"},
        {"{\"custom_id\":\"a\",\"url\":\"/v1/embeddings\",\"body\":{\"model\":\"m\",\"messages\":[{}]}}",
         "url is not a chat completions URL"},
        {"{\"custom_id\":\"a\"}", "no body object"},
        {"{\"custom_id\":\"a\",\"body\":{\"model\":\"m\",\"messages\":[]}}", "body has no messages"},
        {"{\"custom_id\":\"a\",\"body\":{\"messages\":[{}]}}", "body names no model"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        SqBuf why = SQ_BUF_INIT;
        assert_null(parse(bad[i].line, NULL, &why));
        if (!strstr(sq_buf_str(&why), bad[i].why)) fail_msg("line %zu: '%s'", i, sq_buf_str(&why));
        sq_buf_free(&why);
    }
    assert_true(sq_llm_blank_line(" \t\r", 3));
    assert_false(sq_llm_blank_line(" x", 2));
}

/* A record line starts with the prefix a resumed run looks for, is one
** line, and keeps no secret. */
static void record_shape_and_redaction(void **state) {
    (void)state;
    SqBuf why = SQ_BUF_INIT, out = SQ_BUF_INIT;
    SqLlmRequest *r = parse("{\"custom_id\":\"q/1\",\"body\":{\"model\":\"m\",\"seed\":1,\"messages\":"
                            "[{\"role\":\"user\",\"content\":\"x\"}]}}", NULL, &why);
    const char *reply = "{\"id\":\"c1\",\n \"choices\":[{\"message\":{\"content\":\"KEY-42 said\"}}]}";
    SqLlmOutcome o = {.req = r, .status = SQ_LLM_OK, .http_status = 200, .reply = reply,
                      .reply_len = strlen(reply), .attempts = 2, .prompt_tokens = 5, .completion_tokens = -1};
    sq_llm_record(&out, &o, "KEY-42");
    const char *t = sq_buf_str(&out);
    assert_memory_equal(t, SQ_LLM_RECORD_PREFIX, strlen(SQ_LLM_RECORD_PREFIX));
    assert_non_null(strstr(t, "\"custom_id\":\"q/1\",\"response\":{\"status_code\":200,\"request_id\":\"c1\","));
    assert_non_null(strstr(t, "[redacted] said"));
    assert_null(strstr(t, "KEY-42"));
    assert_non_null(strstr(t, "\"error\":null,\"squint\":{\"format\":1,\"status\":\"ok\",\"model\":\"m\","
                              "\"temperature\":null,\"seed\":1,\"usage\":{\"prompt_tokens\":5,"
                              "\"completion_tokens\":-1}"));
    assert_non_null(strstr(t, "\"attempts\":2,\"cached\":false"));
    assert_ptr_equal(strchr(t, '\n'), t + out.len - 1);
    sq_llm_request_free(r);
    sq_buf_free(&why);
    sq_buf_free(&out);
}

static void key_check_and_redact(void **state) {
    (void)state;
    SqBuf why = SQ_BUF_INIT;
    assert_int_equal(sq_llm_key_check("sk-abc_DEF.123", &why), 0);
    assert_int_equal(sq_llm_key_check("sk abc", &why), -1);
    assert_null(strstr(sq_buf_str(&why), "sk abc"));
    assert_int_equal(sq_llm_key_check("sk\"abc", &why), -1);
    assert_int_equal(sq_llm_key_check("sk\xc3\xa9", &why), -1);
    sq_buf_free(&why);
    SqBuf b = SQ_BUF_INIT;
    sq_buf_puts(&b, "aSECRETbSECRETSECRET");
    sq_llm_redact(&b, "SECRET");
    assert_string_equal(sq_buf_str(&b), "a[redacted]b[redacted][redacted]");
    sq_llm_redact(&b, NULL);
    sq_llm_redact(&b, "");
    assert_string_equal(sq_buf_str(&b), "a[redacted]b[redacted][redacted]");
    sq_buf_free(&b);
}

/* Many keys through several growths, each found with its value; a key is
** copied, so the caller's buffer may change. */
static void strmap_holds_many_keys(void **state) {
    (void)state;
    SqStrMap *m = sq_strmap_new();
    char key[32];
    for (int i = 0; i < 5000; i++) {
        snprintf(key, sizeof key, "id-%d", i);
        int is_new = 0;
        *sq_strmap_put(m, key, &is_new) = i + 1;
        assert_true(is_new);
    }
    assert_int_equal(sq_strmap_count(m), 5000);
    for (int i = 0; i < 5000; i++) {
        snprintf(key, sizeof key, "id-%d", i);
        int *v = sq_strmap_get(m, key);
        assert_non_null(v);
        assert_int_equal(*v, i + 1);
    }
    int is_new = 1;
    *sq_strmap_put(m, "id-7", &is_new) = 99;
    assert_false(is_new);
    assert_int_equal(*sq_strmap_get(m, "id-7"), 99);
    assert_null(sq_strmap_get(m, "ID-7"));
    assert_null(sq_strmap_get(m, "id-5000"));
    assert_int_equal(sq_strmap_count(m), 5000);
    sq_strmap_free(m);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(request_body_is_canonical),
        cmocka_unit_test(request_model_is_replaced),
        cmocka_unit_test(request_line_checks),
        cmocka_unit_test(record_shape_and_redaction),
        cmocka_unit_test(key_check_and_redact),
        cmocka_unit_test(strmap_holds_many_keys),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
