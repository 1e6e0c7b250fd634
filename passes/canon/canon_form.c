/*
** canon_form.c -- the normal form of one query (see canon.h): its
** instances (derived tables that merge and IN on a key included), its
** classes of equal columns and their NOT NULL marks, its other
** conjuncts, the instances a foreign key makes redundant, whether its
** groups are single rows, and whether ties can change its result.
**
** Layer: passes.  Design note: docs/canon.md.
*/
#include <string.h>

#include "passes/canon/canon_int.h"

/* ------------------------------------------------------------------ */
/* Columns and classes                                                 */
/* ------------------------------------------------------------------ */

static int inst_of_rel(const CnForm *f, uint32_t rel) {
    for (uint32_t i = 0; i < f->n_inst; i++)
        if (f->inst[i].scan->id == rel) return (int)i;
    return -1;
}

static const SqExpr *row_group_value(const CnForm *f, const SqAggItem *it);

const SqExpr *cn_def(const CnForm *f, const SqExpr *e) {
    if (e->kind != SQX_COLUMN) return NULL;
    for (uint32_t i = 0; i < f->n_through; i++)
        if (f->through[i]->id == e->u.col.rel) return f->through[i]->u.project.exprs.items[e->u.col.col];
    if (f->ungrouped && e->u.col.rel == f->c.agg->id) return row_group_value(f, &f->c.agg->u.agg.items[e->u.col.col]);
    return NULL;
}

int cn_column(const CnForm *f, const SqExpr *e) {
    for (const SqExpr *d; (d = cn_def(f, e));) e = d;
    if (e->kind != SQX_COLUMN) return -1;
    int i = inst_of_rel(f, e->u.col.rel);
    if (i < 0) return -1;
    const SqColumn *col = ir_column(f->q, e->u.col);
    if (!col) return -1;
    const CnInst *in = &f->inst[i];
    uint32_t local = col->table_col < 0 ? in->table->n_cols : (uint32_t)col->table_col;
    return (int)(in->first + local);
}

uint32_t cn_inst_of(const CnForm *f, uint32_t x) {
    uint32_t i = 0;
    while (i + 1 < f->n_inst && f->inst[i + 1].first <= x) i++;
    return i;
}

const CatColumn *cn_cat_column(const CnForm *f, uint32_t x) {
    const CnInst *in = &f->inst[cn_inst_of(f, x)];
    uint32_t local = x - in->first;
    return local < in->table->n_cols ? &in->table->cols[local] : NULL;
}

uint32_t cn_root(const CnForm *f, uint32_t x) {
    while (f->up[x] != x) x = f->up[x];
    return x;
}

static void unite(CnForm *f, uint32_t x, uint32_t y) {
    x = cn_root(f, x), y = cn_root(f, y);
    if (x == y) return;
    f->up[y] = x;
    f->marked[x] |= f->marked[y];
}

/* NOT NULL as the search takes it: declared, a PRIMARY KEY column, or
** the rowid. */
static int declared_not_null(const CnForm *f, uint32_t x) {
    const CatColumn *c = cn_cat_column(f, x);
    return !c || c->not_null || c->pk > 0;
}


/* The columns of x's class, removed instances' too. */
static uint32_t class_size(const CnForm *f, uint32_t x) {
    uint32_t n = 0, r = cn_root(f, x);
    for (uint32_t y = 0; y < f->n_cols; y++) n += cn_root(f, y) == r;
    return n;
}

/* The live columns of x's class: how many, and one of them. */
static uint32_t live_members(const CnForm *f, uint32_t x, uint32_t *one) {
    uint32_t n = 0, r = cn_root(f, x);
    for (uint32_t y = 0; y < f->n_cols; y++)
        if (cn_root(f, y) == r && !f->inst[cn_inst_of(f, y)].removed) n++, *one = y;
    return n;
}

/* Aggregates that skip the rows where their one argument is NULL. */
static int skips_null(const SqAggItem *it) {
    static const char *const names[] = {"count", "sum", "avg", "min", "max", "total"};
    if (it->kind != SQ_AGG_CALL || it->star || it->args.n != 1) return 0;
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strcmp(it->def->name, names[i]) == 0) return 1;
    return 0;
}

/* Whether a NOT NULL asked of x's class (x alone among the live
** columns) tells nothing an aggregate without GROUP BY would not: each
** aggregate skips the rows where x is NULL, or is count(*), which then
** counts what count(x) counts.  As when count(fk) stands for a join to
** the key it refers to. */
static int absorbable(const CnForm *f, uint32_t x) {
    const IrRel *g = f->c.agg;
    if (!g || !g->u.agg.n_items) return 0;
    for (uint32_t i = 0; i < g->u.agg.n_items; i++) {
        const SqAggItem *it = &g->u.agg.items[i];
        int rows = it->kind == SQ_AGG_CALL && it->star && !it->distinct && !it->filter &&
                   strcmp(it->def->name, "count") == 0;
        int y = skips_null(it) ? cn_column(f, it->args.items[0]) : -1;
        if (!rows && (y < 0 || cn_root(f, (uint32_t)y) != cn_root(f, x))) return 0;
    }
    return 1;
}

