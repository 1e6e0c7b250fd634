/*
** smt_db.c -- the symbolic database: k tuples per table, each a liveness
** flag and its cells, and the schema's constraints over the live ones
** (NOT NULL, keys, foreign keys, CHECK, and no numeric-looking text in a
** date column).  A column declared with a collation other than BINARY
** may not be in a key; its value is read only as a comparison's operand
** (smt_expr.c).
**
** Layer: passes.  See docs/smt.md, "The symbolic database".
*/
#include <stdlib.h>
#include <string.h>

#include "passes/smt/smt_int.h"

/* Whether the declared type names a date or a time (any case). */
static int date_type(const char *decl) {
    for (const char *p = decl; p && *p; p++)
        if (sq_strnicmp(p, "date", 4) == 0 || sq_strnicmp(p, "time", 4) == 0) return 1;
    return 0;
}

/* The class a column's values have when every value has its declared
** type (--values typed). */
static SmtKind typed_kind(const CatColumn *c) {
    switch (c->affinity) {
    case SQ_AFF_REAL: return SMT_REAL;
    case SQ_AFF_TEXT: return SMT_TEXT;
    case SQ_AFF_NUMERIC: return date_type(c->decl_type) ? SMT_TEXT : SMT_INT;
    default: return SMT_INT;
    }
}

/* The kind of a column's cells.  SQLite lets a column hold every class
** but those its affinity converts away: a TEXT column holds only TEXT (a
** number stored there becomes its text); an INTEGER, REAL or NUMERIC
** column also holds TEXT that is not a number ('abc', ''), an INTEGER
** one non-integral REALs; a column of no affinity anything.  Such a cell
** is SMT_MIX, its domain kept by mixed_domain.  Only an INTEGER PRIMARY
** KEY and the columns of a STRICT table hold their type alone (BLOBs are
** not modelled). */
static SmtKind column_kind(const SqSmt *s, const CatTable *t, const CatColumn *c) {
    SmtKind k = typed_kind(c);
    if (s->typed_values || c->affinity == SQ_AFF_TEXT || c->rowid_alias) return k;
    if (t->strict && c->affinity != SQ_AFF_BLOB) return k;
    return SMT_MIX;
}

int smt_collated(const CatColumn *c) { return c->collation && sq_stricmp(c->collation, "binary") != 0; }

/* Whether column c is in a key or a foreign key of t: uniqueness and
** references compare under the column's collation, and the symbolic
** database's constraints compare values as BINARY. */
static int keyed(const CatTable *t, uint32_t c) {
    for (uint32_t k = 0; k < t->n_keys; k++)
        for (uint32_t i = 0; i < t->keys[k].n_cols; i++)
            if (t->keys[k].cols[i] == c) return 1;
    for (uint32_t k = 0; k < t->n_fks; k++)
        for (uint32_t i = 0; i < t->fks[k].n_cols; i++)
            if (t->fks[k].cols[i] == c) return 1;
    return t->cols[c].pk > 0;
}

static int rowid_alias(const CatTable *t) {
    for (uint32_t c = 0; c < t->n_cols; c++)
        if (t->cols[c].rowid_alias) return (int)c;
    return -1;
}

/* The REALs a REAL cell may hold: a quarter q / 4 (q an integer: no
** is_int on a real, which z3 4.8 decides slowly beside strings), or one of
** the queries' REAL literals (the exact value of its double), so that a
** row can meet x = 8.4; with integral 0, no integral value (a REAL that
** INTEGER or NUMERIC affinity would have stored as an INTEGER). */
static Z3_ast real_choice(SqSmt *s, Z3_ast r, Z3_ast q, int integral) {
    Z3_context z = s->z;
    Z3_ast *alt = sq_arena_alloc(s->arena, (s->n_reals + 1) * sizeof *alt);
    smt_count(s, 4);
    alt[0] = smt_eq(s, r, Z3_mk_div(z, Z3_mk_int2real(z, q), smt_real(s, 4, 1)));
    if (!integral) alt[0] = smt_and2(s, alt[0], smt_not(s, smt_eq(s, Z3_mk_mod(z, q, smt_int(s, 4)), smt_int(s, 0))));
    uint32_t n = 1;
    for (uint32_t i = 0; i < s->n_reals; i++)
        if (integral || s->reals[i] != (double)(int64_t)s->reals[i])
            alt[n++] = smt_eq(s, r, smt_real_const(s, s->reals[i], (SrcSpan){0}));
    return smt_or_n(s, alt, n);
}

