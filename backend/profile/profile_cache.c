/*
** profile_cache.c -- database profiles kept between runs (see profile.h).
**
** Layer: backend/profile.  Takes a database path, a catalog and a cache
** directory; gives the profile, read from the cache when it is fresh,
** else scanned (profile.c) and written to the cache.
**
** The cache file of a database is DIR/profile-<digest>.json, the digest a
** 64-bit FNV-1a of the database's absolute path.  Its content is one JSON
** object whose first member is the format marker:
**
**   {"format":"squint-profile","version":1,"path":ABS,"size":N,
**    "mtime":S,"mtime_ns":NS,"tables":[{"name":T,"columns":[{"name":C,
**    "rows":N,"nulls":N,"distinct":N,"shapes":BITS,"min":V,"max":V,
**    "common":[[V,COUNT],...]},...]},...]}
**
** (values as the fixture's JSON writes them: a REAL always with a point
** or an exponent, BLOB {"blob":HEX}, TEXT that is not UTF-8 {"text":HEX};
** "min" and "max" absent without a range).  It is used only when path,
** size and modification time (to the nanosecond) match the database's and
** it names every stored column of the catalog; otherwise, or when it
** cannot be read, the database is scanned and the file rewritten.  A file
** at that name that does not start with the marker is not ours and is
** never replaced.  Writes go through a temporary file and a rename
** (runtime/safewrite.h); a cache that cannot be written is not an error.
*/
#include "backend/profile/profile_int.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "runtime/json.h"
#include "runtime/jsonw.h"
#include "runtime/safewrite.h"
#include "runtime/util.h"

#define MARKER "{\"format\":\"squint-profile\""
enum { CACHE_VERSION = 1 };

/* What identifies the database's content. */
typedef struct DbStamp {
    const char *path;       /* absolute */
    int64_t size, mtime, mtime_ns;
} DbStamp;

/* ---- where ---------------------------------------------------------------- */

/* The cache directory (heap): dir, $SQUINT_CACHE, $XDG_CACHE_HOME/squint or
** $HOME/.cache/squint; NULL when none can be named. */
static char *cache_dir_of(const char *dir) {
    const char *env;
    if (dir && *dir) return sq_strdup(dir);
    if ((env = getenv("SQUINT_CACHE")) && *env) return sq_strdup(env);
    SqBuf b = SQ_BUF_INIT;
    if ((env = getenv("XDG_CACHE_HOME")) && *env) sq_buf_printf(&b, "%s/squint", env);
    else if ((env = getenv("HOME")) && *env) sq_buf_printf(&b, "%s/.cache/squint", env);
    else return NULL;
    return sq_buf_detach(&b);
}

/* mkdir -p, each new directory readable by its owner only (a cache holds
** values of the databases). */
static int make_dirs(const char *dir) {
    char *p = sq_strdup(dir);
    int rc = 0;
    for (char *s = p + 1; rc == 0; s++) {
        int end = *s == 0;
        if (*s != '/' && !end) continue;
        *s = 0;
        if (mkdir(p, 0700) < 0 && errno != EEXIST) rc = -1;
        if (end) break;
        *s = '/';
    }
    struct stat st;
    if (rc == 0 && (stat(p, &st) < 0 || !S_ISDIR(st.st_mode))) rc = -1;
    free(p);
    return rc;
}

static uint64_t fnv1a(const char *s) {
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    for (; *s; s++) h = (h ^ (unsigned char)*s) * UINT64_C(0x100000001b3);
    return h;
}

/* ---- writing ----------------------------------------------------------------- */

static void put_value(SqJsonWriter *w, const SqValue *v) { sq_value_json(w, v); }

static void put_column(SqJsonWriter *w, const SqColumnProfile *cp) {
    sq_jw_obj_begin(w);
    sq_jw_key(w, "name");
    sq_jw_str(w, cp->table->cols[cp->col].name);
    sq_jw_key(w, "rows");
    sq_jw_int(w, cp->rows);
    sq_jw_key(w, "nulls");
    sq_jw_int(w, cp->nulls);
    sq_jw_key(w, "distinct");
    sq_jw_int(w, cp->distinct);
    sq_jw_key(w, "shapes");
    sq_jw_int(w, cp->shapes);
    if (cp->has_range) {
        sq_jw_key(w, "min");
        put_value(w, &cp->min);
        sq_jw_key(w, "max");
        put_value(w, &cp->max);
    }
    sq_jw_key(w, "common");
    sq_jw_arr_begin(w);
    for (uint32_t i = 0; i < cp->n_common; i++) {
        sq_jw_arr_begin(w);
        put_value(w, &cp->common[i]);
        sq_jw_int(w, cp->common_count[i]);
        sq_jw_arr_end(w);
    }
    sq_jw_arr_end(w);
    sq_jw_obj_end(w);
}

