/*
** ast_print.c -- one traversal of the AST, two output forms.
**
** Layer: grammar.  The traversal talks to a small emitter ("Out") that
** writes either a compact s-expression or a JSON object.  In the
** s-expression form expressions are positional, e.g. (= (col a) (int 1)),
** optional parts are labelled, e.g. (where ...), and clause-level nodes put
** each part on its own indented line.  In JSON every part has a key and
** every node has "kind" and "span" ([start, end) byte offsets).
*/
#include "grammar/ast_print.h"

#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Emitter                                                             */
/* ------------------------------------------------------------------ */

#define MAX_OPEN 512

typedef struct Out {
    SqBuf *b;           /* s-expression output */
    SqJsonWriter *w;    /* JSON output (NULL for s-expressions) */
    uint8_t block[MAX_OPEN]; /* per open node: children on their own lines */
    int n_open;
} Out;

static void sep(Out *o) {
    if (o->w) return;
    if (o->n_open > 0 && o->block[o->n_open - 1]) {
        sq_buf_putc(o->b, '\n');
        sq_buf_repeat(o->b, ' ', (size_t)o->n_open * 2);
    } else {
        sq_buf_putc(o->b, ' ');
    }
}

static void push_open(Out *o, int block) {
    if (o->n_open < MAX_OPEN) o->block[o->n_open] = (uint8_t)block;
    o->n_open++;
}

/* A node: JSON object with kind and span; s-expression "(kind". */
static void o_node(Out *o, const char *kind, SrcSpan span, int block) {
    if (o->w) {
        sq_jw_obj_begin(o->w);
        sq_jw_key(o->w, "kind");
        sq_jw_str(o->w, kind);
        sq_jw_key(o->w, "span");
        sq_jw_arr_begin(o->w);
        sq_jw_int(o->w, span.start);
        sq_jw_int(o->w, span.end);
        sq_jw_arr_end(o->w);
    } else {
        sq_buf_putc(o->b, '(');
        sq_buf_puts(o->b, kind);
    }
    push_open(o, block);
}

static void o_end(Out *o) {
    o->n_open--;
    if (o->w) sq_jw_obj_end(o->w);
    else sq_buf_putc(o->b, ')');
}

/* A positional child: keyed in JSON, just separated in s-expressions. */
static void o_pos(Out *o, const char *key) {
    if (o->w) sq_jw_key(o->w, key);
    else sep(o);
}

/* A labelled child holding one value: "(key value)" in s-expressions. */
static void o_field(Out *o, const char *key) {
    if (o->w) {
        sq_jw_key(o->w, key);
        return;
    }
    sep(o);
    sq_buf_putc(o->b, '(');
    sq_buf_puts(o->b, key);
    push_open(o, 0);
}

static void o_field_end(Out *o) {
    if (o->w) return;
    o->n_open--;
    sq_buf_putc(o->b, ')');
}

/* A labelled list: JSON array, "(key item ...)" in s-expressions. */
static void o_list(Out *o, const char *key, int block) {
    if (o->w) {
        sq_jw_key(o->w, key);
        sq_jw_arr_begin(o->w);
        return;
    }
    sep(o);
    sq_buf_putc(o->b, '(');
    sq_buf_puts(o->b, key);
    push_open(o, block);
}

static void o_list_end(Out *o) {
    if (o->w) {
        sq_jw_arr_end(o->w);
        return;
    }
    o->n_open--;
    sq_buf_putc(o->b, ')');
}

static void o_item(Out *o) { sep(o); }

static void o_sym(Out *o, const char *s) {
    if (o->w) sq_jw_str(o->w, s);
    else sq_buf_puts(o->b, s);
}

static void o_str(Out *o, const char *s, size_t n) {
    if (o->w) sq_jw_strn(o->w, s, n);
    else sq_json_escape(o->b, s, n);
}

/* A flag: "key": true in JSON, the bare word in s-expressions. */
static void o_flag(Out *o, const char *key, int on) {
    if (!on) return;
    if (o->w) {
        sq_jw_key(o->w, key);
        sq_jw_bool(o->w, 1);
    } else {
        sep(o);
        sq_buf_puts(o->b, key);
    }
}

/* ------------------------------------------------------------------ */
/* Names                                                               */
/* ------------------------------------------------------------------ */

static const char *quote_name(uint8_t q) {
    switch (q) {
    case AST_Q_DOUBLE: return "double";
    case AST_Q_BACKTICK: return "backtick";
    case AST_Q_BRACKET: return "bracket";
    case AST_Q_SINGLE: return "single";
    default: return "none";
    }
}