/* A cell of a column that may hold several classes (SMT_MIX; see
** column_kind), its domain asserted: TEXT that numeric affinity would
** store as a number is not TEXT there; a number is an INTEGER (an Int
** term) or a REAL (real_choice), under REAL affinity never an INTEGER.
** The sides a cell does not use are fixed (0, ''), so that cells holding
** the same value are the same terms. */
static SmtVal mixed_cell(SqSmt *s, const char *name, uint8_t aff) {
    Z3_context z = s->z;
    Z3_sort ints = Z3_mk_int_sort(z), reals = Z3_mk_real_sort(z), bools = Z3_mk_bool_sort(z);
    Z3_ast i = smt_named(s, name, ".int", ints), q = smt_named(s, name, ".quarters", ints);
    Z3_ast r = smt_named(s, name, ".real", reals);
    Z3_ast isint = aff == SQ_AFF_REAL ? smt_false(s) : smt_named(s, name, ".isint", bools);
    SmtVal v = smt_mix(s, smt_named(s, name, ".null", bools), smt_named(s, name, ".istext", bools),
                       smt_named(s, name, ".str", Z3_mk_string_sort(z)), smt_ite(s, isint, Z3_mk_int2real(z, i), r),
                       isint);
    v.notnum = aff != SQ_AFF_BLOB;
    Z3_ast zi = smt_eq(s, i, smt_int(s, 0)), zr = smt_eq(s, r, smt_real(s, 0, 1));
    Z3_ast zq = smt_eq(s, q, smt_int(s, 0));
    /* (under REAL affinity isint is false, TEXT or not) */
    Z3_ast text = smt_and_n(s, (Z3_ast[]){zi, zr, zq, aff == SQ_AFF_REAL ? smt_true(s) : isint}, 4);
    if (aff != SQ_AFF_BLOB) text = smt_and2(s, text, smt_not(s, smt_in_re(s, v.str, smt_re_number(s))));
    Z3_ast real = smt_and2(s, zi, real_choice(s, r, q, aff == SQ_AFF_REAL || aff == SQ_AFF_BLOB));
    Z3_ast number = smt_and2(s, smt_eq(s, v.str, smt_str_lit(s, "", 0)), smt_ite(s, isint, smt_and2(s, zr, zq), real));
    Z3_solver_assert(z, s->solver, smt_ite(s, v.istext, text, number));
    return v;
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
    for (uint32_t i = 0; i < s->n_table_bounds; i++)
        if (s->table_bounds[i].t == t) st->n = (uint32_t)s->table_bounds[i].n;
    st->rows = sq_arena_alloc(s->arena, (st->n + 1) * sizeof *st->rows);
    st->kinds = sq_arena_alloc(s->arena, t->n_cols + 1);
    int alias = rowid_alias(t);
    for (uint32_t c = 0; c < t->n_cols; c++) {
        st->kinds[c] = (uint8_t)column_kind(s, t, &t->cols[c]);
        if (smt_collated(&t->cols[c]) && keyed(t, c)) {
            SrcSpan none = {0};
            smt_unsupported(s, none, "the key column %s.%s declared COLLATE %s", t->name, t->cols[c].name,
                            t->cols[c].collation);
        }
    }
    for (uint32_t i = 0; i < st->n; i++) {
        SmtVal *cells = sq_arena_alloc(s->arena, (t->n_cols + 2) * sizeof *cells);
        /* names in the arena, not the heap: z3's error handler may longjmp out of the calls */
        for (uint32_t c = 0; c < t->n_cols; c++) {
            const char *name = sq_arena_printf(s->arena, "%s.%s!%u", t->name, t->cols[c].name, i);
            cells[c] = st->kinds[c] == SMT_MIX ? mixed_cell(s, name, t->cols[c].affinity)
                                               : smt_fresh(s, (SmtKind)st->kinds[c], name);
        }
        /* the rowid: the alias column, or the row's place (live rows come
        ** first and are inserted in order) */
        cells[t->n_cols] = alias >= 0 ? cells[alias] : smt_val(s, SMT_INT, smt_false(s), smt_int(s, i + 1));
        const char *alive_name = sq_arena_printf(s->arena, "%s!alive!%u", t->name, i);
        Z3_ast alive = Z3_mk_const(s->z, Z3_mk_string_symbol(s->z, alive_name), Z3_mk_bool_sort(s->z));
        st->rows[i].alive = alive;
        st->rows[i].binds = sq_arena_alloc(s->arena, sizeof(SmtBind));
        st->rows[i].binds[0] = (SmtBind){0, cells, t->n_cols + 1};
        st->rows[i].n_binds = 1;
    }
    smt_fact_cells(s, st);
    return st;
}


