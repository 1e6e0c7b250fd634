/*
** db.c -- read-only SQLite connections, the authorizer, and query
** execution under a deadline, a row limit and a byte budget.
**
** Layer: backend/sqlite.  Takes paths and SQL text, gives SqResults.  Owns
** the sqlite3 handle of each SqDb.  Library errors become status codes and
** malloc'd messages; nothing here prints.
**
** Sections: messages; the authorizer; opening; writing a database file;
** limits; running a query.
*/
#include "backend/sqlite/db.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "runtime/safewrite.h"
#include "runtime/strbuf.h"
#include "runtime/util.h"

#define PROGRESS_OPS 1000 /* VM instructions between deadline checks */

struct SqDb {
    sqlite3 *h;       /* the connection (owned) */
    double deadline;  /* monotonic seconds; 0 while no timeout runs */
    int is_timed_out; /* the progress handler stopped the statement */
    char *denied;     /* what the authorizer refused first in this query (heap) */
};

/* ------------------------------------------------------------------ */
/* Messages                                                            */
/* ------------------------------------------------------------------ */

static char *msg_vprintf(const char *fmt, va_list ap) {
    SqBuf b = SQ_BUF_INIT;
    sq_buf_vprintf(&b, fmt, ap);
    return sq_buf_detach(&b);
}

static char *msg_printf(const char *fmt, ...) SQ_PRINTF(1, 2);
static char *msg_printf(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    char *m = msg_vprintf(fmt, ap);
    va_end(ap);
    return m;
}

/* Store a message in *err when the caller wants one. */
static void set_err(char **err, const char *fmt, ...) SQ_PRINTF(2, 3);
static void set_err(char **err, const char *fmt, ...) {
    if (!err) return;
    free(*err);
    va_list ap;
    va_start(ap, fmt);
    *err = msg_vprintf(fmt, ap);
    va_end(ap);
}

const char *sq_exec_status_name(SqExecStatus st) {
    switch (st) {
    case SQ_EXEC_OK: return "ok";
    case SQ_EXEC_ERROR: return "error";
    case SQ_EXEC_TIMEOUT: return "timeout";
    case SQ_EXEC_TOO_BIG: return "too big";
    case SQ_EXEC_DENIED: return "denied";
    }
    return "?";
}

/* ------------------------------------------------------------------ */
/* The authorizer                                                      */
/* ------------------------------------------------------------------ */

/* Every action code SQLite asks about, with the name used in messages and
** whether reading needs it.  PRAGMA is allowed per pragma, below. */
static const struct AuthRule {
    int code;
    const char *name;
    int is_allowed;
} auth_rules[] = {
    {SQLITE_CREATE_INDEX, "create index", 0},
    {SQLITE_CREATE_TABLE, "create table", 0},
    {SQLITE_CREATE_TEMP_INDEX, "create temp index", 0},
    {SQLITE_CREATE_TEMP_TABLE, "create temp table", 0},
    {SQLITE_CREATE_TEMP_TRIGGER, "create temp trigger", 0},
    {SQLITE_CREATE_TEMP_VIEW, "create temp view", 0},
    {SQLITE_CREATE_TRIGGER, "create trigger", 0},
    {SQLITE_CREATE_VIEW, "create view", 0},
    {SQLITE_DELETE, "delete", 0},
    {SQLITE_DROP_INDEX, "drop index", 0},
    {SQLITE_DROP_TABLE, "drop table", 0},
    {SQLITE_DROP_TEMP_INDEX, "drop temp index", 0},
    {SQLITE_DROP_TEMP_TABLE, "drop temp table", 0},
    {SQLITE_DROP_TEMP_TRIGGER, "drop temp trigger", 0},
    {SQLITE_DROP_TEMP_VIEW, "drop temp view", 0},
    {SQLITE_DROP_TRIGGER, "drop trigger", 0},
    {SQLITE_DROP_VIEW, "drop view", 0},
    {SQLITE_INSERT, "insert", 0},
    {SQLITE_PRAGMA, "pragma", 0},
    {SQLITE_READ, "read", 1},
    {SQLITE_SELECT, "select", 1},
    {SQLITE_TRANSACTION, "transaction", 0},
    {SQLITE_UPDATE, "update", 0},
    {SQLITE_ATTACH, "attach", 0},
    {SQLITE_DETACH, "detach", 0},
    {SQLITE_ALTER_TABLE, "alter table", 0},
    {SQLITE_REINDEX, "reindex", 0},
    {SQLITE_ANALYZE, "analyze", 0},
    {SQLITE_CREATE_VTABLE, "create virtual table", 0},
    {SQLITE_DROP_VTABLE, "drop virtual table", 0},
    {SQLITE_FUNCTION, "function", 1},
    {SQLITE_SAVEPOINT, "savepoint", 0},
    {SQLITE_RECURSIVE, "recursive", 1},
};