/* S-expressions show a name as written (re-quoted in its own style);
** JSON gives the dequoted text. */
static void name_atom(Out *o, const AstName *n) {
    if (o->w) {
        sq_jw_str(o->w, n->text);
        return;
    }
    char open = 0, close = 0;
    switch (n->quote) {
    case AST_Q_DOUBLE: open = close = '"'; break;
    case AST_Q_BACKTICK: open = close = '`'; break;
    case AST_Q_SINGLE: open = close = '\''; break;
    case AST_Q_BRACKET: open = '['; close = ']'; break;
    default: break;
    }
    if (!open) {
        sq_buf_puts(o->b, n->text);
        return;
    }
    sq_buf_putc(o->b, open);
    for (const char *p = n->text; *p; p++) {
        if (*p == close && close != ']') sq_buf_putc(o->b, close);
        sq_buf_putc(o->b, *p);
    }
    sq_buf_putc(o->b, close);
}

static void o_name(Out *o, const char *key, const AstName *n) {
    if (!ast_name_present(n)) return;
    o_field(o, key);
    o_item(o);
    name_atom(o, n);
    o_field_end(o);
}

/* "schema.table" style qualified name as one field. */
static void o_qualified(Out *o, const char *key, const AstName *schema,
                        const AstName *name) {
    o_field(o, key);
    o_item(o);
    if (o->w) {
        if (ast_name_present(schema)) {
            SqBuf t = SQ_BUF_INIT;
            sq_buf_printf(&t, "%s.%s", schema->text, name->text);
            sq_jw_str(o->w, sq_buf_str(&t));
            sq_buf_free(&t);
        } else {
            sq_jw_str(o->w, name->text);
        }
    } else {
        if (ast_name_present(schema)) {
            name_atom(o, schema);
            sq_buf_putc(o->b, '.');
        }
        name_atom(o, name);
    }
    o_field_end(o);
}

static void o_names(Out *o, const char *key, const AstNameList *l) {
    if (l->n == 0) return;
    o_list(o, key, 0);
    for (uint32_t i = 0; i < l->n; i++) {
        o_item(o);
        name_atom(o, &l->items[i]);
    }
    o_list_end(o);
}

/* ------------------------------------------------------------------ */
/* Expressions                                                         */
/* ------------------------------------------------------------------ */

static void print_expr(Out *o, const AstExpr *e);
static void print_select(Out *o, const AstSelect *s);
static void print_window(Out *o, const AstWindow *w, const char *kind);

static void o_expr(Out *o, const char *key, const AstExpr *e) {
    if (!e) return;
    o_pos(o, key);
    print_expr(o, e);
}

static void o_expr_field(Out *o, const char *key, const AstExpr *e) {
    if (!e) return;
    o_field(o, key);
    o_item(o);
    print_expr(o, e);
    o_field_end(o);
}

static void o_exprs(Out *o, const char *key, const AstExprList *l, int labelled) {
    if (o->w || labelled) o_list(o, key, 0);
    for (uint32_t i = 0; i < l->n; i++) {
        o_item(o);
        print_expr(o, l->items[i]);
    }
    if (o->w || labelled) o_list_end(o);
}

static const char *op_sym(uint8_t op) { return ast_op_name((AstOp)op); }

static void print_literal(Out *o, const AstExpr *e, const char *kind) {
    o_node(o, kind, e->span, 0);
    o_pos(o, "value");
    if (e->kind == AE_STRING || e->kind == AE_BLOB) o_str(o, e->u.lit.text, e->u.lit.len);
    else o_sym(o, e->u.lit.text);
    o_end(o);
}

static void print_column(Out *o, const AstExpr *e) {
    o_node(o, "col", e->span, 0);
    if (o->w) {
        if (ast_name_present(ast_col_schema(e))) {
            sq_jw_key(o->w, "schema");
            sq_jw_str(o->w, ast_col_schema(e)->text);
        }
        if (ast_name_present(ast_col_table(e))) {
            sq_jw_key(o->w, "table");
            sq_jw_str(o->w, ast_col_table(e)->text);
        }
        sq_jw_key(o->w, "column");
        sq_jw_str(o->w, e->u.col.column.text);
        sq_jw_key(o->w, "quote");
        sq_jw_str(o->w, quote_name(e->u.col.column.quote));
    } else {
        o_item(o);
        if (ast_name_present(ast_col_schema(e))) {
            name_atom(o, ast_col_schema(e));
            sq_buf_putc(o->b, '.');
        }
        if (ast_name_present(ast_col_table(e))) {
            name_atom(o, ast_col_table(e));
            sq_buf_putc(o->b, '.');
        }
        name_atom(o, &e->u.col.column);
    }
    o_end(o);
}

static const char *neg_kind(const AstExpr *e, const char *pos, const char *neg) {
    return (e->flags & AEF_NOT) ? neg : pos;
}

