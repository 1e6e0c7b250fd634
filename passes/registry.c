/*
** registry.c -- the table of every pass squint has.
**
** Layer: passes.  Each pass is defined in its own file; this table is the
** one place that declares them (name, summary, dependencies, kind), in the
** order `squint passes` lists them.
*/
#include "passes.h"

static const char *const no_deps[] = {NULL};

static const SqPass passes[] = {
    {"unnest",
     "turn IN, NOT IN, EXISTS and scalar aggregate subqueries in WHERE into joins, where "
     "exact",
     no_deps, SQ_PASS_REWRITE, sq_unnest_run, NULL, NULL},
    {"jqg", "the join query graph: tables as nodes, column equalities between them as edges",
     no_deps, SQ_PASS_ANALYSIS, sq_jqg_run, sq_jqg_print, sq_jqg_print_json},
};

const SqPass *sq_pass_all(size_t *n) {
    *n = SQ_ARRAY_LEN(passes);
    return passes;
}