/* PRAGMAs that only report on the schema. */
static const char *const read_pragmas[] = {
    "table_info", "table_xinfo", "index_list", "index_info", "foreign_key_list",
};

static const struct AuthRule *auth_rule(int code) {
    for (size_t k = 0; k < SQ_ARRAY_LEN(auth_rules); k++)
        if (auth_rules[k].code == code) return &auth_rules[k];
    return NULL;
}

static int is_read_pragma(const char *name) {
    for (size_t k = 0; name && k < SQ_ARRAY_LEN(read_pragmas); k++)
        if (sq_stricmp(name, read_pragmas[k]) == 0) return 1;
    return 0;
}

/* CREATE and DROP first ask to write the schema table itself. */
static int is_schema_table(const char *name) {
    return name && (sq_stricmp(name, "sqlite_master") == 0 ||
                    sq_stricmp(name, "sqlite_temp_master") == 0);
}

/* Remember the first refusal of the query for the error message. */
static void note_denial(SqDb *db, const struct AuthRule *rule, int code,
                        const char *arg1, const char *arg2) {
    if (db->denied) return;
    const char *what = arg1 ? arg1 : arg2;
    SqBuf b = SQ_BUF_INIT;
    if (is_schema_table(arg1) && (code == SQLITE_INSERT || code == SQLITE_UPDATE ||
                                  code == SQLITE_DELETE)) {
        sq_buf_puts(&b, "schema change");
        what = NULL;
    } else if (rule) {
        sq_buf_puts(&b, rule->name);
    } else {
        sq_buf_printf(&b, "action %d", code);
    }
    if (what) sq_buf_printf(&b, " \"%s\"", what);
    db->denied = sq_buf_detach(&b);
}

static int authorize(void *arg, int code, const char *arg1, const char *arg2,
                     const char *db_name, const char *trigger) {
    SQ_UNUSED(db_name);
    SQ_UNUSED(trigger);
    const struct AuthRule *rule = auth_rule(code);
    /* load_extension() would run code from a file; it is switched off
    ** (harden), and a query calling it is refused as one that does more
    ** than read, not left to fail as an error */
    if (code == SQLITE_FUNCTION && arg2 && sq_stricmp(arg2, "load_extension") == 0) {
        note_denial(arg, rule, code, arg1, arg2);
        return SQLITE_DENY;
    }
    if (rule && rule->is_allowed) return SQLITE_OK;
    if (code == SQLITE_PRAGMA && is_read_pragma(arg1)) return SQLITE_OK;
    /* Setting up an eponymous virtual table (json_each, pragma_table_info)
    ** asks to update the schema table's columns.  A real UPDATE of it is
    ** refused by SQLite itself ("may not be modified") and by the
    ** read-only statement check, so this opens no way to write. */
    if (code == SQLITE_UPDATE && is_schema_table(arg1)) return SQLITE_OK;
    note_denial(arg, rule, code, arg1, arg2);
    return SQLITE_DENY;
}

/* ------------------------------------------------------------------ */
/* Opening                                                             */
/* ------------------------------------------------------------------ */

