/*
** rows.c -- the synthesizer's INSERT statements cleaned into rows that a
** database of the schema takes, as seed 000's rule-based postprocessing
** describes: statements that are not INSERT ... VALUES into a table of
** the schema are dropped; a column the table does not have is dropped
** with its values; a row with too few values is padded with NULL and one
** with too many is cut; and a row is kept only when SQLite takes it
** after the rows kept before, with every constraint of the schema
** enforced (types of STRICT tables, NOT NULL, UNIQUE, PRIMARY KEY, CHECK,
** and foreign keys, switched on).
**
** The statements are parsed by squint's own parser, and each row is
** written again as one INSERT naming its columns, its values the exact
** text of the parsed expressions.  Each row is tried on a fresh in-memory
** database built from the schema and the rows kept so far: quadratic in
** the rows, which are few (a test database), and it needs no writable
** connection beyond backend/sqlite's in-memory one.
*/
#include <stdlib.h>
#include <string.h>

#include "backend/fixture/fixture.h"
#include "backend/prompt/prompt_data.h"
#include "backend/sqlite/db.h"
#include "backend/synsql/synsql_int.h"
#include "grammar/parse.h"
#include "runtime/util.h"

/* At most this many rows are tried per round; the rest are dropped. */
#define MAX_ROWS 400
/* Drops listed in the report (all are counted). */
#define MAX_DROPS_LISTED 40

static void put_ident(SqBuf *b, const char *name) {
    sq_buf_putc(b, '"');
    for (const char *p = name; *p; p++) {
        if (*p == '"') sq_buf_putc(b, '"');
        sq_buf_putc(b, *p);
    }
    sq_buf_putc(b, '"');
}

static void drop(SynRows *rows, uint32_t stmt, long row, const char *why) {
    rows->dropped++;
    if (rows->n_drops++ >= MAX_DROPS_LISTED) return;
    SqJsonWriter w;
    sq_jw_init(&w, &rows->drops, 0);
    if (rows->drops.len) sq_buf_putc(&rows->drops, ',');
    sq_jw_obj_begin(&w);
    sq_jw_key(&w, "statement");
    sq_jw_int(&w, stmt + 1);
    sq_jw_key(&w, "row");
    if (row >= 0) sq_jw_int(&w, row + 1);
    else sq_jw_null(&w);
    sq_jw_key(&w, "why");
    sq_jw_str(&w, why);
    sq_jw_obj_end(&w);
}

/* Keep row_sql when SQLite takes it after the rows kept so far. */
static void try_row(SynRows *rows, const char *schema_sql, const char *row_sql, uint32_t stmt, long row) {
    SqBuf script = SQ_BUF_INIT;
    sq_buf_puts(&script, "PRAGMA foreign_keys = ON;\n");
    sq_buf_puts(&script, schema_sql);
    sq_buf_puts(&script, "\n");
    sq_buf_puts(&script, sq_buf_str(&rows->script));
    sq_buf_puts(&script, row_sql);
    char *err = NULL;
    SqDb *db = sq_db_open_memory(script.data, &err);
    if (db) {
        sq_buf_puts(&rows->script, row_sql);
        rows->kept++;
    } else {
        const char *why = err ? err : "SQLite refused it";
        const char *colon = strstr(why, "script: ");   /* the message names the script; the reason follows */
        drop(rows, stmt, row, colon ? colon + 8 : why);
    }
    sq_db_close(db);
    free(err);
    sq_buf_free(&script);
}

/* The table columns the statement's column list names (-1: none such),
** or every visible column when it names none.  The count. */
static uint32_t target_columns(const CatTable *t, const AstInsert *ins, int *cols, uint32_t cap, SqBuf *lost) {
    if (!ins->cols.n) {
        uint32_t n = 0;
        for (uint32_t k = 0; k < t->n_cols && n < cap; k++)
            if (!t->cols[k].hidden) cols[n++] = (int)k;
        return n;
    }
    uint32_t n = ins->cols.n < cap ? ins->cols.n : cap;
    for (uint32_t j = 0; j < n; j++) {
        cols[j] = sq_table_column(t, ins->cols.items[j].key);
        if (cols[j] < 0) sq_buf_printf(lost, "%s%s", lost->len ? ", " : "", ins->cols.items[j].text);
    }
    return n;
}

/* One row of a VALUES list as its own INSERT. */
static void row_insert(SynRows *rows, const SqSrc *src, const CatTable *t, const int *cols, uint32_t n_cols,
                       const AstExprList *values, SqBuf *out) {
    sq_buf_puts(out, "INSERT INTO ");
    put_ident(out, t->name);
    sq_buf_puts(out, " (");
    int first = 1;
    for (uint32_t j = 0; j < n_cols; j++) {
        if (cols[j] < 0) continue;
        if (!first) sq_buf_puts(out, ", ");
        put_ident(out, t->cols[cols[j]].name);
        first = 0;
    }
    sq_buf_puts(out, ") VALUES (");
    first = 1;
    for (uint32_t j = 0; j < n_cols; j++) {
        if (cols[j] < 0) continue;
        if (!first) sq_buf_puts(out, ", ");
        first = 0;
        if (j < values->n) {
            SrcSpan s = values->items[j]->span;
            sq_buf_put(out, src->text + s.start, s.end - s.start);
        } else {
            sq_buf_puts(out, "NULL");
        }
    }
    sq_buf_puts(out, ");\n");
    if (values->n < n_cols) rows->padded++;
    if (values->n > n_cols) rows->truncated++;
}

