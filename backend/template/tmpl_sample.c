/*
** tmpl_sample.c -- a template's instances, made on the IR and checked
** (see tmpl.h).
**
** Layer: backend.  Instance k of a source draws its choices from
** splitmix64 seeded by (seed, source, k): which slots get a new value
** (each with even odds, at least one), and whether one alteration is
** made.  The choices are patches of the source's IR (ir_patch_*), written,
** emitted as SQL and undone, so the source is left as it was and every
** instance is emitted exactly as the source is.  Then the instance is
** read back from its text and checked.
*/
#include <stdlib.h>
#include <string.h>

#include "backend/emit/emit.h"
#include "backend/template/tmpl_int.h"
#include "passes/lint/lint.h"
#include "runtime/util.h"

SqTmplOptions sq_tmpl_options_default(void) {
    SqTmplOptions o;
    memset(&o, 0, sizeof o);
    o.n = 10;
    o.limits.timeout_sec = 10.0;
    o.limits.max_rows = 100000;
    o.limits.one_statement = 1;
    o.equiv = sq_equiv_options_generator();
    o.bind = sq_db_bind_options();
    o.now = o.equiv.now;
    return o;
}

/* ------------------------------------------------------------------ */
/* Choices                                                             */
/* ------------------------------------------------------------------ */

/* One instance being made: its patches and what they change. */
typedef struct Draft {
    SqArena *a;
    IrPatch *patches;
    uint32_t n_patches, cap_patches;
    SqTmplInstance *inst;
} Draft;

static void patch(Draft *d, void *addr, const void *now, size_t size) {
    IrPatch *p = SQ_ARENA_APPEND(d->a, d->patches, d->n_patches, d->cap_patches);
    if (ir_patch_set(p, addr, now, size) != 0) d->n_patches--;
}

static void note(Draft *d, const char *kind, const SqSlot *s, const char *from, const char *to) {
    SqTmplChange *c = SQ_ARENA_APPEND(d->a, d->inst->changes, d->inst->n_changes, d->inst->cap_changes);
    c->kind = kind;
    c->slot = s ? s->name : NULL;
    c->from = from;
    c->to = to;
}

static int is_drawn(const SqSlot *s) {
    return (s->kind == SQ_TSLOT_VALUE || s->kind == SQ_TSLOT_THRESHOLD || s->kind == SQ_TSLOT_DATE ||
            s->kind == SQ_TSLOT_PERIOD || s->kind == SQ_TSLOT_RELATIVE) && s->has_column;
}

/* A new value for slot s; 0 when none could be drawn. */
static int new_value(Draft *d, const SqTmplSource *src, const SqSlot *s, uint64_t *rng) {
    SqExpr *to = tmpl_draw_value(d->a, src->db, s, rng);
    if (!to) return 0;
    note(d, "value", s, tmpl_expr_sql(d->a, *s->expr), tmpl_expr_sql(d->a, to));
    patch(d, s->expr, &to, sizeof to);
    return 1;
}

/* The two bounds of a BETWEEN, both drawn, in order: the patches of the
** low and the high bound are swapped when the low came out higher. */
static void order_bounds(Draft *d, const SqTmplSource *src) {
    for (uint32_t i = 0; i < src->t->n_slots; i++) {
        const SqSlot *lo = &src->t->slots[i];
        if (lo->between != 1 || lo->kind == SQ_TSLOT_RELATIVE) continue;
        IrPatch *plo = NULL, *phi = NULL;
        for (uint32_t k = 0; k < d->n_patches; k++) {
            if (d->patches[k].addr == (void *)&lo->cmp->u.between.lo) plo = &d->patches[k];
            if (d->patches[k].addr == (void *)&lo->cmp->u.between.hi) phi = &d->patches[k];
        }
        if (!plo || !phi) continue;
        SqExpr *a, *b;
        memcpy(&a, plo->now, sizeof a);
        memcpy(&b, phi->now, sizeof b);
        SqResult r;
        sq_result_init(&r);
        SqBuf q = SQ_BUF_INIT;
        sq_buf_printf(&q, "SELECT %s > %s", tmpl_expr_sql(d->a, a), tmpl_expr_sql(d->a, b));
        int swap = sq_db_query(src->db, sq_buf_str(&q), NULL, &r, NULL) == SQ_EXEC_OK && r.n_rows &&
                   r.cells[0].type == SQ_VAL_INTEGER && r.cells[0].i == 1;
        sq_buf_free(&q);
        sq_result_free(&r);
        if (swap) {
            memcpy(plo->now, &b, sizeof b);
            memcpy(phi->now, &a, sizeof a);
        }
    }
}

/* ---- alterations ---- */

typedef enum AltKind {
    ALT_AGGREGATE, ALT_METRIC_COLUMN, ALT_COMPARISON, ALT_ORDER_DIR, ALT_GROUP_COL,
    ALT_ORDER_COL, ALT_LIMIT, ALT_TIME_WINDOW, ALT__COUNT
} AltKind;

