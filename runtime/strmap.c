/*
** strmap.c -- open addressing over a power-of-two table of slots; a slot
** holds the key's hash, the key (in the arena) and the value.  A key's
** hash is FNV-1a, mixed again so that the low bits index well.
*/
#include "runtime/strmap.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/arena.h"
#include "runtime/util.h"

typedef struct Slot {
    uint64_t hash;
    const char *key;    /* NULL: the slot is free */
    int value;
} Slot;

struct SqStrMap {
    SqArena *keys;      /* the keys' bytes */
    Slot *slots;
    size_t cap;         /* a power of two */
    size_t count;
};

static uint64_t hash_key(const char *s) {
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    for (; *s; s++) h = (h ^ (unsigned char)*s) * UINT64_C(0x100000001b3);
    return sq_mix64(h);
}

SqStrMap *sq_strmap_new(void) {
    SqStrMap *m = sq_calloc(1, sizeof *m);
    m->keys = sq_arena_new();
    m->cap = 64;
    m->slots = sq_calloc(m->cap, sizeof *m->slots);
    return m;
}

void sq_strmap_free(SqStrMap *m) {
    if (!m) return;
    sq_arena_free(m->keys);
    free(m->slots);
    free(m);
}

/* The slot that holds key or the free slot where it would go. */
static Slot *find(const SqStrMap *m, const char *key, uint64_t h) {
    size_t mask = m->cap - 1;
    for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
        Slot *s = &m->slots[i];
        if (!s->key || (s->hash == h && strcmp(s->key, key) == 0)) return s;
    }
}

static void grow(SqStrMap *m) {
    Slot *old = m->slots;
    size_t old_cap = m->cap;
    m->cap *= 2;
    m->slots = sq_calloc(m->cap, sizeof *m->slots);
    for (size_t i = 0; i < old_cap; i++)
        if (old[i].key) *find(m, old[i].key, old[i].hash) = old[i];
    free(old);
}

int *sq_strmap_put(SqStrMap *m, const char *key, int *is_new) {
    if (2 * (m->count + 1) > m->cap) grow(m);
    uint64_t h = hash_key(key);
    Slot *s = find(m, key, h);
    if (is_new) *is_new = s->key == NULL;
    if (!s->key) {
        s->key = sq_arena_strdup(m->keys, key);
        s->hash = h;
        s->value = 0;
        m->count++;
    }
    return &s->value;
}

int *sq_strmap_get(const SqStrMap *m, const char *key) {
    Slot *s = find(m, key, hash_key(key));
    return s->key ? &s->value : NULL;
}

size_t sq_strmap_count(const SqStrMap *m) { return m->count; }
