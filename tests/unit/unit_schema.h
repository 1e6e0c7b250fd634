/*
** unit_schema.h -- for unit tests: a catalog loaded from DDL, with the
** sources, diagnostics and names it needs, and their end.  Header only;
** include after cmocka.h.
*/
#ifndef SQ_UNIT_SCHEMA_H
#define SQ_UNIT_SCHEMA_H

#include <string.h>

#include "frontend/catalog.h"
#include "runtime/diag.h"
#include "runtime/intern.h"
#include "runtime/src.h"

typedef struct UnitSchema {
    SqSrcSet srcs;
    SqDiags diags;
    SqInterner *names;
    Catalog *cat;
} UnitSchema;

/* u's catalog from ddl, its foreign keys linked; a failure when the DDL
** has errors. */
static inline void unit_schema_load(UnitSchema *u, const char *ddl) {
    sq_srcset_init(&u->srcs);
    sq_diags_init(&u->diags, &u->srcs);
    u->names = sq_interner_new();
    u->cat = sq_catalog_new(u->names, "schema.sql");
    SqSrc *src = sq_src_add_copy(&u->srcs, "schema.sql", ddl, strlen(ddl));
    assert_int_equal(sq_catalog_load_ddl(u->cat, src, &u->diags), 0);
    sq_catalog_link(u->cat, &u->diags);
}

static inline void unit_schema_free(UnitSchema *u) {
    sq_catalog_free(u->cat);
    sq_interner_free(u->names);
    sq_diags_free(&u->diags);
    sq_srcset_free(&u->srcs);
}

#endif