static void print_like(Out *o, const AstExpr *e) {
    char kind[16];
    snprintf(kind, sizeof kind, "%s%s", (e->flags & AEF_NOT) ? "not-" : "",
             op_sym(e->op));
    for (char *p = kind; *p; p++) *p = (char)sq_ascii_lower((unsigned char)*p);
    o_node(o, kind, e->span, 0);
    o_expr(o, "x", e->u.like.x);
    o_expr(o, "pattern", e->u.like.pattern);
    o_expr_field(o, "escape", e->u.like.escape);
    o_end(o);
}

static void print_is(Out *o, const AstExpr *e) {
    int nt = (e->flags & AEF_NOT) != 0, df = (e->flags & AEF_DISTINCT_FROM) != 0;
    const char *kind = df ? (nt ? "is-distinct-from" : "is-not-distinct-from")
                          : (nt ? "is-not" : "is");
    o_node(o, kind, e->span, 0);
    o_expr(o, "left", e->u.bin.l);
    o_expr(o, "right", e->u.bin.r);
    o_end(o);
}

static void print_case(Out *o, const AstExpr *e) {
    o_node(o, "case", e->span, 0);
    o_expr_field(o, "operand", e->u.cas.operand);
    o_list(o, "when", 0);
    for (uint32_t i = 0; i < e->u.cas.n_arms; i++) {
        o_item(o);
        o_node(o, "arm", e->u.cas.arms[i].when->span, 0);
        o_expr(o, "when", e->u.cas.arms[i].when);
        o_expr(o, "then", e->u.cas.arms[i].then);
        o_end(o);
    }
    o_list_end(o);
    o_expr_field(o, "else", e->u.cas.else_);
    o_end(o);
}

static void print_func(Out *o, const AstExpr *e) {
    o_node(o, "call", e->span, 0);
    o_pos(o, "name");
    name_atom(o, &e->u.func.name);
    o_flag(o, "distinct", (e->flags & AEF_DISTINCT) != 0);
    o_flag(o, "all", (e->flags & AEF_ALL) != 0);
    o_flag(o, "star", (e->flags & AEF_STAR) != 0);
    o_exprs(o, "args", &e->u.func.args, 0);
    o_expr_field(o, "filter", e->u.func.filter);
    if (e->u.func.over) {
        o_pos(o, "over");
        print_window(o, e->u.func.over, "over");
    }
    o_end(o);
}

static void print_sub(Out *o, const AstExpr *e, const char *kind) {
    o_node(o, kind, e->span, 0);
    o_expr(o, "x", e->u.sub.x);
    o_pos(o, "select");
    print_select(o, e->u.sub.select);
    o_end(o);
}

static void print_in(Out *o, const AstExpr *e) {
    const char *kind = neg_kind(e, "in", "not-in");
    if (e->kind == AE_IN_SELECT) {
        print_sub(o, e, kind);
        return;
    }
    o_node(o, kind, e->span, 0);
    o_expr(o, "x", e->u.in.x);
    if (e->kind == AE_IN_LIST) {
        o_exprs(o, "list", &e->u.in.list, 1);
    } else {
        o_qualified(o, "table", &e->u.intab.schema, &e->u.intab.table);
        if (e->u.intab.has_args) o_exprs(o, "args", &e->u.intab.args, 1);
    }
    o_end(o);
}

static void print_unary_like(Out *o, const AstExpr *e, const char *kind) {
    o_node(o, kind, e->span, 0);
    o_expr(o, "x", e->u.bin.l);
    o_end(o);
}

