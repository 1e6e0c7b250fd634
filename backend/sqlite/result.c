/*
** result.c -- result sets: building them, their rows, the LIST, BAG and SET
** comparisons, and the public entry points that compare and diff results.
**
** Layer: backend/sqlite.  Takes SqResults, gives verdicts and text.  Owns
** nothing beyond the results themselves; every comparison allocates its
** scratch memory on the heap and frees it before returning.
**
** Values are compared, hashed and printed by value.c; SQ_CMP_SPIDER is
** handed to spider.c, which reuses the rows defined here (RowRef, grouped
** rows, set equality).  Splitting them keeps each file to one job: what a
** value is, what a result is, and what the Spider script does.
**
** Sections: building; rows; LIST, BAG and SET; entry points; diff.
*/
#include "backend/sqlite/result_int.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/util.h"
#include "runtime/wire.h"

/* ------------------------------------------------------------------ */
/* Building                                                            */
/* ------------------------------------------------------------------ */

void sq_result_init(SqResult *r) { memset(r, 0, sizeof *r); }

void sq_result_free(SqResult *r) {
    sq_arena_free(r->arena);
    free(r->cells);
    sq_result_init(r);
}

void sq_result_start(SqResult *r, uint32_t n_cols) {
    sq_result_free(r);
    /* Room for the names of the columns, which is all that many results
    ** ever hold (squint compile keeps one per statement it checks); rows
    ** with text take further blocks of the usual size. */
    r->arena = sq_arena_new_sized(((size_t)n_cols + 1) * (sizeof *r->col_names + 32));
    r->n_cols = n_cols;
    r->col_names = sq_arena_alloc(r->arena, ((size_t)n_cols + 1) * sizeof *r->col_names);
    for (uint32_t k = 0; k < n_cols; k++) r->col_names[k] = "";
}

void sq_result_set_name(SqResult *r, uint32_t col, const char *name) {
    r->col_names[col] = sq_arena_strdup(r->arena, name);
}

SqValue *sq_result_add_row(SqResult *r) {
    if (r->n_rows == r->cap_rows) {
        uint64_t cap = r->cap_rows ? r->cap_rows * 2 : 16;
        size_t row_size = (size_t)r->n_cols * sizeof(SqValue);
        if (row_size && cap > SIZE_MAX / row_size) sq_oom();
        r->cells = sq_realloc(r->cells, (size_t)cap * row_size);
        r->cap_rows = cap;
    }
    SqValue *row = r->cells + r->n_rows * r->n_cols;
    for (uint32_t k = 0; k < r->n_cols; k++) row[k] = sq_value_null();
    r->n_rows++;
    return row;
}

static SqValue bytes_value(SqResult *r, uint8_t type, const void *p, uint32_t n) {
    char *d = sq_arena_alloc(r->arena, (size_t)n + 1);
    if (n) memcpy(d, p, n);
    r->n_bytes += n;
    SqValue v = {type, 0, 0.0, d, n};
    return v;
}

SqValue sq_result_text(SqResult *r, const char *s, uint32_t n) {
    return bytes_value(r, SQ_VAL_TEXT, s, n);
}

SqValue sq_result_blob(SqResult *r, const void *p, uint32_t n) {
    return bytes_value(r, SQ_VAL_BLOB, p, n);
}

/* ------------------------------------------------------------------ */
/* Between processes                                                   */
/* ------------------------------------------------------------------ */

void sq_result_pack(const SqResult *r, SqBuf *b) {
    sq_wire_put_u64(b, r->n_cols);
    sq_wire_put_u64(b, r->n_rows);
    for (uint32_t k = 0; k < r->n_cols; k++) sq_wire_put_str(b, r->col_names ? r->col_names[k] : "");
    for (uint64_t i = 0; i < r->n_rows * r->n_cols; i++) {
        const SqValue *v = &r->cells[i];
        sq_wire_put_u64(b, v->type);
        if (v->type == SQ_VAL_INTEGER) sq_wire_put_u64(b, (uint64_t)v->i);
        else if (v->type == SQ_VAL_REAL) sq_wire_put_f64(b, v->r);
        else if (v->type == SQ_VAL_TEXT || v->type == SQ_VAL_BLOB) sq_wire_put_bytes(b, v->s, v->n);
    }
}

