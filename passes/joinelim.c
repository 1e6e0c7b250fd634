/*
** joinelim.c -- the `joinelim` analysis: joins that can go, join
** conditions that repeat what others say, joins that multiply rows, and
** joins that are not on a key.  This file holds the pass's state and
** text helpers, column equalities, the equivalence classes of the facts
** (implied and duplicate conditions), the walk over every core, and the
** entry points; joinelim_keys.c does keys, fan-out, joins not on a key,
** removable joins and fan-out under aggregates.
**
** Layer: passes.  Takes a query's IR and the catalog; gives an SqJoinElim
** (passes.h) in the context's arena, which lint, the SMT lowering and
** joinelim_rewrite.c read.
**
** Every SELECT core is looked at on its own (subqueries, FROM-item
** subqueries and CTE bodies included; not the bodies of views).  Its FROM
** tree is a left-deep chain of joins over FROM items; the joins that bring
** in a base table (a scan) by an inner, LEFT or cross join are analysed.
** A core with a RIGHT or FULL join is skipped: the inner conditions before
** it no longer hold on every row.  In a core:
**
**   facts      the column equalities of inner ON conditions and of WHERE
**              hold on every row of the result, wherever they are written
**              (with only inner, cross and LEFT joins each such condition
**              is a filter that commutes with the joins above it).  They
**              form equivalence classes; one that relates two columns
**              already in a class is implied by the others, or repeats one.
**              Only equalities that compare without conversion and under
**              one collation take part: only those are transitive in
**              SQLite ('1' = 1 and 1 = '1.0' do not give '1' = '1.0').
**
** What the joins themselves do (fan-out, removable, non-key, fan-out
** aggregate) is described in joinelim_keys.c.
*/
#include <stdlib.h>
#include <string.h>

#include "passes/joinelim_int.h"

int je_is_sub(const SqExpr *e) {
    return e->kind == SQX_SUBQUERY || e->kind == SQX_EXISTS || e->kind == SQX_IN_SUBQUERY;
}

/* ------------------------------------------------------------------ */
/* Text                                                                */
/* ------------------------------------------------------------------ */

static void name_column(void *arg, SqBuf *out, const SqExpr *e) {
    const JoinElim *je = arg;
    const IrRel *r = ir_rel(je->q, e->u.col.rel);
    const SqColumn *c = (e->flags & SQXF_ROWID) ? NULL : ir_column(je->q, e->u.col);
    if (r && (r->flags & IRF_FROM_ITEM) && je->alias[r->id]) {
        ir_sql_ident(out, je->alias[r->id]);
        sq_buf_putc(out, '.');
    }
    ir_sql_ident(out, c ? c->name : "rowid");
}

static void name_subquery(void *arg, SqBuf *out, const SqExpr *e) {
    (void)arg;
    (void)e;
    sq_buf_puts(out, "(SELECT ...)");
}

/* The scratch buffer's text, kept in the query's arena. */
const char *je_keep_text(JoinElim *je) {
    const char *s = sq_arena_strdup(je->q->arena, sq_buf_str(&je->text));
    sq_buf_reset(&je->text);
    return s;
}

void je_put_expr(JoinElim *je, const SqExpr *e) {
    ir_sql_expr(&je->text, e, &je->nm);
}

const char *je_alias_of(const JoinElim *je, const IrRel *r) {
    return je->alias[r->id] ? je->alias[r->id] : r->alias ? r->alias : "?";
}

/* ------------------------------------------------------------------ */
/* Results                                                             */
/* ------------------------------------------------------------------ */

SqJeFinding *je_add_finding(JeCore *k, SqJeKind kind, SrcSpan at, uint32_t n_items) {
    SqJoinElim *res = k->je->res;
    SqJeFinding *f = SQ_ARENA_APPEND(k->je->q->arena, res->findings, res->n_findings,
                                     res->cap_findings);
    memset(f, 0, sizeof *f);
    f->kind = (uint8_t)kind;
    f->span = at;
    f->core = k->top;
    f->items = sq_arena_alloc(k->je->q->arena, (n_items ? n_items : 1) * sizeof *f->items);
    return f;
}

