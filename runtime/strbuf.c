/*
** strbuf.c -- growable byte buffer.
**
** Layer: runtime.  Capacity doubles; every append keeps a trailing NUL.
*/
#include "runtime/strbuf.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/arena.h"

void sq_buf_free(SqBuf *b) {
    if (!b->arena) free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

void sq_buf_reset(SqBuf *b) {
    b->len = 0;
    if (b->data) b->data[0] = 0;
}

char *sq_buf_detach(SqBuf *b) {
    assert(!b->arena); /* the arena owns that storage */
    char *d = b->data ? b->data : sq_strdup("");
    b->data = NULL;
    b->len = b->cap = 0;
    return d;
}

void sq_buf_reserve(SqBuf *b, size_t extra) {
    size_t need = b->len + extra + 1;
    if (need <= b->cap) return;
    size_t c = b->cap ? b->cap : 64;
    while (c < need) c *= 2;
    if (b->arena) {
        char *d = sq_arena_alloc(b->arena, c);
        if (b->data) memcpy(d, b->data, b->len + 1);
        b->data = d;
    } else {
        b->data = sq_realloc(b->data, c);
    }
    b->cap = c;
}

void sq_buf_put(SqBuf *b, const char *s, size_t n) {
    sq_buf_reserve(b, n);
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = 0;
}

void sq_buf_puts(SqBuf *b, const char *s) { sq_buf_put(b, s, strlen(s)); }

void sq_buf_putc(SqBuf *b, char c) {
    sq_buf_reserve(b, 1);
    b->data[b->len++] = c;
    b->data[b->len] = 0;
}

void sq_buf_repeat(SqBuf *b, char c, size_t n) {
    sq_buf_reserve(b, n);
    memset(b->data + b->len, c, n);
    b->len += n;
    b->data[b->len] = 0;
}

/* Formats into the free room first, and only when the text does not fit
** grows the buffer and formats again: most calls format once. */
void sq_buf_vprintf(SqBuf *b, const char *fmt, va_list ap) {
    if (!fmt) fmt = ""; /* tolerate NULL; also tells gcc it cannot be NULL */
    sq_buf_reserve(b, 64);
    va_list copy;
    va_copy(copy, ap);
    size_t room = b->cap - b->len;
    int n = vsnprintf(b->data + b->len, room, fmt, copy);
    va_end(copy);
    if (n <= 0) {
        b->data[b->len] = 0;
        return;
    }
    if ((size_t)n >= room) {
        sq_buf_reserve(b, (size_t)n);
        vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    }
    b->len += (size_t)n;
}

void sq_buf_printf(SqBuf *b, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    sq_buf_vprintf(b, fmt, ap);
    va_end(ap);
}

const char *sq_buf_str(const SqBuf *b) { return b->data ? b->data : ""; }
