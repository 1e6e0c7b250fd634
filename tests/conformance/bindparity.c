/*
** bindparity.c -- does squint's binder reject exactly what SQLite rejects?
**
** Test tool for `make conformance`.  For every corpus query that SQLite
** can parse, SQLite's verdict is sqlite3_prepare_v2 on the query's own
** database (Spider: the real .sqlite file; BIRD: an empty database built
** from the schema DDL; Calcite pairs: their own tables), and squint's is
** parse + bind against a catalog read from the same schema.  Any error
** SQLite reports after parsing (no such table/column/function, ambiguous
** names, aggregate misuse, ...) must be matched by a squint binding error
** and vice versa.
**
** Prints counts per corpus and exits 1 if any verdict differs; mismatches
** go to the report file with both messages.
**
** With --schema DDL --cases FILE it checks hand-written cases instead (one
** query per line, against an in-memory database built from the DDL): there
** the message must be SQLite's too.  `make test` runs tests/bind/ this way
** (--tap).
*/
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/squint.h"
#include "runtime/util.h"
#include "tests/conformance/corpus.h"

/* ---------------------------------------------------------------- SQLite */

typedef enum Verdict { V_OK, V_SYNTAX, V_BIND } Verdict;

static Verdict sqlite_verdict(sqlite3 *db, const char *sql, char *msg, size_t cap) {
    const char *tail = sql;
    msg[0] = 0;
    while (tail && *tail) {
        sqlite3_stmt *st = NULL;
        const char *next = NULL;
        int rc = sqlite3_prepare_v2(db, tail, -1, &st, &next);
        sqlite3_finalize(st);
        if (rc != SQLITE_OK) {
            snprintf(msg, cap, "%s", sqlite3_errmsg(db));
            return corpus_is_syntax_error(msg) ? V_SYNTAX : V_BIND;
        }
        if (next == tail) break;
        tail = next;
    }
    return V_OK;
}

/* -------------------------------------------------------------- catalogs */

typedef struct Run {
    Corpus c;
    CorpusDbs dbs;
    CorpusCatalogs schemas;
    SqContext ctx;   /* schema sources first, then one query at a time */
    FILE *report;
} Run;

static Catalog *find_catalog(Run *r, const CorpusQuery *q) {
    return corpus_catalog(&r->schemas, &r->c, q, &r->ctx);
}

/* ---------------------------------------------------------------- squint */

/* The first statement that does not parse or bind stops the script. */
static int verdict_of(void *ud, SqCompiled *s) {
    Verdict *v = ud;
    if (s->status == SQ_COMPILE_SYNTAX) *v = V_SYNTAX;
    else if (s->status == SQ_COMPILE_BIND) *v = V_BIND;
    return *v != V_OK;
}

static Verdict squint_verdict(Run *r, const Catalog *cat, const char *origin, const char *sql,
                              size_t len, char *msg, size_t cap) {
    SqCtxMark m = sq_ctx_mark(&r->ctx);
    SqSrc *src = sq_src_add_copy(r->ctx.srcs, origin, sql, len);
    Verdict v = V_OK;
    sq_ctx_compile_script(&r->ctx, src, cat, NULL, SQ_SCRIPT_NO_LOWER, verdict_of, &v);
    const char *last = sq_ctx_last_message(&r->ctx, m);
    snprintf(msg, cap, "%s", v != V_OK && last ? last : "");
    sq_ctx_rewind(&r->ctx, m);
    return v;
}

/* ----------------------------------------------------------- case files */

/* --schema DDL --cases FILE: one query per line ("--" lines and blank
** lines skipped); verdict and message must both equal SQLite's. */
static int run_cases(Run *r, const char *schema_path, const char *cases_path, int tap) {
    size_t len;
    int err;
    char *ddl = sq_read_file(schema_path, &len, &err);
    char *cases = ddl ? sq_read_file(cases_path, &len, &err) : NULL;
    if (!ddl || !cases) {
        fprintf(stderr, "bindparity: cannot read %s\n", ddl ? cases_path : schema_path);
        free(ddl);
        return 2;
    }
    sqlite3 *db = NULL;
    sqlite3_open(":memory:", &db);
    if (sqlite3_exec(db, ddl, NULL, NULL, NULL) != SQLITE_OK) {
        fprintf(stderr, "bindparity: %s: %s\n", schema_path, sqlite3_errmsg(db));
        return 2;
    }
    const Catalog *cat = sq_ctx_load_ddl(&r->ctx, schema_path, ddl, strlen(ddl));
    size_t n = 0, bad = 0, rejected = 0;
    int line_no = 0;
    for (char *line = strtok(cases, "\n"); line; line = strtok(NULL, "\n")) {
        line_no++;
        if (!line[0] || strncmp(line, "--", 2) == 0) continue;
        char smsg[512], qmsg[512], origin[600];
        snprintf(origin, sizeof origin, "%s:%d", cases_path, line_no);
        Verdict sv = sqlite_verdict(db, line, smsg, sizeof smsg);
        Verdict qv = squint_verdict(r, cat, origin, line, strlen(line), qmsg, sizeof qmsg);
        n++;
        rejected += sv != V_OK;
        int same = sv == qv && strcmp(smsg, qmsg) == 0;
        if (tap) printf("%s %zu - %s\n", same ? "ok" : "not ok", n, line);
        if (same) continue;
        bad++;
        printf("%s%s: %s\n%s    sqlite: %s\n%s    squint: %s\n", tap ? "# " : "", origin, line,
               tap ? "# " : "", sv == V_OK ? "ok" : smsg, tap ? "# " : "",
               qv == V_OK ? "ok" : qmsg);
    }
    printf("%sbindparity cases: %zu queries (%zu rejected by SQLite), %zu differ\n",
           tap ? "# " : "", n, rejected, bad);
    sqlite3_close(db);
    free(ddl);
    free(cases);
    return bad ? 1 : 0;
}