static int in_key(const CatTable *t, uint32_t c) { return t->cols[c].pk > 0; }

/* What a REAL cell may hold: a multiple of 1/4, or one of the queries'
** REAL literals (the exact value of its double), so that a row can meet
** `x = 8.4`.  Either way a double, exactly. */
static Z3_ast real_domain(SqSmt *s, Z3_ast v) {
    Z3_context z = s->z;
    Z3_ast *alt = sq_arena_alloc(s->arena, (s->n_reals + 1) * sizeof *alt);
    alt[0] = Z3_mk_is_int(z, Z3_mk_mul(z, 2, (Z3_ast[]){v, smt_real(s, 4, 1)}));
    for (uint32_t i = 0; i < s->n_reals; i++) alt[i + 1] = smt_eq(s, v, smt_real_const(s, s->reals[i], (SrcSpan){0}));
    return smt_or_n(s, alt, s->n_reals + 1);
}

/* NOT NULL, the REAL domain, live rows first (a mixed cell's domain comes
** with it: mixed_cell). */
static void cell_constraints(SqSmt *s, const SmtTable *t) {
    Z3_context z = s->z;
    for (uint32_t i = 0; i < t->n; i++) {
        if (i + 1 < t->n) Z3_solver_assert(z, s->solver, Z3_mk_implies(z, t->rows[i + 1].alive, t->rows[i].alive));
        for (uint32_t c = 0; c < t->table->n_cols; c++) {
            SmtVal v = smt_cell(t, i, c);
            /* PRIMARY KEY columns are taken as NOT NULL too: SQLite lets a
            ** non-INTEGER key hold NULL only for backward compatibility */
            if (t->table->cols[c].not_null || in_key(t->table, c)) Z3_solver_assert(z, s->solver, Z3_mk_not(z, v.null));
            if (v.kind == SMT_REAL) Z3_solver_assert(z, s->solver, real_domain(s, v.v));
        }
    }
}

