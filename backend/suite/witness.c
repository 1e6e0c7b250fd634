/*
** witness.c -- a database on which a query returns rows (see suite.h).
**
** Layer: backend/suite.  The query alone is lowered with the bound's
** tuples per table and asserted to return a row (sq_smt_build_nonempty);
** the schema's keys, NOT NULL and foreign keys come with the symbolic
** database, and every value has its column's declared class, as data in
** a real database has.  A model where ties cannot matter is looked for
** first, so that the gold's rows on the witness are the same whatever
** SQLite's plan; then the model is grown to as many rows as the bound
** allows (sq_smt_grow), since a database of one row per table tells few
** queries apart.  The least model is kept as well: when SQLite does not
** confirm the grown one (a function the solver left uninterpreted), the
** least one is tried.  Only SQLite's answer makes a witness.  A gold that
** aggregates without GROUP BY returns its row on every database, the
** empty one too: its witness is searched first for the rows it reads.
*/
#include "backend/suite/suite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/emit/emit.h"

const char *sq_witness_status_name(SqWitnessStatus s) {
    static const char *const names[] = {"found", "empty", "unsupported", "unknown", "unconfirmed"};
    _Static_assert(sizeof names / sizeof *names == SQ_WITNESS__COUNT, "a name per status");
    return names[s];
}

void sq_witness_free(SqWitness *w) {
    sq_fixture_free(&w->fixture);
    sq_result_free(&w->rows);
}

/* Run sql on f: 1 when it returns a row (its result in rows), 0 when it
** returns none, -1 when it does not run. */
static int returns_rows(const SqFixture *f, const char *sql, SqResult *rows) {
    char *err = NULL;
    SqDb *db = sq_fixture_open(f, &err);
    int rc = -1;
    if (db) {
        sq_result_free(rows);
        sq_result_init(rows);
        rc = sq_db_query(db, sql, NULL, rows, NULL) == SQ_EXEC_OK ? rows->n_rows > 0 : -1;
        sq_db_close(db);
    }
    free(err);
    return rc;
}

/* The model of smt's last check as a fresh fixture in f. */
static void take(SqSmt *smt, SqFixture *f) {
    int64_t now = f->now;
    sq_fixture_free(f);
    sq_fixture_init(f, f->cat);
    f->now = now;
    sq_equiv_model_fixture(smt, f);
}

/* After a model was found: grown, confirmed by SQLite, else the least
** model confirmed; out->status says which, if either. */
static void confirm(SqSmt *smt, const char *sql, int tie_free, SqArena *a, SqWitness *out) {
    SqFixture least;
    sq_fixture_init(&least, out->fixture.cat);
    least.now = out->fixture.now;
    sq_equiv_model_fixture(smt, &least);
    sq_smt_grow(smt, tie_free);
    take(smt, &out->fixture);
    if (returns_rows(&out->fixture, sql, &out->rows) == 1) {
        out->status = SQ_WITNESS_FOUND;
    } else if (returns_rows(&least, sql, &out->rows) == 1) {
        SqFixture grown = out->fixture;
        out->fixture = least;
        least = grown;
        out->status = SQ_WITNESS_FOUND;
    } else {
        const char *uf = sq_smt_uninterpreted(smt);
        char why[256];
        snprintf(why, sizeof why, "the solver's database gives no row in SQLite%s%s",
                 uf ? "; left uninterpreted: " : "", uf ? uf : "");
        out->status = SQ_WITNESS_UNCONFIRMED;
        out->why = sq_arena_strdup(a, why);
        sq_result_free(&out->rows);
        sq_result_init(&out->rows);
    }
    sq_fixture_free(&least);
}

/* No model: the query is empty on every database of the bound, unless the
** encoding only approximates something, which makes it unknown. */
static void empty(SqSmt *smt, int k, SqArena *a, SqWitness *out) {
    char why[320];
    const char *approx = sq_smt_approximation(smt);
    if (approx) {
        snprintf(why, sizeof why, "no row in the search, which approximates %s", approx);
        out->status = SQ_WITNESS_UNKNOWN;
    } else {
        snprintf(why, sizeof why, "the query returns no row on any database of up to %d rows per table", k);
        out->status = SQ_WITNESS_EMPTY;
    }
    out->why = sq_arena_strdup(a, why);
}

