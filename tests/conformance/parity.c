/*
** parity.c -- does squint accept exactly the SQL that SQLite accepts?
**
** Test tool for `make conformance`.  For every query in ../shared/corpora
** (Spider dev gold and predictions on the real databases, BIRD dev gold and
** predictions on empty databases built from its schema DDL, the Calcite
** equivalence pairs on their own schemas) it compares SQLite's syntax
** verdict (sqlite3_prepare_v2; an error about names or meaning counts as
** accepted) with squint's parse.  With --negative it also derives broken
** queries from each distinct query (truncated at several token boundaries,
** each single token dropped) and compares verdicts on those.
**
** Prints counts per corpus and exits 1 if any verdict differs.  Mismatches
** are listed in the report file (--report, default stdout only).
*/
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grammar/lex.h"
#include "grammar/parse.h"
#include "runtime/util.h"
#include "tests/conformance/corpus.h"

/* ---------------------------------------------------------------- SQLite */

/* SQLite's verdict: 1 accepted, 0 rejected (message copied to msg). */
static int sqlite_accepts(sqlite3 *db, const char *sql, char *msg, size_t cap) {
    const char *tail = sql;
    msg[0] = 0;
    while (tail && *tail) {
        sqlite3_stmt *st = NULL;
        const char *next = NULL;
        int rc = sqlite3_prepare_v2(db, tail, -1, &st, &next);
        sqlite3_finalize(st);
        if (rc != SQLITE_OK) {
            const char *m = sqlite3_errmsg(db);
            if (corpus_is_syntax_error(m)) {
                snprintf(msg, cap, "%s", m);
                return 0;
            }
        }
        if (!next || next == tail) break;
        tail = next;
    }
    return 1;
}

/* ---------------------------------------------------------------- squint */

typedef struct Squint {
    SqSrcSet srcs;
    SqInterner *names;
    SqArena *arena;
} Squint;

/* squint's verdict: 1 accepted; else 0 with the first message in msg. */
static int squint_accepts(Squint *s, const char *sql, size_t len, char *msg,
                          size_t cap) {
    SqDiags diags;
    sq_diags_init(&diags, &s->srcs);
    SqSrc *src = sq_src_add_copy(&s->srcs, "<q>", sql, len);
    SqParser *p = sq_parser_new(src, s->names, &diags);
    SqParseResult r;
    while (sq_parser_next(p, s->arena, &r) != SQ_PARSE_END) sq_arena_reset(s->arena);
    sq_parser_free(p);
    int ok = diags.n_errors == 0;
    msg[0] = 0;
    for (size_t i = 0; i < diags.n && !ok; i++)
        if (diags.items[i]->sev == SQ_SEV_ERROR) {
            snprintf(msg, cap, "%s", diags.items[i]->msg);
            break;
        }
    sq_diags_free(&diags);
    sq_srcset_truncate(&s->srcs, 1);
    sq_arena_reset(s->arena);
    return ok;
}

/* ---------------------------------------------------------------- report */

typedef struct Tally {
    const char *name;
    size_t total, sqlite_ok, sqlite_err, agree;
} Tally;

typedef struct Run {
    Squint sq;
    FILE *report;
    size_t mismatches;
    int max_show;
} Run;

static void mismatch(Run *run, const char *origin, const char *sql, int lite,
                     const char *lmsg, const char *smsg) {
    run->mismatches++;
    FILE *fs[2] = {run->mismatches <= (size_t)run->max_show ? stdout : NULL,
                   run->report};
    for (int i = 0; i < 2; i++) {
        if (!fs[i]) continue;
        fprintf(fs[i], "MISMATCH %s: sqlite %s%s%s, squint %s%s%s\n  %s\n", origin,
                lite ? "accepts" : "rejects", lite ? "" : " (", lite ? "" : lmsg,
                lite ? "rejects (" : "accepts", lite ? smsg : "", lite ? ")" : "",
                sql);
        if (!lite) fputs("", fs[i]);
    }
}

static void check_one(Run *run, Tally *t, sqlite3 *db, const char *origin,
                      const char *sql, size_t len) {
    char lmsg[512], smsg[512];
    int lite = sqlite_accepts(db, sql, lmsg, sizeof lmsg);
    int ours = squint_accepts(&run->sq, sql, len, smsg, sizeof smsg);
    t->total++;
    if (lite) t->sqlite_ok++;
    else t->sqlite_err++;
    if (lite == ours) t->agree++;
    else mismatch(run, origin, sql, lite, lmsg, smsg);
}

static void print_tally(const Tally *t) {
    printf("  %-22s %7zu queries  sqlite: %6zu ok %6zu syntax errors  "
           "agreement %zu/%zu (%.2f%%)\n",
           t->name, t->total, t->sqlite_ok, t->sqlite_err, t->agree, t->total,
           t->total ? 100.0 * (double)t->agree / (double)t->total : 100.0);
}

/* -------------------------------------------------------------- negative */

typedef struct Tokens {
    uint32_t *start, *end;
    size_t n, cap;
} Tokens;

