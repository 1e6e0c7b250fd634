/*
** catalog.c -- building a catalog from CREATE statements.
**
** Layer: frontend.  Follows SQLite's rules for what a declaration means:
** affinity from the declared type, INTEGER PRIMARY KEY as the rowid alias
** (not when written DESC as a column constraint, not in WITHOUT ROWID
** tables), primary-key columns NOT NULL only in WITHOUT ROWID tables, and
** a UNIQUE index making its columns a key.
*/
#include "frontend/catalog.h"

#include <stdlib.h>
#include <string.h>

#include "grammar/parse.h"

/* ------------------------------------------------------------------ */
/* Tables and columns                                                  */
/* ------------------------------------------------------------------ */

Catalog *sq_catalog_new(SqInterner *names, const char *origin) {
    Catalog *c = sq_calloc(1, sizeof *c);
    c->arena = sq_arena_new();
    c->names = names;
    c->origin = origin ? sq_arena_strdup(c->arena, origin) : NULL;
    c->n_slots = 64;
    c->slots = sq_arena_alloc(c->arena, c->n_slots * sizeof *c->slots);
    return c;
}

void sq_catalog_free(Catalog *c) {
    if (!c) return;
    sq_arena_free(c->arena);
    free(c);
}

CatTable *sq_catalog_table(const Catalog *c, const SqName *key) {
    uint32_t mask = c->n_slots - 1, i = key->hash & mask;
    for (; c->slots[i]; i = (i + 1) & mask)
        if (c->slots[i]->key == key) return c->slots[i];
    return NULL;
}

uint32_t sq_catalog_pos(const Catalog *c, const CatTable *t) {
    uint32_t i = 0;
    while (i < c->n_tables && c->tables[i] != t) i++;
    return i;
}

int sq_catalog_is_stored(const CatTable *t) {
    return !t->is_view && !t->is_virtual && !t->tvf_max_args && t->n_cols > 0;
}

static void slot_insert(CatTable **slots, uint32_t n_slots, CatTable *t) {
    uint32_t mask = n_slots - 1, i = t->key->hash & mask;
    while (slots[i]) i = (i + 1) & mask;
    slots[i] = t;
}

CatTable *sq_catalog_add_table(Catalog *c, const char *name, SrcSpan span) {
    if ((c->n_tables + 1) * 2 > c->n_slots) {
        uint32_t n = c->n_slots * 2;
        CatTable **slots = sq_arena_alloc(c->arena, n * sizeof *slots);
        for (uint32_t i = 0; i < c->n_tables; i++) slot_insert(slots, n, c->tables[i]);
        c->slots = slots;
        c->n_slots = n;
    }
    CatTable *t = sq_arena_alloc(c->arena, sizeof *t);
    t->name = sq_arena_strdup(c->arena, name);
    t->key = sq_intern_cstr(c->names, name);
    t->span = span;
    *SQ_ARENA_APPEND(c->arena, c->tables, c->n_tables, c->cap_tables) = t;
    slot_insert(c->slots, c->n_slots, t);
    return t;
}

int sq_table_column(const CatTable *t, const SqName *key) {
    for (uint32_t i = 0; i < t->n_cols; i++)
        if (t->cols[i].key == key) return (int)i;
    return -1;
}

CatColumn *sq_table_add_column(Catalog *c, CatTable *t, const char *name,
                               const char *decl_type, SrcSpan span) {
    CatColumn *col = SQ_ARENA_APPEND(c->arena, t->cols, t->n_cols, t->cap_cols);
    col->name = sq_arena_strdup(c->arena, name);
    col->key = sq_intern_cstr(c->names, name);
    col->decl_type = decl_type ? sq_arena_strdup(c->arena, decl_type) : NULL;
    col->affinity = (uint8_t)sq_affinity_of_decl(decl_type);
    col->span = span;
    return col;
}

