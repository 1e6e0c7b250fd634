/*
** plug.h -- the Spider test-suite script's value plugging (evaluation.py
** --plug_value): the prediction run again with the gold query's values
** put into its value slots, every way, for models that do not predict
** values.
**
** Layer: backend/eval.  The script finds values and slots with sqlparse
** and a few regular expressions (its parse.py): string literals (single-
** or double-quoted, by sqlparse's lexer), then words that are decimal
** numbers, then words that are integers (not after a 't' or 'T', so that
** the 1 of "t1" is not one).  A prediction's slots are its own values;
** the gold's values are a set.  The prediction is rewritten as its words,
** lowercased and joined by blanks ("t1.name" as "t1 . name"), with one of
** the gold's values in each slot; the script tries the prediction as
** written first, then every such rewriting, and counts the item correct
** when any of them is.  sqlparse's lexer is reproduced for what these
** steps read: where tokens start and end, which are blanks, which are
** string literals.
*/
#ifndef SQ_EVAL_PLUG_H
#define SQ_EVAL_PLUG_H

#include <stddef.h>

/* The rewritings of one prediction, produced one at a time. */
typedef struct SqPlug SqPlug;

/* Start on pred and gold as the metric prepared them (sq_metric_sql:
** stripped, "value" as 1, DISTINCT deleted). */
SqPlug *sq_plug_new(const char *gold, const char *pred);

/* The next rewriting (owned by p, valid until the next call), or NULL
** when there are no more.  A prediction without slots has one: its words
** joined; one with slots and a gold without values has none. */
const char *sq_plug_next(SqPlug *p);

/* How many rewritings there are in all (values ^ slots; SIZE_MAX when it
** does not fit). */
size_t sq_plug_count(const SqPlug *p);

void sq_plug_free(SqPlug *p);

/* Test hook: the script's extract_query_values() on sql: its words
** (slots as "valuerare") and its values, each joined by " | ". */
void sq_plug_extract(const char *sql, char **words, char **values);

#endif
