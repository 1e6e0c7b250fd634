/*
** cex_kind.c -- what a validated counterexample relies on that the real
** data never shows (see profile.h).
**
** Layer: backend/profile.  Takes a counterexample fixture, both queries,
** their results and the profile of the real database; gives SQ_CEX_* bits
** and, for each needs-* kind, the columns where it lies.
**
**   degenerate   one result has no row, the other exactly one row, every
**                value NULL (an aggregate over nothing against an empty
**                result): read off the results;
**   needs-ties   the verdict was "different only under ties";
**   needs-null   a NULL in a column the data never leaves NULL;
**   needs-format a value of a shape the column's data never takes;
**   needs-duplicates  a value repeated in a column whose data holds each
**                value once (and that declares no UNIQUE: then the fixture
**                could not repeat it).
**
** The last three are tested, not guessed: the suspect cells are repaired
** in a copy of the fixture -- a NULL or an off-shape value replaced by a
** value the column holds, a repeat by another value the column holds --
** and both queries run again in SQLite.  When they still differ, the
** counterexample did not need what was repaired and the kind is not
** given.  A replacement is chosen, in order, among the values of the
** referenced column in the fixture (for a foreign key column, so that it
** still refers to a row), the column's most common value, its min and
** max, its other common values;
** one that has a shape the column never shows, or would break a declared
** PRIMARY KEY or UNIQUE key, or repeat a value in a column that is unique
** in practice, is passed over.  When no value fits, the kind stays.  A
** value may happen to be the one on which the queries agree (a literal of
** theirs), so when the queries stop differing the second values that fit
** are tried, then the third, up to REPAIR_TRIES copies.  For
** a kind that is given, each column is repaired alone too: the columns
** whose repair alone ends the difference are where it lies (all suspect
** columns when no single one does).
**
** When the queries do not differ on the fixture itself (a difference
** under ties that SQLite did not show), nothing can be tested:
** needs-null, -format and -duplicates then say only that such values are
** in the fixture (SqCexKinds.tested is 0).
*/
#include "backend/profile/profile.h"

#include <stdlib.h>
#include <string.h>

#include "runtime/util.h"

/* A cell of a fixture: table (index in f->tables), row, column. */
typedef struct Cell {
    uint32_t ft;
    uint64_t row;
    uint32_t col;
} Cell;

typedef struct Cells {
    Cell *v;
    uint32_t n, cap;
} Cells;

static void cells_add(Cells *c, Cell x) {
    if (c->n == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 16;
        c->v = sq_realloc(c->v, c->cap * sizeof *c->v);
    }
    c->v[c->n++] = x;
}

static SqValue *cell_of(const SqFixture *f, Cell c) {
    SqResult *r = (SqResult *)&f->tables[c.ft].rows;
    return &r->cells[c.row * r->n_cols + c.col];
}

/* ---- names ------------------------------------------------------------------ */

static const char *const kind_names[] = {"degenerate-empty-vs-null", "needs-null", "needs-format",
                                         "needs-duplicates", "needs-ties"};

const char *sq_cex_kind_name(unsigned kind) {
    for (unsigned k = 0; k < SQ_ARRAY_LEN(kind_names); k++)
        if (kind == 1u << k) return kind_names[k];
    return "robust";
}

unsigned sq_cex_kind_parse(const char *name) {
    for (unsigned k = 0; name && k < SQ_ARRAY_LEN(kind_names); k++)
        if (strcmp(name, kind_names[k]) == 0) return 1u << k;
    return 0;
}

void sq_cex_kind_names(unsigned kinds, const char *sep, SqBuf *out) {
    if (!kinds) {
        sq_buf_puts(out, "robust");
        return;
    }
    int first = 1;
    for (unsigned k = 0; k < SQ_ARRAY_LEN(kind_names); k++)
        if (kinds & (1u << k)) {
            if (!first) sq_buf_puts(out, sep);
            sq_buf_puts(out, kind_names[k]);
            first = 0;
        }
}

void sq_cex_kinds_free(SqCexKinds *k) {
    if (!k) return;
    sq_arena_free(k->arena);
    memset(k, 0, sizeof *k);
}

/* ---- running ---------------------------------------------------------------------- */

/* 1 when the queries differ on f, 0 when not, -1 when f or a query does
** not run. */
static int differs(const SqCexInput *in, const SqFixture *f) {
    static const SqExecLimits lim = {10.0, 1000000, (uint64_t)64 << 20, 0, 0};
    SqResult r1, r2;
    sq_result_init(&r1);
    sq_result_init(&r2);
    char *err = NULL;
    int d = sq_fixture_differs_ex(f, in->sql1, in->sql2, in->mode, in->order_matters, &lim, &r1, &r2, &err);
    free(err);
    sq_result_free(&r1);
    sq_result_free(&r2);
    return d;
}

/* ---- suspects ----------------------------------------------------------------------- */

static int declared_unique(const CatTable *t, uint32_t col) { return sq_table_cols_unique(t, &col, 1); }

