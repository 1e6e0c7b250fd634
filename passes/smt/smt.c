/*
** smt.c -- the z3 context, the queries' strings, the comparison of two
** results under set, bag, list or spider semantics, building the formula
** for a bound, solving and shrinking.
**
** Layer: passes.  See smt.h; the encoding is described in docs/smt.md.
** The symbolic database is smt_db.c, reading the model back smt_model.c.
** TEXT values are z3 strings (smt_str.c).
*/
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "passes/smt/smt_int.h"

enum { TERM_BUDGET = 4000000 }; /* terms per build before giving up */

/* The error model of the lowering.  The library never throws, except
** here: a construct the encoding cannot express (smt_unsupported) and an
** error z3 reports through its callback (a failing call would otherwise
** return a NULL, false or Z3_L_UNDEF that a caller would use) leave by
** longjmp, from any depth, to the innermost protect point (smt_protect).
** The rule that keeps this safe: between a protect point and anything
** that may throw, memory comes from the SqSmt's arena only (never
** malloc, an SqBuf or a foreign handle that needs a free), so that a
** throw loses nothing.  tests/unit/test_smt_fault.c makes every wrapped
** z3 call fail, and the sanitized test run checks for leaks.
**
** z3's callback gets only the context, so the contexts under protection
** form a chain per thread (`protected`, linked through SqSmt.outer): the
** handler finds the SqSmt whose context failed.  In a build, an error
** refuses the build; reading a value from a model, it ends the reading;
** anywhere else, or for want of memory (RLIMIT_AS, z3's
** memory_max_size) or an exception inside z3 anywhere, the context is no
** longer trusted (SqSmt.failed). */
static _Thread_local SqSmt *protected;

static void note_failure(SqSmt *s, Z3_error_code e, const char *msg) {
    if (s->failed) return;
    if (e == Z3_MEMOUT_FAIL) {
        s->failed = "out of memory";
        return;
    }
    /* no allocation: memory may be what is short */
    snprintf(s->failed_text, sizeof s->failed_text, "z3 error: %s", msg && *msg ? msg : "unknown");
    s->failed = s->failed_text;
}

static void z3_error(Z3_context z, Z3_error_code e) {
    SqSmt *s = protected;
    while (s && s->z != z) s = s->outer;
    if (!s) return; /* not under protection: the caller reads the error code */
    const char *msg = Z3_get_error_msg(z, e);
    int broken = e == Z3_MEMOUT_FAIL || e == Z3_EXCEPTION || e == Z3_INTERNAL_FATAL;
    if (broken || (!s->building && !s->reading)) note_failure(s, e, msg);
    if (s->no_jump) return; /* recorded: the caller looks (failed_in) */
    if (s->building) s->unsupported = s->failed ? s->failed : sq_arena_strdup(s->arena, msg);
    longjmp(*s->fail, 1);
}

static int is_protected(const SqSmt *s) {
    for (const SqSmt *p = protected; p; p = p->outer)
        if (p == s) return 1;
    return 0;
}

int smt_protect(SqSmt *s, void (*fn)(SqSmt *, void *), void *arg) {
    jmp_buf jb, *outer = s->fail; /* none of these changes after setjmp */
    SqSmt *was = s->outer, *top = protected;
    int no_jump = s->no_jump, reading = s->reading, rc = -1;
    s->fail = &jb;
    if (!is_protected(s)) s->outer = top, protected = s; /* nested: s keeps its place */
    if (!setjmp(jb)) {
        fn(s, arg);
        rc = 0;
    }
    s->fail = outer;
    protected = top;
    s->outer = was;
    s->no_jump = no_jump, s->reading = reading;
    return rc;
}

/* After a call made with no_jump set: whether it failed (the context is
** then not trusted: s->failed). */
static int failed_in(const SqSmt *s) { return s->failed != NULL; }

const char *sq_smt_failure(const SqSmt *s) { return s->failed; }

enum { MEMORY_MB = 2048 }; /* z3's memory per process: a hard pair fails, the batch goes on */

SqSmt *sq_smt_new(const Catalog *cat, unsigned timeout_ms) {
    static int limited;
    if (!limited) {
        char mb[16];
        snprintf(mb, sizeof mb, "%d", MEMORY_MB);
        Z3_global_param_set("memory_max_size", mb);
        limited = 1;
    }
    SqSmt *s = sq_malloc(sizeof *s);
    memset(s, 0, sizeof *s);
    Z3_config cfg = Z3_mk_config();
    Z3_set_param_value(cfg, "model", "true");
    s->z = Z3_mk_context(cfg);
    Z3_del_config(cfg);
    if (!s->z) { /* z3 refuses: its memory limit is reached */
        free(s);
        return NULL;
    }
    Z3_set_error_handler(s->z, z3_error);
    s->cat = cat;
    s->timeout_ms = timeout_ms;
    s->arena = sq_arena_new();
    sq_smt_set_now(s, 1781526896); /* as SQ_EQUIV_NOW */
    return s;
}

void sq_smt_set_fold(SqSmt *s, SqSmtFoldFn fn, void *arg) {
    s->fold = fn;
    s->fold_arg = arg;
}

void sq_smt_set_now(SqSmt *s, int64_t now) { sq_utc_text(now, s->now); }

int sq_smt_reads_clock(const SqSmt *s) { return s->reads_clock; }
const char *sq_smt_now_text(const SqSmt *s) { return s->now; }

void sq_smt_set_timeout(SqSmt *s, unsigned timeout_ms) {
    s->timeout_ms = timeout_ms;
    s->deadline = timeout_ms ? sq_monotonic_seconds() + timeout_ms / 1000.0 : 0;
}

void sq_smt_set_typed_values(SqSmt *s, int on) { s->typed_values = on; }

void sq_smt_set_rlimit(SqSmt *s, uint64_t units) {
    s->rlimit = units;
    s->rlimit_from = s->rlimit_spent;
}

uint64_t sq_smt_rlimit_spent(const SqSmt *s) { return s->rlimit_spent; }

/* What is left of the resource budget (at least 1 with one; 0: none). */
static uint64_t rlimit_left(const SqSmt *s) {
    if (!s->rlimit) return 0;
    uint64_t used = s->rlimit_spent - s->rlimit_from;
    return used < s->rlimit ? s->rlimit - used : 1;
}

