/*
** dml.c -- INSERT, UPDATE and DELETE made bindable: each statement is
** turned into a SELECT over its target table (the "probe") that holds
** every expression of the statement, so that the binder and the IR type
** them exactly as they type a query's, and a record of which parameter
** is assigned to which column.
**
** The probe of
**     WITH w UPDATE t AS x SET a = ?, b = b + ? FROM f WHERE c = ?
**          RETURNING id, b ORDER BY ... LIMIT ?
** is, in effect,
**     WITH w SELECT id, b,  ?, b + ?  FROM t AS x, f WHERE c = ?
**          ORDER BY ... LIMIT ?
** RETURNING's columns first (the query's result columns), then the
** "extra" columns: SET values, an INSERT's source as EXISTS (its SELECT or
** VALUES, which may not read t, but binding it in t's scope only accepts
** more than SQLite does, and SQLite itself prepares every query), and an
** upsert as EXISTS (SELECT its SET values, its WHEREs FROM t AS excluded):
** excluded has t's columns, so an unqualified name typed through it has
** the very type it has through t.  Without RETURNING the probe's columns
** are only the extras, or t.* when there are none.
**
** The binder does not narrow a column's nullability by WHERE, so the
** RETURNING columns keep the table's declared nullability, which is what
** the modified row has (new values after UPDATE, checked by NOT NULL).
**
** Every AST node of the statement is shared, not copied: a parameter of
** the probe has its span in the query file, and SQLite's numbering (by
** position) is read from those spans.
*/
#include <string.h>

#include "backend/cbind/cbind.h"
#include "runtime/util.h"

typedef struct Probe {
    SqArena *a;
    SqDiags *d;
    SqInterner *names;
    const CatTable *table;  /* the target, or NULL when the schema has none */
    int is_insert;
    int in_cols_listed;     /* INSERT INTO t(a, b): the message names no table */
    AstSelect *sel;         /* the probe */
    SqDmlProbe *out;
    size_t errors;
} Probe;

/* ---- building AST nodes ------------------------------------------------ */

static void add_item(Probe *p, AstResultCol item) { *SQ_ARENA_PUSH(p->a, &p->sel->cols) = item; }

static void add_extra(Probe *p, AstExpr *e) {
    if (!e) return;
    add_item(p, (AstResultCol){.kind = AST_RC_EXPR, .span = e->span, .expr = e});
    p->out->n_extra++;
}

static AstExpr *exists_of(Probe *p, AstSelect *sel) {
    AstExpr *e = sq_arena_alloc(p->a, ast_expr_size(AE_EXISTS));
    e->kind = AE_EXISTS;
    e->span = sel->span;
    e->height = 1;
    e->u.sub.select = sel;
    return e;
}

static AstSelect *new_core(Probe *p, SrcSpan span) {
    AstSelect *s = sq_arena_alloc(p->a, sizeof *s);
    s->kind = AST_SEL_CORE;
    s->span = span;
    return s;
}

static void from_add(Probe *p, AstFrom **from, AstFromItem *it) {
    if (!*from) *from = sq_arena_alloc(p->a, sizeof **from);
    *SQ_ARENA_PUSH(p->a, *from) = it;
}

/* The target table as a FROM item, under its alias or as alias. */
static AstFromItem *target_item(Probe *p, const AstQualifiedTable *t, const AstName *alias) {
    AstFromItem *it = sq_arena_alloc(p->a, sizeof *it);
    it->kind = AST_FROM_TABLE;
    it->schema = t->schema;
    it->name = t->name;
    it->alias = alias ? *alias : t->alias;
    it->span = t->name.span;
    return it;
}

/* ---- assignments ----------------------------------------------------------- */

static void assign(Probe *p, const AstExpr *value, uint32_t col) {
    while (value && value->kind == AE_COLLATE) value = value->u.collate.x;
    if (!value || value->kind != AE_PARAM || !p->table) return;
    SqDmlProbe *o = p->out;
    const CatColumn *c = &p->table->cols[col];
    /* NULL into a rowid alias picks a new rowid: the parameter may be NULL */
    int nullable = !c->not_null || (p->is_insert && c->rowid_alias);
    *SQ_ARENA_APPEND(p->a, o->assigns, o->n_assigns, o->cap_assigns) =
        (SqAssign){value->span.start, p->table, col, (uint8_t)nullable};
}