/* The one marked class (of one live column that may be NULL) whose mark
** is absorbable; none when two are, for count(*) can stand for one. */
static void absorb(CnForm *f) {
    f->absorbed = -1;
    for (uint32_t x = 0; x < f->n_cols; x++) {
        uint32_t one = x;
        if (f->inst[cn_inst_of(f, x)].removed || !f->marked[cn_root(f, x)] || f->implied[cn_root(f, x)] ||
            live_members(f, x, &one) != 1 ||
            declared_not_null(f, x) || !absorbable(f, x))
            continue;
        if (f->absorbed >= 0) {
            f->absorbed = -1;
            return;
        }
        f->absorbed = (int)x;
    }
}

int cn_class_mark(const CnForm *f, uint32_t x) {
    if (!f->marked[cn_root(f, x)] || f->implied[cn_root(f, x)]) return 0; /* none, or a conjunct says it */
    uint32_t one = x;
    if (live_members(f, x, &one) != 1) return 1; /* an equality */
    return !declared_not_null(f, one) && !(f->absorbed >= 0 && cn_root(f, (uint32_t)f->absorbed) == cn_root(f, x));
}

/* A removed instance's column stands for the live column of its class:
** that one's declaration counts. */
int cn_not_null(const CnForm *f, uint32_t x) {
    uint32_t one = x;
    if (!live_members(f, x, &one)) return 0;
    return cn_class_mark(f, x) || f->implied[cn_root(f, x)] || declared_not_null(f, one);
}

/* Whether columns x and y are equal only when they hold the same value:
** the same affinity that converts what is stored into one storage class
** per value, and BINARY collation. */
static int identical_when_equal(const CnForm *f, uint32_t x, uint32_t y) {
    const CatColumn *a = cn_cat_column(f, x), *b = cn_cat_column(f, y);
    if (!a || !b || a->affinity != b->affinity || a->affinity == SQ_AFF_BLOB) return 0;
    return (!a->collation || sq_stricmp(a->collation, "binary") == 0) &&
           (!b->collation || sq_stricmp(b->collation, "binary") == 0);
}

/* The column a query block's one visible result column reads directly:
** its number once the block's table is an instance, else -1. */
static int only_result_column(const IrCore *c) {
    const IrRel *p = c->project;
    int found = -1;
    for (uint32_t i = 0; i < p->cols.n; i++) {
        if (p->cols.items[i].hidden) continue;
        const SqExpr *e = p->u.project.exprs.items[i];
        if (found >= 0 || e->kind != SQX_COLUMN || e->u.col.rel != c->from->id) return -1;
        found = (int)i;
    }
    return found;
}

/* ------------------------------------------------------------------ */
/* What a form can hold                                                */
/* ------------------------------------------------------------------ */

static int fail(CnForm *f, const char *why) {
    if (!f->why) f->why = why;
    return 0;
}

/* An expression of the core: no subquery, parameter or function that is
** not deterministic (the clock excepted: the caller pins it), and only
** references to the core's instances, aggregate and result columns. */
static int check_node(SqExpr *e, void *arg) {
    CnForm *f = arg;
    f->reads_clock |= sq_expr_node_reads_clock(e);
    switch ((SqExprKind)e->kind) {
    case SQX_IN_SUBQUERY: case SQX_EXISTS: case SQX_SUBQUERY: return !fail(f, "a subquery");
    case SQX_PARAM: case SQX_RAISE: return !fail(f, "a parameter");
    case SQX_FUNC: {
        const SqFuncDef *d = e->u.func.def;
        if (!d || (d->flags & FL_SPECIAL) || ((d->flags & FL_NONDET) && !(d->flags & FL_DATE)))
            return !fail(f, "a function that is not deterministic");
        return 0;
    }
    case SQX_COLUMN: {
        uint32_t rel = e->u.col.rel;
        int ok = inst_of_rel(f, rel) >= 0 || (f->c.agg && rel == f->c.agg->id) ||
                 (f->c.project && rel == f->c.project->id) || cn_def(f, e);
        return ok ? 0 : !fail(f, "a reference outside the query's tables");
    }
    default: return 0;
    }
}

static int check_slot(SqExpr **slot, void *arg) { return sq_expr_walk(*slot, check_node, arg); }

