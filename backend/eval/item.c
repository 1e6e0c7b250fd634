/*
** item.c -- one benchmark item, every system: EX-test, verification,
** cross-check, and its JSON record (item.h).
**
** Sections: per-system state; EX-test; verification; cross-check; the
** record.
*/
#include "backend/eval/item.h"
#include "backend/eval/record.h"
#include "backend/eval/ves.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"
#include "backend/lint/lint_config.h"
#include "backend/lint/lint_data.h"
#include "runtime/jsonw.h"
#include "runtime/util.h"

/* What is known of one system's prediction. */
typedef struct SysState {
    SqExOutcome ex;
    char *ex_detail;        /* heap, or NULL */
    double ex_seconds;
    double soft_f1;         /* BIRD Mini-Dev's Soft-F1; -1: not computed */
    double ves_ratio;       /* VES's time ratio (ves.h); -1: not timed */
    int has_em;             /* em was scored (EM on, a database) */
    SqEmResult em;
    int verified;           /* sq_equiv ran (v is filled) */
    int not_loaded;         /* a query did not parse or bind */
    const char *load_why;   /* static */
    SqEquivResult v;
    double verify_seconds;
    size_t refuted_by;      /* a system index, or SIZE_MAX */
    int has_kinds;          /* kinds was filled */
    SqCexKinds kinds;       /* of a refuting counterexample */
    const char *real_how;   /* realistic: "search", "exact", "no-facts",
                               "no-profile"; NULL: no realistic verdict */
    SqEquivResult vr;       /* the realistic search's (real_how "search") */
    double real_seconds;
    int has_real_kinds;
    SqCexKinds real_kinds;  /* of a realistic counterexample */
    int suite;              /* EX-suite: 1 correct, 0 wrong, -1 not known */
    char *suite_detail;     /* heap, or NULL */
} SysState;

/* ------------------------------------------------------------------ */
/* EX-test                                                             */
/* ------------------------------------------------------------------ */

/* VES's time ratio of a correct prediction: c->ves_runs runs of it and
** of the gold, each run's gold / prediction time, the outliers dropped
** (ves.h).  A run that fails, or a prediction timed at 0, scores 0, as
** the scripts' exception does. */
static double ves_ratio(SqDb *db, const SqEvalInput *in, const char *pred, const SqEvalConfig *c) {
    double *ratios = sq_malloc((size_t)c->ves_runs * sizeof *ratios), r = 0;
    int k = 0;
    for (; k < c->ves_runs; k++) {
        double tp = sq_ex_time(db, pred, 1, &c->ex), tg = sq_ex_time(db, in->gold, 0, &c->ex);
        if (tp <= 0 || tg < 0) break;
        ratios[k] = tg / tp;
    }
    if (k == c->ves_runs) r = sq_ves_time_ratio(ratios, (size_t)k);
    free(ratios);
    return r;
}

/* Spider's exact set match of every system, on the names of db's tables
** and columns (the script reads them from the database). */
static void exact_set_match(SqDb *db, const SqEvalInput *in, const SqEvalConfig *c, SysState *st) {
    char why[160];
    SqEmSchema *s = sq_em_schema_read(db, why, sizeof why);
    for (size_t k = 0; k < in->n_systems; k++) {
        st[k].has_em = 1;
        if (!s) {
            st[k].em.status = SQ_EM_SCRIPT_FAILS;
            snprintf(st[k].em.why, sizeof st[k].em.why, "%s", why);
            continue;
        }
        sq_em_score(s, c->em_keys, in->db_id ? in->db_id : "", in->gold, in->preds[k] ? in->preds[k] : "",
                    &st[k].em);
    }
    sq_em_schema_free(s);
}

