/*
** querygraph.c -- the schema graph of a catalog and the join query graph
** of a query.
**
** Layer: ir.  The schema graph (seed thesis, 3.1.1) has a node per table
** and an edge between two tables that can be joined, labelled with each
** join condition: a foreign key with the key it references (PK-FK), and
** two foreign keys that reference the same key (FK-FK), even in the same
** table (a self-loop).  The join query graph (3.1.3) has a node per FROM
** item of a query and an edge per pair of items that an equality between
** their columns relates, in ON or WHERE; it exists only for a query that
** is one SELECT over tables: no subquery, derived table, CTE or compound.
*/
#include <string.h>

#include "ir/graph/querygraph.h"

/* ------------------------------------------------------------------ */
/* Schema graph                                                        */
/* ------------------------------------------------------------------ */

static const char **fk_names(SqArena *a, const CatTable *t, const uint32_t *cols, uint32_t n) {
    const char **out = sq_arena_alloc(a, (n ? n : 1) * sizeof *out);
    for (uint32_t i = 0; i < n; i++) out[i] = t->cols[cols[i]].name;
    return out;
}

/* Two resolved foreign keys that reference the same columns of the same
** table. */
static int same_target(const CatForeignKey *f, const CatForeignKey *g) {
    if (f->target != g->target || f->n_cols != g->n_cols) return 0;
    for (uint32_t i = 0; i < f->n_cols; i++)
        if (f->target_cols[i] != g->target_cols[i]) return 0;
    return 1;
}

typedef struct FkRef {
    const CatTable *table;
    const CatForeignKey *fk;
    uint32_t node;
} FkRef;

static void add_fk_fk(SqGraph *g, const FkRef *refs, uint32_t n) {
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = i + 1; j < n; j++) {
            const FkRef *x = &refs[i], *y = &refs[j];
            if (!same_target(x->fk, y->fk)) continue;
            sq_graph_add_label(g, x->node, y->node,
                               fk_names(g->arena, x->table, x->fk->cols, x->fk->n_cols),
                               fk_names(g->arena, y->table, y->fk->cols, y->fk->n_cols),
                               x->fk->n_cols, SQ_JL_FK_FK);
        }
}

SqGraph *sq_schema_graph(SqArena *a, const Catalog *cat) {
    SqGraph *g = sq_graph_new(a);
    uint32_t *node_of = sq_arena_alloc(a, (cat->n_tables + 1) * sizeof *node_of);
    for (uint32_t i = 0; i < cat->n_tables; i++) {
        const CatTable *t = cat->tables[i];
        node_of[i] = t->is_view ? UINT32_MAX : sq_graph_add_node(g, t->name, t->name, 0);
    }
    FkRef *refs = NULL;
    uint32_t n_refs = 0, cap_refs = 0;
    for (uint32_t i = 0; i < cat->n_tables; i++) {
        const CatTable *t = cat->tables[i];
        if (node_of[i] == UINT32_MAX) continue;
        for (uint32_t k = 0; k < t->n_fks; k++) {
            const CatForeignKey *fk = &t->fks[k];
            int target = fk->target ? sq_graph_find(g, fk->target->name) : -1;
            if (target < 0) continue;
            sq_graph_add_label(g, node_of[i], (uint32_t)target,
                               fk_names(a, t, fk->cols, fk->n_cols),
                               fk_names(a, fk->target, fk->target_cols, fk->n_cols), fk->n_cols,
                               SQ_JL_PK_FK);
            FkRef *r = SQ_ARENA_APPEND(a, refs, n_refs, cap_refs);
            r->table = t;
            r->fk = fk;
            r->node = node_of[i];
        }
    }
    add_fk_fk(g, refs, n_refs);
    return g;
}

/* ------------------------------------------------------------------ */
/* Join query graph                                                    */
/* ------------------------------------------------------------------ */

/* The graph is built over FROM items: tables are nodes; a subquery in FROM
** that is itself a SELECT over tables (a derived table, or the right side
** of a semi-join after unnesting) contributes its own tables and joins.
** An equality counts as an edge when each side is a column of a table
** node, read directly or through the columns of such a subquery. */
typedef struct JqgBuild {
    IrQuery *q;
    SqGraph *g;
    const char **alias;  /* statement-unique names of the FROM items */
    const char *why;     /* why there is no join query graph */
} JqgBuild;

static int has_subquery_cb(SqExpr *e, void *arg) {
    (void)arg;
    return e->kind == SQX_SUBQUERY || e->kind == SQX_EXISTS || e->kind == SQX_IN_SUBQUERY;
}

static int slot_has_subquery(SqExpr **slot, void *arg) {
    return sq_expr_walk(*slot, has_subquery_cb, arg);
}

static void add_core(JqgBuild *b, IrRel **top);