/* Rows i and j agree on the columns cols (none NULL). */
static Z3_ast agree(SqSmt *s, const SmtTable *a, uint32_t i, const uint32_t *ca, const SmtTable *b, uint32_t j,
                    const uint32_t *cb, uint32_t n) {
    Z3_ast r = smt_true(s);
    for (uint32_t k = 0; k < n; k++) {
        SmtVal x = smt_cell(a, i, ca[k]), y = smt_cell(b, j, cb[k]);
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

/* Child value x finds parent value y (neither NULL).  SQLite looks the
** parent key up with the parent column's affinity applied to x: a TEXT
** '1' finds the INTEGER 1, an INTEGER 1 finds the TEXT '1'.  Spider's
** concert_singer joins an INT key with a TEXT foreign key so. */
static Z3_ast fk_match(SqSmt *s, SmtVal x, SmtVal y, uint8_t parent_aff) {
    return smt_same(s, smt_apply_affinity(s, x, parent_aff), y);
}

/* Row i of t refers to row p of parent by fk (its columns not NULL). */
static Z3_ast fk_refers(SqSmt *s, const SmtTable *t, uint32_t i, const CatForeignKey *fk, const SmtTable *parent,
                        uint32_t p) {
    Z3_ast r = smt_true(s);
    for (uint32_t k = 0; k < fk->n_cols; k++) {
        SmtVal x = smt_cell(t, i, fk->cols[k]), y = smt_cell(parent, p, fk->target_cols[k]);
        uint8_t aff = parent->table->cols[fk->target_cols[k]].affinity;
        r = smt_and2(s, r, smt_and2(s, smt_not(s, y.null), fk_match(s, x, y, aff)));
    }
    return r;
}

static void fk_constraints(SqSmt *s, uint32_t ti) {
    for (uint32_t f = 0; f < s->tables[ti].table->n_fks; f++) {
        const CatForeignKey *fk = &s->tables[ti].table->fks[f];
        if (!fk->target || !fk->target_cols) continue;
        const SmtTable *parent = smt_table(s, fk->target);
        const SmtTable *t = &s->tables[ti]; /* after smt_table, which may move the array */
        for (uint32_t i = 0; i < t->n; i++) {
            Z3_ast has = t->rows[i].alive;
            for (uint32_t k = 0; k < fk->n_cols; k++) has = smt_and2(s, has, smt_not(s, smt_cell(t, i, fk->cols[k]).null));
            Z3_ast found = smt_false(s);
            for (uint32_t p = 0; p < parent->n; p++)
                found = smt_or2(s, found, smt_and2(s, parent->rows[p].alive, fk_refers(s, t, i, fk, parent, p)));
            Z3_solver_assert(s->z, s->solver, Z3_mk_implies(s->z, has, found));
        }
    }
}

/* A TEXT cell of a column with NUMERIC affinity (a date) cannot hold a
** string that the column would store as a number. */
static void numeric_text_constraints(SqSmt *s) {
    Z3_ast number = NULL;
    for (uint32_t t = 0; t < s->n_tables; t++) {
        const SmtTable *st = &s->tables[t];
        for (uint32_t c = 0; c < st->table->n_cols; c++) {
            if (st->kinds[c] != SMT_TEXT || st->table->cols[c].affinity != SQ_AFF_NUMERIC) continue;
            if (!number) number = smt_re_number(s);
            for (uint32_t i = 0; i < st->n; i++)
                Z3_solver_assert(s->z, s->solver, smt_not(s, smt_in_re(s, smt_cell(st, i, c).v, number)));
        }
    }
}

static const char check_left_out[] =
    "a CHECK constraint the lowering cannot express was left out of the search";

/* The CHECK expression's condition, bound against its table: the WHERE of
** SELECT * FROM t WHERE (check), the id of its scan, and the query it
** is part of. */
static const SqExpr *check_condition(SqSmt *s, SqSrcSet *srcs, SqDiags *diags, const CatTable *t,
                                     const char *check, uint32_t *scan, IrQuery **query) {
    SqBuf sql = SQ_BUF_IN(s->arena);
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
    *query = q;
    return f->u.filter.pred;
}

typedef struct CheckRows {
    uint32_t ti;         /* the table */
    uint32_t scan;       /* the CHECK query's scan */
    const SqExpr *cond;  /* the CHECK's condition */
} CheckRows;

static void assert_check(SqSmt *s, void *arg) {
    const CheckRows *c = arg;
    const SmtTable *t = &s->tables[c->ti];
    for (uint32_t i = 0; i < t->n; i++) {
        SmtRow row = t->rows[i];
        SmtBind b = {c->scan, row.binds[0].cells, row.binds[0].n};
        row.binds = &b;
        Z3_ast yes, no;
        smt_truth(s, smt_expr(s, c->cond, &row, NULL), &yes, &no, c->cond->span);
        Z3_solver_assert(s->z, s->solver, smt_not(s, smt_and2(s, row.alive, no)));
    }
}

/* A live row never makes a CHECK false (NULL passes it, as in SQLite).  A
** CHECK the lowering cannot express is left out (s->approx says so). */
static void one_check(SqSmt *s, uint32_t ti, const char *check) {
    SqSrcSet srcs;
    SqDiags diags;
    sq_srcset_init(&srcs);
    sq_diags_init(&diags, &srcs);
    CheckRows c = {ti, 0, NULL};
    IrQuery *q = NULL, *user = s->q;
    c.cond = check_condition(s, &srcs, &diags, s->tables[ti].table, check, &c.scan, &q);
    s->q = q; /* the CHECK's column references are of its own query */
    if (!c.cond || smt_protect(s, assert_check, &c) < 0) {
        s->approx = check_left_out;
        s->unsupported = NULL;
    }
    s->q = user;
    sq_diags_free(&diags);
    sq_srcset_free(&srcs);
}

void smt_schema_constraints(SqSmt *s) {
    for (uint32_t i = 0; i < s->n_tables; i++) fk_constraints(s, i); /* may add tables */
    for (uint32_t i = 0; i < s->n_tables; i++) {
        cell_constraints(s, &s->tables[i]);
        key_constraints(s, &s->tables[i]);
        for (uint32_t k = 0; k < s->tables[i].table->n_checks; k++) one_check(s, i, s->tables[i].table->checks[k]);
    }
    numeric_text_constraints(s);
}

