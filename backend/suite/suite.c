/*
** suite.c -- one gold query's test suite: the witness, the mutants and
** their fates, the distilled set of databases (see suite.h).
**
** Layer: backend/suite.  Every candidate database is opened once, in
** memory, and the gold run on it once; a mutant is then one query per
** database, its result compared with the gold's under the semantics of
** the search (SQ_CMP_SPIDER: a bag, a list when the gold sorts, any
** column order).  The search (sq_equiv) runs only for a mutant that no
** database so far tells apart, so most mutants cost a few queries.
*/
#include "backend/suite/suite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/suite/suite_int.h"
#include "backend/emit/emit.h"

const char *sq_mutant_fate_name(SqMutantFate f) {
    static const char *const names[] = {"killed", "equivalent", "unknown", "invalid"};
    _Static_assert(sizeof names / sizeof *names == SQ_MUTANT__COUNT, "a name per fate");
    return names[f];
}

const char *sq_suite_status_name(SqSuiteStatus s) {
    static const char *const names[] = {"ok", "not-loaded", "no-witness"};
    return names[s];
}

SqSuiteOptions sq_suite_options_default(void) {
    SqSuiteOptions o;
    memset(&o, 0, sizeof o);
    o.equiv = sq_equiv_options_default();
    o.equiv.bound = 3;
    o.equiv.timeout = 2;
    o.equiv.sem = SQ_SMT_SPIDER;
    o.equiv.typed_values = 1; /* a suite's data reads like data */
    o.witness = o.equiv;
    o.witness.timeout = 10;
    o.max_mutants = 40;
    return o;
}

void sq_suite_db_name(uint32_t i, char out[16]) { snprintf(out, 16, "%02u.sqlite", i); }

/* ---- candidates ---------------------------------------------------------- */


/* Add fixture f (taken over) as a candidate: 0, or -1 when it does not
** load or the gold does not run on it (f freed). */
static int add_cand(Build *b, SqFixture *f, const char *origin) {
    char *err = NULL;
    SqDb *db = sq_fixture_open(f, &err);
    free(err);
    SqResult gold;
    sq_result_init(&gold);
    if (!db || sq_db_query(db, b->gold_sql, NULL, &gold, NULL) != SQ_EXEC_OK) {
        sq_db_close(db);
        sq_result_free(&gold);
        sq_fixture_free(f);
        return -1;
    }
    if (b->n_cands == b->cap_cands) {
        b->cap_cands = b->cap_cands ? 2 * b->cap_cands : 8;
        b->cands = sq_realloc(b->cands, b->cap_cands * sizeof *b->cands);
    }
    size_t n_mut = b->out->n_mutants;
    if (b->n_cands == b->cap_kill_rows) {
        b->cap_kill_rows = b->cap_kill_rows ? 2 * b->cap_kill_rows : 8;
        b->kills = sq_realloc(b->kills, b->cap_kill_rows * (n_mut + 1));
    }
    memset(b->kills + (size_t)b->n_cands * n_mut, K_NOT_RUN, n_mut);
    Cand *c = &b->cands[b->n_cands++];
    c->fixture = *f;
    c->db = db;
    c->gold = gold;
    c->origin = origin;
    return 0;
}

int suite_kills(Build *b, uint32_t c, uint32_t m) {
    uint8_t *k = &b->kills[(size_t)c * b->out->n_mutants + m];
    if (*k != K_NOT_RUN) return *k == K_DIFFERENT;
    SqResult r;
    sq_result_init(&r);
    SqExecStatus st = sq_db_query(b->cands[c].db, b->out->mutants[m].sql, NULL, &r, NULL);
    /* a mutant that does not run on a database that holds the schema's
    ** data is told apart from the gold there, as a test suite counts it */
    *k = st != SQ_EXEC_OK || !sq_result_equal(&b->cands[c].gold, &r, b->mode, b->sorted) ? K_DIFFERENT : K_SAME;
    sq_result_free(&r);
    return *k == K_DIFFERENT;
}

static int killed_by_any(Build *b, uint32_t m) {
    for (uint32_t c = 0; c < b->n_cands; c++)
        if (suite_kills(b, c, m)) return 1;
    return 0;
}

/* ---- the mutants ------------------------------------------------------------ */

