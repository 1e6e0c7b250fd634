/*
** bind_select.c -- binding query blocks, in SQLite's clause order.
**
** Layer: frontend.  A SELECT core is bound as resolveSelectStep() resolves
** it: FROM (bind_from.c); the result list, where aggregates and window
** functions are allowed; then the block is an aggregate if it has GROUP
** BY or an aggregate in its result list; HAVING; WHERE and the ON
** conditions, where result-set aliases become usable; ORDER BY and GROUP
** BY, which may not see outer queries.  After that the aggregation is
** assembled: GROUP BY terms become keys, and columns used after grouping
** that are not keys become "bare" columns (SQLite takes them from some row
** of the group).  Compounds and VALUES lists follow SQLite's checks.
**
** Call tree:  sq_bind_stmt -> bind_query -> bind_term -> bind_core
**                                 -> bind_from, bind_results, bind_clauses,
**                                    bind_order_group, finish_aggregate
**                        -> check_pending
*/
#include <stdio.h>
#include <string.h>

#include "frontend/bind_int.h"

/* ------------------------------------------------------------------ */
/* Blocks                                                              */
/* ------------------------------------------------------------------ */

static BndSelect *new_select(Binder *b, const AstSelect *ast, AstSelectKind kind) {
    BndSelect *sel = sq_arena_alloc(b->arena, sizeof *sel);
    sel->kind = (uint8_t)kind;
    sel->ast = ast;
    sel->span = ast->span;
    sel->result_id = bind_new_id(b);
    sel->agg_id = bind_new_id(b);
    sel->win_id = bind_new_id(b);
    bind_register_owner(b, sel->agg_id, sel);
    return sel;
}

static SqExpr *bind_in(Binder *b, Scope *s, Clause cl, const AstExpr *e) {
    Clause saved = b->cur_clause;
    s->clause = cl;
    b->cur_clause = cl;
    SqExpr *x = bind_expr(b, s, e);
    b->cur_clause = saved;
    return x;
}

/* The same for a clause that needs one value (WHERE, LIMIT, a sort key). */
static SqExpr *bind_scalar_in(Binder *b, Scope *s, Clause cl, const AstExpr *e) {
    SqExpr *x = bind_in(b, s, cl, e);
    return x && bind_need_scalar(b, x) ? x : NULL;
}

static void add_result(Binder *b, BndSelect *sel, SqExpr *e, const char *name,
                       int is_alias, int hidden) {
    sq_expr_list_add(b->arena, &sel->results, e);
    SqColumn *c = SQ_ARENA_PUSH(b->arena, &sel->cols);
    c->name = name;
    c->key = sq_intern_cstr(b->names, name);
    c->type = e->type;
    c->is_alias = (uint8_t)is_alias;
    c->hidden = (uint8_t)hidden;
    c->table_col = -2;
    if (e->kind == SQX_COLUMN && !(e->flags & (SQXF_AGG_REF | SQXF_WIN_REF))) {
        c->type.aff = e->type.aff;
    }
}

/* ------------------------------------------------------------------ */
/* Result list                                                         */
/* ------------------------------------------------------------------ */

static const AstExpr *skip_collate(const AstExpr *e) {
    while (e->kind == AE_COLLATE) e = e->u.collate.x;
    return e;
}

/* SQLite's name for a result column, from the text as written (it names
** subquery columns before it resolves them): the alias, else the
** right-most name of a column reference under any COLLATE, else the
** expression's text. */
const char *bind_result_name(Binder *b, const ResultItem *r) {
    if (r->alias) return r->alias;
    if (!r->ast) return "?";
    const AstExpr *e = skip_collate(r->ast);
    if (e->kind == AE_COLUMN) return e->u.col.column.text;
    return bind_span_text(b, r->span);
}

static int bind_results(Binder *b, Scope *s, BndSelect *sel, ResultItem *items, uint32_t n) {
    for (uint32_t i = 0; i < n; i++) {
        items[i].bound = bind_in(b, s, CL_RESULT, items[i].ast);
        if (!items[i].bound) return 0;
        if (bind_vector_size(items[i].bound) != 1) {
            SqExpr *x = items[i].bound;
            if (x->kind == SQX_SUBQUERY)
                bind_error(b, SQ_E_SUBQUERY_COLS, x->span, "sub-select returns %d columns - expected 1",
                           bind_vector_size(x));
            else
                bind_error(b, SQ_E_ROW_VALUE, x->span, "row value misused");
            return 0;
        }
    }
    SQ_ARENA_RESERVE(b->arena, &sel->results, n);
    SQ_ARENA_RESERVE(b->arena, &sel->cols, n);
    for (uint32_t i = 0; i < n; i++)
        add_result(b, sel, items[i].bound, bind_result_name(b, &items[i]), items[i].alias != NULL, 0);
    return 1;
}

