/*
** bind_from.c -- FROM clauses, common table expressions and * expansion.
**
** Layer: frontend.  Follows SQLite's selectExpander(): each FROM item is a
** CTE (innermost WITH first), a catalog table or view, or a subquery bound
** against the enclosing query (not its siblings); then NATURAL joins get
** their USING list and every USING column must exist on both sides
** (sqlite3ProcessJoin); then * and t.* become column references, looked
** up by qualified name so that duplicates are ambiguous exactly when
** SQLite says so.  ON conditions are bound later, with WHERE, because
** SQLite resolves them as part of WHERE.
**
** CTEs are bound once, when first referenced, as SQLite does (a CTE that
** is never used is never checked).  A CTE whose body is a UNION may refer
** to itself directly in the FROM of its recursive terms, once per term.
*/
#include <stdio.h>
#include <string.h>

#include "frontend/bind_int.h"

/* ------------------------------------------------------------------ */
/* Columns of a bound query, named as SQLite names subquery columns    */
/* ------------------------------------------------------------------ */

/* Names must be unique: SQLite appends ":1", ":2", ... to a repeat, after
** taking off a ":digits" ending the name already has. */
static const char *unique_name(Binder *b, const SqColumnList *done, uint32_t n,
                               const char *name) {
    const char *cand = name;
    size_t base = strlen(name);
    size_t j = base ? base - 1 : 0;
    while (j > 0 && name[j] >= '0' && name[j] <= '9') j--;
    if (base && name[j] == ':') base = j;
    for (unsigned k = 1;; k++) {
        int clash = 0;
        for (uint32_t i = 0; i < n && !clash; i++)
            clash = sq_stricmp(done->items[i].name, cand) == 0;
        if (!clash) return cand;
        cand = sq_arena_printf(b->arena, "%.*s:%u", (int)base, name, k);
    }
}

/* The columns of a subquery, view or CTE as SQLite names them
** (sqlite3ColumnsFromExprList): a name that reads TRUE or FALSE becomes
** columnN, and repeats are made unique. */
void bind_query_columns(Binder *b, BndSelect *q, SqColumnList *out) {
    memset(out, 0, sizeof *out);
    for (uint32_t i = 0; i < q->cols.n; i++) {
        if (q->cols.items[i].hidden) continue;
        SqColumn *c = SQ_ARENA_PUSH(b->arena, out);
        *c = q->cols.items[i];
        const char *name = c->name;
        if (sq_stricmp(name, "true") == 0 || sq_stricmp(name, "false") == 0)
            name = sq_arena_printf(b->arena, "column%u", out->n);
        c->name = unique_name(b, out, out->n - 1, name);
        c->key = sq_intern_cstr(b->names, c->name);
        c->is_alias = 0;
    }
}

static void table_columns(Binder *b, const CatTable *t, SqColumnList *out) {
    memset(out, 0, sizeof *out);
    for (uint32_t i = 0; i < t->n_cols; i++) {
        const CatColumn *cc = &t->cols[i];
        SqColumn *c = SQ_ARENA_PUSH(b->arena, out);
        c->name = cc->name;
        c->key = cc->key;
        c->type = sq_type(sq_class_of_affinity((SqAffinity)cc->affinity),
                          (SqAffinity)cc->affinity, !cc->not_null);
        c->hidden = cc->hidden;
        c->table = (CatTable *)t;
        c->table_col = (int32_t)i;
    }
}

/* ------------------------------------------------------------------ */
/* Common table expressions                                            */
/* ------------------------------------------------------------------ */

