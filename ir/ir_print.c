/*
** ir_print.c -- the IR as text and as JSON (`squint ir --format text|json`).
**
** Layer: ir.  Both forms are stable: relations appear in a fixed order,
** columns of FROM items are written alias.column with the statement-unique
** aliases of ir_sql_aliases(), every other column as $id.index (the id of
** the relation that produces it).  Each produced column is listed with its
** type: storage class, nullability and, where it has one, its affinity.
**
** Text form, one relation per line, inputs indented below:
**
**   project $3
**     $3.0 b: TEXT notnull = $4.0
**     aggregate $4
**       $4.0 key: TEXT notnull = t.b
**       $4.1 call: INTEGER notnull = count(*)
**       scan $1 t (a INTEGER notnull affinity INTEGER, ...)
**
** A subquery expression is written (subquery $id), EXISTS $id or x IN $id,
** and its relation tree follows the relation that uses it, under a
** "subquery $id" line that lists the outer columns it reads.
*/
#include <string.h>

#include "ir/ir.h"

typedef struct Printer {
    IrQuery *q;
    const char **alias;
    SqBuf *out;
    int depth;
    IrNaming nm;
    IrRel **subs;      /* subquery roots met in the current relation */
    const SqExpr **sub_uses; /* the expression using each */
    uint32_t n_subs, cap_subs, cap_uses;
} Printer;

/* ------------------------------------------------------------------ */
/* Names and types                                                     */
/* ------------------------------------------------------------------ */

static void print_ref(Printer *P, SqBuf *out, SqColRef ref, int rowid) {
    const IrRel *r = ir_rel(P->q, ref.rel);
    if (r && (r->flags & IRF_FROM_ITEM) && P->alias[r->id]) {
        ir_sql_ident(out, P->alias[r->id]);
        sq_buf_putc(out, '.');
        if (rowid || ref.col >= r->cols.n) sq_buf_puts(out, "rowid");
        else ir_sql_ident(out, r->cols.items[ref.col].name);
        return;
    }
    sq_buf_printf(out, "$%u.%u", ref.rel, ref.col);
}

static void name_column(void *ctx, SqBuf *out, const SqExpr *e) {
    print_ref(ctx, out, e->u.col, (e->flags & SQXF_ROWID) != 0);
}

static void name_subquery(void *ctx, SqBuf *out, const SqExpr *e) {
    Printer *P = ctx;
    sq_buf_printf(out, e->kind == SQX_SUBQUERY ? "(subquery $%u)" : "$%u", e->u.sub.rel->id);
    for (uint32_t i = 0; i < P->n_subs; i++)
        if (P->subs[i] == e->u.sub.rel) return;
    uint32_t n = P->n_subs;
    *SQ_ARENA_APPEND(P->q->arena, P->sub_uses, n, P->cap_uses) = e;
    *SQ_ARENA_APPEND(P->q->arena, P->subs, P->n_subs, P->cap_subs) = e->u.sub.rel;
}

void ir_type_text(SqBuf *out, SqType t) {
    static const char *const cls[] = {"ANY", "NULL", "INTEGER", "REAL", "TEXT", "BLOB", "NUMERIC"};
    sq_buf_printf(out, "%s %s", t.cls < 7 ? cls[t.cls] : "?", t.nullable ? "null" : "notnull");
    if (t.aff != SQ_AFF_BLOB) sq_buf_printf(out, " affinity %s", sq_affinity_name((SqAffinity)t.aff));
}

/* ------------------------------------------------------------------ */
/* Text                                                                */
/* ------------------------------------------------------------------ */

static void line(Printer *P) {
    for (int i = 0; i < P->depth; i++) sq_buf_puts(P->out, "  ");
}

static void print_rel(Printer *P, IrRel *r);

static void column_list(Printer *P, const SqColumnList *cols) {
    sq_buf_puts(P->out, " (");
    for (uint32_t i = 0; i < cols->n; i++) {
        if (i) sq_buf_puts(P->out, ", ");
        ir_sql_ident(P->out, cols->items[i].name);
        sq_buf_putc(P->out, ' ');
        ir_type_text(P->out, cols->items[i].type);
    }
    sq_buf_putc(P->out, ')');
}