/* ------------------------------------------------------------------ */
/* ORDER BY and GROUP BY                                               */
/* ------------------------------------------------------------------ */

static const char *ordinal(int n, char *buf, size_t cap) {
    const char *suf = (n % 100 >= 11 && n % 100 <= 13) ? "th"
                    : n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" : n % 10 == 3 ? "rd" : "th";
    snprintf(buf, cap, "%d%s", n, suf);
    return buf;
}

static void out_of_range(Binder *b, const char *what, int i, uint32_t n, SrcSpan at) {
    char ord[16];
    bind_error(b, SQ_E_TERM_RANGE, at, "%s %s BY term out of range - should be between 1 and %u",
               ordinal(i, ord, sizeof ord), what, n);
}

static int alias_index(const ResultItem *items, uint32_t n, const AstExpr *e) {
    if (e->kind != AE_COLUMN || ast_name_present(ast_col_table(e))) return -1;
    for (uint32_t i = 0; i < n; i++)
        if (items[i].alias && items[i].alias_key == e->u.col.column.key) return (int)i;
    return -1;
}

static const char *term_collation(const AstExpr *e) {
    return e->kind == AE_COLLATE ? e->u.collate.name.text : NULL;
}

static SqExpr *result_ref(Binder *b, BndSelect *sel, uint32_t i, SrcSpan at) {
    SqExpr *r = sq_expr_new(b->arena, SQX_COLUMN, at, sel->cols.items[i].type);
    r->u.col.rel = sel->result_id;
    r->u.col.col = i;
    r->flags |= SQXF_RESULT_REF;
    return r;
}

static int add_sort_key(Binder *b, BndSelect *sel, uint32_t idx, const AstOrderTerm *t) {
    SqSortKey *key = SQ_ARENA_APPEND(b->arena, sel->order, sel->n_order, sel->cap_order);
    key->expr = result_ref(b, sel, idx, t->span);
    key->desc = t->dir == AST_SORT_DESC;
    key->nulls = t->nulls;
    key->collation = term_collation(t->expr);
    if (key->collation && !bind_known_collation(key->collation)) {
        bind_error(b, SQ_E_NO_COLLATION, t->expr->span, "no such collation sequence: %s",
                   key->collation);
        return 0;
    }
    const SqExprList *res = sel->kind == AST_SEL_VALUES ? NULL : &sel->results;
    return key->collation || !res || idx >= res->n || bind_check_collation(b, res->items[idx]);
}

/* What a trial binding added to a block, so that it can be undone. */
typedef struct Mark {
    uint32_t n_aggs, n_wins, n_pending;
} Mark;

static Mark mark(Binder *b, const BndSelect *sel) {
    Mark m = {sel ? sel->n_aggs : 0, sel ? sel->n_wins : 0, b->n_pending};
    return m;
}

static void undo(Binder *b, BndSelect *sel, Mark m) {
    if (sel) {
        sel->n_aggs = m.n_aggs;
        sel->n_wins = m.n_wins;
    }
    b->n_pending = m.n_pending;
}

/* ORDER BY term of a SELECT core (SQLite's resolveOrderGroupBy): an AS
** alias, a column number, or an expression; an expression equal to a
** result column sorts by it, any other becomes a hidden result column. */
static int bind_order_term(Binder *b, Scope *s, BndSelect *sel, ResultItem *items,
                           uint32_t n, const AstOrderTerm *t, int pos) {
    const AstExpr *e = skip_collate(t->expr);
    int64_t k;
    int idx = alias_index(items, n, e);
    if (idx < 0 && bind_ast_int32(e, &k)) {
        if (k < 1 || k > (int64_t)n) {
            out_of_range(b, "ORDER", pos, n, t->expr->span);
            return 0;
        }
        idx = (int)(k - 1);
    }
    if (idx < 0) {
        Mark m = mark(b, sel);
        SqExpr *x = bind_scalar_in(b, s, CL_ORDER, e);
        if (!x) return 0;
        for (uint32_t j = 0; j < n; j++)
            if (bind_expr_same(b, x, sel->results.items[j])) idx = (int)j;
        if (idx >= 0) {
            undo(b, sel, m); /* the result column computes it already */
        } else {
            add_result(b, sel, x, bind_span_text(b, e->span), 0, 1);
            idx = (int)sel->results.n - 1;
        }
    }
    return add_sort_key(b, sel, (uint32_t)idx, t);
}

