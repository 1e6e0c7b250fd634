/*
** spider_em_schema.c -- what Spider's exact set match reads besides the
** queries (spider_em.h): a database's table and column names, as the
** script reads them with sqlite_master and PRAGMA table_info, and the
** foreign-key maps of tables.json, built as its build_foreign_key_map().
*/
#include "backend/eval/spider_em_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/sqlite/db.h"
#include "backend/sqlite/result.h"
#include "runtime/json.h"
#include "runtime/strbuf.h"
#include "runtime/util.h"

void sq_em_schema_free(SqEmSchema *s) {
    if (!s) return;
    for (int i = 0; i < s->ntable; i++) {
        for (int k = 0; k < s->table[i].ncol; k++) free(s->table[i].col[k]);
        free(s->table[i].col);
        free(s->table[i].name);
    }
    free(s->table);
    free(s);
}

/* The text of cell (row, col) of res, or "" when it is not text. */
static const char *cell_text(const SqResult *res, uint64_t row, uint32_t col) {
    const SqValue *v = &res->cells[row * res->n_cols + col];
    return v->type == SQ_VAL_TEXT ? v->s : "";
}

static int read_columns(SqDb *db, EmTable *t, char *err, size_t errlen) {
    SqBuf sql = SQ_BUF_INIT;
    sq_buf_puts(&sql, "PRAGMA table_info(\"");
    for (const char *p = t->name; *p; p++) {
        if (*p == '"') sq_buf_putc(&sql, '"');
        sq_buf_putc(&sql, *p);
    }
    sq_buf_puts(&sql, "\")");
    SqResult res;
    sq_result_init(&res);
    char *why = NULL;
    SqExecStatus st = sq_db_query(db, sq_buf_str(&sql), NULL, &res, &why);
    sq_buf_free(&sql);
    if (st != SQ_EXEC_OK || res.n_cols < 2) {
        snprintf(err, errlen, "cannot read the columns of %s: %s", t->name, why ? why : "no result");
        free(why);
        sq_result_free(&res);
        return 0;
    }
    for (uint64_t r = 0; r < res.n_rows; r++) {
        t->col = sq_realloc(t->col, sizeof *t->col * (size_t)(t->ncol + 1));
        t->col[t->ncol++] = sq_strdup_lower(cell_text(&res, r, 1));
    }
    sq_result_free(&res);
    return 1;
}

SqEmSchema *sq_em_schema_read(SqDb *db, char *err, size_t errlen) {
    SqResult res;
    sq_result_init(&res);
    char *why = NULL;
    if (sq_db_query(db, "SELECT name FROM sqlite_master WHERE type='table'", NULL, &res, &why) != SQ_EXEC_OK ||
        res.n_cols != 1) {
        snprintf(err, errlen, "cannot read the tables: %s", why ? why : "no result");
        free(why);
        sq_result_free(&res);
        return NULL;
    }
    SqEmSchema *s = sq_calloc(1, sizeof *s);
    s->table = sq_calloc(res.n_rows + 1, sizeof *s->table);
    for (uint64_t r = 0; r < res.n_rows; r++)
        s->table[s->ntable++] = (EmTable){sq_strdup_lower(cell_text(&res, r, 0)), NULL, 0};
    sq_result_free(&res);
    for (int i = 0; i < s->ntable; i++) {
        if (!read_columns(db, &s->table[i], err, errlen)) {
            sq_em_schema_free(s);
            return NULL;
        }
    }
    return s;
}

static int cmp_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

void sq_em_keys_free(SqEmKeys *k) {
    if (!k) return;
    for (int i = 0; i < k->ndb; i++) {
        for (int j = 0; j < k->db[i].n; j++) {
            free(k->db[i].key[j]);
            free(k->db[i].val[j]);
        }
        free(k->db[i].key);
        free(k->db[i].val);
        free(k->db[i].db_id);   /* NULL for an entry that failed */
    }
    free(k->db);
    free(k);
}

const EmKeyMap *sq_em_keys_of(const SqEmKeys *k, const char *db_id) {
    for (int i = k ? k->ndb - 1 : -1; i >= 0; i--)
        if (strcmp(k->db[i].db_id, db_id) == 0) return &k->db[i];
    return NULL;
}

int sq_em_keys_has(const SqEmKeys *k, const char *db_id) {
    return sq_em_keys_of(k, db_id) != NULL;
}

const char *sq_em_key_map(const EmKeyMap *m, const char *id) {
    for (int i = m->n - 1; i >= 0; i--)
        if (strcmp(m->key[i], id) == 0) return m->val[i];
    return NULL;
}

/* The id tables.json's column i has: "__table.column__", or "__all__"
** for the '*' entry; NULL when the entry is malformed. */
static char *column_id(const SqJson *cols, const SqJson *tables, int64_t i) {
    if (i < 0 || i >= (int64_t)cols->n) return NULL;
    const SqJson *c = cols->items[i];
    if (c->kind != SQ_JSON_ARRAY || c->n != 2 || c->items[0]->kind != SQ_JSON_NUMBER) return NULL;
    int64_t t = c->items[0]->inum;
    const char *name = sq_json_string(c->items[1]);
    if (t < 0) return sq_strdup("__all__");
    if (!name || t >= (int64_t)tables->n || !sq_json_string(tables->items[t])) return NULL;
    SqBuf b = {0};
    sq_buf_printf(&b, "__%s.%s__", sq_json_string(tables->items[t]), name);
    char *id = sq_buf_detach(&b);
    for (char *p = id; *p; p++) *p = (char)sq_ascii_lower((unsigned char)*p);
    return id;
}