/* "$id.i name: TYPE = expr" for each produced column. */
static void output(Printer *P, const IrRel *r, uint32_t i, const char *what, const SqExpr *e) {
    line(P);
    sq_buf_printf(P->out, "$%u.%u ", r->id, i);
    if (r->kind == IR_PROJECT && !r->cols.items[i].hidden) ir_sql_ident(P->out, what);
    else sq_buf_puts(P->out, what);
    sq_buf_puts(P->out, ": ");
    ir_type_text(P->out, r->cols.items[i].type);
    if (e) {
        sq_buf_puts(P->out, " = ");
        ir_sql_expr(P->out, e, &P->nm);
    }
    sq_buf_putc(P->out, '\n');
}

static void agg_lines(Printer *P, const IrRel *r) {
    for (uint32_t i = 0; i < r->u.agg.n_items; i++) {
        const SqAggItem *it = &r->u.agg.items[i];
        if (it->kind != SQ_AGG_CALL) {
            output(P, r, i, it->kind == SQ_AGG_KEY ? "key" : "bare", it->expr);
            continue;
        }
        line(P);
        sq_buf_printf(P->out, "$%u.%u call: ", r->id, i);
        ir_type_text(P->out, r->cols.items[i].type);
        sq_buf_puts(P->out, " = ");
        ir_sql_call(P->out, it->name, it->distinct, it->star, &it->args, it->filter, &P->nm);
        sq_buf_putc(P->out, '\n');
    }
}

static void head(Printer *P, IrRel *r) {
    SqBuf *o = P->out;
    line(P);
    switch ((IrRelKind)r->kind) {
    case IR_SCAN:
        sq_buf_printf(o, "scan $%u ", r->id);
        ir_sql_ident(o, r->u.scan.table->name);
        sq_buf_puts(o, " AS ");
        ir_sql_ident(o, P->alias[r->id]);
        column_list(P, &r->cols);
        break;
    case IR_CTEREF:
        sq_buf_printf(o, "cteref $%u ", r->id);
        ir_sql_ident(o, r->u.cteref.cte->name);
        sq_buf_puts(o, " AS ");
        ir_sql_ident(o, P->alias[r->id]);
        column_list(P, &r->cols);
        break;
    case IR_VALUES:
        sq_buf_printf(o, "values $%u", r->id);
        if (r->cols.n) column_list(P, &r->cols);
        else sq_buf_puts(o, " (one row, no columns: no FROM)");
        break;
    case IR_FILTER:
        sq_buf_puts(o, (r->flags & IRF_HAVING) ? "having " : "filter ");
        ir_sql_expr(o, r->u.filter.pred, &P->nm);
        break;
    case IR_PROJECT:
        sq_buf_printf(o, "project $%u", r->id);
        if (r->flags & IRF_FROM_ITEM) {
            sq_buf_puts(o, (r->flags & IRF_VIEW) ? " view " : " subquery AS ");
            if (r->flags & IRF_VIEW) {
                ir_sql_ident(o, r->view->name);
                sq_buf_puts(o, " AS ");
            }
            ir_sql_ident(o, P->alias[r->id]);
        }
        break;
    case IR_JOIN:
        sq_buf_printf(o, "join %s", ir_join_type_name((IrJoinType)r->u.join.type));
        if (r->u.join.cond) {
            sq_buf_puts(o, " on ");
            ir_sql_expr(o, r->u.join.cond, &P->nm);
        }
        break;
    case IR_AGGREGATE: sq_buf_printf(o, "aggregate $%u", r->id); break;
    case IR_DISTINCT: sq_buf_puts(o, "distinct"); break;
    case IR_SORT:
        sq_buf_puts(o, "sort ");
        for (uint32_t i = 0; i < r->u.sort.n_keys; i++) {
            if (i) sq_buf_puts(o, ", ");
            ir_sql_sort_key(o, &r->u.sort.keys[i], &P->nm);
        }
        break;
    case IR_LIMIT:
        sq_buf_puts(o, "limit ");
        ir_sql_expr(o, r->u.limit.count, &P->nm);
        if (r->u.limit.offset) {
            sq_buf_puts(o, " offset ");
            ir_sql_expr(o, r->u.limit.offset, &P->nm);
        }
        break;
    case IR_SETOP: {
        static const char *const ops[] = {"union", "union all", "intersect", "except"};
        sq_buf_printf(o, "%s $%u", r->u.setop.op < 4 ? ops[r->u.setop.op] : "?", r->id);
        column_list(P, &r->cols);
        break;
    }
    case IR_WINDOW: sq_buf_printf(o, "window $%u", r->id); break;
    default: sq_buf_puts(o, "?"); break;
    }
    sq_buf_putc(o, '\n');
}

