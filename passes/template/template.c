/*
** template.c -- finding a query's slots (see template.h).
**
** Layer: passes.  Visits every query block; in a SELECT core, walks the
** expressions of ON, WHERE, the aggregates, HAVING and the result list
** (not into subqueries, which are blocks of their own) for comparisons
** with a literal, then reads the result list, GROUP BY, ORDER BY and
** LIMIT.  Slots are put in text order and named a kind at a time.
*/
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "passes/template/template.h"
#include "runtime/util.h"

typedef struct TplCtx {
    SqArena *a;
    const SqTemplateOptions *opt;
    SqSlot *slots;
    uint32_t n, cap;
    const IrRel **seen;      /* blocks visited (the binder shares subqueries) */
    uint32_t n_seen, cap_seen;
    IrRel **leaves;          /* the block's FROM items, left to right */
    uint32_t n_leaves, cap_leaves;
    SqSlotCol *equal;        /* pairs of columns the block's conditions make
                                equal (ON and WHERE conjuncts a = b) */
    uint32_t n_equal, cap_equal;
    int in_on;               /* walking an ON condition */
    SqExpr **top_where;      /* the top SELECT's WHERE condition, its FROM */
    IrRel **top_items;       /* items (SqTemplate.where, .items) */
    uint32_t n_top_items;
    int top_seen;
} TplCtx;

/* ------------------------------------------------------------------ */
/* Columns                                                             */
/* ------------------------------------------------------------------ */

static IrRel *leaf_of(const TplCtx *t, uint32_t id) {
    for (uint32_t i = 0; i < t->n_leaves; i++)
        if (t->leaves[i]->id == id) return t->leaves[i];
    return NULL;
}

/* e itself with CAST, COLLATE and unary + taken off. */
static const SqExpr *bare(const SqExpr *e) {
    for (;;) {
        if (e->kind == SQX_CAST) e = e->u.cast.x;
        else if (e->kind == SQX_COLLATE) e = e->u.collate.x;
        else if (e->kind == SQX_UNARY && e->op == AST_OP_POS) e = e->u.bin.l;
        else return e;
    }
}

/* The FROM-item column e is (under CAST or COLLATE), if it is one of this
** block's. */
static int column_of(const TplCtx *t, const SqExpr *e, SqSlotCol *out) {
    e = bare(e);
    if (e->kind != SQX_COLUMN || (e->flags & (SQXF_AGG_REF | SQXF_WIN_REF | SQXF_RESULT_REF)))
        return 0;
    IrRel *leaf = leaf_of(t, e->u.col.rel);
    if (!leaf || e->u.col.col >= leaf->cols.n) return 0;
    out->item = leaf;
    out->col = e->u.col.col;
    return 1;
}

static const SqColumn *col_def(const SqSlotCol *c) { return &c->item->cols.items[c->col]; }

/* The catalog column behind a FROM-item column, or NULL. */
static const CatColumn *cat_col(const SqSlotCol *c, const CatTable **table) {
    const SqColumn *d = col_def(c);
    if (!d->table || d->table_col < 0 || (uint32_t)d->table_col >= d->table->n_cols) return NULL;
    *table = d->table;
    return &d->table->cols[d->table_col];
}

/* A key of its table: the primary key or a UNIQUE column, the rowid, or a
** foreign key's column. */
static int is_key_column(const SqSlotCol *c) {
    const CatTable *t = NULL;
    const CatColumn *cc = cat_col(c, &t);
    if (!cc) return col_def(c)->table_col == -1;
    if (cc->pk || cc->unique || cc->rowid_alias) return 1;
    uint32_t idx = (uint32_t)col_def(c)->table_col;
    for (uint32_t i = 0; i < t->n_fks; i++)
        for (uint32_t k = 0; k < t->fks[i].n_cols; k++)
            if (t->fks[i].cols[k] == idx) return 1;
    return 0;
}

/* Whether the column alone is unique in its table (COUNT(DISTINCT) of it
** is its COUNT). */
static int is_unique_column(const SqSlotCol *c) {
    const CatTable *t = NULL;
    const CatColumn *cc = cat_col(c, &t);
    if (!cc) return col_def(c)->table_col == -1;
    return cc->unique || cc->rowid_alias || (cc->pk && t->n_keys && t->keys[0].n_cols == 1);
}

