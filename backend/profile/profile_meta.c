/*
** profile_meta.c -- a column profile read from BIRD's dev_metadata.json,
** for databases that are not at hand (see profile.h).
**
** Layer: backend/profile.  Takes the metadata file's path and a catalog
** whose db_id names one of its databases; gives an SqProfile.  The file
** is a JSON array of databases:
**
**   [{"name": DB, "tables": [{"name": T, "row_count": N,
**       "columns": [{"name": C, "null_fraction": F, "unique_count": K,
**                    "unique_fraction": G, "sample_values": [...],
**                    "min_value": V, "max_value": V, ...}]}]}]
**
** Counts: rows = row_count; NULLs = null_fraction x rows, rounded;
** distinct = unique_count (the distinct non-NULL values), or
** unique_fraction x rows rounded when that is missing.  Shapes are those
** of the sample values (so a subset of what the data holds: a shape the
** samples lack may still occur), and the sample values are the common
** values, their counts unknown (-1).  JSON integers are INTEGER values,
** other numbers REAL, strings TEXT.  Tables and columns are matched to the
** catalog's by name, ignoring ASCII case; what the file does not name
** stays unknown.
*/
#include "backend/profile/profile_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/json.h"
#include "runtime/util.h"

static void set_err(char **err, const char *path, const char *why, const char *what) {
    if (!err) return;
    size_t n = strlen(path) + strlen(why) + strlen(what) + 8;
    *err = sq_malloc(n);
    snprintf(*err, n, "%s: %s%s", path, why, what);
}

/* A metadata value as a profile value; 0 for null and what is not a
** number or a string. */
static int json_value(const SqJson *j, SqValue *v) {
    if (!j) return 0;
    if (j->kind == SQ_JSON_NUMBER) {
        *v = j->is_int ? sq_value_int(j->inum) : sq_value_real(j->num);
        return 1;
    }
    if (j->kind != SQ_JSON_STRING) return 0;
    *v = sq_value_null();
    v->type = SQ_VAL_TEXT;
    v->s = j->str;
    v->n = j->len;
    return 1;
}

static int64_t count_of(const SqJson *j) {
    if (!j || j->kind != SQ_JSON_NUMBER || j->num < 0 || j->num > 9e18) return -1;
    return j->is_int ? j->inum : (int64_t)(j->num + 0.5);
}

/* A fraction of rows as a count; -1 when either is unknown. */
static int64_t share_of(const SqJson *j, int64_t rows) {
    if (!j || j->kind != SQ_JSON_NUMBER || rows < 0 || j->num < 0 || j->num > 1) return -1;
    return (int64_t)(j->num * (double)rows + 0.5);
}

static void read_column(SqProfile *p, SqColumnProfile *cp, const SqJson *col, int64_t rows) {
    cp->rows = rows;
    cp->nulls = share_of(sq_json_get(col, "null_fraction"), rows);
    cp->distinct = count_of(sq_json_get(col, "unique_count"));
    if (cp->distinct < 0) cp->distinct = share_of(sq_json_get(col, "unique_fraction"), rows);
    SqValue lo, hi;
    if (json_value(sq_json_get(col, "min_value"), &lo) && json_value(sq_json_get(col, "max_value"), &hi) &&
        sq_profile_keep_value(p, &lo, &cp->min) && sq_profile_keep_value(p, &hi, &cp->max))
        cp->has_range = 1;
    else
        cp->min = cp->max = sq_value_null();
    const SqJson *samples = sq_json_get(col, "sample_values");
    if (!samples || samples->kind != SQ_JSON_ARRAY) return;
    for (uint32_t i = 0; i < samples->n; i++) {
        SqValue v;
        if (!json_value(samples->items[i], &v)) continue;
        cp->shapes |= sq_value_shape(&v);
        sq_profile_add_common(p, cp, &v, -1);
    }
}


static void read_table(SqProfile *p, SqColumnProfile *cols, const SqJson *tab) {
    const CatTable *t = cols[0].table;
    int64_t rows = count_of(sq_json_get(tab, "row_count"));
    const SqJson *columns = sq_json_get(tab, "columns");
    for (uint32_t c = 0; c < t->n_cols; c++) {
        const SqJson *col = sq_profile_json_named(columns, t->cols[c].name);
        if (col) read_column(p, &cols[c], col, rows);
    }
}

int sq_profile_from_metadata(SqProfile *p, const Catalog *cat, const char *path, char **err) {
    if (err) *err = NULL;
    memset(p, 0, sizeof *p);
    if (!cat->db_id) {
        set_err(err, path, "the schema names no database to look up", "");
        return -1;
    }
    size_t len;
    int e;
    char *text = sq_read_file(path, &len, &e);
    if (!text) {
        set_err(err, path, strerror(e), "");
        return -1;
    }
    SqArena *a = sq_arena_new();
    SqJsonError jerr;
    const SqJson *doc = sq_json_parse(a, text, len, &jerr);
    free(text);
    const SqJson *db = doc ? sq_profile_json_named(doc, cat->db_id) : NULL;
    if (!db) {
        set_err(err, path, doc ? "no database named " : "not JSON: ", doc ? cat->db_id : jerr.msg);
        sq_arena_free(a);
        return -1;
    }
    sq_profile_init(p, cat, SQ_PROFILE_METADATA, path);
    const SqJson *tables = sq_json_get(db, "tables");
    for (uint32_t i = 0; i < p->n_cols; i++) {
        if (p->cols[i].col != 0) continue;
        const SqJson *tab = sq_profile_json_named(tables, p->cols[i].table->name);
        if (tab) read_table(p, &p->cols[i], tab);
    }
    sq_arena_free(a);
    return 0;
}