static const char *const alt_names[ALT__COUNT] = {
    "aggregate", "metric-column", "comparison", "order-dir", "group-col", "order-col", "limit", "time-window",
};

/* The SQ_AGG_BIT_* of an aggregate call (TOTAL counts as SUM), or 0. */
static unsigned agg_bit_of(const SqAggItem *it) {
    const char *n = it->name;
    if (sq_stricmp(n, "count") == 0) return it->distinct ? SQ_AGG_BIT_COUNT_DISTINCT : SQ_AGG_BIT_COUNT;
    if (sq_stricmp(n, "sum") == 0 || sq_stricmp(n, "total") == 0) return SQ_AGG_BIT_SUM;
    if (sq_stricmp(n, "avg") == 0) return SQ_AGG_BIT_AVG;
    if (sq_stricmp(n, "min") == 0) return SQ_AGG_BIT_MIN;
    if (sq_stricmp(n, "max") == 0) return SQ_AGG_BIT_MAX;
    return 0;
}

static unsigned other_aggs(const SqSlot *s) { return s->aggs & ~agg_bit_of(s->agg); }

/* Whether alteration k applies to slot s. */
static int can_alter(AltKind k, const SqSlot *s) {
    switch (k) {
    case ALT_AGGREGATE: return s->kind == SQ_TSLOT_METRIC && other_aggs(s) != 0;
    case ALT_METRIC_COLUMN: return s->kind == SQ_TSLOT_METRIC && s->n_alts > 0;
    case ALT_COMPARISON:
        return s->cmp && s->cmp->kind == SQX_BINARY && s->kind != SQ_TSLOT_RELATIVE &&
               ast_op_is_comparison(s->cmp->op);
    case ALT_ORDER_DIR: return s->kind == SQ_TSLOT_ORDER_DIR;
    case ALT_GROUP_COL: return s->kind == SQ_TSLOT_GROUP_COL && s->n_alts > 0;
    case ALT_ORDER_COL: return s->kind == SQ_TSLOT_ORDER_COL && s->n_alts > 0;
    case ALT_LIMIT: return s->kind == SQ_TSLOT_LIMIT;
    case ALT_TIME_WINDOW: return tmpl_window_movable(s);
    default: return 0;
    }
}

static SqExpr *column_expr(SqArena *a, const SqSlotCol *c, SrcSpan at) {
    SqExpr *e = sq_expr_new(a, SQX_COLUMN, at, c->item->cols.items[c->col].type);
    e->u.col.rel = c->item->id;
    e->u.col.col = c->col;
    return e;
}

static const char *col_text(SqArena *a, const SqTemplate *t, const SqSlotCol *c) {
    SqBuf b = SQ_BUF_INIT;
    sq_slot_col_name(t, c, &b);
    const char *s = sq_arena_strdup(a, sq_buf_str(&b));
    sq_buf_free(&b);
    return s;
}

static const char *slot_text(SqArena *a, const SqTemplate *t, const SqSlot *s) {
    SqBuf b = SQ_BUF_INIT;
    sq_slot_value_sql(t, s, &b);
    const char *txt = sq_arena_strdup(a, sq_buf_str(&b));
    sq_buf_free(&b);
    return txt;
}

/* The result column showing the slot gets the name SQLite gives what it
** shows now (the emitter then writes no stale AS). */
static void rename_shown(Draft *d, const SqSlot *s, const char *name) {
    if (s->shown) patch(d, &s->shown->name, &name, sizeof name);
}

static void alter_aggregate(Draft *d, const SqTemplate *t, SqSlot *s, uint64_t *rng) {
    unsigned bits = other_aggs(s), n = 0, bit;
    for (bit = 1; bit <= SQ_AGG_BIT_MAX; bit <<= 1) n += (bits & bit) != 0;
    uint64_t k = tmpl_below(rng, n);
    for (bit = 1; bit <= SQ_AGG_BIT_MAX; bit <<= 1)
        if ((bits & bit) && k-- == 0) break;
    const char *name = bit == SQ_AGG_BIT_COUNT_DISTINCT ? "count" : sq_agg_bit_name(bit);
    uint8_t distinct = bit == SQ_AGG_BIT_COUNT_DISTINCT;
    int exists;
    const SqFuncDef *def = sq_func_resolve(name, 1, &exists);
    const char *from = slot_text(d->a, t, s);
    patch(d, &s->agg->name, &name, sizeof name);
    patch(d, &s->agg->def, &def, sizeof def);
    patch(d, &s->agg->distinct, &distinct, 1);
    SqSlot now = *s;
    SqAggItem it = *s->agg;
    it.name = name;
    it.distinct = distinct;
    now.agg = &it;
    const char *to = slot_text(d->a, t, &now);
    note(d, alt_names[ALT_AGGREGATE], s, from, to);
    rename_shown(d, s, to);
}