/* "file:" URI for path, with mode=<mode> ("ro", or "rwc" for a file being
** written); '%', '?' and '#' are escaped and an absolute path gets an
** empty authority ("file:///abs"). */
static char *file_uri(const char *path, const char *mode, unsigned flags) {
    SqBuf b = SQ_BUF_INIT;
    sq_buf_puts(&b, path[0] == '/' ? "file://" : "file:");
    for (const char *p = path; *p; p++) {
        if (*p == '%' || *p == '?' || *p == '#') sq_buf_printf(&b, "%%%02X", (unsigned char)*p);
        else sq_buf_putc(&b, *p);
    }
    sq_buf_printf(&b, "?mode=%s", mode);
    if (flags & SQ_DB_IMMUTABLE) sq_buf_puts(&b, "&immutable=1");
    return sq_buf_detach(&b);
}

/* Switch on every guard; returns SQLITE_OK or an error code. */
static int harden(SqDb *db) {
    sqlite3 *h = db->h;
    sqlite3_db_config(h, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)NULL);
    sqlite3_db_config(h, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, (int *)NULL);
    sqlite3_limit(h, SQLITE_LIMIT_ATTACHED, 0);
    int rc = sqlite3_exec(h, "PRAGMA query_only = 1", NULL, NULL, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_set_authorizer(h, authorize, db);
    return rc;
}

static SqDb *db_new(sqlite3 *h) {
    SqDb *db = sq_calloc(1, sizeof *db);
    db->h = h;
    return db;
}

void sq_db_close(SqDb *db) {
    if (!db) return;
    sqlite3_close(db->h);
    free(db->denied);
    free(db);
}

/* Close h (which may be NULL) after reporting why opening failed. */
static SqDb *open_failed(sqlite3 *h, int rc, const char *what, char **err) {
    set_err(err, "%s: %s", what, h ? sqlite3_errmsg(h) : sqlite3_errstr(rc));
    sqlite3_close(h);
    return NULL;
}

SqDb *sq_db_open(const char *path, char **err) { return sq_db_open_ex(path, 0, err); }

/* The file at path opened read-only through vfs (NULL: the default). */
static SqDb *open_read_only(const char *path, unsigned flags, const char *vfs, char **err) {
    if (err) *err = NULL;
    char *uri = file_uri(path, "ro", flags);
    sqlite3 *h = NULL;
    int rc = sqlite3_open_v2(uri, &h, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, vfs);
    free(uri);
    if (rc == SQLITE_OK) /* reads the schema: "file is not a database" shows here */
        rc = sqlite3_exec(h, "SELECT count(*) FROM sqlite_master", NULL, NULL, NULL);
    if (rc != SQLITE_OK) {
        char *what = msg_printf("cannot open \"%s\"", path);
        open_failed(h, rc, what, err);
        free(what);
        return NULL;
    }
    SqDb *db = db_new(h);
    if (harden(db) != SQLITE_OK) {
        set_err(err, "cannot protect \"%s\": %s", path, sqlite3_errmsg(h));
        sq_db_close(db);
        return NULL;
    }
    return db;
}

SqDb *sq_db_open_ex(const char *path, unsigned flags, char **err) {
    return open_read_only(path, flags, NULL, err);
}

/* ---- a clock that stands still --------------------------------------------- */

/* A VFS that is the default one but for its clock, which reads the
** instant pinned_ms (a Julian day in milliseconds, SQLite's unit): 'now'
** and CURRENT_TIMESTAMP are then what the equivalence search assumed. */
static sqlite3_vfs pinned_vfs;
static sqlite3_int64 pinned_ms;

static int pinned_time_int64(sqlite3_vfs *vfs, sqlite3_int64 *out) {
    (void)vfs;
    *out = pinned_ms;
    return SQLITE_OK;
}

static int pinned_time(sqlite3_vfs *vfs, double *out) {
    (void)vfs;
    *out = (double)pinned_ms / 86400000.0;
    return SQLITE_OK;
}

