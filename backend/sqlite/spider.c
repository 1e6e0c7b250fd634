/*
** spider.c -- the SQ_CMP_SPIDER comparison: the Spider test-suite's
** result_eq(), quirks included, and the report of why it failed.
**
** Layer: backend/sqlite.  Takes two SqResults (the gold one first), gives
** a verdict and text.  Owns nothing; the decoded copies of results with
** ill-formed text and the search state live on the heap and are freed
** before returning.
**
** Kept apart from result.c because it reproduces one script's algorithm,
** not a definition of equality: its text decoding, its quick_rej step
** (with the INTEGER/REAL quirk that can reject equal results) and its
** search over permutations of columns, which is the largest piece of
** comparison code and the only one with its own data structure.
**
** Sections: text as the script decodes it; quick_rej; column
** permutations; entry points.
*/
#include "backend/sqlite/result_int.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/util.h"

#define NO_COL UINT32_MAX

/* ------------------------------------------------------------------ */
/* SPIDER: text as the script decodes it                               */
/* ------------------------------------------------------------------ */

/* bytes.decode(errors="ignore"): drop every byte that is not part of a
** well-formed sequence.  (Python drops each maximal ill-formed subpart;
** its bytes after the first are continuation bytes, which cannot start a
** sequence, so dropping one byte at a time gives the same text.) */
static uint32_t utf8_drop_invalid(const char *s, uint32_t n, char *out) {
    const unsigned char *u = (const unsigned char *)s;
    uint32_t m = 0;
    for (size_t k = 0; k < n;) {
        size_t len = res_utf8_seq_len(u + k, n - k);
        if (!len) { k++; continue; }
        memcpy(out + m, s + k, len);
        m += (uint32_t)len;
        k += len;
    }
    return m;
}

/* src itself when all its text is valid UTF-8; else a copy in *tmp whose
** TEXT values are decoded as the Spider script does. */
static const SqResult *spider_text(const SqResult *src, SqResult *tmp) {
    if (!sq_result_has_invalid_text(src)) return src;
    sq_result_start(tmp, src->n_cols);
    for (uint32_t k = 0; k < src->n_cols; k++) tmp->col_names[k] = src->col_names[k];
    for (uint64_t row = 0; row < src->n_rows; row++) {
        SqValue *dst = sq_result_add_row(tmp);
        memcpy(dst, sq_result_cell(src, row, 0), src->n_cols * sizeof *dst);
        for (uint32_t k = 0; k < src->n_cols; k++) {
            if (dst[k].type != SQ_VAL_TEXT || res_utf8_valid(dst[k].s, dst[k].n)) continue;
            char *buf = sq_arena_alloc(tmp->arena, (size_t)dst[k].n + 1);
            dst[k].n = utf8_drop_invalid(dst[k].s, dst[k].n, buf);
            dst[k].s = buf;
        }
    }
    return tmp;
}

/* ------------------------------------------------------------------ */
/* SPIDER: quick_rej                                                   */
/* ------------------------------------------------------------------ */

/* One value's sort key inside a row. */
typedef struct PyKey {
    const char *text; /* str(x) + str(type(x)), UTF-8 */
    size_t len;
    uint32_t col;     /* ties keep column order, as Python's stable sort */
} PyKey;

/* Python compares str by code point, which is UTF-8 byte order. */
static int pykey_cmp(const void *x, const void *y) {
    const PyKey *a = x, *b = y;
    int c = res_cmp_bytes(a->text, a->len, b->text, b->len);
    return c ? c : (a->col > b->col) - (a->col < b->col);
}

