/*
** wire.h -- a flat binary encoding for handing data from a child process
** back to its parent (runtime/pool.h): integers, doubles and byte strings
** appended to an SqBuf, read back in the same order.
**
** Layer: runtime.  Both ends are the same binary on the same machine, so
** values go in host byte order with no versioning.  A reader never reads
** past its end: a short or malformed message sets `bad` and every later
** read gives zero or NULL, so the caller checks once, at the end.
*/
#ifndef SQ_WIRE_H
#define SQ_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "runtime/arena.h"
#include "runtime/strbuf.h"

void sq_wire_put_u64(SqBuf *b, uint64_t v);
void sq_wire_put_f64(SqBuf *b, double v);
/* n bytes, or NULL (read back as NULL, distinct from an empty string). */
void sq_wire_put_bytes(SqBuf *b, const char *s, size_t n);
/* A NUL-terminated string or NULL. */
void sq_wire_put_str(SqBuf *b, const char *s);

typedef struct SqWireReader {
    const char *p, *end;
    int bad; /* a read went past the end: the message is not whole */
} SqWireReader;

void sq_wire_reader(SqWireReader *r, const char *data, size_t n);
uint64_t sq_wire_u64(SqWireReader *r);
double sq_wire_f64(SqWireReader *r);
/* The next byte string, copied into a (with a NUL after it; *n its length
** when n is not NULL), or NULL when NULL was written. */
const char *sq_wire_bytes(SqWireReader *r, SqArena *a, size_t *n);

#endif
