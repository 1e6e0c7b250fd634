/*
** bind_func.c -- function calls: scalar, aggregate and window functions.
**
** Layer: frontend.  SQLite checks a call in this order, and so does
** bind_function(): OVER on a function that cannot be a window function;
** an aggregate or window function where the clause does not allow one (or
** a window-only function without OVER); an unknown name; a wrong number of
** arguments; FILTER on a scalar function.  An aggregate call belongs to
** the innermost query block whose FROM items its arguments use (or the
** current block when they use none); it becomes an output of that block's
** aggregation, and whether it was allowed there is settled once the block
** knows whether it is an aggregate query (PendingAgg).
*/
#include <string.h>

#include "frontend/bind_int.h"

/* ------------------------------------------------------------------ */
/* Result types                                                        */
/* ------------------------------------------------------------------ */

static int is_number_class(SqTypeClass c) {
    return c == SQ_TY_INTEGER || c == SQ_TY_REAL || c == SQ_TY_NUMERIC || c == SQ_TY_NULL;
}

/* abs(), floor(), ...: integers stay integers, everything else turns real. */
static SqTypeClass argnum_class(SqTypeClass a) {
    switch (a) {
    case SQ_TY_INTEGER: return SQ_TY_INTEGER;
    case SQ_TY_NULL: return SQ_TY_NULL;
    case SQ_TY_NUMERIC: case SQ_TY_ANY: return SQ_TY_NUMERIC;
    default: return SQ_TY_REAL;
    }
}

static SqTypeClass result_class(const SqFuncDef *def, const SqExprList *args) {
    SqTypeClass a0 = args->n ? (SqTypeClass)args->items[0]->type.cls : SQ_TY_ANY;
    SqTypeClass c;
    switch ((SqFuncResult)def->result) {
    case R_INT: return SQ_TY_INTEGER;
    case R_REAL: return SQ_TY_REAL;
    case R_TEXT: return SQ_TY_TEXT;
    case R_BLOB: return SQ_TY_BLOB;
    case R_ANY: return SQ_TY_ANY;
    case R_ARG: return a0;
    case R_ARGNUM: return argnum_class(a0);
    case R_FLOOR:
        return a0 == SQ_TY_INTEGER || a0 == SQ_TY_REAL || a0 == SQ_TY_NULL ? a0 : SQ_TY_NUMERIC;
    case R_SUM:
        return a0 == SQ_TY_INTEGER ? SQ_TY_INTEGER : a0 == SQ_TY_REAL ? SQ_TY_REAL : SQ_TY_NUMERIC;
    case R_LAG:
        return args->n == 3 ? sq_class_union(a0, (SqTypeClass)args->items[2]->type.cls) : a0;
    case R_COMMON:
    case R_IIF:
        c = SQ_TY_NULL;
        for (uint32_t i = def->result == R_IIF ? 1 : 0; i < args->n; i++)
            c = sq_class_union(c, (SqTypeClass)args->items[i]->type.cls);
        return c;
    }
    return SQ_TY_ANY;
}

static SqType func_type(const SqFuncDef *def, const SqExprList *args) {
    int any_null = 0, all_null = args->n > 0, non_number = 0;
    for (uint32_t i = 0; i < args->n; i++) {
        any_null |= args->items[i]->type.nullable;
        all_null &= args->items[i]->type.nullable;
        non_number |= !is_number_class((SqTypeClass)args->items[i]->type.cls);
    }
    int nul = def->nulls == N_NEVER ? 0 : def->nulls == N_ALWAYS ? 1
            : def->nulls == N_COALESCE ? all_null
            : def->nulls == N_NUMERIC ? any_null || non_number : any_null;
    return sq_type(result_class(def, args), SQ_AFF_BLOB, nul);
}

/* ------------------------------------------------------------------ */
/* Which block owns an aggregate                                       */
/* ------------------------------------------------------------------ */

