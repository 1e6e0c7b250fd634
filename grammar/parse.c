/*
** parse.c -- the parse driver: tokens in, statements out.
**
** Layer: grammar.  Feeds tokens to the bison push parser the way SQLite's
** sqlite3RunParser() feeds its Lemon parser:
**   - one parser per statement, so every statement starts at the same
**     stack depth SQLite's prepare would give it;
**   - WINDOW, OVER and FILTER are keywords only when the tokens around
**     them say so (SQLite's analyzeWindowKeyword and friends);
**   - a keyword that SQLite lets stand for an identifier is pushed as an
**     identifier when Lemon would take it as one (sq_yy_fallback_token);
**   - at end of input a ';' is supplied, then the end marker.
** On the first error of a statement it reports one diagnostic, skips to the
** next ';' and starts the next statement afresh.
**
** Call tree:  sq_parser_next -> take_token -> lex_next
**                            -> choose_code -> sq_yy_fallback_token
**                            -> push_token -> sq_yypush_parse -> ast_*()
**                            -> fail_statement | finish_statement
*/
#include "grammar/parse.h"

#include <stdlib.h>
#include <string.h>

#include "runtime/util.h"
#include "grammar/lex.h"
#include "grammar/parse_int.h"
#include "sql.tab.h"

#define MAX_PARENS 128   /* open-paren positions remembered for notes */
#define NEAR_MAX 32      /* bytes of a token quoted in a message */

struct SqParser {
    ParseCtx ctx;            /* must be first: the grammar sees only ctx */
    Lexer *lx;
    LexTok queue[4];         /* tokens read ahead (WINDOW/OVER lookahead) */
    int q_head, q_len;
    int lex_done;            /* the lexer has returned end of input */
    int input_done;          /* nothing more to hand out */
    struct sq_yypstate *ps;  /* parser for the current statement, or NULL */
    int last_pushed;         /* code of the last token pushed, -1 at start */
    int in_stmt;             /* a non-';' token was pushed to this parser */
    uint32_t stmt_start;     /* offset of the statement's first token */
    uint32_t stmt_index;     /* statements handed out so far */
    LexTok cur;              /* the token being pushed */
    uint32_t last_end;       /* end of the last real token pushed */
    int trigger_state;       /* where "[EXPLAIN] CREATE [TEMP] TRIGGER" stands */
    int cur_synthetic;       /* cur is the ';' or end supplied at end of input */
    uint32_t parens[MAX_PARENS];
    uint32_t depth;          /* open parentheses in this statement */
    AstComment *comments;    /* heap; every comment seen */
    size_t n_comments, cap_comments;
};

/* ------------------------------------------------------------------ */
/* Tokens                                                              */
/* ------------------------------------------------------------------ */

static void on_comment(void *arg, const LexComment *c) {
    SqParser *p = arg;
    if (p->n_comments == p->cap_comments) {
        p->cap_comments = p->cap_comments ? p->cap_comments * 2 : 16;
        p->comments = sq_realloc(p->comments, p->cap_comments * sizeof *p->comments);
    }
    AstComment *k = &p->comments[p->n_comments++];
    k->span = sq_span(p->ctx.file, c->start, c->end);
    k->is_block = c->is_block;
    if (c->unterminated) {
        SqDiag *g = sq_diag_add(p->ctx.diags, SQ_SEV_WARNING, SQ_W_COMMENT,
                                sq_span(p->ctx.file, c->start, c->start + 2),
                                "comment runs to the end of the input");
        sq_diag_help(g, "close it with '*/'");
    }
}

static void read_token(SqParser *p, LexTok *t) {
    if (p->lex_done) {
        memset(t, 0, sizeof *t);
        t->code = LEX_EOF;
        t->start = t->end = (uint32_t)p->ctx.src->len;
        return;
    }
    lex_next(p->lx, t);
    if (t->code == LEX_EOF) p->lex_done = 1;
}

/* The i-th token after the ones already taken. */
static const LexTok *peek(SqParser *p, int i) {
    while (p->q_len <= i) {
        read_token(p, &p->queue[(p->q_head + p->q_len) % 4]);
        p->q_len++;
    }
    return &p->queue[(p->q_head + i) % 4];
}

