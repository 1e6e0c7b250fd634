/* test_runtime.c -- the runtime layer: arena, strbuf, interner, sources, JSON writer, diagnostics. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/arena.h"
#include "runtime/diag.h"
#include "runtime/intern.h"
#include "runtime/jsonw.h"
#include "runtime/safewrite.h"
#include "runtime/sha256.h"
#include "runtime/src.h"
#include "runtime/strbuf.h"
#include "runtime/task.h"
#include "runtime/util.h"

/* ------------------------------------------------------------------ */
/* Arena                                                               */
/* ------------------------------------------------------------------ */

static int is_zero(const void *p, size_t n) {
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i]) return 0;
    return 1;
}

static void arena_allocations_are_16_byte_aligned(void **state) {
    (void)state;
    SqArena *a = sq_arena_new();
    for (size_t n = 0; n < 200; n++) {
        void *p = sq_arena_alloc(a, n);
        assert_int_equal((uintptr_t)p % 16, 0);
    }
    assert_int_equal((uintptr_t)sq_arena_alloc(a, 300 * 1024) % 16, 0);
    assert_int_equal((uintptr_t)sq_arena_alloc(a, 3) % 16, 0);
    sq_arena_free(a);
}

static void arena_memory_is_zero_filled(void **state) {
    (void)state;
    SqArena *a = sq_arena_new();
    for (size_t n = 1; n < 5000; n += 333) assert_true(is_zero(sq_arena_alloc(a, n), n));
    sq_arena_free(a);
}

/* Each allocation gets its own bytes: write all, then read all back. */
static void arena_many_small_allocations_do_not_overlap(void **state) {
    (void)state;
    enum { N = 100000 };
    SqArena *a = sq_arena_new();
    uint64_t **ps = malloc(N * sizeof *ps);
    for (size_t i = 0; i < N; i++) {
        ps[i] = sq_arena_alloc(a, 24);
        ps[i][0] = ps[i][1] = ps[i][2] = i;
    }
    for (size_t i = 0; i < N; i++) {
        assert_int_equal(ps[i][0], i);
        assert_int_equal(ps[i][2], i);
    }
    assert_int_equal(sq_arena_used(a), (size_t)N * 32); /* rounded to 16 */
    free(ps);
    sq_arena_free(a);
}

/* A small first block takes what fits and the rest spills into further
** blocks, each allocation still its own, zeroed and aligned; reset keeps
** the small block. */
static void arena_sized_first_block_spills_over(void **state) {
    (void)state;
    SqArena *a = sq_arena_new_sized(100);
    char *ps[40];
    for (int i = 0; i < 40; i++) {
        ps[i] = sq_arena_alloc(a, 40);
        assert_true(is_zero(ps[i], 40));
        assert_int_equal((uintptr_t)ps[i] % 16, 0);
        memset(ps[i], 'a' + i % 26, 40);
    }
    for (int i = 0; i < 40; i++) assert_int_equal(ps[i][39], 'a' + i % 26);
    assert_int_equal(sq_arena_used(a), 40 * 48);
    sq_arena_reset(a);
    assert_true(is_zero(sq_arena_alloc(a, 8000), 8000));
    sq_arena_free(a);
    sq_arena_free(sq_arena_new_sized(0)); /* at least 64 bytes, whatever is asked */
}

/* Under AddressSanitizer the arena leaves poisoned bytes after each small
** allocation (arena.c). */
#if SQ_SANITIZED
#define ARENA_REDZONE 16
#else
#define ARENA_REDZONE 0
#endif

/* A request over 256 KiB gets a dedicated block; the current block goes
** on serving small requests right where it left off. */
static void arena_big_allocation_leaves_current_block_in_use(void **state) {
    (void)state;
    SqArena *a = sq_arena_new();
    char *before = sq_arena_alloc(a, 16);
    size_t big_n = 300 * 1024;
    char *big = sq_arena_alloc(a, big_n);
    assert_true(is_zero(big, big_n));
    memset(big, 0x5a, big_n);
    char *after = sq_arena_alloc(a, 16);
    assert_ptr_equal(after, before + 16 + ARENA_REDZONE);
    assert_true(after + 16 <= big || after >= big + big_n);
    assert_true(is_zero(after, 16));
    assert_int_equal((unsigned char)big[big_n - 1], 0x5a);
    sq_arena_free(a);
}

static void arena_reset_allows_reuse_with_zeroed_memory(void **state) {
    (void)state;
    SqArena *a = sq_arena_new();
    char *p = sq_arena_alloc(a, 64);
    memset(p, 0xab, 64);
    for (int i = 0; i < 100; i++) sq_arena_alloc(a, 1000); /* more blocks */
    sq_arena_alloc(a, 512 * 1024);
    sq_arena_reset(a);
    assert_int_equal(sq_arena_used(a), 0);
    char *q = sq_arena_alloc(a, 64);
    assert_ptr_equal(q, p); /* the first block is kept */
    assert_true(is_zero(q, 64));
    assert_int_equal(sq_arena_used(a), 64);
    sq_arena_free(a);
}

/* Cleanups append their id to a shared log. */
typedef struct CleanupLog {
    char text[16]; /* ids in the order the cleanups ran */
    size_t n;
} CleanupLog;

typedef struct Cleanup {
    CleanupLog *log;
    char id;
} Cleanup;

static void record_cleanup(void *arg) {
    Cleanup *c = arg;
    c->log->text[c->log->n++] = c->id;
}

static void arena_defer_runs_newest_first_on_reset(void **state) {
    (void)state;
    CleanupLog log = {{0}, 0};
    Cleanup cs[] = {{&log, '1'}, {&log, '2'}, {&log, '3'}};
    SqArena *a = sq_arena_new();
    for (size_t i = 0; i < 3; i++) sq_arena_defer(a, record_cleanup, &cs[i]);
    assert_int_equal(log.n, 0);
    sq_arena_reset(a);
    assert_string_equal(log.text, "321");
    sq_arena_reset(a); /* already run: not again */
    assert_string_equal(log.text, "321");
    sq_arena_free(a);
    assert_string_equal(log.text, "321");
}

static void arena_defer_runs_on_free(void **state) {
    (void)state;
    CleanupLog log = {{0}, 0};
    Cleanup cs[] = {{&log, 'a'}, {&log, 'b'}};
    SqArena *a = sq_arena_new();
    sq_arena_defer(a, record_cleanup, &cs[0]);
    sq_arena_alloc(a, 400 * 1024);
    sq_arena_defer(a, record_cleanup, &cs[1]);
    sq_arena_free(a);
    assert_string_equal(log.text, "ba");
}

static void arena_grow_keeps_contents(void **state) {
    (void)state;
    SqArena *a = sq_arena_new();
    size_t cap = 0;
    int *v = sq_arena_grow(a, NULL, 0, &cap, 3, sizeof *v);
    assert_true(cap >= 3);
    for (int i = 0; i < 3; i++) v[i] = i * 7;
    assert_ptr_equal(sq_arena_grow(a, v, 3, &cap, cap, sizeof *v), v);
    int *w = sq_arena_grow(a, v, 3, &cap, 1000, sizeof *w);
    assert_true(cap >= 1000);
    for (int i = 0; i < 3; i++) assert_int_equal(w[i], i * 7);
    w[999] = 1; /* the whole capacity is usable */
    sq_arena_free(a);
}

