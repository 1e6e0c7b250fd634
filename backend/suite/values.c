/*
** values.c -- a suite's databases made to read like data (see
** suite_int.h).
**
** Layer: backend/suite.  The solver picks whatever values satisfy the
** formula: '' and '!0!' for names, 1 for salaries.  People read suites,
** so where the queries leave a value free it is replaced by one that reads
** like the column's data: sampled from the real database when there is
** one (SqSuiteOptions.values_db), else made from the column's name (a
** person's name for emp.name, a date for a column named like one, "Code
** 3" otherwise; ages from 18, years from 1970, prices in steps of 250 for
** numeric columns named so).
**
** The unit of change is a domain: a set of columns tied by foreign keys
** (dept.id with emp.dept_id), whose values must map alike so that joins
** still match.  Within a domain the map keeps equal values equal, distinct
** ones distinct, and their order, and never moves a value past a literal
** of the queries (a value equal to a literal stays as it is): those are
** what the queries can see of the values, short of functions applied to
** them.  Then nothing is trusted: the changed database must load (keys),
** hold every CHECK, give the gold rows where it did, and kill exactly the
** mutants it killed before, or the domain goes back as it was.
*/
#include "backend/suite/suite_int.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/emit/emit.h"

/* A cell of a result, to change in place. */
static SqValue *cell_at(SqResult *r, uint64_t row, uint32_t col) { return &r->cells[row * r->n_cols + col]; }

/* ---- domains -------------------------------------------------------------- */

/* A column of the catalog: table position, column index. */
typedef struct ColId {
    uint32_t t, c;
} ColId;

typedef struct Domains {
    const Catalog *cat;
    uint32_t *base;        /* first column index of each table */
    uint32_t *parent;      /* union-find over every column */
    uint32_t n;
} Domains;

static uint32_t find(Domains *d, uint32_t x) {
    while (d->parent[x] != x) x = d->parent[x] = d->parent[d->parent[x]];
    return x;
}

static void domains_init(Domains *d, const Catalog *cat) {
    d->cat = cat;
    d->base = sq_calloc(cat->n_tables + 1, sizeof *d->base);
    d->n = 0;
    for (uint32_t t = 0; t < cat->n_tables; t++) {
        d->base[t] = d->n;
        d->n += cat->tables[t]->n_cols;
    }
    d->parent = sq_calloc(d->n + 1, sizeof *d->parent);
    for (uint32_t i = 0; i < d->n; i++) d->parent[i] = i;
    for (uint32_t t = 0; t < cat->n_tables; t++) {
        const CatTable *tab = cat->tables[t];
        for (uint32_t f = 0; f < tab->n_fks; f++) {
            const CatForeignKey *fk = &tab->fks[f];
            uint32_t target = fk->target ? sq_catalog_pos(cat, fk->target) : cat->n_tables;
            if (target == cat->n_tables || !fk->target_cols) continue;
            for (uint32_t k = 0; k < fk->n_cols; k++)
                d->parent[find(d, d->base[t] + fk->cols[k])] = find(d, d->base[target] + fk->target_cols[k]);
        }
    }
}

static void domains_free(Domains *d) {
    free(d->base);
    free(d->parent);
}

/* ---- the literals the queries compare with ---------------------------------- */

/* Values a domain's map must not cross: the literals the queries compare
** with one of its columns (in a comparison, IN, BETWEEN, LIKE or IS), and
** the literals compared with no column at all (kept for every domain). */
typedef struct Literals {
    SqValue *v;
    uint32_t n, cap;
    uint32_t n_text_scoped;    /* TEXT ones compared with the domain itself */
} Literals;

/* Every literal of the queries, and the domain it is compared with
** (NO_DOMAIN: none, so every domain keeps clear of it). */
enum { NO_DOMAIN = UINT32_MAX };

typedef struct ScopedLit {
    SqValue v;
    uint32_t dom;
    const SqExpr *node;
} ScopedLit;

typedef struct LitScan {
    Domains *d;
    IrQuery *q;
    ScopedLit *lits;
    uint32_t n, cap;
    uint32_t doms[8], n_doms;   /* of the comparison being read */
    const SqExpr *nodes[16];
    uint32_t n_nodes;
} LitScan;

static int literal_value(const SqExpr *e, SqValue *v) {
    if (e->kind != SQX_LITERAL) return 0;
    memset(v, 0, sizeof *v);
    v->type = e->u.lit.vtype;
    if (v->type == SQ_VAL_TEXT) v->s = e->u.lit.s, v->n = e->u.lit.n;
    else if (v->type == SQ_VAL_INTEGER) v->i = e->u.lit.i;
    else if (v->type == SQ_VAL_REAL) v->r = e->u.lit.r;
    else return 0;
    return 1;
}