static void print_expr(Out *o, const AstExpr *e) {
    switch ((AstExprKind)e->kind) {
    case AE_NULL: o_node(o, "null", e->span, 0); o_end(o); break;
    case AE_INTEGER: print_literal(o, e, "int"); break;
    case AE_FLOAT: print_literal(o, e, "float"); break;
    case AE_STRING: print_literal(o, e, "str"); break;
    case AE_BLOB: print_literal(o, e, "blob"); break;
    case AE_PARAM: print_literal(o, e, "param"); break;
    case AE_CTIME:
        o_node(o, op_sym(e->op), e->span, 0);
        o_end(o);
        break;
    case AE_COLUMN: print_column(o, e); break;
    case AE_UNARY: print_unary_like(o, e, op_sym(e->op)); break;
    case AE_ISNULL: print_unary_like(o, e, neg_kind(e, "isnull", "notnull")); break;
    case AE_BINARY:
        o_node(o, op_sym(e->op), e->span, 0);
        o_expr(o, "left", e->u.bin.l);
        o_expr(o, "right", e->u.bin.r);
        o_end(o);
        break;
    case AE_IS: print_is(o, e); break;
    case AE_LIKE: print_like(o, e); break;
    case AE_BETWEEN:
        o_node(o, neg_kind(e, "between", "not-between"), e->span, 0);
        o_expr(o, "x", e->u.between.x);
        o_expr(o, "low", e->u.between.lo);
        o_expr(o, "high", e->u.between.hi);
        o_end(o);
        break;
    case AE_IN_LIST:
    case AE_IN_SELECT:
    case AE_IN_TABLE: print_in(o, e); break;
    case AE_EXISTS: print_sub(o, e, "exists"); break;
    case AE_SUBQUERY: print_sub(o, e, "subquery"); break;
    case AE_CASE: print_case(o, e); break;
    case AE_CAST:
        o_node(o, "cast", e->span, 0);
        o_expr(o, "x", e->u.cast.x);
        o_pos(o, "type");
        o_str(o, e->u.cast.type.text ? e->u.cast.type.text : "",
              e->u.cast.type.text ? strlen(e->u.cast.type.text) : 0);
        o_end(o);
        break;
    case AE_COLLATE:
        o_node(o, "collate", e->span, 0);
        o_expr(o, "x", e->u.collate.x);
        o_pos(o, "collation");
        name_atom(o, &e->u.collate.name);
        o_end(o);
        break;
    case AE_FUNC: print_func(o, e); break;
    case AE_VECTOR:
        o_node(o, "row", e->span, 0);
        o_exprs(o, "items", &e->u.vec.items, 0);
        o_end(o);
        break;
    case AE_RAISE:
        o_node(o, op_sym(e->op), e->span, 0);
        if (ast_name_present(&e->u.raise.msg)) {
            o_pos(o, "message");
            name_atom(o, &e->u.raise.msg);
        }
        o_end(o);
        break;
    default:
        o_node(o, "?", e->span, 0);
        o_end(o);
        break;
    }
}

/* ------------------------------------------------------------------ */
/* ORDER BY, windows                                                   */
/* ------------------------------------------------------------------ */

static void print_order(Out *o, const char *key, const AstOrderList *l) {
    if (l->n == 0) return;
    o_list(o, key, 0);
    for (uint32_t i = 0; i < l->n; i++) {
        const AstOrderTerm *t = &l->items[i];
        o_item(o);
        o_node(o, "sort", t->span, 0);
        o_expr(o, "expr", t->expr);
        o_flag(o, "asc", t->dir == AST_SORT_ASC);
        o_flag(o, "desc", t->dir == AST_SORT_DESC);
        o_flag(o, "nulls-first", t->nulls == AST_NULLS_FIRST);
        o_flag(o, "nulls-last", t->nulls == AST_NULLS_LAST);
        o_end(o);
    }
    o_list_end(o);
}

static const char *bound_name(uint8_t k) {
    switch (k) {
    case AST_BOUND_UNBOUNDED_PRECEDING: return "unbounded-preceding";
    case AST_BOUND_PRECEDING: return "preceding";
    case AST_BOUND_CURRENT_ROW: return "current-row";
    case AST_BOUND_FOLLOWING: return "following";
    default: return "unbounded-following";
    }
}

static void print_bound(Out *o, const char *key, const AstFrameBound *b) {
    o_field(o, key);
    if (o->w) {
        sq_jw_obj_begin(o->w);
        sq_jw_key(o->w, "kind");
        sq_jw_str(o->w, bound_name(b->kind));
        if (b->expr) {
            sq_jw_key(o->w, "expr");
            print_expr(o, b->expr);
        }
        sq_jw_obj_end(o->w);
    } else {
        o_item(o);
        sq_buf_puts(o->b, bound_name(b->kind));
        if (b->expr) {
            o_item(o);
            print_expr(o, b->expr);
        }
    }
    o_field_end(o);
}

static void print_frame(Out *o, const AstWindow *w) {
    static const char *const units[] = {"none", "range", "rows", "groups"};
    static const char *const excl[] = {"none", "no-others", "current-row",
                                       "group", "ties"};
    if (w->unit == AST_FRAME_NONE) return;
    o_field(o, "frame");
    o_item(o);
    o_node(o, units[w->unit], w->span, 0);
    print_bound(o, "start", &w->start);
    if (w->flags & AWF_BETWEEN) print_bound(o, "end", &w->end);
    if (w->exclude) {
        o_field(o, "exclude");
        o_item(o);
        o_sym(o, excl[w->exclude]);
        o_field_end(o);
    }
    o_end(o);
    o_field_end(o);
}

static void print_window(Out *o, const AstWindow *w, const char *kind) {
    o_node(o, kind, w->span, 0);
    o_name(o, "name", &w->name);
    o_name(o, "base", &w->base);
    if (w->partition.n) o_exprs(o, "partition-by", &w->partition, 1);
    print_order(o, "order-by", &w->order);
    print_frame(o, w);
    o_end(o);
}

/* ------------------------------------------------------------------ */
/* SELECT                                                              */
/* ------------------------------------------------------------------ */

