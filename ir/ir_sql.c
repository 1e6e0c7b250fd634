/*
** ir_sql.c -- SQL text of IR expressions, and stable names for FROM items.
**
** Layer: ir.  One expression printer serves the SQL emitter
** (backend/emit/sql.c) and the IR printers (ir_print.c): it writes
** SQLite syntax with every compound operand parenthesized, so the text
** means the same tree whatever SQLite's precedence rules are.  How a
** column reference or a subquery is written is up to the caller (IrNaming
** hooks): the emitter writes alias.column and inlines aggregate calls, the
** IR printer writes $id.column references.
**
** Aliases: every FROM item of a statement gets a name that is unique in the
** whole statement (its own alias or table name when free, else name_2,
** name_3, ...), assigned in one deterministic walk, so that output is
** stable and a correlated reference can never be captured by an inner
** item of the same name.
*/
#include <stdio.h>
#include <string.h>

#include "grammar/lex.h"
#include "ir/ir.h"

/* ------------------------------------------------------------------ */
/* Identifiers and literals                                            */
/* ------------------------------------------------------------------ */

static int plain_identifier(const char *s) {
    if (!s || !*s || !((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_'))
        return 0;
    for (const char *p = s; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              *p == '_'))
            return 0;
    int fallback;
    return lex_keyword(s, strlen(s), &fallback) == 0;
}

void ir_sql_ident(SqBuf *out, const char *name) {
    if (plain_identifier(name)) {
        sq_buf_puts(out, name);
        return;
    }
    sq_buf_putc(out, '"');
    for (const char *p = name ? name : ""; *p; p++) {
        if (*p == '"') sq_buf_putc(out, '"');
        sq_buf_putc(out, *p);
    }
    sq_buf_putc(out, '"');
}

void ir_sql_string(SqBuf *out, const char *s, size_t n) {
    sq_buf_putc(out, '\'');
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\'') sq_buf_putc(out, '\'');
        sq_buf_putc(out, s[i]);
    }
    sq_buf_putc(out, '\'');
}

static void literal(SqBuf *out, const SqExpr *e) {
    switch ((SqValueType)e->u.lit.vtype) {
    case SQ_VAL_NULL: sq_buf_puts(out, "NULL"); break;
    case SQ_VAL_INTEGER:
        if (e->u.lit.text) sq_buf_puts(out, e->u.lit.text);
        else sq_buf_printf(out, "%lld", (long long)e->u.lit.i);
        break;
    case SQ_VAL_REAL:
        if (e->u.lit.text) sq_buf_puts(out, e->u.lit.text);
        else sq_buf_printf(out, "%.17g", e->u.lit.r);
        break;
    case SQ_VAL_TEXT: ir_sql_string(out, e->u.lit.s, e->u.lit.n); break;
    case SQ_VAL_BLOB: sq_buf_printf(out, "X'%s'", e->u.lit.text ? e->u.lit.text : ""); break;
    }
}

/* ------------------------------------------------------------------ */
/* Expressions                                                         */
/* ------------------------------------------------------------------ */


/* Written without parentheses around it, an operand stays one operand. */
static int atomic(const SqExpr *e) {
    switch ((SqExprKind)e->kind) {
    case SQX_LITERAL: return e->u.lit.vtype != SQ_VAL_INTEGER && e->u.lit.vtype != SQ_VAL_REAL
                             ? 1 : !(e->u.lit.text ? e->u.lit.text[0] == '-' : e->u.lit.i < 0);
    case SQX_COLUMN: case SQX_PARAM: case SQX_FUNC: case SQX_CAST: case SQX_CASE:
    case SQX_SUBQUERY: case SQX_EXISTS: case SQX_VECTOR: case SQX_CTIME:
        return 1;
    default: return 0;
    }
}

/* The mark written for node, if any (IrNaming.mark). */
static const char *mark_of(const IrNaming *nm, const void *node) {
    return nm && nm->mark ? nm->mark(nm->mark_ctx, node) : NULL;
}

static void operand(SqBuf *out, const SqExpr *e, const IrNaming *nm) {
    if (e->kind == SQX_COLUMN || atomic(e) || mark_of(nm, e)) {
        ir_sql_expr(out, e, nm);
        return;
    }
    sq_buf_putc(out, '(');
    ir_sql_expr(out, e, nm);
    sq_buf_putc(out, ')');
}