static void add_scoped(LitScan *s, const SqExpr *e, uint32_t dom) {
    SqValue v;
    if (!literal_value(e, &v)) return;
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 16;
        s->lits = sq_realloc(s->lits, s->cap * sizeof *s->lits);
    }
    s->lits[s->n++] = (ScopedLit){v, dom, e};
}

/* Under a comparison: its columns' domains and its literals. */
static int gather(SqExpr *e, void *arg) {
    LitScan *s = arg;
    if (e->kind == SQX_COLUMN) {
        const SqColumn *col = ir_column(s->q, e->u.col);
        uint32_t t = col && col->table ? sq_catalog_pos(s->d->cat, col->table) : s->d->cat->n_tables;
        if (t < s->d->cat->n_tables && col->table_col >= 0 && s->n_doms < 8)
            s->doms[s->n_doms++] = find(s->d, s->d->base[t] + (uint32_t)col->table_col);
    } else if (e->kind == SQX_LITERAL && s->n_nodes < 16) {
        s->nodes[s->n_nodes++] = e;
    }
    return 0;
}

static int is_comparison(const SqExpr *e) {
    return (e->kind == SQX_BINARY && e->op >= AST_OP_EQ && e->op <= AST_OP_GE) || e->kind == SQX_IN_LIST ||
           e->kind == SQX_BETWEEN || e->kind == SQX_LIKE || e->kind == SQX_IS;
}

static int scan_comparison(SqExpr *e, void *arg) {
    LitScan *s = arg;
    if (!is_comparison(e)) return 0;
    s->n_doms = s->n_nodes = 0;
    sq_expr_walk(e, gather, s);
    for (uint32_t i = 0; i < s->n_nodes; i++)
        for (uint32_t k = 0; k < s->n_doms; k++) add_scoped(s, s->nodes[i], s->doms[k]);
    return 0;
}

static int scan_rest(SqExpr *e, void *arg) {
    LitScan *s = arg;
    for (uint32_t i = 0; i < s->n; i++)
        if (s->lits[i].node == e) return 0;
    add_scoped(s, e, NO_DOMAIN);
    return 0;
}

static void scan_query(LitScan *s, IrQuery *q) {
    s->q = q;
    ir_query_walk(q, scan_comparison, s);
    ir_query_walk(q, scan_rest, s);
}

static void collect_literals(Build *b, Domains *d, LitScan *s) {
    memset(s, 0, sizeof *s);
    s->d = d;
    scan_query(s, b->gold);
    for (uint32_t m = 0; m < b->out->n_mutants; m++)
        if (b->mq[m]) scan_query(s, b->mq[m]);
}

/* The literals domain root must keep clear of. */
static void literals_of(const LitScan *s, uint32_t root, Literals *out) {
    out->n = out->n_text_scoped = 0;
    for (uint32_t i = 0; i < s->n; i++) {
        if (s->lits[i].dom != root && s->lits[i].dom != NO_DOMAIN) continue;
        out->n_text_scoped += s->lits[i].dom == root && s->lits[i].v.type == SQ_VAL_TEXT;
        if (out->n == out->cap) {
            out->cap = out->cap ? 2 * out->cap : 16;
            out->v = sq_realloc(out->v, out->cap * sizeof *out->v);
        }
        out->v[out->n++] = s->lits[i].v;
    }
}

/* ---- ordering values ----------------------------------------------------------- */

/* SQLite's order of two values of one class (TEXT by bytes, numbers by
** value). */
static int value_cmp(const SqValue *a, const SqValue *b) {
    if (a->type == SQ_VAL_TEXT && b->type == SQ_VAL_TEXT) {
        uint32_t n = a->n < b->n ? a->n : b->n;
        int c = memcmp(a->s, b->s, n);
        return c ? c : (a->n > b->n) - (a->n < b->n);
    }
    double x = a->type == SQ_VAL_INTEGER ? (double)a->i : a->r;
    double y = b->type == SQ_VAL_INTEGER ? (double)b->i : b->r;
    return (x > y) - (x < y);
}

static int value_cmp_q(const void *a, const void *b) { return value_cmp(a, b); }

static int same_class(const SqValue *a, const SqValue *b) {
    int na = a->type == SQ_VAL_INTEGER || a->type == SQ_VAL_REAL;
    int nb = b->type == SQ_VAL_INTEGER || b->type == SQ_VAL_REAL;
    return a->type == b->type || (na && nb);
}

/* Sort and drop repeats; the count left. */
static uint32_t sort_unique(SqValue *v, uint32_t n) {
    if (!n) return 0;
    qsort(v, n, sizeof *v, value_cmp_q);
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++)
        if (!k || value_cmp(&v[k - 1], &v[i]) != 0) v[k++] = v[i];
    return k;
}

/* ---- candidates: the real database, or the column's name --------------------------- */

