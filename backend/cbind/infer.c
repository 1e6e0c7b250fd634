/*
** infer.c -- a compiled query's signature: its parameters, numbered as
** SQLite numbers them, named and typed from where they are used, and its
** result columns with the types and nullability the binder gave them.
**
** A parameter takes the type of what it meets: the other side of a
** comparison or of arithmetic, the tested value of BETWEEN or IN, TEXT
** as a LIKE pattern, INTEGER as LIMIT or OFFSET.  Its name is the one it
** is written with (":id" is id), else the column it is compared with,
** else p and its number; names are made C identifiers and unique.  A
** parameter none of these rules reaches stays "any", with a warning:
** never a guess.  A table column of NUMERIC affinity, which the binder
** types any, is typed by its declared name for the binding (DATE: TEXT,
** BOOL: INTEGER, DECIMAL: REAL), as a result column, as min or max of
** it, and for a parameter that meets it; the generated code checks each
** value it reads against that type.
**
** Every relation of the query is visited (subqueries' and CTE bodies'
** are in q->rels too), each expression tree from its root, so that a
** parameter is always seen with its parent.
*/
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/cbind/cbind.h"
#include "runtime/strbuf.h"
#include "runtime/util.h"

/* One use of a parameter. */
typedef struct Use {
    const SqExpr *e;
    SqType type;
    int typed;
    const CatTable *table;  /* the table column it meets or fills, or NULL */
    int32_t table_col;
    const char *col_name;   /* else the name of a column it meets, or NULL */
    const char *from;       /* the rule that typed it */
    const char *name;       /* a name the context gives (limit, offset), or NULL */
    int sole_in_item;       /* the only item of an IN list (where a slice may stand) */
} Use;

typedef struct Infer {
    IrQuery *q;
    const SqDmlProbe *dml;  /* a DML statement's probe, or NULL */
    Use *uses;
    size_t n, cap;
} Infer;

static void add_use(Infer *in, Use u) {
    if (in->n == in->cap) in->uses = sq_realloc(in->uses, (in->cap = in->cap ? 2 * in->cap : 16) * sizeof *in->uses);
    in->uses[in->n++] = u;
}

static int is_arithmetic(uint8_t op) {
    return op == AST_OP_ADD || op == AST_OP_SUB || op == AST_OP_MUL || op == AST_OP_DIV || op == AST_OP_MOD;
}

/* The type a binding gives table column c whose binder type is t: a
** column of NUMERIC affinity, which the binder types any, takes the
** class its declared name states (sq_class_of_numeric_decl); the
** generated code checks every value it reads against it. */
static SqType binding_type(SqType t, const CatColumn *c) {
    SqTypeClass cls = t.cls == SQ_TY_ANY && c ? sq_class_of_numeric_decl(c->decl_type) : SQ_TY_ANY;
    if (cls != SQ_TY_ANY) t.cls = (uint8_t)cls;
    return t;
}

/* A parameter typed like other (the thing it meets). */
static Use like(Infer *in, const SqExpr *param, const SqExpr *other, int nullable, const char *from) {
    Use u = {.e = param, .from = from};
    /* an any-typed column or value gives any: that is its type, told */
    if (!other || other->kind == SQX_PARAM || other->type.cls == SQ_TY_NULL) return u;
    u.type = other->type;
    u.type.nullable = (uint8_t)nullable;
    u.typed = 1;
    const SqColumn *c = other->kind == SQX_COLUMN ? ir_column(in->q, other->u.col) : NULL;
    if (c && c->table && c->table_col >= 0) {
        u.table = c->table, u.table_col = c->table_col;
        u.type = binding_type(u.type, &c->table->cols[c->table_col]);
    } else if (c) {
        u.col_name = c->name;
    }
    return u;
}