static int check_aggregates(CnForm *f) {
    const IrRel *g = f->c.agg;
    for (uint32_t i = 0; g && i < g->u.agg.n_items; i++) {
        const SqAggItem *it = &g->u.agg.items[i];
        if (it->kind == SQ_AGG_CALL && !it->def) return fail(f, "an unknown aggregate");
        if (it->kind == SQ_AGG_BARE) f->ties = 1; /* which row of its group is SQLite's choice */
        if (it->kind == SQ_AGG_CALL && (strcmp(it->def->name, "group_concat") == 0 ||
                                        strncmp(it->def->name, "json_group_", 11) == 0))
            f->ties = 1; /* so is the order of the rows it strings together */
    }
    return 1;
}

static int add_from(CnForm *f, IrRel *r);

/* A derived table that only joins, filters and computes columns: its
** tables join the form, its WHERE joins the conjuncts, and references to
** its columns stand for its result expressions (both the FROM item's
** renaming list and the query's own). */
static int add_derived(CnForm *f, IrRel *item) {
    IrRel *root = item->input;
    IrCore c;
    if (!root || !ir_core_split(&root, &c) || c.agg || c.having || c.window || c.limit || c.distinct)
        return fail(f, "a derived table that aggregates, limits or removes duplicates");
    *SQ_ARENA_APPEND(f->a, f->through, f->n_through, f->cap_through) = item;
    *SQ_ARENA_APPEND(f->a, f->through, f->n_through, f->cap_through) = c.project;
    if (!add_from(f, c.from) || ir_rel_exprs(c.project, check_slot, f)) return 0;
    if (c.where) ir_conjuncts(f->a, c.where->u.filter.pred, &f->conj);
    return 1;
}

/* The FROM tree: inner and cross joins over base tables and derived
** tables that merge. */
static int add_from(CnForm *f, IrRel *r) {
    if (r->kind == IR_PROJECT && (r->flags & IRF_FROM_ITEM) && !(r->flags & IRF_VIEW)) return add_derived(f, r);
    if (r->kind == IR_JOIN) {
        if (r->u.join.type != IR_JOIN_INNER && r->u.join.type != IR_JOIN_CROSS) return fail(f, "an outer join");
        if (!add_from(f, r->u.join.left) || !add_from(f, r->u.join.right)) return 0;
        ir_conjuncts(f->a, r->u.join.cond, &f->conj);
        return 1;
    }
    if (r->kind != IR_SCAN || r->u.scan.tvf || r->u.scan.table->is_view || r->u.scan.table->is_virtual)
        return fail(f, "a FROM item that is not a base table");
    CnInst *in = SQ_ARENA_APPEND(f->a, f->inst, f->n_inst, f->cap_inst);
    memset(in, 0, sizeof *in);
    in->scan = r;
    in->table = r->u.scan.table;
    in->first = f->n_cols;
    f->n_cols += in->table->n_cols + 1; /* and its rowid */
    return 1;
}

/* x OP y. */
static SqExpr *compare(CnForm *f, SqExpr *l, int op, SqExpr *r, const SqExpr *like) {
    SqExpr *e = sq_expr_new(f->a, SQX_BINARY, like->span, like->type);
    e->op = (uint8_t)op;
    e->u.bin.l = l;
    e->u.bin.r = r;
    return e;
}

/* x IN (SELECT k FROM t WHERE ...), k a key of t by itself: a join to t
** on k, with the subquery's conditions.  At most one row of t has k = x,
** so no row is repeated; where x is NULL or meets no row, IN is NULL or
** false and the row goes, as with the join.  1 when e became a join. */
static int in_as_join(CnForm *f, const SqExpr *e) {
    if (e->kind != SQX_IN_SUBQUERY || (e->flags & (SQXF_NOT | SQXF_CORRELATED)) || e->u.sub.n_outer) return 0;
    IrRel *root = e->u.sub.rel;
    IrCore c;
    if (!root || !ir_core_split(&root, &c) || c.agg || c.having || c.window || c.limit || !c.project) return 0;
    int x = cn_column(f, e->u.sub.x), i = only_result_column(&c);
    if (x < 0 || i < 0 || c.from->kind != IR_SCAN || c.from->u.scan.tvf) return 0;
    const SqColumn *k = ir_column(f->q, c.project->u.project.exprs.items[i]->u.col);
    if (!k || k->table_col < 0) return 0;
    uint32_t kc = (uint32_t)k->table_col;
    if (!sq_table_cols_unique(c.from->u.scan.table, &kc, 1) || !add_from(f, c.from)) return 0;
    uint32_t y = f->inst[f->n_inst - 1].first + kc;
    if (!identical_when_equal(f, (uint32_t)x, y)) {
        f->n_inst--, f->n_cols = f->inst[f->n_inst].first; /* take the instance back */
        return 0;
    }
    sq_expr_list_add(f->a, &f->conj, compare(f, e->u.sub.x, AST_OP_EQ, c.project->u.project.exprs.items[i], e));
    if (c.where) ir_conjuncts(f->a, c.where->u.filter.pred, &f->conj);
    return 1;
}

