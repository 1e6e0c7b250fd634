/*
** joinelim_keys.c -- the `joinelim` analysis of each join: the keys its
** equalities bind, whether it fans out, whether it is on a key, whether
** it can go, and aggregates over a join that fans out.
**
** Layer: passes.  Called by joinelim.c for each core it analyses (see
** joinelim_int.h); adds SqJeJoin records and findings to the core's
** SqJoinElim, in the query's arena.  For each join that brings in a base
** table by an inner, LEFT or cross join:
**
**   fan-out    a join matches at most one row of its table per row of the
**              rest when equalities bind the columns of a key of the table
**              (rowid, PRIMARY KEY or UNIQUE), each to something that does
**              not read the table, in a comparison that leaves the key
**              column unconverted (a TEXT key compared with a number would
**              be converted: '1' and '01' both equal 1).
**   removable  the table is read nowhere but in its own join condition,
**              and the join keeps each row of the rest exactly once: a LEFT
**              JOIN whose ON binds a key (exact), a LEFT JOIN whose copies
**              do not matter (exact: DISTINCT, UNION, INTERSECT or EXCEPT
**              remove them, an enclosing EXISTS or IN ignores them), or an
**              inner join whose condition is exactly a foreign key from NOT
**              NULL columns to a key (lossless only if the foreign key
**              holds: SQLite enforces none unless PRAGMA foreign_keys=ON).
**   non-key    a join whose equalities relate columns of which none is
**              part of a key and no foreign key relates them.
**   fan-out    COUNT, SUM, AVG or TOTAL (not DISTINCT) in a core with a
**   aggregate  join that fans out, unless GROUP BY holds a key of the
**              fanning table (then each group has one of its rows).
*/
#include <string.h>

#include "passes/joinelim_int.h"

enum { JE_MAX_COLS = 16 }; /* key columns followed per join */

/* ------------------------------------------------------------------ */
/* Keys                                                                */
/* ------------------------------------------------------------------ */

static int has_rowid(const CatTable *t) {
    return !t->without_rowid && !t->is_view && !t->is_virtual;
}

/* Whether column col of t is part of some key. */
static int in_key(const CatTable *t, int32_t col) {
    if (col < 0) return has_rowid(t);
    for (uint32_t i = 0; i < t->n_keys; i++)
        for (uint32_t j = 0; j < t->keys[i].n_cols; j++)
            if (t->keys[i].cols[j] == (uint32_t)col) return 1;
    return 0;
}

/* Column index in its table, or -1 for the rowid (and unknown). */
static int32_t column_index(const JoinElim *je, const SqExpr *e) {
    const SqColumn *c = (e->flags & SQXF_ROWID) ? NULL : ir_column(je->q, e->u.col);
    return c && c->table ? c->table_col : -1;
}

/* Columns of one table bound by equalities; rowid bound separately. */
typedef struct JeBound {
    uint32_t cols[JE_MAX_COLS];
    const SqExpr *refs[JE_MAX_COLS];
    uint32_t n;
    const SqExpr *rowid;     /* a reference to the rowid, when bound */
    const SqExpr *converted; /* an equality that would bind a column but converts it */
} JeBound;

static int bound_unique(const CatTable *t, const JeBound *b) {
    return (b->rowid && has_rowid(t)) || (b->n && sq_table_cols_unique(t, b->cols, b->n));
}

/* If the equality e is "key = other" (or "other = key") with key a column
** of item r compared as stored and other not reading r, bind key. */
static void bind_side(const JoinElim *je, const IrRel *r, const SqExpr *e, int key_left,
                      JeBound *b) {
    const SqExpr *key = key_left ? e->u.bin.l : e->u.bin.r;
    const SqExpr *other = key_left ? e->u.bin.r : e->u.bin.l;
    if (key->kind != SQX_COLUMN || key->u.col.rel != r->id) return;
    if (other->kind == SQX_COLUMN && other->u.col.rel == r->id) return;
    if (!je_key_unconverted(je, key, other, key_left)) {
        if (!b->converted) b->converted = e;
        return;
    }
    if (key->flags & SQXF_ROWID) {
        b->rowid = key;
        return;
    }
    int32_t col = column_index(je, key);
    for (uint32_t i = 0; i < b->n; i++)
        if ((int32_t)b->cols[i] == col) return;
    if (col >= 0 && b->n < JE_MAX_COLS) {
        b->refs[b->n] = key;
        b->cols[b->n++] = (uint32_t)col;
    }
}

