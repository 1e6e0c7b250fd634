/*
** catalog_builtin.c -- the tables every SQLite database has without
** declaring them: the eponymous table-valued functions json_each and
** json_tree.
**
** Layer: frontend.  A query may name them in FROM, with arguments
** (json_each(t.doc, '$.tags')) or without.  They are kept apart from the
** schema's tables (sq_catalog_eponymous), so schema listings and graphs
** do not show them, and a schema table of the same name wins, as in
** SQLite.  Columns as SQLite 3.40 declares them: key, value, type, atom,
** id, parent, fullkey, path, and the hidden argument columns json, root.
*/
#include "frontend/catalog.h"

typedef struct BuiltinCol {
    const char *name, *type;
    uint8_t hidden;
} BuiltinCol;

static const BuiltinCol json_cols[] = {
    {"key", NULL, 0},      {"value", NULL, 0}, {"type", "TEXT", 0},    {"atom", NULL, 0},
    {"id", "INTEGER", 0},  {"parent", "INTEGER", 0}, {"fullkey", "TEXT", 0},
    {"path", "TEXT", 0},   {"json", NULL, 1},  {"root", NULL, 1},
};

static CatTable *make_json_table(Catalog *c, const char *name) {
    CatTable *t = sq_arena_alloc(c->arena, sizeof *t);
    t->name = sq_arena_strdup(c->arena, name);
    t->key = sq_intern_cstr(c->names, name);
    t->is_virtual = 1;
    t->tvf_max_args = 2;
    for (size_t i = 0; i < SQ_ARRAY_LEN(json_cols); i++) {
        CatColumn *col = sq_table_add_column(c, t, json_cols[i].name, json_cols[i].type,
                                             sq_span(0, 0, 0));
        col->hidden = json_cols[i].hidden;
    }
    return t;
}

CatTable *sq_catalog_eponymous(const Catalog *c, const SqName *key) {
    Catalog *m = (Catalog *)c; /* built on first use; the schema is unchanged */
    if (!m->eponymous[0]) {
        m->eponymous[0] = make_json_table(m, "json_each");
        m->eponymous[1] = make_json_table(m, "json_tree");
    }
    for (int i = 0; i < 2; i++)
        if (m->eponymous[i]->key == key) return m->eponymous[i];
    return NULL;
}
