/*
** canon_int.h -- private to passes/canon: the normal form of one query
** (canon_form.c builds it) that canon_match.c compares with another.
**
** Layer: passes.  A form points into its query's IR and lives in an
** arena of the comparison.
*/
#ifndef SQ_CANON_INT_H
#define SQ_CANON_INT_H

#include "passes/canon/canon.h"

/* One base table of the FROM, however it was joined. */
typedef struct CnInst {
    IrRel *scan;
    const CatTable *table;
    uint32_t first;      /* its first column in the form's column numbering */
    uint8_t removed;     /* taken out: a foreign key finds its row */
} CnInst;

/* The normal form of a query.  Every column of every instance has a
** number (CnInst.first + the table's column; the rowid after the last
** column); `up` makes them a union-find of classes of equal columns. */
typedef struct CnForm {
    IrQuery *q;
    SqArena *a;
    SqSmtSemantics sem;
    IrCore c;
    CnInst *inst;
    uint32_t n_inst, cap_inst;
    uint32_t n_cols;
    uint32_t *up;        /* the class of a column: follow up to a root */
    uint8_t *marked;     /* by root: the class's columns are not NULL on
                            every row (an equality, IS NOT NULL, or a
                            removed join asks it) */
    uint8_t *implied;    /* by root: a conjunct compares a column of the
                            class directly, so it is not NULL on the rows
                            kept, whether marked or not */
    SqExprList conj;     /* conjuncts of ON and WHERE other than the
                            equalities and IS NOT NULL the classes hold */
    SqExprList eqs;      /* those equalities and IS NOT NULLs */
    IrRel **through;     /* result lists of derived tables merged into the
                            form: a reference to one of their columns
                            stands for the expression that computes it */
    uint32_t n_through, cap_through;
    int absorbed;        /* a column whose class's NOT NULL no aggregate
                            notices, and count(*) counts as count(it),
                            or -1 (canon_form.c, absorb) */
    int ungrouped;       /* a GROUP BY whose every group is one row:
                            compared as no grouping, each aggregate
                            reference standing for its one row's value
                            where it has one (canon_form.c, groups_are_rows) */
    int ties;            /* rows that tie may change the result */
    uint32_t uncut;      /* up to this bound ties cannot matter: LIMIT
                            cuts no row (canon_form.c, uncut_bound) */
    int reads_clock;
    int typed_values;    /* every column holds its declared class (else an
                            INTEGER column may hold 'abc' and 1.5) */
    const char *why;     /* no form: why (static) */
} CnForm;

/* Build the normal form of q: 1, or 0 with f->why set. */
int cn_build(CnForm *f, SqArena *a, IrQuery *q, SqSmtSemantics sem, int typed_values);
/* Whether column c (cn_cat_column) holds INTEGER values and nothing else:
** an INTEGER PRIMARY KEY, or an INTEGER column when values are typed. */
int cn_integers_only(const CnForm *f, const CatColumn *c);

/* The expression that a reference stands for, or NULL: a merged derived
** table's column, or an aggregate of an ungrouped form. */
const SqExpr *cn_def(const CnForm *f, const SqExpr *e);
/* The column number of a reference to an instance's column (through
** merged derived tables), or -1. */
int cn_column(const CnForm *f, const SqExpr *e);
/* The table column of column number x, or NULL for a rowid. */
const CatColumn *cn_cat_column(const CnForm *f, uint32_t x);
/* The root of column x's class. */
uint32_t cn_root(const CnForm *f, uint32_t x);
/* The instance a column number belongs to. */
uint32_t cn_inst_of(const CnForm *f, uint32_t x);
/* Whether column x is never NULL on the rows the conditions keep. */
int cn_not_null(const CnForm *f, uint32_t x);
/* Whether the class of x asks NOT NULL of a column that could be NULL
** (its marks, less what its one column's declaration already says). */
int cn_class_mark(const CnForm *f, uint32_t x);
/* NOT x. */
int cn_is_not(const SqExpr *e);
/* x IS NULL, x ISNULL, x IS NOT NULL, x NOTNULL, and NOT of them: 1, x
** and whether the test is negated (an odd number of NOTs); else 0.  A
** NULL test is never NULL, so NOT turns it around exactly. */
int cn_null_test(const SqExpr *e, const SqExpr **x, int *negated);
/* x = y, x <> y, x < y, x <= y, x > y or x >= y. */
int cn_comparison(const SqExpr *e);
/* The comparison with its operands swapped: 5 < x is x > 5. */
int cn_mirrored(int op);
/* x BETWEEN lo AND hi (not NOT BETWEEN). */
int cn_between(const SqExpr *e);
/* The two comparisons SQLite defines BETWEEN bt as, x >= lo and x <= hi,
** written into ge and le (which keep bt's span and type). */
void cn_between_parts(const SqExpr *bt, SqExpr *ge, SqExpr *le);
/* The conjuncts that hold an INTEGER column to a few values, rewritten
** as one IN list (canon_range.c). */
void cn_integer_sets(CnForm *f);
/* One row at most: an aggregate without GROUP BY. */
int cn_one_row(const CnForm *f);
/* Whether the ORDER BY of the core matters to the result. */
int cn_sort_matters(const CnForm *f);
/* Whether the DISTINCT of the core matters to the result. */
int cn_distinct_matters(const CnForm *f);

#endif
