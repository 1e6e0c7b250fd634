/*
** suitecheck.c -- are the suites squint fixture wrote what their records
** say, by SQLite's own answers?
**
** Test tool for tests/cli/test_fixture.sh (and the fixture report).  For
** every record of DIR/fixture.jsonl with status "ok", each database file
** the record lists is opened read-only and checked:
**   - PRAGMA integrity_check says ok; PRAGMA foreign_key_check finds
**     nothing (the fixture declares its foreign keys);
**   - the gold returns as many rows as the record says, and on the
**     witness (00.sqlite) at least one;
**   - every mutant the database is said to kill gives another result than
**     the gold there, and every other valid mutant the same result (the
**     kill lists are exact, so a mutant said to be equivalent is killed by
**     no database: a false rejection would show here);
**   - every killed mutant names a database of the suite that kills it.
** Results are compared as squint compares them (backend/sqlite/result.h)
** under the record's semantics (spider: a bag, a list when the gold
** sorts, any column order; bird: a set).
**
** Usage: suitecheck DIR.  Prints one line per problem and a last line
** "N suites, N databases, N kills checked, N problems"; exits 0, 1
** (problems) or 2 (usage, unreadable records).
*/
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "api/squint.h"
#include "backend/sqlite/db.h"
#include "backend/sqlite/result.h"
#include "runtime/json.h"
#include "runtime/util.h"

typedef struct Check {
    const char *dir;
    size_t suites, dbs, kills, problems;
} Check;

static void problem(Check *c, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    c->problems++;
}

/* The first value of a PRAGMA's result (heap) and its row count in
** *rows, or NULL.  squint's connections refuse PRAGMAs (db.c's
** authorizer), so this one is SQLite's own, read-only. */
static char *pragma_text(const char *path, const char *pragma, uint64_t *rows) {
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    char *out = NULL;
    *rows = 0;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(db, pragma, -1, &st, NULL) == SQLITE_OK) {
        while (sqlite3_step(st) == SQLITE_ROW) {
            if (!*rows && sqlite3_column_text(st, 0)) out = sq_strdup((const char *)sqlite3_column_text(st, 0));
            (*rows)++;
        }
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    return out;
}

static int in_list(const SqJson *arr, int64_t id) {
    for (uint32_t i = 0; arr && i < arr->n; i++)
        if (arr->items[i]->kind == SQ_JSON_NUMBER && (int64_t)arr->items[i]->num == id) return 1;
    return 0;
}

/* Whether the gold sorts its result (a list under spider semantics). */
static int gold_sorted(const char *db_path, const char *gold) {
    SqContext ctx;
    sq_ctx_init(&ctx);
    int sorted = 0;
    Catalog *cat = sq_ctx_load_sqlite(&ctx, db_path);
    SqArena *a = sq_arena_new();
    SqCompileStatus st;
    IrQuery *q = cat ? sq_ctx_compile_text(&ctx, a, cat, "gold", gold, strlen(gold), &st) : NULL;
    if (q && q->root) sorted = ir_root_sorted(q->root);
    sq_arena_free(a);
    sq_ctx_free(&ctx);
    return sorted;
}

