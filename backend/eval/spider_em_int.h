/*
** spider_em_int.h -- the query structure Spider's exact-set-match reads,
** shared by its parser (spider_em_parse.c) and its scorer (spider_em.c).
**
** Layer: backend/eval, private.  The official process_sql.py does not
** parse SQL with a grammar: it splits the text into word tokens and reads
** them left to right against the schema, giving nested Python tuples,
** lists and dicts.  These structs hold the same values, and the scorer
** compares them as Python's == would.  Names follow what each part means
** in that structure:
**   EmCol   a column unit: (aggregate, column id, DISTINCT)
**   EmVal   a value unit: (operator, column unit, column unit or none)
**   EmValue a condition's operand: none, a number, a quoted string, a
**           column unit or a nested query
**   EmCond  a condition unit: (NOT, operator, value unit, operand, operand)
**   EmConds a condition: units joined by "and"/"or"
**   EmSql   one query: select, from, where, group by, having, order by,
**           limit, and the intersect/union/except query
** A column id is "__table.column__" (lowercase), "__all__" for '*'; a
** table id is "__table__".
*/
#ifndef SQ_EVAL_SPIDER_EM_INT_H
#define SQ_EVAL_SPIDER_EM_INT_H

#include "backend/eval/spider_em.h"
#include "runtime/arena.h"

/* A three-valued flag: Python's False, True, or None (the scorer sets
** DISTINCT to None before comparing, as the script does). */
enum { EM_FALSE = 0, EM_TRUE = 1, EM_NONE = 2 };

/* Indexes into the script's operator tables. */
enum { EM_AGG_NONE = 0 };                  /* none max min count sum avg */
enum { EM_UNIT_NONE = 0 };                 /* none - + * / */
enum { EM_OP_NOT = 0, EM_OP_BETWEEN = 1, EM_OP_IN = 8, EM_OP_LIKE = 9 };
enum { EM_IUE_INTERSECT, EM_IUE_EXCEPT, EM_IUE_UNION, EM_IUE_N };

typedef struct EmCol {
    int agg;
    const char *id;
    int distinct;          /* EM_FALSE, EM_TRUE or EM_NONE */
} EmCol;

typedef struct EmVal {
    int op;
    EmCol *c1;
    EmCol *c2;             /* NULL: Python's None */
} EmVal;

typedef enum EmValueKind { EMV_NONE, EMV_NUM, EMV_STR, EMV_COL, EMV_SQL } EmValueKind;

typedef struct EmValue {
    EmValueKind kind;
    double num;
    const char *str;       /* the token, quotes included */
    EmCol *col;
    struct EmSql *sql;
} EmValue;

typedef struct EmCond {
    int not_op;
    int op;
    EmVal *vu;
    EmValue v1, v2;
} EmCond;

/* One element of a condition list: a unit, or (unit NULL) the
** conjunction 'a' ("and") or 'o' ("or").  The script's lists alternate
** unit, conjunction, unit... but its reader does not enforce it (two
** units in a row, a trailing "and"), and its scorer reads the list by
** position: units at the even places, conjunctions at the odd ones. */
typedef struct EmElem {
    EmCond *unit;
    char conj;
} EmElem;

typedef struct EmConds {
    EmElem *e;
    int n;
} EmConds;

typedef struct EmSelItem {
    int agg;
    EmVal *vu;
} EmSelItem;

typedef struct EmTableUnit {
    const char *table;     /* a table id, or NULL for a nested query */
    struct EmSql *sql;
} EmTableUnit;

typedef struct EmSql {
    int distinct;                    /* EM_FALSE, EM_TRUE or EM_NONE */
    EmSelItem *sel;
    int nsel;
    EmTableUnit *from;
    int nfrom;
    EmConds from_conds, where, having;
    EmCol **group;
    int ngroup;
    int has_order;                   /* ORDER BY was read (even with no terms) */
    int order_desc;
    EmVal **order;
    int norder;
    int limit;                       /* 1 when LIMIT was read: the script
                                        always records the value 1 */
    struct EmSql *iue[EM_IUE_N];
} EmSql;

/* One database's tables and columns as the script reads them. */
typedef struct EmTable {
    char *name;            /* lowercase */
    char **col;            /* lowercase, in PRAGMA table_info order */
    int ncol;
} EmTable;

struct SqEmSchema {
    EmTable *table;
    int ntable;
};

/* One db_id's foreign-key map: key[i] -> val[i], a later pair replacing
** an earlier one with the same key (a Python dict's assignments). */
typedef struct EmKeyMap {
    char *db_id;
    char **key, **val;
    int n;
} EmKeyMap;

struct SqEmKeys {
    EmKeyMap *db;
    int ndb;
};

/* The map of db_id (NULL when keys has none), and the column id mapped
** to from id (NULL when id maps to nothing). */
const EmKeyMap *sq_em_keys_of(const SqEmKeys *k, const char *db_id);
const char *sq_em_key_map(const EmKeyMap *m, const char *id);

/* Parse text as process_sql.get_sql() does: NULL when the script raises
** (any exception), with *why saying where. */
EmSql *sq_em_parse(SqArena *a, const SqEmSchema *s, const char *text,
                   const char **why);

/* Test hook: the word tokens of text as the script's tokenize() makes
** them (values restored, "!=", ">=", "<=" joined); NULL when it raises. */
char **sq_em_tokens(SqArena *a, const char *text, int *n);

#endif