static int has_own_agg_cb(SqExpr *e, void *arg) {
    const BndSelect *sel = arg;
    return e->kind == SQX_COLUMN && (e->flags & SQXF_AGG_REF) && e->u.col.rel == sel->agg_id;
}

typedef struct OwnAgg {
    const BndSelect *sel;
    const SqExpr *found;
} OwnAgg;

static int find_own_agg_cb(SqExpr *e, void *arg) {
    OwnAgg *o = arg;
    if (!has_own_agg_cb(e, (void *)o->sel)) return 0;
    o->found = e;
    return 1;
}

/* GROUP BY may not hold an aggregate of its own block.  SQLite says so
** when the term itself computes one (written there, or the whole term is
** a result column or alias that does); an aggregate that only comes in
** through an alias inside a larger term fails later, as a misuse. */
static int check_group_agg(Binder *b, BndSelect *sel, const AstExpr *t, SqExpr *x,
                           int whole_copy, uint32_t calls_before) {
    OwnAgg o = {sel, NULL};
    if (!bind_walk_deep(x, find_own_agg_cb, &o)) return 1;
    if (b->n_agg_calls > calls_before || whole_copy) { /* a call written here */
        bind_error(b, SQ_E_GROUP_AGG, t->span,
                   "aggregate functions are not allowed in the GROUP BY clause");
    } else {
        bind_error(b, SQ_E_MISUSE_AGG, o.found->span, "misuse of aggregate: %s()",
                   sel->aggs[o.found->u.col.col].name);
    }
    return 0;
}

/* GROUP BY term: a column number or an expression (aliases allowed, as a
** fallback for names no FROM item has). */
static int bind_group_term(Binder *b, Scope *s, BndSelect *sel, ResultItem *items,
                           uint32_t n, const AstExpr *t, int pos) {
    const AstExpr *e = skip_collate(t);
    int64_t k;
    SqExpr *x;
    uint32_t before = b->n_agg_calls;
    int whole_copy = 0;
    if (bind_ast_int32(e, &k)) {
        if (k < 1 || k > (int64_t)n) {
            out_of_range(b, "GROUP", pos, n, t->span);
            return 0;
        }
        x = bind_expr_copy(b, items[k - 1].bound, CL_GROUP);
        whole_copy = 1;
        const char *coll = term_collation(t);
        if (coll && !bind_known_collation(coll)) {
            bind_error(b, SQ_E_NO_COLLATION, t->span, "no such collation sequence: %s", coll);
            return 0;
        }
    } else {
        x = bind_scalar_in(b, s, CL_GROUP, t);
        if (!x) return 0;
        whole_copy = t->kind == AE_COLUMN && !(x->kind == SQX_COLUMN && bind_scope_of(s, x->u.col.rel));
    }
    if (!bind_check_collation(b, x) || !check_group_agg(b, sel, t, x, whole_copy, before)) return 0;
    SqAggItem *key = SQ_ARENA_APPEND(b->arena, sel->aggs, sel->n_aggs, sel->cap_aggs);
    key->kind = SQ_AGG_KEY;
    key->expr = x;
    key->type = x->type;
    key->span = t->span;
    sel->n_keys++;
    return 1;
}

/* ------------------------------------------------------------------ */
/* LIMIT, ON conditions                                                */
/* ------------------------------------------------------------------ */

/* LIMIT and OFFSET see no columns at all, not even outer ones. */
static int bind_limit(Binder *b, BndSelect *sel, const AstSelect *ast) {
    Scope s;
    memset(&s, 0, sizeof s);
    if (ast->limit && !(sel->limit = bind_scalar_in(b, &s, CL_LIMIT, ast->limit))) return 0;
    if (ast->offset && !(sel->offset = bind_scalar_in(b, &s, CL_LIMIT, ast->offset))) return 0;
    if (ast->flags & AST_SELF_LIMIT_COMMA) sel->flags |= BSEL_LIMIT_COMMA;
    return 1;
}

