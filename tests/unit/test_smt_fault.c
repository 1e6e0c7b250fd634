/* test_smt_fault.c -- the search survives z3 failing at any call.
**
** Under a memory limit (squint eval --mem-limit, RLIMIT_AS) any z3 call
** may fail: z3 then calls the context's error handler and returns NULL,
** false or Z3_L_UNDEF.  Issue 18 lost an item to signal 11 that way.  The
** linker's --wrap (Makefile: SMT_FAULT_WRAP) puts the wrappers below
** between libsquint and z3; each counts its calls, and the test makes
** call number n fail as z3 does (the handler called with
** Z3_MEMOUT_FAIL inside the call, then the failure value), for every n
** that a search makes, with later calls failing too or not.  Each time
** the search must end in-process without a crash, with either a
** difference SQLite confirms or "unknown: out of memory", and the
** handler must never longjmp out of Z3_solver_check: z3 keeps a timer
** thread pointed at that call's stack frame, which would fire into
** whatever stack is there later. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <z3.h>

#include "backend/equiv/equiv.h"
#include "backend/sqlite/db.h"
#include "ir/ir.h"
#include "runtime/util.h"

/* ---- the wrappers ------------------------------------------------------ */

static long n_calls;      /* wrapped calls so far */
static unsigned called;   /* a bit per wrapped function a clean search called (WRAPPED) */
static long fail_at;      /* the call that fails (0: none) */
static int sticky;        /* every call after it fails too */
static int in_check;      /* inside Z3_solver_check's handler call */
static int left_check;    /* the handler did not return there */
static Z3_context failed_ctx; /* the last call failed in it (Z3_get_error_code) */

static struct {
    Z3_context z;
    Z3_error_handler *h;
} handlers[8];

static Z3_error_handler *handler_of(Z3_context z) {
    for (size_t i = 0; i < sizeof handlers / sizeof *handlers; i++)
        if (handlers[i].z == z) return handlers[i].h;
    return NULL;
}

/* The wrapped functions, as bits of `called`: each must be reached by a
** clean search of one of the tests, or failing it is never tried. */
enum {
    W_MK_CONTEXT, W_MK_SOLVER, W_MK_PARAMS, W_GET_MODEL, W_GET_ASSERTIONS, W_GET_STATISTICS, W_TRANSLATE,
    W_MODEL_TRANSLATE, W_MODEL_EVAL, W_MK_AND, W_MK_LT, W_MK_CONST, W_PUSH, W_ASSERT, W_SET_PARAMS, W_CHECK,
    WRAPPED
};

/* Whether this call (of wrapped function w) fails; if so, z3's error
** handling has been done. */
static int fails(Z3_context z, int w) {
    if (!fail_at) called |= 1u << w;
    n_calls++;
    failed_ctx = NULL;
    if (!fail_at || n_calls < fail_at || (n_calls > fail_at && !sticky)) return 0;
    failed_ctx = z;
    Z3_error_handler *h = z ? handler_of(z) : NULL;
    if (h) h(z, Z3_MEMOUT_FAIL);
    return 1;
}

void __real_Z3_set_error_handler(Z3_context, Z3_error_handler);
void __wrap_Z3_set_error_handler(Z3_context z, Z3_error_handler h);
void __wrap_Z3_set_error_handler(Z3_context z, Z3_error_handler h) {
    size_t i = 0;
    while (i + 1 < sizeof handlers / sizeof *handlers && handlers[i].z && handlers[i].z != z) i++;
    handlers[i].z = z;
    handlers[i].h = h;
    __real_Z3_set_error_handler(z, h);
}

void __real_Z3_del_context(Z3_context);
void __wrap_Z3_del_context(Z3_context z);
void __wrap_Z3_del_context(Z3_context z) {
    for (size_t i = 0; i < sizeof handlers / sizeof *handlers; i++)
        if (handlers[i].z == z) handlers[i].z = NULL;
    __real_Z3_del_context(z);
}

Z3_error_code __real_Z3_get_error_code(Z3_context);
Z3_error_code __wrap_Z3_get_error_code(Z3_context z);
Z3_error_code __wrap_Z3_get_error_code(Z3_context z) {
    return failed_ctx && failed_ctx == z ? Z3_MEMOUT_FAIL : __real_Z3_get_error_code(z);
}