/* The sets of columns the foreign keys join, as the script builds them:
** each pair goes into the first set that holds either end (sets are not
** merged), else a new one; then every member maps to the set's smallest
** column index. */
static int build_key_map(EmKeyMap *m, const SqJson *entry) {
    const SqJson *cols = sq_json_get(entry, "column_names_original");
    const SqJson *tables = sq_json_get(entry, "table_names_original");
    const SqJson *fks = sq_json_get(entry, "foreign_keys");
    if (!cols || cols->kind != SQ_JSON_ARRAY || !tables || tables->kind != SQ_JSON_ARRAY ||
        !fks || fks->kind != SQ_JSON_ARRAY)
        return 0;
    int nset = 0;
    int64_t **set = sq_calloc(fks->n + 1, sizeof *set);
    int *nin = sq_calloc(fks->n + 1, sizeof *nin);
    int ok = 1;
    for (uint32_t i = 0; i < fks->n && ok; i++) {
        const SqJson *p = fks->items[i];
        if (p->kind != SQ_JSON_ARRAY || p->n != 2 || !p->items[0]->is_int || !p->items[1]->is_int) {
            ok = 0;
            break;
        }
        int64_t k1 = p->items[0]->inum, k2 = p->items[1]->inum;
        int s = -1;
        for (int j = 0; j < nset && s < 0; j++)
            for (int x = 0; x < nin[j]; x++)
                if (set[j][x] == k1 || set[j][x] == k2) s = j;
        if (s < 0) {
            s = nset++;
            set[s] = sq_calloc(2 * fks->n + 2, sizeof **set);
        }
        int64_t both[2] = {k1, k2};
        for (int e = 0; e < 2; e++) {
            int have = 0;
            for (int x = 0; x < nin[s]; x++) have |= set[s][x] == both[e];
            if (!have) set[s][nin[s]++] = both[e];
        }
    }
    for (int j = 0; j < nset && ok; j++) {
        int64_t least = set[j][0];
        for (int x = 1; x < nin[j]; x++)
            if (set[j][x] < least) least = set[j][x];
        /* the script assigns in sorted order; the same key twice in one
        ** set cannot happen, so the order only matters across sets */
        qsort(set[j], (size_t)nin[j], sizeof **set, cmp_i64);
        for (int x = 0; x < nin[j] && ok; x++) {
            char *key = column_id(cols, tables, set[j][x]);
            char *val = column_id(cols, tables, least);
            if (!key || !val) {
                free(key);
                free(val);
                ok = 0;
                break;
            }
            m->key = sq_realloc(m->key, sizeof *m->key * (size_t)(m->n + 1));
            m->val = sq_realloc(m->val, sizeof *m->val * (size_t)(m->n + 1));
            m->key[m->n] = key;
            m->val[m->n++] = val;
        }
    }
    for (int j = 0; j < nset; j++) free(set[j]);
    free(set);
    free(nin);
    return ok;
}

SqEmKeys *sq_em_keys_parse(const char *text, size_t len, const char *name, char *err, size_t errlen) {
    SqArena *a = sq_arena_new();
    SqJsonError je;
    SqJson *doc = sq_json_parse(a, text, len, &je);
    SqEmKeys *k = NULL;
    if (!doc || doc->kind != SQ_JSON_ARRAY) {
        snprintf(err, errlen, "%s: not a tables.json array%s%s", name, doc ? "" : ": ", doc ? "" : je.msg);
        goto done;
    }
    k = sq_calloc(1, sizeof *k);
    k->db = sq_calloc(doc->n + 1, sizeof *k->db);
    for (uint32_t i = 0; i < doc->n; i++) {
        const char *id = sq_json_string(sq_json_get(doc->items[i], "db_id"));
        EmKeyMap *m = &k->db[k->ndb++];
        if (!id || !build_key_map(m, doc->items[i])) {
            snprintf(err, errlen, "%s: entry %u is not a Spider schema (db_id, table_names_original, "
                     "column_names_original, foreign_keys)", name, i + 1);
            sq_em_keys_free(k);
            k = NULL;
            goto done;
        }
        m->db_id = sq_strdup(id);
    }
done:
    sq_arena_free(a);
    return k;
}

SqEmKeys *sq_em_keys_load(const char *path, char *err, size_t errlen) {
    size_t len;
    int e;
    char *text = sq_read_file(path, &len, &e);
    if (!text) {
        snprintf(err, errlen, "%s: %s", path, strerror(e));
        return NULL;
    }
    SqEmKeys *k = sq_em_keys_parse(text, len, path, err, errlen);
    free(text);
    return k;
}