typedef struct RightRef {
    const BndSelect *sel;
    uint32_t after; /* sources past this index are "to the right" */
} RightRef;

static int right_ref_cb(SqExpr *e, void *arg) {
    const RightRef *r = arg;
    if (e->kind != SQX_COLUMN) return 0;
    for (uint32_t i = r->after + 1; i < r->sel->n_sources; i++)
        if (r->sel->sources[i].id == e->u.col.rel) return 1;
    return 0;
}

/* SQLite's planner refuses an outer join's ON that reads a table joined
** later, and any such ON once the FROM has a RIGHT or FULL JOIN. */
static int check_on_order(Binder *b, BndSelect *sel) {
    int any_right = 0;
    for (uint32_t i = 0; i < sel->n_sources; i++) any_right |= (sel->sources[i].join & AST_JT_RIGHT) != 0;
    for (uint32_t i = 0; i < sel->n_sources; i++) {
        BndSource *src = &sel->sources[i];
        int outer = (src->join & (AST_JT_LEFT | AST_JT_RIGHT)) != 0;
        RightRef r = {sel, i};
        if (src->on && (outer || any_right) && bind_walk_deep(src->on, right_ref_cb, &r)) {
            bind_error(b, SQ_E_BIND_OTHER, src->on->span, "ON clause references tables to its right");
            return 0;
        }
    }
    return 1;
}

/* HAVING, WHERE and the ON conditions, in SQLite's order; result-set
** aliases are usable in all three. */
static int bind_conditions(Binder *b, Scope *s, BndSelect *sel, const AstSelect *ast) {
    if (ast->having) {
        if (!(sel->flags & BSEL_AGGREGATE)) {
            bind_error(b, SQ_E_HAVING, ast->having->span, "HAVING clause on a non-aggregate query");
            return 0;
        }
        if (!(sel->having = bind_scalar_in(b, s, CL_HAVING, ast->having))) return 0;
    }
    if (ast->where && !(sel->where = bind_scalar_in(b, s, CL_WHERE, ast->where))) return 0;
    for (uint32_t i = 0; i < sel->n_sources; i++) {
        BndSource *src = &sel->sources[i];
        if (src->on_ast && !(src->on = bind_scalar_in(b, s, CL_WHERE, src->on_ast))) return 0;
    }
    for (uint32_t i = 0; i < sel->n_sources; i++) { /* json_each(t.doc): after WHERE */
        BndSource *src = &sel->sources[i];
        for (uint32_t k = 0; src->args_ast && k < src->args_ast->n; k++) {
            SqExpr *x = bind_scalar_in(b, s, CL_WHERE, src->args_ast->items[k]);
            if (!x) return 0;
            sq_expr_list_add(b->arena, &src->args, x);
        }
    }
    return check_on_order(b, sel);
}

/* ------------------------------------------------------------------ */
/* SELECT core                                                         */
/* ------------------------------------------------------------------ */

static int bind_core_from(Binder *b, BndSelect *sel, const AstSelect *ast, Scope *outer,
                          int recursive) {
    BndSelect *saved_term = b->recursive_term;
    int saved_used = b->recursive_used;
    if (recursive) {
        b->recursive_term = sel;
        b->recursive_used = 0;
    }
    int ok = bind_from(b, sel, ast, outer);
    b->recursive_term = saved_term;
    b->recursive_used = saved_used;
    return ok;
}

static int bind_order_group(Binder *b, Scope *block, BndSelect *sel, const AstSelect *ast,
                            ResultItem *items, uint32_t n) {
    Scope s = *block; /* ORDER BY and GROUP BY cannot see outer queries */
    s.outer = NULL;
    s.flags |= SC_ALLOW_AGG | SC_ALLOW_WIN;
    for (uint32_t i = 0; i < ast->order_by.n; i++)
        if (!bind_order_term(b, &s, sel, items, n, &ast->order_by.items[i], (int)i + 1)) return 0;
    s.flags &= ~SC_ALLOW_WIN;
    for (uint32_t i = 0; i < ast->group_by.n; i++)
        if (!bind_group_term(b, &s, sel, items, n, ast->group_by.items[i], (int)i + 1)) return 0;
    return 1;
}

