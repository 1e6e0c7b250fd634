/*
** util.h -- allocation wrappers and small helpers shared by every layer.
**
** Layer: runtime.  Takes nothing, gives checked malloc/realloc/strdup and a
** few byte-level predicates.  Out of memory is not a recoverable condition
** in squint: every allocation failure ends in sq_oom(), the one place that
** aborts the process (the library never calls exit()).
*/
#ifndef SQ_UTIL_H
#define SQ_UTIL_H

#include <stddef.h>
#include <stdint.h>

#define SQ_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* 1 in an AddressSanitizer build (gcc and clang say so differently): the
** arena poisons its gaps, a child process checks for leaks itself. */
#if defined(__SANITIZE_ADDRESS__)
#define SQ_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SQ_SANITIZED 1
#endif
#endif
#ifndef SQ_SANITIZED
#define SQ_SANITIZED 0
#endif
#define SQ_UNUSED(x) ((void)(x))

#if defined(__GNUC__)
#define SQ_NORETURN __attribute__((noreturn))
#define SQ_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define SQ_NORETURN
#define SQ_PRINTF(f, a)
#endif

/* Report out-of-memory on stderr and abort.  Never returns. */
SQ_NORETURN void sq_oom(void);

void *sq_malloc(size_t n);             /* never returns NULL */
/* Seconds on the monotonic clock: for deadlines and timing. */
double sq_monotonic_seconds(void);
void *sq_calloc(size_t n, size_t sz);  /* never returns NULL */
void *sq_realloc(void *p, size_t n);   /* never returns NULL */
char *sq_strdup(const char *s);
char *sq_strndup(const char *s, size_t n);

/* A unix time as UTC text "YYYY-MM-DD HH:MM:SS" (SQLite's datetime()). */
void sq_utc_text(int64_t unix_seconds, char out[20]);

/* ASCII-only case folding, as SQLite does for identifiers and keywords. */
static inline unsigned char sq_ascii_lower(unsigned char c) {
    return (c >= 'A' && c <= 'Z') ? (unsigned char)(c + 32) : c;
}
int sq_strnicmp(const char *a, const char *b, size_t n);
/* A heap copy of s in ASCII lower case (caller frees). */
char *sq_strdup_lower(const char *s);
int sq_stricmp(const char *a, const char *b);
/* Whether needle occurs in s, ASCII case ignored. */
int sq_contains_nocase(const char *s, const char *needle);
/* Whether s ends with tail (ASCII case ignored when nocase), or begins
** with head. */
int sq_ends_with(const char *s, const char *tail, int nocase);
int sq_starts_with(const char *s, const char *head);
/* Paths by their text (links are not followed): path made absolute
** against the absolute directory cwd, with "." and ".." parts and
** repeated slashes taken out (heap; caller frees); the part of the
** absolute path abs strictly below the absolute directory base, or NULL
** when it is not below (nor when it is base itself); dir (absolute, writable) cut to
** its parent, 0 when it is "/" already. */
char *sq_path_normal(const char *cwd, const char *path);
const char *sq_path_under(const char *abs, const char *base);
int sq_path_up(char *dir);
/* qsort's comparison of two const char * (strcmp order). */
int sq_cmp_cstr(const void *a, const void *b);

/* splitmix64: its finalizer, a fast 64-bit mix for hashing, and its
** generator, the next number of the sequence a seed starts (*state
** advances).  Seeded choices use the generator so that the same seed
** makes the same choices on every machine. */
static inline uint64_t sq_mix64(uint64_t x) {
    x ^= x >> 30;
    x *= UINT64_C(0xbf58476d1ce4e5b9);
    x ^= x >> 27;
    x *= UINT64_C(0x94d049bb133111eb);
    return x ^ (x >> 31);
}
static inline uint64_t sq_rand_next(uint64_t *state) {
    return sq_mix64(*state += UINT64_C(0x9e3779b97f4a7c15));
}

/* Decode hex[0..n) (pairs of hex digits, either case) into n/2 bytes at
** out (room for n/2).  0, or -1 when n is odd or a character is no hex
** digit (out then holds a prefix). */
int sq_hex_decode(const char *hex, size_t n, char *out);

/* Read a whole file into a fresh NUL-terminated buffer.  On failure returns
** NULL and stores errno in *err.  The caller frees the buffer. */
char *sq_read_file(const char *path, size_t *len, int *err);

/* Edits turning a[0..na) into b[0..nb): insertions, deletions,
** substitutions and swaps of two neighbours (a typo's usual kinds), ASCII
** case ignored.  Stops early and returns cap + 1 once every way needs
** more than cap edits ("did you mean" needs only the close ones). */
size_t sq_edit_distance(const char *a, size_t na, const char *b, size_t nb, size_t cap);

#endif
