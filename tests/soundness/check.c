/*
** check.c -- decide one pair and check its verdicts against SQLite (see
** soundness.h for the lines it writes).
**
** Test support.  Runs in a child process: it may leak what the process
** ends with, but frees what it allocates per semantics.
*/
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/squint.h"
#include "backend/sqlite/db.h"
#include "backend/emit/emit.h"
#include "passes/pass.h"
#include "tests/soundness/dbcheck.h"
#include "tests/soundness/soundness.h"

const char *sem_name(SqSmtSemantics s) {
    return s == SQ_SMT_BAG ? "bag" : s == SQ_SMT_LIST ? "list" : s == SQ_SMT_SPIDER ? "spider" : "set";
}

static SqCompareMode compare_mode(SqSmtSemantics sem) {
    return sem == SQ_SMT_BAG ? SQ_CMP_BAG : sem == SQ_SMT_LIST ? SQ_CMP_LIST : sem == SQ_SMT_SPIDER ? SQ_CMP_SPIDER
                                                                                                  : SQ_CMP_SET;
}

/* What checking one pair needs besides the context. */
typedef struct Work {
    const CheckCtx *ctx;
    const Pair *p;
    const Schema *s;
    IrQuery *q1, *q2;
    const char *sql2;
    SqContext *c;        /* the pair's, to compile its queries again */
    SqArena *a;
    ValuePool literals;
    SqBuf *out;
} Work;

/* ---- findings ------------------------------------------------------------- */

/* Lines of text, each written "| line". */
static void detail(SqBuf *out, const char *text) {
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        sq_buf_puts(out, "| ");
        sq_buf_put(out, p, n);
        sq_buf_putc(out, '\n');
        p = nl ? nl + 1 : p + n;
    }
}

static void detailf(SqBuf *out, const char *fmt, const char *arg) {
    SqBuf b = SQ_BUF_INIT;
    sq_buf_printf(&b, fmt, arg);
    detail(out, sq_buf_str(&b));
    sq_buf_free(&b);
}

/* The finding's header, the queries, the verdict. */
static void finding_head(Work *w, const char *kind, SqSmtSemantics sem, const char *diag, const SqEquivResult *v) {
    sq_buf_printf(w->out, "F %s %s %s\n", kind, sem_name(sem), *diag ? diag : "no diagnosis");
    detailf(w->out, "q1: %s", w->p->sql1);
    detailf(w->out, "q2: %s", w->sql2);
    SqBuf b = SQ_BUF_INIT;
    sq_buf_printf(&b, "squint: %s", sq_verdict_name(v->verdict));
    if (v->verdict == SQ_VERDICT_EQUIVALENT && v->proof) sq_buf_printf(&b, " (on every database: %s)", v->proof);
    else if (v->verdict == SQ_VERDICT_EQUIVALENT) sq_buf_printf(&b, " (up to bound %d)", v->bound);
    else sq_buf_printf(&b, " (bound %d)", v->bound);
    if (v->approx) sq_buf_printf(&b, "; approximated: %s", v->approx);
    if (v->uninterpreted) sq_buf_printf(&b, "; uninterpreted: %s", v->uninterpreted);
    detail(w->out, sq_buf_str(&b));
    sq_buf_free(&b);
}

/* The database and both results on it. */
static void finding_db(Work *w, const PairRun *pr, const SqFixture *f, unsigned flags) {
    SqBuf b = SQ_BUF_INIT;
    db_script(pr, f, flags, &b);
    detail(w->out, "database:");
    detail(w->out, sq_buf_str(&b));
    sq_buf_reset(&b);
    SqResult r1, r2;
    sq_result_init(&r1);
    sq_result_init(&r2);
    char *err = NULL;
    if (db_differs(pr, f, flags, &r1, &r2, &err) >= 0) {
        sq_result_side_by_side(&r1, "Q1", &r2, "Q2", &b);
        detail(w->out, sq_buf_str(&b));
        sq_buf_reset(&b);
        sq_result_diff(&r1, &r2, pr->mode, pr->order_matters, &b);
        detailf(w->out, "difference: %s", b.len ? sq_buf_str(&b) : "none (the results are equal)");
    } else {
        detailf(w->out, "(the database no longer runs: %s)", err ? err : "?");
    }
    free(err);
    sq_result_free(&r1);
    sq_result_free(&r2);
    sq_buf_free(&b);
}

