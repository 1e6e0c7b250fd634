/*
** ast_select.c -- constructors for SELECT, FROM, WITH and window clauses.
**
** Layer: grammar.  Also the checks SQLite makes while parsing a SELECT:
** ORDER BY/LIMIT only on the last term of a compound, at most 500 terms,
** valid join keywords, and no ON/USING on the first FROM item.
*/
#include <string.h>

#include "grammar/parse_int.h"

static AstSelect *select_new(ParseCtx *ctx, AstSelectKind kind, SqLoc loc) {
    AstSelect *s = sq_arena_alloc(ctx->arena, sizeof *s);
    s->kind = (uint8_t)kind;
    s->span = ast_span(ctx, loc);
    return s;
}

/* ------------------------------------------------------------------ */
/* SELECT cores, VALUES, compounds                                     */
/* ------------------------------------------------------------------ */

AstSelect *ast_select_core(ParseCtx *ctx, int distinct, AstResultList *cols,
                           AstFrom *from, AstExpr *where, AstExprList *group,
                           AstExpr *having, AstWindowList *windows,
                           AstOrderList *order, AstLimit limit, SqLoc loc) {
    AstSelect *s = select_new(ctx, AST_SEL_CORE, loc);
    s->flags = (uint16_t)distinct;
    if (cols) s->cols = *cols;
    s->from = from;
    s->where = where;
    if (group) s->group_by = *group;
    s->having = having;
    if (windows) s->windows = *windows;
    if (order) s->order_by = *order;
    s->limit = limit.count;
    s->offset = limit.offset;
    if (limit.count) s->limit_span = ast_span(ctx, limit.loc);
    if (limit.comma) s->flags |= AST_SELF_LIMIT_COMMA;
    return s;
}

AstSelect *ast_values(ParseCtx *ctx, AstSelect *prev, AstExprList *row,
                      SqLoc loc) {
    AstSelect *s = prev ? prev : select_new(ctx, AST_SEL_VALUES, loc);
    AstValuesRow *r = SQ_ARENA_APPEND(ctx->arena, s->rows, s->n_rows, s->cap_rows);
    r->values = *row;
    r->span = ast_span(ctx, loc);
    s->span.end = loc.end;
    return s;
}

AstSelect *ast_compound(ParseCtx *ctx, int op, AstSelect *left,
                        AstSelect *right, SqLoc loc) {
    AstSelect *s = select_new(ctx, AST_SEL_COMPOUND, loc);
    s->op = (uint8_t)op;
    s->left = left;
    s->right = right;
    return s;
}


/* An ORDER BY or LIMIT on a term that is followed by op; the caret goes
** on the ORDER or LIMIT keyword. */
static int misplaced_clause(ParseCtx *ctx, const AstSelect *term, int op) {
    if (term->order_by.n == 0 && !term->limit) return 0;
    const char *what = term->order_by.n ? "ORDER BY" : "LIMIT";
    SrcSpan at = term->order_by.n ? term->order_by.span : term->limit_span;
    at.end = at.start + 5; /* "ORDER" or "LIMIT" */
    SqDiag *g = ast_error(ctx, SQ_E_COMPOUND_ORDER, ast_loc(at),
                          "%s clause should come after %s not before", what,
                          ast_set_op_sql((AstSetOp)op));
    if (g) sq_diag_help(g, "in a compound SELECT, ORDER BY and LIMIT apply to "
                           "the whole result and follow its last term");
    return 1;
}

/* Check a finished compound the way SQLite does (from the last term back
** to the first) and move the last term's ORDER BY and LIMIT up to the
** compound, which is what they apply to. */
AstSelect *ast_select_finish(ParseCtx *ctx, AstSelect *sel) {
    if (sel->kind != AST_SEL_COMPOUND) return sel;
    AstSelect *last = sel->right;
    sel->order_by = last->order_by;
    sel->limit = last->limit;
    sel->offset = last->offset;
    sel->limit_span = last->limit_span;
    sel->flags |= last->flags & AST_SELF_LIMIT_COMMA;
    memset(&last->order_by, 0, sizeof last->order_by);
    last->limit = last->offset = NULL;
    int terms = 1;
    for (AstSelect *c = sel; c->kind == AST_SEL_COMPOUND; c = c->left) {
        AstSelect *prior = c->left->kind == AST_SEL_COMPOUND ? c->left->right
                                                             : c->left;
        terms++;
        if (misplaced_clause(ctx, prior, c->op)) break;
    }
    if (terms > SQ_MAX_COMPOUND_SELECT)
        ast_error(ctx, SQ_E_COMPOUND_MAX, ast_loc(sel->span),
                  "too many terms in compound SELECT (%d; SQLite allows %d)",
                  terms, SQ_MAX_COMPOUND_SELECT);
    return sel;
}