int bind_with(Binder *b, BndWith **out, const AstWith *ast) {
    BndWith *w = sq_arena_alloc(b->arena, sizeof *w);
    w->recursive = ast->recursive;
    for (uint32_t i = 0; i < ast->n_ctes; i++) {
        const AstCte *c = &ast->ctes[i];
        for (uint32_t k = 0; k < i; k++)
            if (ast->ctes[k].name.key == c->name.key) {
                bind_error(b, SQ_E_CTE, c->name.span, "duplicate WITH table name: %s", c->name.text);
                return 0;
            }
        BndCte *bc = sq_arena_alloc(b->arena, sizeof *bc);
        bc->name = c->name.text;
        bc->key = c->name.key;
        bc->has_col_list = c->cols.n > 0;
        bc->materialized = c->materialized;
        bc->span = c->span;
        *SQ_ARENA_APPEND(b->arena, w->ctes, w->n_ctes, w->cap_ctes) = bc;
    }
    *out = w;
    return 1;
}

BndCte *bind_find_cte(Binder *b, const SqName *key, WithScope **where) {
    for (WithScope *ws = b->with; ws; ws = ws->outer)
        for (uint32_t i = 0; i < ws->with->n_ctes; i++)
            if (ws->with->ctes[i]->key == key) {
                *where = ws;
                return ws->with->ctes[i];
            }
    return NULL;
}

static const AstCte *cte_ast(const WithScope *ws, const BndCte *c) {
    for (uint32_t i = 0; i < ws->with->n_ctes; i++)
        if (ws->with->ctes[i] == c) return &ws->ast->ctes[i];
    return NULL;
}

/* The terms of a compound, left to right; ops[i] joins term i to the
** terms before it. */
static uint32_t compound_terms(const AstSelect *q, const AstSelect **terms,
                               uint8_t *ops, uint32_t max) {
    if (q->kind != AST_SEL_COMPOUND) {
        terms[0] = q;
        ops[0] = 0;
        return 1;
    }
    uint32_t n = compound_terms(q->left, terms, ops, max);
    if (n < max) {
        ops[n] = q->op;
        terms[n++] = q->right;
    }
    return n;
}

static int from_names(const AstSelect *term, const SqName *key) {
    for (uint32_t i = 0; term->from && i < term->from->n; i++) {
        const AstFromItem *it = term->from->items[i];
        if (it->kind == AST_FROM_TABLE && !ast_name_present(&it->schema) &&
            it->name.key == key)
            return 1;
    }
    return 0;
}

/* Which terms of a CTE body are recursive: SQLite scans from the right
** while the compound operator is the last one (UNION or UNION ALL) and the
** term names the CTE in its own FROM. Returns the index of the first
** recursive term, or n when there is none. */
static uint32_t first_recursive_term(const AstSelect *body, const SqName *key,
                                     const AstSelect **terms, uint32_t n) {
    if (body->kind != AST_SEL_COMPOUND ||
        (body->op != AST_SET_UNION && body->op != AST_SET_UNION_ALL))
        return n;
    uint32_t first = n;
    const AstSelect *c = body;
    for (uint32_t i = n; i > 1; i--) {
        if (!from_names(terms[i - 1], key)) break;
        first = i - 1;
        if (c->kind != AST_SEL_COMPOUND || c->left->kind != AST_SEL_COMPOUND ||
            c->left->op != body->op)
            break;
        c = c->left;
    }
    return first;
}

static int cte_columns(Binder *b, BndCte *c, const AstCte *ast, BndSelect *anchor) {
    if (!bind_check_column_collations(b, anchor)) return 0;
    SqColumnList cols;
    bind_query_columns(b, anchor, &cols);
    if (ast->cols.n && ast->cols.n != cols.n) {
        bind_error(b, SQ_E_CTE, ast->name.span, "table %s has %u values for %u columns",
                   c->name, cols.n, ast->cols.n);
        return 0;
    }
    for (uint32_t i = 0; i < ast->cols.n; i++) {
        cols.items[i].name = ast->cols.items[i].text;
        cols.items[i].key = ast->cols.items[i].key;
    }
    c->cols = cols;
    return 1;
}