typedef struct OwnerSearch {
    Scope *from;    /* where the call is */
    Scope *owner;   /* innermost scope referenced so far */
    int depth;      /* its distance from 'from' */
} OwnerSearch;

static int depth_of(Scope *from, Scope *target) {
    int d = 0;
    for (Scope *s = from; s; s = s->outer, d++)
        if (s == target) return d;
    return -1;
}

static int owner_cb(SqExpr *e, void *arg) {
    OwnerSearch *o = arg;
    if (e->kind != SQX_COLUMN) return 0;
    Scope *sc = bind_scope_of(o->from, e->u.col.rel);
    if (!sc) return 0;
    int d = depth_of(o->from, sc);
    if (!o->owner || d < o->depth) {
        o->owner = sc;
        o->depth = d;
    }
    return 0;
}

static Scope *agg_owner(Scope *s, const SqExprList *args, SqExpr *filter) {
    OwnerSearch o = {s, NULL, 0};
    for (uint32_t i = 0; i < args->n; i++) bind_walk_deep(args->items[i], owner_cb, &o);
    if (filter) bind_walk_deep(filter, owner_cb, &o);
    return o.owner ? o.owner : s;
}

/* ------------------------------------------------------------------ */
/* Checks                                                              */
/* ------------------------------------------------------------------ */

static const char *func_name(const AstExpr *e) { return e->u.func.name.text; }

/* SQLite's first three complaints about a call; returns 0 after one. */
static int check_call(Binder *b, Scope *s, const AstExpr *e, const SqFuncDef *def,
                      int exists, int has_over) {
    int is_agg = def && def->kind != F_SCALAR;
    /* with the wrong arity SQLite still finds the name, and complains
    ** about OVER on a scalar function first */
    int scalar = def ? def->kind == F_SCALAR : exists && sq_func_has_kind(func_name(e), F_SCALAR);
    if (scalar && has_over) {
        bind_error(b, SQ_E_MISUSE_WINDOW, e->span,
                   "%s() may not be used as a window function", func_name(e));
        return 0;
    }
    if ((is_agg && !(s->flags & SC_ALLOW_AGG)) ||
        (is_agg && def->kind == F_WINDOW && !has_over) ||
        (is_agg && has_over && !(s->flags & SC_ALLOW_WIN))) {
        int window = def->kind == F_WINDOW || has_over;
        SqDiag *g = bind_error(b, window ? SQ_E_MISUSE_WINDOW : SQ_E_MISUSE_AGG, e->span,
                               "misuse of %s function %s()", window ? "window" : "aggregate",
                               func_name(e));
        if (g && !window && s->clause == CL_WHERE)
            sq_diag_help(g, "WHERE filters rows before they are grouped; a condition on an "
                            "aggregate belongs in HAVING");
        return 0;
    }
    if (!def && !exists) {
        SqDiag *g = bind_error(b, SQ_E_NO_FUNCTION, e->u.func.name.span,
                               "no such function: %s", func_name(e));
        size_t n;
        const SqFuncDef *all = sq_func_all(&n);
        const char *cands[256];
        size_t k = 0;
        for (size_t i = 0; i < n && k < 256; i++)
            if (!(all[i].flags & FL_SPECIAL)) cands[k++] = all[i].name;
        bind_suggest(g, func_name(e), cands, k);
        return 0;
    }
    if (!def) {
        char arity[32];
        sq_func_arity_text(func_name(e), arity, sizeof arity);
        SqDiag *g = bind_error(b, SQ_E_ARITY, e->span,
                               "wrong number of arguments to function %s()", func_name(e));
        if (g) sq_diag_help(g, "%s() takes %s argument%s", func_name(e), arity,
                            strcmp(arity, "1") == 0 ? "" : "s");
        return 0;
    }
    if (!is_agg && e->u.func.filter) {
        bind_error(b, SQ_E_MISUSE_AGG, e->span,
                   "FILTER may not be used with non-aggregate %s()", func_name(e));
        return 0;
    }
    return 1;
}