/* A parameter that is a column's whole value (INSERT, SET): the column's
** type, with the column's nullability. */
static int assigned(const Infer *in, const SqExpr *param, Use *u) {
    for (uint32_t i = 0; in->dml && i < in->dml->n_assigns; i++) {
        const SqAssign *as = &in->dml->assigns[i];
        if (as->param_start != param->span.start) continue;
        const CatColumn *c = &as->table->cols[as->col];
        *u = (Use){.e = param, .typed = 1, .table = as->table, .table_col = (int32_t)as->col,
                   .from = "assignment"};
        u->type = binding_type(sq_type(sq_class_of_affinity((SqAffinity)c->affinity), (SqAffinity)c->affinity,
                                       as->nullable), c);
        return 1;
    }
    return 0;
}

static Use fixed(const SqExpr *param, SqTypeClass cls, const char *from, const char *name) {
    Use u = {.e = param, .typed = 1, .from = from, .name = name};
    u.type = sq_type(cls, cls == SQ_TY_TEXT ? SQ_AFF_TEXT : SQ_AFF_INTEGER, 0);
    return u;
}

/* coalesce(?, x) and ifnull(?, x): typed like the other arguments (the
** first one typed), and NULL is what the parameter is there for. */
static Use in_fallback(Infer *in, const SqExpr *e, const SqExpr *f) {
    Use none = {.e = e};
    const char *name = f->u.func.def ? f->u.func.def->name : NULL;
    if (!name || (strcmp(name, "coalesce") != 0 && strcmp(name, "ifnull") != 0)) return none;
    for (uint32_t i = 0; i < f->u.func.args.n; i++) {
        const SqExpr *other = f->u.func.args.items[i];
        if (other == e || other->kind == SQX_PARAM) continue;
        Use u = like(in, e, other, 1, "coalesce");
        if (u.typed) return u;
    }
    return none;
}

/* The use of param e as a child of parent (NULL: a root). */
static Use use_in(Infer *in, const SqExpr *e, const SqExpr *parent) {
    Use none = {.e = e};
    if (assigned(in, e, &none)) return none;
    if (!parent) return none;
    switch (parent->kind) {
    case SQX_BINARY: {
        const SqExpr *other = parent->u.bin.l == e ? parent->u.bin.r : parent->u.bin.l;
        if (ast_op_is_comparison(parent->op)) return like(in, e, other, 0, "comparison");
        if (is_arithmetic(parent->op)) return like(in, e, other, 0, "arithmetic");
        if (parent->op == AST_OP_CONCAT) return fixed(e, SQ_TY_TEXT, "concatenation", NULL);
        return none;
    }
    case SQX_IS:
        return like(in, e, parent->u.bin.l == e ? parent->u.bin.r : parent->u.bin.l, 1, "comparison");
    case SQX_BETWEEN:
        return like(in, e, parent->u.between.x == e ? parent->u.between.lo : parent->u.between.x, 0, "between");
    case SQX_IN_LIST:
        if (parent->u.in.x != e) {
            Use u = like(in, e, parent->u.in.x, 0, "in");
            u.sole_in_item = parent->u.in.list.n == 1;
            return u;
        }
        return parent->u.in.list.n ? like(in, e, parent->u.in.list.items[0], 0, "in") : none;
    case SQX_LIKE:
        return fixed(e, SQ_TY_TEXT, "like", NULL);
    case SQX_CAST: {   /* CAST(? AS T): bound as T, which it is converted to */
        Use u = {.e = e, .typed = 1, .from = "cast"};
        u.type = sq_type(sq_class_of_affinity((SqAffinity)parent->u.cast.aff), (SqAffinity)parent->u.cast.aff, 0);
        u.typed = u.type.cls != SQ_TY_ANY;
        return u.typed ? u : none;
    }
    case SQX_FUNC:
        return in_fallback(in, e, parent);
    default:
        return none;
    }
}

static void walk(Infer *in, const SqExpr *e, const SqExpr *parent);

static void walk_list(Infer *in, const SqExprList *l, const SqExpr *parent) {
    for (uint32_t i = 0; i < l->n; i++) walk(in, l->items[i], parent);
}

