/*
** smt_rel.c -- IR relations as bounded lists of symbolic rows.
**
** Layer: passes.  A relation of n rows is n candidate rows with liveness
** conditions: a filter narrows them, a join pairs every row of one side
** with every row of the other (and adds NULL-filled rows for an outer
** join), an aggregate makes every input row a candidate group that lives
** when it is the first live row of its group.  Sizes multiply, which the
** bound keeps small.  Rows keep the bindings of the relations they came
** through, so a column reference finds its cells by relation id as the IR
** names it.
**
** Row order matters in three places: LIMIT, a scalar subquery's first
** row, and the final result under LIST semantics.  Rows are ordered by the
** ORDER BY keys and, among ties, by index; a tie that decides which rows
** are kept becomes a tie condition (smt_add_tie_condition), so that a
** difference can be checked for not depending on SQLite's tie-breaking.
*/
#include <assert.h>
#include <string.h>

#include "passes/smt/smt_int.h"

/* ---- rows ---------------------------------------------------------------- */

static SmtRow *new_rows(SqSmt *s, uint32_t n) {
    return sq_arena_alloc(s->arena, (n + 1) * sizeof(SmtRow));
}

/* A row with one binding: rel's cells. */
static SmtRow single(SqSmt *s, Z3_ast alive, uint32_t rel, SmtVal *cells, uint32_t n) {
    SmtRow r = {alive, sq_arena_alloc(s->arena, sizeof(SmtBind)), 1};
    r.binds[0] = (SmtBind){rel, cells, n};
    return r;
}

/* The bindings of a and b together. */
static SmtRow concat(SqSmt *s, Z3_ast alive, const SmtRow *a, const SmtRow *b) {
    SmtRow r = {alive, sq_arena_alloc(s->arena, (a->n_binds + b->n_binds + 1) * sizeof(SmtBind)),
                a->n_binds + b->n_binds};
    memcpy(r.binds, a->binds, a->n_binds * sizeof(SmtBind));
    memcpy(r.binds + a->n_binds, b->binds, b->n_binds * sizeof(SmtBind));
    return r;
}

/* A row shaped like model whose cells are all NULL (an outer join's
** missing side). */
static SmtRow null_row(SqSmt *s, const SmtRow *model) {
    SmtRow r = {smt_true(s), sq_arena_alloc(s->arena, (model->n_binds + 1) * sizeof(SmtBind)),
                model->n_binds};
    for (uint32_t i = 0; i < model->n_binds; i++) {
        SmtVal *cells = sq_arena_alloc(s->arena, (model->binds[i].n + 1) * sizeof *cells);
        for (uint32_t c = 0; c < model->binds[i].n; c++) cells[c] = smt_null(s);
        r.binds[i] = (SmtBind){model->binds[i].rel, cells, model->binds[i].n};
    }
    return r;
}

SmtRow smt_row_with(SqSmt *s, const SmtRow *row, uint32_t rel, SmtVal *cells, uint32_t n) {
    SmtRow one = single(s, smt_true(s), rel, cells, n);
    return concat(s, row->alive, row, &one);
}

const SmtBind *smt_out(const SmtRel *r, uint32_t i) {
    const SmtRow *row = &r->rows[i];
    for (uint32_t b = 0; b < row->n_binds; b++)
        if (row->binds[b].rel == r->out) return &row->binds[b];
    return &row->binds[0];
}

Z3_ast smt_same_out(SqSmt *s, const SmtRel *a, uint32_t i, const SmtRel *b, uint32_t j) {
    const SmtBind *x = smt_out(a, i), *y = smt_out(b, j);
    Z3_ast r = smt_true(s);
    for (uint32_t c = 0; c < a->n_cols; c++) r = smt_and2(s, r, smt_same(s, x->cells[c], y->cells[c]));
    return r;
}

/* ---- order ------------------------------------------------------------------ */

/* ORDER BY compares with BINARY, or with NOCASE when the term names it
** (its TEXT values folded to lower case); other collations are not
** modelled.  The term's expression without its COLLATE, and whether it is
** NOCASE. */
static const SqExpr *key_expr(SqSmt *s, const SqSortKey *key, int *nocase) {
    const char *coll;
    const SqExpr *x = smt_strip_collate(key->expr, &coll);
    if (key->collation) coll = key->collation;
    *nocase = coll && sq_stricmp(coll, "nocase") == 0;
    if (coll && !*nocase && sq_stricmp(coll, "binary") != 0)
        smt_unsupported(s, key->expr->span, "ORDER BY ... COLLATE %s", coll);
    return x;
}

static int nulls_last(const SqSortKey *k) {
    if (k->nulls == AST_NULLS_FIRST) return 0;
    if (k->nulls == AST_NULLS_LAST) return 1;
    return k->desc; /* NULL is the smallest value */
}