/* A list of a million items: once it has a block of its own (over 256 KB)
** it grows in place, so the arena holds the list, at most a quarter more,
** and the copies it left while it was small (under 512 KB) -- not a trail
** of abandoned copies of every size (2.6 times the list before). */
static void arena_big_list_grows_in_place(void **state) {
    (void)state;
    SqArena *a = sq_arena_new();
    struct { uint32_t *items; uint32_t n, cap; } list = {NULL, 0, 0};
    for (uint32_t i = 0; i < 1000000; i++) *SQ_ARENA_PUSH(a, &list) = i * 3;
    for (uint32_t i = 0; i < 1000000; i++) assert_int_equal(list.items[i], i * 3);
    size_t bytes = 1000000 * sizeof *list.items;
    assert_true(sq_arena_used(a) <= bytes + bytes / 4 + 512 * 1024);
    sq_arena_reset(a);
    assert_int_equal(sq_arena_used(a), 0);
    sq_arena_free(a);
}

static void arena_reserve_is_exact(void **state) {
    (void)state;
    SqArena *a = sq_arena_new();
    struct { uint64_t *items; uint32_t n, cap; } list = {NULL, 0, 0};
    *SQ_ARENA_PUSH(a, &list) = 7;
    SQ_ARENA_RESERVE(a, &list, 100000);
    assert_int_equal(list.cap, 100000);
    assert_int_equal(list.items[0], 7);
    size_t before = sq_arena_used(a);
    for (uint32_t i = 1; i < 100000; i++) *SQ_ARENA_PUSH(a, &list) = i;
    assert_int_equal(sq_arena_used(a), before); /* no growth */
    assert_int_equal(list.items[99999], 99999);
    SQ_ARENA_RESERVE(a, &list, 10); /* never shrinks */
    assert_int_equal(list.cap, 100000);
    sq_arena_free(a);
}

static void arena_strndup_and_printf(void **state) {
    (void)state;
    SqArena *a = sq_arena_new();
    assert_string_equal(sq_arena_strndup(a, "hello world", 5), "hello");
    assert_string_equal(sq_arena_strndup(a, "", 0), "");
    assert_string_equal(sq_arena_strdup(a, "abc"), "abc");
    assert_string_equal(sq_arena_printf(a, "%d-%s-%c", 42, "x", 'y'), "42-x-y");
    char *long_s = sq_arena_printf(a, "%05000d|", 7);
    assert_int_equal(strlen(long_s), 5001);
    assert_string_equal(long_s + 4998, "07|");
    sq_arena_free(a);
}

/* ------------------------------------------------------------------ */
/* String buffer                                                       */
/* ------------------------------------------------------------------ */

static void strbuf_appends_in_every_form(void **state) {
    (void)state;
    SqBuf b = SQ_BUF_INIT;
    assert_string_equal(sq_buf_str(&b), "");
    sq_buf_put(&b, "abXX", 2);
    sq_buf_puts(&b, "cd");
    sq_buf_putc(&b, 'e');
    sq_buf_printf(&b, "%d%s", 42, "!");
    sq_buf_repeat(&b, '-', 3);
    sq_buf_repeat(&b, '=', 0);
    assert_string_equal(sq_buf_str(&b), "abcde42!---");
    assert_int_equal(b.len, 11);
    assert_int_equal(b.data[b.len], 0);
    assert_true(b.cap > b.len);
    sq_buf_free(&b);
    assert_null(b.data);
}

static void strbuf_keeps_embedded_nul_and_terminates(void **state) {
    (void)state;
    SqBuf b = SQ_BUF_INIT;
    sq_buf_put(&b, "a\0b", 3);
    assert_int_equal(b.len, 3);
    assert_memory_equal(b.data, "a\0b\0", 4);
    sq_buf_free(&b);
}

static void strbuf_reset_empties_but_keeps_storage(void **state) {
    (void)state;
    SqBuf b = SQ_BUF_INIT;
    sq_buf_puts(&b, "some text");
    char *data = b.data;
    size_t cap = b.cap;
    sq_buf_reset(&b);
    assert_int_equal(b.len, 0);
    assert_string_equal(sq_buf_str(&b), "");
    assert_ptr_equal(b.data, data);
    assert_int_equal(b.cap, cap);
    sq_buf_puts(&b, "new");
    assert_string_equal(sq_buf_str(&b), "new");
    sq_buf_free(&b);
}

static void strbuf_detach_hands_over_the_string(void **state) {
    (void)state;
    SqBuf b = SQ_BUF_INIT;
    sq_buf_puts(&b, "owned");
    char *s = sq_buf_detach(&b);
    assert_string_equal(s, "owned");
    assert_null(b.data);
    assert_int_equal(b.len, 0);
    assert_int_equal(b.cap, 0);
    free(s);
    char *empty = sq_buf_detach(&b); /* empty buffer: still a heap "" */
    assert_string_equal(empty, "");
    free(empty);
}

static void strbuf_long_printf_grows(void **state) {
    (void)state;
    char word[101];
    memset(word, 'w', 100);
    word[100] = 0;
    SqBuf b = SQ_BUF_INIT;
    sq_buf_puts(&b, "<");
    sq_buf_printf(&b, "%s|%s|%d", word, word, 12345);
    assert_int_equal(b.len, 1 + 100 + 1 + 100 + 1 + 5);
    assert_true(b.cap >= b.len + 1);
    assert_int_equal(b.data[0], '<');
    assert_memory_equal(b.data + 1, word, 100);
    assert_string_equal(b.data + 203, "12345");
    sq_buf_free(&b);
}

/* Each format, written by sq_buf_printf (its own plain path for %s, %c,
** %d, %i, %u with l, ll, z, and %%; vsnprintf for the rest) and by the C
** library's snprintf: the same text, at the end of a buffer that holds
** something already. */
#define SAME_AS_SNPRINTF(...)                                  \
    do {                                                       \
        char want[256];                                        \
        snprintf(want, sizeof want, __VA_ARGS__);              \
        SqBuf b = SQ_BUF_INIT;                                 \
        sq_buf_puts(&b, ">");                                  \
        sq_buf_printf(&b, __VA_ARGS__);                        \
        assert_string_equal(b.data + 1, want);                 \
        assert_int_equal(b.len, 1 + strlen(want));             \
        sq_buf_free(&b);                                       \
    } while (0)

static void strbuf_printf_plain_and_other_formats_match_snprintf(void **state) {
    (void)state;
    SAME_AS_SNPRINTF("%s", "");
    SAME_AS_SNPRINTF("no conversion at all");
    SAME_AS_SNPRINTF("%s=%s;", "key", "value");
    SAME_AS_SNPRINTF("%d %d %d %i", 0, -1, INT32_MIN, INT32_MAX);
    SAME_AS_SNPRINTF("%u|%u", 0u, UINT32_MAX);
    SAME_AS_SNPRINTF("%ld %lu", (long)INT64_MIN, (unsigned long)UINT64_MAX);
    SAME_AS_SNPRINTF("%lld %llu", (long long)INT64_MIN, (unsigned long long)UINT64_MAX);
    SAME_AS_SNPRINTF("%zu%%", (size_t)SIZE_MAX);
    SAME_AS_SNPRINTF("[%c%c]", 'a', '%');
    SAME_AS_SNPRINTF("100%% of %s", "it");
    /* not plain: flags, width, precision, other conversions */
    SAME_AS_SNPRINTF("%-6s|%5d|%.2s|%x|%05u|%zd|%g", "ab", 42, "xyz", 255u, 7u, (ssize_t)-3, 1.5);
    /* a NULL string is "(null)", as glibc writes it */
    const char *volatile none = NULL;
    SqBuf b = SQ_BUF_INIT;
    sq_buf_printf(&b, "<%s>", none);
    assert_string_equal(b.data, "<(null)>");
    sq_buf_free(&b);
}