int sq_result_unpack(SqWireReader *w, SqResult *r) {
    uint64_t n_cols = sq_wire_u64(w), n_rows = sq_wire_u64(w);
    /* every column name and cell takes at least 8 bytes of the message */
    uint64_t room = (uint64_t)(w->end - w->p) / 8;
    if (w->bad || n_cols > room || n_rows > room || (n_rows && (!n_cols || n_cols * (n_rows + 1) > room))) return -1;
    sq_result_start(r, (uint32_t)n_cols);
    for (uint32_t k = 0; k < r->n_cols; k++) {
        const char *name = sq_wire_bytes(w, r->arena, NULL);
        if (name) r->col_names[k] = name;
    }
    for (uint64_t i = 0; i < n_rows && !w->bad; i++) {
        SqValue *row = sq_result_add_row(r);
        for (uint32_t k = 0; k < r->n_cols; k++) {
            uint64_t type = sq_wire_u64(w);
            size_t n;
            const char *s;
            switch (type) {
            case SQ_VAL_INTEGER: row[k] = sq_value_int((int64_t)sq_wire_u64(w)); break;
            case SQ_VAL_REAL: row[k] = sq_value_real(sq_wire_f64(w)); break;
            case SQ_VAL_TEXT:
            case SQ_VAL_BLOB:
                s = sq_wire_bytes(w, r->arena, &n);
                if (!s || n > UINT32_MAX) w->bad = 1;
                else row[k] = (SqValue){(uint8_t)type, 0, 0.0, s, (uint32_t)n}, r->n_bytes += n;
                break;
            case SQ_VAL_NULL: break;
            default: w->bad = 1;
            }
        }
    }
    return w->bad ? -1 : 0;
}

/* ------------------------------------------------------------------ */
/* Rows                                                                */
/* ------------------------------------------------------------------ */

static const SqValue *row_at(const RowRef *r, uint32_t k) {
    return &r->v[r->perm ? r->perm[k] : k];
}

static int row_cmp(const RowRef *a, const RowRef *b) {
    if (a->n != b->n) return a->n < b->n ? -1 : 1;
    for (uint32_t k = 0; k < a->n; k++) {
        int c = sq_value_cmp(row_at(a, k), row_at(b, k));
        if (c) return c;
    }
    return 0;
}

int res_row_equal(const RowRef *a, const RowRef *b) {
    if (a->n != b->n) return 0;
    for (uint32_t k = 0; k < a->n; k++)
        if (!sq_value_equal(row_at(a, k), row_at(b, k))) return 0;
    return 1;
}

/* Equal rows hash equal (the hash of columns 0..k is the SPIDER search's
** prefix hash at depth k). */
static uint64_t row_hash(const RowRef *r) {
    uint64_t h = 0;
    for (uint32_t k = 0; k < r->n; k++) h = prefix_step(h, res_value_hash(row_at(r, k)));
    return h;
}

static int row_cmp_q(const void *x, const void *y) { return row_cmp(x, y); }

static int row_hash_cmp_q(const void *x, const void *y) {
    const RowRef *a = x, *b = y;
    return (a->h > b->h) - (a->h < b->h);
}

/* The rows of r; perms, when given, holds one column order of n_cols
** entries per row, or one for all rows when one_perm.  Caller frees. */
static RowRef *row_refs(const SqResult *r, const uint32_t *perms, int one_perm) {
    RowRef *rows = sq_malloc((size_t)r->n_rows * sizeof *rows + 1);
    for (uint64_t k = 0; k < r->n_rows; k++) {
        const uint32_t *p = !perms ? NULL : one_perm ? perms : perms + k * r->n_cols;
        rows[k] = row_ref(r, k, p);
    }
    return rows;
}

/* The rows in value order (for reports). */
static RowRef *sorted_rows(const SqResult *r) {
    RowRef *rows = row_refs(r, NULL, 0);
    qsort(rows, (size_t)r->n_rows, sizeof *rows, row_cmp_q);
    return rows;
}

static int run_is_uniform(const RowRef *rows, uint64_t n) {
    for (uint64_t k = 1; k < n; k++)
        if (!res_row_equal(&rows[0], &rows[k])) return 0;
    return 1;
}

/* The rows in a canonical order for equality tests that is cheaper than
** value order: by hash, and a run of equal hashes whose rows are not all
** equal (a collision, or a NaN) sorted by value.  Two bags of rows are
** equal iff their grouped rows are equal position by position. */
RowRef *res_grouped_rows(const SqResult *r, const uint32_t *perms, int one_perm) {
    RowRef *rows = row_refs(r, perms, one_perm);
    for (uint64_t k = 0; k < r->n_rows; k++) rows[k].h = row_hash(&rows[k]);
    qsort(rows, (size_t)r->n_rows, sizeof *rows, row_hash_cmp_q);
    for (uint64_t s = 0, e; s < r->n_rows; s = e) {
        for (e = s + 1; e < r->n_rows && rows[e].h == rows[s].h;) e++;
        if (!run_is_uniform(rows + s, e - s)) qsort(rows + s, e - s, sizeof *rows, row_cmp_q);
    }
    return rows;
}

/* Keep one row of each run of equal rows; returns the new count. */
static uint64_t dedupe_rows(RowRef *rows, uint64_t n) {
    uint64_t m = 0;
    for (uint64_t k = 0; k < n; k++)
        if (m == 0 || rows[m - 1].h != rows[k].h || row_cmp(&rows[m - 1], &rows[k]) != 0)
            rows[m++] = rows[k];
    return m;
}

