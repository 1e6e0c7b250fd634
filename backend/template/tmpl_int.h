/*
** tmpl_int.h -- private to backend/template: sampling a slot's value from
** the database (tmpl_values.c), for the instances (tmpl_sample.c).
*/
#ifndef SQ_TMPL_INT_H
#define SQ_TMPL_INT_H

#include "backend/template/tmpl.h"

/* A number below n from the generator (n > 0). */
static inline uint64_t tmpl_below(uint64_t *rng, uint64_t n) { return sq_rand_next(rng) % n; }

/* A new literal for slot s (value, threshold, date or period) drawn from
** its column's data in db, different from the one the query has, in a's
** memory, or for a relative slot another span back from now; NULL when
** there is nothing to draw (no table column, no other value, a part of a
** date it does not sample). */
SqExpr *tmpl_draw_value(SqArena *a, SqDb *db, const SqSlot *s, uint64_t *rng);

/* The other form of a time reference (the time-window alteration): a
** date literal made relative to now ('2012-06-01' -> date('now',
** '-14 years'), the span back to a day of the column's range), or a
** relative reference made a date literal of the range; NULL when it
** cannot be.  tmpl_window_movable: whether slot s is such a reference. */
SqExpr *tmpl_draw_window(SqArena *a, SqDb *db, const SqSlot *s, uint64_t *rng);
int tmpl_window_movable(const SqSlot *s);

/* A LIMIT count other than the query's: one of 1, 2, 3, 5, 10, 20 below
** rows, the rows the query has without its LIMIT (-1: not known), so that
** the new LIMIT cuts the result where it can. */
SqExpr *tmpl_draw_limit(SqArena *a, const SqSlot *s, int64_t rows, uint64_t *rng);

/* The SQL text of a literal or other closed expression, in a. */
const char *tmpl_expr_sql(SqArena *a, const SqExpr *e);

#endif