static const char *pin_clock(int64_t unix_seconds) {
    if (!pinned_vfs.zName) {
        sqlite3_vfs *base = sqlite3_vfs_find(NULL);
        if (!base) return NULL;
        pinned_vfs = *base;
        pinned_vfs.zName = "squint-pinned-clock";
        pinned_vfs.pNext = NULL;
        pinned_vfs.xCurrentTime = pinned_time;
        if (pinned_vfs.iVersion >= 2) pinned_vfs.xCurrentTimeInt64 = pinned_time_int64;
        if (sqlite3_vfs_register(&pinned_vfs, 0) != SQLITE_OK) return NULL;
    }
    pinned_ms = (sqlite3_int64)unix_seconds * 1000 + (sqlite3_int64)210866760000000LL; /* Julian day of 1970 */
    return pinned_vfs.zName;
}

SqDb *sq_db_open_at(const char *path, int64_t now, char **err) {
    return open_read_only(path, 0, now ? pin_clock(now) : NULL, err);
}

SqDb *sq_db_open_memory(const char *script, char **err) { return sq_db_open_memory_at(script, 0, err); }

SqDb *sq_db_open_memory_at(const char *script, int64_t now, char **err) {
    if (err) *err = NULL;
    sqlite3 *h = NULL;
    const char *vfs = now ? pin_clock(now) : NULL;
    int rc = sqlite3_open_v2(":memory:", &h, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, vfs);
    if (rc == SQLITE_OK && script) rc = sqlite3_exec(h, script, NULL, NULL, NULL);
    if (rc != SQLITE_OK) return open_failed(h, rc, "in-memory database script", err);
    SqDb *db = db_new(h);
    if (harden(db) != SQLITE_OK) {
        set_err(err, "cannot protect the in-memory database: %s", sqlite3_errmsg(h));
        sq_db_close(db);
        return NULL;
    }
    return db;
}

int sq_db_file_is_sqlite(const char *path) {
    static const char header[16] = "SQLite format 3";
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    char head[16];
    int is_db = fread(head, 1, sizeof head, f) == sizeof head && memcmp(head, header, sizeof head) == 0;
    fclose(f);
    return is_db;
}

SqDb *sq_db_open_file(const char *path, char **err) {
    int is_db = sq_db_file_is_sqlite(path);
    if (is_db < 0) {
        set_err(err, "cannot read '%s': %s", path, strerror(errno));
        return NULL;
    }
    if (is_db) return sq_db_open(path, err);
    size_t len;
    int e;
    char *text = sq_read_file(path, &len, &e);
    if (!text) {
        set_err(err, "cannot read '%s': %s", path, strerror(e));
        return NULL;
    }
    SqDb *db = sq_db_open_memory(text, err);
    free(text);
    return db;
}

/* ------------------------------------------------------------------ */
/* Writing a database file                                             */
/* ------------------------------------------------------------------ */

/* Whether a journal or WAL file of an earlier database lies next to path:
** SQLite would play it back into the new file and corrupt it. */
static int has_sidecar(const char *path, char **err) {
    static const char *const suffixes[] = {"-journal", "-wal"};
    for (size_t k = 0; k < SQ_ARRAY_LEN(suffixes); k++) {
        char *side = msg_printf("%s%s", path, suffixes[k]);
        int exists = access(side, F_OK) == 0;
        free(side);
        if (!exists) continue;
        set_err(err, "refusing to write '%s': '%s%s' exists (the database is open, or was "
                "not closed cleanly)", path, path, suffixes[k]);
        return 1;
    }
    return 0;
}

/* 0 when path may be written: it does not exist, or it is an empty file or
** a SQLite database; else -1 and *err. */
static int check_replaceable(const char *path, char **err) {
    if (has_sidecar(path, err)) return -1;
    struct stat st;
    if (stat(path, &st) != 0) {
        if (errno == ENOENT) return 0;
        set_err(err, "cannot write '%s': %s", path, strerror(errno));
        return -1;
    }
    if (S_ISREG(st.st_mode) && st.st_size == 0) return 0;
    int is_db = S_ISREG(st.st_mode) ? sq_db_file_is_sqlite(path) : 0;
    if (is_db < 0) {
        set_err(err, "cannot read '%s': %s", path, strerror(errno));
        return -1;
    }
    if (is_db) return 0;
    set_err(err, "refusing to overwrite '%s': it is neither empty nor a SQLite database", path);
    return -1;
}

