/*
** ast_expr.c -- constructors for names, literals and expressions.
**
** Layer: grammar.  Called from sql.y actions.  Besides building nodes these
** functions compute each expression's height and apply the checks that
** SQLite makes while parsing an expression: expression depth (1000), the
** number of function arguments (127), bind parameter numbers, and DISTINCT
** in window functions.
*/
#include <string.h>

#include "grammar/parse_int.h"

/* ------------------------------------------------------------------ */
/* Errors and source text                                              */
/* ------------------------------------------------------------------ */

SqDiag *ast_error(ParseCtx *ctx, SqDiagCode code, SqLoc loc, const char *fmt,
                  ...) {
    if (ctx->failed) return NULL;
    ctx->failed = 1;
    SqBuf b = SQ_BUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    sq_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    SqDiag *g = sq_diag_add(ctx->diags, SQ_SEV_ERROR, code, ast_span(ctx, loc),
                            "%s", sq_buf_str(&b));
    sq_buf_free(&b);
    return g;
}

const char *ast_text(const ParseCtx *ctx, SqLoc loc, size_t *len) {
    *len = loc.end - loc.start;
    return ctx->src->text + loc.start;
}

static SqLoc tok_loc(LexTok t) {
    SqLoc l = {t.start, t.end};
    return l;
}

/* ------------------------------------------------------------------ */
/* Names                                                               */
/* ------------------------------------------------------------------ */

/* Copy the quoted token s[0..n) without its quotes into d (room for n - 1
** bytes); a doubled quote stands for one.  Returns the length, NUL added. */
static size_t unquote(char *d, const char *s, size_t n) {
    char q = s[0], close = q == '[' ? ']' : q;
    size_t j = 0;
    for (size_t i = 1; i + 1 < n; i++) {
        d[j++] = s[i];
        if (q != '[' && s[i] == close && s[i + 1] == close) i++;
    }
    d[j] = 0;
    return j;
}

/* Remove the quotes of a quoted token, into the arena. */
static char *dequote(ParseCtx *ctx, const char *s, size_t n, uint8_t *quote) {
    *quote = s[0] == '"' ? AST_Q_DOUBLE : s[0] == '`' ? AST_Q_BACKTICK
           : s[0] == '\'' ? AST_Q_SINGLE : AST_Q_BRACKET;
    char *d = sq_arena_alloc(ctx->arena, n);
    unquote(d, s, n);
    return d;
}

/* A bare word without upper-case letters is spelled as its interned key,
** so the key's text serves as the spelling and nothing is copied. */
AstName ast_name(ParseCtx *ctx, LexTok tok) {
    AstName n;
    memset(&n, 0, sizeof n);
    size_t len;
    const char *raw = ast_text(ctx, tok_loc(tok), &len);
    n.span = ast_span(ctx, tok_loc(tok));
    if (raw[0] != '"' && raw[0] != '`' && raw[0] != '\'' && raw[0] != '[') {
        n.key = sq_intern(ctx->names, raw, len);
        n.text = memcmp(n.key->text, raw, len) == 0 ? n.key->text
                                                    : sq_arena_strndup(ctx->arena, raw, len);
        return n;
    }
    n.text = dequote(ctx, raw, len, &n.quote);
    n.key = sq_intern_cstr(ctx->names, n.text);
    return n;
}

AstName ast_name_none(void) {
    AstName n;
    memset(&n, 0, sizeof n);
    return n;
}

AstName ast_name_not_indexed(ParseCtx *ctx, SqLoc loc) {
    AstName n = ast_name_none();
    n.span = ast_span(ctx, loc);
    n.flags = AST_NAMEF_NOT_INDEXED;
    return n;
}

LexTok ast_name_tok(AstName n) {
    LexTok t;
    memset(&t, 0, sizeof t);
    t.code = TK_ID;
    t.start = n.span.start;
    t.end = n.span.end;
    return t;
}

LexTok ast_tok_span(LexTok a, LexTok b) {
    a.end = b.end;
    return a;
}

AstTypeName ast_typename(ParseCtx *ctx, SqLoc loc, int present) {
    AstTypeName t = {NULL, ast_span(ctx, loc)};
    if (present) {
        size_t len;
        const char *raw = ast_text(ctx, loc, &len);
        t.text = sq_arena_strndup(ctx->arena, raw, len);
    }
    return t;
}