static void ex_test(const SqEvalInput *in, const SqEvalConfig *c, SysState *st) {
    char *err = NULL;
    SqDb *db = in->db_path ? sq_db_open_file(in->db_path, &err) : NULL;
    if (db && c->em_keys) exact_set_match(db, in, c, st);
    SqExGold g;
    sq_ex_gold(db, in->gold, &c->ex, &g);
    for (size_t k = 0; k < in->n_systems; k++) {
        double t0 = sq_monotonic_seconds();
        st[k].soft_f1 = st[k].ves_ratio = -1;
        if (in->db_path && !db) {
            st[k].ex = SQ_EX_NO_DB;
            st[k].ex_detail = sq_strdup(err ? err : "cannot open the database");
        } else {
            st[k].ex = sq_ex_pred_f1(db, &g, in->preds[k] ? in->preds[k] : "", &c->ex, &st[k].ex_detail,
                                     &st[k].soft_f1);
            if (c->ves_runs)
                st[k].ves_ratio = st[k].ex == SQ_EX_CORRECT ? ves_ratio(db, in, in->preds[k], c) : 0;
        }
        st[k].ex_seconds = sq_monotonic_seconds() - t0;
    }
    sq_ex_gold_free(&g);
    sq_db_close(db);
    free(err);
}

/* ------------------------------------------------------------------ */
/* EX-suite                                                            */
/* ------------------------------------------------------------------ */

/* The metric on each database of the item's suite: a prediction is
** correct only where it is correct on every one, and EX-test (the
** original database, when there is one) does not reject it. */
static void ex_suite(const SqEvalInput *in, const SqEvalConfig *c, SysState *st) {
    for (size_t k = 0; k < in->n_systems; k++) {
        st[k].suite = in->n_suite_dbs ? 1 : -1;
        if (in->n_suite_dbs && !sq_ex_accepted(st[k].ex)) {
            st[k].suite = 0;
            st[k].suite_detail = sq_strdup("EX-test rejects it");
        } else if (!in->n_suite_dbs && in->db_path) { /* no suite: the original database alone */
            st[k].suite = st[k].ex == SQ_EX_CORRECT;
            st[k].suite_detail = sq_strdup("no suite: EX-test alone");
        }
    }
    for (size_t d = 0; d < in->n_suite_dbs; d++) {
        char *err = NULL;
        SqDb *db = sq_db_open(in->suite_dbs[d], &err);
        SqExGold g;
        sq_ex_gold(db, in->gold, &c->ex, &g);
        for (size_t k = 0; k < in->n_systems; k++) {
            if (st[k].suite != 1) continue;
            SqExOutcome o = db && g.status == SQ_EXEC_OK
                                ? sq_ex_pred(db, &g, in->preds[k] ? in->preds[k] : "", &c->ex, NULL)
                                : SQ_EX_NO_DB;
            if (o == SQ_EX_CORRECT) continue;
            SqBuf why = SQ_BUF_INIT;
            const char *base = strrchr(in->suite_dbs[d], '/');
            sq_buf_printf(&why, "%s on %s", db && g.status == SQ_EXEC_OK ? sq_ex_outcome_name(o) : "cannot run",
                          base ? base + 1 : in->suite_dbs[d]);
            st[k].suite = db && g.status == SQ_EXEC_OK ? 0 : -1;
            st[k].suite_detail = sq_buf_detach(&why);
        }
        sq_ex_gold_free(&g);
        sq_db_close(db);
        free(err);
    }
}

/* ------------------------------------------------------------------ */
/* Verification                                                        */
/* ------------------------------------------------------------------ */

/* The item's profile, loaded on first use: the metadata's entry for its
** db_id, else its database. */
typedef struct ItemProfile {
    int tried, ok;
    SqProfile p;
} ItemProfile;

static int item_profile(const SqEvalInput *in, const SqEvalConfig *c, ItemProfile *ip) {
    if (!ip->tried) {
        ip->tried = 1;
        ip->ok = sq_profile_for(&ip->p, in->cat, c->metadata, in->db_path, c->profile_cache, NULL) == 1;
    }
    return ip->ok;
}

/* Tag the refuting counterexample of v with its kinds, into *kinds; 1
** when tagged. */
static int tag_kinds(const SqEvalInput *in, const SqEvalConfig *c, ItemProfile *ip, IrQuery *gq, const char *gold,
                     const char *pred, const SqEquivResult *v, SqCexKinds *kinds) {
    if (!c->kinds || (!in->db_path && !c->metadata) ||
        (v->verdict != SQ_VERDICT_DIFFERENT && v->verdict != SQ_VERDICT_DIFFERENT_TIES))
        return 0;
    if (!item_profile(in, c, ip)) return 0;
    SqCexInput ci = {&ip->p, &v->fixture, gold, pred, sq_equiv_compare_mode(c->equiv.sem), ir_root_sorted(gq->root),
                     &v->r1, &v->r2, v->verdict == SQ_VERDICT_DIFFERENT_TIES};
    sq_cex_kinds(&ci, kinds);
    return 1;
}