/* likelihood(X, P): P must be a constant between 0.0 and 1.0. */
static int check_likelihood(Binder *b, const AstExpr *e, const SqExprList *args) {
    const SqExpr *p = args->items[1];
    double v = -1;
    if (p->kind == SQX_LITERAL && p->u.lit.vtype == SQ_VAL_REAL) v = p->u.lit.r;
    if (v < 0.0 || v > 1.0) {
        bind_error(b, SQ_E_BIND_OTHER, e->span,
                   "second argument to %s() must be a constant between 0.0 and 1.0",
                   func_name(e));
        return 0;
    }
    return 1;
}

/* ------------------------------------------------------------------ */
/* Aggregates                                                          */
/* ------------------------------------------------------------------ */

static int is_min_max(const SqFuncDef *def) {
    return strcmp(def->name, "min") == 0 || strcmp(def->name, "max") == 0;
}

static SqExpr *make_agg(Binder *b, Scope *s, const AstExpr *e, const SqFuncDef *def,
                        SqExprList *args, SqExpr *filter) {
    Scope *owner = agg_owner(s, args, filter);
    BndSelect *sel = owner->sel;
    if (!sel) { /* an aggregate in LIMIT: no block to own it */
        bind_error(b, SQ_E_MISUSE_AGG, e->span, "misuse of aggregate: %s()", func_name(e));
        return NULL;
    }
    owner->flags |= SC_HAS_AGG;
    if (is_min_max(def)) owner->flags |= SC_MINMAX;
    b->n_agg_calls++;
    SqAggItem *it = SQ_ARENA_APPEND(b->arena, sel->aggs, sel->n_aggs, sel->cap_aggs);
    it->kind = SQ_AGG_CALL;
    it->def = def;
    it->name = func_name(e);
    it->args = *args;
    it->filter = filter;
    it->distinct = (e->flags & AEF_DISTINCT) != 0;
    it->star = (e->flags & AEF_STAR) != 0;
    it->span = e->span;
    it->type = func_type(def, args);
    bind_pending_agg(b, sel, owner->clause, func_name(e), e->span, it->distinct, args->n);
    if (owner != s) bind_count_ref(s, owner);
    SqType type = it->type;
    int same = bind_agg_find(b, sel, it, sel->n_aggs - 1);
    if (same >= 0) sel->n_aggs--; /* computed once for every use */
    SqExpr *ref = sq_expr_new(b->arena, SQX_COLUMN, e->span, type);
    ref->u.col.rel = sel->agg_id;
    ref->u.col.col = same >= 0 ? (uint32_t)same : sel->n_aggs - 1;
    ref->flags |= SQXF_AGG_REF;
    return ref;
}

/* ------------------------------------------------------------------ */
/* Window functions                                                    */
/* ------------------------------------------------------------------ */

/* A window specification once its base is applied (SQLite's Window after
** sqlite3WindowChain): where its PARTITION BY, ORDER BY and frame come
** from. */
struct BndWinDef {
    const SqName *key;           /* definition name (WINDOW clause), or NULL */
    const AstExprList *partition;
    const AstOrderList *order;
    const AstWindow *frame;      /* the specification holding the frame */
    const char *name;            /* the named window used, for output */
};

/* SQLite refuses a frame whose start comes after its end while parsing. */
static int check_frame(Binder *b, const AstWindow *w) {
    uint8_t st = w->start.kind, en = (w->flags & AWF_BETWEEN) ? w->end.kind : AST_BOUND_CURRENT_ROW;
    if (w->unit == AST_FRAME_NONE) return 1;
    if ((st == AST_BOUND_CURRENT_ROW && en == AST_BOUND_PRECEDING) ||
        (st == AST_BOUND_FOLLOWING && (en == AST_BOUND_PRECEDING || en == AST_BOUND_CURRENT_ROW))) {
        bind_error(b, SQ_E_NO_WINDOW, w->span, "unsupported frame specification");
        return 0;
    }
    return 1;
}

