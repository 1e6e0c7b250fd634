/*
** annot.c -- the annotations of a query file, as sqlc writes them: a
** comment "-- name: GetAuthor :one" (or the block form "/" "* name:
** GetAuthor :one *" "/") before each statement, naming the function that
** will run it and what that function returns.
**
** The file is parsed once here for its statements and comments (the
** compiler parses it again to bind and lower; parsing is cheap).  A
** statement's annotation is the last "name:" comment between the end of
** the statement before it and its own start; other comments are
** ignored.  Every mistake is an error at its place, so that a file is
** either compiled whole or reported.
*/
#include <ctype.h>
#include <string.h>

#include "backend/cbind/cbind.h"
#include "grammar/parse.h"
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

/* Statements and comments of src, in file order.  A statement that does
** not parse has its span and no AST (its annotation is still its own). */
typedef struct StmtAt {
    SrcSpan span;
    const AstStmt *stmt;    /* NULL where it did not parse */
} StmtAt;

typedef struct Parsed {
    StmtAt *stmts;
    size_t n;
    const AstComment *comments;
    size_t n_comments;
} Parsed;

static void pair(const SqSrc *src, const Parsed *p, SqStrMap *seen, SqDiags *d, SqArena *a, SqAnnotations *out,
                 size_t *errors) {
    size_t c = 0;
    uint32_t prev_end = 0;
    for (size_t i = 0; i <= p->n; i++) {
        uint32_t start = i < p->n ? p->stmts[i].span.start : (uint32_t)src->len + 1;
        SqAnnotation ann = {0};
        int found = 0;
        for (; c < p->n_comments && p->comments[c].span.start < start; c++) {
            if (p->comments[c].span.start < prev_end) continue;
            SqAnnotation one = {0};
            int rc = read_annotation(src, &p->comments[c], d, a, &one);
            if (rc < 0) ++*errors, found = -1;
            if (rc <= 0) continue;
            if (found == 1) {   /* two annotations, one statement */
                sq_diag_add(d, SQ_SEV_ERROR, SQ_E_ANNOT_EMPTY, ann.at, "the query '%s' has no statement", ann.name);
                ++*errors;
            }
            ann = one, found = found < 0 ? -1 : 1;
        }
        if (i == p->n) {
            if (found == 1) {
                sq_diag_add(d, SQ_SEV_ERROR, SQ_E_ANNOT_EMPTY, ann.at, "the query '%s' has no statement", ann.name);
                ++*errors;
            }
            break;
        }
        const AstStmt *st = p->stmts[i].stmt;
        prev_end = p->stmts[i].span.end;
        if (!st) continue;   /* a syntax error, which the compiler reports */
        if (found == 0) {
            SqDiag *g = sq_diag_add(d, SQ_SEV_ERROR, SQ_E_ANNOT_MISSING, sq_span(st->span.file, st->span.start, st->span.start),
                                    out->n && i > 0 ? "a second statement after the query '%s'" : "a statement without a name%s",
                                    out->n && i > 0 ? out->items[out->n - 1].name : "");
            sq_diag_help(g, "put '-- name: Name :many' (or :one, :exec, ...) on the line before each statement");
            ++*errors;
            continue;
        }
        if (found < 0) continue;
        int is_new = 1;
        int *first = seen ? sq_strmap_put(seen, ann.name, &is_new) : NULL;
        if (!is_new) {
            sq_diag_add(d, SQ_SEV_ERROR, SQ_E_ANNOT_DUP, ann.at, "a second query named '%s'", ann.name);
            ++*errors;
            continue;
        }
        if (first) *first = 1;
        ann.stmt = st->span;
        ann.stmt_kind = st->kind;
        out->items[out->n++] = ann;
    }
}

size_t sq_cbind_annotations(const SqSrc *src, SqInterner *names, SqStrMap *seen, SqDiags *d, SqArena *a,
                            SqAnnotations *out) {
    SqDiags quiet;   /* syntax errors are the compiler's to report */
    sq_diags_init(&quiet, NULL);
    SqParser *parser = sq_parser_new(src, names, &quiet);
    Parsed p = {0};
    size_t cap = 0;
    SqParseResult res;
    SqParseStatus st;
    while ((st = sq_parser_next(parser, a, &res)) != SQ_PARSE_END) {
        p.stmts = sq_arena_grow(a, p.stmts, p.n, &cap, p.n + 1, sizeof *p.stmts);
        p.stmts[p.n++] = (StmtAt){res.span, st == SQ_PARSE_OK ? res.stmt : NULL};
    }
    p.comments = sq_parser_comments(parser, &p.n_comments);
    out->items = sq_arena_alloc(a, (p.n + 1) * sizeof *out->items);
    out->n = 0;
    size_t errors = 0;
    pair(src, &p, seen, d, a, out, &errors);
    sq_parser_free(parser);
    sq_diags_free(&quiet);
    return errors;
}
