/*
** sql.c -- SQLite SQL text from the IR (the sql emitter).
**
** Layer: backend.  Every operator chain of the shape described in ir/ir.h
** becomes one SELECT (or VALUES, or compound); a FROM-item subquery, a CTE
** body and a subquery expression are emitted in place.  The output is
** deterministic and fully qualified: each FROM item has a statement-unique
** alias (ir_sql_aliases) and every column is written alias.column, so the
** text does not depend on SQLite's name-resolution rules any more (USING
** and NATURAL become ON conditions, * becomes its columns, aliases used in
** WHERE or GROUP BY become the expressions they stand for, named windows
** are written out in full).  Aggregate and window outputs are written as
** the calls that compute them, so the emitted query has the same shape as
** the one bound: SQLite groups, filters and sorts it the same way, bare
** columns in aggregate queries included.
*/
#include <string.h>

#include "backend/emit/emit.h"

typedef struct Emitter {
    IrQuery *q;
    const char **alias; /* by rel id */
    IrNaming nm;
} Emitter;

static void emit_query(Emitter *E, SqBuf *out, IrRel *r, const SqColumnList *names);

/* ------------------------------------------------------------------ */
/* Column references                                                   */
/* ------------------------------------------------------------------ */

/* A name for the rowid that no column of the table shadows. */
static const char *rowid_name(const IrRel *r) {
    static const char *const names[] = {"rowid", "oid", "_rowid_"};
    for (int k = 0; k < 3; k++) {
        int taken = 0;
        for (uint32_t i = 0; i < r->cols.n && !taken; i++)
            taken = sq_stricmp(r->cols.items[i].name, names[k]) == 0;
        if (!taken) return names[k];
    }
    return "rowid";
}

static void emit_agg_item(Emitter *E, SqBuf *out, const SqAggItem *it) {
    const char *mark = E->nm.mark ? E->nm.mark(E->nm.mark_ctx, it) : NULL;
    if (mark)
        sq_buf_puts(out, mark);
    else if (it->kind == SQ_AGG_CALL)
        ir_sql_call(out, it->name, it->distinct, it->star, &it->args, it->filter, &E->nm);
    else
        ir_sql_expr(out, it->expr, &E->nm);
}

static void emit_column(void *ctx, SqBuf *out, const SqExpr *e) {
    Emitter *E = ctx;
    const IrRel *r = ir_rel(E->q, e->u.col.rel);
    if (!r) {
        sq_buf_puts(out, "NULL");
        return;
    }
    if (r->kind == IR_AGGREGATE && e->u.col.col < r->u.agg.n_items) {
        emit_agg_item(E, out, &r->u.agg.items[e->u.col.col]);
        return;
    }
    if (r->kind == IR_WINDOW && e->u.col.col < r->u.window.n_calls) {
        ir_sql_window(out, &r->u.window.calls[e->u.col.col], &E->nm);
        return;
    }
    const char *alias = E->alias[r->id];
    if (alias) {
        ir_sql_ident(out, alias);
        sq_buf_putc(out, '.');
    }
    if (e->flags & SQXF_ROWID || e->u.col.col >= r->cols.n) sq_buf_puts(out, rowid_name(r));
    else ir_sql_ident(out, r->cols.items[e->u.col.col].name);
}

static void emit_subquery(void *ctx, SqBuf *out, const SqExpr *e) {
    sq_buf_putc(out, '(');
    emit_query(ctx, out, e->u.sub.rel, NULL);
    sq_buf_putc(out, ')');
}

/* ------------------------------------------------------------------ */
/* FROM                                                                */
/* ------------------------------------------------------------------ */

static void name_as(Emitter *E, SqBuf *out, const char *name, const IrRel *r) {
    ir_sql_ident(out, name);
    const char *alias = E->alias[r->id];
    if (alias && strcmp(alias, name) != 0) {
        sq_buf_puts(out, " AS ");
        ir_sql_ident(out, alias);
    }
}

static void emit_item(Emitter *E, SqBuf *out, IrRel *r) {
    switch ((IrRelKind)r->kind) {
    case IR_SCAN:
        if (r->u.scan.tvf) { /* json_each(args) AS alias */
            ir_sql_ident(out, r->u.scan.table->name);
            sq_buf_putc(out, '(');
            ir_sql_list(out, &r->u.scan.args, &E->nm);
            sq_buf_puts(out, ") AS ");
            ir_sql_ident(out, E->alias[r->id]);
            return;
        }
        name_as(E, out, r->u.scan.table->name, r);
        return;
    case IR_CTEREF: name_as(E, out, r->u.cteref.cte->name, r); return;
    default:
        if (r->flags & IRF_VIEW) {
            name_as(E, out, r->view->name, r);
            return;
        }
        sq_buf_putc(out, '(');
        emit_query(E, out, r->input, &r->cols);
        sq_buf_puts(out, ") AS ");
        ir_sql_ident(out, E->alias[r->id]);
    }
}