void smt_sort_values(SqSmt *s, const SqSortKey *keys, uint32_t n_keys, const SmtRow *row, const SmtEnv *env,
                     SmtVal *out) {
    for (uint32_t k = 0; k < n_keys; k++) {
        int nocase;
        out[k] = smt_expr(s, key_expr(s, &keys[k], &nocase), row, env);
        if (nocase && out[k].kind == SMT_TEXT) out[k].v = smt_str_lower(s, out[k].v);
        if (nocase && out[k].kind == SMT_MIX) out[k].str = smt_str_lower(s, out[k].str);
    }
}

Z3_ast smt_keys_lt(SqSmt *s, const SqSortKey *keys, uint32_t n_keys, const SmtVal *a, const SmtVal *b) {
    Z3_ast lt = smt_false(s);
    for (uint32_t k = n_keys; k-- > 0;) {
        Z3_ast lt_k = smt_order_lt(s, a[k], b[k], keys[k].desc, nulls_last(&keys[k]), keys[k].expr->span);
        lt = smt_or2(s, lt_k, smt_and2(s, smt_same(s, a[k], b[k]), lt));
    }
    return lt;
}

Z3_ast smt_keys_tie(SqSmt *s, uint32_t n_keys, const SmtVal *a, const SmtVal *b) {
    Z3_ast tie = smt_true(s);
    for (uint32_t k = 0; k < n_keys; k++) tie = smt_and2(s, tie, smt_same(s, a[k], b[k]));
    return tie;
}

/* Row i's ORDER BY values in a sorted r. */
static const SmtVal *row_keys(const SmtRel *r, uint32_t i) { return r->keys + (size_t)i * r->sort->u.sort.n_keys; }

/* Row i before row j by the ORDER BY keys alone. */
static Z3_ast keys_lt(SqSmt *s, const SmtRel *r, uint32_t i, uint32_t j) {
    return smt_keys_lt(s, r->sort->u.sort.keys, r->sort->u.sort.n_keys, row_keys(r, i), row_keys(r, j));
}

Z3_ast smt_sort_tie(SqSmt *s, const SmtRel *r, uint32_t i, uint32_t j) {
    if (!r->sort) return smt_true(s);
    assert(r->keys); /* smt_positions lowered them */
    return smt_keys_tie(s, r->sort->u.sort.n_keys, row_keys(r, i), row_keys(r, j));
}

/* Every row's ORDER BY values, lowered once, when the order is first
** needed (a sort whose order nothing reads is never lowered). */
static void lower_keys(SqSmt *s, SmtRel *r) {
    if (r->keys || !r->sort) return;
    uint32_t nk = r->sort->u.sort.n_keys;
    r->keys = sq_arena_alloc(s->arena, ((size_t)r->n * nk + 1) * sizeof *r->keys);
    for (uint32_t i = 0; i < r->n; i++)
        smt_sort_values(s, r->sort->u.sort.keys, nk, &r->rows[i], NULL, r->keys + (size_t)i * nk);
}

void smt_positions(SqSmt *s, SmtRel *r) {
    if (r->pos) return;
    lower_keys(s, r);
    r->pos = sq_arena_alloc(s->arena, (r->n + 1) * sizeof *r->pos);
    Z3_ast *before = sq_arena_alloc(s->arena, (r->n + 1) * sizeof *before);
    for (uint32_t i = 0; i < r->n; i++) {
        for (uint32_t j = 0; j < r->n; j++) {
            Z3_ast b = smt_false(s);
            if (j != i) {
                b = j < i ? smt_true(s) : smt_false(s);
                if (r->sort) b = smt_or2(s, keys_lt(s, r, j, i), smt_and2(s, smt_sort_tie(s, r, i, j), b));
            }
            before[j] = smt_and2(s, r->rows[j].alive, b);
        }
        r->pos[i] = smt_count_true(s, before, r->n);
    }
}

/* Rows that tie in r's order and differ in output must not fall on two
** sides of `kept` (NULL: both live rows kept, as in the final result). */
static void tie_conditions(SqSmt *s, const SmtRel *r, const Z3_ast *kept) {
    for (uint32_t i = 0; i < r->n; i++)
        for (uint32_t j = 0; j < r->n; j++) {
            if (i == j || (!kept && j < i)) continue;
            Z3_ast c[5] = {r->rows[i].alive, r->rows[j].alive, smt_sort_tie(s, r, i, j),
                           smt_not(s, smt_same_out(s, r, i, r, j)),
                           kept ? smt_and2(s, kept[i], smt_not(s, kept[j])) : smt_true(s)};
            smt_add_tie_condition(s, smt_not(s, smt_and_n(s, c, 5)));
        }
}

void smt_order_ties(SqSmt *s, const SmtRel *r) { tie_conditions(s, r, NULL); }

/* ---- scans and literal rows ------------------------------------------------------- */