static void drop_solver(SqSmt *s) {
    if (s->model) Z3_model_dec_ref(s->z, s->model);
    if (s->solver) Z3_solver_dec_ref(s->z, s->solver);
    s->model = NULL;
    s->solver = NULL;
}

void sq_smt_free(SqSmt *s) {
    if (!s) return;
    drop_solver(s);
    Z3_del_context(s->z);
    sq_arena_free(s->arena);
    free(s->facts);
    free(s);
}

void sq_smt_set_facts(SqSmt *s, const SqSmtColumnFacts *facts, uint32_t n) {
    free(s->facts);
    s->facts = NULL;
    s->n_facts = 0;
    if (!n) return;
    s->facts = sq_malloc(n * sizeof *s->facts);
    memcpy(s->facts, facts, n * sizeof *s->facts);
    s->n_facts = n;
}

uint32_t sq_smt_facts_used(const SqSmt *s) { return s->facts_used; }

_Noreturn void smt_unsupported(SqSmt *s, SrcSpan at, const char *fmt, ...) {
    SqBuf b = SQ_BUF_IN(s->arena);
    va_list ap;
    va_start(ap, fmt);
    sq_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    s->unsupported = sq_arena_strdup(s->arena, sq_buf_str(&b));
    s->unsupported_at = at;
    sq_buf_free(&b);
    longjmp(*s->fail, 1);
}

void smt_count(SqSmt *s, uint64_t n) {
    SrcSpan none = {0};
    uint64_t before = s->n_terms;
    s->n_terms += n;
    if (s->n_terms > TERM_BUDGET) smt_unsupported(s, none, "a formula too large at bound %d", s->k);
    /* building a large formula takes time too: look at the clock now and then */
    if (s->deadline > 0 && (before >> 14) != (s->n_terms >> 14) && sq_monotonic_seconds() > s->deadline)
        smt_unsupported(s, none, "a formula too large to build in time at bound %d", s->k);
}

void smt_prefer(SqSmt *s, Z3_ast c) {
    if (Z3_get_bool_value(s->z, c) == Z3_L_TRUE) return;
    *SQ_ARENA_APPEND(s->arena, s->exact, s->n_exact, s->cap_exact) = c;
}

static uint32_t lemma_slot(SqSmt *s, Z3_ast *set, uint32_t cap, Z3_ast a) {
    uint32_t h = Z3_get_ast_id(s->z, a) * 2654435761u;
    for (uint32_t i = h & (cap - 1);; i = (i + 1) & (cap - 1))
        if (!set[i] || set[i] == a) return i;
}

/* Whether a is new to the set of lemmas (adding it); the set doubles at
** half full. */
static int lemma_added(SqSmt *s, Z3_ast a) {
    if (2 * (s->n_lemmas + 1) > s->cap_lemmas) {
        uint32_t cap = s->cap_lemmas ? 2 * s->cap_lemmas : 64;
        Z3_ast *set = sq_arena_alloc(s->arena, cap * sizeof *set);
        memset(set, 0, cap * sizeof *set);
        for (uint32_t i = 0; i < s->cap_lemmas; i++)
            if (s->lemmas[i]) set[lemma_slot(s, set, cap, s->lemmas[i])] = s->lemmas[i];
        s->lemmas = set;
        s->cap_lemmas = cap;
    }
    uint32_t i = lemma_slot(s, s->lemmas, s->cap_lemmas, a);
    if (s->lemmas[i]) return 0;
    s->lemmas[i] = a;
    s->n_lemmas++;
    return 1;
}

void smt_lemma(SqSmt *s, Z3_ast fact) {
    if (Z3_get_bool_value(s->z, fact) == Z3_L_TRUE || !lemma_added(s, fact)) return;
    Z3_solver_assert(s->z, s->solver, fact);
}

void smt_add_tie_condition(SqSmt *s, Z3_ast c) {
    if (Z3_get_bool_value(s->z, c) == Z3_L_TRUE) return;
    *SQ_ARENA_APPEND(s->arena, s->ties, s->n_ties, s->cap_ties) = c;
}

/* ---- comparing two results ------------------------------------------------------ */

static Z3_ast rows_equal(SqSmt *s, const SmtRel *a, uint32_t i, const SmtRel *b, uint32_t j) {
    const SmtBind *x = smt_out(a, i), *y = smt_out(b, j);
    Z3_ast r = smt_true(s);
    for (uint32_t c = 0; c < a->n_cols; c++)
        r = smt_and2(s, r, smt_result_equal(s, smt_as_number(s, x->cells[c]), smt_as_number(s, y->cells[c])));
    return r;
}

/* How many live rows of r equal the values w. */
static Z3_ast count_of(SqSmt *s, const SmtRel *r, const SmtVal *w) {
    Z3_ast *c = sq_arena_alloc(s->arena, (r->n + 1) * sizeof *c);
    for (uint32_t j = 0; j < r->n; j++) {
        const SmtBind *x = smt_out(r, j);
        Z3_ast eq = r->rows[j].alive;
        for (uint32_t k = 0; k < r->n_cols; k++)
            eq = smt_and2(s, eq, smt_result_equal(s, w[k], smt_as_number(s, x->cells[k])));
        c[j] = eq;
    }
    return smt_count_true(s, c, r->n);
}

/* How many live rows of b equal row i of a. */
static Z3_ast copies(SqSmt *s, const SmtRel *a, uint32_t i, const SmtRel *b) {
    const SmtBind *x = smt_out(a, i);
    SmtVal *w = sq_arena_alloc(s->arena, (a->n_cols + 1) * sizeof *w);
    for (uint32_t c = 0; c < a->n_cols; c++) w[c] = smt_as_number(s, x->cells[c]);
    return count_of(s, b, w);
}