/* unorder_row() for every row: perms[row * n_cols + k] is the column of
** the k-th value once the row is sorted by str(x) + str(type(x)). */
static uint32_t *unordered_rows(const SqResult *r) {
    uint32_t nc = r->n_cols;
    uint32_t *perms = sq_malloc((size_t)r->n_rows * nc * sizeof *perms + 1);
    PyKey *keys = sq_malloc((size_t)nc * sizeof *keys + 1);
    size_t *ends = sq_malloc((size_t)nc * sizeof *ends + 1);
    SqBuf buf = SQ_BUF_INIT;
    for (uint64_t row = 0; row < r->n_rows; row++) {
        sq_buf_reset(&buf);
        for (uint32_t k = 0; k < nc; k++) {
            res_py_sort_key(sq_result_cell(r, row, k), &buf);
            ends[k] = buf.len;
        }
        for (uint32_t k = 0; k < nc; k++) {
            size_t start = k ? ends[k - 1] : 0;
            keys[k] = (PyKey){buf.data + start, ends[k] - start, k};
        }
        qsort(keys, nc, sizeof *keys, pykey_cmp);
        for (uint32_t k = 0; k < nc; k++) perms[row * nc + k] = keys[k].col;
    }
    sq_buf_free(&buf);
    free(ends);
    free(keys);
    return perms;
}

/* The script's quick_rej(): true when the results may still be equal. */
static int quick_rej_passes(const SqResult *a, const SqResult *b, int ordered) {
    if (a->n_cols <= 1) return 1; /* unorder_row is the identity */
    uint32_t *pa = unordered_rows(a), *pb = unordered_rows(b);
    int ok = 1;
    if (ordered) {
        for (uint64_t k = 0; ok && k < a->n_rows; k++) {
            RowRef ra = row_ref(a, k, pa + k * a->n_cols);
            RowRef rb = row_ref(b, k, pb + k * b->n_cols);
            ok = res_row_equal(&ra, &rb);
        }
    } else {
        ok = res_set_equal_perms(a, pa, b, pb);
    }
    free(pa);
    free(pb);
    return ok;
}

/* ------------------------------------------------------------------ */
/* SPIDER: column permutations                                         */
/* ------------------------------------------------------------------ */

/* Backtracking search for a map of a's columns to b's columns.  Columns
** of a are assigned in order 0, 1, ...; perm[i] is b's column for a's
** column i.  For every depth k the rows of a projected on columns 0..k are
** summarised by one hash per row (ha), sorted unless order matters; b's
** projection under the partial map must give the same hashes. */
typedef struct PermSearch {
    const SqResult *a, *b;
    uint32_t c;        /* columns of both */
    uint64_t n;        /* rows of both (> 0) */
    int ordered;       /* rows must match in order */
    uint8_t *cand;     /* cand[i * c + j]: b's column j has a's column i's multiset */
    uint32_t *twin;    /* twin[j]: previous column of b identical to j, or NO_COL */
    uint32_t *perm;    /* the partial map */
    uint8_t *used;     /* used[j]: b's column j is mapped */
    uint64_t *vb;      /* vb[j * n + r]: hash of b's cell (r, j) */
    uint64_t *ha;      /* ha[k * n + r]: a's prefix hashes at depth k */
    uint64_t *hb;      /* hb[k * n + r]: b's prefix hashes along perm */
    uint64_t *tmp;     /* n scratch hashes */
    RowRef *sa;        /* a's rows in canonical order (bag mode) */
} PermSearch;

