/*
** parse.h -- parse SQLite-dialect SQL into a stream of statements.
**
** Layer: grammar (public entry point).  A parser reads one source and hands
** out its statements one at a time, each built in an arena the caller
** chooses, so a caller can process and drop statements as it goes and
** parse files of any size in bounded memory.
**
** A statement with an error is reported to the SqDiags and skipped up to
** the next ';'; its result has status SQ_PARSE_ERROR.  As in SQLite, only
** the first error of a statement is reported.  Accept and reject decisions
** are SQLite 3.40's: same tokens, same grammar, same parse-time checks and
** limits (parser stack of 100 entries, expression depth 1000, 500 compound
** terms, 127 function arguments).
*/
#ifndef SQ_PARSE_H
#define SQ_PARSE_H

#include "runtime/arena.h"
#include "runtime/diag.h"
#include "runtime/intern.h"
#include "runtime/src.h"
#include "grammar/ast.h"

typedef struct SqParser SqParser;

typedef enum SqParseStatus {
    SQ_PARSE_END = 0,   /* no more statements */
    SQ_PARSE_OK = 1,    /* result.stmt holds a statement */
    SQ_PARSE_ERROR = 2, /* a statement failed; diagnostics were added */
} SqParseStatus;

typedef struct SqParseResult {
    AstStmt *stmt;  /* SQ_PARSE_OK: the statement (in the caller's arena) */
    SrcSpan span;   /* the statement's text, up to where parsing stopped */
    uint32_t index; /* 0-based position among the source's statements */
} SqParseResult;

/* The parser reads src (which must outlive it), interns names into names
** and adds diagnostics to diags. */
SqParser *sq_parser_new(const SqSrc *src, SqInterner *names, SqDiags *diags);
void sq_parser_free(SqParser *p);

/* Parse the next statement, allocating its nodes in arena. */
SqParseStatus sq_parser_next(SqParser *p, SqArena *arena, SqParseResult *out);

/* Comments seen so far, in source order (owned by the parser). */
const AstComment *sq_parser_comments(const SqParser *p, size_t *n);

/* Convenience: parse a whole source; statements that fail are skipped.
** Returns the number of statements that failed. */
size_t sq_parse_all(const SqSrc *src, SqInterner *names, SqDiags *diags,
                    SqArena *arena, AstStmtList *out);

#endif
