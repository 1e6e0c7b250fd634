/*
** canon_range.c -- the conjuncts that hold an INTEGER column to a few
** values, written as one set: x > 0 AND x < 3, x BETWEEN 1 AND 2,
** x IN (1, 2) and x = 1 OR x = 2 all become x IN (1, 2).
**
** Layer: passes.  Design note: docs/canon.md, "Integer sets".  The
** search holds an INTEGER column to integers and NULL (smt_db.c), so on
** its databases these spellings keep the same rows: each is NULL or false
** where x is NULL, and true exactly where x is one of the values.  Only
** conjuncts of the WHERE and ON are rewritten, where NULL and false both
** drop the row.
*/
#include <string.h>

#include "passes/canon/canon_int.h"

enum { MAX_VALUES = 16 };

/* What the conjuncts on one class allow so far: lo <= x <= hi, x in
** set[0..n) when bounded by a list, x not in ne[0..n_ne). */
typedef struct Allowed {
    int64_t lo, hi;
    int listed;
    int64_t set[MAX_VALUES], ne[MAX_VALUES];
    uint32_t n, n_ne;
} Allowed;

/* The class of column x when it holds integers only on the rows kept,
** else -1: one of its columns holds nothing else (an INTEGER PRIMARY
** KEY), and the others equal it there.  An INTEGER column that may hold
** 1.5 or 'abc' is no such column (0 < x < 3 is not x IN (1, 2) there).
** x itself must compare as a number: a TEXT column equal to the key
** may hold '01', which is not in (1, 2) and yet lies between '0' and
** '3'. */
static int integer_class(const CnForm *f, const SqExpr *x) {
    int c = cn_column(f, x);
    const CatColumn *own = c >= 0 ? cn_cat_column(f, (uint32_t)c) : NULL;
    if (!own || (own->affinity != SQ_AFF_INTEGER && own->affinity != SQ_AFF_REAL &&
                 own->affinity != SQ_AFF_NUMERIC))
        return -1;
    uint32_t root = cn_root(f, (uint32_t)c);
    for (uint32_t y = 0; y < f->n_cols; y++)
        if (cn_root(f, y) == root && cn_integers_only(f, cn_cat_column(f, y))) return (int)root;
    return -1;
}

/* Keep in the list only the values of v[0..n). */
static void intersect(Allowed *a, const int64_t *v, uint32_t n) {
    uint32_t kept = 0;
    if (!a->listed) {
        memcpy(a->set, v, n * sizeof *v);
        kept = n;
    } else {
        for (uint32_t i = 0; i < a->n; i++)
            for (uint32_t j = 0; j < n; j++)
                if (a->set[i] == v[j]) {
                    a->set[kept++] = a->set[i];
                    break;
                }
    }
    a->listed = 1;
    a->n = kept;
}

/* x OP c (or c OP x), x of class `cls`: narrows a.  0 when e is not one. */
static int comparison(const CnForm *f, const SqExpr *e, int cls, Allowed *a) {
    if (!cn_comparison(e)) return 0;
    int64_t c;
    int op = e->op;
    const SqExpr *x = e->u.bin.l, *v = e->u.bin.r;
    if (sq_expr_int_constant(x, &c)) {
        x = e->u.bin.r, v = e->u.bin.l;
        op = cn_mirrored(op);
    }
    if (!sq_expr_int_constant(v, &c) || integer_class(f, x) != cls) return 0;
    switch (op) {
    case AST_OP_EQ: intersect(a, &c, 1); return 1;
    case AST_OP_NE:
        if (a->n_ne == MAX_VALUES) return 0;
        a->ne[a->n_ne++] = c;
        return 1;
    case AST_OP_LT: if (c == INT64_MIN) return 0; c--; /* fall through */
    case AST_OP_LE: if (c < a->hi) a->hi = c; return 1;
    case AST_OP_GT: if (c == INT64_MAX) return 0; c++; /* fall through */
    case AST_OP_GE: if (c > a->lo) a->lo = c; return 1;
    default: return 0;
    }
}

/* x = c1 OR x = c2 ..., each x of class `cls`: the values into v. */
static int or_values(const CnForm *f, const SqExpr *e, int cls, int64_t *v, uint32_t *n) {
    if (e->kind == SQX_BINARY && e->op == AST_OP_OR)
        return or_values(f, e->u.bin.l, cls, v, n) && or_values(f, e->u.bin.r, cls, v, n);
    Allowed one = {INT64_MIN, INT64_MAX, 0, {0}, {0}, 0, 0};
    if (*n == MAX_VALUES || e->kind != SQX_BINARY || e->op != AST_OP_EQ || !comparison(f, e, cls, &one)) return 0;
    v[(*n)++] = one.set[0];
    return 1;
}