/* The IN subqueries of the conjuncts that are joins to a key (and the
** ones in their conditions, which come after them). */
static void unnest_in(CnForm *f) {
    SqExprList keep = {0};
    for (uint32_t i = 0; i < f->conj.n; i++)
        if (!in_as_join(f, f->conj.items[i])) sq_expr_list_add(f->a, &keep, f->conj.items[i]);
    f->conj = keep;
}

/* ------------------------------------------------------------------ */
/* One spelling of each conjunct                                       */
/* ------------------------------------------------------------------ */

int cn_comparison(const SqExpr *e) {
    return e->kind == SQX_BINARY && (e->op == AST_OP_EQ || e->op == AST_OP_NE || e->op == AST_OP_LT ||
                                     e->op == AST_OP_LE || e->op == AST_OP_GT || e->op == AST_OP_GE);
}

int cn_mirrored(int op) {
    switch (op) {
    case AST_OP_LT: return AST_OP_GT;
    case AST_OP_GT: return AST_OP_LT;
    case AST_OP_LE: return AST_OP_GE;
    case AST_OP_GE: return AST_OP_LE;
    default: return op;
    }
}

int cn_between(const SqExpr *e) { return e->kind == SQX_BETWEEN && !(e->flags & SQXF_NOT); }

void cn_between_parts(const SqExpr *bt, SqExpr *ge, SqExpr *le) {
    *ge = *le = *bt;
    ge->kind = le->kind = SQX_BINARY;
    ge->flags = le->flags = 0;
    ge->op = AST_OP_GE, ge->u.bin.l = bt->u.between.x, ge->u.bin.r = bt->u.between.lo;
    le->op = AST_OP_LE, le->u.bin.l = bt->u.between.x, le->u.bin.r = bt->u.between.hi;
}

/* x BETWEEN lo AND hi is the two conjuncts x >= lo and x <= hi. */
static void respell(CnForm *f) {
    SqExprList out = {0};
    for (uint32_t i = 0; i < f->conj.n; i++) {
        SqExpr *e = f->conj.items[i];
        if (cn_between(e)) {
            SqExpr *parts = sq_arena_alloc(f->a, 2 * sizeof *parts);
            cn_between_parts(e, &parts[0], &parts[1]);
            sq_expr_list_add(f->a, &out, &parts[0]);
            sq_expr_list_add(f->a, &out, &parts[1]);
        } else {
            sq_expr_list_add(f->a, &out, e);
        }
    }
    f->conj = out;
}

static int check_core(CnForm *f) {
    IrRel *ops[] = {f->c.limit, f->c.sort, f->c.project, f->c.having, f->c.agg};
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
        if (ops[i] && ir_rel_exprs(ops[i], check_slot, f)) return 0;
    for (uint32_t i = 0; i < f->conj.n; i++) /* ON and WHERE */
        if (sq_expr_walk(f->conj.items[i], check_node, f)) return 0;
    return check_aggregates(f);
}

/* ------------------------------------------------------------------ */
/* Conjuncts into classes                                              */
/* ------------------------------------------------------------------ */

int cn_is_not(const SqExpr *e) { return e->kind == SQX_UNARY && e->op == AST_OP_NOT; }

int cn_null_test(const SqExpr *e, const SqExpr **x, int *negated) {
    *negated = 0;
    for (; cn_is_not(e); e = e->u.bin.l) *negated ^= 1;
    if (e->kind == SQX_IS && !(e->flags & SQXF_DISTINCT_FROM) && e->u.bin.r->kind == SQX_LITERAL &&
        e->u.bin.r->u.lit.vtype == SQ_VAL_NULL)
        *x = e->u.bin.l;
    else if (e->kind == SQX_ISNULL)
        *x = e->u.bin.l;
    else
        return 0;
    *negated ^= (e->flags & SQXF_NOT) != 0;
    return 1;
}

/* x IS NOT NULL, x NOTNULL, NOT x IS NULL: the column x, else -1. */
static int not_null_test(const CnForm *f, const SqExpr *e) {
    const SqExpr *x;
    int negated;
    return cn_null_test(e, &x, &negated) && negated ? cn_column(f, x) : -1;
}