/* Some live row of a has no equal in b (SET), or another count (BAG), or
** another place (LIST). */
static Z3_ast one_way(SqSmt *s, SmtRel *a, SmtRel *b, SqSmtSemantics sem) {
    Z3_ast any = smt_false(s);
    for (uint32_t i = 0; i < a->n; i++) {
        Z3_ast bad;
        if (sem == SQ_SMT_BAG) {
            bad = smt_not(s, smt_eq(s, copies(s, a, i, a), copies(s, a, i, b)));
        } else {
            Z3_ast found = smt_false(s);
            for (uint32_t j = 0; j < b->n; j++) {
                Z3_ast m = smt_and2(s, b->rows[j].alive, rows_equal(s, a, i, b, j));
                if (sem == SQ_SMT_LIST) m = smt_and2(s, m, smt_eq(s, a->pos[i], b->pos[j]));
                found = smt_or2(s, found, m);
            }
            bad = smt_not(s, found);
        }
        any = smt_or2(s, any, smt_and2(s, a->rows[i].alive, bad));
    }
    return any;
}

/* The kind every row of r has in column c (BOOL read as INT), or -1. */
static int column_kind(SqSmt *s, const SmtRel *r, uint32_t c) {
    int kind = -1;
    for (uint32_t i = 0; i < r->n; i++) {
        int k = smt_as_number(s, smt_out(r, i)->cells[c]).kind;
        if (kind >= 0 && k != kind) return -1;
        kind = k;
    }
    return kind;
}

/* BAG by a witness: some row value w, fresh, occurs a different number of
** times in a and in b.  That is 2n row comparisons where comparing every
** row's counts takes 2n^2, which z3 decides much faster on joins.  NULL
** when a column does not have one cell kind in both results.  (The same
** form for SET, membership instead of counts, was measured on BIRD pairs
** and gained nothing, so SET keeps the per-row form.) */
static Z3_ast bag_witness(SqSmt *s, const SmtRel *a, const SmtRel *b) {
    if (!a->n || !b->n) return NULL;
    SmtVal *w = sq_arena_alloc(s->arena, (a->n_cols + 1) * sizeof *w);
    for (uint32_t c = 0; c < a->n_cols; c++) {
        int ka = column_kind(s, a, c), kb = column_kind(s, b, c);
        if (ka < 0 || ka != kb || ka == SMT_NULL || ka == SMT_NUM || ka == SMT_BOOL) return NULL;
        char name[48];
        snprintf(name, sizeof name, "bag.w!%u", s->n_fresh++);
        w[c] = smt_fresh(s, (SmtKind)ka, name);
    }
    return smt_not(s, smt_eq(s, count_of(s, a, w), count_of(s, b, w)));
}

static Z3_ast live_count(SqSmt *s, const SmtRel *r) {
    Z3_ast *c = sq_arena_alloc(s->arena, (r->n + 1) * sizeof *c);
    for (uint32_t i = 0; i < r->n; i++) c[i] = r->rows[i].alive;
    return smt_count_true(s, c, r->n);
}

static Z3_ast differ(SqSmt *s, SmtRel *a, SmtRel *b, SqSmtSemantics sem) {
    Z3_ast w = sem == SQ_SMT_BAG ? bag_witness(s, a, b) : NULL;
    if (w) return w;
    Z3_ast d = smt_or2(s, one_way(s, a, b, sem), one_way(s, b, a, sem));
    if (sem == SQ_SMT_LIST) d = smt_or2(s, d, smt_not(s, smt_eq(s, live_count(s, a), live_count(s, b))));
    return d;
}

enum { SPIDER_MAX_COLS = 5 }; /* 120 permutations */

/* b with its output columns in the order perm gives. */
static SmtRel permuted(SqSmt *s, const SmtRel *b, const uint32_t *perm) {
    SmtRel out = *b;
    out.rows = sq_arena_alloc(s->arena, (b->n + 1) * sizeof *out.rows);
    for (uint32_t i = 0; i < b->n; i++) {
        const SmtBind *x = smt_out(b, i);
        SmtVal *cells = sq_arena_alloc(s->arena, (b->n_cols + 1) * sizeof *cells);
        for (uint32_t c = 0; c < b->n_cols; c++) cells[c] = x->cells[perm[c]];
        out.rows[i].alive = b->rows[i].alive;
        out.rows[i].binds = sq_arena_alloc(s->arena, sizeof(SmtBind));
        out.rows[i].binds[0] = (SmtBind){b->out, cells, b->n_cols};
        out.rows[i].n_binds = 1;
    }
    return out;
}

/* The next permutation in lexicographic order; 0 after the last. */
static int next_perm(uint32_t *p, uint32_t n) {
    uint32_t i = n - 1;
    while (i > 0 && p[i - 1] >= p[i]) i--;
    if (i == 0) return 0;
    uint32_t j = n - 1;
    while (p[j] <= p[i - 1]) j--;
    uint32_t t = p[i - 1];
    p[i - 1] = p[j];
    p[j] = t;
    for (uint32_t l = i, r = n - 1; l < r; l++, r--) t = p[l], p[l] = p[r], p[r] = t;
    return 1;
}

/* Spider's test suite: the results differ under every permutation of b's
** columns. */
static Z3_ast differ_spider(SqSmt *s, SmtRel *a, SmtRel *b, int ordered) {
    uint32_t n = a->n_cols, perm[SPIDER_MAX_COLS];
    if (n > SPIDER_MAX_COLS) {
        SrcSpan none = {0};
        smt_unsupported(s, none, "spider semantics over more than %d columns", SPIDER_MAX_COLS);
    }
    for (uint32_t c = 0; c < n; c++) perm[c] = c;
    Z3_ast all = smt_true(s);
    do {
        SmtRel pb = permuted(s, b, perm);
        all = smt_and2(s, all, differ(s, a, &pb, ordered ? SQ_SMT_LIST : SQ_SMT_BAG));
    } while (n > 1 && next_perm(perm, n));
    return all;
}

/* ---- building ------------------------------------------------------------------------ */

static SmtRel lower_query(SqSmt *s, IrQuery *q, SqSmtSemantics sem) {
    s->q = q;
    SmtRel r = smt_rel(s, q->root, NULL);
    if (sem == SQ_SMT_LIST) {
        smt_positions(s, &r);
        smt_order_ties(s, &r);
    }
    return r;
}

