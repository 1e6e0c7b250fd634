/* test_json.c -- the JSON reader: values, offsets, string decoding, the position map, errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/arena.h"
#include "runtime/json.h"
#include "runtime/src.h"
#include "runtime/util.h"

/* Each test gets a fresh arena in *state. */
static int arena_setup(void **state) {
    *state = sq_arena_new();
    return 0;
}

static int arena_teardown(void **state) {
    sq_arena_free(*state);
    return 0;
}

#define JSON_TEST(fn) cmocka_unit_test_setup_teardown(fn, arena_setup, arena_teardown)

/* Parse text (NUL-terminated) and fail the test with the parser's message
** when it does not parse. */
static SqJson *parse_ok(SqArena *a, const char *text) {
    SqJsonError err;
    SqJson *v = sq_json_parse(a, text, strlen(text), &err);
    if (!v) fail_msg("%s: error at %u: %s", text, err.offset, err.msg);
    return v;
}

static void check_span(const SqJson *v, uint8_t kind, uint32_t start, uint32_t end) {
    assert_non_null(v);
    assert_int_equal(v->kind, kind);
    if (v->start != start || v->end != end)
        fail_msg("span %u..%u, want %u..%u", v->start, v->end, start, end);
}

/* ------------------------------------------------------------------ */
/* Values                                                              */
/* ------------------------------------------------------------------ */

static void every_kind_parses(void **state) {
    SqJson *v = parse_ok(*state, "[null, false, true, 12, \"s\", [], {}]");
    assert_int_equal(v->kind, SQ_JSON_ARRAY);
    assert_int_equal(v->n, 7);
    const uint8_t kinds[] = {SQ_JSON_NULL,   SQ_JSON_FALSE, SQ_JSON_TRUE, SQ_JSON_NUMBER,
                             SQ_JSON_STRING, SQ_JSON_ARRAY, SQ_JSON_OBJECT};
    for (uint32_t i = 0; i < 7; i++) assert_int_equal(v->items[i]->kind, kinds[i]);
    assert_int_equal(v->items[3]->inum, 12);
    assert_string_equal(v->items[4]->str, "s");
    assert_int_equal(v->items[5]->n, 0);
    assert_int_equal(v->items[6]->n, 0);
    assert_null(v->items[6]->keys);
}

static void scalar_documents_parse(void **state) {
    assert_int_equal(parse_ok(*state, "null")->kind, SQ_JSON_NULL);
    assert_int_equal(parse_ok(*state, " true ")->kind, SQ_JSON_TRUE);
    assert_string_equal(parse_ok(*state, "\"x\"")->str, "x");
    assert_int_equal(parse_ok(*state, "\n\t\r -7\n")->inum, -7);
}

/* {"a": [1, "x\ny"], "b" : true}, offsets counted by hand. */
static void offsets_of_values_are_exact(void **state) {
    const char *doc = "{\"a\": [1, \"x\\ny\"], \"b\" : true}";
    SqJson *v = parse_ok(*state, doc);
    check_span(v, SQ_JSON_OBJECT, 0, 30);
    assert_int_equal(v->n, 2);
    assert_string_equal(v->keys[0], "a");
    assert_string_equal(v->keys[1], "b");
    const SqJson *a = v->items[0];
    check_span(a, SQ_JSON_ARRAY, 6, 17);
    check_span(a->items[0], SQ_JSON_NUMBER, 7, 8);
    check_span(a->items[1], SQ_JSON_STRING, 10, 16);
    assert_int_equal(a->items[1]->len, 3);
    assert_memory_equal(a->items[1]->str, "x\ny", 4);
    check_span(v->items[1], SQ_JSON_TRUE, 25, 29);
}