Z3_lbool __real_Z3_solver_check(Z3_context, Z3_solver);
Z3_lbool __wrap_Z3_solver_check(Z3_context z, Z3_solver s);
Z3_lbool __wrap_Z3_solver_check(Z3_context z, Z3_solver s) {
    if (!fail_at) called |= 1u << W_CHECK;
    n_calls++;
    failed_ctx = NULL;
    if (fail_at && (n_calls == fail_at || (sticky && n_calls > fail_at))) {
        failed_ctx = z;
        Z3_error_handler *h = handler_of(z);
        in_check = 1;
        left_check++; /* undone when the handler returns */
        if (h) h(z, Z3_MEMOUT_FAIL);
        left_check--;
        in_check = 0;
        return Z3_L_UNDEF;
    }
    return __real_Z3_solver_check(z, s);
}

/* A wrapper for a call that returns its failure value v. */
#define WRAP(T, name, w, v, params, args, ctx)                                                                \
    T __real_##name params;                                                                                   \
    T __wrap_##name params;                                                                                   \
    T __wrap_##name params {                                                                                  \
        if (fails(ctx, w)) return v;                                                                          \
        return __real_##name args;                                                                            \
    }

WRAP(Z3_context, Z3_mk_context, W_MK_CONTEXT, NULL, (Z3_config c), (c), NULL)
WRAP(Z3_solver, Z3_mk_solver, W_MK_SOLVER, NULL, (Z3_context z), (z), z)
WRAP(Z3_params, Z3_mk_params, W_MK_PARAMS, NULL, (Z3_context z), (z), z)
WRAP(Z3_model, Z3_solver_get_model, W_GET_MODEL, NULL, (Z3_context z, Z3_solver s), (z, s), z)
WRAP(Z3_ast_vector, Z3_solver_get_assertions, W_GET_ASSERTIONS, NULL, (Z3_context z, Z3_solver s), (z, s), z)
WRAP(Z3_stats, Z3_solver_get_statistics, W_GET_STATISTICS, NULL, (Z3_context z, Z3_solver s), (z, s), z)
WRAP(Z3_ast, Z3_translate, W_TRANSLATE, NULL, (Z3_context z, Z3_ast a, Z3_context t), (z, a, t), z)
WRAP(Z3_model, Z3_model_translate, W_MODEL_TRANSLATE, NULL, (Z3_context z, Z3_model m, Z3_context t), (z, m, t), z)
WRAP(bool, Z3_model_eval, W_MODEL_EVAL, false, (Z3_context z, Z3_model m, Z3_ast t, bool c, Z3_ast *v), (z, m, t, c, v), z)
WRAP(Z3_ast, Z3_mk_and, W_MK_AND, NULL, (Z3_context z, unsigned n, Z3_ast const *a), (z, n, a), z)
WRAP(Z3_ast, Z3_mk_lt, W_MK_LT, NULL, (Z3_context z, Z3_ast a, Z3_ast b), (z, a, b), z)
WRAP(Z3_ast, Z3_mk_const, W_MK_CONST, NULL, (Z3_context z, Z3_symbol s, Z3_sort t), (z, s, t), z)

/* A wrapper for a call that returns nothing. */
#define WRAP_VOID(name, w, params, args, ctx)                                                                 \
    void __real_##name params;                                                                                \
    void __wrap_##name params;                                                                                \
    void __wrap_##name params {                                                                               \
        if (!fails(ctx, w)) __real_##name args;                                                               \
    }

WRAP_VOID(Z3_solver_push, W_PUSH, (Z3_context z, Z3_solver s), (z, s), z)
WRAP_VOID(Z3_solver_assert, W_ASSERT, (Z3_context z, Z3_solver s, Z3_ast a), (z, s, a), z)
WRAP_VOID(Z3_solver_set_params, W_SET_PARAMS, (Z3_context z, Z3_solver s, Z3_params p), (z, s, p), z)

/* ---- the search ---------------------------------------------------------- */

static IrQuery *load_query(SqArena *a, SqSrcSet *srcs, const Catalog *cat, SqInterner *names, SqDiags *diags,
                           const char *sql) {
    const SqSrc *src = sq_src_add_copy(srcs, "Q", sql, strlen(sql));
    SqBindOptions opt = sq_db_bind_options();
    const char *why = NULL;
    IrQuery *q = ir_load_query(a, src, cat, names, diags, &opt, &why);
    if (!q) fail_msg("cannot load %s: %s", sql, why ? why : "?");
    return q;
}

typedef struct Pair {
    SqSrcSet srcs;
    SqDiags diags;
    SqInterner *names;
    SqArena *a;
    Catalog *cat;
    IrQuery *q1, *q2;
    const char *sql1, *sql2;
} Pair;

