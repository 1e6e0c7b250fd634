/*
** suite_json.c -- a suite's manifest members as JSON (see suite.h and
** docs/squint-fixture.md, which lists every key).
**
** Layer: backend/suite.  Positions are the user's file's
** (sq_json_span_members); values as sq_fixture_json writes them.
*/
#include "backend/suite/suite.h"

#include "runtime/diag.h"

static void put_span(SqJsonWriter *w, const SqSrcSet *srcs, SrcSpan at) {
    sq_jw_key(w, "at");
    if (!at.file) {
        sq_jw_null(w);
        return;
    }
    sq_jw_obj_begin(w);
    sq_json_span_members(w, srcs, at);
    sq_jw_obj_end(w);
}

static void put_str_or_null(SqJsonWriter *w, const char *key, const char *s) {
    sq_jw_key(w, key);
    if (s) sq_jw_str(w, s);
    else sq_jw_null(w);
}

/* Rows per table, in the fixture's (catalog) order. */
static void put_table_rows(SqJsonWriter *w, const SqFixture *f) {
    sq_jw_key(w, "table_rows");
    sq_jw_obj_begin(w);
    for (uint32_t t = 0; t < f->n_tables; t++) {
        sq_jw_key(w, f->tables[t].table->name);
        sq_jw_int(w, (int64_t)f->tables[t].rows.n_rows);
    }
    sq_jw_obj_end(w);
}

static void put_db(SqJsonWriter *w, const SqSuite *s, uint32_t i) {
    const SqSuiteDb *d = &s->dbs[i];
    char name[16];
    sq_suite_db_name(i, name);
    sq_jw_obj_begin(w);
    sq_jw_key(w, "file");
    sq_jw_str(w, name);
    sq_jw_key(w, "origin");
    sq_jw_str(w, d->origin);
    sq_jw_key(w, "rows");
    sq_jw_int(w, d->rows);
    put_table_rows(w, &d->fixture);
    sq_jw_key(w, "kills");
    sq_jw_arr_begin(w);
    for (uint32_t k = 0; k < d->n_kills; k++) sq_jw_int(w, d->kills[k]);
    sq_jw_arr_end(w);
    sq_jw_key(w, "gold");
    sq_result_json(&d->gold, w);
    sq_jw_obj_end(w);
}

static void put_mutant(SqJsonWriter *w, const SqSuite *s, const SqSrcSet *srcs, uint32_t m) {
    const SqSuiteMutant *mu = &s->mutants[m];
    sq_jw_obj_begin(w);
    sq_jw_key(w, "id");
    sq_jw_int(w, m);
    sq_jw_key(w, "kind");
    sq_jw_str(w, mu->kind_name);
    sq_jw_key(w, "what");
    sq_jw_str(w, mu->what);
    put_span(w, srcs, mu->at);
    sq_jw_key(w, "sql");
    sq_jw_str(w, mu->sql);
    sq_jw_key(w, "fate");
    sq_jw_str(w, sq_mutant_fate_name(mu->fate));
    sq_jw_key(w, "killed_by");
    if (mu->killed_by >= 0) {
        char name[16];
        sq_suite_db_name((uint32_t)mu->killed_by, name);
        sq_jw_str(w, name);
    } else {
        sq_jw_null(w);
    }
    put_str_or_null(w, "why", mu->why);
    sq_jw_obj_end(w);
}

void sq_suite_json(const SqSuite *s, const SqSrcSet *srcs, SqJsonWriter *w) {
    sq_jw_key(w, "status");
    sq_jw_str(w, sq_suite_status_name(s->status));
    put_str_or_null(w, "why", s->why);
    put_span(w, srcs, s->at);
    sq_jw_key(w, "witness");
    if (s->status == SQ_SUITE_NOT_LOADED) {
        sq_jw_null(w);
    } else {
        sq_jw_obj_begin(w);
        sq_jw_key(w, "status");
        sq_jw_str(w, sq_witness_status_name(s->witness));
        sq_jw_key(w, "needs_ties");
        sq_jw_bool(w, s->witness_ties);
        sq_jw_key(w, "on_realistic_data");
        sq_jw_bool(w, s->witness_again);
        sq_jw_key(w, "seconds");
        sq_jw_double(w, s->witness_seconds);
        sq_jw_obj_end(w);
    }
    sq_jw_key(w, "databases");
    sq_jw_arr_begin(w);
    for (uint32_t i = 0; i < s->n_dbs; i++) put_db(w, s, i);
    sq_jw_arr_end(w);
    sq_jw_key(w, "mutants");
    sq_jw_arr_begin(w);
    for (uint32_t m = 0; m < s->n_mutants; m++) put_mutant(w, s, srcs, m);
    sq_jw_arr_end(w);
    sq_jw_key(w, "counts");
    sq_jw_obj_begin(w);
    sq_jw_key(w, "mutants");
    sq_jw_int(w, s->n_mutants);
    for (int f = 0; f < SQ_MUTANT__COUNT; f++) {
        sq_jw_key(w, sq_mutant_fate_name((SqMutantFate)f));
        sq_jw_int(w, s->fates[f]);
    }
    sq_jw_key(w, "candidates");
    sq_jw_int(w, s->n_candidates);
    sq_jw_key(w, "databases");
    sq_jw_int(w, s->n_dbs);
    sq_jw_obj_end(w);
    sq_jw_key(w, "seconds");
    sq_jw_double(w, s->seconds);
    sq_jw_key(w, "rlimit_used");
    sq_jw_int(w, (int64_t)s->rlimit_used);
}