static int u64_cmp(const void *x, const void *y) {
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

/* The multiset of a column, as an order-independent hash. */
static uint64_t column_hash(const SqResult *r, uint32_t col) {
    uint64_t h = 0;
    for (uint64_t row = 0; row < r->n_rows; row++)
        h += sq_mix64(res_value_hash(sq_result_cell(r, row, col)) ^ 0x5851f42d4c957f2dull);
    return h;
}

static int columns_identical(const SqResult *r, uint32_t i, uint32_t j) {
    for (uint64_t row = 0; row < r->n_rows; row++)
        if (!sq_value_equal(sq_result_cell(r, row, i), sq_result_cell(r, row, j))) return 0;
    return 1;
}

static void perm_init_columns(PermSearch *ps) {
    uint32_t c = ps->c;
    uint64_t *hcol_a = sq_malloc(c * sizeof *hcol_a), *hcol_b = sq_malloc(c * sizeof *hcol_b);
    for (uint32_t k = 0; k < c; k++) {
        hcol_a[k] = column_hash(ps->a, k);
        hcol_b[k] = column_hash(ps->b, k);
    }
    for (uint32_t i = 0; i < c; i++)
        for (uint32_t j = 0; j < c; j++) ps->cand[i * c + j] = hcol_a[i] == hcol_b[j];
    for (uint32_t j = 0; j < c; j++) {
        ps->twin[j] = NO_COL;
        for (uint32_t p = j; p-- > 0 && ps->twin[j] == NO_COL;)
            if (hcol_b[p] == hcol_b[j] && columns_identical(ps->b, p, j)) ps->twin[j] = p;
    }
    free(hcol_a);
    free(hcol_b);
}

static void perm_init_hashes(PermSearch *ps) {
    uint64_t n = ps->n;
    for (uint32_t j = 0; j < ps->c; j++)
        for (uint64_t r = 0; r < n; r++)
            ps->vb[j * n + r] = res_value_hash(sq_result_cell(ps->b, r, j));
    for (uint32_t k = 0; k < ps->c; k++) {
        uint64_t *cur = ps->ha + k * n;
        for (uint64_t r = 0; r < n; r++) {
            uint64_t prev = k ? ps->tmp[r] : 0;
            ps->tmp[r] = prefix_step(prev, res_value_hash(sq_result_cell(ps->a, r, k)));
        }
        memcpy(cur, ps->tmp, n * sizeof *cur);
        if (!ps->ordered) qsort(cur, n, sizeof *cur, u64_cmp);
    }
}

static void perm_init(PermSearch *ps, const SqResult *a, const SqResult *b, int ordered) {
    uint32_t c = a->n_cols;
    uint64_t n = a->n_rows;
    *ps = (PermSearch){a, b, c, n, ordered, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    ps->cand = sq_malloc((size_t)c * c);
    ps->twin = sq_malloc(c * sizeof *ps->twin);
    ps->perm = sq_malloc(c * sizeof *ps->perm);
    ps->used = sq_calloc(c, 1);
    ps->vb = sq_malloc((size_t)c * n * sizeof *ps->vb);
    ps->ha = sq_malloc((size_t)c * n * sizeof *ps->ha);
    ps->hb = sq_malloc((size_t)c * n * sizeof *ps->hb);
    ps->tmp = sq_malloc(n * sizeof *ps->tmp);
    ps->sa = ordered ? NULL : res_grouped_rows(a, NULL, 0);
    perm_init_columns(ps);
    perm_init_hashes(ps);
}

static void perm_free(PermSearch *ps) {
    free(ps->cand);
    free(ps->twin);
    free(ps->perm);
    free(ps->used);
    free(ps->vb);
    free(ps->ha);
    free(ps->hb);
    free(ps->tmp);
    free(ps->sa);
}

/* Map a's column k to b's column j: do the projections still agree? */
static int prefix_matches(PermSearch *ps, uint32_t k, uint32_t j) {
    uint64_t n = ps->n, *cur = ps->hb + k * n;
    const uint64_t *prev = k ? ps->hb + (k - 1) * n : NULL, *col = ps->vb + j * n;
    for (uint64_t r = 0; r < n; r++) cur[r] = prefix_step(prev ? prev[r] : 0, col[r]);
    const uint64_t *want = ps->ha + k * n;
    if (ps->ordered) return memcmp(cur, want, n * sizeof *cur) == 0;
    memcpy(ps->tmp, cur, n * sizeof *cur);
    qsort(ps->tmp, n, sizeof *ps->tmp, u64_cmp);
    return memcmp(ps->tmp, want, n * sizeof *cur) == 0;
}

/* The exact check of a complete map. */
static int perm_final_check(PermSearch *ps) {
    if (ps->ordered) {
        for (uint64_t r = 0; r < ps->n; r++) {
            RowRef ra = row_ref(ps->a, r, NULL), rb = row_ref(ps->b, r, ps->perm);
            if (!res_row_equal(&ra, &rb)) return 0;
        }
        return 1;
    }
    RowRef *sb = res_grouped_rows(ps->b, ps->perm, 1);
    int eq = res_rows_all_equal(ps->sa, sb, ps->n);
    free(sb);
    return eq;
}

/* b's column j may take a's column k: a candidate, unused, and not ahead
** of an identical column with a lower index (those give the same rows). */
static int may_assign(const PermSearch *ps, uint32_t k, uint32_t j) {
    if (ps->used[j] || !ps->cand[k * ps->c + j]) return 0;
    return ps->twin[j] == NO_COL || ps->used[ps->twin[j]];
}

static int perm_search(PermSearch *ps, uint32_t k) {
    if (k == ps->c) return perm_final_check(ps);
    for (uint32_t j = 0; j < ps->c; j++) {
        if (!may_assign(ps, k, j)) continue;
        ps->perm[k] = j;
        ps->used[j] = 1;
        if (prefix_matches(ps, k, j) && perm_search(ps, k + 1)) return 1;
        ps->used[j] = 0;
    }
    return 0;
}

/* Some column of a whose multiset no column of b has, or NO_COL. */
static uint32_t unmatched_column(const PermSearch *ps) {
    for (uint32_t i = 0; i < ps->c; i++) {
        uint32_t j = 0;
        while (j < ps->c && !ps->cand[i * ps->c + j]) j++;
        if (j == ps->c) return i;
    }
    return NO_COL;
}

/* Same shape (rows > 0): does a permutation of b's columns match a? */
static int permutation_exists(const SqResult *a, const SqResult *b, int ordered,
                              uint32_t *unmatched) {
    if (a->n_cols == 0) return 1; /* rows of nothing: all equal */
    PermSearch ps;
    perm_init(&ps, a, b, ordered);
    int found = perm_search(&ps, 0);
    if (unmatched) *unmatched = unmatched_column(&ps);
    perm_free(&ps);
    return found;
}

/* How the Spider comparison ended. */
typedef enum SpiderVerdict {
    SPIDER_EQUAL,
    SPIDER_ROWS,      /* different row counts */
    SPIDER_COLS,      /* different column counts */
    SPIDER_QUICK_REJ, /* quick_rej failed although a permutation works */
    SPIDER_NO_PERM,   /* no permutation works */
} SpiderVerdict;

static SpiderVerdict spider_compare(const SqResult *a0, const SqResult *b0,
                                    int ordered, uint32_t *unmatched) {
    *unmatched = NO_COL;
    if (a0->n_rows == 0 && b0->n_rows == 0) return SPIDER_EQUAL;
    if (a0->n_rows != b0->n_rows) return SPIDER_ROWS;
    if (a0->n_cols != b0->n_cols) return SPIDER_COLS;
    SqResult ta, tb;
    sq_result_init(&ta);
    sq_result_init(&tb);
    const SqResult *a = spider_text(a0, &ta), *b = spider_text(b0, &tb);
    SpiderVerdict v = SPIDER_EQUAL;
    if (!quick_rej_passes(a, b, ordered))
        v = permutation_exists(a, b, ordered, unmatched) ? SPIDER_QUICK_REJ : SPIDER_NO_PERM;
    else if (!permutation_exists(a, b, ordered, unmatched))
        v = SPIDER_NO_PERM;
    sq_result_free(&ta);
    sq_result_free(&tb);
    return v;
}

/* ------------------------------------------------------------------ */
/* Entry points                                                        */
/* ------------------------------------------------------------------ */

int res_spider_equal(const SqResult *a, const SqResult *b, int ordered) {
    uint32_t unmatched;
    return spider_compare(a, b, ordered, &unmatched) == SPIDER_EQUAL;
}

int res_spider_diff(const SqResult *a, const SqResult *b, int ordered, SqBuf *out) {
    uint32_t col;
    switch (spider_compare(a, b, ordered, &col)) {
    case SPIDER_EQUAL: return 1; /* nothing to say */
    case SPIDER_ROWS:
    case SPIDER_COLS: return res_diff_counts(a, b, out);
    case SPIDER_QUICK_REJ:
        sq_buf_puts(out, "quick_rej rejects: values sorted by Python's str() differ "
                         "(an INTEGER and an equal REAL sort apart)");
        return 1;
    case SPIDER_NO_PERM: break;
    }
    if (col != NO_COL)
        sq_buf_printf(out, "column %" PRIu32 " (\"%s\") of the first result has the values "
                      "of no column of the second", col + 1, a->col_names[col]);
    else
        sq_buf_printf(out, "no permutation of the second result's columns makes the rows "
                      "equal%s", ordered ? " in order" : "");
    return 1;
}