static void put_profile(SqBuf *out, const SqProfile *p, const DbStamp *st) {
    SqJsonWriter w;
    sq_jw_init(&w, out, 0);
    sq_jw_obj_begin(&w);
    sq_jw_key(&w, "format");
    sq_jw_str(&w, "squint-profile");
    sq_jw_key(&w, "version");
    sq_jw_int(&w, CACHE_VERSION);
    sq_jw_key(&w, "path");
    sq_jw_str(&w, st->path);
    sq_jw_key(&w, "size");
    sq_jw_int(&w, st->size);
    sq_jw_key(&w, "mtime");
    sq_jw_int(&w, st->mtime);
    sq_jw_key(&w, "mtime_ns");
    sq_jw_int(&w, st->mtime_ns);
    sq_jw_key(&w, "tables");
    sq_jw_arr_begin(&w);
    for (uint32_t i = 0; i < p->n_cols; i++) {
        const SqColumnProfile *cp = &p->cols[i];
        if (cp->col == 0) {
            if (i) {
                sq_jw_arr_end(&w);
                sq_jw_obj_end(&w);
            }
            sq_jw_obj_begin(&w);
            sq_jw_key(&w, "name");
            sq_jw_str(&w, cp->table->name);
            sq_jw_key(&w, "columns");
            sq_jw_arr_begin(&w);
        }
        put_column(&w, cp);
    }
    if (p->n_cols) {
        sq_jw_arr_end(&w);
        sq_jw_obj_end(&w);
    }
    sq_jw_arr_end(&w);
    sq_jw_obj_end(&w);
    sq_buf_puts(out, "\n");
}

/* Whether the file at file is ours to replace: absent, or starting with
** the marker. */
static int ours_or_absent(const char *file) {
    FILE *f = fopen(file, "rb");
    if (!f) return errno == ENOENT;
    char head[sizeof MARKER];
    size_t n = fread(head, 1, sizeof MARKER - 1, f);
    fclose(f);
    return n == sizeof MARKER - 1 && memcmp(head, MARKER, n) == 0;
}

static void write_cache(const char *dir, const char *file, const SqProfile *p, const DbStamp *st) {
    if (sq_path_is_special(file) || !ours_or_absent(file) || make_dirs(dir) < 0) return;
    SqBuf b = SQ_BUF_INIT;
    put_profile(&b, p, st);
    int e;
    (void)sq_write_replace(file, sq_buf_str(&b), b.len, &e);
    sq_buf_free(&b);
}

/* ---- reading -------------------------------------------------------------------- */

/* {"blob": HEX} or {"text": HEX} as a value in p's arena; 0 when malformed. */
static int hex_value(SqProfile *p, const SqJson *j, SqValue *v) {
    const SqJson *h = sq_json_get(j, "blob");
    uint8_t type = SQ_VAL_BLOB;
    if (!h) h = sq_json_get(j, "text"), type = SQ_VAL_TEXT;
    if (!h || h->kind != SQ_JSON_STRING || h->len % 2) return 0;
    char *bytes = sq_arena_alloc(p->arena, h->len / 2 + 1);
    if (sq_hex_decode(h->str, h->len, bytes) < 0) return 0;
    *v = sq_value_null();
    v->type = type;
    v->s = bytes;
    v->n = h->len / 2;
    return 1;
}

/* A value as put_value wrote it, in p's arena; 0 when malformed. */
static int get_value(SqProfile *p, const SqJson *j, SqValue *v) {
    if (!j) return 0;
    switch (j->kind) {
    case SQ_JSON_NULL: *v = sq_value_null(); return 1;
    case SQ_JSON_NUMBER: *v = j->is_int ? sq_value_int(j->inum) : sq_value_real(j->num); return 1;
    case SQ_JSON_STRING:
        *v = sq_value_null();
        v->type = SQ_VAL_TEXT;
        v->s = sq_arena_strndup(p->arena, j->str, j->len);
        v->n = j->len;
        return 1;
    case SQ_JSON_OBJECT: return hex_value(p, j, v);
    default: return 0;
    }
}

static int get_int(const SqJson *obj, const char *key, int64_t *out) {
    const SqJson *j = sq_json_get(obj, key);
    if (!j || j->kind != SQ_JSON_NUMBER || !j->is_int) return 0;
    *out = j->inum;
    return 1;
}