/* The column of the target named n, or -1 after an error. */
static int target_column(Probe *p, const AstName *n) {
    if (!p->table) return -1;
    int i = sq_table_column(p->table, n->key);
    if (i >= 0) return i;
    sq_diag_add(p->d, SQ_SEV_ERROR, SQ_E_NO_COLUMN, n->span, "table %s has no column named %s", p->table->name,
                n->text);
    p->errors++;
    return -1;
}

/* SET a = v, (a, b) = (v, w): v's parameters assigned, v an extra. */
static void set_list(Probe *p, const AstSetList *set) {
    for (uint32_t i = 0; i < set->n; i++) {
        const AstSetItem *it = &set->items[i];
        const AstExpr *v = it->value;
        for (uint32_t k = 0; k < it->cols.n; k++) {
            int col = target_column(p, &it->cols.items[k]);
            if (col < 0) continue;
            if (it->cols.n == 1) assign(p, v, (uint32_t)col);
            else if (v && v->kind == AE_VECTOR && k < v->u.vec.items.n) assign(p, v->u.vec.items.items[k], (uint32_t)col);
        }
        add_extra(p, it->value);
    }
}

/* ---- INSERT --------------------------------------------------------------- */

/* The columns an INSERT fills, in order: its list, or every column that
** is not generated.  Their count, or -1 after an error. */
static int insert_columns(Probe *p, const AstInsert *in, uint32_t **cols) {
    if (!p->table) return -1;
    *cols = sq_arena_alloc(p->a, (p->table->n_cols + in->cols.n + 1) * sizeof **cols);
    int n = 0;
    if (in->cols.n) {
        for (uint32_t i = 0; i < in->cols.n; i++) {
            int c = target_column(p, &in->cols.items[i]);
            if (c < 0) return -1;
            (*cols)[n++] = (uint32_t)c;
        }
        return n;
    }
    for (uint32_t i = 0; i < p->table->n_cols; i++)
        if (!p->table->cols[i].hidden) (*cols)[n++] = i;
    return n;
}

static int has_star(const AstResultList *l) {
    for (uint32_t i = 0; i < l->n; i++)
        if (l->items[i].kind != AST_RC_EXPR) return 1;
    return 0;
}

static void count_error(Probe *p, SrcSpan at, uint32_t values, int cols) {
    if (p->in_cols_listed)
        sq_diag_add(p->d, SQ_SEV_ERROR, SQ_E_ROW_VALUE, at, "%u values for %d columns", values, cols);
    else
        sq_diag_add(p->d, SQ_SEV_ERROR, SQ_E_ROW_VALUE, at, "table %s has %d columns but %u values were supplied",
                    p->table->name, cols, values);
    p->errors++;
}

/* Each row of an INSERT's source: its value count checked, its bare
** parameters assigned to the columns. */
static void insert_source(Probe *p, const AstSelect *s, const uint32_t *cols, int n_cols) {
    if (!s) return;
    switch (s->kind) {
    case AST_SEL_VALUES:
        for (uint32_t r = 0; r < s->n_rows; r++) {
            const AstExprList *v = &s->rows[r].values;
            if (v->n != (uint32_t)n_cols) {
                count_error(p, s->rows[r].span, v->n, n_cols);
                return;
            }
            for (uint32_t k = 0; k < v->n; k++) assign(p, v->items[k], cols[k]);
        }
        break;
    case AST_SEL_CORE:
        if (has_star(&s->cols)) return;   /* SQLite counts them */
        if (s->cols.n != (uint32_t)n_cols) {
            count_error(p, s->span, s->cols.n, n_cols);
            return;
        }
        for (uint32_t k = 0; k < s->cols.n; k++) assign(p, s->cols.items[k].expr, cols[k]);
        break;
    case AST_SEL_COMPOUND:
        insert_source(p, s->left, cols, n_cols);
        insert_source(p, s->right, cols, n_cols);
        break;
    }
}

/* ON CONFLICT ... DO UPDATE SET ... WHERE ...: EXISTS (SELECT the SET
** values, the WHEREs FROM t AS excluded). */
static void upsert(Probe *p, const AstInsert *in, const AstUpsert *u) {
    AstSelect *outer = p->sel;
    AstSelect *s = new_core(p, in->table.name.span);
    AstName excluded = {.text = "excluded", .key = sq_intern_cstr(p->names, "excluded"), .span = in->table.name.span};
    from_add(p, &s->from, target_item(p, &in->table, &excluded));
    p->sel = s;
    uint32_t saved = p->out->n_extra;
    for (uint32_t i = 0; i < u->target.n; i++) add_extra(p, u->target.items[i].expr);
    add_extra(p, u->target_where);
    if (u->do_update) set_list(p, &u->set);
    add_extra(p, u->where);
    p->out->n_extra = saved;
    p->sel = outer;
    if (s->cols.n) add_extra(p, exists_of(p, s));   /* DO NOTHING without a target has nothing */
}

