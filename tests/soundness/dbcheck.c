/*
** dbcheck.c -- run a pair on a database given as rows; shrink and
** describe a database that tells the pair apart (see dbcheck.h).
**
** Test support.
*/
#include "tests/soundness/dbcheck.h"

#include <stdlib.h>
#include <string.h>

#include "backend/sqlite/db.h"
#include "tests/soundness/randdb.h"

/* ---- the script ---------------------------------------------------------- */

void db_quote_ident(SqBuf *b, const char *name) {
    sq_buf_putc(b, '"');
    for (const char *p = name; *p; p++) {
        if (*p == '"') sq_buf_putc(b, '"');
        sq_buf_putc(b, *p);
    }
    sq_buf_putc(b, '"');
}

static const SqResult *rows_of(const SqFixture *f, const CatTable *t) {
    for (uint32_t i = 0; i < f->n_tables; i++)
        if (f->tables[i].table == t) return &f->tables[i].rows;
    return NULL;
}

/* INSERTs of a table's rows, at most per rows a statement.  (With foreign
** keys checked, SQLite checks a multi-row INSERT into a parent table
** against its children, and a foreign key it cannot check then fails
** the INSERT as "foreign key mismatch"; row by row it does not, as the
** generator inserted them.) */
static void insert_rows(const CatTable *t, const SqResult *rows, int reverse, uint64_t per, SqBuf *out) {
    for (uint64_t k = 0; k < rows->n_rows; k++) {
        uint64_t i = reverse ? rows->n_rows - 1 - k : k;
        if (k % per == 0) {
            if (k) sq_buf_puts(out, ";\n");
            sq_buf_puts(out, "INSERT INTO ");
            db_quote_ident(out, t->name);
            sq_buf_puts(out, "(");
            const char *sep = "";
            for (uint32_t c = 0; c < t->n_cols; c++) {
                if (t->cols[c].hidden) continue;
                sq_buf_puts(out, sep);
                db_quote_ident(out, t->cols[c].name);
                sep = ", ";
            }
            sq_buf_puts(out, ") VALUES\n  ");
        } else {
            sq_buf_puts(out, ",\n  ");
        }
        sq_buf_puts(out, "(");
        const char *sep = "";
        for (uint32_t c = 0; c < t->n_cols; c++) {
            if (t->cols[c].hidden) continue;
            sq_buf_puts(out, sep);
            sq_value_print(sq_result_cell(rows, i, c), out);
            sep = ", ";
        }
        sq_buf_puts(out, ")");
    }
    if (rows->n_rows) sq_buf_puts(out, ";\n");
}

void db_script(const PairRun *p, const SqFixture *f, unsigned flags, SqBuf *out) {
    if (flags & RUN_REVERSE_SELECTS) sq_buf_puts(out, "PRAGMA reverse_unordered_selects=ON;\n");
    if (flags & RUN_FK) sq_buf_puts(out, "PRAGMA foreign_keys=ON;\n");
    size_t n_ddl = strlen(p->ddl);
    while (n_ddl && (p->ddl[n_ddl - 1] == ' ' || p->ddl[n_ddl - 1] == '\n' || p->ddl[n_ddl - 1] == '\t')) n_ddl--;
    sq_buf_put(out, p->ddl, n_ddl);
    /* a schema whose last statement has no ';' (or ends in a comment) */
    sq_buf_puts(out, n_ddl && p->ddl[n_ddl - 1] == ';' ? "\n" : "\n;\n");
    sq_buf_puts(out, "BEGIN;\n");
    uint32_t n;
    uint32_t *order = rdb_table_order(p->cat, &n);
    for (uint32_t i = 0; i < n; i++) {
        const CatTable *t = p->cat->tables[order[i]];
        const SqResult *rows = rows_of(f, t);
        int reverse = (flags & RUN_REVERSE_ROWS) && (!p->reverse || (p->reverse >> (order[i] % 64) & 1));
        if (rows) insert_rows(t, rows, reverse, flags & RUN_FK ? 1 : 200, out);
    }
    free(order);
    sq_buf_puts(out, "COMMIT;\n");
}

/* ---- running the pair ---------------------------------------------------- */

/* Limits for a query on a small database: a runaway one (a cross join of
** a real database's tables) is stopped rather than waited for. */
static const SqExecLimits limits = {20.0, 200000, 1u << 26, 1u << 20, 0};