AstSelect *ast_select_with(ParseCtx *ctx, AstSelect *sel, AstWith *with,
                           int recursive, SqLoc loc) {
    sel = ast_select_finish(ctx, sel);
    sel->with = ast_with_finish(with, recursive, loc);
    sel->span.start = loc.start;
    return sel;
}

/* ------------------------------------------------------------------ */
/* Result columns                                                      */
/* ------------------------------------------------------------------ */

static AstResultCol *result_push(ParseCtx *ctx, AstResultList **list) {
    AstResultList *l = *list;
    if (!l) *list = l = sq_arena_alloc(ctx->arena, sizeof *l);
    return SQ_ARENA_PUSH(ctx->arena, l);
}

AstResultList *ast_result_expr(ParseCtx *ctx, AstResultList *list,
                               AstExpr *e, AstName *alias, SqLoc loc) {
    AstResultCol *c = result_push(ctx, &list);
    c->kind = AST_RC_EXPR;
    c->expr = e;
    c->alias = *alias;
    c->has_as = (alias->flags & AST_NAMEF_AS) != 0;
    c->span = ast_span(ctx, loc);
    c->span.start = e->span.start;
    return list;
}

AstResultList *ast_result_star(ParseCtx *ctx, AstResultList *list,
                               AstName *table, SqLoc loc) {
    AstResultCol *c = result_push(ctx, &list);
    c->kind = table ? AST_RC_TABLE_STAR : AST_RC_STAR;
    if (table) {
        c->table = *table;
        loc.start = table->span.start;
    }
    c->span = ast_span(ctx, loc);
    return list;
}

/* ------------------------------------------------------------------ */
/* FROM                                                                */
/* ------------------------------------------------------------------ */

/* The join operator read after an item is kept in 'pending' on the list
** until the next item arrives and takes it. */
typedef struct FromBuild {
    AstFrom from;
    uint8_t pending_join;
    SrcSpan pending_span;
} FromBuild;

AstFrom *ast_from_join(ParseCtx *ctx, AstFrom *from, int jointype, SqLoc loc) {
    FromBuild *b = (FromBuild *)from;
    b->pending_join = (uint8_t)jointype;
    b->pending_span = ast_span(ctx, loc);
    return from;
}

/* SQLite 3.40: "a JOIN clause is required before ON/USING" when the first
** item of a FROM list has a join constraint. */
static AstFrom *from_append(ParseCtx *ctx, AstFrom *prefix, AstFromItem *it,
                            AstOnUsing *ou) {
    FromBuild *b = (FromBuild *)prefix;
    if (!b) {
        b = sq_arena_alloc(ctx->arena, sizeof *b);
        if (ou->on || ou->using) {
            SqLoc at = {ou->loc.start, ou->loc.start + (ou->on ? 2 : 5)};
            SqDiag *g = ast_error(ctx, SQ_E_JOIN_REQUIRED, at,
                                  "a JOIN clause is required before %s",
                                  ou->on ? "ON" : "USING");
            if (g) sq_diag_help(g, "only a joined table can have ON or USING");
        }
    } else {
        it->join = b->pending_join;
        it->join_span = b->pending_span;
        b->pending_join = 0;
    }
    it->on = ou->on;
    if (ou->using) {
        it->using = *ou->using;
        it->flags |= AST_FROMF_USING;
    }
    AstFrom *f = &b->from;
    *SQ_ARENA_PUSH(ctx->arena, f) = it;
    return f;
}

static AstFromItem *item_new(ParseCtx *ctx, AstFromKind kind, AstName *alias,
                             SqLoc loc) {
    AstFromItem *it = sq_arena_alloc(ctx->arena, sizeof *it);
    it->kind = (uint8_t)kind;
    it->span = ast_span(ctx, loc);
    if (alias && ast_name_present(alias)) {
        it->alias = *alias;
        if (alias->flags & AST_NAMEF_AS) it->flags |= AST_FROMF_HAS_AS;
    }
    return it;
}