/* Every parameter under e, each with its parent. */
static void walk(Infer *in, const SqExpr *e, const SqExpr *parent) {
    if (!e) return;
    switch (e->kind) {
    case SQX_PARAM: add_use(in, use_in(in, e, parent)); break;
    case SQX_UNARY: case SQX_ISNULL: walk(in, e->u.bin.l, e); break;
    case SQX_BINARY: case SQX_IS: walk(in, e->u.bin.l, e); walk(in, e->u.bin.r, e); break;
    case SQX_LIKE: walk(in, e->u.like.x, e); walk(in, e->u.like.pattern, e); walk(in, e->u.like.escape, e); break;
    case SQX_BETWEEN: walk(in, e->u.between.x, e); walk(in, e->u.between.lo, e); walk(in, e->u.between.hi, e); break;
    case SQX_IN_LIST: walk(in, e->u.in.x, e); walk_list(in, &e->u.in.list, e); break;
    case SQX_IN_SUBQUERY: case SQX_EXISTS: case SQX_SUBQUERY: walk(in, e->u.sub.x, e); break;
    case SQX_CASE:
        walk(in, e->u.cas.operand, e);
        for (uint32_t i = 0; i < e->u.cas.n_arms; i++) {
            walk(in, e->u.cas.arms[i].when, e);
            walk(in, e->u.cas.arms[i].then, e);
        }
        walk(in, e->u.cas.else_, e);
        break;
    case SQX_CAST: walk(in, e->u.cast.x, e); break;
    case SQX_COLLATE: walk(in, e->u.collate.x, e); break;
    case SQX_FUNC: walk_list(in, &e->u.func.args, e); break;
    case SQX_VECTOR: walk_list(in, &e->u.list, e); break;
    default: break;
    }
}

typedef struct RelWalk {
    Infer *in;
    IrRel *rel;
} RelWalk;

static int each_root(SqExpr **slot, void *arg) {
    RelWalk *rw = arg;
    const SqExpr *e = *slot;
    IrRel *r = rw->rel;
    if (e && e->kind == SQX_PARAM && r->kind == IR_LIMIT) {   /* LIMIT ? and OFFSET ? */
        int is_count = slot == &r->u.limit.count;
        add_use(rw->in, fixed(e, SQ_TY_INTEGER, "limit", is_count ? "limit" : "offset"));
        return 0;
    }
    walk(rw->in, e, NULL);
    return 0;
}

/* ---- numbering and naming ------------------------------------------------- */

static int by_position(const void *a, const void *b) {
    const Use *x = a, *y = b;
    return x->e->span.start < y->e->span.start ? -1 : x->e->span.start > y->e->span.start;
}

/* The name of a named parameter (its key without the prefix), or NULL. */
static const char *written_name(const char *key) { return key && key[0] && key[0] != '?' ? key + 1 : NULL; }

const char *sq_cbind_param_key(SqArena *a, const char *w, uint8_t *macro) {
    static const struct { const char *prefix; uint8_t macro; } macros[] = {
        {"sqlc.arg(", SQ_MACRO_ARG}, {"sqlc.narg(", SQ_MACRO_NARG}, {"sqlc.slice(", SQ_MACRO_SLICE},
    };
    *macro = SQ_MACRO_NONE;
    if (!w) return "?";
    for (size_t i = 0; i < SQ_ARRAY_LEN(macros); i++) {
        size_t n = strlen(macros[i].prefix);
        if (strncmp(w, macros[i].prefix, n) != 0) continue;
        const char *s = w + n, *e = w + strlen(w) - 1;   /* e: the ')' */
        while (isspace((unsigned char)*s)) s++;
        while (e > s && isspace((unsigned char)e[-1])) e--;
        *macro = macros[i].macro;
        return sq_arena_printf(a, ":%.*s", (int)(e - s), s);
    }
    return w;
}

/* A C identifier made of s: other characters become '_'. */
static char *c_name(SqArena *a, const char *s) {
    size_t n = strlen(s);
    char *out = sq_arena_alloc(a, n + 2), *p = out;
    if (!n || isdigit((unsigned char)s[0])) *p++ = '_';
    for (size_t i = 0; i < n; i++) *p++ = isalnum((unsigned char)s[i]) ? s[i] : '_';
    *p = '\0';
    return out;
}