static BndSelect *bind_terms(Binder *b, const AstSelect **terms, const uint8_t *ops,
                             uint32_t from, uint32_t to, BndSelect *left, Scope *outer);

/* A recursive CTE's rows come from every term, not only the anchor: its
** columns take the union of the terms' types (a class that changes once
** the recursive terms see it can only widen further, so a changed class
** becomes ANY). */
static void widen_recursive_columns(BndCte *c, const BndSelect *body) {
    for (uint32_t i = 0; i < c->cols.n && i < body->cols.n; i++) {
        SqType *t = &c->cols.items[i].type;
        const SqType *u = &body->cols.items[i].type;
        if (u->cls != t->cls) t->cls = SQ_TY_ANY;
        t->nullable |= u->nullable;
    }
}

/* Bind a CTE body: the anchor first (a reference to the CTE there is
** circular), then the recursive terms, each of which may name the CTE once
** in its own FROM, then the body's own ORDER BY and LIMIT. */
static int bind_cte_body(Binder *b, BndCte *c, WithScope *ws, Scope *outer) {
    const AstCte *ast = cte_ast(ws, c);
    const AstSelect *terms[512];
    uint8_t ops[512];
    uint32_t n = compound_terms(ast->select, terms, ops, 512);
    uint32_t first_rec = first_recursive_term(ast->select, c->key, terms, n);
    WithScope *saved_with = b->with;
    BndCte *saved_rec = b->recursive_cte;
    b->with = ws; /* the body sees its own WITH clause and the ones outside */
    c->busy = "circular reference: %s";
    BndSelect *body = NULL;
    if (first_rec == n) {
        body = bind_query(b, ast->select, outer);
        if (body && !cte_columns(b, c, ast, body)) body = NULL;
    } else {
        BndWith *inner = NULL;
        WithScope iws = {b->with, NULL, ast->select->with, 0};
        if (ast->select->with) {
            if (!bind_with(b, &inner, ast->select->with)) goto done;
            iws.with = inner;
            b->with = &iws;
        }
        BndSelect *anchor = bind_terms(b, terms, ops, 0, first_rec, NULL, outer);
        if (anchor && cte_columns(b, c, ast, anchor)) {
            c->recursive = 1;
            c->busy = "multiple recursive references: %s";
            b->recursive_cte = c;
            body = bind_terms(b, terms, ops, first_rec, n, anchor, outer);
            if (body && !bind_tail(b, body, ast->select)) body = NULL;
            if (body) {
                body->with = inner;
                widen_recursive_columns(c, body);
            }
        }
    }
done:
    c->busy = NULL;
    b->recursive_cte = saved_rec;
    b->with = saved_with;
    c->body = body;
    return body != NULL;
}

/* Bind terms [from, to) as a left-deep compound continuing 'left' (NULL:
** the first term starts it).  Terms after the anchor are recursive: each
** may name the CTE being defined once in its FROM. */
static BndSelect *bind_terms(Binder *b, const AstSelect **terms, const uint8_t *ops,
                             uint32_t from, uint32_t to, BndSelect *left, Scope *outer) {
    BndSelect *acc = left;
    for (uint32_t i = from; i < to; i++) {
        BndSelect *term = bind_term(b, terms[i], outer, left != NULL);
        if (!term) return NULL;
        acc = acc ? bind_compound(b, acc, term, ops[i], terms[i]->span) : term;
        if (!acc) return NULL;
    }
    return acc;
}

/* ------------------------------------------------------------------ */
/* FROM items                                                          */
/* ------------------------------------------------------------------ */

static BndSource *new_source(Binder *b, BndSelect *sel, const AstFromItem *it) {
    BndSource *src = SQ_ARENA_APPEND(b->arena, sel->sources, sel->n_sources, sel->cap_sources);
    src->id = bind_new_id(b);
    src->join = it->join;
    src->span = it->span;
    src->join_span = it->join_span;
    if (ast_name_present(&it->alias)) {
        src->alias = it->alias.text;
        src->key = it->alias.key;
        src->flags |= BSF_ALIAS;
    }
    return src;
}

