/*
** jsonw.c -- streaming JSON writer.
**
** Layer: runtime.  The writer keeps one "has items" flag per open
** container to place commas; depth beyond SQ_JW_MAX_DEPTH is an internal
** error (callers bound their own recursion well below it).
*/
#include "runtime/jsonw.h"

#include <assert.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

void sq_jw_init(SqJsonWriter *w, SqBuf *out, int pretty) {
    memset(w, 0, sizeof *w);
    w->out = out;
    w->pretty = pretty;
}

static void newline_indent(SqJsonWriter *w) {
    if (!w->pretty) return;
    sq_buf_putc(w->out, '\n');
    sq_buf_repeat(w->out, ' ', (size_t)w->depth * 2);
}

/* Emit the separator that must precede a value or key at this point. */
static void before_item(SqJsonWriter *w) {
    if (w->after_key) {
        w->after_key = 0;
        return;
    }
    if (w->depth == 0) return;
    if (w->count[w->depth - 1]) sq_buf_putc(w->out, ',');
    w->count[w->depth - 1] = 1;
    newline_indent(w);
}

static void open(SqJsonWriter *w, char c) {
    before_item(w);
    sq_buf_putc(w->out, c);
    assert(w->depth < SQ_JW_MAX_DEPTH);
    w->count[w->depth++] = 0;
}

static void close(SqJsonWriter *w, char c) {
    assert(w->depth > 0);
    int had_items = w->count[--w->depth] != 0;
    if (had_items) newline_indent(w);
    sq_buf_putc(w->out, c);
}

void sq_jw_obj_begin(SqJsonWriter *w) { open(w, '{'); }
void sq_jw_obj_end(SqJsonWriter *w) { close(w, '}'); }
void sq_jw_arr_begin(SqJsonWriter *w) { open(w, '['); }
void sq_jw_arr_end(SqJsonWriter *w) { close(w, ']'); }

void sq_jw_key(SqJsonWriter *w, const char *key) {
    before_item(w);
    sq_json_escape(w->out, key, strlen(key));
    sq_buf_puts(w->out, w->pretty ? ": " : ":");
    w->after_key = 1;
}

/* Length of the valid UTF-8 sequence at s (at most n bytes), or 0. */
static size_t utf8_seq(const unsigned char *s, size_t n) {
    size_t k;
    uint32_t min;
    if (s[0] < 0x80) return 1;
    if ((s[0] & 0xE0) == 0xC0) { k = 2; min = 0x80; }
    else if ((s[0] & 0xF0) == 0xE0) { k = 3; min = 0x800; }
    else if ((s[0] & 0xF8) == 0xF0) { k = 4; min = 0x10000; }
    else return 0;
    if (k > n) return 0;
    uint32_t cp = s[0] & (0x7F >> k);
    for (size_t i = 1; i < k; i++) {
        if ((s[i] & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (s[i] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
    return k;
}

/* Whether byte c stands for itself inside a JSON string. */
static int json_plain(unsigned char c) { return c >= 0x20 && c < 0x7f && c != '"' && c != '\\'; }

void sq_json_escape(SqBuf *out, const char *str, size_t n) {
    const unsigned char *s = (const unsigned char *)str;
    sq_buf_putc(out, '"');
    for (size_t i = 0; i < n;) {
        size_t run = i;   /* plain ASCII is copied a run at a time */
        while (run < n && json_plain(s[run])) run++;
        if (run > i) {
            sq_buf_put(out, str + i, run - i);
            i = run;
            continue;
        }
        unsigned char c = s[i];
        size_t k = utf8_seq(s + i, n - i);
        if (k == 0) { /* invalid byte: keep it visible, stay valid JSON */
            sq_buf_printf(out, "\\u%04x", c);
            i++;
            continue;
        }
        if (k > 1) {
            sq_buf_put(out, (const char *)s + i, k);
            i += k;
            continue;
        }
        switch (c) {
        case '"': sq_buf_puts(out, "\\\""); break;
        case '\\': sq_buf_puts(out, "\\\\"); break;
        case '\n': sq_buf_puts(out, "\\n"); break;
        case '\r': sq_buf_puts(out, "\\r"); break;
        case '\t': sq_buf_puts(out, "\\t"); break;
        default:
            if (c < 0x20 || c == 0x7f) sq_buf_printf(out, "\\u%04x", c);
            else sq_buf_putc(out, (char)c);
        }
        i++;
    }
    sq_buf_putc(out, '"');
}

void sq_jw_strn(SqJsonWriter *w, const char *s, size_t n) {
    before_item(w);
    sq_json_escape(w->out, s, n);
}

void sq_jw_str(SqJsonWriter *w, const char *s) {
    if (!s) {
        sq_jw_null(w);
        return;
    }
    sq_jw_strn(w, s, strlen(s));
}

void sq_jw_int(SqJsonWriter *w, int64_t v) {
    before_item(w);
    sq_buf_printf(w->out, "%" PRId64, v);
}

void sq_jw_double(SqJsonWriter *w, double v) {
    before_item(w);
    if (isnan(v) || isinf(v)) sq_buf_puts(w->out, "null");
    else sq_buf_printf(w->out, "%.17g", v);
}

void sq_jw_bool(SqJsonWriter *w, int v) {
    before_item(w);
    sq_buf_puts(w->out, v ? "true" : "false");
}

void sq_jw_raw(SqJsonWriter *w, const char *token) {
    before_item(w);
    sq_buf_puts(w->out, token);
}

void sq_jw_null(SqJsonWriter *w) {
    before_item(w);
    sq_buf_puts(w->out, "null");
}
