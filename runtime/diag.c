/*
** diag.c -- diagnostic collection and rendering.
**
** Layer: runtime.  Text rendering follows gcc: a header line, the source
** line, and a caret line under the span.  Very long lines (JSON benchmark
** files often hold a whole item on one line) are shown as a window around
** the span.
*/
#include "runtime/diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *code, *slug, *summary;
} code_table[] = {
#define DIAG_CODE(e, code, slug, summary) {code, slug, summary},
#include "runtime/diag_codes.def"
#undef DIAG_CODE
};

const char *sq_diag_code(SqDiagCode c) { return code_table[c].code; }
const char *sq_diag_slug(SqDiagCode c) { return code_table[c].slug; }
const char *sq_diag_summary(SqDiagCode c) { return code_table[c].summary; }

const char *sq_diag_item(const SqDiags *d, SrcSpan span) {
    const SqSrc *src = sq_src_get(d->srcs, span.file);
    return src ? src->item : NULL;
}

const char *sq_severity_name(SqSeverity s) {
    return s == SQ_SEV_ERROR     ? "error"
           : s == SQ_SEV_WARNING ? "warning"
           : s == SQ_SEV_INFO    ? "info"
                                 : "note";
}

void sq_diags_init(SqDiags *d, const SqSrcSet *srcs) {
    memset(d, 0, sizeof *d);
    d->srcs = srcs;
}

static void diag_free(SqDiag *g) {
    for (size_t i = 0; i < g->n_notes; i++) free(g->notes[i].msg);
    free(g->notes);
    free(g->msg);
    free(g->help);
    free(g);
}

void sq_diags_free(SqDiags *d) {
    for (size_t i = 0; i < d->n; i++) diag_free(d->items[i]);
    free(d->items);
    d->items = NULL;
    d->n = d->cap = d->n_errors = d->n_warnings = 0;
}

void sq_diags_truncate(SqDiags *d, size_t keep) {
    while (d->n > keep) {
        SqDiag *g = d->items[--d->n];
        if (g->sev == SQ_SEV_ERROR) d->n_errors--;
        else if (g->sev == SQ_SEV_WARNING) d->n_warnings--;
        diag_free(g);
    }
}

/* ------------------------------------------------------------------ */
/* Message text                                                        */
/* ------------------------------------------------------------------ */

/* Messages quote user text (names, literals, tokens, file names).  A 1 MB
** identifier must not make a 1 MB message, so the finished text is cut:
** every run of more than SQ_DIAG_QUOTE_MAX characters without a blank (an
** identifier, a token, a literal without spaces) keeps its first and last
** characters around "...", on UTF-8 boundaries, and a text longer than
** SQ_DIAG_MSG_MAX bytes is cut at its end.  Cutting the finished text
** rather than each argument keeps whole the messages callers compose in
** pieces: their words are short. */

/* Bytes of the UTF-8 sequence starting at p (1 for invalid bytes). */
static size_t char_len(const unsigned char *p, size_t n) {
    size_t k = p[0] < 0x80 ? 1 : (p[0] & 0xE0) == 0xC0 ? 2
             : (p[0] & 0xF0) == 0xE0 ? 3 : (p[0] & 0xF8) == 0xF0 ? 4 : 1;
    if (k > n) return 1;
    for (size_t i = 1; i < k; i++)
        if ((p[i] & 0xC0) != 0x80) return 1;
    return k;
}

/* Byte offset reached after 'chars' characters from byte 'at' (or n). */
static size_t skip_chars(const char *s, size_t n, size_t at, size_t chars) {
    while (at < n && chars-- > 0)
        at += (unsigned char)s[at] < 0x80 ? 1 : char_len((const unsigned char *)s + at, n - at);
    return at;
}

/* Byte offset where the last 'chars' characters of s[from..n) start,
** counting as char_len() does: a valid sequence is one character, any
** other byte one each. */
static size_t back_chars(const char *s, size_t from, size_t n, size_t chars) {
    size_t at = n;
    while (at > from && chars-- > 0) {
        size_t k = 1;
        for (size_t j = 2; j <= 4 && at - from >= j; j++) {
            if (char_len((const unsigned char *)s + at - j, j) == j) {
                k = j;
                break;
            }
        }
        at -= k;
    }
    return at;
}