static void name_source(Binder *b, BndSource *src, const char *name) {
    if (src->alias) return;
    src->alias = name;
    src->key = sq_intern_cstr(b->names, name);
}

static int no_such_table(Binder *b, const AstFromItem *it) {
    const AstName *s = &it->schema, *n = &it->name;
    SqDiag *g = ast_name_present(s)
        ? bind_error(b, SQ_E_NO_TABLE, it->span, "no such table: %s.%s", s->text, n->text)
        : bind_error(b, SQ_E_NO_TABLE, n->span, "no such table: %s", n->text);
    const char *cands[512];
    size_t k = 0;
    for (uint32_t i = 0; i < b->cat->n_tables && k < 512; i++) cands[k++] = b->cat->tables[i]->name;
    for (WithScope *ws = b->with; ws; ws = ws->outer)
        for (uint32_t i = 0; i < ws->with->n_ctes && k < 512; i++) cands[k++] = ws->with->ctes[i]->name;
    bind_suggest(g, n->text, cands, k);
    return 0;
}

static int bind_cte_item(Binder *b, BndSelect *sel, BndSource *src, BndCte *c,
                         WithScope *ws, Scope *outer) {
    src->kind = BND_CTE;
    src->cte = c;
    if (c->busy) { /* a reference from inside its own body */
        if (c != b->recursive_cte || sel != b->recursive_term) {
            bind_error(b, SQ_E_CTE, src->span, c->busy, c->name);
            return 0;
        }
        if (b->recursive_used) {
            bind_error(b, SQ_E_CTE, src->span, "multiple references to recursive table: %s",
                       c->name);
            return 0;
        }
        b->recursive_used = 1;
        src->cols = c->cols;
        return 1;
    }
    if (!c->body && !bind_cte_body(b, c, ws, outer)) return 0;
    src->cols = c->cols;
    return 1;
}

static int bind_view_item(Binder *b, BndSource *src, CatTable *t) {
    for (uint32_t i = 0; i < b->n_busy_views; i++)
        if (b->busy_views[i] == t->name || b->view_depth > 64) {
            bind_error(b, SQ_E_BIND_OTHER, src->span, "view %s is circularly defined", t->name);
            return 0;
        }
    const char *busy[65];
    if (b->n_busy_views) memcpy(busy, b->busy_views, b->n_busy_views * sizeof *busy);
    busy[b->n_busy_views] = t->name;
    const char **saved = b->busy_views;
    WithScope *saved_with = b->with;
    b->busy_views = busy;
    b->n_busy_views++;
    b->view_depth++;
    b->with = NULL; /* a view sees only the schema */
    BndSelect *q = bind_query(b, t->view_select, NULL);
    b->with = saved_with;
    b->view_depth--;
    b->n_busy_views--;
    b->busy_views = saved;
    if (!q || !bind_check_column_collations(b, q)) return 0;
    src->kind = BND_SUBQUERY;
    src->flags |= BSF_VIEW;
    src->query = q;
    src->table = t;
    bind_query_columns(b, q, &src->cols);
    if (t->view_cols.n && t->view_cols.n != src->cols.n) {
        bind_error(b, SQ_E_BIND_OTHER, src->span, "expected %u columns for '%s' but got %u",
                   t->view_cols.n, t->name, src->cols.n);
        return 0;
    }
    for (uint32_t i = 0; i < t->view_cols.n && i < src->cols.n; i++) {
        src->cols.items[i].name = t->view_cols.items[i].text;
        src->cols.items[i].key = t->view_cols.items[i].key;
    }
    return 1;
}

