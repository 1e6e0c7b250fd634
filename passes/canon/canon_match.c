/*
** canon_match.c -- whether two normal forms are the same (see canon.h):
** a mapping of the instances, table for table, under which the classes,
** the conjuncts, the grouping, the aggregates, the result columns, the
** order and the limit agree.
**
** Layer: passes.  The mappings are tried one by one (backtracking over
** the instances of each table); queries join a handful of tables, and
** MAX_MAPPINGS caps the worst case.  Expressions are compared as trees
** (sq_expr_equal_across), with node_eq for the spellings that mean the
** same (docs/canon.md, "One spelling per conjunct").
*/
#include <string.h>

#include "passes/canon/canon_int.h"

enum { MAX_MAPPINGS = 5040 };

/* Two forms under one mapping of the second's instances to the first's.
** key[x] numbers a column's class by its smallest live column, counted
** in the first form's numbering (UINT32_MAX: no live column). */
/* A closed expression's value, as the fold hook gave it. */
typedef struct Folded {
    const SqExpr *e;
    int ok;
    SqSmtCell v;
    char *text;
} Folded;

typedef struct Match {
    const CnForm *f[2];
    uint32_t *map;       /* instance of f[1] -> instance of f[0] */
    uint8_t *taken;      /* instance of f[0] already mapped */
    uint32_t *key[2];
    uint32_t tries;
    SqSmtFoldFn fold;    /* or NULL */
    void *fold_arg;
    SqArena *a;
    Folded *folded;      /* every closed expression folded so far */
    uint32_t n_folded, cap_folded;
    int on_no_rows;      /* under this mapping a count matched a sum that
                            counts the same rows: the results must also
                            agree where the query reads no row */
} Match;

/* Column x of form side, in the first form's numbering. */
static uint32_t mapped(const Match *m, int side, uint32_t x) {
    if (side == 0) return x;
    const CnForm *f = m->f[1];
    uint32_t i = cn_inst_of(f, x);
    return m->f[0]->inst[m->map[i]].first + (x - f->inst[i].first);
}

static void class_keys(Match *m, int side) {
    const CnForm *f = m->f[side];
    uint32_t *key = m->key[side];
    for (uint32_t x = 0; x < f->n_cols; x++) key[x] = UINT32_MAX;
    for (uint32_t x = 0; x < f->n_cols; x++) {
        if (f->inst[cn_inst_of(f, x)].removed) continue;
        uint32_t r = cn_root(f, x), k = mapped(m, side, x);
        if (k < key[r]) key[r] = k;
    }
    for (uint32_t x = 0; x < f->n_cols; x++) key[x] = key[cn_root(f, x)];
}

/* The same classes, with the same NOT NULL marks, on the live columns. */
static int same_classes(const Match *m) {
    const CnForm *f = m->f[1];
    for (uint32_t x = 0; x < f->n_cols; x++) {
        if (f->inst[cn_inst_of(f, x)].removed) continue;
        uint32_t y = mapped(m, 1, x);
        if (m->key[1][x] != m->key[0][y] || cn_class_mark(f, x) != cn_class_mark(m->f[0], y)) return 0;
    }
    return 1;
}

/* ------------------------------------------------------------------ */
/* Expressions                                                         */
/* ------------------------------------------------------------------ */

static int col_eq(const SqExpr *a, const SqExpr *b, void *arg);
static int node_eq(const SqExpr *a, const SqExpr *b, void *arg);

static int expr_eq(const Match *m, const SqExpr *a, const SqExpr *b) {
    if (!a || !b) return a == b;
    return sq_expr_equal_across(a, b, col_eq, node_eq, (void *)m);
}

/* ---- two spellings of one expression ---- */

/* What SQLite computes for e, its column references written by nm
** (NULL: e is closed), into out. */
static void fold_into(Match *m, const SqExpr *e, const IrNaming *nm, Folded *out) {
    memset(out, 0, sizeof *out);
    out->e = e;
    SqBuf sql = SQ_BUF_INIT, text = SQ_BUF_INIT;
    sq_buf_puts(&sql, "SELECT ");
    ir_sql_expr(&sql, e, nm);
    out->ok = m->fold(m->fold_arg, sq_buf_str(&sql), &out->v, &text);
    out->text = out->ok && out->v.type == SQ_VAL_TEXT ? sq_arena_strndup(m->a, text.data ? text.data : "", text.len)
                                                      : NULL;
    sq_buf_free(&sql);
    sq_buf_free(&text);
}

