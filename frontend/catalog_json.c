/*
** catalog_json.c -- load a catalog from a Spider/BIRD tables.json entry.
**
** Layer: frontend.  Takes a tables.json document parsed with runtime/json.h
** (so every table and column keeps the position of its name in the file)
** and one db_id; gives the same Catalog a DDL file would.  Owns nothing
** beyond what it adds to the catalog's arena.
**
** The format (Spider's and BIRD's releases):
**   table_names_original   ["Name", ...]
**   column_names_original  [[table index, "name"], ...]; index -1 is "*"
**   column_types           one word per column, parallel to the above
**   primary_keys           column indexes, or lists of them (composite)
**   foreign_keys           [[column, referenced column], ...]
**
** Column types.  Spider gives a category, not the declared type; BIRD gives
** a SQLite type name.  Categories map to a declared type whose SQLite
** affinity is that of the types Spider's own converter put in the category
** (checked against the 20 Spider dev databases):
**   text    -> TEXT      (VARCHAR, CHAR, TEXT: TEXT affinity)
**   number  -> NUMERIC   (INT, INTEGER, REAL, DECIMAL, FLOAT: INTEGER, REAL
**                         and NUMERIC affinity; NUMERIC stores integers as
**                         INTEGER and decimals as REAL and compares like all
**                         three)
**   time    -> DATETIME  (DATETIME, DATE, TIMESTAMP: NUMERIC affinity.  Not
**                         TEXT: a TEXT column compares '2010' with 2010
**                         differently than the real databases do; the name
**                         also keeps the "date" meaning for later passes)
**   boolean -> BOOLEAN   (NUMERIC affinity, as BOOL/BOOLEAN columns have)
**   others  -> NUMERIC   (in Spider dev these are BOOL columns: NUMERIC)
** Any other word (BIRD's integer, real, text, date, datetime) is taken as
** the declared type itself, and SQLite's affinity rules apply to it.
**
** Keys.  All primary-key columns of one table form its primary key, whether
** written as a list or (older Spider files) as separate indexes.  A
** single-column INTEGER key is the rowid alias, as INTEGER PRIMARY KEY is.
**
** Foreign keys.  Each [column, referenced column] pair is one single-column
** foreign key, except that pairs from one table to another whose
** referenced columns are exactly that table's composite primary key form
** one multi-column key.  Grouping every pair between two tables would be
** wrong: flights(SourceAirport) and flights(DestAirport) both reference
** airports(AirportCode) as two keys, and the real files are full of such
** cases.  Duplicate pairs are dropped.
*/
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/catalog.h"

/* The state of loading one entry. */
typedef struct TjLoad {
    Catalog *cat;         /* being filled (not owned) */
    const SqSrc *src;     /* the tables.json text, for spans */
    SqDiags *diags;
    const char *db_id;    /* for messages */
    CatTable **tables;    /* by table index; NULL for a rejected table */
    uint32_t n_tables;
    int32_t *col_table;   /* by column index: table index, -1 for none */
    int32_t *col_pos;     /* by column index: position in its table */
    uint32_t n_cols;
} TjLoad;

/* A foreign-key pair in column indexes of the entry. */
typedef struct TjPair {
    uint32_t from, to;
    uint8_t used;         /* already part of a key */
} TjPair;

/* ------------------------------------------------------------------ */
/* Helpers                                                             */
/* ------------------------------------------------------------------ */

static SrcSpan span_of(const TjLoad *l, const SqJson *v) {
    return sq_span(l->src->id, v->start, v->end);
}

/* An E0206 error at v about this entry; returns -1. */
SQ_PRINTF(3, 4)
static int bad(TjLoad *l, const SqJson *v, const char *fmt, ...) {
    SqBuf m = SQ_BUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    sq_buf_vprintf(&m, fmt, ap);
    va_end(ap);
    sq_diag_add(l->diags, SQ_SEV_ERROR, SQ_E_SCHEMA, span_of(l, v),
                "tables.json entry '%s': %s", l->db_id, sq_buf_str(&m));
    sq_buf_free(&m);
    return -1;
}