/* One bound: a witness found and confirmed, or out says why not. */
static void search(SqSmt *smt, IrQuery *q, const char *sql, int k, SqArena *a, SqWitness *out) {
    out->bound = k;
    if (sq_smt_build_nonempty(smt, q, k) < 0) {
        int which;
        const char *why = sq_smt_failure(smt) ? sq_smt_failure(smt) : sq_smt_unsupported(smt, &out->at, &which);
        out->status = sq_smt_failure(smt) ? SQ_WITNESS_UNKNOWN : SQ_WITNESS_UNSUPPORTED;
        out->why = sq_arena_strdup(a, why);
        return;
    }
    SqSmtStatus st = sq_smt_check(smt, 1);
    if (st == SQ_SMT_SAME) {
        st = sq_smt_check(smt, 0); /* rows only where ties decide them */
        out->ties = st == SQ_SMT_DIFFERENT;
    }
    if (st == SQ_SMT_DIFFERENT) confirm(smt, sql, !out->ties, a, out);
    else if (st == SQ_SMT_SAME) empty(smt, k, a, out);
    else {
        out->status = SQ_WITNESS_UNKNOWN;
        out->why = sq_arena_strdup(a, sq_smt_reason(smt));
    }
}

/* The distinct tables q scans (at most four: the encoding's limit on
** tables with their own bound). */
typedef struct Scans {
    const CatTable *t[4];
    int n;
} Scans;

static int add_scan(IrRel *r, void *arg) {
    Scans *x = arg;
    if (r->kind != IR_SCAN || !r->u.scan.table) return 0;
    for (int i = 0; i < x->n; i++)
        if (x->t[i] == r->u.scan.table) return 0;
    if (x->n < 4) x->t[x->n++] = r->u.scan.table;
    return 0;
}

enum { MAX_LIMIT_ROWS = 8, MAX_ASKED_ROWS = 64 };


/* The rows a comparison of an aggregate's output or a subquery with an
** integer constant asks for (HAVING count(*) > 10: 11). */
static int asked_rows(SqExpr *e, void *arg) {
    int64_t *most = arg;
    if (e->kind != SQX_BINARY || e->op < AST_OP_EQ || e->op > AST_OP_GE) return 0;
    const SqExpr *sides[2] = {e->u.bin.l, e->u.bin.r};
    for (int i = 0; i < 2; i++) {
        const SqExpr *lit = sides[i], *other = sides[1 - i];
        int counted = (other->kind == SQX_COLUMN && (other->flags & SQXF_AGG_REF)) || other->kind == SQX_SUBQUERY;
        if (lit->kind == SQX_LITERAL && lit->u.lit.vtype == SQ_VAL_INTEGER && counted && lit->u.lit.i < INT64_MAX &&
            lit->u.lit.i + 1 > *most)
            *most = lit->u.lit.i + 1;
    }
    return 0;
}

/* A LIMIT with a constant OFFSET m returns nothing from fewer than m + 1
** rows. */
static int offset_rows(IrRel *r, void *arg) {
    int64_t *most = arg, m;
    if (r->kind == IR_LIMIT && r->u.limit.offset && sq_expr_int_constant(r->u.limit.offset, &m) && m >= 0 &&
        m < INT64_MAX && m + 1 > *most)
        *most = m + 1;
    return 0;
}

int64_t sq_witness_rows_asked(IrQuery *q) {
    int64_t most = 0;
    ir_query_walk(q, asked_rows, &most);
    for (uint32_t id = 0; id < q->n_rels; id++) /* every block's LIMIT, subqueries' too */
        if (q->rels[id]) offset_rows(q->rels[id], &most);
    return most;
}

/* The budget of one more try: a share (1/share) of what is left of the
** witness's time and units, at least half a second. */
static void give_share(SqSmt *smt, const SqEquivOptions *opt, double start, unsigned share) {
    double left = opt->timeout > 0 ? opt->timeout - (sq_monotonic_seconds() - start) : 0;
    if (opt->timeout > 0) sq_smt_set_timeout(smt, (unsigned)((left / share > 0.5 ? left / share : 0.5) * 1000));
    uint64_t spent = sq_smt_rlimit_spent(smt);
    uint64_t units = spent < opt->rlimit ? (opt->rlimit - spent) / share : opt->rlimit / 10 + 1;
    if (opt->rlimit) sq_smt_set_rlimit(smt, units ? units : 1);
}

/* t, and the tables its foreign keys reach (whose rows its rows may need
** to be distinct: a primary key that is also a foreign key), up to four. */
static void add_with_targets(Scans *x, const CatTable *t) {
    x->t[x->n++] = t;
    for (int i = 0; i < x->n && x->n < 4; i++)
        for (uint32_t f = 0; f < x->t[i]->n_fks && x->n < 4; f++) {
            const CatTable *to = x->t[i]->fks[f].target;
            int seen = !to;
            for (int j = 0; j < x->n && !seen; j++) seen = x->t[j] == to;
            if (!seen) x->t[x->n++] = to;
        }
}

