/*
** spider_em.c -- score a prediction against its gold by Spider's exact
** set match (spider_em.h), on the structure spider_em_parse.c reads.
**
** The steps are the script's: compute the gold's hardness; read the
** prediction (an empty query when it does not parse); in both, drop the
** values of the conditions (a nested query stays, its own values dropped
** too), map each column of the top FROM clause's tables along the foreign
** keys, and set DISTINCT to None; then compare clause by clause.  Every
** comparison is Python's == on the script's tuples, lists and dicts, and
** the bags are matched as its list.remove() loops match them.  Where the
** script itself would raise while scoring (a condition list it misreads,
** two nested queries in one FROM clause to sort), the item is reported as
** SQ_EM_SCRIPT_FAILS rather than given a score the script never gives.
*/
#include "backend/eval/spider_em_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/strbuf.h"
#include "runtime/util.h"

const char *const sq_em_part_name[SQ_EM_NPARTS] = {
    "select", "select(no AGG)", "where", "where(no OP)", "group(no Having)",
    "group", "order", "and/or", "IUEN", "keywords",
};

/* ---- Python's == on the structure ---------------------------------------- */

static int sql_eq(const EmSql *a, const EmSql *b);

static int col_eq(const EmCol *a, const EmCol *b) {
    if (!a || !b) return a == b;
    return a->agg == b->agg && strcmp(a->id, b->id) == 0 && a->distinct == b->distinct;
}

static int val_eq(const EmVal *a, const EmVal *b) {
    return a->op == b->op && col_eq(a->c1, b->c1) && col_eq(a->c2, b->c2);
}

static int value_eq(const EmValue *a, const EmValue *b) {
    if (a->kind != b->kind) return 0;
    switch (a->kind) {
    case EMV_NONE: return 1;
    case EMV_NUM: return a->num == b->num;
    case EMV_STR: return strcmp(a->str, b->str) == 0;
    case EMV_COL: return col_eq(a->col, b->col);
    case EMV_SQL: return sql_eq(a->sql, b->sql);
    }
    return 0;
}

static int cond_eq(const EmCond *a, const EmCond *b) {
    return a->not_op == b->not_op && a->op == b->op && val_eq(a->vu, b->vu) &&
           value_eq(&a->v1, &b->v1) && value_eq(&a->v2, &b->v2);
}

static int elem_eq(const EmElem *a, const EmElem *b) {
    if (a->unit && b->unit) return cond_eq(a->unit, b->unit);
    return !a->unit && !b->unit && a->conj == b->conj;
}

static int conds_eq(const EmConds *a, const EmConds *b) {
    if (a->n != b->n) return 0;
    for (int i = 0; i < a->n; i++)
        if (!elem_eq(&a->e[i], &b->e[i])) return 0;
    return 1;
}

static int table_unit_eq(const EmTableUnit *a, const EmTableUnit *b) {
    if (a->table && b->table) return strcmp(a->table, b->table) == 0;
    return !a->table && !b->table && sql_eq(a->sql, b->sql);
}

static int order_eq(const EmSql *a, const EmSql *b) {
    if (a->has_order != b->has_order) return 0;
    if (!a->has_order) return 1;
    if (a->order_desc != b->order_desc || a->norder != b->norder) return 0;
    for (int i = 0; i < a->norder; i++)
        if (!val_eq(a->order[i], b->order[i])) return 0;
    return 1;
}

