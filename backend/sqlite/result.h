/*
** result.h -- query result sets and their comparison, as the benchmarks do it.
**
** Layer: backend/sqlite.  Takes rows of SQLite values (from db.c, or built
** by hand) and gives equality verdicts and a one-line description of the
** first difference.  Includes only runtime/; sqlite3.h is not needed here.
**
** Ownership: an SqResult owns an arena holding its column names and the
** bytes of its TEXT and BLOB values, and a heap array of cells;
** sq_result_free() releases all of it.  Copying the struct moves ownership.
**
** Values keep SQLite's five storage classes.  Two values are equal the way
** Python's == compares what the sqlite3 module returns, because squint must
** reproduce the official Spider and BIRD evaluation scripts exactly:
**   - INTEGER and REAL compare numerically and exactly (1 == 1.0, but the
**     int64 2^53+1 differs from the double 2^53); -0.0 == 0.0;
**   - TEXT compares byte-wise, BLOB compares byte-wise, TEXT never equals
**     BLOB or a number ('1' != 1);
**   - NULL equals NULL;
**   - a NaN REAL equals nothing (SQLite itself never produces one: it
**     stores NaN as NULL), so a result holding one equals no other result
**     in the BAG, SET and SPIDER modes.
** Sorting and hashing use a canonical key consistent with that equality
** (an integral REAL hashes like the equal INTEGER).
**
** Compare modes.  Each compares rows as Python compares tuples: rows of
** different lengths differ, so results with different column counts are
** unequal unless both have no rows (no rows equal no rows, whatever the
** columns, in every mode).  a and b are interchangeable.
**   SQ_CMP_LIST   same rows in the same order.
**   SQ_CMP_BAG    same rows with the same multiplicities.
**   SQ_CMP_SET    BIRD's metric, set(predicted) == set(gold): duplicates
**                 and order ignored.
**   SQ_CMP_SPIDER the Spider test-suite's result_eq(gold, pred,
**                 order_matters); pass the gold result as a:
**                   1. both without rows -> equal;
**                   2. different row counts -> unequal;
**                   3. different column counts -> unequal;
**                   4. its quick_rej: sort the values inside each row by
**                      Python's str(x) + str(type(x)), then compare the rows
**                      as sets (as lists when order_matters).  This is a
**                      necessary condition except for one quirk kept on
**                      purpose: an INTEGER and an equal REAL have different
**                      keys ("30<class 'int'>" vs "30.0<class 'float'>"), so
**                      they can sort to different places and make the
**                      script reject results that step 5 would accept;
**                   5. equal iff some permutation of b's columns makes the
**                      rows equal as a multiset (as a list when
**                      order_matters).
**                 TEXT is first decoded the way the script's connection
**                 does (bytes.decode(errors="ignore")): bytes that are not
**                 well-formed UTF-8 are dropped before comparing.
**                 The permutation search only tries maps that send each
**                 column of a to a column of b with the same multiset of
**                 values, treats identical columns of b as one, and prunes
**                 a partial map as soon as the rows projected on the columns
**                 mapped so far differ (by hash; the final check is exact).
** order_matters is used by SQ_CMP_SPIDER only.
*/
#ifndef SQ_RESULT_H
#define SQ_RESULT_H

#include <stddef.h>
#include <stdint.h>

#include "frontend/types.h"

#include "runtime/arena.h"
#include "runtime/strbuf.h"

/* ---- values ---------------------------------------------------------- */

/* SQLite's storage classes; the numbering is squint's, not SQLite's. */

/* One value.  Only the field of its type is meaningful. */
typedef struct SqValue {
    uint8_t type;  /* SqValueType */
    int64_t i;     /* INTEGER */
    double r;      /* REAL */
    const char *s; /* TEXT and BLOB: n bytes (may hold NULs) then a NUL;
                   ** never NULL for TEXT and BLOB, owned by the result */
    uint32_t n;    /* TEXT and BLOB: byte length */
} SqValue;

static inline SqValue sq_value_null(void) {
    SqValue v = {SQ_VAL_NULL, 0, 0.0, NULL, 0};
    return v;
}
static inline SqValue sq_value_int(int64_t i) {
    SqValue v = {SQ_VAL_INTEGER, i, 0.0, NULL, 0};
    return v;
}
static inline SqValue sq_value_real(double r) {
    SqValue v = {SQ_VAL_REAL, 0, r, NULL, 0};
    return v;
}

/* Equality and a total order consistent with it (NULL < numbers < TEXT <
** BLOB; NaN sorts after every number but equals nothing). */
int sq_value_equal(const SqValue *a, const SqValue *b);
int sq_value_cmp(const SqValue *a, const SqValue *b);