static const char *join_word(const IrRel *j) {
    switch ((IrJoinType)j->u.join.type) {
    case IR_JOIN_LEFT: return " LEFT JOIN ";
    case IR_JOIN_RIGHT: return " RIGHT JOIN ";
    case IR_JOIN_FULL: return " FULL JOIN ";
    default: break;
    }
    if (j->u.join.written & AST_JT_CROSS) return " CROSS JOIN ";
    if ((j->flags & IRF_COMMA) && !j->u.join.cond) return ", ";
    return " JOIN ";
}

static int is_semi(const IrRel *r) {
    return r->kind == IR_JOIN &&
           (r->u.join.type == IR_JOIN_SEMI || r->u.join.type == IR_JOIN_ANTI);
}

/* A semi-join keeps the rows of its left side that have a match: SQL
** writes it as EXISTS in WHERE, so FROM shows only its left side. */
static void emit_from(Emitter *E, SqBuf *out, IrRel *r) {
    if (r->kind != IR_JOIN) {
        emit_item(E, out, r);
        return;
    }
    emit_from(E, out, r->u.join.left);
    if (is_semi(r)) return;
    sq_buf_puts(out, join_word(r));
    emit_item(E, out, r->u.join.right);
    if (r->u.join.cond) {
        sq_buf_puts(out, " ON ");
        ir_sql_expr(out, r->u.join.cond, &E->nm);
    }
}

/* ------------------------------------------------------------------ */
/* SELECT core                                                         */
/* ------------------------------------------------------------------ */

static int is_no_from(const IrRel *r) {
    return r->kind == IR_VALUES && !(r->flags & IRF_FROM_ITEM) && r->cols.n == 0;
}

static void emit_results(Emitter *E, SqBuf *out, const IrRel *p, const SqColumnList *names) {
    uint32_t k = 0;
    for (uint32_t i = 0; i < p->cols.n; i++) {
        if (p->cols.items[i].hidden) continue;
        const SqExpr *e = p->u.project.exprs.items[i];
        const char *name = names && k < names->n ? names->items[k].name : p->cols.items[i].name;
        if (k++) sq_buf_puts(out, ", ");
        size_t at = out->len;
        ir_sql_expr(out, e, &E->nm);
        const IrRel *src = e->kind == SQX_COLUMN ? ir_rel(E->q, e->u.col.rel) : NULL;
        int same = src && (src->flags & IRF_FROM_ITEM) && !(e->flags & SQXF_ROWID) &&
                   e->u.col.col < src->cols.n && strcmp(src->cols.items[e->u.col.col].name, name) == 0;
        /* SQLite names an unaliased expression by its text */
        same |= strlen(name) == out->len - at &&
                memcmp(out->data + at, name, out->len - at) == 0;
        if (!same) {
            sq_buf_puts(out, " AS ");
            ir_sql_ident(out, name);
        }
    }
}

static void emit_group_by(Emitter *E, SqBuf *out, const IrRel *agg) {
    const char *sep = " GROUP BY ";
    for (uint32_t i = 0; i < agg->u.agg.n_items; i++) {
        const SqAggItem *it = &agg->u.agg.items[i];
        if (it->kind != SQ_AGG_KEY) continue;
        sq_buf_puts(out, sep);
        ir_sql_expr(out, it->expr, &E->nm);
        sep = ", ";
    }
}

/* ORDER BY: a visible result column by its position, a hidden one (an
** ORDER BY term that is not in the result list) by its expression. */
static void emit_order_by(Emitter *E, SqBuf *out, const IrRel *sort, const IrRel *project) {
    for (uint32_t i = 0; i < sort->u.sort.n_keys; i++) {
        const SqSortKey *k = &sort->u.sort.keys[i];
        uint32_t col = k->expr->u.col.col;
        sq_buf_puts(out, i ? ", " : " ORDER BY ");
        SqExpr pos;
        if (project && col < project->cols.n && project->cols.items[col].hidden) {
            ir_sql_sort_key_as(out, k, project->u.project.exprs.items[col], &E->nm);
        } else {
            memset(&pos, 0, sizeof pos);
            pos.kind = SQX_LITERAL;
            pos.u.lit.vtype = SQ_VAL_INTEGER;
            pos.u.lit.i = col + 1;
            ir_sql_sort_key_as(out, k, &pos, &E->nm);
        }
    }
}

/* The semi- and anti-joins of the FROM tree's left spine as [NOT] EXISTS,
** innermost first. */
static int emit_semi_joins(Emitter *E, SqBuf *out, const IrRel *r, int any) {
    if (r->kind != IR_JOIN) return any;
    any = emit_semi_joins(E, out, r->u.join.left, any);
    if (!is_semi(r)) return any;
    sq_buf_puts(out, any ? " AND " : " WHERE ");
    sq_buf_puts(out, r->u.join.type == IR_JOIN_ANTI ? "NOT EXISTS (SELECT 1 FROM " : "EXISTS (SELECT 1 FROM ");
    emit_item(E, out, r->u.join.right);
    if (r->u.join.cond) {
        sq_buf_puts(out, " WHERE ");
        ir_sql_expr(out, r->u.join.cond, &E->nm);
    }
    sq_buf_putc(out, ')');
    return 1;
}