/* A column that holds dates: its declared type names DATE or TIME, or
** its name has "date" or "time" in it. */
static int is_date_column(const SqSlotCol *c) {
    const CatTable *t = NULL;
    const CatColumn *cc = cat_col(c, &t);
    const char *decl = cc ? cc->decl_type : NULL;
    const char *name = col_def(c)->name;
    return (decl && (sq_contains_nocase(decl, "date") || sq_contains_nocase(decl, "time"))) ||
           (name && (sq_contains_nocase(name, "date") || sq_contains_nocase(name, "time")));
}

static int is_time_slot(const SqSlot *s) {
    return s->kind == SQ_TSLOT_DATE || s->kind == SQ_TSLOT_PERIOD || s->kind == SQ_TSLOT_RELATIVE;
}

/* Whether alt could stand for the slot's column: a date column for a
** time reference; else the same kind of type, a key for a key and a
** plain column for a plain one (an id is no quantity, a quantity no id),
** a date column for a date column only. */
static int fits(const SqSlot *s, const SqSlotCol *alt) {
    const SqColumn *c = col_def(alt);
    if (!ir_column_nameable(c)) return 0;
    if (is_time_slot(s)) return is_date_column(alt);
    return ir_type_kind(c->type) == ir_type_kind(col_def(&s->column)->type) &&
           is_key_column(alt) == is_key_column(&s->column) &&
           is_date_column(alt) == is_date_column(&s->column);
}

static int same_col(const SqSlotCol *a, const SqSlotCol *b) {
    return a->item == b->item && a->col == b->col;
}

static int among(const SqSlotCol *cols, uint32_t n, const SqSlotCol *c) {
    for (uint32_t i = 0; i < n; i++)
        if (same_col(&cols[i], c)) return 1;
    return 0;
}

/* Whether the block's conditions make b equal to a, directly or through
** other columns (then b is no alternative to a: the query would not
** change). */
static int made_equal(const TplCtx *t, const SqSlotCol *a, const SqSlotCol *b) {
    enum { MAX_CLASS = 32 };
    SqSlotCol cls[MAX_CLASS]; /* a's class, grown by each pair with one side in it */
    uint32_t n = 1;
    cls[0] = *a;
    for (int grew = 1; grew;) {
        grew = 0;
        for (uint32_t i = 0; i + 1 < t->n_equal && n < MAX_CLASS; i += 2) {
            int x = among(cls, n, &t->equal[i]), y = among(cls, n, &t->equal[i + 1]);
            if (x != y) {
                cls[n++] = x ? t->equal[i + 1] : t->equal[i];
                grew = 1;
            }
        }
    }
    return among(cls, n, b);
}

/* The equalities of column with column among the conjuncts of e. */
static void collect_equal(TplCtx *t, SqExpr *e) {
    if (!e) return;
    if (e->kind == SQX_BINARY && e->op == AST_OP_AND) {
        collect_equal(t, e->u.bin.l);
        collect_equal(t, e->u.bin.r);
        return;
    }
    SqSlotCol l, r;
    if (e->kind != SQX_BINARY || e->op != AST_OP_EQ || !column_of(t, e->u.bin.l, &l) ||
        !column_of(t, e->u.bin.r, &r))
        return;
    *SQ_ARENA_APPEND(t->a, t->equal, t->n_equal, t->cap_equal) = l;
    *SQ_ARENA_APPEND(t->a, t->equal, t->n_equal, t->cap_equal) = r;
}

static void collect_join_equal(TplCtx *t, IrRel *r) {
    if (r->kind != IR_JOIN) return;
    collect_join_equal(t, r->u.join.left);
    collect_join_equal(t, r->u.join.right);
    if (r->u.join.type == IR_JOIN_INNER || r->u.join.type == IR_JOIN_CROSS) collect_equal(t, r->u.join.cond);
}