static void reset(SqSmt *s) {
    drop_solver(s);
    sq_arena_reset(s->arena);
    s->tables = NULL;
    s->n_tables = s->cap_tables = 0;
    s->ties = NULL;
    s->n_ties = s->cap_ties = 0;
    s->ctes = NULL;
    s->n_ctes = s->cap_ctes = 0;
    s->ufs = NULL;
    s->n_ufs = s->cap_ufs = 0;
    s->uf_names = NULL;
    s->unsupported = s->reason = s->approx = NULL;
    s->n_terms = 0;
    s->n_fresh = 0;
    s->reads_clock = 0;
    s->rounds = 0;
    s->exact = NULL;
    s->n_exact = s->cap_exact = 0;
    s->used = NULL;
    s->samples = NULL;
    s->n_samples = s->cap_samples = 0;
    s->reals = NULL;
    s->n_reals = s->cap_reals = 0;
    s->sampled = NULL;
    s->n_sampled = s->cap_sampled = 0;
    s->date_texts = NULL;
    s->n_date_texts = s->cap_date_texts = 0;
    s->folds = NULL;
    s->n_folds = s->cap_folds = 0;
    s->counts = NULL;
    s->n_counts = s->cap_counts = 0;
    s->lemmas = NULL;
    s->n_lemmas = s->cap_lemmas = 0;
    s->slices = NULL;
    s->n_slices = s->cap_slices = 0;
    s->num_read = 0;
    s->diff = NULL;
    s->nonempty = NULL;
    s->facts_used = 0;
    s->dated = NULL;
    s->n_dated = s->cap_dated = 0;
}

/* The share of the resource budget the incremental solver gets before a
** fresh one takes the rest (check_once), as it gets a slice of the time,
** and at most INCREMENTAL_UNITS: where it gets stuck, the fresh solver
** often answers at once, and z3's string solver may spend a second on
** 100,000 units. */
enum { INCREMENTAL_SHARE = 10, INCREMENTAL_UNITS = 1000000 };

/* The solver's time limit: what is left until the deadline (every check
** of a bound shares it), or the fixed timeout when there is none, and at
** most max_ms when not 0; and its resource limit, divided by share.  For
** solver in context z (the formula's, or the fresh one a check may run
** in).  0, or -1 when a z3 call failed (in the fresh context, which has
** no error handler: a check without its limits must not run). */
static int set_limits(SqSmt *s, Z3_context z, Z3_solver solver, unsigned max_ms, unsigned share) {
    unsigned ms = s->timeout_ms;
    if (s->deadline > 0) {
        double left = s->deadline - sq_monotonic_seconds();
        ms = left > 0.001 ? (unsigned)(left * 1000) : 1;
    }
    if (max_ms && (!ms || ms > max_ms)) ms = max_ms;
    if (!ms && !s->rlimit) return 0;
    Z3_params p = Z3_mk_params(z);
    if (!p) return -1;
    Z3_params_inc_ref(z, p);
    int failed = 0;
    if (ms) {
        Z3_symbol timeout = Z3_mk_string_symbol(z, "timeout");
        if (timeout) Z3_params_set_uint(z, p, timeout, ms);
        failed |= !timeout || Z3_get_error_code(z) != Z3_OK;
    }
    uint64_t left = rlimit_left(s), units = left / share ? left / share : left;
    if (share == INCREMENTAL_SHARE && units > INCREMENTAL_UNITS) units = INCREMENTAL_UNITS;
    if (units > UINT_MAX) units = UINT_MAX; /* z3 takes an unsigned */
    if (s->rlimit) {
        Z3_symbol rlimit = Z3_mk_string_symbol(z, "rlimit");
        if (rlimit) Z3_params_set_uint(z, p, rlimit, (unsigned)units);
        failed |= !rlimit || Z3_get_error_code(z) != Z3_OK;
    }
    if (!failed) {
        Z3_solver_set_params(z, solver, p);
        failed = Z3_get_error_code(z) != Z3_OK;
    }
    Z3_params_dec_ref(z, p);
    return failed ? -1 : 0;
}

static void set_solver_limits(SqSmt *s, unsigned max_ms, unsigned share) {
    set_limits(s, s->z, s->solver, max_ms, share);
}

static void new_solver(SqSmt *s) {
    s->solver = Z3_mk_solver(s->z);
    Z3_solver_inc_ref(s->z, s->solver);
    set_solver_limits(s, 0, 1);
}

/* A live row in r. */
static Z3_ast some_row(SqSmt *s, const SmtRel *r) {
    Z3_ast *alive = sq_arena_alloc(s->arena, (r->n + 1) * sizeof *alive);
    for (uint32_t i = 0; i < r->n; i++) alive[i] = r->rows[i].alive;
    return smt_or_n(s, alive, r->n);
}

typedef struct BuildArgs {
    IrQuery *q1, *q2;
    SqSmtSemantics sem;
} BuildArgs;

/* One query, asserted to return a row (sq_smt_build_nonempty).  Its
** rows are compared as a list when it sorts them, so that a tie-free
** check also rules out ties in the order it returns them. */
static void build_one(SqSmt *s, IrQuery *q) {
    SqSmtSemantics as = q->root && ir_root_sorted(q->root) ? SQ_SMT_LIST : SQ_SMT_BAG;
    smt_samples_collect(s, q, NULL);
    s->which = 1;
    SmtRel r = lower_query(s, q, as);
    s->which = 0;
    s->nonempty = some_row(s, &r);
    s->diff = s->nonempty; /* what the checks solve for */
    Z3_solver_assert(s->z, s->solver, s->diff);
    smt_schema_constraints(s);
    smt_fact_constraints(s);
}

static void build(SqSmt *s, void *arg) {
    const BuildArgs *b = arg;
    new_solver(s);
    if (!b->q2) {
        build_one(s, b->q1);
        return;
    }
    int ordered = b->sem == SQ_SMT_SPIDER && ir_root_sorted(b->q1->root); /* Spider: the gold's ORDER BY */
    SqSmtSemantics as = b->sem == SQ_SMT_SPIDER ? (ordered ? SQ_SMT_LIST : SQ_SMT_BAG) : b->sem;
    smt_samples_collect(s, b->q1, b->q2);
    s->which = 1;
    SmtRel r1 = lower_query(s, b->q1, as);
    s->which = 2;
    SmtRel r2 = lower_query(s, b->q2, as);
    s->which = 0;
    s->diff = b->sem == SQ_SMT_SPIDER ? differ_spider(s, &r1, &r2, ordered) : differ(s, &r1, &r2, b->sem);
    s->nonempty = smt_or2(s, some_row(s, &r1), some_row(s, &r2));
    Z3_solver_assert(s->z, s->solver, s->diff);
    smt_schema_constraints(s);
    smt_fact_constraints(s);
}