static void bind_conjuncts(const JoinElim *je, const IrRel *r, const SqExprList *l, JeBound *b) {
    for (uint32_t i = 0; i < l->n; i++) {
        const SqExpr *e = l->items[i];
        if (e->kind != SQX_BINARY || e->op != AST_OP_EQ) continue;
        bind_side(je, r, e, 1, b);
        bind_side(je, r, e, 0, b);
    }
}

/* "t.a, t.b" for the bound columns (rowid included). */
static void put_bound(JoinElim *je, const JeBound *b) {
    for (uint32_t i = 0; i < b->n; i++) {
        if (i) sq_buf_puts(&je->text, ", ");
        je_put_expr(je, b->refs[i]);
    }
    if (b->rowid) {
        sq_buf_puts(&je->text, b->n ? ", " : "");
        je_put_expr(je, b->rowid);
    }
}

/* ------------------------------------------------------------------ */
/* Reading a table elsewhere                                           */
/* ------------------------------------------------------------------ */

/* Whether any expression of the query, other than the slots skip[0..1],
** reads item id (subqueries and CTE bodies included, and the skipped
** slots are skipped there too: a join condition inside a subquery). */
typedef struct JeUse {
    uint32_t id;
    SqExpr **skip[2];
} JeUse;

static int use_rel(IrRel *r, void *arg);

static int use_node(SqExpr *e, void *arg) {
    JeUse *u = arg;
    if (e->kind == SQX_COLUMN && e->u.col.rel == u->id) return 1;
    return je_is_sub(e) && e->u.sub.rel && ir_walk_rels(e->u.sub.rel, use_rel, u);
}

static int use_slot(SqExpr **slot, void *arg) {
    JeUse *u = arg;
    if (slot == u->skip[0] || slot == u->skip[1]) return 0;
    return sq_expr_walk(*slot, use_node, u);
}

static int use_rel(IrRel *r, void *arg) {
    if (r->with)
        for (uint32_t i = 0; i < r->with->n_ctes; i++)
            if (r->with->ctes[i]->body && ir_walk_rels(r->with->ctes[i]->body, use_rel, arg))
                return 1;
    return ir_rel_exprs(r, use_slot, arg);
}

static int read_elsewhere(JoinElim *je, const IrRel *r, SqExpr **skip0, SqExpr **skip1) {
    JeUse u = {r->id, {skip0, skip1}};
    return ir_walk_rels(je->q->root, use_rel, &u);
}

static int reads_item(SqExpr *e, const IrRel *r) {
    JeUse u = {r->id, {NULL, NULL}};
    return sq_expr_walk(e, use_node, &u);
}

/* ------------------------------------------------------------------ */
/* Fan-out and joins not on a key                                      */
/* ------------------------------------------------------------------ */

static int analysed(const JeItem *it) {
    if (!it->is_scan || !it->join) return 0;
    uint8_t t = it->join->u.join.type;
    return t == IR_JOIN_INNER || t == IR_JOIN_LEFT || t == IR_JOIN_CROSS;
}

/* What binds item i's columns over the whole core: its own ON, the ON of
** every inner join and WHERE (each a filter on the final rows). */
static void bind_item(const JeCore *k, uint32_t i, JeBound *b) {
    const IrRel *r = k->items[i].rel;
    memset(b, 0, sizeof *b);
    bind_conjuncts(k->je, r, &k->items[i].on, b);
    for (uint32_t j = 1; j < k->n_items; j++)
        if (j != i && je_is_inner(&k->items[j])) bind_conjuncts(k->je, r, &k->items[j].on, b);
    bind_conjuncts(k->je, r, &k->where, b);
}

