/*
** annot.c -- the annotations of a query file, as sqlc writes them: a
** comment "-- name: GetAuthor :one" (or the block form "/" "* name:
** GetAuthor :one *" "/") before each statement, naming the function that
** will run it and what that function returns.
**
** Statements come one at a time from the compiler's own parse, with the
** comments its lexer has read so far (every one before the statement),
** so the file is parsed once.  A statement's annotation is the last
** "name:" comment between the end of the statement before it and its own
** start; other comments are ignored.  Every mistake is an error at its
** place, so that a file is either compiled whole or reported.
*/
#include <ctype.h>
#include <string.h>

#include "backend/cbind/cbind.h"
#include "grammar/ast.h"
#include "runtime/util.h"

static const char *const cmd_names[SQ_CMD__COUNT] = {":one", ":many", ":exec", ":execrows", ":execlastid"};

const char *sq_query_cmd_name(SqQueryCmd c) { return c < SQ_CMD__COUNT ? cmd_names[c] : "?"; }

/* A comment's text without its markers. */
static void comment_text(const SqSrc *src, const AstComment *c, const char **s, size_t *n) {
    *s = src->text + c->span.start + 2;
    *n = c->span.end - c->span.start - 2;
    if (c->is_block && *n >= 2 && memcmp(*s + *n - 2, "*/", 2) == 0) *n -= 2;
}

static void skip_blank(const char **s, const char *end) {
    while (*s < end && isspace((unsigned char)**s)) (*s)++;
}

int sq_cbind_is_c_identifier(const char *s, size_t n) {
    if (!n || !(isalpha((unsigned char)s[0]) || s[0] == '_')) return 0;
    for (size_t i = 1; i < n; i++)
        if (!(isalnum((unsigned char)s[i]) || s[i] == '_')) return 0;
    return 1;
}

/* Read "name: NAME :cmd" into ann; 0 when the comment is no annotation,
** 1 when it is one, -1 after an error. */
static int read_annotation(const SqSrc *src, const AstComment *c, SqDiags *d, SqArena *a, SqAnnotation *ann) {
    const char *s, *end;
    size_t n;
    comment_text(src, c, &s, &n);
    end = s + n;
    skip_blank(&s, end);
    if ((size_t)(end - s) < 5 || memcmp(s, "name:", 5) != 0) return 0;
    s += 5;
    skip_blank(&s, end);
    const char *name = s;
    while (s < end && !isspace((unsigned char)*s)) s++;
    size_t name_len = (size_t)(s - name);
    skip_blank(&s, end);
    const char *cmd = s;
    while (s < end && !isspace((unsigned char)*s)) s++;
    size_t cmd_len = (size_t)(s - cmd);
    skip_blank(&s, end);
    ann->at = c->span;
    if (!sq_cbind_is_c_identifier(name, name_len)) {
        SqDiag *g = sq_diag_add(d, SQ_SEV_ERROR, SQ_E_ANNOT_BAD, c->span, "'%.*s' is not a name a function can have",
                                (int)(name_len < 60 ? name_len : 60), name);
        sq_diag_help(g, "a query's name is a C identifier: a letter or '_', then letters, digits or '_'");
        return -1;
    }
    int k = 0;
    while (k < SQ_CMD__COUNT && !(strlen(cmd_names[k]) == cmd_len && memcmp(cmd_names[k], cmd, cmd_len) == 0)) k++;
    if (k == SQ_CMD__COUNT || s < end) {
        SqDiag *g = sq_diag_add(d, SQ_SEV_ERROR, SQ_E_ANNOT_BAD, c->span, "%s '%.*s'",
                                cmd_len ? "unknown command" : "no command after the name", (int)(cmd_len < 30 ? cmd_len : 30), cmd);
        sq_diag_help(g, "write one of :one, :many, :exec, :execrows, :execlastid after the name");
        return -1;
    }
    ann->name = sq_arena_strndup(a, name, name_len);
    ann->cmd = (uint8_t)k;
    return 1;
}

void sq_cbind_annot_init(SqAnnotator *an, const SqSrc *src, SqStrMap *seen, SqDiags *d, SqArena *a) {
    memset(an, 0, sizeof *an);
    an->src = src;
    an->seen = seen;
    an->d = d;
    an->a = a;
}

static void no_statement(SqAnnotator *an, const SqAnnotation *ann) {
    sq_diag_add(an->d, SQ_SEV_ERROR, SQ_E_ANNOT_EMPTY, ann->at, "the query '%s' has no statement", ann->name);
    an->errors++;
}

/* The annotation among the comments before start: 1 found (in *ann), 0
** none, -1 one could not be read (reported).  Two in a row: the first has
** no statement. */
static int annotation_before(SqAnnotator *an, uint32_t start, const AstComment *cs, size_t n, SqAnnotation *ann) {
    int found = 0;
    for (; an->next < n && cs[an->next].span.start < start; an->next++) {
        if (cs[an->next].span.start < an->prev_end) continue;   /* inside the statement before */
        SqAnnotation one = {0};
        int rc = read_annotation(an->src, &cs[an->next], an->d, an->a, &one);
        if (rc < 0) an->errors++, found = -1;
        if (rc <= 0) continue;
        if (found == 1) no_statement(an, ann);
        *ann = one;
        found = found < 0 ? -1 : 1;
    }
    return found;
}

/* A name given before, in this file or another of the run: reported. */
static int is_duplicate(SqAnnotator *an, const SqAnnotation *ann) {
    int is_new = 1;
    int *first = an->seen ? sq_strmap_put(an->seen, ann->name, &is_new) : NULL;
    if (!is_new) {
        sq_diag_add(an->d, SQ_SEV_ERROR, SQ_E_ANNOT_DUP, ann->at, "a second query named '%s'", ann->name);
        an->errors++;
        return 1;
    }
    if (first) *first = 1;
    return 0;
}

const SqAnnotation *sq_cbind_annot_next(SqAnnotator *an, SrcSpan span, const AstStmt *st, const AstComment *cs,
                                        size_t n) {
    SqAnnotation ann = {0};
    int found = annotation_before(an, span.start, cs, n, &ann);
    an->prev_end = span.end;
    if (!st) return NULL;   /* a syntax error, which the compiler reports */
    if (found == 0) {
        SqDiag *g = sq_diag_add(an->d, SQ_SEV_ERROR, SQ_E_ANNOT_MISSING, sq_span(span.file, span.start, span.start),
                                an->last_name ? "a second statement after the query '%s'" : "a statement without a name%s",
                                an->last_name ? an->last_name : "");
        sq_diag_help(g, "put '-- name: Name :many' (or :one, :exec, ...) on the line before each statement");
        an->errors++;
        return NULL;
    }
    if (found < 0 || is_duplicate(an, &ann)) return NULL;
    ann.stmt = st->span;
    ann.stmt_kind = st->kind;
    SqAnnotation *out = sq_arena_alloc(an->a, sizeof *out);
    *out = ann;
    an->last_name = out->name;
    return out;
}

void sq_cbind_annot_end(SqAnnotator *an, const AstComment *cs, size_t n) {
    SqAnnotation ann = {0};
    if (annotation_before(an, UINT32_MAX, cs, n, &ann) == 1) no_statement(an, &ann);
}
