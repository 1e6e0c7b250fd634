/*
** compile_config.c -- reading squint.json (compile_config.h).
**
**   {"version": 1,
**    "packages": [{"name": "shop", "schema": "migrations",
**                  "queries": ["queries"], "out": "gen",
**                  "emit_json": false, "strict": false}]}
**
** The keys are checked as a compiler checks names: one not known is an
** error at its place (a typo must not silently drop an option), as is a
** value of the wrong type or a missing required key.  Paths are relative
** to the file's directory, so a project compiles the same from anywhere.
*/
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "backend/cbind/cbind.h"
#include "cli/compile_config.h"
#include "runtime/json.h"
#include "runtime/util.h"

typedef struct Reader {
    const SqSrc *src;
    SqDiags *d;
    SqArena *a;
    const char *dir;        /* the file's directory, "" for the current one */
    size_t errors;
} Reader;

static SrcSpan at(const Reader *r, const SqJson *v) { return sq_span(r->src->id, v->start, v->end); }

static void bad(Reader *r, const SqJson *v, const char *fmt, const char *arg) {
    sq_diag_add(r->d, SQ_SEV_ERROR, SQ_E_CONFIG, at(r, v), fmt, arg);
    r->errors++;
}

static SrcSpan key_at(const Reader *r, const SqJson *obj, uint32_t i) {
    uint32_t s, e;
    sq_json_key_place(r->src->text, obj, i, &s, &e);
    return sq_span(r->src->id, s, e);
}

/* Every key of obj is one of known (NULL-ended) and appears once; else
** an error at it, naming the keys allowed. */
static void known_keys(Reader *r, const SqJson *obj, const char *what, const char *const *known) {
    for (uint32_t i = 0; i < obj->n; i++) {
        if (sq_json_key_repeats(obj, i)) {
            sq_diag_add(r->d, SQ_SEV_ERROR, SQ_E_CONFIG, key_at(r, obj, i), "the key '%s' appears twice in %s",
                        obj->keys[i], what);
            r->errors++;
        }
        size_t k = 0;
        while (known[k] && strcmp(known[k], obj->keys[i]) != 0) k++;
        if (known[k]) continue;
        SqBuf list = SQ_BUF_INIT;
        for (k = 0; known[k]; k++) sq_buf_printf(&list, "%s%s", k ? ", " : "", known[k]);
        SqDiag *g = sq_diag_add(r->d, SQ_SEV_ERROR, SQ_E_CONFIG, key_at(r, obj, i), "unknown key '%s' in %s",
                                obj->keys[i], what);
        sq_diag_help(g, "the keys of %s are: %s", what, list.data);
        sq_buf_free(&list);
        r->errors++;
    }
}

static const char *path_of(Reader *r, const SqJson *v) {
    if (!v->str[0]) {
        bad(r, v, "%san empty path", "");
        return NULL;
    }
    if (v->str[0] == '/' || !r->dir[0]) return sq_arena_strdup(r->a, v->str);
    return sq_arena_printf(r->a, "%s/%s", r->dir, v->str);
}

/* A string member that is a path; NULL (with an error when required). */
static const char *path_member(Reader *r, const SqJson *pkg, const char *key, int required) {
    const SqJson *v = sq_json_get(pkg, key);
    if (!v) {
        if (required) bad(r, pkg, "a package needs \"%s\"", key);
        return NULL;
    }
    if (v->kind != SQ_JSON_STRING) {
        bad(r, v, "\"%s\" takes a string (a path)", key);
        return NULL;
    }
    return path_of(r, v);
}

static int bool_member(Reader *r, const SqJson *pkg, const char *key) {
    const SqJson *v = sq_json_get(pkg, key);
    if (!v) return 0;
    if (v->kind != SQ_JSON_TRUE && v->kind != SQ_JSON_FALSE) bad(r, v, "\"%s\" takes true or false", key);
    return v->kind == SQ_JSON_TRUE;
}

