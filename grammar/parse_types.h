/*
** parse_types.h -- value and location types shared by sql.y and sql.l.
**
** Layer: grammar.  Included from the bison-generated header (through
** %code requires), so it must not depend on anything generated.
*/
#ifndef SQ_PARSE_TYPES_H
#define SQ_PARSE_TYPES_H

#include "grammar/ast.h"
#include "grammar/lex.h"

/* Location of a grammar symbol: byte offsets into the statement's source. */
typedef struct SqLoc {
    uint32_t start;
    uint32_t end;
} SqLoc;

/* ON expr / USING (names) after a FROM item; loc covers the clause. */
typedef struct AstOnUsing {
    AstExpr *on;
    AstNameList *using;
    SqLoc loc;
} AstOnUsing;

/* The event of a trigger: DELETE, INSERT, UPDATE [OF columns]. */
typedef struct AstTrigEvent {
    int what;          /* AstTriggerEvent */
    AstNameList *cols; /* UPDATE OF columns, or NULL */
} AstTrigEvent;

/* [schema.]name pair used by many statements. */
typedef struct AstFullName {
    AstName schema, name, alias;
} AstFullName;

/* NOT LIKE / LIKE and friends: the operator token and whether NOT came
** first. */
typedef struct AstLikeOp {
    LexTok tok;
    int is_not;
} AstLikeOp;

typedef struct AstLimit {
    AstExpr *count, *offset;
    int comma; /* LIMIT offset, count */
    SqLoc loc; /* the LIMIT clause */
} AstLimit;

typedef struct AstFilterOver {
    AstExpr *filter;
    AstWindow *over;
} AstFilterOver;

typedef struct AstCaseList {
    AstCaseArm *items;
    uint32_t n, cap;
} AstCaseList;

typedef struct ParseCtx ParseCtx;

#endif