static int sql_eq(const EmSql *a, const EmSql *b) {
    if (!a || !b) return a == b;
    if (a->distinct != b->distinct || a->nsel != b->nsel || a->nfrom != b->nfrom ||
        a->ngroup != b->ngroup || a->limit != b->limit)
        return 0;
    for (int i = 0; i < a->nsel; i++)
        if (a->sel[i].agg != b->sel[i].agg || !val_eq(a->sel[i].vu, b->sel[i].vu)) return 0;
    for (int i = 0; i < a->nfrom; i++)
        if (!table_unit_eq(&a->from[i], &b->from[i])) return 0;
    for (int i = 0; i < a->ngroup; i++)
        if (!col_eq(a->group[i], b->group[i])) return 0;
    if (!conds_eq(&a->from_conds, &b->from_conds) || !conds_eq(&a->where, &b->where) ||
        !conds_eq(&a->having, &b->having) || !order_eq(a, b))
        return 0;
    for (int k = 0; k < EM_IUE_N; k++)
        if (!sql_eq(a->iue[k], b->iue[k])) return 0;
    return 1;
}

/* ---- the rebuild before comparing ---------------------------------------- */

/* The scorer's state: whether the script would have raised, and why. */
typedef struct Scorer {
    const char *fails;
    const EmKeyMap *keys;
} Scorer;

/* The units at the even places of c, which the script unpacks as
** 5-tuples: a conjunction there makes it raise. */
static int units_ok(Scorer *sc, const EmConds *c) {
    for (int i = 0; i < c->n; i += 2)
        if (!c->e[i].unit) {
            sc->fails = "a condition list with a conjunction where a condition belongs";
            return 0;
        }
    return 1;
}

static void drop_values(Scorer *sc, EmSql *q);

static void drop_cond_values(Scorer *sc, EmConds *c) {
    if (!units_ok(sc, c)) return;
    for (int i = 0; i < c->n; i += 2) {
        EmValue *v[2] = {&c->e[i].unit->v1, &c->e[i].unit->v2};
        for (int k = 0; k < 2; k++) {
            if (v[k]->kind == EMV_SQL) drop_values(sc, v[k]->sql);
            else *v[k] = (EmValue){0};
        }
    }
}

/* rebuild_sql_val(): the values of the conditions, recursively through
** nested queries and the intersect/union/except query (not through a
** query in FROM). */
static void drop_values(Scorer *sc, EmSql *q) {
    if (!q) return;
    drop_cond_values(sc, &q->from_conds);
    drop_cond_values(sc, &q->having);
    drop_cond_values(sc, &q->where);
    for (int k = 0; k < EM_IUE_N; k++) drop_values(sc, q->iue[k]);
}

/* The top FROM clause's tables (their ids without the closing "__"). */
typedef struct Valid {
    const EmSql *q;
} Valid;

static int valid_column(const Valid *v, const char *id) {
    const char *dot = strchr(id, '.');
    if (!dot) return 0;
    size_t n = (size_t)(dot - id);
    for (int i = 0; i < v->q->nfrom; i++) {
        const char *t = v->q->from[i].table;
        if (t && strlen(t) >= 2 && strlen(t) - 2 == n && strncmp(t, id, n) == 0) return 1;
    }
    return 0;
}

static void map_col(Scorer *sc, const Valid *v, EmCol *c) {
    if (!c) return;
    const char *to = sq_em_key_map(sc->keys, c->id);
    if (to && valid_column(v, c->id)) c->id = to;
    c->distinct = EM_NONE;
}

static void map_val(Scorer *sc, const Valid *v, EmVal *u) {
    map_col(sc, v, u->c1);
    map_col(sc, v, u->c2);
}

static void map_conds(Scorer *sc, const Valid *v, EmConds *c) {
    if (!units_ok(sc, c)) return;
    for (int i = 0; i < c->n; i += 2) map_val(sc, v, c->e[i].unit->vu);
}

/* rebuild_sql_col(): columns mapped along the foreign keys and DISTINCT
** set to None in every clause and in the intersect/union/except query,
** with the top query's tables (not in nested queries). */
static void map_columns(Scorer *sc, const Valid *v, EmSql *q) {
    if (!q) return;
    for (int i = 0; i < q->nsel; i++) map_val(sc, v, q->sel[i].vu);
    q->distinct = EM_NONE;
    map_conds(sc, v, &q->from_conds);
    map_conds(sc, v, &q->where);
    for (int i = 0; i < q->ngroup; i++) map_col(sc, v, q->group[i]);
    for (int i = 0; i < q->norder; i++) map_val(sc, v, q->order[i]);
    map_conds(sc, v, &q->having);
    for (int k = 0; k < EM_IUE_N; k++) map_columns(sc, v, q->iue[k]);
}