static const char *const person_names[] = {
    "Alice Martin", "Bruno Costa", "Chen Wei", "Dana Novak", "Elena Petrova", "Farid Haddad", "Grace Kim",
    "Hugo Lambert", "Ines Duarte", "James Okafor", "Kira Sato", "Liam Walsh", "Maya Cohen", "Noah Becker",
    "Olga Ivanova", "Pedro Alves", "Quinn Murphy", "Rosa Jimenez", "Sven Larsen", "Tara Singh"};
static const char *const cities[] = {"Amsterdam", "Berlin", "Chicago", "Dublin", "Edinburgh", "Florence",
                                     "Geneva", "Helsinki", "Istanbul", "Jakarta", "Kyoto", "Lisbon", "Madrid",
                                     "Nairobi", "Oslo", "Prague", "Quebec", "Rome", "Seoul", "Toronto"};
static const char *const countries[] = {"Argentina", "Brazil", "Canada", "Denmark", "Egypt", "France",
                                        "Germany", "Hungary", "India", "Japan", "Kenya", "Mexico", "Norway",
                                        "Peru", "Spain", "Sweden", "Turkey", "Uruguay", "Vietnam", "Zambia"};

static int name_has(const char *name, const char *part) {
    size_t n = strlen(part);
    for (const char *p = name; *p; p++)
        if (sq_strnicmp(p, part, n) == 0) return 1;
    return 0;
}

/* A table that holds people, by its name. */
static int people_table(const char *t) {
    static const char *const people[] = {"emp", "person", "people", "student", "teacher", "member", "customer",
                                         "user", "author", "singer", "player", "driver", "staff", "artist",
                                         "client", "patient", "doctor", "manager", "visitor", "host"};
    for (size_t i = 0; i < sizeof people / sizeof *people; i++)
        if (name_has(t, people[i])) return 1;
    return 0;
}

/* Text values for a column with no real data to sample: its kind read
** from its name, n of them at least, in the arena. */
static uint32_t made_up(SqArena *a, const CatTable *t, const CatColumn *col, SqValue *out, uint32_t n) {
    const char *const *list = NULL;
    size_t len = 0;
    const char *c = col->name;
    if (name_has(c, "city") || name_has(c, "town") || name_has(c, "location")) list = cities, len = 20;
    else if (name_has(c, "country") || name_has(c, "nation")) list = countries, len = 20;
    else if (name_has(c, "name") && people_table(t->name)) list = person_names, len = 20;
    uint32_t k = 0;
    for (; list && k < len && k < n; k++) out[k] = (SqValue){.type = SQ_VAL_TEXT, .s = list[k], .n = (uint32_t)strlen(list[k])};
    if (k) return k;
    int date = name_has(c, "date") || name_has(c, "time") || name_has(c, "hired") || name_has(c, "birth") ||
               name_has(c, "day") || name_has(c, "created");
    for (; k < n; k++) {
        char buf[96];
        if (date) snprintf(buf, sizeof buf, "20%02u-%02u-%02u", 10 + k / 12 % 15, 1 + k % 12, 1 + (7 * k) % 28);
        else if (name_has(c, "email")) snprintf(buf, sizeof buf, "user%02u@example.com", k + 1);
        else {
            /* "Code 01": the column's name, capitalized, and a number; for
            ** a name, the table's ("Dept 01") */
            const char *w = name_has(c, "name") ? t->name : c;
            snprintf(buf, sizeof buf, "%c%.40s %02u", toupper((unsigned char)w[0]), w + 1, k + 1);
            for (char *p = buf; *p; p++)
                if (*p == '_') *p = ' ';
        }
        out[k] = (SqValue){.type = SQ_VAL_TEXT, .s = sq_arena_strdup(a, buf), .n = (uint32_t)strlen(buf)};
    }
    return k;
}

enum { SAMPLE = 200, MADE_UP = 60 };

/* Whether name holds word as a word of its own: between the ends, '_',
** ' ' or a change to a capital ("Age", "Student_Age", "ageYears"; not
** "Page", "Stage" or "Years_Working" for "age" or "year"). */
static int name_word(const char *name, const char *word) {
    size_t n = strlen(word);
    for (const char *p = name; *p; p++) {
        if (sq_strnicmp(p, word, n) != 0) continue;
        int before = p == name || p[-1] == '_' || p[-1] == ' ' ||
                     (isupper((unsigned char)p[0]) && islower((unsigned char)p[-1]));
        char c = p[n];
        int after = !c || c == '_' || c == ' ' || isupper((unsigned char)c) || isdigit((unsigned char)c);
        if (before && after) return 1;
    }
    return 0;
}