/* "queries": a path or an array of paths. */
static void queries_member(Reader *r, const SqJson *pkg, CompilePackage *p) {
    const SqJson *v = sq_json_get(pkg, "queries");
    if (!v) {
        bad(r, pkg, "a package needs \"%s\"", "queries");
        return;
    }
    uint32_t n = v->kind == SQ_JSON_ARRAY ? v->n : 1;
    p->queries = sq_arena_alloc(r->a, (n + 1) * sizeof *p->queries);
    for (uint32_t i = 0; i < n; i++) {
        const SqJson *one = v->kind == SQ_JSON_ARRAY ? v->items[i] : v;
        if (one->kind != SQ_JSON_STRING) {
            bad(r, one, "%s\"queries\" takes a path or an array of paths", "");
            continue;
        }
        const char *path = path_of(r, one);
        if (path) p->queries[p->n_queries++] = path;
    }
    if (!n) bad(r, v, "%s\"queries\" names no file", "");
}

static void read_package(Reader *r, const SqJson *pkg, CompilePackage *p) {
    static const char *const keys[] = {"name", "schema", "queries", "out", "emit_json", "strict", NULL};
    memset(p, 0, sizeof *p);
    p->at = at(r, pkg);
    if (pkg->kind != SQ_JSON_OBJECT) {
        bad(r, pkg, "%sa package is an object", "");
        return;
    }
    known_keys(r, pkg, "a package", keys);
    const SqJson *name = sq_json_get(pkg, "name");
    if (!name) bad(r, pkg, "a package needs \"%s\"", "name");
    else if (name->kind != SQ_JSON_STRING || !sq_cbind_is_c_identifier(name->str, name->len))
        bad(r, name, "%s\"name\" is the prefix of the generated C symbols: it must be a C identifier", "");
    else p->name = name->str;
    p->schema = path_member(r, pkg, "schema", 1);
    queries_member(r, pkg, p);
    p->out = path_member(r, pkg, "out", 0);
    if (!p->out) p->out = r->dir[0] ? r->dir : ".";
    p->emit_json = bool_member(r, pkg, "emit_json");
    p->strict = bool_member(r, pkg, "strict");
}

/* Two packages of one name would write the same symbols. */
static void distinct_names(Reader *r, const SqJson *arr, const CompileConfig *c) {
    for (size_t i = 0; i < c->n; i++)
        for (size_t j = 0; j < i; j++)
            if (c->pkgs[i].name && c->pkgs[j].name && strcmp(c->pkgs[i].name, c->pkgs[j].name) == 0)
                bad(r, arr->items[i], "a second package named '%s'", c->pkgs[i].name);
}

static void read_top(Reader *r, const SqJson *top, CompileConfig *c) {
    if (top->kind != SQ_JSON_OBJECT) {
        bad(r, top, "%ssquint.json holds an object: {\"version\": 1, \"packages\": [...]}", "");
        return;
    }
    /* Its other keys are the project file's: cli_config.c checks them. */
    const SqJson *v = sq_json_get(top, "version");
    if (!v) bad(r, top, "the file needs \"%s\": 1", "version");
    else if (v->kind != SQ_JSON_NUMBER || !v->is_int || v->inum != 1)
        bad(r, v, "%sthis squint reads \"version\": 1", "");
    const SqJson *pkgs = sq_json_get(top, "packages");
    if (!pkgs || pkgs->kind != SQ_JSON_ARRAY || !pkgs->n) {
        bad(r, pkgs ? pkgs : top, "%s\"packages\" is a non-empty array of packages", "");
        return;
    }
    c->pkgs = sq_arena_alloc(r->a, pkgs->n * sizeof *c->pkgs);
    for (uint32_t i = 0; i < pkgs->n; i++) read_package(r, pkgs->items[i], &c->pkgs[c->n++]);
    distinct_names(r, pkgs, c);
}

int compile_config_read(const char *path, SqSrcSet *srcs, SqDiags *d, SqArena *a, CompileConfig *out) {
    memset(out, 0, sizeof *out);
    int err;
    const SqSrc *src = sq_src_add_file(srcs, path, &err);
    if (!src) {
        fprintf(stderr, "squint compile: cannot read '%s': %s\n", path, strerror(err));
        return -2;
    }
    out->src = src;
    const char *slash = strrchr(path, '/');
    Reader r = {src, d, a, slash ? sq_arena_strndup(a, path, (size_t)(slash - path) + (slash == path)) : "", 0};
    SqJsonError jerr;
    const SqJson *top = sq_json_parse(a, src->text, src->len, &jerr);
    if (!top) {
        sq_diag_add(d, SQ_SEV_ERROR, SQ_E_CONFIG, sq_span(src->id, jerr.offset, jerr.offset), "%s", jerr.msg);
        return -1;
    }
    read_top(&r, top, out);
    return r.errors ? -1 : 0;
}