/* The definition named key, the newest of defs[0..n) first. */
static const BndWinDef *find_def(Binder *b, const BndWinDef *defs, uint32_t n,
                                 const AstName *name) {
    for (uint32_t j = n; j-- > 0;)
        if (defs[j].key == name->key) return &defs[j];
    bind_error(b, SQ_E_NO_WINDOW, name->span, "no such window: %s", name->text);
    return NULL;
}

/* w built on base (sqlite3WindowChain): it may add ORDER BY if the base
** has none and a frame if the base has none, never PARTITION BY. */
static int chain(Binder *b, const AstWindow *w, const BndWinDef *base, BndWinDef *out) {
    const char *what = w->partition.n ? "PARTITION clause"
                     : (base->order->n && w->order.n) ? "ORDER BY clause"
                     : base->frame->unit != AST_FRAME_NONE ? "frame specification" : NULL;
    if (what) {
        bind_error(b, SQ_E_NO_WINDOW, w->span, "cannot override %s of window: %s", what,
                   w->base.text);
        return 0;
    }
    out->partition = base->partition;
    out->order = w->order.n ? &w->order : base->order;
    out->frame = w;
    out->name = w->base.text;
    return 1;
}

static void own_spec(const AstWindow *w, BndWinDef *out) {
    out->partition = &w->partition;
    out->order = &w->order;
    out->frame = w;
    out->name = NULL;
}

/* The WINDOW clause, as SQLite's parser builds it: each definition after
** the first is chained to an earlier one when it names a base (the first
** one's base is never looked at), whether or not anything uses it. */
int bind_window_defs(Binder *b, BndSelect *sel, const AstSelect *ast) {
    uint32_t n = ast->windows.n;
    BndWinDef *defs = sq_arena_alloc(b->arena, (n ? n : 1) * sizeof *defs);
    for (uint32_t i = 0; i < n; i++) {
        const AstWindow *w = ast->windows.items[i];
        if (!check_frame(b, w)) return 0;
        own_spec(w, &defs[i]);
        if (i > 0 && ast_name_present(&w->base)) {
            const BndWinDef *base = find_def(b, defs, i, &w->base);
            if (!base || !chain(b, w, base, &defs[i])) return 0;
        }
        defs[i].key = w->name.key;
    }
    sel->win_defs = defs;
    sel->n_win_defs = n;
    return 1;
}

/* What OVER refers to (sqlite3WindowUpdate): a named window as it is, or
** a specification, possibly built on a named window. */
static int effective(Binder *b, const BndSelect *sel, const AstWindow *over, BndWinDef *out) {
    const BndWinDef *defs = sel ? sel->win_defs : NULL;
    uint32_t n = sel ? sel->n_win_defs : 0;
    if (over->flags & AWF_NAME_ONLY) {
        const BndWinDef *d = find_def(b, defs, n, &over->base);
        if (!d) return 0;
        *out = *d;
        out->name = over->base.text;
        return 1;
    }
    if (!check_frame(b, over)) return 0;
    own_spec(over, out);
    if (!ast_name_present(&over->base)) return 1;
    const BndWinDef *base = find_def(b, defs, n, &over->base);
    return base && chain(b, over, base, out);
}

static int bind_sort_keys(Binder *b, Scope *s, const AstOrderList *l, SqSortKey **out,
                          uint32_t *n) {
    *out = sq_arena_alloc(b->arena, (l->n ? l->n : 1) * sizeof **out);
    *n = l->n;
    for (uint32_t i = 0; i < l->n; i++) {
        SqExpr *k = bind_expr(b, s, l->items[i].expr);
        if (!k || !bind_need_scalar(b, k) || !bind_check_collation(b, k)) return 0;
        (*out)[i].expr = k;
        (*out)[i].desc = l->items[i].dir == AST_SORT_DESC;
        (*out)[i].nulls = l->items[i].nulls;
    }
    return 1;
}

