/*
** lex_int.h -- private interface between the flex rules and lex.c.
**
** Layer: grammar.  Only sql.l and lex.c include this file.
*/
#ifndef SQ_LEX_INT_H
#define SQ_LEX_INT_H

#include <stdlib.h>

#include "runtime/util.h"
#include "grammar/lex.h"
#include "grammar/parse_int.h"
#include "sql.tab.h"

struct Lexer {
    const SqSrc *src;     /* text being scanned (not owned) */
    size_t feed;          /* bytes handed to flex so far */
    LexStats stats;       /* work done, for tests */
    uint32_t pos;         /* offset of the next unmatched byte */
    uint8_t why;          /* LexIllegal of the last illegal token */
    uint8_t fallback;     /* the keyword just matched may be an identifier */
    LexCommentFn on_comment;
    void *arg;
    void *scanner;        /* yyscan_t */
};

size_t lex_feed(struct Lexer *lx, char *buf, size_t max);
SQ_NORETURN void lex_fatal(const char *msg);
int lex_emit(struct Lexer *lx, SQ_YYSTYPE *val, SqLoc *loc, int code, size_t len);
void lex_skip(struct Lexer *lx, size_t len);
void lex_comment(struct Lexer *lx, size_t len, int is_block, int unterminated);
int lex_block_comment_open(struct Lexer *lx, size_t len);
void lex_set_illegal(struct Lexer *lx, LexIllegal why);

/* Exact SQLite token lengths for a generously matched run text[0..n).
** Each returns the length of the real token (<= n) and its code. */
size_t lex_number(struct Lexer *lx, const char *text, size_t n, int *code);
size_t lex_variable(struct Lexer *lx, const char *text, size_t n, int *code);
size_t lex_blob(struct Lexer *lx, const char *text, size_t n, int *code);
/* sqlc.arg(x) and its kin: one parameter in a file with
** SQ_SRC_SQLC_MACROS, else the word sqlc (and the rest lexed again). */
size_t lex_sqlc_macro(struct Lexer *lx, const char *text, size_t n, int *code);
/* Identifier or keyword; code 0 means the run is a byte-order mark (skip). */
size_t lex_word(struct Lexer *lx, const char *text, size_t n, int *code);

#endif
