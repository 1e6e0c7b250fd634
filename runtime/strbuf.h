/*
** strbuf.h -- growable byte buffer used for every piece of generated text.
**
** Layer: runtime.  An SqBuf owns its heap storage; sq_buf_free() releases
** it and sq_buf_detach() hands it to the caller.  One made with
** SQ_BUF_IN(arena) takes its storage from the arena instead.  data is always
** NUL-terminated once anything has been appended.
*/
#ifndef SQ_STRBUF_H
#define SQ_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

#include "runtime/util.h"

struct SqArena;

typedef struct SqBuf {
    char *data; /* heap storage, NUL-terminated; NULL while empty */
    size_t len; /* bytes used, excluding the NUL */
    size_t cap; /* bytes allocated */
    struct SqArena *arena; /* when set: storage from this arena, which
                              owns it (sq_buf_free only forgets it) */
} SqBuf;

#define SQ_BUF_INIT {NULL, 0, 0, NULL}
/* A buffer whose storage the arena owns: for code that may be left by
** longjmp before it frees (passes/smt: only arena memory between a
** protect point and a throw).  Not for sq_buf_detach. */
#define SQ_BUF_IN(a) {NULL, 0, 0, (a)}

void sq_buf_free(SqBuf *b);
void sq_buf_reset(SqBuf *b); /* len = 0, keep storage */
char *sq_buf_detach(SqBuf *b); /* caller frees; buffer becomes empty */
void sq_buf_reserve(SqBuf *b, size_t extra);
void sq_buf_put(SqBuf *b, const char *s, size_t n);
void sq_buf_puts(SqBuf *b, const char *s);
void sq_buf_putc_grow(SqBuf *b, char c);
/* Appends c: inline, for the writers that go a character at a time. */
static inline void sq_buf_putc(SqBuf *b, char c) {
    if (b->len + 2 > b->cap) {
        sq_buf_putc_grow(b, c);
        return;
    }
    b->data[b->len++] = c;
    b->data[b->len] = 0;
}
void sq_buf_repeat(SqBuf *b, char c, size_t n);
void sq_buf_printf(SqBuf *b, const char *fmt, ...) SQ_PRINTF(2, 3);
void sq_buf_vprintf(SqBuf *b, const char *fmt, va_list ap);
const char *sq_buf_str(const SqBuf *b); /* "" when empty */

#endif
