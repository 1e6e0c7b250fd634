/*
** eval_report.h -- the HTML report of `squint eval` (and `squint merge`):
** one self-contained page, nothing fetched from the network; its one
** small inline script only adds filters, and without it the page shows
** everything.
**
** Layer: cli.  Collects record lines (backend/eval/record.h) and writes a
** page with the summary table, an inline SVG bar chart of EX-test against
** EX-verified per system, the table and chart per difficulty, a bar of
** why EX-verified is below EX-test per system, and one section per
** disagreement: an item that EX-test accepts but a checked counterexample
** (the system's own, or another system's in the cross-check) refutes,
** with the question, both queries, the counterexample's tables and both
** results on it (what differs highlighted), and their join query graphs
** when they differ.  Before the sections: the lists of each system's
** disagreements, a matrix of where each system fails, and the filters
** (eval_report_int.h has the parts).
*/
#ifndef SQ_EVAL_REPORT_H
#define SQ_EVAL_REPORT_H

#include "cli/eval_summary.h"

typedef struct EvalReport {
    SqBuf records;  /* the record lines, as read */
} EvalReport;

void eval_report_init(EvalReport *r);
void eval_report_free(EvalReport *r);
void eval_report_add(EvalReport *r, const char *line, size_t n);

/* Whether path may take the report, before a run starts: it can be
** written, and it is absent, empty or a report of squint eval (any other
** file is left alone).  0, or -1 after a message on stderr. */
int eval_report_check(const char *cmd, const char *path);

/* Write the page to path, replacing it through a temporary file and a
** rename (a reader never sees half a page); 0, or -1 after a message on
** stderr. */
int eval_report_write(const EvalReport *r, const EvalSummary *s, const char *path);

#endif