/* Shrink f, describe it and write the finding. */
static void finding(Work *w, const char *kind, SqSmtSemantics sem, const PairRun *pr, SqFixture *f, unsigned flags,
                    const SqEquivResult *v, const char *note) {
    uint64_t largest, before = db_rows(f, &largest);
    db_shrink(pr, f, flags, 400);
    uint64_t after = db_rows(f, &largest);
    SqBuf diag = SQ_BUF_INIT;
    db_diagnose(pr, f, v->bound, &diag);
    finding_head(w, kind, sem, sq_buf_str(&diag), v);
    if (note) detail(w->out, note);
    char rows[96];
    snprintf(rows, sizeof rows, "shrunk from %llu rows to %llu", (unsigned long long)before,
             (unsigned long long)after);
    detail(w->out, rows);
    finding_db(w, pr, f, flags);
    sq_buf_free(&diag);
}

/* ---- the real database ------------------------------------------------------ */

/* Both queries on the real database: 1 they differ, 0 not, -1 one failed. */
static int run_real(const Schema *s, const PairRun *pr) {
    SqDb *db = sq_db_open(s->db_path, NULL);
    if (!db) return -1;
    static const SqExecLimits lim = {20.0, 200000, 1u << 26, 1u << 20, 1};
    SqResult r1, r2;
    sq_result_init(&r1);
    sq_result_init(&r2);
    int d = -1;
    if (sq_db_query(db, pr->sql1, &lim, &r1, NULL) == SQ_EXEC_OK && sq_db_query(db, pr->sql2, &lim, &r2, NULL) == SQ_EXEC_OK)
        d = !sq_result_equal(&r1, &r2, pr->mode, pr->order_matters);
    sq_result_free(&r1);
    sq_result_free(&r2);
    sq_db_close(db);
    return d;
}

/* An equivalent verdict that the real database refutes. */
static void real_finding(Work *w, SqSmtSemantics sem, const PairRun *pr, const SqEquivResult *v) {
    SqFixture f;
    sq_fixture_init(&f, w->s->cat);
    f.now = 0; /* as the real database ran: SQLite's clock */
    SqBuf uri = SQ_BUF_INIT;
    sq_buf_printf(&uri, "file:%s?mode=ro", w->s->db_path);
    sqlite3 *db = NULL;
    int ok = sqlite3_open_v2(sq_buf_str(&uri), &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL) == SQLITE_OK &&
             rdb_read_tables(db, &f) == 0;
    sqlite3_close(db);
    sq_buf_free(&uri);
    SqResult r1, r2;
    sq_result_init(&r1);
    sq_result_init(&r2);
    int d = ok ? db_differs(pr, &f, 0, &r1, &r2, NULL) : DB_NO_BUILD;
    sq_result_free(&r1);
    sq_result_free(&r2);
    if (d == DB_DIFFERENT) {
        /* shrink without breaking a foreign key the real database keeps */
        PairRun kept = *pr;
        uint64_t *orphans = db_orphans_per_key(pr, &f);
        kept.orphans = orphans;
        finding(w, "real", sem, &kept, &f, RUN_NO_ORPHANS, v, "the real database tells them apart");
        free(orphans);
    } else {
        finding_head(w, "real", sem, "the real database tells them apart; its copy as a script does not", v);
        detailf(w->out, "database: %s", w->s->db_path);
    }
    sq_fixture_free(&f);
}

/* ---- random databases ------------------------------------------------------- */

typedef struct DbCounts {
    int run, no_build, no_run;
} DbCounts;

static uint64_t db_seed(const Work *w, SqSmtSemantics sem, int d) {
    uint64_t h = rdb_hash(w->p->id, w->ctx->seed * UINT64_C(0x9E3779B97F4A7C15) + 1);
    return h ^ ((uint64_t)sem << 56) ^ ((uint64_t)d * UINT64_C(0xD1B54A32D192ED03));
}