void sq_diag_put_cut(SqBuf *b, const char *s, size_t n, size_t max) {
    if (skip_chars(s, n, 0, max) == n) { /* short enough */
        sq_buf_put(b, s, n);
        return;
    }
    size_t keep = max > 3 ? max - 3 : 0; /* characters besides the "..." */
    size_t head = skip_chars(s, n, 0, keep - keep / 3);
    size_t tail = back_chars(s, head, n, keep / 3);
    sq_buf_put(b, s, head);
    sq_buf_puts(b, "...");
    sq_buf_put(b, s + tail, n - tail);
}

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/* Copy text to b with every over-long run of non-blanks cut. */
static void cut_runs(SqBuf *b, const char *text) {
    const char *p = text;
    while (*p) {
        size_t n = 0;
        if (is_blank(*p)) {
            while (p[n] && is_blank(p[n])) n++;
            sq_buf_put(b, p, n);
        } else {
            while (p[n] && !is_blank(p[n])) n++;
            sq_diag_put_cut(b, p, n, SQ_DIAG_QUOTE_MAX);
        }
        p += n;
    }
}

/* Cut a message to SQ_DIAG_MSG_MAX bytes, on a UTF-8 boundary. */
static void cap_message(SqBuf *b) {
    if (b->len <= SQ_DIAG_MSG_MAX) return;
    size_t at = SQ_DIAG_MSG_MAX - 3;
    while (at > 0 && ((unsigned char)b->data[at] & 0xC0) == 0x80) at--;
    b->len = at;
    b->data[at] = 0;
    sq_buf_puts(b, "...");
}

/* Whether no run of non-blanks in text is longer than SQ_DIAG_QUOTE_MAX
** bytes (so none has more characters): nothing for cut_runs to cut. */
static int runs_fit(const char *text) {
    size_t run = 0;
    for (const char *p = text; *p; p++) {
        run = is_blank(*p) ? 0 : run + 1;
        if (run > SQ_DIAG_QUOTE_MAX) return 0;
    }
    return 1;
}

char *sq_diag_message(const char *fmt, va_list ap) {
    SqBuf raw = SQ_BUF_INIT, b = SQ_BUF_INIT;
    sq_buf_vprintf(&raw, fmt, ap);
    if (raw.len <= SQ_DIAG_MSG_MAX && runs_fit(sq_buf_str(&raw))) return sq_buf_detach(&raw);
    cut_runs(&b, sq_buf_str(&raw));
    sq_buf_free(&raw);
    cap_message(&b);
    return sq_buf_detach(&b);
}

static char *vformat(const char *fmt, va_list ap) { return sq_diag_message(fmt, ap); }

static SqDiag *diag_push(SqDiags *d, SqSeverity sev, const char *code,
                         SrcSpan span, char *msg) {
    if (d->n == d->cap) {
        d->cap = d->cap ? d->cap * 2 : 16;
        d->items = sq_realloc(d->items, d->cap * sizeof *d->items);
    }
    SqDiag *g = sq_calloc(1, sizeof *g);
    g->sev = sev;
    g->code = code;
    g->span = span;
    g->msg = msg;
    d->items[d->n++] = g;
    if (sev == SQ_SEV_ERROR) d->n_errors++;
    if (sev == SQ_SEV_WARNING) d->n_warnings++;
    return g;
}

SqDiag *sq_diag_add(SqDiags *d, SqSeverity sev, SqDiagCode code, SrcSpan span,
                    const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    char *msg = vformat(fmt, ap);
    va_end(ap);
    return diag_push(d, sev, sq_diag_code(code), span, msg);
}

SqDiag *sq_diag_add_named(SqDiags *d, SqSeverity sev, const char *code,
                          SrcSpan span, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    char *msg = vformat(fmt, ap);
    va_end(ap);
    return diag_push(d, sev, code, span, msg);
}

SqDiag *sq_diag_vadd_named(SqDiags *d, SqSeverity sev, const char *code, SrcSpan span,
                           const char *fmt, va_list ap) {
    return diag_push(d, sev, code, span, vformat(fmt, ap));
}

void sq_diag_set_severity(SqDiags *d, SqDiag *g, SqSeverity sev) {
    if (g->sev == SQ_SEV_ERROR) d->n_errors--;
    else if (g->sev == SQ_SEV_WARNING) d->n_warnings--;
    g->sev = sev;
    if (sev == SQ_SEV_ERROR) d->n_errors++;
    else if (sev == SQ_SEV_WARNING) d->n_warnings++;
}

void sq_diag_note(SqDiag *g, SrcSpan span, const char *fmt, ...) {
    g->notes = sq_realloc(g->notes, (g->n_notes + 1) * sizeof *g->notes);
    va_list ap;
    va_start(ap, fmt);
    g->notes[g->n_notes].msg = vformat(fmt, ap);
    va_end(ap);
    g->notes[g->n_notes++].span = span;
}

