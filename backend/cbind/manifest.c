/*
** manifest.c -- the JSON manifest of a compiled package: per query its
** name, command, SQL, position, parameters and result columns with their
** types, nullability and source columns.  The stable interface between
** squint compile and a code generator in any language
** (docs/formats.md), so its keys only ever grow: "squint_compile" says
** which version a reader has.
*/
#include <string.h>

#include "backend/cbind/cbind.h"

#define MANIFEST_VERSION 3

static void put_opt_str(SqJsonWriter *w, const char *key, const char *v) {
    sq_jw_key(w, key);
    sq_jw_str(w, v);   /* NULL writes null */
}

static void put_type(SqJsonWriter *w, SqType t) {
    sq_jw_key(w, "type");
    sq_jw_str(w, sq_cbind_type_name(t));
    sq_jw_key(w, "affinity");
    sq_jw_str(w, sq_affinity_name((SqAffinity)t.aff));
    sq_jw_key(w, "nullable");
    sq_jw_bool(w, t.nullable);
}

static void put_param(SqJsonWriter *w, const SqParamInfo *p) {
    sq_jw_obj_begin(w);
    sq_jw_key(w, "index");
    sq_jw_int(w, p->index);
    sq_jw_key(w, "name");
    sq_jw_str(w, p->name);
    sq_jw_key(w, "written");
    sq_jw_str(w, p->written);
    if (p->macro == SQ_MACRO_SLICE) {
        sq_jw_key(w, "slice");
        sq_jw_bool(w, 1);
    }
    put_type(w, p->type);
    put_opt_str(w, "table", p->table);
    put_opt_str(w, "column", p->column);
    put_opt_str(w, "inferred_from", p->from);
    sq_jw_obj_end(w);
}

static void put_column(SqJsonWriter *w, const SqResultInfo *c) {
    sq_jw_obj_begin(w);
    sq_jw_key(w, "name");
    sq_jw_str(w, c->name);
    put_type(w, c->type);
    put_opt_str(w, "decl_type", c->decl_type);
    put_opt_str(w, "table", c->table);
    put_opt_str(w, "column", c->column);
    sq_jw_obj_end(w);
}

static void put_query(SqJsonWriter *w, const SqCompiledQuery *q) {
    const SqAnnotation *a = q->ann;
    SqSrcPos pos = sq_src_locate(q->src, a->stmt.start);
    sq_jw_obj_begin(w);
    sq_jw_key(w, "name");
    sq_jw_str(w, a->name);
    sq_jw_key(w, "cmd");
    sq_jw_str(w, sq_query_cmd_name((SqQueryCmd)a->cmd));
    sq_jw_key(w, "sql");
    sq_jw_str(w, q->sql);
    sq_jw_key(w, "file");
    sq_jw_str(w, q->src->name);
    sq_jw_key(w, "line");
    sq_jw_int(w, pos.line);
    sq_jw_key(w, "column");
    sq_jw_int(w, pos.col);
    sq_jw_key(w, "params");
    sq_jw_arr_begin(w);
    for (uint32_t i = 0; i < q->sig.n_params; i++) put_param(w, &q->sig.params[i]);
    sq_jw_arr_end(w);
    sq_jw_key(w, "columns");
    sq_jw_arr_begin(w);
    for (uint32_t i = 0; i < q->sig.n_cols; i++) put_column(w, &q->sig.cols[i]);
    sq_jw_arr_end(w);
    sq_jw_obj_end(w);
}

void sq_cbind_manifest(SqJsonWriter *w, const char *package, const SqCompiledQuery *qs, size_t n) {
    sq_jw_obj_begin(w);
    sq_jw_key(w, "squint_compile");
    sq_jw_int(w, MANIFEST_VERSION);
    sq_jw_key(w, "package");
    sq_jw_str(w, package);
    sq_jw_key(w, "queries");
    sq_jw_arr_begin(w);
    for (size_t i = 0; i < n; i++) put_query(w, &qs[i]);
    sq_jw_arr_end(w);
    sq_jw_obj_end(w);
}