static void body(Printer *P, IrRel *r) {
    switch ((IrRelKind)r->kind) {
    case IR_PROJECT:
        for (uint32_t i = 0; i < r->cols.n; i++)
            output(P, r, i, r->cols.items[i].hidden ? "hidden" : r->cols.items[i].name,
                   r->u.project.exprs.items[i]);
        break;
    case IR_AGGREGATE: agg_lines(P, r); break;
    case IR_WINDOW:
        for (uint32_t i = 0; i < r->u.window.n_calls; i++) {
            line(P);
            sq_buf_printf(P->out, "$%u.%u call: ", r->id, i);
            ir_type_text(P->out, r->cols.items[i].type);
            sq_buf_puts(P->out, " = ");
            ir_sql_window(P->out, &r->u.window.calls[i], &P->nm);
            sq_buf_putc(P->out, '\n');
        }
        break;
    case IR_VALUES:
        for (uint32_t i = 0; r->cols.n && i < r->u.values.n_rows; i++) {
            line(P);
            sq_buf_puts(P->out, "row ");
            ir_sql_list(P->out, &r->u.values.rows[i], &P->nm);
            sq_buf_putc(P->out, '\n');
        }
        break;
    default: break;
    }
}

static void subqueries(Printer *P, uint32_t from) {
    for (uint32_t i = from; i < P->n_subs; i++) {
        IrRel *s = P->subs[i];
        const SqExpr *use = P->sub_uses[i];
        line(P);
        sq_buf_printf(P->out, "subquery $%u", s->id);
        for (uint32_t k = 0; k < use->u.sub.n_outer; k++) {
            sq_buf_puts(P->out, k ? ", " : " correlated on ");
            print_ref(P, P->out, use->u.sub.outer[k], 0);
        }
        sq_buf_putc(P->out, '\n');
        P->depth++;
        print_rel(P, s);
        P->depth--;
    }
}

static void print_with(Printer *P, const IrWith *w) {
    for (uint32_t i = 0; i < w->n_ctes; i++) {
        const IrCte *c = w->ctes[i];
        line(P);
        sq_buf_puts(P->out, w->recursive ? "with recursive " : "with ");
        ir_sql_ident(P->out, c->name);
        column_list(P, &c->cols);
        if (c->materialized)
            sq_buf_puts(P->out, c->materialized == AST_MAT_YES ? " materialized" : " not materialized");
        sq_buf_puts(P->out, c->body ? "\n" : " (not used)\n");
        if (!c->body) continue;
        P->depth++;
        print_rel(P, c->body);
        P->depth--;
    }
}

static void print_rel(Printer *P, IrRel *r) {
    if (r->with) print_with(P, r->with);
    uint32_t mark = P->n_subs;
    head(P, r);
    P->depth++;
    body(P, r);
    subqueries(P, mark);
    P->n_subs = mark;
    switch ((IrRelKind)r->kind) {
    case IR_JOIN:
        print_rel(P, r->u.join.left);
        print_rel(P, r->u.join.right);
        break;
    case IR_SETOP:
        print_rel(P, r->u.setop.left);
        print_rel(P, r->u.setop.right);
        break;
    default:
        if (r->input) print_rel(P, r->input);
    }
    P->depth--;
}

static void printer_init(Printer *P, IrQuery *q, SqBuf *out) {
    memset(P, 0, sizeof *P);
    P->q = q;
    P->alias = ir_sql_aliases(q);
    P->out = out;
    P->nm.ctx = P;
    P->nm.column = name_column;
    P->nm.subquery = name_subquery;
}

void ir_print_text(IrQuery *q, SqBuf *out) {
    Printer P;
    printer_init(&P, q, out);
    if (q->root) print_rel(&P, q->root);
}

/* ------------------------------------------------------------------ */
/* JSON                                                                */
/* ------------------------------------------------------------------ */

static void json_rel(Printer *P, SqJsonWriter *w, IrRel *r);

