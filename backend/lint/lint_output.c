/*
** lint_output.c -- writing lint findings (see lint_output.h).
**
** Layer: backend/lint.  A finding is a diagnostic whose code is a lint rule's name
** (or, for problems that are not lint rules -- a syntax error, an
** aggregate misused -- a diagnostic code such as E0103).  SARIF results
** name lint rules by id (ruleId "L0102") and list every rule in the
** driver's rules array; other codes appear as their own ruleId.
*/
#include "backend/lint/lint_output.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "passes/lint/lint.h"
#include "runtime/jsonw.h"
#include "runtime/util.h"
#include "runtime/version.h"

static const SqLintRule *rule_of(const SqDiag *g) {
    int r = sq_lint_rule_find(g->code);
    return r >= 0 ? sq_lint_rule((SqLintRuleId)r) : NULL;
}

typedef struct Counts {
    size_t by_sev[SQ_SEV_ERROR + 1];
    size_t by_rule[SQ_LINT__COUNT];
} Counts;

static void count(Counts *c, SqDiag *const *f, size_t n) {
    memset(c, 0, sizeof *c);
    for (size_t i = 0; i < n; i++) {
        c->by_sev[f[i]->sev]++;
        int r = sq_lint_rule_find(f[i]->code);
        if (r >= 0) c->by_rule[r]++;
    }
}

/* ------------------------------------------------------------------ */
/* Text                                                                */
/* ------------------------------------------------------------------ */

static void plural(SqBuf *out, size_t n, const char *word, const char *sep) {
    sq_buf_printf(out, "%s%zu %s%s", sep, n, word, n == 1 ? "" : "s");
}

static void output_text(SqBuf *out, const SqDiags *d, SqDiag *const *f, size_t n,
                        const SqLintTotals *t, int color) {
    for (size_t i = 0; i < n; i++) sq_diag_render_text(d, f[i], out, color ? SQ_RENDER_COLOR : 0);
    Counts c;
    count(&c, f, n);
    plural(out, n, "finding", "");
    if (n) {
        sq_buf_puts(out, " (");
        const char *sep = "";
        if (c.by_sev[SQ_SEV_ERROR]) plural(out, c.by_sev[SQ_SEV_ERROR], "error", sep), sep = ", ";
        if (c.by_sev[SQ_SEV_WARNING]) plural(out, c.by_sev[SQ_SEV_WARNING], "warning", sep), sep = ", ";
        if (c.by_sev[SQ_SEV_INFO]) sq_buf_printf(out, "%s%zu info", sep, c.by_sev[SQ_SEV_INFO]);
        sq_buf_putc(out, ')');
    }
    sq_buf_printf(out, " in %zu quer%s of %zu file%s\n", t->queries, t->queries == 1 ? "y" : "ies",
                  t->files, t->files == 1 ? "" : "s");
}

/* ------------------------------------------------------------------ */
/* JSON                                                                */
/* ------------------------------------------------------------------ */

/* One finding as the JSON object of the "findings" array. */
static void json_finding(SqJsonWriter *w, const SqDiags *d, const SqDiag *g) {
    const SqLintRule *r = rule_of(g);
    sq_jw_obj_begin(w);
    sq_jw_key(w, "rule");
    sq_jw_str(w, g->code);
    sq_jw_key(w, "id");
    sq_jw_str(w, r ? r->id : g->code);
    sq_jw_key(w, "severity");
    sq_jw_str(w, sq_severity_name(g->sev));
    sq_jw_key(w, "message");
    sq_jw_str(w, g->msg);
    sq_json_span_members(w, d->srcs, g->span);
    sq_jw_key(w, "item");
    sq_jw_str(w, sq_diag_item(d, g->span));
    sq_jw_key(w, "help");
    sq_jw_str(w, g->help);
    sq_jw_key(w, "notes");
    sq_jw_arr_begin(w);
    for (size_t k = 0; k < g->n_notes; k++) {
        sq_jw_obj_begin(w);
        sq_jw_key(w, "message");
        sq_jw_str(w, g->notes[k].msg);
        sq_json_span_members(w, d->srcs, g->notes[k].span);
        sq_jw_obj_end(w);
    }
    sq_jw_arr_end(w);
    sq_jw_obj_end(w);
}

/* JSON lines: each finding, compact, on its own line; nothing else. */
static void output_json_lines(SqBuf *out, const SqDiags *d, SqDiag *const *f, size_t n) {
    for (size_t i = 0; i < n; i++) {
        SqJsonWriter w;
        sq_jw_init(&w, out, 0);
        json_finding(&w, d, f[i]);
        sq_buf_putc(out, '\n');
    }
}