/* The value of closed expression e, folded once. */
static const Folded *folded(Match *m, const SqExpr *e) {
    for (uint32_t i = 0; i < m->n_folded; i++)
        if (m->folded[i].e == e) return &m->folded[i];
    Folded *f = SQ_ARENA_APPEND(m->a, m->folded, m->n_folded, m->cap_folded);
    fold_into(m, e, NULL, f);
    return f;
}

static int has_collate(SqExpr *e, void *arg) {
    (void)arg;
    return e->kind == SQX_COLLATE;
}

/* A closed expression that only its value describes: not a CAST (which
** carries an affinity into a comparison) and no COLLATE anywhere. */
static int by_value(const SqExpr *e) {
    return e->kind != SQX_CAST && sq_smt_closed(e, NULL) && !sq_expr_walk((SqExpr *)e, has_collate, NULL);
}

/* Two values SQLite computed: the same storage class and value. */
static int same_folded(const Folded *x, const Folded *y) {
    if (!x->ok || !y->ok || x->v.type != y->v.type) return 0;
    switch (x->v.type) {
    case SQ_VAL_INTEGER: return x->v.i == y->v.i;
    case SQ_VAL_REAL: return x->v.r == y->v.r;
    case SQ_VAL_TEXT: return strcmp(x->text, y->text) == 0;
    case SQ_VAL_NULL: return 1;
    default: return 0;
    }
}

/* Two closed expressions written differently, with the same value. */
static int same_value(Match *m, const SqExpr *a, const SqExpr *b) { return same_folded(folded(m, a), folded(m, b)); }

/* iif(c, x, y), or CASE WHEN c THEN x [ELSE y] END (no ELSE: NULL). */
typedef struct Choice {
    const SqExpr *when, *then, *else_;
} Choice;

static int as_choice(const SqExpr *e, Choice *out) {
    if (e->kind == SQX_FUNC && e->u.func.def && strcmp(e->u.func.def->name, "iif") == 0 && e->u.func.args.n == 3) {
        *out = (Choice){e->u.func.args.items[0], e->u.func.args.items[1], e->u.func.args.items[2]};
        return 1;
    }
    if (e->kind == SQX_CASE && !e->u.cas.operand && e->u.cas.n_arms == 1) {
        *out = (Choice){e->u.cas.arms[0].when, e->u.cas.arms[0].then, e->u.cas.else_};
        return 1;
    }
    return 0;
}

static int is_null(const SqExpr *e) { return !e || (e->kind == SQX_LITERAL && e->u.lit.vtype == SQ_VAL_NULL); }

static int choice_eq(const Match *m, const Choice *a, const Choice *b) {
    if (!expr_eq(m, a->when, b->when) || !expr_eq(m, a->then, b->then)) return 0;
    return (is_null(a->else_) && is_null(b->else_)) || expr_eq(m, a->else_, b->else_);
}

/* A comparison with a literal on its left only. */
static int literal_first(const SqExpr *e) {
    return e->u.bin.l->kind == SQX_LITERAL && e->u.bin.r->kind != SQX_LITERAL;
}

/* x IN (v1, ..., vn), or x = v1 OR ... OR x = vn (v either side; n may
** be 1), with literal values: x and the values.  0 when e is neither. */
typedef struct Alternatives {
    const SqExpr *x;
    const SqExpr *v[16];
    uint32_t n;
} Alternatives;

static int or_leaves(const SqExpr *e, Alternatives *alt) {
    if (e->kind == SQX_BINARY && e->op == AST_OP_OR)
        return or_leaves(e->u.bin.l, alt) && or_leaves(e->u.bin.r, alt);
    if (e->kind != SQX_BINARY || e->op != AST_OP_EQ || alt->n == 16) return 0;
    const SqExpr *x = e->u.bin.l, *v = e->u.bin.r;
    if (x->kind == SQX_LITERAL) x = e->u.bin.r, v = e->u.bin.l;
    if (v->kind != SQX_LITERAL || x->kind == SQX_LITERAL || (alt->x && !sq_expr_equal(alt->x, x))) return 0;
    alt->x = x;
    alt->v[alt->n++] = v;
    return 1;
}