/* SQLite's numbering: ? is one more than the largest so far, ?N is N, a
** name keeps the number of its first use. */
static uint32_t number_of(const char *w, uint32_t *max, const SqParamInfo *ps, uint32_t n) {
    if (!strcmp(w, "?")) return ++*max;
    if (w[0] == '?') {
        uint32_t k = (uint32_t)strtoul(w + 1, NULL, 10);
        if (k > *max) *max = k;
        return k;
    }
    for (uint32_t i = 0; i < n; i++)
        if (strcmp(ps[i].key, w) == 0) return ps[i].index;
    return ++*max;
}

static SqParamInfo *param_numbered(SqSignature *sig, uint32_t index) {
    for (uint32_t i = 0; i < sig->n_params; i++)
        if (sig->params[i].index == index) return &sig->params[i];
    return NULL;
}

/* A use's facts into its parameter, the first typed use winning; names
** copied into a (the query's arena does not outlive the call). */
static void merge(SqArena *a, SqParamInfo *p, const Use *u) {
    if (p->from && (p->type.cls != SQ_TY_ANY || !u->typed)) return;
    p->type = u->typed ? u->type : sq_type(SQ_TY_ANY, SQ_AFF_BLOB, 1);
    p->from = u->typed ? u->from : NULL;
    if (u->table) {
        p->table = sq_arena_strdup(a, u->table->name);
        p->column = sq_arena_strdup(a, u->table->cols[u->table_col].name);
    } else if (u->col_name) {
        p->column = sq_arena_strdup(a, u->col_name);
    }
    if (u->name && !p->name) p->name = u->name;
}

static void name_params(SqSignature *sig, SqArena *a) {
    for (uint32_t i = 0; i < sig->n_params; i++) {
        SqParamInfo *p = &sig->params[i];
        const char *base = written_name(p->key);
        if (!base) base = p->name ? p->name : p->column;
        char buf[32];
        if (!base) snprintf(buf, sizeof buf, "p%u", p->index), base = buf;
        p->name = c_name(a, base);
        for (uint32_t j = 0; j < i; j++) {
            if (strcmp(sig->params[j].name, p->name) != 0) continue;
            p->name = sq_arena_printf(a, "%s_%u", p->name, p->index);
            break;
        }
    }
}

static void misplaced_slice(SqDiags *d, const SqExpr *e) {
    SqDiag *g = sq_diag_add(d, SQ_SEV_ERROR, SQ_E_SLICE, e->span,
                            "sqlc.slice() stands for a list of values: it must be the whole list of an IN");
    sq_diag_help(g, "write it as x IN (sqlc.slice(name))");
}

static int by_index(const void *a, const void *b) {
    const SqParamInfo *x = a, *y = b;
    return x->index < y->index ? -1 : x->index > y->index;
}

