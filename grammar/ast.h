/*
** ast.h -- the syntax tree of SQLite-dialect SQL, with source spans.
**
** Layer: grammar.  The parser (sql.y, through the constructors in ast.c)
** builds these nodes; frontend/ reads them.  The tree records what was
** written, not what it means: names are unresolved, "x" may still turn out
** to be a string literal, and NOT LIKE keeps its NOT as a flag so that
** diagnostics can point at the exact text.
**
** Every node begins with kind, flags and span.  All nodes of one statement
** live in the arena passed to the parser; nothing is freed on its own.
** Lists are arrays with a count (xs + n_xs).  Accessor functions assert the
** kind before a union member is read.
*/
#ifndef SQ_AST_H
#define SQ_AST_H

#include <assert.h>
#include <stddef.h>
#include <stdint.h>

#include "runtime/intern.h"
#include "runtime/src.h"

typedef struct AstExpr AstExpr;
typedef struct AstSelect AstSelect;
typedef struct AstStmt AstStmt;
typedef struct AstFrom AstFrom;
typedef struct AstWindow AstWindow;
typedef struct AstWith AstWith;

/* ------------------------------------------------------------------ */
/* Names                                                               */
/* ------------------------------------------------------------------ */

/* How an identifier was written.  SQLite treats a double-quoted token that
** names nothing as a string literal, so the binder needs to know. */
typedef enum AstQuote {
    AST_Q_NONE,     /* bare word */
    AST_Q_DOUBLE,   /* "name" */
    AST_Q_BACKTICK, /* `name` */
    AST_Q_BRACKET,  /* [name] */
    AST_Q_SINGLE,   /* 'name': a string used where a name is expected */
} AstQuote;

/* An identifier as written.  text is dequoted; key is the interned,
** case-folded form used for every comparison.  A missing optional name has
** text == NULL. */
typedef struct AstName {
    const char *text;   /* dequoted spelling (arena), or NULL */
    const SqName *key;  /* interned folded form, or NULL */
    SrcSpan span;       /* the token, quotes included */
    uint8_t quote;      /* AstQuote */
    uint8_t flags;      /* AST_NAMEF_* */
} AstName;

enum {
    AST_NAMEF_AS = 1 << 0,          /* an alias written after AS */
    AST_NAMEF_NOT_INDEXED = 1 << 1, /* "NOT INDEXED" in an indexed-by slot */
};

static inline int ast_name_present(const AstName *n) { return n->text != 0; }

/* A type name as in CREATE TABLE or CAST: words plus up to two signed
** numeric arguments, e.g. VARCHAR(255) or DECIMAL(10, 2). */
typedef struct AstTypeName {
    const char *text; /* the whole type as written, or NULL when absent */
    SrcSpan span;
} AstTypeName;

/* ------------------------------------------------------------------ */
/* Expressions                                                         */
/* ------------------------------------------------------------------ */

typedef enum AstExprKind {
    AE_NULL,      /* NULL */
    AE_INTEGER,   /* 42, 0x2A: lit.text as written */
    AE_FLOAT,     /* 1.5, .5, 1e3 */
    AE_STRING,    /* 'text': lit.text dequoted */
    AE_BLOB,      /* X'00ff': lit.text is the hex digits */
    AE_CTIME,     /* CURRENT_DATE / CURRENT_TIME / CURRENT_TIMESTAMP (op) */
    AE_PARAM,     /* ?, ?NNN, :name, @name, $name (lit.text as written) */
    AE_COLUMN,    /* [schema.][table.]column; may also be TRUE/FALSE or a
                     double-quoted string, decided by the binder */
    AE_UNARY,     /* op: AST_OP_NOT / NEG / POS / BITNOT */
    AE_BINARY,    /* op: arithmetic, comparison, AND/OR, ||, ->, ->> */
    AE_IS,        /* x IS [NOT] y, x IS [NOT] DISTINCT FROM y (flag NOT) */
    AE_ISNULL,    /* x ISNULL, x NOTNULL, x NOT NULL (flag NOT) */
    AE_LIKE,      /* x [NOT] LIKE|GLOB|REGEXP|MATCH y [ESCAPE z] */
    AE_BETWEEN,   /* x [NOT] BETWEEN lo AND hi */
    AE_IN_LIST,   /* x [NOT] IN (e, ...) */
    AE_IN_SELECT, /* x [NOT] IN (SELECT ...) */
    AE_IN_TABLE,  /* x [NOT] IN [schema.]table[(args)] */
    AE_EXISTS,    /* EXISTS (SELECT ...) */
    AE_SUBQUERY,  /* (SELECT ...) used as a value */
    AE_CASE,      /* CASE [operand] WHEN .. THEN .. [ELSE ..] END */
    AE_CAST,      /* CAST(x AS type) */
    AE_COLLATE,   /* x COLLATE name */
    AE_FUNC,      /* name([DISTINCT] args | *) [FILTER (...)] [OVER ...] */
    AE_VECTOR,    /* (a, b, ...) row value */
    AE_RAISE,     /* RAISE(IGNORE | ROLLBACK|ABORT|FAIL, msg) in triggers */
    AE__COUNT
} AstExprKind;