static void nested_values_and_lookup(void **state) {
    SqJson *v = parse_ok(*state, "{\"db\": {\"tables\": [[\"t\", 1], {\"k\": null}]},"
                                 " \"n\": false}");
    const SqJson *db = sq_json_get(v, "db");
    const SqJson *tables = sq_json_get(db, "tables");
    assert_non_null(tables);
    assert_int_equal(tables->n, 2);
    assert_string_equal(sq_json_string(tables->items[0]->items[0]), "t");
    assert_int_equal(tables->items[0]->items[1]->inum, 1);
    assert_int_equal(sq_json_get(tables->items[1], "k")->kind, SQ_JSON_NULL);
    assert_int_equal(sq_json_get(v, "n")->kind, SQ_JSON_FALSE);
    assert_null(sq_json_get(v, "missing"));
    assert_null(sq_json_get(tables, "k")); /* not an object */
    assert_null(sq_json_get(NULL, "k"));
}

static void duplicate_keys_are_kept_and_get_returns_first(void **state) {
    SqJson *v = parse_ok(*state, "{\"k\": 1, \"j\": 2, \"k\": 3}");
    assert_int_equal(v->n, 3);
    assert_int_equal(sq_json_get(v, "k")->inum, 1);
    assert_string_equal(v->keys[2], "k");
    assert_int_equal(v->items[2]->inum, 3);
}

static void string_accessor_checks_kind(void **state) {
    SqJson *v = parse_ok(*state, "[\"s\", 1, null]");
    assert_string_equal(sq_json_string(v->items[0]), "s");
    assert_null(sq_json_string(v->items[1]));
    assert_null(sq_json_string(v->items[2]));
    assert_null(sq_json_string(v));
    assert_null(sq_json_string(NULL));
}

static void big_arrays_keep_every_element(void **state) {
    enum { N = 20000 };
    char *doc = malloc(N * 8 + 2);
    size_t n = 0;
    doc[n++] = '[';
    for (int i = 0; i < N; i++) n += (size_t)sprintf(doc + n, "%s%d", i ? "," : "", i);
    doc[n++] = ']';
    SqJsonError err;
    SqJson *v = sq_json_parse(*state, doc, n, &err);
    assert_non_null(v);
    assert_int_equal(v->n, N);
    for (int i = 0; i < N; i++) assert_int_equal(v->items[i]->inum, i);
    free(doc);
}

/* ------------------------------------------------------------------ */
/* Numbers                                                             */
/* ------------------------------------------------------------------ */

static const SqJson *number(SqArena *a, const char *text) {
    SqJson *v = parse_ok(a, text);
    assert_int_equal(v->kind, SQ_JSON_NUMBER);
    check_span(v, SQ_JSON_NUMBER, 0, (uint32_t)strlen(text));
    return v;
}

static void integers_are_exact(void **state) {
    const SqJson *v = number(*state, "0");
    assert_true(v->is_int);
    assert_int_equal(v->inum, 0);
    v = number(*state, "-42");
    assert_true(v->is_int);
    assert_int_equal(v->inum, -42);
    assert_true(v->num == -42.0);
    v = number(*state, "9223372036854775807");
    assert_true(v->is_int);
    assert_true(v->inum == INT64_MAX);
    assert_true(v->num == 9223372036854775807.0);
    v = number(*state, "-9223372036854775808");
    assert_true(v->is_int);
    assert_true(v->inum == INT64_MIN);
    v = number(*state, "9007199254740993"); /* 2^53 + 1: exact as int, rounded as double */
    assert_true(v->inum == 9007199254740993LL);
    assert_true(v->num == 9007199254740992.0);
}

static void minus_zero_is_an_int_with_negative_zero_double(void **state) {
    const SqJson *v = number(*state, "-0");
    assert_true(v->is_int);
    assert_int_equal(v->inum, 0);
    assert_true(v->num == 0.0 && signbit(v->num));
}