/* The query counting the rows of t that break foreign key fk. */
static void orphan_query(const CatTable *t, const CatForeignKey *fk, SqBuf *q) {
    sq_buf_puts(q, "SELECT count(*) FROM ");
    db_quote_ident(q, t->name);
    sq_buf_puts(q, " AS c WHERE ");
    for (uint32_t k = 0; k < fk->n_cols; k++) {
        sq_buf_puts(q, "c.");
        db_quote_ident(q, t->cols[fk->cols[k]].name);
        sq_buf_puts(q, " IS NOT NULL AND ");
    }
    sq_buf_puts(q, "NOT EXISTS (SELECT 1 FROM ");
    db_quote_ident(q, fk->target->name);
    sq_buf_puts(q, " AS p WHERE ");
    for (uint32_t k = 0; k < fk->n_cols; k++) {
        if (k) sq_buf_puts(q, " AND ");
        sq_buf_puts(q, "p.");
        db_quote_ident(q, fk->target->cols[fk->target_cols[k]].name);
        sq_buf_puts(q, " = c.");
        db_quote_ident(q, t->cols[fk->cols[k]].name);
    }
    sq_buf_puts(q, ")");
}

/* Rows that break each foreign key of the catalog, in catalog order (table
** by table, its keys in order) into per[] when per is not NULL; returns
** how many exceed limit[] (NULL: none allowed).  Named in which. */
static uint64_t count_orphans(const Catalog *cat, const SqFixture *f, SqDb *db, SqBuf *which, const uint64_t *limit,
                              uint64_t *per) {
    uint64_t excess = 0;
    uint32_t at = 0; /* the key's number in catalog order */
    for (uint32_t i = 0; i < cat->n_tables; i++) {
        const CatTable *t = cat->tables[i];
        const SqResult *rows = rows_of(f, t);
        for (uint32_t k = 0; k < t->n_fks; k++, at++) {
            const CatForeignKey *fk = &t->fks[k];
            uint64_t m = 0;
            if (rows && rows->n_rows && fk->target && fk->target_cols && sq_catalog_is_stored(fk->target)) {
                SqBuf q = SQ_BUF_INIT;
                orphan_query(t, fk, &q);
                SqResult r;
                sq_result_init(&r);
                if (sq_db_query(db, sq_buf_str(&q), NULL, &r, NULL) == SQ_EXEC_OK && r.n_rows == 1)
                    m = (uint64_t)sq_result_cell(&r, 0, 0)->i;
                sq_result_free(&r);
                sq_buf_free(&q);
            }
            if (per) per[at] = m;
            uint64_t allowed = limit ? limit[at] : 0;
            if (m <= allowed) continue;
            excess += m - allowed;
            if (which) {
                if (which->len) sq_buf_puts(which, ", ");
                sq_buf_printf(which, "%llu of %s -> %s", (unsigned long long)m, t->name, fk->target->name);
            }
        }
    }
    return excess;
}

/* Build f's script (no flags) into a database, or NULL. */
static SqDb *build(const PairRun *p, const SqFixture *f) {
    SqBuf script = SQ_BUF_INIT;
    db_script(p, f, 0, &script);
    SqDb *db = sq_db_open_memory_at(sq_buf_str(&script), f->now, NULL);
    sq_buf_free(&script);
    return db;
}

uint64_t db_orphans(const PairRun *p, const SqFixture *f, SqBuf *which) {
    SqDb *db = build(p, f);
    uint64_t n = db ? count_orphans(p->cat, f, db, which, NULL, NULL) : 0;
    sq_db_close(db);
    return n;
}

uint64_t *db_orphans_per_key(const PairRun *p, const SqFixture *f) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < p->cat->n_tables; i++) n += p->cat->tables[i]->n_fks;
    uint64_t *per = sq_calloc(n + 1, sizeof *per);
    SqDb *db = build(p, f);
    if (db) count_orphans(p->cat, f, db, NULL, NULL, per);
    sq_db_close(db);
    return per;
}

int db_differs(const PairRun *p, const SqFixture *f, unsigned flags, SqResult *r1, SqResult *r2, char **err) {
    SqBuf script = SQ_BUF_INIT;
    db_script(p, f, flags, &script);
    if (err) *err = NULL;
    SqDb *db = sq_db_open_memory_at(sq_buf_str(&script), f->now, err);
    sq_buf_free(&script);
    if (!db) return DB_NO_BUILD;
    if ((flags & RUN_NO_ORPHANS) && count_orphans(p->cat, f, db, NULL, p->orphans, NULL)) {
        if (err) *err = sq_strdup("a row refers to no parent row");
        sq_db_close(db);
        return DB_NO_BUILD;
    }
    int rc = DB_NO_RUN;
    char *e1 = NULL, *e2 = NULL;
    if (sq_db_query(db, p->sql1, &limits, r1, &e1) == SQ_EXEC_OK &&
        sq_db_query(db, p->sql2, &limits, r2, &e2) == SQ_EXEC_OK)
        rc = sq_result_equal(r1, r2, p->mode, p->order_matters) ? DB_SAME : DB_DIFFERENT;
    if (rc == DB_NO_RUN && err) {
        SqBuf b = SQ_BUF_INIT;
        sq_buf_printf(&b, "%s%s%s", e1 ? "query 1: " : "", e1 ? e1 : "", e2 ? "query 2: " : "");
        if (e2) sq_buf_puts(&b, e2);
        *err = sq_buf_detach(&b);
    }
    free(e1);
    free(e2);
    sq_db_close(db);
    return rc;
}

