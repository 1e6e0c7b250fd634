/*
** ddl.c -- CREATE TABLE statements from a catalog (the ddl emitter).
**
** Layer: backend.  Written from the catalog's structs, not from the text
** they were read from (a tables.json has none): the columns with their
** declared types (written so that SQLite sees the same type text), NOT
** NULL, COLLATE; a single-column PRIMARY KEY on its column (an INTEGER
** PRIMARY KEY stays the rowid alias, a non-alias one is written PRIMARY
** KEY DESC); composite keys, UNIQUE keys and foreign keys as table
** constraints; STRICT and WITHOUT ROWID.  Only stored tables
** (sq_catalog_is_stored).  Referenced tables come first when the foreign
** keys have no cycle.  Its users: the fixture script (backend/fixture,
** every table), the ddl emitter (the tables a query needs) and the
** prompts' schema slot (backend/prompt: the tables of one or two queries).
**
** Sections: table order; CREATE TABLE; the emitter.
*/
#include <stdlib.h>
#include <string.h>

#include "backend/emit/emit.h"
#include "grammar/lex.h"

/* ------------------------------------------------------------------ */
/* Table order                                                         */
/* ------------------------------------------------------------------ */

static const CatTable *fk_target(const Catalog *c, const CatForeignKey *fk) {
    if (fk->target) return fk->target;
    return fk->ref_key ? sq_catalog_table(c, fk->ref_key) : NULL;
}

/* The stored tables each table references (itself excepted), as catalog
** positions: refs[ref_start[i] .. ref_start[i + 1]) for table i. */
typedef struct TableOrder {
    const Catalog *c;
    const uint8_t *keep; /* per catalog position, or NULL: every table */
    uint32_t *ref_start; /* n_tables + 1 offsets into refs (heap) */
    uint32_t *refs;      /* catalog positions (heap) */
    uint8_t *is_placed;  /* per catalog position (heap) */
} TableOrder;

static void order_init(TableOrder *o, const Catalog *c, const uint8_t *keep) {
    uint32_t n_fks = 0;
    for (uint32_t i = 0; i < c->n_tables; i++) n_fks += c->tables[i]->n_fks;
    o->c = c;
    o->keep = keep;
    o->ref_start = sq_calloc((size_t)c->n_tables + 1, sizeof *o->ref_start);
    o->refs = sq_calloc(n_fks ? n_fks : 1, sizeof *o->refs);
    o->is_placed = sq_calloc(c->n_tables ? c->n_tables : 1, 1);
    uint32_t n = 0;
    for (uint32_t i = 0; i < c->n_tables; i++) {
        const CatTable *t = c->tables[i];
        o->ref_start[i] = n;
        for (uint32_t k = 0; k < t->n_fks; k++) {
            const CatTable *g = fk_target(c, &t->fks[k]);
            uint32_t at = g ? sq_catalog_pos(c, g) : c->n_tables;
            if (g && g != t && sq_catalog_is_stored(g) && at < c->n_tables && (!keep || keep[at]))
                o->refs[n++] = at;
        }
    }
    o->ref_start[c->n_tables] = n;
}

static void order_free(TableOrder *o) {
    free(o->ref_start);
    free(o->refs);
    free(o->is_placed);
}

static int refs_placed(const TableOrder *o, uint32_t i) {
    for (uint32_t k = o->ref_start[i]; k < o->ref_start[i + 1]; k++)
        if (!o->is_placed[o->refs[k]]) return 0;
    return 1;
}

/* The next table: the first unplaced one in catalog order whose
** references are placed, or, when a cycle blocks them all, the first
** unplaced one.  n_tables when none is left. */
static uint32_t next_table(const TableOrder *o) {
    uint32_t first = o->c->n_tables;
    for (uint32_t i = 0; i < o->c->n_tables; i++) {
        if (o->is_placed[i] || !sq_catalog_is_stored(o->c->tables[i]) || (o->keep && !o->keep[i])) continue;
        if (refs_placed(o, i)) return i;
        if (first == o->c->n_tables) first = i;
    }
    return first;
}

uint32_t sq_ddl_order(const Catalog *c, const uint8_t *keep, const CatTable **order) {
    TableOrder o;
    order_init(&o, c, keep);
    uint32_t n = 0, i;
    while ((i = next_table(&o)) < c->n_tables) {
        o.is_placed[i] = 1;
        order[n++] = c->tables[i];
    }
    order_free(&o);
    return n;
}

/* ------------------------------------------------------------------ */
/* CREATE TABLE                                                        */
/* ------------------------------------------------------------------ */