static void out_of_range_integers_are_not_int(void **state) {
    const SqJson *v = number(*state, "9223372036854775808");
    assert_false(v->is_int);
    assert_true(v->num == 9223372036854775808.0);
    v = number(*state, "-9223372036854775809");
    assert_false(v->is_int);
    v = number(*state, "123456789012345678901234567890");
    assert_false(v->is_int);
    assert_true(fabs(v->num - 1.2345678901234568e29) < 1e15);
}

static void fractions_and_exponents_are_doubles(void **state) {
    const SqJson *v = number(*state, "3.25");
    assert_false(v->is_int);
    assert_true(v->num == 3.25);
    v = number(*state, "-1e3");
    assert_false(v->is_int);
    assert_true(v->num == -1000.0);
    v = number(*state, "2.5E-2");
    assert_true(v->num == 0.025);
    v = number(*state, "1e+2");
    assert_true(v->num == 100.0);
    v = number(*state, "1.0");
    assert_false(v->is_int);
    v = number(*state, "1e400");
    assert_true(isinf(v->num));
    /* Longer than any small buffer. */
    v = number(*state, "0.00000000000000000000000000000000000000000000000000000000000000000001");
    assert_true(fabs(v->num - 1e-68) < 1e-80);
}

/* ------------------------------------------------------------------ */
/* Strings                                                             */
/* ------------------------------------------------------------------ */

static void check_decodes(SqArena *a, const char *json, const char *want, size_t want_len) {
    SqJson *v = parse_ok(a, json);
    assert_int_equal(v->kind, SQ_JSON_STRING);
    assert_int_equal(v->len, want_len);
    assert_memory_equal(v->str, want, want_len);
    assert_int_equal(v->str[want_len], 0);
}

#define DECODES(a, json, want) check_decodes((a), (json), (want), sizeof(want) - 1)

static void every_escape_decodes(void **state) {
    DECODES(*state, "\"\\\" \\\\ \\/ \\b \\f \\n \\r \\t\"", "\" \\ / \b \f \n \r \t");
    DECODES(*state, "\"\\u0041\\u00e9\\u20AC\\uFFFF\"", "A\xC3\xA9\xE2\x82\xAC\xEF\xBF\xBF");
    DECODES(*state, "\"\\u007f\\u0080\\u07ff\\u0800\"", "\x7F\xC2\x80\xDF\xBF\xE0\xA0\x80");
    DECODES(*state, "\"a\\u0000b\"", "a\0b");
    DECODES(*state, "\"\"", "");
    DECODES(*state, "\"plain text, no escapes\"", "plain text, no escapes");
}

static void surrogate_pairs_decode_to_four_bytes(void **state) {
    DECODES(*state, "\"\\ud83d\\ude00\"", "\xF0\x9F\x98\x80");     /* U+1F600 */
    DECODES(*state, "\"x\\uD800\\uDC00y\"", "x\xF0\x90\x80\x80y"); /* U+10000 */
    DECODES(*state, "\"\\udbff\\udfff\"", "\xF4\x8F\xBF\xBF");     /* U+10FFFF */
}

static void unpaired_surrogates_become_replacement_character(void **state) {
    DECODES(*state, "\"\\ud800\"", "\xEF\xBF\xBD");
    DECODES(*state, "\"\\udc00\"", "\xEF\xBF\xBD");
    DECODES(*state, "\"\\ud800x\"", "\xEF\xBF\xBDx");
    DECODES(*state, "\"\\ud800\\u0041\"", "\xEF\xBF\xBD" "A");
    DECODES(*state, "\"\\ud800\\n\"", "\xEF\xBF\xBD\n");
    DECODES(*state, "\"\\ud800\\ud800\\udc00\"", "\xEF\xBF\xBD\xF0\x90\x80\x80");
    DECODES(*state, "\"\\ude00\\ud83d\"", "\xEF\xBF\xBD\xEF\xBF\xBD");
}

