/*
** arena.c -- bump allocation over a chain of blocks.
**
** Layer: runtime.  Blocks grow geometrically up to 1 MiB; a request larger
** than a quarter block gets a block of its own so that big arrays do not
** waste the tail of the current one.  An array grown with sq_arena_grow()
** that has a block of its own is resized in place (realloc), so a list of
** a million items leaves no trail of abandoned smaller copies behind it:
** the memory a statement holds stays proportional to what it uses.
*/
#include "runtime/arena.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/strbuf.h"
#include "runtime/util.h"

#define ARENA_ALIGN 16
#define ARENA_FIRST_BLOCK 4096
#define ARENA_MAX_BLOCK (1u << 20)

/* Under AddressSanitizer every small allocation is followed by poisoned
** bytes, so reading past an object (an expression node allocated at its
** kind's size, say) is caught as it would be with malloc. */
#if SQ_SANITIZED
#include <sanitizer/asan_interface.h>
#define ARENA_REDZONE 16
#else
#define ASAN_POISON_MEMORY_REGION(p, n) ((void)(p), (void)(n))
#define ASAN_UNPOISON_MEMORY_REGION(p, n) ((void)(p), (void)(n))
#define ARENA_REDZONE 0
#endif

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
    ArenaBlock *big;        /* dedicated blocks, one allocation each; owned */
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

SqArena *sq_arena_new_sized(size_t first_block) {
    SqArena *a = sq_calloc(1, sizeof *a);
    a->first = a->head = block_new(first_block < 64 ? 64 : first_block, NULL);
    a->next_size = ARENA_FIRST_BLOCK * 2;
    return a;
}

SqArena *sq_arena_new(void) { return sq_arena_new_sized(ARENA_FIRST_BLOCK); }

static void run_cleanups(SqArena *a) {
    for (ArenaCleanup *c = a->cleanups; c; c = c->next) c->fn(c->arg);
    a->cleanups = NULL;
}

static void free_chain(ArenaBlock *b, const ArenaBlock *keep) {
    while (b) {
        ArenaBlock *older = b->next;
        if (b != keep) free(b);
        b = older;
    }
}

void sq_arena_reset(SqArena *a) {
    run_cleanups(a);
    free_chain(a->head, a->first);
    free_chain(a->big, NULL);
    a->big = NULL;
    a->head = a->first;
    a->first->next = NULL;
    a->first->used = 0;
    ASAN_UNPOISON_MEMORY_REGION(a->first->data, a->first->size);
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

/* Whether an allocation of n bytes gets a block of its own. */
static int is_dedicated_size(size_t n) { return round_up(n) > ARENA_MAX_BLOCK / 4; }

/* Big requests get a dedicated block of their own, so the current block
** keeps serving small requests and the block can be resized in place. */
static void *alloc_dedicated(SqArena *a, size_t n) {
    ArenaBlock *b = block_new(n, a->big);
    b->used = n;
    a->big = b;
    return b->data;
}

/* The link that points at the dedicated block whose data is p, or NULL
** when p does not start one (a small array, or memory of another arena). */
static ArenaBlock **find_dedicated(SqArena *a, const void *p) {
    for (ArenaBlock **l = &a->big; *l; l = &(*l)->next)
        if ((*l)->data == p) return l;
    return NULL;
}

void *sq_arena_alloc(SqArena *a, size_t n) {
    size_t asked = n ? n : 1;
    n = round_up(asked);
    a->used += n;
    if (is_dedicated_size(n)) {
        void *p = alloc_dedicated(a, n);
        memset(p, 0, n);
        return p;
    }
    size_t room = n + ARENA_REDZONE;
    ArenaBlock *b = a->head;
    if (b->size - b->used < room) {
        size_t size = a->next_size;
        while (size < room) size *= 2;
        if (a->next_size < ARENA_MAX_BLOCK) a->next_size *= 2;
        b = a->head = block_new(size, a->head);
    }
    unsigned char *p = b->data + b->used;
    b->used += room;
    memset(p, 0, n);
    ASAN_POISON_MEMORY_REGION(p + asked, room - asked);
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
    SqBuf t = SQ_BUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    sq_buf_vprintf(&t, fmt, ap);   /* vsnprintf once, not twice, and most formats not at all */
    va_end(ap);
    char *d = sq_arena_alloc(a, t.len + 1);
    memcpy(d, sq_buf_str(&t), t.len + 1);
    sq_buf_free(&t);
    return d;
}

/* Resize the dedicated block at *link to hold n bytes, in place. */
static void *resize_dedicated(SqArena *a, ArenaBlock **link, size_t n) {
    ArenaBlock *b = *link;
    size_t old = b->size;
    b = sq_realloc(b, sizeof(ArenaBlock) + n);
    *link = b;
    memset(b->data + old, 0, n - old);
    a->used += n - old;
    b->size = b->used = n;
    return b->data;
}

/* Move an array of capacity cap (n elements used) to capacity c: in place
** when it has a block of its own, else to a new allocation. */
static void *resize_array(SqArena *a, void *old, size_t n, size_t cap, size_t c,
                          size_t sz) {
    ArenaBlock **link = old && is_dedicated_size(cap * sz) ? find_dedicated(a, old) : NULL;
    if (link) return resize_dedicated(a, link, round_up(c * sz));
    void *p = sq_arena_alloc(a, c * sz);
    if (n) memcpy(p, old, n * sz);
    return p;
}

/* Small arrays double, as usual; arrays with a block of their own grow by
** a quarter, since realloc makes growing them cheap (amortized, still
** linear) and their unused tail is memory the statement holds for
** nothing. */
void *sq_arena_grow(SqArena *a, void *old, size_t n, size_t *cap,
                    size_t need, size_t sz) {
    if (need <= *cap) return old;
    /* most lists hold one item: start with what fills one aligned unit */
    size_t c = *cap ? *cap : sz < ARENA_ALIGN ? ARENA_ALIGN / sz : 1;
    while (c < need) c = is_dedicated_size(c * sz) ? c + c / 4 + 1 : c * 2;
    void *p = resize_array(a, old, n, *cap, c, sz);
    *cap = c;
    return p;
}

void *sq_arena_reserve(SqArena *a, void *old, size_t n, size_t *cap,
                       size_t need, size_t sz) {
    if (need <= *cap) return old;
    void *p = resize_array(a, old, n, *cap, need, sz);
    *cap = need;
    return p;
}

void *sq_arena_reserve32(SqArena *a, void *items, uint32_t n, uint32_t *cap,
                         uint32_t need, size_t sz) {
    size_t c = *cap;
    void *p = sq_arena_reserve(a, items, n, &c, need, sz);
    *cap = (uint32_t)c;
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