static void output_json(SqBuf *out, const SqDiags *d, SqDiag *const *f, size_t n,
                        const SqLintTotals *t) {
    SqJsonWriter w;
    sq_jw_init(&w, out, 1);
    sq_jw_obj_begin(&w);
    sq_jw_key(&w, "tool");
    sq_jw_str(&w, "squint");
    sq_jw_key(&w, "version");
    sq_jw_str(&w, SQUINT_VERSION);
    sq_jw_key(&w, "format_version");
    sq_jw_int(&w, SQ_JSON_FORMAT_VERSION);
    sq_jw_key(&w, "findings");
    sq_jw_arr_begin(&w);
    for (size_t i = 0; i < n; i++) json_finding(&w, d, f[i]);
    sq_jw_arr_end(&w);
    Counts c;
    count(&c, f, n);
    sq_jw_key(&w, "summary");
    sq_jw_obj_begin(&w);
    sq_jw_key(&w, "files");
    sq_jw_int(&w, (int64_t)t->files);
    sq_jw_key(&w, "items");
    sq_jw_int(&w, (int64_t)t->items);
    sq_jw_key(&w, "statements");
    sq_jw_int(&w, (int64_t)t->statements);
    sq_jw_key(&w, "queries");
    sq_jw_int(&w, (int64_t)t->queries);
    sq_jw_key(&w, "findings");
    sq_jw_int(&w, (int64_t)n);
    static const char *const sev_keys[] = {"notes", "info", "warnings", "errors"};
    for (int s = SQ_SEV_ERROR; s >= SQ_SEV_INFO; s--) {
        sq_jw_key(&w, sev_keys[s]);
        sq_jw_int(&w, (int64_t)c.by_sev[s]);
    }
    sq_jw_key(&w, "by_rule");
    sq_jw_obj_begin(&w);
    for (int r = 0; r < SQ_LINT__COUNT; r++) {
        if (!c.by_rule[r]) continue;
        sq_jw_key(&w, sq_lint_rule((SqLintRuleId)r)->name);
        sq_jw_int(&w, (int64_t)c.by_rule[r]);
    }
    sq_jw_obj_end(&w);
    sq_jw_obj_end(&w);
    sq_jw_obj_end(&w);
    sq_buf_putc(out, '\n');
}

/* ------------------------------------------------------------------ */
/* SARIF 2.1.0                                                         */
/* ------------------------------------------------------------------ */

static const char *sarif_level(uint8_t sev) {
    return sev == SQ_SEV_ERROR ? "error" : sev == SQ_SEV_WARNING ? "warning" : "note";
}

/* The SARIF base of every relative URI, as originalUriBaseIds names it:
** code-scanning services resolve it to the repository's checkout. */
#define SARIF_ROOT_ID "%SRCROOT%"

/* path into b as a URI reference: bytes outside the unreserved and path
** characters percent-encoded (RFC 3986), a first segment with ':' made
** "./" relative so it is no scheme. */
static void uri_encode(SqBuf *b, const char *path) {
    const char *colon = strchr(path, ':'), *slash = strchr(path, '/');
    if (path[0] != '/' && colon && (!slash || colon < slash)) sq_buf_puts(b, "./");
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
            strchr("-._~/!$&'()*+,;=:@", *p))
            sq_buf_putc(b, (char)*p);
        else
            sq_buf_printf(b, "%%%02X", *p);
    }
}

/* An artifactLocation's members for path: relative to the root (with
** uriBaseId) when the file is under it, else an absolute file:// URI;
** the path as given when the run's directory is not known. */
static void put_artifact(SqJsonWriter *w, const SqLintTotals *t, const char *path) {
    SqBuf b = SQ_BUF_INIT;
    char *abs = t && t->cwd && t->root ? sq_path_normal(t->cwd, path) : NULL;
    const char *rel = abs ? sq_path_under(abs, t->root) : NULL;
    if (rel) {
        uri_encode(&b, rel);
    } else {
        if ((abs ? abs : path)[0] == '/') sq_buf_puts(&b, "file://");
        uri_encode(&b, abs ? abs : path);
    }
    sq_jw_key(w, "uri");
    sq_jw_str(w, sq_buf_str(&b));
    if (rel) {
        sq_jw_key(w, "uriBaseId");
        sq_jw_str(w, SARIF_ROOT_ID);
    }
    free(abs);
    sq_buf_free(&b);
}