static void utf8_and_invalid_bytes_are_copied_through(void **state) {
    DECODES(*state, "\"caf\xC3\xA9 \xE2\x82\xAC\"", "caf\xC3\xA9 \xE2\x82\xAC");
    DECODES(*state, "\"a\xFF\xC3z\x80\"", "a\xFF\xC3z\x80");
    DECODES(*state, "\"\xFF\\n\xFE\"", "\xFF\n\xFE");
    DECODES(*state, "\"\x7F\"", "\x7F"); /* DEL is not a control character in JSON */
}

static void keys_are_decoded(void **state) {
    SqJson *v = parse_ok(*state, "{\"a\\tb\": 1, \"\\u00e9\": 2}");
    assert_string_equal(v->keys[0], "a\tb");
    assert_string_equal(v->keys[1], "\xC3\xA9");
    assert_int_equal(sq_json_get(v, "\xC3\xA9")->inum, 2);
}

/* ------------------------------------------------------------------ */
/* Position map                                                        */
/* ------------------------------------------------------------------ */

static void check_seg(const SqSrcSeg *g, uint32_t child, uint32_t parent) {
    if (g->child_off != child || g->parent_off != parent)
        fail_msg("segment {%u, %u}, want {%u, %u}", g->child_off, g->parent_off, child,
                 parent);
}

static void string_map_of_plain_string_is_one_segment(void **state) {
    const char *doc = "  \"abc\"";
    SqJson *v = parse_ok(*state, doc);
    uint32_t n = 99;
    SqSrcSeg *segs = sq_json_string_map(*state, doc, v, &n);
    assert_int_equal(n, 1);
    check_seg(&segs[0], 0, 3);
}

/* "x\ny" at offset 10 of the offsets document: x, then the escape at 12
** giving byte 1, then y at 14 giving byte 2. */
static void string_map_starts_a_segment_at_each_escape(void **state) {
    const char *doc = "{\"a\": [1, \"x\\ny\"], \"b\" : true}";
    SqJson *v = parse_ok(*state, doc);
    const SqJson *s = v->items[0]->items[1];
    uint32_t n = 0;
    SqSrcSeg *segs = sq_json_string_map(*state, doc, s, &n);
    assert_int_equal(n, 3);
    check_seg(&segs[0], 0, 11);
    check_seg(&segs[1], 1, 12);
    check_seg(&segs[2], 2, 14);
}

/* "\u00e9\"": both bytes of é come from the backslash at 1; the quote from
** the escape at 7; the end of the string maps to the closing quote at 9. */
static void string_map_gives_each_escape_byte_the_escape_offset(void **state) {
    const char *doc = "\"\\u00e9\\\"\"";
    SqJson *v = parse_ok(*state, doc);
    uint32_t n = 0;
    SqSrcSeg *segs = sq_json_string_map(*state, doc, v, &n);
    assert_int_equal(n, 4);
    check_seg(&segs[0], 0, 1);
    check_seg(&segs[1], 1, 1);
    check_seg(&segs[2], 2, 7);
    check_seg(&segs[3], 3, 9);
}

static void string_map_of_non_string_is_null(void **state) {
    const char *doc = "[1]";
    SqJson *v = parse_ok(*state, doc);
    uint32_t n = 99;
    assert_null(sq_json_string_map(*state, doc, v, &n));
    assert_int_equal(n, 0);
}

/* Where decoded offset off of src lands in the document. */
static void check_located(const SqSrc *src, uint32_t off, uint32_t line, uint32_t col) {
    SqSrcPos p = sq_src_locate(src, off);
    if (p.line != line || p.col != col)
        fail_msg("decoded offset %u: got %u:%u, want %u:%u", off, p.line, p.col, line, col);
}

static const char located_doc[] =
    "[\n"
    "  {\"id\": 1,\n"
    "   \"query\": \"SELECT \\\"a\\\", 'caf\\u00e9' + x FROM t\"}\n"
    "]\n";

