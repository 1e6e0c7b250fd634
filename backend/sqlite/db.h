/*
** db.h -- open SQLite databases read-only and run queries under limits
** (and write new database files from fixture scripts).
**
** Layer: backend/sqlite (db.c is the backend's only includer of
** sqlite3.h; callers never see it).  Takes a database path (or a DDL
** script) and SQL text; gives SqResults with SQLite's storage classes
** kept, or a status and a message.  An SqDb owns its sqlite3 connection;
** sq_db_close() releases it.
**
** Safety, in layers, so that a benchmark database is never modified:
**   1. the file is opened with SQLITE_OPEN_READONLY and the URI parameter
**      mode=ro (plus immutable=1 on request: no locks, no journal check --
**      only for files nothing else writes);
**   2. an authorizer allows only SQLITE_SELECT, SQLITE_READ,
**      SQLITE_FUNCTION (but load_extension()), SQLITE_RECURSIVE and the
**      PRAGMAs that only read (table_info, table_xinfo, index_list,
**      index_info, foreign_key_list); every other action is denied at
**      prepare time.  One exception:
**      SQLITE_UPDATE of sqlite_master, which SQLite asks about when it sets
**      up an eponymous virtual table (json_each, pragma_table_info) for a
**      SELECT; SQLite never lets a statement update that table ("may not
**      be modified"), and such a statement is reported as denied too;
**   3. a prepared statement that sqlite3_stmt_readonly() says would write
**      is refused before it runs (VACUUM and VACUUM INTO, which the
**      authorizer is never asked about: a read-only connection may still
**      write a VACUUM INTO copy elsewhere);
**   4. defensive mode, PRAGMA query_only, no extension loading, no ATTACH.
** A denied statement gives SQ_EXEC_DENIED and never runs.
**
** Limits (SqExecLimits, all optional) bound a runaway query: a deadline
** checked by a progress handler every 1000 VM instructions on a monotonic
** clock, a row count and a byte budget for the TEXT and BLOB values kept.
** One VM instruction is not interruptible (a single huge sort step or a
** randomblob(1e9) call), so a timeout lands "about" on time.
*/
#ifndef SQ_DB_H
#define SQ_DB_H

#include <stdint.h>

#include "frontend/bind.h"
#include "backend/sqlite/result.h"

typedef struct SqDb SqDb;

typedef struct SqExecLimits {
    double timeout_sec;       /* 0 = none; enforced with sqlite3_progress_handler */
    uint64_t max_rows;        /* 0 = none; more rows -> SQ_EXEC_TOO_BIG */
    uint64_t max_bytes;       /* 0 = none; total bytes of text/blob kept -> SQ_EXEC_TOO_BIG */
    uint32_t max_value_bytes; /* 0 = SQLite's limit (1e9); else SQLITE_LIMIT_LENGTH for
                              ** the query: any longer string, blob or table row read
                              ** (even an intermediate one) -> SQ_EXEC_TOO_BIG */
    uint8_t one_statement;    /* as Python's sqlite3 cursor.execute(), which the
                              ** benchmarks' scripts call: anything but blanks and
                              ** comments after the first statement is an error
                              ** (SQ_EXEC_ERROR), found before anything runs */
} SqExecLimits;

typedef enum SqExecStatus {
    SQ_EXEC_OK,      /* *out holds the result */
    SQ_EXEC_ERROR,   /* SQLite reported an error (syntax, no such table, ...) */
    SQ_EXEC_TIMEOUT, /* the deadline passed */
    SQ_EXEC_TOO_BIG, /* a row, byte or length limit was hit, or SQLite ran out of memory */
    SQ_EXEC_DENIED,  /* the statement would do more than read */
} SqExecStatus;

/* Flags of sq_db_open_ex. */
enum {
    SQ_DB_IMMUTABLE = 1, /* add immutable=1 to the URI */
};

/* Open a database file read-only (see the top of this file) and read its
** schema, so that a file that is not a database fails here.  NULL and a
** malloc'd message in *err (when err is not NULL) on failure. */
SqDb *sq_db_open(const char *path, char **err);
SqDb *sq_db_open_ex(const char *path, unsigned flags, char **err);
/* The same with SQLite's clock stopped at now (unix seconds; 0: the real
** clock), as sq_db_open_memory_at. */
SqDb *sq_db_open_at(const char *path, int64_t now, char **err);

/* An in-memory database built by running script (e.g. CREATE TABLE and
** INSERT statements; NULL for none) with no restriction; the authorizer
** and the other guards are switched on after the script ran.  NULL and
** *err when the script fails. */
SqDb *sq_db_open_memory(const char *script, char **err);
/* The same with SQLite's clock stopped at now (unix seconds; 0: the real
** clock): 'now', CURRENT_TIMESTAMP and their kin read that instant. */
SqDb *sq_db_open_memory_at(const char *script, int64_t now, char **err);