int sq_smt_build(SqSmt *s, IrQuery *q1, IrQuery *q2, int k, SqSmtSemantics sem) {
    reset(s);
    s->k = k;
    BuildArgs b = {q1, q2, sem};
    s->building = 1;
    int rc = s->failed ? -1 : smt_protect(s, build, &b);
    s->building = 0;
    if (s->failed) { /* a CHECK's build may have swallowed it (smt_db.c) */
        s->unsupported = s->failed;
        rc = -1;
    }
    return rc;
}

int sq_smt_build_nonempty(SqSmt *s, IrQuery *q, int k) {
    return sq_smt_build(s, q, NULL, k, SQ_SMT_BAG);
}

int sq_smt_set_table_bound(SqSmt *s, const CatTable *t, int n) {
    if (!t) {
        s->n_table_bounds = 0;
        return 0;
    }
    uint32_t i = 0;
    while (i < s->n_table_bounds && s->table_bounds[i].t != t) i++;
    if (i == sizeof s->table_bounds / sizeof *s->table_bounds) return -1;
    s->table_bounds[i].t = t;
    s->table_bounds[i].n = n;
    if (i == s->n_table_bounds) s->n_table_bounds++;
    return 0;
}

const char *sq_smt_unsupported(const SqSmt *s, SrcSpan *at, int *which) {
    if (at) *at = s->unsupported_at;
    if (which) *which = s->which;
    return s->unsupported;
}

const char *sq_smt_approximation(const SqSmt *s) { return s->approx; }
int sq_smt_rounds(const SqSmt *s) { return s->rounds; }
const char *sq_smt_uninterpreted(const SqSmt *s) { return s->uf_names; }

const char *sq_smt_reason(const SqSmt *s) { return s->reason ? s->reason : "unknown"; }

/* ---- solving -------------------------------------------------------------------------- */

/* Whether the model gives a live TEXT cell a NUL character.  z3 picks one
** readily for "a string other than ''", but a fixture cannot carry it:
** written out it would end the string there, as SQLite's text functions
** also read it. */
static int model_has_nul(SqSmt *s) {
    for (uint32_t t = 0; t < s->n_tables; t++)
        for (uint32_t i = 0; i < s->tables[t].n; i++)
            for (uint32_t c = 0; c < s->tables[t].table->n_cols; c++) {
                SmtVal v = smt_cell(&s->tables[t], i, c);
                Z3_ast x, str = v.kind == SMT_MIX ? v.str : v.v;
                if ((v.kind != SMT_TEXT && v.kind != SMT_MIX) || !Z3_model_eval(s->z, s->model, str, 1, &x) ||
                    !Z3_is_string(s->z, x))
                    continue;
                if (strstr(Z3_get_string(s->z, x), "\\u{0}")) return 1;
            }
    return 0;
}

/* From now on no TEXT cell holds a NUL. */
static void forbid_nul(SqSmt *s) {
    Z3_ast rest = smt_re_star(s, smt_re_any(s));
    Z3_ast has = smt_re_concat(s, (Z3_ast[]){rest, smt_re_range(s, 0, 0), rest}, 3);
    for (uint32_t t = 0; t < s->n_tables; t++)
        for (uint32_t i = 0; i < s->tables[t].n; i++)
            for (uint32_t c = 0; c < s->tables[t].table->n_cols; c++) {
                SmtVal v = smt_cell(&s->tables[t], i, c);
                if (v.kind == SMT_TEXT) Z3_solver_assert(s->z, s->solver, smt_not(s, smt_in_re(s, v.v, has)));
                if (v.kind == SMT_MIX) Z3_solver_assert(s->z, s->solver, smt_not(s, smt_in_re(s, v.str, has)));
            }
    s->no_nul = 1;
}

static SqSmtStatus check_once(SqSmt *s, int tie_free, Z3_ast extra);

/* check_once, again without NULs in TEXT cells if the model had one.  If
** that second check finds nothing, the model before the first one stays
** (a shrinking step then simply gives up). */
static SqSmtStatus check_with(SqSmt *s, int tie_free, Z3_ast extra) {
    Z3_model before = s->model;
    if (before) Z3_model_inc_ref(s->z, before);
    SqSmtStatus st = check_once(s, tie_free, extra);
    if (st == SQ_SMT_DIFFERENT && !s->no_nul && model_has_nul(s)) {
        forbid_nul(s);
        st = check_once(s, tie_free, extra);
        if (st != SQ_SMT_DIFFERENT) {
            if (s->model) Z3_model_dec_ref(s->z, s->model);
            s->model = before;
            before = NULL;
        }
    }
    if (before) Z3_model_dec_ref(s->z, before);
    return st;
}

/* Why the solver gave up, for the verdict. */
static void note_unknown(SqSmt *s, const char *why) {
    /* z3 4.8 says only "unknown" when the resource limit stops it */
    if (s->rlimit && (strcmp(why, "unknown") == 0 || strstr(why, "resource"))) why = "resource limit";
    s->reason = sq_arena_strdup(s->arena, why);
}

/* A watchdog for a check in a fresh context: z3's non-incremental solver
** may run its preprocessing long past the timeout it was given (16 s over
** 2.5 s on a BIRD pair), so a thread interrupts the context at the
** deadline (Z3_interrupt is made to be called from another thread). */
typedef struct Watchdog {
    Z3_context z;
    double deadline; /* monotonic seconds */
    int done;
    int fired;       /* the context was interrupted */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    pthread_t thread;
    int running;
} Watchdog;