/* The domain's columns: the FROM items' columns that fit, the slot's own
** item's first, and none the block's conditions make equal to it. */
static void alternatives(TplCtx *t, SqSlot *s) {
    if (!s->has_column) return;
    for (int own = 1; own >= 0; own--)
        for (uint32_t i = 0; i < t->n_leaves; i++) {
            const IrRel *leaf = t->leaves[i];
            if ((leaf == s->column.item) != own) continue;
            for (uint32_t k = 0; k < leaf->cols.n; k++) {
                SqSlotCol alt = {leaf, k};
                if ((leaf == s->column.item && k == s->column.col) || !fits(s, &alt) ||
                    made_equal(t, &s->column, &alt))
                    continue;
                *SQ_ARENA_APPEND(t->a, s->alts, s->n_alts, s->cap_alts) = alt;
            }
        }
}

/* ------------------------------------------------------------------ */
/* Slots                                                               */
/* ------------------------------------------------------------------ */

static SqSlot *new_slot(TplCtx *t, SqSlotKind kind, SrcSpan span) {
    SqSlot *s = SQ_ARENA_APPEND(t->a, t->slots, t->n, t->cap);
    memset(s, 0, sizeof *s);
    s->kind = (uint8_t)kind;
    s->span = span;
    return s;
}

/* The slot's column (when there is one) and type, and its domain. */
static void tie_to(TplCtx *t, SqSlot *s, const SqExpr *subject) {
    s->has_column = (uint8_t)column_of(t, subject, &s->column);
    s->type = s->has_column ? col_def(&s->column)->type : subject->type;
    alternatives(t, s);
}

/* ------------------------------------------------------------------ */
/* Comparisons                                                         */
/* ------------------------------------------------------------------ */

/* A constant a question states: a literal other than NULL and TRUE or
** FALSE, or a signed number. */
static int is_value(const SqExpr *e) {
    if (e->kind == SQX_UNARY && (e->op == AST_OP_NEG || e->op == AST_OP_POS)) {
        const SqExpr *x = e->u.bin.l;
        return x->kind == SQX_LITERAL &&
               (x->u.lit.vtype == SQ_VAL_INTEGER || x->u.lit.vtype == SQ_VAL_REAL);
    }
    return e->kind == SQX_LITERAL && e->u.lit.vtype != SQ_VAL_NULL &&
           !(e->flags & (SQXF_BOOL_NAME | SQXF_FOLDED));
}

static int is_number(const SqExpr *e) {
    if (e->kind == SQX_UNARY) e = e->u.bin.l;
    return e->u.lit.vtype == SQ_VAL_INTEGER || e->u.lit.vtype == SQ_VAL_REAL;
}

static int reads_column(SqExpr *e, void *arg) {
    (void)arg;
    return e->kind == SQX_COLUMN || e->kind == SQX_SUBQUERY;
}

/* What a value is compared with: something that varies with the rows (a
** column, an expression of columns, a scalar subquery), and not a CASE,
** whose values are labels. */
static int is_subject(const SqExpr *e) {
    const SqExpr *b = bare(e);
    return b->kind != SQX_CASE && sq_expr_walk((SqExpr *)b, reads_column, NULL);
}

static int func_is(const SqExpr *e, const char *name) {
    return e->kind == SQX_FUNC && e->u.func.name && sq_stricmp(e->u.func.name, name) == 0;
}

static const SqExpr *arg_of(const SqExpr *e, uint32_t i) {
    return i < e->u.func.args.n ? e->u.func.args.items[i] : NULL;
}

static int text_arg(const SqExpr *e, const char **s, uint32_t *n) {
    if (!e || e->kind != SQX_LITERAL || e->u.lit.vtype != SQ_VAL_TEXT) return 0;
    *s = e->u.lit.s;
    *n = e->u.lit.n;
    return 1;
}

static int int_arg(const SqExpr *e, int64_t *v) {
    if (!e || e->kind != SQX_LITERAL || e->u.lit.vtype != SQ_VAL_INTEGER) return 0;
    *v = e->u.lit.i;
    return 1;
}

/* The part of a date a strftime format picks: "year", "month", "day",
** "hour", "date" (the whole day), or "period" for any other. */
static const char *format_part(const char *f, uint32_t n) {
    static const struct {
        const char *fmt, *part;
    } parts[] = {{"%Y", "year"},        {"%m", "month"},     {"%Y-%m", "month"}, {"%d", "day"},
                 {"%Y-%m-%d", "date"},  {"%H", "hour"},      {"%W", "week"},     {"%w", "weekday"},
                 {"%j", "day-of-year"}};
    for (size_t i = 0; i < SQ_ARRAY_LEN(parts); i++)
        if (strlen(parts[i].fmt) == n && memcmp(parts[i].fmt, f, n) == 0) return parts[i].part;
    return "period";
}