/* ---- component scores ---------------------------------------------------- */

static SqEmPartScore scores(int count, int pred_total, int label_total) {
    int hit = pred_total == label_total && count == pred_total;
    return (SqEmPartScore){hit, hit, hit, pred_total, label_total};
}

/* How many of pred's n items find an equal, not yet taken item among
** label's m, each taking the first: the script's "if x in l: l.remove(x)". */
typedef int (*EqFn)(const void *a, const void *b);

static int bag_matches(const void *const *pred, int n, const void *const *label, int m, EqFn eq) {
    char *taken = sq_calloc((size_t)m + 1, 1);
    int count = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            if (!taken[j] && eq(pred[i], label[j])) {
                taken[j] = 1;
                count++;
                break;
            }
    free(taken);
    return count;
}

static int eq_sel(const void *a, const void *b) {
    const EmSelItem *x = a, *y = b;
    return x->agg == y->agg && val_eq(x->vu, y->vu);
}
static int eq_val(const void *a, const void *b) { return val_eq(a, b); }
static int eq_cond(const void *a, const void *b) { return cond_eq(a, b); }
static int eq_str(const void *a, const void *b) { return strcmp(a, b) == 0; }

static void part_select(const EmSql *p, const EmSql *l, SqEmPartScore *out) {
    const void **pv = sq_calloc((size_t)p->nsel + 1, sizeof *pv), **lv = sq_calloc((size_t)l->nsel + 1, sizeof *lv);
    const void **pu = sq_calloc((size_t)p->nsel + 1, sizeof *pu), **lu = sq_calloc((size_t)l->nsel + 1, sizeof *lu);
    for (int i = 0; i < p->nsel; i++) pv[i] = &p->sel[i], pu[i] = p->sel[i].vu;
    for (int i = 0; i < l->nsel; i++) lv[i] = &l->sel[i], lu[i] = l->sel[i].vu;
    out[SQ_EM_SELECT] = scores(bag_matches(pv, p->nsel, lv, l->nsel, eq_sel), p->nsel, l->nsel);
    out[SQ_EM_SELECT_NO_AGG] = scores(bag_matches(pu, p->nsel, lu, l->nsel, eq_val), p->nsel, l->nsel);
    free(pv), free(lv), free(pu), free(lu);
}

/* The units at even places of c (a conjunction there was refused
** before), as conds or as their value units. */
static int even_units(const EmConds *c, const void **out, int vu) {
    int n = 0;
    for (int i = 0; i < c->n; i += 2) out[n++] = vu ? (const void *)c->e[i].unit->vu : c->e[i].unit;
    return n;
}

static void part_where(const EmSql *p, const EmSql *l, SqEmPartScore *out) {
    const void **pv = sq_calloc((size_t)p->where.n + 1, sizeof *pv), **lv = sq_calloc((size_t)l->where.n + 1, sizeof *lv);
    int np = even_units(&p->where, pv, 0), nl = even_units(&l->where, lv, 0);
    out[SQ_EM_WHERE] = scores(bag_matches(pv, np, lv, nl, eq_cond), np, nl);
    even_units(&p->where, pv, 1);
    even_units(&l->where, lv, 1);
    out[SQ_EM_WHERE_NO_OP] = scores(bag_matches(pv, np, lv, nl, eq_val), np, nl);
    free(pv), free(lv);
}

