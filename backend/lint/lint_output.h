/*
** lint_output.h -- `squint lint`'s findings as text, JSON or SARIF 2.1.0.
**
** Layer: backend/lint.  Takes the findings a run kept (diagnostics, sorted) and
** writes them in one of three formats; docs/formats.md describes the JSON
** and SARIF output field by field.
*/
#ifndef SQ_LINT_OUTPUT_H
#define SQ_LINT_OUTPUT_H

#include "runtime/diag.h"
#include "runtime/format.h"
#include "runtime/strbuf.h"

/* What the run looked at, for the summaries. */
typedef struct SqLintTotals {
    size_t files, items, statements, queries;
    const char *const *paths;   /* the files, for JUnit's suites */
    const char *cwd;            /* the current directory, absolute; NULL:
                                   SARIF URIs are the paths as given */
    const char *root;           /* SARIF's %SRCROOT%: the repository (git
                                   work tree) holding cwd, else cwd */
} SqLintTotals;

/* Write findings[0..n) (diagnostics of d) to out as text, JSON, SARIF,
** JSON lines (one finding per line, as in the JSON's "findings"), gcc's
** lines, GitHub Actions annotations or JUnit XML. */
void sq_lint_output(SqBuf *out, SqFormat fmt, const SqDiags *d, SqDiag *const *findings, size_t n,
                 const SqLintTotals *totals, int color);

#endif
