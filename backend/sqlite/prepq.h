/*
** prepq.h -- a queue of statements that SQLite prepares on a thread of its
** own: an empty in-memory database of a schema, and each statement queued
** to it prepared (never run) for its result columns and parameters
** (sq_db_columns).
**
** Layer: backend/sqlite.  squint compile checks every query it compiles
** against SQLite's own prepare; that work needs nothing from squint's
** analysis of the same query, so it runs beside it and the outcomes are
** collected, in the order the statements were queued, once the file or
** package is done.  When no thread can be started the statements are
** prepared as they are queued: the outcomes are the same either way.
*/
#ifndef SQ_PREPQ_H
#define SQ_PREPQ_H

#include <stddef.h>

#include "backend/sqlite/db.h"
#include "backend/sqlite/result.h"

typedef struct SqPrepQueue SqPrepQueue;

/* What SQLite made of one statement. */
typedef struct SqPrepOutcome {
    int ok;              /* 1 prepared; 0 refused (err says why) */
    SqResult cols;       /* its result columns' names, when ok */
    SqDbParams params;   /* its parameters, when ok */
    char *err;           /* SQLite's message, when not ok (heap) */
} SqPrepOutcome;

/* Start a probe whose database is script (a DDL script, copied) run on an
** empty in-memory database. */
SqPrepQueue *sq_prepq_start(const char *script);

/* Queue sql (copied) to be prepared; its outcome's index is the number of
** statements queued before it. */
void sq_prepq_add(SqPrepQueue *p, const char *sql);

/* Wait until every queued statement is prepared.  The number of outcomes,
** or (size_t)-1 when the schema itself did not load (*open_err then says
** why; heap, the caller frees). */
size_t sq_prepq_finish(SqPrepQueue *p, char **open_err);

/* Outcome i (i < what sq_prepq_finish returned). */
const SqPrepOutcome *sq_prepq_outcome(const SqPrepQueue *p, size_t i);

/* The thread ended (sq_prepq_finish first, or it is waited for here), the
** database closed, everything freed.  NULL is accepted. */
void sq_prepq_free(SqPrepQueue *p);

#endif