/* x IN (c1, ...) or x = c1 OR ...: narrows a.  0 when e is neither. */
static int value_list(const CnForm *f, const SqExpr *e, int cls, Allowed *a) {
    int64_t v[MAX_VALUES];
    uint32_t n = 0;
    if (e->kind == SQX_IN_LIST) {
        if ((e->flags & SQXF_NOT) || e->u.in.list.n > MAX_VALUES || integer_class(f, e->u.in.x) != cls) return 0;
        for (; n < e->u.in.list.n; n++)
            if (!sq_expr_int_constant(e->u.in.list.items[n], &v[n])) return 0;
    } else if (!(e->kind == SQX_BINARY && e->op == AST_OP_OR) || !or_values(f, e, cls, v, &n)) {
        return 0;
    }
    intersect(a, v, n);
    return 1;
}

/* The column a comparison, IN list or OR of equalities tests (the first
** equality's for an OR), else NULL. */
static const SqExpr *tested_column(const SqExpr *e) {
    if (e->kind == SQX_IN_LIST) return e->u.in.x;
    while (e->kind == SQX_BINARY && e->op == AST_OP_OR) e = e->u.bin.l;
    if (!cn_comparison(e)) return NULL;
    int64_t c;
    return sq_expr_int_constant(e->u.bin.l, &c) ? e->u.bin.r : e->u.bin.l;
}

/* The class of the INTEGER column a conjunct tests, else -1. */
static int tested_class(const CnForm *f, const SqExpr *e) {
    const SqExpr *x = tested_column(e);
    return x ? integer_class(f, x) : -1;
}

static int excluded(const Allowed *a, int64_t v) {
    for (uint32_t i = 0; i < a->n_ne; i++)
        if (a->ne[i] == v) return 1;
    return 0;
}

/* The values a allows, into out (sorted when from the bounds): their
** number, or -1 when they are too many to list. */
static int values(const Allowed *a, int64_t *out) {
    int n = 0;
    if (a->listed) {
        for (uint32_t i = 0; i < a->n; i++)
            if (a->set[i] >= a->lo && a->set[i] <= a->hi && !excluded(a, a->set[i])) out[n++] = a->set[i];
    } else {
        if (a->lo > a->hi || (uint64_t)a->hi - (uint64_t)a->lo >= MAX_VALUES) return a->lo > a->hi ? 0 : -1;
        for (int64_t v = a->lo;; v++) {
            if (!excluded(a, v)) out[n++] = v;
            if (v == a->hi) break;
        }
    }
    for (int i = 1; i < n; i++) /* insertion sort: a handful of values */
        for (int j = i; j > 0 && out[j - 1] > out[j]; j--) {
            int64_t t = out[j];
            out[j] = out[j - 1], out[j - 1] = t;
        }
    return n;
}

/* x IN (v[0], ..., v[n-1]), spelled like e. */
static SqExpr *in_list(CnForm *f, const SqExpr *x, const int64_t *v, int n, const SqExpr *e) {
    SqExpr *in = sq_expr_new(f->a, SQX_IN_LIST, e->span, e->type);
    in->u.in.x = (SqExpr *)x;
    for (int i = 0; i < n; i++) {
        sq_expr_list_add(f->a, &in->u.in.list, sq_expr_int(f->a, e->span, x->type, v[i]));
    }
    return in;
}

/* The conjuncts on class cls, from index from on: when they allow a
** finite set of values (at least one), they become one IN list in place
** of the first of them, and the others go. */
static void one_class(CnForm *f, int cls, uint32_t from) {
    Allowed a = {INT64_MIN, INT64_MAX, 0, {0}, {0}, 0, 0};
    uint8_t *used = sq_arena_alloc(f->a, f->conj.n);
    memset(used, 0, f->conj.n);
    uint32_t first = UINT32_MAX;
    for (uint32_t i = from; i < f->conj.n; i++) {
        const SqExpr *e = f->conj.items[i];
        if (tested_class(f, e) == cls) used[i] = (uint8_t)(comparison(f, e, cls, &a) || value_list(f, e, cls, &a));
        if (used[i] && first == UINT32_MAX) first = i;
    }
    int64_t v[MAX_VALUES];
    int n = first == UINT32_MAX ? 0 : values(&a, v);
    if (n <= 0) return; /* none to list, or a contradiction the search shows */
    const SqExpr *e = f->conj.items[first];
    f->conj.items[first] = in_list(f, tested_column(e), v, n, e);
    uint32_t kept = first + 1;
    for (uint32_t i = first + 1; i < f->conj.n; i++)
        if (!used[i]) f->conj.items[kept++] = f->conj.items[i];
    f->conj.n = kept;
}

void cn_integer_sets(CnForm *f) {
    for (uint32_t i = 0; i < f->conj.n; i++) {
        int cls = tested_class(f, f->conj.items[i]);
        if (cls >= 0) one_class(f, cls, i);
    }
}
