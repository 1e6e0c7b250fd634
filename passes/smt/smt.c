/*
** smt.c -- the z3 context, the symbolic database and its constraints, the
** comparison of two results, solving, and reading the model back.
**
** Layer: passes.  See smt.h; the encoding is described in docs/smt.md.
**
** Cells by declared type: INTEGER affinity (and NUMERIC, and none) holds
** integers, REAL holds reals in quarters (so that every value the model
** picks is a double exactly), TEXT holds strings.  A TEXT cell is an Int
** whose order is the strings' BINARY order: the queries' string literals
** are Int constants kept in their byte order, and the model's other TEXT
** values are given strings that fall between the literals where their
** ranks do.  Declared date and time types (NUMERIC affinity) hold TEXT, as
** the benchmarks' databases do.
*/
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "smt_int.h"

enum { TERM_BUDGET = 4000000 }; /* terms per build before giving up */

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* z3 reports errors through a callback; while building or checking, the
** current context is here so that an error becomes a refusal. */
static SqSmt *current;

static void z3_error(Z3_context z, Z3_error_code e) {
    if (!current || !current->fail) return;
    current->unsupported = sq_arena_strdup(current->arena, Z3_get_error_msg(z, e));
    longjmp(*current->fail, 1);
}

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
    Z3_set_error_handler(s->z, z3_error);
    s->cat = cat;
    s->timeout_ms = timeout_ms;
    s->arena = sq_arena_new();
    return s;
}

void sq_smt_set_timeout(SqSmt *s, unsigned timeout_ms) {
    s->timeout_ms = timeout_ms;
    s->deadline = timeout_ms ? now() + timeout_ms / 1000.0 : 0;
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
    free(s);
}

_Noreturn void smt_unsupported(SqSmt *s, SrcSpan at, const char *fmt, ...) {
    SqBuf b = SQ_BUF_INIT;
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
    if (s->deadline > 0 && (before >> 14) != (s->n_terms >> 14) && now() > s->deadline)
        smt_unsupported(s, none, "a formula too large to build in time at bound %d", s->k);
}

void smt_add_tie_condition(SqSmt *s, Z3_ast c) {
    if (Z3_get_bool_value(s->z, c) == Z3_L_TRUE) return;
    *SQ_ARENA_APPEND(s->arena, s->ties, s->n_ties, s->cap_ties) = c;
}

/* ---- strings ------------------------------------------------------------- */

static int bytes_cmp(const char *a, uint32_t na, const char *b, uint32_t nb) {
    int c = memcmp(a, b, na < nb ? na : nb);
    return c ? c : (na > nb) - (na < nb);
}

Z3_ast smt_string(SqSmt *s, const char *str, uint32_t n) {
    for (uint32_t i = 0; i < s->n_strings; i++)
        if (bytes_cmp(s->strings[i].s, s->strings[i].n, str, n) == 0) return s->strings[i].rank;
    SmtString *t = SQ_ARENA_APPEND(s->arena, s->strings, s->n_strings, s->cap_strings);
    char name[32];
    snprintf(name, sizeof name, "str!%u", s->n_strings - 1);
    t->s = sq_arena_strndup(s->arena, str, n);
    t->n = n;
    t->rank = Z3_mk_const(s->z, Z3_mk_string_symbol(s->z, name), Z3_mk_int_sort(s->z));
    return t->rank;
}

static int by_bytes(const void *a, const void *b) {
    const SmtString *x = a, *y = b;
    return bytes_cmp(x->s, x->n, y->s, y->n);
}

/* The literals' ranks in their byte order. */
static void order_strings(SqSmt *s) {
    if (s->n_strings < 2) return;
    qsort(s->strings, s->n_strings, sizeof *s->strings, by_bytes);
    for (uint32_t i = 1; i < s->n_strings; i++)
        Z3_solver_assert(s->z, s->solver, Z3_mk_lt(s->z, s->strings[i - 1].rank, s->strings[i].rank));
}

/* ---- the symbolic database -------------------------------------------------- */