/* Number ranges by what a column's name says it holds: the first of n
** values and the step between them. */
static const struct {
    const char *word;
    int64_t first, step;
} number_kinds[] = {
    {"age", 18, 1},         {"year", 1970, 1},     {"price", 500, 250},   {"cost", 500, 250},
    {"salary", 30000, 1500}, {"wage", 30000, 1500}, {"income", 30000, 1500}, {"budget", 10000, 5000},
    {"revenue", 10000, 5000}, {"amount", 100, 50},   {"fee", 100, 50},      {"score", 40, 1},
    {"rating", 1, 1},       {"population", 10000, 5000},
};

/* Numbers for a column with no real data to sample, in the range its name
** implies, of like's class (INTEGER or REAL), ascending: n of them at
** most.  0 when the name says nothing: the solver's numbers stay. */
static uint32_t made_up_numbers(const CatColumn *col, const SqValue *like, SqValue *out, uint32_t n) {
    for (size_t i = 0; i < SQ_ARRAY_LEN(number_kinds); i++) {
        if (!name_word(col->name, number_kinds[i].word)) continue;
        for (uint32_t k = 0; k < n; k++) {
            int64_t x = number_kinds[i].first + (int64_t)k * number_kinds[i].step;
            out[k] = like->type == SQ_VAL_REAL ? (SqValue){.type = SQ_VAL_REAL, .r = (double)x}
                                               : (SqValue){.type = SQ_VAL_INTEGER, .i = x};
        }
        return n;
    }
    return 0;
}

/* Distinct values of one class (like's) that column col of table t holds
** in the real database, appended to *v. */
static void add_value(SqArena *a, const SqValue *x, SqValue **v, uint32_t *n, uint32_t *cap) {
    if (*n == *cap) {
        *cap = *cap ? 2 * *cap : 64;
        *v = sq_realloc(*v, *cap * sizeof **v);
    }
    SqValue c = *x;
    if (c.type == SQ_VAL_TEXT) c.s = sq_arena_strndup(a, x->s, x->n);
    (*v)[(*n)++] = c;
}

/* With no database: the common values a profile gives the column. */
static void sample_profile(Build *b, SqArena *a, const CatTable *t, const CatColumn *col, const SqValue *like,
                           SqValue **v, uint32_t *n, uint32_t *cap) {
    const SqColumnProfile *p = b->opt->values_profile
                                   ? sq_profile_column(b->opt->values_profile, t, (uint32_t)(col - t->cols))
                                   : NULL;
    for (uint32_t i = 0; p && i < p->n_common; i++) {
        const SqValue *x = &p->common[i];
        if (same_class(x, like) && (x->type == SQ_VAL_INTEGER) == (like->type == SQ_VAL_INTEGER))
            add_value(a, x, v, n, cap);
    }
}

static void sample(Build *b, SqArena *a, const CatTable *t, const CatColumn *col, const SqValue *like, SqValue **v,
                   uint32_t *n, uint32_t *cap) {
    if (!b->real) {
        sample_profile(b, a, t, col, like, v, n, cap);
        return;
    }
    SqBuf sql = SQ_BUF_INIT;
    sq_buf_puts(&sql, "SELECT DISTINCT ");
    ir_sql_ident(&sql, col->name);
    sq_buf_puts(&sql, " FROM ");
    ir_sql_ident(&sql, t->name);
    sq_buf_printf(&sql, " WHERE typeof(");
    ir_sql_ident(&sql, col->name);
    sq_buf_printf(&sql, ") IN (%s) LIMIT %d", like->type == SQ_VAL_TEXT ? "'text'" : "'integer', 'real'", SAMPLE);
    SqResult r;
    sq_result_init(&r);
    SqExecLimits lim = {2.0, SAMPLE, 1 << 20, 1 << 12, 1};
    if (sq_db_query(b->real, sq_buf_str(&sql), &lim, &r, NULL) == SQ_EXEC_OK)
        for (uint64_t i = 0; i < r.n_rows; i++) {
            const SqValue *x = sq_result_cell(&r, i, 0);
            if (same_class(x, like) && (x->type == SQ_VAL_INTEGER) == (like->type == SQ_VAL_INTEGER))
                add_value(a, x, v, n, cap);
        }
    sq_result_free(&r);
    sq_buf_free(&sql);
}

/* ---- one domain ---------------------------------------------------------------- */

/* A cell changed, and what it held. */
typedef struct Changed {
    SqValue *cell;
    SqValue was;
} Changed;

typedef struct Domain {
    ColId *cols;
    uint32_t n_cols;
    int text;              /* the values mapped are TEXT (else numbers) */
} Domain;

/* Whether v is one of the literals (those stay: the queries see them). */
static int is_literal(const Literals *l, const SqValue *v) {
    for (uint32_t i = 0; i < l->n; i++)
        if (same_class(&l->v[i], v) && value_cmp(&l->v[i], v) == 0) return 1;
    return 0;
}