static void params(Infer *in, SqArena *a, SqDiags *d, SqSignature *sig) {
    if (in->n) qsort(in->uses, in->n, sizeof *in->uses, by_position);
    sig->params = sq_arena_alloc(a, (in->n + 1) * sizeof *sig->params);
    uint32_t max = 0, k = 0;
    for (size_t i = 0; i < in->n; i++) {
        const Use *u = &in->uses[i];
        const char *w = u->e->u.lit.text;
        uint8_t macro;
        const char *key = sq_cbind_param_key(a, w, &macro);
        if (!i || u->e->span.start != in->uses[i - 1].e->span.start)   /* one node met twice: one number */
            k = number_of(key, &max, sig->params, sig->n_params);
        SqParamInfo *p = param_numbered(sig, k);
        if (!p) {
            p = &sig->params[sig->n_params++];
            *p = (SqParamInfo){.index = k, .written = w ? sq_arena_strdup(a, w) : NULL, .span = u->e->span,
                               .macro = macro};
            p->key = key != w ? key : p->written ? p->written : "?";
        }
        merge(a, p, u);
        if (macro == SQ_MACRO_SLICE && !u->sole_in_item) misplaced_slice(d, u->e);
    }
    qsort(sig->params, sig->n_params, sizeof *sig->params, by_index);
    for (uint32_t i = 0; i < sig->n_params; i++) {
        if (sig->params[i].macro == SQ_MACRO_NARG) sig->params[i].type.nullable = 1;
        if (sig->params[i].macro == SQ_MACRO_SLICE) sig->params[i].type.nullable = 0;
    }
    name_params(sig, a);
    for (uint32_t i = 0; i < sig->n_params; i++) {
        if (sig->params[i].type.cls != SQ_TY_ANY || sig->params[i].from) continue;   /* typed, or any by a rule */
        SqDiag *g = sq_diag_add(d, SQ_SEV_WARNING, SQ_W_PARAM_TYPE, sig->params[i].span,
                                "the type of parameter %u (%s) cannot be inferred; it is typed any",
                                sig->params[i].index, sig->params[i].name);
        sq_diag_help(g, "compare it with a column, or CAST it (CAST(? AS INTEGER))");
    }
}

/* ---- result columns ---------------------------------------------------------- */

/* The relation whose columns the query returns: under the operators that
** pass their input's columns on. */
static const IrRel *producer(const IrRel *r) {
    while (r && !r->cols.n && r->input) r = r->input;
    return r;
}

/* The table column output column i of r is, through projections of
** plain column references (subqueries, CTE bodies, views), or NULL. */
static const SqColumn *source_of(IrQuery *q, const IrRel *r, uint32_t i) {
    for (int hops = 0; r && hops < 64; hops++) {
        const SqColumn *c = &r->cols.items[i];
        if (c->table) return c;
        if (r->kind != IR_PROJECT || i >= r->u.project.exprs.n) return NULL;
        const SqExpr *e = r->u.project.exprs.items[i];
        while (e && e->kind == SQX_COLLATE) e = e->u.collate.x;
        if (!e || e->kind != SQX_COLUMN) return NULL;
        const IrRel *src = ir_rel(q, e->u.col.rel);
        if (src && src->kind == IR_AGGREGATE) {   /* a GROUP BY key or a bare column: what it reads */
            const SqAggItem *item = e->u.col.col < src->u.agg.n_items ? &src->u.agg.items[e->u.col.col] : NULL;
            if (!item || item->kind == SQ_AGG_CALL || !item->expr || item->expr->kind != SQX_COLUMN) return NULL;
            e = item->expr;
            src = ir_rel(q, e->u.col.rel);
        }
        const SqColumn *via = ir_column(q, e->u.col);
        if (!via || via->table) return via;
        r = producer(src);
        i = e->u.col.col;
        if (!r || i >= r->cols.n) return NULL;
    }
    return NULL;
}

/* "name" as it was written: double quotes around, each inside doubled. */
static const char *dq_written(SqArena *a, const char *name) {
    SqBuf b = SQ_BUF_INIT;
    sq_buf_putc(&b, '"');
    for (const char *p = name; *p; p++) {
        if (*p == '"') sq_buf_putc(&b, '"');
        sq_buf_putc(&b, *p);
    }
    sq_buf_putc(&b, '"');
    const char *out = sq_arena_strdup(a, b.data);
    sq_buf_free(&b);
    return out;
}