/* Move the equalities between columns and the IS NOT NULL tests of the
** conjuncts into the classes; keep the rest. */
static void classify(CnForm *f) {
    SqExprList rest = {0};
    for (uint32_t i = 0; i < f->conj.n; i++) {
        SqExpr *e = f->conj.items[i];
        int x = -1, y = -1;
        if (e->kind == SQX_BINARY && e->op == AST_OP_EQ) {
            x = cn_column(f, e->u.bin.l);
            y = cn_column(f, e->u.bin.r);
        }
        if (e->kind == SQX_LITERAL && e->u.lit.vtype == SQ_VAL_INTEGER && e->u.lit.i != 0) {
            continue; /* WHERE 1: true */
        } else if (x >= 0 && y >= 0 && identical_when_equal(f, (uint32_t)x, (uint32_t)y)) {
            unite(f, (uint32_t)x, (uint32_t)y);
            f->marked[cn_root(f, (uint32_t)x)] = 1;
            sq_expr_list_add(f->a, &f->eqs, e);
        } else if ((x = not_null_test(f, e)) >= 0) {
            f->marked[cn_root(f, (uint32_t)x)] = 1;
            sq_expr_list_add(f->a, &f->eqs, e);
        } else {
            sq_expr_list_add(f->a, &rest, e);
        }
    }
    f->conj = rest;
}

/* A column a conjunct compares directly: NULL there makes the conjunct
** NULL, and the row goes. */
static void imply_column(CnForm *f, const SqExpr *e) {
    int x = cn_column(f, e);
    if (x >= 0) f->implied[cn_root(f, (uint32_t)x)] = 1;
}

/* The classes the conjuncts left keep from NULL: the operands of a
** comparison, LIKE, BETWEEN or IN list (not an empty one), negated or
** not.  A mark there says nothing more (the conjunct stays in the form
** either way). */
static void note_implied(CnForm *f) {
    for (uint32_t i = 0; i < f->conj.n; i++) {
        const SqExpr *e = f->conj.items[i];
        while (cn_is_not(e)) e = e->u.bin.l; /* NOT of NULL is NULL */
        switch ((SqExprKind)e->kind) {
        case SQX_BINARY:
            if (cn_comparison(e)) {
                imply_column(f, e->u.bin.l);
                imply_column(f, e->u.bin.r);
            }
            break;
        case SQX_LIKE: imply_column(f, e->u.like.x); break;
        case SQX_BETWEEN: imply_column(f, e->u.between.x); break;
        case SQX_IN_LIST:
            if (e->u.in.list.n) imply_column(f, e->u.in.x); /* NULL NOT IN () is true, NULL IN (1) NULL */
            break;
        default: break;
        }
    }
}

/* ------------------------------------------------------------------ */
/* Instances a foreign key finds the row of                           */
/* ------------------------------------------------------------------ */

typedef struct Uses {
    const CnForm *f;
    uint8_t *used; /* by column: read outside the classes */
} Uses;

static int use_node(SqExpr *e, void *arg) {
    Uses *u = arg;
    int x = cn_column(u->f, e);
    if (x >= 0) u->used[x] = 1;
    return 0;
}

static int use_slot(SqExpr **slot, void *arg) { return sq_expr_walk(*slot, use_node, arg); }

/* The columns read by the conjuncts left and by every operator above
** the WHERE. */
static uint8_t *columns_used(CnForm *f) {
    Uses u = {f, sq_arena_alloc(f->a, f->n_cols + 1)};
    memset(u.used, 0, f->n_cols + 1);
    for (uint32_t i = 0; i < f->conj.n; i++) sq_expr_walk(f->conj.items[i], use_node, &u);
    IrRel *ops[] = {f->c.limit, f->c.sort, f->c.project, f->c.having, f->c.agg};
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
        if (ops[i]) ir_rel_exprs(ops[i], use_slot, &u);
    for (uint32_t i = 0; i < f->n_through; i++) ir_rel_exprs(f->through[i], use_slot, &u);
    return u.used;
}

/* Whether column x of instance r is one of the key columns kc[0..n). */
static int in_cols(const CnForm *f, uint32_t r, uint32_t x, const uint32_t *kc, uint32_t n) {
    for (uint32_t k = 0; k < n; k++)
        if (f->inst[r].first + kc[k] == x) return 1;
    return 0;
}

/* Whether instance r is read only through the columns kc, each in a
** class with no other column of r, and no other column of r is read,
** tested or stands for a removed instance's column. */
static int read_only_by(const CnForm *f, uint32_t r, const uint32_t *kc, uint32_t n, const uint8_t *used) {
    const CnInst *in = &f->inst[r];
    for (uint32_t x = in->first; x <= in->first + in->table->n_cols; x++) {
        uint32_t others = 0;
        for (uint32_t y = in->first; y <= in->first + in->table->n_cols; y++)
            others += y != x && cn_root(f, y) == cn_root(f, x);
        if (in_cols(f, r, x, kc, n)) {
            if (others) return 0;
            continue;
        }
        if (used[x] || f->marked[cn_root(f, x)] || class_size(f, x) != 1) return 0;
    }
    return 1;
}