/* Operators of AE_UNARY and AE_BINARY, and the kinds of AE_LIKE/AE_CTIME. */
typedef enum AstOp {
    AST_OP_NONE,
    /* unary */
    AST_OP_NOT, AST_OP_NEG, AST_OP_POS, AST_OP_BITNOT,
    /* binary, loosest first */
    AST_OP_OR, AST_OP_AND,
    AST_OP_EQ, AST_OP_NE,
    AST_OP_LT, AST_OP_LE, AST_OP_GT, AST_OP_GE,
    AST_OP_BITAND, AST_OP_BITOR, AST_OP_LSHIFT, AST_OP_RSHIFT,
    AST_OP_ADD, AST_OP_SUB,
    AST_OP_MUL, AST_OP_DIV, AST_OP_MOD,
    AST_OP_CONCAT, AST_OP_PTR, AST_OP_PTR2, /* ||  ->  ->> */
    /* AE_LIKE */
    AST_OP_LIKE, AST_OP_GLOB, AST_OP_REGEXP, AST_OP_MATCH,
    /* AE_CTIME */
    AST_OP_CURRENT_DATE, AST_OP_CURRENT_TIME, AST_OP_CURRENT_TIMESTAMP,
    /* AE_RAISE */
    AST_OP_RAISE_IGNORE, AST_OP_RAISE_ROLLBACK, AST_OP_RAISE_ABORT,
    AST_OP_RAISE_FAIL,
    AST_OP__COUNT
} AstOp;

/* AstExpr.flags */
enum {
    AEF_NOT = 1 << 0,        /* NOT LIKE / NOT BETWEEN / NOT IN / IS NOT ... */
    AEF_DISTINCT_FROM = 1 << 1, /* AE_IS written as IS [NOT] DISTINCT FROM */
    AEF_DISTINCT = 1 << 2,   /* AE_FUNC: f(DISTINCT ...) */
    AEF_ALL = 1 << 3,        /* AE_FUNC: f(ALL ...) */
    AEF_STAR = 1 << 4,       /* AE_FUNC: f(*) */
    AEF_PAREN = 1 << 5,      /* written inside its own parentheses */
    AEF_NOTNULL_2W = 1 << 6, /* AE_ISNULL written as two words NOT NULL */
    AEF_ALT_SPELLING = 1 << 7, /* == for =, <> for != */
    AEF_COL_SCHEMA = 1 << 8, /* AE_COLUMN: u.col.qual holds a schema too */
};

typedef struct AstExprList {
    AstExpr **items;
    uint32_t n;
    uint32_t cap;
} AstExprList;

typedef struct AstCaseArm {
    AstExpr *when;
    AstExpr *then;
} AstCaseArm;