static SmtRel scan(SqSmt *s, IrRel *r) {
    if (r->u.scan.args.n || r->u.scan.tvf) smt_unsupported(s, r->span, "a table-valued function");
    SmtTable *t = smt_table(s, r->u.scan.table);
    SmtRel out = {new_rows(s, t->n), t->n, r->id, t->table->n_cols, NULL, NULL, NULL};
    for (uint32_t i = 0; i < t->n; i++)
        out.rows[i] = single(s, t->rows[i].alive, r->id, t->rows[i].binds[0].cells, t->rows[i].binds[0].n);
    return out;
}

static SmtRel values(SqSmt *s, IrRel *r, const SmtEnv *env) {
    uint32_t n = r->u.values.n_rows;
    SmtRel out = {new_rows(s, n), n, r->id, r->cols.n, NULL, NULL, NULL};
    for (uint32_t i = 0; i < n; i++) {
        const SqExprList *l = &r->u.values.rows[i];
        SmtVal *cells = sq_arena_alloc(s->arena, (l->n + 1) * sizeof *cells);
        for (uint32_t c = 0; c < l->n; c++) cells[c] = smt_expr(s, l->items[c], NULL, env);
        out.rows[i] = single(s, smt_true(s), r->id, cells, l->n);
    }
    return out;
}

/* ---- filter, project, join --------------------------------------------------------- */

static SmtRel filter(SqSmt *s, IrRel *r, const SmtEnv *env) {
    SmtRel in = smt_rel(s, r->input, env);
    SmtRel out = in;
    out.rows = new_rows(s, in.n);
    out.pos = NULL;
    for (uint32_t i = 0; i < in.n; i++) {
        out.rows[i] = in.rows[i];
        Z3_ast c = smt_cond(s, r->u.filter.pred, &in.rows[i], env);
        out.rows[i].alive = smt_and2(s, in.rows[i].alive, c);
    }
    return out;
}

/* The visible columns, which come first. */
static uint32_t visible_cols(SqSmt *s, const IrRel *r) {
    uint32_t n = 0;
    while (n < r->cols.n && !r->cols.items[n].hidden) n++;
    for (uint32_t c = n; c < r->cols.n; c++)
        if (!r->cols.items[c].hidden) smt_unsupported(s, r->span, "a hidden column before a visible one");
    return n;
}

static SmtRel project(SqSmt *s, IrRel *r, const SmtEnv *env) {
    SmtRel in = smt_rel(s, r->input, env);
    const SqExprList *l = &r->u.project.exprs;
    SmtRel out = {new_rows(s, in.n), in.n, r->id, visible_cols(s, r), NULL, NULL, NULL};
    for (uint32_t i = 0; i < in.n; i++) {
        SmtVal *cells = sq_arena_alloc(s->arena, (l->n + 1) * sizeof *cells);
        for (uint32_t c = 0; c < l->n; c++) cells[c] = smt_expr(s, l->items[c], &in.rows[i], env);
        out.rows[i] = single(s, in.rows[i].alive, r->id, cells, l->n);
    }
    return out;
}

static SmtRel join(SqSmt *s, IrRel *r, const SmtEnv *env) {
    SmtRel a = smt_rel(s, r->u.join.left, env), b = smt_rel(s, r->u.join.right, env);
    uint8_t type = r->u.join.type;
    int semi = type == IR_JOIN_SEMI || type == IR_JOIN_ANTI;
    int keep_a = type == IR_JOIN_LEFT || type == IR_JOIN_FULL;
    int keep_b = type == IR_JOIN_RIGHT || type == IR_JOIN_FULL;
    if ((keep_a && !b.n) || (keep_b && !a.n)) smt_unsupported(s, r->span, "an outer join of an empty relation");
    uint32_t cap = semi ? a.n : a.n * b.n + (keep_a ? a.n : 0) + (keep_b ? b.n : 0);
    SmtRel out = {new_rows(s, cap), 0, 0, 0, NULL, NULL, NULL};
    Z3_ast *matched_b = sq_arena_alloc(s->arena, (b.n + 1) * sizeof *matched_b);
    for (uint32_t j = 0; j < b.n; j++) matched_b[j] = smt_false(s);
    for (uint32_t i = 0; i < a.n; i++) {
        Z3_ast matched = smt_false(s);
        for (uint32_t j = 0; j < b.n; j++) {
            SmtRow both = concat(s, smt_true(s), &a.rows[i], &b.rows[j]);
            Z3_ast on = r->u.join.cond ? smt_cond(s, r->u.join.cond, &both, env) : smt_true(s);
            Z3_ast m = smt_and_n(s, (Z3_ast[]){a.rows[i].alive, b.rows[j].alive, on}, 3);
            matched = smt_or2(s, matched, m);
            matched_b[j] = smt_or2(s, matched_b[j], m);
            if (!semi) {
                both.alive = m;
                out.rows[out.n++] = both;
            }
        }
        if (semi) {
            out.rows[out.n] = a.rows[i];
            out.rows[out.n++].alive =
                smt_and2(s, a.rows[i].alive, type == IR_JOIN_SEMI ? matched : smt_not(s, matched));
        } else if (keep_a) {
            SmtRow nb = null_row(s, &b.rows[0]);
            out.rows[out.n++] = concat(s, smt_and2(s, a.rows[i].alive, smt_not(s, matched)), &a.rows[i], &nb);
        }
    }
    for (uint32_t j = 0; keep_b && j < b.n; j++) {
        SmtRow na = null_row(s, &a.rows[0]);
        out.rows[out.n++] = concat(s, smt_and2(s, b.rows[j].alive, smt_not(s, matched_b[j])), &na, &b.rows[j]);
    }
    return out;
}