/* Length of the identifier word at s ([A-Za-z_][A-Za-z0-9_]*) when it is
** not a keyword, else 0. */
static size_t type_word(const char *s) {
    size_t n = 0;
    while ((s[n] >= 'a' && s[n] <= 'z') || (s[n] >= 'A' && s[n] <= 'Z') || s[n] == '_' ||
           (n > 0 && s[n] >= '0' && s[n] <= '9'))
        n++;
    int fallback;
    return n && lex_keyword(s, n, &fallback) == 0 ? n : 0;
}

/* Whether a declared type can be written as it is: words that are not
** keywords, one space apart, then maybe a size such as "(10)" or
** "(10, 2)". */
static int is_plain_type(const char *s) {
    size_t n = type_word(s);
    if (!n) return 0;
    for (s += n; *s == ' ' && (n = type_word(s + 1)) > 0; s += 1 + n) {}
    if (*s == ' ') s++;
    if (*s == '\0') return 1;
    if (*s != '(') return 0;
    size_t k = strspn(s + 1, "0123456789+-., ");
    return k > 0 && s[1 + k] == ')' && s[2 + k] == '\0';
}

/* A declared type, so that SQLite records the type the catalog holds
** (the type as SQLite records it: sq_decl_type_stored).  A plain type is
** written as it is; anything else (a type word of a tables.json such as
** "text[]", a recorded type holding keywords such as "INT KEY" or quotes)
** as one quoted identifier, inner quotes doubled: SQLite strips the outer
** quotes (or, when a quote is inside, dequotes up to the closing one) and
** records the text back. */
static void put_type(SqBuf *out, const char *decl) {
    if (is_plain_type(decl)) {
        sq_buf_puts(out, decl);
        return;
    }
    sq_buf_putc(out, '"');
    for (const char *p = decl; *p; p++) {
        if (*p == '"') sq_buf_putc(out, '"');
        sq_buf_putc(out, *p);
    }
    sq_buf_putc(out, '"');
}

/* " (a, b)": columns of t by index. */
static void put_col_list(SqBuf *out, const CatTable *t, const uint32_t *cols, uint32_t n) {
    sq_buf_puts(out, " (");
    for (uint32_t i = 0; i < n; i++) {
        if (i) sq_buf_puts(out, ", ");
        ir_sql_ident(out, t->cols[cols[i]].name);
    }
    sq_buf_putc(out, ')');
}

/* PRIMARY KEY on the column itself when it is the whole key: the only
** form in which "INTEGER PRIMARY KEY DESC" is not the rowid alias. */
static void put_column_pk(SqBuf *out, const CatTable *t, const CatColumn *col) {
    if (col->pk != 1 || t->n_keys == 0 || !t->keys[0].is_pk || t->keys[0].n_cols != 1) return;
    sq_buf_puts(out, " PRIMARY KEY");
    int is_integer = col->decl_type && sq_stricmp(col->decl_type, "INTEGER") == 0;
    if (is_integer && !t->without_rowid && !col->rowid_alias) sq_buf_puts(out, " DESC");
}

/* name [type] [PRIMARY KEY [DESC]] [NOT NULL] [COLLATE c] */
static void put_column(SqBuf *out, const CatTable *t, const CatColumn *col) {
    ir_sql_ident(out, col->name);
    if (col->decl_type && *col->decl_type) {
        sq_buf_putc(out, ' ');
        put_type(out, col->decl_type);
    }
    put_column_pk(out, t, col);
    if (col->not_null && !col->rowid_alias) sq_buf_puts(out, " NOT NULL");
    if (col->collation) {
        sq_buf_puts(out, " COLLATE ");
        ir_sql_ident(out, col->collation);
    }
}

/* A composite primary key and every UNIQUE key as table constraints. */
static void put_keys(SqBuf *out, const CatTable *t) {
    for (uint32_t k = 0; k < t->n_keys; k++) {
        const CatKey *key = &t->keys[k];
        if (key->n_cols == 0 || (key->is_pk && key->n_cols == 1)) continue;
        sq_buf_puts(out, key->is_pk ? ",\n  PRIMARY KEY" : ",\n  UNIQUE");
        put_col_list(out, t, key->cols, key->n_cols);
    }
}