/* N random databases; the first that tells the pair apart is a finding. */
static void random_dbs(Work *w, SqSmtSemantics sem, const PairRun *pr, const SqEquivResult *v, DbCounts *n) {
    GenSchema gs = {w->s->cat, w->s->ddl, w->s->real};
    for (int d = 0; d < w->ctx->dbs; d++) {
        /* even databases stay within the bound, odd ones go up to max_rows */
        int small = v->bound < w->ctx->max_rows ? v->bound : w->ctx->max_rows;
        GenOptions go = {w->ctx->typed || w->p->typed, d % 2 ? w->ctx->max_rows : small};
        SqFixture f;
        sq_fixture_init(&f, w->s->cat);
        f.now = v->fixture.now;
        GenReport rep;
        char *err = NULL;
        int found = 0;
        if (rdb_generate(&gs, &w->literals, &go, db_seed(w, sem, d), &f, &rep, &err) < 0) {
            n->no_build++;
        } else {
            unsigned flags = rep.fk_enforced ? RUN_FK : RUN_NO_ORPHANS;
            if (w->ctx->show_dbs) {
                SqBuf b = SQ_BUF_INIT;
                db_script(pr, &f, flags, &b);
                fprintf(stderr, "-- %s, %s, database %d (%u rows rejected)\n%s\n", w->p->id, sem_name(sem), d,
                        rep.rejected, sq_buf_str(&b));
                sq_buf_free(&b);
            }
            SqResult r1, r2;
            sq_result_init(&r1);
            sq_result_init(&r2);
            char *why = NULL;
            int rc = db_differs(pr, &f, flags, &r1, &r2, &why);
            if (w->ctx->show_dbs && rc < 0) fprintf(stderr, "-- database %d: %s\n", d, why ? why : "?");
            free(why);
            sq_result_free(&r1);
            sq_result_free(&r2);
            n->run += rc >= 0;
            n->no_build += rc == DB_NO_BUILD;
            n->no_run += rc == DB_NO_RUN;
            if (rc == DB_DIFFERENT) {
                char note[96];
                snprintf(note, sizeof note, "random database %d of seed %llu%s", d,
                         (unsigned long long)w->ctx->seed, w->ctx->typed || w->p->typed ? " (typed)" : "");
                finding(w, "random", sem, pr, &f, flags, v, note);
                found = 1;
            }
        }
        free(err);
        sq_fixture_free(&f);
        if (found) break;
    }
}

/* ---- ties -------------------------------------------------------------------- */

static IrQuery *load(Work *w, SqContext *c, SqArena *a, const char *sql, const char **why);

/* The SQL of sql's query with one more ORDER BY key after its own, result
** column col (desc: descending), into out.  Returns 1 when written; 0
** when col is not a column to sort by (hidden) or the query does not
** emit; -1 when the statement does not sort or has no column col.  The
** key only breaks the ties the query's own keys leave, so the result is
** one the query itself allows. */
static int tie_breaker_sql(Work *w, const char *sql, uint32_t col, int desc, SqBuf *out) {
    const char *why;
    IrQuery *q = load(w, w->c, w->a, sql, &why);
    if (!q || !ir_root_sorted(q->root)) return -1;
    IrRel *s = q->root->kind == IR_LIMIT ? q->root->input : q->root;
    IrRel *res = ir_output_rel(s->input);
    if (!res || col >= res->cols.n) return -1;
    if (res->cols.items[col].hidden) return 0;
    uint32_t n = s->u.sort.n_keys;
    SqSortKey *keys = sq_arena_alloc(w->a, (n + 1) * sizeof *keys);
    memcpy(keys, s->u.sort.keys, n * sizeof *keys);
    memset(&keys[n], 0, sizeof keys[n]);
    keys[n].expr = sq_expr_new(w->a, SQX_COLUMN, s->span, res->cols.items[col].type);
    keys[n].expr->u.col.rel = res->id;
    keys[n].expr->u.col.col = col;
    keys[n].desc = (uint8_t)desc;
    s->u.sort.keys = keys;
    s->u.sort.n_keys = s->u.sort.cap_keys = n + 1;
    return sq_emit_sqlite(q, out) ? 1 : 0;
}