static void tokenize(const char *sql, size_t len, Tokens *tk) {
    SqSrcSet set;
    sq_srcset_init(&set);
    SqSrc *src = sq_src_add_copy(&set, "<q>", sql, len);
    Lexer *lx = lex_open(src, NULL, NULL);
    LexTok t;
    tk->n = 0;
    for (;;) {
        lex_next(lx, &t);
        if (t.code == LEX_EOF) break;
        if (tk->n == tk->cap) {
            tk->cap = tk->cap ? tk->cap * 2 : 64;
            tk->start = sq_realloc(tk->start, tk->cap * sizeof *tk->start);
            tk->end = sq_realloc(tk->end, tk->cap * sizeof *tk->end);
        }
        tk->start[tk->n] = t.start;
        tk->end[tk->n++] = t.end;
        if (t.code == LEX_ILLEGAL) break;
    }
    lex_close(lx);
    sq_srcset_free(&set);
}

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Variants of one query: truncated at 1/4, 1/2, 3/4 and all-but-one of its
** tokens, and with each single token removed. */
static void negative_one(Run *run, Tally *t, sqlite3 *db, const char *sql,
                         Tokens *tk, SqBuf *b) {
    size_t n = tk->n;
    tokenize(sql, strlen(sql), tk);
    n = tk->n;
    if (n < 2) return;
    size_t cuts[4] = {n / 4, n / 2, (3 * n) / 4, n - 1};
    for (int i = 0; i < 4; i++) {
        if (cuts[i] == 0 || (i > 0 && cuts[i] == cuts[i - 1])) continue;
        sq_buf_reset(b);
        sq_buf_put(b, sql, tk->end[cuts[i] - 1]);
        check_one(run, t, db, "negative/truncated", sq_buf_str(b), b->len);
    }
    for (size_t k = 0; k < n; k++) {
        sq_buf_reset(b);
        sq_buf_put(b, sql, tk->start[k]);
        sq_buf_puts(b, sql + tk->end[k]);
        check_one(run, t, db, "negative/dropped", sq_buf_str(b), b->len);
    }
}

static void run_negative(Run *run, const Corpus *c, Tally *t) {
    char **texts = sq_malloc((c->n ? c->n : 1) * sizeof *texts);
    for (size_t i = 0; i < c->n; i++) texts[i] = c->q[i].sql;
    qsort(texts, c->n, sizeof *texts, cmp_str);
    sqlite3 *db;
    sqlite3_open(":memory:", &db);
    Tokens tk = {0};
    SqBuf b = SQ_BUF_INIT;
    for (size_t i = 0; i < c->n; i++) {
        if (i > 0 && strcmp(texts[i], texts[i - 1]) == 0) continue;
        negative_one(run, t, db, texts[i], &tk, &b);
    }
    sq_buf_free(&b);
    free(tk.start);
    free(tk.end);
    sqlite3_close(db);
    free(texts);
}

/* ------------------------------------------------------------------ main */

int main(int argc, char **argv) {
    int negative = 0;
    const char *report_path = NULL;
    Run run;
    memset(&run, 0, sizeof run);
    run.max_show = 20;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--negative") == 0) negative = 1;
        else if (strcmp(argv[i], "--report") == 0 && i + 1 < argc) report_path = argv[++i];
        else if (strcmp(argv[i], "--show") == 0 && i + 1 < argc) run.max_show = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: parity [--negative] [--report FILE] [--show N]\n");
            return 2;
        }
    }
    Corpus c;
    int lr = corpus_load(&c);
    if (lr == 0) {
        printf("parity: no corpus at %s (set SQUINT_CORPORA); skipped\n", c.root);
        corpus_free(&c);
        return 0;
    }
    if (lr < 0) {
        fprintf(stderr, "parity: could not read the corpus at %s\n", c.root);
        return 2;
    }
    if (report_path) run.report = fopen(report_path, "w");
    sq_srcset_init(&run.sq.srcs);
    run.sq.names = sq_interner_new();
    run.sq.arena = sq_arena_new();
    CorpusDbs cache = {0};
    Tally tallies[3] = {{"spider (gold+preds)", 0, 0, 0, 0},
                        {"bird (gold+preds)", 0, 0, 0, 0},
                        {"equiv (calcite pairs)", 0, 0, 0, 0}};
    for (size_t i = 0; i < c.n; i++) {
        const CorpusQuery *q = &c.q[i];
        check_one(&run, &tallies[q->set], corpus_db(&cache, &c, q), q->origin, q->sql, q->len);
    }
    printf("parser parity with SQLite %s:\n", sqlite3_libversion());
    for (int i = 0; i < 3; i++) print_tally(&tallies[i]);
    Tally neg = {"negative (derived)", 0, 0, 0, 0};
    if (negative) {
        run_negative(&run, &c, &neg);
        print_tally(&neg);
    }
    printf("%zu mismatch%s\n", run.mismatches, run.mismatches == 1 ? "" : "es");
    if (run.report) fclose(run.report);
    corpus_dbs_close(&cache);
    sq_arena_free(run.sq.arena);
    sq_interner_free(run.sq.names);
    sq_srcset_free(&run.sq.srcs);
    corpus_free(&c);
    return run.mismatches ? 1 : 0;
}