/* Append v as an SQL literal: NULL, 42, 1.0, 0.1, 1e+16, 'it''s', X'01FF'.
** REALs are written as Python's repr() writes them (the shortest text that
** reads back as the same double, always with a '.' or an exponent, so 1
** and 1.0 stay apart); infinities as 9e999 and -9e999, NaN as NaN.  TEXT
** that is not printable UTF-8 is written CAST(X'..' AS TEXT). */
void sq_value_print(const SqValue *v, SqBuf *out);

/* ---- result sets ----------------------------------------------------- */

/* Rows of one statement. */
typedef struct SqResult {
    SqArena *arena;         /* owns names and TEXT/BLOB bytes; NULL when empty */
    uint32_t n_cols;        /* columns of every row */
    const char **col_names; /* n_cols names, in the arena */
    uint64_t n_rows;        /* rows held */
    SqValue *cells;         /* row-major: cells[row * n_cols + col]; heap */
    uint64_t cap_rows;      /* rows cells has room for */
    uint64_t n_bytes;       /* TEXT and BLOB bytes held (for limits) */
} SqResult;

void sq_result_init(SqResult *r);
void sq_result_free(SqResult *r); /* leaves r as after sq_result_init */

/* Building: drop what r (initialised or filled) held and make it an
** empty result with n_cols columns named "". */
void sq_result_start(SqResult *r, uint32_t n_cols);
void sq_result_set_name(SqResult *r, uint32_t col, const char *name);
/* Append a row of NULLs; returns its n_cols cells, valid until the next
** sq_result_add_row. */
SqValue *sq_result_add_row(SqResult *r);
/* A TEXT or BLOB value whose n bytes are copied into r's arena. */
SqValue sq_result_text(SqResult *r, const char *s, uint32_t n);
SqValue sq_result_blob(SqResult *r, const void *p, uint32_t n);

/* Whether every cell of r is NULL (so also when it has no row): nothing
** a question could ask for. */
int sq_result_all_null(const SqResult *r);

static inline const SqValue *sq_result_cell(const SqResult *r, uint64_t row,
                                            uint32_t col) {
    return &r->cells[row * r->n_cols + col];
}

/* ---- between processes ---------------------------------------------- */

struct SqWireReader;
/* Append r to b (runtime/wire.h), for a parent process to read back. */
void sq_result_pack(const SqResult *r, SqBuf *b);
/* Read a result sq_result_pack wrote into r (initialised; its contents
** are replaced); 0, or -1 when the message is not whole. */
int sq_result_unpack(struct SqWireReader *w, SqResult *r);

/* ---- comparison ------------------------------------------------------ */

typedef enum SqCompareMode {
    SQ_CMP_LIST,   /* same rows in the same order */
    SQ_CMP_BAG,    /* same rows with the same multiplicities, any order */
    SQ_CMP_SET,    /* BIRD's official metric: set(rows1) == set(rows2) */
    SQ_CMP_SPIDER, /* Spider test-suite: bag, any permutation of the second
                   ** result's columns; ordered when order_matters */
} SqCompareMode;

/* 1 when a and b are equal under mode (see the top of this file), else 0. */
int sq_result_equal(const SqResult *a, const SqResult *b, SqCompareMode mode,
                    int order_matters);

/* Append a short description of the first difference found; rows and
** columns are numbered from 1, values written by sq_value_print (long TEXT
** and BLOB cut):
**   shape  "column counts differ: 2 vs 3", "row counts differ: 3 vs 2",
**          "the first result is empty, the second has 4 rows" (SET)
**   LIST   "row 2, column 1 (\"name\"): 'a' vs 'b'"
**   BAG    "(2, 'y') occurs 1 time in the first result and 0 in the second"
**   SET    "(2, 'y') (row 2 of the first result) is not in the second"
**   SPIDER the step that failed: a column of the first result whose values
**          no column of the second has, no working permutation, or the
**          quick_rej quirk.
** BAG and SET report the first such row in value order.  Appends nothing
** when the results are equal. */
void sq_result_diff(const SqResult *a, const SqResult *b, SqCompareMode mode,
                    int order_matters, SqBuf *out);

/* 1 when some TEXT value of r is not well-formed UTF-8 (what Python's
** strict decoding, BIRD's script's, fails on). */
int sq_result_has_invalid_text(const SqResult *r);

/* "list", "bag", "set", "spider". */
const char *sq_compare_mode_name(SqCompareMode mode);

#endif