/* Whether one of the queries, its ORDER BY given a tie-breaker on one of
** its result columns, returns another result than the other query on f:
** the proof of a tie that SQLite's plan settles one way whatever order
** the rows were inserted in (it meets them in rowid, index or GROUP BY
** key order). */
static int tie_broken(Work *w, const PairRun *pr, const SqFixture *f) {
    for (int side = 0; side < 2; side++)
        for (uint32_t col = 0;; col++) {
            int more = 1;
            for (int desc = 0; desc < 2 && more; desc++) {
                SqBuf b = SQ_BUF_INIT;
                int wrote = tie_breaker_sql(w, side ? pr->sql2 : pr->sql1, col, desc, &b);
                more = wrote >= 0;
                PairRun run = *pr;
                *(side ? &run.sql2 : &run.sql1) = sq_buf_str(&b);
                int d = wrote == 1 ? db_run_pair(&run, f, 0) : DB_SAME;
                sq_buf_free(&b);
                if (d == DB_DIFFERENT) return 1;
            }
            if (!more) break;
        }
    return 0;
}

/* A different-under-ties counterexample must show a difference in some
** row order: the rows as written; reversed in any set of the tables that
** hold two rows or more (up to 64 sets); each with and without PRAGMA
** reverse_unordered_selects; failing those, with a tie-breaker added to
** one query's ORDER BY (tie_broken). */
static void ties_check(Work *w, SqSmtSemantics sem, const PairRun *pr, const SqEquivResult *v) {
    const SqFixture *f = &v->fixture;
    uint64_t tables = 0; /* bits of the tables that can be reversed */
    int n = 0;
    for (uint32_t i = 0; i < f->cat->n_tables && n < 6; i++) {
        const CatTable *t = f->cat->tables[i];
        for (uint32_t k = 0; k < f->n_tables; k++)
            if (f->tables[k].table == t && f->tables[k].rows.n_rows > 1) {
                tables |= UINT64_C(1) << (i % 64);
                n++;
            }
    }
    int built = 0;
    for (int pragma = 0; pragma < 2; pragma++)
        for (uint64_t set = 0; set < (UINT64_C(1) << n); set++) {
            PairRun run = *pr;
            run.reverse = 0; /* the set-th subset of the reversible tables */
            int b = 0;
            for (uint32_t i = 0; i < 64; i++)
                if (tables >> i & 1 && set >> b++ & 1) run.reverse |= UINT64_C(1) << i;
            unsigned flags = (set ? RUN_REVERSE_ROWS : 0) | (pragma ? RUN_REVERSE_SELECTS : 0);
            int rc = db_run_pair(&run, f, flags);
            if (rc == DB_DIFFERENT) return;
            built |= rc != DB_NO_BUILD;
        }
    if (built && tie_broken(w, pr, f)) return;
    SqBuf why = SQ_BUF_INIT;
    if (!built) {
        sq_buf_puts(&why, "the counterexample does not load with the schema's DDL");
    } else {
        sq_buf_puts(&why, "no row order shows a difference (as written, reversed in any set of tables, "
                          "reverse_unordered_selects)");
        if (db_same_scans(pr, f) == 1)
            sq_buf_puts(&why, "; SQLite reads the same tables and indexes in the same order for both queries, "
                              "so it meets tied rows in one order");
    }
    finding_head(w, "ties", sem, sq_buf_str(&why), v);
    sq_buf_free(&why);
    finding_db(w, pr, f, 0);
}

/* ---- one pair ------------------------------------------------------------------ */