static void print_join(Out *o, uint8_t jt) {
    SqBuf t = SQ_BUF_INIT;
    if (jt & AST_JT_COMMA) sq_buf_puts(&t, "comma");
    else {
        if (jt & AST_JT_NATURAL) sq_buf_puts(&t, "natural-");
        if ((jt & (AST_JT_LEFT | AST_JT_RIGHT)) == (AST_JT_LEFT | AST_JT_RIGHT))
            sq_buf_puts(&t, "full");
        else if (jt & AST_JT_LEFT) sq_buf_puts(&t, "left");
        else if (jt & AST_JT_RIGHT) sq_buf_puts(&t, "right");
        else if (jt & AST_JT_CROSS) sq_buf_puts(&t, "cross");
        else sq_buf_puts(&t, "inner");
    }
    o_field(o, "join");
    o_item(o);
    o_sym(o, sq_buf_str(&t));
    o_field_end(o);
    sq_buf_free(&t);
}

static void print_from(Out *o, const AstFrom *f);

static void print_from_item(Out *o, const AstFromItem *it, int first) {
    static const char *const kinds[] = {"table", "subquery", "nested"};
    o_node(o, kinds[it->kind], it->span, 0);
    if (!first) print_join(o, it->join);
    if (it->kind == AST_FROM_TABLE) o_qualified(o, "name", &it->schema, &it->name);
    if (it->flags & AST_FROMF_TVF) o_exprs(o, "args", &it->args, 1);
    o_name(o, "as", &it->alias);
    o_name(o, "indexed-by", &it->index);
    o_flag(o, "not-indexed", (it->flags & AST_FROMF_NOT_INDEXED) != 0);
    if (it->kind == AST_FROM_SUBQUERY) {
        o_pos(o, "select");
        print_select(o, it->select);
    }
    if (it->kind == AST_FROM_NESTED) print_from(o, it->nested);
    o_expr_field(o, "on", it->on);
    if (it->flags & AST_FROMF_USING) o_names(o, "using", &it->using);
    o_end(o);
}

static void print_from(Out *o, const AstFrom *f) {
    if (!f) return;
    o_list(o, "from", 0);
    for (uint32_t i = 0; i < f->n; i++) {
        o_item(o);
        print_from_item(o, f->items[i], i == 0);
    }
    o_list_end(o);
}

static void print_with(Out *o, const AstWith *w) {
    if (!w) return;
    o_list(o, w->recursive ? "with-recursive" : "with", 1);
    for (uint32_t i = 0; i < w->n_ctes; i++) {
        const AstCte *c = &w->ctes[i];
        o_item(o);
        o_node(o, "cte", c->span, 1);
        o_pos(o, "name");
        name_atom(o, &c->name);
        o_names(o, "columns", &c->cols);
        o_flag(o, "materialized", c->materialized == AST_MAT_YES);
        o_flag(o, "not-materialized", c->materialized == AST_MAT_NO);
        o_pos(o, "select");
        print_select(o, c->select);
        o_end(o);
    }
    o_list_end(o);
}

static void print_results(Out *o, const char *key, const AstResultList *l) {
    o_list(o, key, 0);
    for (uint32_t i = 0; i < l->n; i++) {
        const AstResultCol *c = &l->items[i];
        o_item(o);
        if (c->kind == AST_RC_STAR) {
            o_node(o, "star", c->span, 0);
        } else if (c->kind == AST_RC_TABLE_STAR) {
            o_node(o, "table-star", c->span, 0);
            o_pos(o, "table");
            name_atom(o, &c->table);
        } else {
            o_node(o, "result", c->span, 0);
            o_expr(o, "expr", c->expr);
            o_name(o, c->has_as ? "as" : "alias", &c->alias);
        }
        o_end(o);
    }
    o_list_end(o);
}

static void print_limit(Out *o, const AstSelect *s) {
    o_expr_field(o, "limit", s->limit);
    o_expr_field(o, "offset", s->offset);
    o_flag(o, "limit-comma", (s->flags & AST_SELF_LIMIT_COMMA) != 0);
}

static void print_core(Out *o, const AstSelect *s) {
    o_flag(o, "distinct", (s->flags & AST_SELF_DISTINCT) != 0);
    o_flag(o, "all", (s->flags & AST_SELF_ALL) != 0);
    print_results(o, "columns", &s->cols);
    print_from(o, s->from);
    o_expr_field(o, "where", s->where);
    if (s->group_by.n) o_exprs(o, "group-by", &s->group_by, 1);
    o_expr_field(o, "having", s->having);
    if (s->windows.n) {
        o_list(o, "window", 0);
        for (uint32_t i = 0; i < s->windows.n; i++) {
            o_item(o);
            print_window(o, s->windows.items[i], "window-def");
        }
        o_list_end(o);
    }
}