int sq_table_cols_unique(const CatTable *t, const uint32_t *cols, uint32_t n) {
    for (uint32_t k = 0; k < t->n_keys; k++) {
        const CatKey *key = &t->keys[k];
        uint32_t found = 0;
        for (uint32_t i = 0; i < key->n_cols; i++)
            for (uint32_t j = 0; j < n; j++)
                if (cols[j] == key->cols[i]) {
                    found++;
                    break;
                }
        if (key->n_cols > 0 && found == key->n_cols) return 1;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* CREATE TABLE                                                        */
/* ------------------------------------------------------------------ */

static CatKey *add_key(Catalog *c, CatTable *t, int is_pk) {
    CatKey *k = SQ_ARENA_APPEND(c->arena, t->keys, t->n_keys, t->cap_keys);
    k->is_pk = (uint8_t)is_pk;
    if (is_pk && t->n_keys > 1) { /* keep the primary key first */
        CatKey pk = *k;
        memmove(&t->keys[1], &t->keys[0], (t->n_keys - 1) * sizeof *k);
        t->keys[0] = pk;
        k = &t->keys[0];
    }
    return k;
}

static int has_pk(const CatTable *t) { return t->n_keys > 0 && t->keys[0].is_pk; }

static void key_add_col(Catalog *c, CatKey *k, uint32_t col) {
    *SQ_ARENA_APPEND(c->arena, k->cols, k->n_cols, k->cap_cols) = col;
}

static int is_integer_type(const char *decl) {
    return decl && sq_stricmp(decl, "INTEGER") == 0;
}

/* Mark the primary key made of the given columns. */
static void set_primary_key(Catalog *c, CatTable *t, const uint32_t *cols,
                            uint32_t n, int desc_column_constraint,
                            SrcSpan at, SqDiags *diags) {
    if (has_pk(t)) {
        sq_diag_add(diags, SQ_SEV_ERROR, SQ_E_MULTI_PK, at,
                    "table '%s' has more than one primary key", t->name);
        return;
    }
    CatKey *k = add_key(c, t, 1);
    for (uint32_t i = 0; i < n; i++) {
        key_add_col(c, k, cols[i]);
        t->cols[cols[i]].pk = (uint8_t)(i + 1);
    }
    if (n == 1) {
        CatColumn *col = &t->cols[cols[0]];
        col->unique = 1;
        if (is_integer_type(col->decl_type) && !desc_column_constraint) {
            col->rowid_alias = 1;
            col->not_null = 1;
        }
    }
}

static void add_unique(Catalog *c, CatTable *t, const uint32_t *cols, uint32_t n) {
    CatKey *k = add_key(c, t, 0);
    for (uint32_t i = 0; i < n; i++) key_add_col(c, k, cols[i]);
    if (n == 1) t->cols[cols[0]].unique = 1;
}

/* Column indexes of an indexed-column list; -1 entries are reported. */
static uint32_t order_cols(Catalog *c, CatTable *t, const AstOrderList *l,
                           uint32_t *out, SqDiags *diags) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < l->n && n < 64; i++) {
        const AstExpr *e = l->items[i].expr;
        while (e->kind == AE_COLLATE) e = e->u.collate.x;
        int idx = e->kind == AE_COLUMN && !ast_name_present(ast_col_table(e))
                      ? sq_table_column(t, e->u.col.column.key) : -1;
        if (idx < 0) {
            if (e->kind == AE_COLUMN)
                sq_diag_add(diags, SQ_SEV_ERROR, SQ_E_KEY_COLUMN, e->span,
                            "table '%s' has no column named '%s'", t->name,
                            e->u.col.column.text);
            continue; /* an expression in an index: not a key column */
        }
        out[n++] = (uint32_t)idx;
    }
    (void)c;
    return n;
}

static void fk_from_ast(Catalog *c, CatForeignKey *fk, const AstForeignKey *a) {
    fk->ref_table = a->table.text;
    fk->ref_key = a->table.key;
    for (uint32_t i = 0; i < a->cols.n; i++)
        *SQ_ARENA_APPEND(c->arena, fk->ref_cols, fk->n_ref_cols, fk->cap_ref_cols) =
            a->cols.items[i].text;
}

/* Keep a CHECK constraint's expression as its source text, for the
** passes that re-read it against the table (the SMT lowering). */
static void add_check(Catalog *c, CatTable *t, const AstExpr *e, const SqDiags *diags) {
    const SqSrc *src = e && diags->srcs ? sq_src_get(diags->srcs, e->span.file) : NULL;
    if (!src || e->span.end > src->len || e->span.start > e->span.end) return;
    *SQ_ARENA_APPEND(c->arena, t->checks, t->n_checks, t->cap_checks) =
        sq_arena_strndup(c->arena, src->text + e->span.start, e->span.end - e->span.start);
}

static void apply_column_cons(Catalog *c, CatTable *t, uint32_t ci,
                              const AstColumnDef *d, SqDiags *diags) {
    for (uint32_t k = 0; k < d->n_cons; k++) {
        const AstColCons *cc = &d->cons[k];
        switch ((AstColConsKind)cc->kind) {
        case AST_CC_PRIMARY_KEY:
            set_primary_key(c, t, &ci, 1, cc->dir == AST_SORT_DESC, cc->span, diags);
            break;
        case AST_CC_NOT_NULL: t->cols[ci].not_null = 1; break;
        case AST_CC_UNIQUE: add_unique(c, t, &ci, 1); break;
        case AST_CC_COLLATE:
            t->cols[ci].collation = cc->collation.text;
            break;
        case AST_CC_DEFAULT: t->cols[ci].default_value = cc->expr; break;
        case AST_CC_CHECK: add_check(c, t, cc->expr, diags); break;
        case AST_CC_REFERENCES: {
            CatForeignKey *fk = SQ_ARENA_APPEND(c->arena, t->fks, t->n_fks, t->cap_fks);
            *SQ_ARENA_APPEND(c->arena, fk->cols, fk->n_cols, fk->cap_cols) = ci;
            fk_from_ast(c, fk, &cc->fk);
            break;
        }
        default: break;
        }
    }
}

