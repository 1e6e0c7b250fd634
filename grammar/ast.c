/*
** ast.c -- names of AST kinds and operators, for printers and messages;
** the size of each kind of expression node.
**
** Layer: grammar.
*/
#include "grammar/ast.h"

#include <stddef.h>

const AstName ast_no_name;

/* A node holds the common fields and its kind's own member of the union
** only, as SQLite's reduced-size Expr nodes do: a literal takes 40 bytes
** instead of 120, a column 64.  Such nodes are most of a long list's
** memory (see "Long tokens and memory" in docs/grammar.md). */
#define EXPR_SIZE(member) (offsetof(AstExpr, u) + sizeof(((AstExpr *)0)->u.member))

size_t ast_expr_size(AstExprKind kind) {
    switch (kind) {
    case AE_NULL: case AE_INTEGER: case AE_FLOAT: case AE_STRING: case AE_BLOB:
    case AE_CTIME: case AE_PARAM:
        return EXPR_SIZE(lit);
    case AE_UNARY: case AE_BINARY: case AE_IS: case AE_ISNULL:
        return EXPR_SIZE(bin);
    case AE_LIKE: return EXPR_SIZE(like);
    case AE_BETWEEN: return EXPR_SIZE(between);
    case AE_IN_LIST: return EXPR_SIZE(in);
    case AE_IN_SELECT: case AE_EXISTS: case AE_SUBQUERY: return EXPR_SIZE(sub);
    case AE_CASE: return EXPR_SIZE(cas);
    case AE_CAST: return EXPR_SIZE(cast);
    case AE_COLLATE: return EXPR_SIZE(collate);
    case AE_VECTOR: return EXPR_SIZE(vec);
    case AE_RAISE: return EXPR_SIZE(raise);
    case AE_COLUMN: return EXPR_SIZE(col);
    case AE_FUNC: return EXPR_SIZE(func);
    default: return sizeof(AstExpr); /* AE_IN_TABLE */
    }
}

const char *ast_expr_kind_name(AstExprKind k) {
    static const char *const names[AE__COUNT] = {
        "null", "integer", "float", "string", "blob", "ctime", "param",
        "column", "unary", "binary", "is", "isnull", "like", "between",
        "in-list", "in-select", "in-table", "exists", "subquery", "case",
        "cast", "collate", "function", "vector", "raise"};
    return (unsigned)k < AE__COUNT && names[k] ? names[k] : "?";
}

AstOp ast_op_flip(AstOp op) {
    switch (op) {
    case AST_OP_LT: return AST_OP_GT;
    case AST_OP_LE: return AST_OP_GE;
    case AST_OP_GT: return AST_OP_LT;
    case AST_OP_GE: return AST_OP_LE;
    default: return op;
    }
}

int ast_op_is_ordering(int op) {
    return op == AST_OP_LT || op == AST_OP_LE || op == AST_OP_GT || op == AST_OP_GE;
}

int ast_op_is_comparison(int op) { return op == AST_OP_EQ || op == AST_OP_NE || ast_op_is_ordering(op); }

const char *ast_op_name(AstOp op) {
    static const char *const names[AST_OP__COUNT] = {
        [AST_OP_NONE] = "?",
        [AST_OP_NOT] = "not", [AST_OP_NEG] = "neg", [AST_OP_POS] = "pos",
        [AST_OP_BITNOT] = "~",
        [AST_OP_OR] = "or", [AST_OP_AND] = "and",
        [AST_OP_EQ] = "=", [AST_OP_NE] = "!=",
        [AST_OP_LT] = "<", [AST_OP_LE] = "<=", [AST_OP_GT] = ">", [AST_OP_GE] = ">=",
        [AST_OP_BITAND] = "&", [AST_OP_BITOR] = "|",
        [AST_OP_LSHIFT] = "<<", [AST_OP_RSHIFT] = ">>",
        [AST_OP_ADD] = "+", [AST_OP_SUB] = "-",
        [AST_OP_MUL] = "*", [AST_OP_DIV] = "/", [AST_OP_MOD] = "%",
        [AST_OP_CONCAT] = "||", [AST_OP_PTR] = "->", [AST_OP_PTR2] = "->>",
        [AST_OP_LIKE] = "LIKE", [AST_OP_GLOB] = "GLOB",
        [AST_OP_REGEXP] = "REGEXP", [AST_OP_MATCH] = "MATCH",
        [AST_OP_CURRENT_DATE] = "current_date",
        [AST_OP_CURRENT_TIME] = "current_time",
        [AST_OP_CURRENT_TIMESTAMP] = "current_timestamp",
        [AST_OP_RAISE_IGNORE] = "raise-ignore",
        [AST_OP_RAISE_ROLLBACK] = "raise-rollback",
        [AST_OP_RAISE_ABORT] = "raise-abort",
        [AST_OP_RAISE_FAIL] = "raise-fail",
    };
    return (unsigned)op < AST_OP__COUNT && names[op] ? names[op] : "?";
}

const char *ast_op_sql(AstOp op) {
    /* ast_op_name's spelling but for the three it writes in lower case or
    ** as != ; only the binary operators and LIKE's kinds are SQL text */
    switch (op) {
    case AST_OP_OR: return "OR";
    case AST_OP_AND: return "AND";
    case AST_OP_NE: return "<>";
    default: return op >= AST_OP_EQ && op <= AST_OP_MATCH ? ast_op_name(op) : "?";
    }
}

const char *ast_set_op_sql(AstSetOp op) {
    switch (op) {
    case AST_SET_UNION: return "UNION";
    case AST_SET_UNION_ALL: return "UNION ALL";
    case AST_SET_INTERSECT: return "INTERSECT";
    default: return "EXCEPT";
    }
}

const char *ast_stmt_kind_name(AstStmtKind k) {
    static const char *const names[AST_STMT__COUNT] = {
        "select-stmt", "create-table", "create-index", "create-view",
        "create-trigger", "create-virtual-table", "insert", "update", "delete",
        "drop", "pragma", "transaction", "alter-table", "attach", "detach",
        "vacuum", "reindex", "analyze"};
    return (unsigned)k < AST_STMT__COUNT && names[k] ? names[k] : "?";
}
