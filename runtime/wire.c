/*
** wire.c -- the flat binary encoding of wire.h.
*/
#include "runtime/wire.h"

#include <string.h>

/* A byte string's length is written as its length + 1; 0 stands for NULL. */

void sq_wire_put_u64(SqBuf *b, uint64_t v) { sq_buf_put(b, (const char *)&v, sizeof v); }

void sq_wire_put_f64(SqBuf *b, double v) { sq_buf_put(b, (const char *)&v, sizeof v); }

void sq_wire_put_bytes(SqBuf *b, const char *s, size_t n) {
    sq_wire_put_u64(b, s ? (uint64_t)n + 1 : 0);
    if (s) sq_buf_put(b, s, n);
}

void sq_wire_put_str(SqBuf *b, const char *s) { sq_wire_put_bytes(b, s, s ? strlen(s) : 0); }

void sq_wire_reader(SqWireReader *r, const char *data, size_t n) {
    r->p = data;
    r->end = data + n;
    r->bad = 0;
}

/* n bytes from the reader, or NULL (and bad) when fewer are left. */
static const char *take(SqWireReader *r, size_t n) {
    if (r->bad || (size_t)(r->end - r->p) < n) {
        r->bad = 1;
        return NULL;
    }
    const char *at = r->p;
    r->p += n;
    return at;
}

uint64_t sq_wire_u64(SqWireReader *r) {
    uint64_t v = 0;
    const char *at = take(r, sizeof v);
    if (at) memcpy(&v, at, sizeof v);
    return v;
}

double sq_wire_f64(SqWireReader *r) {
    double v = 0;
    const char *at = take(r, sizeof v);
    if (at) memcpy(&v, at, sizeof v);
    return v;
}

const char *sq_wire_bytes(SqWireReader *r, SqArena *a, size_t *n) {
    uint64_t len = sq_wire_u64(r);
    if (n) *n = 0;
    if (len == 0) return NULL;
    const char *at = len - 1 <= (uint64_t)(r->end - r->p) ? take(r, (size_t)(len - 1)) : take(r, SIZE_MAX);
    if (!at) return NULL;
    char *copy = sq_arena_alloc(a, (size_t)len);
    memcpy(copy, at, (size_t)(len - 1));
    copy[len - 1] = 0;
    if (n) *n = (size_t)(len - 1);
    return copy;
}