/* ----------------------------------------------------------------- main */

typedef struct Tally {
    size_t queries, sqlite_syntax, sqlite_bind, squint_bind, agree, mismatch;
    size_t same_message; /* both reject, with SQLite's exact message */
} Tally;

static void one(Run *r, Tally *t, const CorpusQuery *q) {
    char smsg[512], qmsg[512];
    t->queries++;
    Verdict sv = sqlite_verdict(corpus_db(&r->dbs, &r->c, q), q->sql, smsg, sizeof smsg);
    if (sv == V_SYNTAX) {
        t->sqlite_syntax++;
        return;
    }
    Verdict qv = squint_verdict(r, find_catalog(r, q), q->origin, q->sql, q->len, qmsg,
                                sizeof qmsg);
    t->sqlite_bind += sv == V_BIND;
    t->squint_bind += qv == V_BIND;
    if (sv == qv) {
        t->agree++;
        if (sv == V_BIND && strcmp(smsg, qmsg) == 0) t->same_message++;
        else if (sv == V_BIND && r->report)
            fprintf(r->report, "%s\tmessage\tsqlite: %s\tsquint: %s\n", q->origin, smsg, qmsg);
        return;
    }
    t->mismatch++;
    if (r->report)
        fprintf(r->report, "%s\tsqlite: %s\tsquint: %s%s\t%s\n", q->origin,
                sv == V_OK ? "ok" : smsg, qv == V_OK ? "ok" : qmsg,
                qv == V_SYNTAX ? " (syntax)" : "", q->sql);
}

int main(int argc, char **argv) {
    const char *report = NULL, *schema = NULL, *cases = NULL;
    int tap = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--report") == 0 && i + 1 < argc) report = argv[++i];
        else if (strcmp(argv[i], "--schema") == 0 && i + 1 < argc) schema = argv[++i];
        else if (strcmp(argv[i], "--cases") == 0 && i + 1 < argc) cases = argv[++i];
        else if (strcmp(argv[i], "--tap") == 0) tap = 1;
        else {
            fprintf(stderr, "usage: bindparity [--report FILE] | --schema DDL --cases FILE [--tap]\n");
            return 2;
        }
    }
    Run r;
    memset(&r, 0, sizeof r);
    if (schema || cases) {
        if (!schema || !cases) {
            fprintf(stderr, "bindparity: --schema and --cases go together\n");
            return 2;
        }
        sq_ctx_init(&r.ctx);
        int status = run_cases(&r, schema, cases, tap);
        sq_ctx_free(&r.ctx);
        return status;
    }
    int rc = corpus_load(&r.c);
    if (rc == 0) {
        printf("bindparity: no corpus (set SQUINT_CORPORA); skipped\n");
        return 0;
    }
    if (rc < 0) return 2;
    sq_ctx_init(&r.ctx);
    r.report = report ? fopen(report, "w") : NULL;
    for (size_t i = 0; i < r.c.n; i++) find_catalog(&r, &r.c.q[i]); /* schemas first */
    sq_diags_truncate(r.ctx.diags, 0);
    Tally tallies[3];
    memset(tallies, 0, sizeof tallies);
    static const char *const set_names[3] = {"spider", "bird", "equiv"};
    for (size_t i = 0; i < r.c.n; i++) one(&r, &tallies[r.c.q[i].set], &r.c.q[i]);
    size_t bad = 0;
    for (int s = 0; s < 3; s++) {
        Tally *t = &tallies[s];
        size_t checked = t->queries - t->sqlite_syntax;
        printf("bindparity %-6s %6zu queries, %6zu checked (%zu SQLite syntax errors skipped): "
               "SQLite rejects %zu, squint rejects %zu (%zu with SQLite's message), "
               "%zu agree (%.2f%%), %zu mismatches\n",
               set_names[s], t->queries, checked, t->sqlite_syntax, t->sqlite_bind,
               t->squint_bind, t->same_message, t->agree, checked ? 100.0 * (double)t->agree / (double)checked : 100.0,
               t->mismatch);
        bad += t->mismatch;
    }
    if (r.report) fclose(r.report);
    corpus_dbs_close(&r.dbs);
    corpus_catalogs_free(&r.schemas);
    sq_ctx_free(&r.ctx);
    corpus_free(&r.c);
    return bad ? 1 : 0;
}