AstFullName ast_fullname(ParseCtx *ctx, AstName *a, AstName *b, AstName *alias) {
    (void)ctx;
    AstFullName f;
    memset(&f, 0, sizeof f);
    if (b) {
        f.schema = *a;
        f.name = *b;
    } else {
        f.name = *a;
    }
    if (alias) f.alias = *alias;
    return f;
}

AstNameList *ast_idlist(ParseCtx *ctx, AstNameList *list, AstName *n) {
    if (!list) list = sq_arena_alloc(ctx->arena, sizeof *list);
    *SQ_ARENA_PUSH(ctx->arena, list) = *n;
    return list;
}

/* A column-name list (CTE, view, index columns in old schemas): SQLite
** rejects COLLATE or ASC/DESC after a name there. */
AstNameList *ast_eidlist(ParseCtx *ctx, AstNameList *list, AstName *n,
                         int collate, int sortorder) {
    if (collate || sortorder != AST_SORT_DEFAULT) {
        size_t len;
        const char *raw = ast_text(ctx, ast_loc(n->span), &len);
        ast_error(ctx, SQ_E_IDLIST, ast_loc(n->span),
                  "syntax error after column name \"%.*s\"", (int)len, raw);
    }
    return ast_idlist(ctx, list, n);
}

AstLimit ast_limit(AstExpr *count, AstExpr *offset, int comma, SqLoc loc) {
    AstLimit l = {count, offset, comma, loc};
    return l;
}

AstTrigEvent ast_trig_event(int what, AstNameList *cols) {
    AstTrigEvent e = {what, cols};
    return e;
}

AstLikeOp ast_likeop(LexTok tok, int is_not) {
    AstLikeOp op = {tok, is_not};
    return op;
}

AstFrameBound ast_bound(int kind, AstExpr *e) {
    AstFrameBound b = {(uint8_t)kind, e};
    return b;
}

AstFilterOver ast_filter_over(AstExpr *filter, AstWindow *over) {
    AstFilterOver fo = {filter, over};
    return fo;
}

/* ------------------------------------------------------------------ */
/* Expression nodes                                                    */
/* ------------------------------------------------------------------ */

static int h(const AstExpr *e) { return e ? e->height : 0; }
static int max2(int a, int b) { return a > b ? a : b; }

static int list_height(const AstExprList *l) {
    int m = 0;
    for (uint32_t i = 0; l && i < l->n; i++) m = max2(m, h(l->items[i]));
    return m;
}

/* SQLite counts a subquery's height as that of its tallest expression in
** the result list, WHERE, HAVING, GROUP BY, ORDER BY and LIMIT of every
** term of a compound; FROM-clause subqueries do not count. */
static int select_height(const AstSelect *s) {
    if (!s) return 0;
    int m = h(s->where);
    m = max2(m, h(s->having));
    m = max2(m, h(s->limit) + (s->limit ? 1 : 0));
    m = max2(m, h(s->offset) + (s->offset ? 1 : 0));
    m = max2(m, list_height(&s->group_by));
    for (uint32_t i = 0; i < s->cols.n; i++) m = max2(m, h(s->cols.items[i].expr));
    for (uint32_t i = 0; i < s->order_by.n; i++) m = max2(m, h(s->order_by.items[i].expr));
    for (uint32_t i = 0; i < s->n_rows; i++) m = max2(m, list_height(&s->rows[i].values));
    if (s->kind == AST_SEL_COMPOUND)
        m = max2(m, max2(select_height(s->left), select_height(s->right)));
    return m;
}

/* A node of the given kind, ast_expr_size(kind) bytes, followed by extra
** bytes for its text. */
static AstExpr *expr_alloc(ParseCtx *ctx, AstExprKind kind, SqLoc loc, size_t extra) {
    AstExpr *e = sq_arena_alloc(ctx->arena, ast_expr_size(kind) + extra);
    e->kind = (uint8_t)kind;
    e->span = ast_span(ctx, loc);
    e->height = 1;
    return e;
}

static AstExpr *expr_new(ParseCtx *ctx, AstExprKind kind, SqLoc loc) {
    return expr_alloc(ctx, kind, loc, 0);
}