/* The b-trees (tables and indexes, by root page) sql's program opens to
** read, in the order it opens them, as text in out; 0, or -1 when SQLite
** will not explain it. */
static int opened_btrees(SqDb *db, const char *sql, SqBuf *out) {
    SqBuf explain = SQ_BUF_INIT;
    sq_buf_printf(&explain, "EXPLAIN %s", sql);
    SqResult r;
    sq_result_init(&r);
    char *err = NULL;
    int rc = sq_db_query(db, sq_buf_str(&explain), &limits, &r, &err) == SQ_EXEC_OK ? 0 : -1;
    for (uint64_t i = 0; rc == 0 && i < r.n_rows && r.n_cols >= 4; i++) {
        const SqValue *op = sq_result_cell(&r, i, 1), *root = sq_result_cell(&r, i, 3);
        if (op->type == SQ_VAL_TEXT && strcmp(op->s, "OpenRead") == 0 && root->type == SQ_VAL_INTEGER)
            sq_buf_printf(out, "%lld ", (long long)root->i);
    }
    free(err);
    sq_result_free(&r);
    sq_buf_free(&explain);
    return rc;
}

int db_same_scans(const PairRun *p, const SqFixture *f) {
    SqBuf script = SQ_BUF_INIT, a = SQ_BUF_INIT, b = SQ_BUF_INIT;
    db_script(p, f, 0, &script);
    SqDb *db = sq_db_open_memory_at(sq_buf_str(&script), f->now, NULL);
    int same = -1;
    if (db && opened_btrees(db, p->sql1, &a) == 0 && opened_btrees(db, p->sql2, &b) == 0)
        same = strcmp(sq_buf_str(&a), sq_buf_str(&b)) == 0;
    sq_db_close(db);
    sq_buf_free(&script);
    sq_buf_free(&a);
    sq_buf_free(&b);
    return same;
}

int db_run_pair(const PairRun *p, const SqFixture *f, unsigned flags) {
    SqResult r1, r2;
    sq_result_init(&r1);
    sq_result_init(&r2);
    int d = db_differs(p, f, flags, &r1, &r2, NULL);
    sq_result_free(&r1);
    sq_result_free(&r2);
    return d;
}

static int still_differs(const PairRun *p, const SqFixture *f, unsigned flags) {
    return db_run_pair(p, f, flags) == DB_DIFFERENT;
}

/* ---- shrinking ------------------------------------------------------------- */

/* Cut rows [at, at + n) out of r into saved (n * n_cols cells). */
static void cut_rows(SqResult *r, uint64_t at, uint64_t n, SqValue *saved) {
    size_t w = r->n_cols;
    memcpy(saved, &r->cells[at * w], n * w * sizeof *saved);
    memmove(&r->cells[at * w], &r->cells[(at + n) * w], (r->n_rows - at - n) * w * sizeof *saved);
    r->n_rows -= n;
}

static void put_back(SqResult *r, uint64_t at, uint64_t n, const SqValue *saved) {
    size_t w = r->n_cols;
    memmove(&r->cells[(at + n) * w], &r->cells[at * w], (r->n_rows - at) * w * sizeof *saved);
    memcpy(&r->cells[at * w], saved, n * w * sizeof *saved);
    r->n_rows += n;
}

/* One pass over table t with chunks of n rows: the rows removed. */
static uint64_t shrink_table(const PairRun *p, SqFixture *f, SqResult *rows, uint64_t n, unsigned flags,
                             int *runs) {
    uint64_t removed = 0;
    SqValue *saved = sq_calloc(n * rows->n_cols + 1, sizeof *saved);
    for (uint64_t at = 0; at < rows->n_rows && *runs > 0;) {
        uint64_t k = at + n <= rows->n_rows ? n : rows->n_rows - at;
        cut_rows(rows, at, k, saved);
        (*runs)--;
        if (still_differs(p, f, flags)) {
            removed += k;
        } else {
            put_back(rows, at, k, saved);
            at += k;
        }
    }
    free(saved);
    return removed;
}