/* A node is allocated with ast_expr_size(kind) bytes: the fields up to the
** union and the kind's own member of it.  So never copy an AstExpr by
** value, and never read a member of the union that is not the kind's. */
struct AstExpr {
    uint8_t kind;     /* AstExprKind */
    uint8_t op;       /* AstOp, for the kinds that have one */
    uint16_t flags;   /* AEF_* */
    SrcSpan span;
    uint16_t height;  /* depth of the tree below, as SQLite counts it */
    union {
        struct { const char *text; uint32_t len; } lit;  /* literals, params */
        struct { AstName column; AstName *qual; } col;   /* AE_COLUMN: qual is
                  [table], [schema, table] or NULL; read it with ast_col_*() */
        struct { AstExpr *l, *r; } bin;                  /* unary: l only */
        struct { AstExpr *x, *pattern, *escape; } like;
        struct { AstExpr *x, *lo, *hi; } between;
        struct { AstExpr *x; AstExprList list; } in;     /* AE_IN_LIST */
        struct { AstExpr *x; AstSelect *select; } sub;   /* IN_SELECT, EXISTS, SUBQUERY */
        struct { AstExpr *x; AstName schema, table; AstExprList args; int has_args; } intab;
        struct { AstExpr *operand; AstCaseArm *arms; uint32_t n_arms; AstExpr *else_; } cas;
        struct { AstExpr *x; AstTypeName type; } cast;
        struct { AstExpr *x; AstName name; } collate;
        struct { AstName name; AstExprList args; AstExpr *filter; AstWindow *over; } func;
        struct { AstExprList items; } vec;
        struct { AstName msg; } raise;
    } u;
};

/* The absent name (text NULL), for the qualifiers of a bare column. */
extern const AstName ast_no_name;

/* The schema and table written before an AE_COLUMN's name, or an absent
** name.  They live apart from the node because most columns have none. */
static inline const AstName *ast_col_schema(const AstExpr *e) {
    assert(e->kind == AE_COLUMN);
    return (e->flags & AEF_COL_SCHEMA) ? &e->u.col.qual[0] : &ast_no_name;
}
static inline const AstName *ast_col_table(const AstExpr *e) {
    assert(e->kind == AE_COLUMN);
    if (!e->u.col.qual) return &ast_no_name;
    return &e->u.col.qual[(e->flags & AEF_COL_SCHEMA) ? 1 : 0];
}

/* ------------------------------------------------------------------ */
/* ORDER BY terms and windows                                          */
/* ------------------------------------------------------------------ */

typedef enum AstSortDir { AST_SORT_DEFAULT, AST_SORT_ASC, AST_SORT_DESC } AstSortDir;
typedef enum AstNulls { AST_NULLS_DEFAULT, AST_NULLS_FIRST, AST_NULLS_LAST } AstNulls;

typedef struct AstOrderTerm {
    AstExpr *expr;
    uint8_t dir;   /* AstSortDir */
    uint8_t nulls; /* AstNulls */
    SrcSpan span;
} AstOrderTerm;

typedef struct AstOrderList {
    AstOrderTerm *items;
    uint32_t n;
    uint32_t cap;
    SrcSpan span;  /* the whole "ORDER BY ..." clause, when written as one */
} AstOrderList;

typedef enum AstFrameUnit { AST_FRAME_NONE, AST_FRAME_RANGE, AST_FRAME_ROWS, AST_FRAME_GROUPS } AstFrameUnit;
typedef enum AstBoundKind {
    AST_BOUND_UNBOUNDED_PRECEDING, AST_BOUND_PRECEDING, AST_BOUND_CURRENT_ROW,
    AST_BOUND_FOLLOWING, AST_BOUND_UNBOUNDED_FOLLOWING
} AstBoundKind;
typedef enum AstExclude {
    AST_EXCLUDE_NONE, AST_EXCLUDE_NO_OTHERS, AST_EXCLUDE_CURRENT_ROW,
    AST_EXCLUDE_GROUP, AST_EXCLUDE_TIES
} AstExclude;

typedef struct AstFrameBound {
    uint8_t kind;  /* AstBoundKind */
    AstExpr *expr; /* for PRECEDING/FOLLOWING with an offset */
} AstFrameBound;

/* A window specification: OVER (...) or WINDOW name AS (...). */
struct AstWindow {
    uint8_t kind;        /* unused tag, kept for the node layout */
    uint8_t flags;       /* AWF_* */
    SrcSpan span;
    AstName name;        /* WINDOW name AS (...): the defined name */
    AstName base;        /* OVER (base ...) or OVER name: the window built on */
    AstExprList partition;
    AstOrderList order;
    uint8_t unit;        /* AstFrameUnit; NONE when no frame was written */
    uint8_t exclude;     /* AstExclude */
    AstFrameBound start, end; /* end used when AWF_BETWEEN */
};

enum {
    AWF_BETWEEN = 1 << 0,   /* frame written with BETWEEN .. AND .. */
    AWF_NAME_ONLY = 1 << 1, /* OVER name, without parentheses */
};