static void record_join(JeCore *k, uint32_t i) {
    JoinElim *je = k->je;
    const JeItem *it = &k->items[i];
    const CatTable *t = it->rel->u.scan.table;
    JeBound b;
    bind_item(k, i, &b);
    SqJeJoin *j = SQ_ARENA_APPEND(je->q->arena, je->res->joins, je->res->n_joins,
                                  je->res->cap_joins);
    j->join = it->join;
    j->item = it->rel;
    j->fans_out = !bound_unique(t, &b);
    if (!b.n && !b.rowid && b.converted) {
        je_put_expr(je, b.converted);
        sq_buf_printf(&je->text, " compares a column of %s after a conversion or under another "
                                 "collation, so it binds no key",
                      je_alias_of(je, it->rel));
    } else if (!b.n && !b.rowid) {
        sq_buf_printf(&je->text, "no equality binds a column of %s", je_alias_of(je, it->rel));
    } else {
        int several = b.n + (b.rowid != NULL) > 1;
        put_bound(je, &b);
        sq_buf_printf(&je->text, " %s a key of %s",
                      j->fans_out ? (several ? "do not cover" : "is not")
                                  : (several ? "cover" : "is"),
                      t->name);
    }
    j->why = je_keep_text(je);
}

/* A foreign key of ta from column ca to column cb of tb. */
static int fk_links(const CatTable *ta, int32_t ca, const CatTable *tb, int32_t cb) {
    for (uint32_t i = 0; i < ta->n_fks; i++) {
        const CatForeignKey *fk = &ta->fks[i];
        if (fk->target != tb || !fk->target_cols) continue;
        for (uint32_t j = 0; j < fk->n_cols; j++)
            if ((int32_t)fk->cols[j] == ca && (int32_t)fk->target_cols[j] == cb) return 1;
    }
    return 0;
}

/* The column a foreign key of t starting at col references, or 0. */
static int fk_target(const CatTable *t, int32_t col, const CatTable **to, uint32_t *to_col) {
    for (uint32_t i = 0; i < t->n_fks; i++) {
        const CatForeignKey *fk = &t->fks[i];
        if (!fk->target || !fk->target_cols) continue;
        for (uint32_t j = 0; j < fk->n_cols; j++)
            if ((int32_t)fk->cols[j] == col) {
                *to = fk->target;
                *to_col = fk->target_cols[j];
                return 1;
            }
    }
    return 0;
}

/* Lower-case letters and digits of s (no '_', no blanks), into out. */
static size_t fold_name(const char *s, char *out, size_t cap) {
    size_t n = 0;
    for (; *s && n + 1 < cap; s++)
        if (*s != '_' && *s != ' ') out[n++] = (char)sq_ascii_lower((unsigned char)*s);
    out[n] = 0;
    return n;
}

/* Whether a column folded to an[0..a) is named after a table folded to
** tn[0..t) and its column folded to bn: "setcode" after "sets" and
** "code" (the table's plural s or es dropped). */
static int folded_after(const char *an, size_t a, const char *tn, size_t t, const char *bn, size_t b) {
    for (int strip = 0; strip <= 2 && strip < (int)t; strip++) { /* sets -> set, classes -> class */
        size_t tl = t - (size_t)strip;
        if (strip && tn[tl] != 's') break;
        if (strip == 2 && tn[tl] != 'e') break;
        if (a == tl + b && strncmp(an, tn, tl) == 0 && strcmp(an + tl, bn) == 0) return 1;
    }
    return 0;
}

/* Whether column a of ta is named after table tb and its column b, as
** foreign keys missing from a schema's metadata usually are: setCode for
** sets.code, stadium_id for stadium.id. */
static int named_after(const CatTable *ta, int32_t ca, const CatTable *tb, int32_t cb) {
    char an[128], tn[128], bn[128];
    size_t a = fold_name(ta->cols[ca].name, an, sizeof an);
    size_t t = fold_name(tb->name, tn, sizeof tn), b = fold_name(tb->cols[cb].name, bn, sizeof bn);
    return folded_after(an, a, tn, t, bn, b);
}

/* Whether folded names an[0..a) and bn[0..b) can both be a table's name
** (less at most "es") and one column's after it: then both end in that
** column's name and start with the shorter table form, so their lengths
** differ by 2 at most and their common head and tail cover the shorter.
** Most pairs fail this, and the schema need not be scanned for them. */
static int could_share_origin(const char *an, size_t a, const char *bn, size_t b) {
    size_t shorter = a < b ? a : b, head = 0, tail = 0;
    if ((a > b ? a - b : b - a) > 2) return 0;
    while (head < shorter && an[head] == bn[head]) head++;
    while (tail < shorter && an[a - 1 - tail] == bn[b - 1 - tail]) tail++;
    return head + tail >= shorter;
}

