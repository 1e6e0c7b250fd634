/*
** template_print.c -- a query's slots as text and JSON, and the
** `template` pass that finds them (see template.h).
**
** Layer: passes.  Columns are written alias.column with the aliases the
** SQL emitter gives the FROM items, so the names match the template's
** SQL.
*/
#include <string.h>

#include "passes/template/template.h"
#include "runtime/diag.h"

const char *sq_slot_kind_name(SqSlotKind k) {
    static const char *const names[SQ_TSLOT__COUNT] = {
        "value", "threshold", "date", "period", "relative", "limit",
        "metric", "group-col", "order-col", "order-dir",
    };
    return (unsigned)k < SQ_TSLOT__COUNT ? names[k] : "?";
}

const char *sq_agg_bit_name(unsigned bit) {
    switch (bit) {
    case SQ_AGG_BIT_COUNT: return "count";
    case SQ_AGG_BIT_COUNT_DISTINCT: return "count-distinct";
    case SQ_AGG_BIT_SUM: return "sum";
    case SQ_AGG_BIT_AVG: return "avg";
    case SQ_AGG_BIT_MIN: return "min";
    case SQ_AGG_BIT_MAX: return "max";
    default: return "?";
    }
}

/* ------------------------------------------------------------------ */
/* Names and values                                                    */
/* ------------------------------------------------------------------ */

static void put_column(const SqTemplate *t, SqBuf *out, uint32_t rel, uint32_t col, int rowid) {
    const IrRel *r = ir_rel(t->q, rel);
    const char *alias = t->aliases && rel <= t->q->next_id ? t->aliases[rel] : NULL;
    if (alias) {
        ir_sql_ident(out, alias);
        sq_buf_putc(out, '.');
    }
    if (rowid || !r || col >= r->cols.n) sq_buf_puts(out, "rowid");
    else ir_sql_ident(out, r->cols.items[col].name);
}

static void name_column(void *ctx, SqBuf *out, const SqExpr *e) {
    put_column(ctx, out, e->u.col.rel, e->u.col.col, (e->flags & SQXF_ROWID) != 0);
}

static void name_subquery(void *ctx, SqBuf *out, const SqExpr *e) {
    (void)ctx;
    (void)e;
    sq_buf_puts(out, "(SELECT ...)");
}

void sq_slot_col_name(const SqTemplate *t, const SqSlotCol *c, SqBuf *out) {
    put_column(t, out, c->item->id, c->col, 0);
}

void sq_template_expr_sql(const SqTemplate *t, const SqExpr *e, SqBuf *out) {
    IrNaming nm = {(void *)t, name_column, name_subquery, NULL, NULL};
    ir_sql_expr(out, e, &nm);
}

void sq_slot_value_sql(const SqTemplate *t, const SqSlot *s, SqBuf *out) {
    IrNaming nm = {(void *)t, name_column, name_subquery, NULL, NULL};
    if (s->expr && s->kind == SQ_TSLOT_ORDER_COL && s->has_column) sq_slot_col_name(t, &s->column, out);
    else if (s->expr) ir_sql_expr(out, *s->expr, &nm);
    else if (s->key) sq_buf_puts(out, s->key->desc ? "DESC" : "ASC");
    else if (s->kind == SQ_TSLOT_METRIC)
        ir_sql_call(out, s->agg->name, s->agg->distinct, s->agg->star, &s->agg->args, NULL, &nm);
    else ir_sql_expr(out, s->agg->expr, &nm);
}

/* "> 30", "IN ... 'a'", "BETWEEN 1 AND ...": the value in its place. */
static void comparison_text(const SqTemplate *t, const SqSlot *s, SqBuf *out) {
    if (s->between) sq_buf_puts(out, s->between == 1 ? "BETWEEN " : "BETWEEN ... AND ");
    else if (s->in_list) sq_buf_puts(out, "IN ");
    else if (s->op != AST_OP_NONE) sq_buf_printf(out, "%s ", ast_op_sql((AstOp)s->op));
    sq_slot_value_sql(t, s, out);
}