/* A GROUP BY column compared without its table: "__t.c__" -> "c__". */
static const char *without_table(SqArena *a, const char *id) {
    const char *dot = strchr(id, '.');
    if (!dot) return id;
    const char *end = strchr(dot + 1, '.');
    return end ? sq_arena_strndup(a, dot + 1, (size_t)(end - dot - 1)) : dot + 1;
}

static void part_group(SqArena *a, const EmSql *p, const EmSql *l, SqEmPartScore *out) {
    const void **pv = sq_calloc((size_t)p->ngroup + 1, sizeof *pv), **lv = sq_calloc((size_t)l->ngroup + 1, sizeof *lv);
    for (int i = 0; i < p->ngroup; i++) pv[i] = without_table(a, p->group[i]->id);
    for (int i = 0; i < l->ngroup; i++) lv[i] = without_table(a, l->group[i]->id);
    out[SQ_EM_GROUP_NO_HAVING] = scores(bag_matches(pv, p->ngroup, lv, l->ngroup, eq_str), p->ngroup, l->ngroup);
    free(pv), free(lv);
    /* "group": the same columns in the same order and the same HAVING */
    int pt = p->ngroup > 0, lt = l->ngroup > 0, same = pt && lt && p->ngroup == l->ngroup;
    for (int i = 0; same && i < p->ngroup; i++) same = strcmp(p->group[i]->id, l->group[i]->id) == 0;
    same = same && conds_eq(&p->having, &l->having);
    out[SQ_EM_GROUP] = scores(same, pt, lt);
}

static void part_order(const EmSql *p, const EmSql *l, SqEmPartScore *out) {
    int same = l->has_order && order_eq(p, l) && (p->limit == l->limit);
    out[SQ_EM_ORDER] = scores(same, p->has_order, l->has_order);
}

/* The distinct elements at the odd places of c (the script's set());
** 0 when one cannot be hashed (a condition holding a nested query). */
static int odd_set(Scorer *sc, const EmConds *c, const EmElem **out) {
    int n = 0;
    for (int i = 1; i < c->n; i += 2) {
        const EmElem *e = &c->e[i];
        if (e->unit && (e->unit->v1.kind == EMV_SQL || e->unit->v2.kind == EMV_SQL)) {
            sc->fails = "a condition where a conjunction belongs, holding a nested query";
            return 0;
        }
        int dup = 0;
        for (int k = 0; k < n && !dup; k++) dup = elem_eq(out[k], e);
        if (!dup) out[n++] = e;
    }
    return n;
}

static void part_and_or(Scorer *sc, const EmSql *p, const EmSql *l, SqEmPartScore *out) {
    const EmElem **ps = sq_calloc((size_t)p->where.n + 1, sizeof *ps), **ls = sq_calloc((size_t)l->where.n + 1, sizeof *ls);
    int np = odd_set(sc, &p->where, ps), nl = odd_set(sc, &l->where, ls);
    int same = np == nl;
    for (int i = 0; same && i < np; i++) {
        int found = 0;
        for (int k = 0; k < nl && !found; k++) found = elem_eq(ps[i], ls[k]);
        same = found;
    }
    /* the script returns the two sizes the other way round */
    out[SQ_EM_AND_OR] = same ? scores(1, 1, 1) : scores(0, nl, np);
    free(ps), free(ls);
}

static int exact_match(Scorer *sc, SqArena *a, const EmSql *p, const EmSql *l, SqEmPartScore *out);

static void part_iuen(Scorer *sc, SqArena *a, const EmSql *p, const EmSql *l, SqEmPartScore *out) {
    int pt = 0, lt = 0, count = 0;
    for (int k = 0; k < EM_IUE_N; k++) {
        pt += p->iue[k] != NULL;
        lt += l->iue[k] != NULL;
        if (p->iue[k] && l->iue[k]) {
            SqEmPartScore inner[SQ_EM_NPARTS];
            count += exact_match(sc, a, p->iue[k], l->iue[k], inner);
        }
    }
    out[SQ_EM_IUEN] = scores(count, pt, lt);
}

