/*
** corpus.c -- read the public benchmark files in ../shared/corpora.
**
** Test support.  Formats (see the corpora README):
**   spider-dev/dev.json                 [{db_id, query, ...}]
**   spider-dev/predictions/<m>.sql      one SQL per line, aligned with dev.json
**   bird-dev/dev.json                   [{question_id, db_id, SQL, ...}]
**   bird-dev/predictions/<m>.json       {"qid": "SQL\t----- bird -----\tdb_id"}
**   bird-dev/predictions/<m>.sql        one SQL per line, aligned by question_id
**   equiv/calcite.jsonl                 {schema, pair: [q1, q2], ...} per line
*/
#include "tests/conformance/corpus.h"

#include <cjson/cJSON.h>
#include <sqlite3.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "api/squint.h"
#include "frontend/catalog.h"
#include "runtime/strbuf.h"
#include "runtime/util.h"

static char *path_join(const char *a, const char *b) {
    SqBuf p = SQ_BUF_INIT;
    sq_buf_printf(&p, "%s/%s", a, b);
    return sq_buf_detach(&p);
}

static void add(Corpus *c, CorpusSet set, const char *origin, const char *db,
                const char *sql, size_t len) {
    if (c->n == c->cap) {
        c->cap = c->cap ? c->cap * 2 : 4096;
        c->q = sq_realloc(c->q, c->cap * sizeof *c->q);
    }
    CorpusQuery *q = &c->q[c->n++];
    q->set = set;
    q->origin = sq_strdup(origin);
    q->db_id = db ? sq_strdup(db) : NULL;
    q->sql = sq_strndup(sql, len);
    q->len = len;
    q->schema = -1;
}

static cJSON *read_json(const char *path) {
    size_t len;
    int err;
    char *text = sq_read_file(path, &len, &err);
    if (!text) return NULL;
    cJSON *j = cJSON_ParseWithLength(text, len);
    free(text);
    return j;
}

/* Split a file into lines (no trailing newline kept); *n lines. */
static char **read_lines(const char *path, size_t *n) {
    size_t len;
    int err;
    char *text = sq_read_file(path, &len, &err);
    *n = 0;
    if (!text) return NULL;
    size_t cap = 1024;
    char **lines = sq_malloc(cap * sizeof *lines);
    char *p = text, *end = text + len;
    while (p < end) {
        char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);
        if (l && p[l - 1] == '\r') l--;
        if (*n == cap) lines = sq_realloc(lines, (cap *= 2) * sizeof *lines);
        lines[(*n)++] = sq_strndup(p, l);
        p = nl ? nl + 1 : end;
    }
    free(text);
    return lines;
}

static void free_lines(char **lines, size_t n) {
    for (size_t i = 0; i < n; i++) free(lines[i]);
    free(lines);
}

static int has_suffix(const char *s, const char *suf) {
    size_t n = strlen(s), m = strlen(suf);
    return n >= m && strcmp(s + n - m, suf) == 0;
}

/* Sorted *.sql / *.json names in a directory (caller frees). */
static char **list_dir(const char *dir, size_t *n) {
    DIR *d = opendir(dir);
    *n = 0;
    if (!d) return NULL;
    char **names = NULL;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (!has_suffix(e->d_name, ".sql") && !has_suffix(e->d_name, ".json")) continue;
        names = sq_realloc(names, (*n + 1) * sizeof *names);
        names[(*n)++] = sq_strdup(e->d_name);
    }
    closedir(d);
    for (size_t i = 1; i < *n; i++)
        for (size_t j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
            char *t = names[j];
            names[j] = names[j - 1];
            names[j - 1] = t;
        }
    return names;
}

/* ------------------------------------------------------- Spider, BIRD */