/* Whether a frame offset is a constant to SQLite's parser (which turns
** any other offset into NULL without resolving it). */
static int constant_offset(const AstExpr *e) {
    switch ((AstExprKind)e->kind) {
    case AE_NULL: case AE_INTEGER: case AE_FLOAT: case AE_STRING: case AE_BLOB: case AE_PARAM:
        return 1;
    case AE_COLUMN:
        return !ast_name_present(ast_col_table(e)) && e->u.col.column.quote == AST_Q_NONE &&
               (sq_stricmp(e->u.col.column.text, "true") == 0 ||
                sq_stricmp(e->u.col.column.text, "false") == 0);
    case AE_UNARY: return constant_offset(e->u.bin.l);
    case AE_BINARY: case AE_IS:
        return constant_offset(e->u.bin.l) && constant_offset(e->u.bin.r);
    case AE_CAST: return constant_offset(e->u.cast.x);
    case AE_COLLATE: return constant_offset(e->u.collate.x);
    case AE_VECTOR:
        for (uint32_t i = 0; i < e->u.vec.items.n; i++)
            if (!constant_offset(e->u.vec.items.items[i])) return 0;
        return 1;
    default: return 0;
    }
}

static SqExpr *bind_offset(Binder *b, Scope *s, const AstExpr *e) {
    if (!constant_offset(e)) {
        SqExpr *x = sq_expr_new(b->arena, SQX_LITERAL, e->span, sq_type(SQ_TY_NULL, SQ_AFF_BLOB, 1));
        x->u.lit.vtype = SQ_VAL_NULL;
        return x;
    }
    SqExpr *x = bind_expr(b, s, e);
    if (x && bind_vector_size(x) != 1) {
        bind_error(b, SQ_E_ROW_VALUE, x->span, "row value misused");
        return NULL;
    }
    return x;
}

static int bind_frame(Binder *b, Scope *s, const AstWindow *w, SqWinFrame *f) {
    f->unit = w->unit;
    f->exclude = w->exclude;
    f->has_between = (w->flags & AWF_BETWEEN) != 0;
    f->start_kind = w->start.kind;
    f->end_kind = w->end.kind;
    if (w->start.expr && !(f->start = bind_offset(b, s, w->start.expr))) return 0;
    if (w->end.expr && !(f->end = bind_offset(b, s, w->end.expr))) return 0;
    return 1;
}

static int resolve_window(Binder *b, Scope *s, const AstExpr *e, const SqFuncDef *def,
                          SqWinCall *wc) {
    BndWinDef ew;
    if (!effective(b, s->sel, e->u.func.over, &ew)) return 0;
    const AstWindow *f = ew.frame;
    if (f->unit == AST_FRAME_RANGE && (f->start.expr || f->end.expr) && ew.order->n != 1) {
        bind_error(b, SQ_E_NO_WINDOW, f->span,
                   "RANGE with offset PRECEDING/FOLLOWING requires one ORDER BY expression");
        return 0;
    }
    if (def->kind == F_WINDOW && e->u.func.filter) {
        bind_error(b, SQ_E_MISUSE_WINDOW, e->span,
                   "FILTER clause may only be used with aggregate window functions");
        return 0;
    }
    wc->window_name = ew.name;
    uint32_t saved = s->flags;
    s->flags &= ~SC_ALLOW_WIN; /* no window function inside a window */
    int ok = 1;
    for (uint32_t i = 0; ok && i < ew.partition->n; i++) {
        SqExpr *p = bind_expr(b, s, ew.partition->items[i]);
        ok = p && bind_need_scalar(b, p) && bind_check_collation(b, p);
        if (ok) sq_expr_list_add(b->arena, &wc->partition, p);
    }
    ok = ok && bind_sort_keys(b, s, ew.order, &wc->order, &wc->n_order) &&
         bind_frame(b, s, f, &wc->frame);
    s->flags = (s->flags & (SC_HAS_AGG | SC_MINMAX)) | saved;
    return ok;
}