static int is_comparison_slot(const SqSlot *s) {
    return s->kind <= SQ_TSLOT_RELATIVE;
}

static const char *between_side(const SqSlot *s) { return s->between == 1 ? "low" : "high"; }

static const char *decl_type(const SqSlotCol *c) {
    const SqColumn *d = &c->item->cols.items[c->col];
    if (!d->table || d->table_col < 0 || (uint32_t)d->table_col >= d->table->n_cols) return NULL;
    return d->table->cols[d->table_col].decl_type;
}

/* ------------------------------------------------------------------ */
/* Text                                                                */
/* ------------------------------------------------------------------ */

void sq_template_print_slots(const SqTemplate *t, SqBuf *out) {
    sq_buf_printf(out, "-- slots: %u\n", t->n_slots);
    for (uint32_t i = 0; i < t->n_slots; i++) {
        const SqSlot *s = &t->slots[i];
        sq_buf_printf(out, "--   %s  %s", s->placeholder, sq_slot_kind_name((SqSlotKind)s->kind));
        if (s->granularity) sq_buf_printf(out, " (%s)", s->granularity);
        sq_buf_puts(out, "  ");
        if (is_comparison_slot(s)) comparison_text(t, s, out);
        else sq_slot_value_sql(t, s, out);
        if (s->has_column) {
            sq_buf_puts(out, "  column ");
            sq_slot_col_name(t, &s->column, out);
        }
        if (s->kind != SQ_TSLOT_ORDER_DIR) {
            sq_buf_puts(out, " [");
            ir_type_text(out, s->type);
            sq_buf_putc(out, ']');
        }
        if (s->aggs) {
            sq_buf_puts(out, "  aggregates");
            for (unsigned b = 1, sep = 0; b <= SQ_AGG_BIT_MAX; b <<= 1)
                if (s->aggs & b) sq_buf_printf(out, "%s %s", sep++ ? "," : "", sq_agg_bit_name(b));
        }
        if (s->n_alts) {
            sq_buf_printf(out, "  %u alternative%s:", s->n_alts, s->n_alts == 1 ? "" : "s");
            for (uint32_t k = 0; k < s->n_alts; k++) {
                sq_buf_puts(out, k ? ", " : " ");
                sq_slot_col_name(t, &s->alts[k], out);
            }
        }
        sq_buf_putc(out, '\n');
    }
}

/* ------------------------------------------------------------------ */
/* JSON                                                                */
/* ------------------------------------------------------------------ */

static void json_sql(SqJsonWriter *w, const char *key, const SqTemplate *t, const SqSlot *s,
                     const SqSlotCol *c) {
    SqBuf b = SQ_BUF_INIT;
    if (c) sq_slot_col_name(t, c, &b);
    else sq_slot_value_sql(t, s, &b);
    sq_jw_key(w, key);
    sq_jw_str(w, sq_buf_str(&b));
    sq_buf_free(&b);
}

static void json_type(SqJsonWriter *w, SqType ty) {
    sq_jw_key(w, "type");
    sq_jw_str(w, sq_type_class_name((SqTypeClass)ty.cls));
    sq_jw_key(w, "affinity");
    sq_jw_str(w, sq_affinity_name((SqAffinity)ty.aff));
    sq_jw_key(w, "nullable");
    sq_jw_bool(w, ty.nullable);
}

static void json_column(SqJsonWriter *w, const SqTemplate *t, const SqSlot *s) {
    sq_jw_key(w, "column");
    if (!s->has_column) {
        sq_jw_null(w);
        return;
    }
    const SqColumn *d = &s->column.item->cols.items[s->column.col];
    sq_jw_obj_begin(w);
    json_sql(w, "name", t, s, &s->column);
    sq_jw_key(w, "table");
    if (d->table) sq_jw_str(w, d->table->name);
    else sq_jw_null(w);
    sq_jw_key(w, "table_column");
    sq_jw_str(w, d->name);
    sq_jw_key(w, "declared_type");
    const char *decl = decl_type(&s->column);
    if (decl) sq_jw_str(w, decl);
    else sq_jw_null(w);
    json_type(w, d->type);
    sq_jw_obj_end(w);
}

