/*
** prompt_data.c -- slot values from squint's data (see prompt_data.h):
** the schema a query needs, sample rows, a counterexample and results
** read back from JSON.
**
** Layer: backend/prompt.  Uses backend/emit (the CREATE TABLE writer and
** which tables a query needs), backend/sqlite (the read-only database)
** and backend/fixture (text tables).  Owns nothing past a call.
**
** Sections: schema; sample rows; JSON tables.
*/
#include "backend/prompt/prompt_data.h"

#include <stdlib.h>
#include <string.h>

#include "backend/emit/emit.h"
#include "backend/fixture/fixture.h"

/* ------------------------------------------------------------------ */
/* Schema                                                              */
/* ------------------------------------------------------------------ */

uint32_t sq_prompt_tables_ddl(const Catalog *cat, const uint8_t *keep, const SqPromptNotes *notes, SqBuf *out) {
    if (!cat->n_tables) return 0;
    const CatTable **order = sq_calloc(cat->n_tables, sizeof *order);
    uint32_t n_tables = sq_ddl_order(cat, keep, order);
    for (uint32_t i = 0; i < n_tables; i++) {
        if (i) sq_buf_putc(out, '\n');
        sq_prompt_create_table(notes, cat, order[i], out);
    }
    free(order);
    return n_tables;
}

uint32_t sq_prompt_schema(const Catalog *cat, IrQuery *const *qs, size_t n, const SqPromptNotes *notes,
                          SqBuf *out) {
    if (!cat->n_tables) return 0;
    uint8_t *keep = sq_calloc(cat->n_tables, 1);
    for (size_t i = 0; i < n; i++) sq_ddl_keep_query(cat, qs[i], keep);
    uint32_t n_tables = sq_prompt_tables_ddl(cat, keep, notes, out);
    free(keep);
    return n_tables;
}

/* ------------------------------------------------------------------ */
/* Sample rows                                                         */
/* ------------------------------------------------------------------ */

/* Where a cut value may end: not inside a UTF-8 character. */
static uint32_t cut_point(const char *s, uint32_t n) {
    while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80) n--;
    return n;
}

/* Cut every TEXT and BLOB value of r longer than SQ_PROMPT_MAX_VALUE. */
static void cut_long_values(SqResult *r) {
    for (uint64_t i = 0; i < r->n_rows * r->n_cols; i++) {
        SqValue *v = &r->cells[i];
        if ((v->type != SQ_VAL_TEXT && v->type != SQ_VAL_BLOB) || v->n <= SQ_PROMPT_MAX_VALUE) continue;
        uint32_t n = v->type == SQ_VAL_TEXT ? cut_point(v->s, SQ_PROMPT_MAX_VALUE) : SQ_PROMPT_MAX_VALUE;
        SqBuf b = SQ_BUF_INIT;
        sq_buf_put(&b, v->s, n);
        sq_buf_puts(&b, "...");
        *v = v->type == SQ_VAL_TEXT ? sq_result_text(r, b.data, (uint32_t)b.len) : sq_result_blob(r, b.data, (uint32_t)b.len);
        sq_buf_free(&b);
    }
}

/* SELECT * FROM t [ORDER BY _rowid_] LIMIT k: a rowid table's rows in
** rowid order, a WITHOUT ROWID table's in its primary key's. */
static void sample_sql(SqBuf *sql, const CatTable *t, uint32_t k) {
    sq_buf_puts(sql, "SELECT * FROM ");
    ir_sql_ident(sql, t->name);
    if (!t->without_rowid) sq_buf_puts(sql, " ORDER BY _rowid_");
    sq_buf_printf(sql, " LIMIT %u", k);
}

static int sample_table(SqDb *db, const CatTable *t, uint32_t k, SqBuf *out, char **err) {
    SqBuf sql = SQ_BUF_INIT;
    sample_sql(&sql, t, k);
    SqExecLimits lim = {10.0, k, 0, 0, 1};
    SqResult r;
    sq_result_init(&r);
    SqExecStatus st = sq_db_query(db, sq_buf_str(&sql), &lim, &r, err);
    if (st == SQ_EXEC_OK) {
        cut_long_values(&r);
        sq_result_table_text(out, &r, t->name);
    }
    sq_result_free(&r);
    sq_buf_free(&sql);
    return st == SQ_EXEC_OK ? 0 : -1;
}