static void json_type(SqJsonWriter *w, SqType t) {
    static const char *const cls[] = {"ANY", "NULL", "INTEGER", "REAL", "TEXT", "BLOB", "NUMERIC"};
    sq_jw_key(w, "type");
    sq_jw_str(w, t.cls < 7 ? cls[t.cls] : "?");
    sq_jw_key(w, "affinity");
    sq_jw_str(w, sq_affinity_name((SqAffinity)t.aff));
    sq_jw_key(w, "nullable");
    sq_jw_bool(w, t.nullable);
}

static void json_expr(Printer *P, SqJsonWriter *w, const char *key, const SqExpr *e) {
    if (!e) return;
    SqBuf b = SQ_BUF_INIT;
    ir_sql_expr(&b, e, &P->nm);
    sq_jw_key(w, key);
    sq_jw_str(w, sq_buf_str(&b));
    sq_buf_free(&b);
}

static void json_columns(Printer *P, SqJsonWriter *w, const IrRel *r) {
    sq_jw_key(w, "columns");
    sq_jw_arr_begin(w);
    for (uint32_t i = 0; i < r->cols.n; i++) {
        const SqColumn *c = &r->cols.items[i];
        sq_jw_obj_begin(w);
        sq_jw_key(w, "ref");
        SqBuf b = SQ_BUF_INIT;
        SqColRef ref = {r->id, i};
        print_ref(P, &b, ref, 0);
        sq_jw_str(w, sq_buf_str(&b));
        sq_buf_free(&b);
        sq_jw_key(w, "name");
        sq_jw_str(w, c->name);
        json_type(w, c->type);
        if (c->hidden) {
            sq_jw_key(w, "hidden");
            sq_jw_bool(w, 1);
        }
        if (r->kind == IR_PROJECT) json_expr(P, w, "expr", r->u.project.exprs.items[i]);
        if (r->kind == IR_AGGREGATE) {
            const SqAggItem *it = &r->u.agg.items[i];
            static const char *const kinds[] = {"key", "call", "bare"};
            sq_jw_key(w, "agg");
            sq_jw_str(w, kinds[it->kind]);
            if (it->kind == SQ_AGG_CALL) {
                SqBuf cb = SQ_BUF_INIT;
                ir_sql_call(&cb, it->name, it->distinct, it->star, &it->args, it->filter, &P->nm);
                sq_jw_key(w, "expr");
                sq_jw_str(w, sq_buf_str(&cb));
                sq_buf_free(&cb);
            } else {
                json_expr(P, w, "expr", it->expr);
            }
        }
        if (r->kind == IR_WINDOW) {
            SqBuf cb = SQ_BUF_INIT;
            ir_sql_window(&cb, &r->u.window.calls[i], &P->nm);
            sq_jw_key(w, "expr");
            sq_jw_str(w, sq_buf_str(&cb));
            sq_buf_free(&cb);
        }
        sq_jw_obj_end(w);
    }
    sq_jw_arr_end(w);
}

static void json_details(Printer *P, SqJsonWriter *w, IrRel *r) {
    switch ((IrRelKind)r->kind) {
    case IR_SCAN:
        sq_jw_key(w, "table");
        sq_jw_str(w, r->u.scan.table->name);
        break;
    case IR_CTEREF:
        sq_jw_key(w, "cte");
        sq_jw_str(w, r->u.cteref.cte->name);
        break;
    case IR_FILTER:
        sq_jw_key(w, "having");
        sq_jw_bool(w, (r->flags & IRF_HAVING) != 0);
        json_expr(P, w, "predicate", r->u.filter.pred);
        break;
    case IR_JOIN:
        sq_jw_key(w, "join");
        sq_jw_str(w, ir_join_type_name((IrJoinType)r->u.join.type));
        json_expr(P, w, "on", r->u.join.cond);
        break;
    case IR_SORT:
        sq_jw_key(w, "keys");
        sq_jw_arr_begin(w);
        for (uint32_t i = 0; i < r->u.sort.n_keys; i++) {
            SqBuf b = SQ_BUF_INIT;
            ir_sql_sort_key(&b, &r->u.sort.keys[i], &P->nm);
            sq_jw_str(w, sq_buf_str(&b));
            sq_buf_free(&b);
        }
        sq_jw_arr_end(w);
        break;
    case IR_LIMIT:
        json_expr(P, w, "count", r->u.limit.count);
        json_expr(P, w, "offset", r->u.limit.offset);
        break;
    case IR_SETOP: {
        static const char *const ops[] = {"union", "union all", "intersect", "except"};
        sq_jw_key(w, "op");
        sq_jw_str(w, ops[r->u.setop.op & 3]);
        break;
    }
    case IR_VALUES:
        sq_jw_key(w, "rows");
        sq_jw_arr_begin(w);
        for (uint32_t i = 0; i < r->u.values.n_rows; i++) {
            SqBuf b = SQ_BUF_INIT;
            ir_sql_list(&b, &r->u.values.rows[i], &P->nm);
            sq_jw_str(w, sq_buf_str(&b));
            sq_buf_free(&b);
        }
        sq_jw_arr_end(w);
        break;
    default: break;
    }
}

