/*
** pytext.c -- Python's str.replace for the official scripts' reproductions
** (pytext.h).
*/
#include "backend/eval/pytext.h"

#include <string.h>

void sq_py_replace(SqBuf *out, const char *s, const char *from, const char *to) {
    size_t n = strlen(from);
    while (*s) {
        if (n && strncmp(s, from, n) == 0) {
            sq_buf_puts(out, to);
            s += n;
        } else {
            sq_buf_putc(out, *s++);
        }
    }
}