/* Whether a domain may change: TEXT columns (TEXT affinity), or a numeric
** column outside every key (its values sampled from the real database or
** the profile, else made up from its name). */
static int mappable(Build *b, const Domain *d) {
    for (uint32_t i = 0; i < d->n_cols; i++) {
        const CatTable *t = b->cat->tables[d->cols[i].t];
        const CatColumn *c = &t->cols[d->cols[i].c];
        if (d->text ? c->affinity != SQ_AFF_TEXT : (c->pk || c->unique || d->n_cols > 1)) return 0;
    }
    return 1;
}

/* The old values of the domain in candidate f (of its class, not
** literals), sorted and distinct. */
static uint32_t old_values(Build *b, SqFixture *f, const Domain *d, const Literals *lit, SqValue **out) {
    uint32_t n = 0, cap = 0;
    *out = NULL;
    for (uint32_t i = 0; i < f->n_tables; i++) {
        const CatTable *t = f->tables[i].table;
        uint32_t tp = sq_catalog_pos(b->cat, t);
        SqResult *rows = &f->tables[i].rows;
        for (uint32_t k = 0; k < d->n_cols; k++) {
            if (d->cols[k].t != tp) continue;
            for (uint64_t r = 0; r < rows->n_rows; r++) {
                SqValue *v = cell_at(rows, r, d->cols[k].c);
                int cls = d->text ? v->type == SQ_VAL_TEXT : (v->type == SQ_VAL_INTEGER || v->type == SQ_VAL_REAL);
                if (!cls || is_literal(lit, v)) continue;
                if (n == cap) {
                    cap = cap ? 2 * cap : 16;
                    *out = sq_realloc(*out, cap * sizeof **out);
                }
                (*out)[n++] = *v;
            }
        }
    }
    return sort_unique(*out, n);
}

/* Candidates: sorted distinct values, and which of them the question's
** text names (hints.c), to be taken first. */
typedef struct Cands {
    SqValue *v;
    uint8_t *hinted;       /* per value, or NULL: none is */
    uint32_t n;
} Cands;

/* Mark want of the n positions of pool (ascending candidate indexes):
** with no generator the first ones (text) or ones spread evenly
** (numbers); with one, a choice it makes (selection sampling: each is
** taken with the chance still-wanted / still-left, so exactly want are). */
static void pick(const uint32_t *pool, uint32_t n, uint32_t want, int text, uint64_t *rng, uint8_t *taken) {
    for (uint32_t i = 0, k = 0; i < n && k < want; i++) {
        if (rng ? sq_rand_next(rng) % (n - i) >= want - k
                : !text ? i != (uint64_t)(2 * k + 1) * n / (2 * want) : 0)
            continue;
        taken[pool[i]] = 1;
        k++;
    }
}

/* want of the have candidates from first into now, in order: the hinted
** ones first (as many as fit), then the others (pick). */
static void choose(const Cands *c, uint32_t first, uint32_t have, uint32_t want, int text, uint64_t *rng,
                   SqValue *now) {
    uint32_t *pool = sq_calloc(have + 1, sizeof *pool);
    uint8_t *taken = sq_calloc(have + 1, 1);
    uint32_t got = 0;
    for (int hinted = 1; hinted >= 0 && got < want; hinted--) {
        uint32_t n = 0;
        for (uint32_t i = 0; i < have; i++)
            if (!taken[i] && (c->hinted ? c->hinted[first + i] : 0) == hinted) pool[n++] = i;
        uint32_t w = want - got < n ? want - got : n;
        pick(pool, n, w, text, rng, taken);
        got += w;
    }
    for (uint32_t i = 0, k = 0; i < have; i++)
        if (taken[i]) now[k++] = c->v[first + i];
    free(pool);
    free(taken);
}

/* The new value of each old one: out of the candidates, those strictly
** between the literals around it, chosen in order (choose).  0 when
** some stretch has fewer candidates than values (the domain stays). */
static int plan(const SqValue *old, uint32_t n, const Cands *c, const Literals *lit, uint64_t *rng, SqValue *now) {
    const SqValue *cand = c->v;
    uint32_t n_cand = c->n;
    for (uint32_t i = 0; i < n;) {
        /* the stretch of old values with no literal between them */
        const SqValue *lo = NULL, *hi = NULL;
        for (uint32_t k = 0; k < lit->n; k++) {
            if (!same_class(&lit->v[k], &old[i])) continue;
            if (value_cmp(&lit->v[k], &old[i]) < 0 && (!lo || value_cmp(&lit->v[k], lo) > 0)) lo = &lit->v[k];
            if (value_cmp(&lit->v[k], &old[i]) > 0 && (!hi || value_cmp(&lit->v[k], hi) < 0)) hi = &lit->v[k];
        }
        uint32_t j = i;
        while (j < n && (!hi || value_cmp(&old[j], hi) < 0)) j++;
        uint32_t first = 0, last = 0; /* candidates in (lo, hi) */
        while (first < n_cand && lo && value_cmp(&cand[first], lo) <= 0) first++;
        last = first;
        while (last < n_cand && (!hi || value_cmp(&cand[last], hi) < 0)) last++;
        uint32_t want = j - i, have = last - first;
        if (have < want) return 0;
        choose(c, first, have, want, old[i].type == SQ_VAL_TEXT, rng, now + i);
        i = j;
    }
    return 1;
}

