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

void sq_buf_putc_grow(SqBuf *b, char c) {
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

/* Whether every conversion in fmt is one put_plain writes itself: %s and
** %c, and %d, %i, %u with no length or l, ll (and %zu), and %%; no flags,
** width or precision.  Most of squint's formats are, and vsnprintf costs
** several times more than writing them directly. */
static int is_plain_format(const char *fmt) {
    for (const char *p = strchr(fmt, '%'); p; p = strchr(p, '%')) {
        p++;
        if (*p == '%') {
            p++;
            continue;
        }
        int sized = *p == 'l' || *p == 'z';
        if (*p == 'z' && p[1] == 'u') p++;
        else if (*p == 'l') p += p[1] == 'l' ? 2 : 1;
        if (*p == 's' || *p == 'c') {
            if (sized) return 0;
        } else if (*p != 'd' && *p != 'i' && *p != 'u') {
            return 0;
        }
        p++;
    }
    return 1;
}

static void put_unsigned(SqBuf *b, unsigned long long v) {
    char t[24];
    size_t n = 0;
    do t[sizeof t - ++n] = (char)('0' + v % 10);
    while (v /= 10);
    sq_buf_put(b, t + sizeof t - n, n);
}

static void put_signed(SqBuf *b, long long v) {
    if (v < 0) sq_buf_putc(b, '-');
    put_unsigned(b, v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v);
}

/* Writes fmt, which is_plain_format accepted, as vsnprintf would. */
static void put_plain(SqBuf *b, const char *fmt, va_list ap) {
    for (const char *p = fmt; *p;) {
        const char *pct = strchr(p, '%');
        if (!pct) {
            sq_buf_puts(b, p);
            break;
        }
        if (pct > p) sq_buf_put(b, p, (size_t)(pct - p));
        p = pct + 1;
        int longs = 0, size = 0;
        if (*p == 'z') size = 1, p++;
        while (*p == 'l') longs++, p++;
        char conv = *p++;
        if (conv == '%') {
            sq_buf_putc(b, '%');
        } else if (conv == 's') {
            const char *str = va_arg(ap, const char *);
            sq_buf_puts(b, str ? str : "(null)");
        } else if (conv == 'c') {
            sq_buf_putc(b, (char)va_arg(ap, int));
        } else if (conv == 'u') {
            put_unsigned(b, size ? va_arg(ap, size_t)
                          : longs == 2 ? va_arg(ap, unsigned long long)
                          : longs ? va_arg(ap, unsigned long) : va_arg(ap, unsigned));
        } else {
            put_signed(b, longs == 2 ? va_arg(ap, long long) : longs ? va_arg(ap, long) : va_arg(ap, int));
        }
    }
}

/* A plain format is written directly (put_plain).  Any other is formatted
** into the free room first, and only when the text does not fit the
** buffer grows and it is formatted again: most calls format once. */
void sq_buf_vprintf(SqBuf *b, const char *fmt, va_list ap) {
    if (!fmt) fmt = ""; /* tolerate NULL; also tells gcc it cannot be NULL */
    if (is_plain_format(fmt)) {
        sq_buf_reserve(b, 0);   /* data NUL-terminated even when fmt writes nothing */
        put_plain(b, fmt, ap);
        return;
    }
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