static int is_index(const SqJson *v) {
    return v && v->kind == SQ_JSON_NUMBER && v->is_int;
}

/* Column index v, checked to name a column of some table; -1 if not. */
static int32_t column_index(TjLoad *l, const SqJson *v, const char *what) {
    if (!is_index(v) || v->inum < 0 || v->inum >= (int64_t)l->n_cols ||
        l->col_table[v->inum] < 0) {
        bad(l, v, "%s is not the index of a column", what);
        return -1;
    }
    return (int32_t)v->inum;
}

static CatColumn *column_at(const TjLoad *l, uint32_t ci) {
    return &l->tables[l->col_table[ci]]->cols[l->col_pos[ci]];
}

/* ------------------------------------------------------------------ */
/* Tables and columns                                                  */
/* ------------------------------------------------------------------ */

static const char *const type_categories[][2] = {
    {"text", "TEXT"},         {"number", "NUMERIC"}, {"time", "DATETIME"},
    {"boolean", "BOOLEAN"},   {"others", "NUMERIC"},
};

/* The declared type for a column_types word (see the file header). */
static const char *declared_type(const SqJson *t) {
    const char *w = sq_json_string(t);
    if (!w || !*w) return NULL;
    for (size_t i = 0; i < SQ_ARRAY_LEN(type_categories); i++)
        if (strcmp(w, type_categories[i][0]) == 0) return type_categories[i][1];
    return w;
}

static int load_tables(TjLoad *l, const SqJson *entry) {
    const SqJson *names = sq_json_get(entry, "table_names_original");
    if (!names || names->kind != SQ_JSON_ARRAY)
        return bad(l, names ? names : entry, "'table_names_original' must be an array of names");
    l->n_tables = names->n;
    l->tables = sq_arena_alloc(l->cat->arena, (names->n + 1) * sizeof *l->tables);
    for (uint32_t i = 0; i < names->n; i++) {
        const SqJson *v = names->items[i];
        if (v->kind != SQ_JSON_STRING || v->len == 0 || strlen(v->str) != v->len) {
            bad(l, v, "table %u: a table name must be a non-empty string", i);
            continue;
        }
        if (sq_catalog_table(l->cat, sq_intern_cstr(l->cat->names, v->str))) {
            sq_diag_add(l->diags, SQ_SEV_ERROR, SQ_E_DUP_TABLE, span_of(l, v),
                        "table '%s' is declared twice", v->str);
            continue;
        }
        l->tables[i] = sq_catalog_add_table(l->cat, v->str, span_of(l, v));
    }
    return 0;
}

/* One [table index, name] pair; its column index is ci. */
static void load_column(TjLoad *l, uint32_t ci, const SqJson *pair, const SqJson *type) {
    const SqJson *ti = pair->kind == SQ_JSON_ARRAY && pair->n == 2 ? pair->items[0] : NULL;
    const SqJson *name = ti ? pair->items[1] : NULL;
    if (!is_index(ti) || !name || name->kind != SQ_JSON_STRING ||
        strlen(name->str) != name->len) {
        bad(l, pair, "column %u must be a [table index, name] pair", ci);
        return;
    }
    if (ti->inum == -1) return; /* the "*" entry */
    if (ti->inum < 0 || ti->inum >= (int64_t)l->n_tables) {
        bad(l, ti, "column %u: no table has index %lld", ci, (long long)ti->inum);
        return;
    }
    CatTable *t = l->tables[ti->inum];
    if (!t) return; /* its table was rejected */
    if (sq_table_column(t, sq_intern_cstr(l->cat->names, name->str)) >= 0) {
        sq_diag_add(l->diags, SQ_SEV_ERROR, SQ_E_DUP_COLUMN, span_of(l, name),
                    "duplicate column name '%s' in table '%s'", name->str, t->name);
        return;
    }
    sq_table_add_column(l->cat, t, name->str, declared_type(type), span_of(l, name));
    l->col_table[ci] = (int32_t)ti->inum;
    l->col_pos[ci] = (int32_t)(t->n_cols - 1);
}