/* The query decodes to SELECT "a", 'café' + x FROM t; columns of line 3
** counted by hand: the string opens at 13, \" at 21 and 24, \u00e9 at 32,
** FROM at 44. */
static void embedded_query_locates_in_json_file(void **state) {
    SqArena *a = *state;
    SqJson *doc = parse_ok(a, located_doc);
    const SqJson *q = sq_json_get(doc->items[0], "query");
    assert_string_equal(q->str, "SELECT \"a\", 'caf\xC3\xA9' + x FROM t");
    uint32_t n = 0;
    SqSrcSeg *segs = sq_json_string_map(a, located_doc, q, &n);
    SqSrcSet set;
    sq_srcset_init(&set);
    SqSrc *file = sq_src_add_copy(&set, "dev.json", located_doc, sizeof located_doc - 1);
    SqSrc *sql = sq_src_add_copy(&set, "<query>", q->str, q->len);
    sq_src_embed(sql, file, segs, n, "item 0");
    uint32_t from = (uint32_t)(strstr(q->str, "FROM") - q->str);
    check_located(sql, from, 3, 44);     /* after every escape */
    check_located(sql, from + 3, 3, 47); /* 'M' */
    check_located(sql, 0, 3, 14);        /* 'S' */
    check_located(sql, 7, 3, 21);        /* '"' from \" */
    check_located(sql, 8, 3, 23);        /* 'a', right after \" */
    check_located(sql, 16, 3, 32);       /* both bytes of é from \u00e9 */
    check_located(sql, 17, 3, 32);
    check_located(sql, 18, 3, 38);       /* the quote after \u00e9 */
    check_located(sql, q->len, 3, 50);   /* end of query: the closing quote */
    sq_srcset_free(&set);
}

/* Over a string with every kind of escape: a plain decoded byte maps to the
** same byte in the document, an escaped one to a backslash. */
static void string_map_agrees_with_decoding_byte_by_byte(void **state) {
    SqArena *a = *state;
    const char *doc = "\"a\\\"b\\\\c\\/d\\be\\ff\\ng\\rh\\ti\\u0041j\\u00e9k\\u20ACl"
                      "\\ud83d\\ude00m\\ud800n\\udc00\\ud800\\u0000o\xFFp\"";
    SqJson *v = parse_ok(a, doc);
    uint32_t n = 0;
    SqSrcSeg *segs = sq_json_string_map(a, doc, v, &n);
    SqSrcSet set;
    sq_srcset_init(&set);
    SqSrc *file = sq_src_add_copy(&set, "d.json", doc, strlen(doc));
    SqSrc *str = sq_src_add_copy(&set, "<s>", v->str, v->len);
    sq_src_embed(str, file, segs, n, NULL);
    int plain = 0, escaped = 0;
    for (uint32_t i = 0; i < v->len; i++) {
        uint32_t at = sq_src_locate(str, i).offset;
        assert_true(at > v->start && at < v->end - 1);
        if (doc[at] == '\\') escaped++;
        else if (doc[at] == v->str[i]) plain++;
        else fail_msg("decoded byte %u maps to offset %u", i, at);
    }
    assert_int_equal(plain, 17);                 /* a..p and the 0xFF byte */
    assert_int_equal(escaped, (int)v->len - 17);
    assert_int_equal(sq_src_locate(str, v->len).offset, v->end - 1);
    sq_srcset_free(&set);
}

/* ------------------------------------------------------------------ */
/* Errors                                                              */
/* ------------------------------------------------------------------ */

/* One malformed input: its text (len bytes), where the error is, the
** message and the opening of the unclosed construct (or UINT32_MAX). */
typedef struct BadCase {
    const char *text;
    uint32_t offset;
    const char *msg;
    uint32_t open_offset;
} BadCase;

#define NONE UINT32_MAX