/* Put the plan into the fixture's cells, remembering each change. */
static uint32_t apply(Build *b, SqFixture *f, const Domain *d, const SqValue *old, const SqValue *now, uint32_t n,
                      Changed **changed) {
    uint32_t k = 0, cap = 0;
    *changed = NULL;
    for (uint32_t i = 0; i < f->n_tables; i++) {
        uint32_t tp = sq_catalog_pos(b->cat, f->tables[i].table);
        SqResult *rows = &f->tables[i].rows;
        for (uint32_t c = 0; c < d->n_cols; c++) {
            if (d->cols[c].t != tp) continue;
            for (uint64_t r = 0; r < rows->n_rows; r++) {
                SqValue *v = cell_at(rows, r, d->cols[c].c);
                const SqValue *hit = bsearch(v, old, n, sizeof *old, value_cmp_q);
                if (!hit || !same_class(hit, v)) continue;
                if (k == cap) {
                    cap = cap ? 2 * cap : 16;
                    *changed = sq_realloc(*changed, cap * sizeof **changed);
                }
                (*changed)[k++] = (Changed){v, *v};
                SqValue x = now[hit - old];
                *v = x.type == SQ_VAL_TEXT ? sq_result_text(rows, x.s, x.n) : x;
            }
        }
    }
    return k;
}

/* ---- the check ------------------------------------------------------------------------ */

int suite_checks_hold(Build *b, SqDb *db) {
    for (uint32_t t = 0; t < b->cat->n_tables; t++) {
        const CatTable *tab = b->cat->tables[t];
        for (uint32_t k = 0; k < tab->n_checks; k++) {
            SqBuf sql = SQ_BUF_INIT;
            sq_buf_puts(&sql, "SELECT count(*) FROM ");
            ir_sql_ident(&sql, tab->name);
            sq_buf_printf(&sql, " WHERE NOT (%s)", tab->checks[k]);
            SqResult r;
            sq_result_init(&r);
            int ok = sq_db_query(db, sq_buf_str(&sql), NULL, &r, NULL) == SQ_EXEC_OK && r.n_rows == 1 &&
                     sq_result_cell(&r, 0, 0)->type == SQ_VAL_INTEGER && sq_result_cell(&r, 0, 0)->i == 0;
            sq_result_free(&r);
            sq_buf_free(&sql);
            if (!ok) return 0;
        }
    }
    return 1;
}

/* Whether candidate c, changed, still does its job: loads, holds the
** CHECKs, gives the gold rows if it did, kills exactly what it killed.
** On success its database and gold result are the changed one's. */
static int still_works(Build *b, uint32_t c) {
    Cand *cd = &b->cands[c];
    char *err = NULL;
    SqDb *db = sq_fixture_open(&cd->fixture, &err);
    free(err);
    if (!db) return 0;
    SqResult gold;
    sq_result_init(&gold);
    int ok = suite_checks_hold(b, db) && sq_db_query(db, b->gold_sql, NULL, &gold, NULL) == SQ_EXEC_OK &&
             (gold.n_rows > 0) == (cd->gold.n_rows > 0);
    uint32_t n_mut = b->out->n_mutants;
    uint8_t *now = sq_calloc(n_mut + 1, 1);
    for (uint32_t m = 0; ok && m < n_mut; m++) {
        if (!b->mq[m]) continue;
        SqResult r;
        sq_result_init(&r);
        int differs = sq_db_query(db, b->out->mutants[m].sql, NULL, &r, NULL) != SQ_EXEC_OK ||
                      !sq_result_equal(&gold, &r, b->mode, b->sorted);
        /* a kill may not be lost; one may be gained, but never of a
        ** mutant the search proved equivalent */
        ok = differs ? !suite_kills(b, c, m) && b->out->mutants[m].fate == SQ_MUTANT_EQUIVALENT ? 0 : 1
                     : !suite_kills(b, c, m);
        now[m] = differs ? K_DIFFERENT : K_SAME;
        sq_result_free(&r);
    }
    if (!ok) {
        free(now);
        sq_db_close(db);
        sq_result_free(&gold);
        return 0;
    }
    for (uint32_t m = 0; m < n_mut; m++)
        if (b->mq[m]) b->kills[(size_t)c * n_mut + m] = now[m];
    free(now);
    sq_db_close(cd->db);
    sq_result_free(&cd->gold);
    cd->db = db;
    cd->gold = gold;
    return 1;
}