/* A new empty file next to path (runtime/safewrite.h); its malloc'd name,
** or NULL and *err. */
static char *create_temp(const char *path, char **err) {
    int e = 0;
    char *name = sq_temp_beside(path, &e);
    if (!name) set_err(err, "cannot write next to '%s': %s", path, strerror(e));
    return name;
}

/* Run script in one transaction on the empty database file tmp; messages
** name path, the file the caller asked for.  0, or -1 and *err. */
static int build_file(const char *tmp, const char *path, const char *script, char **err) {
    char *uri = file_uri(tmp, "rw", 0);
    sqlite3 *h = NULL;
    int rc = sqlite3_open_v2(uri, &h, SQLITE_OPEN_READWRITE | SQLITE_OPEN_URI, NULL);
    free(uri);
    if (rc == SQLITE_OK) { /* the script may write this file and nothing else */
        sqlite3_db_config(h, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)NULL);
        sqlite3_db_config(h, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, (int *)NULL);
        sqlite3_limit(h, SQLITE_LIMIT_ATTACHED, 0);
        rc = sqlite3_exec(h, "BEGIN", NULL, NULL, NULL);
    }
    if (rc == SQLITE_OK) rc = sqlite3_exec(h, script, NULL, NULL, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_exec(h, "COMMIT", NULL, NULL, NULL);
    if (rc != SQLITE_OK)
        set_err(err, "cannot write '%s': %s", path, h ? sqlite3_errmsg(h) : sqlite3_errstr(rc));
    int close_rc = sqlite3_close(h); /* rolls back what did not commit */
    if (rc == SQLITE_OK && close_rc != SQLITE_OK) {
        set_err(err, "cannot write '%s': %s", path, sqlite3_errstr(close_rc));
        rc = close_rc;
    }
    return rc == SQLITE_OK ? 0 : -1;
}