/* ------------------------------------------------------------------ */
/* SELECT                                                              */
/* ------------------------------------------------------------------ */

typedef enum AstResultKind { AST_RC_EXPR, AST_RC_STAR, AST_RC_TABLE_STAR } AstResultKind;

typedef struct AstResultCol {
    uint8_t kind;   /* AstResultKind */
    uint8_t has_as; /* alias written with AS */
    SrcSpan span;
    AstExpr *expr;  /* AST_RC_EXPR */
    union {         /* one per kind, sharing storage: read the kind's own */
        AstName alias;  /* AST_RC_EXPR: optional */
        AstName table;  /* AST_RC_TABLE_STAR: t in t.* */
    };
} AstResultCol;

/* Join operator flags, as SQLite's sqlite3JoinType computes them. */
enum {
    AST_JT_INNER = 1 << 0,
    AST_JT_CROSS = 1 << 1,
    AST_JT_NATURAL = 1 << 2,
    AST_JT_LEFT = 1 << 3,
    AST_JT_OUTER = 1 << 4,
    AST_JT_RIGHT = 1 << 5,
    AST_JT_COMMA = 1 << 6,  /* written as "," */
    AST_JT_JOIN = 1 << 7,   /* written as plain JOIN */
};

typedef enum AstFromKind {
    AST_FROM_TABLE,    /* [schema.]name [AS alias], maybe name(args) */
    AST_FROM_SUBQUERY, /* (SELECT ...) [AS alias] */
    AST_FROM_NESTED,   /* (a JOIN b ...) [AS alias] */
} AstFromKind;

enum {
    AST_FROMF_TVF = 1 << 0,         /* table-valued function call name(args) */
    AST_FROMF_INDEXED_BY = 1 << 1,  /* INDEXED BY index */
    AST_FROMF_NOT_INDEXED = 1 << 2, /* NOT INDEXED */
    AST_FROMF_HAS_AS = 1 << 3,      /* alias written with AS */
    AST_FROMF_USING = 1 << 4,       /* a USING (...) clause is present */
};

typedef struct AstNameList {
    AstName *items;
    uint32_t n;
    uint32_t cap;
} AstNameList;

typedef struct AstFromItem {
    uint8_t kind;       /* AstFromKind */
    uint8_t join;       /* AST_JT_* joining this item to the previous one */
    uint16_t flags;     /* AST_FROMF_* */
    SrcSpan span;
    AstName schema, name; /* AST_FROM_TABLE */
    AstName alias;
    AstName index;      /* INDEXED BY name */
    AstExprList args;   /* table-valued function arguments */
    AstSelect *select;  /* AST_FROM_SUBQUERY */
    AstFrom *nested;    /* AST_FROM_NESTED */
    AstExpr *on;        /* ON condition, or NULL */
    AstNameList using;  /* USING (...) columns */
    SrcSpan join_span;  /* the join operator text */
} AstFromItem;

struct AstFrom {
    AstFromItem **items;
    uint32_t n;
    uint32_t cap;
};

typedef struct AstWindowList {
    AstWindow **items;
    uint32_t n;
    uint32_t cap;
} AstWindowList;

typedef enum AstSelectKind { AST_SEL_CORE, AST_SEL_VALUES, AST_SEL_COMPOUND } AstSelectKind;
typedef enum AstSetOp { AST_SET_UNION, AST_SET_UNION_ALL, AST_SET_INTERSECT, AST_SET_EXCEPT } AstSetOp;

enum {
    AST_SELF_DISTINCT = 1 << 0, /* SELECT DISTINCT */
    AST_SELF_ALL = 1 << 1,      /* SELECT ALL */
    AST_SELF_LIMIT_COMMA = 1 << 2, /* LIMIT offset, count */
};

typedef struct AstResultList {
    AstResultCol *items;
    uint32_t n;
    uint32_t cap;
} AstResultList;

typedef struct AstValuesRow {
    AstExprList values;
    SrcSpan span;
} AstValuesRow;