/* The realistic verdict of system k (c->realistic): a refutation is
** searched again keeping to the item's profile; any other verdict holds
** on realistic data as it is. */
static void verify_realistic(const SqEvalInput *in, const SqEvalConfig *c, ItemProfile *ip, IrQuery *gq,
                             const char *gold, IrQuery *pq, const char *pred, SysState *s) {
    if (s->v.verdict != SQ_VERDICT_DIFFERENT && s->v.verdict != SQ_VERDICT_DIFFERENT_TIES) {
        s->real_how = "exact";
        return;
    }
    if ((!in->db_path && !c->metadata) || !item_profile(in, c, ip)) {
        s->real_how = "no-profile";
        return;
    }
    SqArena *a = sq_arena_new();
    uint32_t n = 0;
    sq_equiv_facts(in->cat, &ip->p, a, &n);
    sq_arena_free(a);
    if (!n) { /* the search would be the exact one again */
        s->real_how = "no-facts";
        return;
    }
    double t0 = sq_monotonic_seconds();
    SqEquivOptions o = c->equiv;
    o.realistic = &ip->p;
    sq_equiv(in->cat, gq, gold, pq, pred, &o, &s->vr);
    s->real_how = "search";
    s->real_seconds = sq_monotonic_seconds() - t0;
    s->has_real_kinds = tag_kinds(in, c, ip, gq, gold, pred, &s->vr, &s->real_kinds);
}

static void verify(const SqEvalInput *in, const SqEvalConfig *c, SysState *st) {
    SqSrcSet srcs;
    SqDiags diags;
    sq_srcset_init(&srcs);
    sq_diags_init(&diags, &srcs);
    SqArena *a = sq_arena_new();
    char *gold = sq_metric_sql(c->ex.metric, c->ex.keep_distinct, 0, in->gold);
    const char *why = NULL;
    const SqSrc *gsrc = sq_src_add_copy(&srcs, "gold", gold, strlen(gold));
    IrQuery *gq = ir_load_query(a, gsrc, in->cat, in->interner, &diags, &c->bind, &why);
    ItemProfile ip = {0};
    for (size_t k = 0; k < in->n_systems; k++) {
        if (!sq_ex_accepted(st[k].ex)) continue;
        if (!in->preds[k]) {
            st[k].not_loaded = 1;
            st[k].load_why = "no prediction";
            continue;
        }
        double t0 = sq_monotonic_seconds();
        char *pred = sq_metric_sql(c->ex.metric, c->ex.keep_distinct, 1, in->preds[k]);
        const char *pwhy = NULL;
        const SqSrc *psrc = sq_src_add_copy(&srcs, in->names[k], pred, strlen(pred));
        IrQuery *pq = gq ? ir_load_query(a, psrc, in->cat, in->interner, &diags, &c->bind, &pwhy) : NULL;
        if (!gq || !pq) {
            st[k].not_loaded = 1;
            st[k].load_why = !gq ? "the gold query does not parse or bind" : "the prediction does not parse or bind";
        } else {
            sq_equiv(in->cat, gq, gold, pq, pred, &c->equiv, &st[k].v);
            st[k].verified = 1;
            st[k].has_kinds = tag_kinds(in, c, &ip, gq, gold, pred, &st[k].v, &st[k].kinds);
        }
        st[k].verify_seconds = sq_monotonic_seconds() - t0;
        if (c->realistic && st[k].verified) verify_realistic(in, c, &ip, gq, gold, pq, pred, &st[k]);
        free(pred);
    }
    (void)why;
    if (ip.ok) sq_profile_free(&ip.p);
    free(gold);
    sq_arena_free(a);
    sq_diags_free(&diags);
    sq_srcset_free(&srcs);
}

/* ------------------------------------------------------------------ */
/* Cross-check                                                         */
/* ------------------------------------------------------------------ */