static void json_slot(SqJsonWriter *w, const SqTemplate *t, const SqSlot *s, const SqSrcSet *srcs) {
    sq_jw_obj_begin(w);
    sq_jw_key(w, "name");
    sq_jw_str(w, s->name);
    sq_jw_key(w, "placeholder");
    sq_jw_str(w, s->placeholder);
    sq_jw_key(w, "kind");
    sq_jw_str(w, sq_slot_kind_name((SqSlotKind)s->kind));
    json_sql(w, "value", t, s, NULL);
    if (is_comparison_slot(s)) {
        sq_jw_key(w, "op");
        if (s->in_list) sq_jw_str(w, "IN");
        else if (s->between) sq_jw_str(w, "BETWEEN");
        else sq_jw_str(w, ast_op_sql((AstOp)s->op));
        if (s->between) {
            sq_jw_key(w, "bound");
            sq_jw_str(w, between_side(s));
        }
    }
    if (s->granularity) {
        sq_jw_key(w, "granularity");
        sq_jw_str(w, s->granularity);
    }
    sq_jw_key(w, "location");
    sq_jw_obj_begin(w);
    sq_json_span_members(w, srcs, s->span);
    sq_jw_obj_end(w);
    if (s->kind != SQ_TSLOT_ORDER_DIR) json_type(w, s->type);
    json_column(w, t, s);
    if (s->kind == SQ_TSLOT_METRIC) {
        sq_jw_key(w, "aggregates");
        sq_jw_arr_begin(w);
        for (unsigned b = 1; b <= SQ_AGG_BIT_MAX; b <<= 1)
            if (s->aggs & b) sq_jw_str(w, sq_agg_bit_name(b));
        sq_jw_arr_end(w);
    }
    sq_jw_key(w, "alternatives");
    sq_jw_arr_begin(w);
    for (uint32_t k = 0; k < s->n_alts; k++) {
        SqBuf b = SQ_BUF_INIT;
        sq_slot_col_name(t, &s->alts[k], &b);
        sq_jw_str(w, sq_buf_str(&b));
        sq_buf_free(&b);
    }
    sq_jw_arr_end(w);
    sq_jw_obj_end(w);
}

void sq_template_slots_json(const SqTemplate *t, const SqSrcSet *srcs, SqJsonWriter *w) {
    sq_jw_key(w, "slots");
    sq_jw_arr_begin(w);
    for (uint32_t i = 0; i < t->n_slots; i++) json_slot(w, t, &t->slots[i], srcs);
    sq_jw_arr_end(w);
}

/* ------------------------------------------------------------------ */
/* The pass                                                            */
/* ------------------------------------------------------------------ */

int sq_template_run(SqPassCtx *ctx, IrQuery *q) {
    ctx->results[sq_pass_index(sq_pass_find("template"))] = sq_template_slots(q, ctx->cat, NULL);
    return 0;
}

const SqTemplate *sq_template_result(const SqPassCtx *ctx) {
    return sq_pass_result(ctx, "template");
}

void sq_template_print(const SqPassCtx *ctx, IrQuery *q, SqBuf *out) {
    (void)q;
    const SqTemplate *t = sq_template_result(ctx);
    if (t) sq_template_print_slots(t, out);
}

void sq_template_print_json(const SqPassCtx *ctx, IrQuery *q, SqJsonWriter *w) {
    (void)q;
    const SqTemplate *t = sq_template_result(ctx);
    if (t) sq_template_slots_json(t, NULL, w);
}