static int bind_table_item(Binder *b, BndSelect *sel, const AstFromItem *it, Scope *outer) {
    BndSource *src = new_source(b, sel, it);
    name_source(b, src, it->name.text);
    if (!ast_name_present(&it->schema)) {
        WithScope *ws;
        BndCte *c = bind_find_cte(b, it->name.key, &ws);
        if (c) return bind_cte_item(b, sel, src, c, ws, outer);
    } else if (sq_stricmp(it->schema.text, "main") != 0) {
        return no_such_table(b, it);
    }
    CatTable *t = sq_catalog_table(b->cat, it->name.key);
    if (!t && !ast_name_present(&it->schema)) t = sq_catalog_eponymous(b->cat, it->name.key);
    if (!t) return no_such_table(b, it);
    if ((it->flags & AST_FROMF_TVF) && !t->tvf_max_args) {
        bind_error(b, SQ_E_BIND_OTHER, it->name.span, "'%s' is not a function", t->name);
        return 0;
    }
    if ((it->flags & AST_FROMF_TVF) && it->args.n > t->tvf_max_args) {
        bind_error(b, SQ_E_BIND_OTHER, it->span, "too many arguments on %s() - max %u", t->name,
                   t->tvf_max_args);
        return 0;
    }
    if (it->flags & AST_FROMF_TVF) {
        src->args_ast = &it->args;
        src->flags |= BSF_TVF;
    }
    if (t->view_select) return bind_view_item(b, src, t);
    src->kind = BND_TABLE;
    src->table = t;
    table_columns(b, t, &src->cols);
    return 1;
}

static int bind_subquery_item(Binder *b, BndSelect *sel, const AstFromItem *it,
                              Scope *outer) {
    BndSource *src = new_source(b, sel, it);
    BndSelect *q = bind_query(b, it->select, outer);
    if (!q || !bind_check_column_collations(b, q)) return 0;
    src->kind = BND_SUBQUERY;
    src->query = q;
    name_source(b, src, sq_arena_printf(b->arena, "(subquery-%u)", src->id));
    bind_query_columns(b, q, &src->cols);
    return 1;
}

static int bind_item(Binder *b, BndSelect *sel, const AstFromItem *it, Scope *outer);
static int process_joins(Binder *b, BndSelect *sel);

/* The ON conditions inside a parenthesized join see its own items and the
** queries outside the block, not the block's other items (SQLite binds the
** join as a subquery). */
static int bind_nested_on(Binder *b, BndSelect *q, Scope *outer) {
    Scope ns;
    memset(&ns, 0, sizeof ns);
    ns.outer = outer;
    ns.sel = q;
    ns.clause = CL_WHERE;
    for (uint32_t i = 0; i < q->n_sources; i++) {
        BndSource *src = &q->sources[i];
        if (!src->on_ast) continue;
        src->on = bind_expr(b, &ns, src->on_ast);
        if (!src->on || !bind_need_scalar(b, src->on)) return 0;
    }
    return 1;
}

/* How the item joins the ones before it: ON, USING, NATURAL. */
static void set_join(BndSource *src, const AstFromItem *it) {
    src->using = it->using;
    if (it->flags & AST_FROMF_USING) src->flags |= BSF_USING;
    if (it->join & AST_JT_NATURAL) src->flags |= BSF_NATURAL;
    src->on_ast = it->on;
}