static void pair_open(Pair *p, const char *ddl, const char *sql1, const char *sql2) {
    sq_srcset_init(&p->srcs);
    sq_diags_init(&p->diags, &p->srcs);
    p->names = sq_interner_new();
    p->a = sq_arena_new();
    p->cat = sq_catalog_new(p->names, "t.sql");
    SqSrc *src = sq_src_add_copy(&p->srcs, "t.sql", ddl, strlen(ddl));
    assert_int_equal(sq_catalog_load_ddl(p->cat, src, &p->diags), 0);
    sq_catalog_link(p->cat, &p->diags);
    p->q1 = load_query(p->a, &p->srcs, p->cat, p->names, &p->diags, sql1);
    p->q2 = load_query(p->a, &p->srcs, p->cat, p->names, &p->diags, sql2);
    p->sql1 = sql1;
    p->sql2 = sql2;
}

static void pair_close(Pair *p) {
    sq_catalog_free(p->cat);
    sq_arena_free(p->a);
    sq_interner_free(p->names);
    sq_diags_free(&p->diags);
    sq_srcset_free(&p->srcs);
}

/* The search in this process: no deadline, z3's resource units instead
** (the same calls on every machine); the normal forms skipped, so that
** the solver decides.  Bound 1 reaches every kind of call (the last test
** checks it) with fewer of them: each is failed in a search of its own,
** and under ASan a search costs several times what it does without. */
static SqEquivResult search(Pair *p) {
    SqEquivOptions opt = {.bound = 1, .rlimit = UINT64_C(40000000), .sem = SQ_SMT_SET, .search_only = 1};
    SqEquivResult r;
    sq_equiv(p->cat, p->q1, p->sql1, p->q2, p->sql2, &opt, &r);
    return r;
}

/* Every call of a search failing in turn (and with it every later one
** when sticky): no crash, no longjmp out of a check, and a verdict that
** is a confirmed difference or "out of memory" (want_diff: the pair
** differs, so nothing else is true), never a refusal or a spurious
** model. */
static void each_call_fails(const char *ddl, const char *sql1, const char *sql2, SqVerdict clean) {
    Pair p;
    pair_open(&p, ddl, sql1, sql2);
    fail_at = 0;
    n_calls = 0;
    SqEquivResult r = search(&p);
    assert_int_equal(r.verdict, clean);
    sq_equiv_result_free(&r);
    long total = n_calls;
    assert_true(total > 20); /* the wrappers are in place */
    for (int s = 0; s <= 1; s++)
        for (long n = 1; n <= total; n++) {
            fail_at = n;
            sticky = s;
            n_calls = 0;
            left_check = 0;
            r = search(&p);
            if (left_check) fail_msg("call %ld (sticky %d): the error handler left Z3_solver_check by longjmp", n, s);
            int ok = r.verdict == clean || (r.verdict == SQ_VERDICT_TIMEOUT && r.detail &&
                                            strcmp(r.detail, "out of memory") == 0);
            if (!ok)
                fail_msg("call %ld of %ld failing (sticky %d): %s (%s)", n, total, s, sq_verdict_name(r.verdict),
                         r.detail ? r.detail : "");
            sq_equiv_result_free(&r);
        }
    fail_at = 0;
    pair_close(&p);
}

/* A difference: found, shrunk, read from the model, confirmed. */
static void difference_survives_failures(void **state) {
    (void)state;
    each_call_fails("CREATE TABLE t (a INTEGER, b TEXT);", "SELECT a FROM t WHERE a > 1",
                    "SELECT a FROM t WHERE a > 2", SQ_VERDICT_DIFFERENT);
}

/* No difference: every bound checked, then the witness in a fresh
** context. */
static void equivalence_survives_failures(void **state) {
    (void)state;
    each_call_fails("CREATE TABLE t (a INTEGER, b TEXT);", "SELECT a FROM t WHERE a > 1 AND b = 'x'",
                    "SELECT a FROM t WHERE b = 'x' AND 1 < a", SQ_VERDICT_EQUIVALENT);
}

/* Neither query returns a row: the witness, in a fresh context, must not
** find one in a formula z3 failed to take whole. */
static void vacuity_survives_failures(void **state) {
    (void)state;
    each_call_fails("CREATE TABLE t (a INTEGER, b TEXT);", "SELECT a FROM t WHERE a > 1 AND a < 0",
                    "SELECT a FROM t WHERE a < 0 AND 1 < a", SQ_VERDICT_VACUOUS);
}

/* The three searches above reached every wrapped function (so each one
** was made to fail); runs last. */
static void every_wrapped_call_was_failed(void **state) {
    (void)state;
    for (int w = 0; w < WRAPPED; w++)
        if (!(called & (1u << w))) fail_msg("wrapped function %d (the W_ enum) was never called", w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(difference_survives_failures),
        cmocka_unit_test(equivalence_survives_failures),
        cmocka_unit_test(vacuity_survives_failures),
        cmocka_unit_test(every_wrapped_call_was_failed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