void je_add_item(SqJeFinding *f, const IrRel *r) {
    for (uint32_t i = 0; i < f->n_items; i++)
        if (f->items[i] == r) return;
    f->items[f->n_items++] = r;
}

/* ------------------------------------------------------------------ */
/* Columns and comparisons                                             */
/* ------------------------------------------------------------------ */

/* The index of the base-table item e (a column reference) reads, or -1. */
static int item_of(const JeCore *k, const SqExpr *e) {
    if (e->kind != SQX_COLUMN || (e->flags & (SQXF_AGG_REF | SQXF_WIN_REF | SQXF_RESULT_REF)))
        return -1;
    for (uint32_t i = 0; i < k->n_items; i++)
        if (k->items[i].is_scan && k->items[i].rel->id == e->u.col.rel) return (int)i;
    return -1;
}

/* The table column a reference reads (through subqueries too), or NULL
** for the rowid and for computed columns. */
static const CatColumn *table_column(const JoinElim *je, const SqExpr *e) {
    if (e->kind != SQX_COLUMN || (e->flags & SQXF_ROWID)) return NULL;
    const SqColumn *c = ir_column(je->q, e->u.col);
    if (!c || !c->table || c->table_col < 0 || (uint32_t)c->table_col >= c->table->n_cols)
        return NULL;
    return &c->table->cols[c->table_col];
}

/* SQLite converts an operand only when the other has a different kind of
** affinity: numeric (INTEGER, REAL, NUMERIC), TEXT, or none (BLOB). */
static int aff_group(uint8_t aff) {
    return aff == SQ_AFF_BLOB ? 0 : aff == SQ_AFF_TEXT ? 1 : 2;
}

/* The declared collation of a column, NULL for BINARY; *known is 0 for a
** computed column, whose collation this pass does not follow. */
static const char *collation_of(const JoinElim *je, const SqExpr *e, int *known) {
    *known = 1;
    if (e->flags & SQXF_ROWID) return NULL;
    const CatColumn *c = table_column(je, e);
    if (!c) {
        *known = 0;
        return NULL;
    }
    return c->collation && sq_stricmp(c->collation, "binary") != 0 ? c->collation : NULL;
}

static int same_collation(const char *a, const char *b) {
    return a == b || (a && b && sq_stricmp(a, b) == 0);
}

/* Two columns compare without conversion and under one collation. */
int je_plain_comparison(const JoinElim *je, const SqExpr *a, const SqExpr *b) {
    int ka, kb;
    const char *ca = collation_of(je, a, &ka), *cb = collation_of(je, b, &kb);
    return aff_group(a->type.aff) == aff_group(b->type.aff) && ka && kb && same_collation(ca, cb);
}

/* In "key = other" (key_left says which is written first), whether the key
** column is compared as stored, under its own collation: then distinct
** key values never both equal one value of the other side. */
int je_key_unconverted(const JoinElim *je, const SqExpr *key, const SqExpr *other,
                       int key_left) {
    int kg = aff_group(key->type.aff), og = aff_group(other->type.aff);
    if ((kg == 1 && og == 2) || (kg == 0 && og != 0)) return 0;
    if (other->kind == SQX_LITERAL || other->kind == SQX_PARAM) return 1;
    if (other->kind != SQX_COLUMN) return 0;
    if (key_left) return 1; /* the left column's collation decides */
    int kk, ko;
    const char *ck = collation_of(je, key, &kk), *co = collation_of(je, other, &ko);
    return kk && ko && same_collation(ck, co);
}

/* A conjunct "x = y" between two columns of base-table items. */
int je_column_eq(const JeCore *k, SqExpr *e, IrRel *holder, JeEq *out) {
    if (e->kind != SQX_BINARY || e->op != AST_OP_EQ) return 0;
    int a = item_of(k, e->u.bin.l), b = item_of(k, e->u.bin.r);
    if (a < 0 || b < 0) return 0;
    out->cond = e;
    out->holder = holder;
    out->col[0] = e->u.bin.l;
    out->col[1] = e->u.bin.r;
    out->item[0] = (uint32_t)a;
    out->item[1] = (uint32_t)b;
    return 1;
}

static int same_column(const SqExpr *a, const SqExpr *b) {
    return a->u.col.rel == b->u.col.rel && a->u.col.col == b->u.col.col &&
           ((a->flags ^ b->flags) & SQXF_ROWID) == 0;
}

