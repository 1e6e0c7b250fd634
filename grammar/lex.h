/*
** lex.h -- the token stream of SQLite-dialect SQL.
**
** Layer: grammar.  The flex scanner (sql.l) splits a source text into
** tokens exactly as SQLite 3.40's tokenizer does: same token boundaries,
** same "illegal token" cases.  Keyword lookup and the keyword-or-identifier
** decision live here and in parse.c, not in the scanner rules.
**
** A LexTok is a token code plus byte offsets into the source text; the text
** itself stays in the SqSrc that owns it.
*/
#ifndef SQ_LEX_H
#define SQ_LEX_H

#include <stddef.h>
#include <stdint.h>

#include "runtime/src.h"

/* Token classes the scanner reports beyond the parser's own tokens. */
enum {
    LEX_EOF = 0,
    LEX_ILLEGAL = -1,      /* a byte sequence SQLite rejects */
    LEX_UNTERMINATED = -2, /* unterminated string or quoted identifier */
};

/* Why a token is illegal, for the message. */
typedef enum LexIllegal {
    LEX_BAD_CHAR,        /* a character that starts no token */
    LEX_BAD_NUMBER,      /* digits followed by identifier characters */
    LEX_BAD_BLOB,        /* X'..' with odd length or non-hex digits */
    LEX_BAD_VARIABLE,    /* $, @, :, # without a name */
    LEX_NUL_BYTE,        /* a NUL byte in the text */
    LEX_OPEN_STRING,     /* '... without the closing quote */
    LEX_OPEN_QUOTED_ID,  /* "... `... [... without the closing quote */
} LexIllegal;

typedef struct LexTok {
    int code;        /* parser token (TK_*), LEX_EOF or LEX_ILLEGAL */
    uint32_t start;  /* byte offset of the first byte */
    uint32_t end;    /* byte offset one past the last byte */
    uint8_t why;     /* LexIllegal when code == LEX_ILLEGAL */
    uint8_t kw_fallback; /* keyword that may stand for an identifier */
} LexTok;

typedef struct LexComment {
    uint32_t start, end;
    uint8_t is_block;
    uint8_t unterminated;
} LexComment;

/* The scanner's work so far.  flex reads the text in chunks into a buffer
** of its own; when a token runs past the end of the buffer it moves the
** token's first part to the front, reads more and scans the token again
** from its start.  rescanned sums those parts: it stays below twice the
** input however long a token is (a test checks it). */
typedef struct LexStats {
    size_t fed;       /* bytes handed to the scanner */
    size_t reads;     /* reads (YY_INPUT calls) */
    size_t rescanned; /* bytes of unfinished tokens scanned again */
} LexStats;

typedef struct Lexer Lexer;

/* Callback for each comment, in source order. */
typedef void (*LexCommentFn)(void *arg, const LexComment *c);

Lexer *lex_open(const SqSrc *src, LexCommentFn on_comment, void *arg);
void lex_close(Lexer *lx);
void lex_next(Lexer *lx, LexTok *out);
void lex_stats(const Lexer *lx, LexStats *out);

/* Keyword lookup over keywords.def: the token code for s[0..n) (ASCII,
** any case) and whether it falls back to an identifier, or 0. */
int lex_keyword(const char *s, size_t n, int *fallback);

/* Whether code is a bind parameter's (?, ?N, :x, @x, $x, sqlc.arg(x)). */
int lex_is_variable(int code);

/* Display name of a token code for messages: "FROM", "'('", "a name". */
const char *lex_token_name(int code);

#endif
