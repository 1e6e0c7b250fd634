/*
** fuzz_util.h -- what the libFuzzer targets share: the fixed schema they
** bind against, loaded once, and a renderer that sends every diagnostic
** through both output formats.
**
** Test code (tests/fuzz/), built only by tests/fuzz/run.sh.  Header-only:
** each target is one translation unit, so the helpers are static.
** FUZZ_ROOT (a -D of run.sh) is the repository's absolute path.
**
** Memory: FuzzSchema owns its sources, diagnostics, interner and catalog
** for the life of the process (libFuzzer never tears a target down).
*/
#ifndef SQ_FUZZ_UTIL_H
#define SQ_FUZZ_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/catalog.h"
#include "runtime/diag.h"
#include "runtime/jsonw.h"
#include "runtime/util.h"

#ifndef FUZZ_ROOT
#define FUZZ_ROOT "."
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* The schema every statement is bound against, with what it lives in. */
typedef struct FuzzSchema {
    SqSrcSet srcs;     /* the schema's source (and, per input, the input's) */
    SqDiags diags;     /* the schema's own diagnostics, then the input's */
    SqInterner *names; /* shared with every input's parser and binder */
    Catalog *cat;
    char *script;      /* the schema's text (NUL-terminated), for SQLite */
} FuzzSchema;

/* Load FUZZ_ROOT/rel as DDL into s; aborts when it cannot be read, since
** a target without its schema would fuzz nothing. */
static inline void fuzz_schema_load(FuzzSchema *s, const char *rel) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", FUZZ_ROOT, rel);
    size_t len;
    int err;
    s->script = sq_read_file(path, &len, &err);
    if (!s->script) {
        fprintf(stderr, "fuzz: cannot read the schema %s\n", path);
        abort();
    }
    sq_srcset_init(&s->srcs);
    sq_diags_init(&s->diags, &s->srcs);
    s->names = sq_interner_new();
    s->cat = sq_catalog_new(s->names, rel);
    SqSrc *src = sq_src_add_copy(&s->srcs, rel, s->script, len);
    sq_catalog_load_ddl(s->cat, src, &s->diags);
    sq_catalog_link(s->cat, &s->diags);
}

/* Render diagnostics from keep on as text (with and without color) and
** as JSON: the caret code and the JSON writer see every input's spans. */
static inline void fuzz_render_diags(const SqDiags *d, size_t keep) {
    SqBuf out = SQ_BUF_INIT;
    SqJsonWriter w;
    sq_jw_init(&w, &out, 0);
    for (size_t i = keep; i < d->n; i++) {
        sq_diag_render_text(d, d->items[i], &out, (int)(i & 1));
        sq_diag_render_json(d, d->items[i], &w);
        sq_buf_reset(&out);
    }
    sq_buf_free(&out);
}

#endif