static int as_alternatives(const SqExpr *e, Alternatives *alt) {
    alt->x = NULL;
    alt->n = 0;
    if (e->kind == SQX_BINARY && (e->op == AST_OP_OR || e->op == AST_OP_EQ)) return or_leaves(e, alt);
    if (e->kind != SQX_IN_LIST || (e->flags & SQXF_NOT) || e->u.in.list.n > 16) return 0;
    alt->x = e->u.in.x;
    for (uint32_t i = 0; i < e->u.in.list.n; i++) {
        if (e->u.in.list.items[i]->kind != SQX_LITERAL) return 0;
        alt->v[alt->n++] = e->u.in.list.items[i];
    }
    return 1;
}

/* Each value of a is among those of b. */
static int values_in(const Alternatives *a, const Alternatives *b) {
    for (uint32_t i = 0; i < a->n; i++) {
        uint32_t j = 0;
        while (j < b->n && !sq_expr_equal(a->v[i], b->v[j])) j++;
        if (j == b->n) return 0;
    }
    return 1;
}

static int is_and(const SqExpr *e) { return e->kind == SQX_BINARY && e->op == AST_OP_AND; }

/* An IN list or an OR: x IN (7) matches x = 7, as canon_range.c writes
** one where the other query's column is not known to hold integers. */
static int is_list(const SqExpr *e) {
    return e->kind == SQX_IN_LIST || (e->kind == SQX_BINARY && e->op == AST_OP_OR);
}


/* The comparison that NOT (a op b) is: NULL where that is, and true
** exactly where it is false (SQLite orders any two values it compares). */
static int negated_op(int op) {
    switch (op) {
    case AST_OP_EQ: return AST_OP_NE;
    case AST_OP_NE: return AST_OP_EQ;
    case AST_OP_LT: return AST_OP_GE;
    case AST_OP_GE: return AST_OP_LT;
    case AST_OP_GT: return AST_OP_LE;
    case AST_OP_LE: return AST_OP_GT;
    default: return 0;
    }
}

/* NOT p against q, q a test SQLite also writes negated: x NOT LIKE p, x
** NOT BETWEEN, x NOT IN (...), x IS NOT y (each NOT of the test itself), or a
** comparison turned around (NOT a < b is a >= b).  not_first: NOT p is
** of the first form (expr_eq takes the forms in order).  -1: neither. */
static int not_eq(const Match *m, const SqExpr *not_p, const SqExpr *q, int not_first) {
    SqExpr flipped = *q;
    if (q->kind == SQX_LIKE || q->kind == SQX_BETWEEN || q->kind == SQX_IN_LIST || q->kind == SQX_IN_SUBQUERY ||
        q->kind == SQX_IS)
        flipped.flags ^= SQXF_NOT;
    else if (cn_comparison(q))
        flipped.op = (uint8_t)negated_op(q->op);
    else
        return -1;
    return not_first ? expr_eq(m, not_p->u.bin.l, &flipped) : expr_eq(m, &flipped, not_p->u.bin.l);
}

/* The operands of a chain of one operator (AND, OR): at most 16, else 0.
** In an AND chain, x BETWEEN lo AND hi is the two operands x >= lo and
** x <= hi, as SQLite defines it (built in tmp). */
typedef struct Chain {
    const SqExpr *x[16];
    uint32_t n;
    SqExpr tmp[16];
} Chain;

static int chain(const SqExpr *e, int op, Chain *c) {
    if (e->kind == SQX_BINARY && e->op == op) return chain(e->u.bin.l, op, c) && chain(e->u.bin.r, op, c);
    if (op == AST_OP_AND && cn_between(e)) {
        if (c->n + 2 > 16) return 0;
        cn_between_parts(e, &c->tmp[c->n], &c->tmp[c->n + 1]);
        c->x[c->n] = &c->tmp[c->n];
        c->x[c->n + 1] = &c->tmp[c->n + 1];
        c->n += 2;
        return 1;
    }
    if (c->n == 16) return 0;
    c->x[c->n++] = e;
    return 1;
}

/* Each of the na expressions a has an equal among the nb expressions b;
** a_first: a is of the first form (expr_eq takes the forms in order). */
static int all_matched(const Match *m, const SqExpr *const *a, uint32_t na, const SqExpr *const *b, uint32_t nb,
                       int a_first) {
    for (uint32_t i = 0; i < na; i++) {
        int found = 0;
        for (uint32_t j = 0; j < nb && !found; j++)
            found = a_first ? expr_eq(m, a[i], b[j]) : expr_eq(m, b[j], a[i]);
        if (!found) return 0;
    }
    return 1;
}

