/*
** catalog_sqlite.c -- load a catalog from a .sqlite database file.
**
** Layer: frontend (the one frontend file allowed to include sqlite3.h).
** The database is opened read-only; the CREATE statements stored in its
** sqlite_schema are parsed with squint's own parser, so a schema read from
** a database means exactly what the same DDL file would.
*/
#include <sqlite3.h>
#include <string.h>

#include "frontend/catalog.h"

static sqlite3 *open_readonly(const char *path, SqDiags *diags) {
    sqlite3 *db = NULL;
    char *uri = sqlite3_mprintf("file:%s?mode=ro", path);
    int rc = sqlite3_open_v2(uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL);
    sqlite3_free(uri);
    if (rc == SQLITE_OK) {
        /* Touch the schema now so that "not a database" shows up here. */
        rc = sqlite3_exec(db, "SELECT count(*) FROM sqlite_schema", NULL, NULL, NULL);
    }
    if (rc != SQLITE_OK) {
        sq_diag_add(diags, SQ_SEV_ERROR, SQ_E_SCHEMA, sq_span(0, 0, 0),
                    "cannot read database '%s': %s", path,
                    db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
        sqlite3_close(db);
        return NULL;
    }
    return db;
}

int sq_catalog_load_sqlite(Catalog *c, const char *path, SqSrcSet *srcs,
                           SqDiags *diags) {
    sqlite3 *db = open_readonly(path, diags);
    if (!db) return -1;
    sqlite3_stmt *st = NULL;
    const char *q = "SELECT name, sql FROM sqlite_schema "
                    "WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' "
                    "ORDER BY rowid";
    if (sqlite3_prepare_v2(db, q, -1, &st, NULL) != SQLITE_OK) {
        sq_diag_add(diags, SQ_SEV_ERROR, SQ_E_SCHEMA, sq_span(0, 0, 0),
                    "cannot read the schema of '%s': %s", path, sqlite3_errmsg(db));
        sqlite3_close(db);
        return -1;
    }
    SqBuf name = SQ_BUF_INIT;
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *obj = (const char *)sqlite3_column_text(st, 0);
        const char *sql = (const char *)sqlite3_column_text(st, 1);
        int len = sqlite3_column_bytes(st, 1);
        sq_buf_reset(&name);
        sq_buf_printf(&name, "%s:sqlite_schema:%s", path, obj ? obj : "?");
        SqSrc *src = sq_src_add_copy(srcs, sq_buf_str(&name), sql ? sql : "", (size_t)len);
        sq_catalog_load_ddl(c, src, diags);
    }
    sq_buf_free(&name);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return 0;
}