static int check_recursive_term(Binder *b, const BndSelect *sel) {
    if (sel->flags & BSEL_AGGREGATE) {
        bind_error(b, SQ_E_CTE, sel->span, "recursive aggregate queries not supported");
        return 0;
    }
    if (sel->n_wins) {
        bind_error(b, SQ_E_CTE, sel->span, "cannot use window functions in recursive queries");
        return 0;
    }
    return 1;
}

static BndSelect *bind_core(Binder *b, const AstSelect *ast, Scope *outer, int recursive) {
    BndSelect *sel = new_select(b, ast, AST_SEL_CORE);
    if (ast->flags & AST_SELF_DISTINCT) sel->flags |= BSEL_DISTINCT;
    if (!bind_window_defs(b, sel, ast) || !bind_limit(b, sel, ast) ||
        !bind_core_from(b, sel, ast, outer, recursive))
        return NULL;
    ResultItem *items;
    uint32_t n;
    if (!bind_expand_results(b, sel, ast, &items, &n)) return NULL;
    Scope s;
    memset(&s, 0, sizeof s);
    s.outer = outer;
    s.sel = sel;
    s.flags = SC_ALLOW_AGG | SC_ALLOW_WIN;
    if (!bind_results(b, &s, sel, items, n)) return NULL;
    s.flags &= ~SC_ALLOW_WIN;
    if (ast->group_by.n || (s.flags & SC_HAS_AGG)) {
        sel->flags |= BSEL_AGGREGATE;
        if (s.flags & SC_MINMAX) sel->flags |= BSEL_MINMAX_AGG;
    } else {
        s.flags &= ~SC_ALLOW_AGG;
    }
    s.flags |= SC_UELIST;
    s.results = items;
    s.n_results = n;
    if (!bind_conditions(b, &s, sel, ast) || !bind_order_group(b, &s, sel, ast, items, n))
        return NULL;
    if (recursive && !check_recursive_term(b, sel)) return NULL;
    for (uint32_t i = 0; (sel->flags & BSEL_DISTINCT) && i < n; i++)
        if (!bind_check_collation(b, sel->results.items[i])) return NULL;
    if ((sel->flags & BSEL_AGGREGATE) && !bind_finish_aggregate(b, sel)) return NULL;
    return sel;
}

/* ------------------------------------------------------------------ */
/* VALUES and compounds                                                */
/* ------------------------------------------------------------------ */

static int values_mismatch(Binder *b, SrcSpan at) {
    bind_error(b, SQ_E_COMPOUND_COLS, at, "all VALUES must have the same number of terms");
    return 0;
}

static BndSelect *bind_values(Binder *b, const AstSelect *ast, Scope *outer) {
    BndSelect *sel = new_select(b, ast, AST_SEL_VALUES);
    Scope s;
    memset(&s, 0, sizeof s);
    s.outer = outer;
    sel->rows = sq_arena_reserve32(b->arena, sel->rows, sel->n_rows, &sel->cap_rows, ast->n_rows,
                                   sizeof *sel->rows);
    for (uint32_t r = 0; r < ast->n_rows; r++) {
        const AstExprList *vals = &ast->rows[r].values;
        if (r > 0 && vals->n != ast->rows[0].values.n) {
            values_mismatch(b, ast->rows[r].span);
            return NULL;
        }
        SqExprList *row = SQ_ARENA_APPEND(b->arena, sel->rows, sel->n_rows, sel->cap_rows);
        SQ_ARENA_RESERVE(b->arena, row, vals->n);
        for (uint32_t i = 0; i < vals->n; i++) {
            SqExpr *x = bind_in(b, &s, CL_RESULT, vals->items[i]);
            if (!x) return NULL;
            if (bind_vector_size(x) != 1) {
                bind_error(b, SQ_E_ROW_VALUE, x->span, "row value misused");
                return NULL;
            }
            sq_expr_list_add(b->arena, row, x);
        }
    }
    for (uint32_t i = 0; sel->n_rows && i < sel->rows[0].n; i++) {
        SqColumn *c = SQ_ARENA_PUSH(b->arena, &sel->cols);
        c->name = sq_arena_printf(b->arena, "column%u", i + 1);
        c->key = sq_intern_cstr(b->names, c->name);
        c->table_col = -2;
        c->type = sel->rows[0].items[i]->type;
        for (uint32_t r = 1; r < sel->n_rows; r++) {
            const SqType *t = &sel->rows[r].items[i]->type;
            c->type.cls = (uint8_t)sq_class_union((SqTypeClass)c->type.cls, (SqTypeClass)t->cls);
            c->type.nullable |= t->nullable;
        }
    }
    return sel;
}

