/*
** diag_ci.c -- diagnostics in the shapes CI tools and editors
** already parse: gcc's "file:line:col: warning: message [code]";
** GitHub Actions' workflow command "::warning file=...::message", which
** the runner turns into an annotation on the pull request; and a JUnit
** XML report, which CI systems show in their test tabs.
**
** Layer: runtime.  Places are those of the JSON output (the outermost
** file the user gave, lines and columns from 1, columns in bytes); a
** message never spans lines in the one-line shapes.
*/
#include <stdlib.h>
#include <string.h>

#include "runtime/diag.h"
#include "runtime/util.h"
#include "runtime/strbuf.h"

/* Where span starts and ends, in the outermost file; 0 when its file is
** not known. */
static int place(const SqSrcSet *srcs, SrcSpan span, SqSrcPos *a, SqSrcPos *b) {
    const SqSrc *src = srcs ? sq_src_get(srcs, span.file) : NULL;
    if (!src) return 0;
    *a = sq_src_locate(src, span.start);
    *b = sq_src_locate(src, span.end > span.start ? span.end : span.start);
    return 1;
}

/* s with every line break and tab a space. */
static void put_one_line(SqBuf *out, const char *s) {
    for (; s && *s; s++) sq_buf_putc(out, *s == '\n' || *s == '\r' || *s == '\t' ? ' ' : *s);
}

/* ---- gcc ---------------------------------------------------------------------- */

static const char *gcc_severity(SqSeverity s) {
    return s == SQ_SEV_ERROR ? "error" : s == SQ_SEV_WARNING ? "warning" : "note";
}

static void gcc_line(SqBuf *out, const SqDiags *d, SrcSpan span, const char *sev, const char *msg,
                     const char *code) {
    SqSrcPos a, b;
    if (place(d->srcs, span, &a, &b)) sq_buf_printf(out, "%s:%u:%u: ", a.file->name, a.line, a.col);
    else sq_buf_puts(out, "squint: ");
    sq_buf_printf(out, "%s: ", sev);
    put_one_line(out, msg);
    const char *item = sq_diag_item(d, span);
    if (item) sq_buf_printf(out, " (item %s)", item);
    if (code) sq_buf_printf(out, " [%s]", code);
    sq_buf_putc(out, '\n');
}

void sq_diag_render_gcc(const SqDiags *d, const SqDiag *g, SqBuf *out) {
    gcc_line(out, d, g->span, gcc_severity((SqSeverity)g->sev), g->msg, g->code);
    for (size_t i = 0; i < g->n_notes; i++) gcc_line(out, d, g->notes[i].span, "note", g->notes[i].msg, NULL);
}

/* ---- GitHub Actions ----------------------------------------------------------- */

/* s escaped as a workflow command's message (data) or, with prop, as a
** property's value: '%', CR and LF percent-encoded, and for a property
** ':' and ',' too. */
static void github_escape(SqBuf *out, const char *s, int prop) {
    for (; s && *s; s++) {
        switch (*s) {
        case '%': sq_buf_puts(out, "%25"); break;
        case '\r': sq_buf_puts(out, "%0D"); break;
        case '\n': sq_buf_puts(out, "%0A"); break;
        case ':': sq_buf_puts(out, prop ? "%3A" : ":"); break;
        case ',': sq_buf_puts(out, prop ? "%2C" : ","); break;
        default: sq_buf_putc(out, *s);
        }
    }
}

void sq_diag_render_github(const SqDiags *d, const SqDiag *g, SqBuf *out) {
    static const char *const command[] = {"notice", "notice", "warning", "error"};
    SqSrcPos a, b;
    sq_buf_printf(out, "::%s ", command[g->sev <= SQ_SEV_ERROR ? g->sev : SQ_SEV_ERROR]);
    if (place(d->srcs, g->span, &a, &b)) {
        sq_buf_puts(out, "file=");
        github_escape(out, a.file->name, 1);
        sq_buf_printf(out, ",line=%u,col=%u,endLine=%u,endColumn=%u,", a.line, a.col, b.line, b.col);
    }
    sq_buf_puts(out, "title=");
    github_escape(out, g->code, 1);
    sq_buf_puts(out, "::");
    github_escape(out, g->msg, 0);
    const char *item = sq_diag_item(d, g->span);
    if (item) {
        sq_buf_puts(out, " (item ");
        github_escape(out, item, 0);
        sq_buf_putc(out, ')');
    }
    if (g->help) {
        sq_buf_puts(out, "%0A");   /* the annotation's second line */
        github_escape(out, g->help, 0);
    }
    sq_buf_putc(out, '\n');
}

/* ---- JUnit XML ------------------------------------------------------------------ */