enum {
    KW_WHERE = 1 << 0, KW_GROUP = 1 << 1, KW_HAVING = 1 << 2, KW_ORDER = 1 << 3,
    KW_ASC = 1 << 4, KW_DESC = 1 << 5, KW_LIMIT = 1 << 6, KW_EXCEPT = 1 << 7,
    KW_UNION = 1 << 8, KW_INTERSECT = 1 << 9, KW_OR = 1 << 10, KW_NOT = 1 << 11,
    KW_IN = 1 << 12, KW_LIKE = 1 << 13
};

/* Python's truth of a unit's first field, and its second == op. */
static int first_truthy(const EmElem *e) { return e->unit ? e->unit->not_op == EM_TRUE : 1; }
static int second_is(const EmElem *e, int op) { return e->unit && e->unit->op == op; }

static unsigned keywords_of(const EmSql *q) {
    unsigned k = 0;
    if (q->where.n) k |= KW_WHERE;
    if (q->ngroup) k |= KW_GROUP;
    if (q->having.n) k |= KW_HAVING;
    if (q->has_order) k |= KW_ORDER | (q->order_desc ? KW_DESC : KW_ASC);
    if (q->limit) k |= KW_LIMIT;
    if (q->iue[EM_IUE_EXCEPT]) k |= KW_EXCEPT;
    if (q->iue[EM_IUE_UNION]) k |= KW_UNION;
    if (q->iue[EM_IUE_INTERSECT]) k |= KW_INTERSECT;
    const EmConds *lists[3] = {&q->from_conds, &q->where, &q->having};
    for (int l = 0; l < 3; l++) {
        for (int i = 0; i < lists[l]->n; i++) {
            const EmElem *e = &lists[l]->e[i];
            if (i % 2) {
                if (!e->unit && e->conj == 'o') k |= KW_OR;
                continue;
            }
            if (first_truthy(e)) k |= KW_NOT;
            if (second_is(e, EM_OP_IN)) k |= KW_IN;
            if (second_is(e, EM_OP_LIKE)) k |= KW_LIKE;
        }
    }
    return k;
}

static int popcount(unsigned x) {
    int n = 0;
    for (; x; x &= x - 1) n++;
    return n;
}

static void part_keywords(const EmSql *p, const EmSql *l, SqEmPartScore *out) {
    unsigned pk = keywords_of(p), lk = keywords_of(l);
    out[SQ_EM_KEYWORDS] = scores(popcount(pk & lk), popcount(pk), popcount(lk));
}

static int nested_units(const EmSql *q) {
    int n = 0;
    for (int i = 0; i < q->nfrom; i++) n += q->from[i].sql != NULL;
    return n;
}

/* Sorted table units compared: with at most one nested query on a side
** (Python cannot order two dicts), equal as bags. */
static int same_tables(Scorer *sc, const EmSql *p, const EmSql *l) {
    if (nested_units(p) > 1 || nested_units(l) > 1) {
        sc->fails = "two nested queries in one FROM clause (the script cannot sort them)";
        return 0;
    }
    if (p->nfrom != l->nfrom) return 0;
    char *taken = sq_calloc((size_t)l->nfrom + 1, 1);
    int all = 1;
    for (int i = 0; i < p->nfrom && all; i++) {
        int found = 0;
        for (int j = 0; j < l->nfrom && !found; j++)
            if (!taken[j] && table_unit_eq(&p->from[i], &l->from[j])) taken[j] = found = 1;
        all = found;
    }
    free(taken);
    return all;
}

static int exact_match(Scorer *sc, SqArena *a, const EmSql *p, const EmSql *l, SqEmPartScore *out) {
    part_select(p, l, out);
    part_where(p, l, out);
    part_group(a, p, l, out);
    part_order(p, l, out);
    part_and_or(sc, p, l, out);
    part_iuen(sc, a, p, l, out);
    part_keywords(p, l, out);
    for (int i = 0; i < SQ_EM_NPARTS; i++)
        if (out[i].f1 != 1) return 0;
    if (l->nfrom > 0) return same_tables(sc, p, l);
    return 1;
}