static const char *set_op_kind(uint8_t op) {
    switch (op) {
    case AST_SET_UNION: return "union";
    case AST_SET_UNION_ALL: return "union-all";
    case AST_SET_INTERSECT: return "intersect";
    default: return "except";
    }
}

static void print_select(Out *o, const AstSelect *s) {
    const char *kind = s->kind == AST_SEL_CORE     ? "select"
                     : s->kind == AST_SEL_VALUES   ? "values"
                                                   : set_op_kind(s->op);
    o_node(o, kind, s->span, 1);
    print_with(o, s->with);
    if (s->kind == AST_SEL_CORE) {
        print_core(o, s);
    } else if (s->kind == AST_SEL_VALUES) {
        o_list(o, "rows", 0);
        for (uint32_t i = 0; i < s->n_rows; i++) {
            o_item(o);
            o_node(o, "row", s->rows[i].span, 0);
            o_exprs(o, "values", &s->rows[i].values, 0);
            o_end(o);
        }
        o_list_end(o);
    } else {
        o_pos(o, "left");
        print_select(o, s->left);
        o_pos(o, "right");
        print_select(o, s->right);
    }
    print_order(o, "order-by", &s->order_by);
    print_limit(o, s);
    o_end(o);
}

/* ------------------------------------------------------------------ */
/* DDL                                                                 */
/* ------------------------------------------------------------------ */

static const char *conflict_name(uint8_t c) {
    static const char *const names[] = {"default", "rollback", "abort", "fail",
                                        "ignore", "replace"};
    return c < SQ_ARRAY_LEN(names) ? names[c] : "?";
}

static const char *fk_action_name(uint8_t a) {
    static const char *const names[] = {"none", "set-null", "set-default",
                                        "cascade", "restrict", "no-action"};
    return a < SQ_ARRAY_LEN(names) ? names[a] : "?";
}

static void o_sym_field(Out *o, const char *key, const char *value) {
    o_field(o, key);
    o_item(o);
    o_sym(o, value);
    o_field_end(o);
}

static void print_fk(Out *o, const AstForeignKey *fk) {
    o_name(o, "references", &fk->table);
    o_names(o, "ref-columns", &fk->cols);
    if (fk->on_delete) o_sym_field(o, "on-delete", fk_action_name(fk->on_delete));
    if (fk->on_update) o_sym_field(o, "on-update", fk_action_name(fk->on_update));
    o_flag(o, "deferred", fk->deferred);
}

static void print_col_cons(Out *o, const AstColCons *k) {
    static const char *const kinds[] = {
        "primary-key", "not-null", "null", "unique", "check", "default",
        "collate", "references", "generated", "deferrable"};
    o_node(o, kinds[k->kind], k->span, 0);
    o_name(o, "constraint", &k->name);
    if (k->conflict) o_sym_field(o, "on-conflict", conflict_name(k->conflict));
    o_flag(o, "asc", k->dir == AST_SORT_ASC);
    o_flag(o, "desc", k->dir == AST_SORT_DESC);
    o_flag(o, "autoincrement", k->kind == AST_CC_PRIMARY_KEY && k->autoinc);
    o_expr(o, "expr", k->expr);
    if (k->kind == AST_CC_COLLATE) {
        o_pos(o, "collation");
        name_atom(o, &k->collation);
    }
    o_name(o, "storage", &k->storage);
    if (k->kind == AST_CC_REFERENCES) print_fk(o, &k->fk);
    o_end(o);
}

static void print_table_cons(Out *o, const AstTableCons *k) {
    static const char *const kinds[] = {"primary-key", "unique", "check",
                                        "foreign-key"};
    o_node(o, kinds[k->kind], k->span, 0);
    o_name(o, "constraint", &k->name);
    print_order(o, "columns", &k->cols);
    o_names(o, "columns", &k->fk_cols);
    if (k->conflict) o_sym_field(o, "on-conflict", conflict_name(k->conflict));
    o_flag(o, "autoincrement", k->autoinc);
    o_expr(o, "expr", k->check);
    if (k->kind == AST_TC_FOREIGN_KEY) print_fk(o, &k->fk);
    o_end(o);
}