static LexTok take_token(SqParser *p) {
    LexTok t = *peek(p, 0);
    p->q_head = (p->q_head + 1) % 4;
    p->q_len--;
    return t;
}

/* SQLite's getToken() view of a token: anything that can be a name. */
static int is_name_like(const LexTok *t) {
    return t->code == TK_ID || t->code == TK_STRING || t->code == TK_JOIN_KW ||
           t->code == TK_WINDOW || t->code == TK_OVER || t->kw_fallback;
}

/* WINDOW is a keyword only before "name AS"; OVER only after ')' and
** before '(' or a name; FILTER only after ')' and before '('. */
static int window_keyword(SqParser *p, int code) {
    const LexTok *n1 = peek(p, 0);
    switch (code) {
    case TK_WINDOW:
        return is_name_like(n1) && peek(p, 1)->code == TK_AS;
    case TK_OVER:
        return p->last_pushed == TK_RP && (n1->code == TK_LP || is_name_like(n1));
    default:
        return p->last_pushed == TK_RP && n1->code == TK_LP;
    }
}

static int choose_code(SqParser *p, const LexTok *t) {
    int code = t->code;
    if (code == TK_WINDOW || code == TK_OVER || code == TK_FILTER)
        return window_keyword(p, code) ? code : TK_ID;
    if (p->ctx.in_vtab_args && !sq_yy_would_shift(p->ps, code)) {
        if (t->kw_fallback && sq_yy_would_shift(p->ps, TK_ID)) return TK_ID;
        if (sq_yy_would_shift(p->ps, TK_ANY)) return TK_ANY;
        return code;
    }
    if (t->kw_fallback) return sq_yy_fallback_token(p->ps, code, TK_ID);
    return code;
}

/* ------------------------------------------------------------------ */
/* Statements                                                          */
/* ------------------------------------------------------------------ */

static void begin_statement(SqParser *p) {
    ParseCtx *c = &p->ctx;
    p->ps = sq_yypstate_new();
    if (!p->ps) sq_oom();
    p->last_pushed = -1;
    p->in_stmt = 0;
    p->depth = 0;
    c->done = NULL;
    c->explain = 0;
    c->failed = 0;
    c->exhausted = 0;
    c->n_vars = 0;
    c->var_slots = NULL;
    c->var_cap = c->var_count = 0;
    p->trigger_state = 0;
    c->returning = NULL;
    c->table = NULL;
    c->trigger = NULL;
    c->vtab = NULL;
    c->in_vtab_args = 0;
}

static void end_statement(SqParser *p) {
    if (p->ps) sq_yypstate_delete(p->ps);
    p->ps = NULL;
}

/* Recognize a CREATE TRIGGER statement from its first tokens, as SQLite's
** sqlite3_complete() does: it ends at ";END;", not at its first ';'.
** States: 0 start, 1 after CREATE [TEMP], 2 is a trigger, 3 is not. */
enum { TRIG_START, TRIG_CREATE, TRIG_YES, TRIG_NO };

static void track_trigger(SqParser *p, const LexTok *t) {
    int c = t->code;
    switch (p->trigger_state) {
    case TRIG_START:
        p->trigger_state = c == TK_CREATE ? TRIG_CREATE
                         : (c == TK_EXPLAIN || c == TK_QUERY || c == TK_PLAN || c == TK_SEMI)
                               ? TRIG_START : TRIG_NO;
        break;
    case TRIG_CREATE:
        p->trigger_state = c == TK_TEMP ? TRIG_CREATE : c == TK_TRIGGER ? TRIG_YES : TRIG_NO;
        break;
    default:
        break;
    }
}

static void track_parens(SqParser *p, int code, const LexTok *t) {
    if (code == TK_LP) {
        if (p->depth < MAX_PARENS) p->parens[p->depth] = t->start;
        p->depth++;
    } else if (code == TK_RP && p->depth > 0) {
        p->depth--;
    }
}

/* Push one token; returns nonzero when the parser gave up on it. */
static int push_token(SqParser *p, int code, const LexTok *t, int synthetic) {
    SQ_YYSTYPE val;
    SqLoc loc = {t->start, t->end};
    val.tok = *t;
    val.tok.code = code;
    p->cur = *t;
    p->cur_synthetic = synthetic;
    if (code != TK_SEMI && code != 0 && !p->in_stmt) {
        p->in_stmt = 1;
        p->stmt_start = t->start;
    }
    if (!synthetic) {
        p->last_end = t->end;
        track_trigger(p, t);
    }
    int status = sq_yypush_parse(p->ps, code, &val, &loc, &p->ctx);
    p->last_pushed = code;
    track_parens(p, code, t);
    return status == 1 || status == 2; /* YYPUSH_MORE and accept are fine */
}