/* (a JOIN b ...): SQLite flattens it when it is the first item with no
** alias and no ON/USING, and takes the one item of a single-item list;
** otherwise it is a subquery over the join. */
static int bind_nested_item(Binder *b, BndSelect *sel, const AstFromItem *it, Scope *outer) {
    const AstFrom *in = it->nested;
    int plain = !ast_name_present(&it->alias) && !it->on && !(it->flags & AST_FROMF_USING);
    if (sel->n_sources == 0 && plain) {
        for (uint32_t i = 0; i < in->n; i++)
            if (!bind_item(b, sel, in->items[i], outer)) return 0;
        return 1;
    }
    if (in->n == 1) {
        AstFromItem one = *in->items[0];
        one.join = it->join;
        one.join_span = it->join_span;
        one.on = it->on;
        one.using = it->using;
        one.flags = (uint16_t)((one.flags & ~AST_FROMF_USING) | (it->flags & AST_FROMF_USING));
        if (ast_name_present(&it->alias)) one.alias = it->alias;
        return bind_item(b, sel, &one, outer);
    }
    BndSource *src = new_source(b, sel, it);
    BndSelect *q = sq_arena_alloc(b->arena, sizeof *q);
    q->kind = AST_SEL_CORE;
    q->span = it->span;
    q->result_id = bind_new_id(b);
    for (uint32_t i = 0; i < in->n; i++)
        if (!bind_item(b, q, in->items[i], outer)) return 0;
    if (!process_joins(b, q) || !bind_nested_on(b, q, outer)) return 0;
    for (uint32_t i = 0; i < q->n_sources; i++)
        for (uint32_t j = 0; j < q->sources[i].cols.n; j++) {
            if (q->sources[i].cols.items[j].hidden) continue;
            sq_expr_list_add(b->arena, &q->results, bind_source_col(b, &q->sources[i], j, it->span));
            SqColumn *c = SQ_ARENA_PUSH(b->arena, &q->cols);
            *c = q->sources[i].cols.items[j];
            if (q->sources[i].flags & BSF_NULLABLE) c->type.nullable = 1;
            if (!c->origin) { /* nested twice: keep the innermost names */
                c->origin = q->sources[i].key;
                c->inner = c->key;
            }
        }
    src->kind = BND_SUBQUERY;
    src->flags |= BSF_NESTED;
    src->query = q;
    name_source(b, src, sq_arena_printf(b->arena, "(subquery-%u)", src->id));
    bind_query_columns(b, q, &src->cols);
    set_join(src, it);
    return 1;
}

static int bind_item(Binder *b, BndSelect *sel, const AstFromItem *it, Scope *outer) {
    int ok;
    switch ((AstFromKind)it->kind) {
    case AST_FROM_TABLE: ok = bind_table_item(b, sel, it, outer); break;
    case AST_FROM_SUBQUERY: ok = bind_subquery_item(b, sel, it, outer); break;
    default: return bind_nested_item(b, sel, it, outer); /* sets its own join */
    }
    if (!ok) return 0;
    set_join(&sel->sources[sel->n_sources - 1], it);
    return 1;
}

/* ------------------------------------------------------------------ */
/* Joins                                                               */
/* ------------------------------------------------------------------ */

/* The first of sources [0, n) with a column of this name (SQLite's
** tableAndColumnIndex); -1 if none. */
static int left_with_column(const BndSelect *sel, uint32_t n, const SqName *key,
                            int skip_hidden, uint32_t *col) {
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < sel->sources[i].cols.n; j++) {
            const SqColumn *c = &sel->sources[i].cols.items[j];
            if (c->key == key && !(skip_hidden && c->hidden)) {
                *col = j;
                return (int)i;
            }
        }
    return -1;
}

static void mark_nullable(BndSelect *sel, uint32_t from, uint32_t to) {
    for (uint32_t i = from; i < to; i++) sel->sources[i].flags |= BSF_NULLABLE;
}

static int natural_using(Binder *b, BndSelect *sel, uint32_t i) {
    BndSource *r = &sel->sources[i];
    if (r->on_ast || (r->flags & BSF_USING)) {
        bind_error(b, SQ_E_JOIN_USING, r->join_span,
                   "a NATURAL join may not have an ON or USING clause");
        return 0;
    }
    AstNameList names = {0};
    for (uint32_t j = 0; j < r->cols.n; j++) {
        const SqColumn *c = &r->cols.items[j];
        uint32_t lc;
        if (c->hidden || left_with_column(sel, i, c->key, 1, &lc) < 0) continue;
        AstName *nm = SQ_ARENA_PUSH(b->arena, &names);
        nm->text = c->name;
        nm->key = c->key;
        nm->span = r->span;
    }
    r->using = names;
    if (names.n) r->flags |= BSF_USING;
    return 1;
}