/* ---- hardness ------------------------------------------------------------ */

static int count_component1(const EmSql *q) {
    int n = (q->where.n > 0) + (q->ngroup > 0) + q->has_order + q->limit;
    if (q->nfrom > 0) n += q->nfrom - 1;
    const EmConds *lists[3] = {&q->from_conds, &q->where, &q->having};
    for (int l = 0; l < 3; l++)
        for (int i = 0; i < lists[l]->n; i++) {
            const EmElem *e = &lists[l]->e[i];
            if (i % 2) n += !e->unit && e->conj == 'o';
            else n += second_is(e, EM_OP_LIKE);
        }
    return n;
}

static int count_component2(const EmSql *q) {
    int n = 0;
    const EmConds *lists[3] = {&q->from_conds, &q->where, &q->having};
    for (int l = 0; l < 3; l++)
        for (int i = 0; i < lists[l]->n; i += 2) {
            const EmCond *u = lists[l]->e[i].unit;
            n += (u->v1.kind == EMV_SQL) + (u->v2.kind == EMV_SQL);
        }
    for (int k = 0; k < EM_IUE_N; k++) n += q->iue[k] != NULL;
    return n;
}

/* count_others(): its "aggregates" count the NOT of WHERE conditions, and
** every element of HAVING whose first field is true (NOT conditions and
** each "and"/"or"), as the script's has_agg() reads them. */
static int count_others(const EmSql *q) {
    int agg = 0;
    for (int i = 0; i < q->nsel; i++) agg += q->sel[i].agg != EM_AGG_NONE;
    for (int i = 0; i < q->where.n; i += 2) agg += first_truthy(&q->where.e[i]);
    for (int i = 0; i < q->ngroup; i++) agg += q->group[i]->agg != EM_AGG_NONE;
    for (int i = 0; i < q->norder; i++)
        agg += (q->order[i]->c1->agg != EM_AGG_NONE) + (q->order[i]->c2 && q->order[i]->c2->agg != EM_AGG_NONE);
    for (int i = 0; i < q->having.n; i++) agg += first_truthy(&q->having.e[i]);
    return (agg > 1) + (q->nsel > 1) + (q->where.n > 1) + (q->ngroup > 1);
}

static const char *hardness_of(const EmSql *q) {
    int c1 = count_component1(q), c2 = count_component2(q), o = count_others(q);
    if (c1 <= 1 && o == 0 && c2 == 0) return "easy";
    if ((o <= 2 && c1 <= 1 && c2 == 0) || (c1 <= 2 && o < 2 && c2 == 0)) return "medium";
    if ((o > 2 && c1 <= 2 && c2 == 0) || (c1 > 2 && c1 <= 3 && o <= 2 && c2 == 0) ||
        (c1 <= 1 && o == 0 && c2 <= 1))
        return "hard";
    return "extra";
}

/* Whether every condition list of q, and of the queries it nests, has a
** unit at each even place (the hardness reads them as units). */
static int shape_ok(Scorer *sc, const EmSql *q) {
    if (!q) return 1;
    const EmConds *lists[3] = {&q->from_conds, &q->where, &q->having};
    for (int l = 0; l < 3; l++) {
        if (!units_ok(sc, lists[l])) return 0;
        for (int i = 0; i < lists[l]->n; i += 2) {
            const EmCond *u = lists[l]->e[i].unit;
            if (u->v1.kind == EMV_SQL && !shape_ok(sc, u->v1.sql)) return 0;
            if (u->v2.kind == EMV_SQL && !shape_ok(sc, u->v2.sql)) return 0;
        }
    }
    for (int k = 0; k < EM_IUE_N; k++)
        if (!shape_ok(sc, q->iue[k])) return 0;
    return 1;
}