BndSelect *bind_term(Binder *b, const AstSelect *ast, Scope *outer, int recursive) {
    if (ast->kind == AST_SEL_VALUES) return bind_values(b, ast, outer);
    return bind_core(b, ast, outer, recursive);
}

static uint32_t visible_cols(const BndSelect *q) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < q->cols.n; i++) n += !q->cols.items[i].hidden;
    return n;
}


BndSelect *bind_compound(Binder *b, BndSelect *l, BndSelect *r, uint8_t op, SrcSpan at) {
    uint32_t n = visible_cols(l);
    if (visible_cols(r) != n) {
        if (r->kind == AST_SEL_VALUES) {
            values_mismatch(b, r->span);
            return NULL;
        }
        bind_error(b, SQ_E_COMPOUND_COLS, at,
                   "SELECTs to the left and right of %s do not have the same number of result columns",
                   ast_set_op_sql((AstSetOp)op));
        return NULL;
    }
    BndSelect *q = sq_arena_alloc(b->arena, sizeof *q);
    q->kind = AST_SEL_COMPOUND;
    q->op = op;
    q->span = sq_span_join(l->span, r->span);
    q->left = l;
    q->right = r;
    q->result_id = bind_new_id(b);
    q->agg_id = bind_new_id(b);
    q->win_id = bind_new_id(b);
    if (op != AST_SET_UNION_ALL && !bind_check_compound_collation(b, q, n)) return NULL;
    for (uint32_t i = 0; i < n; i++) {
        SqColumn *c = SQ_ARENA_PUSH(b->arena, &q->cols);
        *c = l->cols.items[i];
        const SqType *t = &r->cols.items[i].type;
        c->type.cls = (uint8_t)sq_class_union((SqTypeClass)c->type.cls, (SqTypeClass)t->cls);
        c->type.nullable |= t->nullable;
        if (c->table != r->cols.items[i].table || c->table_col != r->cols.items[i].table_col) {
            c->table = NULL;
            c->table_col = -2;
        }
    }
    return q;
}

/* ------------------------------------------------------------------ */
/* ORDER BY after a compound (SQLite's resolveCompoundOrderBy)          */
/* ------------------------------------------------------------------ */

static uint32_t leaf_terms(BndSelect *q, BndSelect **out, uint32_t max) {
    if (q->kind != AST_SEL_COMPOUND) {
        out[0] = q;
        return 1;
    }
    uint32_t n = leaf_terms(q->left, out, max);
    return n < max ? n + leaf_terms(q->right, out + n, max - n) : n;
}

/* The term's result expressions (VALUES: its first row). */
static const SqExprList *term_exprs(const BndSelect *t) {
    return t->kind == AST_SEL_VALUES ? (t->n_rows ? &t->rows[0] : NULL) : &t->results;
}

/* Bind e in the term's own scope, quietly, and find the result column it
** equals: the term's aliases are usable, outer queries are not. */
static int match_in_term(Binder *b, BndSelect *t, const AstExpr *e) {
    const SqExprList *res = term_exprs(t);
    if (!res) return -1;
    uint32_t n = visible_cols(t);
    ResultItem *items = sq_arena_alloc(b->arena, (n ? n : 1) * sizeof *items);
    for (uint32_t i = 0; i < n; i++) {
        if (t->cols.items[i].is_alias) {
            items[i].alias = t->cols.items[i].name;
            items[i].alias_key = t->cols.items[i].key;
        }
        items[i].bound = res->items[i];
    }
    Scope s;
    memset(&s, 0, sizeof s);
    s.sel = t->kind == AST_SEL_CORE ? t : NULL;
    s.flags = SC_ALLOW_AGG | SC_UELIST;
    s.results = items;
    s.n_results = n;
    Mark m = mark(b, s.sel);
    int saved_quiet = b->quiet;
    b->quiet = 1;
    SqExpr *x = bind_in(b, &s, CL_ORDER, e);
    b->quiet = saved_quiet;
    b->failed = 0;
    int found = -1;
    for (uint32_t i = 0; x && i < n && found < 0; i++)
        if (bind_expr_same(b, res->items[i], x)) found = (int)i;
    undo(b, s.sel, m);
    return found;
}