/* Whether the declared type names a date or a time (any case). */
static int date_type(const char *decl) {
    for (const char *p = decl; p && *p; p++)
        if (sq_strnicmp(p, "date", 4) == 0 || sq_strnicmp(p, "time", 4) == 0) return 1;
    return 0;
}

static SmtKind column_kind(const CatColumn *c) {
    switch (c->affinity) {
    case SQ_AFF_REAL: return SMT_REAL;
    case SQ_AFF_TEXT: return SMT_TEXT;
    case SQ_AFF_NUMERIC: return date_type(c->decl_type) ? SMT_TEXT : SMT_INT;
    default: return SMT_INT;
    }
}

static int rowid_alias(const CatTable *t) {
    for (uint32_t c = 0; c < t->n_cols; c++)
        if (t->cols[c].rowid_alias) return (int)c;
    return -1;
}

SmtTable *smt_table(SqSmt *s, const CatTable *t) {
    for (uint32_t i = 0; i < s->n_tables; i++)
        if (s->tables[i].table == t) return &s->tables[i];
    if (t->is_view || t->is_virtual) {
        SrcSpan none = {0};
        smt_unsupported(s, none, "the %s %s", t->is_view ? "view" : "virtual table", t->name);
    }
    SmtTable *st = SQ_ARENA_APPEND(s->arena, s->tables, s->n_tables, s->cap_tables);
    st->table = t;
    st->n = (uint32_t)s->k;
    st->rows = sq_arena_alloc(s->arena, (st->n + 1) * sizeof *st->rows);
    st->kinds = sq_arena_alloc(s->arena, t->n_cols + 1);
    int alias = rowid_alias(t);
    for (uint32_t c = 0; c < t->n_cols; c++) {
        st->kinds[c] = (uint8_t)column_kind(&t->cols[c]);
        const char *coll = t->cols[c].collation;
        if (coll && sq_stricmp(coll, "binary") != 0) {
            SrcSpan none = {0};
            smt_unsupported(s, none, "the column %s.%s declared COLLATE %s", t->name, t->cols[c].name, coll);
        }
    }
    for (uint32_t i = 0; i < st->n; i++) {
        SmtVal *cells = sq_arena_alloc(s->arena, (t->n_cols + 2) * sizeof *cells);
        SqBuf name = SQ_BUF_INIT;
        for (uint32_t c = 0; c < t->n_cols; c++) {
            sq_buf_reset(&name);
            sq_buf_printf(&name, "%s.%s!%u", t->name, t->cols[c].name, i);
            cells[c] = smt_fresh(s, (SmtKind)st->kinds[c], sq_buf_str(&name));
        }
        /* the rowid: the alias column, or the row's place (live rows come
        ** first and are inserted in order) */
        cells[t->n_cols] = alias >= 0 ? cells[alias] : smt_val(s, SMT_INT, smt_false(s), smt_int(s, i + 1));
        sq_buf_reset(&name);
        sq_buf_printf(&name, "%s!alive!%u", t->name, i);
        Z3_ast alive = Z3_mk_const(s->z, Z3_mk_string_symbol(s->z, sq_buf_str(&name)), Z3_mk_bool_sort(s->z));
        sq_buf_free(&name);
        st->rows[i].alive = alive;
        st->rows[i].binds = sq_arena_alloc(s->arena, sizeof(SmtBind));
        st->rows[i].binds[0] = (SmtBind){0, cells, t->n_cols + 1};
        st->rows[i].n_binds = 1;
    }
    return st;
}

static SmtVal cell(const SmtTable *t, uint32_t i, uint32_t c) { return t->rows[i].binds[0].cells[c]; }

static int in_key(const CatTable *t, uint32_t c) { return t->cols[c].pk > 0; }