/* Whether folded name an[0..a) starts with table name tn[0..t) less at
** most its "es", as folded_after needs (the form it tries shortest keeps
** t - 2 letters, and one at least): so that a table whose name cannot
** begin it costs no folding of its columns. */
static int starts_with_table(const char *an, size_t a, const char *tn, size_t t) {
    size_t need = t > 3 ? t - 2 : 1, same = 0;
    if (!t || a < need) return 0;
    while (same < need && an[same] == tn[same]) same++;
    return same == need;
}

/* Whether both columns are named after one column of some table (two
** foreign keys by name to the same key: cards.setCode and
** set_translations.setCode, both after sets.code).  Each name is folded
** once: this runs over every column of the schema. */
static int named_after_same(const Catalog *cat, const CatTable *ta, int32_t ca, const CatTable *tb,
                            int32_t cb) {
    char an[128], bn[128], tn[128], cn[128];
    size_t a = fold_name(ta->cols[ca].name, an, sizeof an), b = fold_name(tb->cols[cb].name, bn, sizeof bn);
    if (!could_share_origin(an, a, bn, b)) return 0;
    for (uint32_t i = 0; cat && i < cat->n_tables; i++) {
        const CatTable *t = cat->tables[i];
        size_t tl = fold_name(t->name, tn, sizeof tn);
        if (!starts_with_table(an, a, tn, tl) || !starts_with_table(bn, b, tn, tl)) continue;
        for (uint32_t c = 0; c < t->n_cols; c++) {
            size_t cl = fold_name(t->cols[c].name, cn, sizeof cn);
            if (folded_after(an, a, tn, tl, cn, cl) && folded_after(bn, b, tn, tl, cn, cl)) return 1;
        }
    }
    return 0;
}

/* An equality is on a key when one side is part of a key, or a foreign
** key relates the two (directly, or both referencing one column), or the
** columns are named as foreign keys are (after the other's table and
** name, or both after one table's column). */
static int keyed(const JoinElim *je, const JeEq *e) {
    const CatTable *ta = ir_rel(je->q, e->col[0]->u.col.rel)->u.scan.table;
    const CatTable *tb = ir_rel(je->q, e->col[1]->u.col.rel)->u.scan.table;
    int32_t ca = column_index(je, e->col[0]), cb = column_index(je, e->col[1]);
    if (in_key(ta, ca) || in_key(tb, cb)) return 1;
    if (ca < 0 || cb < 0) return 0;
    if (fk_links(ta, ca, tb, cb) || fk_links(tb, cb, ta, ca)) return 1;
    if (named_after(ta, ca, tb, cb) || named_after(tb, cb, ta, ca) ||
        named_after_same(je->cat, ta, ca, tb, cb))
        return 1;
    const CatTable *xa, *xb;
    uint32_t ka, kb;
    return fk_target(ta, ca, &xa, &ka) && fk_target(tb, cb, &xb, &kb) && xa == xb && ka == kb;
}

/* The equalities that join item i to an earlier base-table item. */
static uint32_t join_eqs(const JeCore *k, uint32_t i, const SqExprList *l, IrRel *holder,
                         JeEq *out, uint32_t n, uint32_t cap) {
    for (uint32_t j = 0; j < l->n && n < cap; j++) {
        JeEq e;
        if (!je_column_eq(k, l->items[j], holder, &e)) continue;
        uint32_t lo = e.item[0] < e.item[1] ? e.item[0] : e.item[1];
        uint32_t hi = e.item[0] < e.item[1] ? e.item[1] : e.item[0];
        if (hi == i && lo < i) out[n++] = e;
    }
    return n;
}