/* One SELECT: a core (SELECT ... FROM ...), a VALUES list, or a compound.
** ORDER BY / LIMIT written after the last term of a compound belong to the
** compound node; SQLite rejects them on earlier terms. */
struct AstSelect {
    uint8_t kind;  /* AstSelectKind */
    uint8_t op;    /* AstSetOp when AST_SEL_COMPOUND */
    uint16_t flags; /* AST_SELF_* */
    SrcSpan span;
    AstWith *with;       /* WITH clause attached here, or NULL */
    /* AST_SEL_CORE */
    AstResultList cols;
    AstFrom *from;       /* NULL when there is no FROM */
    AstExpr *where;
    AstExprList group_by;
    AstExpr *having;
    AstWindowList windows; /* WINDOW definitions */
    /* AST_SEL_VALUES */
    AstValuesRow *rows;
    uint32_t n_rows, cap_rows;
    /* AST_SEL_COMPOUND */
    AstSelect *left, *right;
    /* any kind */
    AstOrderList order_by;
    AstExpr *limit, *offset;
    SrcSpan limit_span;  /* the "LIMIT ..." clause */
};

typedef enum AstMaterialized { AST_MAT_ANY, AST_MAT_YES, AST_MAT_NO } AstMaterialized;

typedef struct AstCte {
    AstName name;
    AstNameList cols;
    uint8_t materialized; /* AstMaterialized */
    AstSelect *select;
    SrcSpan span;
} AstCte;

struct AstWith {
    uint8_t recursive;
    AstCte *ctes;
    uint32_t n_ctes, cap_ctes;
    SrcSpan span;
};

/* ------------------------------------------------------------------ */
/* DDL                                                                 */
/* ------------------------------------------------------------------ */

typedef enum AstConflict {
    AST_CONFLICT_DEFAULT, AST_CONFLICT_ROLLBACK, AST_CONFLICT_ABORT,
    AST_CONFLICT_FAIL, AST_CONFLICT_IGNORE, AST_CONFLICT_REPLACE
} AstConflict;

typedef enum AstFkAction {
    AST_FK_NONE, AST_FK_SET_NULL, AST_FK_SET_DEFAULT, AST_FK_CASCADE,
    AST_FK_RESTRICT, AST_FK_NO_ACTION
} AstFkAction;

typedef struct AstForeignKey {
    AstName table;          /* referenced table */
    AstNameList cols;       /* referenced columns (may be empty: the PK) */
    uint8_t on_delete, on_update; /* AstFkAction */
    uint8_t deferred;       /* INITIALLY DEFERRED */
} AstForeignKey;

typedef enum AstColConsKind {
    AST_CC_PRIMARY_KEY, AST_CC_NOT_NULL, AST_CC_NULL, AST_CC_UNIQUE,
    AST_CC_CHECK, AST_CC_DEFAULT, AST_CC_COLLATE, AST_CC_REFERENCES,
    AST_CC_GENERATED, AST_CC_DEFERRABLE
} AstColConsKind;

typedef struct AstColCons {
    uint8_t kind;        /* AstColConsKind */
    uint8_t conflict;    /* AstConflict (ON CONFLICT clause) */
    uint8_t dir;         /* PRIMARY KEY ASC/DESC */
    uint8_t autoinc;     /* PRIMARY KEY AUTOINCREMENT */
    AstName name;        /* CONSTRAINT name, if given */
    AstExpr *expr;       /* CHECK, DEFAULT, GENERATED */
    AstName collation;   /* COLLATE */
    AstName storage;     /* GENERATED ... STORED/VIRTUAL word */
    AstForeignKey fk;    /* REFERENCES */
    SrcSpan span;
} AstColCons;

typedef struct AstColumnDef {
    AstName name;
    AstTypeName type;
    AstColCons *cons;
    uint32_t n_cons, cap_cons;
    SrcSpan span;
} AstColumnDef;

typedef enum AstTableConsKind {
    AST_TC_PRIMARY_KEY, AST_TC_UNIQUE, AST_TC_CHECK, AST_TC_FOREIGN_KEY
} AstTableConsKind;

typedef struct AstTableCons {
    uint8_t kind;       /* AstTableConsKind */
    uint8_t conflict;   /* AstConflict */
    uint8_t autoinc;
    AstName name;       /* CONSTRAINT name */
    AstOrderList cols;  /* PRIMARY KEY / UNIQUE indexed columns */
    AstNameList fk_cols; /* FOREIGN KEY (cols) */
    AstForeignKey fk;
    AstExpr *check;
    SrcSpan span;
} AstTableCons;