static int same_pair(const JeEq *x, const JeEq *y) {
    return (same_column(x->col[0], y->col[0]) && same_column(x->col[1], y->col[1])) ||
           (same_column(x->col[0], y->col[1]) && same_column(x->col[1], y->col[0]));
}

/* ------------------------------------------------------------------ */
/* Facts: implied and duplicate equalities                             */
/* ------------------------------------------------------------------ */

/* A column that facts relate: a node of the union-find. */
typedef struct JeNode {
    const SqExpr *col;
    uint32_t parent;
} JeNode;

/* A fact with the nodes of its two columns. */
typedef struct JeFact {
    JeEq eq;
    uint32_t a, b;
} JeFact;

/* Union-find over the columns that facts relate; kept[] are the facts
** that joined two classes (a spanning forest), in order. */
typedef struct JeClasses {
    JeNode *nodes;
    uint32_t n, cap;
    JeFact *seen;        /* every fact so far */
    uint32_t n_seen, cap_seen;
    uint32_t *kept;      /* indexes into seen */
    uint32_t n_kept, cap_kept;
} JeClasses;

static uint32_t class_node(JoinElim *je, JeClasses *u, const SqExpr *col) {
    for (uint32_t i = 0; i < u->n; i++)
        if (same_column(u->nodes[i].col, col)) return i;
    JeNode *x = SQ_ARENA_APPEND(je->q->arena, u->nodes, u->n, u->cap);
    x->col = col;
    x->parent = u->n - 1;
    return u->n - 1;
}

static uint32_t class_find(JeClasses *u, uint32_t x) {
    while (u->nodes[x].parent != x) x = u->nodes[x].parent = u->nodes[u->nodes[x].parent].parent;
    return x;
}

/* The kept facts on the path between nodes a and b (in one class), by
** breadth-first search over the forest; *n set. */
static uint32_t *class_path(JoinElim *je, JeClasses *u, uint32_t a, uint32_t b, uint32_t *n) {
    uint32_t *via = sq_arena_alloc(je->q->arena, u->n * sizeof *via);   /* kept index + 1 */
    uint32_t *from = sq_arena_alloc(je->q->arena, u->n * sizeof *from);
    uint32_t *queue = sq_arena_alloc(je->q->arena, u->n * sizeof *queue);
    memset(via, 0, u->n * sizeof *via);
    uint32_t head = 0, tail = 0;
    queue[tail++] = a;
    via[a] = UINT32_MAX;
    while (head < tail && !via[b]) {
        uint32_t x = queue[head++];
        for (uint32_t i = 0; i < u->n_kept; i++) {
            const JeFact *e = &u->seen[u->kept[i]];
            uint32_t y = e->a == x ? e->b : e->b == x ? e->a : UINT32_MAX;
            if (y == UINT32_MAX || via[y]) continue;
            via[y] = i + 1;
            from[y] = x;
            queue[tail++] = y;
        }
    }
    uint32_t *path = sq_arena_alloc(je->q->arena, u->n * sizeof *path);
    *n = 0;
    for (uint32_t x = b; x != a && via[x] && via[x] != UINT32_MAX; x = from[x])
        path[(*n)++] = u->kept[via[x] - 1];
    return path;
}

/* A finding about the conjunct of e, with room for more items. */
static SqJeFinding *cond_finding(JeCore *k, SqJeKind kind, const JeEq *e, uint32_t more) {
    SqJeFinding *f = je_add_finding(k, kind, e->cond->span, 2 + more);
    f->holder = e->holder;
    f->cond = e->cond;
    je_add_item(f, k->items[e->item[0]].rel);
    je_add_item(f, k->items[e->item[1]].rel);
    je_put_expr(k->je, e->cond);
    return f;
}