static void *watch(void *arg) {
    Watchdog *w = arg;
    pthread_mutex_lock(&w->mu);
    while (!w->done) {
        double at = w->deadline;
        struct timespec ts = {(time_t)at, (long)((at - (double)(time_t)at) * 1e9)};
        if (pthread_cond_timedwait(&w->cv, &w->mu, &ts) == ETIMEDOUT && !w->done) {
            Z3_interrupt(w->z);
            w->fired = 1;
            break;
        }
    }
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

static void watchdog_start(Watchdog *w, Z3_context z, double deadline) {
    memset(w, 0, sizeof *w);
    if (deadline <= 0) return;
    w->z = z;
    w->deadline = deadline;
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC); /* as sq_monotonic_seconds */
    pthread_cond_init(&w->cv, &attr);
    pthread_condattr_destroy(&attr);
    pthread_mutex_init(&w->mu, NULL);
    w->running = pthread_create(&w->thread, NULL, watch, w) == 0;
    if (!w->running) {
        pthread_cond_destroy(&w->cv);
        pthread_mutex_destroy(&w->mu);
    }
}

static void watchdog_stop(Watchdog *w) {
    if (!w->running) return;
    pthread_mutex_lock(&w->mu);
    w->done = 1;
    pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->mu);
    pthread_join(w->thread, NULL);
    pthread_cond_destroy(&w->cv);
    pthread_mutex_destroy(&w->mu);
}

/* z3's resource count in context z so far (the statistic "rlimit count"):
** what its rlimit parameter limits, counted from the start of each check. */
static uint64_t rlimit_count(Z3_context z, Z3_solver solver) {
    Z3_stats st = Z3_solver_get_statistics(z, solver);
    if (!st) return 0;
    Z3_stats_inc_ref(z, st);
    uint64_t n = 0;
    for (unsigned i = 0; i < Z3_stats_size(z, st); i++)
        if (strcmp(Z3_stats_get_key(z, st, i), "rlimit count") == 0)
            n = Z3_stats_is_uint(z, st, i) ? Z3_stats_get_uint_value(z, st, i)
                                           : (uint64_t)Z3_stats_get_double_value(z, st, i);
    Z3_stats_dec_ref(z, st);
    return n;
}

/* Count what one check spent of the resource budget. */
static void note_rlimit(SqSmt *s, uint64_t used) { s->rlimit_spent += used; }

/* The model of solver (in context z, fresh) as the formula's model: TRUE,
** or UNDEF when z3 could not give it (an error, memory). */
static Z3_lbool take_model(SqSmt *s, Z3_context z, Z3_solver solver) {
    Z3_model m = Z3_solver_get_model(z, solver), t = NULL;
    Z3_error_code e = Z3_get_error_code(z);
    if (m) {
        Z3_model_inc_ref(z, m);
        t = Z3_model_translate(z, m, s->z);
        e = Z3_get_error_code(z);
        Z3_model_dec_ref(z, m);
    }
    if (!t) {
        s->reason = e == Z3_MEMOUT_FAIL ? "out of memory" : "the solver could not give its model";
        return Z3_L_UNDEF;
    }
    if (s->model) Z3_model_dec_ref(s->z, s->model);
    s->model = t;
    Z3_model_inc_ref(s->z, s->model);
    return Z3_L_TRUE;
}

/* The formula, with the tie conditions when tie_free and extra when not
** NULL, less drop, as one term of the formula's context; NULL when z3
** failed (s->failed). */
static Z3_ast whole_formula(SqSmt *s, int tie_free, Z3_ast extra, Z3_ast drop) {
    Z3_ast_vector all = Z3_solver_get_assertions(s->z, s->solver);
    if (!all) return NULL;
    Z3_ast_vector_inc_ref(s->z, all);
    unsigned n = Z3_ast_vector_size(s->z, all);
    Z3_ast *parts = sq_malloc((n + s->n_ties + 2) * sizeof *parts);
    unsigned n_parts = 0;
    for (unsigned i = 0; i < n && !failed_in(s); i++) {
        Z3_ast a = Z3_ast_vector_get(s->z, all, i);
        if (a && (!drop || !Z3_is_eq_ast(s->z, a, drop))) parts[n_parts++] = a;
    }
    if (tie_free)
        for (uint32_t i = 0; i < s->n_ties; i++) parts[n_parts++] = s->ties[i];
    if (extra) parts[n_parts++] = extra;
    Z3_ast whole = failed_in(s) ? NULL : n_parts ? Z3_mk_and(s->z, n_parts, parts) : Z3_mk_true(s->z);
    free(parts);
    Z3_ast_vector_dec_ref(s->z, all);
    return failed_in(s) ? NULL : whole;
}

/* Check the formula, with the tie conditions when tie_free and extra when
** not NULL, in a fresh z3 context: the formula translated there and
** solved as a whole (z3's non-incremental solver, with its preprocessing),
** the model translated back.  On some formulas this is several times
** quicker than push, assert and check on the formula's own solver, whose
** incremental mode skips the preprocessing; on others, slower (docs/smt.md,
** The search).  A watchdog thread holds it to the deadline.  No longjmp
** leaves this function (no_jump): it would leak the fresh context and
** could leave the watchdog running; z3's errors are read after each call
** instead, in the formula's context by failed_in, in the fresh one (no
** handler) by its error code. */
static Z3_lbool solve_in(SqSmt *s, Z3_context z, Z3_solver solver, Z3_ast whole) {
    Z3_ast t = Z3_translate(s->z, whole, z);
    if (!t || failed_in(s)) return Z3_L_UNDEF;
    Z3_solver_assert(z, solver, t);
    /* a formula not asserted whole, or a check without its limits, would
    ** answer wrongly or not stop: z3 failed here as the check would have */
    if (Z3_get_error_code(z) != Z3_OK || set_limits(s, z, solver, 0, 1) < 0) {
        s->reason = "out of memory";
        return Z3_L_UNDEF;
    }
    Watchdog w;
    watchdog_start(&w, z, s->deadline);
    Z3_lbool r = Z3_solver_check(z, solver);
    Z3_error_code e = Z3_get_error_code(z);
    watchdog_stop(&w);
    note_rlimit(s, rlimit_count(z, solver));
    /* An interrupt that lands just after the check returned leaves the
    ** context cancelled: reading the model from it would fail (a NULL
    ** model, and once a crash).  The deadline has passed either way. */
    if (w.fired && r != Z3_L_FALSE) {
        r = Z3_L_UNDEF;
        s->reason = "timeout";
    } else if (e != Z3_OK) {
        r = Z3_L_UNDEF;
        s->reason = e == Z3_MEMOUT_FAIL ? "out of memory" : sq_arena_strdup(s->arena, Z3_get_error_msg(z, e));
    } else if (r == Z3_L_TRUE) {
        r = take_model(s, z, solver);
    } else if (r == Z3_L_UNDEF) {
        note_unknown(s, Z3_solver_get_reason_unknown(z, solver));
    }
    return r;
}

