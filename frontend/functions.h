/*
** functions.h -- the table of SQLite's built-in functions (functions.def).
**
** Layer: frontend.  The binder looks functions up here to check arity,
** tell aggregates and window functions from scalars, and type the result.
*/
#ifndef SQ_FUNCTIONS_H
#define SQ_FUNCTIONS_H

#include <stddef.h>
#include <stdint.h>

typedef enum SqFuncKind { F_SCALAR, F_AGG, F_WINDOW } SqFuncKind;
typedef enum SqFuncResult {
    R_INT, R_REAL, R_TEXT, R_BLOB, R_ANY, R_ARG, R_ARGNUM, R_COMMON, R_IIF,
    R_SUM, R_LAG, R_FLOOR
} SqFuncResult;
typedef enum SqFuncNulls { N_PROPAGATE, N_NEVER, N_ALWAYS, N_COALESCE, N_NUMERIC } SqFuncNulls;
enum {
    FL_NONDET = 1 << 0,
    FL_DATE = 1 << 1,
    FL_SPECIAL = 1 << 2,
    FL_LIKELIHOOD = 1 << 3,
};

typedef struct SqFuncDef {
    const char *name;  /* lower case */
    int8_t min_args;
    int8_t max_args;   /* -1: any number */
    uint8_t kind;      /* SqFuncKind */
    uint8_t result;    /* SqFuncResult */
    uint8_t nulls;     /* SqFuncNulls */
    uint8_t flags;     /* FL_* */
} SqFuncDef;

/* The definition of name (any case) that takes n_args arguments, or NULL.
** *name_exists tells whether the name exists with another arity. */
const SqFuncDef *sq_func_resolve(const char *name, int n_args, int *name_exists);

/* Whether some definition of name, of any arity, is of this kind. */
int sq_func_has_kind(const char *name, SqFuncKind kind);

/* Every definition, for suggestions ("did you mean"). */
const SqFuncDef *sq_func_all(size_t *n);

/* Argument counts a name accepts, worded for messages: "1", "1 or 2",
** "2 or more". */
void sq_func_arity_text(const char *name, char *out, size_t cap);

#endif