/* The gold items of a dev.json (an array of objects with db_id and the SQL
** under sql_key).  Returns each item's db_id, for the prediction files
** aligned with it; *n is the number of items. */
static char **load_gold(Corpus *c, CorpusSet set, const char *dir,
                        const char *sql_key, const char *tag, size_t *n) {
    char *dev = path_join(c->root, dir);
    char *file = path_join(dev, "dev.json");
    cJSON *j = read_json(file);
    free(file);
    free(dev);
    *n = 0;
    if (!cJSON_IsArray(j)) return NULL;
    *n = (size_t)cJSON_GetArraySize(j);
    char **dbs = sq_calloc(*n ? *n : 1, sizeof *dbs);
    char origin[256];
    for (size_t i = 0; i < *n; i++) {
        cJSON *it = cJSON_GetArrayItem(j, (int)i);
        const char *db = cJSON_GetStringValue(cJSON_GetObjectItem(it, "db_id"));
        const char *q = cJSON_GetStringValue(cJSON_GetObjectItem(it, sql_key));
        if (!db || !q) continue;
        dbs[i] = sq_strdup(db);
        snprintf(origin, sizeof origin, "%s/dev.json#%zu", tag, i);
        add(c, set, origin, db, q, strlen(q));
    }
    cJSON_Delete(j);
    return dbs;
}

/* A prediction file with one SQL per line, aligned with the gold items. */
static void load_line_preds(Corpus *c, CorpusSet set, const char *path,
                            const char *name, const char *tag, char **dbs,
                            size_t n) {
    size_t nl;
    char **lines = read_lines(path, &nl);
    char origin[256];
    for (size_t i = 0; i < nl && i < n; i++) {
        snprintf(origin, sizeof origin, "%s/%s#%zu", tag, name, i);
        add(c, set, origin, dbs[i], lines[i], strlen(lines[i]));
    }
    free_lines(lines, nl);
}

/* BIRD's official format: {"qid": "SQL\t----- bird -----\tdb_id"}. */
static void load_bird_json_preds(Corpus *c, const char *path, const char *name) {
    cJSON *j = read_json(path);
    char origin[256];
    cJSON *it;
    cJSON_ArrayForEach(it, j) {
        char num[32];
        const char *v = cJSON_GetStringValue(it);
        if (!v && cJSON_IsNumber(it)) { /* some files hold a bare 0 */
            snprintf(num, sizeof num, "%g", it->valuedouble);
            v = num;
        }
        if (!v) continue;
        const char *sep = strstr(v, "\t----- bird -----\t");
        size_t len = sep ? (size_t)(sep - v) : strlen(v);
        const char *db = sep ? sep + strlen("\t----- bird -----\t") : NULL;
        snprintf(origin, sizeof origin, "bird/%s#%s", name, it->string);
        add(c, CORPUS_BIRD, origin, db, v, len);
    }
    cJSON_Delete(j);
}

/* Gold and every prediction file of one benchmark directory. */
static int load_benchmark(Corpus *c, CorpusSet set, const char *dir,
                          const char *sql_key, const char *tag) {
    size_t n;
    char **dbs = load_gold(c, set, dir, sql_key, tag, &n);
    if (!dbs) return -1;
    char *sub = path_join(dir, "predictions");
    char *pdir = path_join(c->root, sub);
    size_t nf;
    char **files = list_dir(pdir, &nf);
    for (size_t f = 0; f < nf; f++) {
        char *path = path_join(pdir, files[f]);
        if (has_suffix(files[f], ".json")) load_bird_json_preds(c, path, files[f]);
        else load_line_preds(c, set, path, files[f], tag, dbs, n);
        free(path);
        free(files[f]);
    }
    free(files);
    free(pdir);
    free(sub);
    for (size_t i = 0; i < n; i++) free(dbs[i]);
    free(dbs);
    return 1;
}

/* ----------------------------------------------------------------- equiv */

/* The column list of constraint c when it is of this kind (VeriEQL writes
** {"primary": [{"value": "T__C"}, ...]}), or NULL. */
static cJSON *constraint_cols(cJSON *c, const char *kind) {
    cJSON *l = cJSON_GetObjectItem(c, kind);
    return cJSON_IsArray(l) ? l : NULL;
}

/* "T__C" -> does it name table t?  *col gets C. */
static int names_table(const char *v, const char *t, const char **col) {
    size_t n = strlen(t);
    if (!v || strncmp(v, t, n) != 0 || strncmp(v + n, "__", 2) != 0) return 0;
    *col = v + n + 2;
    return 1;
}