/* ------------------------------------------------------------------ */
/* Interner                                                            */
/* ------------------------------------------------------------------ */

static void intern_folds_ascii_case_only(void **state) {
    (void)state;
    SqInterner *in = sq_interner_new();
    const SqName *a = sq_intern_cstr(in, "\xC3\x89" "COLE"); /* ÉCOLE */
    const SqName *b = sq_intern_cstr(in, "\xC3\x89" "cole"); /* École */
    const SqName *c = sq_intern_cstr(in, "\xC3\xA9" "cole"); /* école */
    assert_ptr_equal(a, b);
    assert_ptr_not_equal(a, c);
    assert_string_equal(a->text, "\xC3\x89" "cole");
    assert_int_equal(a->len, 6);
    assert_int_equal(sq_interner_count(in), 2);
    sq_interner_free(in);
}

static void intern_same_text_same_pointer(void **state) {
    (void)state;
    SqInterner *in = sq_interner_new();
    const SqName *a = sq_intern(in, "Users_TBL", 9);
    assert_ptr_equal(sq_intern(in, "users_tblXYZ", 9), a);
    assert_ptr_equal(sq_intern_cstr(in, "USERS_TBL"), a);
    assert_string_equal(a->text, "users_tbl");
    assert_ptr_not_equal(sq_intern_cstr(in, "users"), a);
    assert_ptr_not_equal(sq_intern_cstr(in, "users_tbl2"), a);
    assert_ptr_not_equal(sq_intern(in, "", 0), a);
    assert_int_equal(sq_interner_count(in), 4);
    sq_interner_free(in);
}

/* 10000 names force several rehashes; every name must still be found. */
static void intern_many_names_survive_rehash(void **state) {
    (void)state;
    enum { N = 10000 };
    SqInterner *in = sq_interner_new();
    const SqName **names = malloc(N * sizeof *names);
    char buf[32];
    for (int i = 0; i < N; i++) {
        snprintf(buf, sizeof buf, "name_%d", i);
        names[i] = sq_intern_cstr(in, buf);
    }
    assert_int_equal(sq_interner_count(in), N);
    for (int i = 0; i < N; i++) {
        snprintf(buf, sizeof buf, "NAME_%d", i);
        assert_ptr_equal(sq_intern_cstr(in, buf), names[i]);
    }
    assert_int_equal(sq_interner_count(in), N);
    free(names);
    sq_interner_free(in);
}

/* ------------------------------------------------------------------ */
/* Sources                                                             */
/* ------------------------------------------------------------------ */

static void check_pos(const SqSrc *src, uint32_t off, uint32_t line, uint32_t col) {
    SqSrcPos p = sq_src_locate(src, off);
    if (p.line != line || p.col != col)
        fail_msg("offset %u: got %u:%u, want %u:%u", off, p.line, p.col, line, col);
}

static void src_locate_gives_one_based_line_and_byte_column(void **state) {
    (void)state;
    SqSrcSet set;
    sq_srcset_init(&set);
    SqSrc *s = sq_src_add_copy(&set, "a.sql", "ab\n\xC3\xA9x\n\nz", 9);
    assert_int_equal(s->id, 1);
    check_pos(s, 0, 1, 1);
    check_pos(s, 2, 1, 3);  /* the newline belongs to line 1 */
    check_pos(s, 3, 2, 1);
    check_pos(s, 5, 2, 3);  /* columns count bytes, not characters */
    check_pos(s, 7, 3, 1);
    check_pos(s, 8, 4, 1);
    check_pos(s, 9, 4, 2);  /* end of text */
    assert_ptr_equal(sq_src_locate(s, 4).file, s);
    assert_int_equal(sq_src_locate(s, 4).offset, 4);
    sq_srcset_free(&set);
}

static void src_locate_handles_crlf_and_clamps_past_end(void **state) {
    (void)state;
    SqSrcSet set;
    sq_srcset_init(&set);
    SqSrc *s = sq_src_add_copy(&set, "w.sql", "ab\r\ncd", 6);
    check_pos(s, 2, 1, 3); /* the \r */
    check_pos(s, 4, 2, 1);
    check_pos(s, 6, 2, 3);
    SqSrcPos p = sq_src_locate(s, 100);
    assert_int_equal(p.offset, 6);
    assert_int_equal(p.line, 2);
    assert_int_equal(p.col, 3);
    sq_srcset_free(&set);
}

static void src_empty_text_is_line_one(void **state) {
    (void)state;
    SqSrcSet set;
    sq_srcset_init(&set);
    SqSrc *s = sq_src_add_copy(&set, "e.sql", "", 0);
    check_pos(s, 0, 1, 1);
    size_t len = 99;
    sq_src_line(s, 1, &len);
    assert_int_equal(len, 0);
    assert_int_equal(s->text[0], 0);
    sq_srcset_free(&set);
}

static void expect_line(const SqSrc *s, uint32_t line, const char *want) {
    size_t len = 99;
    const char *p = sq_src_line(s, line, &len);
    assert_int_equal(len, strlen(want));
    assert_memory_equal(p, want, len);
}

static void src_line_drops_newline_and_carriage_return(void **state) {
    (void)state;
    SqSrcSet set;
    sq_srcset_init(&set);
    SqSrc *s = sq_src_add_copy(&set, "l.sql", "one\r\ntwo\nthree\r\n\nlast", 21);
    expect_line(s, 1, "one");
    expect_line(s, 2, "two");
    expect_line(s, 3, "three");
    expect_line(s, 4, "");
    expect_line(s, 5, "last");
    expect_line(s, 6, "");
    expect_line(s, 0, "");
    sq_srcset_free(&set);
}

static void srcset_truncate_drops_later_sources(void **state) {
    (void)state;
    SqSrcSet set;
    sq_srcset_init(&set);
    for (int i = 0; i < 12; i++) sq_src_add_copy(&set, "s.sql", "x", 1); /* grows */
    SqSrc *first = sq_src_get(&set, 1);
    sq_srcset_truncate(&set, 2);
    assert_ptr_equal(sq_src_get(&set, 1), first);
    assert_null(sq_src_get(&set, 2));
    assert_null(sq_src_get(&set, 0));
    SqSrc *again = sq_src_add_copy(&set, "t.sql", "y", 1);
    assert_int_equal(again->id, 2);
    assert_string_equal(again->name, "t.sql");
    sq_srcset_truncate(&set, 0); /* id 0 stays reserved */
    assert_null(sq_src_get(&set, 1));
    assert_int_equal(sq_src_add_copy(&set, "u.sql", "", 0)->id, 1);
    sq_srcset_free(&set);
}

/* A query cut out of a JSON file: "SELECT a\nFROM t" where the file holds
** the escaped text SELECT a\\nFROM t on its line 2. */
static const char dev_json[] = "{\"items\": [\n  {\"q\": \"SELECT a\\nFROM t\"}\n]}\n";

static SqSrc *add_embedded(SqSrcSet *set, const char *item) {
    SqSrc *parent = sq_src_add_copy(set, "dev.json", dev_json, sizeof dev_json - 1);
    SqSrc *child = sq_src_add_copy(set, "<query>", "SELECT a\nFROM t", 15);
    const SqSrcSeg segs[] = {{0, 21}, {9, 31}};
    sq_src_embed(child, parent, segs, 2, item);
    return child;
}