static int compound_order_term(Binder *b, BndSelect *q, BndSelect **terms, uint32_t n_terms,
                               const AstOrderTerm *t, int pos) {
    const AstExpr *e = skip_collate(t->expr);
    uint32_t n = visible_cols(q);
    int64_t k;
    int idx = -1;
    if (bind_ast_int32(e, &k)) {
        if (k < 1 || k > (int64_t)n) {
            out_of_range(b, "ORDER", pos, n, e->span);
            return 0;
        }
        idx = (int)(k - 1);
    }
    for (uint32_t i = 0; i < n_terms && idx < 0; i++) {
        const BndSelect *term = terms[i];
        if (e->kind == AE_COLUMN && !ast_name_present(ast_col_table(e)))
            for (uint32_t j = 0; j < n && idx < 0; j++)
                if (term->cols.items[j].is_alias && term->cols.items[j].key == e->u.col.column.key)
                    idx = (int)j;
        if (idx < 0) idx = match_in_term(b, terms[i], e);
    }
    if (idx < 0) {
        char ord[16];
        bind_error(b, SQ_E_TERM_MATCH, t->expr->span,
                   "%s ORDER BY term does not match any column in the result set",
                   ordinal(pos, ord, sizeof ord));
        return 0;
    }
    return add_sort_key(b, q, (uint32_t)idx, t);
}

int bind_tail(Binder *b, BndSelect *q, const AstSelect *ast) {
    if (!bind_limit(b, q, ast)) return 0;
    if (!ast->order_by.n) return 1;
    BndSelect *terms[512];
    uint32_t n_terms = leaf_terms(q, terms, 512);
    for (uint32_t i = 0; i < ast->order_by.n; i++)
        if (!compound_order_term(b, q, terms, n_terms, &ast->order_by.items[i], (int)i + 1))
            return 0;
    return 1;
}

/* ------------------------------------------------------------------ */
/* Queries and statements                                              */
/* ------------------------------------------------------------------ */

static BndSelect *bind_chain(Binder *b, const AstSelect *ast, Scope *outer) {
    if (ast->kind != AST_SEL_COMPOUND) return bind_term(b, ast, outer, 0);
    BndSelect *l = bind_chain(b, ast->left, outer);
    BndSelect *r = l ? bind_term(b, ast->right, outer, 0) : NULL;
    return r ? bind_compound(b, l, r, ast->op, ast->right->span) : NULL;
}

BndSelect *bind_query(Binder *b, const AstSelect *ast, Scope *outer) {
    WithScope ws;
    BndWith *with = NULL;
    WithScope *saved = b->with;
    if (ast->with) {
        if (!bind_with(b, &with, ast->with)) return NULL;
        ws.outer = b->with;
        ws.with = with;
        ws.ast = ast->with;
        ws.bound = 0;
        b->with = &ws;
    }
    BndSelect *q = bind_chain(b, ast, outer);
    if (q && ast->kind != AST_SEL_CORE && !bind_tail(b, q, ast)) q = NULL;
    b->with = saved;
    if (q) q->with = with;
    return q;
}

BndStmt *sq_bind_stmt(SqArena *arena, const Catalog *cat, SqInterner *names,
                      SqDiags *diags, const AstStmt *stmt, const SqBindOptions *opt) {
    static const SqBindOptions defaults;
    Binder b;
    memset(&b, 0, sizeof b);
    b.arena = arena;
    b.cat = cat;
    b.names = names;
    b.diags = diags;
    b.opt = opt ? opt : &defaults;
    b.next_id = 1;
    BndStmt *out = sq_arena_alloc(arena, sizeof *out);
    out->ast = stmt;
    if (stmt->kind == AST_STMT_SELECT) out->select = bind_query(&b, stmt->u.select, NULL);
    if (!b.failed) bind_check_pending(&b);
    out->n_ids = b.next_id;
    return b.failed ? NULL : out;
}
