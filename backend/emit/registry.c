/*
** registry.c -- the table of every emitter squint has.
**
** Layer: backend.  Each emitter is defined in its own file; this table is
** the one place that declares them, in the order `squint emit --list`
** shows them.  A new target is a row here and its file (emit.h).
*/
#include <string.h>

#include "backend/emit/emit.h"

static const SqEmitter emitters[] = {
    {"sql", "the query as SQLite SQL: deterministic, every column qualified", 0, sq_emit_sql},
    {"ddl", "CREATE TABLE statements for the tables the query reads and those they reference", 1,
     sq_emit_ddl},
};

const SqEmitter *sq_emitter_all(size_t *n) {
    *n = SQ_ARRAY_LEN(emitters);
    return emitters;
}

const SqEmitter *sq_emitter_find(const char *name) {
    for (size_t i = 0; i < SQ_ARRAY_LEN(emitters); i++)
        if (strcmp(emitters[i].name, name) == 0) return &emitters[i];
    return NULL;
}