/* originalUriBaseIds: %SRCROOT% as a file:// URI of the root, ending in
** '/' as SARIF requires. */
static void put_base_ids(SqJsonWriter *w, const SqLintTotals *t) {
    if (!t || !t->cwd || !t->root) return;
    SqBuf b = SQ_BUF_INIT;
    sq_buf_puts(&b, "file://");
    uri_encode(&b, t->root);
    if (b.data[b.len - 1] != '/') sq_buf_putc(&b, '/');
    sq_jw_key(w, "originalUriBaseIds");
    sq_jw_obj_begin(w);
    sq_jw_key(w, SARIF_ROOT_ID);
    sq_jw_obj_begin(w);
    sq_jw_key(w, "uri");
    sq_jw_str(w, sq_buf_str(&b));
    sq_jw_obj_end(w);
    sq_jw_obj_end(w);
    sq_buf_free(&b);
}

static void sarif_text(SqJsonWriter *w, const char *key, const char *text) {
    sq_jw_key(w, key);
    sq_jw_obj_begin(w);
    sq_jw_key(w, "text");
    sq_jw_str(w, text);
    sq_jw_obj_end(w);
}

static void sarif_rules(SqJsonWriter *w) {
    sq_jw_key(w, "rules");
    sq_jw_arr_begin(w);
    for (int i = 0; i < SQ_LINT__COUNT; i++) {
        const SqLintRule *r = sq_lint_rule((SqLintRuleId)i);
        sq_jw_obj_begin(w);
        sq_jw_key(w, "id");
        sq_jw_str(w, r->id);
        sq_jw_key(w, "name");
        sq_jw_str(w, r->name);
        sarif_text(w, "shortDescription", r->summary);
        sarif_text(w, "help", r->help);
        sq_jw_key(w, "helpUri");   /* the rule's heading in rules.md, as GitHub anchors it */
        SqBuf u = SQ_BUF_INIT;
        sq_buf_printf(&u, "%srules.md#", SQUINT_DOCS_URL);
        for (const char *p = r->id; *p; p++) sq_buf_putc(&u, (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p));
        sq_buf_printf(&u, "-%s", r->name);
        sq_jw_str(w, sq_buf_str(&u));
        sq_buf_free(&u);
        sq_jw_key(w, "defaultConfiguration");
        sq_jw_obj_begin(w);
        sq_jw_key(w, "level");
        sq_jw_str(w, sarif_level(r->sev));
        sq_jw_obj_end(w);
        sq_jw_key(w, "properties");
        sq_jw_obj_begin(w);
        sq_jw_key(w, "level");
        sq_jw_str(w, sq_lint_level_name((SqLintLevel)r->level));
        sq_jw_obj_end(w);
        sq_jw_obj_end(w);
    }
    sq_jw_arr_end(w);
}

/* SARIF counts columns in code points (columnKind); squint in bytes. */
static int64_t code_point_col(const SqSrcPos *p) {
    const char *line = p->file->text + p->offset - (p->col - 1);
    int64_t col = 1;
    for (uint32_t i = 0; i + 1 < p->col; i++) col += ((unsigned char)line[i] & 0xC0) != 0x80;
    return col;
}

/* A location object for span s, with message text when not NULL. */
static void sarif_one_location(SqJsonWriter *w, const SqDiags *d, const SqLintTotals *t, SrcSpan s,
                               const char *text) {
    const SqSrc *src = sq_src_get(d->srcs, s.file);
    if (src) {
        SqSrcPos a = sq_src_locate(src, s.start), b = sq_src_locate(src, s.end);
        sq_jw_obj_begin(w);
        sq_jw_key(w, "physicalLocation");
        sq_jw_obj_begin(w);
        sq_jw_key(w, "artifactLocation");
        sq_jw_obj_begin(w);
        put_artifact(w, t, a.file->name);
        sq_jw_obj_end(w);
        sq_jw_key(w, "region");
        sq_jw_obj_begin(w);
        sq_jw_key(w, "startLine");
        sq_jw_int(w, a.line);
        int64_t ac = code_point_col(&a), bc = code_point_col(&b);
        sq_jw_key(w, "startColumn");
        sq_jw_int(w, ac);
        sq_jw_key(w, "endLine");
        sq_jw_int(w, b.line);
        sq_jw_key(w, "endColumn");
        sq_jw_int(w, bc > ac || b.line > a.line ? bc : ac + 1);
        sq_jw_obj_end(w);
        sq_jw_obj_end(w);
        if (text) sarif_text(w, "message", text);
        sq_jw_obj_end(w);
    }
}