static int source_col(const BndSource *src, const SqName *key) {
    for (uint32_t j = 0; j < src->cols.n; j++)
        if (src->cols.items[j].key == key) return (int)j;
    return -1;
}

/* USING (x, ...): x must be in the right item and in some item on the
** left; the condition is left.x = right.x for the left-most such item. */
static int using_condition(Binder *b, BndSelect *sel, uint32_t i) {
    BndSource *r = &sel->sources[i];
    SqExpr *cond = NULL;
    for (uint32_t k = 0; k < r->using.n; k++) {
        const AstName *nm = &r->using.items[k];
        int rc = source_col(r, nm->key);
        uint32_t lc;
        int li = left_with_column(sel, i, nm->key, (r->flags & BSF_NATURAL) != 0, &lc);
        if (rc < 0 || li < 0) {
            bind_error(b, SQ_E_JOIN_USING, nm->span,
                       "cannot join using column %s - column not present in both tables",
                       nm->text);
            return 0;
        }
        SqExpr *eq = sq_expr_new(b->arena, SQX_BINARY, nm->span, sq_type(SQ_TY_INTEGER, SQ_AFF_BLOB, 1));
        eq->op = AST_OP_EQ;
        eq->u.bin.l = bind_source_col(b, &sel->sources[li], lc, nm->span);
        eq->u.bin.r = bind_source_col(b, r, (uint32_t)rc, nm->span);
        if (!cond) {
            cond = eq;
        } else {
            SqExpr *and = sq_expr_new(b->arena, SQX_BINARY, nm->span, eq->type);
            and->op = AST_OP_AND;
            and->u.bin.l = cond;
            and->u.bin.r = eq;
            cond = and;
        }
    }
    r->on = cond;
    return 1;
}

static int process_joins(Binder *b, BndSelect *sel) {
    for (uint32_t i = 1; i < sel->n_sources; i++) {
        BndSource *r = &sel->sources[i];
        if ((r->join & AST_JT_NATURAL) && !natural_using(b, sel, i)) return 0;
        if ((r->flags & BSF_USING) && !using_condition(b, sel, i)) return 0;
        if (r->join & AST_JT_LEFT) r->flags |= BSF_NULLABLE;
        if (r->join & AST_JT_RIGHT) mark_nullable(sel, 0, i);
    }
    return 1;
}

int bind_from(Binder *b, BndSelect *sel, const AstSelect *ast, Scope *outer) {
    const AstFrom *f = ast->from;
    for (uint32_t i = 0; f && i < f->n; i++)
        if (!bind_item(b, sel, f->items[i], outer)) return 0;
    return process_joins(b, sel);
}

/* ------------------------------------------------------------------ */
/* * and t.*                                                           */
/* ------------------------------------------------------------------ */

static int using_has(const BndSource *src, const SqName *key) {
    if (!(src->flags & BSF_USING)) return 0;
    for (uint32_t i = 0; i < src->using.n; i++)
        if (src->using.items[i].key == key) return 1;
    return 0;
}

/* SQLite writes t.col for a * column when the FROM has several items,
** except for a column of a USING clause further right when a RIGHT JOIN
** follows: that one stays unqualified so the join's USING rule picks it. */
static int star_qualified(const BndSelect *sel, uint32_t i, const SqName *key) {
    if (sel->n_sources < 2) return 0;
    int ltorj = 0;
    for (uint32_t k = i + 1; k < sel->n_sources; k++) ltorj |= (sel->sources[k].join & AST_JT_RIGHT) != 0;
    if (!ltorj) return 1;
    for (uint32_t k = i + 1; k < sel->n_sources; k++)
        if (using_has(&sel->sources[k], key)) return 0;
    return 1;
}

