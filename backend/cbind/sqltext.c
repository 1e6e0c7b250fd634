/*
** sqltext.c -- a compiled query's SQL with its parameters rewritten.
**
** Two forms.  For SQLite (SQ_SQL_FOR_SQLITE) only sqlc's macros change:
** sqlc.arg(x), sqlc.narg(x) and sqlc.slice(x) become :x, which is how
** SQLite numbers them and what the compile check prepares.  For the
** manifest and the bindings (SQ_SQL_NUMBERED) every parameter becomes ?N,
** N its SQLite number, so that a generator binds by number whatever the
** query was written with, and a slice becomes ?N after a comment that
** reads SLICE:name, which the generated code replaces at run time (with
** the ?N) by as many parameters as the list has values.
**
** The statement is lexed again (grammar/lex.h) so that a '?' or ':x' in
** a string or a comment is never taken for a parameter; everything
** between parameters is copied as it is.
*/
#include <stdlib.h>
#include <string.h>

#include "backend/cbind/cbind.h"
#include "grammar/lex.h"
#include "runtime/strbuf.h"
#include "runtime/util.h"

static const SqParamInfo *param_keyed(const SqSignature *sig, const char *key) {
    for (uint32_t i = 0; i < sig->n_params; i++)
        if (strcmp(sig->params[i].key, key) == 0) return &sig->params[i];
    return NULL;
}

static const char *slice_name(const SqSignature *sig, uint32_t k) {
    for (uint32_t i = 0; i < sig->n_params; i++)
        if (sig->params[i].index == k) return sig->params[i].name;
    return "?";
}

/* SQLite's number of the parameter written w[0..n), as infer.c numbered
** it: "?" is one more than the largest so far, "?N" is N, a name its
** signature's number. */
static uint32_t number(SqArena *a, const char *w, const SqSignature *sig, uint32_t *max, uint8_t *macro) {
    const char *key = sq_cbind_param_key(a, w, macro);
    uint32_t k = 0;
    if (strcmp(key, "?") == 0) {
        k = ++*max;
    } else if (key[0] == '?') {
        k = (uint32_t)strtoul(key + 1, NULL, 10);
    } else {
        const SqParamInfo *p = param_keyed(sig, key);
        k = p ? p->index : ++*max;
    }
    if (k > *max) *max = k;
    return k;
}

/* Whether text[0..len) holds no macro: SQLite takes it as it is. */
static int macro_free(const char *text, size_t len) {
    for (const char *p = text; (p = memchr(p, 's', len - (size_t)(p - text))) != NULL; p++)
        if ((size_t)(text + len - p) >= 5 && memcmp(p, "sqlc.", 5) == 0) return 0;
    return 1;
}

char *sq_cbind_sql(const SqSrc *src, SrcSpan stmt, const SqSignature *sig, SqSqlForm form, SqArena *a) {
    size_t len = stmt.end - stmt.start;
    int as_written = form == SQ_SQL_FOR_SQLITE ? macro_free(src->text + stmt.start, len) : !sig->n_params;
    if (as_written) return sq_arena_strndup(a, src->text + stmt.start, len);   /* nothing to rewrite */
    SqSrc one;
    memset(&one, 0, sizeof one);
    one.name = src->name;
    one.text = sq_arena_alloc(a, len + 2);
    memcpy(one.text, src->text + stmt.start, len);   /* the arena's zeroes end it */
    one.len = len;
    one.flags = src->flags;
    Lexer *lx = lex_open(&one, NULL, NULL);
    SqBuf out = SQ_BUF_INIT;
    uint32_t copied = 0, max = 0;
    for (;;) {
        LexTok t;
        lex_next(lx, &t);
        if (t.code == LEX_EOF) break;
        if (!lex_is_variable(t.code)) continue;
        char *w = sq_arena_strndup(a, one.text + t.start, t.end - t.start);
        uint8_t macro;
        uint32_t k = number(a, w, sig, &max, &macro);
        sq_buf_put(&out, one.text + copied, t.start - copied);
        if (form == SQ_SQL_FOR_SQLITE) sq_buf_puts(&out, sq_cbind_param_key(a, w, &macro));
        else if (macro == SQ_MACRO_SLICE) sq_buf_printf(&out, "/*SLICE:%s*/?%u", slice_name(sig, k), k);
        else sq_buf_printf(&out, "?%u", k);
        copied = t.end;
    }
    lex_close(lx);
    sq_buf_put(&out, one.text + copied, len - copied);
    char *text = sq_arena_strndup(a, out.data ? out.data : "", out.len);
    sq_buf_free(&out);
    return text;
}
