/*
** src.c -- source registry, line tables and position lookup.
**
** Layer: runtime.  Line tables are built on the first lookup in a file and
** cost four bytes per line.
*/
#include "runtime/src.h"

#include <stdlib.h>
#include <string.h>

#include "runtime/util.h"

void sq_srcset_init(SqSrcSet *set) {
    set->n = 1; /* id 0 is reserved for "no source" */
    set->stdin_name = NULL;
    set->cap = 8;
    set->srcs = sq_calloc(set->cap, sizeof *set->srcs);
}

static void src_free(SqSrc *s) {
    free(s->name);
    free(s->text);
    free(s->line_starts);
    free(s->segs);
    free(s->item);
    free(s);
}

void sq_srcset_free(SqSrcSet *set) {
    for (uint32_t i = 1; i < set->n; i++) src_free(set->srcs[i]);
    free(set->srcs);
    set->srcs = NULL;
    set->n = set->cap = 0;
}

SqSrc *sq_src_add(SqSrcSet *set, const char *name, char *text, size_t len) {
    if (set->n == set->cap) {
        set->cap *= 2;
        set->srcs = sq_realloc(set->srcs, set->cap * sizeof *set->srcs);
    }
    SqSrc *s = sq_calloc(1, sizeof *s);
    s->id = set->n;
    s->name = sq_strdup(name);
    s->text = text;
    s->len = len;
    set->srcs[set->n++] = s;
    return s;
}

SqSrc *sq_src_add_copy(SqSrcSet *set, const char *name, const char *text,
                       size_t len) {
    char *t = sq_malloc(len + 2);
    memcpy(t, text, len);
    t[len] = t[len + 1] = 0;
    return sq_src_add(set, name, t, len);
}

SqSrc *sq_src_add_file(SqSrcSet *set, const char *path, int *err) {
    size_t len;
    char *text = sq_read_file(path, &len, err);
    if (!text) return NULL;
    const char *name = strcmp(path, "-") != 0 ? path : set->stdin_name ? set->stdin_name : "<stdin>";
    return sq_src_add(set, name, text, len);
}

void sq_src_embed(SqSrc *src, SqSrc *parent, const SqSrcSeg *segs,
                  uint32_t n_segs, const char *item) {
    src->parent = parent;
    src->segs = sq_malloc((n_segs ? n_segs : 1) * sizeof *segs);
    memcpy(src->segs, segs, n_segs * sizeof *segs);
    src->n_segs = n_segs;
    src->item = item ? sq_strdup(item) : NULL;
}

void sq_srcset_truncate(SqSrcSet *set, uint32_t keep) {
    if (keep < 1) keep = 1;
    while (set->n > keep) src_free(set->srcs[--set->n]);
}

SqSrc *sq_src_get(const SqSrcSet *set, uint32_t id) {
    return (id > 0 && id < set->n) ? set->srcs[id] : NULL;
}

static void build_lines(SqSrc *s) {
    uint32_t cap = 64, n = 0;
    uint32_t *ls = sq_malloc(cap * sizeof *ls);
    ls[n++] = 0;
    const char *p = s->text, *end = s->text + s->len;
    while ((p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
        if (n == cap) ls = sq_realloc(ls, (cap *= 2) * sizeof *ls);
        ls[n++] = (uint32_t)(++p - s->text);
    }
    s->line_starts = ls;
    s->n_lines = n;
}

/* Largest i with v[i] <= off (v sorted, v[0] <= off). */
static uint32_t floor_index(const uint32_t *v, size_t stride, uint32_t n,
                            uint32_t off) {
    uint32_t lo = 0, hi = n;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (v[(size_t)mid * stride] <= off) lo = mid; else hi = mid;
    }
    return lo;
}

static uint32_t map_to_parent(const SqSrc *s, uint32_t off) {
    if (s->n_segs == 0) return off;
    const uint32_t *base = &s->segs[0].child_off;
    uint32_t i = floor_index(base, 2, s->n_segs, off);
    return s->segs[i].parent_off + (off - s->segs[i].child_off);
}

void sq_src_index(const SqSrc *src) {
    while (src->parent) src = src->parent;
    SqSrc *f = (SqSrc *)src; /* the line table is a cache */
    if (!f->n_lines) build_lines(f);
}

SqSrcPos sq_src_locate(const SqSrc *src, uint32_t off) {
    while (src->parent) {
        off = map_to_parent(src, off);
        src = src->parent;
    }
    SqSrc *f = (SqSrc *)src; /* the line table is a cache */
    if (!f->n_lines) build_lines(f);
    if (off > f->len) off = (uint32_t)f->len;
    uint32_t li = floor_index(f->line_starts, 1, f->n_lines, off);
    SqSrcPos pos = {f, off, li + 1, off - f->line_starts[li] + 1};
    return pos;
}

const char *sq_src_line(const SqSrc *file, uint32_t line, size_t *len) {
    SqSrc *f = (SqSrc *)file;
    if (!f->n_lines) build_lines(f);
    if (line == 0 || line > f->n_lines) {
        *len = 0;
        return "";
    }
    uint32_t start = f->line_starts[line - 1];
    const char *p = f->text + start;
    const char *nl = memchr(p, '\n', f->len - start);
    size_t n = nl ? (size_t)(nl - p) : f->len - start;
    if (n && p[n - 1] == '\r') n--;
    *len = n;
    return p;
}