/* The candidates for a domain's values, sorted and distinct: sampled
** from the real database (numbers too), or (made) made up from the name
** of its first column that is not a key (or its first). */
/* Whether hint h is for domain d: it names one of d's columns (T1.name
** names every column called name), or it names none and the queries
** compare d with a TEXT literal, so the question is likely about it. */
static int hint_fits(Build *b, const SuiteHint *h, const Domain *d, const Literals *lit) {
    if (!h->column) return lit->n_text_scoped > 0;
    const char *name = strrchr(h->column, '.');
    name = name ? name + 1 : h->column;
    for (uint32_t i = 0; i < d->n_cols; i++)
        if (sq_stricmp(b->cat->tables[d->cols[i].t]->cols[d->cols[i].c].name, name) == 0) return 1;
    return 0;
}

/* Append the question's values for d to c->v (the made-up stage). */
static void add_hints(Build *b, const Domain *d, const Literals *lit, Cands *c) {
    for (uint32_t i = 0; i < b->hints.n; i++) {
        const SuiteHint *h = &b->hints.v[i];
        if (!hint_fits(b, h, d, lit)) continue;
        c->v = sq_realloc(c->v, (c->n + 1) * sizeof *c->v);
        c->v[c->n++] = (SqValue){.type = SQ_VAL_TEXT, .s = h->text, .n = (uint32_t)strlen(h->text)};
    }
}

/* Which candidates are values of the question's (c->hinted). */
static void mark_hints(Build *b, const Domain *d, const Literals *lit, Cands *c) {
    c->hinted = NULL;
    for (uint32_t i = 0; i < b->hints.n; i++) {
        const SuiteHint *h = &b->hints.v[i];
        if (!hint_fits(b, h, d, lit)) continue;
        SqValue v = {.type = SQ_VAL_TEXT, .s = h->text, .n = (uint32_t)strlen(h->text)};
        for (uint32_t k = 0; k < c->n; k++)
            if (c->v[k].type == SQ_VAL_TEXT && value_cmp(&c->v[k], &v) == 0) {
                if (!c->hinted) c->hinted = sq_calloc(c->n + 1, 1);
                c->hinted[k] = 1;
            }
    }
}

/* The candidates for a domain's values, sorted and distinct: sampled
** from the real database (numbers too), or (made) the question's values
** and values made up from the name of its first column that is not a key
** (or its first). */
static void candidates(Build *b, SqArena *a, const Domain *d, const Literals *lit, const SqValue *like, int made,
                       Cands *out) {
    uint32_t cap = 0;
    memset(out, 0, sizeof *out);
    for (uint32_t i = 0; i < d->n_cols && !made; i++) {
        const CatTable *t = b->cat->tables[d->cols[i].t];
        sample(b, a, t, &t->cols[d->cols[i].c], like, &out->v, &out->n, &cap);
    }
    if (made) {
        ColId pick = d->cols[0];
        for (uint32_t i = 0; i < d->n_cols; i++)
            if (!b->cat->tables[d->cols[i].t]->cols[d->cols[i].c].pk) {
                pick = d->cols[i];
                break;
            }
        const CatTable *t = b->cat->tables[pick.t];
        out->v = sq_malloc(MADE_UP * sizeof *out->v);
        if (d->text) {
            out->n = made_up(a, t, &t->cols[pick.c], out->v, MADE_UP);
            add_hints(b, d, lit, out);
        } else {
            out->n = made_up_numbers(&t->cols[pick.c], like, out->v, MADE_UP);
        }
    }
    out->n = sort_unique(out->v, out->n);
    if (made) mark_hints(b, d, lit, out);
}

/* A plan for old[0..n) into now: from the real data, else (too few
** values there between the literals) made up.  0 when neither has one.
** c, the database, and the domain seed the choice (SqSuiteOptions.seed). */
static int plan_values(Build *b, uint32_t c, SqArena *a, const Domain *d, const Literals *lit, const SqValue *old,
                       uint32_t n, SqValue *now) {
    int ok = 0;
    /* one sequence per domain and database, so that a domain's choice
    ** does not depend on how many numbers the others drew */
    uint64_t state = b->opt->seed ^ sq_mix64(((uint64_t)d->cols[0].t << 32 | d->cols[0].c) + 1) ^ sq_mix64(c + 0x51ed);
    for (int made = 0; made < 2 && !ok && n; made++) {
        Cands cand;
        candidates(b, a, d, lit, &old[0], made, &cand);
        ok = cand.n && plan(old, n, &cand, lit, b->opt->seed ? &state : NULL, now);
        free(cand.v);
        free(cand.hinted);
    }
    return ok;
}