void ir_sql_list(SqBuf *out, const SqExprList *l, const IrNaming *nm) {
    for (uint32_t i = 0; i < l->n; i++) {
        if (i) sq_buf_puts(out, ", ");
        ir_sql_expr(out, l->items[i], nm);
    }
}

static void unary(SqBuf *out, const SqExpr *e, const IrNaming *nm) {
    const char *op = e->op == AST_OP_NOT ? "NOT " : e->op == AST_OP_NEG ? "-"
                   : e->op == AST_OP_POS ? "+" : "~";
    sq_buf_puts(out, op);
    const SqExpr *x = e->u.bin.l;
    /* "- -1" would lex as a comment start without the parentheses */
    if (atomic(x) && !(x->kind == SQX_UNARY)) ir_sql_expr(out, x, nm);
    else {
        sq_buf_putc(out, '(');
        ir_sql_expr(out, x, nm);
        sq_buf_putc(out, ')');
    }
}

static void case_expr(SqBuf *out, const SqExpr *e, const IrNaming *nm) {
    sq_buf_puts(out, "CASE");
    if (e->u.cas.operand) {
        sq_buf_putc(out, ' ');
        operand(out, e->u.cas.operand, nm);
    }
    for (uint32_t i = 0; i < e->u.cas.n_arms; i++) {
        sq_buf_puts(out, " WHEN ");
        ir_sql_expr(out, e->u.cas.arms[i].when, nm);
        sq_buf_puts(out, " THEN ");
        ir_sql_expr(out, e->u.cas.arms[i].then, nm);
    }
    if (e->u.cas.else_) {
        sq_buf_puts(out, " ELSE ");
        ir_sql_expr(out, e->u.cas.else_, nm);
    }
    sq_buf_puts(out, " END");
}

static void func_name(SqBuf *out, const char *name) {
    const char *p = name;
    while (*p && ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
                  (*p >= '0' && *p <= '9') || *p == '_'))
        p++;
    if (*p || !*name) ir_sql_ident(out, name);
    else sq_buf_puts(out, name);
}

void ir_sql_call(SqBuf *out, const char *name, int distinct, int star, const SqExprList *args,
                 const SqExpr *filter, const IrNaming *nm) {
    func_name(out, name);
    sq_buf_putc(out, '(');
    if (star) sq_buf_putc(out, '*');
    else {
        if (distinct) sq_buf_puts(out, "DISTINCT ");
        ir_sql_list(out, args, nm);
    }
    sq_buf_putc(out, ')');
    if (filter) {
        sq_buf_puts(out, " FILTER (WHERE ");
        ir_sql_expr(out, filter, nm);
        sq_buf_putc(out, ')');
    }
}

static void in_list(SqBuf *out, const SqExpr *e, const IrNaming *nm) {
    operand(out, e->u.in.x, nm);
    sq_buf_puts(out, e->flags & SQXF_NOT ? " NOT IN (" : " IN (");
    ir_sql_list(out, &e->u.in.list, nm);
    sq_buf_putc(out, ')');
}

static void subquery(SqBuf *out, const SqExpr *e, const IrNaming *nm) {
    if (e->kind == SQX_IN_SUBQUERY) {
        operand(out, e->u.sub.x, nm);
        sq_buf_puts(out, e->flags & SQXF_NOT ? " NOT IN " : " IN ");
    } else if (e->kind == SQX_EXISTS) {
        sq_buf_puts(out, e->flags & SQXF_NOT ? "NOT EXISTS " : "EXISTS ");
    }
    nm->subquery(nm->ctx, out, e);
}

