/*
** arena.h -- region allocator: many small allocations, one free.
**
** Layer: runtime.  An SqArena owns every byte it hands out; nothing
** allocated from it is freed on its own.  A compilation unit (one statement,
** one file) gets an arena for its AST, scopes and IR, and drops all of it with
** sq_arena_reset() or sq_arena_free().  Foreign handles that must be closed
** with the arena register a cleanup with sq_arena_defer().
*/
#ifndef SQ_ARENA_H
#define SQ_ARENA_H

#include <stddef.h>
#include <stdint.h>

typedef struct SqArena SqArena;

SqArena *sq_arena_new(void);

/* An arena whose first block holds first_block bytes (at least 64): for
** the many arenas that stay small (a prepared statement's column names),
** where the usual 4 KiB each would be most of the process's memory. */
SqArena *sq_arena_new_sized(size_t first_block);
void sq_arena_free(SqArena *a);

/* Release everything allocated since creation (runs deferred cleanups,
** newest first) but keep the first block for reuse. */
void sq_arena_reset(SqArena *a);

/* Zero-filled memory aligned for any object; never returns NULL. */
void *sq_arena_alloc(SqArena *a, size_t n);
char *sq_arena_strndup(SqArena *a, const char *s, size_t n);
char *sq_arena_strdup(SqArena *a, const char *s);
char *sq_arena_printf(SqArena *a, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Grow an array that lives in the arena: returns storage for at least
** need elements of size sz, copying the old n elements when it moves. */
void *sq_arena_grow(SqArena *a, void *old, size_t n, size_t *cap,
                    size_t need, size_t sz);

/* The same with room for exactly need elements: for an array whose final
** size is known, so that it holds no unused tail. */
void *sq_arena_reserve(SqArena *a, void *old, size_t n, size_t *cap,
                       size_t need, size_t sz);
void *sq_arena_reserve32(SqArena *a, void *items, uint32_t n, uint32_t *cap,
                         uint32_t need, size_t sz);

/* Reserve room for need items in a list struct {T *items; uint32_t n, cap;}. */
#define SQ_ARENA_RESERVE(a, list, need) \
    ((list)->items = sq_arena_reserve32((a), (list)->items, (list)->n, &(list)->cap, \
                                        (need), sizeof *(list)->items))

/* Room for one more element at the end of an arena array whose count and
** capacity are uint32_t; returns the array (moved when it grew). */
void *sq_arena_push(SqArena *a, void *items, uint32_t n, uint32_t *cap,
                    size_t sz);

/* Append to the arena array arr with uint32_t count n and capacity cap
** (lvalues); evaluates to a pointer to the new, zeroed element. */
#define SQ_ARENA_APPEND(a, arr, n, cap) \
    ((arr) = sq_arena_push((a), (arr), (n), &(cap), sizeof *(arr)), &(arr)[(n)++])

/* The same for a list struct {T *items; uint32_t n, cap;}. */
#define SQ_ARENA_PUSH(a, list) SQ_ARENA_APPEND(a, (list)->items, (list)->n, (list)->cap)

/* Run fn(arg) when the arena is reset or freed. */
void sq_arena_defer(SqArena *a, void (*fn)(void *), void *arg);

/* Bytes handed out so far (for tests and memory reports). */
size_t sq_arena_used(const SqArena *a);

#endif