static void json_inputs(Printer *P, SqJsonWriter *w, IrRel *r) {
    if (r->kind == IR_JOIN || r->kind == IR_SETOP) {
        sq_jw_key(w, "left");
        json_rel(P, w, r->kind == IR_JOIN ? r->u.join.left : r->u.setop.left);
        sq_jw_key(w, "right");
        json_rel(P, w, r->kind == IR_JOIN ? r->u.join.right : r->u.setop.right);
    } else if (r->input) {
        sq_jw_key(w, "input");
        json_rel(P, w, r->input);
    }
}

static void json_subqueries(Printer *P, SqJsonWriter *w, uint32_t from) {
    if (P->n_subs == from) return;
    sq_jw_key(w, "subqueries");
    sq_jw_arr_begin(w);
    for (uint32_t i = from; i < P->n_subs; i++) {
        const SqExpr *use = P->sub_uses[i];
        sq_jw_obj_begin(w);
        sq_jw_key(w, "correlated");
        sq_jw_arr_begin(w);
        for (uint32_t k = 0; k < use->u.sub.n_outer; k++) {
            SqBuf b = SQ_BUF_INIT;
            print_ref(P, &b, use->u.sub.outer[k], 0);
            sq_jw_str(w, sq_buf_str(&b));
            sq_buf_free(&b);
        }
        sq_jw_arr_end(w);
        sq_jw_key(w, "query");
        json_rel(P, w, P->subs[i]);
        sq_jw_obj_end(w);
    }
    sq_jw_arr_end(w);
}

static void json_with(Printer *P, SqJsonWriter *w, const IrWith *with) {
    sq_jw_key(w, "with");
    sq_jw_obj_begin(w);
    sq_jw_key(w, "recursive");
    sq_jw_bool(w, with->recursive);
    sq_jw_key(w, "ctes");
    sq_jw_arr_begin(w);
    for (uint32_t i = 0; i < with->n_ctes; i++) {
        const IrCte *c = with->ctes[i];
        sq_jw_obj_begin(w);
        sq_jw_key(w, "name");
        sq_jw_str(w, c->name);
        if (c->materialized) {
            sq_jw_key(w, "materialized");
            sq_jw_bool(w, c->materialized == AST_MAT_YES);
        }
        sq_jw_key(w, "body");
        if (c->body) json_rel(P, w, c->body);
        else sq_jw_null(w);
        sq_jw_obj_end(w);
    }
    sq_jw_arr_end(w);
    sq_jw_obj_end(w);
}

static void json_rel(Printer *P, SqJsonWriter *w, IrRel *r) {
    uint32_t mark = P->n_subs;
    sq_jw_obj_begin(w);
    sq_jw_key(w, "kind");
    sq_jw_str(w, ir_rel_kind_name((IrRelKind)r->kind));
    sq_jw_key(w, "id");
    sq_jw_int(w, r->id);
    if (P->alias[r->id]) {
        sq_jw_key(w, "alias");
        sq_jw_str(w, P->alias[r->id]);
    }
    if (r->with) json_with(P, w, r->with);
    json_details(P, w, r);
    if (r->cols.n) json_columns(P, w, r);
    json_subqueries(P, w, mark);
    P->n_subs = mark;
    json_inputs(P, w, r);
    sq_jw_obj_end(w);
}

void ir_print_json(IrQuery *q, SqJsonWriter *w) {
    Printer P;
    printer_init(&P, q, NULL);
    if (q->root) json_rel(&P, w, q->root);
    else sq_jw_null(w);
}