/* The part of a date column a subject picks out of it (strftime with a
** format, substr of the first 4, 7 or 10 characters or of the month's 2),
** or NULL. */
static const char *date_part(const SqExpr *subject) {
    const SqExpr *b = bare(subject);
    const char *f;
    uint32_t n;
    if (func_is(b, "strftime") && text_arg(arg_of(b, 0), &f, &n) && b->u.func.args.n >= 2)
        return format_part(f, n);
    int64_t from, len;
    if ((func_is(b, "substr") || func_is(b, "substring")) && int_arg(arg_of(b, 1), &from) &&
        int_arg(arg_of(b, 2), &len)) {
        if (from == 1 && len == 4) return "year";
        if (from == 1 && len == 7) return "month";
        if (from == 1 && len == 10) return "date";
        if (from == 6 && len == 2) return "month";
    }
    if (func_is(b, "date")) return "date";
    return NULL;
}

/* The column inside a date-part subject (strftime's second argument,
** substr's first), or the subject itself. */
static const SqExpr *date_column(const SqExpr *subject) {
    const SqExpr *b = bare(subject);
    if (func_is(b, "strftime") && arg_of(b, 1)) return arg_of(b, 1);
    if ((func_is(b, "substr") || func_is(b, "substring") || func_is(b, "date")) && arg_of(b, 0))
        return arg_of(b, 0);
    return subject;
}

static int digits(const char *s, int n) {
    for (int i = 0; i < n; i++)
        if (!isdigit((unsigned char)s[i])) return 0;
    return 1;
}

/* "day" for 'YYYY-MM-DD', "datetime" for 'YYYY-MM-DD HH:MM[:SS[.f...]]'
** (or with a T), else NULL. */
static const char *date_text(const SqExpr *lit) {
    if (lit->kind != SQX_LITERAL || lit->u.lit.vtype != SQ_VAL_TEXT) return NULL;
    const char *s = lit->u.lit.s;
    uint32_t n = lit->u.lit.n;
    if (n < 10 || !digits(s, 4) || s[4] != '-' || !digits(s + 5, 2) || s[7] != '-' ||
        !digits(s + 8, 2))
        return NULL;
    if (n == 10) return "day";
    if (n >= 16 && (s[10] == ' ' || s[10] == 'T') && digits(s + 11, 2) && s[13] == ':' &&
        digits(s + 14, 2))
        return "datetime";
    return NULL;
}

/* A time reference relative to now: a date function over 'now', or
** CURRENT_DATE and its kin. */
static int is_relative(const SqExpr *e) {
    e = bare(e);
    if (e->kind == SQX_CTIME) return 1;
    if (!(func_is(e, "date") || func_is(e, "datetime") || func_is(e, "julianday") ||
          func_is(e, "strftime") || func_is(e, "unixepoch")))
        return 0;
    for (uint32_t i = 0; i < e->u.func.args.n; i++) {
        const char *s;
        uint32_t n;
        if (text_arg(e->u.func.args.items[i], &s, &n) && n == 3 && sq_strnicmp(s, "now", 3) == 0)
            return 1;
    }
    return 0;
}

/* The unit a relative reference moves by: its last modifier's ("-7 days"
** is "day"), or "now" when it has none. */
static const char *relative_unit(const SqExpr *e) {
    static const char *const units[] = {"year", "month", "day", "hour", "minute", "second"};
    const char *unit = "now";
    e = bare(e);
    if (e->kind != SQX_FUNC) return e->op == AST_OP_CURRENT_DATE ? "day" : "now";
    for (uint32_t i = 0; i < e->u.func.args.n; i++) {
        const char *s;
        uint32_t n;
        if (!text_arg(e->u.func.args.items[i], &s, &n)) continue;
        for (size_t k = 0; k < SQ_ARRAY_LEN(units); k++) {
            size_t ul = strlen(units[k]);
            for (uint32_t j = 0; j + ul <= n; j++)
                if (sq_strnicmp(s + j, units[k], ul) == 0) unit = units[k];
        }
    }
    return unit;
}