/* A merged derived table's column against what it stands for; two
** closed expressions by their values (the clock pinned); iif
** against CASE; NULL tests however spelled and negated; NOT p against
** the test written negated (NOT x = 1 is x <> 1); 5 < x against x > 5 (a literal has no affinity or
** collation, so the other side's apply in either order); x IN (1, 2)
** against x = 1 OR x = 2 in any order (SQLite compares each value of the
** list as = does); BETWEEN against its two comparisons; a chain of AND
** (or of OR) against another as sets of operands, in any order and
** grouping.  -1: compare the nodes as they are. */
static int node_eq(const SqExpr *a, const SqExpr *b, void *arg) {
    Match *m = arg;
    const SqExpr *d;
    if ((d = cn_def(m->f[0], a))) return expr_eq(m, d, b); /* a derived table's column */
    if (m->fold && (a->kind != SQX_LITERAL || b->kind != SQX_LITERAL) && a->kind != SQX_COLUMN &&
        b->kind != SQX_COLUMN && by_value(a) && by_value(b))
        return sq_expr_equal(a, b) || same_value(m, a, b);
    if ((d = cn_def(m->f[1], b))) return expr_eq(m, a, d);
    Choice x, y;
    if (a->kind != b->kind && as_choice(a, &x) && as_choice(b, &y)) return choice_eq(m, &x, &y);
    const SqExpr *nx, *ny;
    int na, nb, r;
    if ((cn_is_not(a) || cn_is_not(b) || a->kind != b->kind) && cn_null_test(a, &nx, &na) && cn_null_test(b, &ny, &nb))
        return na == nb && expr_eq(m, nx, ny);
    if (cn_is_not(a) != cn_is_not(b) && (r = cn_is_not(a) ? not_eq(m, a, b, 1) : not_eq(m, b, a, 0)) >= 0) return r;
    Alternatives p, q;
    if ((is_list(a) || is_list(b)) && as_alternatives(a, &p) && as_alternatives(b, &q))
        return expr_eq(m, p.x, q.x) && values_in(&p, &q) && values_in(&q, &p);
    int op = (is_and(a) || cn_between(a)) && (is_and(b) || cn_between(b)) && (is_and(a) || is_and(b)) ? AST_OP_AND
             : a->kind == SQX_BINARY && b->kind == SQX_BINARY && a->op == AST_OP_OR && b->op == AST_OP_OR
                 ? AST_OP_OR
                 : 0;
    if (op) {
        Chain ca, cb;
        ca.n = cb.n = 0;
        if (chain(a, op, &ca) && chain(b, op, &cb))
            return all_matched(m, ca.x, ca.n, cb.x, cb.n, 1) && all_matched(m, cb.x, cb.n, ca.x, ca.n, 0);
    }
    if (cn_comparison(a) && cn_comparison(b) && literal_first(a) != literal_first(b))
        return cn_mirrored(a->op) == b->op && expr_eq(m, a->u.bin.l, b->u.bin.r) && expr_eq(m, a->u.bin.r, b->u.bin.l);
    return -1;
}

static int list_eq(const Match *m, const SqExprList *a, const SqExprList *b) {
    if (a->n != b->n) return 0;
    for (uint32_t i = 0; i < a->n; i++)
        if (!expr_eq(m, a->items[i], b->items[i])) return 0;
    return 1;
}

/* The same expressions as sets (conjuncts, GROUP BY keys): each of one
** has an equal in the other. */
static int same_set(const Match *m, const SqExprList *a, const SqExprList *b) {
    const SqExpr *const *x = (const SqExpr *const *)a->items, *const *y = (const SqExpr *const *)b->items;
    return all_matched(m, x, a->n, y, b->n, 1) && all_matched(m, y, b->n, x, a->n, 0);
}

enum { COUNTS_ROWS = -2, COUNTS_OTHER = -1 };