/* NOT NULL, quarters for REAL, live rows first. */
static void cell_constraints(SqSmt *s, const SmtTable *t) {
    Z3_context z = s->z;
    for (uint32_t i = 0; i < t->n; i++) {
        if (i + 1 < t->n) Z3_solver_assert(z, s->solver, Z3_mk_implies(z, t->rows[i + 1].alive, t->rows[i].alive));
        for (uint32_t c = 0; c < t->table->n_cols; c++) {
            SmtVal v = cell(t, i, c);
            /* PRIMARY KEY columns are taken as NOT NULL too: SQLite lets a
            ** non-INTEGER key hold NULL only for backward compatibility */
            if (t->table->cols[c].not_null || in_key(t->table, c)) Z3_solver_assert(z, s->solver, Z3_mk_not(z, v.null));
            if (v.kind == SMT_REAL) {
                Z3_ast four = smt_real(s, 4, 1);
                Z3_solver_assert(z, s->solver, Z3_mk_is_int(z, Z3_mk_mul(z, 2, (Z3_ast[]){v.v, four})));
            }
        }
    }
}

/* Rows i and j agree on the columns cols (none NULL). */
static Z3_ast agree(SqSmt *s, const SmtTable *a, uint32_t i, const uint32_t *ca, const SmtTable *b, uint32_t j,
                    const uint32_t *cb, uint32_t n) {
    Z3_ast r = smt_true(s);
    for (uint32_t k = 0; k < n; k++) {
        SmtVal x = cell(a, i, ca[k]), y = cell(b, j, cb[k]);
        r = smt_and2(s, r, smt_and2(s, smt_not(s, smt_or2(s, x.null, y.null)), smt_same(s, x, y)));
    }
    return r;
}

static void key_constraints(SqSmt *s, const SmtTable *t) {
    for (uint32_t k = 0; k < t->table->n_keys; k++) {
        const CatKey *key = &t->table->keys[k];
        for (uint32_t i = 0; i < t->n; i++)
            for (uint32_t j = i + 1; j < t->n; j++) {
                Z3_ast both = smt_and2(s, t->rows[i].alive, t->rows[j].alive);
                Z3_ast dup = agree(s, t, i, key->cols, t, j, key->cols, key->n_cols);
                Z3_solver_assert(s->z, s->solver, smt_not(s, smt_and2(s, both, dup)));
            }
    }
}

static void fk_constraints(SqSmt *s, uint32_t ti) {
    for (uint32_t f = 0; f < s->tables[ti].table->n_fks; f++) {
        const CatForeignKey *fk = &s->tables[ti].table->fks[f];
        if (!fk->target || !fk->target_cols) continue;
        const SmtTable *parent = smt_table(s, fk->target);
        const SmtTable *t = &s->tables[ti]; /* after smt_table, which may move the array */
        for (uint32_t i = 0; i < t->n; i++) {
            Z3_ast has = t->rows[i].alive;
            for (uint32_t k = 0; k < fk->n_cols; k++) has = smt_and2(s, has, smt_not(s, cell(t, i, fk->cols[k]).null));
            Z3_ast found = smt_false(s);
            for (uint32_t p = 0; p < parent->n; p++)
                found = smt_or2(s, found, smt_and2(s, parent->rows[p].alive,
                                                   agree(s, t, i, fk->cols, parent, p, fk->target_cols, fk->n_cols)));
            Z3_solver_assert(s->z, s->solver, Z3_mk_implies(s->z, has, found));
        }
    }
}

/* Whether SQLite's NUMERIC affinity would store this text as a number. */
static int looks_numeric(const char *s) {
    char *end;
    while (*s == ' ') s++;
    if (!*s) return 0;
    strtod(s, &end);
    while (*end == ' ') end++;
    return end != s && !*end;
}

/* A TEXT cell of a column with NUMERIC affinity (a date) cannot hold a
** string that the column would store as a number. */
static void numeric_text_constraints(SqSmt *s) {
    for (uint32_t t = 0; t < s->n_tables; t++) {
        const SmtTable *st = &s->tables[t];
        for (uint32_t c = 0; c < st->table->n_cols; c++) {
            if (st->kinds[c] != SMT_TEXT || st->table->cols[c].affinity != SQ_AFF_NUMERIC) continue;
            for (uint32_t k = 0; k < s->n_strings; k++) {
                if (!looks_numeric(s->strings[k].s)) continue;
                for (uint32_t i = 0; i < st->n; i++)
                    Z3_solver_assert(s->z, s->solver, smt_not(s, smt_eq(s, cell(st, i, c).v, s->strings[k].rank)));
            }
        }
    }
}