/* Cells that may be NULL (rdb_nullable) made NULL where the pair still
** differs: what is left is what the difference needs. */
static uint64_t null_cells(const PairRun *p, SqFixture *f, unsigned flags, int *runs) {
    uint64_t n = 0;
    for (uint32_t i = 0; i < f->n_tables && *runs > 0; i++) {
        const CatTable *t = f->tables[i].table;
        SqResult *rows = &f->tables[i].rows;
        for (uint64_t r = 0; r < rows->n_rows && *runs > 0; r++)
            for (uint32_t c = 0; c < t->n_cols && *runs > 0; c++) {
                SqValue *cell = &rows->cells[r * rows->n_cols + c];
                if (cell->type == SQ_VAL_NULL || !rdb_nullable(&t->cols[c]) || t->cols[c].hidden) continue;
                SqValue was = *cell;
                *cell = sq_value_null();
                (*runs)--;
                if (still_differs(p, f, flags)) n++;
                else *cell = was;
            }
    }
    return n;
}

uint64_t db_shrink(const PairRun *p, SqFixture *f, unsigned flags, int max_runs) {
    uint32_t n_order;
    uint32_t *order = rdb_table_order(p->cat, &n_order);
    uint64_t removed = 0, round, nulled;
    do { /* children first: a parent row goes once nothing refers to it */
        do {
            round = 0;
            for (uint32_t i = n_order; i-- > 0 && max_runs > 0;) {
                SqResult *rows = (SqResult *)rows_of(f, p->cat->tables[order[i]]);
                if (!rows || !rows->n_rows) continue;
                for (uint64_t n = rows->n_rows; n >= 1 && max_runs > 0; n /= 2)
                    round += shrink_table(p, f, rows, n, flags, &max_runs);
            }
            removed += round;
        } while (round && max_runs > 0);
        nulled = null_cells(p, f, flags, &max_runs); /* which may free a parent row */
    } while (nulled && max_runs > 0);
    free(order);
    return removed;
}

/* ---- describing a database ------------------------------------------------ */

uint64_t db_rows(const SqFixture *f, uint64_t *largest) {
    uint64_t all = 0;
    *largest = 0;
    for (uint32_t i = 0; i < f->n_tables; i++) {
        uint64_t n = f->tables[i].rows.n_rows;
        all += n;
        if (n > *largest) *largest = n;
    }
    return all;
}

static const char *class_name(int type) {
    static const char *const names[] = {"NULL", "INTEGER", "REAL", "TEXT", "BLOB"};
    return type >= 0 && type <= 4 ? names[type] : "?";
}

static void phrase(SqBuf *out, const char *s) {
    if (out->len) sq_buf_puts(out, "; ");
    sq_buf_puts(out, s);
}

/* Values outside their column's model class: up to three named. */
static void off_class(const SqFixture *f, SqBuf *out) {
    int shown = 0, more = 0;
    for (uint32_t i = 0; i < f->n_tables; i++) {
        const CatTable *t = f->tables[i].table;
        const SqResult *rows = &f->tables[i].rows;
        for (uint32_t c = 0; c < t->n_cols; c++) {
            int cls = rdb_model_class(&t->cols[c]);
            for (uint64_t r = 0; r < rows->n_rows; r++) {
                const SqValue *v = sq_result_cell(rows, r, c);
                if (v->type == SQ_VAL_NULL || v->type == cls) continue;
                if (shown == 3) {
                    more++;
                    continue;
                }
                SqBuf b = SQ_BUF_INIT;
                sq_buf_printf(&b, "%s %s.%s holds ", class_name(v->type), t->name, t->cols[c].name);
                sq_value_print(v, &b);
                sq_buf_printf(&b, " (declared %s, model: %s)", t->cols[c].decl_type ? t->cols[c].decl_type : "no type",
                              class_name(cls));
                phrase(out, sq_buf_str(&b));
                sq_buf_free(&b);
                shown++;
                break; /* one per column */
            }
        }
    }
    if (more) sq_buf_printf(out, " (and %d more column%s)", more, more == 1 ? "" : "s");
}