static void embedded_source_locates_in_parent_file(void **state) {
    (void)state;
    SqSrcSet set;
    sq_srcset_init(&set);
    SqSrc *child = add_embedded(&set, NULL);
    assert_memory_equal(dev_json + 21, "SELECT a", 8);
    assert_memory_equal(dev_json + 31, "FROM t", 6);
    SqSrcPos p = sq_src_locate(child, 9); /* FROM */
    assert_string_equal(p.file->name, "dev.json");
    assert_int_equal(p.offset, 31);
    assert_int_equal(p.line, 2);
    assert_int_equal(p.col, 20);
    check_pos(child, 0, 2, 10);  /* SELECT, first segment */
    check_pos(child, 7, 2, 17);  /* a */
    check_pos(child, 14, 2, 25); /* t, second segment */
    sq_srcset_free(&set);
}

/* ------------------------------------------------------------------ */
/* JSON writer                                                         */
/* ------------------------------------------------------------------ */

static void write_sample(SqJsonWriter *w) {
    sq_jw_obj_begin(w);
    sq_jw_key(w, "a");
    sq_jw_int(w, 1);
    sq_jw_key(w, "b");
    sq_jw_arr_begin(w);
    sq_jw_int(w, -2);
    sq_jw_obj_begin(w);
    sq_jw_key(w, "c");
    sq_jw_null(w);
    sq_jw_obj_end(w);
    sq_jw_bool(w, 1);
    sq_jw_arr_end(w);
    sq_jw_key(w, "e");
    sq_jw_obj_begin(w);
    sq_jw_obj_end(w);
    sq_jw_key(w, "f");
    sq_jw_arr_begin(w);
    sq_jw_arr_end(w);
    sq_jw_key(w, "g");
    sq_jw_str(w, "s");
    sq_jw_obj_end(w);
}

static void json_compact_output(void **state) {
    (void)state;
    SqBuf b = SQ_BUF_INIT;
    SqJsonWriter w;
    sq_jw_init(&w, &b, 0);
    write_sample(&w);
    assert_string_equal(sq_buf_str(&b),
                        "{\"a\":1,\"b\":[-2,{\"c\":null},true],\"e\":{},\"f\":[],\"g\":\"s\"}");
    sq_buf_free(&b);
}

static void json_pretty_output(void **state) {
    (void)state;
    SqBuf b = SQ_BUF_INIT;
    SqJsonWriter w;
    sq_jw_init(&w, &b, 1);
    write_sample(&w);
    assert_string_equal(sq_buf_str(&b),
                        "{\n"
                        "  \"a\": 1,\n"
                        "  \"b\": [\n"
                        "    -2,\n"
                        "    {\n"
                        "      \"c\": null\n"
                        "    },\n"
                        "    true\n"
                        "  ],\n"
                        "  \"e\": {},\n"
                        "  \"f\": [],\n"
                        "  \"g\": \"s\"\n"
                        "}");
    sq_buf_free(&b);
}

static void expect_escape(const char *s, size_t n, const char *want) {
    SqBuf b = SQ_BUF_INIT;
    sq_json_escape(&b, s, n);
    assert_string_equal(sq_buf_str(&b), want);
    sq_buf_free(&b);
}

static void json_escapes_quotes_backslash_and_controls(void **state) {
    (void)state;
    expect_escape("a\"b\\c", 5, "\"a\\\"b\\\\c\"");
    expect_escape("\n\r\t", 3, "\"\\n\\r\\t\"");
    expect_escape("\x01\x1f\x7f", 3, "\"\\u0001\\u001f\\u007f\"");
    expect_escape("a\0b", 3, "\"a\\u0000b\"");
    expect_escape("/", 1, "\"/\"");
}

static void json_invalid_utf8_bytes_become_u00xx(void **state) {
    (void)state;
    expect_escape("a\xff" "b", 3, "\"a\\u00ffb\"");
    expect_escape("\xC3", 1, "\"\\u00c3\"");             /* truncated */
    expect_escape("\xC0\x80", 2, "\"\\u00c0\\u0080\"");  /* overlong */
    expect_escape("\xED\xA0\x80", 3, "\"\\u00ed\\u00a0\\u0080\""); /* surrogate */
}

static void json_valid_utf8_is_kept(void **state) {
    (void)state;
    expect_escape("\xC3\xA9", 2, "\"\xC3\xA9\"");                /* é */
    expect_escape("\xE2\x82\xAC", 3, "\"\xE2\x82\xAC\"");        /* € */
    expect_escape("\xF0\x9F\x98\x80", 4, "\"\xF0\x9F\x98\x80\""); /* emoji */
}

static void json_long_array_has_every_comma(void **state) {
    (void)state;
    SqBuf b = SQ_BUF_INIT, want = SQ_BUF_INIT;
    SqJsonWriter w;
    sq_jw_init(&w, &b, 0);
    sq_jw_arr_begin(&w);
    sq_buf_putc(&want, '[');
    for (int i = 0; i < 600; i++) {
        sq_jw_int(&w, i);
        sq_buf_printf(&want, i ? ",%d" : "%d", i);
    }
    sq_jw_arr_end(&w);
    sq_buf_putc(&want, ']');
    assert_string_equal(sq_buf_str(&b), sq_buf_str(&want));
    sq_buf_free(&b);
    sq_buf_free(&want);
}

static void json_doubles_and_non_finite(void **state) {
    (void)state;
    SqBuf b = SQ_BUF_INIT;
    SqJsonWriter w;
    sq_jw_init(&w, &b, 0);
    sq_jw_arr_begin(&w);
    sq_jw_double(&w, 0.5);
    sq_jw_double(&w, NAN);
    sq_jw_double(&w, INFINITY);
    sq_jw_double(&w, -2);
    sq_jw_str(&w, NULL);
    sq_jw_strn(&w, "xyz", 2);
    sq_jw_bool(&w, 0);
    sq_jw_arr_end(&w);
    assert_string_equal(sq_buf_str(&b), "[0.5,null,null,-2,null,\"xy\",false]");
    sq_buf_free(&b);
}

/* ------------------------------------------------------------------ */
/* Diagnostics                                                         */
/* ------------------------------------------------------------------ */

/* One source set and diagnostic list per test. */
typedef struct DiagFixture {
    SqSrcSet srcs;
    SqDiags diags;
    SqBuf out;
} DiagFixture;

static int diag_setup(void **state) {
    DiagFixture *f = calloc(1, sizeof *f);
    sq_srcset_init(&f->srcs);
    sq_diags_init(&f->diags, &f->srcs);
    *state = f;
    return 0;
}

static int diag_teardown(void **state) {
    DiagFixture *f = *state;
    sq_buf_free(&f->out);
    sq_diags_free(&f->diags);
    sq_srcset_free(&f->srcs);
    free(f);
    return 0;
}

static uint32_t add_src(DiagFixture *f, const char *name, const char *text) {
    return sq_src_add_copy(&f->srcs, name, text, strlen(text))->id;
}

static const char *render_text(DiagFixture *f, const SqDiag *g) {
    sq_buf_reset(&f->out);
    sq_diag_render_text(&f->diags, g, &f->out, 0);
    return sq_buf_str(&f->out);
}

