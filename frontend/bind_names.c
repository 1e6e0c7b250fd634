/*
** bind_names.c -- resolving a column name, SQLite's way.
**
** Layer: frontend.  bind_column() follows SQLite's lookupName(): search
** the FROM items of the innermost query, then its result-set aliases when
** the clause allows them, then the enclosing queries; a name found in two
** FROM items is ambiguous unless the later one joined USING that column
** (then the left-most wins, or the right-most for RIGHT JOIN); rowid, oid
** and _rowid_ name the rowid of a single table; an unmatched "quoted" name
** is a string and an unmatched bare TRUE or FALSE a boolean.  Also the
** binder's small helpers: errors, ids, span text, suggestions.
*/
#include <stdarg.h>
#include <string.h>

#include "frontend/bind_int.h"

/* ------------------------------------------------------------------ */
/* Helpers                                                             */
/* ------------------------------------------------------------------ */

SqDiag *bind_error(Binder *b, SqDiagCode code, SrcSpan at, const char *fmt, ...) {
    if (b->failed) return NULL;
    b->failed = 1;
    if (b->quiet) return NULL;
    SqBuf m = SQ_BUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    sq_buf_vprintf(&m, fmt, ap);
    va_end(ap);
    SqDiag *g = sq_diag_add(b->diags, SQ_SEV_ERROR, code, at, "%s", sq_buf_str(&m));
    sq_buf_free(&m);
    return g;
}

uint32_t bind_new_id(Binder *b) { return b->next_id++; }

const char *bind_span_text(Binder *b, SrcSpan span) {
    const SqSrc *src = sq_src_get(b->diags->srcs, span.file);
    if (!src || span.end > src->len || span.start > span.end) return "";
    return sq_arena_strndup(b->arena, src->text + span.start, span.end - span.start);
}

void bind_suggest(SqDiag *g, const char *name, const char *const *cands, size_t n) {
    if (!g || !name) return;
    size_t len = strlen(name), cap = len <= 3 ? 1 : len <= 6 ? 2 : 3, best = cap + 1;
    const char *pick = NULL;
    for (size_t i = 0; i < n; i++) {
        if (!cands[i]) continue;
        size_t d = sq_edit_distance(name, len, cands[i], strlen(cands[i]), cap);
        if (d < best) {
            best = d;
            pick = cands[i];
        }
    }
    if (pick) sq_diag_help(g, "did you mean '%s'?", pick);
}

SqExpr *bind_source_col(Binder *b, const BndSource *src, uint32_t i, SrcSpan at) {
    SqType t = src->cols.items[i].type;
    if (src->flags & BSF_NULLABLE) t.nullable = 1;
    SqExpr *e = sq_expr_new(b->arena, SQX_COLUMN, at, t);
    e->u.col.rel = src->id;
    e->u.col.col = i;
    const SqColumn *c = &src->cols.items[i];
    if (src->kind == BND_TABLE && c->table && c->table_col >= 0 &&
        c->table->cols[c->table_col].rowid_alias)
        e->flags |= SQXF_IPK;
    return e;
}

Scope *bind_scope_of(Scope *s, uint32_t rel) {
    for (; s; s = s->outer) {
        if (!s->sel) continue;
        for (uint32_t i = 0; i < s->sel->n_sources; i++)
            if (s->sel->sources[i].id == rel) return s;
    }
    return NULL;
}

void bind_count_ref(Scope *s, Scope *found) {
    for (; s; s = s->outer) {
        s->n_ref++;
        if (s == found) break;
    }
}

/* ------------------------------------------------------------------ */
/* Column lookup                                                       */
/* ------------------------------------------------------------------ */

static int is_rowid_name(const char *s) {
    return sq_stricmp(s, "rowid") == 0 || sq_stricmp(s, "oid") == 0 ||
           sq_stricmp(s, "_rowid_") == 0;
}