static const char *value_of(cJSON *x) { return cJSON_GetStringValue(cJSON_GetObjectItem(x, "value")); }

/* The pair's tables, with the NOT NULL, PRIMARY KEY and FOREIGN KEY
** constraints VeriEQL's release gives for them. */
static char *calcite_schema_sql(cJSON *schema, cJSON *constraints) {
    SqBuf b = SQ_BUF_INIT;
    cJSON *t, *col, *c;
    const char *cn;
    cJSON_ArrayForEach(t, schema) {
        sq_buf_printf(&b, "CREATE TABLE \"%s\"(", t->string);
        const char *sep = "";
        cJSON_ArrayForEach(col, t) {
            const char *ty = cJSON_GetStringValue(col);
            sq_buf_printf(&b, "%s\"%s\" %s", sep, col->string, ty ? ty : "");
            cJSON_ArrayForEach(c, constraints) {
                cJSON *nn = cJSON_GetObjectItem(c, "not_null");
                if (nn && names_table(value_of(nn), t->string, &cn) && strcmp(cn, col->string) == 0)
                    sq_buf_puts(&b, " NOT NULL");
            }
            sep = ", ";
        }
        cJSON_ArrayForEach(c, constraints) {
            cJSON *pk = constraint_cols(c, "primary"), *fk = constraint_cols(c, "foreign"), *x;
            if (pk && names_table(value_of(cJSON_GetArrayItem(pk, 0)), t->string, &cn)) {
                sq_buf_puts(&b, ", PRIMARY KEY(");
                const char *s2 = "";
                cJSON_ArrayForEach(x, pk) if (names_table(value_of(x), t->string, &cn)) {
                    sq_buf_printf(&b, "%s\"%s\"", s2, cn);
                    s2 = ", ";
                }
                sq_buf_puts(&b, ")");
            }
            const char *from, *to;
            if (fk && cJSON_GetArraySize(fk) == 2 && names_table(value_of(cJSON_GetArrayItem(fk, 0)), t->string, &from)) {
                const char *ref = value_of(cJSON_GetArrayItem(fk, 1)), *sepr = ref ? strstr(ref, "__") : NULL;
                if (sepr) {
                    to = sepr + 2;
                    sq_buf_printf(&b, ", FOREIGN KEY(\"%s\") REFERENCES \"%.*s\"(\"%s\")", from,
                                  (int)(sepr - ref), ref, to);
                }
            }
        }
        sq_buf_puts(&b, ");\n");
    }
    return sq_buf_detach(&b);
}

static int load_equiv(Corpus *c) {
    char *path = path_join(c->root, "equiv/calcite.jsonl");
    size_t nl;
    char **lines = read_lines(path, &nl);
    free(path);
    if (!lines) return -1;
    char origin[256];
    for (size_t i = 0; i < nl; i++) {
        cJSON *j = cJSON_Parse(lines[i]);
        cJSON *pair = cJSON_GetObjectItem(j, "pair");
        if (!cJSON_IsArray(pair)) {
            cJSON_Delete(j);
            continue;
        }
        c->equiv_schemas = sq_realloc(c->equiv_schemas,
                                      (c->n_equiv_schemas + 1) * sizeof(char *));
        c->equiv_schemas[c->n_equiv_schemas] =
            calcite_schema_sql(cJSON_GetObjectItem(j, "schema"), cJSON_GetObjectItem(j, "constraint"));
        for (int k = 0; k < 2; k++) {
            const char *q = cJSON_GetStringValue(cJSON_GetArrayItem(pair, k));
            if (!q) continue;
            snprintf(origin, sizeof origin, "equiv/calcite.jsonl#%zu.%d", i + 1, k);
            add(c, CORPUS_EQUIV, origin, NULL, q, strlen(q));
            c->q[c->n - 1].schema = (int)c->n_equiv_schemas;
        }
        c->n_equiv_schemas++;
        cJSON_Delete(j);
    }
    free_lines(lines, nl);
    return 1;
}