static void diag_codes_have_slug_and_summary(void **state) {
    (void)state;
    assert_string_equal(sq_diag_code(SQ_E_SYNTAX), "E0103");
    assert_string_equal(sq_diag_slug(SQ_E_SYNTAX), "syntax-error");
    assert_string_equal(sq_diag_summary(SQ_E_SYNTAX),
                        "a token that the grammar does not allow at this point");
    assert_string_equal(sq_diag_code(SQ_W_COMMENT), "W0101");
}

static void diag_add_counts_errors_and_warnings(void **state) {
    DiagFixture *f = *state;
    SrcSpan none = sq_span(0, 0, 0);
    SqDiag *g = sq_diag_add(&f->diags, SQ_SEV_ERROR, SQ_E_SYNTAX, none, "near %s", "\"x\"");
    sq_diag_add(&f->diags, SQ_SEV_WARNING, SQ_W_COMMENT, none, "w");
    sq_diag_add(&f->diags, SQ_SEV_NOTE, SQ_N_IGNORED, none, "n");
    sq_diag_add_named(&f->diags, SQ_SEV_ERROR, "my-rule", none, "e%d", 2);
    assert_int_equal(f->diags.n, 4);
    assert_int_equal(f->diags.n_errors, 2);
    assert_int_equal(f->diags.n_warnings, 1);
    assert_string_equal(g->msg, "near \"x\"");
    assert_string_equal(g->code, "E0103");
    assert_string_equal(f->diags.items[3]->code, "my-rule");
}

static void diag_text_for_span_on_line_one(void **state) {
    DiagFixture *f = *state;
    uint32_t id = add_src(f, "q.sql", "SELECT * FORM t;\n");
    SqDiag *g = sq_diag_add(&f->diags, SQ_SEV_ERROR, SQ_E_SYNTAX, sq_span(id, 9, 13),
                            "near \"FORM\": syntax error");
    assert_string_equal(render_text(f, g),
                        "q.sql:1:10: error[E0103]: near \"FORM\": syntax error\n"
                        " 1 | SELECT * FORM t;\n"
                        "   |          ^~~~\n");
}

static void diag_text_for_span_in_middle_of_line_two(void **state) {
    DiagFixture *f = *state;
    uint32_t id = add_src(f, "q.sql", "SELECT a\r\nFROM t WHRE x = 1\r\n");
    SqDiag *g = sq_diag_add(&f->diags, SQ_SEV_ERROR, SQ_E_SYNTAX, sq_span(id, 17, 21),
                            "near \"WHRE\": syntax error");
    assert_string_equal(render_text(f, g),
                        "q.sql:2:8: error[E0103]: near \"WHRE\": syntax error\n"
                        " 2 | FROM t WHRE x = 1\n"
                        "   |        ^~~~\n");
}

static void diag_text_gutter_widens_with_line_number(void **state) {
    DiagFixture *f = *state;
    uint32_t id = add_src(f, "q.sql", "\n\n\n\n\n\n\n\n\n\tx y\n");
    SqDiag *g = sq_diag_add(&f->diags, SQ_SEV_WARNING, SQ_W_COMMENT, sq_span(id, 12, 13), "w");
    assert_string_equal(render_text(f, g),
                        "q.sql:10:4: warning[W0101]: w\n"
                        " 10 |  x y\n"   /* a tab shows as one space */
                        "    |    ^\n");
}

/* The header counts bytes; the underline counts characters, and control
** bytes show as '?' so that the caret stays aligned. */
static void diag_text_aligns_caret_by_characters(void **state) {
    DiagFixture *f = *state;
    uint32_t id = add_src(f, "q.sql", "SELECT '\xC3\xA9\x01' FORM");
    SqDiag *g = sq_diag_add(&f->diags, SQ_SEV_ERROR, SQ_E_SYNTAX, sq_span(id, 13, 17), "m");
    assert_string_equal(render_text(f, g),
                        "q.sql:1:14: error[E0103]: m\n"
                        " 1 | SELECT '\xC3\xA9?' FORM\n"
                        "   |             ^~~~\n");
}

static void diag_text_renders_notes_and_help(void **state) {
    DiagFixture *f = *state;
    uint32_t id = add_src(f, "q.sql", "SELECT (1");
    SqDiag *g = sq_diag_add(&f->diags, SQ_SEV_ERROR, SQ_E_INCOMPLETE, sq_span(id, 9, 9),
                            "incomplete input");
    sq_diag_note(g, sq_span(id, 7, 8), "'(' opened here");
    sq_diag_note(g, sq_span(0, 0, 0), "no location");
    sq_diag_help(g, "add %s", "')'");
    assert_string_equal(render_text(f, g),
                        "q.sql:1:10: error[E0104]: incomplete input\n"
                        " 1 | SELECT (1\n"
                        "   |          ^\n"
                        "q.sql:1:8: note: '(' opened here\n"
                        " 1 | SELECT (1\n"
                        "   |        ^\n"
                        "squint: note: no location\n"
                        "  = help: add ')'\n");
}

static void diag_text_without_location(void **state) {
    DiagFixture *f = *state;
    SqDiag *g = sq_diag_add(&f->diags, SQ_SEV_ERROR, SQ_E_IO, sq_span(0, 0, 0),
                            "cannot read 'x.sql'");
    assert_string_equal(render_text(f, g), "squint: error[E0001]: cannot read 'x.sql'\n");
}

/* Over 120 columns the line is cut to a window: 40 columns before the
** caret and 120 in all, with "..." on each cut side. */
static void diag_text_windows_very_long_line(void **state) {
    DiagFixture *f = *state;
    char line[301];
    for (int i = 0; i < 300; i++) line[i] = (char)('a' + i % 26);
    line[300] = 0;
    uint32_t id = add_src(f, "long.sql", line);
    SqDiag *g = sq_diag_add(&f->diags, SQ_SEV_ERROR, SQ_E_SYNTAX, sq_span(id, 200, 203), "m");
    SqBuf want = SQ_BUF_INIT;
    sq_buf_puts(&want, "long.sql:1:201: error[E0103]: m\n 1 | ...");
    sq_buf_put(&want, line + 160, 120);
    sq_buf_puts(&want, "...\n   |    ");
    sq_buf_repeat(&want, ' ', 40);
    sq_buf_puts(&want, "^~~\n");
    assert_string_equal(render_text(f, g), sq_buf_str(&want));
    sq_buf_free(&want);
}

/* Stray continuation bytes count one column each and show as '?'; the
** window must still hold the caret. */
static void diag_text_window_holds_caret_in_invalid_utf8(void **state) {
    DiagFixture *f = *state;
    char line[301];
    memset(line, 0x80, 300);
    line[300] = 0;
    uint32_t id = add_src(f, "bad.sql", line);
    SqDiag *g = sq_diag_add(&f->diags, SQ_SEV_ERROR, SQ_E_TOKEN, sq_span(id, 200, 201), "m");
    SqBuf want = SQ_BUF_INIT;
    sq_buf_puts(&want, "bad.sql:1:201: error[E0101]: m\n 1 | ...");
    sq_buf_repeat(&want, '?', 120);
    sq_buf_puts(&want, "...\n   |    ");
    sq_buf_repeat(&want, ' ', 40);
    sq_buf_puts(&want, "^\n");
    assert_string_equal(render_text(f, g), sq_buf_str(&want));
    sq_buf_free(&want);
}