static int has_witness(const SysState *s) { return s->verified && s->v.verdict == SQ_VERDICT_DIFFERENT; }

/* Whether system k passes the metric on the counterexample of system w. */
static int passes_on(const SqEvalInput *in, const SqEvalConfig *c, const SysState *w, size_t k) {
    SqBuf script = SQ_BUF_INIT;
    sq_fixture_sql(&w->v.fixture, &script);
    SqDb *db = sq_db_open_memory_at(sq_buf_str(&script), c->equiv.now, NULL);
    sq_buf_free(&script);
    if (!db) return 1; /* nothing learnt */
    SqExGold g;
    sq_ex_gold(db, in->gold, &c->ex, &g);
    int pass = g.status != SQ_EXEC_OK || sq_ex_pred(db, &g, in->preds[k], &c->ex, NULL) == SQ_EX_CORRECT;
    sq_ex_gold_free(&g);
    sq_db_close(db);
    return pass;
}

static void cross_check(const SqEvalInput *in, const SqEvalConfig *c, SysState *st) {
    for (size_t k = 0; k < in->n_systems; k++) {
        if (!in->preds[k] || has_witness(&st[k]) || !sq_ex_accepted(st[k].ex)) continue;
        for (size_t w = 0; w < in->n_systems && st[k].refuted_by == SIZE_MAX; w++)
            if (w != k && has_witness(&st[w]) && !passes_on(in, c, &st[w], k)) st[k].refuted_by = w;
    }
}

/* ------------------------------------------------------------------ */
/* The record                                                          */
/* ------------------------------------------------------------------ */

static void str_or_null(SqJsonWriter *w, const char *key, const char *s) {
    sq_jw_key(w, key);
    sq_jw_str(w, s);
}

/* ---- the gold linter ---- */

/* The rule name of a finding (binder codes that stand for a rule too). */
static const char *rule_name(const char *code) {
    int r = sq_lint_rule_of_finding(code);
    return r >= 0 ? sq_lint_rule((SqLintRuleId)r)->name : code;
}

/* Whether the project's lint settings drop finding g on the gold query
** of in: below the threshold, or named by an "ignore" entry. */
static int lint_dropped(const SqEvalInput *in, const SqEvalConfig *c, const SqDiag *g) {
    if ((int)g->sev < c->lint_threshold) return 1;
    if (!c->lint_file) return 0;
    const char *file = c->lint_gold_path ? c->lint_gold_path : "";
    return sq_lint_file_ignores(c->lint_file, file, in->item_no, sq_lint_rule_of_finding(g->code));
}

/* "lint": the findings of the gold linter on the gold query. */
static void lint_gold(const SqEvalInput *in, const SqEvalConfig *c, SqJsonWriter *w) {
    SqSrcSet srcs;
    SqDiags diags;
    sq_srcset_init(&srcs);
    sq_diags_init(&diags, &srcs);
    SqArena *a = sq_arena_new();
    const SqSrc *src = sq_src_add_copy(&srcs, "gold", in->gold, strlen(in->gold));
    const char *why;
    IrQuery *q = ir_load_query(a, src, in->cat, in->interner, &diags, &c->bind, &why);
    if (q) {
        SqDb *db = in->db_path ? sq_db_open_file(in->db_path, NULL) : NULL;
        SqPassCtx pc;
        sq_pass_ctx_init(&pc, a, in->cat, in->interner, &diags);
        SqLint l;
        sq_lint_init(&l, &pc, q, &c->lint_rules, &srcs, db != NULL);
        sq_lint_query(&l);
        if (db) {
            SqLintDataOptions o = {c->ex.timeout};
            sq_lint_data(&l, db, in->gold, sq_span(src->id, 0, (uint32_t)strlen(in->gold)), &o);
        }
        sq_db_close(db);
    }
    sq_jw_key(w, "lint");
    sq_jw_arr_begin(w);
    for (size_t k = 0; k < diags.n; k++) {
        const SqDiag *g = diags.items[k];
        if (lint_dropped(in, c, g)) continue;
        SqSrcPos p = sq_src_locate(src, g->span.start);
        char where[32];
        snprintf(where, sizeof where, "%u:%u", p.line, p.col);
        sq_jw_obj_begin(w);
        str_or_null(w, "rule", rule_name(g->code));
        str_or_null(w, "severity", sq_severity_name(g->sev));
        str_or_null(w, "at", where);
        str_or_null(w, "message", g->msg);
        sq_jw_obj_end(w);
    }
    sq_jw_arr_end(w);
    sq_arena_free(a);
    sq_diags_free(&diags);
    sq_srcset_free(&srcs);
}