static const SqSlotCol *pick_alt(const SqSlot *s, uint64_t *rng) {
    return &s->alts[tmpl_below(rng, s->n_alts)];
}

static void alter_metric_column(Draft *d, const SqTemplate *t, SqSlot *s, uint64_t *rng) {
    const SqSlotCol *c = pick_alt(s, rng);
    SqExpr *to = column_expr(d->a, c, s->agg->args.items[0]->span);
    note(d, alt_names[ALT_METRIC_COLUMN], s, col_text(d->a, t, &s->column), col_text(d->a, t, c));
    SqSlot now = *s;
    SqAggItem it = *s->agg;
    SqExpr *arg = to;
    it.args.items = &arg;
    it.args.n = 1;
    now.agg = &it;
    rename_shown(d, s, slot_text(d->a, t, &now));
    patch(d, &s->agg->args.items[0], &to, sizeof to);
}

static void alter_comparison(Draft *d, SqSlot *s, uint64_t *rng) {
    static const uint8_t ordering[] = {AST_OP_LT, AST_OP_LE, AST_OP_GT, AST_OP_GE};
    uint8_t op = s->cmp->op, to;
    if (ast_op_is_ordering(op)) {
        do to = ordering[tmpl_below(rng, 4)];
        while (to == op);
    } else {
        to = op == AST_OP_EQ ? AST_OP_NE : AST_OP_EQ;
    }
    note(d, alt_names[ALT_COMPARISON], s, ast_op_sql((AstOp)op), ast_op_sql((AstOp)to));
    patch(d, &s->cmp->op, &to, 1);
}

static void alter_column(Draft *d, const SqTemplate *t, SqSlot *s, AltKind k, uint64_t *rng) {
    const SqSlotCol *c = pick_alt(s, rng);
    SqExpr **at = k == ALT_GROUP_COL ? &s->agg->expr : s->expr;
    SqExpr *to = column_expr(d->a, c, (*at)->span);
    note(d, alt_names[k], s, col_text(d->a, t, &s->column), col_text(d->a, t, c));
    if (k == ALT_GROUP_COL) rename_shown(d, s, c->item->cols.items[c->col].name);
    patch(d, at, &to, sizeof to);
}

/* The rows the source returns with the LIMIT of slot s lifted, or -1. */
static int64_t rows_unlimited(SqArena *a, const SqTmplSource *src, const SqSlot *s) {
    SqType ty = {SQ_TY_INTEGER, SQ_AFF_BLOB, 0};
    SqExpr *none = sq_expr_int(a, (*s->expr)->span, ty, -1); /* SQLite: no limit */
    IrPatch p;
    ir_patch_set(&p, s->expr, &none, sizeof none);
    ir_patch_apply(&p, 1);
    SqBuf b = SQ_BUF_INIT;
    sq_buf_puts(&b, "SELECT count(*) FROM (");
    sq_emit_sqlite(src->q, &b);
    sq_buf_putc(&b, ')');
    ir_patch_undo(&p, 1);
    SqResult r;
    sq_result_init(&r);
    int64_t rows = sq_db_query(src->db, sq_buf_str(&b), NULL, &r, NULL) == SQ_EXEC_OK && r.n_rows &&
                   r.cells[0].type == SQ_VAL_INTEGER ? r.cells[0].i : -1;
    sq_result_free(&r);
    sq_buf_free(&b);
    return rows;
}

/* Alteration k of slot s; 0 when it could not be made (no other time
** window to draw). */
static int alter(Draft *d, const SqTmplSource *src, AltKind k, SqSlot *s, uint64_t *rng) {
    switch (k) {
    case ALT_AGGREGATE: alter_aggregate(d, src->t, s, rng); break;
    case ALT_METRIC_COLUMN: alter_metric_column(d, src->t, s, rng); break;
    case ALT_COMPARISON: alter_comparison(d, s, rng); break;
    case ALT_ORDER_DIR: {
        uint8_t to = !s->key->desc;
        note(d, alt_names[k], s, s->key->desc ? "DESC" : "ASC", to ? "DESC" : "ASC");
        patch(d, &s->key->desc, &to, 1);
        break;
    }
    case ALT_GROUP_COL: case ALT_ORDER_COL: alter_column(d, src->t, s, k, rng); break;
    case ALT_LIMIT: {
        SqExpr *to = tmpl_draw_limit(d->a, s, rows_unlimited(d->a, src, s), rng);
        note(d, alt_names[k], s, tmpl_expr_sql(d->a, *s->expr), tmpl_expr_sql(d->a, to));
        patch(d, s->expr, &to, sizeof to);
        break;
    }
    case ALT_TIME_WINDOW: {
        SqExpr *to = tmpl_draw_window(d->a, src->db, s, rng);
        if (!to) return 0;
        note(d, alt_names[k], s, tmpl_expr_sql(d->a, *s->expr), tmpl_expr_sql(d->a, to));
        patch(d, s->expr, &to, sizeof to);
        break;
    }
    default: break;
    }
    return 1;
}

