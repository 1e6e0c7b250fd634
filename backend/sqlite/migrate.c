/*
** migrate.c -- a schema given as migrations: scripts that SQLite itself
** runs, in order, on a new in-memory database; what they leave is the
** schema, read back as DDL from sqlite_schema.
**
** SQLite runs them, not squint's catalog, because migrations do what a
** schema script does not (ALTER TABLE ... ADD/RENAME/DROP COLUMN, DROP
** TABLE, data fixes), and SQLite rewrites the stored CREATE statements
** as it goes.  Each script runs statement by statement, so that the one
** SQLite refuses is known by its place.  The database is private and
** dropped at the end; nothing is written anywhere else.
*/
#include <ctype.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "backend/sqlite/db.h"
#include "runtime/strbuf.h"
#include "runtime/util.h"

/* The offset of the first byte of s[from, len) that is neither space
** nor inside a comment. */
static size_t skip_blank(const char *s, size_t from, size_t len) {
    size_t i = from;
    while (i < len) {
        if (isspace((unsigned char)s[i])) {
            i++;
        } else if (i + 1 < len && s[i] == '-' && s[i + 1] == '-') {
            while (i < len && s[i] != '\n') i++;
        } else if (i + 1 < len && s[i] == '/' && s[i + 1] == '*') {
            const char *end = i + 2 < len ? strstr(s + i + 2, "*/") : NULL;
            i = end && (size_t)(end - s) < len ? (size_t)(end - s) + 2 : len;
        } else {
            break;
        }
    }
    return i;
}

/* Run script k to its end, statement by statement; 0, or -1 with *fail
** filled. */
static int run_script(sqlite3 *h, const SqMigration *m, size_t k, SqMigrateFail *fail) {
    const char *text = m->text;
    size_t at = 0;
    while ((at = skip_blank(text, at, m->len)) < m->len) {
        sqlite3_stmt *st = NULL;
        const char *tail = NULL;
        int rc = sqlite3_prepare_v2(h, text + at, (int)(m->len - at), &st, &tail);
        size_t end = tail ? (size_t)(tail - text) : m->len;
        while (rc == SQLITE_OK && st && (rc = sqlite3_step(st)) == SQLITE_ROW) {}
        if (rc == SQLITE_DONE) rc = SQLITE_OK;
        sqlite3_finalize(st);
        if (rc != SQLITE_OK) {
            *fail = (SqMigrateFail){k, (uint32_t)at, (uint32_t)end, sq_strdup(sqlite3_errmsg(h))};
            return -1;
        }
        if (end <= at) break;
        at = end;
    }
    return 0;
}

/* The CREATE statements SQLite keeps, in the order it made them. */
static char *dump_schema(sqlite3 *h, SqMigrateFail *fail) {
    static const char sql[] =
        "SELECT sql FROM sqlite_schema WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' "
        "ORDER BY rowid";
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(h, sql, -1, &st, NULL);
    SqBuf b = SQ_BUF_INIT;
    sq_buf_puts(&b, "");
    if (rc == SQLITE_OK)
        while ((rc = sqlite3_step(st)) == SQLITE_ROW)
            sq_buf_printf(&b, "%s;\n", (const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        *fail = (SqMigrateFail){(size_t)-1, 0, 0, sq_strdup(sqlite3_errmsg(h))};
        sq_buf_free(&b);
        return NULL;
    }
    return sq_buf_detach(&b);
}

char *sq_db_migrate(const SqMigration *scripts, size_t n, SqMigrateFail *fail) {
    memset(fail, 0, sizeof *fail);
    sqlite3 *h = NULL;
    if (sqlite3_open_v2(":memory:", &h, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
        *fail = (SqMigrateFail){(size_t)-1, 0, 0, sq_strdup(h ? sqlite3_errmsg(h) : "out of memory")};
        sqlite3_close(h);
        return NULL;
    }
    char *ddl = NULL;
    size_t k = 0;
    while (k < n && run_script(h, &scripts[k], k, fail) == 0) k++;
    if (k == n) ddl = dump_schema(h, fail);
    sqlite3_close(h);
    return ddl;
}

size_t sq_migration_up_len(const char *text, size_t len) {
    static const char *const down[] = {"-- +goose Down", "-- migrate:down", "-- +migrate Down"};
    for (size_t line = 0; line < len;) {
        for (size_t i = 0; i < SQ_ARRAY_LEN(down); i++) {
            size_t n = strlen(down[i]);
            if (line + n <= len && memcmp(text + line, down[i], n) == 0) return line;
        }
        const char *nl = memchr(text + line, '\n', len - line);
        line = nl ? (size_t)(nl - text) + 1 : len;
    }
    return len;
}