int corpus_load(Corpus *c) {
    memset(c, 0, sizeof *c);
    const char *root = getenv("SQUINT_CORPORA");
    c->root = sq_strdup(root && *root ? root : "../shared/corpora");
    struct stat st;
    if (stat(c->root, &st) != 0 || !S_ISDIR(st.st_mode)) return 0;
    if (load_benchmark(c, CORPUS_SPIDER, "spider-dev", "query", "spider") < 0 ||
        load_benchmark(c, CORPUS_BIRD, "bird-dev", "SQL", "bird") < 0 ||
        load_equiv(c) < 0)
        return -1;
    return 1;
}

void corpus_free(Corpus *c) {
    for (size_t i = 0; i < c->n; i++) {
        free(c->q[i].origin);
        free(c->q[i].db_id);
        free(c->q[i].sql);
    }
    for (size_t i = 0; i < c->n_equiv_schemas; i++) free(c->equiv_schemas[i]);
    free(c->equiv_schemas);
    free(c->q);
    free(c->root);
    memset(c, 0, sizeof *c);
}

char *corpus_spider_db(const Corpus *c, const char *db_id) {
    SqBuf p = SQ_BUF_INIT;
    sq_buf_printf(&p, "%s/spider-dev/database/%s/%s.sqlite", c->root, db_id, db_id);
    return sq_buf_detach(&p);
}

char *corpus_bird_schema(const Corpus *c, const char *db_id) {
    SqBuf p = SQ_BUF_INIT;
    sq_buf_printf(&p, "%s/bird-dev/schemas/%s.sql", c->root, db_id);
    return sq_buf_detach(&p);
}

/* ------------------------------------------------------------ databases */

static sqlite3 *memory_db_with(const char *script) {
    sqlite3 *db;
    sqlite3_open(":memory:", &db);
    if (script) sqlite3_exec(db, script, NULL, NULL, NULL);
    return db;
}

static sqlite3 *open_spider(const Corpus *c, const char *db_id) {
    char *path = corpus_spider_db(c, db_id);
    char *uri = sqlite3_mprintf("file:%s?mode=ro", path);
    sqlite3 *db = NULL;
    if (sqlite3_open_v2(uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL)
        != SQLITE_OK) {
        sqlite3_close(db);
        db = memory_db_with(NULL);
    }
    sqlite3_free(uri);
    free(path);
    return db;
}

static sqlite3 *open_bird(const Corpus *c, const char *db_id) {
    char *path = db_id ? corpus_bird_schema(c, db_id) : NULL;
    size_t len;
    int err;
    char *ddl = path ? sq_read_file(path, &len, &err) : NULL;
    sqlite3 *db = memory_db_with(ddl);
    free(ddl);
    free(path);
    return db;
}

sqlite3 *corpus_db(CorpusDbs *cache, const Corpus *c, const CorpusQuery *q) {
    char key[512];
    snprintf(key, sizeof key, "%d:%s:%d", (int)q->set, q->db_id ? q->db_id : "",
             q->schema);
    for (size_t i = 0; i < cache->n; i++)
        if (strcmp(cache->keys[i], key) == 0) return cache->dbs[i];
    sqlite3 *db = q->set == CORPUS_SPIDER ? open_spider(c, q->db_id)
                : q->set == CORPUS_BIRD   ? open_bird(c, q->db_id)
                : memory_db_with(q->schema >= 0 ? c->equiv_schemas[q->schema] : NULL);
    cache->keys = sq_realloc(cache->keys, (cache->n + 1) * sizeof *cache->keys);
    cache->dbs = sq_realloc(cache->dbs, (cache->n + 1) * sizeof *cache->dbs);
    cache->keys[cache->n] = sq_strdup(key);
    cache->dbs[cache->n++] = db;
    return db;
}

void corpus_dbs_close(CorpusDbs *cache) {
    for (size_t i = 0; i < cache->n; i++) {
        sqlite3_close(cache->dbs[i]);
        free(cache->keys[i]);
    }
    free(cache->keys);
    free(cache->dbs);
    memset(cache, 0, sizeof *cache);
}