/* ---- filters: a conjunct of the top WHERE dropped, or one added ---- */

static uint32_t top_conjuncts(SqArena *a, const SqTemplate *t, SqExprList *out) {
    memset(out, 0, sizeof *out);
    if (t->where) ir_conjuncts(a, *t->where, out);
    return out->n;
}

static const char *expr_text(SqArena *a, const SqTemplate *t, const SqExpr *e) {
    SqBuf b = SQ_BUF_INIT;
    sq_template_expr_sql(t, e, &b);
    const char *s = sq_arena_strdup(a, sq_buf_str(&b));
    sq_buf_free(&b);
    return s;
}

static void drop_filter(Draft *d, const SqTmplSource *src, uint64_t *rng) {
    SqExprList l, rest;
    top_conjuncts(d->a, src->t, &l);
    uint64_t k = tmpl_below(rng, l.n);
    memset(&rest, 0, sizeof rest);
    for (uint32_t i = 0; i < l.n; i++)
        if (i != k) sq_expr_list_add(d->a, &rest, l.items[i]);
    SqExpr *now = ir_and(d->a, &rest);
    note(d, "drop-filter", NULL, expr_text(d->a, src->t, l.items[k]), "");
    patch(d, src->t->where, &now, sizeof now);
}

/* A column a filter can be added on: a stored table's, not its key. */
static int filterable(const IrRel *item, uint32_t col) {
    const SqColumn *c = &item->cols.items[col];
    if (!ir_column_nameable(c) || !c->table || c->table_col < 0 || (uint32_t)c->table_col >= c->table->n_cols)
        return 0;
    const CatColumn *cc = &c->table->cols[c->table_col];
    return !cc->pk && !cc->unique && !cc->rowid_alias;
}

static uint32_t n_filterable(const SqTemplate *t) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < t->n_items; i++)
        for (uint32_t k = 0; k < t->items[i]->cols.n; k++) n += filterable(t->items[i], k);
    return n;
}

/* column = a value drawn from it, ANDed to the WHERE; 0 when no value. */
static int add_filter(Draft *d, const SqTmplSource *src, uint64_t *rng) {
    const SqTemplate *t = src->t;
    uint64_t pick = tmpl_below(rng, n_filterable(t));
    SqSlot fake;
    memset(&fake, 0, sizeof fake);
    for (uint32_t i = 0; i < t->n_items; i++)
        for (uint32_t k = 0; k < t->items[i]->cols.n; k++)
            if (filterable(t->items[i], k) && pick-- == 0) fake.column = (SqSlotCol){t->items[i], k};
    SrcSpan at = (*t->where)->span;
    SqType none = {SQ_TY_NULL, SQ_AFF_BLOB, 1};
    SqExpr *null = sq_expr_new(d->a, SQX_LITERAL, at, none);
    fake.kind = SQ_TSLOT_VALUE;
    fake.has_column = 1;
    fake.type = fake.column.item->cols.items[fake.column.col].type;
    fake.expr = &null;
    SqExpr *v = tmpl_draw_value(d->a, src->db, &fake, rng);
    if (!v) return 0;
    SqType bool_ty = {SQ_TY_INTEGER, SQ_AFF_BLOB, 1};
    SqExpr *cmp = sq_expr_new(d->a, SQX_BINARY, at, bool_ty);
    cmp->op = AST_OP_EQ;
    cmp->u.bin.l = column_expr(d->a, &fake.column, at);
    cmp->u.bin.r = v;
    SqExprList both;
    memset(&both, 0, sizeof both);
    sq_expr_list_add(d->a, &both, *t->where);
    sq_expr_list_add(d->a, &both, cmp);
    SqExpr *now = ir_and(d->a, &both);
    note(d, "add-filter", NULL, "", expr_text(d->a, t, cmp));
    patch(d, t->where, &now, sizeof now);
    return 1;
}

/* Whether the draft gave slot s a new value already. */
static int has_value(const Draft *d, const SqSlot *s) {
    for (uint32_t i = 0; i < d->inst->n_changes; i++)
        if (d->inst->changes[i].slot == s->name && strcmp(d->inst->changes[i].kind, "value") == 0) return 1;
    return 0;
}

/* Whether alteration k may be made to s in this draft: a time window is
** not moved where a value was just drawn (the one would undo the other). */
static int applies(const Draft *d, AltKind k, const SqSlot *s) {
    return can_alter(k, s) && !(k == ALT_TIME_WINDOW && has_value(d, s));
}