int res_rows_all_equal(const RowRef *a, const RowRef *b, uint64_t n) {
    for (uint64_t k = 0; k < n; k++)
        if (a[k].h != b[k].h) return 0;
    for (uint64_t k = 0; k < n; k++)
        if (!res_row_equal(&a[k], &b[k])) return 0;
    return 1;
}

static uint64_t row_index(const SqResult *r, const RowRef *ref) {
    return r->n_cols ? (uint64_t)(ref->v - r->cells) / r->n_cols : 0;
}

/* ------------------------------------------------------------------ */
/* LIST, BAG, SET                                                      */
/* ------------------------------------------------------------------ */

/* Rows of different lengths differ, but no rows equal no rows. */
static int same_shape(const SqResult *a, const SqResult *b) {
    if (a->n_rows != b->n_rows) return 0;
    return a->n_rows == 0 || a->n_cols == b->n_cols;
}

static int list_equal(const SqResult *a, const SqResult *b) {
    if (!same_shape(a, b)) return 0;
    for (uint64_t k = 0; k < a->n_rows; k++) {
        RowRef ra = row_ref(a, k, NULL), rb = row_ref(b, k, NULL);
        if (!res_row_equal(&ra, &rb)) return 0;
    }
    return 1;
}

static int bag_equal(const SqResult *a, const SqResult *b) {
    if (!same_shape(a, b)) return 0;
    RowRef *sa = res_grouped_rows(a, NULL, 0), *sb = res_grouped_rows(b, NULL, 0);
    int eq = res_rows_all_equal(sa, sb, a->n_rows);
    free(sa);
    free(sb);
    return eq;
}

/* Set equality of a's rows and b's rows under per-row column orders. */
int res_set_equal_perms(const SqResult *a, const uint32_t *pa,
                        const SqResult *b, const uint32_t *pb) {
    if (a->n_rows == 0 || b->n_rows == 0) return a->n_rows == b->n_rows;
    if (a->n_cols != b->n_cols) return 0;
    RowRef *sa = res_grouped_rows(a, pa, 0), *sb = res_grouped_rows(b, pb, 0);
    uint64_t na = dedupe_rows(sa, a->n_rows), nb = dedupe_rows(sb, b->n_rows);
    int eq = na == nb && res_rows_all_equal(sa, sb, na);
    free(sa);
    free(sb);
    return eq;
}

/* ------------------------------------------------------------------ */
/* Entry points                                                        */
/* ------------------------------------------------------------------ */

int sq_result_equal(const SqResult *a, const SqResult *b, SqCompareMode mode,
                    int order_matters) {
    switch (mode) {
    case SQ_CMP_LIST: return list_equal(a, b);
    case SQ_CMP_BAG: return bag_equal(a, b);
    case SQ_CMP_SET: return res_set_equal_perms(a, NULL, b, NULL);
    case SQ_CMP_SPIDER: return res_spider_equal(a, b, order_matters);
    }
    return 0;
}

const char *sq_compare_mode_name(SqCompareMode mode) {
    switch (mode) {
    case SQ_CMP_LIST: return "list";
    case SQ_CMP_BAG: return "bag";
    case SQ_CMP_SET: return "set";
    case SQ_CMP_SPIDER: return "spider";
    }
    return "?";
}

/* ------------------------------------------------------------------ */
/* Diff                                                                */
/* ------------------------------------------------------------------ */

#define DIFF_VALUE_MAX 40 /* bytes of a TEXT or BLOB shown in a report */

/* sq_value_print, with long TEXT and BLOB cut at a character boundary. */
static void print_short(const SqValue *v, SqBuf *out) {
    if ((v->type != SQ_VAL_TEXT && v->type != SQ_VAL_BLOB) || v->n <= DIFF_VALUE_MAX) {
        sq_value_print(v, out);
        return;
    }
    SqValue cut = *v;
    cut.n = DIFF_VALUE_MAX;
    while (v->type == SQ_VAL_TEXT && cut.n > 0 && ((unsigned char)v->s[cut.n] & 0xC0) == 0x80)
        cut.n--;
    sq_value_print(&cut, out);
    sq_buf_printf(out, "... (%" PRIu32 " bytes)", v->n);
}

static void print_row(const RowRef *r, SqBuf *out) {
    sq_buf_putc(out, '(');
    for (uint32_t k = 0; k < r->n; k++) {
        if (k) sq_buf_puts(out, ", ");
        print_short(row_at(r, k), out);
    }
    sq_buf_putc(out, ')');
}

