/*
** fixture_show.c -- squint fixture --show N: a few suites as text, read
** back from the files the run wrote (see fixture_show.h).
**
** Layer: cli.  Everything shown is read again: the record from
** fixture.jsonl, the rows from DIR/<id>/NN.sqlite (opened read-only), and
** the results from SQLite running the gold and the mutant there, so what
** a user sees is what the files hold.
*/
#include "cli/fixture_show.h"

#include <stdlib.h>
#include <string.h>

#include "backend/fixture/fixture.h"
#include "backend/sqlite/db.h"
#include "ir/ir.h"
#include "runtime/json.h"
#include "runtime/util.h"

/* Every table of the database, in creation order, as text tables. */
static void show_tables(SqDb *db, SqBuf *out) {
    SqResult names;
    sq_result_init(&names);
    sq_db_query(db, "SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY rowid", NULL, &names, NULL);
    for (uint64_t i = 0; i < names.n_rows; i++) {
        const SqValue *v = sq_result_cell(&names, i, 0);
        if (v->type != SQ_VAL_TEXT) continue;
        SqBuf sql = SQ_BUF_INIT, name = SQ_BUF_INIT;
        sq_buf_put(&name, v->s, v->n);
        sq_buf_puts(&sql, "SELECT * FROM ");
        ir_sql_ident(&sql, sq_buf_str(&name));
        SqResult rows;
        sq_result_init(&rows);
        if (sq_db_query(db, sq_buf_str(&sql), NULL, &rows, NULL) == SQ_EXEC_OK && rows.n_rows) {
            sq_result_table_text(out, &rows, sq_buf_str(&name));
            sq_buf_putc(out, '\n');
        }
        sq_result_free(&rows);
        sq_buf_free(&sql);
        sq_buf_free(&name);
    }
    sq_result_free(&names);
}

static SqDb *open_db(const char *dir, const char *id, const char *file, SqBuf *out) {
    SqBuf path = SQ_BUF_INIT;
    sq_buf_printf(&path, "%s/%s/%s", dir, id, file);
    char *err = NULL;
    SqDb *db = sq_db_open(sq_buf_str(&path), &err);
    if (!db) sq_buf_printf(out, "  (%s does not open: %s)\n", sq_buf_str(&path), err ? err : "?");
    free(err);
    sq_buf_free(&path);
    return db;
}

/* A mutant, the database that kills it, and both results there. */
static void show_mutant(const char *dir, const char *id, const char *gold, const SqJson *mu, SqBuf *out) {
    const char *by = sq_json_string(sq_json_get(mu, "killed_by"));
    const char *sql = sq_json_string(sq_json_get(mu, "sql"));
    const SqJson *mid = sq_json_get(mu, "id");
    sq_buf_printf(out, "mutant %d (%s: %s)\n  %s\nkilled by %s:\n\n", mid ? (int)mid->num : -1,
                  sq_json_string(sq_json_get(mu, "kind")), sq_json_string(sq_json_get(mu, "what")), sql, by);
    SqDb *db = open_db(dir, id, by, out);
    if (!db) return;
    if (strcmp(by, "00.sqlite") != 0) show_tables(db, out);
    SqResult g, m;
    sq_result_init(&g);
    sq_result_init(&m);
    sq_db_query(db, gold, NULL, &g, NULL);
    if (sq_db_query(db, sql, NULL, &m, NULL) == SQ_EXEC_OK) sq_result_side_by_side(&g, "gold", &m, "mutant", out);
    else sq_buf_puts(out, "(the mutant does not run there)\n");
    sq_buf_putc(out, '\n');
    sq_result_free(&g);
    sq_result_free(&m);
    sq_db_close(db);
}

/* The first mutant killed by the witness, and the first killed by another
** database: one of each kind of kill when there are both. */
static void pick_mutants(const SqJson *mutants, const SqJson **pick) {
    pick[0] = pick[1] = NULL;
    for (uint32_t m = 0; mutants && m < mutants->n; m++) {
        const char *by = sq_json_string(sq_json_get(mutants->items[m], "killed_by"));
        if (!by) continue;
        int witness = strcmp(by, "00.sqlite") == 0;
        if (witness && !pick[0]) pick[0] = mutants->items[m];
        if (!witness && !pick[1]) pick[1] = mutants->items[m];
    }
    if (!pick[0] || !pick[1]) /* only one kind: the first two */
        for (uint32_t m = 0, n = 0; mutants && m < mutants->n && n < 2; m++)
            if (sq_json_string(sq_json_get(mutants->items[m], "killed_by"))) pick[n++] = mutants->items[m];
}

static void show_suite(const char *dir, const SqJson *rec, SqBuf *out) {
    const char *id = sq_json_string(sq_json_get(rec, "id")), *gold = sq_json_string(sq_json_get(rec, "gold"));
    const SqJson *dbs = sq_json_get(rec, "databases"), *counts = sq_json_get(rec, "counts");
    const char *text = sq_json_string(sq_json_get(rec, "text"));
    sq_buf_printf(out, "\n== question %s%s%s\n", id, text ? ": " : "", text ? text : "");
    sq_buf_printf(out, "gold: %s\n", gold);
    const SqJson *k = sq_json_get(counts, "killed"), *e = sq_json_get(counts, "equivalent");
    const SqJson *u = sq_json_get(counts, "unknown");
    sq_buf_printf(out, "suite: %u database%s; mutants killed %d, proved equivalent %d, unknown %d\n\n",
                  dbs ? dbs->n : 0, dbs && dbs->n == 1 ? "" : "s", k ? (int)k->num : 0, e ? (int)e->num : 0,
                  u ? (int)u->num : 0);
    sq_buf_puts(out, "witness 00.sqlite:\n\n");
    SqDb *db = open_db(dir, id, "00.sqlite", out);
    if (db) {
        show_tables(db, out);
        SqResult g;
        sq_result_init(&g);
        if (sq_db_query(db, gold, NULL, &g, NULL) == SQ_EXEC_OK) sq_result_table_text(out, &g, "the gold's rows");
        sq_buf_putc(out, '\n');
        sq_result_free(&g);
        sq_db_close(db);
    }
    const SqJson *pick[2];
    pick_mutants(sq_json_get(rec, "mutants"), pick);
    for (int i = 0; i < 2; i++)
        if (pick[i]) show_mutant(dir, id, gold, pick[i], out);
}

typedef struct Shown {
    double question;
    const SqJson *rec;
} Shown;

static int by_question(const void *a, const void *b) {
    double x = ((const Shown *)a)->question, y = ((const Shown *)b)->question;
    return (x > y) - (x < y);
}

void fixture_show(const char *dir, const SqEvalLine *lines, size_t n_lines, size_t n, SqBuf *out) {
    SqArena *a = sq_arena_new();
    Shown *ok = sq_calloc(n_lines + 1, sizeof *ok);
    size_t n_ok = 0;
    for (size_t i = 0; i < n_lines; i++) {
        const SqJson *rec = sq_json_parse(a, lines[i].text, lines[i].n, NULL);
        const char *status = sq_json_string(sq_json_get(rec, "status"));
        const SqJson *q = sq_json_get(rec, "question");
        if (status && strcmp(status, "ok") == 0 && q && q->kind == SQ_JSON_NUMBER) ok[n_ok++] = (Shown){q->num, rec};
    }
    qsort(ok, n_ok, sizeof *ok, by_question);
    for (size_t i = 0; i < n_ok && i < n; i++) show_suite(dir, ok[i].rec, out);
    free(ok);
    sq_arena_free(a);
}
