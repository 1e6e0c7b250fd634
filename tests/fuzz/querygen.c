/*
** querygen.c -- a pair of small queries from bytes (see querygen.h).
**
** Test code (tests/fuzz/).  Queries are built as a small tree of Expr
** nodes from a fixed pool, printed, copied, rewritten and printed again.
** Nothing here knows SQL semantics beyond which rewrites keep a result:
** the verdict is squint equiv's to find and fuzz_equiv.c's to check.
*/
#include "tests/fuzz/querygen.h"

#include <string.h>

#include "passes/smt/smt.h"

/* ------------------------------------------------------------------ */
/* Bytes                                                               */
/* ------------------------------------------------------------------ */

typedef struct Bytes {
    const uint8_t *p;
    size_t n, i;
    uint64_t rest;    /* the generator used once the bytes run out */
} Bytes;

/* splitmix64 over a state seeded from the bytes (see pick). */
static uint64_t splitmix(uint64_t *s) {
    uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* A number below k from the next byte.  Once the bytes are used up the
** numbers come from a generator seeded with all of them, so a short input
** still makes a varied pair, and the same input always the same pair. */
static unsigned pick(Bytes *b, unsigned k) {
    if (k <= 1) return 0;
    if (b->i < b->n) return b->p[b->i++] % k;
    return (unsigned)(splitmix(&b->rest) % k);
}

static void bytes_init(Bytes *b, const uint8_t *p, size_t n) {
    b->p = p, b->n = n, b->i = 0;
    b->rest = UINT64_C(1469598103934665603);
    for (size_t i = 0; i < n; i++) b->rest = (b->rest ^ p[i]) * UINT64_C(1099511628211);
}

/* ------------------------------------------------------------------ */
/* The schema and the literals                                         */
/* ------------------------------------------------------------------ */

/* A column of QG_SCHEMA, under the alias the queries give its table. */
typedef struct Col {
    const char *alias, *name;
    char type;        /* 'i' INTEGER, 'r' REAL, 't' TEXT affinity */
} Col;

static const Col cols[] = {
    {"e", "id", 'i'}, {"e", "dept_id", 'i'}, {"e", "name", 't'}, {"e", "salary", 'i'},
    {"e", "tag", 't'}, {"d", "id", 'i'},     {"d", "name", 't'}, {"d", "budget", 'r'},
    {"d", "code", 't'},
};
enum { N_COLS = 9, FIRST_DEPT_COL = 5 };

typedef enum From { FROM_EMP, FROM_DEPT, FROM_JOIN, FROM_LEFT } From;

static int col_in(From f, int c) {
    if (f == FROM_EMP) return c < FIRST_DEPT_COL;
    if (f == FROM_DEPT) return c >= FIRST_DEPT_COL;
    return 1;
}

static const char *const lit_int[] = {"0", "1", "2", "3", "-1", "10"};
static const char *const lit_real[] = {"0.5", "1.0", "2.25", "-1.5", "0.0"};
static const char *const lit_text[] = {"'a'", "'b'", "'A'", "''", "'ab'"};
static const char *const lit_numtext[] = {"'1'", "'01'", "'1.0'", "' 2'", "'2 '", "'1e1'", "'-1'", "'10'", "'2'"};
static const char *const like_patterns[] = {"'a%'", "'%b'", "'_'", "'A%'", "'1%'"};

/* ------------------------------------------------------------------ */
/* Features a run can leave out (qg_avoid)                             */
/* ------------------------------------------------------------------ */

static const char *const features[] = {"nullif", "cast", "functions", "subqueries", "compounds", "like"};
enum { F_NULLIF = 1, F_CAST = 2, F_FUNCTIONS = 4, F_SUBQUERIES = 8, F_COMPOUNDS = 16, F_LIKE = 32 };
static unsigned avoided;

int qg_avoid(const char *list) {
    avoided = 0;
    for (const char *p = list; p && *p;) {
        size_t n = strcspn(p, ", ");
        size_t i = 0;
        while (i < sizeof features / sizeof *features && (strlen(features[i]) != n || strncmp(p, features[i], n)))
            i++;
        if (n && i == sizeof features / sizeof *features) return -1;
        if (n) avoided |= 1u << i;
        p += n;
        p += strspn(p, ", ");
    }
    return 0;
}

#define PICK_OF(b, arr) ((arr)[pick((b), sizeof(arr) / sizeof *(arr))])

/* ------------------------------------------------------------------ */
/* Trees                                                               */
/* ------------------------------------------------------------------ */

typedef enum Kind {
    K_COL, K_LIT, K_CMP, K_AND, K_OR, K_NOT, K_ISNULL, K_IN, K_BETWEEN, K_LIKE,
    K_ARITH, K_CONCAT, K_CASE, K_COALESCE, K_FN, K_CAST, K_NULLIF, K_AGG, K_INSUB, K_EXISTS, K_SCALARSUB
} Kind;

enum { OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE, N_CMP };
static const char *const cmp_ops[] = {"=", "<>", "<", "<=", ">", ">="};
static const uint8_t cmp_negated[] = {OP_NE, OP_EQ, OP_GE, OP_GT, OP_LE, OP_LT};
static const uint8_t cmp_flipped[] = {OP_EQ, OP_NE, OP_GT, OP_GE, OP_LT, OP_LE};
static const char *const arith_ops[] = {"+", "-", "*", "/", "%"};
static const char *const agg_fns[] = {"count", "sum", "total", "min", "max", "avg"};
enum { AGG_COUNT, N_AGG = 6 };
static const char *const fns[] = {"abs", "length", "lower", "upper", "typeof"};
static const char *const cast_types[] = {"INTEGER", "TEXT", "REAL", "NUMERIC"};

/* One node.  a, b, c: operands (CASE: WHEN a THEN b ELSE c; BETWEEN: a
** BETWEEN b AND c); items: an IN list; col: K_COL's column, K_AGG's
** argument (-1: count(*)), K_INSUB's column of the subquery; op: the
** operator, function (K_FN) or type (K_CAST); neg: NOT IN, IS NOT NULL,
** NOT BETWEEN, NOT LIKE, NOT EXISTS, or an aggregate's DISTINCT.
** K_INSUB is a [NOT] IN (SELECT d2.col FROM dept d2 [WHERE filter]) and
** K_EXISTS [NOT] EXISTS (SELECT 1 FROM dept d2 WHERE d2.id = a [AND
** filter]); the filter is d2.<filter_col> <filter_op> <lit>, when lit. */
typedef struct Expr {
    uint8_t kind, op, neg;
    int8_t col, filter_col;
    uint8_t filter_op;
    const char *lit;
    struct Expr *a, *b, *c;
    struct Expr *items[3];
    uint8_t n_items;
} Expr;

typedef struct Query {
    uint8_t from;        /* From */
    uint8_t distinct;
    uint8_t grouped;     /* GROUP BY group_col */
    uint8_t semi;        /* AND e.dept_id IN (SELECT d.id FROM dept d) */
    uint8_t desc;
    int8_t group_col;
    Expr *sel[3];
    uint8_t n_sel;
    Expr *where, *having, *order; /* NULL when absent */
    int limit;           /* -1: none */
    int offset;          /* with limit: OFFSET, 0: none */
    /* a compound: this query (one column, no ORDER BY) SETOP rhs, then
    ** ORDER BY 1 when order_first, and limit */
    uint8_t setop;       /* 0: none, else an index into setops */
    uint8_t order_first;
    struct Query *rhs;
} Query;

static const char *const setops[] = {"", "UNION", "UNION ALL", "INTERSECT", "EXCEPT"};
enum { N_SETOPS = 5 };

enum { POOL = 1024 };

typedef struct Gen {
    Bytes b;
    Expr pool[POOL];
    size_t n_pool;
    Query rhs[2];        /* the right sides of q1 and q2, when compounds */
    int n_rhs;
    Expr spare;          /* returned when the pool is used up (never, at these depths) */
} Gen;

static Expr *node(Gen *g, Kind k) {
    Expr *e = g->n_pool < POOL ? &g->pool[g->n_pool++] : &g->spare;
    memset(e, 0, sizeof *e);
    e->kind = (uint8_t)k;
    return e;
}

static Expr *col_node(Gen *g, int c) {
    Expr *e = node(g, K_COL);
    e->col = (int8_t)c;
    return e;
}

static Expr *lit_node(Gen *g, const char *lit) {
    Expr *e = node(g, K_LIT);
    e->lit = lit;
    return e;
}

static Expr *bin(Gen *g, Kind k, Expr *a, Expr *b) {
    Expr *e = node(g, k);
    e->a = a, e->b = b;
    return e;
}

static Expr *copy(Gen *g, const Expr *x) {
    if (!x) return NULL;
    Expr *e = node(g, (Kind)x->kind);
    *e = *x;
    e->a = copy(g, x->a), e->b = copy(g, x->b), e->c = copy(g, x->c);
    for (int i = 0; i < x->n_items; i++) e->items[i] = copy(g, x->items[i]);
    return e;
}

/* ------------------------------------------------------------------ */
/* Growing the first query                                             */
/* ------------------------------------------------------------------ */

/* A column of the FROM clause, of the given type (0: any). */
static int some_col(Gen *g, From f, char type) {
    int cand[N_COLS], n = 0;
    for (int c = 0; c < N_COLS; c++)
        if (col_in(f, c) && (!type || cols[c].type == type)) cand[n++] = c;
    return n ? cand[pick(&g->b, (unsigned)n)] : (f == FROM_DEPT ? FIRST_DEPT_COL : 0);
}

static const char *some_lit(Gen *g) {
    switch (pick(&g->b, 12)) {
    case 0: case 1: case 2: return PICK_OF(&g->b, lit_int);
    case 3: case 4: return PICK_OF(&g->b, lit_real);
    case 5: case 6: return PICK_OF(&g->b, lit_text);
    case 7: case 8: case 9: return PICK_OF(&g->b, lit_numtext);
    case 10: return "NULL";
    default: return pick(&g->b, 4) == 0 ? "X'61'" : PICK_OF(&g->b, lit_int);
    }
}

static Expr *pred(Gen *g, From f, int depth);

static Expr *scalar_subquery(Gen *g, From f);

/* A scalar: a column, a literal or a small expression over them. */
static Expr *scalar(Gen *g, From f, int depth) {
    int c = some_col(g, f, 0);
    switch (pick(&g->b, depth > 0 ? 12 : 3)) {
    case 0: case 1: return col_node(g, c);
    case 2: return lit_node(g, some_lit(g));
    case 3: {
        Expr *e = bin(g, K_ARITH, col_node(g, some_col(g, f, 'i')),
                      pick(&g->b, 3) ? lit_node(g, PICK_OF(&g->b, lit_int)) : col_node(g, some_col(g, f, 0)));
        e->op = (uint8_t)pick(&g->b, 5);
        return e;
    }
    case 4: return bin(g, K_CONCAT, col_node(g, c), lit_node(g, some_lit(g)));
    case 5: {
        Expr *e = node(g, K_CASE);
        e->a = pred(g, f, depth - 1);
        e->b = scalar(g, f, depth - 1);
        e->c = scalar(g, f, depth - 1);
        return e;
    }
    case 6: return bin(g, K_COALESCE, col_node(g, c), lit_node(g, some_lit(g)));
    case 7: {
        if (avoided & F_FUNCTIONS) return col_node(g, c);
        Expr *e = bin(g, K_FN, col_node(g, c), NULL);
        e->op = (uint8_t)pick(&g->b, sizeof fns / sizeof *fns);
        return e;
    }
    case 8: {
        if (avoided & F_CAST) return col_node(g, c);
        Expr *e = bin(g, K_CAST, col_node(g, c), NULL);
        e->op = (uint8_t)pick(&g->b, sizeof cast_types / sizeof *cast_types);
        return e;
    }
    case 9:
        if (avoided & F_NULLIF) return col_node(g, c);
        return bin(g, K_NULLIF, col_node(g, c), lit_node(g, some_lit(g)));
    case 10: return (avoided & F_SUBQUERIES) ? col_node(g, c) : scalar_subquery(g, f);
    default: return col_node(g, c);
    }
}

/* The optional filter of a subquery over dept d2. */
static void subquery_filter(Gen *g, Expr *e) {
    if (pick(&g->b, 2)) return;
    e->filter_col = (int8_t)(FIRST_DEPT_COL + (int)pick(&g->b, N_COLS - FIRST_DEPT_COL));
    e->filter_op = (uint8_t)pick(&g->b, N_CMP);
    e->lit = some_lit(g);
}

/* (SELECT d2.x FROM dept d2 WHERE d2.id = outer) -- a lookup by key -- or
** (SELECT agg(d2.x) FROM dept d2 [WHERE filter]); K_SCALARSUB, with op
** the aggregate and neg set for the lookup. */
static Expr *scalar_subquery(Gen *g, From f) {
    Expr *e = node(g, K_SCALARSUB);
    e->col = (int8_t)(FIRST_DEPT_COL + (int)pick(&g->b, N_COLS - FIRST_DEPT_COL));
    e->neg = (uint8_t)pick(&g->b, 2);
    if (e->neg) {
        e->a = col_node(g, some_col(g, f, 'i'));
    } else {
        e->op = (uint8_t)pick(&g->b, N_AGG);
        subquery_filter(g, e);
    }
    return e;
}

/* [NOT] IN (SELECT d2.x FROM dept d2 ...) or [NOT] EXISTS (... d2.id = outer ...). */
static Expr *subquery(Gen *g, From f) {
    Expr *e = node(g, pick(&g->b, 2) ? K_INSUB : K_EXISTS);
    e->a = col_node(g, some_col(g, f, e->kind == K_EXISTS || pick(&g->b, 2) ? 'i' : 0));
    e->col = (int8_t)(pick(&g->b, 2) ? FIRST_DEPT_COL : FIRST_DEPT_COL + (int)pick(&g->b, N_COLS - FIRST_DEPT_COL));
    e->neg = pick(&g->b, 3) == 0;
    subquery_filter(g, e);
    return e;
}

static Expr *comparison(Gen *g, From f, int depth) {
    Expr *l = depth > 0 && pick(&g->b, 4) == 0 ? scalar(g, f, depth - 1) : col_node(g, some_col(g, f, 0));
    Expr *r = pick(&g->b, 3) ? lit_node(g, some_lit(g)) : col_node(g, some_col(g, f, 0));
    Expr *e = pick(&g->b, 5) == 0 ? bin(g, K_CMP, r, l) : bin(g, K_CMP, l, r);
    e->op = (uint8_t)pick(&g->b, N_CMP);
    return e;
}

/* A condition. */
static Expr *pred(Gen *g, From f, int depth) {
    int c = some_col(g, f, 0);
    Expr *e;
    switch (pick(&g->b, depth > 0 ? 11 : 6)) {
    case 0: case 1: return comparison(g, f, depth);
    case 10:
        if (avoided & F_SUBQUERIES) return comparison(g, f, depth);
        return subquery(g, f);
    case 2:
        e = bin(g, K_ISNULL, col_node(g, c), NULL);
        e->neg = (uint8_t)pick(&g->b, 2);
        return e;
    case 3:
        e = bin(g, K_IN, col_node(g, c), NULL);
        e->n_items = (uint8_t)(1 + pick(&g->b, 3));
        for (int i = 0; i < e->n_items; i++) e->items[i] = lit_node(g, some_lit(g));
        e->neg = pick(&g->b, 3) == 0;
        return e;
    case 4:
        e = bin(g, K_BETWEEN, col_node(g, c), lit_node(g, some_lit(g)));
        e->c = lit_node(g, some_lit(g));
        e->neg = pick(&g->b, 3) == 0;
        return e;
    case 5:
        if (avoided & F_LIKE) return comparison(g, f, depth);
        e = bin(g, K_LIKE, col_node(g, some_col(g, f, 't')), lit_node(g, PICK_OF(&g->b, like_patterns)));
        e->neg = pick(&g->b, 3) == 0;
        return e;
    case 6: return bin(g, K_AND, pred(g, f, depth - 1), pred(g, f, depth - 1));
    case 7: return bin(g, K_OR, pred(g, f, depth - 1), pred(g, f, depth - 1));
    case 8: return bin(g, K_NOT, pred(g, f, depth - 1), NULL);
    default: return comparison(g, f, depth);
    }
}

static Expr *aggregate(Gen *g, From f) {
    Expr *e = node(g, K_AGG);
    e->op = (uint8_t)pick(&g->b, N_AGG);
    e->col = (int8_t)(e->op == AGG_COUNT && pick(&g->b, 2) ? -1 : some_col(g, f, 0));
    e->neg = e->col >= 0 && pick(&g->b, 6) == 0;
    return e;
}

/* One SELECT of a compound: one column, a WHERE. */
static void grow_arm(Gen *g, Query *q) {
    memset(q, 0, sizeof *q);
    From f = (From)pick(&g->b, 4);
    q->from = (uint8_t)f;
    q->limit = -1;
    q->sel[q->n_sel++] = scalar(g, f, 1);
    if (pick(&g->b, 3)) q->where = pred(g, f, 1);
}

/* a SETOP b [ORDER BY 1 [DESC]] [LIMIT n] */
static void grow_compound(Gen *g, Query *q) {
    grow_arm(g, q);
    q->rhs = &g->rhs[g->n_rhs++];
    grow_arm(g, q->rhs);
    q->setop = (uint8_t)(1 + pick(&g->b, N_SETOPS - 1));
    if (pick(&g->b, 3) == 0) {
        q->order_first = 1;
        q->desc = (uint8_t)pick(&g->b, 2);
        if (pick(&g->b, 2)) q->limit = 1 + (int)pick(&g->b, 3);
    }
}

static void grow(Gen *g, Query *q) {
    if (pick(&g->b, 10) == 0 && !(avoided & F_COMPOUNDS)) {
        grow_compound(g, q);
        return;
    }
    memset(q, 0, sizeof *q);
    From f = (From)pick(&g->b, 4);
    q->from = (uint8_t)f;
    q->limit = -1;
    unsigned shape = pick(&g->b, 8); /* 0-1 grouped, 2 one aggregate row, else plain */
    if (shape <= 1) {
        q->grouped = 1;
        q->group_col = (int8_t)some_col(g, f, 0);
        q->sel[q->n_sel++] = col_node(g, q->group_col);
        int n = 1 + (int)pick(&g->b, 2);
        while (n--) q->sel[q->n_sel++] = aggregate(g, f);
        if (pick(&g->b, 5) == 0) {
            q->having = bin(g, K_CMP, aggregate(g, f), lit_node(g, PICK_OF(&g->b, lit_int)));
            q->having->op = (uint8_t)pick(&g->b, N_CMP);
        }
    } else if (shape == 2) {
        int n = 1 + (int)pick(&g->b, 2);
        while (n--) q->sel[q->n_sel++] = aggregate(g, f);
    } else {
        int n = 1 + (int)pick(&g->b, 3);
        while (n--) q->sel[q->n_sel++] = scalar(g, f, 1);
    }
    if (pick(&g->b, 5)) q->where = pred(g, f, 2);
    q->distinct = pick(&g->b, 4) == 0;
    if (pick(&g->b, 3) == 0) {
        q->order = q->grouped ? col_node(g, q->group_col) : copy(g, q->sel[pick(&g->b, q->n_sel)]);
        if (q->order->kind == K_LIT) q->order = col_node(g, some_col(g, f, 0)); /* ORDER BY 2 names a column */
        q->desc = (uint8_t)pick(&g->b, 2);
        if (pick(&g->b, 2)) q->limit = 1 + (int)pick(&g->b, 3);
        if (q->limit >= 0 && pick(&g->b, 3) == 0) q->offset = 1;
    }
}

/* ------------------------------------------------------------------ */
/* Rewrites                                                            */
/* ------------------------------------------------------------------ */

enum { MAX_SLOTS = 128 };

typedef struct Slots {
    Expr **at[MAX_SLOTS];
    int n;
} Slots;

static void collect(Slots *s, Expr **e) {
    if (!*e || s->n == MAX_SLOTS) return;
    s->at[s->n++] = e;
    collect(s, &(*e)->a);
    collect(s, &(*e)->b);
    collect(s, &(*e)->c);
    for (int i = 0; i < (*e)->n_items; i++) collect(s, &(*e)->items[i]);
}

static int is_pred(const Expr *e) {
    return e->kind == K_CMP || e->kind == K_AND || e->kind == K_OR || e->kind == K_NOT || e->kind == K_ISNULL ||
           e->kind == K_IN || e->kind == K_BETWEEN || e->kind == K_LIKE || e->kind == K_INSUB ||
           e->kind == K_EXISTS;
}

static int reads_dept(const Expr *e) {
    if (!e) return 0;
    if ((e->kind == K_COL || e->kind == K_AGG) && e->col >= FIRST_DEPT_COL) return 1; /* not K_INSUB's d2 */
    if (reads_dept(e->a) || reads_dept(e->b) || reads_dept(e->c)) return 1;
    for (int i = 0; i < e->n_items; i++)
        if (reads_dept(e->items[i])) return 1;
    return 0;
}

/* Each rewrite returns 1 when it applied to *e. */
typedef int (*Rewrite)(Gen *g, Query *q, Expr **e);

static int rw_swap(Gen *g, Query *q, Expr **e) {
    (void)g, (void)q;
    Expr *x = *e;
    if (x->kind != K_AND && x->kind != K_OR && x->kind != K_CMP) return 0;
    Expr *t = x->a;
    x->a = x->b, x->b = t;
    if (x->kind == K_CMP) x->op = cmp_flipped[x->op];
    return 1;
}

static int rw_de_morgan(Gen *g, Query *q, Expr **e) {
    (void)q;
    Expr *x = *e;
    if (x->kind == K_AND || x->kind == K_OR) { /* a AND b -> NOT (NOT a OR NOT b) */
        Expr *in = bin(g, x->kind == K_AND ? K_OR : K_AND, bin(g, K_NOT, x->a, NULL), bin(g, K_NOT, x->b, NULL));
        *e = bin(g, K_NOT, in, NULL);
        return 1;
    }
    if (x->kind == K_NOT && (x->a->kind == K_AND || x->a->kind == K_OR)) {
        *e = bin(g, x->a->kind == K_AND ? K_OR : K_AND, bin(g, K_NOT, x->a->a, NULL), bin(g, K_NOT, x->a->b, NULL));
        return 1;
    }
    return 0;
}

static int rw_not_cmp(Gen *g, Query *q, Expr **e) {
    (void)q;
    Expr *x = *e;
    if (x->kind == K_CMP) {
        Expr *c = bin(g, K_CMP, x->a, x->b);
        c->op = cmp_negated[x->op];
        *e = bin(g, K_NOT, c, NULL);
        return 1;
    }
    if (x->kind == K_NOT && x->a->kind == K_CMP) {
        x->a->op = cmp_negated[x->a->op];
        *e = x->a;
        return 1;
    }
    return 0;
}

static int rw_in_as_or(Gen *g, Query *q, Expr **e) {
    (void)q;
    Expr *x = *e;
    if (x->kind != K_IN) return 0;
    Expr *out = NULL;
    for (int i = 0; i < x->n_items; i++) {
        Expr *c = bin(g, K_CMP, copy(g, x->a), x->items[i]);
        c->op = x->neg ? OP_NE : OP_EQ;
        out = out ? bin(g, x->neg ? K_AND : K_OR, out, c) : c;
    }
    *e = out;
    return 1;
}

static int rw_between(Gen *g, Query *q, Expr **e) {
    (void)q;
    Expr *x = *e;
    if (x->kind != K_BETWEEN) return 0;
    Expr *lo = bin(g, K_CMP, x->a, x->b), *hi = bin(g, K_CMP, copy(g, x->a), x->c);
    lo->op = OP_GE, hi->op = OP_LE;
    Expr *both = bin(g, K_AND, lo, hi);
    *e = x->neg ? bin(g, K_NOT, both, NULL) : both;
    return 1;
}

static int rw_is_null(Gen *g, Query *q, Expr **e) {
    (void)q;
    Expr *x = *e;
    if (x->kind != K_ISNULL) return 0;
    x->neg = !x->neg;
    *e = bin(g, K_NOT, x, NULL);
    return 1;
}

static int rw_twice(Gen *g, Query *q, Expr **e) {
    (void)q;
    if (!is_pred(*e)) return 0;
    *e = bin(g, pick(&g->b, 2) ? K_AND : K_OR, *e, copy(g, *e));
    return 1;
}

static int rw_coalesce(Gen *g, Query *q, Expr **e) {
    (void)q;
    Expr *x = *e;
    if (x->kind != K_COALESCE) return 0;
    Expr *c = node(g, K_CASE);
    c->a = bin(g, K_ISNULL, copy(g, x->a), NULL);
    c->b = x->b;
    c->c = x->a;
    *e = c;
    return 1;
}

static int rw_literal(Gen *g, Query *q, Expr **e) {
    (void)q;
    if ((*e)->kind != K_LIT) return 0;
    (*e)->lit = some_lit(g);
    return 1;
}

static int rw_operator(Gen *g, Query *q, Expr **e) {
    (void)q;
    Expr *x = *e;
    if (x->kind == K_CMP) x->op = (uint8_t)pick(&g->b, N_CMP);
    else if (x->kind == K_ARITH) x->op = (uint8_t)pick(&g->b, 5);
    else if (x->kind == K_AND) x->kind = K_OR;
    else if (x->kind == K_OR) x->kind = K_AND;
    else return 0;
    return 1;
}

static int rw_column(Gen *g, Query *q, Expr **e) {
    if ((*e)->kind != K_COL) return 0;
    if (q->rhs && q->rhs->from != q->from) return 0; /* the node may be in either arm */
    (*e)->col = (int8_t)some_col(g, (From)q->from, 0);
    return 1;
}

static int rw_drop(Gen *g, Query *q, Expr **e) {
    (void)q;
    Expr *x = *e;
    if (x->kind != K_AND && x->kind != K_OR) return 0;
    *e = pick(&g->b, 2) ? x->a : x->b;
    return 1;
}

static int rw_aggregate(Gen *g, Query *q, Expr **e) {
    Expr *x = *e;
    if (x->kind != K_AGG || q->rhs) return 0;
    if (x->op == AGG_COUNT && pick(&g->b, 2)) {
        x->col = (int8_t)(x->col < 0 ? some_col(g, (From)q->from, 0) : -1); /* count(*) <-> count(x) */
        x->neg = 0;
    } else {
        x->op = (uint8_t)pick(&g->b, N_AGG);
        if (x->op != AGG_COUNT && x->col < 0) x->col = (int8_t)some_col(g, (From)q->from, 0);
    }
    return 1;
}

/* x IN (SELECT d2.id ...) <-> EXISTS (SELECT 1 ... WHERE d2.id = x ...):
** the same in WHERE, not under NOT or in a SELECT list when x is NULL. */
static int rw_in_exists(Gen *g, Query *q, Expr **e) {
    (void)g, (void)q;
    Expr *x = *e;
    if (x->kind == K_EXISTS) {
        x->kind = K_INSUB;
        x->col = FIRST_DEPT_COL;
        return 1;
    }
    if (x->kind != K_INSUB || x->col != FIRST_DEPT_COL) return 0;
    x->kind = K_EXISTS;
    return 1;
}

static int rw_negate(Gen *g, Query *q, Expr **e) {
    (void)g, (void)q;
    Expr *x = *e;
    if (x->kind != K_INSUB && x->kind != K_EXISTS && x->kind != K_IN && x->kind != K_ISNULL) return 0;
    x->neg = !x->neg;
    return 1;
}

/* CASE WHEN a THEN b ELSE c END <-> iif(a, b, c) */
static int rw_iif(Gen *g, Query *q, Expr **e) {
    (void)g, (void)q;
    if ((*e)->kind != K_CASE) return 0;
    (*e)->neg = !(*e)->neg;
    return 1;
}

/* nullif(a, b) -> CASE WHEN a = b THEN NULL ELSE a END */
static int rw_nullif(Gen *g, Query *q, Expr **e) {
    (void)q;
    Expr *x = *e;
    if (x->kind != K_NULLIF) return 0;
    Expr *c = node(g, K_CASE);
    c->a = bin(g, K_CMP, copy(g, x->a), x->b);
    c->a->op = OP_EQ;
    c->b = lit_node(g, "NULL");
    c->c = x->a;
    *e = c;
    return 1;
}

static const struct {
    const char *name;
    Rewrite fn;
} expr_rewrites[] = {
    {"swap", rw_swap},           {"de-morgan", rw_de_morgan}, {"not-comparison", rw_not_cmp},
    {"in-as-or", rw_in_as_or},   {"between", rw_between},     {"is-null", rw_is_null},
    {"twice", rw_twice},         {"coalesce", rw_coalesce},   {"literal", rw_literal},
    {"operator", rw_operator},   {"column", rw_column},       {"drop-conjunct", rw_drop},
    {"aggregate", rw_aggregate}, {"in-as-exists", rw_in_exists}, {"negate", rw_negate},
    {"nullif", rw_nullif},       {"iif", rw_iif},
};
enum { N_EXPR_REWRITES = sizeof expr_rewrites / sizeof *expr_rewrites };

/* Rewrites of the query's clauses; the name, or NULL when none applied. */
static const char *rewrite_query(Gen *g, Query *q, unsigned which) {
    switch (which) {
    case 0:
        if (q->setop) return NULL;
        q->distinct = !q->distinct;
        return "distinct";
    case 1:
        if (q->limit < 0) return NULL;
        switch (pick(&g->b, 3)) {
        case 0: q->limit++; break;
        case 1: q->offset = !q->offset; break;
        default: q->limit = -1, q->offset = 0;
        }
        return "limit";
    case 2:
        if (!q->order || q->limit >= 0) return NULL;
        q->order = NULL;
        return "no-order";
    case 5:
        if (!q->setop) return NULL;
        q->setop = (uint8_t)(1 + pick(&g->b, N_SETOPS - 1));
        return "set-operator";
    case 6: {
        if (!q->setop) return NULL; /* the arms swapped: the same for UNION and INTERSECT */
        Query t = *q->rhs;
        Expr *sel = q->sel[0], *where = q->where;
        uint8_t from = q->from;
        q->rhs->sel[0] = sel, q->rhs->where = where, q->rhs->from = from;
        q->sel[0] = t.sel[0], q->where = t.where, q->from = t.from;
        return "swap-arms";
    }
    case 3:
        if (q->from != FROM_JOIN && q->from != FROM_LEFT) return NULL;
        q->from = q->from == FROM_JOIN ? FROM_LEFT : FROM_JOIN;
        return "left-join";
    case 4: {
        /* a join that reads only emp as IN: dept.id is a key, so each emp
        ** row meets at most one dept row, in bags too */
        if (q->from != FROM_JOIN || reads_dept(q->where) || reads_dept(q->having) || reads_dept(q->order) ||
            (q->grouped && q->group_col >= FIRST_DEPT_COL))
            return NULL;
        for (int i = 0; i < q->n_sel; i++)
            if (reads_dept(q->sel[i])) return NULL;
        q->from = FROM_EMP;
        q->semi = 1;
        return "join-as-in";
    }
    default: return NULL;
    }
}

/* One rewrite of q, chosen by the bytes; its name, or NULL. */
static const char *rewrite(Gen *g, Query *q) {
    unsigned k = pick(&g->b, N_EXPR_REWRITES + 7);
    if (k >= N_EXPR_REWRITES) return rewrite_query(g, q, k - N_EXPR_REWRITES);
    Slots s = {{0}, 0};
    for (int i = 0; i < q->n_sel; i++) collect(&s, &q->sel[i]);
    collect(&s, &q->where);
    collect(&s, &q->having);
    if (q->rhs) {
        collect(&s, &q->rhs->sel[0]);
        collect(&s, &q->rhs->where);
    }
    if (!s.n) return NULL;
    unsigned start = pick(&g->b, (unsigned)s.n);
    for (int i = 0; i < s.n; i++)
        if (expr_rewrites[k].fn(g, q, s.at[(start + (unsigned)i) % (unsigned)s.n])) return expr_rewrites[k].name;
    return NULL;
}

/* ------------------------------------------------------------------ */
/* Printing                                                            */
/* ------------------------------------------------------------------ */

static void put_col(SqBuf *b, int c) {
    sq_buf_printf(b, "%s.%s", cols[c].alias, cols[c].name);
}

static void put_filter(SqBuf *b, const Expr *e, const char *glue) {
    if (e->lit) sq_buf_printf(b, "%sd2.%s %s %s", glue, cols[e->filter_col].name, cmp_ops[e->filter_op], e->lit);
}

static void put(SqBuf *b, const Expr *e) {
    switch ((Kind)e->kind) {
    case K_COL: put_col(b, e->col); return;
    case K_LIT: sq_buf_puts(b, e->lit); return;
    case K_CMP:
    case K_ARITH:
    case K_CONCAT:
    case K_AND:
    case K_OR: {
        const char *op = e->kind == K_CMP     ? cmp_ops[e->op]
                         : e->kind == K_ARITH ? arith_ops[e->op]
                         : e->kind == K_CONCAT ? "||"
                         : e->kind == K_AND    ? "AND"
                                               : "OR";
        sq_buf_putc(b, '(');
        put(b, e->a);
        sq_buf_printf(b, " %s ", op);
        put(b, e->b);
        sq_buf_putc(b, ')');
        return;
    }
    case K_NOT: sq_buf_puts(b, "NOT "); put(b, e->a); return;
    case K_ISNULL:
        sq_buf_putc(b, '(');
        put(b, e->a);
        sq_buf_puts(b, e->neg ? " IS NOT NULL)" : " IS NULL)");
        return;
    case K_IN:
        sq_buf_putc(b, '(');
        put(b, e->a);
        sq_buf_puts(b, e->neg ? " NOT IN (" : " IN (");
        for (int i = 0; i < e->n_items; i++) {
            if (i) sq_buf_puts(b, ", ");
            put(b, e->items[i]);
        }
        sq_buf_puts(b, "))");
        return;
    case K_BETWEEN:
        sq_buf_putc(b, '(');
        put(b, e->a);
        sq_buf_puts(b, e->neg ? " NOT BETWEEN " : " BETWEEN ");
        put(b, e->b);
        sq_buf_puts(b, " AND ");
        put(b, e->c);
        sq_buf_putc(b, ')');
        return;
    case K_LIKE:
        sq_buf_putc(b, '(');
        put(b, e->a);
        sq_buf_puts(b, e->neg ? " NOT LIKE " : " LIKE ");
        put(b, e->b);
        sq_buf_putc(b, ')');
        return;
    case K_CASE:
        sq_buf_puts(b, e->neg ? "iif(" : "CASE WHEN ");
        put(b, e->a);
        sq_buf_puts(b, e->neg ? ", " : " THEN ");
        put(b, e->b);
        sq_buf_puts(b, e->neg ? ", " : " ELSE ");
        put(b, e->c);
        sq_buf_puts(b, e->neg ? ")" : " END");
        return;
    case K_SCALARSUB:
        if (e->neg) {
            sq_buf_printf(b, "(SELECT d2.%s FROM dept d2 WHERE d2.id = ", cols[e->col].name);
            put(b, e->a);
            sq_buf_putc(b, ')');
        } else {
            sq_buf_printf(b, "(SELECT %s(d2.%s) FROM dept d2", agg_fns[e->op], cols[e->col].name);
            put_filter(b, e, " WHERE ");
            sq_buf_putc(b, ')');
        }
        return;
    case K_COALESCE:
        sq_buf_puts(b, "coalesce(");
        put(b, e->a);
        sq_buf_puts(b, ", ");
        put(b, e->b);
        sq_buf_putc(b, ')');
        return;
    case K_FN: sq_buf_printf(b, "%s(", fns[e->op]); put(b, e->a); sq_buf_putc(b, ')'); return;
    case K_CAST: sq_buf_puts(b, "CAST("); put(b, e->a); sq_buf_printf(b, " AS %s)", cast_types[e->op]); return;
    case K_NULLIF:
        sq_buf_puts(b, "nullif(");
        put(b, e->a);
        sq_buf_puts(b, ", ");
        put(b, e->b);
        sq_buf_putc(b, ')');
        return;
    case K_INSUB:
        sq_buf_putc(b, '(');
        put(b, e->a);
        sq_buf_printf(b, "%s IN (SELECT d2.%s FROM dept d2", e->neg ? " NOT" : "", cols[e->col].name);
        put_filter(b, e, " WHERE ");
        sq_buf_puts(b, "))");
        return;
    case K_EXISTS:
        sq_buf_printf(b, "%sEXISTS (SELECT 1 FROM dept d2 WHERE d2.id = ", e->neg ? "NOT " : "");
        put(b, e->a);
        put_filter(b, e, " AND ");
        sq_buf_putc(b, ')');
        return;
    case K_AGG:
        sq_buf_printf(b, "%s(%s", agg_fns[e->op], e->neg ? "DISTINCT " : "");
        if (e->col < 0) sq_buf_putc(b, '*');
        else put_col(b, e->col);
        sq_buf_putc(b, ')');
        return;
    }
}

static void put_select(SqBuf *b, const Query *q);

static void put_query(SqBuf *b, const Query *q) {
    put_select(b, q);
    if (!q->setop) return;
    sq_buf_printf(b, " %s ", setops[q->setop]);
    put_select(b, q->rhs);
    if (q->order_first) sq_buf_puts(b, q->desc ? " ORDER BY 1 DESC" : " ORDER BY 1");
    if (q->limit >= 0) sq_buf_printf(b, " LIMIT %d", q->limit);
    if (q->limit >= 0 && q->offset) sq_buf_printf(b, " OFFSET %d", q->offset);
}

static void put_select(SqBuf *b, const Query *q) {
    static const char *const froms[] = {
        "emp e", "dept d", "emp e JOIN dept d ON e.dept_id = d.id", "emp e LEFT JOIN dept d ON e.dept_id = d.id"};
    sq_buf_puts(b, q->distinct ? "SELECT DISTINCT " : "SELECT ");
    for (int i = 0; i < q->n_sel; i++) {
        if (i) sq_buf_puts(b, ", ");
        put(b, q->sel[i]);
    }
    sq_buf_printf(b, " FROM %s", froms[q->from]);
    if (q->where || q->semi) sq_buf_puts(b, " WHERE ");
    if (q->where) put(b, q->where);
    if (q->where && q->semi) sq_buf_puts(b, " AND ");
    if (q->semi) sq_buf_puts(b, "e.dept_id IN (SELECT d.id FROM dept d)");
    if (q->grouped) {
        sq_buf_puts(b, " GROUP BY ");
        put_col(b, q->group_col);
    }
    if (q->having) {
        sq_buf_puts(b, " HAVING ");
        put(b, q->having);
    }
    if (q->order) {
        sq_buf_puts(b, " ORDER BY ");
        put(b, q->order);
        if (q->desc) sq_buf_puts(b, " DESC");
    }
    if (q->limit >= 0 && !q->setop) sq_buf_printf(b, " LIMIT %d", q->limit);
    if (q->limit >= 0 && !q->setop && q->offset) sq_buf_printf(b, " OFFSET %d", q->offset);
}

/* ------------------------------------------------------------------ */
/* The pair                                                            */
/* ------------------------------------------------------------------ */

static Query *copy_query(Gen *g, const Query *q, Query *out) {
    *out = *q;
    for (int i = 0; i < q->n_sel; i++) out->sel[i] = copy(g, q->sel[i]);
    out->where = copy(g, q->where);
    out->having = copy(g, q->having);
    out->order = copy(g, q->order);
    if (q->rhs) {
        out->rhs = &g->rhs[g->n_rhs++];
        copy_query(g, q->rhs, out->rhs);
    }
    return out;
}

void qg_pair_make(QgPair *p, const uint8_t *data, size_t size) {
    static Gen g; /* the pool is large; one pair at a time */
    memset(p, 0, sizeof *p);
    bytes_init(&g.b, data, size);
    g.n_pool = 0;
    g.n_rhs = 0;
    unsigned s = pick(&g.b, 20);
    p->semantics = s < 8 ? SQ_SMT_SET : s < 14 ? SQ_SMT_BAG : s < 17 ? SQ_SMT_LIST : SQ_SMT_SPIDER;
    Query q1, q2;
    grow(&g, &q1);
    copy_query(&g, &q1, &q2);
    int n = pick(&g.b, 8) == 0 ? 0 : 1 + (int)pick(&g.b, 3); /* one pair in eight: a query and itself */
    for (int i = 0; i < n; i++) {
        const char *name = NULL;
        for (int tries = 0; !name && tries < 8; tries++) name = rewrite(&g, &q2); /* one that applies */
        if (name) p->rewrites[p->n_rewrites++] = name;
    }
    put_query(&p->q1, &q1);
    put_query(&p->q2, &q2);
}

void qg_pair_free(QgPair *p) {
    sq_buf_free(&p->q1);
    sq_buf_free(&p->q2);
}
