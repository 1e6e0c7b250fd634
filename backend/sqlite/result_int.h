/*
** result_int.h -- what value.c, result.c and spider.c share to compare
** results: value hashing and sort keys, rows seen through a column order,
** the grouped-row machinery and the Spider comparison.
**
** Layer: backend/sqlite (private).  Private to value.c, result.c and
** spider.c; everything else uses result.h.  Nothing here owns memory
** except where a function says its caller frees the array it returns.
**
** Call graph between the three files: result.c hashes and compares values
** through value.c; spider.c uses value.c's hashes and sort keys and
** result.c's rows; result.c's entry points hand SQ_CMP_SPIDER to spider.c.
*/
#ifndef SQ_RESULT_INT_H
#define SQ_RESULT_INT_H

#include <stddef.h>
#include <stdint.h>

#include "backend/sqlite/result.h"
#include "runtime/util.h"

/* ---- values (value.c) ------------------------------------------------ */

/* Byte-wise order of two byte strings: -1, 0 or 1. */
int res_cmp_bytes(const char *a, size_t na, const char *b, size_t nb);

/* Equal values (sq_value_equal) hash equal: an integral REAL hashes as
** the INTEGER it equals. */
uint64_t res_value_hash(const SqValue *v);

/* Length of the well-formed UTF-8 sequence at s (n > 0 bytes), or 0. */
size_t res_utf8_seq_len(const unsigned char *s, size_t n);
/* s[0..n) is well-formed UTF-8 throughout. */
int res_utf8_valid(const char *s, uint32_t n);

/* Append str(x) + str(type(x)) for what Python's sqlite3 module returns:
** the sort key of the Spider script's unorder_row(). */
void res_py_sort_key(const SqValue *v, SqBuf *out);

/* ---- rows (result.c) ------------------------------------------------- */

/* A row seen through an optional column order. */
typedef struct RowRef {
    const SqValue *v;     /* the row's first cell */
    const uint32_t *perm; /* perm[k]: cell shown as column k; NULL = identity */
    uint64_t h;           /* row_hash(), once res_grouped_rows() computed it */
    uint32_t n;           /* columns */
} RowRef;

static inline RowRef row_ref(const SqResult *r, uint64_t row, const uint32_t *perm) {
    RowRef ref = {r->cells + row * r->n_cols, perm, 0, r->n_cols};
    return ref;
}

/* One step of a row hash: fold the hash v of the next value into h. */
static inline uint64_t prefix_step(uint64_t h, uint64_t v) {
    return sq_mix64(((h << 7) | (h >> 57)) ^ v);
}

/* Rows equal as Python's tuples: same length, equal values. */
int res_row_equal(const RowRef *a, const RowRef *b);

/* The rows of r in a canonical order for equality tests (see result.c).
** perms, when given, holds one column order of n_cols entries per row, or
** one for all rows when one_perm.  Caller frees. */
RowRef *res_grouped_rows(const SqResult *r, const uint32_t *perms, int one_perm);

/* Grouped rows a and b (n each) are equal position by position. */
int res_rows_all_equal(const RowRef *a, const RowRef *b, uint64_t n);

/* Set equality of a's rows and b's rows; pa and pb, when not NULL, hold
** one column order of n_cols entries per row. */
int res_set_equal_perms(const SqResult *a, const uint32_t *pa,
                        const SqResult *b, const uint32_t *pb);

/* "column counts differ: ..." or "row counts differ: ..." when they do;
** returns whether it wrote anything. */
int res_diff_counts(const SqResult *a, const SqResult *b, SqBuf *out);

/* ---- the Spider comparison (spider.c) -------------------------------- */

/* sq_result_equal and sq_result_diff for SQ_CMP_SPIDER (a is the gold
** result).  res_spider_diff appends the step that failed (nothing when
** the results are equal) and returns 1. */
int res_spider_equal(const SqResult *a, const SqResult *b, int ordered);
int res_spider_diff(const SqResult *a, const SqResult *b, int ordered, SqBuf *out);

#endif
