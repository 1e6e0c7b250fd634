/*
** ast_print.h -- print statements as s-expressions or JSON.
**
** Layer: grammar.  Used by `squint parse` and by the golden tests, so the
** output is stable: no pointers, fields in a fixed order.  The s-expression
** form is compact and positional; the JSON form names every field and
** carries byte spans.
*/
#ifndef SQ_AST_PRINT_H
#define SQ_AST_PRINT_H

#include "runtime/jsonw.h"
#include "runtime/strbuf.h"
#include "grammar/ast.h"

/* Append one statement as an s-expression, ending in a newline. */
void ast_print_sexp(SqBuf *out, const AstStmt *stmt);
/* Write one statement as a JSON object into w. */
void ast_print_json(SqJsonWriter *w, const AstStmt *stmt);

#endif