enum {
    AST_TBL_TEMP = 1 << 0,
    AST_TBL_IF_NOT_EXISTS = 1 << 1,
    AST_TBL_WITHOUT_ROWID = 1 << 2,
    AST_TBL_STRICT = 1 << 3,
};

typedef struct AstCreateTable {
    uint8_t flags;        /* AST_TBL_* */
    AstName schema, name;
    AstColumnDef *cols;
    uint32_t n_cols, cap_cols;
    AstTableCons *cons;
    uint32_t n_cons, cap_cons;
    AstSelect *as_select; /* CREATE TABLE ... AS SELECT */
} AstCreateTable;

typedef struct AstCreateIndex {
    uint8_t unique, if_not_exists;
    AstName schema, name, table;
    AstOrderList cols;
    AstExpr *where;
} AstCreateIndex;

typedef struct AstCreateView {
    uint8_t temp, if_not_exists;
    AstName schema, name;
    AstNameList cols;
    AstSelect *select;
} AstCreateView;

/* ------------------------------------------------------------------ */
/* DML                                                                 */
/* ------------------------------------------------------------------ */

typedef struct AstSetItem {   /* UPDATE SET col = expr | (a, b) = expr */
    AstNameList cols;
    AstExpr *value;
} AstSetItem;

typedef struct AstSetList {
    AstSetItem *items;
    uint32_t n, cap;
} AstSetList;

typedef struct AstUpsert {
    AstOrderList target;     /* ON CONFLICT (cols) */
    AstExpr *target_where;
    int do_update;           /* DO UPDATE SET ... vs DO NOTHING */
    AstSetList set;
    AstExpr *where;
    struct AstUpsert *next;
} AstUpsert;

typedef struct AstQualifiedTable { /* [schema.]name [AS alias] */
    AstName schema, name, alias;
    AstName index;
    uint8_t indexed;  /* 0 none, 1 INDEXED BY, 2 NOT INDEXED */
} AstQualifiedTable;

typedef struct AstInsert {
    AstWith *with;
    uint8_t conflict;      /* AstConflict; REPLACE INTO is REPLACE */
    AstQualifiedTable table;
    AstNameList cols;
    AstSelect *select;     /* NULL with DEFAULT VALUES */
    AstUpsert *upsert;
    AstResultList returning;
} AstInsert;

typedef struct AstUpdate {
    AstWith *with;
    uint8_t conflict;
    AstQualifiedTable table;
    AstSetList set;
    AstFrom *from;
    AstExpr *where;
    AstResultList returning;
    AstOrderList order_by;
    AstExpr *limit, *offset;
} AstUpdate;

typedef struct AstDelete {
    AstWith *with;
    AstQualifiedTable table;
    AstExpr *where;
    AstResultList returning;
    AstOrderList order_by;
    AstExpr *limit, *offset;
} AstDelete;

/* ------------------------------------------------------------------ */
/* Statements                                                          */
/* ------------------------------------------------------------------ */

typedef enum AstStmtKind {
    AST_STMT_SELECT,
    AST_STMT_CREATE_TABLE,
    AST_STMT_CREATE_INDEX,
    AST_STMT_CREATE_VIEW,
    AST_STMT_CREATE_TRIGGER,
    AST_STMT_CREATE_VTAB,
    AST_STMT_INSERT,
    AST_STMT_UPDATE,
    AST_STMT_DELETE,
    AST_STMT_DROP,
    AST_STMT_PRAGMA,
    AST_STMT_TRANSACTION, /* BEGIN/COMMIT/END/ROLLBACK/SAVEPOINT/RELEASE */
    AST_STMT_ALTER,
    AST_STMT_ATTACH,
    AST_STMT_DETACH,
    AST_STMT_VACUUM,
    AST_STMT_REINDEX,
    AST_STMT_ANALYZE,
    AST_STMT__COUNT
} AstStmtKind;

enum {
    AST_STMTF_EXPLAIN = 1 << 0,
    AST_STMTF_QUERY_PLAN = 1 << 1,
};

typedef enum AstDropKind { AST_DROP_TABLE, AST_DROP_VIEW, AST_DROP_INDEX, AST_DROP_TRIGGER } AstDropKind;
typedef enum AstTxnKind {
    AST_TXN_BEGIN, AST_TXN_COMMIT, AST_TXN_ROLLBACK, AST_TXN_SAVEPOINT,
    AST_TXN_RELEASE, AST_TXN_ROLLBACK_TO
} AstTxnKind;