static const BadCase bad_cases[] = {
    {"", 0, "empty document", NONE},
    {"  \n ", 4, "empty document", NONE},
    {"[1, 2", 5, "unterminated array", 0},
    {"{\"a\": 1", 7, "unterminated object", 0},
    {"{\"a\": [1, {\"b\":", 15, "unterminated object", 10},
    {"{\"a\" 1}", 5, "expected ':' after an object key", NONE},
    {"{\"a\": 1 \"b\": 2}", 8, "expected ',' or '}' after an object member", NONE},
    {"[1 2]", 3, "expected ',' or ']' after an array element", NONE},
    {"[1, ]", 2, "trailing ',' before ']'", NONE},
    {"{\"a\": 1,}", 7, "trailing ',' before '}'", NONE},
    {"{1: 2}", 1, "expected a string key or '}'", NONE},
    {"{\"a\": 1, 2}", 9, "expected a string key after ','", NONE},
    {"[\"abc", 5, "unterminated string", 1},
    {"[\"abc\\", 6, "unterminated string", 1},
    {"\"\\u12", 5, "unterminated string", 0},
    {"\"a\\qb\"", 2, "invalid escape: backslash followed by character 'q'", NONE},
    {"\"\\u12G4\"", 5, "invalid \\u escape: expected four hex digits", NONE},
    {"\"a\nb\"", 2, "unescaped newline in string", NONE},
    {"\"a\x01\"", 2, "unescaped control character 0x01 in string", NONE},
    {"[tru]", 4, "unexpected character ']' in 'true'", NONE},
    {"nul", 3, "unexpected end of input in 'null'", NONE},
    {"[-]", 2, "expected a digit after '-'", NONE},
    {"-", 1, "expected a digit after '-'", NONE},
    {"012", 1, "leading zeros are not allowed in numbers", NONE},
    {"1.", 2, "expected a digit after '.'", NONE},
    {"1.e5", 2, "expected a digit after '.'", NONE},
    {"1e+", 3, "expected a digit in the exponent", NONE},
    {"+1", 0, "unexpected character '+'", NONE},
    {".5", 0, "unexpected character '.'", NONE},
    {"[1] x", 4, "trailing characters after the document", NONE},
    {"{} {}", 3, "trailing characters after the document", NONE},
    {"@", 0, "unexpected character '@'", NONE},
    {"['a']", 1, "unexpected character \"'\"", NONE},
    {"[\xFF]", 1, "unexpected byte 0xff", NONE},
    {"\xEF\xBB", 0, "unexpected byte 0xef", NONE},
    {"\xEF\xBB\xBF", 3, "empty document", NONE},
};

static void malformed_documents_report_offset_and_message(void **state) {
    for (size_t i = 0; i < SQ_ARRAY_LEN(bad_cases); i++) {
        const BadCase *c = &bad_cases[i];
        SqJsonError err;
        memset(&err, 0x55, sizeof err);
        SqJson *v = sq_json_parse(*state, c->text, strlen(c->text), &err);
        if (v) fail_msg("case %zu parsed: %s", i, c->text);
        if (err.offset != c->offset || strcmp(err.msg, c->msg) != 0 ||
            err.open_offset != c->open_offset)
            fail_msg("case %zu: got %u \"%s\" (open %u), want %u \"%s\" (open %u)", i,
                     err.offset, err.msg, err.open_offset, c->offset, c->msg,
                     c->open_offset);
    }
}

static void error_pointer_may_be_null(void **state) {
    assert_null(sq_json_parse(*state, "[", 1, NULL));
}

static const char sample_doc[] =
    "\xEF\xBB\xBF[{\"db_id\": \"concert_singer\", \"query\": \"SELECT \\\"x\\\" FROM t\\n\","
    " \"toks\": [\"a\", \"\\u00e9\\ud83d\\ude00\"], \"n\": -12.5e+3, \"ok\": true,"
    " \"no\": false, \"none\": null, \"o\": {}, \"e\": []}, 0]";