static Z3_lbool solve_fresh(SqSmt *s, int tie_free, Z3_ast extra, Z3_ast drop) {
    s->no_jump++;
    Z3_lbool r = Z3_L_UNDEF;
    Z3_ast whole = whole_formula(s, tie_free, extra, drop);
    Z3_config cfg = whole ? Z3_mk_config() : NULL;
    Z3_context z = NULL;
    if (cfg) {
        Z3_set_param_value(cfg, "model", "true");
        z = Z3_mk_context(cfg);
        Z3_del_config(cfg);
    }
    if (z) {
        Z3_set_error_handler(z, NULL); /* errors are read below */
        Z3_solver solver = Z3_mk_solver(z);
        if (solver) {
            Z3_solver_inc_ref(z, solver);
            r = solve_in(s, z, solver, whole);
            Z3_solver_dec_ref(z, solver);
        } else {
            s->reason = "out of memory";
        }
        Z3_del_context(z);
    }
    if (!z || !whole) s->reason = "out of memory"; /* z3's memory limit, or the address space's */
    s->no_jump--;
    if (failed_in(s)) longjmp(*s->fail, 1); /* the formula's context failed: nothing is left open now */
    return r;
}

/* Check on the formula's own solver: push, assert, check, pop.  z3 then
** runs incrementally, which proves most formulas unsatisfiable quickly;
** within max_ms when not 0. */
static Z3_lbool solve_incremental(SqSmt *s, int tie_free, Z3_ast extra, unsigned max_ms) {
    Z3_solver_push(s->z, s->solver);
    if (tie_free)
        for (uint32_t i = 0; i < s->n_ties; i++) Z3_solver_assert(s->z, s->solver, s->ties[i]);
    if (extra) Z3_solver_assert(s->z, s->solver, extra);
    set_solver_limits(s, max_ms, INCREMENTAL_SHARE);
    uint64_t before = rlimit_count(s->z, s->solver);
    /* z3 reports an error in the check from inside it, while a timer
    ** thread of its own holds the address of an object in the check's
    ** stack frame: left by longjmp, the timer would later fire into
    ** whatever stack is there then (the item's signal 11 in issue 18) */
    s->no_jump++;
    Z3_lbool r = Z3_solver_check(s->z, s->solver);
    s->no_jump--;
    if (failed_in(s)) longjmp(*s->fail, 1); /* the solver is not trusted again: no pop */
    note_rlimit(s, rlimit_count(s->z, s->solver) - before);
    if (r == Z3_L_TRUE) {
        Z3_model m = Z3_solver_get_model(s->z, s->solver); /* not NULL: a failure longjmps */
        Z3_model_inc_ref(s->z, m);
        if (s->model) Z3_model_dec_ref(s->z, s->model);
        s->model = m;
    } else if (r == Z3_L_UNDEF) {
        note_unknown(s, Z3_solver_get_reason_unknown(s->z, s->solver));
    }
    Z3_solver_pop(s->z, s->solver, 1);
    return r;
}

/* The incremental solver first, for a slice of the time left (half, at
** least 1 s; all of it when less than 1 s is left); if it gives up,
** the fresh context with the rest.  With no deadline both run, each under
** the resource limit. */
static SqSmtStatus check_once(SqSmt *s, int tie_free, Z3_ast extra) {
    int timed = s->deadline > 0;
    double left = timed ? s->deadline - sq_monotonic_seconds() : 0;
    unsigned slice = left > 2 ? (unsigned)(left * 500) : left > 1 ? 1000 : 0;
    int skip = s->shrinking && s->fresh_shrink;
    Z3_lbool r = skip ? Z3_L_UNDEF : solve_incremental(s, tie_free, extra, slice);
    int time_for_more = !timed || ((slice || skip) && sq_monotonic_seconds() < s->deadline);
    if (r == Z3_L_UNDEF && time_for_more) r = solve_fresh(s, tie_free, extra, NULL);
    return r == Z3_L_TRUE ? SQ_SMT_DIFFERENT : r == Z3_L_FALSE ? SQ_SMT_SAME : SQ_SMT_UNKNOWN;
}

/* All the exact-region conditions at once. */
static Z3_ast exact_regions(SqSmt *s) { return smt_and_n(s, s->exact, s->n_exact); }

/* check_with, under the condition `within` (building it may fail: then
** unknown).  A failure of z3 goes on to the caller's guard: no check
** follows it. */
typedef struct Within {
    int tie_free;
    Z3_ast (*within)(SqSmt *);
    Z3_ast c;
    SqSmtStatus st;
} Within;

static void run_within(SqSmt *s, void *arg) {
    Within *w = arg;
    w->c = w->within(s);
    w->st = check_with(s, w->tie_free, w->c);
}

static SqSmtStatus check_within(SqSmt *s, int tie_free, Z3_ast (*within)(SqSmt *)) {
    Within w = {tie_free, within, NULL, SQ_SMT_UNKNOWN};
    if (smt_protect(s, run_within, &w) < 0) {
        if (s->failed) longjmp(*s->fail, 1);
        w.st = SQ_SMT_UNKNOWN;
    }
    if (w.st == SQ_SMT_DIFFERENT) s->used = w.c;
    return w.st;
}

/* Every sampled argument a sample. */
static Z3_ast only_samples(SqSmt *s) { return smt_and_n(s, s->sampled, s->n_sampled); }

/* That, and the exact regions. */
static Z3_ast on_samples(SqSmt *s) { return smt_and2(s, only_samples(s), exact_regions(s)); }

/* While sampling (when a call was sampled), only among the models where
** every sampled argument is a sample: first with the other uninterpreted
** values in their exact regions, then without (a function of a sample,
** such as the number a text spells, may be exact where its region does
** not say).  Otherwise first where every uninterpreted value is in its
** exact region (a difference there is one SQLite shows), then among
** all. */
typedef struct Check {
    int tie_free;
    SqSmtStatus st;
} Check;