/* Whether fk, of instance s, finds exactly the rows of instance r that
** the join keeps: it refers to a key of r's table, and the join makes
** each of its columns equal to the key column it refers to. */
static int joined_by(const CnForm *f, uint32_t s, uint32_t r, const CatForeignKey *fk) {
    if (fk->target != f->inst[r].table || !fk->target_cols || !fk->n_cols) return 0;
    if (!sq_table_cols_unique(fk->target, fk->target_cols, fk->n_cols)) return 0;
    for (uint32_t k = 0; k < fk->n_cols; k++)
        if (cn_root(f, f->inst[s].first + fk->cols[k]) != cn_root(f, f->inst[r].first + fk->target_cols[k]))
            return 0;
    return 1;
}

/* Take out instance r when a foreign key of another instance finds its
** row: then each row of the rest meets exactly one row of r (foreign
** keys hold, keys are unique), provided the key columns are not NULL,
** which the classes of the referring columns now ask. */
static int remove_one(CnForm *f, uint32_t r, const uint8_t *used) {
    for (uint32_t s = 0; s < f->n_inst; s++) {
        if (s == r || f->inst[s].removed) continue;
        const CatTable *t = f->inst[s].table;
        for (uint32_t k = 0; k < t->n_fks; k++) {
            const CatForeignKey *fk = &t->fks[k];
            if (!joined_by(f, s, r, fk) || !read_only_by(f, r, fk->target_cols, fk->n_cols, used)) continue;
            f->inst[r].removed = 1;
            for (uint32_t c = 0; c < fk->n_cols; c++) f->marked[cn_root(f, f->inst[s].first + fk->cols[c])] = 1;
            return 1;
        }
    }
    return 0;
}

static void remove_redundant(CnForm *f) {
    uint8_t *used = columns_used(f);
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t r = 0; r < f->n_inst; r++)
            if (!f->inst[r].removed && remove_one(f, r, used)) changed = 1;
    }
}

/* ------------------------------------------------------------------ */
/* Ties                                                                */
/* ------------------------------------------------------------------ */

/* Whether the result column e is a column whose equal values are
** identical: then rows that tie on it show the same value. */
static int identifies(const CnForm *f, const SqExpr *e) {
    if (f->c.agg && e->kind == SQX_COLUMN && e->u.col.rel == f->c.agg->id) {
        const SqAggItem *it = &f->c.agg->u.agg.items[e->u.col.col];
        if (it->kind != SQ_AGG_KEY) return 0;
        e = it->expr;
    }
    int x = cn_column(f, e);
    if (x < 0) return 0;
    const CatColumn *c = cn_cat_column(f, (uint32_t)x);
    return c && c->affinity != SQ_AFF_BLOB && (!c->collation || sq_stricmp(c->collation, "binary") == 0);
}

/* Whether every result column is also a sort key (without COLLATE):
** rows that tie on the keys then look the same. */
static int result_is_sort_key(const CnForm *f) {
    const IrRel *p = f->c.project;
    for (uint32_t i = 0; i < p->cols.n; i++) {
        if (p->cols.items[i].hidden) continue;
        int found = 0;
        for (uint32_t k = 0; f->c.sort && k < f->c.sort->u.sort.n_keys && !found; k++) {
            const SqSortKey *key = &f->c.sort->u.sort.keys[k];
            const SqExpr *ke = key->expr;
            if (key->collation || ke->kind != SQX_COLUMN || ke->u.col.rel != p->id) continue;
            const SqExpr *e = p->u.project.exprs.items[ke->u.col.col];
            found = sq_expr_equal(e, p->u.project.exprs.items[i]) && identifies(f, e);
        }
        if (!found) return 0;
    }
    return 1;
}

int cn_one_row(const CnForm *f) {
    const IrRel *g = f->c.agg;
    if (!g) return 0;
    for (uint32_t i = 0; i < g->u.agg.n_items; i++)
        if (g->u.agg.items[i].kind == SQ_AGG_KEY) return 0;
    return 1;
}

int cn_sort_matters(const CnForm *f) { return f->c.sort && f->c.limit && !cn_one_row(f); }

int cn_distinct_matters(const CnForm *f) {
    return f->c.distinct && !cn_one_row(f) && (f->sem != SQ_SMT_SET || f->c.limit);
}

/* ------------------------------------------------------------------ */
/* Groups of one row                                                   */
/* ------------------------------------------------------------------ */

/* What an aggregate item is on a group of one row, or NULL when that is
** no expression of the row: a key or a bare column is its expression;
** min(x) and max(x) are x; sum(x) is x when x is a column that holds
** numbers only (an INTEGER PRIMARY KEY, or with typed values an INTEGER
** or REAL column; sum() of text is a number).  count() is not: count(*)
** is 1. */
static const SqExpr *row_group_value(const CnForm *f, const SqAggItem *it) {
    if (it->kind != SQ_AGG_CALL) return it->expr;
    if (it->filter || it->star || it->args.n != 1) return NULL;
    const SqExpr *x = it->args.items[0];
    const char *name = it->def->name;
    if (strcmp(name, "min") == 0 || strcmp(name, "max") == 0) return x;
    if (strcmp(name, "sum") != 0) return NULL;
    int c = cn_column(f, x);
    const CatColumn *col = c >= 0 ? cn_cat_column(f, (uint32_t)c) : NULL;
    if (cn_integers_only(f, col)) return x;
    return col && f->typed_values && col->affinity == SQ_AFF_REAL ? x : NULL;
}