/* Every proper prefix is malformed; each is parsed from a buffer of exactly
** its length so that a read past the end trips the sanitizers. */
static void every_prefix_of_a_document_is_an_error(void **state) {
    size_t n = sizeof sample_doc - 1;
    assert_non_null(parse_ok(*state, sample_doc));
    for (size_t k = 0; k < n; k++) {
        char *buf = malloc(k ? k : 1);
        memcpy(buf, sample_doc, k);
        SqJsonError err;
        SqJson *v = sq_json_parse(*state, buf, k, &err);
        if (v) fail_msg("prefix of %zu bytes parsed", k);
        assert_true(err.offset <= k);
        assert_true(err.msg[0] != 0);
        free(buf);
    }
}

/* 100000 '[' stop at the 513th; 512 levels are fine. */
static void deep_nesting_is_an_error_not_a_crash(void **state) {
    enum { N = 100000 };
    char *doc = malloc(2 * N);
    memset(doc, '[', N);
    SqJsonError err;
    assert_null(sq_json_parse(*state, doc, N, &err));
    assert_string_equal(err.msg, "nesting too deep");
    assert_int_equal(err.offset, SQ_JSON_MAX_DEPTH);
    for (int i = 0; i < N / 5; i++) memcpy(doc + 5 * i, "{\"\": ", 5); /* objects too */
    assert_null(sq_json_parse(*state, doc, N, &err));
    assert_string_equal(err.msg, "nesting too deep");
    assert_int_equal(err.offset, SQ_JSON_MAX_DEPTH * 5);
    int d = SQ_JSON_MAX_DEPTH;
    memset(doc, '[', (size_t)d);
    memset(doc + d, ']', (size_t)d);
    SqJson *v = sq_json_parse(*state, doc, 2 * (size_t)d, &err);
    assert_non_null(v);
    for (int i = 1; i < d; i++) v = v->items[0];
    assert_int_equal(v->n, 0);
    check_span(v, SQ_JSON_ARRAY, (uint32_t)d - 1, (uint32_t)d + 1);
    free(doc);
}

/* ------------------------------------------------------------------ */
/* Document framing                                                    */
/* ------------------------------------------------------------------ */

static void leading_bom_is_skipped_and_offsets_count_it(void **state) {
    SqJson *v = parse_ok(*state, "\xEF\xBB\xBF{\"k\": \"v\"}");
    check_span(v, SQ_JSON_OBJECT, 3, 13);
    check_span(sq_json_get(v, "k"), SQ_JSON_STRING, 9, 12);
    SqJsonError err;
    assert_null(sq_json_parse(*state, "[1]\xEF\xBB\xBF", 6, &err)); /* only leading */
    assert_int_equal(err.offset, 3);
}

/* The reader stops at len, not at a NUL. */
static void document_need_not_be_nul_terminated(void **state) {
    const char buf[] = {'[', '1', ',', '2', ']', 'x', 'y', 'z'};
    SqJsonError err;
    SqJson *v = sq_json_parse(*state, buf, 5, &err);
    assert_non_null(v);
    assert_int_equal(v->n, 2);
    check_span(v, SQ_JSON_ARRAY, 0, 5);
    const char num[] = {'1', '2', '3', '4', '5'};
    v = sq_json_parse(*state, num, 3, &err);
    assert_non_null(v);
    assert_int_equal(v->inum, 123);
    const char str[] = {'"', 'a', 'b', '"', '"'};
    v = sq_json_parse(*state, str, 4, &err);
    assert_non_null(v);
    assert_string_equal(v->str, "ab");
    assert_null(sq_json_parse(*state, str, 3, &err));
    assert_string_equal(err.msg, "unterminated string");
    const char nul[] = {'[', '1', ']', '\0', ' '};
    assert_null(sq_json_parse(*state, nul, 5, &err)); /* a NUL is just a byte */
    assert_string_equal(err.msg, "trailing characters after the document");
    assert_int_equal(err.offset, 3);
}