static void apply_table_cons(Catalog *c, CatTable *t, const AstTableCons *tc,
                             SqDiags *diags) {
    uint32_t cols[64];
    uint32_t n = 0;
    if (tc->kind == AST_TC_PRIMARY_KEY || tc->kind == AST_TC_UNIQUE)
        n = order_cols(c, t, &tc->cols, cols, diags);
    if (tc->kind == AST_TC_PRIMARY_KEY && n) set_primary_key(c, t, cols, n, 0, tc->span, diags);
    if (tc->kind == AST_TC_UNIQUE && n) add_unique(c, t, cols, n);
    if (tc->kind == AST_TC_CHECK) add_check(c, t, tc->check, diags);
    if (tc->kind != AST_TC_FOREIGN_KEY) return;
    CatForeignKey *fk = SQ_ARENA_APPEND(c->arena, t->fks, t->n_fks, t->cap_fks);
    for (uint32_t i = 0; i < tc->fk_cols.n; i++) {
        int idx = sq_table_column(t, tc->fk_cols.items[i].key);
        if (idx < 0) {
            sq_diag_add(diags, SQ_SEV_ERROR, SQ_E_KEY_COLUMN, tc->fk_cols.items[i].span,
                        "table '%s' has no column named '%s'", t->name,
                        tc->fk_cols.items[i].text);
            continue;
        }
        *SQ_ARENA_APPEND(c->arena, fk->cols, fk->n_cols, fk->cap_cols) = (uint32_t)idx;
    }
    fk_from_ast(c, fk, &tc->fk);
}

static CatTable *new_named_table(Catalog *c, const AstName *name, SrcSpan span,
                                 SqDiags *diags) {
    if (sq_catalog_table(c, name->key)) {
        sq_diag_add(diags, SQ_SEV_ERROR, SQ_E_DUP_TABLE, name->span,
                    "table '%s' is declared twice", name->text);
        return NULL;
    }
    return sq_catalog_add_table(c, name->text, span);
}

static void apply_create_table(Catalog *c, const AstStmt *s, SqDiags *diags) {
    const AstCreateTable *ct = s->u.create_table;
    CatTable *t = new_named_table(c, &ct->name, s->span, diags);
    if (!t) return;
    t->without_rowid = (ct->flags & AST_TBL_WITHOUT_ROWID) != 0;
    t->strict = (ct->flags & AST_TBL_STRICT) != 0;
    if (ct->as_select) { /* columns come from the query when it is bound */
        t->view_select = ct->as_select;
        return;
    }
    for (uint32_t i = 0; i < ct->n_cols; i++) {
        const AstColumnDef *d = &ct->cols[i];
        if (sq_table_column(t, d->name.key) >= 0) {
            sq_diag_add(diags, SQ_SEV_ERROR, SQ_E_DUP_COLUMN, d->name.span,
                        "duplicate column name '%s' in table '%s'", d->name.text, t->name);
            continue;
        }
        char *type = NULL; /* as SQLite records it */
        if (d->type.text) sq_decl_type_stored(d->type.text, type = sq_arena_alloc(c->arena, strlen(d->type.text) + 1));
        CatColumn *col = sq_table_add_column(c, t, d->name.text, type, d->span);
        if (t->strict && d->type.text && sq_stricmp(d->type.text, "ANY") == 0)
            col->affinity = SQ_AFF_BLOB; /* a STRICT ANY column keeps values as given */
        apply_column_cons(c, t, t->n_cols - 1, d, diags);
    }
    for (uint32_t i = 0; i < ct->n_cons; i++) apply_table_cons(c, t, &ct->cons[i], diags);
    if (t->without_rowid) { /* WITHOUT ROWID: PK columns are NOT NULL, no rowid alias */
        for (uint32_t i = 0; i < t->n_cols; i++) {
            if (t->cols[i].pk) t->cols[i].not_null = 1;
            t->cols[i].rowid_alias = 0;
        }
    }
}