static void diag_text_names_parent_file_of_embedded_source(void **state) {
    DiagFixture *f = *state;
    SqSrc *child = add_embedded(&f->srcs, "question_id 12");
    SqDiag *g = sq_diag_add(&f->diags, SQ_SEV_ERROR, SQ_E_SYNTAX, sq_span(child->id, 9, 13),
                            "near \"FROM\"");
    assert_string_equal(render_text(f, g),
                        "dev.json:2:20: error[E0103]: near \"FROM\" [question_id 12]\n"
                        " 2 |   {\"q\": \"SELECT a\\nFROM t\"}\n"
                        "   |                    ^~~~\n");
}

/* Messages quote user text; no message grows with it. */

/* Whether s[0..n) is valid UTF-8 (the cut never splits a character). */
static int valid_utf8(const char *s, size_t n) {
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)s[i];
        size_t k = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3
                 : (c & 0xF8) == 0xF0 ? 4 : 0;
        if (k == 0 || i + k > n) return 0;
        for (size_t j = 1; j < k; j++)
            if (((unsigned char)s[i + j] & 0xC0) != 0x80) return 0;
        i += k;
    }
    return 1;
}

static void diag_message_cuts_a_long_name_in_the_middle(void **state) {
    DiagFixture *f = *state;
    SqBuf name = SQ_BUF_INIT, want = SQ_BUF_INIT;
    sq_buf_puts(&name, "head");
    sq_buf_repeat(&name, 'a', 1u << 20);
    sq_buf_puts(&name, "tail");
    SqDiag *g = sq_diag_add(&f->diags, SQ_SEV_ERROR, SQ_E_NO_COLUMN, sq_span(0, 0, 0),
                            "no such column: %s", sq_buf_str(&name));
    sq_diag_note(g, sq_span(0, 0, 0), "'%s' is declared here", sq_buf_str(&name));
    sq_diag_help(g, "quote it: \"%.*s\"", (int)name.len, name.data);
    /* 64 characters: the first 41, "...", the last 20 */
    sq_buf_puts(&want, "no such column: head");
    sq_buf_repeat(&want, 'a', 37);
    sq_buf_puts(&want, "...");
    sq_buf_repeat(&want, 'a', 16);
    sq_buf_puts(&want, "tail");
    assert_string_equal(g->msg, sq_buf_str(&want));
    /* the quotes belong to the run that is cut */
    assert_int_equal(strlen(g->notes[0].msg), SQ_DIAG_QUOTE_MAX + strlen(" is declared here"));
    assert_true(strncmp(g->notes[0].msg, "'heada", 6) == 0);
    assert_int_equal(strlen(g->help), strlen("quote it: ") + SQ_DIAG_QUOTE_MAX);
    assert_non_null(strstr(g->help, "aaatail\""));
    sq_buf_free(&name);
    sq_buf_free(&want);
}

static void diag_message_keeps_words_up_to_the_limit(void **state) {
    DiagFixture *f = *state;
    char word[SQ_DIAG_QUOTE_MAX + 2];
    memset(word, 'w', SQ_DIAG_QUOTE_MAX);
    word[SQ_DIAG_QUOTE_MAX] = 0;
    SqDiag *g = sq_diag_add(&f->diags, SQ_SEV_ERROR, SQ_E_NO_COLUMN, sq_span(0, 0, 0),
                            "x %s y", word);
    assert_int_equal(strlen(g->msg), SQ_DIAG_QUOTE_MAX + 4); /* untouched */
    strcat(word, "w");
    g = sq_diag_add(&f->diags, SQ_SEV_ERROR, SQ_E_NO_COLUMN, sq_span(0, 0, 0), "x %s y", word);
    assert_int_equal(strlen(g->msg), SQ_DIAG_QUOTE_MAX + 4); /* cut to the limit */
    assert_non_null(strstr(g->msg, "w...w"));
    /* a message composed of short words stays whole */
    const char *prose = "d can go: nothing reads d outside its ON condition, and d.id is a "
                        "key of dept, so each row matches at most one row of d";
    g = sq_diag_add(&f->diags, SQ_SEV_WARNING, SQ_E_NO_COLUMN, sq_span(0, 0, 0), "%s", prose);
    assert_string_equal(g->msg, prose);
}

static void diag_message_cuts_on_utf8_boundaries(void **state) {
    DiagFixture *f = *state;
    SqBuf name = SQ_BUF_INIT;
    for (int i = 0; i < 100000; i++) sq_buf_puts(&name, i % 2 ? "\xC3\xA9" : "\xE2\x82\xAC");
    SqDiag *g = sq_diag_add(&f->diags, SQ_SEV_ERROR, SQ_E_NO_TABLE, sq_span(0, 0, 0),
                            "no such table: %s", sq_buf_str(&name));
    assert_true(valid_utf8(g->msg, strlen(g->msg)));
    assert_true(strlen(g->msg) <= strlen("no such table: ") + 3 * SQ_DIAG_QUOTE_MAX);
    assert_non_null(strstr(g->msg, "..."));
    sq_buf_free(&name);
}

/* A long text with blanks in it (a string literal) is cut at the end. */
static void diag_message_is_capped(void **state) {
    DiagFixture *f = *state;
    SqBuf text = SQ_BUF_INIT;
    for (int i = 0; i < 200000; i++) sq_buf_puts(&text, "\xC3\xA9t\xC3\xA9 ");
    SqDiag *g = sq_diag_add(&f->diags, SQ_SEV_INFO, SQ_E_NO_TABLE, sq_span(0, 0, 0),
                            "literal '%s' never occurs", sq_buf_str(&text));
    size_t n = strlen(g->msg);
    assert_true(n <= SQ_DIAG_MSG_MAX);
    assert_true(valid_utf8(g->msg, n));
    assert_string_equal(g->msg + n - 3, "...");
    sq_buf_free(&text);
}

/* A diagnostic on a line of 4 MB: the excerpt is a window around the caret. */
static void diag_text_on_a_huge_line_is_short(void **state) {
    DiagFixture *f = *state;
    SqBuf line = SQ_BUF_INIT;
    sq_buf_puts(&line, "SELECT ");
    sq_buf_repeat(&line, 'a', 4u << 20);
    sq_buf_puts(&line, " FROM t");
    uint32_t id = add_src(f, "big.sql", sq_buf_str(&line));
    size_t at = line.len - 4; /* "t" */
    SqDiag *g = sq_diag_add(&f->diags, SQ_SEV_ERROR, SQ_E_NO_TABLE,
                            sq_span(id, (uint32_t)at, (uint32_t)at + 1), "no such table: t");
    const char *out = render_text(f, g);
    assert_true(strlen(out) < 400);
    assert_non_null(strstr(out, "aaa FROM t\n"));
    sq_buf_free(&line);
}

static void diag_json_has_severity_code_message_location(void **state) {
    DiagFixture *f = *state;
    uint32_t id = add_src(f, "q.sql", "SELECT * FORM t;\n");
    SqDiag *g = sq_diag_add(&f->diags, SQ_SEV_ERROR, SQ_E_SYNTAX, sq_span(id, 9, 13),
                            "near \"FORM\": syntax error");
    sq_diag_note(g, sq_span(id, 0, 6), "statement");
    sq_diag_help(g, "did you mean FROM?");
    SqJsonWriter w;
    sq_jw_init(&w, &f->out, 0);
    sq_diag_render_json(&f->diags, g, &w);
    assert_string_equal(sq_buf_str(&f->out),
        "{\"severity\":\"error\",\"code\":\"E0103\","
        "\"message\":\"near \\\"FORM\\\": syntax error\","
        "\"location\":{\"file\":\"q.sql\",\"line\":1,\"column\":10,\"end_line\":1,"
        "\"end_column\":14,\"offset\":9,\"length\":4},"
        "\"notes\":[{\"message\":\"statement\",\"location\":{\"file\":\"q.sql\","
        "\"line\":1,\"column\":1,\"end_line\":1,\"end_column\":7,\"offset\":0,\"length\":6}}],"
        "\"help\":\"did you mean FROM?\"}");
}