/* Record a height and enforce SQLite's expression depth limit. */
static AstExpr *set_height(ParseCtx *ctx, AstExpr *e, int below) {
    int height = below + 1;
    if (height > SQ_MAX_EXPR_DEPTH) {
        ast_error(ctx, SQ_E_EXPR_DEPTH, ast_loc(e->span),
                  "expression tree is too large (maximum depth %d)",
                  SQ_MAX_EXPR_DEPTH);
        height = SQ_MAX_EXPR_DEPTH;
    }
    e->height = (uint16_t)height;
    return e;
}

/* SQLite wraps NOT LIKE, NOT BETWEEN and NOT IN in a NOT node, which adds
** one level of height. */
static int not_extra(int is_not) { return is_not ? 1 : 0; }

/* The literal's text lives right after the node, in the same allocation. */
AstExpr *ast_literal(ParseCtx *ctx, AstExprKind kind, LexTok tok) {
    size_t len;
    const char *raw = ast_text(ctx, tok_loc(tok), &len);
    AstExpr *e = expr_alloc(ctx, kind, tok_loc(tok), len + 1);
    char *text = (char *)e + ast_expr_size(kind);
    if (kind == AE_STRING) {
        e->u.lit.len = (uint32_t)unquote(text, raw, len);
    } else if (kind == AE_BLOB) {
        memcpy(text, raw + 2, len - 3);
        e->u.lit.len = (uint32_t)(len - 3);
    } else {
        memcpy(text, raw, len);
        e->u.lit.len = (uint32_t)len;
    }
    text[e->u.lit.len] = 0;
    e->u.lit.text = text;
    return e;
}

AstExpr *ast_ctime(ParseCtx *ctx, LexTok tok) {
    AstExpr *e = ast_literal(ctx, AE_CTIME, tok);
    const char *t = e->u.lit.text;
    e->op = sq_stricmp(t, "current_date") == 0   ? AST_OP_CURRENT_DATE
          : sq_stricmp(t, "current_time") == 0   ? AST_OP_CURRENT_TIME
                                                 : AST_OP_CURRENT_TIMESTAMP;
    return e;
}

/* Whether a named parameter was seen before in this statement; records it
** if not.  SQLite gives every use of a name the number of its first use. */
static int seen_name(ParseCtx *ctx, const SqName *key) {
    if (ctx->var_count * 2 >= ctx->var_cap) {
        uint32_t cap = ctx->var_cap ? ctx->var_cap * 2 : 16;
        const SqName **slots = sq_arena_alloc(ctx->arena, cap * sizeof *slots);
        for (uint32_t i = 0; i < ctx->var_cap; i++) {
            const SqName *k = ctx->var_slots[i];
            if (!k) continue;
            uint32_t j = k->hash & (cap - 1);
            while (slots[j]) j = (j + 1) & (cap - 1);
            slots[j] = k;
        }
        ctx->var_slots = slots;
        ctx->var_cap = cap;
    }
    uint32_t i = key->hash & (ctx->var_cap - 1);
    for (; ctx->var_slots[i]; i = (i + 1) & (ctx->var_cap - 1))
        if (ctx->var_slots[i] == key) return 1;
    ctx->var_slots[i] = key;
    ctx->var_count++;
    return 0;
}

/* Bind parameters.  SQLite rejects ?0 and numbers above its limit, and
** "#N" (an internal register reference) outside nested parses. */
AstExpr *ast_param(ParseCtx *ctx, LexTok tok) {
    AstExpr *e = ast_literal(ctx, AE_PARAM, tok);
    const char *t = e->u.lit.text;
    uint32_t n = e->u.lit.len;
    if (t[0] == '#' && n > 1 && t[1] >= '0' && t[1] <= '9') {
        ast_error(ctx, SQ_E_SYNTAX, tok_loc(tok), "syntax error near \"%s\"", t);
    } else if (t[0] == '?' && n > 1) {
        uint64_t v = 0;
        for (uint32_t i = 1; i < n && v <= SQ_MAX_VARIABLE_NUMBER; i++)
            v = v * 10 + (uint64_t)(t[i] - '0');
        if (v < 1 || v > SQ_MAX_VARIABLE_NUMBER)
            ast_error(ctx, SQ_E_VARIABLE, tok_loc(tok),
                      "variable number must be between ?1 and ?%d",
                      SQ_MAX_VARIABLE_NUMBER);
        else if (v > ctx->n_vars)
            ctx->n_vars = (uint32_t)v;
    } else if (t[0] != '?' && seen_name(ctx, sq_intern(ctx->names, t, n))) {
        return e; /* a repeated name reuses its number */
    } else if (++ctx->n_vars > SQ_MAX_VARIABLE_NUMBER) {
        ast_error(ctx, SQ_E_VARIABLE, tok_loc(tok), "too many SQL variables");
    }
    return e;
}