/* The FROM tree's tables become nodes, its derived tables are entered. */
static void add_from(JqgBuild *b, IrRel *r) {
    if (b->why) return;
    switch ((IrRelKind)r->kind) {
    case IR_SCAN:
        sq_graph_add_node(b->g, b->alias[r->id], r->u.scan.table->name, r->id);
        return;
    case IR_JOIN:
        add_from(b, r->u.join.left);
        add_from(b, r->u.join.right);
        return;
    case IR_PROJECT:
        if (r->flags & IRF_VIEW) {
            sq_graph_add_node(b->g, b->alias[r->id], r->view->name, r->id);
            return;
        }
        if (r->flags & IRF_FROM_ITEM) {
            add_core(b, &r->input);
            return;
        }
        break;
    case IR_VALUES:
        if (!r->cols.n) return; /* no FROM at all */
        b->why = "VALUES";
        return;
    case IR_CTEREF: b->why = "a CTE in FROM"; return;
    default: break;
    }
    b->why = "an unusual FROM item";
}

static void add_core(JqgBuild *b, IrRel **top) {
    IrCore c;
    if ((*top)->with) {
        b->why = "a WITH clause";
        return;
    }
    if (!ir_core_split(top, &c)) {
        b->why = "a compound SELECT";
        return;
    }
    for (IrRel *r = *top; r && r != c.from; r = r->input)
        if (ir_rel_exprs(r, slot_has_subquery, NULL)) b->why = "a subquery expression";
    if (!b->why) add_from(b, c.from);
}

static int node_of_rel(const SqGraph *g, uint32_t rel) {
    for (uint32_t i = 0; i < g->n_nodes; i++)
        if (g->nodes[i].rel == rel) return (int)i;
    return -1;
}

/* Follow a column through derived tables and GROUP BY keys down to a
** column of a table node; NULL when it is computed. */
static const SqExpr *base_column(const JqgBuild *b, const SqExpr *e, int depth) {
    if (!e || e->kind != SQX_COLUMN || depth > 32) return NULL;
    if (node_of_rel(b->g, e->u.col.rel) >= 0) return e;
    const IrRel *r = ir_rel(b->q, e->u.col.rel);
    if (!r) return NULL;
    if (r->kind == IR_PROJECT && e->u.col.col < r->u.project.exprs.n)
        return base_column(b, r->u.project.exprs.items[e->u.col.col], depth + 1);
    if (r->kind == IR_AGGREGATE && e->u.col.col < r->u.agg.n_items &&
        r->u.agg.items[e->u.col.col].kind == SQ_AGG_KEY)
        return base_column(b, r->u.agg.items[e->u.col.col].expr, depth + 1);
    return NULL;
}

static const char *column_name(const IrQuery *q, const SqExpr *e) {
    if (e->flags & SQXF_ROWID) return "rowid";
    const SqColumn *c = ir_column(q, e->u.col);
    return c ? c->name : "?";
}

/* An equality between columns of two table nodes is a join edge. */
static void add_equality(JqgBuild *b, const SqExpr *e) {
    if (e->kind != SQX_BINARY || e->op != AST_OP_EQ) return;
    const SqExpr *l = base_column(b, e->u.bin.l, 0), *r = base_column(b, e->u.bin.r, 0);
    if (!l || !r) return;
    int a = node_of_rel(b->g, l->u.col.rel), c = node_of_rel(b->g, r->u.col.rel);
    if (a < 0 || c < 0 || a == c) return;
    const char **ac = sq_arena_alloc(b->g->arena, sizeof *ac);
    const char **cc = sq_arena_alloc(b->g->arena, sizeof *cc);
    ac[0] = column_name(b->q, l);
    cc[0] = column_name(b->q, r);
    sq_graph_add_label(b->g, (uint32_t)a, (uint32_t)c, ac, cc, 1, SQ_JL_QUERY);
}

static void add_conjuncts(JqgBuild *b, const SqExpr *e) {
    if (!e) return;
    if (e->kind == SQX_BINARY && e->op == AST_OP_AND) {
        add_conjuncts(b, e->u.bin.l);
        add_conjuncts(b, e->u.bin.r);
        return;
    }
    add_equality(b, e);
}

static int add_join_edges(IrRel *r, void *arg) {
    JqgBuild *b = arg;
    if (r->kind == IR_JOIN) add_conjuncts(b, r->u.join.cond);
    if (r->kind == IR_FILTER && !(r->flags & IRF_HAVING)) add_conjuncts(b, r->u.filter.pred);
    return 0;
}

SqGraph *sq_query_graph(SqArena *a, IrQuery *q, const char **why) {
    JqgBuild b = {q, sq_graph_new(a), ir_sql_aliases(q), NULL};
    if (!q->root) {
        *why = "no query";
        return NULL;
    }
    add_core(&b, &q->root);
    if (b.why) {
        *why = b.why;
        return NULL;
    }
    ir_walk_rels(q->root, add_join_edges, &b);
    *why = NULL;
    return b.g;
}