static SqExpr *make_window(Binder *b, Scope *s, const AstExpr *e, const SqFuncDef *def,
                           SqExprList *args, SqExpr *filter) {
    BndSelect *sel = s->sel;
    SqWinCall wc;
    memset(&wc, 0, sizeof wc);
    wc.def = def;
    wc.name = func_name(e);
    wc.star = (e->flags & AEF_STAR) != 0;
    wc.args = *args;
    wc.filter = filter;
    wc.span = e->span;
    wc.type = func_type(def, args);
    if (!resolve_window(b, s, e, def, &wc)) return NULL;
    *SQ_ARENA_APPEND(b->arena, sel->wins, sel->n_wins, sel->cap_wins) = wc;
    SqExpr *ref = sq_expr_new(b->arena, SQX_COLUMN, e->span, wc.type);
    ref->u.col.rel = sel->win_id;
    ref->u.col.col = sel->n_wins - 1;
    ref->flags |= SQXF_WIN_REF;
    return ref;
}

/* ------------------------------------------------------------------ */
/* Calls                                                               */
/* ------------------------------------------------------------------ */

static int bind_args(Binder *b, Scope *s, const AstExpr *e, SqExprList *args,
                     SqExpr **filter) {
    SQ_ARENA_RESERVE(b->arena, args, args->n + e->u.func.args.n);
    for (uint32_t i = 0; i < e->u.func.args.n; i++) {
        SqExpr *a = bind_expr(b, s, e->u.func.args.items[i]);
        if (!a) return 0;
        if (bind_vector_size(a) != 1) {
            bind_error(b, SQ_E_ROW_VALUE, a->span, "row value misused");
            return 0;
        }
        sq_expr_list_add(b->arena, args, a);
    }
    if (e->u.func.filter && !(*filter = bind_expr(b, s, e->u.func.filter))) return 0;
    return 1;
}

SqExpr *bind_function(Binder *b, Scope *s, const AstExpr *e) {
    int n = (int)e->u.func.args.n, exists = 0;
    const SqFuncDef *def = sq_func_resolve(func_name(e), n, &exists);
    int has_over = e->u.func.over != NULL;
    if (!check_call(b, s, e, def, exists, has_over)) return NULL;
    int is_agg = def->kind != F_SCALAR;
    uint32_t saved = s->flags;
    if (is_agg) s->flags &= ~(SC_ALLOW_WIN | (has_over ? 0 : SC_ALLOW_AGG));
    SqExprList args = {0};
    SqExpr *filter = NULL;
    int ok = bind_args(b, s, e, &args, &filter);
    s->flags = (s->flags & (SC_HAS_AGG | SC_MINMAX)) | saved;
    if (!ok) return NULL;
    if ((def->flags & FL_LIKELIHOOD) && !check_likelihood(b, e, &args)) return NULL;
    if (is_min_max(def) || (is_agg && (e->flags & AEF_DISTINCT)))
        for (uint32_t i = 0; i < args.n; i++)
            if (!bind_check_collation(b, args.items[i])) return NULL;
    if (is_agg && has_over) return make_window(b, s, e, def, &args, filter);
    if (is_agg) return make_agg(b, s, e, def, &args, filter);
    SqExpr *x = sq_expr_new(b->arena, SQX_FUNC, e->span, func_type(def, &args));
    if (e->flags & AEF_PAREN) x->flags |= SQXF_PAREN;
    if (e->flags & AEF_DISTINCT) x->flags |= SQXF_DISTINCT;
    x->u.func.def = def;
    x->u.func.name = func_name(e);
    x->u.func.args = args;
    return x;
}
