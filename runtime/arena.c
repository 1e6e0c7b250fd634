/*
** arena.c -- bump allocation over a chain of blocks.
**
** Layer: runtime.  Blocks grow geometrically up to 1 MiB; a request larger
** than a quarter block gets a block of its own so that big arrays do not
** waste the tail of the current one.
*/
#include "arena.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

#define ARENA_ALIGN 16
#define ARENA_FIRST_BLOCK 4096
#define ARENA_MAX_BLOCK (1u << 20)

typedef struct ArenaBlock {
    struct ArenaBlock *next; /* older block */
    size_t size;             /* usable bytes in data[] */
    size_t used;             /* bytes handed out from data[] */
    _Alignas(ARENA_ALIGN) unsigned char data[];
} ArenaBlock;

typedef struct ArenaCleanup {
    struct ArenaCleanup *next; /* older cleanup */
    void (*fn)(void *);
    void *arg;
} ArenaCleanup;

struct SqArena {
    ArenaBlock *head;       /* current block; owns the chain */
    ArenaBlock *first;      /* first block allocated, kept by reset */
    ArenaCleanup *cleanups; /* newest first; nodes live in the arena */
    size_t next_size;       /* size of the next block to allocate */
    size_t used;            /* total bytes handed out */
};

static ArenaBlock *block_new(size_t size, ArenaBlock *next) {
    ArenaBlock *b = sq_malloc(sizeof(ArenaBlock) + size);
    b->next = next;
    b->size = size;
    b->used = 0;
    return b;
}

SqArena *sq_arena_new(void) {
    SqArena *a = sq_calloc(1, sizeof *a);
    a->first = a->head = block_new(ARENA_FIRST_BLOCK, NULL);
    a->next_size = ARENA_FIRST_BLOCK * 2;
    return a;
}

static void run_cleanups(SqArena *a) {
    for (ArenaCleanup *c = a->cleanups; c; c = c->next) c->fn(c->arg);
    a->cleanups = NULL;
}

void sq_arena_reset(SqArena *a) {
    run_cleanups(a);
    ArenaBlock *b = a->head;
    while (b) { /* dedicated blocks may sit anywhere in the chain */
        ArenaBlock *older = b->next;
        if (b != a->first) free(b);
        b = older;
    }
    a->head = a->first;
    a->first->next = NULL;
    a->first->used = 0;
    a->next_size = ARENA_FIRST_BLOCK * 2;
    a->used = 0;
}

void sq_arena_free(SqArena *a) {
    if (!a) return;
    sq_arena_reset(a);
    free(a->first);
    free(a);
}

static size_t round_up(size_t n) {
    return (n + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
}

/* Big requests get a dedicated block linked behind the current one, so
** the current block keeps serving small requests. */
static void *alloc_dedicated(SqArena *a, size_t n) {
    ArenaBlock *b = block_new(n, a->head->next);
    b->used = n;
    a->head->next = b;
    return b->data;
}

void *sq_arena_alloc(SqArena *a, size_t n) {
    n = round_up(n ? n : 1);
    a->used += n;
    ArenaBlock *b = a->head;
    if (b->size - b->used < n) {
        if (n > ARENA_MAX_BLOCK / 4) {
            void *p = alloc_dedicated(a, n);
            memset(p, 0, n);
            return p;
        }
        size_t size = a->next_size;
        while (size < n) size *= 2;
        if (a->next_size < ARENA_MAX_BLOCK) a->next_size *= 2;
        b = a->head = block_new(size, a->head);
    }
    void *p = b->data + b->used;
    b->used += n;
    memset(p, 0, n);
    return p;
}

char *sq_arena_strndup(SqArena *a, const char *s, size_t n) {
    char *d = sq_arena_alloc(a, n + 1);
    memcpy(d, s, n);
    d[n] = 0;
    return d;
}

char *sq_arena_strdup(SqArena *a, const char *s) {
    return sq_arena_strndup(a, s, strlen(s));
}

char *sq_arena_printf(SqArena *a, const char *fmt, ...) {
    if (!fmt) fmt = ""; /* tolerate NULL; also tells gcc it cannot be NULL */
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *d = sq_arena_alloc(a, (size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(d, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return d;
}

void *sq_arena_grow(SqArena *a, void *old, size_t n, size_t *cap,
                    size_t need, size_t sz) {
    if (need <= *cap) return old;
    size_t c = *cap ? *cap * 2 : 4;
    while (c < need) c *= 2;
    void *p = sq_arena_alloc(a, c * sz);
    if (n) memcpy(p, old, n * sz);
    *cap = c;
    return p;
}

void *sq_arena_push(SqArena *a, void *items, uint32_t n, uint32_t *cap,
                    size_t sz) {
    if (n < *cap) {
        memset((char *)items + (size_t)n * sz, 0, sz);
        return items;
    }
    size_t c = *cap;
    void *p = sq_arena_grow(a, items, n, &c, (size_t)n + 1, sz);
    *cap = (uint32_t)c;
    return p;
}

void sq_arena_defer(SqArena *a, void (*fn)(void *), void *arg) {
    ArenaCleanup *c = sq_arena_alloc(a, sizeof *c);
    c->fn = fn;
    c->arg = arg;
    c->next = a->cleanups;
    a->cleanups = c;
}

size_t sq_arena_used(const SqArena *a) { return a->used; }