/* ---- aggregates -------------------------------------------------------------------- */

typedef struct Group {
    SqSmt *s;
    const SmtRel *in;
    const SmtEnv *env;
    Z3_ast *member;  /* row j is in the group (and passes no FILTER yet) */
    Z3_ast **same;   /* same[l][j]: rows l and j are in one group whenever
                        both live; NULL: not known (a window's frame) */
    /* the single MIN or MAX, for bare columns: rows it read, its argument
    ** per row, its result, the row that holds it */
    Z3_ast *ext_use, *ext_from;
    SmtVal *ext_x, ext_best;
} Group;

static const char *call_name(const SqAggItem *it) { return it->def ? it->def->name : ""; }

/* The call's op in smt_funcs.def; -1 when the lowering does not model it. */
static int agg_op(const SqAggItem *it) {
    const SmtFunc *f = it->def ? smt_func_find(it->def->name, F_AGG) : NULL;
    return f ? (int)f->op : -1;
}

static int adds_up(int op) { return op == SMT_FN_SUM || op == SMT_FN_TOTAL || op == SMT_FN_AVG; }

/* What call it reads from each input row, the same in every group: its
** argument (sum, total and avg read TEXT as the number it starts with),
** whether the row passes FILTER with a non-NULL argument, and under
** DISTINCT whether an earlier row of the same group passes with an equal
** argument.  Built on the first group, so n groups cost n, not n * n. */
static void call_input(Group *g, const SqAggItem *it, SmtCallInput *ci) {
    SqSmt *s = g->s;
    uint32_t n = g->in->n;
    if (ci->x) return;
    const char *name = call_name(it);
    int op = agg_op(it);
    int separated = op == SMT_FN_GROUP_CONCAT && it->args.n == 2; /* the separator: concat_of */
    if (!it->star && it->args.n != 1 && !separated)
        smt_unsupported(s, it->span, "the aggregate %s() with %u arguments", name, it->args.n);
    const SqExpr *arg = it->star ? NULL : it->args.items[0];
    ci->x = sq_arena_alloc(s->arena, (n + 1) * sizeof *ci->x);
    ci->pass = sq_arena_alloc(s->arena, (n + 1) * sizeof *ci->pass);
    for (uint32_t j = 0; j < n; j++) {
        const SmtRow *row = &g->in->rows[j];
        SmtVal x = !arg ? smt_null(s)
                   : smt_as_number(s, adds_up(op) ? smt_expr_number(s, arg, row, g->env, SMT_READ_SUM)
                                                    : smt_expr(s, arg, row, g->env));
        if ((x.kind == SMT_TEXT || x.kind == SMT_MIX) && adds_up(op)) x = smt_value_read(s, x, SMT_READ_SUM);
        ci->x[j] = x;
        ci->pass[j] = it->filter ? smt_cond(s, it->filter, row, g->env) : smt_true(s);
        if (arg) ci->pass[j] = smt_and2(s, ci->pass[j], smt_not(s, x.null));
    }
    if (!it->distinct) return;
    if (!g->same) smt_unsupported(s, it->span, "DISTINCT in a window function");
    ci->dup = sq_arena_alloc(s->arena, (n + 1) * sizeof *ci->dup);
    for (uint32_t j = 0; j < n; j++) {
        ci->dup[j] = smt_false(s);
        for (uint32_t l = 0; l < j; l++) {
            Z3_ast c[4] = {g->in->rows[l].alive, ci->pass[l], g->same[l][j], smt_same(s, ci->x[l], ci->x[j])};
            ci->dup[j] = smt_or2(s, ci->dup[j], smt_and_n(s, c, 4));
        }
    }
}

/* The rows the call reads in this group. */
static Z3_ast *call_rows(Group *g, const SmtCallInput *ci) {
    SqSmt *s = g->s;
    Z3_ast *use = sq_arena_alloc(s->arena, (g->in->n + 1) * sizeof *use);
    for (uint32_t j = 0; j < g->in->n; j++) {
        use[j] = smt_and2(s, g->member[j], ci->pass[j]);
        if (ci->dup) use[j] = smt_and2(s, use[j], smt_not(s, ci->dup[j]));
    }
    return use;
}