static SqParseStatus finish_statement(SqParser *p, SqParseResult *out) {
    out->stmt = p->ctx.done;
    out->stmt->index = p->stmt_index;
    out->span = out->stmt->span;
    out->index = p->stmt_index++;
    end_statement(p);
    return SQ_PARSE_OK;
}

/* Skip the rest of a failed statement: up to and including the next ';',
** or for CREATE TRIGGER the ';' of ";END;".  The failing token counts. */
static void skip_statement(SqParser *p, const LexTok *failed_at) {
    if (failed_at->code == LEX_EOF || p->cur_synthetic) {
        p->input_done = 1;
        return;
    }
    int trigger = p->trigger_state == TRIG_YES, seen = 0; /* of ";END;" */
    LexTok t = *failed_at;
    for (;;) {
        if (t.code == TK_SEMI) {
            if (!trigger || seen == 2) return;
            seen = 1;
        } else {
            seen = (trigger && seen == 1 && t.code == TK_END) ? 2 : 0;
        }
        t = take_token(p);
        if (t.code == LEX_EOF) {
            p->input_done = 1;
            return;
        }
    }
}

static SqParseStatus fail_statement(SqParser *p, const LexTok *t,
                                    SqParseResult *out) {
    uint32_t start = p->in_stmt ? p->stmt_start : t->start;
    out->stmt = NULL;
    out->span = sq_span(p->ctx.file, start, t->end > start ? t->end : start);
    out->index = p->stmt_index++;
    end_statement(p);
    skip_statement(p, t);
    return SQ_PARSE_ERROR;
}

/* ------------------------------------------------------------------ */
/* Messages                                                            */
/* ------------------------------------------------------------------ */

static void quote_near(SqBuf *b, const char *s, size_t n) {
    size_t cut = n > NEAR_MAX ? NEAR_MAX : n;
    while (cut < n && cut > 0 && ((unsigned char)s[cut] & 0xC0) == 0x80) cut--;
    sq_buf_putc(b, '\'');
    for (size_t i = 0; i < cut; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '\n' || c == '\r' || c == '\t') sq_buf_putc(b, ' ');
        else if (c < 0x20 || c == 0x7f) sq_buf_printf(b, "\\x%02x", c);
        else sq_buf_putc(b, (char)c);
    }
    if (cut < n) sq_buf_puts(b, "...");
    sq_buf_putc(b, '\'');
}

static int in_set(const char *name, const char *const *set) {
    for (; *set; set++)
        if (strcmp(name, *set) == 0) return 1;
    return 0;
}

static const char *const expr_starts[] = {
    "a name", "INDEXED", "a string", "a join keyword", "an integer", "a number",
    "a blob", "a parameter", "NULL", "a CURRENT_* keyword", "CAST", "CASE",
    "EXISTS", "NOT", "RAISE", "(", "-", "+", "~", NULL};
static const char *const literals[] = {
    "an integer", "a number", "a string", "a blob", "NULL",
    "a CURRENT_* keyword", NULL};
static const char *const name_forms[] = {
    "INDEXED", "a string", "a join keyword", NULL};
static const char *const operators[] = {
    "OR", "AND", "IS", "MATCH", "LIKE", "BETWEEN", "IN", "ISNULL", "NOTNULL",
    "!=", "=", ">", "<=", "<", ">=", "ESCAPE", "&", "|", "<<", ">>", "+", "-",
    "*", "/", "%", "||", "->", "COLLATE", "NOT", NULL};

static int has(const char *const *names, int n, const char *what) {
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], what) == 0) return 1;
    return 0;
}