/* A database file (SQLite's header tells) opened as sq_db_open does, or
** else a SQL script file run into an in-memory database as
** sq_db_open_memory does (fixtures: DDL and INSERTs). */
SqDb *sq_db_open_file(const char *path, char **err);
/* Whether path starts with SQLite's 16-byte file header: 1 or 0; -1 (errno
** set) when it cannot be opened. */
int sq_db_file_is_sqlite(const char *path);

/* Write a new SQLite database file at path by running script (CREATE and
** INSERT statements, no transaction control) in one transaction on an
** empty database.  The only connection that writes: it is used for
** fixtures the caller built, never on a benchmark database.  path is
** refused when it exists and is neither empty nor a SQLite database, or
** when a journal or WAL file lies next to it; otherwise the file is built
** under a temporary name next to path and renamed over it once the script
** succeeded, so a failure leaves path as it was.  0, or -1 and a malloc'd
** message in *err (when err is not NULL). */
int sq_db_write_file(const char *path, const char *script, char **err);

void sq_db_close(SqDb *db); /* NULL is fine */

/* ---- migrations (migrate.c) ---- */

/* One migration script: text[0..len), NUL-terminated somewhere after. */
typedef struct SqMigration {
    const char *text;
    size_t len;
} SqMigration;

/* Why migrations failed: the script (index; (size_t)-1 for none) and the
** statement's place in it [start, end), SQLite's message (malloc'd). */
typedef struct SqMigrateFail {
    size_t script;
    uint32_t start, end;
    char *msg;
} SqMigrateFail;

/* Run scripts[0..n) in order, statement by statement, on a new private
** in-memory database, and give the schema they leave as DDL (CREATE
** statements as SQLite stores them, each ending ";\n"; malloc'd), or
** NULL with *fail filled (free fail->msg) at the first statement SQLite
** refuses. */
char *sq_db_migrate(const SqMigration *scripts, size_t n, SqMigrateFail *fail);

/* The length of a migration file's "up" part: text up to a line that
** starts a "down" part (-- +goose Down, -- migrate:down, -- +migrate
** Down), or all of it. */
size_t sq_migration_up_len(const char *text, size_t len);

/* Run every statement of sql in turn (one usually); the result of the
** last statement that returns rows (has result columns, even if it gave no
** row) goes into *out, which must have been sq_result_init()ed and is
** freed first.  SQL without such a statement gives SQ_EXEC_OK and an empty
** result with no columns.  lim may be NULL (no limits); the deadline and
** limits cover the whole call.  On any status but SQ_EXEC_OK, *out is
** left empty and *err (when err is not NULL) gets a malloc'd message,
** SQLite's own for SQ_EXEC_ERROR; on SQ_EXEC_OK *err is set to NULL. */
SqExecStatus sq_db_query(SqDb *db, const char *sql, const SqExecLimits *lim,
                         SqResult *out, char **err);

/* The rows sql returns on db (run as sq_db_query does), or -1 when it
** does not run; *all_null (when not NULL) is set to whether every cell
** is NULL.  For a caller that asks only whether a query gives an answer. */
int64_t sq_db_count_rows(SqDb *db, const char *sql, const SqExecLimits *lim, int *all_null);

/* A statement's parameters as SQLite numbers them: names[i] is parameter
** i+1's as written (":id", "?3"), NULL for a bare "?" or an unused
** number. */
typedef struct SqDbParams {
    uint32_t n;
    char **names;
} SqDbParams;

void sq_db_params_free(SqDbParams *p);

/* Prepare sql (its first statement) without running it, and put the
** result columns SQLite gives it, names only, into *out (freed first),
** and its parameters into *params (when not NULL; freed first): what a
** statement takes and returns, asked of SQLite itself (squint compile
** checks its own signature against it).  INSERT, UPDATE and DELETE are
** prepared too, and never run: the statement is prepared without the
** authorizer (nothing it would do can happen unstepped), which is back
** on when this returns.  0, or -1 with SQLite's message in *err
** (malloc'd; when err is not NULL). */
int sq_db_columns(SqDb *db, const char *sql, SqResult *out, SqDbParams *params, char **err);

/* Binder options matching how the linked SQLite library was built, so that
** squint accepts what it accepts (Debian's is built with
** SQLITE_ALLOW_ROWID_IN_VIEW). */
SqBindOptions sq_db_bind_options(void);

/* "ok", "error", "timeout", "too big", "denied". */
const char *sq_exec_status_name(SqExecStatus st);

#endif