static void report_implied(JeCore *k, JeClasses *u, const JeEq *e, uint32_t a, uint32_t b) {
    JoinElim *je = k->je;
    uint32_t n;
    uint32_t *path = class_path(je, u, a, b, &n);
    SqJeFinding *f = cond_finding(k, SQ_JE_IMPLIED, e, 2 * n);
    sq_buf_puts(&je->text, " follows from ");
    for (uint32_t i = n; i-- > 0;) {
        const JeEq *p = &u->seen[path[i]].eq;
        je_put_expr(je, p->cond);
        sq_buf_puts(&je->text, i == 0 ? "" : i == 1 ? " and " : ", ");
        je_add_item(f, k->items[p->item[0]].rel);
        je_add_item(f, k->items[p->item[1]].rel);
    }
    sq_buf_puts(&je->text, ", which hold on every row");
    f->reason = je_keep_text(je);
}

static void report_duplicate(JeCore *k, const JeEq *e, const JeEq *first) {
    JoinElim *je = k->je;
    SqJeFinding *f = cond_finding(k, SQ_JE_DUPLICATE, e, 0);
    sq_buf_puts(&je->text, " repeats ");
    je_put_expr(je, first->cond);
    sq_buf_puts(&je->text, first->holder == e->holder ? " in the same condition"
                           : first->holder->kind == IR_FILTER ? " of the WHERE clause"
                                                              : " of an earlier join condition");
    f->reason = je_keep_text(je);
}

/* One fact: a new class edge, or a finding. */
static void add_fact(JeCore *k, JeClasses *u, const JeEq *e) {
    JoinElim *je = k->je;
    if (!je_plain_comparison(je, e->col[0], e->col[1])) return;
    uint32_t a = class_node(je, u, e->col[0]), b = class_node(je, u, e->col[1]);
    if (a == b) return; /* x = x is a NULL test, not a join */
    uint32_t first = 0;
    while (first < u->n_seen && !same_pair(&u->seen[first].eq, e)) first++;
    JeFact *f = SQ_ARENA_APPEND(je->q->arena, u->seen, u->n_seen, u->cap_seen);
    f->eq = *e;
    f->a = a;
    f->b = b;
    uint32_t ra = class_find(u, a), rb = class_find(u, b);
    if (ra != rb) {
        u->nodes[ra].parent = rb;
        *SQ_ARENA_APPEND(je->q->arena, u->kept, u->n_kept, u->cap_kept) = u->n_seen - 1;
    } else if (first < u->n_seen - 1) {
        report_duplicate(k, e, &u->seen[first].eq);
    } else {
        report_implied(k, u, e, a, b);
    }
}

static void add_facts(JeCore *k, JeClasses *u, const SqExprList *l, IrRel *holder) {
    JeEq e;
    for (uint32_t i = 0; i < l->n; i++)
        if (je_column_eq(k, l->items[i], holder, &e)) add_fact(k, u, &e);
}

int je_is_inner(const JeItem *it) {
    return it->join && (it->join->u.join.type == IR_JOIN_INNER ||
                        it->join->u.join.type == IR_JOIN_CROSS);
}

/* A LEFT JOIN's ON holds only for the rows it matches: it is no fact, but
** the same equality twice in it is still a duplicate. */
static void left_duplicates(JeCore *k, const JeItem *it) {
    JeEq *seen = sq_arena_alloc(k->je->q->arena, (it->on.n + 1) * sizeof *seen);
    uint32_t n_seen = 0;
    for (uint32_t i = 0; i < it->on.n; i++) {
        JeEq *e = &seen[n_seen];
        if (!je_column_eq(k, it->on.items[i], it->join, e)) continue;
        for (uint32_t j = 0; j < n_seen; j++)
            if (same_pair(&seen[j], e)) {
                report_duplicate(k, e, &seen[j]);
                break;
            }
        n_seen++;
    }
}

static void facts(JeCore *k) {
    JeClasses u;
    memset(&u, 0, sizeof u);
    for (uint32_t i = 1; i < k->n_items; i++) {
        const JeItem *it = &k->items[i];
        if (je_is_inner(it)) add_facts(k, &u, &it->on, it->join);
        else if (it->join->u.join.type == IR_JOIN_LEFT) left_duplicates(k, it);
    }
    add_facts(k, &u, &k->where, k->c.where);
}

/* ------------------------------------------------------------------ */
/* Cores                                                               */
/* ------------------------------------------------------------------ */