/* The mutants' texts, without repeats and without the gold's own
** emission; each loaded (an invalid one keeps its reason). */
static void make_mutants(Build *b) {
    SqMutation *ms = NULL;
    uint32_t n = sq_mutations(b->gold, b->cat, &ms, b->opt->max_mutants);
    SqBuf plain = SQ_BUF_INIT, sql = SQ_BUF_INIT;
    sq_emit_sqlite(b->gold, &plain);
    b->out->mutants = sq_arena_alloc(b->a, (n + 1) * sizeof *b->out->mutants);
    b->mq = sq_calloc(n + 1, sizeof *b->mq);
    for (uint32_t i = 0; i < n; i++) {
        sq_buf_reset(&sql);
        sq_mutation_apply(&ms[i]);
        sq_emit_sqlite(b->gold, &sql);
        sq_mutation_undo(&ms[i]);
        const char *text = sq_buf_str(&sql);
        int seen = strcmp(text, sq_buf_str(&plain)) == 0;
        for (uint32_t j = 0; j < b->out->n_mutants && !seen; j++) seen = strcmp(b->out->mutants[j].sql, text) == 0;
        if (seen) continue;
        SqSuiteMutant *m = &b->out->mutants[b->out->n_mutants];
        memset(m, 0, sizeof *m);
        m->kind = ms[i].kind;
        m->kind_name = sq_mut_kind_name(ms[i].kind);
        m->what = ms[i].what;
        m->at = ms[i].at;
        m->sql = sq_arena_strdup(b->a, text);
        m->killed_by = -1;
        char name[32];
        snprintf(name, sizeof name, "mutant %u", b->out->n_mutants);
        const SqSrc *src = sq_src_add_copy(b->srcs, name, text, sql.len);
        size_t keep = b->diags.n;
        const char *why = NULL;
        b->mq[b->out->n_mutants] = ir_load_query(b->a, src, b->cat, b->names, &b->diags, &b->opt->bind, &why);
        sq_diags_truncate(&b->diags, keep);
        if (!b->mq[b->out->n_mutants]) {
            m->fate = SQ_MUTANT_INVALID;
            m->why = why ? why : "it does not load";
        } else {
            m->fate = SQ_MUTANT_UNKNOWN;
        }
        b->out->n_mutants++;
    }
    sq_buf_free(&plain);
    sq_buf_free(&sql);
}

/* Mutant m, told apart by no candidate: the search decides. */
static void search_mutant(Build *b, uint32_t m) {
    SqSuiteMutant *mu = &b->out->mutants[m];
    SqEquivResult r;
    sq_equiv(b->cat, b->gold, b->gold_sql, b->mq[m], mu->sql, &b->opt->equiv, &r);
    b->out->rlimit_used += r.rlimit_used;
    char why[320];
    if (r.verdict == SQ_VERDICT_DIFFERENT) {
        char origin[48];
        snprintf(origin, sizeof origin, "counterexample for mutant %u", m);
        SqFixture f = r.fixture;
        sq_fixture_init(&r.fixture, b->cat);
        if (add_cand(b, &f, sq_arena_strdup(b->a, origin)) == 0 && suite_kills(b, b->n_cands - 1, m)) {
            mu->fate = SQ_MUTANT_KILLED;
        } else {
            mu->why = "the search's counterexample does not tell it apart in SQLite";
        }
    } else if (r.verdict == SQ_VERDICT_EQUIVALENT) {
        mu->fate = SQ_MUTANT_EQUIVALENT;
        if (r.proof) snprintf(why, sizeof why, "%s", r.proof);
        else snprintf(why, sizeof why, "no difference up to %d rows per table%s%s%s", r.bound,
                      r.raised ? ", " : "", r.raised ? r.raised : "",
                      r.realistic ? ", on realistic data (the profile's facts kept)" : "");
        mu->why = sq_arena_strdup(b->a, why);
    } else {
        snprintf(why, sizeof why, "%s%s%s",
                 r.verdict == SQ_VERDICT_DIFFERENT_TIES ? "only databases with ties tell them apart"
                                                        : sq_verdict_name(r.verdict),
                 r.detail && r.verdict != SQ_VERDICT_DIFFERENT_TIES ? ": " : "",
                 r.detail && r.verdict != SQ_VERDICT_DIFFERENT_TIES ? r.detail : "");
        mu->why = sq_arena_strdup(b->a, why);
    }
    sq_equiv_result_free(&r);
}

/* ---- distillation ------------------------------------------------------------ */