/* SQLite's name for output column i of r: a column written bare (no
** alias) is named as the column it reads is named where it comes from:
** a table's as declared ("SELECT citizenship FROM singer" gives
** "Citizenship"), a subquery's by this same rule, through GROUP BY keys;
** a compound's from its first SELECT;
** the rest as the binder names them (the alias, the expression's text).
** But a "name" that became a string, in the statement's own result list
** (top), is named as written, quotes and all: SQLite names the columns of
** a subquery before it resolves names, and the statement's after. */
static const char *sqlite_name(IrQuery *q, SqArena *a, const IrRel *r, uint32_t i, int depth, int top) {
    const SqColumn *c = &r->cols.items[i];
    if (depth > 32) return c->name;
    if (r->kind == IR_SETOP) {   /* a compound takes its first SELECT's names */
        const IrRel *left = producer(r->u.setop.left);
        return left && i < left->cols.n ? sqlite_name(q, a, left, i, depth + 1, top) : c->name;
    }
    if (c->is_alias || r->kind != IR_PROJECT || i >= r->u.project.exprs.n) return c->name;
    const SqExpr *e = r->u.project.exprs.items[i];
    while (e && e->kind == SQX_COLUMN && !(e->flags & (SQXF_ROWID | SQXF_WIN_REF))) {
        const IrRel *src = ir_rel(q, e->u.col.rel);
        if (!src) break;
        if (src->kind == IR_AGGREGATE) {
            const SqAggItem *item = e->u.col.col < src->u.agg.n_items ? &src->u.agg.items[e->u.col.col] : NULL;
            if (!item || item->kind == SQ_AGG_CALL) break;
            e = item->expr;   /* a GROUP BY key or a bare column: what it reads */
            continue;
        }
        if (src->kind == IR_PROJECT) return sqlite_name(q, a, src, e->u.col.col, depth + 1, 0);
        const SqColumn *read = ir_column(q, e->u.col);
        return read && read->name ? read->name : c->name;
    }
    if (top && e && (e->flags & SQXF_DQ_STRING)) return dq_written(a, c->name);
    return c->name;
}

/* The aggregate call output column i of r reads, with the aggregate in
** *agg, or NULL when it reads none. */
static const SqAggItem *agg_call_of(IrQuery *q, const IrRel *r, uint32_t i, const IrRel **agg) {
    if (r->kind != IR_PROJECT || i >= r->u.project.exprs.n) return NULL;
    const SqExpr *e = r->u.project.exprs.items[i];
    if (!e || e->kind != SQX_COLUMN || !(e->flags & SQXF_AGG_REF)) return NULL;
    *agg = ir_rel(q, e->u.col.rel);
    if (!*agg || (*agg)->kind != IR_AGGREGATE || e->u.col.col >= (*agg)->u.agg.n_items) return NULL;
    const SqAggItem *it = &(*agg)->u.agg.items[e->u.col.col];
    return it->kind == SQ_AGG_CALL ? it : NULL;
}

/* Aggregates that give NULL only on an empty input, or when every value
** of their first argument is NULL: group_concat's separator, even a NULL
** one (read as ''), does not make it NULL. */
static int null_only_when_empty(const char *f) {
    return !strcmp(f, "max") || !strcmp(f, "min") || !strcmp(f, "sum") || !strcmp(f, "avg") ||
           !strcmp(f, "group_concat");
}

/* Whether output column i of r, which the binder types nullable, is an
** aggregate that cannot be NULL: max, min, sum, avg or group_concat of a
** NOT NULL value in a GROUP BY query (a group is never empty), without
** FILTER.  Only the manifest's claim is sharpened; the binder's types
** stay as they are. */
static int group_value_not_null(IrQuery *q, const IrRel *r, uint32_t i) {
    const IrRel *agg;
    const SqAggItem *it = agg_call_of(q, r, i, &agg);
    if (!it || !agg->u.agg.n_keys || it->filter || !it->def || it->args.n < 1 ||
        it->args.n > (strcmp(it->def->name, "group_concat") ? 1u : 2u) || !null_only_when_empty(it->def->name))
        return 0;
    return !it->args.items[0]->type.nullable;
}

/* The table column whose values output column i of r takes when it is
** min(x) or max(x) of one (either gives one of x's values), or NULL. */
static const CatColumn *extreme_of_column(IrQuery *q, const IrRel *r, uint32_t i) {
    const IrRel *agg;
    const SqAggItem *it = agg_call_of(q, r, i, &agg);
    if (!it || !it->def || it->args.n != 1 || (strcmp(it->def->name, "min") && strcmp(it->def->name, "max")))
        return NULL;
    const SqExpr *x = it->args.items[0];
    while (x && x->kind == SQX_COLLATE) x = x->u.collate.x;
    const SqColumn *c = x && x->kind == SQX_COLUMN ? ir_column(q, x->u.col) : NULL;
    return c && c->table && c->table_col >= 0 ? &c->table->cols[c->table_col] : NULL;
}