AstExpr *ast_column_ref(ParseCtx *ctx, AstName *schema, AstName *table,
                        AstName *col) {
    SrcSpan first = schema ? schema->span : table ? table->span : col->span;
    SqLoc loc = {first.start, col->span.end};
    AstExpr *e = expr_new(ctx, AE_COLUMN, loc);
    if (schema) { /* the grammar gives a schema only with a table */
        e->u.col.qual = sq_arena_alloc(ctx->arena, 2 * sizeof *e->u.col.qual);
        e->u.col.qual[0] = *schema;
        e->u.col.qual[1] = *table;
        e->flags |= AEF_COL_SCHEMA;
    } else if (table) {
        e->u.col.qual = sq_arena_alloc(ctx->arena, sizeof *e->u.col.qual);
        e->u.col.qual[0] = *table;
    }
    e->u.col.column = *col;
    /* SQLite builds a.b and a.b.c from DOT nodes: heights 2 and 3. */
    e->height = (uint16_t)(1 + (table ? 1 : 0) + (schema ? 1 : 0));
    return e;
}

AstExpr *ast_paren(ParseCtx *ctx, AstExpr *e, SqLoc lp, SqLoc rp) {
    (void)ctx;
    e->flags |= AEF_PAREN;
    e->span.start = lp.start;
    e->span.end = rp.end;
    return e;
}

AstExpr *ast_unary(ParseCtx *ctx, AstOp op, AstExpr *x, SqLoc loc) {
    AstExpr *e = expr_new(ctx, AE_UNARY, loc);
    e->op = (uint8_t)op;
    e->u.bin.l = x;
    return set_height(ctx, e, h(x));
}

AstExpr *ast_binary(ParseCtx *ctx, AstOp op, AstExpr *l, AstExpr *r, SqLoc loc) {
    AstExpr *e = expr_new(ctx, AE_BINARY, loc);
    e->op = (uint8_t)op;
    e->u.bin.l = l;
    e->u.bin.r = r;
    return set_height(ctx, e, max2(h(l), h(r)));
}

AstExpr *ast_binary_tok(ParseCtx *ctx, AstOp op, AstExpr *l, const LexTok *tok,
                        AstExpr *r, SqLoc loc) {
    AstExpr *e = ast_binary(ctx, op, l, r, loc);
    size_t len;
    const char *raw = ast_text(ctx, tok_loc(*tok), &len);
    if ((op == AST_OP_EQ && len == 2) || (op == AST_OP_NE && raw[0] == '<'))
        e->flags |= AEF_ALT_SPELLING;
    return e;
}

AstExpr *ast_ptr(ParseCtx *ctx, AstExpr *l, const LexTok *tok, AstExpr *r,
                 SqLoc loc) {
    AstOp op = tok->end - tok->start == 3 ? AST_OP_PTR2 : AST_OP_PTR;
    return ast_binary(ctx, op, l, r, loc);
}

static AstOp like_op(ParseCtx *ctx, LexTok tok) {
    size_t len;
    const char *raw = ast_text(ctx, tok_loc(tok), &len);
    if (tok.code == TK_MATCH) return AST_OP_MATCH;
    if (len == 4 && sq_strnicmp(raw, "glob", 4) == 0) return AST_OP_GLOB;
    if (len == 6 && sq_strnicmp(raw, "regexp", 6) == 0) return AST_OP_REGEXP;
    return AST_OP_LIKE;
}