static void check_non_key(JeCore *k, uint32_t i) {
    JoinElim *je = k->je;
    JeEq eqs[JE_MAX_COLS];
    uint32_t n = join_eqs(k, i, &k->items[i].on, k->items[i].join, eqs, 0, JE_MAX_COLS);
    if (je_is_inner(&k->items[i])) n = join_eqs(k, i, &k->where, k->c.where, eqs, n, JE_MAX_COLS);
    if (!n) return;
    for (uint32_t j = 0; j < n; j++)
        if (keyed(je, &eqs[j])) return;
    SqJeFinding *f = je_add_finding(k, SQ_JE_NON_KEY, k->items[i].join->span, 2 * n);
    f->join = k->items[i].join;
    for (uint32_t j = 0; j < n; j++) {
        je_put_expr(je, eqs[j].cond);
        sq_buf_puts(&je->text, j + 1 < n ? " AND " : "");
        je_add_item(f, k->items[eqs[j].item[0]].rel);
        je_add_item(f, k->items[eqs[j].item[1]].rel);
    }
    sq_buf_printf(&je->text, " joins %s on columns that are in no PRIMARY KEY or UNIQUE key, "
                             "and no foreign key relates them",
                  je_alias_of(je, k->items[i].rel));
    f->reason = je_keep_text(je);
}

/* ------------------------------------------------------------------ */
/* Removable joins                                                     */
/* ------------------------------------------------------------------ */

/* A LEFT JOIN keeps every row of its left side; it adds copies only when
** a row matches several rows.  So when nothing else reads its table and
** its ON binds a key (or copies do not matter), it changes nothing. */
static void check_left(JeCore *k, uint32_t i) {
    JoinElim *je = k->je;
    JeItem *it = &k->items[i];
    JeBound b;
    memset(&b, 0, sizeof b);
    bind_conjuncts(je, it->rel, &it->on, &b);
    int unique = bound_unique(it->rel->u.scan.table, &b);
    if (!unique && !k->set_why) return;
    if (read_elsewhere(je, it->rel, &it->join->u.join.cond, NULL)) return;
    SqJeFinding *f = je_add_finding(k, SQ_JE_REMOVABLE, it->join->span, 1);
    f->is_exact = 1;
    f->join = it->join;
    f->drop = it->rel;
    je_add_item(f, it->rel);
    sq_buf_printf(&je->text, "nothing reads %s outside its ON condition, and ",
                  je_alias_of(je, it->rel));
    if (unique) {
        put_bound(je, &b);
        sq_buf_printf(&je->text, " %s a key of %s, so each row matches at most one row of %s "
                                 "and is kept either way",
                      b.n + (b.rowid != NULL) > 1 ? "cover" : "is", it->rel->u.scan.table->name,
                      je_alias_of(je, it->rel));
    } else {
        sq_buf_printf(&je->text, "the copies of rows a LEFT JOIN can add do not matter: %s",
                      k->set_why);
    }
    f->reason = je_keep_text(je);
}

/* The equalities that give parent p's columns, all to columns of one
** child item; 0 unless every conjunct reading p is such an equality. */
typedef struct JeFk {
    JeEq eqs[JE_MAX_COLS];
    uint32_t n;
    uint32_t child;
    const CatForeignKey *fk;
} JeFk;

static int fk_conjuncts(JeCore *k, uint32_t p, const SqExprList *l, IrRel *holder, int all,
                        JeFk *x) {
    const IrRel *pr = k->items[p].rel;
    for (uint32_t i = 0; i < l->n; i++) {
        JeEq e;
        if (!reads_item(l->items[i], pr)) {
            if (all) return 0; /* the join condition says more than the foreign key */
            continue;
        }
        if (!je_column_eq(k, l->items[i], holder, &e) || x->n == JE_MAX_COLS) return 0;
        int side = e.item[0] == p ? 0 : 1;
        uint32_t child = e.item[1 - side];
        if (e.item[side] != p || child == p || (x->n && child != x->child)) return 0;
        x->child = child;
        if (side == 0) { /* keep the child's column first */
            const SqExpr *t = e.col[0];
            e.col[0] = e.col[1];
            e.col[1] = t;
            e.item[0] = child;
            e.item[1] = p;
        }
        x->eqs[x->n++] = e;
    }
    return 1;
}