static void run_check(SqSmt *s, void *arg) {
    Check *c = arg;
    if (s->n_sampled) {
        c->st = check_within(s, c->tie_free, on_samples);
        if (c->st == SQ_SMT_SAME && s->n_exact) c->st = check_within(s, c->tie_free, only_samples);
        return;
    }
    if (s->n_exact && check_within(s, c->tie_free, exact_regions) == SQ_SMT_DIFFERENT) {
        c->st = SQ_SMT_DIFFERENT;
        return;
    }
    c->st = check_with(s, c->tie_free, NULL);
}

/* Once z3 failed, every answer is unknown, for the reason it failed. */
static SqSmtStatus failed_status(SqSmt *s) {
    s->reason = s->failed;
    return SQ_SMT_UNKNOWN;
}

SqSmtStatus sq_smt_check(SqSmt *s, int tie_free) {
    s->used = NULL;
    Check c = {tie_free, SQ_SMT_UNKNOWN};
    if (!s->failed && !s->solver) return SQ_SMT_UNKNOWN; /* nothing built */
    if (!s->failed) smt_protect(s, run_check, &c);
    return s->failed ? failed_status(s) : c.st;
}

static void run_witness(SqSmt *s, void *arg) {
    Z3_lbool r = solve_fresh(s, 0, s->nonempty, s->diff);
    *(SqSmtStatus *)arg = r == Z3_L_TRUE ? SQ_SMT_DIFFERENT : r == Z3_L_FALSE ? SQ_SMT_SAME : SQ_SMT_UNKNOWN;
}

SqSmtStatus sq_smt_check_witness(SqSmt *s) {
    SqSmtStatus st = SQ_SMT_UNKNOWN;
    if (!s->failed && (!s->diff || !s->nonempty)) return SQ_SMT_UNKNOWN;
    if (!s->failed) smt_protect(s, run_witness, &st);
    return s->failed ? failed_status(s) : st;
}

void sq_smt_set_sampling(SqSmt *s, int on) { s->sampling = on; }
int sq_smt_sampled(const SqSmt *s) { return s->n_sampled > 0; }

static Z3_ast all_alive(SqSmt *s) {
    uint32_t n = 0;
    for (uint32_t t = 0; t < s->n_tables; t++) n += s->tables[t].n;
    Z3_ast *c = sq_arena_alloc(s->arena, (n + 1) * sizeof *c);
    n = 0;
    for (uint32_t t = 0; t < s->n_tables; t++)
        for (uint32_t i = 0; i < s->tables[t].n; i++) c[n++] = s->tables[t].rows[i].alive;
    return smt_count_true(s, c, n);
}

static void run_shrink(SqSmt *s, void *arg) {
    int tie_free = *(int *)arg;
    Z3_ast live = all_alive(s);
    for (;;) {
        int64_t n = smt_model_int(s, live);
        if (n == 0) break;
        Z3_ast fewer = Z3_mk_lt(s->z, live, smt_int(s, n));
        if (s->used) fewer = smt_and2(s, fewer, s->used);
        if (check_with(s, tie_free, fewer) != SQ_SMT_DIFFERENT) break;
    }
}

void sq_smt_shrink(SqSmt *s, int tie_free) {
    s->shrinking = 1;
    if (s->model && !s->failed) smt_protect(s, run_shrink, &tie_free);
    s->shrinking = 0;
}

/* Every cell of every live tuple is not NULL. */
static Z3_ast no_nulls(SqSmt *s) {
    uint32_t n = 0;
    for (uint32_t t = 0; t < s->n_tables; t++)
        for (uint32_t i = 0; i < s->tables[t].n; i++)
            n += s->tables[t].rows[i].n_binds ? s->tables[t].rows[i].binds[0].n : 0;
    Z3_ast *c = sq_arena_alloc(s->arena, (n + 1) * sizeof *c);
    n = 0;
    for (uint32_t t = 0; t < s->n_tables; t++)
        for (uint32_t i = 0; i < s->tables[t].n; i++) {
            const SmtRow *row = &s->tables[t].rows[i];
            for (uint32_t j = 0; row->n_binds && j < row->binds[0].n; j++)
                c[n++] = Z3_mk_not(s->z, row->binds[0].cells[j].null);
        }
    return smt_and_n(s, c, n);
}

/* The tuples of the symbolic database, alive or not. */
static int64_t all_tuples(const SqSmt *s) {
    int64_t n = 0;
    for (uint32_t t = 0; t < s->n_tables; t++) n += s->tables[t].n;
    return n;
}

/* Within the region of the model found (s->used), first every tuple
** alive with no NULL cell, then every tuple alive, then one more live
** tuple at a time while the solver finds one. */
static void run_grow(SqSmt *s, void *arg) {
    int tie_free = *(int *)arg;
    Z3_ast live = all_alive(s);
    int64_t total = all_tuples(s);
    Z3_ast full = Z3_mk_eq(s->z, live, smt_int(s, total));
    Z3_ast region = s->used;
    Z3_ast dense = smt_and2(s, full, no_nulls(s));
    if (check_with(s, tie_free, region ? smt_and2(s, dense, region) : dense) == SQ_SMT_DIFFERENT) return;
    if (check_with(s, tie_free, region ? smt_and2(s, full, region) : full) == SQ_SMT_DIFFERENT) return;
    for (;;) {
        int64_t n = smt_model_int(s, live);
        if (n >= total) break;
        Z3_ast more = Z3_mk_gt(s->z, live, smt_int(s, n));
        if (region) more = smt_and2(s, more, region);
        if (check_with(s, tie_free, more) != SQ_SMT_DIFFERENT) break;
    }
}

void sq_smt_grow(SqSmt *s, int tie_free) {
    s->shrinking = 1; /* the same refinement of a model, the other way */
    if (s->model && !s->failed) smt_protect(s, run_grow, &tie_free);
    s->shrinking = 0;
}

void sq_smt_set_fresh_shrink(SqSmt *s, int on) { s->fresh_shrink = on; }

void sq_smt_dump(const SqSmt *s, SqBuf *out) {
    if (!s->solver) return;
    sq_buf_puts(out, Z3_solver_to_string(s->z, s->solver));
    sq_buf_puts(out, "(check-sat)\n(get-model)\n");
}