static void statement(const Catalog *cat, const char *schema_sql, const SqSrc *src, const AstStmt *st, uint32_t k,
                      SynRows *rows) {
    const AstInsert *ins = st->kind == AST_STMT_INSERT ? st->u.insert : NULL;
    if (!ins || !ins->select || ins->select->kind != AST_SEL_VALUES || ins->with || ins->upsert) {
        drop(rows, k, -1, ins ? "not an INSERT ... VALUES statement" : "not an INSERT statement");
        return;
    }
    CatTable *t = sq_catalog_table(cat, ins->table.name.key);
    if (!t || !sq_catalog_is_stored(t)) {
        SqBuf why = SQ_BUF_INIT;
        sq_buf_printf(&why, "no table %s in the schema", ins->table.name.text);
        drop(rows, k, -1, why.data);
        sq_buf_free(&why);
        return;
    }
    int cols[256];
    SqBuf lost = SQ_BUF_INIT, row = SQ_BUF_INIT;
    uint32_t n_cols = target_columns(t, ins, cols, 256, &lost);
    if (lost.len) {   /* dropped with their values, the rows kept */
        SqBuf why = SQ_BUF_INIT;
        sq_buf_printf(&why, "no column %s in %s: left out", lost.data, t->name);
        drop(rows, k, -1, why.data);
        rows->dropped--;   /* a column, not a row */
        sq_buf_free(&why);
    }
    for (uint32_t i = 0; i < ins->select->n_rows; i++) {
        if (rows->kept + rows->dropped >= MAX_ROWS) {
            drop(rows, k, (long)i, "past the rows a round may have");
            continue;
        }
        sq_buf_reset(&row);
        row_insert(rows, src, t, cols, n_cols, &ins->select->rows[i].values, &row);
        try_row(rows, schema_sql, row.data, k, (long)i);
    }
    sq_buf_free(&lost);
    sq_buf_free(&row);
}

void syn_rows_build(const Catalog *cat, const char *schema_sql, const char *sql, SynRows *rows) {
    memset(rows, 0, sizeof *rows);
    SqSrcSet srcs;
    sq_srcset_init(&srcs);
    SqDiags diags;
    sq_diags_init(&diags, &srcs);
    SqSrc *src = sq_src_add_copy(&srcs, "synthesizer reply", sql, strlen(sql));
    SqParser *p = sq_parser_new(src, cat->names, &diags);
    SqArena *a = sq_arena_new();
    SqParseResult res;
    SqParseStatus st;
    for (uint32_t k = 0; (st = sq_parser_next(p, a, &res)) != SQ_PARSE_END; k++) {
        if (st == SQ_PARSE_ERROR) drop(rows, k, -1, "does not parse as SQLite SQL");
        else statement(cat, schema_sql, src, res.stmt, k, rows);
    }
    sq_arena_free(a);
    sq_parser_free(p);
    sq_diags_free(&diags);
    sq_srcset_free(&srcs);
}

void syn_rows_free(SynRows *rows) {
    sq_buf_free(&rows->script);
    sq_buf_free(&rows->drops);
}

int syn_rows_text(const SynColumns *c, const char *schema_sql, const SynRows *rows, SqBuf *out, SqBuf *why) {
    SqBuf script = SQ_BUF_INIT;
    sq_buf_printf(&script, "%s\n%s", schema_sql, sq_buf_str(&rows->script));
    char *err = NULL;
    SqDb *db = sq_db_open_memory(script.data, &err);
    sq_buf_free(&script);
    if (!db) {
        sq_buf_puts(why, err ? err : "the rows do not load");
        free(err);
        return -1;
    }
    for (uint32_t t = 0; t < c->cat->n_tables; t++) {
        if (!c->keep[t]) continue;
        const CatTable *table = c->cat->tables[t];
        SqBuf q = SQ_BUF_INIT;
        sq_buf_puts(&q, "SELECT ");
        int first = 1;
        for (uint32_t k = 0; k < table->n_cols; k++) {
            if (!c->on[t][k]) continue;
            if (!first) sq_buf_puts(&q, ", ");
            put_ident(&q, table->cols[k].name);
            first = 0;
        }
        sq_buf_puts(&q, " FROM ");
        put_ident(&q, table->name);
        SqResult r;
        sq_result_init(&r);
        if (sq_db_query(db, q.data, NULL, &r, &err) == SQ_EXEC_OK) {
            if (out->len) sq_buf_putc(out, '\n');
            sq_result_table_text(out, &r, table->name);
        }
        free(err);
        err = NULL;
        sq_result_free(&r);
        sq_buf_free(&q);
    }
    sq_db_close(db);
    return 0;
}

void syn_rows_json(SqJsonWriter *w, const SynRows *rows) {
    sq_jw_key(w, "rows_kept");
    sq_jw_int(w, (int64_t)rows->kept);
    sq_jw_key(w, "rows_dropped");
    sq_jw_int(w, (int64_t)rows->dropped);
    sq_jw_key(w, "padded");
    sq_jw_int(w, (int64_t)rows->padded);
    sq_jw_key(w, "truncated");
    sq_jw_int(w, (int64_t)rows->truncated);
    sq_jw_key(w, "dropped");
    SqBuf list = SQ_BUF_INIT;
    sq_buf_printf(&list, "[%s]", sq_buf_str(&rows->drops));
    sq_jw_raw(w, list.data);
    sq_buf_free(&list);
}

size_t sq_synsql_rows(const Catalog *cat, const char *sql, SqJsonWriter *w) {
    SqBuf ddl = SQ_BUF_INIT;
    sq_prompt_tables_ddl(cat, NULL, NULL, &ddl);
    SynRows rows;
    syn_rows_build(cat, sq_buf_str(&ddl), sql, &rows);
    syn_rows_json(w, &rows);
    size_t kept = rows.kept;
    syn_rows_free(&rows);
    sq_buf_free(&ddl);
    return kept;
}