void sq_diag_help(SqDiag *g, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    free(g->help);
    g->help = vformat(fmt, ap);
    va_end(ap);
}

/* ------------------------------------------------------------------ */
/* Text rendering                                                      */
/* ------------------------------------------------------------------ */

#define WINDOW_COLS 120 /* longest excerpt shown before windowing */

/* Display columns from line[0] up to byte offset 'upto'. */
static size_t display_cols(const char *line, size_t upto) {
    size_t cols = 0;
    for (size_t i = 0; i < upto; cols++)
        i += (unsigned char)line[i] < 0x80 ? 1 : char_len((const unsigned char *)line + i, upto - i);
    return cols;
}

/* Append line[from..to) with control bytes made visible as '?', keeping one
** display column per character. */
static void put_visible(SqBuf *out, const char *line, size_t from, size_t to) {
    for (size_t i = from; i < to;) {
        size_t run = i;   /* printable ASCII, copied as one piece */
        while (run < to && (unsigned char)line[run] >= 0x20 && (unsigned char)line[run] < 0x7f) run++;
        if (run > i) {
            sq_buf_put(out, line + i, run - i);
            i = run;
            continue;
        }
        const unsigned char *p = (const unsigned char *)line + i;
        size_t k = char_len(p, to - i);
        if (k == 1 && (p[0] < 0x20 || p[0] >= 0x7f) && p[0] != '\t')
            sq_buf_putc(out, '?');
        else if (p[0] == '\t')
            sq_buf_putc(out, ' ');
        else
            sq_buf_put(out, (const char *)p, k);
        i += k;
    }
}

/* Choose the byte window [*from, *to) of the line to show around the
** caret so that very long lines stay readable: a third of the window
** before the caret, the rest after it.  Only the window's characters are
** counted, so a diagnostic on a line of megabytes costs no more than one on
** a short line; the window contains the caret even in text that is not
** valid UTF-8. */
static void excerpt_window(const char *line, size_t len, size_t caret,
                           size_t *from, size_t *to) {
    *from = 0;
    *to = len;
    if (skip_chars(line, len, 0, WINDOW_COLS) == len) return;
    *from = back_chars(line, 0, caret, WINDOW_COLS / 3);
    *to = skip_chars(line, len, *from, WINDOW_COLS);
    if (*to < caret) *to = caret;
}

static void render_excerpt(SqBuf *out, const SqSrcSet *srcs, SrcSpan span,
                           int color) {
    const SqSrc *src = sq_src_get(srcs, span.file);
    if (!src) return;
    SqSrcPos a = sq_src_locate(src, span.start);
    SqSrcPos b = sq_src_locate(src, span.end > span.start ? span.end : span.start);
    size_t len;
    const char *line = sq_src_line(a.file, a.line, &len);
    size_t caret = a.col - 1 > len ? len : a.col - 1;
    size_t stop = (b.line == a.line && b.file == a.file) ? b.col - 1 : len;
    if (stop > len) stop = len;
    if (stop < caret) stop = caret;
    size_t from, to;
    excerpt_window(line, len, caret, &from, &to);
    if (stop > to) stop = to;
    if (stop < caret) stop = caret;
    char num[16];
    int w = snprintf(num, sizeof num, "%u", a.line);
    sq_buf_printf(out, " %s | ", num);
    if (from > 0) sq_buf_puts(out, "...");
    put_visible(out, line, from, to);
    if (to < len) sq_buf_puts(out, "...");
    sq_buf_putc(out, '\n');
    sq_buf_repeat(out, ' ', (size_t)w + 1);
    sq_buf_puts(out, " | ");
    if (from > 0) sq_buf_puts(out, "   ");
    sq_buf_repeat(out, ' ', display_cols(line + from, caret - from));
    if (color) sq_buf_puts(out, "\033[1;32m");
    sq_buf_putc(out, '^');
    size_t width = display_cols(line + caret, stop - caret);
    if (width > 1) sq_buf_repeat(out, '~', width - 1);
    if (color) sq_buf_puts(out, "\033[0m");
    sq_buf_putc(out, '\n');
}

static void render_location(SqBuf *out, const SqSrcSet *srcs, SrcSpan span) {
    const SqSrc *src = sq_src_get(srcs, span.file);
    if (!src) {
        sq_buf_puts(out, "squint: ");
        return;
    }
    SqSrcPos p = sq_src_locate(src, span.start);
    sq_buf_printf(out, "%s:%u:%u: ", p.file->name, p.line, p.col);
}