/* A slot for the value at *slot, compared with subject by op (as if the
** subject were on the left). */
static void value_slot(TplCtx *t, SqExpr *cmp, SqExpr **slot, const SqExpr *subject, uint8_t op,
                       uint8_t between, uint8_t in_list) {
    const SqExpr *v = *slot;
    const char *part = date_part(subject);
    SqSlotKind kind;
    const char *gran = NULL;
    if (part && strcmp(part, "date") != 0) {
        kind = SQ_TSLOT_PERIOD;
        gran = part;
    } else if (part || date_text(v)) {
        kind = SQ_TSLOT_DATE;
        gran = date_text(v) ? date_text(v) : "day";
    } else if (is_number(v) && (between || op == AST_OP_LT || op == AST_OP_LE ||
                                op == AST_OP_GT || op == AST_OP_GE)) {
        kind = SQ_TSLOT_THRESHOLD;
    } else {
        kind = SQ_TSLOT_VALUE;
    }
    SqSlotCol col;
    /* a literal compared with a key in ON: part of how the tables meet */
    if (t->in_on && column_of(t, date_column(subject), &col) && is_key_column(&col)) return;
    SqSlot *s = new_slot(t, kind, v->span);
    s->expr = slot;
    s->cmp = cmp;
    s->op = op;
    s->between = between;
    s->in_list = in_list;
    s->granularity = gran;
    tie_to(t, s, date_column(subject));
}

static void relative_slot(TplCtx *t, SqExpr *cmp, SqExpr **slot, const SqExpr *subject, uint8_t op,
                          uint8_t between) {
    SqSlot *s = new_slot(t, SQ_TSLOT_RELATIVE, (*slot)->span);
    s->expr = slot;
    s->cmp = cmp;
    s->op = op;
    s->between = between;
    s->granularity = relative_unit(*slot);
    tie_to(t, s, date_column(subject));
}

/* One bound or operand: a value, a relative reference, or neither. */
static void operand_slot(TplCtx *t, SqExpr *cmp, SqExpr **slot, const SqExpr *subject, uint8_t op,
                         uint8_t between) {
    if (!*slot || !is_subject(subject)) return;
    if (is_value(*slot)) value_slot(t, cmp, slot, subject, op, between, 0);
    else if (is_relative(*slot) && !is_relative(subject)) relative_slot(t, cmp, slot, subject, op, between);
}

static void comparison(TplCtx *t, SqExpr *e) {
    switch ((SqExprKind)e->kind) {
    case SQX_BINARY:
        if (!ast_op_is_comparison(e->op)) return;
        if (is_value(e->u.bin.r) || is_relative(e->u.bin.r))
            operand_slot(t, e, &e->u.bin.r, e->u.bin.l, e->op, 0);
        else if (is_value(e->u.bin.l) || is_relative(e->u.bin.l))
            operand_slot(t, e, &e->u.bin.l, e->u.bin.r, (uint8_t)ast_op_flip((AstOp)e->op), 0);
        return;
    case SQX_BETWEEN:
        operand_slot(t, e, &e->u.between.lo, e->u.between.x, AST_OP_GE, 1);
        operand_slot(t, e, &e->u.between.hi, e->u.between.x, AST_OP_LE, 2);
        return;
    case SQX_IN_LIST:
        if (!is_subject(e->u.in.x)) return;
        for (uint32_t i = 0; i < e->u.in.list.n; i++)
            if (is_value(e->u.in.list.items[i]))
                value_slot(t, e, &e->u.in.list.items[i], e->u.in.x, AST_OP_NONE, 0, 1);
        return;
    default:
        return;
    }
}

static int walk_child(SqExpr **slot, void *arg);

/* Every comparison of the expression at *slot (not into subqueries). */
static void walk(TplCtx *t, SqExpr **slot) {
    SqExpr *e = *slot;
    if (!e) return;
    comparison(t, e);
    sq_expr_each_child(e, walk_child, t);
}