static const char check_left_out[] =
    "a CHECK constraint the lowering cannot express was left out of the search";

/* The CHECK expression's condition, bound against its table: the WHERE of
** SELECT * FROM t WHERE (check), and the id of its scan. */
static const SqExpr *check_condition(SqSmt *s, SqSrcSet *srcs, SqDiags *diags, const CatTable *t,
                                     const char *check, uint32_t *scan) {
    SqBuf sql = SQ_BUF_INIT;
    sq_buf_puts(&sql, "SELECT * FROM ");
    ir_sql_ident(&sql, t->name);
    sq_buf_printf(&sql, " WHERE (%s)", check);
    const SqSrc *src = sq_src_add_copy(srcs, "CHECK", sql.data, sql.len);
    sq_buf_free(&sql);
    SqBindOptions opt;
    memset(&opt, 0, sizeof opt);
    const char *why;
    IrQuery *q = ir_load_query(s->arena, src, s->cat, s->cat->names, diags, &opt, &why);
    IrRel *f = q && q->root ? q->root->input : NULL;
    if (!f || f->kind != IR_FILTER || !f->input || f->input->kind != IR_SCAN) return NULL;
    *scan = f->input->id;
    return f->u.filter.pred;
}

/* A live row never makes a CHECK false (NULL passes it, as in SQLite). */
static void one_check(SqSmt *s, uint32_t ti, const char *check) {
    SqSrcSet srcs;
    SqDiags diags;
    sq_srcset_init(&srcs);
    sq_diags_init(&diags, &srcs);
    uint32_t scan = 0;
    jmp_buf jb, *outer = s->fail;
    const SqExpr *cond = check_condition(s, &srcs, &diags, s->tables[ti].table, check, &scan);
    s->fail = &jb;
    if (!cond || setjmp(jb)) {
        s->approx = check_left_out;
        s->unsupported = NULL;
    } else {
        const SmtTable *t = &s->tables[ti];
        for (uint32_t i = 0; i < t->n; i++) {
            SmtRow row = t->rows[i];
            SmtBind b = {scan, row.binds[0].cells, row.binds[0].n};
            row.binds = &b;
            Z3_ast yes, no;
            smt_truth(s, smt_expr(s, cond, &row, NULL), &yes, &no, cond->span);
            Z3_solver_assert(s->z, s->solver, smt_not(s, smt_and2(s, row.alive, no)));
        }
    }
    s->fail = outer;
    sq_diags_free(&diags);
    sq_srcset_free(&srcs);
}

static void schema_constraints(SqSmt *s) {
    for (uint32_t i = 0; i < s->n_tables; i++) fk_constraints(s, i); /* may add tables */
    for (uint32_t i = 0; i < s->n_tables; i++) {
        cell_constraints(s, &s->tables[i]);
        key_constraints(s, &s->tables[i]);
        for (uint32_t k = 0; k < s->tables[i].table->n_checks; k++) one_check(s, i, s->tables[i].table->checks[k]);
    }
}

/* ---- comparing two results ------------------------------------------------------ */

static Z3_ast rows_equal(SqSmt *s, const SmtRel *a, uint32_t i, const SmtRel *b, uint32_t j) {
    const SmtBind *x = smt_out(a, i), *y = smt_out(b, j);
    Z3_ast r = smt_true(s);
    for (uint32_t c = 0; c < a->n_cols; c++)
        r = smt_and2(s, r, smt_result_equal(s, smt_as_number(s, x->cells[c]), smt_as_number(s, y->cells[c])));
    return r;
}