/* The referenced columns: resolved ones by their declared names, else as
** written, else none (SQLite then takes the referenced primary key). */
static void put_ref_cols(SqBuf *out, const CatForeignKey *fk) {
    if (fk->target && fk->target_cols) {
        put_col_list(out, fk->target, fk->target_cols, fk->n_cols);
        return;
    }
    if (fk->n_ref_cols != fk->n_cols) return;
    for (uint32_t i = 0; i < fk->n_ref_cols; i++)
        if (!fk->ref_cols[i]) return;
    sq_buf_puts(out, " (");
    for (uint32_t i = 0; i < fk->n_ref_cols; i++) {
        if (i) sq_buf_puts(out, ", ");
        ir_sql_ident(out, fk->ref_cols[i]);
    }
    sq_buf_putc(out, ')');
}

static void put_fks(SqBuf *out, const CatTable *t) {
    for (uint32_t k = 0; k < t->n_fks; k++) {
        const CatForeignKey *fk = &t->fks[k];
        if (fk->n_cols == 0 || (!fk->target && !fk->ref_table)) continue;
        sq_buf_puts(out, ",\n  FOREIGN KEY");
        put_col_list(out, t, fk->cols, fk->n_cols);
        sq_buf_puts(out, " REFERENCES ");
        ir_sql_ident(out, fk->target ? fk->target->name : fk->ref_table);
        put_ref_cols(out, fk);
    }
}

/* A note as a block comment: blank space (newlines too) made one
** space, and no way out of the comment. */
static void put_note(SqBuf *out, const char *note) {
    sq_buf_puts(out, " /* ");
    int blank = 0;
    for (const char *p = note; *p; p++) {
        if (strchr(" \t\r\n", *p)) {
            blank = 1;
            continue;
        }
        if (blank && out->data[out->len - 1] != ' ') sq_buf_putc(out, ' ');
        blank = 0;
        sq_buf_putc(out, *p);
        if (*p == '*' && p[1] == '/') sq_buf_putc(out, ' ');   /* a star and a slash would end the comment */
    }
    sq_buf_puts(out, " */");
}

void sq_ddl_create_table(SqBuf *out, const CatTable *t) { sq_ddl_create_table_notes(out, t, NULL); }

void sq_ddl_create_table_notes(SqBuf *out, const CatTable *t, const char *const *notes) {
    sq_buf_puts(out, "CREATE TABLE ");
    ir_sql_ident(out, t->name);
    sq_buf_puts(out, " (");
    for (uint32_t i = 0; i < t->n_cols; i++) {
        sq_buf_puts(out, i ? ",\n  " : "\n  ");
        put_column(out, t, &t->cols[i]);
        if (notes && notes[i] && *notes[i]) put_note(out, notes[i]);
    }
    put_keys(out, t);
    put_fks(out, t);
    sq_buf_puts(out, "\n)");
    if (t->strict) sq_buf_puts(out, t->without_rowid ? " STRICT, WITHOUT ROWID" : " STRICT");
    else if (t->without_rowid) sq_buf_puts(out, " WITHOUT ROWID");
    sq_buf_puts(out, ";\n");
}

/* ------------------------------------------------------------------ */
/* The emitter                                                         */
/* ------------------------------------------------------------------ */

/* Mark t and, through foreign keys, every table it reaches. */
static void keep_with_parents(const Catalog *c, const CatTable *t, uint8_t *keep) {
    uint32_t at = sq_catalog_pos(c, t);
    if (at >= c->n_tables || keep[at]) return;
    keep[at] = 1;
    for (uint32_t k = 0; k < t->n_fks; k++) {
        const CatTable *g = fk_target(c, &t->fks[k]);
        if (g) keep_with_parents(c, g, keep);
    }
}

void sq_ddl_keep_query(const Catalog *cat, const IrQuery *q, uint8_t *keep) {
    for (uint32_t i = 0; i < q->n_rels; i++) { /* every scan, subqueries' and CTE bodies' too */
        const IrRel *r = q->rels[i];
        if (r && r->kind == IR_SCAN && r->u.scan.table) keep_with_parents(cat, r->u.scan.table, keep);
    }
}

int sq_emit_ddl(const Catalog *cat, IrQuery *q, SqBuf *out) {
    if (!q->root || !cat->n_tables) return 0;
    uint8_t *keep = sq_calloc(cat->n_tables, 1);
    sq_ddl_keep_query(cat, q, keep);
    const CatTable **order = sq_calloc(cat->n_tables, sizeof *order);
    uint32_t n = sq_ddl_order(cat, keep, order);
    for (uint32_t i = 0; i < n; i++) sq_ddl_create_table(out, order[i]);
    free(order);
    free(keep);
    return n > 0;
}