/* x = v or x IN (v), v a literal other than NULL: the column x, else
** -1. */
static int equals_literal(const CnForm *f, const SqExpr *e) {
    if (e->kind == SQX_IN_LIST && !(e->flags & SQXF_NOT) && e->u.in.list.n == 1 &&
        e->u.in.list.items[0]->kind == SQX_LITERAL && e->u.in.list.items[0]->u.lit.vtype != SQ_VAL_NULL)
        return cn_column(f, e->u.in.x); /* x IN (v), as canon_range.c writes x = v */
    if (e->kind != SQX_BINARY || e->op != AST_OP_EQ) return -1;
    const SqExpr *x = e->u.bin.l, *v = e->u.bin.r;
    if (x->kind == SQX_LITERAL) x = e->u.bin.r, v = e->u.bin.l;
    return v->kind == SQX_LITERAL && v->u.lit.vtype != SQ_VAL_NULL ? cn_column(f, x) : -1;
}

/* Mark the class of column x as one value per group, where equal values
** of x are identical (so rows that agree on x agree on its class). */
static void fix(const CnForm *f, uint8_t *fixed, int x) {
    if (x >= 0 && identical_when_equal(f, (uint32_t)x, (uint32_t)x)) fixed[cn_root(f, (uint32_t)x)] = 1;
}

/* Whether a key of instance r's table has every column fixed and never
** NULL: then a group holds at most one row of r. */
static int key_fixed(const CnForm *f, uint32_t r, const uint8_t *fixed) {
    const CnInst *in = &f->inst[r];
    for (uint32_t k = 0; k < in->table->n_keys; k++) {
        const CatKey *key = &in->table->keys[k];
        uint32_t c = 0;
        while (c < key->n_cols && fixed[cn_root(f, in->first + key->cols[c])] &&
               cn_not_null(f, in->first + key->cols[c]))
            c++;
        if (key->n_cols && c == key->n_cols) return 1;
    }
    return 0;
}

/* Instance r done: its row is known, and so every column of it (and the
** classes they are in). */
static void take(const CnForm *f, uint32_t r, uint8_t *fixed, uint8_t *done) {
    const CnInst *in = &f->inst[r];
    done[r] = 1;
    for (uint32_t x = in->first; x <= in->first + in->table->n_cols; x++) fixed[cn_root(f, x)] = 1;
}

/* Close `fixed` over keys: a live instance whose key is fixed holds at
** most one row for each choice of the fixed values, and is taken.  The
** number of instances done. */
static uint32_t close_keys(const CnForm *f, uint8_t *fixed, uint8_t *done) {
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t r = 0; r < f->n_inst; r++)
            if (!done[r] && !f->inst[r].removed && key_fixed(f, r, fixed)) take(f, r, fixed, done), changed = 1;
    }
    uint32_t n = 0;
    for (uint32_t r = 0; r < f->n_inst; r++) n += done[r];
    return n;
}

/* The number of generators: live instances taken as chosen freely, each
** time the one after which closing over keys takes the most, until every
** live instance is done.  Every row of the query is then one choice of a
** row of each generator. */
static uint32_t generators(const CnForm *f, uint8_t *fixed, uint8_t *done) {
    uint32_t g = 0;
    uint8_t *tf = sq_arena_alloc(f->a, f->n_cols + 1), *td = sq_arena_alloc(f->a, f->n_inst + 1);
    for (close_keys(f, fixed, done);; g++) {
        int best = -1;
        uint32_t most = 0;
        for (uint32_t r = 0; r < f->n_inst; r++) {
            if (done[r] || f->inst[r].removed) continue;
            memcpy(tf, fixed, f->n_cols + 1);
            memcpy(td, done, f->n_inst + 1);
            take(f, r, tf, td);
            uint32_t n = close_keys(f, tf, td);
            if (best < 0 || n > most) best = (int)r, most = n;
        }
        if (best < 0) return g;
        take(f, (uint32_t)best, fixed, done);
        close_keys(f, fixed, done);
    }
}

/* The classes a conjunct makes equal to a literal, fixed, in fixed and
** done (both in the arena, cleared). */
static void fixed_by_literals(const CnForm *f, uint8_t **fixed, uint8_t **done) {
    *fixed = sq_arena_alloc(f->a, f->n_cols + 1);
    *done = sq_arena_alloc(f->a, f->n_inst + 1);
    memset(*fixed, 0, f->n_cols + 1);
    memset(*done, 0, f->n_inst + 1);
    for (uint32_t i = 0; i < f->conj.n; i++) fix(f, *fixed, equals_literal(f, f->conj.items[i]));
}