/* A FROM item's own span starts after the join operator that precedes it;
** loc covers the whole seltablist rule, so trim it to the item start. */
static SqLoc item_loc(SqLoc loc, SrcSpan first) {
    loc.start = first.start;
    return loc;
}

AstFrom *ast_from_table(ParseCtx *ctx, AstFrom *prefix, AstName *nm,
                        AstName *dbnm, AstName *alias, AstName *indexed,
                        AstExprList *args, AstOnUsing *ou, SqLoc loc) {
    AstFromItem *it = item_new(ctx, AST_FROM_TABLE, alias, item_loc(loc, nm->span));
    if (ast_name_present(dbnm)) {
        it->schema = *nm;
        it->name = *dbnm;
    } else {
        it->name = *nm;
    }
    if (indexed) {
        if (indexed->flags & AST_NAMEF_NOT_INDEXED) it->flags |= AST_FROMF_NOT_INDEXED;
        else {
            it->flags |= AST_FROMF_INDEXED_BY;
            it->index = *indexed;
        }
    }
    if (args) {
        it->flags |= AST_FROMF_TVF;
        it->args = *args;
    }
    return from_append(ctx, prefix, it, ou);
}

AstFrom *ast_from_subquery(ParseCtx *ctx, AstFrom *prefix, AstSelect *sel,
                           AstName *alias, AstOnUsing *ou, SqLoc lp, SqLoc loc) {
    AstFromItem *it = item_new(ctx, AST_FROM_SUBQUERY, alias, loc);
    it->span.start = lp.start;
    it->select = sel;
    return from_append(ctx, prefix, it, ou);
}

AstFrom *ast_from_nested(ParseCtx *ctx, AstFrom *prefix, AstFrom *inner,
                         AstName *alias, AstOnUsing *ou, SqLoc lp, SqLoc loc) {
    AstFromItem *it = item_new(ctx, AST_FROM_NESTED, alias, loc);
    it->span.start = lp.start;
    it->nested = inner;
    return from_append(ctx, prefix, it, ou);
}

/* Mirror of SQLite's sqlite3JoinType(): up to three keywords from
** NATURAL LEFT OUTER RIGHT FULL INNER CROSS, with INNER/CROSS not mixed
** with OUTER and OUTER only beside LEFT, RIGHT or FULL. */
static const struct {
    const char *word;
    int flags;
} join_words[] = {
    {"natural", AST_JT_NATURAL},
    {"left", AST_JT_LEFT | AST_JT_OUTER},
    {"outer", AST_JT_OUTER},
    {"right", AST_JT_RIGHT | AST_JT_OUTER},
    {"full", AST_JT_LEFT | AST_JT_RIGHT | AST_JT_OUTER},
    {"inner", AST_JT_INNER},
    {"cross", AST_JT_INNER | AST_JT_CROSS},
};

/* Flags for one raw word, or -1 when it is not a join keyword. */
static int join_word(const char *s, size_t n) {
    for (size_t i = 0; i < SQ_ARRAY_LEN(join_words); i++)
        if (strlen(join_words[i].word) == n && sq_strnicmp(s, join_words[i].word, n) == 0)
            return join_words[i].flags;
    return -1;
}

int ast_join_type(ParseCtx *ctx, const LexTok *a, const AstName *b,
                  const AstName *c) {
    SqLoc words[3];
    int n = 0, jt = 0, bad = 0;
    words[n++] = (SqLoc){a->start, a->end};
    if (b) words[n++] = ast_loc(b->span);
    if (c) words[n++] = ast_loc(c->span);
    for (int i = 0; i < n && !bad; i++) {
        size_t len;
        const char *raw = ast_text(ctx, words[i], &len);
        int f = join_word(raw, len);
        if (f < 0) bad = 1;
        else jt |= f;
    }
    if (bad || (jt & (AST_JT_INNER | AST_JT_OUTER)) == (AST_JT_INNER | AST_JT_OUTER) ||
        (jt & (AST_JT_OUTER | AST_JT_LEFT | AST_JT_RIGHT)) == AST_JT_OUTER) {
        SqLoc kw = {words[0].start, words[n - 1].end};
        size_t len;
        const char *raw = ast_text(ctx, kw, &len);
        SqDiag *g = ast_error(ctx, SQ_E_JOIN_TYPE, kw, "unknown join type: %.*s",
                              (int)len, raw);
        if (g) sq_diag_help(g, "SQLite accepts [NATURAL] [LEFT|RIGHT|FULL] "
                               "[OUTER] JOIN, [NATURAL] INNER JOIN and CROSS JOIN");
        jt = AST_JT_INNER;
    }
    return jt;
}