static int load_columns(TjLoad *l, const SqJson *entry) {
    const SqJson *cols = sq_json_get(entry, "column_names_original");
    const SqJson *types = sq_json_get(entry, "column_types");
    if (!cols || cols->kind != SQ_JSON_ARRAY)
        return bad(l, cols ? cols : entry,
                   "'column_names_original' must be an array of [table index, name] pairs");
    if (types && types->kind != SQ_JSON_ARRAY)
        return bad(l, types, "'column_types' must be an array of type names");
    l->n_cols = cols->n;
    size_t sz = (cols->n + 1) * sizeof(int32_t);
    l->col_table = sq_arena_alloc(l->cat->arena, sz);
    l->col_pos = sq_arena_alloc(l->cat->arena, sz);
    for (uint32_t i = 0; i < cols->n; i++) l->col_table[i] = -1;
    for (uint32_t i = 0; i < cols->n; i++)
        load_column(l, i, cols->items[i], types && i < types->n ? types->items[i] : NULL);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Primary keys                                                        */
/* ------------------------------------------------------------------ */

/* Add column ci to its table's primary key (created on first use). */
static void pk_add(TjLoad *l, uint32_t ci) {
    CatTable *t = l->tables[l->col_table[ci]];
    CatColumn *col = column_at(l, ci);
    if (col->pk) return; /* listed twice */
    if (t->n_keys == 0) {
        CatKey *k = SQ_ARENA_APPEND(l->cat->arena, t->keys, t->n_keys, t->cap_keys);
        k->is_pk = 1;
    }
    CatKey *k = &t->keys[0];
    *SQ_ARENA_APPEND(l->cat->arena, k->cols, k->n_cols, k->cap_cols) = (uint32_t)l->col_pos[ci];
    col->pk = (uint8_t)k->n_cols;
}

/* Uniqueness and the rowid alias, once every key column is known. */
static void pk_finish(CatTable *t) {
    if (t->n_keys == 0 || t->keys[0].n_cols != 1) return;
    CatColumn *col = &t->cols[t->keys[0].cols[0]];
    col->unique = 1;
    if (col->decl_type && sq_stricmp(col->decl_type, "INTEGER") == 0) {
        col->rowid_alias = 1;
        col->not_null = 1;
    }
}

static int load_primary_keys(TjLoad *l, const SqJson *entry) {
    const SqJson *pks = sq_json_get(entry, "primary_keys");
    if (!pks || pks->kind == SQ_JSON_NULL) return 0;
    if (pks->kind != SQ_JSON_ARRAY)
        return bad(l, pks, "'primary_keys' must be an array of column indexes");
    for (uint32_t i = 0; i < pks->n; i++) {
        const SqJson *v = pks->items[i];
        int is_list = v->kind == SQ_JSON_ARRAY;
        uint32_t n = is_list ? v->n : 1;
        int32_t first = -1;
        for (uint32_t j = 0; j < n; j++) {
            int32_t ci = column_index(l, is_list ? v->items[j] : v, "a primary key entry");
            if (ci < 0) continue;
            if (first >= 0 && l->col_table[ci] != l->col_table[first]) {
                bad(l, v->items[j], "a composite primary key spans two tables");
                continue;
            }
            if (first < 0) first = ci;
            pk_add(l, (uint32_t)ci);
        }
    }
    for (uint32_t i = 0; i < l->n_tables; i++)
        if (l->tables[i]) pk_finish(l->tables[i]);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Foreign keys                                                        */
/* ------------------------------------------------------------------ */

/* A foreign key of the table of pairs[0].from, with n column pairs. */
static void add_fk(TjLoad *l, TjPair *const *pairs, uint32_t n) {
    CatTable *t = l->tables[l->col_table[pairs[0]->from]];
    CatTable *r = l->tables[l->col_table[pairs[0]->to]];
    CatForeignKey *fk = SQ_ARENA_APPEND(l->cat->arena, t->fks, t->n_fks, t->cap_fks);
    fk->ref_table = r->name;
    fk->ref_key = r->key;
    for (uint32_t i = 0; i < n; i++) {
        *SQ_ARENA_APPEND(l->cat->arena, fk->cols, fk->n_cols, fk->cap_cols) =
            (uint32_t)l->col_pos[pairs[i]->from];
        *SQ_ARENA_APPEND(l->cat->arena, fk->ref_cols, fk->n_ref_cols, fk->cap_ref_cols) =
            column_at(l, pairs[i]->to)->name;
        pairs[i]->used = 1;
    }
}

/* If the unused pairs from p's table to p's referenced table cover that
** table's composite primary key exactly once per column, add them as one
** key (in key order) and return 1. */
static int add_composite_fk(TjLoad *l, TjPair *pairs, uint32_t n, const TjPair *p) {
    int32_t from_t = l->col_table[p->from], to_t = l->col_table[p->to];
    const CatTable *r = l->tables[to_t];
    if (r->n_keys == 0 || r->keys[0].n_cols < 2 || r->keys[0].n_cols > 64) return 0;
    const CatKey *k = &r->keys[0];
    TjPair *pick[64];
    for (uint32_t c = 0; c < k->n_cols; c++) {
        pick[c] = NULL;
        for (uint32_t i = 0; i < n; i++) {
            TjPair *q = &pairs[i];
            if (q->used || l->col_table[q->from] != from_t || l->col_table[q->to] != to_t ||
                (uint32_t)l->col_pos[q->to] != k->cols[c])
                continue;
            if (pick[c]) return 0; /* two columns reference this key column */
            pick[c] = q;
        }
        if (!pick[c]) return 0;
    }
    add_fk(l, pick, k->n_cols);
    return 1;
}

/* The pairs of foreign_keys, checked, without duplicates; *n set. */
static TjPair *read_pairs(TjLoad *l, const SqJson *fks, uint32_t *n) {
    TjPair *pairs = sq_arena_alloc(l->cat->arena, (fks->n + 1) * sizeof *pairs);
    *n = 0;
    for (uint32_t i = 0; i < fks->n; i++) {
        const SqJson *v = fks->items[i];
        if (v->kind != SQ_JSON_ARRAY || v->n != 2) {
            bad(l, v, "foreign key %u must be a [column, referenced column] pair", i);
            continue;
        }
        int32_t from = column_index(l, v->items[0], "a foreign key column");
        int32_t to = column_index(l, v->items[1], "a referenced column");
        if (from < 0 || to < 0) continue;
        uint32_t j = 0;
        while (j < *n && !(pairs[j].from == (uint32_t)from && pairs[j].to == (uint32_t)to)) j++;
        if (j < *n) continue; /* a duplicate pair */
        pairs[*n].from = (uint32_t)from;
        pairs[(*n)++].to = (uint32_t)to;
    }
    return pairs;
}

static int load_foreign_keys(TjLoad *l, const SqJson *entry) {
    const SqJson *fks = sq_json_get(entry, "foreign_keys");
    if (!fks || fks->kind == SQ_JSON_NULL) return 0;
    if (fks->kind != SQ_JSON_ARRAY)
        return bad(l, fks, "'foreign_keys' must be an array of [column, referenced column] pairs");
    uint32_t n;
    TjPair *pairs = read_pairs(l, fks, &n);
    for (uint32_t i = 0; i < n; i++)
        if (!pairs[i].used) add_composite_fk(l, pairs, n, &pairs[i]);
    for (uint32_t i = 0; i < n; i++) {
        TjPair *p = &pairs[i];
        if (!p->used) add_fk(l, &p, 1);
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Entry points                                                        */
/* ------------------------------------------------------------------ */

int sq_catalog_load_tables_entry(Catalog *c, const SqSrc *src, const SqJson *entry,
                                 SqDiags *diags) {
    TjLoad l;
    memset(&l, 0, sizeof l);
    l.cat = c;
    l.src = src;
    l.diags = diags;
    l.db_id = sq_json_string(sq_json_get(entry, "db_id"));
    if (!l.db_id) l.db_id = "?";
    if (!entry || entry->kind != SQ_JSON_OBJECT)
        return entry ? bad(&l, entry, "an entry must be an object") : -1;
    if (!c->db_id && l.db_id[0] != '?') c->db_id = sq_arena_strdup(c->arena, l.db_id);
    if (load_tables(&l, entry) < 0 || load_columns(&l, entry) < 0) return -1;
    load_primary_keys(&l, entry);
    load_foreign_keys(&l, entry);
    return 0;
}

const SqJson *sq_tables_json_parse(SqArena *a, const SqSrc *src, SqDiags *diags) {
    SqJsonError err;
    const SqJson *doc = sq_json_parse(a, src->text, src->len, &err);
    if (!doc) {
        SqDiag *g = sq_diag_add(diags, SQ_SEV_ERROR, SQ_E_JSON,
                                sq_span(src->id, err.offset, err.offset + 1),
                                "invalid JSON: %s", err.msg);
        if (err.open_offset != UINT32_MAX)
            sq_diag_note(g, sq_span(src->id, err.open_offset, err.open_offset + 1),
                         "opened here");
        return NULL;
    }
    if (doc->kind != SQ_JSON_ARRAY) {
        sq_diag_add(diags, SQ_SEV_ERROR, SQ_E_SCHEMA, sq_span(src->id, doc->start, doc->start + 1),
                    "a tables.json file must be an array of database entries");
        return NULL;
    }
    return doc;
}

const char **sq_tables_json_db_ids(SqArena *a, const SqJson *doc, uint32_t *n) {
    const char **ids = sq_arena_alloc(a, ((doc ? doc->n : 0) + 1) * sizeof *ids);
    *n = 0;
    for (uint32_t i = 0; doc && doc->kind == SQ_JSON_ARRAY && i < doc->n; i++) {
        const char *id = sq_json_string(sq_json_get(doc->items[i], "db_id"));
        if (id) ids[(*n)++] = id;
    }
    return ids;
}

const SqJson *sq_tables_json_find(const SqJson *doc, const char *db_id) {
    for (uint32_t i = 0; doc && doc->kind == SQ_JSON_ARRAY && i < doc->n; i++) {
        const char *id = sq_json_string(sq_json_get(doc->items[i], "db_id"));
        if (id && strcmp(id, db_id) == 0) return doc->items[i];
    }
    return NULL;
}

int sq_catalog_load_tables_json(Catalog *c, const SqSrc *src, const SqJson *doc,
                                const char *db_id, SrcSpan at, SqDiags *diags) {
    const SqJson *entry = sq_tables_json_find(doc, db_id);
    if (entry) return sq_catalog_load_tables_entry(c, src, entry, diags);
    SqArena *tmp = sq_arena_new();
    uint32_t n;
    const char **ids = sq_tables_json_db_ids(tmp, doc, &n);
    SqDiag *g = sq_diag_add(diags, SQ_SEV_ERROR, SQ_E_DB_ID, at,
                            "unknown db_id '%s': '%s' has no entry for it (%u database%s)",
                            db_id, src->name, n, n == 1 ? "" : "s");
    const char *near = sq_suggest_name(db_id, ids, n);
    if (near) sq_diag_help(g, "did you mean '%s'?", near);
    sq_arena_free(tmp);
    return -1;
}

/* ------------------------------------------------------------------ */
/* Suggestions                                                         */
/* ------------------------------------------------------------------ */

const char *sq_suggest_name(const char *name, const char *const *cands, size_t n) {
    size_t len = strlen(name), limit = len / 3;
    if (limit < 1) limit = 1;
    const char *pick = NULL;
    size_t best = limit + 1;
    for (size_t i = 0; i < n && len <= 256; i++) {
        size_t cl = cands[i] ? strlen(cands[i]) : 0;
        if (!cands[i] || (cl > len ? cl - len : len - cl) > limit) continue;
        size_t d = sq_edit_distance(name, len, cands[i], cl, limit);
        if (d < best) {
            best = d;
            pick = cands[i];
        }
    }
    return pick;
}
