/*
** fixture_show.h -- squint fixture --show N: the first N suites as text.
**
** Layer: cli.  Per suite: the question and its gold, the witness's rows
** and the gold's result on it, then two mutants (one killed by the
** witness and one by another database, when there are both), each with
** the database that kills it and the gold's and the mutant's results
** there side by side.  Read back from the files, not from memory.
*/
#ifndef SQ_FIXTURE_SHOW_H
#define SQ_FIXTURE_SHOW_H

#include <stddef.h>

#include "backend/eval/record.h"
#include "runtime/strbuf.h"

/* The first n records of lines[0..n_lines) with a suite, shown into out
** (the databases read from dir). */
void fixture_show(const char *dir, const SqEvalLine *lines, size_t n_lines, size_t n, SqBuf *out);

#endif