AstExpr *ast_like(ParseCtx *ctx, AstExpr *x, const AstLikeOp *op,
                  AstExpr *pattern, AstExpr *escape, SqLoc loc) {
    AstExpr *e = expr_new(ctx, AE_LIKE, loc);
    e->op = (uint8_t)like_op(ctx, op->tok);
    if (op->is_not) e->flags |= AEF_NOT;
    e->u.like.x = x;
    e->u.like.pattern = pattern;
    e->u.like.escape = escape;
    int below = max2(h(x), max2(h(pattern), h(escape)));
    return set_height(ctx, e, below + not_extra(op->is_not));
}

AstExpr *ast_isnull(ParseCtx *ctx, AstExpr *x, int is_not, int two_words,
                    SqLoc loc) {
    AstExpr *e = expr_new(ctx, AE_ISNULL, loc);
    if (is_not) e->flags |= AEF_NOT;
    if (two_words) e->flags |= AEF_NOTNULL_2W;
    e->u.bin.l = x;
    return set_height(ctx, e, h(x));
}

AstExpr *ast_is(ParseCtx *ctx, AstExpr *x, int is_not, int distinct_from,
                AstExpr *y, SqLoc loc) {
    AstExpr *e = expr_new(ctx, AE_IS, loc);
    if (is_not) e->flags |= AEF_NOT;
    if (distinct_from) e->flags |= AEF_DISTINCT_FROM;
    e->u.bin.l = x;
    e->u.bin.r = y;
    /* SQLite turns "x IS NULL" into a unary ISNULL node. */
    int below = y && y->kind == AE_NULL ? h(x) : max2(h(x), h(y));
    return set_height(ctx, e, below);
}

AstExpr *ast_between(ParseCtx *ctx, AstExpr *x, int is_not, AstExpr *lo,
                     AstExpr *hi, SqLoc loc) {
    AstExpr *e = expr_new(ctx, AE_BETWEEN, loc);
    if (is_not) e->flags |= AEF_NOT;
    e->u.between.x = x;
    e->u.between.lo = lo;
    e->u.between.hi = hi;
    int below = max2(h(x), max2(h(lo), h(hi)));
    return set_height(ctx, e, below + not_extra(is_not));
}

AstExpr *ast_in_list(ParseCtx *ctx, AstExpr *x, int is_not, AstExprList *list,
                     SqLoc loc) {
    AstExpr *e = expr_new(ctx, AE_IN_LIST, loc);
    if (is_not) e->flags |= AEF_NOT;
    e->u.in.x = x;
    if (list) e->u.in.list = *list;
    if (!list || list->n == 0) return e; /* SQLite folds x IN () to a constant */
    return set_height(ctx, e, max2(h(x), list_height(list)) + not_extra(is_not));
}

AstExpr *ast_in_table(ParseCtx *ctx, AstExpr *x, int is_not, AstName *nm,
                      AstName *dbnm, AstExprList *args, SqLoc loc) {
    AstExpr *e = expr_new(ctx, AE_IN_TABLE, loc);
    if (is_not) e->flags |= AEF_NOT;
    e->u.intab.x = x;
    if (ast_name_present(dbnm)) {
        e->u.intab.schema = *nm;
        e->u.intab.table = *dbnm;
    } else {
        e->u.intab.table = *nm;
    }
    if (args) {
        e->u.intab.args = *args;
        e->u.intab.has_args = 1;
    }
    return set_height(ctx, e, h(x) + not_extra(is_not));
}

AstExpr *ast_subquery(ParseCtx *ctx, AstExprKind kind, AstExpr *x, int is_not,
                      AstSelect *sel, SqLoc loc) {
    AstExpr *e = expr_new(ctx, kind, loc);
    if (is_not) e->flags |= AEF_NOT;
    e->u.sub.x = x;
    e->u.sub.select = sel;
    int below = max2(h(x), select_height(sel));
    return set_height(ctx, e, below + not_extra(is_not));
}

AstCaseList *ast_case_arm(ParseCtx *ctx, AstCaseList *list, AstExpr *when,
                          AstExpr *then) {
    if (!list) list = sq_arena_alloc(ctx->arena, sizeof *list);
    AstCaseArm *arm = SQ_ARENA_PUSH(ctx->arena, list);
    arm->when = when;
    arm->then = then;
    return list;
}