/* The sum of the rows used: INTEGER, REAL, or (k SMT_NUM) INTEGER when
** every row used is, as SQLite's sum() does. */
static SmtVal sum_of(SqSmt *s, const Z3_ast *use, const SmtVal *x, uint32_t n, SmtKind k) {
    Z3_ast zero = k == SMT_INT ? smt_int(s, 0) : smt_real(s, 0, 1);
    if (k != SMT_INT) s->rounds = 1;
    Z3_ast *terms = sq_arena_alloc(s->arena, (n + 1) * sizeof *terms);
    Z3_ast all_int = smt_true(s);
    for (uint32_t j = 0; j < n; j++) {
        SmtVal v = k == SMT_INT ? smt_as_number(s, x[j]) : smt_to_real(s, x[j]);
        terms[j] = smt_ite(s, use[j], v.v, zero);
        if (k == SMT_NUM) all_int = smt_and2(s, all_int, smt_or2(s, smt_not(s, use[j]), smt_is_integer(s, x[j])));
    }
    smt_count(s, 1);
    Z3_ast sum = n ? Z3_mk_add(s->z, n, terms) : zero;
    return k == SMT_NUM ? smt_num(s, smt_false(s), sum, all_int) : smt_val(s, k, smt_false(s), sum);
}

/* group_concat(x [, sep]): the texts of the rows used, in the order
** SQLite reads them, sep (a constant; ',' by default) between; NULL when
** no row is used.  That order is SQLite's choice: two rows used that
** differ are a tie. */
static SmtVal concat_of(Group *g, const SqAggItem *it, const Z3_ast *use, const SmtVal *x) {
    SqSmt *s = g->s;
    uint32_t n = g->in->n;
    const SqExpr *sep_e = it->args.n == 2 ? it->args.items[1] : NULL;
    if (sep_e && it->distinct) smt_unsupported(s, it->span, "group_concat(DISTINCT ...) with a separator");
    if (sep_e && (sep_e->kind != SQX_LITERAL || sep_e->u.lit.vtype != SQ_VAL_TEXT))
        smt_unsupported(s, it->span, "group_concat() with a separator that is not a string constant");
    Z3_ast sep = sep_e ? smt_str_lit(s, sep_e->u.lit.s, sep_e->u.lit.n) : smt_str_lit(s, ",", 1);
    Z3_ast acc = smt_str_lit(s, "", 0), any = smt_false(s);
    for (uint32_t j = 0; j < n; j++) {
        SmtVal t = smt_text_of(s, x[j]);
        if (t.kind != SMT_TEXT) smt_unsupported(s, it->span, "group_concat() of a value that is not TEXT or a number");
        Z3_ast piece = smt_ite(s, any, smt_str_concat(s, smt_str_concat(s, acc, sep), t.v), t.v);
        acc = smt_ite(s, use[j], piece, acc);
        any = smt_or2(s, any, use[j]);
        for (uint32_t l = 0; l < j; l++) {
            Z3_ast c[3] = {use[l], use[j], smt_not(s, smt_same(s, x[l], x[j]))};
            smt_add_tie_condition(s, smt_not(s, smt_and_n(s, c, 3)));
        }
    }
    return smt_val(s, SMT_TEXT, smt_not(s, any), acc);
}

/* MIN or MAX: the first row holding the extreme (SQLite replaces the
** current one only by a strictly better value). */
static SmtVal extreme(Group *g, Z3_ast *use, SmtVal *x, int is_max, SrcSpan at) {
    SqSmt *s = g->s;
    uint32_t n = g->in->n;
    SmtVal best = smt_null(s);
    Z3_ast *took = sq_arena_alloc(s->arena, (n + 1) * sizeof *took);
    for (uint32_t j = 0; j < n; j++) {
        Z3_ast better = best.kind == SMT_NULL ? smt_true(s)
                        : smt_or2(s, best.null,
                                  smt_order_lt(s, is_max ? best : x[j], is_max ? x[j] : best, 0, 0, at));
        took[j] = smt_and2(s, use[j], better);
        best = smt_val_ite(s, took[j], x[j], best, at);
    }
    /* row j holds the result when it took it and no later row did */
    Z3_ast *from = sq_arena_alloc(s->arena, (n + 1) * sizeof *from);
    for (uint32_t j = 0; j < n; j++) {
        Z3_ast last = took[j];
        for (uint32_t l = j + 1; l < n; l++) last = smt_and2(s, last, smt_not(s, took[l]));
        from[j] = last;
    }
    g->ext_use = use;
    g->ext_from = from;
    g->ext_x = x;
    g->ext_best = best;
    return best;
}