/* Which FROM items have a rowid a query can name: rowid tables, and, when
** SQLite is built with SQLITE_ALLOW_ROWID_IN_VIEW (Debian's is), views and
** subqueries too; never CTEs. */
static int has_visible_rowid(const Binder *b, const BndSource *src) {
    if (src->kind == BND_TABLE)
        return src->table && !src->table->without_rowid && !src->table->is_view;
    return b->opt->rowid_in_view && src->kind == BND_SUBQUERY && !(src->flags & BSF_NESTED);
}

static int in_using(const BndSource *src, const SqName *key) {
    if (!(src->flags & BSF_USING)) return 0;
    for (uint32_t i = 0; i < src->using.n; i++)
        if (src->using.items[i].key == key) return 1;
    return 0;
}

/* The state of one lookup across the FROM items of one scope. */
typedef struct Lookup {
    int cnt;                 /* matches (SQLite's cnt) */
    int cnt_tab;             /* tables that matched the qualifier (rowid) */
    const BndSource *match;  /* last match */
    uint32_t col;            /* its column */
    const BndSource *fj[16]; /* FULL JOIN USING matches to coalesce */
    uint32_t fj_col[16];
    int n_fj;
} Lookup;

/* A column of src matched: apply SQLite's USING rules for repeats. */
static void take_match(Lookup *lk, const BndSource *src, uint32_t j, const SqName *key) {
    if (lk->cnt > 0) {
        if (!in_using(src, key)) {
            lk->n_fj = 0; /* a true ambiguity: cnt goes above 1 */
        } else if (!(src->join & AST_JT_RIGHT)) {
            return; /* INNER or LEFT JOIN USING: keep the left-most */
        } else if (!(src->join & AST_JT_LEFT)) {
            lk->cnt = 0; /* RIGHT JOIN USING: the right-most wins */
            lk->n_fj = 0;
        } else if (lk->n_fj < 15) { /* FULL JOIN USING: coalesce them all */
            if (lk->n_fj == 0) {
                lk->fj[0] = lk->match;
                lk->fj_col[0] = lk->col;
                lk->n_fj = 1;
            }
            lk->fj[lk->n_fj] = src;
            lk->fj_col[lk->n_fj++] = j;
        }
    }
    lk->cnt++;
    lk->match = src;
    lk->col = j;
}

/* A schema qualifier: "main" names schema objects (tables and views);
** "*" is what SQLite writes when it expands * over a subquery or CTE. */
static int schema_matches(const AstName *schema, const BndSource *src) {
    if (!ast_name_present(schema)) return 1;
    int in_schema = src->kind == BND_TABLE || (src->flags & BSF_VIEW);
    if (strcmp(schema->text, "*") == 0) return !in_schema;
    return in_schema && sq_stricmp(schema->text, "main") == 0;
}

/* Whether a USING clause inside the parenthesized join names this column
** (SQLite then resolves the name once, to the joined column). */
static int nested_using(const BndSource *src, const SqName *key) {
    const BndSelect *q = src->query;
    for (uint32_t i = 0; q && i < q->n_sources; i++)
        if (in_using(&q->sources[i], key)) return 1;
    return 0;
}

/* A parenthesized join keeps its inner names: t.x and x find the columns
** of its inner items (a repeat is ambiguous unless joined USING).  Returns
** whether anything matched. */
static int search_nested(const BndSource *src, const AstName *tab, const AstName *col,
                         Lookup *lk) {
    int hit = 0;
    for (uint32_t j = 0; j < src->cols.n; j++) {
        const SqColumn *c = &src->cols.items[j];
        if (c->inner != col->key || (ast_name_present(tab) && c->origin != tab->key)) continue;
        take_match(lk, src, j, col->key);
        hit = 1;
        if (!ast_name_present(tab) && nested_using(src, col->key)) break;
    }
    return hit;
}