static int get_column(SqProfile *p, SqColumnProfile *cp, const SqJson *col) {
    int64_t shapes;
    if (!get_int(col, "rows", &cp->rows) || !get_int(col, "nulls", &cp->nulls) ||
        !get_int(col, "distinct", &cp->distinct) || !get_int(col, "shapes", &shapes))
        return 0;
    cp->shapes = (unsigned)shapes;
    const SqJson *lo = sq_json_get(col, "min"), *hi = sq_json_get(col, "max");
    if (lo || hi) {
        if (!get_value(p, lo, &cp->min) || !get_value(p, hi, &cp->max)) return 0;
        cp->has_range = 1;
    }
    const SqJson *common = sq_json_get(col, "common");
    if (!common || common->kind != SQ_JSON_ARRAY) return 0;
    for (uint32_t i = 0; i < common->n; i++) {
        const SqJson *pair = common->items[i];
        SqValue v;
        if (pair->kind != SQ_JSON_ARRAY || pair->n != 2 || !get_value(p, pair->items[0], &v) ||
            pair->items[1]->kind != SQ_JSON_NUMBER || !pair->items[1]->is_int)
            return 0;
        sq_profile_add_common(p, cp, &v, pair->items[1]->inum);
    }
    return 1;
}

/* The profile in doc, when it is fresh for st and names every column. */
static int get_profile(SqProfile *p, const SqJson *doc, const DbStamp *st) {
    int64_t version, size, mtime, ns;
    const char *path = sq_json_string(sq_json_get(doc, "path"));
    if (!get_int(doc, "version", &version) || version != CACHE_VERSION || !path || strcmp(path, st->path) != 0 ||
        !get_int(doc, "size", &size) || !get_int(doc, "mtime", &mtime) || !get_int(doc, "mtime_ns", &ns) ||
        size != st->size || mtime != st->mtime || ns != st->mtime_ns)
        return 0;
    const SqJson *tables = sq_json_get(doc, "tables"), *tab = NULL;
    for (uint32_t i = 0; i < p->n_cols; i++) {
        SqColumnProfile *cp = &p->cols[i];
        if (cp->col == 0 && !(tab = sq_profile_json_named(tables, cp->table->name))) return 0;
        const SqJson *col = sq_profile_json_named(sq_json_get(tab, "columns"), cp->table->cols[cp->col].name);
        if (!col || !get_column(p, cp, col)) return 0;
    }
    return 1;
}

static int read_cache(SqProfile *p, const Catalog *cat, const char *file, const DbStamp *st) {
    size_t len;
    int e;
    char *text = sq_read_file(file, &len, &e);
    if (!text) return 0;
    int ok = 0;
    if (len >= sizeof MARKER - 1 && memcmp(text, MARKER, sizeof MARKER - 1) == 0) {
        SqArena *a = sq_arena_new();
        const SqJson *doc = sq_json_parse(a, text, len, NULL);
        if (doc) {
            sq_profile_init(p, cat, SQ_PROFILE_DATABASE, st->path);
            ok = get_profile(p, doc, st);
            if (!ok) sq_profile_free(p);
        }
        sq_arena_free(a);
    }
    free(text);
    return ok;
}

/* ---- the entry point ----------------------------------------------------------- */

int sq_profile_load(SqProfile *p, const Catalog *cat, const char *path, const char *cache_dir, char **err) {
    if (err) *err = NULL;
    memset(p, 0, sizeof *p);
    struct stat sb;
    char *abs = realpath(path, NULL);
    if (!abs || stat(abs, &sb) < 0) {
        if (err) {
            SqBuf b = SQ_BUF_INIT;
            sq_buf_printf(&b, "%s: %s", path, strerror(errno));
            *err = sq_buf_detach(&b);
        }
        free(abs);
        return -1;
    }
    DbStamp st = {abs, (int64_t)sb.st_size, (int64_t)sb.st_mtim.tv_sec, (int64_t)sb.st_mtim.tv_nsec};
    char *dir = cache_dir_of(cache_dir), *file = NULL;
    if (dir) {
        SqBuf b = SQ_BUF_INIT;
        sq_buf_printf(&b, "%s/profile-%016llx.json", dir, (unsigned long long)fnv1a(abs));
        file = sq_buf_detach(&b);
    }
    int rc = 0;
    if (file && read_cache(p, cat, file, &st)) {
        p->origin = sq_arena_strdup(p->arena, path);
        p->from_cache = 1;
    } else if ((rc = sq_profile_from_db(p, cat, path, err)) == 0 && file) {
        write_cache(dir, file, p, &st);
    }
    free(file);
    free(dir);
    free(abs);
    return rc;
}

int sq_profile_for(SqProfile *p, const Catalog *cat, const char *metadata, const char *db_path, const char *cache_dir,
                   char **err) {
    if (metadata) return sq_profile_from_metadata(p, cat, metadata, err) < 0 ? -1 : 1;
    if (!db_path) return 0;
    return sq_profile_load(p, cat, db_path, cache_dir, err) < 0 ? -1 : 1;
}