static SmtVal agg_call(Group *g, const SqAggItem *it, SmtCallInput *ci) {
    SqSmt *s = g->s;
    uint32_t n = g->in->n;
    const char *name = call_name(it);
    call_input(g, it, ci);
    SmtVal *x = ci->x;
    Z3_ast *use = call_rows(g, ci);
    Z3_ast cnt = smt_count_true(s, use, n);
    smt_note_count(s, cnt, n);
    int op = agg_op(it);
    if (op == SMT_FN_COUNT) return smt_val(s, SMT_INT, smt_false(s), cnt);
    SmtKind k = n ? (SmtKind)x[0].kind : SMT_INT;
    if (k == SMT_NULL) k = SMT_INT;
    Z3_ast empty = smt_eq(s, cnt, smt_int(s, 0));
    switch (op) {
    case SMT_FN_SUM: return smt_null_if(s, empty, sum_of(s, use, x, n, k == SMT_REAL || k == SMT_NUM ? k : SMT_INT));
    case SMT_FN_TOTAL: return sum_of(s, use, x, n, SMT_REAL);
    case SMT_FN_AVG: {
        SmtVal sum = sum_of(s, use, x, n, SMT_REAL);
        smt_count(s, 2);
        Z3_ast avg = smt_div_count(s, sum.v, cnt, n);
        return smt_val(s, SMT_REAL, empty, avg);
    }
    case SMT_FN_MIN: case SMT_FN_MAX: return extreme(g, use, x, op == SMT_FN_MAX, it->span);
    case SMT_FN_GROUP_CONCAT: return concat_of(g, it, use, x);
    default: smt_unsupported(s, it->span, "the aggregate %s()", name);
    }
}

SmtVal smt_agg_over(SqSmt *s, const SmtRel *in, const SmtEnv *env, Z3_ast *member, const SqAggItem *it,
                    SmtCallInput *ci) {
    Group g = {s, in, env, member, NULL, NULL, NULL, NULL, {0}};
    return agg_call(&g, it, ci);
}

/* A bare column: from the row that holds the single MIN or MAX (minmax),
** else -- and when every argument of that MIN or MAX is NULL -- from some
** row of the group, which SQLite does not specify (it is the last one it
** reads).  Rows that could have been that row with another value are
** ties. */
static SmtVal bare(Group *g, const SqAggItem *it, int minmax) {
    SqSmt *s = g->s;
    uint32_t n = g->in->n;
    SmtVal *x = sq_arena_alloc(s->arena, (n + 1) * sizeof *x);
    SmtVal any = smt_null(s), held = smt_null(s);
    Z3_ast none = minmax ? g->ext_best.null : smt_true(s); /* no row holds an extreme */
    Z3_ast *could = sq_arena_alloc(s->arena, (n + 1) * sizeof *could);
    for (uint32_t j = 0; j < n; j++) {
        x[j] = smt_expr(s, it->expr, &g->in->rows[j], g->env);
        any = smt_val_ite(s, g->member[j], x[j], any, it->span);
        if (minmax) held = smt_val_ite(s, g->ext_from[j], x[j], held, it->span);
        Z3_ast holds = minmax ? smt_and2(s, g->ext_use[j], smt_same(s, g->ext_x[j], g->ext_best)) : smt_false(s);
        could[j] = smt_or2(s, smt_and2(s, none, g->member[j]), holds);
    }
    for (uint32_t j = 0; j < n; j++)
        for (uint32_t l = j + 1; l < n; l++) {
            Z3_ast c[3] = {could[j], could[l], smt_not(s, smt_same(s, x[j], x[l]))};
            smt_add_tie_condition(s, smt_not(s, smt_and_n(s, c, 3)));
        }
    return minmax ? smt_val_ite(s, none, any, held, it->span) : any;
}

/* Row j is in the group row i leads (same keys, both live). */
static Z3_ast same_keys(SqSmt *s, const SmtVal *ki, const SmtVal *kj, uint32_t nk) {
    Z3_ast r = smt_true(s);
    for (uint32_t k = 0; k < nk; k++) r = smt_and2(s, r, smt_same(s, ki[k], kj[k]));
    return r;
}