int sq_prompt_sample_rows(SqDb *db, const Catalog *cat, const IrQuery *q, uint32_t k, SqBuf *out, char **err) {
    if (!cat->n_tables) return 0;
    uint8_t *keep = sq_calloc(cat->n_tables, 1);
    for (uint32_t i = 0; i < q->n_rels; i++) {
        const IrRel *r = q->rels[i];
        uint32_t at = r && r->kind == IR_SCAN && r->u.scan.table ? sq_catalog_pos(cat, r->u.scan.table) : cat->n_tables;
        if (at < cat->n_tables) keep[at] = 1;
    }
    const CatTable **order = sq_calloc(cat->n_tables, sizeof *order);
    uint32_t n = sq_ddl_order(cat, keep, order);
    int rc = 0;
    for (uint32_t i = 0; i < n && rc == 0; i++) {
        if (i) sq_buf_putc(out, '\n');
        rc = sample_table(db, order[i], k, out, err);
    }
    free(order);
    free(keep);
    return rc;
}

/* ------------------------------------------------------------------ */
/* JSON tables                                                         */
/* ------------------------------------------------------------------ */

/* {"blob": HEX} or {"text": HEX} (sq_value_json's forms for what a JSON
** string cannot carry) as a value of r; 0 when malformed. */
static int hex_value(SqResult *r, const SqJson *j, SqValue *v) {
    const SqJson *h = sq_json_get(j, "blob");
    int is_blob = h != NULL;
    if (!h) h = sq_json_get(j, "text");
    if (!h || h->kind != SQ_JSON_STRING || h->len % 2) return 0;
    char *bytes = sq_malloc(h->len / 2 + 1);
    int ok = sq_hex_decode(h->str, h->len, bytes) == 0;
    uint32_t n = (uint32_t)(h->len / 2);
    if (ok) *v = is_blob ? sq_result_blob(r, bytes, n) : sq_result_text(r, bytes, n);
    free(bytes);
    return ok;
}

/* One JSON value as sq_value_json writes it, as a value of r; 0 when it
** is none of its forms. */
static int json_value(SqResult *r, const SqJson *j, SqValue *v) {
    switch (j->kind) {
    case SQ_JSON_NULL: *v = sq_value_null(); return 1;
    case SQ_JSON_NUMBER: *v = j->is_int ? sq_value_int(j->inum) : sq_value_real(j->num); return 1;
    case SQ_JSON_STRING: *v = sq_result_text(r, j->str, j->len); return 1;
    case SQ_JSON_OBJECT: return hex_value(r, j, v);
    default: return 0;
    }
}

/* {"columns": [...], "rows": [[...], ...]} into r (started here); 0 when
** malformed. */
static int json_result(const SqJson *j, SqResult *r) {
    const SqJson *cols = sq_json_get(j, "columns"), *rows = sq_json_get(j, "rows");
    if (!cols || cols->kind != SQ_JSON_ARRAY || !rows || rows->kind != SQ_JSON_ARRAY) return 0;
    sq_result_start(r, cols->n);
    for (uint32_t c = 0; c < cols->n; c++) {
        const char *name = sq_json_string(cols->items[c]);
        if (!name) return 0;
        sq_result_set_name(r, c, name);
    }
    for (uint32_t i = 0; i < rows->n; i++) {
        const SqJson *row = rows->items[i];
        if (row->kind != SQ_JSON_ARRAY || row->n != cols->n) return 0;
        SqValue *cells = sq_result_add_row(r);
        for (uint32_t c = 0; c < row->n; c++) {
            SqValue v;
            if (!json_value(r, row->items[c], &v)) return 0;
            cells[c] = v; /* values go to the arena: cells stays where it is */
        }
    }
    return 1;
}

int sq_prompt_result_text(const SqJson *j, SqBuf *out) {
    SqResult r;
    sq_result_init(&r);
    int ok = j && j->kind == SQ_JSON_OBJECT && json_result(j, &r);
    if (ok) sq_result_table_text(out, &r, NULL);
    sq_result_free(&r);
    return ok ? 0 : -1;
}

int sq_prompt_tables_text(const SqJson *j, SqBuf *out) {
    const SqJson *tables = j && j->kind == SQ_JSON_OBJECT ? sq_json_get(j, "tables") : NULL;
    if (!tables || tables->kind != SQ_JSON_ARRAY) return -1;
    SqBuf text = SQ_BUF_INIT;
    int ok = 1;
    for (uint32_t i = 0; i < tables->n && ok; i++) {
        const char *name = sq_json_string(sq_json_get(tables->items[i], "name"));
        SqResult r;
        sq_result_init(&r);
        ok = name && json_result(tables->items[i], &r);
        if (ok) {
            if (i) sq_buf_putc(&text, '\n');
            sq_result_table_text(&text, &r, name);
        }
        sq_result_free(&r);
    }
    if (ok) sq_buf_put(out, sq_buf_str(&text), text.len);
    sq_buf_free(&text);
    return ok ? 0 : -1;
}
