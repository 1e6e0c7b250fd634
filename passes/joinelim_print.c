/*
** joinelim_print.c -- the `joinelim` analysis's findings as text lines
** ("-- joinelim: ...", after the query in `squint opt`) and as JSON.
**
** Layer: passes.  Reads the SqJoinElim that joinelim.c stored; positions
** are line:col in the file the query came from.
*/
#include <stdio.h>
#include <string.h>

#include "passes/passes.h"

/* ------------------------------------------------------------------ */
/* Printing                                                            */
/* ------------------------------------------------------------------ */

/* The source a span points into, when the diagnostics know it. */
static const SqSrc *span_src(const SqPassCtx *ctx, SrcSpan at) {
    return ctx->diags && ctx->diags->srcs ? sq_src_get(ctx->diags->srcs, at.file) : NULL;
}

/* "line:col" of a span, or its byte offset when no source is known. */
static void put_pos(const SqPassCtx *ctx, SqBuf *out, SrcSpan at) {
    const SqSrc *src = span_src(ctx, at);
    if (!src) {
        sq_buf_printf(out, "@%u", at.start);
        return;
    }
    SqSrcPos p = sq_src_locate(src, at.start);
    sq_buf_printf(out, "%u:%u", p.line, p.col);
}

static void put_item(SqBuf *out, const char **alias, const IrRel *r) {
    const char *a = alias[r->id] ? alias[r->id] : "?";
    const char *t = r->u.scan.table->name;
    if (sq_stricmp(a, t) == 0) sq_buf_puts(out, a);
    else sq_buf_printf(out, "%s (%s)", a, t);
}

static const char *join_type_word(const IrRel *j) {
    if (j->u.join.type == IR_JOIN_LEFT) return "left";
    if (j->u.join.type == IR_JOIN_INNER) return "inner";
    return (j->flags & IRF_COMMA) ? "comma" : "cross";
}

void sq_joinelim_print(const SqPassCtx *ctx, IrQuery *q, SqBuf *out) {
    const SqJoinElim *r = sq_joinelim_result(ctx);
    if (!r) {
        sq_buf_puts(out, "-- joinelim: not computed\n");
        return;
    }
    const char **alias = ir_sql_aliases(q);
    sq_buf_printf(out, "-- joinelim: %u join%s, %u finding%s\n", r->n_joins,
                  r->n_joins == 1 ? "" : "s", r->n_findings, r->n_findings == 1 ? "" : "s");
    for (uint32_t i = 0; i < r->n_joins; i++) {
        const SqJeJoin *j = &r->joins[i];
        sq_buf_puts(out, "-- joinelim: join ");
        put_pos(ctx, out, j->join->span);
        sq_buf_printf(out, " %s ", join_type_word(j->join));
        put_item(out, alias, j->item);
        sq_buf_printf(out, ": %s (%s)\n", j->fans_out ? "fans out" : "at most one match per row",
                      j->why);
    }
    for (uint32_t i = 0; i < r->n_findings; i++) {
        const SqJeFinding *f = &r->findings[i];
        sq_buf_printf(out, "-- joinelim: %s ", sq_je_kind_name((SqJeKind)f->kind));
        put_pos(ctx, out, f->span);
        sq_buf_puts(out, " [");
        for (uint32_t k = 0; k < f->n_items; k++) {
            if (k) sq_buf_puts(out, ", ");
            put_item(out, alias, f->items[k]);
        }
        sq_buf_printf(out, "]: %s\n", f->reason);
    }
}

/* "span": where the join or fact is, in the key set of every output. */
static void json_span(const SqPassCtx *ctx, SqJsonWriter *w, SrcSpan at) {
    sq_jw_key(w, "span");
    sq_jw_obj_begin(w);
    sq_json_span_members(w, ctx->diags ? ctx->diags->srcs : NULL, at);
    sq_jw_obj_end(w);
}

static void json_item(SqJsonWriter *w, const char **alias, const IrRel *r) {
    sq_jw_obj_begin(w);
    sq_jw_key(w, "alias");
    sq_jw_str(w, alias[r->id] ? alias[r->id] : "?");
    sq_jw_key(w, "table");
    sq_jw_str(w, r->u.scan.table->name);
    sq_jw_obj_end(w);
}

static void json_join(const SqPassCtx *ctx, SqJsonWriter *w, const char **alias,
                      const SqJeJoin *j) {
    sq_jw_obj_begin(w);
    sq_jw_key(w, "type");
    sq_jw_str(w, join_type_word(j->join));
    sq_jw_key(w, "item");
    json_item(w, alias, j->item);
    sq_jw_key(w, "fans_out");
    sq_jw_bool(w, j->fans_out);
    sq_jw_key(w, "why");
    sq_jw_str(w, j->why);
    json_span(ctx, w, j->join->span);
    sq_jw_obj_end(w);
}

static void json_finding(const SqPassCtx *ctx, SqJsonWriter *w, const char **alias,
                         const SqJeFinding *f) {
    sq_jw_obj_begin(w);
    sq_jw_key(w, "kind");
    sq_jw_str(w, sq_je_kind_name((SqJeKind)f->kind));
    if (f->kind == SQ_JE_REMOVABLE) {
        sq_jw_key(w, "exact");
        sq_jw_bool(w, f->is_exact);
    }
    if (f->kind == SQ_JE_FANOUT_AGG) {
        sq_jw_key(w, "repeats");
        sq_jw_bool(w, f->repeats);
    }
    sq_jw_key(w, "items");
    sq_jw_arr_begin(w);
    for (uint32_t k = 0; k < f->n_items; k++) json_item(w, alias, f->items[k]);
    sq_jw_arr_end(w);
    sq_jw_key(w, "reason");
    sq_jw_str(w, f->reason);
    json_span(ctx, w, f->span);
    sq_jw_obj_end(w);
}

void sq_joinelim_print_json(const SqPassCtx *ctx, IrQuery *q, SqJsonWriter *w) {
    const SqJoinElim *r = sq_joinelim_result(ctx);
    const char **alias = ir_sql_aliases(q);
    sq_jw_key(w, "joins");
    sq_jw_arr_begin(w);
    for (uint32_t i = 0; r && i < r->n_joins; i++) json_join(ctx, w, alias, &r->joins[i]);
    sq_jw_arr_end(w);
    sq_jw_key(w, "findings");
    sq_jw_arr_begin(w);
    for (uint32_t i = 0; r && i < r->n_findings; i++) json_finding(ctx, w, alias, &r->findings[i]);
    sq_jw_arr_end(w);
}