/* ---- one item ------------------------------------------------------------ */

/* The prediction as the script reads it: every "value" becomes "1". */
static char *plug_ones(SqArena *a, const char *pred) {
    SqBuf b = {0};
    for (const char *p = pred; *p;) {
        if (strncmp(p, "value", 5) == 0) {
            sq_buf_putc(&b, '1');
            p += 5;
        } else {
            sq_buf_putc(&b, *p++);
        }
    }
    char *s = sq_arena_strdup(a, sq_buf_str(&b));
    sq_buf_free(&b);
    return s;
}

/* The text between Python's strip() ends. */
static char *stripped(SqArena *a, const char *s) {
    while (*s == ' ' || (*s >= '\t' && *s <= '\r')) s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || (s[n - 1] >= '\t' && s[n - 1] <= '\r'))) n--;
    return sq_arena_strndup(a, s, n);
}

static void fail(SqEmResult *out, SqEmStatus st, const char *what, const char *why) {
    out->status = st;
    snprintf(out->why, sizeof out->why, "%s%s%s", what, why ? ": " : "", why ? why : "");
}

void sq_em_score(const SqEmSchema *s, const SqEmKeys *k, const char *db_id,
                 const char *gold, const char *pred, SqEmResult *out) {
    memset(out, 0, sizeof *out);
    SqArena *a = sq_arena_new();
    Scorer sc = {0};
    const char *why = NULL;
    EmSql *g = sq_em_parse(a, s, stripped(a, gold), &why);
    if (!g) {
        fail(out, SQ_EM_NO_GOLD, "the script cannot read the gold query", why);
        goto done;
    }
    if (!shape_ok(&sc, g)) {
        fail(out, SQ_EM_SCRIPT_FAILS, "the script fails on the gold query", sc.fails);
        goto done;
    }
    out->hardness = hardness_of(g);
    sc.keys = sq_em_keys_of(k, db_id);
    if (!sc.keys) {
        fail(out, SQ_EM_SCRIPT_FAILS, "tables.json has no entry for this db_id", NULL);
        goto done;
    }
    EmSql *p = sq_em_parse(a, s, plug_ones(a, stripped(a, pred)), &why);
    out->pred_parsed = p != NULL;
    if (!p) p = sq_arena_alloc(a, sizeof *p);
    Valid gv = {g}, pv = {p};
    drop_values(&sc, g);
    map_columns(&sc, &gv, g);
    drop_values(&sc, p);
    map_columns(&sc, &pv, p);
    if (!sc.fails) out->exact = exact_match(&sc, a, p, g, out->part);
    if (sc.fails) fail(out, SQ_EM_SCRIPT_FAILS, "the script fails while scoring", sc.fails);
done:
    sq_arena_free(a);
}

/* ---- the table ----------------------------------------------------------- */

void sq_em_tally_add(SqEmTally *t, int exact, const SqEmPartScore *part) {
    t->count++;
    t->exact += exact;
    for (int i = 0; i < SQ_EM_NPARTS; i++) {
        if (part[i].pred_total > 0) {
            t->acc[i] += part[i].acc;
            t->acc_count[i]++;
        }
        if (part[i].label_total > 0) {
            t->rec[i] += part[i].rec;
            t->rec_count[i]++;
        }
    }
}

double sq_em_tally_exact(const SqEmTally *t) {
    return t->count ? t->exact / t->count : 0;
}

void sq_em_tally_part(const SqEmTally *t, SqEmPart p, double *acc, double *rec, double *f1) {
    *acc = t->acc_count[p] ? t->acc[p] / t->acc_count[p] : 0;
    *rec = t->rec_count[p] ? t->rec[p] / t->rec_count[p] : 0;
    *f1 = *acc == 0 && *rec == 0 ? 1 : 2 * *acc * *rec / (*acc + *rec);
}