/* Word the expected-token list: whole families ("an expression", "an
** operator", "a name") instead of their members, the rest quoted. */
static void format_expected(SqBuf *b, const char *const *names, int n) {
    const char *items[72];
    int k = 0, n_ops = 0;
    int expr = has(names, n, "an integer") && has(names, n, "a string") &&
               has(names, n, "a name");
    for (int i = 0; i < n; i++) n_ops += in_set(names[i], operators);
    int ops = n_ops >= 5;
    int lits = !expr && has(names, n, "an integer") && has(names, n, "a string");
    if (expr) items[k++] = "an expression";
    if (lits) items[k++] = "a literal";
    if (ops) items[k++] = "an operator";
    for (int i = 0; i < n && k < 70; i++) {
        const char *s = names[i];
        if ((expr && in_set(s, expr_starts)) || (ops && in_set(s, operators)) ||
            (lits && in_set(s, literals)))
            continue;
        if (!expr && in_set(s, name_forms) && has(names, n, "a name")) continue;
        items[k++] = s;
    }
    int shown = k > 6 ? 5 : k;
    for (int i = 0; i < shown; i++) {
        if (i) sq_buf_puts(b, i == k - 1 ? " or " : ", ");
        const char *s = items[i];
        int plain = strncmp(s, "a ", 2) == 0 || strncmp(s, "an ", 3) == 0 ||
                    strncmp(s, "any ", 4) == 0;
        sq_buf_printf(b, plain ? "%s" : "'%s'", s);
    }
    if (shown < k) sq_buf_printf(b, " or %d more", k - shown);
}

static void note_open_paren(SqParser *p, SqDiag *g) {
    if (!g || p->depth == 0 || p->depth > MAX_PARENS) return;
    uint32_t at = p->parens[p->depth - 1];
    sq_diag_note(g, sq_span(p->ctx.file, at, at + 1), "unclosed '(' opened here");
}

void ast_syntax_error(ParseCtx *ctx, SqLoc loc, int lookahead_kind,
                      const char *const *expected, int n_expected) {
    SqParser *p = (SqParser *)ctx;
    (void)lookahead_kind;
    if (ctx->failed) return;
    SqBuf b = SQ_BUF_INIT;
    SqDiagCode code = SQ_E_SYNTAX;
    if (p->cur_synthetic) {
        code = SQ_E_INCOMPLETE;
        sq_buf_puts(&b, "incomplete input");
        loc.start = loc.end = p->last_end; /* just after the last token */
    } else {
        size_t len;
        const char *raw = ast_text(ctx, loc, &len);
        sq_buf_puts(&b, "syntax error near ");
        quote_near(&b, raw, len);
    }
    if (n_expected > 0) {
        sq_buf_puts(&b, ": expected ");
        format_expected(&b, expected, n_expected);
    }
    SqDiag *g = ast_error(ctx, code, loc, "%s", sq_buf_str(&b));
    sq_buf_free(&b);
    /* Point at the '(' the parser still wants closed. */
    if (p->cur_synthetic || p->cur.code == TK_SEMI || has(expected, n_expected, ")"))
        note_open_paren(p, g);
}

void ast_stack_exhausted(ParseCtx *ctx, SqLoc loc) {
    ctx->exhausted = 1;
    SqDiag *g = ast_error(ctx, SQ_E_TOO_DEEP, loc,
                          "nesting too deep: SQLite's parser stack (100 entries) "
                          "overflows here");
    if (g) sq_diag_help(g, "flatten the nesting, e.g. with a WITH clause instead "
                           "of nested subqueries");
}

static void lex_error(SqParser *p, const LexTok *t) {
    ParseCtx *c = &p->ctx;
    SqLoc loc = {t->start, t->end};
    size_t len;
    const char *raw = ast_text(c, loc, &len);
    SqBuf b = SQ_BUF_INIT;
    quote_near(&b, raw, len);
    const char *q = sq_buf_str(&b);
    SqDiag *g = NULL;
    switch ((LexIllegal)t->why) {
    case LEX_OPEN_STRING:
        g = ast_error(c, SQ_E_UNTERMINATED, loc, "unterminated string literal");
        if (g) sq_diag_help(g, "close it with ' (write '' for a quote inside)");
        break;
    case LEX_OPEN_QUOTED_ID:
        g = ast_error(c, SQ_E_UNTERMINATED, loc, "unterminated quoted identifier");
        if (g) sq_diag_help(g, "close it with %c", raw[0] == '[' ? ']' : raw[0]);
        break;
    case LEX_BAD_BLOB:
        g = ast_error(c, SQ_E_TOKEN, loc, "malformed blob literal %.*s",
                      (int)(len > NEAR_MAX ? NEAR_MAX : len), raw);
        if (g) sq_diag_help(g, "a blob is X'...' with an even number of hex digits");
        break;
    case LEX_BAD_NUMBER:
        g = ast_error(c, SQ_E_TOKEN, loc, "unrecognized token %s", q);
        if (g) sq_diag_help(g, "a name cannot start with a digit; quote it: \"%.*s\"",
                            (int)len, raw);
        break;
    case LEX_NUL_BYTE:
        ast_error(c, SQ_E_TOKEN, loc, "unexpected NUL byte in the input");
        break;
    default:
        g = ast_error(c, SQ_E_TOKEN, loc, "unrecognized token %s", q);
        if (g && raw[0] == '!') sq_diag_help(g, "'not equal' is written != or <>");
        break;
    }
    sq_buf_free(&b);
}