/* Try again at bound k, with table t (every table q scans, when t is
** NULL) given rows tuples when rows > 0; a witness found replaces out's,
** else out stays (unless it had none: then the try's reason stands). */
static void try_more(SqSmt *smt, IrQuery *q, const char *sql, int k, const CatTable *t, int rows, SqArena *a,
                     SqWitness *out) {
    SqWitness was = *out;
    memset(&out->fixture, 0, sizeof out->fixture);
    sq_fixture_init(&out->fixture, was.fixture.cat);
    out->fixture.now = was.fixture.now;
    sq_result_init(&out->rows);
    out->ties = 0;
    Scans x = {{NULL}, 0};
    if (t) add_with_targets(&x, t);
    else if (rows > 0) ir_walk_rels(q->root, add_scan, &x);
    for (int i = 0; i < x.n && rows > 0; i++) sq_smt_set_table_bound(smt, x.t[i], rows);
    search(smt, q, sql, k, a, out);
    sq_smt_set_table_bound(smt, NULL, 0);
    if (out->status == SQ_WITNESS_FOUND || was.status != SQ_WITNESS_FOUND) {
        sq_witness_free(&was);
        return;
    }
    sq_witness_free(out);
    *out = was;
}

/* One row per table first: quick, and often enough (a gold that sorts
** and cuts its groups has no ties with one group).  Then the bound, for a
** witness with more rows, on half of what is left; then, for a gold with
** a LIMIT the bound does not reach, its tables raised past it, on the
** rest: each witness found replaces the one before, and a try that finds
** none (it timed out) leaves the one before standing.  A gold still
** without a witness that compares an aggregate with a constant beyond
** the bound (HAVING count(*) > 10) gets, one table at a time, that table
** as many rows as the constant asks and the others one. */
static void search_bounds(SqSmt *smt, IrQuery *q, const char *sql, int k, const SqEquivOptions *opt, SqArena *a,
                          SqWitness *out) {
    double start = sq_monotonic_seconds();
    give_share(smt, opt, start, 4);
    search(smt, q, sql, 1, a, out);
    if (out->status == SQ_WITNESS_UNSUPPORTED) return;
    int limit = sq_equiv_limit_rows(q);
    int raise = limit > k && limit <= MAX_LIMIT_ROWS;
    int64_t asked = sq_witness_rows_asked(q);
    int grow_one = asked > k && asked <= MAX_ASKED_ROWS;
    if (k > 1) {
        give_share(smt, opt, start, raise || grow_one ? 2 : 1);
        try_more(smt, q, sql, k, NULL, 0, a, out);
    }
    if (raise) {
        give_share(smt, opt, start, grow_one ? 2 : 1);
        try_more(smt, q, sql, k, NULL, limit, a, out);
    }
    if (out->status == SQ_WITNESS_FOUND || asked <= k) return;
    if (grow_one) {
        Scans x = {{NULL}, 0};
        ir_walk_rels(q->root, add_scan, &x);
        for (int i = 0; i < x.n && out->status != SQ_WITNESS_FOUND; i++) {
            give_share(smt, opt, start, (unsigned)(x.n - i));
            try_more(smt, q, sql, 1, x.t[i], (int)asked, a, out);
        }
    }
    if (out->status != SQ_WITNESS_FOUND) {
        /* empty up to the bound proves nothing of a gold that asks more */
        char why[200];
        snprintf(why, sizeof why, "the gold asks for %lld rows of one table (an aggregate compared with a "
                 "constant, or an OFFSET): no witness %s", (long long)asked,
                 grow_one ? "with one table that large" : "searched that large (at most 64 rows)");
        out->status = SQ_WITNESS_UNKNOWN;
        out->why = sq_arena_strdup(a, why);
    }
}

static void witness_init(const Catalog *cat, const SqEquivOptions *opt, SqWitness *out) {
    memset(out, 0, sizeof *out);
    sq_fixture_init(&out->fixture, cat);
    out->fixture.now = opt->now ? opt->now : SQ_EQUIV_NOW;
    sq_result_init(&out->rows);
    out->bound = opt->bound > 0 ? opt->bound : 1;
}

/* The rows an aggregate without GROUP BY or HAVING reads: for such a gold
** (one row on every database, a count of 0 or a max of NULL on the empty
** one) a database with no rows at all would be a witness.  Its witness is
** a witness of "SELECT 1 FROM ... WHERE ...", the rows it aggregates: the
** root q gets in place of its own, which is returned (NULL when q is not
** such a gold, and keeps its root). */
static IrRel *aggregate_input(IrQuery *q, SqArena *a) {
    IrCore c;
    if (!q->root || !ir_core_split(&q->root, &c) || !c.agg || c.agg->u.agg.n_keys || c.having || c.window)
        return NULL;
    SqExpr *one = sq_expr_int(a, c.project->span, sq_type(SQ_TY_INTEGER, SQ_AFF_INTEGER, 0), 1);
    IrRel *p = ir_project_one(a, c.project, c.agg->input, one, "1");
    p->with = q->root->with;
    IrRel *was = q->root;
    q->root = p;
    return was;
}