static void check_db(Check *c, const SqJson *rec, const SqJson *db, uint32_t index, SqCompareMode mode) {
    const char *id = sq_json_string(sq_json_get(rec, "id")), *gold = sq_json_string(sq_json_get(rec, "gold"));
    const char *file = sq_json_string(sq_json_get(db, "file"));
    char path[4096];
    snprintf(path, sizeof path, "%s/%s/%s", c->dir, id, file ? file : "?");
    char *err = NULL;
    SqDb *h = sq_db_open(path, &err);
    if (!h) {
        problem(c, "%s: does not open: %s", path, err ? err : "?");
        free(err);
        return;
    }
    c->dbs++;
    uint64_t n = 0;
    char *ic = pragma_text(path, "PRAGMA integrity_check", &n);
    if (!ic || strcmp(ic, "ok") != 0) problem(c, "%s: integrity_check says %s", path, ic ? ic : "nothing");
    free(ic);
    free(pragma_text(path, "PRAGMA foreign_key_check", &n));
    if (n) problem(c, "%s: foreign_key_check finds %llu rows", path, (unsigned long long)n);
    int order = mode == SQ_CMP_SPIDER && gold_sorted(path, gold);
    SqResult g;
    sq_result_init(&g);
    if (sq_db_query(h, gold, NULL, &g, NULL) != SQ_EXEC_OK) problem(c, "%s: the gold does not run", path);
    const SqJson *gold_rows = sq_json_get(sq_json_get(db, "gold"), "rows");
    if (!gold_rows || gold_rows->n != g.n_rows)
        problem(c, "%s: the gold returns %llu rows, the record says %u", path, (unsigned long long)g.n_rows,
                gold_rows ? gold_rows->n : 0);
    if (index == 0 && g.n_rows == 0) problem(c, "%s: the witness gives the gold no row", path);
    const SqJson *kills = sq_json_get(db, "kills"), *mutants = sq_json_get(rec, "mutants");
    for (uint32_t m = 0; mutants && m < mutants->n; m++) {
        const SqJson *mu = mutants->items[m];
        const char *fate = sq_json_string(sq_json_get(mu, "fate")), *sql = sq_json_string(sq_json_get(mu, "sql"));
        if (!fate || !sql || strcmp(fate, "invalid") == 0) continue;
        SqResult r;
        sq_result_init(&r);
        int differs = sq_db_query(h, sql, NULL, &r, NULL) != SQ_EXEC_OK || !sq_result_equal(&g, &r, mode, order);
        int said = in_list(kills, m);
        if (said && differs) c->kills++;
        if (said != differs)
            problem(c, "%s: mutant %u (%s) %s, the record says it %s", path, m, fate,
                    differs ? "is told apart" : "gives the gold's result", said ? "is killed" : "is not");
        sq_result_free(&r);
    }
    sq_result_free(&g);
    sq_db_close(h);
}

static void check_record(Check *c, const SqJson *rec) {
    const char *status = sq_json_string(sq_json_get(rec, "status"));
    if (!status || strcmp(status, "ok") != 0) return;
    c->suites++;
    const char *sem = sq_json_string(sq_json_get(sq_json_get(rec, "options"), "semantics"));
    SqCompareMode mode = sem && strcmp(sem, "bird") == 0 ? SQ_CMP_SET : SQ_CMP_SPIDER;
    const SqJson *dbs = sq_json_get(rec, "databases"), *mutants = sq_json_get(rec, "mutants");
    for (uint32_t i = 0; dbs && i < dbs->n; i++) check_db(c, rec, dbs->items[i], i, mode);
    for (uint32_t m = 0; mutants && m < mutants->n; m++) {
        const SqJson *mu = mutants->items[m];
        const char *fate = sq_json_string(sq_json_get(mu, "fate"));
        const char *by = sq_json_string(sq_json_get(mu, "killed_by"));
        if (!fate || strcmp(fate, "killed") != 0) continue;
        int found = 0;
        for (uint32_t i = 0; by && dbs && i < dbs->n && !found; i++) {
            const char *f = sq_json_string(sq_json_get(dbs->items[i], "file"));
            found = f && strcmp(f, by) == 0 && in_list(sq_json_get(dbs->items[i], "kills"), m);
        }
        if (!found)
            problem(c, "question %s: mutant %u is killed, but not by the database it names",
                    sq_json_string(sq_json_get(rec, "id")), m);
    }
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: suitecheck DIR\n");
        return 2;
    }
    Check c = {argv[1], 0, 0, 0, 0};
    char path[4096];
    snprintf(path, sizeof path, "%s/fixture.jsonl", c.dir);
    size_t len;
    int err;
    char *text = sq_read_file(path, &len, &err);
    if (!text) {
        fprintf(stderr, "suitecheck: cannot read %s\n", path);
        return 2;
    }
    SqArena *a = sq_arena_new();
    for (char *line = text, *end; line < text + len; line = end + 1) {
        end = memchr(line, '\n', (size_t)(text + len - line));
        if (!end) end = text + len;
        const SqJson *rec = sq_json_parse(a, line, (size_t)(end - line), NULL);
        if (!rec) {
            fprintf(stderr, "suitecheck: %s: a line that is not JSON\n", path);
            return 2;
        }
        check_record(&c, rec);
    }
    printf("%zu suites, %zu databases, %zu kills checked, %zu problems\n", c.suites, c.dbs, c.kills, c.problems);
    sq_arena_free(a);
    free(text);
    return c.problems ? 1 : 0;
}