/* Whether a row before row holds v in column col of r. */
static int repeated(const SqResult *r, uint64_t row, uint32_t col, const SqValue *v) {
    for (uint64_t i = 0; i < row; i++)
        if (sq_value_equal(sq_result_cell(r, i, col), v)) return 1;
    return 0;
}

static int suspect(const SqFixture *f, const SqColumnProfile *cp, unsigned kind, uint32_t t, uint64_t row,
                   uint32_t col) {
    const SqResult *r = &f->tables[t].rows;
    const SqValue *v = sq_result_cell(r, row, col);
    switch (kind) {
    case SQ_CEX_NEEDS_NULL: return v->type == SQ_VAL_NULL && sq_profile_never_null(cp);
    case SQ_CEX_NEEDS_FORMAT: return v->type != SQ_VAL_NULL && cp->shapes && !(sq_value_shape(v) & cp->shapes);
    default:
        return v->type != SQ_VAL_NULL && sq_profile_unique(cp) && !declared_unique(cp->table, col) &&
               repeated(r, row, col, v);
    }
}

static void find_suspects(const SqCexInput *in, unsigned kind, Cells *out) {
    const SqFixture *f = in->fixture;
    for (uint32_t t = 0; t < f->n_tables; t++) {
        const SqResult *r = &f->tables[t].rows;
        for (uint32_t c = 0; c < r->n_cols; c++) {
            const SqColumnProfile *cp = sq_profile_column(in->profile, f->tables[t].table, c);
            if (!cp) continue;
            for (uint64_t i = 0; i < r->n_rows; i++)
                if (suspect(f, cp, kind, t, i, c)) cells_add(out, (Cell){t, i, c});
        }
    }
}

/* ---- repairs --------------------------------------------------------------------------- */

/* Whether v in column col of row would give that row the same values as
** another row on every column of some declared key (NULLs differ), or
** repeat a value in a column that must stay unique (must_differ). */
static int clashes(const SqResult *r, const CatTable *t, uint64_t row, uint32_t col, const SqValue *v,
                   int must_differ) {
    for (uint64_t i = 0; i < r->n_rows; i++) {
        if (i == row) continue;
        if (must_differ && sq_value_equal(sq_result_cell(r, i, col), v)) return 1;
        for (uint32_t k = 0; k < t->n_keys; k++) {
            const CatKey *key = &t->keys[k];
            int in_key = 0, same = 1;
            for (uint32_t j = 0; j < key->n_cols && same; j++) {
                uint32_t c = key->cols[j];
                const SqValue *mine = c == col ? v : sq_result_cell(r, row, c);
                in_key |= c == col;
                same = mine->type != SQ_VAL_NULL && sq_value_equal(mine, sq_result_cell(r, i, c));
            }
            if (in_key && same) return 1;
        }
    }
    return 0;
}

/* Whether v may replace the cell. */
static int fits(const SqFixture *f, Cell cell, const SqColumnProfile *cp, unsigned kind, const SqValue *v) {
    if (v->type == SQ_VAL_NULL || (cp->shapes && !(sq_value_shape(v) & cp->shapes))) return 0;
    int must_differ = kind == SQ_CEX_NEEDS_DUPLICATES || sq_profile_unique(cp);
    return !clashes(&f->tables[cell.ft].rows, f->tables[cell.ft].table, cell.row, cell.col, v, must_differ);
}

/* The values of the column a foreign key of t sends col to, in f. */
static const SqResult *referenced(const SqFixture *f, const CatTable *t, uint32_t col, uint32_t *tcol) {
    for (uint32_t k = 0; k < t->n_fks; k++) {
        const CatForeignKey *fk = &t->fks[k];
        if (!fk->target || !fk->target_cols) continue;
        for (uint32_t j = 0; j < fk->n_cols; j++) {
            if (fk->cols[j] != col) continue;
            for (uint32_t i = 0; i < f->n_tables; i++)
                if (f->tables[i].table == fk->target) {
                    *tcol = fk->target_cols[j];
                    return &f->tables[i].rows;
                }
        }
    }
    return NULL;
}

/* The candidates for a cell, in order: the values of the column its
** foreign key refers to (in the fixture), the column's most common value,
** its min and max (so that the first tries reach both ends of its range),
** its other common values.  The i-th, or NULL past the end. */
static const SqValue *candidate(const SqColumnProfile *cp, const SqResult *ref, uint32_t tcol, uint32_t i) {
    uint64_t n_ref = ref ? ref->n_rows : 0;
    if (i < n_ref) return sq_result_cell(ref, i, tcol);
    i -= (uint32_t)n_ref;
    const SqValue *first[3];
    uint32_t n = 0;
    if (cp->n_common) first[n++] = &cp->common[0];
    if (cp->has_range) first[n++] = &cp->min, first[n++] = &cp->max;
    if (i < n) return first[i];
    i -= n;
    return cp->n_common && i < cp->n_common - 1 ? &cp->common[i + 1] : NULL;
}