/* ---- what the record is computed from ---- */

/* 64-bit FNV-1a over a length and the bytes, so that fields cannot run
** into each other; a missing text hashes apart from an empty one. */
static uint64_t hash_text(uint64_t h, const char *s) {
    uint64_t n = s ? (uint64_t)strlen(s) + 1 : 0;
    for (int k = 0; k < 8; k++) h = (h ^ ((n >> (8 * k)) & 0xff)) * UINT64_C(0x100000001b3);
    for (size_t k = 0; s && s[k]; k++) h = (h ^ (unsigned char)s[k]) * UINT64_C(0x100000001b3);
    return h;
}

void sq_eval_input_digest(const SqEvalInput *in, char out[SQ_EVAL_DIGEST_LEN + 1]) {
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    h = hash_text(h, in->gold);
    h = hash_text(h, in->db_id);
    for (size_t k = 0; k < in->n_systems; k++) h = hash_text(h, in->preds[k]);
    /* a final mix, so that one byte changed changes every digit */
    h ^= h >> 33;
    h *= UINT64_C(0xff51afd7ed558ccd);
    h ^= h >> 33;
    snprintf(out, SQ_EVAL_DIGEST_LEN + 1, "%016llx", (unsigned long long)h);
}

static void item_head(SqJsonWriter *w, const SqEvalInput *in) {
    char digest[SQ_EVAL_DIGEST_LEN + 1];
    sq_eval_input_digest(in, digest);
    sq_jw_key(w, "item");
    sq_jw_int(w, (int64_t)in->index);
    sq_jw_key(w, SQ_EVAL_FORMAT_KEY);
    sq_jw_int(w, SQ_EVAL_FORMAT);
    str_or_null(w, "inputs", digest);
    if (in->options) {
        sq_jw_key(w, "options");
        sq_jw_raw(w, in->options);
    }
    str_or_null(w, "label", in->label);
    str_or_null(w, "db_id", in->db_id);
    str_or_null(w, "difficulty", in->difficulty);
    str_or_null(w, "question", in->question);
    str_or_null(w, "gold", in->gold);
}

/* "kinds", "kinds_where", "kinds_tested", as squint equiv writes them. */
static void kinds_json(SqJsonWriter *w, const SqCexKinds *k, const char *key) {
    char kw[64], kt[64];
    snprintf(kw, sizeof kw, "%s_where", key);
    snprintf(kt, sizeof kt, "%s_tested", key);
    sq_jw_key(w, key);
    sq_jw_arr_begin(w);
    if (!k->kinds) sq_jw_str(w, sq_cex_kind_name(0));
    for (unsigned bit = 1; bit <= SQ_CEX_NEEDS_TIES; bit <<= 1)
        if (k->kinds & bit) sq_jw_str(w, sq_cex_kind_name(bit));
    sq_jw_arr_end(w);
    sq_jw_key(w, kw);
    sq_jw_arr_begin(w);
    for (uint32_t i = 0; i < k->n_where; i++) {
        const SqCexWhere *x = &k->where[i];
        sq_jw_obj_begin(w);
        str_or_null(w, "kind", sq_cex_kind_name(x->kind));
        str_or_null(w, "table", x->table->name);
        str_or_null(w, "column", x->table->cols[x->col].name);
        sq_jw_key(w, "value");
        sq_value_json(w, &x->value);
        sq_jw_obj_end(w);
    }
    sq_jw_arr_end(w);
    sq_jw_key(w, kt);
    sq_jw_bool(w, k->tested);
}

