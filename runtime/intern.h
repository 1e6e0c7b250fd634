/*
** intern.h -- case-insensitive identifier interning.
**
** Layer: runtime.  SQLite compares identifiers with ASCII case folding, so
** an SqName is the folded form of an identifier; two identifiers name the
** same thing exactly when their SqName pointers are equal.  The interner
** owns every SqName and frees them all together; names outlive the per-unit
** arenas so that a catalog and many queries can share them.
*/
#ifndef SQ_INTERN_H
#define SQ_INTERN_H

#include <stddef.h>
#include <stdint.h>

typedef struct SqName {
    uint32_t hash; /* hash of the folded text */
    uint32_t len;  /* bytes in text */
    char text[];   /* folded (ASCII lower-case) text, NUL-terminated */
} SqName;

typedef struct SqInterner SqInterner;

SqInterner *sq_interner_new(void);
void sq_interner_free(SqInterner *in);

/* The unique SqName for s[0..n) after ASCII case folding. */
const SqName *sq_intern(SqInterner *in, const char *s, size_t n);
const SqName *sq_intern_cstr(SqInterner *in, const char *s);

/* Number of distinct names held (for tests). */
size_t sq_interner_count(const SqInterner *in);

#endif