/* The database with no rows at all, a candidate after the witness.  Where
** the gold still returns a row there (an aggregate without GROUP BY: a
** count of 0, a max of NULL), a query that returns none differs from it
** on the least data there is; a suite keeps it (distill), as the one
** database that shows that boundary.  Elsewhere it is kept only for the
** mutants it kills. */
static void add_empty(Build *b) {
    SqFixture f;
    sq_fixture_init(&f, b->cat);
    f.now = b->cands[0].fixture.now; /* the witness's instant */
    b->empty = add_cand(b, &f, "empty: no rows in any table") == 0 ? (int32_t)b->n_cands - 1 : -1;
}

/* Whether f holds rows of a table whose foreign key refers to column col
** of t. */
static int referred_to(const SqFixture *f, const CatTable *t, uint32_t col) {
    for (uint32_t i = 0; i < f->n_tables; i++) {
        const CatTable *o = f->tables[i].table;
        for (uint32_t k = 0; f->tables[i].rows.n_rows && k < o->n_fks; k++)
            for (uint32_t j = 0; o->fks[k].target == t && j < o->fks[k].n_cols; j++)
                if (o->fks[k].target_cols && o->fks[k].target_cols[j] == col) return 1;
    }
    return 0;
}

/* Whether column col of t may hold NULL in f, a database of the schema:
** not NOT NULL, not in the primary key, not a key that rows of f refer
** to, and (with --realistic) not a column whose data never holds one. */
static int may_be_null(const Build *b, const SqFixture *f, const CatTable *t, uint32_t col) {
    if (t->cols[col].not_null || t->cols[col].pk || referred_to(f, t, col)) return 0;
    const SqProfile *prof = b->opt->equiv.realistic;
    const SqColumnProfile *p = prof ? sq_profile_column(prof, t, col) : NULL;
    return !p || !sq_profile_never_null(p);
}

/* The witness with NULL in every column that may hold one, in the last row
** of each table (only_many: of each table of two rows or more); 0, or -1
** when no cell changed or it is no candidate (add_cand). */
static int add_null_row(Build *b, int only_many) {
    SqFixture f;
    sq_fixture_copy(&b->cands[0].fixture, &f);
    uint32_t changed = 0;
    for (uint32_t i = 0; i < f.n_tables; i++) {
        SqResult *r = &f.tables[i].rows;
        const CatTable *t = f.tables[i].table;
        if (!r->n_rows || (only_many && r->n_rows < 2) || sq_catalog_pos(b->cat, t) >= b->cat->n_tables) continue;
        for (uint32_t c = 0; c < r->n_cols && c < t->n_cols; c++) {
            SqValue *v = &r->cells[(r->n_rows - 1) * r->n_cols + c];
            if (v->type == SQ_VAL_NULL || !may_be_null(b, &f, t, c)) continue;
            v->type = SQ_VAL_NULL;
            changed++;
        }
    }
    if (!changed) {
        sq_fixture_free(&f);
        return -1;
    }
    return add_cand(b, &f, only_many ? "nulls: NULL in every nullable column of the last row of each table "
                                       "of two rows or more"
                                     : "nulls: NULL in every nullable column of the last row of each table");
}

/* The witness with NULLs where the schema allows them, a candidate kept
** (distill) when the gold still returns a row there.  Mutants seldom ask
** for a NULL, but the queries a suite is for do: count(x) for count(*),
** x = (SELECT min(x) ...) for ORDER BY x LIMIT 1, NOT IN for EXCEPT all
** differ from the gold only where a NULL is.  Where NULLs in every table
** leave the gold no row, tables of one row keep theirs. */
static void add_nulls(Build *b) {
    b->nulls = -1;
    for (int only_many = 0; only_many < 2 && b->nulls < 0; only_many++) {
        if (add_null_row(b, only_many) != 0) continue;
        uint32_t c = b->n_cands - 1;
        if (b->cands[c].gold.n_rows > 0 && suite_checks_hold(b, b->cands[c].db)) b->nulls = (int32_t)c;
    }
}