/* Whether fk (of the child) is exactly the equalities' column pairs. */
static int fk_matches(const JoinElim *je, const CatForeignKey *fk, const JeFk *x) {
    if (!fk->target_cols || fk->n_cols > JE_MAX_COLS) return 0;
    for (uint32_t i = 0; i < x->n; i++) {
        int32_t cc = column_index(je, x->eqs[i].col[0]), pc = column_index(je, x->eqs[i].col[1]);
        uint32_t j = 0;
        while (j < fk->n_cols && !((int32_t)fk->cols[j] == cc && (int32_t)fk->target_cols[j] == pc))
            j++;
        if (j == fk->n_cols) return 0;
    }
    for (uint32_t j = 0; j < fk->n_cols; j++) {
        uint32_t i = 0;
        while (i < x->n && column_index(je, x->eqs[i].col[0]) != (int32_t)fk->cols[j]) i++;
        if (i == x->n) return 0;
    }
    return 1;
}

/* The foreign key of the child the equalities follow, from columns that
** are never NULL here, to a key of the parent; NULL if none. */
static const CatForeignKey *fk_of(const JeCore *k, uint32_t p, const JeFk *x) {
    const CatTable *child = k->items[x->child].rel->u.scan.table;
    const CatTable *parent = k->items[p].rel->u.scan.table;
    for (uint32_t i = 0; i < x->n; i++)
        if (x->eqs[i].col[0]->type.nullable ||
            !je_plain_comparison(k->je, x->eqs[i].col[0], x->eqs[i].col[1]))
            return NULL;
    for (uint32_t i = 0; i < child->n_fks; i++) {
        const CatForeignKey *fk = &child->fks[i];
        if (fk->target == parent && fk_matches(k->je, fk, x) &&
            sq_table_cols_unique(parent, fk->target_cols, fk->n_cols))
            return fk;
    }
    return NULL;
}

static void put_fk(JoinElim *je, const CatTable *t, const CatForeignKey *fk) {
    sq_buf_printf(&je->text, "%s(", t->name);
    for (uint32_t i = 0; i < fk->n_cols; i++)
        sq_buf_printf(&je->text, "%s%s", i ? ", " : "", t->cols[fk->cols[i]].name);
    sq_buf_printf(&je->text, ") -> %s(", fk->target->name);
    for (uint32_t i = 0; i < fk->n_cols; i++)
        sq_buf_printf(&je->text, "%s%s", i ? ", " : "", fk->target->cols[fk->target_cols[i]].name);
    sq_buf_putc(&je->text, ')');
}

static void report_fk(JeCore *k, uint32_t p, const JeItem *at, const JeFk *x) {
    JoinElim *je = k->je;
    const IrRel *pr = k->items[p].rel, *cr = k->items[x->child].rel;
    SqJeFinding *f = je_add_finding(k, SQ_JE_REMOVABLE, at->join->span, 2);
    f->join = at->join;
    f->drop = k->items[p].rel;
    je_add_item(f, pr);
    je_add_item(f, cr);
    sq_buf_printf(&je->text, "nothing reads %s but ", je_alias_of(je, pr));
    for (uint32_t i = 0; i < x->n; i++) {
        je_put_expr(je, x->eqs[i].cond);
        sq_buf_puts(&je->text, i + 1 < x->n ? " AND " : "");
    }
    sq_buf_puts(&je->text, ", which is the foreign key ");
    put_fk(je, cr->u.scan.table, x->fk);
    sq_buf_printf(&je->text, ", from columns never NULL here to a key of %s: each row of %s "
                             "matches exactly one row of %s, so the join is lossless if the "
                             "foreign key holds (SQLite checks foreign keys only with PRAGMA "
                             "foreign_keys=ON)",
                  pr->u.scan.table->name, je_alias_of(je, cr), je_alias_of(je, pr));
    f->reason = je_keep_text(je);
}

/* Inner join at item j (whose ON holds the equalities, with WHERE) that
** parent p only enters through: a foreign key of a child, never NULL, to
** a key of p makes each child row match exactly one row of p. */
static void check_fk_parent(JeCore *k, uint32_t p, uint32_t j) {
    JeItem *at = &k->items[j];
    JeFk x;
    memset(&x, 0, sizeof x);
    if (!fk_conjuncts(k, p, &at->on, at->join, 1, &x) ||
        !fk_conjuncts(k, p, &k->where, k->c.where, 0, &x) || !x.n)
        return;
    x.fk = fk_of(k, p, &x);
    if (!x.fk) return;
    SqExpr **where = k->c.where ? &k->c.where->u.filter.pred : NULL;
    if (read_elsewhere(k->je, k->items[p].rel, &at->join->u.join.cond, where)) return;
    report_fk(k, p, at, &x);
}