/* The database is built under a temporary name and renamed over path only
** once the script ran whole, so a failure leaves path as it was.  (The
** check and the rename are not atomic together; nothing here guards
** against another process replacing path in between.) */
int sq_db_write_file(const char *path, const char *script, char **err) {
    if (err) *err = NULL;
    if (check_replaceable(path, err) != 0) return -1;
    char *tmp = create_temp(path, err);
    if (!tmp) return -1;
    int rc = build_file(tmp, path, script, err);
    if (rc == 0 && rename(tmp, path) != 0) {
        set_err(err, "cannot write '%s': %s", path, strerror(errno));
        rc = -1;
    }
    if (rc != 0) unlink(tmp);
    free(tmp);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Limits                                                              */
/* ------------------------------------------------------------------ */

static int on_progress(void *arg) {
    SqDb *db = arg;
    if (sq_monotonic_seconds() < db->deadline) return 0;
    db->is_timed_out = 1;
    return 1; /* interrupts the statement */
}

/* What a query changes on the connection, to undo afterwards. */
typedef struct QueryScope {
    int old_length; /* SQLITE_LIMIT_LENGTH before the query */
} QueryScope;

static QueryScope limits_begin(SqDb *db, const SqExecLimits *lim) {
    QueryScope s = {sqlite3_limit(db->h, SQLITE_LIMIT_LENGTH, -1)};
    free(db->denied);
    db->denied = NULL;
    db->is_timed_out = 0;
    db->deadline = 0;
    if (lim->timeout_sec > 0) {
        db->deadline = sq_monotonic_seconds() + lim->timeout_sec;
        sqlite3_progress_handler(db->h, PROGRESS_OPS, on_progress, db);
    }
    if (lim->max_value_bytes) sqlite3_limit(db->h, SQLITE_LIMIT_LENGTH, (int)lim->max_value_bytes);
    return s;
}

static void limits_end(SqDb *db, QueryScope s) {
    sqlite3_progress_handler(db->h, 0, NULL, NULL);
    sqlite3_limit(db->h, SQLITE_LIMIT_LENGTH, s.old_length);
    db->deadline = 0;
}

/* ------------------------------------------------------------------ */
/* Running a query                                                     */
/* ------------------------------------------------------------------ */

/* One call of sq_db_query. */
typedef struct QueryRun {
    SqDb *db;
    const SqExecLimits *lim;
    char **err;
    SqResult rows; /* the statement being collected */
} QueryRun;

/* SQLite refuses writes to its own tables with a plain SQLITE_ERROR and
** the fixed text "table %s may not be modified"; that is a denial too. */
static int is_write_refusal(const char *msg) {
    static const char suffix[] = " may not be modified";
    size_t n = strlen(msg), k = sizeof suffix - 1;
    return strncmp(msg, "table ", 6) == 0 && n > k && strcmp(msg + n - k, suffix) == 0;
}

/* Status and message for a failed prepare or step. */
static SqExecStatus sqlite_failure(QueryRun *q, int rc) {
    SqDb *db = q->db;
    if (db->is_timed_out) {
        set_err(q->err, "query timed out after %g s", q->lim->timeout_sec);
        return SQ_EXEC_TIMEOUT;
    }
    const char *msg = sqlite3_errmsg(db->h);
    switch (rc & 0xff) {
    case SQLITE_AUTH:
        set_err(q->err, "not authorized: %s (the database is read-only)",
                db->denied ? db->denied : "statement");
        return SQ_EXEC_DENIED;
    case SQLITE_READONLY:
        set_err(q->err, "%s", msg);
        return SQ_EXEC_DENIED;
    case SQLITE_TOOBIG:
    case SQLITE_NOMEM:
        set_err(q->err, "%s", msg);
        return SQ_EXEC_TOO_BIG;
    default:
        /* a function the authorizer refuses fails the prepare with a
        ** plain SQLITE_ERROR ("not authorized to use function: X") */
        set_err(q->err, "%s", msg);
        return is_write_refusal(msg) || db->denied ? SQ_EXEC_DENIED : SQ_EXEC_ERROR;
    }
}

static SqExecStatus too_big(QueryRun *q, const char *what, uint64_t limit) {
    set_err(q->err, "result has more than %" PRIu64 " %s", limit, what);
    return SQ_EXEC_TOO_BIG;
}

/* Copy one column of the current row into v, within the byte budget. */
static SqExecStatus copy_value(QueryRun *q, sqlite3_stmt *st, int col, SqValue *v) {
    int type = sqlite3_column_type(st, col);
    if (type == SQLITE_INTEGER) *v = sq_value_int(sqlite3_column_int64(st, col));
    else if (type == SQLITE_FLOAT) *v = sq_value_real(sqlite3_column_double(st, col));
    if (type != SQLITE_TEXT && type != SQLITE_BLOB) return SQ_EXEC_OK;
    const void *p = type == SQLITE_TEXT ? (const void *)sqlite3_column_text(st, col)
                                        : sqlite3_column_blob(st, col);
    uint32_t n = (uint32_t)sqlite3_column_bytes(st, col); /* after the pointer */
    if (!p && (n || type == SQLITE_TEXT)) sq_oom(); /* SQLite's malloc failed */
    uint64_t budget = q->lim->max_bytes;
    if (budget && q->rows.n_bytes + n > budget) return too_big(q, "bytes of text and blobs", budget);
    *v = type == SQLITE_TEXT ? sq_result_text(&q->rows, p, n) : sq_result_blob(&q->rows, p, n);
    return SQ_EXEC_OK;
}

static SqExecStatus copy_row(QueryRun *q, sqlite3_stmt *st) {
    uint64_t max_rows = q->lim->max_rows;
    if (max_rows && q->rows.n_rows >= max_rows) return too_big(q, "rows", max_rows);
    SqValue *row = sq_result_add_row(&q->rows);
    for (uint32_t k = 0; k < q->rows.n_cols; k++) {
        SqExecStatus s = copy_value(q, st, (int)k, &row[k]);
        if (s != SQ_EXEC_OK) return s;
    }
    return SQ_EXEC_OK;
}

/* Step st to the end, collecting its rows into q->rows. */
static SqExecStatus collect(QueryRun *q, sqlite3_stmt *st) {
    uint32_t n_cols = (uint32_t)sqlite3_column_count(st);
    sq_result_start(&q->rows, n_cols);
    for (uint32_t k = 0; k < n_cols; k++) {
        const char *name = sqlite3_column_name(st, (int)k);
        if (!name) sq_oom();
        sq_result_set_name(&q->rows, k, name);
    }
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        SqExecStatus s = copy_row(q, st);
        if (s != SQ_EXEC_OK) return s;
    }
    return rc == SQLITE_DONE ? SQ_EXEC_OK : sqlite_failure(q, rc);
}

