/*
** hardness.h -- Spider's difficulty levels (easy, medium, hard, extra) of
** a gold query, as the official evaluation.py's eval_hardness() assigns
** them.
**
** Layer: backend/eval (reads grammar/'s syntax tree).  Spider's dev.json
** has no difficulty field; its scripts compute one from their own parse
** of the query, counting
**   component1: WHERE, GROUP BY, ORDER BY, LIMIT, each join, each OR and
**               each LIKE among the conditions of ON, WHERE and HAVING;
**   component2: nested queries compared in those conditions, and a
**               UNION, INTERSECT or EXCEPT;
**   others:     more than one aggregate, more than one SELECT column, more
**               than one WHERE condition, more than one GROUP BY term;
** and thresholds on the three counts.  Their parse is reproduced on
** squint's syntax tree with its quirks where they change a level: a
** negated condition (NOT IN, NOT LIKE, ...) counts as an aggregate, and
** so does each AND or OR between HAVING conditions; only the first query
** of a compound is counted, the rest is one nested query.
** spider_em.h computes the same levels on the script's own reading of a
** query, which needs the database's names; this one needs no schema, so
** every gold file gets its levels.  On Spider dev the two agree on every
** item (make conformance checks both against the script's levels).
*/
#ifndef SQ_EVAL_HARDNESS_H
#define SQ_EVAL_HARDNESS_H

#include "grammar/ast.h"

/* "easy", "medium", "hard" or "extra"; NULL for a statement that is not
** a query. */
const char *sq_spider_hardness(const AstStmt *st);

#endif