/* What a count() counts: the rows, or the values of a column that are
** not NULL (its number); COUNTS_OTHER for any other call.  count(x) of a
** column never NULL counts the rows, and the rows of a form whose mark on
** a column is absorbed (canon_form.c) are that column's values. */
static int counted(const CnForm *f, const SqAggItem *it) {
    if (strcmp(it->def->name, "count") != 0 || it->distinct || it->filter) return COUNTS_OTHER;
    int x = it->star ? COUNTS_ROWS : it->args.n == 1 ? cn_column(f, it->args.items[0]) : COUNTS_OTHER;
    if (x >= 0 && cn_not_null(f, (uint32_t)x)) x = COUNTS_ROWS;
    return x == COUNTS_ROWS && f->absorbed >= 0 ? f->absorbed : x;
}

/* e is never NULL on the rows kept: a literal other than NULL, or a
** column so marked or declared. */
static int never_null(const CnForm *f, const SqExpr *e) {
    if (e->kind == SQX_LITERAL) return e->u.lit.vtype != SQ_VAL_NULL;
    int x = cn_column(f, e);
    return x >= 0 && cn_not_null(f, (uint32_t)x);
}

static int int_literal(const SqExpr *e, int64_t v) {
    int64_t c;
    return e && sq_expr_int_constant(e, &c) && c == v;
}

/* count(CASE WHEN c THEN v END), v never NULL, and sum(CASE WHEN c THEN 1
** ELSE 0 END) (iif alike) both count the rows where c is true: the
** same integer wherever there are rows, 0 and NULL where there are none.
** The condition c (and *is_sum), else NULL. */
static const SqExpr *counted_when(const CnForm *f, const SqAggItem *it, int *is_sum) {
    Choice ch;
    if (it->kind != SQ_AGG_CALL || it->distinct || it->filter || it->star || it->args.n != 1 ||
        !as_choice(it->args.items[0], &ch))
        return NULL;
    *is_sum = strcmp(it->def->name, "sum") == 0;
    if (*is_sum) return int_literal(ch.then, 1) && int_literal(ch.else_, 0) ? ch.when : NULL;
    if (strcmp(it->def->name, "count") != 0) return NULL;
    return is_null(ch.else_) && never_null(f, ch.then) ? ch.when : NULL;
}

/* A count and a sum of the rows where the same condition holds: equal
** in a group (never empty); in an aggregate of the whole input, only
** where the results also agree on no rows (same_on_no_rows), and not
** with HAVING. */
static int count_as_sum(Match *m, const SqAggItem *a, const SqAggItem *b) {
    int sa, sb;
    const SqExpr *ca = counted_when(m->f[0], a, &sa), *cb = counted_when(m->f[1], b, &sb);
    if (!ca || !cb || sa == sb || !expr_eq(m, ca, cb)) return 0;
    if (!cn_one_row(m->f[0])) return 1;
    if (m->f[0]->c.having || m->f[1]->c.having) return 0;
    m->on_no_rows = 1;
    return 1;
}

static int item_eq(Match *m, const SqAggItem *a, const SqAggItem *b) {
    if (a->kind != b->kind) return 0;
    if (a->kind != SQ_AGG_CALL) return expr_eq(m, a->expr, b->expr);
    if (a->def != b->def && count_as_sum(m, a, b)) return 1;
    if (a->def != b->def || a->distinct != b->distinct || !expr_eq(m, a->filter, b->filter)) return 0;
    int x = counted(m->f[0], a), y = counted(m->f[1], b);
    if (x >= 0 && y >= 0) return m->key[0][x] != UINT32_MAX && m->key[0][x] == m->key[1][y];
    if (x == COUNTS_ROWS || y == COUNTS_ROWS) return x == y;
    return a->star == b->star && list_eq(m, &a->args, &b->args);
}

/* References of the two forms: to instance columns (by class), to
** aggregate outputs (by item), to result columns (by expression). */
static int col_eq(const SqExpr *a, const SqExpr *b, void *arg) {
    Match *m = arg;
    const CnForm *f = m->f[0], *g = m->f[1];
    int x = cn_column(f, a), y = cn_column(g, b);
    if (x >= 0 || y >= 0) return x >= 0 && y >= 0 && m->key[0][x] != UINT32_MAX && m->key[0][x] == m->key[1][y];
    if (f->c.agg && g->c.agg && a->u.col.rel == f->c.agg->id && b->u.col.rel == g->c.agg->id)
        return item_eq(m, &f->c.agg->u.agg.items[a->u.col.col], &g->c.agg->u.agg.items[b->u.col.col]);
    if (a->u.col.rel == f->c.project->id && b->u.col.rel == g->c.project->id)
        return expr_eq(m, f->c.project->u.project.exprs.items[a->u.col.col],
                       g->c.project->u.project.exprs.items[b->u.col.col]);
    return 0;
}

