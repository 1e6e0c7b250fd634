/*
** strmap.h -- a map from byte strings (compared exactly, case and all) to
** an int: the request ids `squint llm run` has seen, and what became of
** each.
**
** Layer: runtime.  Open addressing with linear probing, kept at most
** half full.  Keys are copied into the map's arena, so a caller's
** buffer may be reused at once; nothing is removed (a value can be
** changed through the pointer sq_strmap_put gives).
*/
#ifndef SQ_STRMAP_H
#define SQ_STRMAP_H

#include <stddef.h>

typedef struct SqStrMap SqStrMap;

SqStrMap *sq_strmap_new(void);
void sq_strmap_free(SqStrMap *m);

/* The value slot of key (its value 0 when the key is new); *is_new (may
** be NULL) says whether it was.  The pointer stays valid until the next
** put. */
int *sq_strmap_put(SqStrMap *m, const char *key, int *is_new);

/* The value slot of key, or NULL when the map does not hold it. */
int *sq_strmap_get(const SqStrMap *m, const char *key);

size_t sq_strmap_count(const SqStrMap *m);

#endif