static void removable(JeCore *k, uint32_t i) {
    const JeItem *it = &k->items[i];
    if (it->join->u.join.type == IR_JOIN_LEFT) {
        check_left(k, i);
        return;
    }
    check_fk_parent(k, i, i);
    if (i == 1 && k->items[0].is_scan) check_fk_parent(k, 0, 1);
}

/* ------------------------------------------------------------------ */
/* Aggregates over a join that fans out                                */
/* ------------------------------------------------------------------ */

static int counts_rows(const SqAggItem *it) {
    if (it->kind != SQ_AGG_CALL || it->distinct || !it->def) return 0;
    const char *n = it->def->name;
    return strcmp(n, "count") == 0 || strcmp(n, "sum") == 0 || strcmp(n, "avg") == 0 ||
           strcmp(n, "total") == 0;
}

/* GROUP BY keys that are columns of r, as bound columns. */
static void group_keys(const JoinElim *je, const IrRel *agg, const IrRel *r, JeBound *b) {
    memset(b, 0, sizeof *b);
    for (uint32_t i = 0; i < agg->u.agg.n_items; i++) {
        const SqAggItem *it = &agg->u.agg.items[i];
        if (it->kind != SQ_AGG_KEY || it->expr->kind != SQX_COLUMN || it->expr->u.col.rel != r->id)
            continue;
        if (it->expr->flags & SQXF_ROWID) b->rowid = it->expr;
        else if (column_index(je, it->expr) >= 0 && b->n < JE_MAX_COLS)
            b->cols[b->n++] = (uint32_t)column_index(je, it->expr);
    }
}

static int agg_reads(SqAggItem *it, const IrRel *r) {
    for (uint32_t i = 0; i < it->args.n; i++)
        if (reads_item(it->args.items[i], r)) return 1;
    return 0;
}

static void report_fanout(JeCore *k, SqAggItem *it, const SqJeJoin *j) {
    JoinElim *je = k->je;
    SqJeFinding *f = je_add_finding(k, SQ_JE_FANOUT_AGG, j->join->span, 1);
    f->join = j->join;
    f->agg = it;
    f->repeats = !it->star && !agg_reads(it, j->item);
    je_add_item(f, j->item);
    ir_sql_call(&je->text, it->name, it->distinct, it->star, &it->args, it->filter, &je->nm);
    sq_buf_printf(&je->text, " over a join that fans out: a row can match several rows of %s "
                             "(%s)%s",
                  je_alias_of(je, j->item), j->why,
                  f->repeats ? ", and each copy repeats the values it aggregates" : "");
    f->reason = je_keep_text(je);
}

static void fanout_aggregates(JeCore *k, uint32_t first_join) {
    IrRel *agg = k->c.agg;
    if (!agg) return;
    SqAggItem *it = NULL;
    for (uint32_t i = 0; i < agg->u.agg.n_items && !it; i++)
        if (counts_rows(&agg->u.agg.items[i])) it = &agg->u.agg.items[i];
    if (!it) return;
    for (uint32_t i = first_join; i < k->je->res->n_joins; i++) {
        const SqJeJoin *j = &k->je->res->joins[i];
        JeBound g;
        group_keys(k->je, agg, j->item, &g);
        if (j->fans_out && !bound_unique(j->item->u.scan.table, &g)) report_fanout(k, it, j);
    }
}

/* ------------------------------------------------------------------ */
/* The joins of a core                                                 */
/* ------------------------------------------------------------------ */

void je_check_joins(JeCore *k) {
    uint32_t first_join = k->je->res->n_joins;
    for (uint32_t i = 1; i < k->n_items; i++) {
        if (!analysed(&k->items[i])) continue;
        record_join(k, i);
        check_non_key(k, i);
        removable(k, i);
    }
    fanout_aggregates(k, first_join);
}