/* ------------------------------------------------------------------ */
/* The parts of the core                                               */
/* ------------------------------------------------------------------ */

/* The GROUP BY keys, as a set. */
static void group_keys(const CnForm *f, SqArena *a, SqExprList *out) {
    const IrRel *g = f->c.agg;
    for (uint32_t i = 0; g && i < g->u.agg.n_items; i++)
        if (g->u.agg.items[i].kind == SQ_AGG_KEY) sq_expr_list_add(a, out, g->u.agg.items[i].expr);
}

/* Whether the form aggregates rows, as the comparison takes it: not
** when each group is one row. */
static int groups(const CnForm *f) { return f->c.agg && !f->ungrouped; }

static int same_grouping(const Match *m, SqArena *a) {
    const CnForm *f = m->f[0], *g = m->f[1];
    if (groups(f) != groups(g)) return 0;
    if (!groups(f)) return 1;
    SqExprList k1 = {0}, k2 = {0};
    group_keys(f, a, &k1);
    group_keys(g, a, &k2);
    if (!k1.n != !k2.n || !same_set(m, &k1, &k2)) return 0;
    SqExprList h1 = {0}, h2 = {0};
    if (f->c.having) ir_conjuncts(a, f->c.having->u.filter.pred, &h1);
    if (g->c.having) ir_conjuncts(a, g->c.having->u.filter.pred, &h2);
    return same_set(m, &h1, &h2);
}

/* The visible result columns, in order. */
static int same_results(const Match *m) {
    const IrRel *p = m->f[0]->c.project, *q = m->f[1]->c.project;
    uint32_t i = 0, j = 0;
    for (;;) {
        while (i < p->cols.n && p->cols.items[i].hidden) i++;
        while (j < q->cols.n && q->cols.items[j].hidden) j++;
        if (i == p->cols.n || j == q->cols.n) return i == p->cols.n && j == q->cols.n;
        if (!expr_eq(m, p->u.project.exprs.items[i], q->u.project.exprs.items[j])) return 0;
        i++, j++;
    }
}

static int same_sort(const Match *m) {
    const CnForm *f = m->f[0], *g = m->f[1];
    if (cn_sort_matters(f) != cn_sort_matters(g)) return 0;
    if (!cn_sort_matters(f)) return 1;
    const IrRel *s = f->c.sort, *t = g->c.sort;
    if (s->u.sort.n_keys != t->u.sort.n_keys) return 0;
    for (uint32_t i = 0; i < s->u.sort.n_keys; i++) {
        const SqSortKey *a = &s->u.sort.keys[i], *b = &t->u.sort.keys[i];
        if (a->desc != b->desc || a->nulls != b->nulls || !a->collation != !b->collation ||
            (a->collation && sq_stricmp(a->collation, b->collation) != 0) || !expr_eq(m, a->expr, b->expr))
            return 0;
    }
    return 1;
}

/* An absent OFFSET is OFFSET 0. */
static int zero(const SqExpr *e) {
    return !e || (e->kind == SQX_LITERAL && e->u.lit.vtype == SQ_VAL_INTEGER && e->u.lit.i == 0);
}

static int same_limit(const Match *m) {
    const IrRel *l = m->f[0]->c.limit, *k = m->f[1]->c.limit;
    if (!l || !k) return !l && !k;
    if (!expr_eq(m, l->u.limit.count, k->u.limit.count)) return 0;
    if (zero(l->u.limit.offset) && zero(k->u.limit.offset)) return 1;
    return expr_eq(m, l->u.limit.offset, k->u.limit.offset);
}

/* ---- where an aggregate of the whole input reads no row ---- */

/* A reference as it reads where the input has no row: an aggregate's
** value on no rows (count 0, total 0.0, the others NULL), anything else
** NULL. */
static void no_rows_column(void *ctx, SqBuf *out, const SqExpr *col) {
    const CnForm *f = ctx;
    const char *v = "NULL";
    if (f->c.agg && col->u.col.rel == f->c.agg->id) {
        const SqAggItem *it = &f->c.agg->u.agg.items[col->u.col.col];
        if (it->kind == SQ_AGG_CALL && strcmp(it->def->name, "count") == 0) v = "0";
        if (it->kind == SQ_AGG_CALL && strcmp(it->def->name, "total") == 0) v = "0.0";
    }
    sq_buf_puts(out, v);
}