static void apply_create_view(Catalog *c, const AstStmt *s, SqDiags *diags) {
    const AstCreateView *v = s->u.create_view;
    CatTable *t = new_named_table(c, &v->name, s->span, diags);
    if (!t) return;
    t->is_view = 1;
    t->view_select = v->select;
    t->view_cols = v->cols;
}

static void apply_create_index(Catalog *c, const AstStmt *s, SqDiags *diags) {
    const AstCreateIndex *ix = s->u.create_index;
    CatTable *t = sq_catalog_table(c, ix->table.key);
    if (!t) {
        sq_diag_add(diags, SQ_SEV_ERROR, SQ_E_INDEX_TABLE, ix->table.span,
                    "index '%s' is on table '%s', which is not declared",
                    ix->name.text, ix->table.text);
        return;
    }
    if (!ix->unique || ix->where) return; /* only full unique indexes make keys */
    uint32_t cols[64];
    uint32_t n = order_cols(c, t, &ix->cols, cols, diags);
    if (n == ix->cols.n && n > 0) add_unique(c, t, cols, n);
}

/* Virtual tables: FTS and R*Tree arguments that are plain words name the
** columns; options (with '=') do not. */
static void apply_create_vtab(Catalog *c, const AstStmt *s, SqDiags *diags) {
    CatTable *t = new_named_table(c, &s->u.vtab.name, s->span, diags);
    if (!t) return;
    t->is_virtual = 1;
    for (uint32_t i = 0; i < s->u.vtab.n_args; i++) {
        const char *a = s->u.vtab.args[i];
        if (strchr(a, '=')) continue;
        size_t n = strcspn(a, " \t\r\n");
        char *word = sq_arena_strndup(c->arena, a, n);
        if (sq_table_column(t, sq_intern_cstr(c->names, word)) < 0)
            sq_table_add_column(c, t, word, n < strlen(a) ? a + n + 1 : NULL, s->span);
    }
}

void sq_catalog_apply(Catalog *c, const AstStmt *s, SqDiags *diags) {
    switch ((AstStmtKind)s->kind) {
    case AST_STMT_CREATE_TABLE: apply_create_table(c, s, diags); break;
    case AST_STMT_CREATE_VIEW: apply_create_view(c, s, diags); break;
    case AST_STMT_CREATE_INDEX: apply_create_index(c, s, diags); break;
    case AST_STMT_CREATE_VTAB: apply_create_vtab(c, s, diags); break;
    default: break;
    }
}

size_t sq_catalog_load_ddl(Catalog *c, const SqSrc *src, SqDiags *diags) {
    size_t before = diags->n_errors;
    SqParser *p = sq_parser_new(src, c->names, diags);
    SqParseResult r;
    SqParseStatus st;
    while ((st = sq_parser_next(p, c->arena, &r)) != SQ_PARSE_END)
        if (st == SQ_PARSE_OK) sq_catalog_apply(c, r.stmt, diags);
    sq_parser_free(p);
    return diags->n_errors - before;
}

/* ------------------------------------------------------------------ */
/* Foreign keys                                                        */
/* ------------------------------------------------------------------ */

static void link_fk(Catalog *c, CatTable *t, CatForeignKey *fk, SqDiags *diags) {
    fk->target = sq_catalog_table(c, fk->ref_key);
    if (!fk->target) {
        sq_diag_add(diags, SQ_SEV_WARNING, SQ_W_FK_TARGET, t->span,
                    "a foreign key of '%s' references table '%s', which is not declared",
                    t->name, fk->ref_table);
        return;
    }
    CatTable *g = fk->target;
    fk->target_cols = sq_arena_alloc(c->arena, (fk->n_cols ? fk->n_cols : 1) * sizeof(uint32_t));
    for (uint32_t i = 0; i < fk->n_cols; i++) {
        int idx = -1;
        if (i < fk->n_ref_cols) idx = sq_table_column(g, sq_intern_cstr(c->names, fk->ref_cols[i]));
        else if (has_pk(g) && i < g->keys[0].n_cols) idx = (int)g->keys[0].cols[i];
        if (idx < 0) {
            sq_diag_add(diags, SQ_SEV_WARNING, SQ_W_FK_TARGET, t->span,
                        "a foreign key of '%s' references a column of '%s' that is not declared",
                        t->name, g->name);
            fk->target = NULL;
            return;
        }
        fk->target_cols[i] = (uint32_t)idx;
    }
}

void sq_catalog_link(Catalog *c, SqDiags *diags) {
    for (uint32_t i = 0; i < c->n_tables; i++) {
        CatTable *t = c->tables[i];
        for (uint32_t k = 0; k < t->n_fks; k++) link_fk(c, t, &t->fks[k], diags);
    }
}
