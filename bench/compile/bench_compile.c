/*
** bench_compile.c -- `squint compile` against sqlite3_prepare_v2 on the
** same annotated query files, in the same process and the same run.
**
** usage: bench_compile ROUNDS SCHEMAS QUERIES OUT
** QUERIES holds one annotated file per database (NAME.sql, made by
** bench/compile/run.sh from BIRD dev's gold), SCHEMAS its DDL (NAME.sql).
** Each round (a) runs the command itself, cmd_compile, on every file
** (parse, bind, infer, SQLite's own check of every query, the warnings and
** lint's rules, the manifest and the C bindings written into OUT), and
** (b) the reference: the schema run on an empty in-memory database and
** every statement of the file prepared (sqlite3_prepare_v2, not stepped).
** Both load their schema once per file.  The rounds alternate the two, and
** the ratio reported is the median of the rounds' ratios (the machine is
** shared: a round's pair sees the same load), with the ratio of the best
** rounds beside it; the CPU ratio counts every thread's time, since
** compile runs SQLite's check and two of its outputs on threads of their
** own.  Diagnostics go to /dev/null.
*/
#include <dirent.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "runtime/util.h"

typedef struct Db {
    char *name;
    char *schema_path, *queries_path, *out_path;
    char *schema, *queries;   /* the texts, for the reference */
} Db;

static double clock_seconds(clockid_t id) {
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double now(void) { return clock_seconds(CLOCK_MONOTONIC); }

/* CPU time of every thread of the process. */
static double cpu(void) { return clock_seconds(CLOCK_PROCESS_CPUTIME_ID); }

static char *path2(const char *dir, const char *name) {
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = sq_malloc(n);
    snprintf(p, n, "%s/%s", dir, name);
    return p;
}

/* The files of QUERIES with a schema in SCHEMAS. */
static Db *list_dbs(const char *schemas, const char *queries, const char *out, size_t *n) {
    DIR *d = opendir(queries);
    Db *dbs = NULL;
    size_t cap = 0;
    *n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".sql") != 0) continue;
        if (*n == cap) dbs = sq_realloc(dbs, (cap = cap ? 2 * cap : 16) * sizeof *dbs);
        Db *db = &dbs[(*n)++];
        db->name = sq_strndup(e->d_name, len - 4);
        db->schema_path = path2(schemas, e->d_name);
        db->queries_path = path2(queries, e->d_name);
        db->out_path = path2(out, db->name);
        size_t l;
        int err;
        db->schema = sq_read_file(db->schema_path, &l, &err);
        db->queries = sq_read_file(db->queries_path, &l, &err);
        if (!db->schema || !db->queries) {
            fprintf(stderr, "bench_compile: cannot read %s or %s\n", db->schema_path, db->queries_path);
            exit(2);
        }
    }
    if (d) closedir(d);
    return dbs;
}

/* (a) the command on every file; the failures. */
static int compile_round(const Db *dbs, size_t n) {
    int failed = 0;
    for (size_t i = 0; i < n; i++) {
        char *argv[] = {"compile", "--force", "--schema", dbs[i].schema_path, "--out", dbs[i].out_path,
                        "--name", dbs[i].name, dbs[i].queries_path, NULL};
        failed += cmd_compile(9, argv) != 0;
    }
    return failed;
}

/* (b) SQLite: the schema, then every statement prepared; the count. */
static size_t prepare_round(const Db *dbs, size_t n) {
    size_t prepared = 0;
    for (size_t i = 0; i < n; i++) {
        sqlite3 *h = NULL;
        if (sqlite3_open(":memory:", &h) != SQLITE_OK || sqlite3_exec(h, dbs[i].schema, NULL, NULL, NULL) != SQLITE_OK)
            exit(2);
        for (const char *p = dbs[i].queries; *p;) {
            sqlite3_stmt *st = NULL;
            const char *tail = NULL;
            if (sqlite3_prepare_v2(h, p, -1, &st, &tail) == SQLITE_OK && st) prepared++;
            sqlite3_finalize(st);
            if (!tail || tail == p) break;
            p = tail;
        }
        sqlite3_close(h);
    }
    return prepared;
}

static int by_value(const void *x, const void *y) {
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

int main(int argc, char **argv) {
    if (argc != 5) {
        fputs("usage: bench_compile ROUNDS SCHEMAS QUERIES OUT\n", stderr);
        return 2;
    }
    int rounds = atoi(argv[1]) > 0 ? atoi(argv[1]) : 1;
    size_t n;
    Db *dbs = list_dbs(argv[2], argv[3], argv[4], &n);
    if (!n || !freopen("/dev/null", "w", stderr)) return 2;
    double best_c = 1e9, best_p = 1e9, cpu_c = 1e9, cpu_p = 1e9;
    double *ratio = sq_calloc((size_t)rounds, sizeof *ratio);
    int failed = 0;
    size_t prepared = 0;
    for (int r = 0; r < rounds; r++) {
        double t0 = now(), c0 = cpu();
        failed = compile_round(dbs, n);
        double t1 = now(), c1 = cpu();
        prepared = prepare_round(dbs, n);
        double t2 = now(), c2 = cpu();
        if (t1 - t0 < best_c) best_c = t1 - t0;
        if (t2 - t1 < best_p) best_p = t2 - t1;
        if (c1 - c0 < cpu_c) cpu_c = c1 - c0;
        if (c2 - c1 < cpu_p) cpu_p = c2 - c1;
        ratio[r] = (t1 - t0) / (t2 - t1);
    }
    qsort(ratio, (size_t)rounds, sizeof *ratio, by_value);
    printf("bench compile: %zu query files, %zu statements, %d rounds\n", n, prepared, rounds);
    printf("  squint compile (the command)   %8.2f us/query  %.3f s in all, best round  (%d files failed)\n",
           best_c / (double)prepared * 1e6, best_c, failed);
    printf("  sqlite3_prepare_v2             %8.2f us/query  %.3f s in all, best round\n",
           best_p / (double)prepared * 1e6, best_p);
    printf("  ratio compile/prepare, wall    %8.3f  median of the rounds' ratios (best rounds: %.3f); goal <= 2\n",
           ratio[rounds / 2], best_c / best_p);
    printf("  ratio compile/prepare, CPU     %8.3f  every thread's time, best rounds (compile's SQLite check "
           "and two of its outputs run on threads of their own)\n", cpu_c / cpu_p);
    free(ratio);
    for (size_t i = 0; i < n; i++) {
        free(dbs[i].name);
        free(dbs[i].schema_path);
        free(dbs[i].queries_path);
        free(dbs[i].out_path);
        free(dbs[i].schema);
        free(dbs[i].queries);
    }
    free(dbs);
    return failed ? 1 : 0;
}