static void search_sources(const Binder *b, const BndSelect *sel, const AstExpr *e, Lookup *lk) {
    const AstName *tab = ast_col_table(e), *col = &e->u.col.column;
    for (uint32_t i = 0; i < sel->n_sources; i++) {
        const BndSource *src = &sel->sources[i];
        if ((src->flags & BSF_NESTED) &&
            (search_nested(src, tab, col, lk) || !ast_name_present(tab)))
            continue;
        if (ast_name_present(tab)) {
            if (!schema_matches(ast_col_schema(e), src)) continue;
            if (src->key != tab->key) continue;
        }
        int found = 0;
        for (uint32_t j = 0; j < src->cols.n && !found; j++) {
            if (src->cols.items[j].key != col->key) continue;
            take_match(lk, src, j, col->key);
            found = 1;
        }
        if (!found && lk->cnt == 0 && has_visible_rowid(b, src)) {
            lk->cnt_tab++;
            lk->match = src;
        }
    }
}

/* An AS alias of the result list used in WHERE, GROUP BY, HAVING or ORDER
** BY: replaced by a copy of the aliased expression. */
static SqExpr *try_alias(Binder *b, Scope *nc, Scope *top, const AstExpr *e,
                         int *done) {
    const SqName *key = e->u.col.column.key;
    for (uint32_t j = 0; j < nc->n_results; j++) {
        const ResultItem *r = &nc->results[j];
        if (!r->alias || r->alias_key != key || !r->bound) continue;
        *done = 1;
        if (!(nc->flags & SC_ALLOW_AGG) && bind_has_ref(r->bound, SQXF_AGG_REF)) {
            bind_error(b, SQ_E_MISUSE_AGG, e->span, "misuse of aliased aggregate %s",
                       r->alias);
            return NULL;
        }
        if (bind_has_ref(r->bound, SQXF_WIN_REF) &&
            (!(nc->flags & SC_ALLOW_WIN) || nc != top)) {
            bind_error(b, SQ_E_MISUSE_WINDOW, e->span,
                       "misuse of aliased window function %s", r->alias);
            return NULL;
        }
        if (bind_vector_size(r->bound) != 1) {
            bind_error(b, SQ_E_ROW_VALUE, e->span, "row value misused");
            return NULL;
        }
        SqExpr *copy = bind_expr_copy(b, r->bound, nc->clause);
        copy->span = e->span;
        return copy;
    }
    return NULL;
}

static int has_ref_cb(SqExpr *e, void *arg) {
    return e->kind == SQX_COLUMN && (e->flags & *(const uint16_t *)arg) != 0;
}

int bind_has_ref(const SqExpr *e, uint16_t flag) {
    return sq_expr_walk((SqExpr *)e, has_ref_cb, &flag);
}

static SqExpr *coalesce_matches(Binder *b, const Lookup *lk, SrcSpan at) {
    int exists;
    SqExpr *f = sq_expr_new(b->arena, SQX_FUNC, at, sq_type(SQ_TY_ANY, SQ_AFF_BLOB, 1));
    f->u.func.def = sq_func_resolve("coalesce", lk->n_fj, &exists);
    f->u.func.name = "coalesce";
    for (int i = 0; i < lk->n_fj; i++)
        sq_expr_list_add(b->arena, &f->u.func.args, bind_source_col(b, lk->fj[i], lk->fj_col[i], at));
    return f;
}

static SqExpr *unmatched(Binder *b, const AstExpr *e, int cnt) {
    const AstName *col = &e->u.col.column;
    if (cnt == 0 && !ast_name_present(ast_col_table(e))) {
        if (col->quote == AST_Q_DOUBLE && !b->opt->no_dq_strings) {
            SqExpr *s = sq_expr_new(b->arena, SQX_LITERAL, e->span,
                                    sq_type(SQ_TY_TEXT, SQ_AFF_BLOB, 0));
            s->u.lit.vtype = SQ_VAL_TEXT;
            s->u.lit.s = col->text;
            s->u.lit.n = (uint32_t)strlen(col->text);
            s->flags |= SQXF_DQ_STRING;
            return s;
        }
        if (col->quote == AST_Q_NONE &&
            (sq_stricmp(col->text, "true") == 0 || sq_stricmp(col->text, "false") == 0)) {
            SqExpr *v = bind_literal_int(b, sq_stricmp(col->text, "true") == 0, e->span);
            v->flags |= SQXF_BOOL_NAME;
            return v;
        }
    }
    return NULL;
}