static void star_item(Binder *b, ResultItem **out, uint32_t *n, uint32_t *cap,
                      const BndSource *src, const SqColumn *c, int qualify, SrcSpan at) {
    AstExpr *x = sq_arena_alloc(b->arena, ast_expr_size(AE_COLUMN));
    x->kind = AE_COLUMN;
    x->span = at;
    x->u.col.column.text = c->name;
    x->u.col.column.key = c->key;
    x->u.col.column.span = at;
    if (qualify) { /* SQLite's expansion writes schema.table.column */
        int in_schema = src->kind == BND_TABLE || (src->flags & BSF_VIEW);
        AstName *q = x->u.col.qual = sq_arena_alloc(b->arena, 2 * sizeof *q);
        x->flags |= AEF_COL_SCHEMA;
        q[0].text = in_schema ? "main" : "*";
        q[0].span = at;
        q[1].text = src->alias;
        q[1].key = src->key;
        q[1].span = at;
    }
    ResultItem *r = SQ_ARENA_APPEND(b->arena, *out, *n, *cap);
    r->ast = x;
    r->span = at;
    r->from_star = 1;
}

/* In a parenthesized join, * leaves out the right-hand copy of a USING
** column, as it does at the top level. */
static int nested_using_copy(const BndSource *src, const SqColumn *c) {
    const BndSelect *q = src->query;
    if (!(src->flags & BSF_NESTED) || !q || !c->origin) return 0;
    for (uint32_t k = 1; k < q->n_sources; k++)
        if (q->sources[k].key == c->origin && using_has(&q->sources[k], c->inner)) return 1;
    return 0;
}

/* Expand one * or t.* (SQLite's selectExpander). */
static int expand_star(Binder *b, BndSelect *sel, const AstResultCol *rc, ResultItem **out,
                       uint32_t *n, uint32_t *cap) {
    const AstName *tname = rc->kind == AST_RC_TABLE_STAR ? &rc->table : NULL;
    int seen = 0;
    for (uint32_t i = 0; i < sel->n_sources; i++) {
        const BndSource *src = &sel->sources[i];
        if (tname && src->key != tname->key) continue;
        for (uint32_t j = 0; j < src->cols.n; j++) {
            const SqColumn *c = &src->cols.items[j];
            if (c->hidden || (!tname && nested_using_copy(src, c))) continue;
            seen = 1;
            if (i > 0 && !tname && using_has(src, c->key)) continue;
            star_item(b, out, n, cap, src, c, star_qualified(sel, i, c->key), rc->span);
        }
    }
    if (seen) return 1;
    if (tname)
        bind_error(b, SQ_E_NO_TABLE, tname->span, "no such table: %s", tname->text);
    else
        bind_error(b, SQ_E_NO_TABLES, rc->span, "no tables specified");
    return 0;
}

int bind_expand_results(Binder *b, BndSelect *sel, const AstSelect *ast,
                        ResultItem **out, uint32_t *n) {
    ResultItem *items = NULL;
    uint32_t cnt = 0, cap = 0;
    items = sq_arena_reserve32(b->arena, items, cnt, &cap, ast->cols.n, sizeof *items);
    for (uint32_t i = 0; i < ast->cols.n; i++) {
        const AstResultCol *rc = &ast->cols.items[i];
        if (rc->kind != AST_RC_EXPR) {
            if (!expand_star(b, sel, rc, &items, &cnt, &cap)) return 0;
            continue;
        }
        ResultItem *r = SQ_ARENA_APPEND(b->arena, items, cnt, cap);
        r->ast = rc->expr;
        r->span = rc->expr->span;
        if (ast_name_present(&rc->alias)) {
            r->alias = rc->alias.text;
            r->alias_key = rc->alias.key;
        }
    }
    *out = items;
    *n = cnt;
    return 1;
}