/* The visible result columns of both forms, computed by SQLite as they
** read on no rows, are the same values. */
static int same_on_no_rows(Match *m) {
    if (!m->fold) return 0;
    const IrRel *p = m->f[0]->c.project, *q = m->f[1]->c.project;
    IrNaming n0 = {(void *)m->f[0], no_rows_column, NULL, NULL, NULL},
             n1 = {(void *)m->f[1], no_rows_column, NULL, NULL, NULL};
    for (uint32_t i = 0, j = 0;; i++, j++) {
        while (i < p->cols.n && p->cols.items[i].hidden) i++;
        while (j < q->cols.n && q->cols.items[j].hidden) j++;
        if (i == p->cols.n || j == q->cols.n) return 1;
        Folded x, y;
        fold_into(m, p->u.project.exprs.items[i], &n0, &x);
        fold_into(m, q->u.project.exprs.items[j], &n1, &y);
        if (!same_folded(&x, &y)) return 0;
    }
}

static int same_core(Match *m, SqArena *a) {
    const CnForm *f = m->f[0], *g = m->f[1];
    if (cn_distinct_matters(f) != cn_distinct_matters(g)) return 0;
    m->on_no_rows = 0;
    return same_classes(m) && same_set(m, &f->conj, &g->conj) && same_grouping(m, a) && same_results(m) &&
           same_sort(m) && same_limit(m) && (!m->on_no_rows || same_on_no_rows(m));
}

/* ------------------------------------------------------------------ */
/* Mappings                                                            */
/* ------------------------------------------------------------------ */

/* Map the second form's instances from i on; 1 when some mapping makes
** the cores the same. */
static int try_from(Match *m, SqArena *a, uint32_t i) {
    const CnForm *f = m->f[0], *g = m->f[1];
    while (i < g->n_inst && g->inst[i].removed) i++;
    if (i == g->n_inst) {
        if (++m->tries > MAX_MAPPINGS) return 0;
        class_keys(m, 0);
        class_keys(m, 1);
        return same_core(m, a);
    }
    for (uint32_t j = 0; j < f->n_inst; j++) {
        if (m->taken[j] || f->inst[j].removed || f->inst[j].table != g->inst[i].table) continue;
        m->taken[j] = 1;
        m->map[i] = j;
        int ok = try_from(m, a, i + 1);
        m->taken[j] = 0;
        if (ok || m->tries > MAX_MAPPINGS) return ok;
    }
    return 0;
}

static uint32_t live(const CnForm *f) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < f->n_inst; i++) n += !f->inst[i].removed;
    return n;
}

void sq_canon_compare(IrQuery *q1, IrQuery *q2, SqSmtSemantics sem, int typed_values, SqSmtFoldFn fold,
                      void *fold_arg, SqCanonResult *out) {
    memset(out, 0, sizeof *out);
    SqArena *a = sq_arena_new();
    CnForm f, g;
    int built = cn_build(&f, a, q1, sem, typed_values);
    built = cn_build(&g, a, q2, sem, typed_values) && built;
    out->reads_clock = f.reads_clock || g.reads_clock;
    if (!built) {
        out->why = f.why ? f.why : g.why;
    } else if (live(&f) != live(&g)) {
        out->why = "different tables";
    } else {
        Match m = {{&f, &g}, NULL, NULL, {NULL, NULL}, 0, fold, fold_arg, a, NULL, 0, 0, 0};
        m.map = sq_arena_alloc(a, (g.n_inst + 1) * sizeof *m.map);
        m.taken = sq_arena_alloc(a, f.n_inst + 1);
        memset(m.taken, 0, f.n_inst + 1);
        m.key[0] = sq_arena_alloc(a, (f.n_cols + 1) * sizeof *m.key[0]);
        m.key[1] = sq_arena_alloc(a, (g.n_cols + 1) * sizeof *m.key[1]);
        if (try_from(&m, a, 0)) {
            out->verdict = f.ties || g.ties ? SQ_CANON_TIE_FREE : SQ_CANON_SAME;
            out->uncut = f.uncut < g.uncut ? f.uncut : g.uncut;
        }
        else out->why = m.tries > MAX_MAPPINGS ? "too many ways to match the tables" : "different normal forms";
    }
    sq_arena_free(a);
}