static void emit_where(Emitter *E, SqBuf *out, const IrCore *c) {
    int any = 0;
    if (c->where) {
        sq_buf_puts(out, " WHERE ");
        ir_sql_expr(out, c->where->u.filter.pred, &E->nm);
        any = 1;
    }
    emit_semi_joins(E, out, c->from, any);
}

static void emit_core(Emitter *E, SqBuf *out, const IrCore *c, const SqColumnList *names) {
    sq_buf_puts(out, c->distinct ? "SELECT DISTINCT " : "SELECT ");
    emit_results(E, out, c->project, names);
    if (!is_no_from(c->from)) {
        sq_buf_puts(out, " FROM ");
        emit_from(E, out, c->from);
    }
    emit_where(E, out, c);
    if (c->agg) emit_group_by(E, out, c->agg);
    if (c->having) {
        sq_buf_puts(out, " HAVING ");
        ir_sql_expr(out, c->having->u.filter.pred, &E->nm);
    }
    if (c->sort) emit_order_by(E, out, c->sort, c->project);
}

/* ------------------------------------------------------------------ */
/* VALUES, compounds, WITH                                             */
/* ------------------------------------------------------------------ */

static void emit_values(Emitter *E, SqBuf *out, const IrRel *r) {
    sq_buf_puts(out, "VALUES ");
    for (uint32_t i = 0; i < r->u.values.n_rows; i++) {
        sq_buf_puts(out, i ? ", (" : "(");
        ir_sql_list(out, &r->u.values.rows[i], &E->nm);
        sq_buf_putc(out, ')');
    }
}


static void emit_term(Emitter *E, SqBuf *out, IrRel *r, const SqColumnList *names) {
    if (r->kind == IR_SETOP) {
        emit_term(E, out, r->u.setop.left, names);
        sq_buf_printf(out, " %s ", ast_set_op_sql((AstSetOp)r->u.setop.op));
        emit_term(E, out, r->u.setop.right, NULL);
    } else if (r->kind == IR_VALUES) {
        emit_values(E, out, r);
    } else {
        IrCore c;
        ir_core_split(&r, &c);
        emit_core(E, out, &c, names);
    }
}

static void emit_with(Emitter *E, SqBuf *out, const IrWith *w) {
    int any = 0;
    for (uint32_t i = 0; i < w->n_ctes; i++) {
        const IrCte *c = w->ctes[i];
        if (!c->body) continue; /* never referenced, never bound */
        sq_buf_puts(out, any++ ? ", " : w->recursive ? "WITH RECURSIVE " : "WITH ");
        ir_sql_ident(out, c->name);
        sq_buf_putc(out, '(');
        for (uint32_t k = 0; k < c->cols.n; k++) {
            if (k) sq_buf_puts(out, ", ");
            ir_sql_ident(out, c->cols.items[k].name);
        }
        sq_buf_puts(out, ") AS ");
        if (c->materialized == AST_MAT_YES) sq_buf_puts(out, "MATERIALIZED ");
        if (c->materialized == AST_MAT_NO) sq_buf_puts(out, "NOT MATERIALIZED ");
        sq_buf_putc(out, '(');
        emit_query(E, out, c->body, NULL);
        sq_buf_putc(out, ')');
    }
    if (any) sq_buf_putc(out, ' ');
}

static void emit_query(Emitter *E, SqBuf *out, IrRel *r, const SqColumnList *names) {
    if (r->with) emit_with(E, out, r->with);
    IrCore c;
    if (ir_core_split(&r, &c)) {
        emit_core(E, out, &c, names);
    } else { /* a compound or VALUES under its ORDER BY and LIMIT */
        IrRel *body = c.sort ? c.sort->input : c.limit ? c.limit->input : r;
        emit_term(E, out, body, names);
        if (c.sort) emit_order_by(E, out, c.sort, NULL);
    }
    if (c.limit) {
        sq_buf_puts(out, " LIMIT ");
        ir_sql_expr(out, c.limit->u.limit.count, &E->nm);
        if (c.limit->u.limit.offset) {
            sq_buf_puts(out, " OFFSET ");
            ir_sql_expr(out, c.limit->u.limit.offset, &E->nm);
        }
    }
}

int sq_emit_sqlite_marked(IrQuery *q, const char *(*mark)(void *ctx, const void *node), void *ctx,
                          SqBuf *out) {
    if (!q->root) return 0;
    Emitter E;
    E.q = q;
    E.alias = ir_sql_aliases(q);
    E.nm.ctx = &E;
    E.nm.column = emit_column;
    E.nm.subquery = emit_subquery;
    E.nm.mark = mark;
    E.nm.mark_ctx = ctx;
    emit_query(&E, out, q->root, NULL);
    return 1;
}

int sq_emit_sqlite(IrQuery *q, SqBuf *out) {
    return sq_emit_sqlite_marked(q, NULL, NULL, out);
}

/* The sql emitter's row: the statement, ended. */
int sq_emit_sql(const Catalog *cat, IrQuery *q, SqBuf *out) {
    (void)cat;
    if (!sq_emit_sqlite(q, out)) return 0;
    sq_buf_puts(out, ";\n");
    return 1;
}