/* One alteration, every (kind, slot) that applies being as likely, and
** the filter alterations each as likely as one of those; 0 when none
** applies. */
static int one_alteration(Draft *d, const SqTmplSource *src, uint64_t *rng) {
    uint32_t n = 0;
    for (int k = 0; k < ALT__COUNT; k++)
        for (uint32_t i = 0; i < src->t->n_slots; i++) n += applies(d, (AltKind)k, &src->t->slots[i]);
    SqExprList l;
    int can_drop = top_conjuncts(d->a, src->t, &l) >= 2;
    int can_add = src->t->where && n_filterable(src->t) > 0;
    n += (uint32_t)can_drop + (uint32_t)can_add;
    if (!n) return 0;
    uint64_t pick = tmpl_below(rng, n);
    if (can_drop && pick-- == 0) {
        drop_filter(d, src, rng);
        return 1;
    }
    if (can_add && pick-- == 0) return add_filter(d, src, rng);
    for (int k = 0; k < ALT__COUNT; k++)
        for (uint32_t i = 0; i < src->t->n_slots; i++)
            if (applies(d, (AltKind)k, &src->t->slots[i]) && pick-- == 0)
                return alter(d, src, (AltKind)k, &src->t->slots[i], rng);
    return 0;
}

/* New values for some of the drawn slots (each with even odds, at least
** one when any can be drawn); how many. */
static uint32_t some_values(Draft *d, const SqTmplSource *src, uint64_t *rng) {
    uint32_t n = 0, drawable = 0;
    for (uint32_t i = 0; i < src->t->n_slots; i++) {
        const SqSlot *s = &src->t->slots[i];
        if (!is_drawn(s)) continue;
        drawable++;
        if (tmpl_below(rng, 2)) n += (uint32_t)new_value(d, src, s, rng);
    }
    for (uint32_t tries = 0; !n && drawable && tries < src->t->n_slots; tries++) {
        const SqSlot *s = &src->t->slots[tmpl_below(rng, src->t->n_slots)];
        if (is_drawn(s)) n += (uint32_t)new_value(d, src, s, rng);
    }
    return n;
}

/* The instance's SQL: the choices written, emitted, undone. */
static const char *make(Draft *d, const SqTmplSource *src, uint64_t *rng) {
    uint64_t mode = tmpl_below(rng, 3); /* values, an alteration, both */
    uint32_t made = 0;
    if (mode != 1) made += some_values(d, src, rng);
    if (mode != 0 || !made) made += (uint32_t)one_alteration(d, src, rng);
    if (!made && mode == 1) made += some_values(d, src, rng);
    if (!made) return NULL;
    order_bounds(d, src);
    ir_patch_apply(d->patches, d->n_patches);
    SqBuf b = SQ_BUF_INIT;
    sq_emit_sqlite(src->q, &b);
    ir_patch_undo(d->patches, d->n_patches);
    const char *sql = sq_arena_strdup(d->a, sq_buf_str(&b));
    sq_buf_free(&b);
    return sql;
}

/* ------------------------------------------------------------------ */
/* Checks                                                              */
/* ------------------------------------------------------------------ */

/* The source, or an instance accepted: what a new one must differ from. */
typedef struct Known {
    const char *label;     /* "source", "instance 3" */
    const char *sql;
    IrQuery *q;            /* read back from sql */
    SqResult rows;         /* on the database */
    SqResult *also;        /* on the other databases (the suite's, then the
                              counterexamples kept), each run the first
                              time it is needed */
    uint8_t *also_ran;     /* per database: ALSO_NOT_RUN, ALSO_OK, ALSO_FAILED */
} Known;

enum { ALSO_NOT_RUN, ALSO_OK, ALSO_FAILED };

/* Counterexamples kept per source, at most: each is run by every later
** instance that its database and the suite's do not tell apart, so a few
** are worth keeping and many would cost more than they save. */
enum { CEX_MAX = 8 };

/* One-cell variants of the database (sq_fixture_cell_variants), made for
** a database of at most VARIANT_ROWS rows (a witness: a real database's
** rows tell instances apart already), at most VARIANT_MAX of them. */
enum { VARIANT_ROWS = 64, VARIANT_MAX = 64 };

typedef struct Checker {
    const SqTmplSource *src;
    const SqTmplOptions *opt;
    SqArena *a;
    SqSrcSet srcs;
    SqDiags diags;
    Known *known;
    uint32_t n_known, cap_known;
    struct Seen {          /* the SQL of the source and of every instance */
        const char *sql, *label;
    } *seen;
    uint32_t n_seen, cap_seen;
    SqDb *cex[CEX_MAX];    /* the databases of the solver's counterexamples
                              so far: an alteration's difference often
                              shows on the database that showed another's */
    uint32_t n_cex;
    SqDb **variants;       /* the one-cell variants of the database, made
                              the first time the solver would be asked */
    uint32_t n_variants;
    int variants_made;
} Checker;