static void push_item(JeCore *k, IrRel *rel, IrRel *join) {
    JeItem *it = SQ_ARENA_APPEND(k->je->q->arena, k->items, k->n_items, k->cap_items);
    memset(it, 0, sizeof *it);
    it->rel = rel;
    it->join = join;
    it->is_scan = rel->kind == IR_SCAN;
    if (join) ir_conjuncts(k->je->q->arena, join->u.join.cond, &it->on);
}

/* The FROM items, left to right; 0 when a RIGHT or FULL join is there. */
static int collect_items(JeCore *k, IrRel *r) {
    if (r->kind != IR_JOIN) {
        push_item(k, r, NULL);
        return 1;
    }
    if (r->u.join.type == IR_JOIN_RIGHT || r->u.join.type == IR_JOIN_FULL) return 0;
    if (!collect_items(k, r->u.join.left)) return 0;
    push_item(k, r->u.join.right, r);
    return 1;
}

static void analyse_core(JoinElim *je, IrRel **top, const IrCore *c, const char *set_why) {
    JeCore k;
    memset(&k, 0, sizeof k);
    k.je = je;
    k.top = top;
    k.c = *c;
    k.set_why = set_why;
    if (!collect_items(&k, c->from) || k.n_items < 2) return;
    if (c->where) ir_conjuncts(je->q->arena, c->where->u.filter.pred, &k.where);
    facts(&k);
    je_check_joins(&k);
}

/* ------------------------------------------------------------------ */
/* Visiting every core                                                 */
/* ------------------------------------------------------------------ */

/* Copies of a core's rows matter to its aggregates, windows and LIMIT;
** its DISTINCT removes them; otherwise the site says whether they matter. */
static void visit_core(void *arg, IrRel **top, const IrCore *c, const IrCoreSite *site) {
    if (!c) return;
    const char *set_why = site->copies_ignored;
    if (c->agg || c->window || (c->limit && !c->distinct)) set_why = NULL;
    else if (c->distinct) set_why = "DISTINCT removes them";
    analyse_core(arg, top, c, set_why);
}

/* ------------------------------------------------------------------ */
/* Entry points                                                        */
/* ------------------------------------------------------------------ */

static int by_span_finding(const void *a, const void *b) {
    const SqJeFinding *x = a, *y = b;
    if (x->span.start != y->span.start) return x->span.start < y->span.start ? -1 : 1;
    if (x->kind != y->kind) return x->kind < y->kind ? -1 : 1;
    if (x->span.end != y->span.end) return x->span.end < y->span.end ? -1 : 1;
    return strcmp(x->reason, y->reason);
}

static int by_span_join(const void *a, const void *b) {
    const SqJeJoin *x = a, *y = b;
    if (x->join->span.start != y->join->span.start)
        return x->join->span.start < y->join->span.start ? -1 : 1;
    return x->item->id < y->item->id ? -1 : x->item->id > y->item->id;
}

int sq_joinelim_run(SqPassCtx *ctx, IrQuery *q) {
    SqJoinElim *res = sq_arena_alloc(ctx->arena, sizeof *res);
    memset(res, 0, sizeof *res);
    ctx->results[sq_pass_index(sq_pass_find("joinelim"))] = res;
    if (!q->root) return 0;
    JoinElim je = {q, ctx->cat, res, ir_sql_aliases(q), {0}, SQ_BUF_INIT};
    je.nm.ctx = &je;
    je.nm.column = name_column;
    je.nm.subquery = name_subquery;
    ir_visit_cores(&q->root, visit_core, &je);
    sq_buf_free(&je.text);
    /* visiting order is deterministic; source order reads better */
    if (res->n_findings > 1)
        qsort(res->findings, res->n_findings, sizeof *res->findings, by_span_finding);
    if (res->n_joins > 1) qsort(res->joins, res->n_joins, sizeof *res->joins, by_span_join);
    return 0;
}

const SqJoinElim *sq_joinelim_result(const SqPassCtx *ctx) {
    return sq_pass_result(ctx, "joinelim");
}

const char *sq_je_kind_name(SqJeKind k) {
    static const char *const names[SQ_JE__COUNT] = {
        "removable-join", "implied-condition", "duplicate-condition", "fanout-aggregate",
        "non-key-join"};
    return k < SQ_JE__COUNT ? names[k] : "?";
}