static void sarif_locations(SqJsonWriter *w, const SqDiags *d, const SqLintTotals *t, const SqDiag *g) {
    sq_jw_key(w, "locations");
    sq_jw_arr_begin(w);
    sarif_one_location(w, d, t, g->span, NULL);
    sq_jw_arr_end(w);
    if (!g->n_notes) return;
    sq_jw_key(w, "relatedLocations");
    sq_jw_arr_begin(w);
    for (size_t i = 0; i < g->n_notes; i++) sarif_one_location(w, d, t, g->notes[i].span, g->notes[i].msg);
    sq_jw_arr_end(w);
}

static void sarif_result(SqJsonWriter *w, const SqDiags *d, const SqLintTotals *t, const SqDiag *g) {
    const SqLintRule *r = rule_of(g);
    const char *item = sq_diag_item(d, g->span);
    sq_jw_obj_begin(w);
    sq_jw_key(w, "ruleId");
    sq_jw_str(w, r ? r->id : g->code);
    if (r) {
        sq_jw_key(w, "ruleIndex");
        sq_jw_int(w, sq_lint_rule_find(r->id));
    }
    sq_jw_key(w, "level");
    sq_jw_str(w, sarif_level(g->sev));
    sarif_text(w, "message", g->msg);
    sarif_locations(w, d, t, g);
    sq_jw_key(w, "properties");
    sq_jw_obj_begin(w);
    sq_jw_key(w, "rule");
    sq_jw_str(w, g->code);
    if (item) {
        sq_jw_key(w, "item");
        sq_jw_str(w, item);
    }
    if (g->help) {
        sq_jw_key(w, "help");
        sq_jw_str(w, g->help);
    }
    sq_jw_obj_end(w);
    sq_jw_obj_end(w);
}

static void output_sarif(SqBuf *out, const SqDiags *d, SqDiag *const *f, size_t n, const SqLintTotals *t) {
    SqJsonWriter w;
    sq_jw_init(&w, out, 1);
    sq_jw_obj_begin(&w);
    sq_jw_key(&w, "$schema");
    sq_jw_str(&w, "https://json.schemastore.org/sarif-2.1.0.json");
    sq_jw_key(&w, "version");
    sq_jw_str(&w, "2.1.0");
    sq_jw_key(&w, "runs");
    sq_jw_arr_begin(&w);
    sq_jw_obj_begin(&w);
    sq_jw_key(&w, "tool");
    sq_jw_obj_begin(&w);
    sq_jw_key(&w, "driver");
    sq_jw_obj_begin(&w);
    sq_jw_key(&w, "name");
    sq_jw_str(&w, "squint");
    sq_jw_key(&w, "version");
    sq_jw_str(&w, SQUINT_VERSION);
    sarif_rules(&w);
    sq_jw_obj_end(&w);
    sq_jw_obj_end(&w);
    put_base_ids(&w, t);
    sq_jw_key(&w, "columnKind");
    sq_jw_str(&w, "unicodeCodePoints");
    sq_jw_key(&w, "results");
    sq_jw_arr_begin(&w);
    for (size_t i = 0; i < n; i++) sarif_result(&w, d, t, f[i]);
    sq_jw_arr_end(&w);
    sq_jw_obj_end(&w);
    sq_jw_arr_end(&w);
    sq_jw_obj_end(&w);
    sq_buf_putc(out, '\n');
}

void sq_lint_output(SqBuf *out, SqFormat fmt, const SqDiags *d, SqDiag *const *findings, size_t n,
                 const SqLintTotals *totals, int color) {
    switch (fmt) {
    case SQ_FMT_TEXT: output_text(out, d, findings, n, totals, color); break;
    case SQ_FMT_JSON: output_json(out, d, findings, n, totals); break;
    case SQ_FMT_SARIF: output_sarif(out, d, findings, n, totals); break;
    case SQ_FMT_JSONL: output_json_lines(out, d, findings, n); break;
    case SQ_FMT_GCC:
        for (size_t i = 0; i < n; i++) sq_diag_render_gcc(d, findings[i], out);
        break;
    case SQ_FMT_GITHUB:
        for (size_t i = 0; i < n; i++) sq_diag_render_github(d, findings[i], out);
        break;
    case SQ_FMT_JUNIT:
        sq_diag_render_junit(out, "squint lint", d, (const SqDiag *const *)findings, n, totals->paths, totals->files);
        break;
    default: assert(!"a format lint does not write");
    }
}