static void reject(Checker *c, SqTmplInstance *in, const char *why) {
    in->valid = 0;
    *SQ_ARENA_APPEND(c->a, in->reasons, in->n_reasons, in->cap_reasons) = why;
}

/* sql parsed and bound against the schema, or NULL with *why. */
static IrQuery *read_back(Checker *c, const char *sql, const char **why) {
    const SqSrc *s = sq_src_add_copy(&c->srcs, "instance", sql, strlen(sql));
    size_t before = c->diags.n;
    IrQuery *q = ir_load_query(c->a, s, c->src->cat, c->src->names, &c->diags, &c->opt->bind, why);
    if (!q && c->diags.n > before)
        *why = sq_arena_printf(c->a, "%s: %s", *why, c->diags.items[before]->msg);
    return q;
}

static int reads_clock_cb(SqExpr *e, void *arg) {
    (void)arg;
    return sq_expr_node_reads_clock(e);
}

/* The first finding of a lint rule at error level on q, or NULL. */
static const char *lint_error(Checker *c, IrQuery *q) {
    size_t before = c->diags.n;
    SqPassCtx pc;
    sq_pass_ctx_init(&pc, c->a, c->src->cat, c->src->names, &c->diags);
    SqLintConfig cfg;
    sq_lint_config_init(&cfg);
    SqLint l;
    sq_lint_init(&l, &pc, q, &cfg, &c->srcs, 0);
    sq_lint_query(&l);
    for (size_t k = before; k < c->diags.n; k++)
        if (c->diags.items[k]->sev == SQ_SEV_ERROR)
            return sq_arena_printf(c->a, "lint error %s: %s", c->diags.items[k]->code, c->diags.items[k]->msg);
    return NULL;
}

/* Run sql into *rows; NULL, or why it is no item. */
static const char *run(Checker *c, const char *sql, SqResult *rows) {
    char *err = NULL;
    SqExecStatus st = sq_db_query(c->src->db, sql, &c->opt->limits, rows, &err);
    const char *why = NULL;
    if (st != SQ_EXEC_OK)
        why = sq_arena_printf(c->a, "does not run (%s): %s", sq_exec_status_name(st), err ? err : "");
    else if (!rows->n_rows) why = "returns no row";
    else if (sq_result_all_null(rows)) why = "returns only NULL";
    free(err);
    return why;
}

/* Whether sql runs on the database and returns nothing an item could
** ask for: no row, or rows of NULL only. */
static int returns_nothing(Checker *c, const char *sql) {
    int all_null;
    return sq_db_count_rows(c->src->db, sql, &c->opt->limits, &all_null) >= 0 && all_null;
}

/* Whether q's rows come in an order it asks for. */
static int sorted(const IrQuery *q) { return q->root && ir_root_sorted(q->root); }

/* What told an instance apart from a known query, cheapest first: its
** rows on the database, on another database of the suite, the solver.
** An instance's distinct_by is the costliest needed against any known. */
typedef enum Told { TOLD_RESULT, TOLD_SUITE, TOLD_CEX, TOLD_VARIANT, TOLD_SOLVER, TOLD_NOT } Told;
static const char *const told_name[] = {"result", "suite", "counterexample", "variant", "solver"};

/* The other databases, numbered: the suite's (src->also), then room for
** CEX_MAX counterexamples, then the variants. */
static uint32_t first_cex(const Checker *c) { return c->src->n_also; }
static uint32_t first_variant(const Checker *c) { return c->src->n_also + CEX_MAX; }

static SqDb *other_db(const Checker *c, uint32_t i) {
    if (i < first_cex(c)) return c->src->also[i];
    return i < first_variant(c) ? c->cex[i - first_cex(c)] : c->variants[i - first_variant(c)];
}

/* The one-cell variants of the database, made once per source: none when
** it holds more than VARIANT_ROWS rows or does not read. */
static void make_variants(Checker *c) {
    c->variants_made = 1;
    SqFixture f;
    sq_fixture_init(&f, c->src->cat);
    f.now = c->opt->now;
    if (sq_fixture_read(&f, c->src->db, VARIANT_ROWS) == 0) {
        c->variants = sq_arena_alloc(c->a, VARIANT_MAX * sizeof *c->variants);
        c->n_variants = sq_fixture_cell_variants(&f, c->variants, VARIANT_MAX);
    }
    sq_fixture_free(&f);
}