/* Whether output column i of r is a scalar subquery that always gives
** one row whose value cannot be NULL: an aggregate without GROUP BY,
** HAVING or LIMIT ((SELECT count(*) FROM ...)) gives exactly one row,
** even when its WHERE keeps none. */
static int scalar_one_row_not_null(const IrRel *r, uint32_t i) {
    if (r->kind != IR_PROJECT || i >= r->u.project.exprs.n) return 0;
    const SqExpr *e = r->u.project.exprs.items[i];
    if (!e || e->kind != SQX_SUBQUERY || !e->u.sub.rel) return 0;
    IrRel *top = e->u.sub.rel;
    IrCore c;
    if (!ir_core_split(&top, &c) || !c.agg || c.agg->u.agg.n_keys || c.having || c.limit || !c.project) return 0;
    return c.project->cols.n && !c.project->cols.items[0].type.nullable;
}

/* How many of r's visible columns are results: a DML probe's are
** RETURNING's, before its extras. */
static uint32_t n_results(const IrRel *r, const SqDmlProbe *dml) {
    uint32_t n = 0;
    for (uint32_t i = 0; r && i < r->cols.n; i++) n += !r->cols.items[i].hidden;
    if (!dml) return n;
    return dml->has_returning && n >= dml->n_extra ? n - dml->n_extra : 0;
}

static void columns(IrQuery *q, const SqDmlProbe *dml, SqArena *a, SqSignature *sig) {
    const IrRel *r = producer(q->root);
    uint32_t n = r ? r->cols.n : 0, want = n_results(r, dml);
    sig->cols = sq_arena_alloc(a, (n + 1) * sizeof *sig->cols);
    for (uint32_t i = 0; i < n && sig->n_cols < want; i++) {
        const SqColumn *c = &r->cols.items[i];
        if (c->hidden) continue;
        SqResultInfo *out = &sig->cols[sig->n_cols++];
        *out = (SqResultInfo){.name = sq_arena_strdup(a, sqlite_name(q, a, r, i, 0, 1)), .type = c->type};
        if (out->type.nullable && (group_value_not_null(q, r, i) || scalar_one_row_not_null(r, i)))
            out->type.nullable = 0;
        const SqColumn *from = source_of(q, r, i);
        if (from) c = from;
        if (c->table && c->table_col >= 0) {
            const CatColumn *tc = &c->table->cols[c->table_col];
            out->table = sq_arena_strdup(a, c->table->name);
            out->column = sq_arena_strdup(a, tc->name);
            out->decl_type = tc->decl_type ? sq_arena_strdup(a, tc->decl_type) : NULL;
            out->type = binding_type(out->type, tc);
        } else if (c->table) {
            out->table = sq_arena_strdup(a, c->table->name);
            out->column = "rowid";
            out->decl_type = "INTEGER";
        } else {
            out->type = binding_type(out->type, extreme_of_column(q, r, i));
        }
    }
}

void sq_cbind_infer(IrQuery *q, const SqDmlProbe *dml, SqArena *a, SqDiags *d, SqSignature *sig) {
    memset(sig, 0, sizeof *sig);
    Infer in = {q, dml, NULL, 0, 0};
    for (uint32_t id = 0; id < q->n_rels; id++) {
        if (!q->rels[id]) continue;
        RelWalk rw = {&in, q->rels[id]};
        ir_rel_exprs(q->rels[id], each_root, &rw);
    }
    params(&in, a, d, sig);
    columns(q, dml, a, sig);
    free(in.uses);
}

const char *sq_cbind_type_name(SqType t) {
    return t.cls == SQ_TY_ANY || t.cls == SQ_TY_NULL ? "any" : sq_type_class_name((SqTypeClass)t.cls);
}