/* A witness of the rows q's aggregate reads, in out, when q is such a
** gold and one is found (its rows then q's own); 0 otherwise, out
** untouched.  q is as it was either way. */
static int aggregate_witness(SqSmt *smt, IrQuery *q, const char *sql, const SqEquivOptions *opt, SqArena *a,
                             SqWitness *out) {
    IrRel *was = aggregate_input(q, a);
    if (!was) return 0;
    SqBuf in = SQ_BUF_INIT;
    int ok = sq_emit_sqlite(q, &in) != 0;
    SqWitness w;
    witness_init(out->fixture.cat, opt, &w);
    if (ok) search_bounds(smt, q, sq_buf_str(&in), w.bound, opt, a, &w);
    q->root = was;
    sq_buf_free(&in);
    ok = ok && w.status == SQ_WITNESS_FOUND && returns_rows(&w.fixture, sql, &w.rows) == 1;
    if (ok) {
        w.realistic = out->realistic;
        sq_witness_free(out);
        *out = w;
    } else {
        sq_witness_free(&w);
    }
    return ok;
}

void sq_witness(const Catalog *cat, IrQuery *q, const char *sql, const SqEquivOptions *opt, SqArena *a,
                SqWitness *out) {
    witness_init(cat, opt, out);
    SqFoldDb folds = {NULL, out->fixture.now, 0};
    SqSmt *smt = sq_smt_new(cat, 0);
    if (!smt) {
        out->status = SQ_WITNESS_UNKNOWN;
        out->why = "out of memory";
        return;
    }
    sq_smt_set_fold(smt, sq_equiv_fold, &folds);
    sq_smt_set_now(smt, out->fixture.now);
    sq_smt_set_typed_values(smt, 1);
    sq_smt_set_fresh_shrink(smt, opt->fresh_shrink);
    out->realistic = sq_equiv_set_facts(smt, cat, opt->realistic, q, NULL);
    if (!aggregate_witness(smt, q, sql, opt, a, out)) search_bounds(smt, q, sql, out->bound, opt, a, out);
    if (out->realistic && out->status == SQ_WITNESS_EMPTY) {
        /* no row on realistic data says nothing of every database: the
        ** witness, or the proof of emptiness, comes from all of them */
        sq_witness_free(out);
        witness_init(cat, opt, out);
        sq_smt_set_facts(smt, NULL, 0);
        search_bounds(smt, q, sql, out->bound, opt, a, out);
    }
    out->rlimit_used = sq_smt_rlimit_spent(smt);
    sq_smt_free(smt);
    sq_db_close(folds.db);
}

SqWitnessStatus sq_witness_empty(const Catalog *cat, IrQuery *q, const SqEquivOptions *opt, SqArena *a,
                                 const char **why) {
    int64_t now = opt->now ? opt->now : SQ_EQUIV_NOW;
    SqFoldDb folds = {NULL, now, 0};
    SqSmt *smt = sq_smt_new(cat, 0);
    *why = NULL;
    if (!smt) {
        *why = "out of memory";
        return SQ_WITNESS_UNKNOWN;
    }
    sq_smt_set_fold(smt, sq_equiv_fold, &folds);
    sq_smt_set_now(smt, now);
    sq_smt_set_typed_values(smt, 1);
    sq_smt_set_timeout(smt, opt->timeout > 0 ? (unsigned)(opt->timeout * 1000) : 0);
    sq_smt_set_rlimit(smt, opt->rlimit);
    SqWitnessStatus st;
    if (sq_smt_build_nonempty(smt, q, opt->bound > 0 ? opt->bound : 1) < 0) {
        int which;
        SrcSpan at;
        const char *u = sq_smt_failure(smt) ? sq_smt_failure(smt) : sq_smt_unsupported(smt, &at, &which);
        st = sq_smt_failure(smt) ? SQ_WITNESS_UNKNOWN : SQ_WITNESS_UNSUPPORTED;
        *why = sq_arena_strdup(a, u);
    } else {
        SqSmtStatus r = sq_smt_check(smt, 0);
        st = r == SQ_SMT_SAME ? SQ_WITNESS_EMPTY : r == SQ_SMT_DIFFERENT ? SQ_WITNESS_FOUND : SQ_WITNESS_UNKNOWN;
        if (st == SQ_WITNESS_EMPTY && sq_smt_approximation(smt)) {
            st = SQ_WITNESS_UNKNOWN; /* an approximation proves nothing */
            *why = sq_arena_strdup(a, sq_smt_approximation(smt));
        } else if (st == SQ_WITNESS_UNKNOWN) {
            *why = sq_arena_strdup(a, sq_smt_reason(smt));
        }
    }
    sq_smt_free(smt);
    sq_db_close(folds.db);
    return st;
}