/* Errors SQLite raises while parsing, before it looks at any name.  Every
** other prepare error is about names or meaning and counts as accepted. */
static const char *const syntax_messages[] = {
    "syntax error", "incomplete input", "unrecognized token",
    "clause should come after", "unknown join type",
    "a JOIN clause is required before", "unknown table option",
    "syntax error after column name", "Expression tree is too large",
    "parser stack overflow", "too many terms in compound SELECT",
    "too many arguments on function",
    "DISTINCT is not supported for window functions",
    "variable number must be between", "too many SQL variables",
    "qualified table names are not allowed", "clause is not allowed on UPDATE",
    NULL};

int corpus_is_syntax_error(const char *msg) {
    for (const char *const *m = syntax_messages; *m; m++)
        if (strstr(msg, *m)) return 1;
    return 0;
}

/* ---------------------------------------------------------------- catalogs */

static char *catalog_key(const CorpusQuery *q) {
    char buf[256];
    if (q->set == CORPUS_EQUIV) snprintf(buf, sizeof buf, "equiv:%d", q->schema);
    else snprintf(buf, sizeof buf, "%s:%s", q->set == CORPUS_SPIDER ? "spider" : "bird",
                  q->db_id ? q->db_id : "");
    return sq_strdup(buf);
}

static Catalog *load_catalog(const Corpus *c, const CorpusQuery *q, SqContext *ctx) {
    Catalog *cat;
    if (q->set == CORPUS_SPIDER) {
        char *path = corpus_spider_db(c, q->db_id);
        cat = sq_ctx_load_sqlite(ctx, path);
        free(path);
    } else if (q->set == CORPUS_BIRD) {
        char *path = corpus_bird_schema(c, q->db_id);
        cat = sq_ctx_load_schema(ctx, path, SQ_SCHEMA_KEEP_ERRORS, NULL);
        free(path);
    } else {
        const char *ddl = c->equiv_schemas[q->schema];
        cat = sq_ctx_load_ddl(ctx, "equiv-schema", ddl, strlen(ddl));
    }
    return cat;
}

Catalog *corpus_catalog(CorpusCatalogs *cache, const Corpus *c, const CorpusQuery *q,
                        SqContext *ctx) {
    char *key = catalog_key(q);
    for (size_t i = 0; i < cache->n; i++)
        if (strcmp(cache->keys[i], key) == 0) {
            free(key);
            return cache->cats[i];
        }
    if (cache->n == cache->cap) {
        cache->cap = cache->cap ? cache->cap * 2 : 64;
        cache->keys = sq_realloc(cache->keys, cache->cap * sizeof *cache->keys);
        cache->cats = sq_realloc(cache->cats, cache->cap * sizeof *cache->cats);
    }
    cache->keys[cache->n] = key;
    cache->cats[cache->n] = load_catalog(c, q, ctx);
    return cache->cats[cache->n++];
}

void corpus_catalogs_free(CorpusCatalogs *cache) {
    for (size_t i = 0; i < cache->n; i++) free(cache->keys[i]);
    free(cache->keys);
    free(cache->cats);
    memset(cache, 0, sizeof *cache);
}

/* ---- tallies and timing ---------------------------------------------- */

void corpus_tally_add(CorpusTally *t, const char *text) {
    for (size_t i = 0; i < t->n; i++)
        if (strcmp(t->items[i].text, text) == 0) {
            t->items[i].n++;
            return;
        }
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 16;
        t->items = sq_realloc(t->items, t->cap * sizeof *t->items);
    }
    t->items[t->n++] = (CorpusTallyItem){sq_strdup(text), 1};
}

static int by_count(const void *a, const void *b) {
    const CorpusTallyItem *x = a, *y = b;
    return (x->n < y->n) - (x->n > y->n);
}

void corpus_tally_sort(CorpusTally *t) {
    if (t->n > 1) qsort(t->items, t->n, sizeof *t->items, by_count);
}

void corpus_tally_free(CorpusTally *t) {
    for (size_t i = 0; i < t->n; i++) free(t->items[i].text);
    free(t->items);
    memset(t, 0, sizeof *t);
}

int corpus_cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}