/* ------------------------------------------------------------------ */
/* Benchmark files                                                     */
/* ------------------------------------------------------------------ */

/* Read <corpora>/rel ($SQUINT_CORPORA, default ../shared/corpora, as the
** other tools do); NULL when absent. */
static char *read_corpus_file(const char *rel, size_t *len) {
    const char *root = getenv("SQUINT_CORPORA");
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", root && *root ? root : "../shared/corpora", rel);
    int err;
    return sq_read_file(path, len, &err);
}

static void spider_dev_json_parses(void **state) {
    size_t len;
    char *text = read_corpus_file("spider-dev/dev.json", &len);
    if (!text) skip();
    SqJsonError err;
    SqJson *v = sq_json_parse(*state, text, len, &err);
    if (!v) fail_msg("dev.json: error at %u: %s", err.offset, err.msg);
    assert_int_equal(v->kind, SQ_JSON_ARRAY);
    assert_int_equal(v->n, 1034);
    const SqJson *q = sq_json_get(v->items[0], "query");
    assert_string_equal(sq_json_string(q), "SELECT count(*) FROM singer");
    assert_memory_equal(text + q->start, "\"SELECT count(*) FROM singer\"", q->end - q->start);
    for (uint32_t i = 0; i < v->n; i++)
        assert_non_null(sq_json_string(sq_json_get(v->items[i], "query")));
    free(text);
}

static void bird_dev_json_parses(void **state) {
    size_t len;
    char *text = read_corpus_file("bird-dev/dev.json", &len);
    if (!text) skip();
    SqJsonError err;
    SqJson *v = sq_json_parse(*state, text, len, &err);
    if (!v) fail_msg("dev.json: error at %u: %s", err.offset, err.msg);
    assert_int_equal(v->kind, SQ_JSON_ARRAY);
    assert_true(v->n > 0);
    for (uint32_t i = 0; i < v->n; i++)
        assert_non_null(sq_json_string(sq_json_get(v->items[i], "SQL")));
    free(text);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        JSON_TEST(every_kind_parses),
        JSON_TEST(scalar_documents_parse),
        JSON_TEST(offsets_of_values_are_exact),
        JSON_TEST(nested_values_and_lookup),
        JSON_TEST(duplicate_keys_are_kept_and_get_returns_first),
        JSON_TEST(string_accessor_checks_kind),
        JSON_TEST(big_arrays_keep_every_element),
        JSON_TEST(integers_are_exact),
        JSON_TEST(minus_zero_is_an_int_with_negative_zero_double),
        JSON_TEST(out_of_range_integers_are_not_int),
        JSON_TEST(fractions_and_exponents_are_doubles),
        JSON_TEST(every_escape_decodes),
        JSON_TEST(surrogate_pairs_decode_to_four_bytes),
        JSON_TEST(unpaired_surrogates_become_replacement_character),
        JSON_TEST(utf8_and_invalid_bytes_are_copied_through),
        JSON_TEST(keys_are_decoded),
        JSON_TEST(string_map_of_plain_string_is_one_segment),
        JSON_TEST(string_map_starts_a_segment_at_each_escape),
        JSON_TEST(string_map_gives_each_escape_byte_the_escape_offset),
        JSON_TEST(string_map_of_non_string_is_null),
        JSON_TEST(embedded_query_locates_in_json_file),
        JSON_TEST(string_map_agrees_with_decoding_byte_by_byte),
        JSON_TEST(malformed_documents_report_offset_and_message),
        JSON_TEST(error_pointer_may_be_null),
        JSON_TEST(every_prefix_of_a_document_is_an_error),
        JSON_TEST(deep_nesting_is_an_error_not_a_crash),
        JSON_TEST(leading_bom_is_skipped_and_offsets_count_it),
        JSON_TEST(document_need_not_be_nul_terminated),
        JSON_TEST(spider_dev_json_parses),
        JSON_TEST(bird_dev_json_parses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
