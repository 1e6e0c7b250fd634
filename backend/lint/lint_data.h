/*
** lint_data.h -- the lint rules that need the database's rows.
**
** Layer: backend/lint.  The schema walk (passes/lint) leaves probes in
** the SqLint; sq_lint_data() answers them on a database opened read-only
** (db.h) and reports through sq_lint_report(), so the findings look like
** every other rule's.  It also runs the statement itself:
**
**   gold-exec-error      SQLite fails to run it, or it runs past the limit
**   gold-empty-result    it returns no rows, or only NULLs
**   literal-not-in-column  SELECT 1 FROM t WHERE c = 'lit' finds nothing;
**                        the message says whether the text occurs in
**                        another case or with blanks around it, or names
**                        the nearest values of the column
**   order-limit-ties     the statement's ORDER BY ... LIMIT k, run with
**                        the ORDER BY terms as extra result columns and
**                        LIMIT k+1: reported only when rows k and k+1 (and
**                        the rows on either side of an OFFSET) have equal
**                        keys
**   order-key-has-nulls  from the same run: an ascending first key that
**                        is NULL in a row LIMIT keeps
**   numeric-text-order   the TEXT column's non-NULL values (a sample of
**                        200 distinct ones) nearly all (90%) look like
**                        numbers, of different lengths (or negative): the
**                        text order differs from the numeric one
**   affinity-mismatch    a TEXT column ordered against a number: reported
**                        when the column holds numbers whose length
**                        differs from the number's
*/
#ifndef SQ_LINT_DATA_H
#define SQ_LINT_DATA_H

#include "passes/lint/lint.h"
#include "backend/sqlite/db.h"

typedef struct SqLintDataOptions {
    double timeout_sec;     /* per query run (0: none) */
} SqLintDataOptions;

/* Run the statement sql (the text l's query was bound from) on db and
** answer l's probes. */
void sq_lint_data(SqLint *l, SqDb *db, const char *sql, SrcSpan stmt,
                  const SqLintDataOptions *opt);

#endif