static void print_create_table(Out *o, const AstCreateTable *t) {
    o_qualified(o, "name", &t->schema, &t->name);
    o_flag(o, "temp", (t->flags & AST_TBL_TEMP) != 0);
    o_flag(o, "if-not-exists", (t->flags & AST_TBL_IF_NOT_EXISTS) != 0);
    o_flag(o, "without-rowid", (t->flags & AST_TBL_WITHOUT_ROWID) != 0);
    o_flag(o, "strict", (t->flags & AST_TBL_STRICT) != 0);
    if (t->n_cols) {
        o_list(o, "columns", 1);
        for (uint32_t i = 0; i < t->n_cols; i++) {
            const AstColumnDef *c = &t->cols[i];
            o_item(o);
            o_node(o, "column", c->span, 0);
            o_pos(o, "name");
            name_atom(o, &c->name);
            if (c->type.text) {
                o_field(o, "type");
                o_item(o);
                o_str(o, c->type.text, strlen(c->type.text));
                o_field_end(o);
            }
            for (uint32_t j = 0; j < c->n_cons; j++) {
                if (o->w && j == 0) o_list(o, "constraints", 0);
                o_item(o);
                print_col_cons(o, &c->cons[j]);
            }
            if (o->w && c->n_cons) o_list_end(o);
            o_end(o);
        }
        o_list_end(o);
    }
    if (t->n_cons) {
        o_list(o, "constraints", 1);
        for (uint32_t i = 0; i < t->n_cons; i++) {
            o_item(o);
            print_table_cons(o, &t->cons[i]);
        }
        o_list_end(o);
    }
    if (t->as_select) {
        o_field(o, "as");
        o_item(o);
        print_select(o, t->as_select);
        o_field_end(o);
    }
}

/* ------------------------------------------------------------------ */
/* DML                                                                 */
/* ------------------------------------------------------------------ */

static void print_qtable(Out *o, const AstQualifiedTable *t) {
    o_qualified(o, "table", &t->schema, &t->name);
    o_name(o, "as", &t->alias);
    o_name(o, "indexed-by", &t->index);
    o_flag(o, "not-indexed", t->indexed == 2);
}

static void print_set(Out *o, const AstSetList *l) {
    o_list(o, "set", 0);
    for (uint32_t i = 0; i < l->n; i++) {
        o_item(o);
        o_node(o, "assign", l->items[i].value->span, 0);
        o_names(o, "columns", &l->items[i].cols);
        o_expr(o, "value", l->items[i].value);
        o_end(o);
    }
    o_list_end(o);
}

static void print_returning(Out *o, const AstResultList *r) {
    if (r->n) print_results(o, "returning", r);
}

static void print_insert(Out *o, const AstInsert *in) {
    print_with(o, in->with);
    if (in->conflict) o_sym_field(o, "or", conflict_name(in->conflict));
    print_qtable(o, &in->table);
    o_names(o, "columns", &in->cols);
    if (in->select) {
        o_pos(o, "select");
        print_select(o, in->select);
    } else {
        o_flag(o, "default-values", 1);
    }
    if (in->upsert) {
        o_list(o, "upsert", 0);
        for (const AstUpsert *u = in->upsert; u; u = u->next) {
            o_item(o);
            o_node(o, "on-conflict", in->table.name.span, 0);
            print_order(o, "target", &u->target);
            o_expr_field(o, "target-where", u->target_where);
            if (u->do_update) print_set(o, &u->set);
            else o_flag(o, "do-nothing", 1);
            o_expr_field(o, "where", u->where);
            o_end(o);
        }
        o_list_end(o);
    }
    print_returning(o, &in->returning);
}

static void print_update(Out *o, const AstUpdate *up) {
    print_with(o, up->with);
    if (up->conflict) o_sym_field(o, "or", conflict_name(up->conflict));
    print_qtable(o, &up->table);
    print_set(o, &up->set);
    print_from(o, up->from);
    o_expr_field(o, "where", up->where);
    print_returning(o, &up->returning);
    print_order(o, "order-by", &up->order_by);
    o_expr_field(o, "limit", up->limit);
    o_expr_field(o, "offset", up->offset);
}

static void print_delete(Out *o, const AstDelete *d) {
    print_with(o, d->with);
    print_qtable(o, &d->table);
    o_expr_field(o, "where", d->where);
    print_returning(o, &d->returning);
    print_order(o, "order-by", &d->order_by);
    o_expr_field(o, "limit", d->limit);
    o_expr_field(o, "offset", d->offset);
}

/* ------------------------------------------------------------------ */
/* Statements                                                          */
/* ------------------------------------------------------------------ */

static void print_stmt_body(Out *o, const AstStmt *s);

static void print_trigger_header(Out *o, const AstStmt *s) {
    static const char *const times[] = {"default", "before", "after", "instead-of"};
    static const char *const events[] = {"?", "delete", "insert", "update"};
    o_qualified(o, "name", &s->u.trigger.schema, &s->u.trigger.name);
    o_flag(o, "temp", s->u.trigger.temp);
    o_flag(o, "if-not-exists", s->u.trigger.if_not_exists);
    if (s->u.trigger.time) o_sym_field(o, "time", times[s->u.trigger.time]);
    o_field(o, "event");
    o_item(o);
    o_sym(o, events[s->u.trigger.event]);
    o_names(o, "of", &s->u.trigger.update_of);
    o_field_end(o);
    o_qualified(o, "on", &s->u.trigger.table_schema, &s->u.trigger.table);
    o_flag(o, "for-each-row", s->u.trigger.for_each_row);
    o_expr_field(o, "when", s->u.trigger.when);
}