/* The witness, the empty database when the gold returns a row there, the
** witness with NULLs when it does there (add_nulls), then the candidate
** that kills the most killed mutants no kept one kills (the first of
** equals), until none is left: kept[i] is the candidate of suite database
** i.  Returns how many are kept. */
static uint32_t distill(Build *b, uint32_t *kept) {
    uint32_t n_mut = b->out->n_mutants, n = 0;
    uint8_t *covered = sq_calloc(n_mut + 1, 1);
    uint8_t *used = sq_calloc(b->n_cands + 1, 1);
    /* kept whatever they kill: the witness, then the boundaries */
    int32_t forced[3] = {0, b->empty >= 0 && b->cands[b->empty].gold.n_rows > 0 ? b->empty : -1, b->nulls};
    uint32_t n_forced = 0;
    for (uint32_t pick = 0; b->n_cands;) {
        kept[n++] = pick;
        used[pick] = 1;
        for (uint32_t m = 0; m < n_mut; m++) covered[m] |= suite_kills(b, pick, m);
        while (n_forced < 3 && (forced[n_forced] < 0 || used[forced[n_forced]])) n_forced++;
        if (n_forced < 3) {
            pick = (uint32_t)forced[n_forced];
            continue;
        }
        uint32_t best = 0, best_c = 0;
        for (uint32_t c = 1; c < b->n_cands; c++) {
            if (used[c]) continue;
            uint32_t gain = 0;
            for (uint32_t m = 0; m < n_mut; m++) gain += !covered[m] && suite_kills(b, c, m);
            if (gain > best) best = gain, best_c = c;
        }
        if (!best) break;
        pick = best_c;
    }
    free(covered);
    free(used);
    return n;
}

/* The kept candidates become the suite's databases (the others are
** closed and freed); every mutant's fate is settled by the kept ones. */
static void keep(Build *b, const uint32_t *kept, uint32_t n) {
    SqSuite *s = b->out;
    s->n_candidates = b->n_cands;
    s->dbs = sq_arena_alloc(b->a, (n + 1) * sizeof *s->dbs);
    for (uint32_t i = 0; i < n; i++) {
        Cand *c = &b->cands[kept[i]];
        SqSuiteDb *d = &s->dbs[i];
        d->fixture = c->fixture;
        d->gold = c->gold;
        d->origin = c->origin;
        d->rows = 0;
        for (uint32_t t = 0; t < c->fixture.n_tables; t++) d->rows += (uint32_t)c->fixture.tables[t].rows.n_rows;
        d->n_kills = 0;
        d->kills = sq_arena_alloc(b->a, (s->n_mutants + 1) * sizeof *d->kills);
        for (uint32_t m = 0; m < s->n_mutants; m++) {
            if (s->mutants[m].fate == SQ_MUTANT_INVALID || !suite_kills(b, kept[i], m)) continue;
            d->kills[d->n_kills++] = m;
            if (s->mutants[m].killed_by >= 0) continue;
            s->mutants[m].killed_by = (int32_t)i;
            /* a search that proved it equivalent up to its bound was
            ** searching fewer rows than this database has */
            s->mutants[m].why = s->mutants[m].fate == SQ_MUTANT_EQUIVALENT ? "equivalent up to the search's "
                                "bound, told apart on a larger database" : NULL;
            s->mutants[m].fate = SQ_MUTANT_KILLED;
        }
        c->fixture.n_tables = 0, c->fixture.tables = NULL, c->fixture.cap_tables = 0; /* moved */
        sq_result_init(&c->gold);
    }
    s->n_dbs = n;
}

static void free_build(Build *b) {
    for (uint32_t c = 0; c < b->n_cands; c++) {
        sq_db_close(b->cands[c].db);
        sq_fixture_free(&b->cands[c].fixture);
        sq_result_free(&b->cands[c].gold);
    }
    free(b->cands);
    free(b->kills);
    free(b->mq);
    sq_db_close(b->real);
    sq_diags_free(&b->diags);
}

/* The gold failed to load: its reason, at the first error. */
static void not_loaded(Build *b, const char *why) {
    b->out->status = SQ_SUITE_NOT_LOADED;
    b->out->why = why ? why : "it does not load";
    for (size_t i = 0; i < b->diags.n; i++)
        if (b->diags.items[i]->sev == SQ_SEV_ERROR) {
            b->out->at = b->diags.items[i]->span;
            char *msg = sq_arena_strdup(b->a, b->diags.items[i]->msg);
            size_t len = strlen(b->out->why) + strlen(msg) + 3;
            char *both = sq_arena_alloc(b->a, len);
            snprintf(both, len, "%s: %s", b->out->why, msg);
            b->out->why = both;
            break;
        }
}