/* s as XML character data or an attribute value: the five special
** characters as entities, and the control characters XML 1.0 does not
** allow as '?'. */
static void xml_escape(SqBuf *out, const char *s) {
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '&') sq_buf_puts(out, "&amp;");
        else if (c == '<') sq_buf_puts(out, "&lt;");
        else if (c == '>') sq_buf_puts(out, "&gt;");
        else if (c == '"') sq_buf_puts(out, "&quot;");
        else if (c == '\'') sq_buf_puts(out, "&apos;");
        else if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') sq_buf_putc(out, '?');
        else sq_buf_putc(out, (char)c);
    }
}

/* The file a diagnostic is placed in, or "" when none is known. */
static const char *file_of(const SqDiags *d, const SqDiag *g) {
    SqSrcPos a, b;
    return place(d->srcs, g->span, &a, &b) ? a.file->name : "";
}

/* The diagnostics g[0..n) and the file each is placed in (located once). */
typedef struct Placed {
    const SqDiags *d;
    const SqDiag *const *g;
    const char **file;
    size_t n;
} Placed;

/* One test case: a diagnostic, failed. */
static void junit_case(SqBuf *out, const SqDiags *d, const SqDiag *g, const char *file) {
    SqSrcPos a, b;
    int placed = place(d->srcs, g->span, &a, &b);
    sq_buf_puts(out, "    <testcase classname=\"");
    xml_escape(out, *file ? file : "squint");
    sq_buf_puts(out, "\" name=\"");
    xml_escape(out, g->code);
    if (placed) sq_buf_printf(out, " at %u:%u", a.line, a.col);
    sq_buf_puts(out, "\"");
    if (placed) {
        sq_buf_puts(out, " file=\"");
        xml_escape(out, file);
        sq_buf_printf(out, "\" line=\"%u\"", a.line);
    }
    sq_buf_puts(out, ">\n      <failure type=\"");
    xml_escape(out, g->code);
    sq_buf_puts(out, "\" message=\"");
    xml_escape(out, g->msg);
    sq_buf_puts(out, "\">");
    SqBuf line = SQ_BUF_INIT;
    sq_diag_render_gcc(d, g, &line);
    if (g->help) sq_buf_printf(&line, "help: %s\n", g->help);
    xml_escape(out, sq_buf_str(&line));
    sq_buf_free(&line);
    sq_buf_puts(out, "</failure>\n    </testcase>\n");
}

/* The suite of one file: its diagnostics, or one passing case.  Gives
** its number of test cases. */
static size_t junit_suite(SqBuf *out, const Placed *p, const char *file, const char *what) {
    size_t failed = 0;
    for (size_t i = 0; i < p->n; i++) failed += strcmp(p->file[i], file) == 0;
    sq_buf_puts(out, "  <testsuite name=\"");
    xml_escape(out, *file ? file : "squint");
    sq_buf_printf(out, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"0\">\n", failed ? failed : 1, failed);
    for (size_t i = 0; i < p->n; i++)
        if (strcmp(p->file[i], file) == 0) junit_case(out, p->d, p->g[i], file);
    if (!failed) {
        sq_buf_puts(out, "    <testcase classname=\"");
        xml_escape(out, file);
        sq_buf_puts(out, "\" name=\"");
        xml_escape(out, what);
        sq_buf_puts(out, "\"/>\n");
    }
    sq_buf_puts(out, "  </testsuite>\n");
    return failed ? failed : 1;
}

/* Whether name is among names[0..n) or the file of one of the first k
** diagnostics of p. */
static int seen(const char *name, const char *const *names, size_t n, const Placed *p, size_t k) {
    for (size_t i = 0; i < n; i++)
        if (strcmp(names[i], name) == 0) return 1;
    for (size_t i = 0; i < k; i++)
        if (strcmp(p->file[i], name) == 0) return 1;
    return 0;
}

void sq_diag_render_junit(SqBuf *out, const char *what, const SqDiags *d, const SqDiag *const *g, size_t n,
                          const char *const *paths, size_t n_paths) {
    Placed p = {d, g, sq_malloc((n + 1) * sizeof *p.file), n};
    for (size_t i = 0; i < n; i++) p.file[i] = file_of(d, g[i]);
    SqBuf suites = SQ_BUF_INIT;
    size_t tests = 0;
    for (size_t i = 0; i < n_paths; i++)   /* each file given, once, in order */
        if (!seen(paths[i], paths, i, &p, 0)) tests += junit_suite(&suites, &p, paths[i], what);
    for (size_t j = 0; j < n; j++)         /* then the files only diagnostics name (a schema) */
        if (!seen(p.file[j], paths, n_paths, &p, j)) tests += junit_suite(&suites, &p, p.file[j], what);
    free(p.file);
    sq_buf_puts(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"");
    xml_escape(out, what);
    sq_buf_printf(out, "\" tests=\"%zu\" failures=\"%zu\">\n", tests, n);
    sq_buf_puts(out, sq_buf_str(&suites));
    sq_buf_puts(out, "</testsuites>\n");
    sq_buf_free(&suites);
}