/* k's rows on the other database i, or NULL when it does not run there;
** run once per query and database, however many instances ask. */
static const SqResult *rows_on(Checker *c, Known *k, uint32_t i) {
    if (!k->also) {
        uint32_t n = first_variant(c) + VARIANT_MAX;
        k->also = sq_arena_alloc(c->a, n * sizeof *k->also);
        k->also_ran = sq_arena_alloc(c->a, n);
        memset(k->also_ran, ALSO_NOT_RUN, n);
    }
    if (k->also_ran[i] == ALSO_NOT_RUN) {
        sq_result_init(&k->also[i]);
        int ok = sq_db_query(other_db(c, i), k->sql, &c->opt->limits, &k->also[i], NULL) == SQ_EXEC_OK;
        k->also_ran[i] = ok ? ALSO_OK : ALSO_FAILED;
    }
    return k->also_ran[i] == ALSO_OK ? &k->also[i] : NULL;
}

static void known_free(Checker *c, Known *k) {
    sq_result_free(&k->rows);
    for (uint32_t i = 0; k->also && i < first_variant(c) + VARIANT_MAX; i++)
        if (k->also_ran[i] != ALSO_NOT_RUN) sq_result_free(&k->also[i]);
}

/* Keep the database of a counterexample the solver found, while there is
** room: later instances are run on it before the solver is asked. */
static void keep_cex(Checker *c, const SqFixture *f) {
    if (c->n_cex == CEX_MAX) return;
    SqDb *db = sq_fixture_open(f, NULL);
    if (db) c->cex[c->n_cex++] = db;
}

/* Whether k and nk return other rows on one of the other databases
** [from, to). */
static int differ_on(Checker *c, Known *k, Known *nk, SqCompareMode mode, uint32_t from, uint32_t to) {
    for (uint32_t i = from; i < to; i++) {
        const SqResult *r1 = rows_on(c, k, i), *r2 = rows_on(c, nk, i);
        if (r1 && r2 && !sq_result_equal(r1, r2, mode, 0)) return 1;
    }
    return 0;
}

/* Is the instance nk another query than k?  What told them apart, or
** TOLD_NOT (the instance is rejected, with the reason).  Rows that differ
** on the database, on another database of the suite, on the database of
** a counterexample found before, or on a one-cell variant of the
** database prove it; else the solver decides. */
static Told differs(Checker *c, SqTmplInstance *in, Known *k, Known *nk) {
    int list = sorted(k->q) || sorted(nk->q);
    SqCompareMode mode = list ? SQ_CMP_LIST : SQ_CMP_BAG;
    if (!sq_result_equal(&k->rows, &nk->rows, mode, 0)) return TOLD_RESULT;
    if (differ_on(c, k, nk, mode, 0, first_cex(c))) return TOLD_SUITE;
    if (differ_on(c, k, nk, mode, first_cex(c), first_cex(c) + c->n_cex)) return TOLD_CEX;
    if (!c->variants_made) make_variants(c);
    if (differ_on(c, k, nk, mode, first_variant(c), first_variant(c) + c->n_variants)) return TOLD_VARIANT;
    SqEquivOptions eo = c->opt->equiv;
    eo.sem = list ? SQ_SMT_LIST : SQ_SMT_BAG;
    SqEquivResult er;
    sq_equiv(c->src->cat, k->q, k->sql, nk->q, nk->sql, &eo, &er);
    Told told = TOLD_NOT;
    switch (er.verdict) {
    case SQ_VERDICT_DIFFERENT:
        keep_cex(c, &er.fixture);
        told = TOLD_SOLVER;
        break;
    case SQ_VERDICT_DIFFERENT_TIES: case SQ_VERDICT_COLUMNS:
        told = TOLD_SOLVER;
        break;
    case SQ_VERDICT_EQUIVALENT:
        in->same_as = k->label;
        in->caught_by = er.proof ? "normal form" : "solver";
        reject(c, in, sq_arena_printf(c->a, "equivalent to the %s (%s)", k->label,
                                      er.proof ? er.proof
                                               : sq_arena_printf(c->a, "no difference with up to %d rows per table",
                                                                 er.bound)));
        break;
    default:
        reject(c, in, sq_arena_printf(c->a, "not shown to differ from the %s (%s%s%s)", k->label,
                                      sq_verdict_name(er.verdict), er.detail ? ": " : "",
                                      er.detail ? er.detail : ""));
        break;
    }
    sq_equiv_result_free(&er);
    return told;
}

/* The label of the source or instance whose SQL is sql, or NULL. */
static const char *seen_text(const Checker *c, const char *sql) {
    for (uint32_t i = 0; i < c->n_seen; i++)
        if (strcmp(c->seen[i].sql, sql) == 0) return c->seen[i].label;
    return NULL;
}

static void remember_text(Checker *c, const char *sql, const char *label) {
    struct Seen *s = SQ_ARENA_APPEND(c->a, c->seen, c->n_seen, c->cap_seen);
    s->sql = sql;
    s->label = label;
}