/* A witness search that ran out of its budget, searched once more on
** realistic data when a profile gives the real data's facts (--metadata
** without --realistic): values in the shapes the data shows (dates as
** ISO dates, which makes strftime over a TEXT column exact) leave the
** solver far less to search.  Any witness will do: SQLite confirms it,
** and the mutants' searches stay exact. */
static void witness_again(Build *b, SqWitness *w) {
    if (w->status != SQ_WITNESS_UNKNOWN || b->opt->witness.realistic || !b->opt->values_profile) return;
    SqEquivOptions o = b->opt->witness;
    o.realistic = b->opt->values_profile;
    SqWitness again;
    sq_witness(b->cat, b->gold, b->gold_sql, &o, b->a, &again);
    b->out->rlimit_used += again.rlimit_used;
    if (again.status != SQ_WITNESS_FOUND) {
        sq_witness_free(&again);
        return;
    }
    sq_witness_free(w);
    *w = again;
    b->out->witness_again = 1;
}

/* The witness, then the mutants (whose count sizes the kill rows), then
** the witness as the first candidate; or the suite's reason for none.
** Without a witness no mutant is made: there is no suite to kill them. */
static int find_witness(Build *b) {
    double t0 = sq_monotonic_seconds();
    SqWitness w;
    sq_witness(b->cat, b->gold, b->gold_sql, &b->opt->witness, b->a, &w);
    b->out->rlimit_used += w.rlimit_used;
    witness_again(b, &w);
    b->out->witness_seconds = sq_monotonic_seconds() - t0;
    b->out->witness = w.status;
    b->out->witness_ties = w.ties;
    int ok = w.status == SQ_WITNESS_FOUND;
    if (ok) {
        make_mutants(b);
        ok = add_cand(b, &w.fixture, "witness") == 0;
        sq_fixture_init(&w.fixture, b->cat); /* taken, or freed */
        if (!ok) w.why = "the witness database does not load";
    }
    if (!ok) {
        b->out->status = SQ_SUITE_NO_WITNESS;
        b->out->why = w.why;
        b->out->at = w.at;
    }
    sq_witness_free(&w);
    return ok;
}

void sq_suite_build(const Catalog *cat, SqInterner *names, SqSrcSet *srcs, const SqSrc *gold,
                    const SqSuiteOptions *opt, SqSuite *out) {
    double t0 = sq_monotonic_seconds();
    memset(out, 0, sizeof *out);
    out->arena = sq_arena_new();
    Build b;
    memset(&b, 0, sizeof b);
    b.cat = cat, b.names = names, b.srcs = srcs, b.opt = opt, b.out = out, b.a = out->arena;
    b.gold_sql = gold->text;
    b.empty = b.nulls = -1;
    b.mode = sq_equiv_compare_mode(opt->equiv.sem);
    sq_diags_init(&b.diags, srcs);
    const char *why = NULL;
    b.gold = ir_load_query(b.a, gold, cat, names, &b.diags, &opt->bind, &why);
    if (!b.gold) {
        not_loaded(&b, why);
    } else {
        b.sorted = ir_root_sorted(b.gold->root);
        if (find_witness(&b)) {
            add_empty(&b);
            add_nulls(&b);
            for (uint32_t m = 0; m < out->n_mutants; m++)
                if (out->mutants[m].fate != SQ_MUTANT_INVALID && !killed_by_any(&b, m)) search_mutant(&b, m);
            uint32_t *kept = sq_calloc(b.n_cands + 1, sizeof *kept);
            uint32_t n_kept = distill(&b, kept);
            if (opt->values_db) b.real = sq_db_open_file(opt->values_db, NULL);
            suite_hints(opt->question, opt->evidence, b.a, &b.hints);
            for (uint32_t i = 0; i < n_kept && !opt->solver_values; i++) suite_realistic(&b, kept[i]);
            keep(&b, kept, n_kept);
            free(kept);
        }
    }
    for (uint32_t m = 0; m < out->n_mutants; m++) out->fates[out->mutants[m].fate]++;
    free_build(&b);
    out->seconds = sq_monotonic_seconds() - t0;
}

void sq_suite_free(SqSuite *s) {
    for (uint32_t i = 0; i < s->n_dbs; i++) {
        sq_fixture_free(&s->dbs[i].fixture);
        sq_result_free(&s->dbs[i].gold);
    }
    sq_arena_free(s->arena);
    memset(s, 0, sizeof *s);
}
