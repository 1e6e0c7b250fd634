/*
** lint_noqa.h -- `-- noqa` comments: which findings one silences, and the
** comments that look like one but are not (a misspelling, a rule that
** does not exist), which would silence nothing without a word.
**
** Layer: backend/lint.  docs/squint-lint.md describes the comment.
*/
#ifndef SQ_LINT_NOQA_H
#define SQ_LINT_NOQA_H

#include "passes/lint/lint.h"
#include "runtime/diag.h"
#include "runtime/src.h"

/* Whether a noqa comment in line[0..end) covers a finding of rule (NULL
** for a diagnostic that is no rule's) with code: "--", blanks, "noqa" in
** any case; alone it covers every finding, with ": a, b" only those of
** the rules (names or ids) or codes named. */
int sq_noqa_covers(const char *line, const char *end, const SqLintRule *rule, const char *code);

/* Warn (W0002) about each comment of the SQL text src that is meant as a
** noqa and is not one: a word one letter away from "noqa" ("-- noqs",
** "-- nqoa"), or a name in its list that is no rule and no code. */
void sq_noqa_check(SqDiags *d, const SqSrc *src);

#endif