static int walk_child(SqExpr **slot, void *arg) {
    walk(arg, slot);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Operators                                                           */
/* ------------------------------------------------------------------ */

static void walk_joins(TplCtx *t, IrRel *r) {
    if (r->kind != IR_JOIN) return;
    walk_joins(t, r->u.join.left);
    walk_joins(t, r->u.join.right);
    t->in_on = 1;
    walk(t, &r->u.join.cond);
    t->in_on = 0;
}

/* The aggregates a column's metric may use. */
static uint8_t metric_aggs(const SqSlot *s, const SqAggItem *it) {
    if (it->star || !it->args.n) return SQ_AGG_BIT_COUNT;
    uint8_t bits = SQ_AGG_BIT_COUNT | SQ_AGG_BIT_MIN | SQ_AGG_BIT_MAX;
    if (!is_unique_column(&s->column)) bits |= SQ_AGG_BIT_COUNT_DISTINCT;
    /* a sum of ids or of text is no quantity */
    if (ir_type_kind(s->type) == IR_TK_NUMERIC && !is_key_column(&s->column))
        bits |= SQ_AGG_BIT_SUM | SQ_AGG_BIT_AVG;
    return bits;
}

static int is_metric_call(const SqAggItem *it) {
    static const char *const names[] = {"count", "sum", "avg", "min", "max", "total"};
    if (it->kind != SQ_AGG_CALL || !it->name || it->filter) return 0;
    for (size_t i = 0; i < SQ_ARRAY_LEN(names); i++)
        if (sq_stricmp(it->name, names[i]) == 0) return it->args.n <= 1;
    return 0;
}

static int has_agg_slot(const TplCtx *t, const SqAggItem *it) {
    for (uint32_t i = 0; i < t->n; i++)
        if (t->slots[i].agg == it) return 1;
    return 0;
}

/* A result column that is an aggregate call: a metric. */
static void metric(TplCtx *t, const IrCore *c, const SqExpr *e, SqColumn *shown) {
    if (!c->agg || e->kind != SQX_COLUMN || !(e->flags & SQXF_AGG_REF) ||
        e->u.col.rel != c->agg->id || e->u.col.col >= c->agg->u.agg.n_items)
        return;
    SqAggItem *it = &c->agg->u.agg.items[e->u.col.col];
    SqSlotCol col;
    /* a column and its aggregate: an expression's slots are its own */
    if (!is_metric_call(it) || has_agg_slot(t, it) ||
        (it->args.n && !column_of(t, it->args.items[0], &col)))
        return;
    SqSlot *s = new_slot(t, SQ_TSLOT_METRIC, it->span.end > it->span.start ? it->span : e->span);
    s->agg = it;
    s->shown = shown->is_alias ? NULL : shown;
    if (it->args.n) tie_to(t, s, it->args.items[0]);
    else s->type = it->type;
    s->aggs = metric_aggs(s, it);
}

/* The result column that shows aggregate item k of agg as it is, with
** SQLite's name, or NULL. */
static SqColumn *shown_key(IrRel *agg, IrRel *project, uint32_t k) {
    for (uint32_t i = 0; i < project->u.project.exprs.n && i < project->cols.n; i++) {
        const SqExpr *e = project->u.project.exprs.items[i];
        SqColumn *col = &project->cols.items[i];
        if (e->kind == SQX_COLUMN && (e->flags & SQXF_AGG_REF) && e->u.col.rel == agg->id &&
            e->u.col.col == k && !col->hidden)
            return col->is_alias ? NULL : col;
    }
    return NULL;
}

static void group_cols(TplCtx *t, IrRel *agg, IrRel *project) {
    for (uint32_t i = 0; i < agg->u.agg.n_items; i++) {
        SqAggItem *it = &agg->u.agg.items[i];
        SqSlotCol col;
        if (it->kind != SQ_AGG_KEY || !it->expr || !column_of(t, it->expr, &col)) continue;
        SqSlot *s = new_slot(t, SQ_TSLOT_GROUP_COL, it->expr->span);
        s->agg = it;
        s->shown = shown_key(agg, project, i);
        tie_to(t, s, it->expr);
    }
}

/* The ORDER BY terms: each one's direction, and the column of one that is
** not a result column. */
static void order_by(TplCtx *t, IrRel *sort, IrRel *project) {
    for (uint32_t i = 0; i < sort->u.sort.n_keys; i++) {
        SqSortKey *k = &sort->u.sort.keys[i];
        uint32_t col = k->expr->u.col.col;
        SqExpr **hidden = NULL;
        if (project && col < project->cols.n && project->cols.items[col].hidden)
            hidden = &project->u.project.exprs.items[col];
        SrcSpan at = hidden ? (*hidden)->span : k->expr->span;
        SqSlotCol sc;
        if (hidden && column_of(t, *hidden, &sc)) {
            SqSlot *s = new_slot(t, SQ_TSLOT_ORDER_COL, at);
            s->expr = hidden;
            tie_to(t, s, *hidden);
        }
        SqSlot *d = new_slot(t, SQ_TSLOT_ORDER_DIR, at);
        d->key = k;
    }
}

static void limit(TplCtx *t, IrRel *lim, IrRel *sort) {
    SqExpr **count = &lim->u.limit.count;
    if (!*count || (*count)->kind != SQX_LITERAL || (*count)->u.lit.vtype != SQ_VAL_INTEGER ||
        (*count)->u.lit.i < 1)
        return;
    if (t->opt->keep_superlatives && sort && (*count)->u.lit.i == 1) return;
    SqSlot *s = new_slot(t, SQ_TSLOT_LIMIT, (*count)->span);
    s->expr = count;
    s->type = (*count)->type;
}

/* ------------------------------------------------------------------ */
/* Blocks                                                              */
/* ------------------------------------------------------------------ */

static void collect_leaves(TplCtx *t, IrRel *r) {
    if (r->kind == IR_JOIN) {
        collect_leaves(t, r->u.join.left);
        collect_leaves(t, r->u.join.right);
        return;
    }
    if (!(r->flags & IRF_FROM_ITEM) || (r->kind == IR_SCAN && r->u.scan.tvf)) return;
    *SQ_ARENA_APPEND(t->a, t->leaves, t->n_leaves, t->cap_leaves) = r;
}

static int seen(TplCtx *t, const IrRel *top) {
    for (uint32_t i = 0; i < t->n_seen; i++)
        if (t->seen[i] == top) return 1;
    *SQ_ARENA_APPEND(t->a, t->seen, t->n_seen, t->cap_seen) = top;
    return 0;
}

static void core(TplCtx *t, const IrCore *c) {
    collect_leaves(t, c->from);
    collect_join_equal(t, c->from);
    if (c->where) collect_equal(t, c->where->u.filter.pred);
    walk_joins(t, c->from);
    if (c->where) walk(t, &c->where->u.filter.pred);
    if (c->agg)
        for (uint32_t i = 0; i < c->agg->u.agg.n_items; i++) {
            SqAggItem *it = &c->agg->u.agg.items[i];
            for (uint32_t k = 0; k < it->args.n; k++) walk(t, &it->args.items[k]);
            walk(t, &it->filter);
        }
    if (c->having) walk(t, &c->having->u.filter.pred);
    SqExprList *exprs = &c->project->u.project.exprs;
    for (uint32_t i = 0; i < exprs->n; i++) {
        if (i < c->project->cols.n && !c->project->cols.items[i].hidden)
            metric(t, c, exprs->items[i], &c->project->cols.items[i]);
        walk(t, &exprs->items[i]);
    }
    if (c->agg) group_cols(t, c->agg, c->project);
    if (c->sort) order_by(t, c->sort, c->project);
    if (c->limit) limit(t, c->limit, c->sort);
}

/* A compound (or VALUES) block: its ORDER BY directions and LIMIT. */
static void compound(TplCtx *t, IrRel *top) {
    IrRel *lim = top->kind == IR_LIMIT ? top : NULL;
    IrRel *sort = lim ? lim->input : top;
    if (!sort || sort->kind != IR_SORT) sort = NULL;
    if (sort) order_by(t, sort, NULL);
    if (lim) limit(t, lim, sort);
}

static void visit(void *arg, IrRel **top, const IrCore *c, const IrCoreSite *site) {
    TplCtx *t = arg;
    if (seen(t, *top) || (site->cte && site->cte->recursive)) return;
    t->n_leaves = 0;
    t->n_equal = 0;
    if (c) core(t, c);
    else compound(t, *top);
    if (c && site->use == IR_USE_ROOT && !site->in_compound && !t->top_seen) {
        t->top_seen = 1;
        t->top_where = c->where ? &c->where->u.filter.pred : NULL;
        t->top_items = sq_arena_alloc(t->a, (t->n_leaves ? t->n_leaves : 1) * sizeof *t->top_items);
        memcpy(t->top_items, t->leaves, t->n_leaves * sizeof *t->leaves);
        t->n_top_items = t->n_leaves;
    }
}

/* ------------------------------------------------------------------ */
/* Order and names                                                     */
/* ------------------------------------------------------------------ */

typedef struct Ranked {
    SqSlot slot;
    uint32_t seq;
} Ranked;

static int by_text(const void *pa, const void *pb) {
    const Ranked *a = pa, *b = pb;
    if (a->slot.span.start != b->slot.span.start) return a->slot.span.start < b->slot.span.start ? -1 : 1;
    return (a->seq > b->seq) - (a->seq < b->seq);
}

/* The placeholder's stem: the kind, or for time references the side of
** the range they bound. */
static const char *stem(const SqSlot *s) {
    switch ((SqSlotKind)s->kind) {
    case SQ_TSLOT_DATE: case SQ_TSLOT_RELATIVE:
        if (s->op == AST_OP_GT || s->op == AST_OP_GE) return "since";
        if (s->op == AST_OP_LT || s->op == AST_OP_LE) return "until";
        return "date";
    case SQ_TSLOT_PERIOD:
        return strcmp(s->granularity, "year") == 0 || strcmp(s->granularity, "month") == 0 ||
                       strcmp(s->granularity, "day") == 0 || strcmp(s->granularity, "hour") == 0
                   ? s->granularity : "period";
    case SQ_TSLOT_GROUP_COL: return "group_col";
    case SQ_TSLOT_ORDER_COL: return "order_col";
    case SQ_TSLOT_ORDER_DIR: return "order_dir";
    default: return sq_slot_kind_name((SqSlotKind)s->kind);
    }
}

static void name_slots(SqArena *a, SqSlot *slots, uint32_t n) {
    for (uint32_t i = 0; i < n; i++) {
        const char *st = stem(&slots[i]);
        uint32_t k = 1;
        for (uint32_t j = 0; j < i; j++) k += strcmp(stem(&slots[j]), st) == 0;
        slots[i].name = sq_arena_printf(a, "%s_%u", st, k);
        slots[i].placeholder = sq_arena_printf(a, ":%s", slots[i].name);
    }
}

SqTemplate *sq_template_slots(IrQuery *q, const Catalog *cat, const SqTemplateOptions *opt) {
    (void)cat; /* the FROM items carry the catalog's columns */
    static const SqTemplateOptions defaults = {0};
    TplCtx t;
    memset(&t, 0, sizeof t);
    t.a = q->arena;
    t.opt = opt ? opt : &defaults;
    if (q->root) ir_visit_cores(&q->root, visit, &t);
    SqTemplate *res = sq_arena_alloc(q->arena, sizeof *res);
    memset(res, 0, sizeof *res);
    res->q = q;
    res->aliases = ir_sql_aliases(q);
    res->where = t.top_where;
    res->items = t.top_items;
    res->n_items = t.n_top_items;
    if (!t.n) return res;
    Ranked *r = sq_malloc(t.n * sizeof *r);
    for (uint32_t i = 0; i < t.n; i++) r[i] = (Ranked){t.slots[i], i};
    qsort(r, t.n, sizeof *r, by_text);
    res->slots = sq_arena_alloc(q->arena, t.n * sizeof *res->slots);
    for (uint32_t i = 0; i < t.n; i++) res->slots[i] = r[i].slot;
    res->n_slots = t.n;
    free(r);
    name_slots(q->arena, res->slots, res->n_slots);
    return res;
}

const char *sq_template_mark(void *tmpl, const void *node) {
    const SqTemplate *t = tmpl;
    for (uint32_t i = 0; i < t->n_slots; i++) {
        const SqSlot *s = &t->slots[i];
        int at = s->expr ? (const void *)*s->expr == node
               : s->agg  ? (const void *)s->agg == node ||
                               (s->kind == SQ_TSLOT_GROUP_COL && (const void *)s->agg->expr == node)
                         : (const void *)s->key == node;
        if (at) return s->placeholder;
    }
    return NULL;
}