static void insert(Probe *p, const AstInsert *in) {
    p->is_insert = 1;
    p->in_cols_listed = in->cols.n > 0;
    uint32_t *cols = NULL;
    int n = insert_columns(p, in, &cols);
    if (n >= 0) insert_source(p, in->select, cols, n);
    if (in->select) add_extra(p, exists_of(p, in->select));
    for (const AstUpsert *u = in->upsert; u; u = u->next) upsert(p, in, u);
}

/* ---- the probe --------------------------------------------------------- */

static const AstResultList *returning_of(const AstStmt *s) {
    switch (s->kind) {
    case AST_STMT_INSERT: return &s->u.insert->returning;
    case AST_STMT_UPDATE: return &s->u.update->returning;
    default: return &s->u.del->returning;
    }
}

static const AstQualifiedTable *target_of(const AstStmt *s) {
    switch (s->kind) {
    case AST_STMT_INSERT: return &s->u.insert->table;
    case AST_STMT_UPDATE: return &s->u.update->table;
    default: return &s->u.del->table;
    }
}

static AstWith *with_of(const AstStmt *s) {
    switch (s->kind) {
    case AST_STMT_INSERT: return s->u.insert->with;
    case AST_STMT_UPDATE: return s->u.update->with;
    default: return s->u.del->with;
    }
}

/* UPDATE's FROM items after the target, joined to it as by a comma. */
static void update_from(Probe *p, const AstFrom *from) {
    for (uint32_t i = 0; from && i < from->n; i++) {
        AstFromItem *it = from->items[i];
        if (i == 0) {
            AstFromItem *copy = sq_arena_alloc(p->a, sizeof *copy);
            *copy = *it;
            copy->join = AST_JT_COMMA;
            it = copy;
        }
        from_add(p, &p->sel->from, it);
    }
}

static void order_limit(AstSelect *sel, const AstOrderList *order, AstExpr *limit, AstExpr *offset) {
    sel->order_by = *order;
    sel->limit = limit;
    sel->offset = offset;
}

int sq_cbind_dml_probe(const AstStmt *dml, const Catalog *cat, SqInterner *names, SqArena *a, SqDiags *d,
                       SqDmlProbe *out) {
    memset(out, 0, sizeof *out);
    const AstQualifiedTable *t = target_of(dml);
    Probe p = {.a = a, .d = d, .names = names, .out = out};
    p.table = ast_name_present(&t->schema) ? NULL : sq_catalog_table(cat, t->name.key);
    p.sel = new_core(&p, dml->span);
    p.sel->with = with_of(dml);
    from_add(&p, &p.sel->from, target_item(&p, t, NULL));
    const AstResultList *ret = returning_of(dml);
    for (uint32_t i = 0; i < ret->n; i++) add_item(&p, ret->items[i]);
    out->has_returning = ret->n > 0;
    switch (dml->kind) {
    case AST_STMT_INSERT: insert(&p, dml->u.insert); break;
    case AST_STMT_UPDATE: {
        const AstUpdate *u = dml->u.update;
        set_list(&p, &u->set);
        update_from(&p, u->from);
        p.sel->where = u->where;
        order_limit(p.sel, &u->order_by, u->limit, u->offset);
        break;
    }
    default: {
        const AstDelete *del = dml->u.del;
        p.sel->where = del->where;
        order_limit(p.sel, &del->order_by, del->limit, del->offset);
        break;
    }
    }
    if (!p.sel->cols.n)   /* nothing to type: * keeps the SELECT whole */
        add_item(&p, (AstResultCol){.kind = AST_RC_STAR, .span = dml->span});
    AstStmt *s = sq_arena_alloc(a, sizeof *s);
    s->kind = AST_STMT_SELECT;
    s->span = dml->span;
    s->index = dml->index;
    s->u.select = p.sel;
    out->stmt = s;
    return p.errors ? -1 : 0;
}