/* The counterexample of v: its tables, both results, and the text. */
static void counterexample_json(SqJsonWriter *w, const SqEquivResult *v, const char *suffix) {
    char key[64];
    snprintf(key, sizeof key, "counterexample%s", suffix);
    sq_jw_key(w, key);
    sq_fixture_json(&v->fixture, w);
    snprintf(key, sizeof key, "gold_result%s", suffix);
    sq_jw_key(w, key);
    sq_result_json(&v->r1, w);
    snprintf(key, sizeof key, "pred_result%s", suffix);
    sq_jw_key(w, key);
    sq_result_json(&v->r2, w);
    SqBuf text = SQ_BUF_INIT;
    sq_fixture_text(&v->fixture, &text);
    sq_buf_putc(&text, '\n');
    sq_result_side_by_side(&v->r1, "gold", &v->r2, "prediction", &text);
    snprintf(key, sizeof key, "explain%s", suffix);
    sq_jw_key(w, key);
    sq_jw_strn(w, text.data ? text.data : "", text.len);
    sq_buf_free(&text);
}

/* "verdict_realistic" and what goes with it (realistic on). */
static void realistic_json(SqJsonWriter *w, const SysState *s) {
    if (!s->real_how) return;
    const SqEquivResult *v = strcmp(s->real_how, "search") == 0 ? &s->vr : &s->v;
    str_or_null(w, "verdict_realistic", v == &s->vr ? sq_eval_verdict_label(v) : sq_eval_verdict_name((int)v->verdict));
    str_or_null(w, "verdict_realistic_how", s->real_how);
    if (v != &s->vr) return;
    str_or_null(w, "verdict_realistic_detail", v->detail);
    sq_jw_key(w, "realistic_facts");
    sq_jw_int(w, v->realistic);
    sq_jw_key(w, "verify_realistic_seconds");
    sq_jw_double(w, s->real_seconds);
    if (v->verdict == SQ_VERDICT_EQUIVALENT) {
        SqBuf promise = SQ_BUF_INIT;
        sq_equiv_promise(v, &promise);
        str_or_null(w, "promise_realistic", sq_buf_str(&promise));
        sq_buf_free(&promise);
    }
    if (v->verdict == SQ_VERDICT_DIFFERENT || v->verdict == SQ_VERDICT_DIFFERENT_TIES) {
        counterexample_json(w, v, "_realistic");
        if (s->has_real_kinds) kinds_json(w, &s->real_kinds, "kinds_realistic");
    }
}

static void verdict_json(SqJsonWriter *w, const SysState *s) {
    if (s->not_loaded) {
        str_or_null(w, "verdict", sq_eval_verdict_name(SQ_EVAL_NOT_LOADED));
        str_or_null(w, "verdict_detail", s->load_why);
        return;
    }
    if (!s->verified) {
        str_or_null(w, "verdict", NULL);
        return;
    }
    str_or_null(w, "verdict", sq_eval_verdict_name((int)s->v.verdict));
    str_or_null(w, "verdict_detail", s->v.detail);
    sq_jw_key(w, "bound");
    sq_jw_int(w, s->v.bound);
    sq_jw_key(w, "verify_seconds");
    sq_jw_double(w, s->verify_seconds);
    if (s->v.verdict == SQ_VERDICT_DIFFERENT || s->v.verdict == SQ_VERDICT_DIFFERENT_TIES) {
        counterexample_json(w, &s->v, "");
        if (s->has_kinds) kinds_json(w, &s->kinds, "kinds");
    }
    realistic_json(w, s);
}

static void em_json(SqJsonWriter *w, const SqEmResult *em) {
    sq_jw_key(w, "em");
    if (em->status != SQ_EM_OK) {
        sq_jw_null(w);
        str_or_null(w, "em_detail", em->why);
        return;
    }
    sq_jw_int(w, em->exact);
    sq_jw_key(w, "em_parts");
    sq_jw_arr_begin(w);
    for (int p = 0; p < SQ_EM_NPARTS; p++) {
        sq_jw_arr_begin(w);
        sq_jw_int(w, em->part[p].f1);
        sq_jw_int(w, em->part[p].pred_total);
        sq_jw_int(w, em->part[p].label_total);
        sq_jw_arr_end(w);
    }
    sq_jw_arr_end(w);
}