/* Run one prepared statement; a statement with result columns replaces
** *out with its rows. */
static SqExecStatus run_stmt(QueryRun *q, sqlite3_stmt *st, SqResult *out) {
    if (!sqlite3_stmt_readonly(st)) {
        set_err(q->err, "not authorized: statement writes (the database is read-only)");
        return SQ_EXEC_DENIED;
    }
    if (sqlite3_column_count(st) == 0) {
        int rc;
        while ((rc = sqlite3_step(st)) == SQLITE_ROW) {}
        return rc == SQLITE_DONE ? SQ_EXEC_OK : sqlite_failure(q, rc);
    }
    SqExecStatus s = collect(q, st);
    if (s == SQ_EXEC_OK) {
        sq_result_free(out);
        *out = q->rows;
        sq_result_init(&q->rows);
    }
    return s;
}

/* The first byte of sql that is not a blank or inside a comment, or NULL
** (the test Python's sqlite3 module makes on what follows a statement). */
static const char *skip_blanks_and_comments(const char *sql) {
    for (const char *p = sql; *p; p++) {
        if (*p == ' ' || *p == '\t' || *p == '\f' || *p == '\n' || *p == '\r') continue;
        if (p[0] == '-' && p[1] == '-') {
            p = strchr(p, '\n');
            if (!p) return NULL;
        } else if (p[0] == '/' && p[1] == '*') {
            p = strstr(p + 2, "*/");
            if (!p) return NULL;
            p++;
        } else {
            return p;
        }
    }
    return NULL;
}

/* SqExecLimits.one_statement: prepare the first statement only. */
static SqExecStatus run_one(QueryRun *q, const char *sql, SqResult *out) {
    sqlite3_stmt *st = NULL;
    const char *tail = NULL;
    int rc = sqlite3_prepare_v2(q->db->h, sql, -1, &st, &tail);
    if (rc != SQLITE_OK) return sqlite_failure(q, rc);
    SqExecStatus s = SQ_EXEC_OK;
    if (tail && skip_blanks_and_comments(tail)) {
        set_err(q->err, "You can only execute one statement at a time.");
        s = SQ_EXEC_ERROR;
    } else if (st) {
        s = run_stmt(q, st, out);
    }
    sqlite3_finalize(st);
    return s;
}

static SqExecStatus run_all(QueryRun *q, const char *sql, SqResult *out) {
    if (q->lim->one_statement) return run_one(q, sql, out);
    const char *tail = sql;
    while (tail && *tail) {
        sqlite3_stmt *st = NULL;
        int rc = sqlite3_prepare_v2(q->db->h, tail, -1, &st, &tail);
        if (rc != SQLITE_OK) return sqlite_failure(q, rc);
        if (!st) continue; /* only whitespace or comments were left */
        SqExecStatus s = run_stmt(q, st, out);
        sqlite3_finalize(st);
        if (s != SQ_EXEC_OK) return s;
    }
    return SQ_EXEC_OK;
}

