/*
** intern.c -- open-addressing hash set of folded identifiers.
**
** Layer: runtime.  Names are allocated from the interner's own arena; the
** slot table doubles when it is half full.
*/
#include "runtime/intern.h"

#include <stdlib.h>
#include <string.h>

#include "runtime/arena.h"
#include "runtime/util.h"

struct SqInterner {
    SqArena *arena;       /* owns every SqName */
    const SqName **slots; /* open addressing, NULL = empty */
    size_t n_slots;       /* power of two */
    size_t count;         /* names stored */
};

static uint32_t fold_hash(const char *s, size_t n) {
    uint32_t h = 2166136261u; /* FNV-1a over folded bytes */
    for (size_t i = 0; i < n; i++) {
        h ^= sq_ascii_lower((unsigned char)s[i]);
        h *= 16777619u;
    }
    return h;
}

static int fold_equal(const SqName *nm, const char *s, size_t n) {
    if (nm->len != n) return 0;
    for (size_t i = 0; i < n; i++)
        if (nm->text[i] != (char)sq_ascii_lower((unsigned char)s[i])) return 0;
    return 1;
}

SqInterner *sq_interner_new(void) {
    SqInterner *in = sq_calloc(1, sizeof *in);
    in->arena = sq_arena_new();
    in->n_slots = 256;
    in->slots = sq_calloc(in->n_slots, sizeof *in->slots);
    return in;
}

void sq_interner_free(SqInterner *in) {
    if (!in) return;
    sq_arena_free(in->arena);
    free(in->slots);
    free(in);
}

static void rehash(SqInterner *in) {
    size_t n = in->n_slots * 2;
    const SqName **slots = sq_calloc(n, sizeof *slots);
    for (size_t i = 0; i < in->n_slots; i++) {
        const SqName *nm = in->slots[i];
        if (!nm) continue;
        size_t j = nm->hash & (n - 1);
        while (slots[j]) j = (j + 1) & (n - 1);
        slots[j] = nm;
    }
    free(in->slots);
    in->slots = slots;
    in->n_slots = n;
}

const SqName *sq_intern(SqInterner *in, const char *s, size_t n) {
    uint32_t h = fold_hash(s, n);
    size_t mask = in->n_slots - 1, i = h & mask;
    for (; in->slots[i]; i = (i + 1) & mask) {
        const SqName *nm = in->slots[i];
        if (nm->hash == h && fold_equal(nm, s, n)) return nm;
    }
    SqName *nm = sq_arena_alloc(in->arena, sizeof *nm + n + 1);
    nm->hash = h;
    nm->len = (uint32_t)n;
    for (size_t k = 0; k < n; k++)
        nm->text[k] = (char)sq_ascii_lower((unsigned char)s[k]);
    nm->text[n] = 0;
    in->slots[i] = nm;
    if (++in->count * 2 > in->n_slots) rehash(in);
    return nm;
}

const SqName *sq_intern_cstr(SqInterner *in, const char *s) {
    return sq_intern(in, s, strlen(s));
}

size_t sq_interner_count(const SqInterner *in) { return in->count; }
