/*
** ir_load.c -- one SQL text to the IR of its query: parse, bind, lower.
**
** Layer: ir.  The primitive under api/'s sq_ctx_compile(), for the callers
** below api/ that hold a single query (the eval backend, the SMT model's
** CHECK constraints); the callers above use the api.
*/
#include "ir/ir.h"

#include "grammar/parse.h"

const char *ir_load_why(IrLoadStatus st) {
    switch (st) {
    case IR_LOAD_OK: return NULL;
    case IR_LOAD_SYNTAX: return "a syntax error";
    case IR_LOAD_EMPTY: return "no statement";
    case IR_LOAD_MANY: return "more than one statement";
    case IR_LOAD_BIND: return "a binding error";
    case IR_LOAD_NOT_QUERY: return "not a query (SELECT, VALUES or WITH)";
    }
    return NULL;
}

/* The one statement of src, or NULL with *st set. */
static AstStmt *only_statement(SqArena *a, const SqSrc *src, SqInterner *names, SqDiags *diags,
                               IrLoadStatus *st) {
    SqParser *p = sq_parser_new(src, names, diags);
    SqParseResult res;
    SqParseStatus ps;
    int n = 0, failed = 0;
    AstStmt *stmt = NULL;
    while ((ps = sq_parser_next(p, a, &res)) != SQ_PARSE_END) {
        n++;
        if (ps == SQ_PARSE_OK) stmt = res.stmt;
        else failed = 1;
    }
    sq_parser_free(p);
    *st = failed ? IR_LOAD_SYNTAX : n == 0 ? IR_LOAD_EMPTY : n > 1 ? IR_LOAD_MANY : IR_LOAD_OK;
    return *st == IR_LOAD_OK ? stmt : NULL;
}

IrQuery *ir_load(SqArena *a, const SqSrc *src, const Catalog *cat, SqInterner *names,
                 SqDiags *diags, const SqBindOptions *opt, IrLoadStatus *st) {
    AstStmt *stmt = only_statement(a, src, names, diags, st);
    if (!stmt) return NULL;
    size_t before = diags->n;
    BndStmt *b = sq_bind_stmt(a, cat, names, diags, stmt, opt);
    for (size_t i = before; i < diags->n; i++)
        if (diags->items[i]->sev == SQ_SEV_ERROR) {
            *st = IR_LOAD_BIND;
            return NULL;
        }
    if (!b || !b->select) {
        *st = IR_LOAD_NOT_QUERY;
        return NULL;
    }
    return ir_lower(a, b);
}

IrQuery *ir_load_query(SqArena *a, const SqSrc *src, const Catalog *cat, SqInterner *names,
                       SqDiags *diags, const SqBindOptions *opt, const char **why) {
    IrLoadStatus st;
    IrQuery *q = ir_load(a, src, cat, names, diags, opt, &st);
    *why = ir_load_why(st);
    return q;
}
