/*
** diag.h -- diagnostics: collected with spans, rendered gcc-style or JSON.
**
** Layer: runtime.  Every layer reports problems by adding an SqDiag to an
** SqDiags list; nothing in the library prints.  Errors are counted, not
** thrown: the reporting function returns NULL or false and the caller goes
** on.  The CLI renders the list as text (file:line:col: error[code]:
** message, then the source line with a caret underline) or as JSON.
** SqDiags owns its diagnostics (heap); sq_diags_free() releases them.
*/
#ifndef SQ_DIAG_H
#define SQ_DIAG_H

#include <stdarg.h>
#include <stddef.h>

#include "runtime/jsonw.h"
#include "runtime/src.h"
#include "runtime/strbuf.h"
#include "runtime/util.h"

typedef enum SqDiagCode {
#define DIAG_CODE(e, code, slug, summary) e,
#include "runtime/diag_codes.def"
#undef DIAG_CODE
    SQ_DIAG_CODE_COUNT
} SqDiagCode;

/* NOTE: what a pass did or why it did not (never a problem); INFO: a lint
** finding worth a look.  Ordered: a threshold compares them. */
typedef enum SqSeverity { SQ_SEV_NOTE, SQ_SEV_INFO, SQ_SEV_WARNING, SQ_SEV_ERROR } SqSeverity;

typedef struct SqDiagNote {
    SrcSpan span; /* file 0: a note without a location */
    char *msg;
} SqDiagNote;

typedef struct SqDiag {
    SqSeverity sev;
    const char *code;  /* "E0103", a lint rule name, ... (static) */
    SrcSpan span;      /* file 0: not tied to a location */
    char *msg;         /* lowercase, identifiers quoted */
    SqDiagNote *notes; /* related locations ("opened here") */
    size_t n_notes;
    char *help;        /* optional suggestion, or NULL */
} SqDiag;

typedef struct SqDiags {
    const SqSrcSet *srcs; /* to resolve spans; not owned */
    SqDiag **items;
    size_t n, cap;
    size_t n_errors, n_warnings;
} SqDiags;

void sq_diags_init(SqDiags *d, const SqSrcSet *srcs);
void sq_diags_free(SqDiags *d);
/* Drop the diagnostics after the first keep (a caller that tried
** something and moved on). */
void sq_diags_truncate(SqDiags *d, size_t keep);

/* Code string, slug and summary of a declared code. */
const char *sq_diag_code(SqDiagCode c);
const char *sq_diag_slug(SqDiagCode c);
const char *sq_diag_summary(SqDiagCode c);

/* Message text.  Messages quote user text: names,
** literals, tokens, file names.  So that no message grows with the input,
** every message, note and help text is cut as it is added: a run of more
** than SQ_DIAG_QUOTE_MAX characters without a blank keeps its first and
** last characters around "...", on UTF-8 boundaries, and the whole text
** keeps at most SQ_DIAG_MSG_MAX bytes. */
#define SQ_DIAG_QUOTE_MAX 64
#define SQ_DIAG_MSG_MAX 512
/* Append s[0..n), cut to at most max characters as above. */
void sq_diag_put_cut(SqBuf *b, const char *s, size_t n, size_t max);
/* The text for fmt and its arguments, cut as above (heap; caller frees). */
char *sq_diag_message(const char *fmt, va_list ap);

/* Add a diagnostic; returns it so notes and help can be attached. */
SqDiag *sq_diag_add(SqDiags *d, SqSeverity sev, SqDiagCode code, SrcSpan span,
                    const char *fmt, ...) SQ_PRINTF(5, 6);
/* Same with a free-form code string (lint rule names). */
SqDiag *sq_diag_add_named(SqDiags *d, SqSeverity sev, const char *code,
                          SrcSpan span, const char *fmt, ...) SQ_PRINTF(5, 6);
SqDiag *sq_diag_vadd_named(SqDiags *d, SqSeverity sev, const char *code, SrcSpan span,
                           const char *fmt, va_list ap);
/* Change a diagnostic's severity, keeping the counts right. */
void sq_diag_set_severity(SqDiags *d, SqDiag *g, SqSeverity sev);
void sq_diag_note(SqDiag *g, SrcSpan span, const char *fmt, ...) SQ_PRINTF(3, 4);
void sq_diag_help(SqDiag *g, const char *fmt, ...) SQ_PRINTF(2, 3);

/* Rendering. */
enum { SQ_RENDER_COLOR = 1 };
void sq_diag_render_text(const SqDiags *d, const SqDiag *g, SqBuf *out,
                         unsigned flags);
void sq_diag_render_json(const SqDiags *d, const SqDiag *g, SqJsonWriter *w);
/* One line in gcc's shape, "FILE:LINE:COL: warning: MESSAGE [CODE]" (info
** is "note"; a note of the diagnostic follows as a "note:" line), which
** gcc's problem matchers and editors read (diag_ci.c). */
void sq_diag_render_gcc(const SqDiags *d, const SqDiag *g, SqBuf *out);
/* A GitHub Actions workflow command, "::warning file=F,line=L,col=C,
** endLine=..,endColumn=..,title=CODE::MESSAGE", which the runner shows as
** an annotation (info is a notice; the help is the annotation's second
** line). */
void sq_diag_render_github(const SqDiags *d, const SqDiag *g, SqBuf *out);
/* A JUnit XML report of the diagnostics g[0..n) of a run over the files
** paths[0..n_paths): a test suite per file, a failed test case per
** diagnostic (its code and place the name, its message the failure's), a
** file without any one passing case named what ("squint lint"). */
void sq_diag_render_junit(SqBuf *out, const char *what, const SqDiags *d, const SqDiag *const *g, size_t n,
                          const char *const *paths, size_t n_paths);
/* A span as members of the JSON object being written, the one key set of
** every squint output (docs/formats.md): "file", "line", "column",
** "end_line", "end_column" (lines and columns from 1, columns in bytes,
** the end exclusive), then "offset" and "length" in bytes; all in the
** outermost file, the one the user gave (a query inside a dev.json is
** placed in the dev.json).  When srcs does
** not know the span's file: "file": null, "offset" and "length". */
void sq_json_span_members(SqJsonWriter *w, const SqSrcSet *srcs, SrcSpan span);

const char *sq_severity_name(SqSeverity s);

/* Whether g says an input cannot be used (E00xx: a file that cannot be
** read or does not fit its format, a malformed benchmark item, a
** configuration; E02xx: a schema, a db_id it lacks): a command ends with
** status 2 for these, not 1 as for errors in the SQL. */
int sq_diag_is_input_problem(const SqDiag *g);
/* Whether d holds one. */
int sq_diags_have_input_problem(const SqDiags *d);
/* The benchmark item span is in ("question_id 12"), or NULL (a script). */
const char *sq_diag_item(const SqDiags *d, SrcSpan span);

#endif