/* ------------------------------------------------------------------ */
/* Public interface                                                    */
/* ------------------------------------------------------------------ */

SqParser *sq_parser_new(const SqSrc *src, SqInterner *names, SqDiags *diags) {
    SqParser *p = sq_calloc(1, sizeof *p);
    p->ctx.src = src;
    p->ctx.file = src->id;
    p->ctx.names = names;
    p->ctx.diags = diags;
    p->lx = lex_open(src, on_comment, p);
    return p;
}

void sq_parser_free(SqParser *p) {
    if (!p) return;
    end_statement(p);
    lex_close(p->lx);
    free(p->comments);
    free(p);
}

const AstComment *sq_parser_comments(const SqParser *p, size_t *n) {
    *n = p->n_comments;
    return p->comments;
}

/* End of input: supply ';' unless one was just pushed, then the end
** marker, as SQLite does. */
static SqParseStatus finish_input(SqParser *p, const LexTok *eof,
                                  SqParseResult *out) {
    if (p->last_pushed == -1) {
        end_statement(p);
        p->input_done = 1;
        return SQ_PARSE_END;
    }
    int status = 0;
    if (p->last_pushed != TK_SEMI) {
        status = push_token(p, TK_SEMI, eof, 1);
        if (p->ctx.failed || status) return fail_statement(p, eof, out);
        if (p->ctx.done) {
            p->input_done = 1;
            return finish_statement(p, out);
        }
    }
    status = push_token(p, 0, eof, 1);
    if (p->ctx.failed || status) return fail_statement(p, eof, out);
    end_statement(p);
    p->input_done = 1;
    return SQ_PARSE_END;
}

SqParseStatus sq_parser_next(SqParser *p, SqArena *arena, SqParseResult *out) {
    memset(out, 0, sizeof *out);
    p->ctx.arena = arena;
    while (!p->input_done) {
        if (!p->ps) begin_statement(p);
        LexTok t = take_token(p);
        if (t.code == LEX_EOF) return finish_input(p, &t, out);
        if (t.code == LEX_ILLEGAL) {
            p->cur = t;
            p->cur_synthetic = 0;
            if (!p->in_stmt) p->stmt_start = t.start, p->in_stmt = 1;
            lex_error(p, &t);
            return fail_statement(p, &t, out);
        }
        int status = push_token(p, choose_code(p, &t), &t, 0);
        if (p->ctx.failed || status) return fail_statement(p, &t, out);
        if (p->ctx.done) return finish_statement(p, out);
    }
    return SQ_PARSE_END;
}

size_t sq_parse_all(const SqSrc *src, SqInterner *names, SqDiags *diags,
                    SqArena *arena, AstStmtList *out) {
    SqParser *p = sq_parser_new(src, names, diags);
    SqParseResult r;
    SqParseStatus st;
    size_t failed = 0;
    memset(out, 0, sizeof *out);
    while ((st = sq_parser_next(p, arena, &r)) != SQ_PARSE_END) {
        if (st == SQ_PARSE_ERROR) {
            failed++;
            continue;
        }
        *SQ_ARENA_PUSH(arena, out) = r.stmt;
    }
    sq_parser_free(p);
    return failed;
}

const char *lex_token_name(int code) {
    if (code == LEX_EOF) return "end of input";
    if (code < 0) return "an unrecognized token";
    return sq_yy_token_name(code);
}