/* "it could be t.x or u.x": the FROM items of scope nc that have the
** column, for an ambiguous name. */
static void list_candidates(SqDiag *g, const Scope *nc, const AstExpr *e) {
    SqBuf m = SQ_BUF_INIT;
    uint32_t n = 0;
    for (uint32_t i = 0; nc && nc->sel && i < nc->sel->n_sources; i++) {
        const BndSource *src = &nc->sel->sources[i];
        for (uint32_t j = 0; j < src->cols.n; j++)
            if (src->cols.items[j].key == e->u.col.column.key ||
                src->cols.items[j].inner == e->u.col.column.key) {
                sq_buf_printf(&m, "%s%s.%s", n++ ? ", " : "", src->alias, src->cols.items[j].name);
                break;
            }
    }
    if (n > 1) sq_diag_help(g, "it could be %s; qualify it with the table it comes from",
                            sq_buf_str(&m));
    sq_buf_free(&m);
}

static void no_such_column(Binder *b, Scope *s, const Scope *nc, const AstExpr *e, int cnt) {
    const char *what = cnt == 0 ? "no such column" : "ambiguous column name";
    SqDiagCode code = cnt == 0 ? SQ_E_NO_COLUMN : SQ_E_AMBIGUOUS;
    const AstName *sch = ast_col_schema(e), *tab = ast_col_table(e);
    const char *name = ast_name_present(sch)
        ? sq_arena_printf(b->arena, "%s.%s.%s", sch->text, tab->text, e->u.col.column.text)
        : ast_name_present(tab)
        ? sq_arena_printf(b->arena, "%s.%s", tab->text, e->u.col.column.text)
        : e->u.col.column.text;
    SqDiag *g = bind_error(b, code, e->span, "%s: %s", what, name);
    if (g && cnt > 1) list_candidates(g, nc, e);
    if (!g || cnt != 0) return;
    const char *cands[256];
    size_t n = 0;
    for (Scope *sc = s; sc && n < 256; sc = sc->outer)
        for (uint32_t i = 0; sc->sel && i < sc->sel->n_sources; i++)
            for (uint32_t j = 0; j < sc->sel->sources[i].cols.n && n < 256; j++)
                cands[n++] = sc->sel->sources[i].cols.items[j].name;
    bind_suggest(g, e->u.col.column.text, cands, n);
}

SqExpr *bind_column(Binder *b, Scope *s, const AstExpr *e) {
    const AstName *tab = ast_col_table(e);
    Scope *top = s;
    Lookup lk;
    memset(&lk, 0, sizeof lk);
    Scope *nc = s;
    for (; nc; nc = nc->outer) {
        memset(&lk, 0, sizeof lk);
        if (nc->sel) search_sources(b, nc->sel, e, &lk);
        if (lk.cnt == 0 && lk.cnt_tab == 1 && lk.match &&
            is_rowid_name(e->u.col.column.text)) {
            bind_count_ref(top, nc);
            SqExpr *r = sq_expr_new(b->arena, SQX_COLUMN, e->span,
                                    sq_type(SQ_TY_INTEGER, SQ_AFF_INTEGER, 0));
            r->u.col.rel = lk.match->id;
            r->u.col.col = lk.match->cols.n; /* one past the columns: the rowid */
            r->flags |= SQXF_ROWID;
            return r;
        }
        if (lk.cnt == 0 && (nc->flags & SC_UELIST) && !ast_name_present(tab)) {
            int done = 0;
            SqExpr *a = try_alias(b, nc, top, e, &done);
            if (done) return a;
        }
        if (lk.cnt) break;
    }
    if (lk.cnt == 1) {
        bind_count_ref(top, nc);
        return bind_source_col(b, lk.match, lk.col, e->span);
    }
    if (lk.cnt > 1 && lk.n_fj == lk.cnt) {
        bind_count_ref(top, nc);
        return coalesce_matches(b, &lk, e->span);
    }
    SqExpr *lit = unmatched(b, e, lk.cnt);
    if (lit) return lit;
    no_such_column(b, s, nc, e, lk.cnt);
    return NULL;
}