int res_diff_counts(const SqResult *a, const SqResult *b, SqBuf *out) {
    if (a->n_cols != b->n_cols) {
        sq_buf_printf(out, "column counts differ: %" PRIu32 " vs %" PRIu32, a->n_cols, b->n_cols);
        return 1;
    }
    if (a->n_rows != b->n_rows) {
        sq_buf_printf(out, "row counts differ: %" PRIu64 " vs %" PRIu64, a->n_rows, b->n_rows);
        return 1;
    }
    return 0;
}

static int diff_list(const SqResult *a, const SqResult *b, SqBuf *out) {
    if (a->n_cols != b->n_cols) return res_diff_counts(a, b, out);
    uint64_t n = a->n_rows < b->n_rows ? a->n_rows : b->n_rows;
    for (uint64_t r = 0; r < n; r++) {
        for (uint32_t k = 0; k < a->n_cols; k++) {
            const SqValue *va = sq_result_cell(a, r, k), *vb = sq_result_cell(b, r, k);
            if (sq_value_equal(va, vb)) continue;
            sq_buf_printf(out, "row %" PRIu64 ", column %" PRIu32 " (\"%s\"): ", r + 1, k + 1,
                          a->col_names[k]);
            print_short(va, out);
            sq_buf_puts(out, " vs ");
            print_short(vb, out);
            return 1;
        }
    }
    return res_diff_counts(a, b, out);
}

/* Length of the run of rows equal to rows[k]. */
static uint64_t run_length(const RowRef *rows, uint64_t n, uint64_t k) {
    uint64_t e = k + 1;
    while (e < n && row_cmp(&rows[k], &rows[e]) == 0) e++;
    return e - k;
}

/* Walk two sorted row lists; report the first row whose multiplicity
** differs (as_set: whose presence differs). */
static int diff_sorted(const SqResult *a, const RowRef *sa, const SqResult *b,
                       const RowRef *sb, int as_set, SqBuf *out) {
    uint64_t i = 0, j = 0;
    while (i < a->n_rows || j < b->n_rows) {
        int c = i == a->n_rows ? 1 : j == b->n_rows ? -1 : row_cmp(&sa[i], &sb[j]);
        uint64_t na = c <= 0 ? run_length(sa, a->n_rows, i) : 0;
        uint64_t nb = c >= 0 ? run_length(sb, b->n_rows, j) : 0;
        if (as_set ? (!na || !nb) : na != nb) {
            const RowRef *r = na ? &sa[i] : &sb[j];
            print_row(r, out);
            if (as_set)
                sq_buf_printf(out, " (row %" PRIu64 " of the %s result) is not in the %s",
                              row_index(na ? a : b, r) + 1, na ? "first" : "second",
                              na ? "second" : "first");
            else
                sq_buf_printf(out, " occurs %" PRIu64 " time%s in the first result and %" PRIu64
                              " in the second", na, na == 1 ? "" : "s", nb);
            return 1;
        }
        i += na;
        j += nb;
    }
    return 0;
}

static int diff_rows(const SqResult *a, const SqResult *b, int as_set, SqBuf *out) {
    RowRef *sa = sorted_rows(a), *sb = sorted_rows(b);
    int found = diff_sorted(a, sa, b, sb, as_set, out);
    free(sa);
    free(sb);
    return found;
}

static int diff_set(const SqResult *a, const SqResult *b, SqBuf *out) {
    if ((a->n_rows == 0) != (b->n_rows == 0)) {
        uint64_t n = a->n_rows ? a->n_rows : b->n_rows;
        sq_buf_printf(out, "the %s result is empty, the %s has %" PRIu64 " row%s",
                      a->n_rows ? "second" : "first", a->n_rows ? "first" : "second", n,
                      n == 1 ? "" : "s");
        return 1;
    }
    if (a->n_cols != b->n_cols) return res_diff_counts(a, b, out);
    return diff_rows(a, b, 1, out);
}

void sq_result_diff(const SqResult *a, const SqResult *b, SqCompareMode mode,
                    int order_matters, SqBuf *out) {
    if (sq_result_equal(a, b, mode, order_matters)) return;
    int found = 0;
    switch (mode) {
    case SQ_CMP_LIST: found = diff_list(a, b, out); break;
    case SQ_CMP_BAG:
        found = a->n_cols != b->n_cols || a->n_rows != b->n_rows ? res_diff_counts(a, b, out)
                                                                 : diff_rows(a, b, 0, out);
        break;
    case SQ_CMP_SET: found = diff_set(a, b, out); break;
    case SQ_CMP_SPIDER: found = res_spider_diff(a, b, order_matters, out); break;
    }
    if (!found) sq_buf_puts(out, "results differ (a value that equals nothing, such as NaN)");
}

int sq_result_all_null(const SqResult *r) {
    for (uint64_t i = 0; i < r->n_rows * r->n_cols; i++)
        if (r->cells[i].type != SQ_VAL_NULL) return 0;
    return 1;
}