static SmtRel aggregate(SqSmt *s, IrRel *r, const SmtEnv *env) {
    SmtRel in = smt_rel(s, r->input, env);
    uint32_t n_items = r->u.agg.n_items, nk = 0, n_minmax = 0;
    const SqAggItem *items = r->u.agg.items;
    for (uint32_t t = 0; t < n_items; t++) {
        nk += items[t].kind == SQ_AGG_KEY;
        int op = items[t].kind == SQ_AGG_CALL ? agg_op(&items[t]) : -1;
        n_minmax += op == SMT_FN_MIN || op == SMT_FN_MAX;
    }
    int grouped = r->u.agg.n_keys > 0;
    /* key values per input row */
    SmtVal **keys = sq_arena_alloc(s->arena, (in.n + 1) * sizeof *keys);
    for (uint32_t j = 0; j < in.n; j++) {
        keys[j] = sq_arena_alloc(s->arena, (nk + 1) * sizeof **keys);
        for (uint32_t t = 0, k = 0; t < n_items; t++)
            if (items[t].kind == SQ_AGG_KEY) keys[j][k++] = smt_expr(s, items[t].expr, &in.rows[j], env);
    }
    /* same[l][j]: rows l and j have equal keys (all rows, ungrouped) */
    Z3_ast **same = sq_arena_alloc(s->arena, (in.n + 1) * sizeof *same);
    for (uint32_t l = 0; l < in.n; l++) {
        same[l] = sq_arena_alloc(s->arena, (in.n + 1) * sizeof **same);
        for (uint32_t j = 0; j < in.n; j++)
            same[l][j] = !grouped ? smt_true(s) : same_keys(s, keys[l], keys[j], nk);
    }
    SmtCallInput *ci = sq_arena_alloc(s->arena, (n_items + 1) * sizeof *ci);
    memset(ci, 0, (n_items + 1) * sizeof *ci);
    uint32_t n_groups = grouped ? in.n : 1;
    SmtRel out = {new_rows(s, n_groups), n_groups, r->id, n_items, NULL, NULL, NULL};
    for (uint32_t i = 0; i < n_groups; i++) {
        Group g = {s, &in, env, sq_arena_alloc(s->arena, (in.n + 1) * sizeof(Z3_ast)), same, NULL, NULL, NULL, {0}};
        Z3_ast lead = grouped ? in.rows[i].alive : smt_true(s);
        for (uint32_t j = 0; j < in.n; j++) {
            g.member[j] = smt_and2(s, in.rows[j].alive, same[i][j]);
            if (grouped && j < i) lead = smt_and2(s, lead, smt_not(s, g.member[j]));
        }
        SmtVal *cells = sq_arena_alloc(s->arena, (n_items + 1) * sizeof *cells);
        for (uint32_t t = 0, k = 0; t < n_items; t++) {
            if (items[t].kind == SQ_AGG_KEY) cells[t] = keys[i][k++];
            else if (items[t].kind == SQ_AGG_CALL) cells[t] = agg_call(&g, &items[t], &ci[t]);
        }
        int minmax = n_minmax == 1 && r->u.agg.minmax && g.ext_from;
        for (uint32_t t = 0; t < n_items; t++)
            if (items[t].kind == SQ_AGG_BARE) cells[t] = bare(&g, &items[t], minmax);
        out.rows[i] = single(s, lead, r->id, cells, n_items);
    }
    return out;
}

/* ---- DISTINCT, SORT, LIMIT ------------------------------------------------------------- */

/* Rows i and j agree on their hidden columns (ORDER BY terms outside the
** select list), which come after the visible ones. */
static Z3_ast same_hidden(SqSmt *s, const SmtRel *r, uint32_t i, uint32_t j) {
    const SmtBind *x = smt_out(r, i), *y = smt_out(r, j);
    Z3_ast same = smt_true(s);
    for (uint32_t c = r->n_cols; c < x->n && c < y->n; c++) same = smt_and2(s, same, smt_same(s, x->cells[c], y->cells[c]));
    return same;
}

/* Keep the first live row of each run of equal rows.  Which of equal rows
** is first is the scan order of SQLite's plan, which the model does not
** know: when they differ in a hidden column (SELECT DISTINCT a ... ORDER
** BY b), the sort key the kept row brings is a tie. */
static SmtRel distinct(SqSmt *s, SmtRel in) {
    SmtRel out = in;
    out.rows = new_rows(s, in.n);
    out.pos = NULL;
    int hidden = in.n && smt_out(&in, 0)->n > in.n_cols;
    for (uint32_t i = 0; i < in.n; i++) {
        out.rows[i] = in.rows[i];
        Z3_ast a = in.rows[i].alive;
        for (uint32_t j = 0; j < i; j++) {
            Z3_ast dup = smt_and2(s, in.rows[j].alive, smt_same_out(s, &in, i, &in, j));
            a = smt_and2(s, a, smt_not(s, dup));
            if (hidden)
                smt_add_tie_condition(s, smt_or2(s, smt_not(s, smt_and2(s, in.rows[i].alive, dup)),
                                                 same_hidden(s, &in, i, j)));
        }
        out.rows[i].alive = a;
    }
    return out;
}