/* The checks of tmpl.h, in order; the first that fails rejects. */
static void check(Checker *c, SqTmplInstance *in) {
    const char *lab = sq_arena_printf(c->a, "instance %u", in->index);
    in->valid = 1;
    in->rows = -1;
    const char *same = seen_text(c, in->sql);
    if (same) {
        in->same_as = same;
        in->caught_by = "text";
        reject(c, in, sq_arena_printf(c->a, "the same SQL as the %s", same));
        return;
    }
    remember_text(c, in->sql, lab);
    const char *why = NULL;
    IrQuery *q = read_back(c, in->sql, &why);
    if (!q) {
        reject(c, in, sq_arena_printf(c->a, "does not bind: %s", why));
        return;
    }
    in->reads_clock = ir_query_walk(q, reads_clock_cb, NULL) != 0;
    if ((why = lint_error(c, q)) != NULL) {
        reject(c, in, why);
        return;
    }
    Known k;
    memset(&k, 0, sizeof k);
    k.label = lab;
    k.sql = in->sql;
    k.q = q;
    if ((why = run(c, in->sql, &k.rows)) != NULL) {
        reject(c, in, why);
        known_free(c, &k);
        return;
    }
    in->rows = (int64_t)k.rows.n_rows;
    Told costliest = TOLD_RESULT;
    for (uint32_t i = 0; i < c->n_known; i++) {
        Told t = differs(c, in, &c->known[i], &k);
        if (t == TOLD_NOT) {
            known_free(c, &k);
            return;
        }
        if (t > costliest) costliest = t;
    }
    if (c->n_known) in->distinct_by = told_name[costliest];
    *SQ_ARENA_APPEND(c->a, c->known, c->n_known, c->cap_known) = k;
}

/* ------------------------------------------------------------------ */
/* Sampling                                                            */
/* ------------------------------------------------------------------ */

/* Draws of one instance, at most, before a text made already is kept. */
enum { DRAWS = 8 };

static uint64_t seed_of(const SqTmplOptions *opt, const SqTmplSource *src, uint32_t k) {
    return sq_mix64(opt->seed ^ sq_mix64(src->id * UINT64_C(0x100000001b3) + k));
}

uint32_t sq_tmpl_sample(const SqTmplSource *src, const SqTmplOptions *opt, SqTmplInstance **out,
                        const char **why) {
    Checker c;
    memset(&c, 0, sizeof c);
    c.src = src;
    c.opt = opt;
    c.a = src->q->arena;
    sq_srcset_init(&c.srcs);
    sq_diags_init(&c.diags, &c.srcs);
    *out = NULL;
    *why = NULL;
    SqBuf b = SQ_BUF_INIT;
    sq_emit_sqlite(src->q, &b);
    Known source;
    memset(&source, 0, sizeof source);
    source.label = "source";
    source.sql = sq_arena_strdup(c.a, sq_buf_str(&b));
    sq_buf_free(&b);
    source.q = read_back(&c, source.sql, why);
    if (source.q && (*why = run(&c, source.sql, &source.rows)) == NULL) {
        *SQ_ARENA_APPEND(c.a, c.known, c.n_known, c.cap_known) = source;
        remember_text(&c, source.sql, "source");
    } else {
        if (!*why) *why = "the source does not bind";
        known_free(&c, &source);
    }
    uint32_t n = 0;
    SqTmplInstance *res = NULL;
    if (!*why) {
        res = sq_arena_alloc(c.a, (opt->n ? opt->n : 1) * sizeof *res);
        for (uint32_t k = 0; k < opt->n; k++) {
            uint64_t rng = seed_of(opt, src, k);
            SqTmplInstance *in = &res[n];
            double t0 = sq_monotonic_seconds();
            /* draws that give a text made already are drawn again; when
            ** DRAWS of them give nothing new, the query's small domain is
            ** used up and it gets no more instances.  A draw whose query
            ** returns no row on the database, or only NULL, is drawn again
            ** too, but the last draw is kept whatever it returns (and
            ** checked). */
            int fresh = 0;
            uint32_t redraws = 0;
            for (int tries = 0; tries < DRAWS && !fresh; tries++) {
                memset(in, 0, sizeof *in);
                in->index = n;
                Draft d = {c.a, NULL, 0, 0, in};
                in->sql = make(&d, src, &rng);
                fresh = in->sql && !seen_text(&c, in->sql);
                if (fresh && tries + 1 < DRAWS && returns_nothing(&c, in->sql)) {
                    fresh = 0;
                    redraws++;
                }
            }
            in->redraws = redraws;
            if (!fresh) break;
            check(&c, in);
            in->seconds = sq_monotonic_seconds() - t0;
            n++;
        }
    }
    for (uint32_t i = 0; i < c.n_known; i++) known_free(&c, &c.known[i]);
    for (uint32_t i = 0; i < c.n_cex; i++) sq_db_close(c.cex[i]);
    for (uint32_t i = 0; i < c.n_variants; i++) sq_db_close(c.variants[i]);
    sq_diags_free(&c.diags);
    sq_srcset_free(&c.srcs);
    *out = res;
    return n;
}