/* How many live rows of b equal row i of a. */
static Z3_ast copies(SqSmt *s, const SmtRel *a, uint32_t i, const SmtRel *b) {
    Z3_ast *c = sq_arena_alloc(s->arena, (b->n + 1) * sizeof *c);
    for (uint32_t j = 0; j < b->n; j++) c[j] = smt_and2(s, b->rows[j].alive, rows_equal(s, a, i, b, j));
    return smt_count_true(s, c, b->n);
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

static Z3_ast live_count(SqSmt *s, const SmtRel *r) {
    Z3_ast *c = sq_arena_alloc(s->arena, (r->n + 1) * sizeof *c);
    for (uint32_t i = 0; i < r->n; i++) c[i] = r->rows[i].alive;
    return smt_count_true(s, c, r->n);
}

static Z3_ast differ(SqSmt *s, SmtRel *a, SmtRel *b, SqSmtSemantics sem) {
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
    s->strings = NULL;
    s->n_strings = s->cap_strings = 0;
    s->ties = NULL;
    s->n_ties = s->cap_ties = 0;
    s->ctes = NULL;
    s->n_ctes = s->cap_ctes = 0;
    s->ufs = NULL;
    s->n_ufs = s->cap_ufs = 0;
    s->uf_names = NULL;
    s->unsupported = s->reason = s->approx = NULL;
    s->n_terms = 0;
    s->diff = NULL;
    s->texts = NULL;
    s->n_texts = 0;
    s->texts_model = NULL;
}

static void new_solver(SqSmt *s) {
    s->solver = Z3_mk_solver(s->z);
    Z3_solver_inc_ref(s->z, s->solver);
    if (s->timeout_ms) {
        Z3_params p = Z3_mk_params(s->z);
        Z3_params_inc_ref(s->z, p);
        Z3_params_set_uint(s->z, p, Z3_mk_string_symbol(s->z, "timeout"), s->timeout_ms);
        Z3_solver_set_params(s->z, s->solver, p);
        Z3_params_dec_ref(s->z, p);
    }
}

int sq_smt_build(SqSmt *s, IrQuery *q1, IrQuery *q2, int k, SqSmtSemantics sem) {
    reset(s);
    s->k = k;
    new_solver(s);
    jmp_buf jb;
    s->fail = &jb;
    current = s;
    if (setjmp(jb)) {
        s->fail = NULL;
        current = NULL;
        return -1;
    }
    int ordered = sem == SQ_SMT_SPIDER && ir_root_sorted(q1->root); /* Spider: the gold's ORDER BY */
    SqSmtSemantics as = sem == SQ_SMT_SPIDER ? (ordered ? SQ_SMT_LIST : SQ_SMT_BAG) : sem;
    s->which = 1;
    SmtRel a = lower_query(s, q1, as);
    s->which = 2;
    SmtRel b = lower_query(s, q2, as);
    s->which = 0;
    s->diff = sem == SQ_SMT_SPIDER ? differ_spider(s, &a, &b, ordered) : differ(s, &a, &b, sem);
    Z3_solver_assert(s->z, s->solver, s->diff);
    schema_constraints(s);
    numeric_text_constraints(s);
    order_strings(s);
    s->fail = NULL;
    current = NULL;
    return 0;
}

const char *sq_smt_unsupported(const SqSmt *s, SrcSpan *at, int *which) {
    if (at) *at = s->unsupported_at;
    if (which) *which = s->which;
    return s->unsupported;
}

const char *sq_smt_approximation(const SqSmt *s) { return s->approx; }
const char *sq_smt_uninterpreted(const SqSmt *s) { return s->uf_names; }

const char *sq_smt_reason(const SqSmt *s) { return s->reason ? s->reason : "unknown"; }

/* ---- solving -------------------------------------------------------------------------- */

static SqSmtStatus check_with(SqSmt *s, int tie_free, Z3_ast extra) {
    Z3_solver_push(s->z, s->solver);
    if (tie_free)
        for (uint32_t i = 0; i < s->n_ties; i++) Z3_solver_assert(s->z, s->solver, s->ties[i]);
    if (extra) Z3_solver_assert(s->z, s->solver, extra);
    Z3_lbool r = Z3_solver_check(s->z, s->solver);
    SqSmtStatus st = r == Z3_L_TRUE ? SQ_SMT_DIFFERENT : r == Z3_L_FALSE ? SQ_SMT_SAME : SQ_SMT_UNKNOWN;
    if (st == SQ_SMT_DIFFERENT) {
        if (s->model) Z3_model_dec_ref(s->z, s->model);
        s->model = Z3_solver_get_model(s->z, s->solver);
        Z3_model_inc_ref(s->z, s->model);
    } else if (st == SQ_SMT_UNKNOWN) {
        s->reason = sq_arena_strdup(s->arena, Z3_solver_get_reason_unknown(s->z, s->solver));
    }
    Z3_solver_pop(s->z, s->solver, 1);
    return st;
}

SqSmtStatus sq_smt_check(SqSmt *s, int tie_free) { return check_with(s, tie_free, NULL); }

static Z3_ast all_alive(SqSmt *s) {
    uint32_t n = 0;
    for (uint32_t t = 0; t < s->n_tables; t++) n += s->tables[t].n;
    Z3_ast *c = sq_arena_alloc(s->arena, (n + 1) * sizeof *c);
    n = 0;
    for (uint32_t t = 0; t < s->n_tables; t++)
        for (uint32_t i = 0; i < s->tables[t].n; i++) c[n++] = s->tables[t].rows[i].alive;
    return smt_count_true(s, c, n);
}

static int64_t model_int(SqSmt *s, Z3_ast t) {
    Z3_ast v;
    int64_t i = 0;
    if (Z3_model_eval(s->z, s->model, t, 1, &v)) Z3_get_numeral_int64(s->z, v, &i);
    return i;
}

static int model_bool(SqSmt *s, Z3_ast t) {
    Z3_ast v;
    return Z3_model_eval(s->z, s->model, t, 1, &v) && Z3_get_bool_value(s->z, v) == Z3_L_TRUE;
}

void sq_smt_shrink(SqSmt *s, int tie_free) {
    if (!s->model) return;
    jmp_buf jb;
    s->fail = &jb;
    current = s;
    if (setjmp(jb)) goto done;
    Z3_ast live = all_alive(s);
    for (;;) {
        int64_t n = model_int(s, live);
        if (n == 0) break;
        Z3_ast fewer = Z3_mk_lt(s->z, live, smt_int(s, n));
        if (check_with(s, tie_free, fewer) != SQ_SMT_DIFFERENT) break;
    }
done:
    s->fail = NULL;
    current = NULL;
}

/* ---- the model ---------------------------------------------------------------------------- */

uint32_t sq_smt_n_tables(const SqSmt *s) { return s->n_tables; }
const CatTable *sq_smt_table(const SqSmt *s, uint32_t t) { return s->tables[t].table; }

uint32_t sq_smt_n_rows(const SqSmt *s, uint32_t t) {
    uint32_t n = 0;
    while (n < s->tables[t].n && model_bool((SqSmt *)s, s->tables[t].rows[n].alive)) n++;
    return n;
}

/* Strings for the model's TEXT ranks.  Literals keep their text; the
** other ranks between two literals (or below the first, above the last)
** get strings that sort between them in the same order: lo + "a", lo +
** "b", ... when any extension of lo stays below hi, else lo + "a", lo +
** "aa", ... with a byte below the one where hi extends lo. */
typedef struct RankText {
    int64_t rank;
    const char *s;  /* NULL until assigned */
} RankText;

static int by_rank(const void *a, const void *b) {
    int64_t x = ((const RankText *)a)->rank, y = ((const RankText *)b)->rank;
    return (x > y) - (x < y);
}

static void add_rank(SqSmt *s, RankText **v, uint32_t *n, uint32_t *cap, int64_t r, const char *str) {
    for (uint32_t i = 0; i < *n; i++)
        if ((*v)[i].rank == r) {
            if (str) (*v)[i].s = str;
            return;
        }
    RankText *t = SQ_ARENA_APPEND(s->arena, *v, *n, *cap);
    t->rank = r;
    t->s = str;
}

/* The k-th (from 0) of m ascending strings strictly between lo and hi
** (either may be NULL: no bound). */
static const char *between(SqSmt *s, const char *lo, const char *hi, uint32_t k) {
    SqBuf b = SQ_BUF_INIT;
    const char *base = lo ? lo : "";
    size_t nb = strlen(base);
    if (hi && strncmp(hi, base, nb) == 0) {
        unsigned char c = (unsigned char)hi[nb];
        char d = c > 'a' ? 'a' : c > '0' ? '0' : c > ' ' ? ' ' : c > 1 ? 1 : 0;
        sq_buf_puts(&b, base);
        for (uint32_t i = 0; i <= k && d; i++) sq_buf_putc(&b, d);
    } else {
        sq_buf_puts(&b, base);
        for (uint32_t i = 0; i < k / 26; i++) sq_buf_putc(&b, 'z');
        sq_buf_putc(&b, (char)('a' + k % 26));
    }
    const char *out = sq_arena_strdup(s->arena, sq_buf_str(&b));
    sq_buf_free(&b);
    return out;
}

static void map_texts(SqSmt *s) {
    RankText *v = NULL;
    uint32_t n = 0, cap = 0;
    for (uint32_t i = 0; i < s->n_strings; i++) add_rank(s, &v, &n, &cap, model_int(s, s->strings[i].rank), s->strings[i].s);
    for (uint32_t t = 0; t < s->n_tables; t++) {
        const SmtTable *st = &s->tables[t];
        for (uint32_t i = 0; i < st->n; i++)
            for (uint32_t c = 0; c < st->table->n_cols; c++) {
                SmtVal x = cell(st, i, c);
                if (x.kind == SMT_TEXT) add_rank(s, &v, &n, &cap, model_int(s, x.v), NULL);
            }
    }
    if (n > 1) qsort(v, n, sizeof *v, by_rank);
    const char *lo = NULL;
    for (uint32_t i = 0; i < n;) {
        if (v[i].s) {
            lo = v[i++].s;
            continue;
        }
        uint32_t j = i;
        while (j < n && !v[j].s) j++;
        const char *hi = j < n ? v[j].s : NULL;
        for (uint32_t k = i; k < j; k++) v[k].s = between(s, lo, hi, k - i);
        i = j;
    }
    s->texts = v;
    s->n_texts = n;
    s->texts_model = s->model;
}

static const char *text_of(SqSmt *s, int64_t r) {
    if (s->texts_model != s->model) map_texts(s);
    for (uint32_t i = 0; i < s->n_texts; i++)
        if (s->texts[i].rank == r) return s->texts[i].s;
    return "";
}

SqSmtCell sq_smt_cell(SqSmt *s, uint32_t t, uint32_t row, uint32_t col) {
    SqSmtCell c = {SQ_VAL_NULL, 0, 0, NULL};
    SmtVal v = cell(&s->tables[t], row, col);
    if (v.kind == SMT_NULL || model_bool(s, v.null)) return c;
    Z3_ast x;
    if (!Z3_model_eval(s->z, s->model, v.v, 1, &x)) return c;
    switch (v.kind) {
    case SMT_INT: c.type = SQ_VAL_INTEGER; Z3_get_numeral_int64(s->z, x, &c.i); break;
    case SMT_REAL: {
        int64_t num = 0, den = 1;
        Z3_get_numeral_int64(s->z, Z3_get_numerator(s->z, x), &num);
        Z3_get_numeral_int64(s->z, Z3_get_denominator(s->z, x), &den);
        c.type = SQ_VAL_REAL;
        c.r = (double)num / (double)den;
        break;
    }
    case SMT_TEXT: {
        int64_t r = 0;
        Z3_get_numeral_int64(s->z, x, &r);
        c.type = SQ_VAL_TEXT;
        c.s = text_of(s, r);
        break;
    }
    default: break;
    }
    return c;
}

void sq_smt_dump(const SqSmt *s, SqBuf *out) {
    if (!s->solver) return;
    sq_buf_puts(out, Z3_solver_to_string(s->z, s->solver));
    sq_buf_puts(out, "(check-sat)\n(get-model)\n");
}