/* NULL in a primary key column, which SQLite allows in a rowid table and
** the model does not. */
static void null_keys(const SqFixture *f, SqBuf *out) {
    for (uint32_t i = 0; i < f->n_tables; i++) {
        const CatTable *t = f->tables[i].table;
        const SqResult *rows = &f->tables[i].rows;
        for (uint32_t c = 0; c < t->n_cols; c++) {
            if (!t->cols[c].pk) continue;
            for (uint64_t r = 0; r < rows->n_rows; r++)
                if (sq_result_cell(rows, r, c)->type == SQ_VAL_NULL) {
                    SqBuf b = SQ_BUF_INIT;
                    sq_buf_printf(&b, "NULL in primary key column %s.%s (the model takes key columns as NOT NULL)",
                                  t->name, t->cols[c].name);
                    phrase(out, sq_buf_str(&b));
                    sq_buf_free(&b);
                    break;
                }
        }
    }
}

/* Whether some row of rows has every column of fk non-NULL. */
static int fk_used(const SqResult *rows, const CatForeignKey *fk) {
    for (uint64_t r = 0; r < rows->n_rows; r++) {
        uint32_t k = 0;
        while (k < fk->n_cols && sq_result_cell(rows, r, fk->cols[k])->type != SQ_VAL_NULL) k++;
        if (k == fk->n_cols) return 1;
    }
    return 0;
}

/* Foreign keys some row uses between columns the model gives different
** classes. */
static void fk_classes(const SqFixture *f, SqBuf *out) {
    for (uint32_t i = 0; i < f->n_tables; i++) {
        const CatTable *t = f->tables[i].table;
        for (uint32_t k = 0; k < t->n_fks; k++) {
            const CatForeignKey *fk = &t->fks[k];
            if (!fk->target || !fk->target_cols || !fk_used(&f->tables[i].rows, fk)) continue;
            for (uint32_t c = 0; c < fk->n_cols; c++) {
                const CatColumn *a = &t->cols[fk->cols[c]], *b = &fk->target->cols[fk->target_cols[c]];
                if (rdb_model_class(a) == rdb_model_class(b)) continue;
                SqBuf m = SQ_BUF_INIT;
                sq_buf_printf(&m, "foreign key %s.%s (%s) -> %s.%s (%s) joins columns of different affinity", t->name,
                              a->name, a->decl_type ? a->decl_type : "no type", fk->target->name, b->name,
                              b->decl_type ? b->decl_type : "no type");
                phrase(out, sq_buf_str(&m));
                sq_buf_free(&m);
            }
        }
    }
}

void db_diagnose(const PairRun *p, const SqFixture *f, int bound, SqBuf *out) {
    for (uint32_t i = 0; i < f->n_tables; i++)
        if (f->tables[i].rows.n_rows > (uint64_t)bound) {
            SqBuf b = SQ_BUF_INIT;
            sq_buf_printf(&b, "needs more than %d rows (%s has %llu after shrinking)", bound, f->tables[i].table->name,
                          (unsigned long long)f->tables[i].rows.n_rows);
            phrase(out, sq_buf_str(&b));
            sq_buf_free(&b);
            break;
        }
    static const unsigned orders[] = {RUN_REVERSE_ROWS, RUN_REVERSE_SELECTS, RUN_REVERSE_ROWS | RUN_REVERSE_SELECTS};
    for (size_t i = 0; i < sizeof orders / sizeof *orders; i++)
        if (db_run_pair(p, f, orders[i]) == DB_SAME) { /* foreign keys not checked: reversed rows may refer forward */
            phrase(out, "depends on row order (the results agree when the rows come in another order)");
            break;
        }
    SqBuf which = SQ_BUF_INIT;
    if (db_orphans(p, f, &which)) {
        SqBuf b = SQ_BUF_INIT;
        sq_buf_printf(&b, "rows break a foreign key, which the model assumes holds (%s)", sq_buf_str(&which));
        phrase(out, sq_buf_str(&b));
        sq_buf_free(&b);
    }
    sq_buf_free(&which);
    null_keys(f, out);
    off_class(f, out);
    fk_classes(f, out);
}

void db_copy(const SqFixture *src, SqFixture *dst) {
    for (uint32_t i = 0; i < src->n_tables; i++) {
        const SqResult *from = &src->tables[i].rows;
        SqResult *to = sq_fixture_table(dst, src->tables[i].table);
        for (uint64_t r = 0; r < from->n_rows; r++) {
            SqValue *cells = sq_result_add_row(to);
            for (uint32_t c = 0; c < from->n_cols; c++) {
                SqValue v = *sq_result_cell(from, r, c);
                if (v.type == SQ_VAL_TEXT) v = sq_result_text(to, v.s, v.n);
                else if (v.type == SQ_VAL_BLOB) v = sq_result_blob(to, v.s, v.n);
                cells[c] = v;
            }
        }
    }
}