static void one_domain(Build *b, uint32_t c, const Domain *d, const Literals *lit, SqArena *a) {
    Cand *cd = &b->cands[c];
    if (!mappable(b, d)) return;
    SqValue *old = NULL;
    uint32_t n = old_values(b, &cd->fixture, d, lit, &old);
    SqValue *now = sq_calloc(n + 1, sizeof *now);
    if (plan_values(b, c, a, d, lit, old, n, now)) {
        Changed *changed = NULL;
        uint32_t k = apply(b, &cd->fixture, d, old, now, n, &changed);
        if (k && !still_works(b, c))
            for (uint32_t i = k; i-- > 0;) *changed[i].cell = changed[i].was;
        free(changed);
    }
    free(old);
    free(now);
}

/* A cell and its place, for a stable sort by value. */
typedef struct CellAt {
    SqValue *cell;
    uint32_t at;
} CellAt;

static int cell_cmp(const void *x, const void *y) {
    const CellAt *a = x, *b = y;
    int c = value_cmp(a->cell, b->cell);
    return c ? c : (a->at > b->at) - (a->at < b->at);
}

/* Equal values of a one-column domain made distinct, where the queries
** do not tell: three singers all named 'Joe Sharp' read worse than three
** singers.  Kept only when the database still does its job. */
static void spread(Build *b, uint32_t c, const Domain *d, const Literals *lit, SqArena *a) {
    Cand *cd = &b->cands[c];
    if (d->n_cols != 1) return;
    CellAt *cells = NULL;
    uint32_t n = 0;
    for (uint32_t i = 0; i < cd->fixture.n_tables; i++) {
        if (sq_catalog_pos(b->cat, cd->fixture.tables[i].table) != d->cols[0].t) continue;
        SqResult *rows = &cd->fixture.tables[i].rows;
        cells = sq_realloc(cells, (rows->n_rows + 1) * sizeof *cells);
        for (uint64_t r = 0; r < rows->n_rows; r++) {
            SqValue *v = cell_at(rows, r, d->cols[0].c);
            int cls = d->text ? v->type == SQ_VAL_TEXT : (v->type == SQ_VAL_INTEGER || v->type == SQ_VAL_REAL);
            if (cls && !is_literal(lit, v)) cells[n] = (CellAt){v, n}, n++;
        }
    }
    if (n < 2) {
        free(cells);
        return;
    }
    qsort(cells, n, sizeof *cells, cell_cmp);
    int repeats = 0;
    for (uint32_t i = 1; i < n; i++) repeats |= value_cmp(cells[i - 1].cell, cells[i].cell) == 0;
    SqValue *old = sq_calloc(n + 1, sizeof *old), *now = sq_calloc(n + 1, sizeof *now);
    for (uint32_t i = 0; i < n; i++) old[i] = *cells[i].cell;
    if (repeats && plan_values(b, c, a, d, lit, old, n, now)) {
        SqResult *rows = NULL;
        for (uint32_t i = 0; i < cd->fixture.n_tables; i++)
            if (sq_catalog_pos(b->cat, cd->fixture.tables[i].table) == d->cols[0].t) rows = &cd->fixture.tables[i].rows;
        for (uint32_t i = 0; i < n; i++)
            *cells[i].cell = now[i].type == SQ_VAL_TEXT ? sq_result_text(rows, now[i].s, now[i].n) : now[i];
        if (!still_works(b, c))
            for (uint32_t i = 0; i < n; i++) *cells[i].cell = old[i];
    }
    free(cells);
    free(old);
    free(now);
}

void suite_realistic(Build *b, uint32_t c) {
    for (uint32_t m = 0; m < b->out->n_mutants; m++)
        if (b->mq[m]) suite_kills(b, c, m); /* what it kills, before */
    Domains dom;
    domains_init(&dom, b->cat);
    LitScan scan;
    collect_literals(b, &dom, &scan);
    Literals lit = {NULL, 0, 0, 0};
    SqArena *a = sq_arena_new();
    ColId *cols = sq_calloc(dom.n + 1, sizeof *cols);
    for (uint32_t root = 0; root < dom.n; root++) {
        uint32_t n = 0;
        for (uint32_t t = 0; t < b->cat->n_tables; t++)
            for (uint32_t k = 0; k < b->cat->tables[t]->n_cols; k++)
                if (find(&dom, dom.base[t] + k) == root) cols[n++] = (ColId){t, k};
        if (n) literals_of(&scan, root, &lit);
        for (int text = 1; n && text >= 0; text--) {
            Domain d = {cols, n, text};
            one_domain(b, c, &d, &lit, a);
            if (mappable(b, &d)) spread(b, c, &d, &lit, a);
        }
    }
    free(cols);
    sq_arena_free(a);
    free(lit.v);
    free(scan.lits);
    domains_free(&dom);
}