AstExpr *ast_case(ParseCtx *ctx, AstExpr *operand, AstCaseList *arms,
                  AstExpr *else_, SqLoc loc) {
    AstExpr *e = expr_new(ctx, AE_CASE, loc);
    e->u.cas.operand = operand;
    e->u.cas.arms = arms->items;
    e->u.cas.n_arms = arms->n;
    e->u.cas.else_ = else_;
    int below = max2(h(operand), h(else_));
    for (uint32_t i = 0; i < arms->n; i++)
        below = max2(below, max2(h(arms->items[i].when), h(arms->items[i].then)));
    return set_height(ctx, e, below);
}

AstExpr *ast_cast(ParseCtx *ctx, AstExpr *x, AstTypeName *type, SqLoc loc) {
    AstExpr *e = expr_new(ctx, AE_CAST, loc);
    e->u.cast.x = x;
    e->u.cast.type = *type;
    return set_height(ctx, e, h(x));
}

AstExpr *ast_collate(ParseCtx *ctx, AstExpr *x, AstName *name, SqLoc loc) {
    AstExpr *e = expr_new(ctx, AE_COLLATE, loc);
    e->u.collate.x = x;
    e->u.collate.name = *name;
    return set_height(ctx, e, h(x));
}

AstExpr *ast_func(ParseCtx *ctx, AstName *name, int distinct, AstExprList *args,
                  int star, SqLoc loc) {
    AstExpr *e = expr_new(ctx, AE_FUNC, loc);
    e->u.func.name = *name;
    if (distinct == AST_SELF_DISTINCT) e->flags |= AEF_DISTINCT;
    if (distinct == AST_SELF_ALL) e->flags |= AEF_ALL;
    if (star) e->flags |= AEF_STAR;
    if (args) e->u.func.args = *args;
    if (args && args->n > SQ_MAX_FUNCTION_ARG)
        ast_error(ctx, SQ_E_FUNC_ARGS, ast_loc(name->span),
                  "too many arguments on function '%s' (%u; SQLite allows %d)",
                  name->text, args->n, SQ_MAX_FUNCTION_ARG);
    return set_height(ctx, e, list_height(args));
}

AstExpr *ast_func_over(ParseCtx *ctx, AstExpr *func, const AstFilterOver *fo) {
    func->u.func.filter = fo->filter;
    func->u.func.over = fo->over; /* the call's span already covers both */
    if ((func->flags & AEF_DISTINCT) && fo->over)
        ast_error(ctx, SQ_E_WINDOW_DISTINCT, ast_loc(func->span),
                  "DISTINCT is not supported for window functions");
    return func;
}

AstExprList *ast_list_add(ParseCtx *ctx, AstExprList *list, AstExpr *e) {
    if (!list) list = sq_arena_alloc(ctx->arena, sizeof *list);
    *SQ_ARENA_PUSH(ctx->arena, list) = e;
    return list;
}

AstExprList *ast_args(ParseCtx *ctx, AstExprList *list) {
    return list ? list : sq_arena_alloc(ctx->arena, sizeof *list);
}

AstExpr *ast_vector(ParseCtx *ctx, AstExprList *list, AstExpr *last, SqLoc loc) {
    AstExpr *e = expr_new(ctx, AE_VECTOR, loc);
    list = ast_list_add(ctx, list, last);
    e->u.vec.items = *list;
    return set_height(ctx, e, list_height(list));
}

AstExpr *ast_default_word(ParseCtx *ctx, AstName *word) {
    if (sq_stricmp(word->text, "true") == 0 || sq_stricmp(word->text, "false") == 0)
        return ast_column_ref(ctx, NULL, NULL, word);
    AstExpr *e = expr_new(ctx, AE_STRING, ast_loc(word->span));
    e->u.lit.text = word->text;
    e->u.lit.len = (uint32_t)strlen(word->text);
    return e;
}

AstExpr *ast_raise(ParseCtx *ctx, int kind, AstName *msg, SqLoc loc) {
    AstExpr *e = expr_new(ctx, AE_RAISE, loc);
    switch (kind) {
    case AST_CONFLICT_ROLLBACK: e->op = AST_OP_RAISE_ROLLBACK; break;
    case AST_CONFLICT_ABORT: e->op = AST_OP_RAISE_ABORT; break;
    case AST_CONFLICT_FAIL: e->op = AST_OP_RAISE_FAIL; break;
    default: e->op = AST_OP_RAISE_IGNORE; break;
    }
    if (msg) e->u.raise.msg = *msg;
    return e;
}