static const char *sev_color(SqSeverity s) {
    return s == SQ_SEV_ERROR ? "\033[1;31m" : s == SQ_SEV_WARNING ? "\033[1;35m"
                                                                 : "\033[1;36m";
}

void sq_diag_render_text(const SqDiags *d, const SqDiag *g, SqBuf *out,
                         unsigned flags) {
    int color = (flags & SQ_RENDER_COLOR) != 0;
    render_location(out, d->srcs, g->span);
    if (color) sq_buf_puts(out, sev_color(g->sev));
    sq_buf_printf(out, "%s[%s]", sq_severity_name(g->sev), g->code);
    if (color) sq_buf_puts(out, "\033[0m");
    sq_buf_printf(out, ": %s", g->msg);
    const char *item = sq_diag_item(d, g->span);
    if (item) sq_buf_printf(out, " [%s]", item);
    sq_buf_putc(out, '\n');
    render_excerpt(out, d->srcs, g->span, color);
    for (size_t i = 0; i < g->n_notes; i++) {
        render_location(out, d->srcs, g->notes[i].span);
        sq_buf_printf(out, "note: %s\n", g->notes[i].msg);
        render_excerpt(out, d->srcs, g->notes[i].span, color);
    }
    if (g->help) sq_buf_printf(out, "  = help: %s\n", g->help);
}

/* ------------------------------------------------------------------ */
/* JSON rendering                                                      */
/* ------------------------------------------------------------------ */

static void json_member(SqJsonWriter *w, const char *key, int64_t v) {
    sq_jw_key(w, key);
    sq_jw_int(w, v);
}

void sq_json_span_members(SqJsonWriter *w, const SqSrcSet *srcs, SrcSpan span) {
    const SqSrc *src = srcs ? sq_src_get(srcs, span.file) : NULL;
    uint32_t start = span.start, end = span.end;
    sq_jw_key(w, "file");
    if (src) {
        SqSrcPos a = sq_src_locate(src, span.start);
        SqSrcPos b = sq_src_locate(src, span.end);
        sq_jw_str(w, a.file->name);
        json_member(w, "line", a.line);
        json_member(w, "column", a.col);
        json_member(w, "end_line", b.line);
        json_member(w, "end_column", b.col);
        start = a.offset, end = b.offset;
    } else {
        sq_jw_null(w);
    }
    json_member(w, "offset", start);
    json_member(w, "length", end >= start ? end - start : 0);
}

/* A location: the span as an object, null when its file is not known. */
static void json_span(SqJsonWriter *w, const SqSrcSet *srcs, SrcSpan span) {
    if (!sq_src_get(srcs, span.file)) {
        sq_jw_null(w);
        return;
    }
    sq_jw_obj_begin(w);
    sq_json_span_members(w, srcs, span);
    sq_jw_obj_end(w);
}

void sq_diag_render_json(const SqDiags *d, const SqDiag *g, SqJsonWriter *w) {
    sq_jw_obj_begin(w);
    sq_jw_key(w, "severity");
    sq_jw_str(w, sq_severity_name(g->sev));
    sq_jw_key(w, "code");
    sq_jw_str(w, g->code);
    sq_jw_key(w, "message");
    sq_jw_str(w, g->msg);
    sq_jw_key(w, "location");
    json_span(w, d->srcs, g->span);
    const char *item = sq_diag_item(d, g->span);
    if (item) {
        sq_jw_key(w, "item");
        sq_jw_str(w, item);
    }
    sq_jw_key(w, "notes");
    sq_jw_arr_begin(w);
    for (size_t i = 0; i < g->n_notes; i++) {
        sq_jw_obj_begin(w);
        sq_jw_key(w, "message");
        sq_jw_str(w, g->notes[i].msg);
        sq_jw_key(w, "location");
        json_span(w, d->srcs, g->notes[i].span);
        sq_jw_obj_end(w);
    }
    sq_jw_arr_end(w);
    if (g->help) {
        sq_jw_key(w, "help");
        sq_jw_str(w, g->help);
    }
    sq_jw_obj_end(w);
}

int sq_diag_is_input_problem(const SqDiag *g) {
    return strncmp(g->code, "E00", 3) == 0 || strncmp(g->code, "E02", 3) == 0;
}

int sq_diags_have_input_problem(const SqDiags *d) {
    for (size_t i = 0; i < d->n; i++)
        if (sq_diag_is_input_problem(d->items[i])) return 1;
    return 0;
}
