/*
** ir_load.c -- one SQL text to the IR of its query: parse, bind, lower.
**
** Layer: ir.  For the callers that hold a single query (squint equiv, the
** equivalence conformance tool), not a script of statements.
*/
#include "ir/ir.h"

#include "grammar/parse.h"

IrQuery *ir_load_query(SqArena *a, const SqSrc *src, const Catalog *cat, SqInterner *names,
                       SqDiags *diags, const SqBindOptions *opt, const char **why) {
    SqParser *p = sq_parser_new(src, names, diags);
    SqParseResult res;
    SqParseStatus st;
    int n = 0, failed = 0;
    AstStmt *stmt = NULL;
    while ((st = sq_parser_next(p, a, &res)) != SQ_PARSE_END) {
        n++;
        if (st == SQ_PARSE_OK) stmt = res.stmt;
        else failed = 1;
    }
    sq_parser_free(p);
    *why = failed ? "a syntax error" : n == 0 ? "no statement" : n > 1 ? "more than one statement" : NULL;
    if (*why) return NULL;
    size_t before = diags->n;
    BndStmt *b = sq_bind_stmt(a, cat, names, diags, stmt, opt);
    for (size_t i = before; i < diags->n; i++)
        if (diags->items[i]->sev == SQ_SEV_ERROR) {
            *why = "a binding error";
            return NULL;
        }
    if (!b || !b->select) {
        *why = "not a query (SELECT, VALUES or WITH)";
        return NULL;
    }
    return ir_lower(a, b);
}
