/*
** bind_coll.c -- collating sequences, checked where SQLite looks them up.
**
** Layer: frontend.  SQLite has BINARY, NOCASE and RTRIM built in and looks
** a collation up by name only when it compares or sorts with it, so
** `SELECT b COLLATE bogus` prepares but `WHERE b COLLATE bogus = 'x'`
** does not.  The collation of an expression is found as
** sqlite3ExprCollSeq finds it: through CAST and unary +, an explicit
** COLLATE, else a column (its declared collation), else the first COLLATE
** further down, left operands first.  A comparison uses the left side's
** explicit collation, else the right side's, else the left's column.
*/
#include <string.h>

#include "frontend/bind_int.h"

int bind_known_collation(const char *name) {
    return sq_stricmp(name, "BINARY") == 0 || sq_stricmp(name, "NOCASE") == 0 ||
           sq_stricmp(name, "RTRIM") == 0;
}

static int first_collate_cb(SqExpr *e, void *arg) {
    if (e->kind != SQX_COLLATE) return 0;
    *(const SqExpr **)arg = e;
    return 1;
}

/* The first COLLATE in e, outside subqueries (SQLite's EP_Collate). */
static const SqExpr *explicit_collate(const SqExpr *e) {
    const SqExpr *c = NULL;
    sq_expr_walk((SqExpr *)e, first_collate_cb, &c);
    return c;
}

/* A rowid (or INTEGER PRIMARY KEY) column has no collation in SQLite. */
static int rowid_column(const SqExpr *e) {
    return (e->flags & (SQXF_ROWID | SQXF_IPK)) != 0;
}

/* Where e's collation comes from: a COLLATE node, a column, or NULL. */
static const SqExpr *collation_source(const SqExpr *e) {
    while (e && (e->kind == SQX_CAST || (e->kind == SQX_UNARY && e->op == AST_OP_POS)))
        e = e->kind == SQX_CAST ? e->u.cast.x : e->u.bin.l;
    if (!e || e->kind == SQX_COLLATE) return e;
    if (e->kind == SQX_COLUMN) return rowid_column(e) ? NULL : e;
    return explicit_collate(e);
}

static int check_source(Binder *b, const SqExpr *c) {
    if (!c || c->kind != SQX_COLLATE || bind_known_collation(c->u.collate.name)) return 1;
    bind_error(b, SQ_E_NO_COLLATION, c->span, "no such collation sequence: %s", c->u.collate.name);
    return 0;
}

int bind_has_collation(const SqExpr *e) {
    return collation_source(e) != NULL;
}

int bind_check_collation(Binder *b, const SqExpr *e) {
    return check_source(b, collation_source(e));
}

int bind_check_compare_collation(Binder *b, const SqExpr *l, const SqExpr *r) {
    if (explicit_collate(l)) return bind_check_collation(b, l);
    if (explicit_collate(r)) return bind_check_collation(b, r);
    return 1;
}

static int column_cb(SqExpr *e, void *arg) {
    (void)arg;
    return e->kind == SQX_COLUMN || e->kind == SQX_SUBQUERY || e->kind == SQX_EXISTS ||
           e->kind == SQX_IN_SUBQUERY;
}

int bind_has_column(const SqExpr *e) {
    return sq_expr_walk((SqExpr *)e, column_cb, NULL);
}

/* ------------------------------------------------------------------ */
/* Compounds and subquery columns                                      */
/* ------------------------------------------------------------------ */

/* Term i of a compound's leaves, column col (VALUES rows are terms). */
typedef struct Terms {
    const SqExpr **items;
    uint32_t n, cap;
} Terms;

static void collect(Binder *b, const BndSelect *q, uint32_t col, Terms *t) {
    if (q->kind == AST_SEL_COMPOUND) {
        collect(b, q->left, col, t);
        collect(b, q->right, col, t);
    } else if (q->kind == AST_SEL_VALUES) {
        for (uint32_t r = 0; r < q->n_rows; r++)
            if (col < q->rows[r].n) *SQ_ARENA_APPEND(b->arena, t->items, t->n, t->cap) = q->rows[r].items[col];
    } else if (col < q->results.n) {
        *SQ_ARENA_APPEND(b->arena, t->items, t->n, t->cap) = q->results.items[col];
    }
}

/* A compound compares with the collation of the left-most term that has
** one (multiSelectCollSeq); terms to its right are never looked at. */
int bind_check_compound_collation(Binder *b, const BndSelect *q, uint32_t n_cols) {
    for (uint32_t col = 0; col < n_cols; col++) {
        Terms t = {0};
        collect(b, q, col, &t);
        for (uint32_t i = 0; i < t.n; i++)
            if (bind_has_collation(t.items[i])) {
                if (!bind_check_collation(b, t.items[i])) return 0;
                break;
            }
    }
    return 1;
}

/* A FROM subquery, view or CTE gets its columns' collations when SQLite
** sets it up, from its left-most term. */
int bind_check_column_collations(Binder *b, const BndSelect *q) {
    while (q->kind == AST_SEL_COMPOUND) q = q->left;
    const SqExprList *l = q->kind == AST_SEL_VALUES ? (q->n_rows ? &q->rows[0] : NULL) : &q->results;
    for (uint32_t i = 0; l && i < l->n; i++)
        if (!q->cols.items[i].hidden && !bind_check_collation(b, l->items[i])) return 0;
    return 1;
}