static SmtRel limit(SqSmt *s, IrRel *r, const SmtEnv *env) {
    SmtRel in = smt_rel(s, r->input, env);
    int64_t count = -1, offset = 0;
    if (!sq_expr_int_constant(r->u.limit.count, &count) ||
        (r->u.limit.offset && !sq_expr_int_constant(r->u.limit.offset, &offset)))
        smt_unsupported(s, r->span, "a LIMIT or OFFSET that is not an integer constant");
    if (offset < 0) offset = 0;
    smt_positions(s, &in);
    SmtRel out = in;
    out.rows = new_rows(s, in.n);
    out.pos = sq_arena_alloc(s->arena, (in.n + 1) * sizeof *out.pos);
    Z3_ast *kept = sq_arena_alloc(s->arena, (in.n + 1) * sizeof *kept);
    for (uint32_t i = 0; i < in.n; i++) {
        Z3_ast p = in.pos[i];
        smt_count(s, 3);
        Z3_ast k = smt_and2(s, in.rows[i].alive, Z3_mk_ge(s->z, p, smt_int(s, offset)));
        if (count >= 0) k = smt_and2(s, k, Z3_mk_lt(s->z, p, smt_int(s, offset + count)));
        kept[i] = k;
        out.rows[i] = in.rows[i];
        out.rows[i].alive = k;
        out.pos[i] = Z3_mk_sub(s->z, 2, (Z3_ast[]){p, smt_int(s, offset)});
    }
    tie_conditions(s, &in, kept);
    return out;
}

/* ---- compounds and CTEs ----------------------------------------------------------------- */

/* The rows of in under a new id: its output cells only. */
static SmtRel rebind(SqSmt *s, const SmtRel *in, uint32_t id) {
    SmtRel out = {new_rows(s, in->n), in->n, id, in->n_cols, NULL, NULL, NULL};
    for (uint32_t i = 0; i < in->n; i++) {
        const SmtBind *b = smt_out(in, i);
        out.rows[i] = single(s, in->rows[i].alive, id, b->cells, b->n);
    }
    return out;
}

static SmtRel setop(SqSmt *s, IrRel *r, const SmtEnv *env) {
    SmtRel a = rebind(s, (SmtRel[]){smt_rel(s, r->u.setop.left, env)}, r->id);
    SmtRel b = rebind(s, (SmtRel[]){smt_rel(s, r->u.setop.right, env)}, r->id);
    if (a.n_cols != b.n_cols) smt_unsupported(s, r->span, "a compound of different widths");
    uint8_t op = r->u.setop.op;
    if (op == AST_SET_UNION_ALL || op == AST_SET_UNION) {
        SmtRel out = {new_rows(s, a.n + b.n), a.n + b.n, r->id, a.n_cols, NULL, NULL, NULL};
        memcpy(out.rows, a.rows, a.n * sizeof *a.rows);
        memcpy(out.rows + a.n, b.rows, b.n * sizeof *b.rows);
        return op == AST_SET_UNION ? distinct(s, out) : out;
    }
    SmtRel out = distinct(s, a);
    for (uint32_t i = 0; i < a.n; i++) {
        Z3_ast in_b = smt_false(s);
        for (uint32_t j = 0; j < b.n; j++)
            in_b = smt_or2(s, in_b, smt_and2(s, b.rows[j].alive, smt_same_out(s, &a, i, &b, j)));
        out.rows[i].alive = smt_and2(s, out.rows[i].alive, op == AST_SET_INTERSECT ? in_b : smt_not(s, in_b));
    }
    return out;
}

static SmtRel cteref(SqSmt *s, IrRel *r) {
    const IrCte *cte = r->u.cteref.cte;
    if (!cte || cte->recursive) smt_unsupported(s, r->span, "a recursive common table expression");
    for (uint32_t i = 0; i < s->n_ctes; i++)
        if (s->ctes[i].cte == cte) return rebind(s, &s->ctes[i].rel, r->id);
    SmtRel body = smt_rel(s, cte->body, NULL);
    struct SmtCteRel *c = SQ_ARENA_APPEND(s->arena, s->ctes, s->n_ctes, s->cap_ctes);
    c->cte = cte;
    c->rel = body;
    return rebind(s, &body, r->id);
}

SmtRel smt_rel(SqSmt *s, IrRel *r, const SmtEnv *env) {
    /* the fixture holds tables only, so a query that reads a view could
    ** not run on it */
    if ((r->flags & IRF_VIEW) && r->view) smt_unsupported(s, r->span, "the view %s", r->view->name);
    switch ((IrRelKind)r->kind) {
    case IR_SCAN: return scan(s, r);
    case IR_VALUES: return values(s, r, env);
    case IR_FILTER: return filter(s, r, env);
    case IR_PROJECT: return project(s, r, env);
    case IR_JOIN: return join(s, r, env);
    case IR_AGGREGATE: return aggregate(s, r, env);
    case IR_DISTINCT: return distinct(s, smt_rel(s, r->input, env));
    case IR_SORT: {
        SmtRel out = smt_rel(s, r->input, env);
        out.sort = r;
        out.pos = NULL;
        out.keys = NULL;
        return out;
    }
    case IR_LIMIT: return limit(s, r, env);
    case IR_SETOP: return setop(s, r, env);
    case IR_CTEREF: return cteref(s, r);
    case IR_WINDOW: return smt_window(s, r, smt_rel(s, r->input, env), env);
    default: smt_unsupported(s, r->span, "this operator");
    }
}