static void diag_json_without_location_is_null(void **state) {
    DiagFixture *f = *state;
    SqDiag *g = sq_diag_add(&f->diags, SQ_SEV_WARNING, SQ_W_COMMENT, sq_span(0, 0, 0), "w");
    SqJsonWriter w;
    sq_jw_init(&w, &f->out, 0);
    sq_diag_render_json(&f->diags, g, &w);
    assert_string_equal(sq_buf_str(&f->out),
                        "{\"severity\":\"warning\",\"code\":\"W0101\",\"message\":\"w\","
                        "\"location\":null,\"notes\":[]}");
}

#define DIAG_TEST(fn) cmocka_unit_test_setup_teardown(fn, diag_setup, diag_teardown)

/* ------------------------------------------------------------------ */
/* Safe writing                                                        */
/* ------------------------------------------------------------------ */

static void path_in(char *out, size_t size, const char *dir, const char *name) {
    snprintf(out, size, "%s/%s", dir, name);
}

static void write_text(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* One file by other names; replacement keeps the mode and leaves no
** temporary file; a target that cannot take the file is told up front. */
static void safe_writes(void **state) {
    (void)state;
    char dir[64] = "/tmp/sq_test_safewrite_XXXXXX", a[128], sym[128], hard[128], other[128], missing[128];
    assert_non_null(mkdtemp(dir));
    path_in(a, sizeof a, dir, "a.txt");
    path_in(sym, sizeof sym, dir, "link.txt");
    path_in(hard, sizeof hard, dir, "hard.txt");
    path_in(other, sizeof other, dir, "other.txt");
    path_in(missing, sizeof missing, dir, "no/such/dir/x.txt");
    write_text(a, "one");
    write_text(other, "one");
    assert_int_equal(symlink(a, sym), 0);
    assert_int_equal(link(a, hard), 0);
    assert_true(sq_same_file(a, sym));
    assert_true(sq_same_file(hard, sym));
    assert_false(sq_same_file(a, other));
    assert_false(sq_same_file(a, missing));
    int err = 0;
    assert_int_equal(chmod(a, 0600), 0);
    assert_int_equal(sq_write_replace(a, "two", 3, &err), 0);
    size_t len;
    char *text = sq_read_file(a, &len, &err);
    assert_string_equal(text, "two");
    free(text);
    struct stat st;
    assert_int_equal(stat(a, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);
    assert_int_equal(sq_check_writable(missing, &err), -1);
    assert_int_equal(err, ENOENT);
    assert_int_equal(sq_write_replace(missing, "x", 1, &err), -1);
    assert_int_equal(sq_check_writable(dir, &err), -1);
    assert_int_equal(err, EISDIR);
    assert_true(sq_path_is_special(dir));
    assert_false(sq_path_is_special(a));
    assert_int_equal(sq_check_writable(other, &err), 0);
    /* a command's output: never an input (by any name), an existing file
    ** only when forced */
    SqOutInput in[] = {{a, "--db"}};
    SqBuf why = SQ_BUF_INIT;
    assert_int_equal(sq_out_check(sym, 1, in, 1, &why), -1);
    assert_non_null(strstr(sq_buf_str(&why), "input of this run (--db)"));
    assert_ptr_equal(sq_out_input_of(sym, in, 1), &in[0]); /* (hard is the old a: replaced by a rename) */
    assert_null(sq_out_input_of(other, in, 1));
    sq_buf_reset(&why);
    assert_int_equal(sq_out_check(other, 0, in, 1, &why), -1);
    assert_non_null(strstr(sq_buf_str(&why), "pass --force"));
    assert_int_equal(sq_out_check(other, 1, in, 1, &why), 0);
    assert_int_equal(sq_out_check(dir, 1, in, 1, &why), -1);
    sq_buf_free(&why);
    char *tmp = sq_temp_beside(other, &err);
    assert_non_null(tmp);
    assert_int_equal(unlink(tmp), 0);
    free(tmp);
    /* nothing but the files made here is left in the directory */
    char cmd[200];
    snprintf(cmd, sizeof cmd, "test $(ls -A '%s' | wc -l) = 4", dir);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* Whether a file holds a text: equal, a size apart, a byte apart past the
** first block, missing, a directory; the head comes back either way. */
static void file_holds_compares_and_gives_the_head(void **state) {
    (void)state;
    char dir[64] = "/tmp/sq_test_holds_XXXXXX", a[128], missing[128];
    assert_non_null(mkdtemp(dir));
    path_in(a, sizeof a, dir, "a.txt");
    path_in(missing, sizeof missing, dir, "missing.txt");
    size_t n = 100000;   /* several of the reader's blocks */
    char *text = sq_malloc(n + 1);
    for (size_t i = 0; i < n; i++) text[i] = (char)('a' + i % 26);
    text[n] = 0;
    write_text(a, text);
    char head[8];
    int err = -1;
    assert_int_equal(sq_file_holds(a, text, n, head, sizeof head, &err), 1);
    assert_string_equal(head, "abcdefg");
    assert_int_equal(sq_file_holds(a, text, n - 1, NULL, 0, &err), 0);   /* shorter */
    text[n - 5] = '#';                                                  /* last block differs */
    assert_int_equal(sq_file_holds(a, text, n, head, sizeof head, &err), 0);
    assert_string_equal(head, "abcdefg");
    text[n - 5] = 'z';
    text[3] = '#';                                                      /* first block differs */
    assert_int_equal(sq_file_holds(a, text, n, NULL, 0, &err), 0);
    assert_int_equal(sq_file_holds(missing, text, n, head, sizeof head, &err), -1);
    assert_int_equal(err, ENOENT);
    assert_string_equal(head, "");
    assert_int_equal(sq_file_holds(dir, "", 0, head, sizeof head, &err), 0);
    write_text(a, "");
    assert_int_equal(sq_file_holds(a, "", 0, head, sizeof head, &err), 1);
    assert_int_equal(sq_file_holds(a, "x", 1, head, sizeof head, &err), 0);
    free(text);
    unlink(a);
    rmdir(dir);
}

typedef struct TaskProbe {
    const char *text;
    size_t len;
    SqBuf out;
} TaskProbe;

static void task_copies(void *arg) {
    TaskProbe *p = arg;
    for (int i = 0; i < 1000; i++) sq_buf_puts(&p->out, p->text);
    p->len = p->out.len;
}

/* A task has run to its end when sq_task_join returns, while the caller
** did its own work meanwhile; NULL joins. */
static void task_runs_and_joins(void **state) {
    (void)state;
    TaskProbe p = {"abc", 0, SQ_BUF_INIT};
    SqTask *t = sq_task_start(task_copies, &p);
    SqBuf mine = SQ_BUF_INIT;
    for (int i = 0; i < 1000; i++) sq_buf_puts(&mine, "xy");
    sq_task_join(t);
    assert_int_equal(p.len, 3000);
    assert_int_equal(p.out.len, 3000);
    assert_int_equal(mine.len, 2000);
    sq_buf_free(&p.out);
    sq_buf_free(&mine);
    sq_task_join(NULL);
}


/* FIPS 180-4's examples, and one message fed in uneven pieces: the
** digest must not depend on how update() was called. */
static void sha256_known_digests(void **state) {
    (void)state;
    char hex[SQ_SHA256_HEX];
    sq_sha256_hex("", 0, hex);
    assert_string_equal(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    sq_sha256_hex("abc", 3, hex);
    assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    sq_sha256_hex(two, strlen(two), hex);
    assert_string_equal(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    size_t n = 1000000;
    char *a = malloc(n);
    memset(a, 'a', n);
    SqSha256 c;
    uint8_t d[SQ_SHA256_LEN];
    sq_sha256_init(&c);
    for (size_t at = 0, step = 1; at < n; at += step, step = step % 97 + 1)
        sq_sha256_update(&c, a + at, at + step <= n ? step : n - at);
    sq_sha256_final(&c, d);
    free(a);
    static const uint8_t want[4] = {0xcd, 0xc7, 0x6e, 0x5c};
    assert_memory_equal(d, want, 4);
    assert_int_equal(d[31], 0xd0);
}

/* Hex text to bytes: both cases, an odd length or a stray character
** refused. */
static void hex_decode(void **state) {
    (void)state;
    char out[8];
    assert_int_equal(sq_hex_decode("00fFa5", 6, out), 0);
    assert_memory_equal(out, "\x00\xff\xa5", 3);
    assert_int_equal(sq_hex_decode("", 0, out), 0);
    assert_int_equal(sq_hex_decode("abc", 3, out), -1);
    assert_int_equal(sq_hex_decode("0g", 2, out), -1);
}

static void check_normal(const char *cwd, const char *path, const char *want) {
    char *got = sq_path_normal(cwd, path);
    if (strcmp(got, want) != 0) print_error("sq_path_normal(%s, %s): got %s, want %s\n", cwd, path, got, want);
    assert_string_equal(got, want);
    free(got);
}

/* Paths by their text: normal forms, "below", and parents. */
static void path_helpers(void **state) {
    (void)state;
    check_normal("/r", "q.sql", "/r/q.sql");
    check_normal("/r/w", "../x//./y.sql", "/r/x/y.sql");
    check_normal("/r", "/abs/./a/../b", "/abs/b");
    check_normal("/", "..", "/");
    check_normal("/r", ".", "/r");
    assert_string_equal(sq_path_under("/r/w/q.sql", "/r"), "w/q.sql");
    assert_string_equal(sq_path_under("/x", "/"), "x");
    assert_null(sq_path_under("/rx/q.sql", "/r"));   /* a sibling sharing a prefix */
    assert_null(sq_path_under("/r", "/r"));          /* the base itself is not below it */
    assert_null(sq_path_under("/", "/"));
    char dir[32] = "/a/b";
    assert_true(sq_path_up(dir) && strcmp(dir, "/a") == 0);
    assert_true(sq_path_up(dir) && strcmp(dir, "/") == 0);
    assert_false(sq_path_up(dir));
    assert_true(sq_ends_with("Q.SQL", ".sql", 1) && !sq_ends_with("Q.SQL", ".sql", 0));
    assert_true(sq_starts_with("train_spider.json", "train") && !sq_starts_with("tr", "train"));
    char *low = sq_strdup_lower("SELECT T1.Name, \xc3\x89");
    assert_string_equal(low, "select t1.name, \xc3\x89"); /* ASCII only */
    free(low);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(arena_allocations_are_16_byte_aligned),
        cmocka_unit_test(arena_memory_is_zero_filled),
        cmocka_unit_test(arena_many_small_allocations_do_not_overlap),
        cmocka_unit_test(arena_sized_first_block_spills_over),
        cmocka_unit_test(arena_big_allocation_leaves_current_block_in_use),
        cmocka_unit_test(arena_reset_allows_reuse_with_zeroed_memory),
        cmocka_unit_test(arena_defer_runs_newest_first_on_reset),
        cmocka_unit_test(arena_defer_runs_on_free),
        cmocka_unit_test(arena_grow_keeps_contents),
        cmocka_unit_test(arena_big_list_grows_in_place),
        cmocka_unit_test(arena_reserve_is_exact),
        cmocka_unit_test(arena_strndup_and_printf),
        cmocka_unit_test(strbuf_appends_in_every_form),
        cmocka_unit_test(strbuf_keeps_embedded_nul_and_terminates),
        cmocka_unit_test(strbuf_reset_empties_but_keeps_storage),
        cmocka_unit_test(strbuf_detach_hands_over_the_string),
        cmocka_unit_test(strbuf_long_printf_grows),
        cmocka_unit_test(strbuf_printf_plain_and_other_formats_match_snprintf),
        cmocka_unit_test(intern_folds_ascii_case_only),
        cmocka_unit_test(intern_same_text_same_pointer),
        cmocka_unit_test(intern_many_names_survive_rehash),
        cmocka_unit_test(src_locate_gives_one_based_line_and_byte_column),
        cmocka_unit_test(src_locate_handles_crlf_and_clamps_past_end),
        cmocka_unit_test(src_empty_text_is_line_one),
        cmocka_unit_test(src_line_drops_newline_and_carriage_return),
        cmocka_unit_test(srcset_truncate_drops_later_sources),
        cmocka_unit_test(embedded_source_locates_in_parent_file),
        cmocka_unit_test(json_compact_output),
        cmocka_unit_test(json_pretty_output),
        cmocka_unit_test(json_escapes_quotes_backslash_and_controls),
        cmocka_unit_test(json_invalid_utf8_bytes_become_u00xx),
        cmocka_unit_test(json_valid_utf8_is_kept),
        cmocka_unit_test(json_long_array_has_every_comma),
        cmocka_unit_test(json_doubles_and_non_finite),
        cmocka_unit_test(diag_codes_have_slug_and_summary),
        cmocka_unit_test(safe_writes),
        cmocka_unit_test(file_holds_compares_and_gives_the_head),
        cmocka_unit_test(task_runs_and_joins),
        cmocka_unit_test(sha256_known_digests),
        cmocka_unit_test(hex_decode),
        cmocka_unit_test(path_helpers),
        DIAG_TEST(diag_add_counts_errors_and_warnings),
        DIAG_TEST(diag_text_for_span_on_line_one),
        DIAG_TEST(diag_text_for_span_in_middle_of_line_two),
        DIAG_TEST(diag_text_gutter_widens_with_line_number),
        DIAG_TEST(diag_text_aligns_caret_by_characters),
        DIAG_TEST(diag_text_renders_notes_and_help),
        DIAG_TEST(diag_text_without_location),
        DIAG_TEST(diag_text_windows_very_long_line),
        DIAG_TEST(diag_text_window_holds_caret_in_invalid_utf8),
        DIAG_TEST(diag_text_names_parent_file_of_embedded_source),
        DIAG_TEST(diag_message_cuts_a_long_name_in_the_middle),
        DIAG_TEST(diag_message_keeps_words_up_to_the_limit),
        DIAG_TEST(diag_message_cuts_on_utf8_boundaries),
        DIAG_TEST(diag_message_is_capped),
        DIAG_TEST(diag_text_on_a_huge_line_is_short),
        DIAG_TEST(diag_json_has_severity_code_message_location),
        DIAG_TEST(diag_json_without_location_is_null),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