/* Whether every group of the GROUP BY is one row: the grouping columns
** and the columns a conjunct makes equal to a literal are fixed, and
** closing over keys (close_keys) takes every live instance.  (Removed instances
** follow a foreign key of a live one.)  Not with HAVING, which the form
** keeps apart. */
static int groups_are_rows(const CnForm *f) {
    const IrRel *g = f->c.agg;
    if (!g || f->c.having) return 0;
    uint8_t *fixed, *done;
    fixed_by_literals(f, &fixed, &done);
    int keys = 0;
    for (uint32_t i = 0; i < g->u.agg.n_items; i++)
        if (g->u.agg.items[i].kind == SQ_AGG_KEY) keys = 1, fix(f, fixed, cn_column(f, g->u.agg.items[i].expr));
    if (!keys) return 0;
    close_keys(f, fixed, done);
    for (uint32_t r = 0; r < f->n_inst; r++)
        if (!f->inst[r].removed && !done[r]) return 0;
    return 1;
}

/* ------------------------------------------------------------------ */
/* Rows a LIMIT may cut                                                */
/* ------------------------------------------------------------------ */

enum { MAX_UNCUT = 1000 }; /* far beyond any bound the search reaches */

/* The largest bound k (at most max) at which the query's rows before
** its LIMIT are never more than the LIMIT keeps: with g instances that
** the others follow by keys (generators), there are at most k^g
** rows, and LIMIT n with no OFFSET cuts none of them when k^g <= n.
** Then ties cannot matter at bound k.  0 when there is no such bound:
** the LIMIT or OFFSET is not a constant, or an OFFSET is there. */
static uint32_t uncut_bound(const CnForm *f, uint32_t max) {
    int64_t n, offset = 0;
    const IrRel *l = f->c.limit;
    if (!l || !sq_expr_int_constant(l->u.limit.count, &n) ||
        (l->u.limit.offset && (!sq_expr_int_constant(l->u.limit.offset, &offset) || offset != 0)))
        return 0;
    uint8_t *fixed, *done;
    fixed_by_literals(f, &fixed, &done);
    uint32_t g = generators(f, fixed, done), k = 0;
    if (g == 0) return n >= 1 ? max : 0; /* one row at most */
    for (;;) {
        int64_t rows = 1;
        for (uint32_t i = 0; i < g && rows <= n; i++) rows *= k + 1;
        if (rows > n || k == max) return k;
        k++;
    }
}

/* ------------------------------------------------------------------ */
/* Building                                                            */
/* ------------------------------------------------------------------ */

int cn_integers_only(const CnForm *f, const CatColumn *c) {
    return c && c->affinity == SQ_AFF_INTEGER && (c->rowid_alias || f->typed_values);
}

int cn_build(CnForm *f, SqArena *a, IrQuery *q, SqSmtSemantics sem, int typed_values) {
    memset(f, 0, sizeof *f);
    f->q = q;
    f->a = a;
    f->sem = sem;
    f->typed_values = typed_values;
    if (sem != SQ_SMT_SET && sem != SQ_SMT_BAG) return fail(f, "list and spider semantics");
    if (!q->root || !ir_core_split(&q->root, &f->c)) return fail(f, "not one SELECT core");
    if (f->c.window) return fail(f, "a window function");
    if (!f->c.project || !add_from(f, f->c.from)) return fail(f, "no FROM");
    if (f->c.where) ir_conjuncts(a, f->c.where->u.filter.pred, &f->conj);
    unnest_in(f);
    respell(f);
    if (!check_core(f)) return 0;
    f->up = sq_arena_alloc(a, (f->n_cols + 1) * sizeof *f->up);
    f->marked = sq_arena_alloc(a, f->n_cols + 1);
    memset(f->marked, 0, f->n_cols + 1);
    f->implied = sq_arena_alloc(a, f->n_cols + 1);
    memset(f->implied, 0, f->n_cols + 1);
    for (uint32_t x = 0; x < f->n_cols; x++) f->up[x] = x;
    classify(f);
    cn_integer_sets(f);
    note_implied(f);
    remove_redundant(f);
    absorb(f);
    if (groups_are_rows(f)) {
        f->ungrouped = 1;
        f->ties = 0; /* a bare column of a group of one row is that row's */
    }
    f->uncut = UINT32_MAX; /* ties nowhere */
    if (f->ties) f->uncut = 0; /* ties in a group: at any bound */
    if (f->c.limit && !cn_one_row(f) && !(f->c.sort && result_is_sort_key(f))) {
        f->ties = 1;
        if (f->uncut) f->uncut = uncut_bound(f, MAX_UNCUT);
    }
    return 1;
}