void ir_sql_expr(SqBuf *out, const SqExpr *e, const IrNaming *nm) {
    const char *mark = mark_of(nm, e);
    if (mark) {
        sq_buf_puts(out, mark);
        return;
    }
    switch ((SqExprKind)e->kind) {
    case SQX_LITERAL: literal(out, e); break;
    case SQX_COLUMN: nm->column(nm->ctx, out, e); break;
    case SQX_PARAM: sq_buf_puts(out, e->u.lit.text); break;
    case SQX_UNARY: unary(out, e, nm); break;
    case SQX_BINARY: case SQX_LIKE:
        operand(out, e->kind == SQX_LIKE ? e->u.like.x : e->u.bin.l, nm);
        sq_buf_printf(out, " %s%s ", (e->flags & SQXF_NOT) ? "NOT " : "", ast_op_sql((AstOp)e->op));
        operand(out, e->kind == SQX_LIKE ? e->u.like.pattern : e->u.bin.r, nm);
        if (e->kind == SQX_LIKE && e->u.like.escape) {
            sq_buf_puts(out, " ESCAPE ");
            operand(out, e->u.like.escape, nm);
        }
        break;
    case SQX_IS:
        operand(out, e->u.bin.l, nm);
        /* SQXF_NOT is the meaning (IS NOT = IS DISTINCT FROM); both
        ** spellings of each are written the short way */
        sq_buf_puts(out, (e->flags & SQXF_NOT) ? " IS NOT " : " IS ");
        operand(out, e->u.bin.r, nm);
        break;
    case SQX_ISNULL:
        operand(out, e->u.bin.l, nm);
        sq_buf_puts(out, e->flags & SQXF_NOT ? " IS NOT NULL" : " IS NULL");
        break;
    case SQX_BETWEEN:
        operand(out, e->u.between.x, nm);
        sq_buf_puts(out, e->flags & SQXF_NOT ? " NOT BETWEEN " : " BETWEEN ");
        operand(out, e->u.between.lo, nm);
        sq_buf_puts(out, " AND ");
        operand(out, e->u.between.hi, nm);
        break;
    case SQX_IN_LIST: in_list(out, e, nm); break;
    case SQX_IN_SUBQUERY: case SQX_EXISTS: case SQX_SUBQUERY: subquery(out, e, nm); break;
    case SQX_CASE: case_expr(out, e, nm); break;
    case SQX_CAST:
        sq_buf_puts(out, "CAST(");
        ir_sql_expr(out, e->u.cast.x, nm);
        sq_buf_printf(out, " AS %s)", e->u.cast.type_name);
        break;
    case SQX_COLLATE:
        operand(out, e->u.collate.x, nm);
        sq_buf_puts(out, " COLLATE ");
        ir_sql_ident(out, e->u.collate.name);
        break;
    case SQX_FUNC:
        ir_sql_call(out, e->u.func.name, (e->flags & SQXF_DISTINCT) != 0, 0, &e->u.func.args,
                    NULL, nm);
        break;
    case SQX_VECTOR:
        sq_buf_putc(out, '(');
        ir_sql_list(out, &e->u.list, nm);
        sq_buf_putc(out, ')');
        break;
    case SQX_CTIME:
        sq_buf_puts(out, e->op == AST_OP_CURRENT_DATE ? "CURRENT_DATE"
                         : e->op == AST_OP_CURRENT_TIME ? "CURRENT_TIME" : "CURRENT_TIMESTAMP");
        break;
    case SQX_RAISE: sq_buf_puts(out, "RAISE(IGNORE)"); break;
    default: sq_buf_puts(out, "?"); break;
    }
}

/* ------------------------------------------------------------------ */
/* Window specifications                                               */
/* ------------------------------------------------------------------ */

static void bound(SqBuf *out, uint8_t kind, const SqExpr *x, const IrNaming *nm) {
    switch ((AstBoundKind)kind) {
    case AST_BOUND_UNBOUNDED_PRECEDING: sq_buf_puts(out, "UNBOUNDED PRECEDING"); break;
    case AST_BOUND_CURRENT_ROW: sq_buf_puts(out, "CURRENT ROW"); break;
    case AST_BOUND_UNBOUNDED_FOLLOWING: sq_buf_puts(out, "UNBOUNDED FOLLOWING"); break;
    default:
        operand(out, x, nm);
        sq_buf_puts(out, kind == AST_BOUND_PRECEDING ? " PRECEDING" : " FOLLOWING");
    }
}

void ir_sql_sort_key(SqBuf *out, const SqSortKey *k, const IrNaming *nm) {
    ir_sql_sort_key_as(out, k, k->expr, nm);
}

void ir_sql_sort_key_as(SqBuf *out, const SqSortKey *k, const SqExpr *expr, const IrNaming *nm) {
    operand(out, expr, nm);
    if (k->collation) {
        sq_buf_puts(out, " COLLATE ");
        ir_sql_ident(out, k->collation);
    }
    const char *dir = mark_of(nm, k);
    if (dir) sq_buf_printf(out, " %s", dir);
    else if (k->desc) sq_buf_puts(out, " DESC");
    if (k->nulls) sq_buf_puts(out, k->nulls == AST_NULLS_FIRST ? " NULLS FIRST" : " NULLS LAST");
}