static void check_sem(Work *w, SqSmtSemantics sem) {
    const CheckCtx *ctx = w->ctx;
    PairRun pr = {w->s->cat, w->s->ddl, w->p->sql1, w->sql2, compare_mode(sem),
                  sem == SQ_SMT_SPIDER && ir_root_sorted(w->q1->root), 0, NULL};
    int real = ctx->real && w->p->has_real && w->s->db_path ? run_real(w->s, &pr) : -1;
    DbCounts n = {0, 0, 0};
    if (ctx->real_only && real != 1) {
        sq_buf_printf(w->out, "V %s - %d 0 0 0 0\n", sem_name(sem), real);
        return;
    }
    SqEquivOptions o = ctx->opt;
    o.sem = sem;
    if (w->p->bound) o.bound = w->p->bound;
    o.search_only = w->p->search_only;
    o.typed_values = ctx->typed || w->p->typed; /* --typed checks the typed search */
    SqEquivResult v;
    sq_equiv(w->s->cat, w->q1, w->p->sql1, w->q2, w->sql2, &o, &v);
    if (v.verdict == SQ_VERDICT_EQUIVALENT && real == 1) real_finding(w, sem, &pr, &v);
    if (v.verdict == SQ_VERDICT_EQUIVALENT && ctx->dbs > 0) random_dbs(w, sem, &pr, &v, &n);
    if (v.verdict == SQ_VERDICT_DIFFERENT_TIES && ctx->ties) ties_check(w, sem, &pr, &v);
    sq_buf_printf(w->out, "V %s %d %d %d %d %d %.3f %d\n", sem_name(sem), (int)v.verdict, real, n.run, n.no_build,
                  n.no_run, v.seconds, v.raised != NULL);
    sq_equiv_result_free(&v);
}

static IrQuery *load(Work *w, SqContext *c, SqArena *a, const char *sql, const char **why) {
    SqCompileStatus st;
    IrQuery *q = sq_ctx_compile_text(c, a, w->s->cat, w->p->id, sql, strlen(sql), &st);
    *why = sq_compile_why(st);
    return q;
}

/* The second query: the pair's, or the emitted or rewritten SQL of the
** first (into emitted).  NULL with *why when there is none. */
static IrQuery *second(Work *w, SqContext *c, SqArena *a, SqBuf *emitted, const char **why) {
    IrQuery *q2;
    switch (w->p->kind) {
    case PK_EMIT:
        if (!sq_emit_sqlite(w->q1, emitted)) {
            *why = "not emitted";
            return NULL;
        }
        w->sql2 = sq_buf_str(emitted);
        return load(w, c, a, w->sql2, why);
    case PK_REWRITE: {
        q2 = load(w, c, a, w->p->sql1, why);
        if (!q2) return NULL;
        SqPassCtx pc;
        const char *passes[] = {w->p->pass};
        if (sq_ctx_run_passes(c, a, w->s->cat, q2, passes, 1, &pc) < 0 || !pc.n_rewrites ||
            !sq_emit_sqlite(q2, emitted)) {
            *why = "not rewritten";
            return NULL;
        }
        w->sql2 = sq_buf_str(emitted);
        return q2;
    }
    default: w->sql2 = w->p->sql2; return load(w, c, a, w->sql2, why);
    }
}

int check_pair(const CheckCtx *ctx, const Pair *p, SqBuf *out) {
    Work w;
    memset(&w, 0, sizeof w);
    w.ctx = ctx;
    w.p = p;
    w.s = &ctx->schemas[p->schema];
    w.out = out;
    /* the pair's sources and diagnostics are its own, dropped after it;
    ** the names are the run's, shared with the catalogs */
    SqSrcSet srcs;
    SqDiags diags;
    sq_srcset_init(&srcs);
    sq_diags_init(&diags, &srcs);
    SqContext c;
    sq_ctx_attach(&c, &srcs, ctx->names, &diags);
    c.bind_opt = ctx->bind_opt;
    SqArena *a = sq_arena_new();
    SqBuf emitted = SQ_BUF_INIT;
    const char *why = "the schema";
    w.c = &c;
    w.a = a;
    w.q1 = w.s->cat ? load(&w, &c, a, p->sql1, &why) : NULL;
    w.q2 = w.q1 ? second(&w, &c, a, &emitted, &why) : NULL;
    if (!w.q2) {
        sq_buf_printf(out, "P 0 %s\n", why ? why : "?");
    } else {
        sq_buf_puts(out, "P 1\n");
        vpool_init(&w.literals);
        vpool_add_literals(&w.literals, w.q1);
        vpool_add_literals(&w.literals, w.q2);
        for (int i = 0; i < p->n_sem; i++) check_sem(&w, p->sem[i]);
        vpool_free(&w.literals);
    }
    sq_buf_free(&emitted);
    sq_arena_free(a);
    sq_ctx_free(&c);
    sq_diags_free(&diags);
    sq_srcset_free(&srcs);
    return 0;
}
