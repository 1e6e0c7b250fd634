/*
** columns.c -- the columns chosen for a question's test data: the union
** of what the selectors and the expansion named, checked against the
** schema, and closed over what inserting rows needs.
**
** SynSQL prefers recall: a column named by any of the three selectors is
** kept.  A name that is no column of the schema is never guessed at: it
** is reported and left out.  Rows of a table can only be inserted with
** its key and its NOT NULL columns, and a filled foreign key needs the
** row it points at, so those join the chosen columns whatever the model
** said (the paper's "schema compliance").
*/
#include <stdlib.h>
#include <string.h>

#include "backend/synsql/synsql_int.h"
#include "runtime/intern.h"
#include "runtime/util.h"

void syn_columns_init(SynColumns *c, const Catalog *cat) {
    c->cat = cat;
    c->on = sq_calloc(cat->n_tables + 1, sizeof *c->on);
    c->keep = sq_calloc(cat->n_tables + 1, 1);
}

void syn_columns_free(SynColumns *c) {
    for (uint32_t t = 0; c->on && t < c->cat->n_tables; t++) free(c->on[t]);
    free(c->on);
    free(c->keep);
}

/* Choose column col of table t (its flags made on first use). */
static int choose(SynColumns *c, uint32_t t, uint32_t col) {
    if (!c->on[t]) c->on[t] = sq_calloc(c->cat->tables[t]->n_cols + 1, 1);
    c->keep[t] = 1;
    if (c->on[t][col]) return 0;
    c->on[t][col] = 1;
    return 1;
}

/* A name without the quotes a model may put around it ("x", `x`, [x]). */
static void unquote(const char **s, size_t *n) {
    while (*n && strchr(" \t", **s)) (*s)++, (*n)--;
    while (*n && strchr(" \t", (*s)[*n - 1])) (*n)--;
    if (*n >= 2 && strchr("\"`[", **s) && strchr("\"`]", (*s)[*n - 1])) (*s)++, *n -= 2;
}

/* The table and column "table.column" names: 0, or -1. */
static int find(const SynColumns *c, const char *name, uint32_t *t, uint32_t *col) {
    const char *dot = strrchr(name, '.');
    if (!dot) return -1;
    const char *tn = name, *cn = dot + 1;
    size_t tl = (size_t)(dot - name), cl = strlen(cn);
    unquote(&tn, &tl);
    unquote(&cn, &cl);
    const SqName *tk = sq_intern(c->cat->names, tn, tl), *ck = sq_intern(c->cat->names, cn, cl);
    CatTable *table = sq_catalog_table(c->cat, tk);
    if (!table || !sq_catalog_is_stored(table)) return -1;
    int k = sq_table_column(table, ck);
    if (k < 0) return -1;
    *t = sq_catalog_pos(c->cat, table);
    *col = (uint32_t)k;
    return 0;
}

/* Whether name is a line of list already. */
static int listed(const SqBuf *list, const char *name) {
    size_t n = strlen(name);
    for (const char *at = sq_buf_str(list); (at = strstr(at, name)); at += n)
        if ((at == list->data || at[-1] == '\n') && at[n] == '\n') return 1;
    return 0;
}

size_t syn_columns_add(SynColumns *c, const cJSON *names, SqBuf *unknown) {
    size_t added = 0;
    for (const cJSON *e = cJSON_IsArray(names) ? names->child : NULL; e; e = e->next) {
        uint32_t t, col;
        if (!cJSON_IsString(e)) continue;
        if (find(c, e->valuestring, &t, &col) == 0) added += (size_t)choose(c, t, col);
        else if (!listed(unknown, e->valuestring)) sq_buf_printf(unknown, "%s\n", e->valuestring);
    }
    return added;
}

/* The columns a row of table t cannot be inserted without. */
static int needed(const CatColumn *col) {
    return col->pk || (col->not_null && !col->default_value && !col->rowid_alias);
}

/* One pass of the closure; whether it chose anything. */
static int close_once(SynColumns *c) {
    int changed = 0;
    for (uint32_t t = 0; t < c->cat->n_tables; t++) {
        if (!c->keep[t]) continue;
        const CatTable *table = c->cat->tables[t];
        for (uint32_t k = 0; k < table->n_cols; k++)
            if (needed(&table->cols[k])) changed |= choose(c, t, k);
        for (uint32_t f = 0; f < table->n_fks; f++) {
            const CatForeignKey *fk = &table->fks[f];
            int filled = 0;
            for (uint32_t k = 0; k < fk->n_cols; k++) filled |= c->on[t][fk->cols[k]];
            if (!filled || !fk->target || !fk->target_cols) continue;
            uint32_t target = sq_catalog_pos(c->cat, fk->target);
            for (uint32_t k = 0; k < fk->n_cols; k++) changed |= choose(c, target, fk->target_cols[k]);
        }
    }
    return changed;
}

void syn_columns_close(SynColumns *c) {
    while (close_once(c)) {
    }
}

void syn_columns_text(const SynColumns *c, SqBuf *out) {
    for (uint32_t t = 0; t < c->cat->n_tables; t++) {
        const CatTable *table = c->cat->tables[t];
        for (uint32_t k = 0; c->on[t] && k < table->n_cols; k++)
            if (c->on[t][k]) sq_buf_printf(out, "%s.%s\n", table->name, table->cols[k].name);
    }
}

size_t syn_columns_count(const SynColumns *c) {
    size_t n = 0;
    for (uint32_t t = 0; t < c->cat->n_tables; t++)
        for (uint32_t k = 0; c->on[t] && k < c->cat->tables[t]->n_cols; k++) n += c->on[t][k];
    return n;
}

void syn_columns_json(const SynColumns *c, SqJsonWriter *w) {
    SqBuf text = SQ_BUF_INIT;
    syn_columns_text(c, &text);
    sq_jw_arr_begin(w);
    for (const char *at = sq_buf_str(&text); *at;) {
        const char *nl = strchr(at, '\n');
        sq_jw_strn(w, at, (size_t)(nl - at));
        at = nl + 1;
    }
    sq_jw_arr_end(w);
    sq_buf_free(&text);
}