SqExecStatus sq_db_query(SqDb *db, const char *sql, const SqExecLimits *lim,
                         SqResult *out, char **err) {
    static const SqExecLimits no_limits = {0, 0, 0, 0, 0};
    QueryRun q = {db, lim ? lim : &no_limits, err, {0}};
    sq_result_init(&q.rows);
    if (err) *err = NULL;
    sq_result_free(out);
    QueryScope scope = limits_begin(db, q.lim);
    SqExecStatus s = run_all(&q, sql, out);
    limits_end(db, scope);
    sq_result_free(&q.rows);
    if (s != SQ_EXEC_OK) sq_result_free(out);
    return s;
}

/* Whether the linked SQLite prepares sql (on an empty database). */
static int probe_accepts(const char *sql) {
    sqlite3 *db = NULL;
    int ok = 0;
    if (sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_MEMORY, NULL) == SQLITE_OK) {
        sqlite3_stmt *st = NULL;
        ok = sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK;
        sqlite3_finalize(st);
    }
    sqlite3_close(db);
    return ok;
}

/* Build options do not all show in sqlite3_compileoption_used() (Debian's
** SQLITE_ALLOW_ROWID_IN_VIEW does not), so ask the library by example. */
SqBindOptions sq_db_bind_options(void) {
    static int probed;
    static SqBindOptions o;
    if (!probed) {
        o.rowid_in_view = probe_accepts("SELECT rowid FROM (SELECT 1)");
        o.no_dq_strings = !probe_accepts("SELECT \"no such column\"");
        probed = 1;
    }
    return o;
}

void sq_db_params_free(SqDbParams *p) {
    for (uint32_t i = 0; i < p->n; i++) free(p->names[i]);
    free(p->names);
    memset(p, 0, sizeof *p);
}

int sq_db_columns(SqDb *db, const char *sql, SqResult *out, SqDbParams *params, char **err) {
    if (err) *err = NULL;
    sq_result_free(out);
    if (params) sq_db_params_free(params);
    sqlite3_stmt *st = NULL;
    const char *tail = NULL;
    /* The statement is finalized unstepped, so nothing it would do can
    ** happen: the authorizer, which guards running, is not asked (it is a
    ** call per column read), and INSERT, UPDATE and DELETE prepare too.
    ** The code using the bindings prepares it with no authorizer either. */
    sqlite3_set_authorizer(db->h, NULL, NULL);
    int rc = sqlite3_prepare_v2(db->h, sql, -1, &st, &tail);
    sqlite3_set_authorizer(db->h, authorize, db);
    if (rc != SQLITE_OK || !st) {
        set_err(err, "%s", rc != SQLITE_OK ? sqlite3_errmsg(db->h) : "no statement");
        sqlite3_finalize(st);
        return -1;
    }
    int n = sqlite3_column_count(st);
    sq_result_start(out, (uint32_t)n);
    for (int i = 0; i < n; i++) sq_result_set_name(out, (uint32_t)i, sqlite3_column_name(st, i));
    if (params) {
        params->n = (uint32_t)sqlite3_bind_parameter_count(st);
        params->names = sq_calloc(params->n + 1, sizeof *params->names);
        for (uint32_t i = 0; i < params->n; i++) {
            const char *nm = sqlite3_bind_parameter_name(st, (int)i + 1);
            params->names[i] = nm ? sq_strdup(nm) : NULL;
        }
    }
    sqlite3_finalize(st);
    return 0;
}

int64_t sq_db_count_rows(SqDb *db, const char *sql, const SqExecLimits *lim, int *all_null) {
    SqResult r;
    sq_result_init(&r);
    int64_t n = sq_db_query(db, sql, lim, &r, NULL) == SQ_EXEC_OK ? (int64_t)r.n_rows : -1;
    if (all_null) *all_null = sq_result_all_null(&r);
    sq_result_free(&r);
    return n;
}