AstOnUsing ast_on_using(AstExpr *on, AstNameList *using, SqLoc loc) {
    AstOnUsing ou = {on, using, loc};
    return ou;
}

AstOrderList *ast_order_clause(ParseCtx *ctx, AstOrderList *list, SqLoc loc) {
    list->span = ast_span(ctx, loc);
    return list;
}

AstOrderList *ast_order_add(ParseCtx *ctx, AstOrderList *list, AstExpr *e,
                            int dir, int nulls, SqLoc eloc, SqLoc loc) {
    if (!list) list = sq_arena_alloc(ctx->arena, sizeof *list);
    AstOrderTerm *t = SQ_ARENA_PUSH(ctx->arena, list);
    t->expr = e;
    t->dir = (uint8_t)dir;
    t->nulls = (uint8_t)nulls;
    loc.start = eloc.start;
    t->span = ast_span(ctx, loc);
    return list;
}

/* ------------------------------------------------------------------ */
/* WITH                                                                */
/* ------------------------------------------------------------------ */

AstCte *ast_cte(ParseCtx *ctx, AstName *name, AstNameList *cols, int mat,
                AstSelect *sel, SqLoc loc) {
    AstCte *c = sq_arena_alloc(ctx->arena, sizeof *c);
    c->name = *name;
    if (cols) c->cols = *cols;
    c->materialized = (uint8_t)mat;
    c->select = sel;
    c->span = ast_span(ctx, loc);
    return c;
}

AstWith *ast_with_add(ParseCtx *ctx, AstWith *with, AstCte *cte) {
    if (!with) {
        with = sq_arena_alloc(ctx->arena, sizeof *with);
        with->span = cte->span;
    }
    *SQ_ARENA_APPEND(ctx->arena, with->ctes, with->n_ctes, with->cap_ctes) = *cte;
    with->span.end = cte->span.end;
    return with;
}

AstWith *ast_with_finish(AstWith *with, int recursive, SqLoc loc) {
    with->recursive = (uint8_t)recursive;
    with->span.start = loc.start;
    return with;
}

/* ------------------------------------------------------------------ */
/* Windows                                                             */
/* ------------------------------------------------------------------ */

static AstWindow *window_new(ParseCtx *ctx, SqLoc loc) {
    AstWindow *w = sq_arena_alloc(ctx->arena, sizeof *w);
    w->span = ast_span(ctx, loc);
    return w;
}

AstWindowList *ast_window_list(ParseCtx *ctx, AstWindowList *list,
                               AstWindow *w) {
    if (!list) list = sq_arena_alloc(ctx->arena, sizeof *list);
    *SQ_ARENA_PUSH(ctx->arena, list) = w;
    return list;
}

AstWindow *ast_window_name(ParseCtx *ctx, AstWindow *w, AstName *name,
                           SqLoc loc) {
    w->name = *name;
    w->span = ast_span(ctx, loc);
    return w;
}

AstWindow *ast_frame(ParseCtx *ctx, int unit, const AstFrameBound *start,
                     const AstFrameBound *end, int exclude, SqLoc loc) {
    AstWindow *w = window_new(ctx, loc);
    w->unit = (uint8_t)unit;
    if (start) w->start = *start;
    if (end) {
        w->end = *end;
        w->flags |= AWF_BETWEEN;
    }
    w->exclude = (uint8_t)exclude;
    return w;
}

AstWindow *ast_window(ParseCtx *ctx, AstWindow *frame, AstExprList *partition,
                      AstOrderList *order, AstName *base, SqLoc loc) {
    AstWindow *w = frame;
    w->span = ast_span(ctx, loc);
    if (partition) w->partition = *partition;
    if (order) w->order = *order;
    if (base) w->base = *base;
    return w;
}

AstWindow *ast_window_ref(ParseCtx *ctx, AstName *name, SqLoc loc) {
    AstWindow *w = window_new(ctx, loc);
    w->base = *name;
    w->flags |= AWF_NAME_ONLY;
    return w;
}