void ir_sql_window(SqBuf *out, const SqWinCall *w, const IrNaming *nm) {
    ir_sql_call(out, w->name, 0, w->star, &w->args, w->filter, nm);
    sq_buf_puts(out, " OVER (");
    const char *sep = "";
    if (w->partition.n) {
        sq_buf_puts(out, "PARTITION BY ");
        ir_sql_list(out, &w->partition, nm);
        sep = " ";
    }
    if (w->n_order) {
        sq_buf_printf(out, "%sORDER BY ", sep);
        for (uint32_t i = 0; i < w->n_order; i++) {
            if (i) sq_buf_puts(out, ", ");
            ir_sql_sort_key(out, &w->order[i], nm);
        }
        sep = " ";
    }
    const SqWinFrame *f = &w->frame;
    if (f->unit != AST_FRAME_NONE) {
        sq_buf_printf(out, "%s%s ", sep, f->unit == AST_FRAME_ROWS ? "ROWS"
                                         : f->unit == AST_FRAME_RANGE ? "RANGE" : "GROUPS");
        if (f->has_between) {
            sq_buf_puts(out, "BETWEEN ");
            bound(out, f->start_kind, f->start, nm);
            sq_buf_puts(out, " AND ");
            bound(out, f->end_kind, f->end, nm);
        } else {
            bound(out, f->start_kind, f->start, nm);
        }
        static const char *const excl[] = {"", " EXCLUDE NO OTHERS", " EXCLUDE CURRENT ROW",
                                           " EXCLUDE GROUP", " EXCLUDE TIES"};
        if (f->exclude <= AST_EXCLUDE_TIES) sq_buf_puts(out, excl[f->exclude]);
    }
    sq_buf_putc(out, ')');
}

/* ------------------------------------------------------------------ */
/* Stable aliases                                                      */
/* ------------------------------------------------------------------ */

typedef struct AliasWalk {
    IrQuery *q;
    const char **names; /* by rel id */
    const char **used;
    uint32_t n_used, cap_used;
    uint32_t n_subqueries;
} AliasWalk;

static int alias_taken(const AliasWalk *w, const char *name) {
    for (uint32_t i = 0; i < w->n_used; i++)
        if (sq_stricmp(w->used[i], name) == 0) return 1;
    return 0;
}

static const char *claim(AliasWalk *w, const char *want) {
    const char *name = want;
    for (int k = 2; alias_taken(w, name); k++) name = sq_arena_printf(w->q->arena, "%s_%d", want, k);
    *SQ_ARENA_APPEND(w->q->arena, w->used, w->n_used, w->cap_used) = name;
    return name;
}

static int alias_rel(IrRel *r, void *arg);

static int alias_expr_cb(SqExpr *e, void *arg) {
    if ((e->kind == SQX_SUBQUERY || e->kind == SQX_EXISTS || e->kind == SQX_IN_SUBQUERY) &&
        e->u.sub.rel)
        ir_walk_rels(e->u.sub.rel, alias_rel, arg);
    return 0;
}

static int alias_slot(SqExpr **slot, void *arg) {
    sq_expr_walk(*slot, alias_expr_cb, arg);
    return 0;
}

static int alias_rel(IrRel *r, void *arg) {
    AliasWalk *w = arg;
    if (r->with)
        for (uint32_t i = 0; i < r->with->n_ctes; i++)
            ir_walk_rels(r->with->ctes[i]->body, alias_rel, w);
    if ((r->flags & IRF_FROM_ITEM) && !w->names[r->id]) {
        int generated = r->kind == IR_PROJECT && !(r->flags & (IRF_ALIAS_WRITTEN | IRF_VIEW));
        const char *want = generated ? sq_arena_printf(w->q->arena, "sub%u", ++w->n_subqueries)
                                     : r->alias;
        w->names[r->id] = claim(w, want);
    }
    ir_rel_exprs(r, alias_slot, w);
    return 0;
}

const char **ir_sql_aliases(IrQuery *q) {
    AliasWalk w;
    memset(&w, 0, sizeof w);
    w.q = q;
    w.names = sq_arena_alloc(q->arena, (q->next_id + 1) * sizeof *w.names);
    if (q->root) ir_walk_rels(q->root, alias_rel, &w);
    return w.names;
}
