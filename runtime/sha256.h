/*
** sha256.h -- SHA-256 (FIPS 180-4), for content-addressed keys: the
** disk cache of `squint llm run` names a reply by the digest of the
** request that asked for it.
**
** Layer: runtime.  No allocation; a context is a plain struct.  Written
** here rather than taken from a crypto library so that the only
** dependency of the HTTP client stays libcurl (docs/llm.md).
*/
#ifndef SQ_SHA256_H
#define SQ_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SQ_SHA256_LEN 32                     /* digest bytes */
#define SQ_SHA256_HEX (2 * SQ_SHA256_LEN + 1) /* hex digits and a NUL */

typedef struct SqSha256 {
    uint32_t h[8];          /* the chaining state */
    uint64_t total;         /* bytes hashed so far */
    uint8_t block[64];      /* a partial block */
    size_t fill;            /* bytes in block */
} SqSha256;

void sq_sha256_init(SqSha256 *c);
void sq_sha256_update(SqSha256 *c, const void *data, size_t n);
void sq_sha256_final(SqSha256 *c, uint8_t out[SQ_SHA256_LEN]);

/* The digest of data[0..n) as 64 lowercase hex digits. */
void sq_sha256_hex(const void *data, size_t n, char out[SQ_SHA256_HEX]);

#endif