/* Replace the cell by the attempt-th value that fits it (the last one that
** fits when there are fewer): 2 when that was the attempt-th, 1 an earlier
** one, 0 when none fits. */
static int repair_cell(const SqCexInput *in, SqFixture *f, Cell cell, unsigned kind, uint32_t attempt) {
    const CatTable *t = f->tables[cell.ft].table;
    const SqColumnProfile *cp = sq_profile_column(in->profile, t, cell.col);
    uint32_t tcol = 0, seen = 0;
    const SqResult *ref = referenced(f, t, cell.col, &tcol);
    SqValue chosen = sq_value_null();
    const SqValue *c;
    for (uint32_t i = 0; (c = candidate(cp, ref, tcol, i)) != NULL && seen <= attempt; i++)
        if (fits(f, cell, cp, kind, c)) chosen = *c, seen++;
    if (!seen) return 0;
    *cell_of(f, cell) = chosen;
    return seen > attempt ? 2 : 1;
}

/* Repair the cells (those of column col only, or all when col is NULL) in
** a copy and run the queries, with the first values that fit, then the
** second ones, ... (up to REPAIR_TRIES copies, while some cell has a
** value not tried): 1 they still differ on some copy, 0 not, -1 a cell
** found no value or no copy ran.  A value that happens to match the
** queries' literals can end a difference that another value keeps. */
enum { REPAIR_TRIES = 4 };

static int try_repair(const SqCexInput *in, const Cells *cells, unsigned kind, const Cell *col) {
    int result = -1;
    for (uint32_t attempt = 0; attempt < REPAIR_TRIES && result != 1; attempt++) {
        SqFixture copy;
        sq_fixture_copy(in->fixture, &copy);
        int ok = 1, fresh = 0;
        for (uint32_t i = 0; i < cells->n && ok; i++) {
            Cell c = cells->v[i];
            if (col && (c.ft != col->ft || c.col != col->col)) continue;
            int r = repair_cell(in, &copy, c, kind, attempt);
            ok = r > 0;
            fresh |= r == 2;
        }
        int d = ok && fresh ? differs(in, &copy) : -1;
        sq_fixture_free(&copy);
        if (!ok || !fresh) break;
        if (d >= 0 && d > result) result = d;
    }
    return result;
}

/* ---- the kinds ---------------------------------------------------------------------- */

static void add_where(SqCexKinds *out, unsigned kind, const SqFixture *f, Cell c, uint32_t *cap) {
    SqValue v = *cell_of(f, c);
    if (v.type == SQ_VAL_TEXT || v.type == SQ_VAL_BLOB) v.s = sq_arena_strndup(out->arena, v.s, v.n);
    *SQ_ARENA_APPEND(out->arena, out->where, out->n_where, *cap) = (SqCexWhere){kind, f->tables[c.ft].table, c.col, v};
}

/* The first cell of each column among cells. */
static void columns_of(const Cells *cells, Cells *cols) {
    for (uint32_t i = 0; i < cells->n; i++) {
        int seen = 0;
        for (uint32_t k = 0; k < cols->n && !seen; k++)
            seen = cols->v[k].ft == cells->v[i].ft && cols->v[k].col == cells->v[i].col;
        if (!seen) cells_add(cols, cells->v[i]);
    }
}

static void one_kind(const SqCexInput *in, unsigned kind, SqCexKinds *out, uint32_t *cap) {
    Cells cells = {0}, cols = {0};
    find_suspects(in, kind, &cells);
    if (cells.n && (!out->tested || try_repair(in, &cells, kind, NULL) != 1)) {
        out->kinds |= kind;
        columns_of(&cells, &cols);
        uint32_t before = out->n_where;
        for (uint32_t k = 0; k < cols.n && out->tested && cols.n > 1; k++)
            if (try_repair(in, &cells, kind, &cols.v[k]) != 1) add_where(out, kind, in->fixture, cols.v[k], cap);
        if (out->n_where == before)
            for (uint32_t k = 0; k < cols.n; k++) add_where(out, kind, in->fixture, cols.v[k], cap);
    }
    free(cells.v);
    free(cols.v);
}

/* Whether r has exactly one row, every value NULL. */
static int one_null_row(const SqResult *r) {
    if (r->n_rows != 1 || r->n_cols == 0) return 0;
    for (uint32_t c = 0; c < r->n_cols; c++)
        if (sq_result_cell(r, 0, c)->type != SQ_VAL_NULL) return 0;
    return 1;
}

unsigned sq_cex_kinds(const SqCexInput *in, SqCexKinds *out) {
    memset(out, 0, sizeof *out);
    out->arena = sq_arena_new();
    if ((in->r1->n_rows == 0 && one_null_row(in->r2)) || (in->r2->n_rows == 0 && one_null_row(in->r1)))
        out->kinds |= SQ_CEX_DEGENERATE;
    if (in->ties) out->kinds |= SQ_CEX_NEEDS_TIES;
    if (!in->profile || !in->fixture) return out->kinds;
    out->tested = differs(in, in->fixture) == 1;
    uint32_t cap = 0;
    one_kind(in, SQ_CEX_NEEDS_NULL, out, &cap);
    one_kind(in, SQ_CEX_NEEDS_FORMAT, out, &cap);
    one_kind(in, SQ_CEX_NEEDS_DUPLICATES, out, &cap);
    return out->kinds;
}