static void print_misc(Out *o, const AstStmt *s) {
    static const char *const drops[] = {"table", "view", "index", "trigger"};
    static const char *const txns[] = {"begin", "commit", "rollback",
                                       "savepoint", "release", "rollback-to"};
    static const char *const modes[] = {"default", "deferred", "immediate",
                                        "exclusive"};
    switch ((AstStmtKind)s->kind) {
    case AST_STMT_DROP:
        o_sym_field(o, "object", drops[s->u.drop.what]);
        o_flag(o, "if-exists", s->u.drop.if_exists);
        o_qualified(o, "name", &s->u.drop.schema, &s->u.drop.name);
        break;
    case AST_STMT_PRAGMA:
        o_qualified(o, "name", &s->u.pragma.schema, &s->u.pragma.name);
        if (s->u.pragma.has_value) {
            o_field(o, "value");
            o_item(o);
            o_str(o, s->u.pragma.value, strlen(s->u.pragma.value));
            o_field_end(o);
        }
        break;
    case AST_STMT_TRANSACTION:
        o_sym_field(o, "op", txns[s->u.txn.what]);
        if (s->u.txn.mode) o_sym_field(o, "mode", modes[s->u.txn.mode]);
        o_name(o, "name", &s->u.txn.name);
        break;
    case AST_STMT_CREATE_TRIGGER:
        print_trigger_header(o, s);
        o_list(o, "body", 1);
        for (uint32_t i = 0; i < s->u.trigger.body.n; i++) {
            o_item(o);
            print_stmt_body(o, s->u.trigger.body.items[i]);
        }
        o_list_end(o);
        break;
    case AST_STMT_CREATE_VTAB:
        o_qualified(o, "name", &s->u.vtab.schema, &s->u.vtab.name);
        o_name(o, "using", &s->u.vtab.module);
        if (s->u.vtab.n_args) {
            o_list(o, "args", 0);
            for (uint32_t i = 0; i < s->u.vtab.n_args; i++) {
                o_item(o);
                o_str(o, s->u.vtab.args[i], strlen(s->u.vtab.args[i]));
            }
            o_list_end(o);
        }
        break;
    default:
        if (ast_name_present(&s->u.object.name))
            o_qualified(o, "name", &s->u.object.schema, &s->u.object.name);
        break;
    }
}

static void print_stmt_body(Out *o, const AstStmt *s) {
    o_node(o, ast_stmt_kind_name((AstStmtKind)s->kind), s->span, 1);
    o_flag(o, "explain", (s->flags & AST_STMTF_EXPLAIN) && !(s->flags & AST_STMTF_QUERY_PLAN));
    o_flag(o, "explain-query-plan", (s->flags & AST_STMTF_QUERY_PLAN) != 0);
    switch ((AstStmtKind)s->kind) {
    case AST_STMT_SELECT:
        o_pos(o, "select");
        print_select(o, s->u.select);
        break;
    case AST_STMT_CREATE_TABLE: print_create_table(o, s->u.create_table); break;
    case AST_STMT_CREATE_INDEX: {
        const AstCreateIndex *ix = s->u.create_index;
        o_qualified(o, "name", &ix->schema, &ix->name);
        o_flag(o, "unique", ix->unique);
        o_flag(o, "if-not-exists", ix->if_not_exists);
        o_name(o, "on", &ix->table);
        print_order(o, "columns", &ix->cols);
        o_expr_field(o, "where", ix->where);
        break;
    }
    case AST_STMT_CREATE_VIEW: {
        const AstCreateView *v = s->u.create_view;
        o_qualified(o, "name", &v->schema, &v->name);
        o_flag(o, "temp", v->temp);
        o_flag(o, "if-not-exists", v->if_not_exists);
        o_names(o, "columns", &v->cols);
        o_pos(o, "select");
        print_select(o, v->select);
        break;
    }
    case AST_STMT_INSERT: print_insert(o, s->u.insert); break;
    case AST_STMT_UPDATE: print_update(o, s->u.update); break;
    case AST_STMT_DELETE: print_delete(o, s->u.del); break;
    default: print_misc(o, s); break;
    }
    o_end(o);
}

void ast_print_sexp(SqBuf *out, const AstStmt *stmt) {
    Out o;
    memset(&o, 0, sizeof o);
    o.b = out;
    print_stmt_body(&o, stmt);
    sq_buf_putc(out, '\n');
}

void ast_print_json(SqJsonWriter *w, const AstStmt *stmt) {
    Out o;
    memset(&o, 0, sizeof o);
    o.w = w;
    print_stmt_body(&o, stmt);
}