static void system_json(SqJsonWriter *w, const SqEvalInput *in, const SysState *st, size_t k) {
    sq_jw_obj_begin(w);
    str_or_null(w, "name", in->names[k]);
    str_or_null(w, "pred", in->preds[k]);
    str_or_null(w, "ex", sq_ex_outcome_name(st[k].ex));
    str_or_null(w, "ex_detail", st[k].ex_detail);
    sq_jw_key(w, "ex_seconds");
    sq_jw_double(w, st[k].ex_seconds);
    if (st[k].soft_f1 >= 0 && st[k].ex != SQ_EX_NO_DB) {   /* bird, on a database */
        sq_jw_key(w, "soft_f1");
        sq_jw_double(w, st[k].soft_f1);
    }
    if (st[k].ves_ratio >= 0) {   /* --ves */
        sq_jw_key(w, "ves_ratio");
        sq_jw_double(w, st[k].ves_ratio);
    }
    if (st[k].has_em) em_json(w, &st[k].em);
    if (in->suite_dbs) {
        str_or_null(w, "ex_suite", st[k].suite == 1 ? "correct" : st[k].suite == 0 ? "wrong" : NULL);
        str_or_null(w, "ex_suite_detail", st[k].suite_detail);
    }
    verdict_json(w, &st[k]);
    str_or_null(w, "refuted_by", st[k].refuted_by == SIZE_MAX ? NULL : in->names[st[k].refuted_by]);
    sq_jw_obj_end(w);
}

void sq_eval_item(const SqEvalInput *in, const SqEvalConfig *c, SqBuf *out) {
    double t0 = sq_monotonic_seconds();
    SysState *st = sq_calloc(in->n_systems ? in->n_systems : 1, sizeof *st);
    for (size_t k = 0; k < in->n_systems; k++) st[k].refuted_by = SIZE_MAX;
    ex_test(in, c, st);
    if (in->suite_dbs) ex_suite(in, c, st);
    if (c->verify && in->cat) verify(in, c, st);
    if (c->cross_check) cross_check(in, c, st);
    SqJsonWriter w;
    sq_jw_init(&w, out, 0);
    sq_jw_obj_begin(&w);
    item_head(&w, in);
    if (c->lint && in->cat) lint_gold(in, c, &w);
    sq_jw_key(&w, "systems");
    sq_jw_arr_begin(&w);
    for (size_t k = 0; k < in->n_systems; k++) system_json(&w, in, st, k);
    sq_jw_arr_end(&w);
    sq_jw_key(&w, "seconds");
    sq_jw_double(&w, sq_monotonic_seconds() - t0);
    sq_jw_obj_end(&w);
    sq_buf_putc(out, '\n');
    for (size_t k = 0; k < in->n_systems; k++) {
        free(st[k].ex_detail);
        free(st[k].suite_detail);
        if (st[k].verified) sq_equiv_result_free(&st[k].v);
        if (st[k].has_kinds) sq_cex_kinds_free(&st[k].kinds);
        if (st[k].real_how && strcmp(st[k].real_how, "search") == 0) sq_equiv_result_free(&st[k].vr);
        if (st[k].has_real_kinds) sq_cex_kinds_free(&st[k].real_kinds);
    }
    free(st);
}

void sq_eval_item_failed(const SqEvalInput *in, const char *why, SqBuf *out) {
    SqJsonWriter w;
    sq_jw_init(&w, out, 0);
    sq_jw_obj_begin(&w);
    item_head(&w, in);
    str_or_null(&w, "failed", why);
    sq_jw_key(&w, "systems");
    sq_jw_arr_begin(&w);
    for (size_t k = 0; k < in->n_systems; k++) {
        sq_jw_obj_begin(&w);
        str_or_null(&w, "name", in->names[k]);
        str_or_null(&w, "pred", in->preds[k]);
        str_or_null(&w, "ex", "failed");
        str_or_null(&w, "ex_detail", why);
        str_or_null(&w, "verdict", NULL);
        str_or_null(&w, "refuted_by", NULL);
        sq_jw_obj_end(&w);
    }
    sq_jw_arr_end(&w);
    sq_jw_obj_end(&w);
    sq_buf_putc(out, '\n');
}