typedef enum AstTxnMode { AST_TXN_DEFAULT, AST_TXN_DEFERRED, AST_TXN_IMMEDIATE, AST_TXN_EXCLUSIVE } AstTxnMode;
typedef enum AstTriggerTime { AST_TRIG_DEFAULT, AST_TRIG_BEFORE, AST_TRIG_AFTER, AST_TRIG_INSTEAD_OF } AstTriggerTime;
typedef enum AstTriggerEvent { AST_TRIG_DELETE = 1, AST_TRIG_INSERT, AST_TRIG_UPDATE } AstTriggerEvent;

typedef struct AstStmtList {
    AstStmt **items;
    uint32_t n, cap;
} AstStmtList;

struct AstStmt {
    uint8_t kind;   /* AstStmtKind */
    uint8_t flags;  /* AST_STMTF_* */
    SrcSpan span;   /* the statement without its terminating ';' */
    uint32_t index; /* 0-based position among the file's statements */
    union {
        AstSelect *select;
        AstCreateTable *create_table;
        AstCreateIndex *create_index;
        AstCreateView *create_view;
        AstInsert *insert;
        AstUpdate *update;
        AstDelete *del;
        struct { uint8_t what, if_exists; AstName schema, name; } drop;
        struct { AstName schema, name; const char *value; int has_value; } pragma;
        struct { uint8_t what, mode; AstName name; } txn;
        struct {
            AstName schema, name;
            uint8_t temp, if_not_exists, for_each_row;
            uint8_t time;          /* AstTriggerTime */
            uint8_t event;         /* AstTriggerEvent */
            AstNameList update_of; /* UPDATE OF columns */
            AstName table_schema, table;
            AstExpr *when;
            AstStmtList body;
        } trigger;
        struct {
            AstName schema, name, module;
            const char **args; /* module arguments as written, trimmed */
            uint32_t n_args, cap_args;
        } vtab;
        struct { AstName schema, name; } object; /* ALTER/REINDEX/ANALYZE/VACUUM target */
    } u;
};

/* ------------------------------------------------------------------ */
/* Comments                                                            */
/* ------------------------------------------------------------------ */

/* A comment kept with its position; later layers read "-- name:" query
** annotations and "-- noqa" suppressions from these. */
typedef struct AstComment {
    SrcSpan span;
    uint8_t is_block; /* slash-star comment rather than -- */
} AstComment;

/* ------------------------------------------------------------------ */
/* Accessors                                                           */
/* ------------------------------------------------------------------ */

#define AST_EXPR_IS(e, k) ((e)->kind == (k))

static inline AstExpr *ast_unary_operand(const AstExpr *e) {
    assert(e->kind == AE_UNARY || e->kind == AE_ISNULL || e->kind == AE_COLLATE ||
           e->kind == AE_CAST);
    return e->kind == AE_COLLATE ? e->u.collate.x
         : e->kind == AE_CAST    ? e->u.cast.x
                                 : e->u.bin.l;
}

const char *ast_expr_kind_name(AstExprKind k);
/* Bytes allocated for a node of kind k (see struct AstExpr). */
size_t ast_expr_size(AstExprKind k);
const char *ast_op_name(AstOp op);      /* "+", "AND", "LIKE", ... */
/* A binary operator as SQL writes it ("AND", "<>", "||", "LIKE"), for
** every printer and message that writes SQL back; "?" for others. */
const char *ast_op_sql(AstOp op);
/* A compound operator as SQL writes it: "UNION", "UNION ALL",
** "INTERSECT", "EXCEPT". */
const char *ast_set_op_sql(AstSetOp op);
/* The comparison with its operands swapped (a < b is b > a); other
** operators are returned as they are. */
AstOp ast_op_flip(AstOp op);
/* Whether op is one of the six comparisons =, <>, <, <=, >, >= (IS, IN
** and LIKE are not), and whether it is one of the four orderings.  An int,
** as the IR keeps its operators in a byte. */
int ast_op_is_comparison(int op);
int ast_op_is_ordering(int op);
const char *ast_stmt_kind_name(AstStmtKind k);

#endif
