/*
** registry.c -- the table of every pass squint has.
**
** Layer: passes.  Each pass is defined in its own file; this table is the
** one place that declares them (name, summary, dependencies, kind), in the
** order `squint passes` lists them.
*/
#include "passes/passes.h"
#include "passes/expand/expand.h"
#include "passes/template/template.h"

static const char *const no_deps[] = {NULL};
static const char *const joinelim_deps[] = {"joinelim", NULL};
static const char *const expand_deps[] = {"jqg", NULL};

static const SqPass passes[] = {
    {"unnest",
     "turn IN, NOT IN, EXISTS and scalar aggregate subqueries in WHERE into joins, where "
     "exact",
     no_deps, SQ_PASS_REWRITE, sq_unnest_run, NULL, NULL},
    {"jqg", "the join query graph: tables as nodes, column equalities between them as edges",
     no_deps, SQ_PASS_ANALYSIS, sq_jqg_run, sq_jqg_print, sq_jqg_print_json},
    {"joinelim",
     "join redundancy: joins that can go, implied or repeated join conditions, joins that fan "
     "out under COUNT/SUM/AVG, joins not on a key",
     no_deps, SQ_PASS_ANALYSIS, sq_joinelim_run, sq_joinelim_print, sq_joinelim_print_json},
    {"joinelim-rewrite",
     "remove the LEFT JOINs joinelim finds removable and the implied or repeated join "
     "conditions (exact removals only)",
     joinelim_deps, SQ_PASS_REWRITE, sq_joinelim_rewrite_run, NULL, NULL},
    {"template",
     "the slots a benchmark generator may vary: compared literals, thresholds, dates, LIMIT, "
     "metrics, GROUP BY and ORDER BY columns, directions ('squint template')",
     no_deps, SQ_PASS_ANALYSIS, sq_template_run, sq_template_print, sq_template_print_json},
    {"expand",
     "join query expansion: the tables the schema graph lets the query join one more of, and "
     "each combination of conditions, pruned when redundant by transitivity",
     expand_deps, SQ_PASS_ANALYSIS, sq_expand_run, sq_expand_print, sq_expand_print_json},
};

const SqPass *sq_pass_all(size_t *n) {
    *n = SQ_ARRAY_LEN(passes);
    return passes;
}
